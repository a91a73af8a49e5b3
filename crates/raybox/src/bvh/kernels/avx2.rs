//! The AVX2 node kernel: the 8 child boxes of a node in one pass of 256-bit vectors.

use core::arch::x86_64::*;

use super::packet::scalar_tie;
use super::triangles::avx::interpolate;
use super::{
    NodeHits, NodeKernel, OrderedStack, PACKET, PacketBest, PacketStart, PacketWoop, PreparedRay, RayPacket,
    SLAB_PAD, Started, TriBlock4, WIDE, prefetch_node_at,
};
use crate::bvh::node::{ChildRef, LEAF_BIT, WideNode};

/// The 8-ray packet tests (`PacketKernel<PACKET>`) of a kernel type that proves AVX2 and
/// FMA (the AVX2 and AVX-512 kernels share these functions), with `packet_node`, which
/// each kernel writes, among the `$node` items.
macro_rules! packet_tests {
    ($kernel:ty, $($node:item)*) => {
        impl $crate::bvh::kernels::PacketKernel<PACKET> for $kernel {
            $($node)*

            #[inline(always)]
            fn rays_in_box(self, p: &RayPacket, node: &WideNode, child: usize, t_max: &[f32; PACKET]) -> u32 {
                // SAFETY: `self` proves AVX2 and FMA.
                unsafe { $crate::bvh::kernels::avx2::rays_in_box(p, node, child, t_max) }
            }

            #[inline(always)]
            fn packet_block(
                self,
                w: &PacketWoop<'_>,
                block: &TriBlock4,
                b: u32,
                who: u32,
                best: &mut PacketBest,
            ) {
                // SAFETY: `self` proves AVX2.
                unsafe { $crate::bvh::kernels::avx2::packet_block(w, block, b, who, best) }
            }

            #[inline(always)]
            fn packet_start(
                self,
                rays: &[crate::Ray3; PACKET],
                spread: f32,
                bounds: [f32; 6],
            ) -> $crate::bvh::kernels::Started<'_> {
                // SAFETY: `self` proves AVX2 and FMA.
                unsafe { $crate::bvh::kernels::avx2::packet_start(rays, spread, bounds) }
            }

            #[inline(always)]
            fn rays_in_bounds(self, p: &RayPacket, min: [f32; 3], max: [f32; 3], t_max: &[f32; PACKET]) -> u32 {
                // SAFETY: `self` proves AVX2 and FMA.
                unsafe {
                    $crate::bvh::kernels::avx2::rays_in_planes(
                        p,
                        &[min[0], min[1], min[2], max[0], max[1], max[2]],
                        t_max,
                    )
                }
            }

            #[inline(always)]
            fn packet_normals(
                self,
                v: &[[f32; PACKET]; 9],
                dir: &[[f32; PACKET]; 3],
            ) -> ([[f32; PACKET]; 3], u32) {
                // SAFETY: `self` proves AVX.
                unsafe { $crate::bvh::kernels::avx2::packet_normals(v, dir) }
            }

            #[inline(always)]
            fn ray_lanes(self, rays: &[crate::Ray3; PACKET]) -> [[f32; PACKET]; 8] {
                // SAFETY: `self` proves AVX.
                unsafe { $crate::bvh::kernels::avx2::ray_lanes(rays) }
            }

            #[inline(always)]
            fn farthest(self, t_max: &[f32; PACKET], who: u32) -> f32 {
                // SAFETY: `self` proves AVX2.
                unsafe { $crate::bvh::kernels::avx2::farthest(t_max, who) }
            }
        }
    };
}
pub(super) use packet_tests;

/// The greatest `t_max` of the rays of `who` (not empty): the integer maximum of the
/// floats' bits when it is not negative (see `Avx512::farthest`), else the reference's float
/// maximum.
/// Against the SSE reference (`packet::farthest`), in one binary switching at run time
/// (2026-11-23, sixth session; `RAYBOX_KERNEL=avx2`, 1 thread, medians of 5 alternating
/// runs, over Embree's 16-ray packets): the bunny's camera batch 0.891x -> 0.920x, the
/// dragon's 0.860x -> 0.881x.
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
pub(crate) unsafe fn farthest(t_max: &[f32; PACKET], who: u32) -> f32 {
    // SAFETY: per this function's contract; the load reads the 8 floats of `t_max`.
    unsafe {
        let lane = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        let on = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(who as i32), lane), lane);
        let t = _mm256_blendv_ps(
            _mm256_set1_ps(f32::NEG_INFINITY),
            _mm256_loadu_ps(t_max.as_ptr()),
            _mm256_castsi256_ps(on),
        );
        let i = _mm256_castps_si256(t);
        let m = _mm_max_epi32(_mm256_castsi256_si128(i), _mm256_extracti128_si256::<1>(i));
        let m = _mm_max_epi32(m, _mm_shuffle_epi32::<0b01_00_11_10>(m));
        let m = _mm_max_epi32(m, _mm_shuffle_epi32::<0b10_11_00_01>(m));
        let m = _mm_cvtsi128_si32(m);
        if m >= 0 { f32::from_bits(m as u32) } else { super::packet::farthest(t_max, who) }
    }
}

/// The methods of `NodeKernel` that the AVX2 and AVX-512 kernels share, for a kernel type
/// that proves AVX2 and FMA: the leaf tests (the ray set-up with AVX's permutes and the
/// 8-lane test of a two-block leaf) and the ordered step ([`descend`]; on AVX-512 as fast
/// as a version with its compressed stores and mask registers: `versus_embree`, bunny and
/// terrain, 1 thread, 3 runs each).
macro_rules! avx_shared {
    () => {
        const ORDERED: bool = true;

        #[inline(always)]
        fn descend(
            self,
            ray: &PreparedRay,
            nodes: &[WideNode],
            node: &WideNode,
            t_max: f32,
            stack: &mut $crate::bvh::kernels::OrderedStack,
            prefetch: bool,
        ) -> Option<$crate::bvh::ChildRef> {
            debug_assert!(ray.fused);
            // SAFETY: `self` proves AVX2 and FMA; `ray.fused` is the method's contract.
            unsafe { $crate::bvh::kernels::avx2::descend(ray, nodes, node, t_max, stack, prefetch) }
        }

        #[inline(always)]
        fn block_ray(self, origin: glam::Vec3, dir: glam::Vec3) -> $crate::bvh::kernels::BlockRay {
            // SAFETY: `self` proves AVX.
            unsafe { $crate::bvh::kernels::BlockRay::new_avx(origin, dir) }
        }

        #[inline(always)]
        fn intersect_pair(
            self,
            ray: &$crate::bvh::kernels::BlockRay,
            pair: &[TriBlock4; 2],
            t_min: f32,
            t_max: f32,
        ) -> Option<(usize, f32, f32, f32)> {
            // SAFETY: `self` proves AVX.
            unsafe { $crate::bvh::kernels::triangles::avx::intersect_pair(ray, pair, t_min, t_max) }
        }

        #[inline(always)]
        fn any_in_pair(
            self,
            ray: &$crate::bvh::kernels::BlockRay,
            pair: &[TriBlock4; 2],
            t_min: f32,
            t_max: f32,
        ) -> bool {
            // SAFETY: `self` proves AVX.
            unsafe { $crate::bvh::kernels::triangles::avx::any_in_pair(ray, pair, t_min, t_max) }
        }
    };
}
pub(super) use avx_shared;

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

/// The conservative slab test of one ray against the 8 boxes of `node`: each lane's
/// `(t_enter, t_exit)`, never narrower than the exact interval. Shared by the AVX2 and AVX-512 kernels, which differ
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
        // t_near = (near plane - o) * rdir, t_far likewise, per axis (`o_near` and `o_far`
        // are the origin but on a line's overflowed axis: `reach`). (A loop, not a
        // closure: closures do not inherit the caller's target features.)
        let mut near = [_mm256_setzero_ps(); 3];
        let mut far = [_mm256_setzero_ps(); 3];
        for k in 0..3 {
            let (o_near, o_far) = (_mm256_set1_ps(ray.o_near[k]), _mm256_set1_ps(ray.o_far[k]));
            near[k] = _mm256_mul_ps(_mm256_sub_ps(plane(ray.near[k]), o_near), _mm256_set1_ps(ray.r_near[k]));
            far[k] = _mm256_mul_ps(_mm256_sub_ps(plane(ray.far[k]), o_far), _mm256_set1_ps(ray.r_far[k]));
        }
        let ([n0, n1, n2], [f0, f1, f2]) = (near, far);
        // t_enter = max(t_min, n0, n1, n2) as a tree of two levels rather than a chain of
        // three: a walk waits for each node's result, so the latency counts. maxps returns
        // its second operand when either is NaN (0 * inf: a parallel ray on the plane), so
        // a NaN axis is dropped; where n2 is NaN the pair (n1, n2) is dropped whole, which
        // only widens the box (the test stays conservative). Without NaN, max and min do
        // not depend on the grouping: the same bits as a chain.
        let t_enter = _mm256_max_ps(_mm256_max_ps(n1, n2), _mm256_max_ps(n0, _mm256_set1_ps(ray.t_min)));
        let t_exit = _mm256_min_ps(_mm256_min_ps(f1, f2), _mm256_min_ps(f0, _mm256_set1_ps(t_max)));
        // Conservative as it is with scaled reciprocals (`RDIR_SCALE`, the usual case:
        // `t_min >= 0`); otherwise widened. The branch goes the same way for a whole walk.
        if ray.scaled() { (t_enter, t_exit) } else { pad(t_enter, t_exit) }
    }
}

/// The fused node test of [`PreparedRay::fused`] rays: per plane one FMA, `t = p r' - q`,
/// and integer `max`/`min` on the results (one cycle each, against four for `vmaxps`, on the
/// walk's chain of dependent steps). Returns `(t_enter, t_exit)` as the floats' bits;
/// `t_enter <= t_exit` as signed integers where the ray may enter a child.
///
/// A walk waits on each node's result, so the latency is what counts, not the instruction
/// count: against [`padded_slabs`] a ray runs more instructions (callgrind, AVX2, 20,000
/// bunny rays that hit: 1,095 -> 1,133, with the walks compiled once per test) but takes
/// less time (1 thread, against Embree's speed in the same process: bunny scattered rays
/// 0.84x -> 0.86x, 1M-triangle terrain 0.76x -> 0.79x, bunny camera rays 1.09x -> 1.12x).
///
/// # Safety
/// The CPU must support AVX2 and FMA, and `ray.fused` must hold.
#[inline(always)]
pub(super) unsafe fn fused_slabs(ray: &PreparedRay, node: &WideNode, t_max: f32) -> (__m256i, __m256i) {
    debug_assert!(ray.fused);
    // SAFETY: AVX2 and FMA per this function's contract; `near_at` and `far_at` are `8 row`
    // for rows 0-5 (`PreparedRay::new`), so each load reads one whole row of the node's
    // planes, 32-byte aligned.
    unsafe {
        let planes = node.planes.as_ptr().cast::<f32>();
        let plane = |at: usize| {
            debug_assert!(at < 48 && at.is_multiple_of(8));
            _mm256_load_ps(planes.add(at))
        };
        let mut near = [_mm256_setzero_si256(); 3];
        let mut far = [_mm256_setzero_si256(); 3];
        for k in 0..3 {
            let n = _mm256_fmsub_ps(
                plane(ray.near_at[k]),
                _mm256_set1_ps(ray.r_near[k]),
                _mm256_set1_ps(ray.q_near[k]),
            );
            let f = _mm256_fmsub_ps(
                plane(ray.far_at[k]),
                _mm256_set1_ps(ray.r_far[k]),
                _mm256_set1_ps(ray.q_far[k]),
            );
            near[k] = _mm256_castps_si256(n);
            far[k] = _mm256_castps_si256(f);
        }
        let ([n0, n1, n2], [f0, f1, f2]) = (near, far);
        // `t_min` is `+0` or more (`PreparedRay::new`); `t_max + 0.0` turns a `-0` into `+0`.
        let t_min = _mm256_castps_si256(_mm256_set1_ps(ray.t_min));
        let t_max = _mm256_castps_si256(_mm256_set1_ps(t_max + 0.0));
        let t_enter = _mm256_max_epi32(_mm256_max_epi32(n1, n2), _mm256_max_epi32(n0, t_min));
        let t_exit = _mm256_min_epi32(_mm256_min_epi32(f1, f2), _mm256_min_epi32(f0, t_max));
        (t_enter, t_exit)
    }
}

/// For each 8-bit mask, its set bits' lanes in order, 4 bits each from the lowest: the
/// permutation that gathers a vector's selected lanes at its start (AVX2 has no compress).
const COMPRESS: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut lane, mut n, mut order) = (0, 0, 0u32);
        while lane < 8 {
            if mask & (1 << lane) != 0 {
                order |= (lane as u32) << (4 * n);
                n += 1;
            }
            lane += 1;
        }
        table[mask] = order;
        mask += 1;
    }
    table
};

/// The 8 lanes of `x`'s 4-bit fields, from the lowest: a permutation for `vpermd`, which
/// reads each lane's 3 low bits.
#[inline(always)]
unsafe fn nibbles(x: u32) -> __m256i {
    // SAFETY: AVX2 per the caller.
    unsafe { _mm256_srlv_epi32(_mm256_set1_epi32(x as i32), _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28)) }
}

/// [`NodeKernel::descend`] with AVX2 (`descend_reference`, entry for entry): the nearest
/// entered child by three steps of a vector minimum, the others permuted into the node's
/// order for the ray's octant and gathered with a table of permutations (the compressed
/// store AVX2 lacks), both arrays of the stack written with one store each.
///
/// # Safety
/// The CPU must support AVX2 and FMA, and `ray.fused` must hold.
#[inline(always)]
pub(super) unsafe fn descend(
    ray: &PreparedRay,
    nodes: &[WideNode],
    node: &WideNode,
    t_max: f32,
    stack: &mut OrderedStack,
    prefetch: bool,
) -> Option<ChildRef> {
    // SAFETY: AVX2 and FMA, and `ray.fused`, per this function's contract; the stores go to
    // the 8 slots `slots` gives; a prefetch never faults.
    unsafe {
        let (t_enter, t_exit) = fused_slabs(ray, node, t_max);
        // All ones where the ray misses the box.
        let outside = _mm256_cmpgt_epi32(t_enter, t_exit);
        let hit = !(_mm256_movemask_ps(_mm256_castsi256_ps(outside)) as u32) & 0xFF;
        if hit == 0 {
            return None;
        }
        // The nearest: the least of `(t_enter bits & !7) | lane` over the hit lanes, as
        // unsigned integers (a missed lane becomes all ones, never the least).
        let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let keyed = _mm256_or_si256(_mm256_andnot_si256(_mm256_set1_epi32(7), t_enter), lanes);
        let k = _mm256_or_si256(keyed, outside);
        let k = _mm256_min_epu32(k, _mm256_permute4x64_epi64::<0b01_00_11_10>(k));
        let k = _mm256_min_epu32(k, _mm256_shuffle_epi32::<0b01_00_11_10>(k));
        let k = _mm256_min_epu32(k, _mm256_shuffle_epi32::<0b10_11_00_01>(k));
        let nearest = (_mm256_cvtsi256_si32(k) & 7) as usize;
        // The others, in the node's order for the ray's octant.
        let order = nibbles(node.orders[ray.octant & 7]);
        let children = _mm256_permutevar8x32_epi32(_mm256_load_si256(node.children.as_ptr().cast()), order);
        let t_in = _mm256_permutevar8x32_epi32(t_enter, order);
        let skip = _mm256_or_si256(
            _mm256_permutevar8x32_epi32(outside, order),
            _mm256_cmpeq_epi32(
                _mm256_and_si256(order, _mm256_set1_epi32(7)),
                _mm256_set1_epi32(nearest as i32),
            ),
        );
        let others = !(_mm256_movemask_ps(_mm256_castsi256_ps(skip)) as u32) & 0xFF;
        let gather = nibbles(COMPRESS[others as usize]);
        let pushed = _mm256_permutevar8x32_epi32(children, gather);
        let (refs, ts) = stack.slots();
        _mm256_storeu_si256(refs.as_mut_ptr().cast(), pushed);
        _mm256_storeu_si256(ts.as_mut_ptr().cast(), _mm256_permutevar8x32_epi32(t_in, gather));
        let n = others.count_ones();
        stack.grow(n as usize);
        if prefetch {
            // The new top, if an inner node, else the root (a harmless address): no branch
            // on which.
            let top = _mm256_permutevar8x32_epi32(pushed, _mm256_set1_epi32(n.wrapping_sub(1) as i32));
            let top = _mm256_cvtsi256_si32(top) as u32;
            let at = if n != 0 && top & LEAF_BIT == 0 { top as usize } else { 0 };
            prefetch_node_at(nodes.as_ptr().wrapping_add(at));
        }
        Some(node.children[nearest])
    }
}

impl NodeKernel for Avx2 {
    const PACKETS: bool = true;

    avx_shared!();

    #[inline(always)]
    fn intersect_as<const FUSED: bool>(self, ray: &PreparedRay, node: &WideNode, t_max: f32) -> NodeHits {
        // SAFETY: `self` proves AVX2 and FMA; the store goes to a local array of 8 floats.
        unsafe {
            let mut out = NodeHits { mask: 0, t_enter: [0.0; 8] };
            if FUSED {
                let (t_enter, t_exit) = fused_slabs(ray, node, t_max);
                // hit = !(t_enter > t_exit), on the bits as integers
                let outside = _mm256_castsi256_ps(_mm256_cmpgt_epi32(t_enter, t_exit));
                out.mask = !(_mm256_movemask_ps(outside) as u32) & 0xff;
                _mm256_storeu_si256(out.t_enter.as_mut_ptr().cast(), t_enter);
            } else {
                let (t_enter, t_exit) = padded_slabs(ray, node, t_max);
                // hit = t_enter <= t_exit (false when either is NaN)
                let hit = _mm256_cmp_ps::<_CMP_LE_OQ>(t_enter, t_exit);
                out.mask = _mm256_movemask_ps(hit) as u32;
                _mm256_storeu_ps(out.t_enter.as_mut_ptr(), t_enter);
            }
            out
        }
    }
}

packet_tests!(
    Avx2,
    #[inline(always)]
    fn packet_node(self, p: &RayPacket, node: &WideNode, t_max: f32) -> NodeHits {
        // SAFETY: `self` proves AVX2 and FMA; the store goes to a local array of 8 floats.
        unsafe {
            let (t_enter, t_exit) = packet_slabs(p, node, t_max);
            let hit = _mm256_cmp_ps::<_CMP_LE_OQ>(t_enter, t_exit);
            let mut out = NodeHits { mask: _mm256_movemask_ps(hit) as u32, t_enter: [0.0; 8] };
            _mm256_storeu_ps(out.t_enter.as_mut_ptr(), t_enter);
            out
        }
    }
);

// Wide packets only in the tests, with the references.
impl super::PacketKernel<WIDE> for Avx2 {}

/// The packet test of `packet::scalar_packet_node`, 8 children at once: `(t_enter, t_exit)`
/// of each lane, padded.
///
/// # Safety
/// The CPU must support AVX and FMA.
#[inline(always)]
pub(super) unsafe fn packet_slabs<const N: usize>(
    p: &RayPacket<N>,
    node: &WideNode,
    t_max: f32,
) -> (__m256, __m256) {
    // SAFETY: AVX and FMA per this function's contract; the plane rows are 32-byte aligned,
    // and `near`, `far` hold rows 0-5 (`k` or `k + 3`: every `RayPacket` is made so).
    unsafe {
        let plane = |row: usize| {
            debug_assert!(row < 6);
            _mm256_load_ps(node.planes.as_ptr().add(row).cast())
        };
        let mut t_enter = _mm256_set1_ps(p.t_min_lo);
        let mut t_exit = _mm256_set1_ps(t_max);
        // With every `t_min >= +0` the running maximum and minimum take integer max/min on
        // the floats' bits (1 cycle against 4, on the walk's chain; 2026-11-23, sixth
        // session, run-time switch, 1 thread, over Embree's 16-ray packets: the bunny's
        // camera batch 1.272x -> 1.299x on AVX-512, 0.907x -> 0.943x on AVX2, the dragon's
        // within 1%). Why the decisions stay the same: no operand is NaN (the reciprocals are
        // finite and non-zero, so `x · r` is a number or an infinity), and non-negative
        // floats order by their bits as integers, below none of the negative ones. So
        // `t_enter`, a maximum that includes `t_min_lo >= +0`, is the float maximum exactly;
        // `t_exit` is the float minimum when every operand is non-negative, and otherwise a
        // negative value (or -0 where the float minimum is negative), which `t_enter <=
        // t_exit` rejects as the exact minimum would, or keeps, conservatively, at -0.
        let fused = p.t_min_lo.to_bits() as i32 >= 0;
        for k in 0..3 {
            let (r_lo, r_hi) = (_mm256_set1_ps(p.r_lo[k]), _mm256_set1_ps(p.r_hi[k]));
            let x = _mm256_sub_ps(plane(p.near[k]), _mm256_set1_ps(p.o_near[k]));
            let t_near = _mm256_min_ps(_mm256_mul_ps(x, r_lo), _mm256_mul_ps(x, r_hi));
            let y = _mm256_sub_ps(plane(p.far[k]), _mm256_set1_ps(p.o_far[k]));
            let t_far = _mm256_max_ps(_mm256_mul_ps(y, r_lo), _mm256_mul_ps(y, r_hi));
            if fused {
                t_enter = _mm256_castsi256_ps(_mm256_max_epi32(
                    _mm256_castps_si256(t_near),
                    _mm256_castps_si256(t_enter),
                ));
                t_exit = _mm256_castsi256_ps(_mm256_min_epi32(
                    _mm256_castps_si256(t_far),
                    _mm256_castps_si256(t_exit),
                ));
            } else {
                t_enter = _mm256_max_ps(t_near, t_enter);
                t_exit = _mm256_min_ps(t_far, t_exit);
            }
        }
        pad(t_enter, t_exit)
    }
}

/// `t_enter -= |t_enter| * pad; t_exit += |t_exit| * pad` (see `SLAB_PAD`).
///
/// # Safety
/// The CPU must support AVX and FMA.
#[inline(always)]
unsafe fn pad(t_enter: __m256, t_exit: __m256) -> (__m256, __m256) {
    // SAFETY: AVX and FMA per this function's contract.
    unsafe {
        let abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff));
        let pad = _mm256_set1_ps(SLAB_PAD);
        let t_enter = _mm256_fnmadd_ps(_mm256_and_ps(t_enter, abs_mask), pad, t_enter);
        let t_exit = _mm256_fmadd_ps(_mm256_and_ps(t_exit, abs_mask), pad, t_exit);
        (t_enter, t_exit)
    }
}

/// The 8 rays of `p` against child `child` of `node` (`packet::scalar_rays_in_box`): one
/// lane per ray, the single-ray kernels' operations.
///
/// # Safety
/// The CPU must support AVX and FMA.
#[inline(always)]
pub(super) unsafe fn rays_in_box(p: &RayPacket, node: &WideNode, child: usize, t_max: &[f32; PACKET]) -> u32 {
    let c = child & 7;
    let p6 = &node.planes;
    let planes = [p6[0][c], p6[1][c], p6[2][c], p6[3][c], p6[4][c], p6[5][c]];
    // SAFETY: AVX and FMA per this function's contract.
    unsafe { rays_in_planes(p, &planes, t_max) }
}

/// The 8 rays of `p` against the box whose 6 planes (min x, y, z, max x, y, z) are
/// `planes`: one lane per ray, the single-ray kernels' operations.
///
/// # Safety
/// The CPU must support AVX and FMA.
#[inline(always)]
pub(super) unsafe fn rays_in_planes(p: &RayPacket, planes: &[f32; 6], t_max: &[f32; PACKET]) -> u32 {
    // SAFETY: AVX and FMA per this function's contract; the loads read 8-float rows of `p`
    // and `t_max`.
    unsafe {
        let mut t_enter = _mm256_loadu_ps(p.t_min.as_ptr());
        let mut t_exit = _mm256_loadu_ps(t_max.as_ptr());
        for k in 0..3 {
            let o = _mm256_loadu_ps(p.origin[k].as_ptr());
            let r = _mm256_loadu_ps(p.rdir[k].as_ptr());
            let t_near = _mm256_mul_ps(_mm256_sub_ps(_mm256_set1_ps(planes[p.near[k] % 6]), o), r);
            let t_far = _mm256_mul_ps(_mm256_sub_ps(_mm256_set1_ps(planes[p.far[k] % 6]), o), r);
            t_enter = _mm256_max_ps(t_near, t_enter);
            t_exit = _mm256_min_ps(t_far, t_exit);
        }
        let (t_enter, t_exit) = pad(t_enter, t_exit);
        _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LE_OQ>(t_enter, t_exit)) as u32
    }
}

/// The rays `who` of a packet against the triangles of block number `b`, one triangle at a
/// time and 8 rays per vector: per ray and triangle, exactly the operations of the scalar
/// kernel in its order (no fused multiply-add), so the same bits; a lane with an edge
/// function exactly 0, or a `t` equal to the ray's best so far, goes to scalar code.
///
/// # Safety
/// The CPU must support AVX and AVX2.
#[inline(always)]
pub(super) unsafe fn packet_block(
    w: &PacketWoop<'_>,
    block: &TriBlock4,
    b: u32,
    who: u32,
    best: &mut PacketBest,
) {
    // SAFETY: AVX/AVX2 per this function's contract; the loads read 8-float rows of `w`
    // and `best`, the stores write local arrays and rows of `best`.
    unsafe {
        // Macros, not closures: a closure does not inherit the caller's target features,
        // and one left out of line turns each intrinsic into a call.
        macro_rules! ld {
            ($a:expr) => {
                _mm256_loadu_ps($a.as_ptr())
            };
        }
        let (ox, oy, oz) = (ld!(w.o[0]), ld!(w.o[1]), ld!(w.o[2]));
        let (sx, sy, sz) = (ld!(w.s[0]), ld!(w.s[1]), ld!(w.s[2]));
        let t_min = ld!(w.t_min);
        let zero = _mm256_setzero_ps();
        // Lane i of `active` is all ones when bit i of `who` is set.
        let bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        let active = _mm256_castsi256_ps(_mm256_cmpeq_epi32(
            _mm256_and_si256(_mm256_set1_epi32(who as i32), bits),
            bits,
        ));
        let [kx, ky, kz] = w.k;
        for lane in 0..4 {
            let id = block.ids[lane];
            if id == u32::MAX {
                break; // padding lanes come last
            }
            macro_rules! vtx {
                ($vertex:expr, $axis:expr) => {
                    _mm256_set1_ps(block.v[3 * $vertex + $axis][lane])
                };
            }
            // Per vertex: a = v - origin; (ax, ay) = (a[kx] - sx * a[kz], a[ky] - sy * a[kz])
            macro_rules! sheared {
                ($vertex:expr) => {{
                    let az = _mm256_sub_ps(vtx!($vertex, kz), oz);
                    let ax = _mm256_sub_ps(_mm256_sub_ps(vtx!($vertex, kx), ox), _mm256_mul_ps(sx, az));
                    let ay = _mm256_sub_ps(_mm256_sub_ps(vtx!($vertex, ky), oy), _mm256_mul_ps(sy, az));
                    (ax, ay, az)
                }};
            }
            let (ax, ay, a_z) = sheared!(0);
            let (bx, by, b_z) = sheared!(1);
            let (cx, cy, c_z) = sheared!(2);
            let u = _mm256_sub_ps(_mm256_mul_ps(cx, by), _mm256_mul_ps(cy, bx));
            let v = _mm256_sub_ps(_mm256_mul_ps(ax, cy), _mm256_mul_ps(ay, cx));
            let e = _mm256_sub_ps(_mm256_mul_ps(bx, ay), _mm256_mul_ps(by, ax));
            macro_rules! cmp {
                ($op:ident, $x:expr) => {
                    _mm256_cmp_ps::<$op>($x, zero)
                };
            }
            // May hit: the least edge function >= 0 or the greatest <= 0 (as
            // `triangles::sse::intersect`); of those, lanes with an exact 0 are the scalar
            // kernel's, and the others with an exact 0 miss whatever it finds.
            let lo = _mm256_min_ps(_mm256_min_ps(u, v), e);
            let hi = _mm256_max_ps(_mm256_max_ps(u, v), e);
            let inside = _mm256_and_ps(active, _mm256_or_ps(cmp!(_CMP_GE_OQ, lo), cmp!(_CMP_LE_OQ, hi)));
            // NaN lanes (overflowing products) may hide an exact 0 from `lo`/`hi`: the scalar
            // kernel's too.
            let det = _mm256_add_ps(_mm256_add_ps(u, v), e);
            let odd = _mm256_and_ps(active, _mm256_cmp_ps::<_CMP_UNORD_Q>(det, det));
            let ties = _mm256_or_ps(
                _mm256_and_ps(inside, _mm256_or_ps(cmp!(_CMP_EQ_OQ, lo), cmp!(_CMP_EQ_OQ, hi))),
                odd,
            );
            let mut tie_mask = _mm256_movemask_ps(ties) as u32;
            let inside = _mm256_andnot_ps(ties, inside);
            if _mm256_movemask_ps(inside) != 0 {
                // `query::ray::sheared_hit`'s `f32` path; lanes out of its range are the
                // scalar kernel's (its `f64` path).
                let [t, bv, bw, fits] = interpolate((u, v, e), det, sz, [a_z, b_z, c_z]);
                tie_mask |= _mm256_movemask_ps(_mm256_andnot_ps(fits, inside)) as u32;
                let reach = ld!(best.t);
                let in_range = _mm256_and_ps(
                    _mm256_cmp_ps::<_CMP_LE_OQ>(t_min, t),
                    _mm256_cmp_ps::<_CMP_LE_OQ>(t, reach),
                );
                // (An inside lane with no edge function 0 has `det != 0`.)
                let hit = _mm256_and_ps(_mm256_and_ps(fits, inside), in_range);
                let nearer =
                    _mm256_movemask_ps(_mm256_and_ps(hit, _mm256_cmp_ps::<_CMP_LT_OQ>(t, reach))) as u32;
                let level =
                    _mm256_movemask_ps(_mm256_and_ps(hit, _mm256_cmp_ps::<_CMP_EQ_OQ>(t, reach))) as u32;
                if nearer | level != 0 {
                    let (mut ts, mut us, mut vs) = ([0.0f32; PACKET], [0.0f32; PACKET], [0.0f32; PACKET]);
                    _mm256_storeu_ps(ts.as_mut_ptr(), t);
                    _mm256_storeu_ps(us.as_mut_ptr(), bv);
                    _mm256_storeu_ps(vs.as_mut_ptr(), bw);
                    let mut bits = nearer | level;
                    while bits != 0 {
                        let i = bits.trailing_zeros() as usize & (PACKET - 1);
                        best.offer(i, (ts[i], us[i], vs[i]), id, b, lane);
                        bits &= bits - 1;
                    }
                }
            }
            let mut bits = tie_mask;
            while bits != 0 {
                scalar_tie(w, block, b, bits.trailing_zeros() as usize & (PACKET - 1), lane, best);
                bits &= bits - 1;
            }
        }
    }
}

/// 8 rays lane by lane (`packet::scalar_ray_lanes`): an 8x8 transpose of their floats in
/// 24 shuffles.
///
/// # Safety
/// The CPU must support AVX.
#[inline(always)]
pub(super) unsafe fn ray_lanes(rays: &[crate::Ray3; PACKET]) -> [[f32; PACKET]; 8] {
    // SAFETY: AVX per this function's contract; the stores write a local array.
    unsafe {
        let rows = lane_vectors(rays);
        let mut out = [[0.0f32; PACKET]; 8];
        for (o, r) in out.iter_mut().zip(rows) {
            _mm256_storeu_ps(o.as_mut_ptr(), r);
        }
        out
    }
}

/// [`ray_lanes`] in registers: rows `origin.x, .y, .z, dir.x, .y, .z, t_min, t_max`.
///
/// # Safety
/// The CPU must support AVX.
#[inline(always)]
unsafe fn lane_vectors(rays: &[crate::Ray3; PACKET]) -> [__m256; 8] {
    // SAFETY: AVX per this function's contract.
    unsafe { transpose(ray_vectors(rays)) }
}

/// The 8 rays as they lie in memory, one vector each: `origin, dir, t_min, t_max`.
///
/// # Safety
/// The CPU must support AVX.
#[inline(always)]
pub(super) unsafe fn ray_vectors(rays: &[crate::Ray3; PACKET]) -> [__m256; 8] {
    // SAFETY: AVX per this function's contract. A `Ray3` is `#[repr(C)]` of two `Vec3`
    // (each `#[repr(C)]` of 3 `f32`) and two `f32`: 8 floats without padding (asserted at
    // compile time in `shape/ray.rs`), so the 8 rays are 64 consecutive floats.
    unsafe {
        let p = rays.as_ptr().cast::<f32>();
        macro_rules! ld {
            ($i:expr) => {
                _mm256_loadu_ps(p.add(8 * $i))
            };
        }
        [ld!(0), ld!(1), ld!(2), ld!(3), ld!(4), ld!(5), ld!(6), ld!(7)]
    }
}

/// An 8x8 transpose in 24 shuffles: 8 rays' vectors (`ray_vectors`) into rows.
///
/// # Safety
/// The CPU must support AVX.
#[inline(always)]
pub(super) unsafe fn transpose(r: [__m256; 8]) -> [__m256; 8] {
    // SAFETY: AVX per this function's contract.
    unsafe {
        // Pairs of rays interleaved, then quads, then the 128-bit halves swapped into place.
        let t = [
            _mm256_unpacklo_ps(r[0], r[1]),
            _mm256_unpackhi_ps(r[0], r[1]),
            _mm256_unpacklo_ps(r[2], r[3]),
            _mm256_unpackhi_ps(r[2], r[3]),
        ];
        let u = [
            _mm256_unpacklo_ps(r[4], r[5]),
            _mm256_unpackhi_ps(r[4], r[5]),
            _mm256_unpacklo_ps(r[6], r[7]),
            _mm256_unpackhi_ps(r[6], r[7]),
        ];
        let q = [
            _mm256_shuffle_ps::<0x44>(t[0], t[2]),
            _mm256_shuffle_ps::<0xEE>(t[0], t[2]),
            _mm256_shuffle_ps::<0x44>(t[1], t[3]),
            _mm256_shuffle_ps::<0xEE>(t[1], t[3]),
        ];
        let w = [
            _mm256_shuffle_ps::<0x44>(u[0], u[2]),
            _mm256_shuffle_ps::<0xEE>(u[0], u[2]),
            _mm256_shuffle_ps::<0x44>(u[1], u[3]),
            _mm256_shuffle_ps::<0xEE>(u[1], u[3]),
        ];
        [
            _mm256_permute2f128_ps::<0x20>(q[0], w[0]),
            _mm256_permute2f128_ps::<0x20>(q[1], w[1]),
            _mm256_permute2f128_ps::<0x20>(q[2], w[2]),
            _mm256_permute2f128_ps::<0x20>(q[3], w[3]),
            _mm256_permute2f128_ps::<0x31>(q[0], w[0]),
            _mm256_permute2f128_ps::<0x31>(q[1], w[1]),
            _mm256_permute2f128_ps::<0x31>(q[2], w[2]),
            _mm256_permute2f128_ps::<0x31>(q[3], w[3]),
        ]
    }
}

/// A packet's extremes, for its node test (the fields of `RayPacket` that are not lanes).
pub(super) struct Extremes {
    pub o_near: [f32; 3],
    pub o_far: [f32; 3],
    pub r_lo: [f32; 3],
    pub r_hi: [f32; 3],
    pub t_min_lo: f32,
    /// The greatest `t_max`.
    pub t_max_hi: f32,
    pub near: [usize; 3],
    pub far: [usize; 3],
}

impl Extremes {
    /// A packet with these extremes and its lanes still zero (the caller fills them).
    #[inline(always)]
    pub fn packet<const N: usize>(&self) -> RayPacket<N> {
        RayPacket {
            origin: [[0.0; N]; 3],
            rdir: [[0.0; N]; 3],
            t_min: [0.0; N],
            o_near: self.o_near,
            o_far: self.o_far,
            r_lo: self.r_lo,
            r_hi: self.r_hi,
            t_min_lo: self.t_min_lo,
            near: self.near,
            far: self.far,
        }
    }
}

/// The least and greatest of every field of some rays (`ray_vectors`), in the rays' own
/// layout: `o_lo, o_hi` for the origins, `d_lo, d_hi` for the directions, `t_min_lo`.
///
/// # Safety
/// The CPU must support AVX.
#[inline(always)]
pub(super) unsafe fn field_bounds<const R: usize>(r: &[__m256; R]) -> (__m256, __m256) {
    const { assert!(R.is_power_of_two()) };
    // SAFETY: AVX per this function's contract.
    unsafe {
        // Pairwise, as a tree: a shorter chain of dependent instructions.
        let (mut lo, mut hi, mut n) = (*r, *r, R);
        while n > 1 {
            n /= 2;
            for i in 0..n {
                lo[i] = _mm256_min_ps(lo[2 * i], lo[2 * i + 1]);
                hi[i] = _mm256_max_ps(hi[2 * i], hi[2 * i + 1]);
            }
        }
        (lo[0], hi[0])
    }
}

/// The checks of `packet::scalar_packet_start` that the extremes of the rays' fields
/// (`field_bounds`) decide: directions of one sign per axis and none parallel to an axis
/// plane, origins within `spread`; and if they pass, the packet's extremes.
///
/// # Safety
/// The CPU must support AVX.
#[inline(always)]
pub(super) unsafe fn packet_extremes(lo: __m256, hi: __m256, spread: f32) -> Option<Extremes> {
    // SAFETY: AVX per this function's contract; the stores write local arrays.
    unsafe {
        // Per axis the least and greatest reciprocal direction: `1 / d` decreases with `d`
        // on either side of 0, and correctly rounded division is monotonic, so they are
        // `1 / d_hi` and `1 / d_lo` when all `d` have one sign (the same bits as the least
        // and greatest of the rays' reciprocals).
        let one = _mm256_set1_ps(1.0);
        let zero = _mm256_setzero_ps();
        let (rlo, rhi) = (_mm256_div_ps(one, hi), _mm256_div_ps(one, lo));
        let abs = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff));
        let inf = _mm256_set1_ps(f32::INFINITY);
        macro_rules! finite {
            ($v:expr) => {
                _mm256_cmp_ps::<_CMP_LT_OQ>(_mm256_and_ps($v, abs), inf)
            };
        }
        // Directions (lanes 3-5): all of one sign, none 0 (`d_lo > 0` or `d_hi < 0`), and
        // the extreme reciprocals finite, so all are (they lie between). Origins (lanes
        // 0-2): within `spread` of each other (no NaN: `!(x > s)` is `x <= s`).
        let down = _mm256_cmp_ps::<_CMP_LT_OQ>(hi, zero);
        let one_sign = _mm256_or_ps(_mm256_cmp_ps::<_CMP_GT_OQ>(lo, zero), down);
        let dirs_ok = _mm256_movemask_ps(_mm256_and_ps(one_sign, _mm256_and_ps(finite!(rlo), finite!(rhi))));
        let spread_ok =
            _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LE_OQ>(_mm256_sub_ps(hi, lo), _mm256_set1_ps(spread)));
        if (dirs_ok & 0b11_1000) != 0b11_1000 || (spread_ok & 0b111) != 0b111 {
            return None;
        }
        let down = _mm256_movemask_ps(down) >> 3;
        let (mut lo_a, mut hi_a, mut rlo_a, mut rhi_a) = ([0.0f32; 8], [0.0f32; 8], [0.0f32; 8], [0.0f32; 8]);
        _mm256_storeu_ps(lo_a.as_mut_ptr(), lo);
        _mm256_storeu_ps(hi_a.as_mut_ptr(), hi);
        _mm256_storeu_ps(rlo_a.as_mut_ptr(), rlo);
        _mm256_storeu_ps(rhi_a.as_mut_ptr(), rhi);
        let mut x = Extremes {
            o_near: [0.0; 3],
            o_far: [0.0; 3],
            r_lo: [0.0; 3],
            r_hi: [0.0; 3],
            t_min_lo: lo_a[6],
            t_max_hi: hi_a[7],
            near: [0; 3],
            far: [0; 3],
        };
        for k in 0..3 {
            let down = down & (1 << k) != 0;
            x.near[k] = k + 3 * usize::from(down);
            x.far[k] = k + 3 * usize::from(!down);
            (x.r_lo[k], x.r_hi[k]) = (rlo_a[3 + k], rhi_a[3 + k]);
            (x.o_near[k], x.o_far[k]) = if down { (lo_a[k], hi_a[k]) } else { (hi_a[k], lo_a[k]) };
        }
        Some(x)
    }
}

/// `packet::scalar_packet_start` 8 lanes at a time: the same checks and the same values
/// (each lane's reciprocal and shear are the same correctly rounded quotients; the
/// direction test the same products and sums in the same order). The extremes of the
/// origins may differ from the reference's in the sign of a zero only, which changes no
/// box test.
///
/// # Safety
/// The CPU must support AVX and AVX2.
#[inline(always)]
pub(super) unsafe fn packet_start<'r>(
    rays: &'r [crate::Ray3; PACKET],
    spread: f32,
    bounds: [f32; 6],
) -> Started<'r> {
    // SAFETY: AVX/AVX2 per this function's contract; the stores write 8-float rows of
    // local structs; the row indices `k[i]` are a permutation of 0, 1, 2.
    unsafe {
        let r = ray_vectors(rays);
        let (lo, hi) = field_bounds(&r);
        let Some(x) = packet_extremes(lo, hi, spread) else { return Started::Incoherent };
        let mut packet = x.packet::<PACKET>();
        if packet.box_entry(|row| bounds[row % 6], x.t_max_hi).is_none() {
            return Started::Outside;
        }
        let one = _mm256_set1_ps(1.0);
        let abs = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff));
        let [ox, oy, oz, dx, dy, dz, t_min, t_max] = transpose(r);
        let origin = [ox, oy, oz];
        let rdir = [_mm256_div_ps(one, dx), _mm256_div_ps(one, dy), _mm256_div_ps(one, dz)];
        // Directions within about 3 degrees of the first ray's, as the reference computes it.
        macro_rules! first {
            ($v:expr) => {
                _mm256_broadcastss_ps(_mm256_castps256_ps128($v))
            };
        }
        let (d0x, d0y, d0z) = (first!(dx), first!(dy), first!(dz));
        let dot = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(dx, d0x), _mm256_mul_ps(dy, d0y)),
            _mm256_mul_ps(dz, d0z),
        );
        let len_sq =
            _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz));
        let d0_sq = first!(len_sq);
        let close = _mm256_cmp_ps::<_CMP_GE_OQ>(
            _mm256_mul_ps(dot, dot),
            _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.997), len_sq), d0_sq),
        );
        // Every lane's `WoopRay` axes are the first's (`PacketWoop::new`'s rule).
        let k = super::woop_axes(glam::Vec3::new(
            _mm256_cvtss_f32(dx),
            _mm256_cvtss_f32(dy),
            _mm256_cvtss_f32(dz),
        ));
        let (ax, ay, az) = (_mm256_and_ps(dx, abs), _mm256_and_ps(dy, abs), _mm256_and_ps(dz, abs));
        // `z > (if y > x { y } else { x })`: maxps returns its first operand when greater.
        let z_largest = _mm256_cmp_ps::<_CMP_GT_OQ>(az, _mm256_max_ps(ay, ax));
        let same = match k[2] {
            2 => z_largest,
            1 => _mm256_andnot_ps(z_largest, _mm256_cmp_ps::<_CMP_GT_OQ>(ay, ax)),
            _ => _mm256_andnot_ps(z_largest, _mm256_cmp_ps::<_CMP_LE_OQ>(ay, ax)),
        };
        if _mm256_movemask_ps(_mm256_and_ps(close, same)) != 0xff {
            return Started::Incoherent;
        }
        let dir = [dx, dy, dz];
        let dz = dir[k[2] % 3];
        let mut woop =
            PacketWoop { o: [[0.0; PACKET]; 3], s: [[0.0; PACKET]; 3], t_min: [0.0; PACKET], k, rays };
        let mut t_max_row = [0.0; PACKET];
        for a in 0..3 {
            _mm256_storeu_ps(packet.origin[a].as_mut_ptr(), origin[a]);
            _mm256_storeu_ps(packet.rdir[a].as_mut_ptr(), rdir[a]);
            _mm256_storeu_ps(woop.o[a].as_mut_ptr(), origin[k[a] % 3]);
        }
        _mm256_storeu_ps(woop.s[0].as_mut_ptr(), _mm256_div_ps(dir[k[0] % 3], dz));
        _mm256_storeu_ps(woop.s[1].as_mut_ptr(), _mm256_div_ps(dir[k[1] % 3], dz));
        // `1 / dir[kz]`, the reciprocal already made for the node tests.
        _mm256_storeu_ps(woop.s[2].as_mut_ptr(), rdir[k[2] % 3]);
        _mm256_storeu_ps(packet.t_min.as_mut_ptr(), t_min);
        _mm256_storeu_ps(woop.t_min.as_mut_ptr(), t_min);
        _mm256_storeu_ps(t_max_row.as_mut_ptr(), t_max);
        Started::Packet(PacketStart { packet, woop, t_max: t_max_row })
    }
}

/// `packet::scalar_packet_normals` 4 lanes of `f64` at a time (`N` of them, a multiple of 4): the same operations in the
/// same order (correctly rounded products, differences, square root and quotient; no fused
/// multiply-add), so the same bits.
///
/// # Safety
/// The CPU must support AVX.
#[inline(always)]
pub(super) unsafe fn packet_normals<const N: usize>(
    v: &[[f32; N]; 9],
    dir: &[[f32; N]; 3],
) -> ([[f32; N]; 3], u32) {
    // SAFETY: AVX per this function's contract; the loads read 4 floats at offsets below
    // `N` of `N`-float rows, the stores write 4 floats there in local arrays.
    unsafe {
        const { assert!(N.is_multiple_of(4) && N <= 32) };
        let mut normals = [[0.0f32; N]; 3];
        let mut front = 0u32;
        for half in (0..N).step_by(4) {
            macro_rules! ld {
                ($row:expr) => {
                    _mm256_cvtps_pd(_mm_loadu_ps($row.as_ptr().add(half)))
                };
            }
            let (ax, ay, az) = (ld!(v[0]), ld!(v[1]), ld!(v[2]));
            // e = b - a, f = c - a
            let (ex, ey, ez) =
                (_mm256_sub_pd(ld!(v[3]), ax), _mm256_sub_pd(ld!(v[4]), ay), _mm256_sub_pd(ld!(v[5]), az));
            let (fx, fy, fz) =
                (_mm256_sub_pd(ld!(v[6]), ax), _mm256_sub_pd(ld!(v[7]), ay), _mm256_sub_pd(ld!(v[8]), az));
            // glam's `e.cross(f)`: (e.y f.z - f.y e.z, e.z f.x - f.z e.x, e.x f.y - f.x e.y)
            let nx = _mm256_sub_pd(_mm256_mul_pd(ey, fz), _mm256_mul_pd(fy, ez));
            let ny = _mm256_sub_pd(_mm256_mul_pd(ez, fx), _mm256_mul_pd(fz, ex));
            let nz = _mm256_sub_pd(_mm256_mul_pd(ex, fy), _mm256_mul_pd(fx, ey));
            // n . d, as glam's `dot`: (x x' + y y') + z z'
            macro_rules! dot {
                ($x:expr, $y:expr, $z:expr) => {
                    _mm256_add_pd(
                        _mm256_add_pd(_mm256_mul_pd(nx, $x), _mm256_mul_pd(ny, $y)),
                        _mm256_mul_pd(nz, $z),
                    )
                };
            }
            let facing = dot!(ld!(dir[0]), ld!(dir[1]), ld!(dir[2]));
            front |=
                (_mm256_movemask_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(facing, _mm256_setzero_pd())) as u32) << half;
            // normalize: n * (1 / sqrt(n . n))
            let recip = _mm256_div_pd(_mm256_set1_pd(1.0), _mm256_sqrt_pd(dot!(nx, ny, nz)));
            for (row, n) in normals.iter_mut().zip([nx, ny, nz]) {
                _mm_storeu_ps(row.as_mut_ptr().add(half), _mm256_cvtpd_ps(_mm256_mul_pd(n, recip)));
            }
        }
        (normals, front)
    }
}
