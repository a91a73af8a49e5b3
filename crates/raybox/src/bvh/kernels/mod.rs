//! The per-node ray kernels: 8 child boxes against one ray, and the walk stack.
//!
//! This folder holds the only `unsafe` code of the crate. `scalar.rs` is the reference;
//! `avx2.rs` and `avx512.rs` compute the same answers 8 lanes at a time, and the tests
//! compare them to it. The kernel is chosen once per query (or batch) from what the CPU
//! supports, and the whole walk is compiled for it: each ISA has one `#[target_feature]`
//! entry point (`with_kernel`) that calls the `#[inline(always)]` generic walk.

use crate::arrays::Each;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod packet;
mod scalar;
mod soup;
mod stack;
mod triangles;

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use super::node::{ChildRef, WideNode};

pub(crate) use packet::{PACKET, PacketBest, PacketStart, PacketWoop, RayPacket, Started, WIDE};
pub(crate) use scalar::Scalar;
pub(crate) use soup::{SoupKernel, SoupRay};
pub(crate) use stack::{OrderedStack, STACK_CAPACITY, Stack};
pub(crate) use triangles::{BlockRay, TriBlock4, intersect_block4, intersect_pair_sequential, woop_axes};

/// A ray prepared for box tests: reciprocal direction and, per axis, which plane of a box
/// it meets first (`near`: the min plane when moving up the axis, the max plane otherwise).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PreparedRay {
    /// The origins the box tests subtract from the near and the far planes,
    /// `t = (plane - o) r` (all but the fused test, which has `q_near` and `q_far`): the ray's
    /// origin, but for a line (`t_min < 0`) on an axis whose reciprocal overflowed, the two
    /// ends of the ray's travel along that axis (see [`reach`]).
    pub o_near: [f32; 3],
    pub o_far: [f32; 3],
    /// The reciprocals the node kernels multiply the near and the far planes' offsets by:
    /// `1 / dir` (`±inf` for a `±0` component) shrunk and grown by [`RDIR_SCALE`] when
    /// [`PreparedRay::scaled`], else `1 / dir` itself.
    pub r_near: [f32; 3],
    pub r_far: [f32; 3],
    /// Plane row (0–5 in [`WideNode::planes`]) of the near and far plane on each axis.
    pub near: [usize; 3],
    pub far: [usize; 3],
    pub t_min: f32,
    /// `origin[k] * r_near[k]` rounded up by one step past its nearest `f32`, and
    /// `origin[k] * r_far[k]` rounded down likewise: the offsets of the fused node test (see
    /// [`PreparedRay::fused`]).
    pub q_near: [f32; 3],
    pub q_far: [f32; 3],
    /// `8 near[k]` and `8 far[k]`: where those plane rows start in a node's planes as
    /// one array of floats (an address the fused test forms with a scaled index, no shift).
    /// (Private to the kernels, which read nodes through them unchecked: only `new` sets them.)
    near_at: [usize; 3],
    far_at: [usize; 3],
    /// Whether the SIMD kernels may test nodes with the fused form (`t = p r' - q`, one FMA
    /// a plane, and integer `max`/`min` on the results): `t_min >= 0` and every `r_near`,
    /// `r_far`, `q_near` and `q_far` finite. Otherwise they keep `(p - o) r'`.
    ///
    /// **Why the fused form is conservative.** With `t_min >= 0` (see [`RDIR_SCALE`]), a
    /// near plane's `t` must not exceed the exact `t* = (p - o) / d` when `t* >= 0`, and a
    /// far plane's must not fall below it when `t* >= 0`. The FMA computes
    /// `A = p r' - q` exactly and rounds once. For a near plane `q >= o r'` (exact product),
    /// so `A <= (p - o) r'`, which is at most `t* (1 - 8u)(1 + u)²` (the proof of
    /// `RDIR_SCALE`, with one rounding fewer); then `RN(A) <= A (1 + u) < t*` for `A >= 0`,
    /// and a negative `t` never raises `t_enter = max(t_min, ..)`. For a far plane
    /// `q < o r'` strictly, so `A > (p - o) r' >= t* (1 + 8u)(1 - u)²`: for `t* > 0`
    /// `RN(A) >= A (1 - u) > t*`, and for `t* = 0` (the origin on the plane) `A > 0`, so
    /// `t >= +0`, never `-0`. A negative far `t` therefore means `t* < 0`, a box behind the
    /// ray. With finite `p`, `r'` and `q` no `t` is NaN (`±inf` is, at worst, an overflow).
    /// (Below `2⁻¹²⁶` the relative bounds do not hold, but order does: `A` of a near plane is
    /// at most, of a far plane at least, the exact `t`, and rounding keeps that order, so
    /// there is still no false miss; only `t_enter` may exceed the exact entry by less than
    /// `2⁻¹⁴⁹`, as with `RDIR_SCALE`.)
    ///
    /// **Why integer `max` and `min` are right there.** `t_enter = max(t_min, n0, n1, n2)`
    /// and `t_exit = min(t_max, f0, f1, f2)` on the floats' bits as signed integers
    /// (`vpmaxsd`, one cycle, against four for `vmaxps`): non-negative floats order as their
    /// bits do, and every negative float's bits are below every non-negative's. So with
    /// `t_min >= +0` (made so: `-0` becomes `+0`), `t_enter` is the float maximum (no
    /// negative `n` wins), and `t_exit` is the float minimum when no `f` is negative, else
    /// negative (a miss, which the exact test agrees with); `t_max` is made `+0` if `-0`.
    /// The comparison `t_enter <= t_exit` on integers then says what it says on floats.
    pub fused: bool,
    /// The direction's octant, the index of its [`WideNode::orders`]: bit `k` set when the
    /// ray runs down axis `k` (a `-0` component counts as down).
    pub octant: usize,
}

/// `2⁻²¹`: how much [`PreparedRay::r_near`] is shrunk and `r_far` grown, relative to `1 / d`.
///
/// **Why this makes the node test conservative with no padding** (for `t_min >= 0`). A
/// kernel computes `t = RN(RN(p - o) · r')` with `r' = RN(r (1 ∓ c))`, `r = RN(1 / d)`,
/// `c = 2⁻²¹ = 8u` (`u = 2⁻²⁴`, `1 ∓ c` exact in `f32`). Each of the four roundings is a
/// factor `1 + e`, `|e| <= u`, so `t = t* (1 ∓ c) Π(1 + eᵢ)` for the exact `t* = (p - o) / d`,
/// with a positive factor: `t` has the sign of `t*`. Shrunk, the factor is at most
/// `(1 - 8u)(1 + u)⁴ < 1`, so a near-plane `t >= 0` is at most `t*`; grown, at least
/// `(1 + 8u)(1 - u)⁴ > 1`, so a far-plane `t > 0` is at least `t*`. The other signs do not
/// matter: a negative near `t` never exceeds `t_min >= 0` in `t_enter = max(t_min, ..)`, and
/// a negative far `t` means `t* < 0 <= t_min`, a box the ray misses anyway. So the computed
/// `t_enter` is at most the exact one and `t_exit` at least the exact one: no false miss,
/// and `t_enter` stays a lower bound of the entry for the walk's ordering and culling.
/// `d = ±0` gives `r = ±inf`, unchanged by the scaling, and the kernels drop `0 · inf` as
/// before. For `t_min < 0` a negative near `t` could decide, so those rays keep `r` and the
/// padding. (As with the padding, `t` in the subnormal range, below `2⁻¹²⁶`, has only an
/// absolute error bound of `2⁻¹⁵⁰`.) This saves the padding's four vector operations and
/// its latency on every node of a walk.
pub(crate) const RDIR_SCALE: f32 = 1.0 / (1 << 21) as f32;

/// `[near, far]` plane rows for each combination of direction signs (bit `k` set: the ray
/// runs down axis `k`, so it meets the max plane, row `k + 3`, first).
const PLANE_ROWS: [[[usize; 3]; 2]; 8] = {
    let mut table = [[[0; 3]; 2]; 8];
    let mut signs = 0;
    while signs < 8 {
        let mut k = 0;
        while k < 3 {
            let down = (signs >> k) & 1;
            table[signs][0][k] = k + 3 * down;
            table[signs][1][k] = k + 3 * (1 - down);
            k += 1;
        }
        signs += 1;
    }
    table
};

impl PreparedRay {
    /// The ray prepared for boxes anywhere in `f32` space ([`PreparedRay::within`]
    /// `±f32::MAX`, for every `t` from `t_min` on).
    #[cfg(test)]
    pub fn new(origin: [f32; 3], dir: [f32; 3], t_min: f32) -> Self {
        let ray = crate::Ray3::with_range(origin.into(), dir.into(), t_min, f32::INFINITY);
        Self::within(&ray, &[-f32::MAX; 3], &[f32::MAX; 3])
    }

    /// The ray `origin + t dir`, `t` in `[t_min, t_max]`, prepared for tests of boxes inside
    /// `[lo, hi]` (a tree's root box: the box of every box a walk tests on its way to a
    /// primitive the ray meets). The box and `t_max` matter only to a line whose direction
    /// has a component so small that its reciprocal overflows ([`reach`]). (Inlined into
    /// each walk's set-up: out of line, the prepared ray went back through memory, and the
    /// bunny's scattered rays ran ~60 more instructions each, callgrind.)
    #[inline]
    pub fn within(ray: &crate::Ray3, lo: &[f32; 3], hi: &[f32; 3]) -> Self {
        let (origin, dir, t_min) = (ray.origin().to_array(), ray.dir().to_array(), ray.t_min());
        // One vector division: each lane is the correctly rounded `1 / dir[k]`.
        let r = glam::Vec3A::ONE / glam::Vec3A::from(dir);
        // The plane rows from the three sign bits (one movemask and one table read, no
        // per-axis selects): `1 / ±0` keeps the sign, so a `-0.0` component counts as down.
        let octant = (r.is_negative_bitmask() & 7) as usize;
        let [near, far] = PLANE_ROWS[octant];
        // (`-0.0 + 0.0` is `+0.0`: the fused test's integer `max` needs `t_min >= +0`.)
        let t_min = t_min + 0.0;
        // The origins the box tests subtract: the ray's, but for a line whose reciprocal
        // overflows on some axis ([`reach`]), checked in the branch lines take anyway and set
        // by a cold call. (Callgrind, instructions a ray with the AVX2 kernel, against none
        // of this: the bunny's scattered rays, `t_min = 0`, +8 here; +4 with the check in the
        // cold function too, but then every line paid the call, +72 a line from `-inf`; +9
        // with the call behind its own `if t_min < 0`; +27 with the check there inline. A
        // call clobbers every vector register, and the set-up spills some around it.)
        let (mut o_near, mut o_far) = (origin, origin);
        let (r_near, r_far) = if t_min >= 0.0 {
            // A subnormal component's reciprocal overflows to `±inf`, and a near plane's `t`
            // would then be `±inf` where the exact one is finite: a false miss. Any finite
            // multiplier of the same sign and no greater magnitude keeps the near planes
            // conservative (the proof of `RDIR_SCALE` holds with `r` made smaller), so
            // reciprocals beyond `±2^127` become `±2^127` (an overflowed one is at least
            // `2^128`); `±inf` stays where `d = ±0` (parallel), and the far planes keep
            // `±inf`, which is at least their exact `t`. (Rays with `t_min < 0` keep `r`.)
            let big = (1u128 << 127) as f32;
            let near = glam::Vec3A::select(
                glam::Vec3A::from(dir).cmpeq(glam::Vec3A::ZERO),
                r,
                r.clamp(glam::Vec3A::splat(-big), glam::Vec3A::splat(big)),
            );
            (near * (1.0 - RDIR_SCALE), r * (1.0 + RDIR_SCALE))
        } else {
            let overflow = !r.is_finite_mask() & glam::Vec3A::from(dir).cmpne(glam::Vec3A::ZERO);
            if overflow.any() {
                (o_near, o_far) = line_origins(ray, lo, hi);
            }
            (r, r)
        };
        let o = glam::Vec3A::from(origin);
        let (q_near, q_far) = (step_up(o * r_near), step_down(o * r_far));
        // (One mask, no branch per vector: the directions' signs make branches here
        // unpredictable.)
        let finite = (r_near.is_finite_mask()
            & r_far.is_finite_mask()
            & q_near.is_finite_mask()
            & q_far.is_finite_mask())
        .all();
        let fused = (t_min >= 0.0) & finite;
        Self {
            o_near,
            o_far,
            r_near: r_near.to_array(),
            r_far: r_far.to_array(),
            near,
            far,
            t_min,
            q_near: q_near.to_array(),
            q_far: q_far.to_array(),
            near_at: near.each(|row| 8 * row),
            far_at: far.each(|row| 8 * row),
            fused,
            octant,
        }
    }

    /// Whether the scaled reciprocals alone make the node test conservative (`t_min >= 0`:
    /// see [`RDIR_SCALE`]), so that the kernels skip the padding of [`padded`].
    #[inline(always)]
    pub fn scaled(&self) -> bool {
        self.t_min >= 0.0
    }

    /// The scalar kernel's conservative slab test against one box: whether the ray may
    /// enter `[min, max]` within `[t_min, t_max]`. The batches' interleaved walks call it
    /// on the root box before they give a ray a place in flight (single rays go straight
    /// to the root node: `TriMesh::prepare_walk`).
    #[inline(always)]
    pub fn may_enter(&self, min: [f32; 3], max: [f32; 3], t_max: f32) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            self.may_enter_sse(min, max, t_max)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let planes = [min[0], min[1], min[2], max[0], max[1], max[2]];
            let mut t_enter = self.t_min;
            let mut t_exit = t_max;
            for k in 0..3 {
                // As in `Scalar::intersect`: NaN (0 * inf) is dropped by max/min.
                t_enter = t_enter.max((planes[self.near[k]] - self.o_near[k]) * self.r_near[k]);
                t_exit = t_exit.min((planes[self.far[k]] - self.o_far[k]) * self.r_far[k]);
            }
            padded(t_enter, t_exit).is_some()
        }
    }

    /// [`PreparedRay::may_enter`] with the three axes in one SSE vector: the same
    /// operations as the scalar kernel, lane by lane.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn may_enter_sse(&self, min: [f32; 3], max: [f32; 3], t_max: f32) -> bool {
        use core::arch::x86_64::*;
        // SAFETY: SSE and SSE2 are part of every x86-64 CPU; the loads read 3-element
        // arrays through `_mm_set_ps`, not past them.
        unsafe {
            let v = |a: [f32; 3], last: f32| _mm_set_ps(last, a[2], a[1], a[0]);
            // Lanes where the ray runs down the axis meet the max plane first.
            // (`r_near` has the sign of `1 / dir`, `-inf` for a `-0` component.)
            let down = _mm_cmplt_ps(v(self.r_near, 0.0), _mm_setzero_ps());
            let (min, max) = (v(min, 0.0), v(max, 0.0));
            let p_near = _mm_or_ps(_mm_and_ps(down, max), _mm_andnot_ps(down, min));
            let p_far = _mm_or_ps(_mm_and_ps(down, min), _mm_andnot_ps(down, max));
            // Lane 3 (zeros) takes no part in the result.
            let t_near = _mm_mul_ps(_mm_sub_ps(p_near, v(self.o_near, 0.0)), v(self.r_near, 0.0));
            let t_far = _mm_mul_ps(_mm_sub_ps(p_far, v(self.o_far, 0.0)), v(self.r_far, 0.0));
            // maxps/minps return their second operand when either is NaN (0 * inf, a
            // parallel ray on the plane): NaN is dropped, as in the node kernels.
            let t_near = _mm_max_ps(t_near, _mm_set1_ps(self.t_min));
            let t_far = _mm_min_ps(t_far, _mm_set1_ps(t_max));
            // No lane is NaN any more: reduce lanes 0-2 with maxps/minps (lane 3 is left
            // out), rather than with `f32::max`, whose NaN rule costs a compare and a blend.
            let t_enter = _mm_max_ss(
                _mm_max_ss(t_near, _mm_shuffle_ps::<0b01_01_01_01>(t_near, t_near)),
                _mm_shuffle_ps::<0b10_10_10_10>(t_near, t_near),
            );
            let t_exit = _mm_min_ss(
                _mm_min_ss(t_far, _mm_shuffle_ps::<0b01_01_01_01>(t_far, t_far)),
                _mm_shuffle_ps::<0b10_10_10_10>(t_far, t_far),
            );
            padded(_mm_cvtss_f32(t_enter), _mm_cvtss_f32(t_exit)).is_some()
        }
    }
}

/// Each lane of `x` (rounded to nearest) moved one step up, to the next `f32` above it:
/// strictly above the exact value it was rounded from. `+inf` becomes NaN, which
/// [`PreparedRay::new`]'s finiteness test catches; `-inf` becomes `-f32::MAX`, which is
/// above any product that rounds to `-inf`, so the bound still holds.
#[inline(always)]
fn step_up(x: glam::Vec3A) -> glam::Vec3A {
    // `+ 0.0` makes `-0` into `+0`; then a non-negative float's successor is its bits plus
    // one and a negative float's is its bits minus one.
    glam::Vec3A::from((x + 0.0).to_array().each(|v| {
        let bits = v.to_bits();
        f32::from_bits(if bits >> 31 == 0 { bits.wrapping_add(1) } else { bits - 1 })
    }))
}

/// Each lane of `x` moved one step down: strictly below the exact value it was rounded from.
#[inline(always)]
fn step_down(x: glam::Vec3A) -> glam::Vec3A {
    -step_up(-x)
}

/// [`reach`] for the ray itself (a line whose reciprocal overflows on some axis: see
/// [`PreparedRay::within`]).
#[cold]
#[inline(never)]
fn line_origins(ray: &crate::Ray3, lo: &[f32; 3], hi: &[f32; 3]) -> ([f32; 3], [f32; 3]) {
    let (origin, dir) = (ray.origin().to_array(), ray.dir().to_array());
    reach(origin, dir, ray.t_min(), ray.t_max(), *lo, *hi)
}

/// The origins the box tests of a line (and of any `BoxSoup` ray: [`SoupRay`]) subtract on
/// the axes whose reciprocal overflowed `f32`: for each such axis `k`, `(o_near[k],
/// o_far[k])`, the other axes keeping `origin` (returned as `(o_near, o_far)`). `[lo, hi]`
/// must hold every box the ray is tested against on its way to a hit (a BVH's root box, a
/// `BoxSoup`'s bounds); `dir` is not zero.
///
/// **The problem.** For `0 < |d_k| <= 2⁻¹²⁸` (a subnormal component),
/// `r_k = 1 / d_k` rounds to `±inf`, and `(p - o_k) r_k` is `±inf` (or NaN for `p = o_k`)
/// where the exact `t* = (p - o_k) / d_k` may be finite: the axis says only on which side of
/// `o_k` a plane lies, as for `d_k = ±0` (Williams et al., *An Efficient and Robust Ray–Box
/// Intersection Algorithm*, JGT 2005, rely on those infinities for parallel rays), while the
/// ray does move along `k`: `o_k = 0`, `d_k = 2⁻¹⁴⁰` reach `2⁻¹³⁰` at `t = 2¹⁰`. A near
/// plane ahead of the origin then gives `+inf` (a false miss of every box the ray enters
/// at a finite `t`) and a far plane behind it `-inf` (a false miss of boxes entered at
/// `t < 0`). For `t_min >= 0` only the first matters, and a finite near reciprocal cures it
/// (see [`PreparedRay::within`]). For `t_min < 0` no finite multiplier is right for both
/// signs of `p - o_k`: a near plane needs `r <= 1 / d` where `p > o` (so that `t` is not too
/// late) and `r >= 1 / d` where `p < o` (a smaller `|r|` makes a negative `t` less negative:
/// too late again), and `|1 / d|` is past `f32::MAX`, so only `±inf` is at least it. (The
/// packets' `box_entry` takes the lesser of two products per plane for such a choice; with
/// `|1 / d|` out of range even that would leave the `p < o` side at `-inf`.)
///
/// **The cure: a parallel slab as thick as the ray's travel.** Let `R` be the set of `t` in
/// `[t_min, t_max]` at which the ray is inside `[lo, hi]`. A box the ray enters (inside
/// `[lo, hi]`) holds a point `o + t d` with `t` in `R`, so on axis `k` its planes satisfy
/// `min_k <= o_k + t d_k <= max_k`: `min_k <= X_hi` and `max_k >= X_lo`, where
/// `[X_lo, X_hi]` is the range of `o_k + t d_k` over `R`. With `B` the greatest `f32` at
/// most (an upper bound of) `X_hi` and `A` the least `f32` at least (a lower bound of)
/// `X_lo`, `min_k <= B` and `max_k >= A` follow (the planes are `f32`). For `d_k > 0`
/// (`r_k = +inf`, the near plane the min one) take `o_near = B` and `o_far = A`: a box
/// the ray enters has `RN(min_k - B) <= 0` (a rounded difference has the exact one's sign,
/// even on overflow, and with gradual underflow, Rust's, is zero only when the two are
/// equal), so its near `t` is `-inf` or NaN, which the kernels' `max` drops; and `RN(max_k - A) >= 0`, so its far `t` is
/// `+inf` or NaN. Axis `k` then neither raises its `t_enter` nor lowers its `t_exit`,
/// which the other axes bound conservatively as before (Ize, *Robust BVH Ray Traversal*,
/// JCGT 2013, the padding of [`padded`]): no false miss, and `t_enter` stays a lower bound
/// of the entry. For `d_k < 0` (`r_k = -inf`, the near plane the max one) the roles swap:
/// `o_near = A`, `o_far = B`. Axis `k` rejects only boxes with `min_k > B`, hence
/// `min_k > X_hi` (the next `f32` after `B` is above the bound of `X_hi`), or with
/// `max_k < A`: boxes the ray cannot reach inside `[lo, hi]`. The false positives are the
/// boxes that straddle the thin slab `[A, B]` and that the ray passes on the other axes at
/// other `t`. When the travel stays within one `f32` step of `o_k` (the usual case: `o_k`
/// not tiny), `A = B = o_k`: the parallel test the kernels made before, right then. With
/// one product per plane and `r_k = ±inf`, a box's planes on axis `k` can only be told
/// apart by the side of a constant they lie on, and `A`, `B` are the tightest constants
/// that keep every box entered. The price falls on rays that cross a scene's whole extent
/// along `k` (a scene of subnormal size along it), which then learn nothing from the axis:
/// in `tests/box_soup.rs` such rays count 3.4 times the boxes they enter, where in scenes
/// of ordinary size the count is exact from an ordinary `o_k`, under 1% high from a tiny
/// one, and from `o_k = 0` keeps the boxes with a face on 0, as the parallel test did.
///
/// **The arithmetic** is in `f64`, where none of it overflows or underflows (every nonzero
/// value below lies within `2⁻⁴⁵⁰..2²⁸⁰`), so each operation errs by a factor within
/// `1 ± 2⁻⁵³`. `R` is computed as the slab span of `[lo, hi]`, each bound
/// `(plane - o) / d` two roundings off, and widened by `2⁻²⁰` of itself on both sides, far
/// more than those roundings (and than the `f32` roundings of `ray_span`, whose answers
/// the tests compare with: a hair's width of false positives, no false miss). `X` at the
/// ends of `R` (two roundings again, `o_k + t d_k` being monotone in `t`) is widened by
/// `2⁻⁵⁰ (|o_k| + |t| |d_k|)`, four times its error bound, then rounded outward to `f32`
/// and kept finite (`±f32::MAX`: no plane lies beyond, so nothing changes). If `R` is empty
/// the ray enters no box there: the origin is kept (any answer would be right).
#[cold]
#[inline(never)]
fn reach(
    origin: [f32; 3],
    dir: [f32; 3],
    t_min: f32,
    t_max: f32,
    lo: [f32; 3],
    hi: [f32; 3],
) -> ([f32; 3], [f32; 3]) {
    let kept = (origin, origin);
    let (mut a, mut b) = (f64::from(t_min), f64::from(t_max));
    for j in 0..3 {
        let (o, d) = (f64::from(origin[j]), f64::from(dir[j]));
        let (l, h) = (f64::from(lo[j]), f64::from(hi[j]));
        if d == 0.0 {
            // Parallel: inside the slab for every `t` or for none.
            if !(l..=h).contains(&o) {
                return kept;
            }
            continue;
        }
        let (t0, t1) = ((l - o) / d, (h - o) / d);
        let (near, far) = if d > 0.0 { (t0, t1) } else { (t1, t0) };
        a = a.max(near);
        b = b.min(far);
    }
    // (NaN when `[lo, hi]` is empty, inverted or infinite: then nothing is kept either.)
    let reached = a <= b && a.is_finite() && b.is_finite();
    if !reached {
        return kept;
    }
    let widen = 2f64.powi(-20);
    let (a, b) = (a - a.abs() * widen, b + b.abs() * widen);
    let (mut o_near, mut o_far) = kept;
    for k in 0..3 {
        if dir[k] == 0.0 || (1.0 / dir[k]).is_finite() {
            continue;
        }
        let (o, d) = (f64::from(origin[k]), f64::from(dir[k]));
        let (x_a, x_b) = (o + a * d, o + b * d);
        let margin = (o.abs() + a.abs().max(b.abs()) * d.abs()) * 2f64.powi(-50);
        let (x_lo, x_hi) = (x_a.min(x_b) - margin, x_a.max(x_b) + margin);
        let (below, above) = (f32_at_least(x_lo), f32_at_most(x_hi));
        (o_near[k], o_far[k]) = if d > 0.0 { (above, below) } else { (below, above) };
    }
    (o_near, o_far)
}

/// The least `f32` at least `x`, within `±f32::MAX`.
fn f32_at_least(x: f64) -> f32 {
    let y = x as f32;
    let y = if f64::from(y) < x { y.next_up() } else { y };
    y.clamp(-f32::MAX, f32::MAX)
}

/// The greatest `f32` at most `x`, within `±f32::MAX`.
fn f32_at_most(x: f64) -> f32 {
    -f32_at_least(-x)
}

/// Asks for the line of `node` that holds its children's references (bytes 192-255), which
/// a walk reads only once the node test is done: asked for with the planes' loads, it
/// arrives with them rather than after them.
#[inline(always)]
pub(crate) fn prefetch_children(node: &WideNode) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of every x86-64 CPU; a prefetch reads nothing and never
        // faults, and the address is inside `node` (256 bytes).
        unsafe { _mm_prefetch::<_MM_HINT_T0>((node as *const WideNode).cast::<i8>().add(192)) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = node;
}

/// Asks the CPU to bring `node` into the cache (all four of its lines): the walks call it
/// on the children they push, so that a child visited later is likelier to be there. A
/// hint only; it never faults and changes no result.
#[inline(always)]
pub(crate) fn prefetch_node(node: &WideNode) {
    prefetch_node_at(node);
}

/// Asks for the cache lines of the `len` bytes from `p` (a hint: it never faults, whatever
/// the address).
#[inline(always)]
pub(crate) fn prefetch_bytes(p: *const u8, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let mut at = 0;
        while at < len {
            // SAFETY: SSE is part of every x86-64 CPU; a prefetch reads nothing and never
            // faults (`wrapping_add` makes no claim on the address).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(at).cast::<i8>()) };
            at += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, len);
}

/// [`prefetch_node`] by address, for a kernel that computed it without a branch (any
/// address will do: a prefetch never faults).
#[inline(always)]
pub(crate) fn prefetch_node_at(node: *const WideNode) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let p = node.cast::<i8>();
        // SAFETY: SSE is part of every x86-64 CPU; a prefetch reads nothing and never
        // faults, whatever the address (`wrapping_add` makes no claim on it).
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p);
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64));
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(128));
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(192));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = node;
}

/// How much a computed slab `t` may be off, relative to `|t|`: `2 γ(3)` with
/// `γ(n) = n ε / (1 - n ε)`, `ε = 2^-24` (Ize, *Robust BVH Ray Traversal*, JCGT 2013). Each
/// of `t = (b - o) * (1 / d)` rounds three times; widening `[t_enter, t_exit]` by this much
/// on both ends makes the box test conservative: a ray that enters a box never misses it.
pub(crate) const SLAB_PAD: f32 = 2.0 * (3.0 * f32::EPSILON / 2.0) / (1.0 - 3.0 * f32::EPSILON / 2.0);

/// The scalar kernels' conservative verdict on a slab interval: `[t_enter, t_exit]`
/// widened by the rounding bound ([`SLAB_PAD`]), and the widened `t_enter` if it is not
/// empty (never a false miss).
#[inline(always)]
pub(crate) fn padded(t_enter: f32, t_exit: f32) -> Option<f32> {
    let t_enter = t_enter - t_enter.abs() * SLAB_PAD;
    let t_exit = t_exit + t_exit.abs() * SLAB_PAD;
    (t_enter <= t_exit).then_some(t_enter)
}

/// [`NodeKernel::descend`] in plain code over the kernel's node test: the reference the
/// SIMD versions match, entry for entry (their prefetch aside). The nearest child is the
/// hit lane with the least `(t_enter bits & !7) | lane` (its entry distance with the 3
/// lowest bits replaced by the lane: entries that differ only there go to the lower lane,
/// and a vector minimum finds it in one pass); `t_enter >= +0` for a fused ray, so its bits
/// order as the floats do.
#[inline(always)]
pub(crate) fn descend_reference<K: NodeKernel>(
    kernel: K,
    ray: &PreparedRay,
    nodes: &[WideNode],
    node: &WideNode,
    t_max: f32,
    stack: &mut OrderedStack,
    prefetch: bool,
) -> Option<ChildRef> {
    debug_assert!(ray.fused);
    let hits = kernel.intersect_as::<true>(ray, node, t_max);
    let key = |lane: usize| (hits.t_enter[lane].to_bits() & !7) | lane as u32;
    let nearest = (0..8).filter(|&lane| hits.mask & (1 << lane) != 0).min_by_key(|&lane| key(lane))?;
    let order = node.orders[ray.octant & 7];
    for position in 0..8 {
        let lane = ((order >> (4 * position)) & 7) as usize;
        if lane != nearest && hits.mask & (1 << lane) != 0 {
            stack.push(node.children[lane], hits.t_enter[lane]);
        }
    }
    if prefetch && let Some(top) = stack.top() {
        prefetch_child(nodes, top);
    }
    Some(node.children[nearest])
}

/// Asks for the node of `child` if it is an inner node (a leaf's blocks are the caller's
/// business).
#[inline(always)]
pub(crate) fn prefetch_child(nodes: &[WideNode], child: ChildRef) {
    if !child.is_leaf()
        && let Some(n) = nodes.get(child.index())
    {
        prefetch_node(n);
    }
}

/// The result of testing the 8 children of a node: bit `i` of `mask` is set when the ray
/// may enter child `i` within `[t_min, t_max]`; `t_enter[i]` is a lower bound of where.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeHits {
    pub mask: u32,
    pub t_enter: [f32; 8],
}

/// A node kernel: the conservative slab test of one ray against the 8 boxes of a node,
/// and the packet tests for packets of 8 and of 16 rays ([`PacketKernel`]).
///
/// A value of a kernel type is a proof that the CPU supports its instructions (only
/// [`Kernel::detect`] makes the SIMD ones), which is what makes `intersect` safe to call.
pub(crate) trait NodeKernel: Copy + PacketKernel<PACKET> + PacketKernel<WIDE> {
    /// The node test for a ray whose [`PreparedRay::fused`] is `FUSED`: the walks are compiled
    /// once for each value, so that a walk's loop holds one node test and its registers
    /// (both in one loop spilled the ray's values: callgrind +13% instructions a ray).
    /// `FUSED = false` is right for every ray; `true` only where `ray.fused`. (The scalar
    /// kernel has one test for both.)
    fn intersect_as<const FUSED: bool>(self, ray: &PreparedRay, node: &WideNode, t_max: f32) -> NodeHits;

    /// [`NodeKernel::intersect_as`] with the test `ray` allows (the tests' entry point: the
    /// walks pick the form once per ray).
    #[cfg(test)]
    #[inline(always)]
    fn intersect(self, ray: &PreparedRay, node: &WideNode, t_max: f32) -> NodeHits {
        if ray.fused {
            self.intersect_as::<true>(ray, node, t_max)
        } else {
            self.intersect_as::<false>(ray, node, t_max)
        }
    }

    /// Whether the single-ray walks (closest and any hit, and the batches' interleaved
    /// ones) take [`NodeKernel::descend`] for fused rays: the kernels that push with vector
    /// stores.
    const ORDERED: bool = false;

    /// One step down for a ray with [`PreparedRay::fused`]: tests `node`'s children and,
    /// when the ray enters some, returns the nearest (the least `t_enter`; see
    /// [`descend_reference`]) after pushing the others onto `stack` far to near in the
    /// node's order for the ray's octant ([`WideNode::orders`]); `None` when it enters
    /// none. With `prefetch`, asks for the node of the top entry it pushed (if it pushed
    /// one and it is an inner node: the next the walk pops unless the nearest's subtree
    /// holds the hit); the SIMD kernels ask for the root's otherwise, with no branch, where
    /// the reference asks for the stack's top.
    #[inline(always)]
    fn descend(
        self,
        ray: &PreparedRay,
        nodes: &[WideNode],
        node: &WideNode,
        t_max: f32,
        stack: &mut OrderedStack,
        prefetch: bool,
    ) -> Option<ChildRef> {
        descend_reference(self, ray, nodes, node, t_max, stack, prefetch)
    }

    /// Whether packets pay off with this kernel (the SIMD ones; the scalar kernel has the
    /// packet tests too, as the reference, but a packet walk with them is slower).
    const PACKETS: bool = false;

    /// The rays per packet of a batch: [`PACKET`], or [`WIDE`] for a kernel whose wide
    /// packet tests are one vector per row (AVX-512); a batch then falls back to packets of
    /// [`PACKET`] where a run of [`WIDE`] rays is not coherent.
    const PACKET_WIDTH: usize = PACKET;

    /// The ray made ready for block tests ([`BlockRay::new`], bit for bit).
    #[inline(always)]
    fn block_ray(self, origin: glam::Vec3, dir: glam::Vec3) -> BlockRay {
        BlockRay::new(origin, dir)
    }

    /// The nearest hit among the 8 triangles of a leaf of two blocks
    /// ([`intersect_pair_sequential`], bit for bit: the AVX kernels test both blocks in
    /// one pass of 256-bit vectors).
    #[inline(always)]
    fn intersect_pair(
        self,
        ray: &BlockRay,
        pair: &[TriBlock4; 2],
        t_min: f32,
        t_max: f32,
    ) -> Option<(usize, f32, f32, f32)> {
        intersect_pair_sequential(ray, pair, t_min, t_max)
    }

    /// Whether any triangle of a leaf of two blocks is hit within `[t_min, t_max]`.
    #[inline(always)]
    fn any_in_pair(self, ray: &BlockRay, pair: &[TriBlock4; 2], t_min: f32, t_max: f32) -> bool {
        intersect_block4(ray, &pair[0], t_min, t_max).is_some()
            || intersect_block4(ray, &pair[1], t_min, t_max).is_some()
    }
}

/// The packet tests of a kernel for packets of `N` rays (`N` a multiple of 4, at most 32:
/// bit `i` of a `u32` mask is ray `i`). Each method's default is the plain reference of
/// `packet.rs`, which the SIMD versions must match (the tests compare them); a kernel
/// overrides the widths it has vector code for.
pub(crate) trait PacketKernel<const N: usize>: Copy {
    /// The packet `p` against the 8 children of `node` (see `packet.rs`): conservative.
    #[inline(always)]
    fn packet_node(self, p: &RayPacket<N>, node: &WideNode, t_max: f32) -> NodeHits {
        packet::scalar_packet_node(p, node, t_max)
    }

    /// Which rays of `p` may enter child `child` of `node` within their own `t_max`.
    #[inline(always)]
    fn rays_in_box(self, p: &RayPacket<N>, node: &WideNode, child: usize, t_max: &[f32; N]) -> u32 {
        packet::scalar_rays_in_box(p, node, child, t_max)
    }

    /// Whether `N` rays make a packet (origins within `spread` of each other on every
    /// axis, and see `packet::scalar_packet_start`, the reference), and if so its set-up;
    /// or, once their extremes are known, that none can enter the box `bounds` (min x, y,
    /// z, max x, y, z): [`Started::Outside`].
    #[inline(always)]
    fn packet_start(self, rays: &[crate::Ray3; N], spread: f32, bounds: [f32; 6]) -> Started<'_, N> {
        packet::scalar_packet_start(rays, &self.ray_lanes(rays), spread, bounds)
    }

    /// Which rays of `p` may enter the box `[min, max]` within their own `t_max` (the
    /// single-ray kernels' test, as `rays_in_box`).
    #[inline(always)]
    fn rays_in_bounds(self, p: &RayPacket<N>, min: [f32; 3], max: [f32; 3], t_max: &[f32; N]) -> u32 {
        packet::rays_in_bounds(p, min, max, t_max)
    }

    /// The unit normals of `N` triangles (lane by lane) and which face `dir` (see
    /// `packet::scalar_packet_normals`, bit for bit).
    #[inline(always)]
    fn packet_normals(self, v: &[[f32; N]; 9], dir: &[[f32; N]; 3]) -> ([[f32; N]; 3], u32) {
        packet::scalar_packet_normals(v, dir)
    }

    /// `N` rays lane by lane: rows `origin.x, .y, .z, dir.x, .y, .z, t_min, t_max`.
    #[inline(always)]
    fn ray_lanes(self, rays: &[crate::Ray3; N]) -> [[f32; N]; 8] {
        packet::scalar_ray_lanes(rays)
    }

    /// The rays `who` of a packet against the triangles of block number `b`, recording
    /// each ray's hits in `best` (see `packet::scalar_packet_block`, bit for bit).
    #[inline(always)]
    fn packet_block(
        self,
        w: &PacketWoop<'_, N>,
        block: &TriBlock4,
        b: u32,
        who: u32,
        best: &mut PacketBest<N>,
    ) {
        packet::scalar_packet_block(w, block, b, who, best);
    }

    /// The rays of `who` whose `t_max` is at least `t` (`packet::rays_reaching`).
    #[inline(always)]
    fn rays_reaching(self, t: f32, t_max: &[f32; N], who: u32) -> u32 {
        packet::rays_reaching(t, t_max, who)
    }

    /// The greatest `t_max` of the rays of `who`, not empty (`packet::farthest`).
    #[inline(always)]
    fn farthest(self, t_max: &[f32; N], who: u32) -> f32 {
        packet::farthest(t_max, who)
    }
}

/// The kernels this CPU can run, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2::Avx2),
    #[cfg(target_arch = "x86_64")]
    Avx512(avx512::Avx512),
}

/// 0: not detected yet; 1: scalar; 2: AVX2; 3: AVX-512 (`RAYBOX_KERNEL` may lower it).
static DETECTED: AtomicU8 = AtomicU8::new(0);

/// The best kernel, made once (with its CPU checks) and copied by every query.
static BEST: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();

/// Whether any thread has ever forced a kernel (tests and benchmarks do).
static ANY_FORCED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// A kernel forced on this thread by tests and benchmarks (0: none).
    static FORCED: core::cell::Cell<u8> = const { core::cell::Cell::new(0) };
}

impl Kernel {
    /// The best kernel this CPU supports (detected once), unless one is forced.
    #[inline]
    pub fn detect() -> Self {
        // Every single-ray query calls this: the thread-local is read only once some thread
        // has forced a kernel.
        if ANY_FORCED.load(Ordering::Relaxed) {
            let forced = FORCED.with(core::cell::Cell::get);
            if forced != 0 {
                return Self::from_level(forced.min(Self::level_supported()));
            }
        }
        *BEST.get_or_init(|| Self::from_level(Self::level_supported()))
    }

    fn level_supported() -> u8 {
        let cached = DETECTED.load(Ordering::Relaxed);
        if cached != 0 {
            return cached;
        }
        let mut level = 1;
        #[cfg(target_arch = "x86_64")]
        {
            if avx2::Avx2::new().is_some() {
                level = 2;
            }
            if avx512::Avx512::new().is_some() {
                level = 3;
            }
        }
        if let Ok(name) = std::env::var("RAYBOX_KERNEL") {
            level = level.min(match name.as_str() {
                "scalar" => 1,
                "avx2" => 2,
                _ => 3,
            });
        }
        DETECTED.store(level, Ordering::Relaxed);
        level
    }

    fn from_level(level: u8) -> Self {
        match level {
            #[cfg(target_arch = "x86_64")]
            3 => avx512::Avx512::new().map_or(Self::Scalar, Self::Avx512),
            #[cfg(target_arch = "x86_64")]
            2 => avx2::Avx2::new().map_or(Self::Scalar, Self::Avx2),
            _ => Self::Scalar,
        }
    }

    /// The kernel's name, as `RAYBOX_KERNEL` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Self::Avx2(_) => "avx2",
            #[cfg(target_arch = "x86_64")]
            Self::Avx512(_) => "avx512",
        }
    }

    /// Every kernel this CPU supports (for tests that compare them).
    pub fn all_supported() -> Vec<Self> {
        (1..=Self::level_supported()).map(Self::from_level).collect()
    }
}

/// Forces the kernel of every later query on this thread (`None`: back to the best).
/// For tests and benchmarks; batch queries on other threads are not affected.
pub(crate) fn force_kernel(kernel: Option<Kernel>) {
    let level = match kernel {
        None => 0,
        Some(Kernel::Scalar) => 1,
        #[cfg(target_arch = "x86_64")]
        Some(Kernel::Avx2(_)) => 2,
        #[cfg(target_arch = "x86_64")]
        Some(Kernel::Avx512(_)) => 3,
    };
    if level != 0 {
        ANY_FORCED.store(true, Ordering::Relaxed);
    }
    FORCED.with(|f| f.set(level));
}

/// Runs `f` with the walk compiled for `kernel`: `f` receives the kernel value and must
/// call the generic, `#[inline(always)]` walk with it.
macro_rules! with_kernel {
    ($kernel:expr, |$k:ident| $body:expr) => {{
        use $crate::bvh::kernels::Kernel;
        match $kernel {
            Kernel::Scalar => {
                let $k = $crate::bvh::kernels::Scalar;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            // The closure must be inlined into the `#[target_feature]` entry point: a closure
            // does not inherit its features, and if left out of line every intrinsic in the
            // walk becomes a function call (3x the instructions, measured).
            Kernel::Avx2(token) => token.run(
                #[inline(always)]
                |$k| $body,
            ),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(token) => token.run(
                #[inline(always)]
                |$k| $body,
            ),
        }
    }};
}
pub(crate) use with_kernel;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::node::{Bounds, ChildRef};
    use crate::mesh::scene::Pcg32;
    use crate::{Aabb3, Ray3, RayCast};
    use glam::Vec3;

    /// A component that is often exactly 0, ±0, or on a box's plane: the cases where a slab
    /// test meets `0 * inf` or a ray grazes a face.
    fn pick(rng: &mut Pcg32, usual: f32, special: &[f32]) -> f32 {
        if rng.next_u32().is_multiple_of(3) {
            special[(rng.next_u32() as usize) % special.len()]
        } else {
            usual
        }
    }

    /// A coordinate on a grid of quarters in `[-8, 8]`, so that rays and faces meet exactly.
    fn quarter(rng: &mut Pcg32) -> f32 {
        (rng.range(-8.0, 8.0) * 4.0).round() / 4.0
    }

    /// 8 boxes with corners on the grid of quarters and sides up to `8 scale`.
    fn grid_boxes(rng: &mut Pcg32, scale: f32) -> Vec<Aabb3> {
        (0..8)
            .map(|_| {
                let min = Vec3::new(quarter(rng), quarter(rng), quarter(rng));
                let size = Vec3::new(quarter(rng).abs(), quarter(rng).abs(), quarter(rng).abs()) * scale;
                Aabb3::new(min, min + size)
            })
            .collect()
    }

    /// A node whose children are `boxes` (8 of them), child `i` in lane `i`.
    fn node_of(boxes: &[Aabb3]) -> WideNode {
        let mut node = WideNode::EMPTY;
        for (lane, b) in boxes.iter().enumerate() {
            node.set_child(
                lane,
                &Bounds { min: b.min().into(), max: b.max().into() },
                ChildRef::inner(lane as u32),
            );
        }
        node
    }

    /// No false miss of box `b` in lane `lane`, which `ray` enters at `t_enter`, and a lower
    /// bound of that entry (the walks order and cull boxes by it).
    fn assert_kept(kernel: Kernel, hits: &NodeHits, lane: usize, b: &Aabb3, ray: &Ray3, t_enter: f32) {
        assert!(hits.mask & (1 << lane) != 0, "{}: false miss of {b:?} by {ray:?}", kernel.name());
        assert!(
            hits.t_enter[lane] <= t_enter,
            "{}: t_enter {} above the entry {t_enter} of {b:?} by {ray:?}",
            kernel.name(),
            hits.t_enter[lane],
        );
    }

    /// Every node kernel's single-ray test (the walks' `intersect`) keeps every child box
    /// that the exact `ray_span` enters within the ray's range (no false miss: Ize 2013), on
    /// rays that graze faces, edges and corners, run parallel to axes (±0 components) or
    /// start on a box's plane, with an entry `t` no greater than the exact one; and where no NaN arises (no zero component), the SIMD
    /// kernels' masks equal the scalar kernel's.
    #[test]
    fn every_kernel_keeps_every_box_the_ray_enters() {
        let mut rng = Pcg32::new(21);
        let (mut entered, mut parallel) = (0, 0);
        let q = quarter;
        for _ in 0..20_000 {
            let boxes = grid_boxes(&mut rng, 0.25);
            let node = node_of(&boxes);
            let aim = boxes[(rng.next_u32() % 8) as usize];
            // The origin: anywhere, or on one of the aimed box's planes.
            let mut o = Vec3::new(q(&mut rng), q(&mut rng), q(&mut rng));
            let k = (rng.next_u32() % 3) as usize;
            o[k] = pick(&mut rng, o[k], &[aim.min()[k], aim.max()[k]]);
            // Aimed at a corner, an edge point or the centre of a box, with components
            // sometimes zeroed (±0) to run along an axis.
            let corner = Vec3::select(
                glam::BVec3::new(rng.next_u32().is_multiple_of(2), rng.next_u32().is_multiple_of(2), true),
                aim.min(),
                aim.max(),
            );
            let target = if rng.next_u32().is_multiple_of(2) { corner } else { aim.center() };
            let mut d = target - o;
            for k in 0..3 {
                d[k] = pick(&mut rng, d[k], &[0.0, -0.0]);
            }
            if d == Vec3::ZERO || !d.is_finite() {
                continue;
            }
            let usual = rng.range(0.0, 0.5);
            let t_min = pick(&mut rng, usual, &[0.0, -1.0, f32::NEG_INFINITY]);
            let usual = rng.range(0.5, 3.0);
            let t_max = pick(&mut rng, usual, &[f32::INFINITY, 1.0]);
            let ray = Ray3::with_range(o, d, t_min, t_max);
            let prepared = PreparedRay::new(o.to_array(), d.to_array(), t_min);
            let zero = d.to_array().contains(&0.0);
            parallel += usize::from(zero);
            let scalar = Scalar.intersect(&prepared, &node, t_max);
            for kernel in Kernel::all_supported() {
                let hits = with_kernel!(kernel, |k| k.intersect(&prepared, &node, t_max));
                for (lane, b) in boxes.iter().enumerate() {
                    if let Some(span) = b.ray_span(&ray) {
                        entered += 1;
                        assert_kept(kernel, &hits, lane, b, &ray, span.t_enter);
                    }
                }
                if !zero {
                    assert_eq!(hits.mask, scalar.mask, "{}: mask for {ray:?}", kernel.name());
                }
            }
        }
        assert!(entered > 20_000 && parallel > 5_000, "{entered} boxes entered, {parallel} parallel rays");
    }

    /// Every kernel's `descend` does what `descend_reference` does with its node test: the
    /// same nearest child and the same entries pushed in the same order, above what the
    /// stack held, with and without the prefetch; and the reference keeps its promises: the
    /// nearest has the least entry (to the 8 ulps given to the lane), every other entered
    /// child is pushed once, in the node's order for the ray's octant.
    #[test]
    fn every_kernel_descends_as_the_reference() {
        let mut rng = Pcg32::new(33);
        let mut entered = [0usize; 9];
        let q = quarter;
        for i in 0..20_000 {
            let boxes = grid_boxes(&mut rng, 1.5);
            let mut node = node_of(&boxes);
            // Some lanes unused, as in most nodes.
            for lane in 0..(rng.next_u32() % 4) as usize {
                node.planes.iter_mut().enumerate().for_each(|(r, row)| {
                    row[lane] = if r < 3 { f32::INFINITY } else { f32::NEG_INFINITY };
                });
                node.children[lane] = ChildRef::EMPTY;
            }
            node.fill_orders();
            let o = Vec3::new(q(&mut rng), q(&mut rng), q(&mut rng)) * 1.5;
            let d = boxes[i % 8].center() - o + Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.1);
            let t_min = [0.0, -0.0, 0.25, 1.0][i % 4];
            let prepared = PreparedRay::new(o.to_array(), d.to_array(), t_min);
            if !prepared.fused {
                continue;
            }
            let t_max = match rng.next_u32() % 8 {
                0 | 1 => rng.range(0.2, 1.5),
                2 => 0.0,
                3 => -0.0,
                _ => f32::INFINITY,
            };
            let prefetch = i % 2 == 0;
            for kernel in Kernel::all_supported() {
                let (mut ours, mut reference) = (OrderedStack::new(), OrderedStack::new());
                ours.push(ChildRef(99), 0.5);
                reference.push(ChildRef(99), 0.5);
                let nodes = [node];
                let (got, want, hits) = with_kernel!(kernel, |k| (
                    k.descend(&prepared, &nodes, &node, t_max, &mut ours, prefetch),
                    descend_reference(k, &prepared, &nodes, &node, t_max, &mut reference, prefetch),
                    k.intersect_as::<true>(&prepared, &node, t_max),
                ));
                assert_eq!(got, want, "{}: nearest, ray {o} {d}", kernel.name());
                assert_eq!(ours.entries(), reference.entries(), "{}: pushed, ray {o} {d}", kernel.name());
                entered[hits.mask.count_ones() as usize] += 1;
                // The reference's promises.
                let Some(nearest) = want else {
                    assert_eq!(hits.mask, 0);
                    assert_eq!(reference.entries().len(), 1);
                    continue;
                };
                let near_lane = node.children.iter().position(|&c| c == nearest).unwrap();
                for lane in (0..8).filter(|&l| hits.mask & (1 << l) != 0) {
                    assert!(hits.t_enter[near_lane].to_bits() & !7 <= hits.t_enter[lane].to_bits());
                }
                let pushed: Vec<ChildRef> = reference.entries()[1..].iter().map(|e| e.0).collect();
                let order = node.orders[prepared.octant];
                let expected: Vec<ChildRef> = (0..8)
                    .map(|j| ((order >> (4 * j)) & 7) as usize)
                    .filter(|&l| l != near_lane && hits.mask & (1 << l) != 0)
                    .map(|l| node.children[l])
                    .collect();
                assert_eq!(pushed, expected);
            }
        }
        // Nodes with no child entered, one, and several.
        assert!(entered[0] > 1_000 && entered[1] > 1_000 && entered[2] > 1_000, "{entered:?}");
        assert!(entered[3] > 1_000 && entered[4..].iter().sum::<usize>() > 1_000, "{entered:?}");
    }

    /// The fused test's offsets: `q_near` strictly above the exact `origin · r_near` and
    /// `q_far` strictly below `origin · r_far` (products of two `f32` are exact in `f64`),
    /// for any sign, zeros of both signs, and subnormal products.
    #[test]
    fn fused_offsets_bracket_the_exact_products() {
        let mut rng = Pcg32::new(5);
        let mut fused = 0;
        let specials = [0.0, -0.0, 1e-30, -1e-30, 1e30, -1e30, 3.0, -3.0];
        for i in 0..50_000 {
            let o: [f32; 3] = crate::arrays::from_fn(|_| {
                let usual = rng.range(-100.0, 100.0) * 10f32.powi((rng.next_u32() % 9) as i32 - 4);
                pick(&mut rng, usual, &specials)
            });
            let d: [f32; 3] = crate::arrays::from_fn(|_| {
                let usual = rng.range(-1.0, 1.0) * 10f32.powi((rng.next_u32() % 9) as i32 - 4);
                pick(&mut rng, usual, &[1e-30, -1e-30, 1.0, -1.0])
            });
            if d.contains(&0.0) {
                continue;
            }
            let ray = PreparedRay::new(o, d, if i % 2 == 0 { 0.0 } else { -0.0 });
            assert_eq!(ray.t_min.to_bits(), 0, "t_min is made +0");
            for k in 0..3 {
                let near = f64::from(o[k]) * f64::from(ray.r_near[k]);
                let far = f64::from(o[k]) * f64::from(ray.r_far[k]);
                if ray.fused {
                    assert!(
                        f64::from(ray.q_near[k]) > near,
                        "q_near {} <= {near} ({o:?}, {d:?})",
                        ray.q_near[k]
                    );
                    assert!(f64::from(ray.q_far[k]) < far, "q_far {} >= {far} ({o:?}, {d:?})", ray.q_far[k]);
                }
            }
            // Only an overflowing product (or reciprocal) keeps a ray off the fused test.
            // Only an overflowing reciprocal or product keeps a ray off the fused test (an
            // overflow to `±inf` near `f32::MAX` may still pass as `±f32::MAX`, checked below).
            let fits = (0..3).all(|k| {
                let r = [ray.r_near[k], ray.r_far[k]];
                r.iter().all(|r| r.is_finite() && (f64::from(o[k]) * f64::from(*r)).abs() < 3e38)
            });
            assert!(ray.fused || !fits, "{o:?} {d:?}");
            fused += usize::from(ray.fused);
        }
        assert!(fused > 30_000, "{fused} fused rays");
        // Products that overflow `f32` by a hair: the offsets stay on the safe side.
        for o in [f32::MAX, -f32::MAX, 3.3e38, -3.3e38] {
            let ray = PreparedRay::new([o, 1.0, 1.0], [1.0, -1.0, 1.0], 0.0);
            if ray.fused {
                assert!(f64::from(ray.q_near[0]) > f64::from(o) * f64::from(ray.r_near[0]), "{o}");
                assert!(f64::from(ray.q_far[0]) < f64::from(o) * f64::from(ray.r_far[0]), "{o}");
            }
        }
        assert!(!PreparedRay::new([0.0; 3], [1.0, 1.0, 1.0], -1.0).fused, "t_min < 0 keeps the padded test");
        assert!(!PreparedRay::new([0.0; 3], [0.0, 1.0, 1.0], 0.0).fused, "1 / 0 keeps the padded test");
    }

    /// The cases the fused test's proof turns on, through every kernel: a ray that starts on
    /// a box's face and leaves it at once (the box is entered at `t = 0`; an exit computed
    /// as `-0` would drop it), with zeros of either sign in the origin and the planes; and
    /// rays from far away (where `origin · r` is large against the box's `t`), grazing the
    /// boxes' faces. No false miss, and `t_enter` a lower bound of the exact entry.
    #[test]
    fn the_fused_test_keeps_boxes_touched_at_the_origin_and_from_afar() {
        let mut rng = Pcg32::new(8);
        let (mut checked, mut touched, mut negative_zero_max, mut simd) = (0, 0, 0, 0);
        for i in 0..40_000 {
            let far_away = i % 2 == 1;
            let boxes: Vec<Aabb3> = (0..8)
                .map(|_| {
                    let q = |rng: &mut Pcg32| (rng.range(-4.0, 4.0) * 4.0).round() / 4.0;
                    let mut min = Vec3::new(q(&mut rng), q(&mut rng), q(&mut rng));
                    // Planes at +0 and -0, min and max ones.
                    for k in 0..3 {
                        min[k] = pick(&mut rng, min[k], &[0.0, -0.0]);
                    }
                    let size = Vec3::new(q(&mut rng).abs(), q(&mut rng).abs(), q(&mut rng).abs()) * 0.5;
                    let mut max = min + size;
                    for k in 0..3 {
                        if max[k] == 0.0 {
                            max[k] = pick(&mut rng, max[k], &[0.0, -0.0]);
                        }
                    }
                    let b = Aabb3::new(min, max);
                    negative_zero_max +=
                        usize::from((0..3).any(|k| b.max()[k].to_bits() == (-0.0f32).to_bits()));
                    b
                })
                .collect();
            let node = node_of(&boxes);
            let aim = boxes[(rng.next_u32() % 8) as usize];
            let (o, d) = if far_away {
                // From up to 10^5 away, at a point on the aimed box's surface or inside it.
                let (x, y) = (rng.range(aim.min().x, aim.max().x), rng.range(aim.min().y, aim.max().y));
                let target = Vec3::new(
                    pick(&mut rng, x, &[aim.min().x, aim.max().x]),
                    pick(&mut rng, y, &[aim.min().y, aim.max().y]),
                    rng.range(aim.min().z, aim.max().z),
                );
                let o = rng.unit_vector() * 10f32.powi((rng.next_u32() % 6) as i32);
                (o, target - o)
            } else {
                // On a face of the aimed box (an origin coordinate of either zero's sign),
                // pointing away from it or into it.
                let k = (rng.next_u32() % 3) as usize;
                let mut o = aim.center();
                let on_max = rng.next_u32().is_multiple_of(2);
                o[k] = if on_max { aim.max()[k] } else { aim.min()[k] };
                if o[k] == 0.0 && rng.next_u32().is_multiple_of(2) {
                    o[k] = -o[k];
                }
                let mut d = rng.unit_vector();
                d[k] = d[k].abs() * if on_max == rng.next_u32().is_multiple_of(4) { -1.0 } else { 1.0 };
                (o, d)
            };
            if d.to_array().contains(&0.0) || !d.is_finite() {
                continue;
            }
            let ray = Ray3::with_range(o, d, 0.0, f32::INFINITY);
            let prepared = PreparedRay::new(o.to_array(), d.to_array(), 0.0);
            assert!(prepared.fused, "{o:?} {d:?}");
            for kernel in Kernel::all_supported() {
                simd += usize::from(kernel != Kernel::Scalar);
                let hits = with_kernel!(kernel, |k| k.intersect(&prepared, &node, f32::INFINITY));
                // A walk's reach narrowed to a hit at `t = -0`: boxes entered at 0 stay.
                let at_zero = with_kernel!(kernel, |k| k.intersect(&prepared, &node, -0.0));
                for (lane, b) in boxes.iter().enumerate() {
                    if let Some(span) = b.ray_span(&ray) {
                        checked += 1;
                        if span.t_enter <= 0.0 {
                            touched += 1;
                            assert!(at_zero.mask & (1 << lane) != 0, "{}: {b:?} at t_max -0", kernel.name());
                        }
                        assert_kept(kernel, &hits, lane, b, &ray, span.t_enter);
                    }
                }
            }
        }
        assert!(checked > 40_000 && touched > 5_000, "{checked} boxes entered, {touched} at t = 0");
        assert!(negative_zero_max > 1_000, "{negative_zero_max} boxes with a max plane at -0");
        // The fused test is the SIMD kernels' (the scalar one keeps the padded test): on a CPU
        // without them this test checks the scalar kernel only, and says so.
        if simd == 0 {
            eprintln!("no SIMD kernel on this CPU: the fused node test was not exercised");
        }
    }

    /// Rays whose direction has a component with an overflowing reciprocal (`0 < |d| <
    /// 2^-128`), lines and rays, against nodes of boxes squashed along that axis so that
    /// the ray does travel across their planes there: every kernel keeps every box the
    /// exact `ray_span` enters, with an entry no greater than the exact one (the proof at
    /// [`reach`]), and the SIMD kernels' masks are the scalar kernel's. Prepared for the
    /// node's own box (as a walk prepares for its root box) and for all of `f32` space.
    #[test]
    fn every_kernel_keeps_every_box_a_ray_with_an_overflowing_reciprocal_enters() {
        let mut rng = Pcg32::new(77);
        let (mut entered, mut overflowed, mut lines, mut compared) = (0, 0, 0, 0);
        for i in 0..20_000 {
            let k = i % 3;
            let s = 2f64.powi(-130 - (i % 19) as i32) as f32;
            let squash = |mut v: Vec3| {
                v[k] *= s;
                v
            };
            let boxes: Vec<Aabb3> = grid_boxes(&mut rng, 0.5)
                .iter()
                .map(|b| Aabb3::new(squash(b.min()), squash(b.max())))
                .collect();
            let node = node_of(&boxes);
            let (lo, hi) =
                boxes.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), b| (lo.min(b.min()), hi.max(b.max())));
            let aim = boxes[(rng.next_u32() % 8) as usize];
            let o = squash(Vec3::new(quarter(&mut rng), quarter(&mut rng), quarter(&mut rng)) * 1.5);
            let target = aim.min()
                + (aim.max() - aim.min()) * Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32());
            let mut d = target - o;
            if i % 5 == 0 {
                d[(k + 1) % 3] = 0.0;
            }
            if d[k] == 0.0 || d == Vec3::ZERO {
                continue;
            }
            let t_min = [f32::NEG_INFINITY, -1e30, -1.0, -0.0, 0.0, 0.5][i % 6];
            let t_max = if i % 4 == 0 { rng.range(0.6, 2.0) } else { f32::INFINITY };
            let ray = Ray3::with_range(o, d, t_min, t_max);
            overflowed += usize::from(!(1.0 / d[k]).is_finite());
            lines += usize::from(t_min < 0.0);
            let (o, d) = (o.to_array(), d.to_array());
            for prepared in
                [PreparedRay::within(&ray, &lo.to_array(), &hi.to_array()), PreparedRay::new(o, d, t_min)]
            {
                let scalar = Scalar.intersect(&prepared, &node, t_max);
                // Where a plane on axis `k` is one of the origins subtracted from it, the
                // product is `0 * inf`, NaN, which the AVX kernels drop with its neighbour
                // (a wider box); elsewhere the masks agree.
                let nan = d.contains(&0.0)
                    || (0..8).any(|lane| {
                        node.planes[prepared.near[k]][lane] == prepared.o_near[k]
                            || node.planes[prepared.far[k]][lane] == prepared.o_far[k]
                    });
                for kernel in Kernel::all_supported() {
                    let hits = with_kernel!(kernel, |k| k.intersect(&prepared, &node, t_max));
                    for (lane, b) in boxes.iter().enumerate() {
                        if let Some(span) = b.ray_span(&ray) {
                            entered += 1;
                            assert_kept(kernel, &hits, lane, b, &ray, span.t_enter);
                        }
                    }
                    if !nan {
                        compared += 1;
                        assert_eq!(hits.mask, scalar.mask, "{}: mask for {ray:?}", kernel.name());
                    }
                }
                // The root box test of the batches too.
                if boxes.iter().any(|b| b.ray_span(&ray).is_some()) {
                    assert!(prepared.may_enter(lo.to_array(), hi.to_array(), t_max), "{ray:?}");
                }
            }
        }
        assert!(entered > 20_000 && overflowed > 10_000 && lines > 8_000, "{entered} {overflowed} {lines}");
        assert!(compared > 20_000, "{compared} masks compared");
    }
}
