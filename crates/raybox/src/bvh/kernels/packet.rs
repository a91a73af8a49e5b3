//! Packets: 8 or 16 rays (`N`) that run the same way walk the tree together, so that one test of a
//! node's 8 children serves all of them (Wald, Boulos and Shirley, *Ray Tracing Deformable
//! Scenes Using Dynamic Bounding Volume Hierarchies*, ACM TOG 2007: the interval-arithmetic
//! test of a packet against a box).
//!
//! Each test has a plain reference here and an AVX version in `avx2.rs` (also used by the
//! AVX-512 kernel), which the tests compare:
//! - [`scalar_packet_node`]: the packet against the 8 children of a node, conservatively:
//!   a child passes when *some* ray of the packet may enter it. It bounds every ray's slab
//!   distances from below (near planes) and above (far planes) with the extremes of the
//!   packet's origins and reciprocal directions. Rounding is monotonic, so each bound is
//!   also a bound of every ray's *computed* distance, and the padding of the single-ray
//!   kernels (Ize 2013) keeps it conservative: no ray ever misses a box it enters.
//! - [`scalar_rays_in_box`]: each ray of the packet against one child box, with the
//!   single-ray kernels' own arithmetic: the walk runs it before a leaf, so that a ray
//!   tests the triangles of a leaf only when it may enter the leaf's box, as alone.
//! - [`scalar_packet_block`]: the rays against a leaf's triangles with the scalar watertight
//!   kernel; the AVX version tests 8 rays per vector, one triangle at a time, with the same
//!   operations per lane (the same bits), and sends a lane with an exact-zero edge function
//!   to the scalar kernel ([`scalar_tie`]).
//! - [`scalar_ray_lanes`]: the rays lane by lane; the AVX version is an 8x8 transpose.
//!
//! The AVX-512 kernel has 16-ray versions too (`avx512.rs`), with one 512-bit vector per
//! row: a 4x4 tile of camera rays is one packet.

use crate::arrays::Each;
use glam::Vec3;

use super::{NodeHits, TriBlock4, padded};
use crate::bvh::node::WideNode;
use crate::query::{WoopRay, ray_triangle_watertight};

/// Rays in a packet (every kernel's packets; the AVX-512 kernel's also come [`WIDE`] wide).
pub(crate) const PACKET: usize = 8;

/// Rays in a wide packet: a 4x4 tile of camera rays, one 512-bit vector of `f32` per row
/// (the AVX-512 kernel's packets; the others trace them only in the tests, with the
/// references of this file).
pub(crate) const WIDE: usize = 16;

/// Up to `N` rays made ready for the packet tests, structure-of-arrays. All run the same way
/// along each axis (same `near`, `far` plane rows) and none parallel to an axis.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct RayPacket<const N: usize = PACKET> {
    /// Per axis, the rays' origins (a ray not in the packet repeats another's values).
    pub origin: [[f32; N]; 3],
    /// Per axis, the rays' reciprocal directions (all finite, one sign per axis).
    pub rdir: [[f32; N]; 3],
    /// The rays' `t_min`.
    pub t_min: [f32; N],
    /// Per axis, the origin bound that gives the least distance to a near plane: the
    /// greatest origin when the rays run up the axis, the least otherwise.
    pub o_near: [f32; 3],
    /// Per axis, the origin bound that gives the greatest distance to a far plane.
    pub o_far: [f32; 3],
    /// Per axis, the least and greatest reciprocal direction.
    pub r_lo: [f32; 3],
    pub r_hi: [f32; 3],
    /// The least `t_min`.
    pub t_min_lo: f32,
    /// The plane rows the rays meet first and last on each axis (shared by all).
    pub near: [usize; 3],
    pub far: [usize; 3],
}

impl<const N: usize> RayPacket<N> {
    /// The packet of `N` rays given lane by lane (origins, directions, `t_min`): `None` when
    /// they do not all run the same way along every axis or one runs parallel to an axis
    /// plane (its reciprocal direction is not finite). Each ray's values are those of its
    /// `PreparedRay` (the same reciprocal, the same plane rows), computed a row at a time.
    #[inline(always)]
    pub fn from_lanes(origin: &[[f32; N]; 3], dir: &[[f32; N]; 3], t_min: &[f32; N]) -> Option<Self> {
        // Lane by lane `1 / dir`, correctly rounded as in `PreparedRay::new`.
        let rdir: [[f32; N]; 3] = crate::arrays::from_fn(|k| crate::arrays::from_fn(|i| 1.0 / dir[k][i]));
        let mut near = [0; 3];
        let mut far = [0; 3];
        let (mut o_near, mut o_far, mut r_lo, mut r_hi) = ([0.0; 3], [0.0; 3], [0.0; 3], [0.0; 3]);
        for k in 0..3 {
            let r = &rdir[k];
            // All finite and of one sign (the sign bit, as `PreparedRay::new` reads it):
            // the bits, OR-ed and AND-ed over the lanes, in integer form.
            let down = r[0].is_sign_negative();
            let (any_sign, all_sign) =
                r.iter().fold((0u32, u32::MAX), |(o, a), x| (o | x.to_bits(), a & x.to_bits()));
            let finite = r.iter().fold(0u32, |m, x| m.max(x.to_bits() & 0x7fff_ffff)) < 0x7f80_0000;
            if !finite || (any_sign >> 31) != (all_sign >> 31) {
                return None;
            }
            near[k] = k + 3 * usize::from(down);
            far[k] = k + 3 * usize::from(!down);
            let (mut lo, mut hi) = (r[0], r[0]);
            let (mut o_lo, mut o_hi) = (origin[k][0], origin[k][0]);
            for i in 1..N {
                lo = if r[i] < lo { r[i] } else { lo };
                hi = if r[i] > hi { r[i] } else { hi };
                o_lo = if origin[k][i] < o_lo { origin[k][i] } else { o_lo };
                o_hi = if origin[k][i] > o_hi { origin[k][i] } else { o_hi };
            }
            (r_lo[k], r_hi[k]) = (lo, hi);
            // As in `new`: up the axis the least (near plane - o) is from the greatest origin.
            (o_near[k], o_far[k]) = if down { (o_lo, o_hi) } else { (o_hi, o_lo) };
        }
        let t_min_lo = t_min.iter().fold(t_min[0], |m, &t| if t < m { t } else { m });
        Some(Self { origin: *origin, rdir, t_min: *t_min, o_near, o_far, r_lo, r_hi, t_min_lo, near, far })
    }

    /// The packet test of one box, whose plane rows (min x, y, z, max x, y, z, as in
    /// `WideNode::planes`) `plane(row)` gives, within `[t_min_lo, t_max]`: `None` when no ray
    /// of the packet can enter the box (never a false miss), else a lower bound of where
    /// any ray enters it. Reads only the extremes (`o_near` … `far`), not the lanes.
    #[inline(always)]
    pub fn box_entry(&self, plane: impl Fn(usize) -> f32, t_max: f32) -> Option<f32> {
        let mut t_enter = self.t_min_lo;
        let mut t_exit = t_max;
        for k in 0..3 {
            // Every ray's (near - o) * rdir is at least the least of the corner products
            // (one sign of rdir per axis); likewise at most for the far plane.
            let x = plane(self.near[k]) - self.o_near[k];
            let t_near = (x * self.r_lo[k]).min(x * self.r_hi[k]);
            let y = plane(self.far[k]) - self.o_far[k];
            let t_far = (y * self.r_lo[k]).max(y * self.r_hi[k]);
            t_enter = t_enter.max(t_near);
            t_exit = t_exit.min(t_far);
        }
        padded(t_enter, t_exit)
    }
}

/// What `PacketKernel::packet_start` makes of `N` rays.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Started<'r, const N: usize = PACKET> {
    /// The rays do not make a packet: they go one by one.
    Incoherent,
    /// No ray can enter the box given to `packet_start` (the packet test of that box says
    /// so): every ray misses what the box holds. Decided as soon as the rays' extremes are
    /// known, before the lane-by-lane set-up (the camera's tiles that miss the mesh).
    Outside,
    /// A packet ready to trace.
    Packet(PacketStart<'r, N>),
}

/// A packet ready to trace: its box-test set-up, its triangle-test set-up and the rays'
/// `t_max`, made by `PacketKernel::packet_start` (the reference: [`scalar_packet_start`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PacketStart<'r, const N: usize = PACKET> {
    pub packet: RayPacket<N>,
    pub woop: PacketWoop<'r, N>,
    pub t_max: [f32; N],
}

/// Whether `N` rays (given lane by lane in `lanes`, `PacketKernel::ray_lanes`) make a packet,
/// and if so its set-up: they must run the same way along every axis and none parallel
/// to an axis plane ([`RayPacket::from_lanes`]), their origins must lie within `spread`
/// of each other on every axis, their directions within about 3 degrees of the first
/// ray's, and their `WoopRay`s must share their axes ([`PacketWoop::new`]). Rays that pass
/// the first two checks and that the packet test of the box `bounds` (min x, y, z, max x,
/// y, z) says all miss it are [`Started::Outside`], with no further set-up.
#[inline(always)]
pub(crate) fn scalar_packet_start<'r, const N: usize>(
    rays: &'r [crate::Ray3; N],
    lanes: &[[f32; N]; 8],
    spread: f32,
    bounds: [f32; 6],
) -> Started<'r, N> {
    let origin = [lanes[0], lanes[1], lanes[2]];
    let dir = [lanes[3], lanes[4], lanes[5]];
    let Some(packet) = RayPacket::from_lanes(&origin, &dir, &lanes[6]) else { return Started::Incoherent };
    if (0..3).any(|k| (packet.o_near[k] - packet.o_far[k]).abs() > spread) {
        return Started::Incoherent;
    }
    let t_max_hi = lanes[7].iter().fold(lanes[7][0], |m, &t| if t > m { t } else { m });
    if packet.box_entry(|row| bounds[row % 6], t_max_hi).is_none() {
        return Started::Outside;
    }
    // (d . d0)^2 >= cos^2 |d|^2 |d0|^2, with d . d0 > 0 as the signs agree.
    let d0 = [dir[0][0], dir[1][0], dir[2][0]];
    let d0_sq = d0[0] * d0[0] + d0[1] * d0[1] + d0[2] * d0[2];
    let close: [bool; N] = crate::arrays::from_fn(|i| {
        let dot = dir[0][i] * d0[0] + dir[1][i] * d0[1] + dir[2][i] * d0[2];
        let len_sq = dir[0][i] * dir[0][i] + dir[1][i] * dir[1][i] + dir[2][i] * dir[2][i];
        dot * dot >= 0.997 * len_sq * d0_sq
    });
    if close.contains(&false) {
        return Started::Incoherent;
    }
    match PacketWoop::new(rays, lanes) {
        Some(woop) => Started::Packet(PacketStart { packet, woop, t_max: lanes[7] }),
        None => Started::Incoherent,
    }
}

/// The packet against the 8 children of `node` within `[t_min_lo, t_max]`: bit `i` of the
/// mask is set when some ray of the packet may enter child `i` (never a false miss);
/// `t_enter[i]` is at most where any ray enters it.
pub(crate) fn scalar_packet_node<const N: usize>(p: &RayPacket<N>, node: &WideNode, t_max: f32) -> NodeHits {
    let mut hits = NodeHits { mask: 0, t_enter: [f32::INFINITY; 8] };
    for lane in 0..8 {
        if let Some(t_enter) = p.box_entry(|row| node.planes[row][lane], t_max) {
            hits.mask |= 1 << lane;
            hits.t_enter[lane] = t_enter;
        }
    }
    hits
}

/// Each ray of the packet against child `child` of `node`, within its own `[t_min,
/// t_max[i]]`: bit `i` set when ray `i` may enter the box (the single-ray kernels' test).
pub(crate) fn scalar_rays_in_box<const N: usize>(
    p: &RayPacket<N>,
    node: &WideNode,
    child: usize,
    t_max: &[f32; N],
) -> u32 {
    let b = node.child_bounds(child);
    rays_in_bounds(p, b.min.to_array(), b.max.to_array(), t_max)
}

/// Each ray of `p` against the box `[min, max]` within `[t_min, t_max[i]]` (the single-ray
/// kernels' test): bit `i` set when ray `i` may enter it.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // lane `i` of several arrays
pub(crate) fn rays_in_bounds<const N: usize>(
    p: &RayPacket<N>,
    min: [f32; 3],
    max: [f32; 3],
    t_max: &[f32; N],
) -> u32 {
    let planes = [min[0], min[1], min[2], max[0], max[1], max[2]];
    let mut mask = 0;
    for i in 0..N {
        let mut t_enter = p.t_min[i];
        let mut t_exit = t_max[i];
        for k in 0..3 {
            let t_near = (planes[p.near[k]] - p.origin[k][i]) * p.rdir[k][i];
            let t_far = (planes[p.far[k]] - p.origin[k][i]) * p.rdir[k][i];
            t_enter = t_enter.max(t_near);
            t_exit = t_exit.min(t_far);
        }
        mask |= u32::from(padded(t_enter, t_exit).is_some()) << i;
    }
    mask
}

/// The watertight triangle test's per-ray set-up for a packet whose rays share their
/// axis permutation `k` (a `WoopRay`'s, the same for nearly parallel rays), lane by lane.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct PacketWoop<'r, const N: usize = PACKET> {
    /// `origin[kx]`, `origin[ky]`, `origin[kz]` of each ray.
    pub o: [[f32; N]; 3],
    /// The shear `(sx, sy, sz)` of each ray: `(dir[kx], dir[ky], 1) / dir[kz]`.
    pub s: [[f32; N]; 3],
    pub t_min: [f32; N],
    pub k: [usize; 3],
    /// The rays, for the rare tie that the scalar kernel decides.
    pub rays: &'r [crate::Ray3; N],
}

impl<'r, const N: usize> PacketWoop<'r, N> {
    /// The set-up of `rays`, given lane by lane in `lanes` (`PacketKernel::ray_lanes`);
    /// `None` when some ray's `WoopRay` has another axis permutation than the first's.
    #[inline(always)]
    pub fn new(rays: &'r [crate::Ray3; N], lanes: &[[f32; N]; 8]) -> Option<Self> {
        let dir = [&lanes[3], &lanes[4], &lanes[5]];
        let k = super::woop_axes(Vec3::new(dir[0][0], dir[1][0], dir[2][0]));
        // Every lane's `kz` must be the first's (the signs of the directions already
        // agree, so then the whole permutation does): `woop_axes`' rule, lane by lane.
        let same: [bool; N] = crate::arrays::from_fn(|i| {
            let (x, y, z) = (dir[0][i].abs(), dir[1][i].abs(), dir[2][i].abs());
            let z_largest = z > (if y > x { y } else { x });
            match k[2] {
                2 => z_largest,
                1 => !z_largest && y > x,
                _ => !z_largest && y <= x,
            }
        });
        if same.contains(&false) {
            return None;
        }
        let (dx, dy, dz) = (dir[k[0]], dir[k[1]], dir[k[2]]);
        Some(Self {
            o: k.each(|axis| lanes[axis]),
            // Lane by lane the correctly rounded quotients of `WoopRay::new`.
            s: [
                crate::arrays::from_fn(|i| dx[i] / dz[i]),
                crate::arrays::from_fn(|i| dy[i] / dz[i]),
                crate::arrays::from_fn(|i| 1.0 / dz[i]),
            ],
            t_min: lanes[6],
            k,
            rays,
        })
    }
}

/// Each ray's closest hit so far in a packet walk.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct PacketBest<const N: usize = PACKET> {
    /// The hit's `t`, or the ray's `t_max` while it has none: the ray's reach.
    pub t: [f32; N],
    pub u: [f32; N],
    pub v: [f32; N],
    /// The triangle hit (`u32::MAX`: none yet), its block and lane.
    pub id: [u32; N],
    pub block: [u32; N],
    pub lane: [u32; N],
}

impl<const N: usize> PacketBest<N> {
    #[inline(always)]
    pub fn new(t_max: [f32; N]) -> Self {
        Self { t: t_max, u: [0.0; N], v: [0.0; N], id: [u32::MAX; N], block: [0; N], lane: [0; N] }
    }

    /// The rays with a hit (bit `i`: `id[i]` is a triangle), 4 lanes per SSE compare.
    #[inline(always)]
    pub fn found(&self) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::*;
            const { assert!(N.is_multiple_of(4) && N <= 32) };
            // SAFETY: SSE2 is part of every x86-64 CPU; the loads read the `N` ids, 4 at a
            // time (`N` is a multiple of 4).
            unsafe {
                let none = _mm_set1_epi32(-1);
                let mut mask = 0;
                for q in 0..N / 4 {
                    let ids = _mm_loadu_si128(self.id.as_ptr().add(4 * q).cast());
                    let empty = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(ids, none))) as u32;
                    mask |= (!empty & 0xf) << (4 * q);
                }
                mask
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            (0..N).fold(0, |m, i| m | u32::from(self.id[i] != u32::MAX) << i)
        }
    }

    /// Records a hit of ray `i` if it wins: nearer than the best so far, or as near with a
    /// lower triangle index (the rule of the single-ray casts). `t` is at most `self.t[i]`.
    #[inline(always)]
    pub fn offer(&mut self, i: usize, hit: (f32, f32, f32), id: u32, block: u32, lane: usize) {
        let (t, u, v) = hit;
        if t < self.t[i] || id < self.id[i] {
            (self.t[i], self.u[i], self.v[i]) = (t, u, v);
            (self.id[i], self.block[i], self.lane[i]) = (id, block, lane as u32);
        }
    }
}

/// The rays of `who` against the triangles of block number `b`, in lane order, with the
/// scalar kernel: the reference of the SIMD versions, which must give the same bits.
pub(crate) fn scalar_packet_block<const N: usize>(
    w: &PacketWoop<'_, N>,
    block: &TriBlock4,
    b: u32,
    who: u32,
    best: &mut PacketBest<N>,
) {
    for i in (0..N).filter(|&i| who & (1 << i) != 0) {
        let ray = WoopRay::new(w.rays[i].origin(), w.rays[i].dir());
        for lane in block.lanes() {
            if let Some(hit) = ray_triangle_watertight(&ray, block.triangle(lane), w.t_min[i], best.t[i]) {
                best.offer(i, hit, block.ids[lane], b, lane);
            }
        }
    }
}

/// Ray `i` against lane `lane` of `block` with the scalar kernel (the SIMD versions' path
/// for a lane whose edge function is exactly 0).
#[cold]
#[inline(never)]
pub(crate) fn scalar_tie<const N: usize>(
    w: &PacketWoop<'_, N>,
    block: &TriBlock4,
    b: u32,
    i: usize,
    lane: usize,
    best: &mut PacketBest<N>,
) {
    let ray = WoopRay::new(w.rays[i].origin(), w.rays[i].dir());
    if let Some(hit) = ray_triangle_watertight(&ray, block.triangle(lane), w.t_min[i], best.t[i]) {
        best.offer(i, hit, block.ids[lane], b, lane);
    }
}

/// `N` rays lane by lane (see `PacketKernel::ray_lanes`), through their accessors.
#[inline(always)]
pub(crate) fn scalar_ray_lanes<const N: usize>(rays: &[crate::Ray3; N]) -> [[f32; N]; 8] {
    let mut rows = [[0.0; N]; 8];
    for (i, r) in rays.iter().enumerate() {
        let (o, d) = (r.origin(), r.dir());
        for (row, x) in rows.iter_mut().zip([o.x, o.y, o.z, d.x, d.y, d.z, r.t_min(), r.t_max()]) {
            row[i] = x;
        }
    }
    rows
}

/// The geometric normals of 8 triangles given lane by lane (`v[3 * vertex + axis]`), as
/// `TriMesh::hit` makes them, bit for bit: `(b - a) × (c - a)` in `f64`, normalised as
/// glam's `DVec3::normalize` (`n * (1 / |n|)`) and rounded to `f32`; with bit `i` of the
/// mask set when lane `i`'s unnormalised normal points against `dir` (`n · dir < 0`).
#[allow(clippy::needless_range_loop)] // lane `i` of several arrays
pub(crate) fn scalar_packet_normals<const N: usize>(
    v: &[[f32; N]; 9],
    dir: &[[f32; N]; 3],
) -> ([[f32; N]; 3], u32) {
    let mut normals = [[0.0; N]; 3];
    let mut front = 0;
    for i in 0..N {
        let vertex =
            |j: usize| glam::DVec3::new(v[3 * j][i].into(), v[3 * j + 1][i].into(), v[3 * j + 2][i].into());
        let a = vertex(0);
        let n = (vertex(1) - a).cross(vertex(2) - a);
        let d = glam::DVec3::new(dir[0][i].into(), dir[1][i].into(), dir[2][i].into());
        front |= u32::from(n.dot(d) < 0.0) << i;
        let unit = n.normalize().as_vec3();
        for k in 0..3 {
            normals[k][i] = unit[k];
        }
    }
    (normals, front)
}

/// The rays of `who` whose `t_max` is at least `t` (bit `i` for ray `i`).
#[inline(always)]
pub(crate) fn rays_reaching<const N: usize>(t: f32, t_max: &[f32; N], who: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        const { assert!(N.is_multiple_of(4) && N <= 32) };
        // SAFETY: SSE is part of every x86-64 CPU; the loads read the `N` floats of
        // `t_max`, 4 at a time (`N` is a multiple of 4).
        unsafe {
            let t = _mm_set1_ps(t);
            let mut mask = 0;
            for q in 0..N / 4 {
                let le = _mm_cmple_ps(t, _mm_loadu_ps(t_max.as_ptr().add(4 * q)));
                mask |= (_mm_movemask_ps(le) as u32) << (4 * q);
            }
            mask & who
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        (0..N).fold(0, |m, i| m | u32::from(t <= t_max[i]) << i) & who
    }
}

/// The greatest `t_max` of the rays of `who` (not empty); no `t_max` is NaN.
#[inline(always)]
pub(crate) fn farthest<const N: usize>(t_max: &[f32; N], who: u32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        const { assert!(N.is_multiple_of(4) && N <= 32) };
        // SAFETY: SSE2 is part of every x86-64 CPU; the loads read the `N` floats of
        // `t_max`, 4 at a time (`N` is a multiple of 4).
        unsafe {
            // Lanes not in `who` become -inf, then a max over the lanes.
            let lane = _mm_setr_epi32(1, 2, 4, 8);
            let mut m = _mm_set1_ps(f32::NEG_INFINITY);
            for q in 0..N / 4 {
                let bits = _mm_set1_epi32((who >> (4 * q)) as i32);
                let on = _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(bits, lane), lane));
                let t = _mm_loadu_ps(t_max.as_ptr().add(4 * q));
                m = _mm_max_ps(
                    m,
                    _mm_or_ps(_mm_and_ps(on, t), _mm_andnot_ps(on, _mm_set1_ps(f32::NEG_INFINITY))),
                );
            }
            let m = _mm_max_ps(m, _mm_shuffle_ps::<0b10_11_00_01>(m, m));
            let m = _mm_max_ps(m, _mm_shuffle_ps::<0b01_00_11_10>(m, m));
            _mm_cvtss_f32(m)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        (0..N).filter(|&i| who & (1 << i) != 0).map(|i| t_max[i]).fold(f32::NEG_INFINITY, f32::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::kernels::{Kernel, NodeKernel, PacketKernel, PreparedRay, Scalar, with_kernel};
    use crate::mesh::scene::Pcg32;

    fn random_node(rng: &mut Pcg32) -> WideNode {
        let mut node = WideNode::EMPTY;
        for lane in 0..(1 + rng.next_u32() % 8) as usize {
            let c = glam::Vec3A::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
            let h = glam::Vec3A::new(rng.range(0.0, 1.0), rng.range(0.0, 1.0), rng.range(0.0, 1.0));
            let b = crate::bvh::node::Bounds { min: c - h, max: c + h };
            node.set_child(lane, &b, crate::bvh::node::ChildRef::inner(lane as u32));
        }
        node
    }

    /// The tests of one packet width: every kernel's tests of packets of `$n` rays against
    /// the references (the AVX-512 kernel's own vector code at both widths; the other
    /// kernels' at 8, the references themselves at 16).
    macro_rules! width_tests {
        ($m:ident, $n:expr) => {
            mod $m {
                use super::*;

                const N: usize = $n;
                /// Every ray of a packet.
                const ALL: u32 = ((1u64 << N) - 1) as u32;

                /// A packet of rays from near one point, in directions near one direction (sometimes
                /// spread wide), aimed at the boxes' region, and which of them take part.
                /// Random rays (as prepared for the single-ray kernels, with their directions),
                /// which of them take part, and their packet.
                #[allow(clippy::type_complexity)]
                fn random_packet(
                    rng: &mut Pcg32,
                ) -> Option<([PreparedRay; N], [glam::Vec3; N], u32, RayPacket<N>)> {
                    let o = glam::Vec3::new(rng.range(-8.0, 8.0), rng.range(-8.0, 8.0), rng.range(-8.0, 8.0));
                    let target =
                        glam::Vec3::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
                    let d = (target - o).normalize();
                    let spread = if rng.next_u32().is_multiple_of(4) { 0.5 } else { 0.02 };
                    let dirs: [glam::Vec3; N] = crate::arrays::from_fn(|_| d + rng.unit_vector() * spread);
                    let rays: [PreparedRay; N] = crate::arrays::from_fn(|i| {
                        let origin = o + rng.unit_vector() * spread;
                        PreparedRay::new(origin.to_array(), dirs[i].to_array(), rng.range(0.0, 0.5))
                    });
                    let who = (rng.next_u32() & ALL) | 1;
                    // (`o_near` is the origin: these rays have `t_min >= 0`.)
                    let origin = crate::arrays::from_fn(|k| crate::arrays::from_fn(|i| rays[i].o_near[k]));
                    let dir = crate::arrays::from_fn(|k| crate::arrays::from_fn(|i| dirs[i][k]));
                    let t_min = crate::arrays::from_fn(|i| rays[i].t_min);
                    let p = RayPacket::from_lanes(&origin, &dir, &t_min)?;
                    for (i, ray) in rays.iter().enumerate() {
                        for k in 0..3 {
                            assert_eq!(p.rdir[k][i], 1.0 / dirs[i][k], "from_lanes' reciprocal");
                            assert_eq!(
                                (p.near[k], p.far[k]),
                                (ray.near[k], ray.far[k]),
                                "from_lanes' plane rows"
                            );
                        }
                    }
                    Some((rays, dirs, who, p))
                }

                /// The packet test never misses a child that one of its rays enters (checked with the
                /// scalar single-ray kernel), and each kernel's packet tests agree with the reference.
                #[test]
                fn packet_tests_are_conservative_and_kernels_agree() {
                    let mut rng = Pcg32::new(11);
                    let (mut packets, mut entered) = (0, 0);
                    for _ in 0..20_000 {
                        let node = random_node(&mut rng);
                        let Some((rays, dirs, who, p)) = random_packet(&mut rng) else { continue };
                        packets += 1;
                        let t_max: [f32; N] = crate::arrays::from_fn(|_| rng.range(1.0, 30.0));
                        let t_hi = farthest(&t_max, who);
                        let want = scalar_packet_node(&p, &node, t_hi);
                        for (i, ray) in rays.iter().enumerate().filter(|&(i, _)| who & (1 << i) != 0) {
                            let alone = Scalar.intersect(ray, &node, t_max[i]);
                            assert_eq!(
                                alone.mask & !want.mask,
                                0,
                                "the packet test missed a child ray {i} enters"
                            );
                            // Where the ray enters a box, nearly exactly: `plane - o` is exact in
                            // `f64`, and the division rounds by 2^-53, far below the kernels' margins.
                            let entry = |lane: usize| {
                                (0..3).fold(f64::from(ray.t_min), |t, k| {
                                    let plane = f64::from(node.planes[ray.near[k]][lane]);
                                    t.max((plane - f64::from(ray.o_near[k])) / f64::from(dirs[i][k]))
                                })
                            };
                            for lane in 0..8 {
                                if alone.mask & (1 << lane) != 0 {
                                    entered += 1;
                                    // Both are lower bounds of the entry (the walks order and cull by them).
                                    let t = entry(lane);
                                    assert!(
                                        f64::from(want.t_enter[lane]) <= t,
                                        "packet t_enter above a ray's entry"
                                    );
                                    assert!(
                                        f64::from(alone.t_enter[lane]) <= t,
                                        "single t_enter above the entry"
                                    );
                                    let in_box = scalar_rays_in_box(&p, &node, lane, &t_max);
                                    assert!(in_box & (1 << i) != 0, "rays_in_box dropped ray {i}");
                                }
                            }
                        }
                        for kernel in Kernel::all_supported() {
                            with_kernel!(kernel, |k| {
                                let got = k.packet_node(&p, &node, t_hi);
                                assert_eq!(got.mask, want.mask, "{}: packet_node mask", kernel.name());
                                for lane in 0..8 {
                                    if want.mask & (1 << lane) != 0 {
                                        // The SIMD kernels pad with one fused multiply-add (one rounding).
                                        let (a, b) = (got.t_enter[lane], want.t_enter[lane]);
                                        assert!(
                                            (a - b).abs() <= 1e-6 * b.abs().max(1.0),
                                            "{}: t_enter {a} vs {b}",
                                            kernel.name()
                                        );
                                    }
                                    let got = k.rays_in_box(&p, &node, lane, &t_max);
                                    assert_eq!(
                                        got,
                                        scalar_rays_in_box(&p, &node, lane, &t_max),
                                        "{}: rays_in_box",
                                        kernel.name()
                                    );
                                }
                            });
                        }
                    }
                    assert!(
                        packets > 10_000 && entered > 5_000,
                        "{packets} packets, {entered} boxes entered"
                    );
                }

                #[test]
                fn lane_helpers_match_their_definitions() {
                    let mut rng = Pcg32::new(3);
                    for _ in 0..10_000 {
                        let t_max: [f32; N] = crate::arrays::from_fn(|_| match rng.next_u32() % 4 {
                            0 => f32::INFINITY,
                            _ => rng.range(0.0, 10.0),
                        });
                        let who = rng.next_u32() & ALL;
                        let t = rng.range(0.0, 10.0);
                        let want = (0..N).fold(0, |m, i| m | u32::from(t <= t_max[i]) << i) & who;
                        assert_eq!(rays_reaching(t, &t_max, who), want);
                        if who != 0 {
                            let want = (0..N)
                                .filter(|&i| who & (1 << i) != 0)
                                .map(|i| t_max[i])
                                .fold(f32::NEG_INFINITY, f32::max);
                            assert_eq!(farthest(&t_max, who), want);
                        }
                        // `found`: the rays whose id is not `u32::MAX` (ids near it too).
                        let mut best = PacketBest::<N>::new(t_max);
                        for i in 0..N {
                            best.id[i] = match rng.next_u32() % 4 {
                                0 => u32::MAX,
                                1 => u32::MAX - 1,
                                2 => 0,
                                _ => rng.next_u32(),
                            };
                        }
                        let want = (0..N).fold(0, |m, i| m | u32::from(best.id[i] != u32::MAX) << i);
                        assert_eq!(best.found(), want);
                    }
                }

                /// Every kernel's `packet_start` accepts the same groups as the reference and makes the
                /// same set-up: the same bits lane by lane (the extremes of the origins equal, up to
                /// the sign of a zero). It calls the same groups `Outside` as the reference, and
                /// then no ray enters the box (the exact cast and the single-ray kernels' test).
                #[test]
                fn every_kernel_starts_packets_as_the_reference() {
                    let mut rng = Pcg32::new(8);
                    let (mut made, mut refused, mut outside) = (0, 0, 0);
                    let picks = [0.0, -0.0, 1.0, -1.0, 0.5];
                    for _ in 0..20_000 {
                        let o =
                            glam::Vec3::new(rng.range(-9.0, 9.0), rng.range(-9.0, 9.0), rng.range(-9.0, 9.0));
                        let d = rng.unit_vector();
                        let spread = [0.0, 0.001, 0.02, 0.3][(rng.next_u32() % 4) as usize];
                        let rays: [crate::Ray3; N] = crate::arrays::from_fn(|_| {
                            let mut dir = d + rng.unit_vector() * spread;
                            if rng.next_u32().is_multiple_of(64) {
                                // Axis-aligned components and ties between components now and then.
                                dir = glam::Vec3::from_array(
                                    [0, 1, 2].each(|_| picks[(rng.next_u32() % 5) as usize]),
                                );
                                if dir == glam::Vec3::ZERO {
                                    dir = glam::Vec3::X;
                                }
                            }
                            let origin = if rng.next_u32().is_multiple_of(3) {
                                o
                            } else {
                                o + rng.unit_vector() * spread
                            };
                            // Ranges mostly from [0, 1), now and then from below 0 or from
                            // -inf, and now and then to +inf.
                            let t_min = match rng.next_u32() % 8 {
                                0 => rng.range(-5.0, 0.0),
                                1 => f32::NEG_INFINITY,
                                _ => rng.range(0.0, 1.0),
                            };
                            let t_max = if rng.next_u32().is_multiple_of(8) {
                                f32::INFINITY
                            } else {
                                rng.range(1.0, 50.0)
                            };
                            crate::Ray3::with_range(origin, dir, t_min, t_max)
                        });
                        let limit = [0.0, 0.01, 0.5, 10.0][(rng.next_u32() % 4) as usize];
                        // A box near the rays' origin: in their way, beside it or around the origin.
                        let mut centre = if rng.next_u32().is_multiple_of(2) {
                            o + d * rng.range(0.0, 30.0) + rng.unit_vector() * rng.range(0.0, 3.0)
                        } else {
                            o + rng.unit_vector() * rng.range(0.0, 30.0)
                        };
                        let mut half =
                            glam::Vec3::new(rng.range(0.1, 6.0), rng.range(0.1, 6.0), rng.range(0.1, 6.0));
                        if rng.next_u32().is_multiple_of(8) {
                            // A flat box (a terrain's, say), its planes sometimes at exactly 0.
                            let axis = (rng.next_u32() % 3) as usize;
                            half[axis] = 0.0;
                            if rng.next_u32().is_multiple_of(2) {
                                centre[axis] = [0.0, -0.0][(rng.next_u32() % 2) as usize];
                            }
                        }
                        let (lo, hi) = ((centre - half).to_array(), (centre + half).to_array());
                        let bounds = [lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]];
                        let lanes = scalar_ray_lanes(&rays);
                        let want = scalar_packet_start(&rays, &lanes, limit, bounds);
                        match &want {
                            Started::Packet(_) => made += 1,
                            Started::Incoherent => refused += 1,
                            Started::Outside => {
                                outside += 1;
                                let aabb = crate::Aabb3::new(centre - half, centre + half);
                                let packet = RayPacket::from_lanes(
                                    &[lanes[0], lanes[1], lanes[2]],
                                    &[lanes[3], lanes[4], lanes[5]],
                                    &lanes[6],
                                )
                                .expect("an outside packet runs one way along each axis");
                                assert_eq!(
                                    rays_in_bounds(&packet, lo, hi, &lanes[7]),
                                    0,
                                    "a ray enters the box"
                                );
                                for ray in &rays {
                                    assert!(
                                        crate::RayCast::cast_ray(&aabb, ray).is_none(),
                                        "{ray:?} hits the box"
                                    );
                                }
                            }
                        }
                        for kernel in Kernel::all_supported() {
                            let got = with_kernel!(kernel, |k| k.packet_start(&rays, limit, bounds));
                            let name = kernel.name();
                            let (g, w) = match (got, want) {
                                (Started::Packet(g), Started::Packet(w)) => (g, w),
                                (Started::Outside, Started::Outside)
                                | (Started::Incoherent, Started::Incoherent) => {
                                    continue;
                                }
                                (g, w) => panic!("{name}: {g:?} where the reference says {w:?}"),
                            };
                            let bits = |rows: &[[f32; N]]| {
                                rows.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>()
                            };
                            let (gp, wp) = (&g.packet, &w.packet);
                            assert_eq!(bits(&gp.origin), bits(&wp.origin), "{name}: origins");
                            assert_eq!(bits(&gp.rdir), bits(&wp.rdir), "{name}: reciprocals");
                            assert_eq!(
                                bits(&[gp.t_min, g.t_max]),
                                bits(&[wp.t_min, w.t_max]),
                                "{name}: t ranges"
                            );
                            assert_eq!((gp.near, gp.far), (wp.near, wp.far), "{name}: plane rows");
                            assert_eq!(
                                (gp.o_near, gp.o_far),
                                (wp.o_near, wp.o_far),
                                "{name}: origin extremes"
                            );
                            assert_eq!(
                                (
                                    gp.r_lo.each(f32::to_bits),
                                    gp.r_hi.each(f32::to_bits),
                                    gp.t_min_lo.to_bits()
                                ),
                                (
                                    wp.r_lo.each(f32::to_bits),
                                    wp.r_hi.each(f32::to_bits),
                                    wp.t_min_lo.to_bits()
                                ),
                                "{name}: reciprocal extremes"
                            );
                            assert_eq!(g.woop.k, w.woop.k, "{name}: Woop axes");
                            assert_eq!(bits(&g.woop.o), bits(&w.woop.o), "{name}: Woop origins");
                            assert_eq!(bits(&g.woop.s), bits(&w.woop.s), "{name}: shears");
                            assert_eq!(bits(&[g.woop.t_min]), bits(&[w.woop.t_min]), "{name}: Woop t_min");
                        }
                        // The root test, every kernel alike.
                        if let Started::Packet(w) = want {
                            let (min, max) =
                                ([-3.0, -2.0, -4.0], [rng.range(-1.0, 3.0), 2.0, rng.range(-3.0, 4.0)]);
                            let reference = rays_in_bounds(&w.packet, min, max, &w.t_max);
                            for kernel in Kernel::all_supported() {
                                let got =
                                    with_kernel!(kernel, |k| k.rays_in_bounds(&w.packet, min, max, &w.t_max));
                                assert_eq!(got, reference, "{}: rays_in_bounds", kernel.name());
                            }
                        }
                    }
                    assert!(
                        made > 2_000 && refused > 5_000 && outside > 2_000,
                        "{made} packets made, {refused} refused, {outside} outside"
                    );
                }

                /// Every kernel's reach of a packet is the greatest `t_max` of its rays, whatever
                /// their signs (the AVX2 and AVX-512 kernels take an integer maximum of the
                /// floats' bits, which orders only non-negative floats, and fall back when the
                /// result is negative). Fails with either fallback removed.
                #[test]
                fn every_kernel_finds_the_farthest_reach() {
                    let mut rng = Pcg32::new(21);
                    let special = [f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, -1.0, -2.0, 1e-30, -1e-30];
                    for round in 0..20_000 {
                        // Half the rounds all negative, where bit order and float order differ.
                        let negative = round % 2 == 0;
                        let t_max: [f32; N] = crate::arrays::from_fn(|_| match rng.next_u32() % 3 {
                            0 => special[(rng.next_u32() % 8) as usize],
                            _ => rng.range(-10.0, 10.0),
                        });
                        let t_max = t_max.each(|t| if negative { -t.abs() } else { t });
                        let who = rng.next_u32() & ALL;
                        if who == 0 {
                            continue;
                        }
                        let want = (0..N)
                            .filter(|&i| who & (1 << i) != 0)
                            .map(|i| t_max[i])
                            .fold(f32::NEG_INFINITY, f32::max);
                        for kernel in Kernel::all_supported() {
                            let got = with_kernel!(kernel, |k| PacketKernel::<N>::farthest(k, &t_max, who));
                            // `==`: either zero may stand for a maximum of +0 and -0.
                            assert!(
                                got == want,
                                "{}: {got} against {want} for {t_max:?}, {who:#x}",
                                kernel.name()
                            );
                        }
                    }
                }

                /// Every kernel's packet normals are the reference's, bit for bit.
                #[test]
                fn every_kernel_makes_the_same_normals() {
                    let mut rng = Pcg32::new(12);
                    for _ in 0..5_000 {
                        let c =
                            glam::Vec3::new(rng.range(-9.0, 9.0), rng.range(-9.0, 9.0), rng.range(-9.0, 9.0));
                        let scale = [1e-3, 1.0, 100.0][(rng.next_u32() % 3) as usize];
                        let v: [[f32; N]; 9] = crate::arrays::from_fn(|r| {
                            crate::arrays::from_fn(|_| c[r % 3] + rng.range(-1.0, 1.0) * scale)
                        });
                        let dir: [[f32; N]; 3] =
                            crate::arrays::from_fn(|_| crate::arrays::from_fn(|_| rng.range(-1.0, 1.0)));
                        let (want, want_front) = scalar_packet_normals(&v, &dir);
                        for kernel in Kernel::all_supported() {
                            let (got, front) = with_kernel!(kernel, |k| k.packet_normals(&v, &dir));
                            let bits = |n: &[[f32; N]; 3]| n.each(|row| row.each(f32::to_bits));
                            assert_eq!(bits(&got), bits(&want), "{}: normals", kernel.name());
                            assert_eq!(front, want_front, "{}: facing", kernel.name());
                        }
                    }
                }

                #[test]
                fn every_kernel_reads_rays_into_the_same_lanes() {
                    let mut rng = Pcg32::new(4);
                    for _ in 0..100 {
                        let rays: [crate::Ray3; N] = crate::arrays::from_fn(|_| {
                            let o = glam::Vec3::new(
                                rng.range(-9.0, 9.0),
                                rng.range(-9.0, 9.0),
                                rng.range(-9.0, 9.0),
                            );
                            crate::Ray3::with_range(
                                o,
                                rng.unit_vector(),
                                rng.range(0.0, 1.0),
                                rng.range(1.0, 5.0),
                            )
                        });
                        let want = scalar_ray_lanes(&rays);
                        assert_eq!(want[4][3], rays[3].dir().y);
                        for kernel in Kernel::all_supported() {
                            assert_eq!(
                                with_kernel!(kernel, |k| k.ray_lanes(&rays)),
                                want,
                                "{}",
                                kernel.name()
                            );
                        }
                    }
                }
            }
        };
    }

    width_tests!(packets_of_8, PACKET);
    width_tests!(packets_of_16, WIDE);
}
