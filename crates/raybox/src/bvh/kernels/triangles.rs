//! Four triangles against one ray at once: the watertight test of
//! `query/ray/ray_triangle.rs` on a structure-of-arrays block, with SSE (part of every
//! x86-64 CPU). Every lane does exactly the operations of the scalar kernel, in the same
//! order (no fused multiply-add), so each lane's `t`, `u`, `v` are bit-identical to it:
//! a shared edge is still evaluated identically in both triangles, and a lane that may hit
//! with an edge function exactly zero, or whose `det` or `t` is out of the `f32` path's
//! range, is handed to the scalar kernel, whose `f64` path decides it. Whether a lane may hit is one test of the least and the greatest of its
//! three edge functions (callgrind, AVX2, 20,000 hit rays: 1,120 -> 1,104 instructions a ray
//! on the bunny, 1,405 -> 1,382 on the 1M terrain, against testing each function's sign).

use glam::Vec3;

use super::PacketWoop;
use crate::query::{WoopRay, ray_triangle_watertight};

/// Up to 4 triangles of a leaf, vertex by vertex and axis by axis (`v[3 * vertex + axis]`
/// holds that coordinate of the 4 triangles). Unused lanes repeat the last triangle and
/// have `ids[lane] == u32::MAX`. 160 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C, align(16))]
pub(crate) struct TriBlock4 {
    pub v: [[f32; 4]; 9],
    pub ids: [u32; 4],
}

const _: () = assert!(core::mem::size_of::<TriBlock4>() == 160);

impl TriBlock4 {
    /// A block of 1 to 4 triangles `(id, vertices)`, in increasing `id` order (so that the
    /// first lane of equal `t` is the lowest index).
    pub fn new(triangles: &[(u32, [Vec3; 3])]) -> Self {
        debug_assert!((1..=4).contains(&triangles.len()));
        let n = triangles.len().min(4);
        // The lanes in id order: an insertion sort of at most 4 indices (the builders call
        // this once per leaf, so it shows in build times; a general sort of the 40-byte
        // tuples cost ~3x more).
        let mut order = [0usize, 1, 2, 3];
        for i in 1..n {
            let mut j = i;
            while j > 0 && triangles[order[j - 1] & 3].0 > triangles[order[j] & 3].0 {
                order.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut block = Self { v: [[0.0; 4]; 9], ids: [u32::MAX; 4] };
        for lane in 0..4 {
            // Padding lanes repeat the last triangle (with id `u32::MAX`, never reported).
            let (id, tri) = triangles[order[lane.min(n - 1)] & 3];
            if lane < n {
                block.ids[lane] = id;
            }
            for (vertex, p) in tri.iter().enumerate() {
                for axis in 0..3 {
                    block.v[3 * vertex + axis][lane] = p[axis];
                }
            }
        }
        block
    }

    /// The vertices of lane `lane`.
    #[inline]
    pub fn triangle(&self, lane: usize) -> [Vec3; 3] {
        crate::arrays::from_fn(|vertex| {
            Vec3::new(self.v[3 * vertex][lane], self.v[3 * vertex + 1][lane], self.v[3 * vertex + 2][lane])
        })
    }

    /// The lanes that hold a triangle (not padding).
    #[inline]
    pub fn lanes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..4).filter(|&l| self.ids[l] != u32::MAX)
    }
}

/// A ray made ready for block tests once per query: on x86-64, the axis permutation and
/// shear of its [`WoopRay`], computed here without tables and already broadcast to 4 lanes
/// (a walk tests many blocks with the same ray); elsewhere the `WoopRay` itself.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockRay {
    /// The ray, from which the rare block with a tie remakes the `WoopRay`.
    #[cfg(target_arch = "x86_64")]
    origin: Vec3,
    #[cfg(target_arch = "x86_64")]
    dir: Vec3,
    #[cfg(target_arch = "x86_64")]
    lanes: sse::RayLanes,
    #[cfg(not(target_arch = "x86_64"))]
    woop: WoopRay,
}

impl BlockRay {
    /// `dir` must be finite and not zero (as a [`crate::Ray3`]'s is).
    #[inline(always)]
    pub fn new(origin: Vec3, dir: Vec3) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            Self { origin, dir, lanes: sse::RayLanes::new(origin, dir) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Self { woop: WoopRay::new(origin, dir) }
        }
    }

    /// [`BlockRay::new`], bit for bit, with AVX's variable permute instead of indexed
    /// loads (the AVX2 and AVX-512 kernels' `block_ray`).
    ///
    /// # Safety
    /// The CPU must support AVX.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub unsafe fn new_avx(origin: Vec3, dir: Vec3) -> Self {
        // SAFETY: AVX per this function's contract.
        Self { origin, dir, lanes: unsafe { sse::RayLanes::new_avx(origin, dir) } }
    }

    /// `BlockRay::new` of ray `i` of a packet, from the packet's own set-up (the same
    /// axes and shear, bit for bit: `PacketWoop::new` computes them as `WoopRay::new`).
    #[inline(always)]
    pub fn of_packet<const N: usize>(w: &PacketWoop<'_, N>, i: usize) -> Self {
        let ray = &w.rays[i];
        #[cfg(target_arch = "x86_64")]
        {
            Self { origin: ray.origin(), dir: ray.dir(), lanes: sse::RayLanes::of_packet(w, i) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Self::new(ray.origin(), ray.dir())
        }
    }
}

/// The axis permutation `[kx, ky, kz]` of `WoopRay::new(_, dir)`, with selects instead of
/// its table (a test checks they agree): `kz` is the axis of the largest `|dir[k]|` (the
/// first of equals), and `kx`, `ky` the next two in cyclic order, swapped when the ray runs
/// down `kz` (which keeps the triangles' winding, so the sign of the edge functions).
/// `dir` must have no NaN.
#[inline(always)]
pub(crate) fn woop_axes(dir: Vec3) -> [usize; 3] {
    let a = dir.abs();
    // Plain comparisons: `f32::max` without its NaN rule.
    let kz = if a.z > (if a.y > a.x { a.y } else { a.x }) { 2 } else { usize::from(a.y > a.x) };
    let (kx, ky) = match kz {
        0 => (1, 2),
        1 => (2, 0),
        _ => (0, 1),
    };
    if dir[kz] < 0.0 { [ky, kx, kz] } else { [kx, ky, kz] }
}

/// The nearest hit among the block's triangles with `t` in `[t_min, t_max]`:
/// `(lane, t, u, v)`.
#[inline(always)]
pub(crate) fn intersect_block4(
    ray: &BlockRay,
    block: &TriBlock4,
    t_min: f32,
    t_max: f32,
) -> Option<(usize, f32, f32, f32)> {
    #[cfg(target_arch = "x86_64")]
    {
        sse::intersect(ray, block, t_min, t_max)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        scalar_block(&ray.woop, block, t_min, t_max)
    }
}

/// The nearest hit among the 8 triangles of the blocks `pair[0]` and `pair[1]` (a leaf of
/// two blocks) with `t` in `[t_min, t_max]`: `(lane, t, u, v)`, lane `4 b + l` for lane `l`
/// of block `b`. Of lanes at the same `t`, the first of a block wins, and between the two
/// blocks the lower triangle index: the answer of the two blocks tested one after the
/// other by [`intersect_block4`] with the walk's tie rule (`TriMesh::leaf_closest`).
#[inline(always)]
pub(crate) fn intersect_pair_sequential(
    ray: &BlockRay,
    pair: &[TriBlock4; 2],
    t_min: f32,
    t_max: f32,
) -> Option<(usize, f32, f32, f32)> {
    let first = intersect_block4(ray, &pair[0], t_min, t_max);
    let second = intersect_block4(ray, &pair[1], t_min, first.map_or(t_max, |h| h.1));
    match (first, second) {
        (Some(a), Some(b)) if b.1 < a.1 || (b.1 == a.1 && pair[1].ids[b.0] < pair[0].ids[a.0]) => {
            Some((4 + b.0, b.1, b.2, b.3))
        }
        (Some(a), _) => Some(a),
        (None, Some(b)) => Some((4 + b.0, b.1, b.2, b.3)),
        (None, None) => None,
    }
}

/// The block test one lane at a time, with the scalar kernel.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(crate) fn scalar_block(
    ray: &WoopRay,
    block: &TriBlock4,
    t_min: f32,
    mut t_max: f32,
) -> Option<(usize, f32, f32, f32)> {
    let mut best = None;
    for lane in block.lanes() {
        if let Some((t, u, v)) = ray_triangle_watertight(ray, block.triangle(lane), t_min, t_max) {
            // The first lane of the nearest `t` wins.
            if best.is_none_or(|(_, t_best, _, _)| t < t_best) {
                t_max = t;
                best = Some((lane, t, u, v));
            }
        }
    }
    best
}

#[cfg(target_arch = "x86_64")]
mod sse {
    use core::arch::x86_64::*;

    use glam::Vec3;

    use super::{BlockRay, PacketWoop, TriBlock4};
    use crate::arrays::Each;
    use crate::query::{DET_MAX, DET_MIN, WoopRay, ray_triangle_watertight};

    /// The per-ray values of the block test, in SSE registers' form.
    #[derive(Clone, Copy, Debug)]
    pub(super) struct RayLanes {
        /// `origin[kx]`, `origin[ky]`, `origin[kz]` in every lane.
        pub(super) o: [__m128; 3],
        /// The shear `(sx, sy, sz)` in every lane.
        pub(super) s: [__m128; 3],
        /// `kx`, `ky`, `kz`: a WoopRay's axes, a permutation of 0, 1, 2.
        pub(super) k: [usize; 3],
    }

    impl RayLanes {
        /// The axes and shear of `WoopRay::new(origin, dir)`, bit for bit (a test checks
        /// it), with selects instead of its table and one SSE division.
        #[inline(always)]
        pub(super) fn new(origin: Vec3, dir: Vec3) -> Self {
            let d = dir.to_array();
            let o = origin.to_array();
            let [kx, ky, kz] = super::woop_axes(dir);
            let dz = d[kz];
            // SAFETY: SSE is part of every x86-64 CPU.
            unsafe {
                // (d[kx], d[ky], 1) / d[kz] in one division, as `WoopRay::new` does.
                let s = _mm_div_ps(_mm_set_ps(0.0, 1.0, d[ky], d[kx]), _mm_set1_ps(dz));
                Self {
                    o: [_mm_set1_ps(o[kx]), _mm_set1_ps(o[ky]), _mm_set1_ps(o[kz])],
                    s: [
                        _mm_shuffle_ps::<0b00_00_00_00>(s, s),
                        _mm_shuffle_ps::<0b01_01_01_01>(s, s),
                        _mm_shuffle_ps::<0b10_10_10_10>(s, s),
                    ],
                    k: [kx, ky, kz],
                }
            }
        }
    }

    /// Per `2 kz + (1 if the ray runs down kz)`: `[kx, ky, kz]` as [`super::woop_axes`]
    /// makes them, and the same with a fourth lane (3) as a permute control.
    const AXES: [[usize; 3]; 6] = [[1, 2, 0], [2, 1, 0], [2, 0, 1], [0, 2, 1], [0, 1, 2], [1, 0, 2]];
    #[repr(C, align(16))]
    struct Controls([[i32; 4]; 6]);
    static CONTROLS: Controls = {
        let mut rows = [[3; 4]; 6];
        let mut i = 0;
        while i < 6 {
            let mut j = 0;
            while j < 3 {
                rows[i][j] = AXES[i][j] as i32;
                j += 1;
            }
            i += 1;
        }
        Controls(rows)
    };

    impl RayLanes {
        /// [`RayLanes::new`] without a branch or an indexed load: the axes from one table
        /// read, the permuted origin and direction from `vpermilps`, and the same division
        /// (`(d[kx], d[ky], 1) / d[kz]`), so the same bits.
        ///
        /// # Safety
        /// The CPU must support AVX.
        #[inline(always)]
        pub(super) unsafe fn new_avx(origin: Vec3, dir: Vec3) -> Self {
            let a = dir.abs();
            // As `woop_axes`: the largest |component|, the first of equals.
            let kz = if a.z > (if a.y > a.x { a.y } else { a.x }) { 2 } else { usize::from(a.y > a.x) };
            // `dir[kz]` is the largest component of a non-zero direction, so not zero: its
            // sign bit says whether `dir[kz] < 0`.
            let i = 2 * kz + ((dir.is_negative_bitmask() >> kz) as usize & 1);
            // SAFETY: AVX per this function's contract; `i < 6` (`kz <= 2`), and the control
            // rows are 16-byte aligned.
            unsafe {
                let control = _mm_load_si128(CONTROLS.0[i % 6].as_ptr().cast());
                let d = _mm_permutevar_ps(_mm_set_ps(0.0, dir.z, dir.y, dir.x), control);
                let o = _mm_permutevar_ps(_mm_set_ps(0.0, origin.z, origin.y, origin.x), control);
                // (d[kx], d[ky], 1, 0) / d[kz], as `WoopRay::new` divides.
                let num = _mm_blend_ps::<0b1100>(d, _mm_set_ps(0.0, 1.0, 0.0, 0.0));
                let s = _mm_div_ps(num, _mm_shuffle_ps::<0b10_10_10_10>(d, d));
                Self {
                    o: [
                        _mm_shuffle_ps::<0b00_00_00_00>(o, o),
                        _mm_shuffle_ps::<0b01_01_01_01>(o, o),
                        _mm_shuffle_ps::<0b10_10_10_10>(o, o),
                    ],
                    s: [
                        _mm_shuffle_ps::<0b00_00_00_00>(s, s),
                        _mm_shuffle_ps::<0b01_01_01_01>(s, s),
                        _mm_shuffle_ps::<0b10_10_10_10>(s, s),
                    ],
                    k: AXES[i % 6],
                }
            }
        }
    }

    impl RayLanes {
        /// The lanes of ray `i` of a packet, broadcast from its set-up.
        #[inline(always)]
        pub(super) fn of_packet<const N: usize>(w: &PacketWoop<'_, N>, i: usize) -> Self {
            // SAFETY: SSE is part of every x86-64 CPU.
            unsafe {
                Self {
                    o: [0, 1, 2].each(|a| _mm_set1_ps(w.o[a][i])),
                    s: [0, 1, 2].each(|a| _mm_set1_ps(w.s[a][i])),
                    k: w.k,
                }
            }
        }
    }

    #[inline(always)]
    pub(super) fn intersect(
        ray: &BlockRay,
        block: &TriBlock4,
        t_min: f32,
        t_max: f32,
    ) -> Option<(usize, f32, f32, f32)> {
        let RayLanes { o: [ox, oy, oz], s: [sx, sy, sz], k: [kx, ky, kz] } = ray.lanes;
        // SAFETY: SSE and SSE2 are part of every x86-64 CPU; the loads read rows of 4
        // floats inside `block` (16-byte aligned), the stores write local arrays.
        unsafe {
            // Row `3 vertex + axis` of the block; `vertex < 3` and `axis < 3` (a WoopRay's
            // axes are a permutation of 0, 1, 2), so the row is inside `block.v`.
            let rows = block.v.as_ptr().cast::<f32>();
            let row = |vertex: usize, axis: usize| _mm_load_ps(rows.add(4 * (3 * vertex + axis)));
            // Per vertex: a = v - origin; (ax, ay) = (a[kx] - sx * a[kz], a[ky] - sy * a[kz])
            let sheared = |vertex: usize| {
                let az = _mm_sub_ps(row(vertex, kz), oz);
                let ax = _mm_sub_ps(_mm_sub_ps(row(vertex, kx), ox), _mm_mul_ps(sx, az));
                let ay = _mm_sub_ps(_mm_sub_ps(row(vertex, ky), oy), _mm_mul_ps(sy, az));
                (ax, ay, az)
            };
            let (ax, ay, a_z) = sheared(0);
            let (bx, by, b_z) = sheared(1);
            let (cx, cy, c_z) = sheared(2);
            // u = cx*by - cy*bx; v = ax*cy - ay*cx; w = bx*ay - by*ax
            let u = _mm_sub_ps(_mm_mul_ps(cx, by), _mm_mul_ps(cy, bx));
            let v = _mm_sub_ps(_mm_mul_ps(ax, cy), _mm_mul_ps(ay, cx));
            let w = _mm_sub_ps(_mm_mul_ps(bx, ay), _mm_mul_ps(by, ax));
            let zero = _mm_setzero_ps();
            // A lane can hit only if no two edge functions have strictly opposite signs: the
            // least is >= 0 or the greatest <= 0 (the scalar test's `(u<0 || v<0 || w<0) &&
            // (u>0 || v>0 || w>0)` miss, negated).
            let lo = _mm_min_ps(_mm_min_ps(u, v), w);
            let hi = _mm_max_ps(_mm_max_ps(u, v), w);
            let inside = _mm_or_ps(_mm_cmpge_ps(lo, zero), _mm_cmple_ps(hi, zero));
            // `det` is NaN where an edge function is (two overflowing products): minps and
            // maxps pass a NaN over, so such a lane may hide an exact 0 from `lo` and `hi`;
            // it goes to the scalar kernel, whose `f64` path decides it (a rare lane, with
            // coordinates beyond 1e19).
            let det = _mm_add_ps(_mm_add_ps(u, v), w);
            let odd = _mm_cmpunord_ps(det, det);
            // Most blocks a ray reaches it misses altogether: stop before the division.
            if _mm_movemask_ps(_mm_or_ps(inside, odd)) == 0 {
                return None;
            }
            // A lane that may hit with an edge function exactly 0 goes to the scalar kernel
            // (its f64 fallback), as do the NaN lanes. A lane whose other two functions have
            // strictly opposite signs misses whatever the fallback finds: a non-zero `f32`
            // edge function has the exact value's sign (Woop et al. 2013), which the
            // fallback keeps.
            let ties =
                _mm_or_ps(_mm_and_ps(inside, _mm_or_ps(_mm_cmpeq_ps(lo, zero), _mm_cmpeq_ps(hi, zero))), odd);
            // r = 1 / det; the barycentrics u r, v r, w r; t = their weighted sum of the
            // scaled z (`query::ray::sheared_hit`'s `f32` path, operation for operation).
            let r = _mm_div_ps(_mm_set1_ps(1.0), det);
            let (bu, bv, bw) = (_mm_mul_ps(u, r), _mm_mul_ps(v, r), _mm_mul_ps(w, r));
            let t = _mm_add_ps(
                _mm_add_ps(_mm_mul_ps(bu, _mm_mul_ps(sz, a_z)), _mm_mul_ps(bv, _mm_mul_ps(sz, b_z))),
                _mm_mul_ps(bw, _mm_mul_ps(sz, c_z)),
            );
            // Lanes out of the `f32` path's range (|det| outside [DET_MIN, DET_MAX], or `t`
            // not finite) are the scalar kernel's too (its `f64` path).
            let abs = |x: __m128| _mm_andnot_ps(_mm_set1_ps(-0.0), x);
            let fits = _mm_and_ps(
                _mm_and_ps(
                    _mm_cmple_ps(_mm_set1_ps(DET_MIN), abs(det)),
                    _mm_cmple_ps(abs(det), _mm_set1_ps(DET_MAX)),
                ),
                _mm_cmple_ps(abs(t), _mm_set1_ps(f32::MAX)),
            );
            let ties = _mm_or_ps(ties, _mm_andnot_ps(fits, inside));
            // hit = inside && t_min <= t <= t_max (and not a lane of the scalar kernel's;
            // an inside lane with no edge function 0 has `det != 0`)
            let in_range =
                _mm_and_ps(_mm_cmple_ps(_mm_set1_ps(t_min), t), _mm_cmple_ps(t, _mm_set1_ps(t_max)));
            let hits = _mm_andnot_ps(ties, _mm_and_ps(inside, in_range));
            let hit_mask = _mm_movemask_ps(hits) as u32;
            let tie_mask = _mm_movemask_ps(ties) as u32;
            if tie_mask != 0 {
                return tie_block(
                    &WoopRay::new(ray.origin, ray.dir),
                    block,
                    t_min,
                    t_max,
                    hit_mask,
                    t,
                    bv,
                    bw,
                );
            }
            if hit_mask == 0 {
                return None;
            }
            // The nearest hit lane: the minimum of `t` over the hit lanes (others +inf),
            // then the first lane that holds it (padding lanes repeat the last real
            // triangle and come after it, so they never win).
            let t_hits = _mm_or_ps(_mm_and_ps(hits, t), _mm_andnot_ps(hits, _mm_set1_ps(f32::INFINITY)));
            let m = _mm_min_ps(t_hits, _mm_shuffle_ps::<0b10_11_00_01>(t_hits, t_hits));
            let m = _mm_min_ps(m, _mm_shuffle_ps::<0b01_00_11_10>(m, m));
            let lane = (_mm_movemask_ps(_mm_and_ps(_mm_cmpeq_ps(t_hits, m), hits)) as u32).trailing_zeros();
            let lane = lane as usize & 3;
            // The lane's own `t`, not the minimum's (of +0 and -0, minps keeps either).
            let mut lanes = [0.0f32; 4];
            _mm_storeu_ps(lanes.as_mut_ptr(), t);
            let t_lane = lanes[lane];
            _mm_storeu_ps(lanes.as_mut_ptr(), bv);
            let u_lane = lanes[lane];
            _mm_storeu_ps(lanes.as_mut_ptr(), bw);
            let v_lane = lanes[lane];
            Some((lane, t_lane, u_lane, v_lane))
        }
    }

    /// The rare block where some real lane has an edge function exactly 0 (or is out of
    /// the `f32` path's range): every lane in lane order, those through the scalar kernel
    /// (its `f64` path decides them).
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn tie_block(
        ray: &WoopRay,
        block: &TriBlock4,
        t_min: f32,
        t_max: f32,
        hit_mask: u32,
        t: __m128,
        u: __m128,
        v: __m128,
    ) -> Option<(usize, f32, f32, f32)> {
        let (mut ts, mut us, mut vs) = ([0.0f32; 4], [0.0f32; 4], [0.0f32; 4]);
        // SAFETY: SSE is part of every x86-64 CPU; the stores write local arrays.
        unsafe {
            _mm_storeu_ps(ts.as_mut_ptr(), t);
            _mm_storeu_ps(us.as_mut_ptr(), u);
            _mm_storeu_ps(vs.as_mut_ptr(), v);
        }
        let mut best: Option<(usize, f32, f32, f32)> = None;
        let mut limit = t_max;
        for lane in block.lanes() {
            let candidate = if hit_mask & (1 << lane) != 0 {
                Some((ts[lane], us[lane], vs[lane]))
            } else {
                ray_triangle_watertight(ray, block.triangle(lane), t_min, limit)
            };
            // The first lane of the nearest `t` wins, as in the vector path.
            if let Some((t, u, v)) = candidate.filter(|c| c.0 < limit || (c.0 == limit && best.is_none())) {
                limit = t;
                best = Some((lane, t, u, v));
            }
        }
        best
    }
}

/// The two-block leaf test in one pass of 256-bit vectors (the AVX2 and AVX-512 kernels):
/// each lane does the operations of `sse::intersect`, so the same bits.
///
/// Against the two blocks one after the other: under callgrind (AVX2, 20,000 rays that
/// hit, in a build switching between the two at run time) 1,209 -> 1,146 instructions a ray
/// on the bunny, 1,473 -> 1,421 on the 1M terrain;
/// timed in one process, alternating, 1 thread, `first_hit` loop: bunny 1.03x–1.05x
/// (scattered rays) and 1.02x–1.04x (camera), dragon 1.06x–1.10x, terrain 0.95x–1.04x
/// (within the noise).
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx {
    use core::arch::x86_64::*;

    use super::{BlockRay, TriBlock4, intersect_pair_sequential};
    use crate::query::{DET_MAX, DET_MIN};

    /// [`intersect_pair_sequential`], bit for bit, 8 lanes at once.
    ///
    /// # Safety
    /// The CPU must support AVX.
    #[inline(always)]
    pub(crate) unsafe fn intersect_pair(
        ray: &BlockRay,
        pair: &[TriBlock4; 2],
        t_min: f32,
        t_max: f32,
    ) -> Option<(usize, f32, f32, f32)> {
        // SAFETY: AVX per this function's contract; the loads read rows of 4 floats inside
        // the blocks (16-byte aligned), the stores write local arrays.
        unsafe {
            let Pass { u, v, w, det, inside, lo, hi, odd } = pass(ray, pair);
            // Most pairs a ray reaches it misses altogether: stop before the division.
            if _mm256_movemask_ps(_mm256_or_ps(inside, odd)) == 0 {
                return None;
            }
            if has_ties(inside, lo, hi, odd) {
                return pair_with_ties(ray, pair, t_min, t_max);
            }
            let Distances { t, bv, bw, hits, wild } =
                distances(ray, pair, (u, v, w), det, inside, t_min, t_max);
            if wild {
                return pair_with_ties(ray, pair, t_min, t_max);
            }
            let hit_mask = _mm256_movemask_ps(hits) as u32;
            if hit_mask == 0 {
                return None;
            }
            // The nearest hit lane: the minimum of `t` over the hit lanes (others +inf).
            let t_hits = _mm256_blendv_ps(_mm256_set1_ps(f32::INFINITY), t, hits);
            let m = _mm256_min_ps(t_hits, _mm256_permute_ps::<0b10_11_00_01>(t_hits));
            let m = _mm256_min_ps(m, _mm256_permute_ps::<0b01_00_11_10>(m));
            let m = _mm256_min_ps(m, _mm256_permute2f128_ps::<0x01>(m, m));
            let at_min =
                _mm256_movemask_ps(_mm256_and_ps(_mm256_cmp_ps::<_CMP_EQ_OQ>(t_hits, m), hits)) as u32;
            // Within a block the first lane of the nearest `t` wins (its lanes are in index
            // order; padding lanes repeat the last triangle and come after it); between the
            // blocks the lower index.
            let lane = if at_min & 0xf != 0 && at_min & 0xf0 != 0 {
                lower_id(pair, at_min)
            } else {
                at_min.trailing_zeros() as usize & 7
            };
            // The lane's own `t`, not the minimum's (of +0 and -0, minps keeps either).
            let mut lanes = [0.0f32; 8];
            _mm256_storeu_ps(lanes.as_mut_ptr(), t);
            let t_lane = lanes[lane];
            _mm256_storeu_ps(lanes.as_mut_ptr(), bv);
            let u_lane = lanes[lane];
            _mm256_storeu_ps(lanes.as_mut_ptr(), bw);
            let v_lane = lanes[lane];
            Some((lane, t_lane, u_lane, v_lane))
        }
    }

    /// Whether any of the 8 triangles of `pair` is hit with `t` in `[t_min, t_max]`.
    ///
    /// # Safety
    /// The CPU must support AVX.
    #[inline(always)]
    pub(crate) unsafe fn any_in_pair(ray: &BlockRay, pair: &[TriBlock4; 2], t_min: f32, t_max: f32) -> bool {
        // SAFETY: AVX per this function's contract (see `intersect_pair`).
        unsafe {
            let Pass { u, v, w, det, inside, lo, hi, odd } = pass(ray, pair);
            if _mm256_movemask_ps(_mm256_or_ps(inside, odd)) == 0 {
                return false;
            }
            if has_ties(inside, lo, hi, odd) {
                return intersect_pair_sequential(ray, pair, t_min, t_max).is_some();
            }
            let found = distances(ray, pair, (u, v, w), det, inside, t_min, t_max);
            if found.wild {
                return intersect_pair_sequential(ray, pair, t_min, t_max).is_some();
            }
            _mm256_movemask_ps(found.hits) != 0
        }
    }

    /// The rare pair with a lane for the scalar kernel, out of line: inlined, the two block
    /// tests kept both blocks' rows on the stack for it on every pair test (callgrind: 20
    /// instructions a bunny ray).
    #[cold]
    #[inline(never)]
    fn pair_with_ties(
        ray: &BlockRay,
        pair: &[TriBlock4; 2],
        t_min: f32,
        t_max: f32,
    ) -> Option<(usize, f32, f32, f32)> {
        intersect_pair_sequential(ray, pair, t_min, t_max)
    }

    /// Of two lanes at the same `t`, one in each block (bits of `at_min`), the one of the
    /// lower triangle index (rare: a ray through an edge shared across the two blocks).
    #[cold]
    #[inline(never)]
    fn lower_id(pair: &[TriBlock4; 2], at_min: u32) -> usize {
        let a = (at_min & 0xf).trailing_zeros() as usize & 3;
        let b = (at_min >> 4).trailing_zeros() as usize & 3;
        if pair[1].ids[b] < pair[0].ids[a] { 4 + b } else { a }
    }

    /// The edge functions of the 8 lanes, their sum, least and greatest, which lanes may
    /// hit, and which have a NaN sum (`sse::intersect`'s first half).
    struct Pass {
        u: __m256,
        v: __m256,
        w: __m256,
        det: __m256,
        inside: __m256,
        lo: __m256,
        hi: __m256,
        odd: __m256,
    }

    /// Whether a lane is the scalar kernel's: one that may hit with an edge function exactly
    /// 0, or one with a NaN (see `sse::intersect`).
    #[inline(always)]
    unsafe fn has_ties(inside: __m256, lo: __m256, hi: __m256, odd: __m256) -> bool {
        // SAFETY: AVX per the caller's contract.
        unsafe {
            let zero = _mm256_setzero_ps();
            let zeros =
                _mm256_or_ps(_mm256_cmp_ps::<_CMP_EQ_OQ>(lo, zero), _mm256_cmp_ps::<_CMP_EQ_OQ>(hi, zero));
            _mm256_movemask_ps(_mm256_or_ps(_mm256_and_ps(inside, zeros), odd)) != 0
        }
    }

    /// Row `3 vertex + axis` of both blocks of `pair` in one vector (block 0 low).
    ///
    /// # Safety
    /// AVX, `vertex < 3` and `axis < 3`. (A function, not a closure: closures do not
    /// inherit the caller's target features.)
    #[inline(always)]
    unsafe fn row(pair: &[TriBlock4; 2], vertex: usize, axis: usize) -> __m256 {
        let at = 3 * vertex + axis;
        // SAFETY: per this function's contract the row is inside both blocks, whose rows
        // are 16-byte aligned.
        unsafe { _mm256_set_m128(_mm_load_ps(pair[1].v[at].as_ptr()), _mm_load_ps(pair[0].v[at].as_ptr())) }
    }

    /// `x` in both halves.
    #[inline(always)]
    unsafe fn wide(x: __m128) -> __m256 {
        // SAFETY: AVX per the caller's contract.
        unsafe { _mm256_set_m128(x, x) }
    }

    #[inline(always)]
    unsafe fn pass(ray: &BlockRay, pair: &[TriBlock4; 2]) -> Pass {
        let super::sse::RayLanes { o, s, k: [kx, ky, kz] } = ray.lanes;
        // SAFETY: AVX per the caller's contract; the ray's axes are a permutation of 0, 1, 2.
        unsafe {
            let (ox, oy, oz, sx, sy) = (wide(o[0]), wide(o[1]), wide(o[2]), wide(s[0]), wide(s[1]));
            // Per vertex: a = v - origin; (ax, ay) = (a[kx] - sx * a[kz], a[ky] - sy * a[kz])
            let mut x = [_mm256_setzero_ps(); 3];
            let mut y = [_mm256_setzero_ps(); 3];
            for vertex in 0..3 {
                let az = _mm256_sub_ps(row(pair, vertex, kz), oz);
                x[vertex] = _mm256_sub_ps(_mm256_sub_ps(row(pair, vertex, kx), ox), _mm256_mul_ps(sx, az));
                y[vertex] = _mm256_sub_ps(_mm256_sub_ps(row(pair, vertex, ky), oy), _mm256_mul_ps(sy, az));
            }
            let ([ax, bx, cx], [ay, by, cy]) = (x, y);
            let u = _mm256_sub_ps(_mm256_mul_ps(cx, by), _mm256_mul_ps(cy, bx));
            let v = _mm256_sub_ps(_mm256_mul_ps(ax, cy), _mm256_mul_ps(ay, cx));
            let w = _mm256_sub_ps(_mm256_mul_ps(bx, ay), _mm256_mul_ps(by, ax));
            let zero = _mm256_setzero_ps();
            // The operands in the order of `sse::intersect`'s minps/maxps (NaN rules).
            let lo = _mm256_min_ps(_mm256_min_ps(u, v), w);
            let hi = _mm256_max_ps(_mm256_max_ps(u, v), w);
            let inside =
                _mm256_or_ps(_mm256_cmp_ps::<_CMP_GE_OQ>(lo, zero), _mm256_cmp_ps::<_CMP_LE_OQ>(hi, zero));
            let det = _mm256_add_ps(_mm256_add_ps(u, v), w);
            let odd = _mm256_cmp_ps::<_CMP_UNORD_Q>(det, det);
            Pass { u, v, w, det, inside, lo, hi, odd }
        }
    }

    /// Each lane's `t` and barycentrics `(v, w) / det`, which lanes hit within
    /// `[t_min, t_max]`, and whether some lane that may hit is out of the `f32` path's range
    /// (`sse::intersect`'s second half).
    #[inline(always)]
    unsafe fn distances(
        ray: &BlockRay,
        pair: &[TriBlock4; 2],
        (u, v, w): (__m256, __m256, __m256),
        det: __m256,
        inside: __m256,
        t_min: f32,
        t_max: f32,
    ) -> Distances {
        let super::sse::RayLanes { o, s, k: [_, _, kz] } = ray.lanes;
        // SAFETY: AVX per the caller's contract; `kz < 3`.
        unsafe {
            let (oz, sz) = (wide(o[2]), wide(s[2]));
            let a_z = _mm256_sub_ps(row(pair, 0, kz), oz);
            let b_z = _mm256_sub_ps(row(pair, 1, kz), oz);
            let c_z = _mm256_sub_ps(row(pair, 2, kz), oz);
            let [t, bv, bw, fits] = interpolate((u, v, w), det, sz, [a_z, b_z, c_z]);
            let wild = _mm256_movemask_ps(_mm256_andnot_ps(fits, inside)) != 0;
            let in_range = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_LE_OQ>(_mm256_set1_ps(t_min), t),
                _mm256_cmp_ps::<_CMP_LE_OQ>(t, _mm256_set1_ps(t_max)),
            );
            Distances { t, bv, bw, hits: _mm256_and_ps(inside, in_range), wild }
        }
    }

    /// `query::ray::sheared_hit`'s `f32` path on 8 lanes, operation for operation:
    /// `r = 1 / det`; the barycentrics `u r`, `v r`, `w r`; `t = u r (sz az) + v r (sz bz) +
    /// w r (sz cz)`. Returns `[t, v r, w r, fits]`, `fits` the lanes within that path's range
    /// (`DET_MIN <= |det| <= DET_MAX` and `t` finite); the others are the scalar kernel's
    /// (its `f64` path). Shared with the AVX2 packet test (`avx2::packet_block`).
    ///
    /// # Safety
    /// The CPU must support AVX.
    #[inline(always)]
    pub(crate) unsafe fn interpolate(
        (u, v, w): (__m256, __m256, __m256),
        det: __m256,
        sz: __m256,
        [a_z, b_z, c_z]: [__m256; 3],
    ) -> [__m256; 4] {
        // SAFETY: AVX per this function's contract.
        unsafe {
            let r = _mm256_div_ps(_mm256_set1_ps(1.0), det);
            let (bu, bv, bw) = (_mm256_mul_ps(u, r), _mm256_mul_ps(v, r), _mm256_mul_ps(w, r));
            let t = _mm256_add_ps(
                _mm256_add_ps(
                    _mm256_mul_ps(bu, _mm256_mul_ps(sz, a_z)),
                    _mm256_mul_ps(bv, _mm256_mul_ps(sz, b_z)),
                ),
                _mm256_mul_ps(bw, _mm256_mul_ps(sz, c_z)),
            );
            let sign = _mm256_set1_ps(-0.0);
            let (abs_det, abs_t) = (_mm256_andnot_ps(sign, det), _mm256_andnot_ps(sign, t));
            let fits = _mm256_and_ps(
                _mm256_and_ps(
                    _mm256_cmp_ps::<_CMP_LE_OQ>(_mm256_set1_ps(DET_MIN), abs_det),
                    _mm256_cmp_ps::<_CMP_LE_OQ>(abs_det, _mm256_set1_ps(DET_MAX)),
                ),
                _mm256_cmp_ps::<_CMP_LE_OQ>(abs_t, _mm256_set1_ps(f32::MAX)),
            );
            [t, bv, bw, fits]
        }
    }

    /// What [`distances`] finds.
    struct Distances {
        t: __m256,
        bv: __m256,
        bw: __m256,
        hits: __m256,
        /// Some lane that may hit is out of the `f32` path's range: the pair is the scalar
        /// kernel's.
        wild: bool,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrays::Each;
    #[cfg(target_arch = "x86_64")]
    use crate::bvh::kernels::{Kernel, NodeKernel, with_kernel};
    use crate::mesh::scene::Pcg32;

    #[test]
    fn simd_block_matches_the_scalar_kernel_bit_for_bit() {
        let mut rng = Pcg32::new(42);
        let mut compared = 0;
        for _ in 0..20_000 {
            let tris: Vec<(u32, [Vec3; 3])> = (0..1 + (rng.next_u32() % 4) as usize)
                .map(|i| {
                    let c = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
                    (i as u32, [0, 1, 2].each(|_| c + rng.unit_vector() * rng.range(0.0, 1.5)))
                })
                .collect();
            let block = TriBlock4::new(&tris);
            // Aim at a vertex or an edge midpoint now and then, to exercise exact ties.
            let target = match rng.next_u32() % 3 {
                0 => tris[0].1[0],
                1 => (tris[0].1[0] + tris[0].1[1]) * 0.5,
                _ => Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
            };
            let o = rng.unit_vector() * 4.0;
            let ray = WoopRay::new(o, target - o);
            let t_max = if rng.next_u32().is_multiple_of(4) { rng.range(2.0, 5.0) } else { f32::INFINITY };
            let got = intersect_block4(&BlockRay::new(o, target - o), &block, 0.0, t_max);
            let want = scalar_block(&ray, &block, 0.0, t_max);
            assert_eq!(got, want);
            assert!(got.is_none_or(|g| block.ids[g.0] != u32::MAX), "a padding lane was reported");
            compared += usize::from(want.is_some());
        }
        assert!(compared > 5_000, "only {compared} hits compared");
    }

    /// Coordinates near `f32::MAX` overflow the edge functions to infinities and NaNs: the
    /// vector block test must still answer as the scalar kernel does, lane by lane.
    #[test]
    fn overflowing_blocks_match_the_scalar_kernel() {
        let mut rng = Pcg32::new(5);
        let big = [f32::MAX, -f32::MAX, 1e38, -1e38, 1e19, -1e19, 0.0, 1.0];
        let pick = |rng: &mut Pcg32| big[(rng.next_u32() % big.len() as u32) as usize];
        for _ in 0..20_000 {
            let tris: Vec<(u32, [Vec3; 3])> = (0..4)
                .map(|i| (i, [0, 1, 2].each(|_| Vec3::new(pick(&mut rng), pick(&mut rng), pick(&mut rng)))))
                .collect();
            let block = TriBlock4::new(&tris);
            let pair = [block, TriBlock4::new(&tris[..2])];
            let o = Vec3::new(pick(&mut rng), pick(&mut rng), pick(&mut rng));
            let d = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            if d == Vec3::ZERO {
                continue;
            }
            let want = scalar_block(&WoopRay::new(o, d), &block, 0.0, f32::INFINITY);
            let bits = |h: Option<(usize, f32, f32, f32)>| {
                h.map(|(l, t, u, v)| (l, t.to_bits(), u.to_bits(), v.to_bits()))
            };
            assert_eq!(bits(intersect_block4(&BlockRay::new(o, d), &block, 0.0, f32::INFINITY)), bits(want));
            let want = intersect_pair_sequential(&BlockRay::new(o, d), &pair, 0.0, f32::INFINITY);
            #[cfg(target_arch = "x86_64")]
            for kernel in Kernel::all_supported() {
                let ray = with_kernel!(kernel, |k| k.block_ray(o, d));
                let got = with_kernel!(kernel, |k| k.intersect_pair(&ray, &pair, 0.0, f32::INFINITY));
                assert_eq!(bits(got), bits(want), "{}: {tris:?} from {o} along {d}", kernel.name());
            }
        }
    }

    /// The same triangle in both blocks of a pair, hit through its interior (no edge
    /// function 0, so the 8-lane pass decides the tie itself): the lower index wins, in
    /// either block. And a triangle whose edge functions overflow (one exactly 0, two NaN):
    /// the scalar kernel's `f64` fallback finds its hit at `t = 1`, and so must the pair.
    #[test]
    fn a_pair_breaks_ties_by_index_and_finds_hits_behind_nans() {
        let tri = [Vec3::new(-1.0, -1.0, 2.0), Vec3::new(1.0, -1.0, 2.0), Vec3::new(0.0, 1.0, 2.0)];
        let other = |k: f32| {
            [Vec3::new(5.0 + k, 0.0, 0.0), Vec3::new(6.0 + k, 0.0, 0.0), Vec3::new(5.0 + k, 1.0, 0.0)]
        };
        let nan_tri = [Vec3::new(1e20, 9e19, 1.0), Vec3::new(-1e19, -1e19, 1.0), Vec3::new(1e19, 1e19, 1.0)];
        let mut kernels_with_pairs = 0;
        for (first, second, want_lane, want_t) in [
            // (block 0, block 1, the lane that must win, its `t`)
            ([(7, tri), (8, other(0.0))], [(3, tri), (9, other(1.0))], 4, 2.0),
            ([(2, tri), (8, other(0.0))], [(3, tri), (9, other(1.0))], 0, 2.0),
            ([(1, other(0.0)), (2, other(2.0))], [(3, nan_tri), (4, other(1.0))], 4, 1.0),
            ([(1, nan_tri), (2, other(2.0))], [(3, other(3.0)), (4, other(1.0))], 0, 1.0),
        ] {
            let pair = [TriBlock4::new(&first), TriBlock4::new(&second)];
            let (o, d) = (Vec3::new(0.1, -0.2, 0.0), Vec3::Z);
            let want = intersect_pair_sequential(&BlockRay::new(o, d), &pair, 0.0, f32::INFINITY);
            assert_eq!(
                want.map(|h| (h.0, h.1)),
                Some((want_lane, want_t)),
                "sequential on {first:?} {second:?}"
            );
            #[cfg(target_arch = "x86_64")]
            for kernel in Kernel::all_supported() {
                let ray = with_kernel!(kernel, |k| k.block_ray(o, d));
                let got = with_kernel!(kernel, |k| k.intersect_pair(&ray, &pair, 0.0, f32::INFINITY));
                assert_eq!(got, want, "{}", kernel.name());
                assert!(with_kernel!(kernel, |k| k.any_in_pair(&ray, &pair, 0.0, f32::INFINITY)));
                kernels_with_pairs += usize::from(kernel != Kernel::Scalar);
            }
        }
        // The 8-lane pass was tested wherever the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        assert!(kernels_with_pairs > 0 || !std::is_x86_feature_detected!("avx2"));
    }

    /// Two blocks of a leaf in one 8-lane pass (the AVX kernels) give the answer of the
    /// blocks tested one after the other, bit for bit: lane, `t`, `u`, `v`, with rays through
    /// vertices and edges shared across the two blocks (equal `t` in both: the lower index
    /// wins) and lanes with an edge function exactly 0 (the scalar fallback).
    #[test]
    fn a_pair_of_blocks_in_one_pass_matches_the_blocks_one_by_one() {
        let mut rng = Pcg32::new(99);
        let (mut hits, mut across) = (0, 0);
        for _ in 0..40_000 {
            // A fan of 5 to 8 triangles around a centre (neighbours share an edge), their
            // indices shuffled, so a ray through the centre or a shared edge ties lanes of
            // both blocks.
            let n = 5 + (rng.next_u32() % 4) as usize;
            let centre = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            let rim: Vec<Vec3> = (0..=n).map(|_| centre + rng.unit_vector() * rng.range(0.2, 1.5)).collect();
            let mut ids: Vec<u32> = (0..n as u32).map(|i| i * 7 % 11).collect();
            for i in (1..n).rev() {
                ids.swap(i, rng.next_u32() as usize % (i + 1));
            }
            let tris: Vec<(u32, [Vec3; 3])> =
                (0..n).map(|i| (ids[i], [centre, rim[i], rim[i + 1]])).collect();
            let pair = [TriBlock4::new(&tris[..4]), TriBlock4::new(&tris[4..])];
            let target = match rng.next_u32() % 4 {
                0 => centre,
                1 => rim[1 + (rng.next_u32() as usize % (n - 1))],
                2 => (centre + rim[4]) * 0.5,
                _ => centre + rng.unit_vector() * rng.range(0.0, 1.0),
            };
            let o = target + rng.unit_vector() * rng.range(1.0, 4.0);
            let ray = BlockRay::new(o, target - o);
            let t_min = if rng.next_u32().is_multiple_of(8) { 1.0 } else { 0.0 };
            let t_max = if rng.next_u32().is_multiple_of(4) { rng.range(0.5, 1.5) } else { f32::INFINITY };
            let want = intersect_pair_sequential(&ray, &pair, t_min, t_max);
            #[cfg(target_arch = "x86_64")]
            for kernel in Kernel::all_supported() {
                let ray = with_kernel!(kernel, |k| k.block_ray(o, target - o));
                let got = with_kernel!(kernel, |k| k.intersect_pair(&ray, &pair, t_min, t_max));
                let got = got.map(|(l, t, u, v)| (l, t.to_bits(), u.to_bits(), v.to_bits()));
                let bits = want.map(|(l, t, u, v)| (l, t.to_bits(), u.to_bits(), v.to_bits()));
                assert_eq!(got, bits, "{} on {tris:?}, ray {o} -> {target}", kernel.name());
                let any = with_kernel!(kernel, |k| k.any_in_pair(&ray, &pair, t_min, t_max));
                assert_eq!(any, want.is_some(), "{} any hit", kernel.name());
            }
            if let Some((lane, ..)) = want {
                assert!(pair[lane / 4].ids[lane & 3] != u32::MAX, "a padding lane was reported");
                hits += 1;
                across += usize::from(lane >= 4);
            }
        }
        assert!(hits > 10_000 && across > 2_000, "only {hits} hits, {across} in the second block");
    }

    /// `BlockRay` computes the `WoopRay`'s axes and shear its own way: they must agree bit
    /// for bit, ties between components, zeros and negative zeros included.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn block_ray_makes_the_woop_rays_axes_and_shear() {
        use core::arch::x86_64::_mm_cvtss_f32;
        let mut rng = Pcg32::new(7);
        let picks = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 3.0];
        for i in 0..20_000 {
            let dir = if i % 2 == 0 {
                rng.unit_vector() * rng.range(0.01, 100.0)
            } else {
                Vec3::from_array([0, 1, 2].each(|_| picks[(rng.next_u32() % picks.len() as u32) as usize]))
            };
            if dir == Vec3::ZERO {
                continue;
            }
            let origin = Vec3::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
            let (o, k, s) = WoopRay::new(origin, dir).parts();
            // SAFETY: SSE is part of every x86-64 CPU.
            let got = |v: [core::arch::x86_64::__m128; 3]| v.each(|x| unsafe { _mm_cvtss_f32(x) }.to_bits());
            // `BlockRay::new`, and each kernel's own set-up (AVX's permutes on AVX2 and
            // AVX-512).
            let made = Kernel::all_supported()
                .into_iter()
                .map(|kernel| (kernel.name(), with_kernel!(kernel, |k| k.block_ray(origin, dir))));
            for (name, ray) in [("BlockRay::new", BlockRay::new(origin, dir))].into_iter().chain(made) {
                let lanes = ray.lanes;
                assert_eq!(lanes.k, k, "{name}: axes of {dir}");
                assert_eq!(got(lanes.s), [s.x, s.y, s.z].each(f32::to_bits), "{name}: shear of {dir}");
                assert_eq!(got(lanes.o), k.each(|a| o[a].to_bits()), "{name}: origin of {dir}");
                // Every lane, not only the first: the block test reads all four.
                for v in lanes.s.iter().chain(&lanes.o) {
                    let mut four = [0.0f32; 4];
                    // SAFETY: SSE; the store writes a local array of 4 floats.
                    unsafe { core::arch::x86_64::_mm_storeu_ps(four.as_mut_ptr(), *v) };
                    assert!(four.iter().all(|x| x.to_bits() == four[0].to_bits()), "{name}: lanes of {dir}");
                }
            }
        }
    }
}
