//! The AVX-512 node kernel: the AVX2 test on 256-bit vectors, with AVX-512VL mask
//! compares (one instruction for the hit mask, no movemask).

use core::arch::x86_64::*;

use super::{NodeHits, NodeKernel, PreparedRay, SLAB_PAD};
use crate::bvh::node::WideNode;

/// Proof that the CPU has AVX-512 F and VL (and AVX2, FMA): only [`Avx512::new`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx512(());

impl Avx512 {
    pub fn new() -> Option<Self> {
        let ok = is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma");
        ok.then_some(Self(()))
    }

    /// Runs `f` inside a function compiled for AVX-512 F/VL, AVX2 and FMA.
    #[inline(always)]
    pub fn run<R>(self, f: impl FnOnce(Self) -> R) -> R {
        #[target_feature(enable = "avx512f,avx512vl,avx2,fma")]
        fn entry<R>(k: Avx512, f: impl FnOnce(Avx512) -> R) -> R {
            f(k)
        }
        // SAFETY: `self` exists, so `Avx512::new` found these features on this CPU.
        unsafe { entry(self, f) }
    }
}

impl NodeKernel for Avx512 {
    #[inline(always)]
    fn intersect(self, ray: &PreparedRay, node: &WideNode, t_max: f32) -> NodeHits {
        // SAFETY: `self` proves AVX-512 F/VL, AVX2 and FMA; rows are 32-byte aligned.
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
                // NaN (a parallel ray on the plane) in the first operand is dropped
                t_enter = _mm256_max_ps(t_near, t_enter);
                t_exit = _mm256_min_ps(t_far, t_exit);
            }
            // t_enter -= |t_enter| * pad; t_exit += |t_exit| * pad
            let pad = _mm256_set1_ps(SLAB_PAD);
            let t_enter = _mm256_fnmadd_ps(_mm256_abs_ps(t_enter), pad, t_enter);
            let t_exit = _mm256_fmadd_ps(_mm256_abs_ps(t_exit), pad, t_exit);
            // hit = t_enter <= t_exit, straight into a mask register
            let mask = _mm256_cmp_ps_mask::<_CMP_LE_OQ>(t_enter, t_exit);
            let mut out = NodeHits { mask: u32::from(mask), t_enter: [0.0; 8] };
            _mm256_storeu_ps(out.t_enter.as_mut_ptr(), t_enter);
            out
        }
    }
}

/// `|x|` per lane (AVX-512 has no 256-bit abs for floats in F/VL: clear the sign bit).
#[inline(always)]
unsafe fn _mm256_abs_ps(x: __m256) -> __m256 {
    // SAFETY: the caller runs with AVX available.
    unsafe { _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff))) }
}
