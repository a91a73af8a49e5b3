//! The AVX2 node kernel: the 8 child boxes of a node in one pass of 256-bit vectors.

use core::arch::x86_64::*;

use super::{NodeHits, NodeKernel, PreparedRay, SLAB_PAD};
use crate::bvh::node::WideNode;

/// Proof that the CPU has AVX2 and FMA: only [`Avx2::new`] makes one, after checking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx2(());

impl Avx2 {
    pub fn new() -> Option<Self> {
        (is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")).then_some(Self(()))
    }

    /// Runs `f` inside a function compiled for AVX2 and FMA, so that the `#[inline(always)]`
    /// walk that `f` calls, and this kernel's intrinsics within it, are compiled for them.
    #[inline(always)]
    pub fn run<R>(self, f: impl FnOnce(Self) -> R) -> R {
        #[target_feature(enable = "avx2,fma")]
        fn entry<R>(k: Avx2, f: impl FnOnce(Avx2) -> R) -> R {
            f(k)
        }
        // SAFETY: `self` exists, so `Avx2::new` found AVX2 and FMA on this CPU.
        unsafe { entry(self, f) }
    }
}

/// The conservative slab test of one ray against the 8 boxes of `node`: the padded
/// `(t_enter, t_exit)` of each lane. Shared by the AVX2 and AVX-512 kernels, which differ
/// only in how they turn `t_enter <= t_exit` into a bit mask.
///
/// # Safety
/// The CPU must support AVX and FMA (the caller holds an [`Avx2`] or an AVX-512 token).
#[inline(always)]
pub(super) unsafe fn padded_slabs(ray: &PreparedRay, node: &WideNode, t_max: f32) -> (__m256, __m256) {
    // SAFETY: AVX and FMA per this function's contract; the plane rows are 32-byte aligned
    // (the node is 64-byte aligned and each row is 32 bytes), as `_mm256_load_ps` requires.
    unsafe {
        let plane = |row: usize| _mm256_load_ps(node.planes[row].as_ptr());
        let mut t_enter = _mm256_set1_ps(ray.t_min);
        let mut t_exit = _mm256_set1_ps(t_max);
        for k in 0..3 {
            let o = _mm256_set1_ps(ray.origin[k]);
            let r = _mm256_set1_ps(ray.rdir[k]);
            // t_near = (near plane - o) * rdir; t_far likewise
            let t_near = _mm256_mul_ps(_mm256_sub_ps(plane(ray.near[k]), o), r);
            let t_far = _mm256_mul_ps(_mm256_sub_ps(plane(ray.far[k]), o), r);
            // t_enter = max(t_enter, t_near): maxps returns its second operand when
            // either is NaN (0 * inf, a parallel ray on the plane), so NaN is dropped.
            t_enter = _mm256_max_ps(t_near, t_enter);
            t_exit = _mm256_min_ps(t_far, t_exit);
        }
        // t_enter -= |t_enter| * pad; t_exit += |t_exit| * pad (conservative widening)
        let abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff));
        let pad = _mm256_set1_ps(SLAB_PAD);
        let t_enter = _mm256_fnmadd_ps(_mm256_and_ps(t_enter, abs_mask), pad, t_enter);
        let t_exit = _mm256_fmadd_ps(_mm256_and_ps(t_exit, abs_mask), pad, t_exit);
        (t_enter, t_exit)
    }
}

impl NodeKernel for Avx2 {
    #[inline(always)]
    fn intersect(self, ray: &PreparedRay, node: &WideNode, t_max: f32) -> NodeHits {
        // SAFETY: `self` proves AVX2 and FMA; the store goes to a local array of 8 floats.
        unsafe {
            let (t_enter, t_exit) = padded_slabs(ray, node, t_max);
            // hit = t_enter <= t_exit (false when either is NaN)
            let hit = _mm256_cmp_ps::<_CMP_LE_OQ>(t_enter, t_exit);
            let mut out = NodeHits { mask: _mm256_movemask_ps(hit) as u32, t_enter: [0.0; 8] };
            _mm256_storeu_ps(out.t_enter.as_mut_ptr(), t_enter);
            out
        }
    }
}
