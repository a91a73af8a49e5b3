//! The AVX-512 node kernel: the AVX2 slab computation (`avx2::padded_slabs`), with an
//! AVX-512VL mask compare (one instruction for the hit mask, no movemask); and packets of
//! 16 rays ([`WIDE`]: a 4x4 tile of camera rays) whose per-ray tests are one 512-bit
//! vector each, with mask registers for the rays' verdicts.

use core::arch::x86_64::*;

use super::avx2::{
    avx_shared, field_bounds, fused_slabs, packet_extremes, packet_slabs, packet_tests, padded_slabs,
    ray_vectors, transpose,
};
use super::packet::scalar_tie;
use super::{
    NodeHits, NodeKernel, PACKET, PacketBest, PacketKernel, PacketStart, PacketWoop, PreparedRay, RayPacket,
    SLAB_PAD, Started, TriBlock4, WIDE,
};
use crate::bvh::node::WideNode;
use crate::query::{DET_MAX, DET_MIN};

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
    const PACKET_WIDTH: usize = WIDE;

    avx_shared!();

    #[inline(always)]
    fn intersect_as<const FUSED: bool>(self, ray: &PreparedRay, node: &WideNode, t_max: f32) -> NodeHits {
        // SAFETY: `self` proves AVX-512 F/VL, AVX2 and FMA; the store goes to a local array.
        unsafe {
            let mut out = NodeHits { mask: 0, t_enter: [0.0; 8] };
            if FUSED {
                let (t_enter, t_exit) = fused_slabs(ray, node, t_max);
                // hit = t_enter <= t_exit on the bits as integers, into a mask register
                out.mask = u32::from(_mm256_cmple_epi32_mask(t_enter, t_exit));
                _mm256_storeu_si256(out.t_enter.as_mut_ptr().cast(), t_enter);
            } else {
                let (t_enter, t_exit) = padded_slabs(ray, node, t_max);
                // hit = t_enter <= t_exit, straight into a mask register
                out.mask = u32::from(_mm256_cmp_ps_mask::<_CMP_LE_OQ>(t_enter, t_exit));
                _mm256_storeu_ps(out.t_enter.as_mut_ptr(), t_enter);
            }
            out
        }
    }
}

packet_tests!(
    Avx512,
    #[inline(always)]
    fn packet_node(self, p: &RayPacket, node: &WideNode, t_max: f32) -> NodeHits {
        // SAFETY: `self` proves AVX-512 F/VL, AVX2 and FMA.
        unsafe { node_hits(p, node, t_max) }
    }
);

/// Packets of 16 rays (a 4x4 tile of camera rays): every per-ray test is one 512-bit
/// vector, with the same operations per lane as the 8-ray (AVX2) tests and the
/// references of `packet.rs`; the node test is the 8-ray one on the packet's extremes.
impl PacketKernel<WIDE> for Avx512 {
    #[inline(always)]
    fn packet_node(self, p: &RayPacket<WIDE>, node: &WideNode, t_max: f32) -> NodeHits {
        // SAFETY: `self` proves AVX-512 F/VL, AVX2 and FMA.
        unsafe { node_hits(p, node, t_max) }
    }

    #[inline(always)]
    fn rays_in_box(self, p: &RayPacket<WIDE>, node: &WideNode, child: usize, t_max: &[f32; WIDE]) -> u32 {
        let c = child & 7;
        let p6 = &node.planes;
        let planes = [p6[0][c], p6[1][c], p6[2][c], p6[3][c], p6[4][c], p6[5][c]];
        // SAFETY: `self` proves AVX-512 F and FMA.
        unsafe { rays_in_planes(p, &planes, t_max) }
    }

    #[inline(always)]
    fn rays_in_bounds(self, p: &RayPacket<WIDE>, min: [f32; 3], max: [f32; 3], t_max: &[f32; WIDE]) -> u32 {
        // SAFETY: `self` proves AVX-512 F and FMA.
        unsafe { rays_in_planes(p, &[min[0], min[1], min[2], max[0], max[1], max[2]], t_max) }
    }

    #[inline(always)]
    fn packet_start(self, rays: &[crate::Ray3; WIDE], spread: f32, bounds: [f32; 6]) -> Started<'_, WIDE> {
        // SAFETY: `self` proves AVX-512 F, AVX2 and FMA.
        unsafe { packet_start(rays, spread, bounds) }
    }

    #[inline(always)]
    fn packet_block(
        self,
        w: &PacketWoop<'_, WIDE>,
        block: &TriBlock4,
        b: u32,
        who: u32,
        best: &mut PacketBest<WIDE>,
    ) {
        // SAFETY: `self` proves AVX-512 F.
        unsafe { packet_block(w, block, b, who, best) }
    }

    #[inline(always)]
    fn packet_normals(self, v: &[[f32; WIDE]; 9], dir: &[[f32; WIDE]; 3]) -> ([[f32; WIDE]; 3], u32) {
        // SAFETY: `self` proves AVX-512 F.
        unsafe { packet_normals(v, dir) }
    }

    #[inline(always)]
    fn ray_lanes(self, rays: &[crate::Ray3; WIDE]) -> [[f32; WIDE]; 8] {
        // SAFETY: `self` proves AVX-512 F; the stores write a local array.
        unsafe {
            let rows = lane_rows(rays);
            let mut out = [[0.0f32; WIDE]; 8];
            for (o, r) in out.iter_mut().zip(rows) {
                _mm512_storeu_ps(o.as_mut_ptr(), r);
            }
            out
        }
    }

    #[inline(always)]
    fn rays_reaching(self, t: f32, t_max: &[f32; WIDE], who: u32) -> u32 {
        // SAFETY: `self` proves AVX-512 F; the load reads the 16 floats of `t_max`.
        unsafe {
            let reach = _mm512_loadu_ps(t_max.as_ptr());
            u32::from(_mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(who as u16, _mm512_set1_ps(t), reach))
        }
    }

    #[inline(always)]
    fn farthest(self, t_max: &[f32; WIDE], who: u32) -> f32 {
        // SAFETY: `self` proves AVX-512 F; the load reads the 16 floats of `t_max`.
        unsafe {
            let t = _mm512_mask_blend_ps(
                who as u16,
                _mm512_set1_ps(f32::NEG_INFINITY),
                _mm512_loadu_ps(t_max.as_ptr()),
            );
            // A non-negative float's bits, read as an `i32`, order as the float does, and
            // every non-negative one is greater than every negative one: when the greatest
            // `i32` is not negative, it is the greatest float. `vpmaxsd` takes 1 cycle against
            // 4 for `vmaxps`, on the packet walk's chain before each node test (2026-11-23,
            // sixth session: the bunny's and the dragon's camera batches +2%–2.5% over
            // Embree's packets, 1 thread, medians of 5–7 alternating runs in one binary).
            // All-negative reaches (rays done, or with a negative `t_max`) take the float
            // maximum.
            let m = _mm512_reduce_max_epi32(_mm512_castps_si512(t));
            if m >= 0 {
                return f32::from_bits(m as u32);
            }
            _mm512_reduce_max_ps(t)
        }
    }
}

/// The packet node test (`avx2::packet_slabs`, which reads only the packet's extremes),
/// with the hit mask straight from a mask compare.
///
/// # Safety
/// The CPU must support AVX-512 F/VL and FMA.
#[inline(always)]
unsafe fn node_hits<const N: usize>(p: &RayPacket<N>, node: &WideNode, t_max: f32) -> NodeHits {
    // SAFETY: per this function's contract; the store goes to a local array.
    unsafe {
        let (t_enter, t_exit) = packet_slabs(p, node, t_max);
        let mask = _mm256_cmp_ps_mask::<_CMP_LE_OQ>(t_enter, t_exit);
        let mut out = NodeHits { mask: u32::from(mask), t_enter: [0.0; 8] };
        _mm256_storeu_ps(out.t_enter.as_mut_ptr(), t_enter);
        out
    }
}

/// `t_enter -= |t_enter| * pad; t_exit += |t_exit| * pad` (see `SLAB_PAD`), 16 lanes: the
/// AVX2 kernels' fused multiply-adds, lane by lane.
///
/// # Safety
/// The CPU must support AVX-512 F.
#[inline(always)]
unsafe fn pad(t_enter: __m512, t_exit: __m512) -> (__m512, __m512) {
    // SAFETY: AVX-512 F per this function's contract.
    unsafe {
        let pad = _mm512_set1_ps(SLAB_PAD);
        let t_enter = _mm512_fnmadd_ps(_mm512_abs_ps(t_enter), pad, t_enter);
        let t_exit = _mm512_fmadd_ps(_mm512_abs_ps(t_exit), pad, t_exit);
        (t_enter, t_exit)
    }
}

/// The 16 rays of `p` against the box whose 6 planes (min x, y, z, max x, y, z) are
/// `planes`: one lane per ray, the operations of `avx2::rays_in_planes`.
///
/// # Safety
/// The CPU must support AVX-512 F.
#[inline(always)]
unsafe fn rays_in_planes(p: &RayPacket<WIDE>, planes: &[f32; 6], t_max: &[f32; WIDE]) -> u32 {
    // SAFETY: AVX-512 F per this function's contract; the loads read 16-float rows of `p`
    // and `t_max`.
    unsafe {
        let mut t_enter = _mm512_loadu_ps(p.t_min.as_ptr());
        let mut t_exit = _mm512_loadu_ps(t_max.as_ptr());
        for k in 0..3 {
            let o = _mm512_loadu_ps(p.origin[k].as_ptr());
            let r = _mm512_loadu_ps(p.rdir[k].as_ptr());
            let t_near = _mm512_mul_ps(_mm512_sub_ps(_mm512_set1_ps(planes[p.near[k] % 6]), o), r);
            let t_far = _mm512_mul_ps(_mm512_sub_ps(_mm512_set1_ps(planes[p.far[k] % 6]), o), r);
            // maxps/minps return the second operand when either is NaN: NaN is dropped.
            t_enter = _mm512_max_ps(t_near, t_enter);
            t_exit = _mm512_min_ps(t_far, t_exit);
        }
        let (t_enter, t_exit) = pad(t_enter, t_exit);
        u32::from(_mm512_cmp_ps_mask::<_CMP_LE_OQ>(t_enter, t_exit))
    }
}

/// The rays `who` of a 16-ray packet against the triangles of block number `b`, one
/// triangle at a time and 16 rays per vector: per ray and triangle the operations of the
/// scalar watertight kernel in its order (no fused multiply-add), as `avx2::packet_block`;
/// a lane with an edge function exactly 0, or out of the `f32` path's range, goes to the
/// scalar kernel. A hit is recorded with
/// masked stores, by `PacketBest::offer`'s rule: nearer than the ray's best, or as near
/// with a lower triangle index.
///
/// # Safety
/// The CPU must support AVX-512 F.
#[inline(always)]
unsafe fn packet_block(
    w: &PacketWoop<'_, WIDE>,
    block: &TriBlock4,
    b: u32,
    who: u32,
    best: &mut PacketBest<WIDE>,
) {
    // SAFETY: AVX-512 F per this function's contract; the loads read 16-element rows of
    // `w` and `best`, the masked stores write rows of `best`.
    unsafe {
        // Macros, not closures: a closure does not inherit the caller's target features.
        macro_rules! ld {
            ($a:expr) => {
                _mm512_loadu_ps($a.as_ptr())
            };
        }
        let (ox, oy, oz) = (ld!(w.o[0]), ld!(w.o[1]), ld!(w.o[2]));
        let (sx, sy, sz) = (ld!(w.s[0]), ld!(w.s[1]), ld!(w.s[2]));
        let t_min = ld!(w.t_min);
        let zero = _mm512_setzero_ps();
        let active = who as __mmask16;
        let [kx, ky, kz] = w.k;
        for lane in 0..4 {
            let id = block.ids[lane];
            if id == u32::MAX {
                break; // padding lanes come last
            }
            macro_rules! vtx {
                ($vertex:expr, $axis:expr) => {
                    _mm512_set1_ps(block.v[3 * $vertex + $axis][lane])
                };
            }
            // Per vertex: a = v - origin; (ax, ay) = (a[kx] - sx * a[kz], a[ky] - sy * a[kz])
            macro_rules! sheared {
                ($vertex:expr) => {{
                    let az = _mm512_sub_ps(vtx!($vertex, kz), oz);
                    let ax = _mm512_sub_ps(_mm512_sub_ps(vtx!($vertex, kx), ox), _mm512_mul_ps(sx, az));
                    let ay = _mm512_sub_ps(_mm512_sub_ps(vtx!($vertex, ky), oy), _mm512_mul_ps(sy, az));
                    (ax, ay, az)
                }};
            }
            let (ax, ay, a_z) = sheared!(0);
            let (bx, by, b_z) = sheared!(1);
            let (cx, cy, c_z) = sheared!(2);
            let u = _mm512_sub_ps(_mm512_mul_ps(cx, by), _mm512_mul_ps(cy, bx));
            let v = _mm512_sub_ps(_mm512_mul_ps(ax, cy), _mm512_mul_ps(ay, cx));
            let e = _mm512_sub_ps(_mm512_mul_ps(bx, ay), _mm512_mul_ps(by, ax));
            macro_rules! cmp {
                ($op:ident, $x:expr) => {
                    _mm512_mask_cmp_ps_mask::<$op>(active, $x, zero)
                };
            }
            // May hit: no two edge functions of strictly opposite signs, i.e. the least >= 0
            // or the greatest <= 0 (as `triangles::sse::intersect`). Of those, lanes with an
            // exact 0 are the scalar kernel's; the others with an exact 0 miss whatever it finds.
            let lo = _mm512_min_ps(_mm512_min_ps(u, v), e);
            let hi = _mm512_max_ps(_mm512_max_ps(u, v), e);
            let may = cmp!(_CMP_GE_OQ, lo) | cmp!(_CMP_LE_OQ, hi);
            // NaN lanes (overflowing products) may hide an exact 0 from `lo`/`hi`: the scalar
            // kernel's too.
            let det = _mm512_add_ps(_mm512_add_ps(u, v), e);
            let odd = _mm512_mask_cmp_ps_mask::<_CMP_UNORD_Q>(active, det, det);
            let ties = _mm512_mask_cmp_ps_mask::<_CMP_EQ_OQ>(may, lo, zero)
                | _mm512_mask_cmp_ps_mask::<_CMP_EQ_OQ>(may, hi, zero)
                | odd;
            let mut ties = ties;
            let inside = may & !ties;
            if inside != 0 {
                // r = 1 / det; t = u r (sz az) + v r (sz bz) + w r (sz cz), as
                // `query::ray::sheared_hit`'s `f32` path.
                let r = _mm512_div_ps(_mm512_set1_ps(1.0), det);
                let (bu, bv, bw) = (_mm512_mul_ps(u, r), _mm512_mul_ps(v, r), _mm512_mul_ps(e, r));
                let t = _mm512_add_ps(
                    _mm512_add_ps(
                        _mm512_mul_ps(bu, _mm512_mul_ps(sz, a_z)),
                        _mm512_mul_ps(bv, _mm512_mul_ps(sz, b_z)),
                    ),
                    _mm512_mul_ps(bw, _mm512_mul_ps(sz, c_z)),
                );
                // Lanes out of that path's range are the scalar kernel's (its `f64` path).
                let (abs_det, abs_t) = (_mm512_abs_ps(det), _mm512_abs_ps(t));
                let fits = _mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(inside, _mm512_set1_ps(DET_MIN), abs_det)
                    & _mm512_cmp_ps_mask::<_CMP_LE_OQ>(abs_det, _mm512_set1_ps(DET_MAX))
                    & _mm512_cmp_ps_mask::<_CMP_LE_OQ>(abs_t, _mm512_set1_ps(f32::MAX));
                ties |= inside & !fits;
                let reach = ld!(best.t);
                // (An inside lane with no edge function 0 has `det != 0`.)
                let hit = _mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(fits, t_min, t)
                    & _mm512_cmp_ps_mask::<_CMP_LE_OQ>(t, reach);
                let nearer = _mm512_mask_cmp_ps_mask::<_CMP_LT_OQ>(hit, t, reach);
                let level = _mm512_mask_cmp_ps_mask::<_CMP_EQ_OQ>(hit, t, reach);
                // `PacketBest::offer`: as near wins with a lower triangle index only.
                let ids = _mm512_set1_epi32(id as i32);
                let lower =
                    _mm512_mask_cmplt_epu32_mask(level, ids, _mm512_loadu_si512(best.id.as_ptr().cast()));
                let win = nearer | lower;
                if win != 0 {
                    _mm512_mask_storeu_ps(best.t.as_mut_ptr(), win, t);
                    _mm512_mask_storeu_ps(best.u.as_mut_ptr(), win, bv);
                    _mm512_mask_storeu_ps(best.v.as_mut_ptr(), win, bw);
                    _mm512_mask_storeu_epi32(best.id.as_mut_ptr().cast(), win, ids);
                    _mm512_mask_storeu_epi32(
                        best.block.as_mut_ptr().cast(),
                        win,
                        _mm512_set1_epi32(b as i32),
                    );
                    _mm512_mask_storeu_epi32(
                        best.lane.as_mut_ptr().cast(),
                        win,
                        _mm512_set1_epi32(lane as i32),
                    );
                }
            }
            let mut bits = u32::from(ties);
            while bits != 0 {
                scalar_tie(w, block, b, bits.trailing_zeros() as usize & (WIDE - 1), lane, best);
                bits &= bits - 1;
            }
        }
    }
}

/// Two vectors of 8 lanes as one of 16 (`lo` in lanes 0-7).
///
/// # Safety
/// The CPU must support AVX-512 F.
#[inline(always)]
unsafe fn join(lo: __m256, hi: __m256) -> __m512 {
    // SAFETY: AVX-512 F per this function's contract.
    unsafe {
        let lo = _mm512_castpd256_pd512(_mm256_castps_pd(lo));
        _mm512_castpd_ps(_mm512_insertf64x4::<1>(lo, _mm256_castps_pd(hi)))
    }
}

/// The 16 rays lane by lane (`packet::scalar_ray_lanes`): each half's 8x8 transpose
/// (`avx2::transpose`), the halves joined.
///
/// # Safety
/// The CPU must support AVX-512 F.
#[inline(always)]
unsafe fn lane_rows(rays: &[crate::Ray3; WIDE]) -> [__m512; 8] {
    let (a, b) = halves(rays);
    // SAFETY: AVX-512 F per this function's contract.
    unsafe {
        let (a, b) = (transpose(ray_vectors(a)), transpose(ray_vectors(b)));
        crate::arrays::from_fn(|i| join(a[i], b[i]))
    }
}

/// The two halves of a 16-ray packet.
#[inline(always)]
fn halves(rays: &[crate::Ray3; WIDE]) -> (&[crate::Ray3; PACKET], &[crate::Ray3; PACKET]) {
    let (a, b) = rays.split_at(PACKET);
    // Both are 8 long (16 = 8 + 8): the conversions cannot fail.
    (a.try_into().unwrap_or_else(|_| unreachable!()), b.try_into().unwrap_or_else(|_| unreachable!()))
}

/// `packet::scalar_packet_start` for 16 rays: the extremes and their checks as the AVX2
/// kernel's (`avx2::packet_extremes`, over the 16 rays), then the per-ray values and checks
/// 16 lanes at a time, with the same operations as the reference (correctly rounded
/// quotients; the direction test's products and sums in its order).
///
/// # Safety
/// The CPU must support AVX-512 F and AVX2.
#[inline(always)]
unsafe fn packet_start<'r>(
    rays: &'r [crate::Ray3; WIDE],
    spread: f32,
    bounds: [f32; 6],
) -> Started<'r, WIDE> {
    let (first, second) = halves(rays);
    // SAFETY: per this function's contract; the stores write 16-float rows of local
    // structs; the row indices `k[i]` are a permutation of 0, 1, 2.
    unsafe {
        let (ra, rb) = (ray_vectors(first), ray_vectors(second));
        let (lo_a, hi_a) = field_bounds(&ra);
        let (lo_b, hi_b) = field_bounds(&rb);
        let Some(x) = packet_extremes(_mm256_min_ps(lo_a, lo_b), _mm256_max_ps(hi_a, hi_b), spread) else {
            return Started::Incoherent;
        };
        let mut packet = x.packet::<WIDE>();
        if packet.box_entry(|row| bounds[row % 6], x.t_max_hi).is_none() {
            return Started::Outside;
        }
        let (ta, tb) = (transpose(ra), transpose(rb));
        let [ox, oy, oz, dx, dy, dz, t_min, t_max]: [__m512; 8] =
            crate::arrays::from_fn(|i| join(ta[i], tb[i]));
        let one = _mm512_set1_ps(1.0);
        // Directions within about 3 degrees of the first ray's, as the reference computes it.
        macro_rules! first {
            ($v:expr) => {
                _mm512_broadcastss_ps(_mm512_castps512_ps128($v))
            };
        }
        let (d0x, d0y, d0z) = (first!(dx), first!(dy), first!(dz));
        let dot = _mm512_add_ps(
            _mm512_add_ps(_mm512_mul_ps(dx, d0x), _mm512_mul_ps(dy, d0y)),
            _mm512_mul_ps(dz, d0z),
        );
        let len_sq =
            _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy)), _mm512_mul_ps(dz, dz));
        let d0_sq = first!(len_sq);
        let close = _mm512_cmp_ps_mask::<_CMP_GE_OQ>(
            _mm512_mul_ps(dot, dot),
            _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.997), len_sq), d0_sq),
        );
        // Every lane's `WoopRay` axes are the first's (`PacketWoop::new`'s rule).
        let k = super::woop_axes(glam::Vec3::new(
            _mm512_cvtss_f32(dx),
            _mm512_cvtss_f32(dy),
            _mm512_cvtss_f32(dz),
        ));
        let (ax, ay, az) = (_mm512_abs_ps(dx), _mm512_abs_ps(dy), _mm512_abs_ps(dz));
        // `z > (if y > x { y } else { x })`: maxps returns its first operand when greater.
        let z_largest = _mm512_cmp_ps_mask::<_CMP_GT_OQ>(az, _mm512_max_ps(ay, ax));
        let same = match k[2] {
            2 => z_largest,
            1 => !z_largest & _mm512_cmp_ps_mask::<_CMP_GT_OQ>(ay, ax),
            _ => !z_largest & _mm512_cmp_ps_mask::<_CMP_LE_OQ>(ay, ax),
        };
        if close & same != 0xffff {
            return Started::Incoherent;
        }
        let origin = [ox, oy, oz];
        let dir = [dx, dy, dz];
        let dz = dir[k[2] % 3];
        let mut woop = PacketWoop { o: [[0.0; WIDE]; 3], s: [[0.0; WIDE]; 3], t_min: [0.0; WIDE], k, rays };
        let mut t_max_row = [0.0; WIDE];
        let rdir = [_mm512_div_ps(one, dir[0]), _mm512_div_ps(one, dir[1]), _mm512_div_ps(one, dir[2])];
        for a in 0..3 {
            _mm512_storeu_ps(packet.origin[a].as_mut_ptr(), origin[a]);
            _mm512_storeu_ps(packet.rdir[a].as_mut_ptr(), rdir[a]);
            _mm512_storeu_ps(woop.o[a].as_mut_ptr(), origin[k[a] % 3]);
        }
        _mm512_storeu_ps(woop.s[0].as_mut_ptr(), _mm512_div_ps(dir[k[0] % 3], dz));
        _mm512_storeu_ps(woop.s[1].as_mut_ptr(), _mm512_div_ps(dir[k[1] % 3], dz));
        // `1 / dir[kz]`, the reciprocal already made for the node tests.
        _mm512_storeu_ps(woop.s[2].as_mut_ptr(), rdir[k[2] % 3]);
        _mm512_storeu_ps(packet.t_min.as_mut_ptr(), t_min);
        _mm512_storeu_ps(woop.t_min.as_mut_ptr(), t_min);
        _mm512_storeu_ps(t_max_row.as_mut_ptr(), t_max);
        Started::Packet(PacketStart { packet, woop, t_max: t_max_row })
    }
}

/// `packet::scalar_packet_normals` 8 lanes of `f64` at a time, for 16 triangles: the
/// operations of `avx2::packet_normals` (correctly rounded products, differences, square
/// root and quotient; no fused multiply-add), so the same bits.
///
/// # Safety
/// The CPU must support AVX-512 F.
#[inline(always)]
unsafe fn packet_normals(v: &[[f32; WIDE]; 9], dir: &[[f32; WIDE]; 3]) -> ([[f32; WIDE]; 3], u32) {
    // SAFETY: AVX-512 F per this function's contract; the loads read 8 floats at offset 0
    // or 8 of 16-float rows, the stores write 8 floats there in local arrays.
    unsafe {
        let mut normals = [[0.0f32; WIDE]; 3];
        let mut front = 0u32;
        for half in [0, WIDE / 2] {
            macro_rules! ld {
                ($row:expr) => {
                    _mm512_cvtps_pd(_mm256_loadu_ps($row.as_ptr().add(half)))
                };
            }
            let (ax, ay, az) = (ld!(v[0]), ld!(v[1]), ld!(v[2]));
            // e = b - a, f = c - a
            let (ex, ey, ez) =
                (_mm512_sub_pd(ld!(v[3]), ax), _mm512_sub_pd(ld!(v[4]), ay), _mm512_sub_pd(ld!(v[5]), az));
            let (fx, fy, fz) =
                (_mm512_sub_pd(ld!(v[6]), ax), _mm512_sub_pd(ld!(v[7]), ay), _mm512_sub_pd(ld!(v[8]), az));
            // glam's `e.cross(f)`: (e.y f.z - f.y e.z, e.z f.x - f.z e.x, e.x f.y - f.x e.y)
            let nx = _mm512_sub_pd(_mm512_mul_pd(ey, fz), _mm512_mul_pd(fy, ez));
            let ny = _mm512_sub_pd(_mm512_mul_pd(ez, fx), _mm512_mul_pd(fz, ex));
            let nz = _mm512_sub_pd(_mm512_mul_pd(ex, fy), _mm512_mul_pd(fx, ey));
            // n . d, as glam's `dot`: (x x' + y y') + z z'
            macro_rules! dot {
                ($x:expr, $y:expr, $z:expr) => {
                    _mm512_add_pd(
                        _mm512_add_pd(_mm512_mul_pd(nx, $x), _mm512_mul_pd(ny, $y)),
                        _mm512_mul_pd(nz, $z),
                    )
                };
            }
            let facing = dot!(ld!(dir[0]), ld!(dir[1]), ld!(dir[2]));
            front |= u32::from(_mm512_cmp_pd_mask::<_CMP_LT_OQ>(facing, _mm512_setzero_pd())) << half;
            // normalize: n * (1 / sqrt(n . n))
            let recip = _mm512_div_pd(_mm512_set1_pd(1.0), _mm512_sqrt_pd(dot!(nx, ny, nz)));
            for (row, n) in normals.iter_mut().zip([nx, ny, nz]) {
                _mm256_storeu_ps(row.as_mut_ptr().add(half), _mm512_cvtpd_ps(_mm512_mul_pd(n, recip)));
            }
        }
        (normals, front)
    }
}
