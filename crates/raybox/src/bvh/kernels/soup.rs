//! One ray against a flat run of wide nodes (the boxes of a [`crate::bvh::BoxSoup`]): the
//! node test alone, without a walk, so that benchmarks can compare it with a plain SIMD
//! slab loop.
//!
//! Every kernel here computes exactly the same conservative slab test (the scalar one is
//! [`padded_mask`]): `t = (plane - o) * rdir` (subtract, then multiply; `o` the origin, or on
//! an axis whose reciprocal overflowed an end of the ray's travel, [`SoupRay`]), NaN
//! (`0 * inf`) dropped by the operand order of max/min, then the widening by [`SLAB_PAD`]
//! (Ize, *Robust BVH Ray Traversal*, JCGT 2013) as a multiply and a subtract or add, two
//! roundings, as the scalar code rounds. (The walks' AVX2/AVX-512 node kernels widen with
//! one fused multiply-add instead; that can move a padded bound by an ulp, which a walk does
//! not mind but a count compared lane for lane with the scalar one would.)
//!
//! The AVX-512 kernel tests two nodes per step: the row of the second node goes into the
//! upper half of a 512-bit register (`vinsertf64x4`, AVX-512F), so one instruction works on
//! 16 boxes.

use super::{PLANE_ROWS, Scalar, padded, reach};
use crate::Ray3;
use crate::arrays::Each;
use crate::bvh::node::WideNode;

#[cfg(target_arch = "x86_64")]
use super::{SLAB_PAD, avx2::Avx2, avx512::Avx512};
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

/// A ray made ready for the soup's test: its reciprocal direction, unscaled (`1 / d`, `±inf`
/// for `d = ±0`), the plane rows it meets first and last on each axis, and the origins the
/// test subtracts from them: the ray's own, but on an axis whose reciprocal overflowed
/// (`0 < |d| <= 2⁻¹²⁸`), the ends of the ray's travel along it within the soup's bounds (see
/// [`reach`]: without them such a ray is taken as parallel to the axis, and misses the
/// boxes it enters far along). Every kernel computes the same thing from it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SoupRay {
    pub o_near: [f32; 3],
    pub o_far: [f32; 3],
    pub rdir: [f32; 3],
    pub near: [usize; 3],
    pub far: [usize; 3],
    /// `t_min`, with `-0` made `+0`.
    pub t_min: f32,
}

impl SoupRay {
    /// `ray` made ready for boxes within `[lo, hi]`.
    #[inline]
    pub fn new(ray: &Ray3, lo: [f32; 3], hi: [f32; 3]) -> Self {
        let (origin, dir) = (ray.origin().to_array(), ray.dir().to_array());
        // As in `PreparedRay::within`: one correctly rounded division per lane, and the
        // plane rows from the reciprocals' sign bits (`1 / -0` is `-inf`: down).
        let r = glam::Vec3A::ONE / glam::Vec3A::from(dir);
        let [near, far] = PLANE_ROWS[(r.is_negative_bitmask() & 7) as usize];
        let t_min = ray.t_min() + 0.0;
        // Unlike the walks' test, the soup's keeps `1 / d` for `t_min >= 0` too, so every
        // ray with an overflowed reciprocal needs the travel's ends.
        let overflow = !r.is_finite_mask() & glam::Vec3A::from(dir).cmpne(glam::Vec3A::ZERO);
        let (o_near, o_far) =
            if overflow.any() { reach(origin, dir, t_min, ray.t_max(), lo, hi) } else { (origin, origin) };
        Self { o_near, o_far, rdir: r.to_array(), near, far, t_min }
    }
}

/// A kernel that tests one ray against every box of a run of nodes.
pub(crate) trait SoupKernel: Copy {
    /// Calls `f(i, mask)` for `i = 0, 2, 4, …` (`nodes.len()` must be even): bit `lane` of
    /// `mask` is set when the ray may enter box `lane` of node `i`, bit `8 + lane` box
    /// `lane` of node `i + 1`.
    fn soup_pairs(self, ray: &SoupRay, t_max: f32, nodes: &[WideNode], f: impl FnMut(usize, u32));

    /// How many boxes of `nodes` the ray may enter (`nodes.len()` must be even).
    #[inline(always)]
    fn soup_count(self, ray: &SoupRay, t_max: f32, nodes: &[WideNode]) -> usize {
        count_masks(self, ray, t_max, nodes)
    }
}

/// The sum of the masks' bits.
#[inline(always)]
fn count_masks<K: SoupKernel>(k: K, ray: &SoupRay, t_max: f32, nodes: &[WideNode]) -> usize {
    let mut count = 0;
    k.soup_pairs(
        ray,
        t_max,
        nodes,
        #[inline(always)]
        |_, mask| count += mask.count_ones() as usize,
    );
    count
}

/// The count loop of a SIMD kernel, compiled with POPCNT as well where the CPU has it: the
/// kernels' entry points do not enable it, and `count_ones` without it is a dozen
/// instructions per mask, on the ports the vector work needs.
#[cfg(target_arch = "x86_64")]
macro_rules! count_with_popcnt {
    ($token:ty, $features:literal) => {
        #[inline(always)]
        fn soup_count(self, ray: &SoupRay, t_max: f32, nodes: &[WideNode]) -> usize {
            #[target_feature(enable = $features)]
            fn entry(k: $token, ray: &SoupRay, t_max: f32, nodes: &[WideNode]) -> usize {
                count_masks(k, ray, t_max, nodes)
            }
            if std::arch::is_x86_feature_detected!("popcnt") {
                // SAFETY: the token proves the kernel's features; POPCNT was just detected.
                unsafe { entry(self, ray, t_max, nodes) }
            } else {
                count_masks(self, ray, t_max, nodes)
            }
        }
    };
}

impl SoupKernel for Scalar {
    #[inline(always)]
    fn soup_pairs(self, ray: &SoupRay, t_max: f32, nodes: &[WideNode], mut f: impl FnMut(usize, u32)) {
        debug_assert!(nodes.len().is_multiple_of(2));
        for (i, pair) in nodes.chunks_exact(2).enumerate() {
            let lo = padded_mask(ray, &pair[0], t_max);
            let hi = padded_mask(ray, &pair[1], t_max);
            f(2 * i, lo | hi << 8);
        }
    }
}

/// The padded slab test of the module notes, lane by lane: the unscaled reciprocals
/// (`rdir`) and [`padded`], for every ray. (Not the scalar node kernel's `intersect`: for
/// `t_min >= 0` that one runs the scaled reciprocals with no padding, `RDIR_SCALE`, just as
/// conservative but not the same bounds, so a near miss can come out otherwise; the box
/// floor's seeded rays have one.)
#[inline(always)]
fn padded_mask(ray: &SoupRay, node: &WideNode, t_max: f32) -> u32 {
    let mut mask = 0;
    for lane in 0..8 {
        let mut t_enter = ray.t_min;
        let mut t_exit = t_max;
        for k in 0..3 {
            // f32::max/min drop the NaN of 0 * inf (a ray in the plane of a face).
            t_enter = t_enter.max((node.planes[ray.near[k]][lane] - ray.o_near[k]) * ray.rdir[k]);
            t_exit = t_exit.min((node.planes[ray.far[k]][lane] - ray.o_far[k]) * ray.rdir[k]);
        }
        mask |= u32::from(padded(t_enter, t_exit).is_some()) << lane;
    }
    mask
}

/// The plane-row offsets (in `f32`s from the start of a node) of the near and far planes
/// of each axis, and the ray's values broadcast, as the SIMD loops use them.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Rows {
    near: [usize; 3],
    far: [usize; 3],
}

#[cfg(target_arch = "x86_64")]
impl Rows {
    #[inline(always)]
    fn of(ray: &SoupRay) -> Self {
        // `PreparedRay::new` makes `near[k]` and `far[k]` `k` or `k + 3`: rows 0–5. The
        // `min` keeps that visible here, where the pointer arithmetic relies on it.
        let row = |r: usize| r.min(5) * 8;
        Self { near: ray.near.each(row), far: ray.far.each(row) }
    }
}

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The slab test of one node, 8 lanes, as the scalar kernel rounds it.
    ///
    /// # Safety
    /// The CPU must support AVX; `node` must point to a [`WideNode`].
    #[inline(always)]
    unsafe fn soup_node(
        node: *const f32,
        rows: Rows,
        o_near: [__m256; 3],
        o_far: [__m256; 3],
        r: [__m256; 3],
        t_min: __m256,
        t_max: __m256,
    ) -> u32 {
        // SAFETY: AVX per the contract; each row lies inside the 256-byte, 64-byte aligned
        // node at a multiple of 32 bytes (rows.* <= 40 floats), as `_mm256_load_ps` needs.
        unsafe {
            let mut t_enter = t_min;
            let mut t_exit = t_max;
            for k in 0..3 {
                let near = _mm256_load_ps(node.add(rows.near[k]));
                let far = _mm256_load_ps(node.add(rows.far[k]));
                let t_near = _mm256_mul_ps(_mm256_sub_ps(near, o_near[k]), r[k]);
                let t_far = _mm256_mul_ps(_mm256_sub_ps(far, o_far[k]), r[k]);
                // maxps/minps return the second operand when either is NaN: NaN is dropped.
                t_enter = _mm256_max_ps(t_near, t_enter);
                t_exit = _mm256_min_ps(t_far, t_exit);
            }
            let abs = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff));
            let pad = _mm256_set1_ps(SLAB_PAD);
            // t_enter - |t_enter| * pad, t_exit + |t_exit| * pad: two roundings each.
            let t_enter = _mm256_sub_ps(t_enter, _mm256_mul_ps(_mm256_and_ps(t_enter, abs), pad));
            let t_exit = _mm256_add_ps(t_exit, _mm256_mul_ps(_mm256_and_ps(t_exit, abs), pad));
            _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LE_OQ>(t_enter, t_exit)) as u32
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl SoupKernel for Avx2 {
    count_with_popcnt!(Avx2, "avx2,fma,popcnt");

    #[inline(always)]
    fn soup_pairs(self, ray: &SoupRay, t_max: f32, nodes: &[WideNode], mut f: impl FnMut(usize, u32)) {
        debug_assert!(nodes.len().is_multiple_of(2));
        let rows = Rows::of(ray);
        // SAFETY: `self` proves AVX2; each pointer is to a node of `nodes`.
        unsafe {
            let o_near = ray.o_near.each(|o| _mm256_set1_ps(o));
            let o_far = ray.o_far.each(|o| _mm256_set1_ps(o));
            let r = ray.rdir.each(|r| _mm256_set1_ps(r));
            let t_min = _mm256_set1_ps(ray.t_min);
            let t_max = _mm256_set1_ps(t_max);
            for (i, pair) in nodes.chunks_exact(2).enumerate() {
                let a = pair[0].planes.as_ptr().cast::<f32>();
                let b = pair[1].planes.as_ptr().cast::<f32>();
                let lo = Self::soup_node(a, rows, o_near, o_far, r, t_min, t_max);
                let hi = Self::soup_node(b, rows, o_near, o_far, r, t_min, t_max);
                f(2 * i, lo | hi << 8);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl SoupKernel for Avx512 {
    count_with_popcnt!(Avx512, "avx512f,avx512vl,avx2,fma,popcnt");

    #[inline(always)]
    fn soup_pairs(self, ray: &SoupRay, t_max: f32, nodes: &[WideNode], f: impl FnMut(usize, u32)) {
        // Also true for `-0.0`; a ray's `t_min` is never NaN.
        if ray.t_min >= 0.0 {
            pairs_512::<true>(self, ray, t_max, nodes, f);
        } else {
            pairs_512::<false>(self, ray, t_max, nodes, f);
        }
    }
}

/// The AVX-512 loop, two nodes per step. `NON_NEGATIVE` when `t_min >= 0` (or `-0`): then
/// `t_enter >= t_min >= 0` and `|t_enter|` is `t_enter` (up to the sign of a zero, which no
/// comparison sees), and `t_exit + t_exit * pad` decides as `t_exit + |t_exit| * pad` does:
/// the same value for `t_exit >= 0`, and for `t_exit < 0` both are negative (`pad < 1`)
/// while the padded `t_enter` is `>= 0` or NaN, so both miss (at `t_exit = -inf` one is
/// `-inf`, the other NaN: a miss too). That saves the two absolute values per 16 boxes.
/// `nodes.len()` must be even.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pairs_512<const NON_NEGATIVE: bool>(
    _token: Avx512,
    ray: &SoupRay,
    t_max: f32,
    nodes: &[WideNode],
    mut f: impl FnMut(usize, u32),
) {
    debug_assert!(nodes.len().is_multiple_of(2));
    let rows = Rows::of(ray);
    // SAFETY: the token proves AVX-512F (and AVX2, FMA); every pointer is to a row of a node of `nodes`: rows are 32
    // bytes at 32-byte aligned offsets of 64-byte aligned nodes, as the aligned 256-bit
    // loads need.
    unsafe {
        let o_near =
            [_mm512_set1_ps(ray.o_near[0]), _mm512_set1_ps(ray.o_near[1]), _mm512_set1_ps(ray.o_near[2])];
        let o_far =
            [_mm512_set1_ps(ray.o_far[0]), _mm512_set1_ps(ray.o_far[1]), _mm512_set1_ps(ray.o_far[2])];
        let r = [_mm512_set1_ps(ray.rdir[0]), _mm512_set1_ps(ray.rdir[1]), _mm512_set1_ps(ray.rdir[2])];
        let t_min = _mm512_set1_ps(ray.t_min);
        let t_max = _mm512_set1_ps(t_max);
        let pad = _mm512_set1_ps(SLAB_PAD);
        for (i, pair) in nodes.chunks_exact(2).enumerate() {
            let a = pair[0].planes.as_ptr().cast::<f32>();
            let b = pair[1].planes.as_ptr().cast::<f32>();
            let mut t_enter = t_min;
            let mut t_exit = t_max;
            for k in 0..3 {
                let t_near = _mm512_mul_ps(_mm512_sub_ps(row_pair(a, b, rows.near[k]), o_near[k]), r[k]);
                let t_far = _mm512_mul_ps(_mm512_sub_ps(row_pair(a, b, rows.far[k]), o_far[k]), r[k]);
                // maxps/minps return the second operand when either is NaN: NaN is dropped.
                t_enter = _mm512_max_ps(t_near, t_enter);
                t_exit = _mm512_min_ps(t_far, t_exit);
            }
            // t_enter - |t_enter| * pad, t_exit + |t_exit| * pad: two roundings each.
            let (abs_enter, abs_exit) = if NON_NEGATIVE {
                (t_enter, t_exit)
            } else {
                (_mm512_abs_ps(t_enter), _mm512_abs_ps(t_exit))
            };
            let t_enter = _mm512_sub_ps(t_enter, _mm512_mul_ps(abs_enter, pad));
            let t_exit = _mm512_add_ps(t_exit, _mm512_mul_ps(abs_exit, pad));
            f(2 * i, u32::from(_mm512_cmp_ps_mask::<_CMP_LE_OQ>(t_enter, t_exit)));
        }
    }
}

/// Row `at` (in `f32`s from the node's start) of nodes `a` and `b` in one register: `a`'s 8
/// lanes low, `b`'s high.
///
/// # Safety
/// The CPU must support AVX-512F; `a.add(at)` and `b.add(at)` must be 32-byte aligned and
/// readable for 8 floats.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn row_pair(a: *const f32, b: *const f32, at: usize) -> __m512 {
    // SAFETY: per the contract. `vinsertf64x4` (AVX-512F) moves the same 256 bits as
    // `vinsertf32x8` (AVX-512DQ), which the kernel's entry point does not enable.
    unsafe {
        let low = _mm512_castps256_ps512(_mm256_load_ps(a.add(at)));
        let high = _mm256_load_pd(b.add(at).cast::<f64>());
        _mm512_castpd_ps(_mm512_insertf64x4::<1>(_mm512_castps_pd(low), high))
    }
}
