//! The AVX-512 node kernel: the AVX2 slab computation (`avx2::padded_slabs`), with an
//! AVX-512VL mask compare (one instruction for the hit mask, no movemask).

use core::arch::x86_64::*;

use super::avx2::{packet_slabs, packet_tests, padded_slabs};
use super::{NodeHits, NodeKernel, PACKET, PacketBest, PacketWoop, PreparedRay, RayPacket, TriBlock4};
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
    const PACKETS: bool = true;

    #[inline(always)]
    fn packet_node(self, p: &RayPacket, node: &WideNode, t_max: f32) -> NodeHits {
        // SAFETY: `self` proves AVX-512 F/VL, AVX2 and FMA; the store goes to a local array.
        unsafe {
            let (t_enter, t_exit) = packet_slabs(p, node, t_max);
            let mask = _mm256_cmp_ps_mask::<_CMP_LE_OQ>(t_enter, t_exit);
            let mut out = NodeHits { mask: u32::from(mask), t_enter: [0.0; 8] };
            _mm256_storeu_ps(out.t_enter.as_mut_ptr(), t_enter);
            out
        }
    }

    packet_tests!();

    #[inline(always)]
    fn intersect(self, ray: &PreparedRay, node: &WideNode, t_max: f32) -> NodeHits {
        // SAFETY: `self` proves AVX-512 F/VL, AVX2 and FMA; the store goes to a local array.
        unsafe {
            let (t_enter, t_exit) = padded_slabs(ray, node, t_max);
            // hit = t_enter <= t_exit, straight into a mask register
            let mask = _mm256_cmp_ps_mask::<_CMP_LE_OQ>(t_enter, t_exit);
            let mut out = NodeHits { mask: u32::from(mask), t_enter: [0.0; 8] };
            _mm256_storeu_ps(out.t_enter.as_mut_ptr(), t_enter);
            out
        }
    }
}
