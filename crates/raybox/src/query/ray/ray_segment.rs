//! Ray against segment, 2D: the closed segment `p q` met by the ray `o + t d`.
//!
//! Cormen et al., *Introduction to Algorithms*, 33.1 (segments meet by the signs of
//! orientations), with the ray's line in the role of one segment; the crossing parameter
//! from Ericson, *Real-Time Collision Detection*, 5.1.9.1 (2D line intersection). Three
//! cases, told apart by the sides of `p` and `q` relative to the ray's line,
//! `sign(cross(d, p - o))` and `sign(cross(d, q - o))`:
//! - **both strictly on one side**: no common point;
//! - **both on the line** (the segment runs along the ray's line; a zero-length segment on
//!   it): the ray meets the segment over the parameters `[t_p, t_q]` of its ends, clipped
//!   to `[t_min, t_max]`;
//! - **otherwise** the lines cross (they are not parallel: `cross(d, q - p)` is the
//!   difference of the two orientations, one of which is non-zero, and not equal to the
//!   other) at one point of the closed segment, at
//!   `t = cross(p - o, q - p) / cross(d, q - p)`; the span is `[t, t]` when `t` is in
//!   `[t_min, t_max]`.
//!
//! **Exact decisions.** Every decision is the sign of a polynomial in the `f32` inputs: the
//! two sides, the order of `t` against `t_min` and `t_max` (`sign(cross(d, q - p)) ·
//! (cross(p - o, q - p) - τ cross(d, q - p))` for a crossing, `sign(d_k) · (a_k - o_k - τ d_k)`
//! for an end `a` on the line, `k` the larger component of `d`). Expanded, each is a sum of
//! products of two or three `f32` values. A product of two is exact in `f64` (48 bits, and
//! no `f32` product under- or overflows `f64`), a product of three is two `f64` values by
//! Dekker's *Two-Product*, and `sum_sign` gives the sign of such a sum exactly (an
//! error-bounded `f64` estimate, and an exact expansion sum when the bound does not settle
//! it). So a ray through an end point, along the segment, or starting on it is decided as
//! the exact geometry says, for every finite `f32` input.
//!
//! **Rounded values.** The reported `t` is the exact crossing (or end parameter) rounded:
//! `cross(p - o, q - p)` and `cross(d, q - p)` are exact expansions rounded to `f64` (a few
//! ulps), divided in `f64`, kept inside `[t_min, t_max]` (where the exact comparison put
//! it) and rounded to `f32`. An end parameter is `(a_k - o_k) / d_k` in `f64`. A `t` past
//! `f32::MAX` (a tiny direction) is no hit, as for the other shapes.
//!
//! **Filters.** The crossing's comparisons and its `t` are first computed from the rounded
//! `f64` sums of `num` and `den`, with proven error bounds (see [`Crossing`]): a comparison
//! beyond its bound has the exact sign, and a `t` whose whole error interval rounds to one
//! `f32` is the `f32` the exact expansions give. Near a tie, or when a sum cancels, the
//! exact computation above runs instead, so every answer is the same to the bit.
//!
//! **3D.** `ray_segment_3d.rs` decides coplanarity exactly and runs this kernel's pieces
//! ([`side`], [`crossing`], [`collinear_span`]) on a coordinate projection.

use crate::arrays::clamp;
use glam::{DVec2, Vec2};

use super::{f32_span, point_at};
use crate::query::distance::{sum_rounded, sum_sign, two_product};
use crate::{Ray2, RayCast, RayHit2, RaySpan, Segment2};

/// Where a ray meets a segment: the span, and the first point with its normal.
#[derive(Clone, Copy, Debug)]
struct SegmentHit {
    span: RaySpan,
    point: Vec2,
    normal: Vec2,
}

/// The four exact products of `cross(a, b - c) = a.x b.y - a.x c.y - a.y b.x + a.y c.x`.
#[inline]
fn cross_terms(a: Vec2, b: Vec2, c: Vec2) -> [f64; 4] {
    let (ax, ay) = (f64::from(a.x), f64::from(a.y));
    let (bx, by, cx, cy) = (f64::from(b.x), f64::from(b.y), f64::from(c.x), f64::from(c.y));
    [ax * by, -(ax * cy), -(ay * bx), ay * cx]
}

/// `tau` times each of four exact products `x y` (`x`, `y` and `tau` being `f32` values),
/// each as the exact pair of a [`two_product`]: `tau x` is exact, `(tau x) y` is not.
#[inline]
fn scaled_terms(tau: f32, pairs: [(f32, f32); 4]) -> [f64; 8] {
    let mut out = [0.0; 8];
    for (i, (x, y)) in pairs.into_iter().enumerate() {
        let (hi, lo) = two_product(f64::from(tau) * f64::from(x), f64::from(y));
        out[2 * i] = hi;
        out[2 * i + 1] = lo;
    }
    out
}

/// The unit vector of `v` (non-zero), computed in `f64`: no `f32` square under- or
/// overflows there, so even a direction near `1e-40` gives a unit normal.
#[inline]
fn unit(v: DVec2) -> Vec2 {
    (v / v.length()).as_vec2()
}

/// How a ray meets a segment in the plane, before the point and normal are computed
/// (`ray_span` needs neither).
#[derive(Clone, Copy, Debug)]
enum Meet {
    /// The ray crosses the segment's line at a point of the segment: `span` is `[t, t]`;
    /// `den_sign` is the sign of `cross(d, q - p)`.
    Crossing { span: RaySpan, starts_on: bool, den_sign: f64 },
    /// The segment lies on the ray's line; `first` is the end reached first from outside
    /// it (`None` when `r(t_min)` is already on the segment).
    Along { span: RaySpan, first: Option<Vec2> },
}

impl Meet {
    #[inline]
    fn span(self) -> RaySpan {
        match self {
            Meet::Crossing { span, .. } | Meet::Along { span, .. } => span,
        }
    }

    /// The first point and its normal: for a crossing, the segment's unit normal facing
    /// the ray's origin; along the segment's line, `-d` normalised at the end reached first;
    /// zero when the ray starts on the segment.
    #[inline]
    fn hit(self, o: Vec2, d: Vec2, p: Vec2, q: Vec2) -> SegmentHit {
        let at = |t: f32| Vec2::from_array(point_at(o.to_array(), d.to_array(), t));
        match self {
            Meet::Crossing { span, starts_on: true, .. } | Meet::Along { span, first: None } => {
                SegmentHit { span, point: at(span.t_enter), normal: Vec2::ZERO }
            }
            Meet::Crossing { span, starts_on: false, den_sign } => {
                // perp(e) = (-e.y, e.x) has perp(e)·d = -cross(d, e): it faces the ray's
                // origin side when den > 0. In f32 when |e|² is a normal f32 number (as
                // `unit_f32` argues: within 2⁻²¹ of the direction), else in f64.
                let e = q - p;
                let len2 = e.length_squared();
                let normal = if len2.is_normal() {
                    Vec2::new(-e.y, e.x) * (den_sign as f32 / len2.sqrt())
                } else {
                    let e = q.as_dvec2() - p.as_dvec2();
                    unit(DVec2::new(-e.y, e.x) * den_sign)
                };
                SegmentHit { span, point: at(span.t_enter), normal }
            }
            // Reaching the first end from outside, along the segment: the normal points back
            // toward the ray.
            Meet::Along { span, first: Some(a) } => {
                SegmentHit { span, point: a, normal: unit(-d.as_dvec2()) }
            }
        }
    }
}

/// `u`, the unit roundoff of `f64` (`2⁻⁵³`).
const U: f64 = f64::EPSILON / 2.0;

/// The exact sign of a sum of exact terms, as [`sum_sign`] gives it: its filter, inlined,
/// and `sum_sign` itself only when the filter does not settle the sign.
#[inline]
fn sign_of<const N: usize>(terms: [f64; N]) -> f64 {
    let (sum, magnitude) = sum_and_magnitude(terms);
    // sum_sign's bound, 4 N u times the magnitude: past it, the estimate's sign is exact.
    let bound = 4.0 * N as f64 * U * magnitude;
    if sum > bound || -sum > bound { sum.signum() } else { sum_sign(terms) }
}

/// `num = cross(p - o, q - o)`, the crossing parameter's numerator, as six exact products.
#[inline]
pub(super) fn num_terms(o: Vec2, p: Vec2, q: Vec2) -> [f64; 6] {
    let f = |v: f32| f64::from(v);
    [
        f(p.x) * f(q.y),
        -(f(p.y) * f(q.x)),
        -(f(p.x) * f(o.y)),
        f(p.y) * f(o.x),
        -(f(o.x) * f(q.y)),
        f(o.y) * f(q.x),
    ]
}

/// `den = cross(d, q - p)`, its denominator, as four exact products.
#[inline]
pub(super) fn den_terms(d: Vec2, p: Vec2, q: Vec2) -> [f64; 4] {
    let f = |v: f32| f64::from(v);
    [f(d.x) * f(q.y), -(f(d.x) * f(p.y)), -(f(d.y) * f(q.x)), f(d.y) * f(p.x)]
}

/// The rounded sum of `terms`, added left to right, and the rounded sum of their absolute
/// values: the estimate and the magnitude the filters below bound errors with.
#[inline]
pub(super) fn sum_and_magnitude<const N: usize>(terms: [f64; N]) -> (f64, f64) {
    let (mut sum, mut magnitude) = (0.0, 0.0);
    for t in terms {
        sum += t;
        magnitude += t.abs();
    }
    (sum, magnitude)
}

/// The crossing's `num` and `den` (see [`ray_segment2`]): the points they come from (the
/// exact fallbacks rebuild the terms), their rounded sums and the rounded sums of the
/// terms' magnitudes.
///
/// **No underflow.** Every term is a product of two `f32` values, so a multiple of
/// `2⁻²⁹⁸` (the square of the least `f32` step), and every partial sum of such terms is
/// either zero or at least `2⁻²⁹⁸` in magnitude and rounds no lower; a `tau` times such a
/// sum is zero or above `2⁻⁴⁴⁷`, nothing else exceeds `2³⁹⁰`, and a quotient
/// `num_sum / den_sum` of non-zero sums lies within `2^±557`. So every operation below
/// obeys the standard model `fl(x ∘ y) = (x ∘ y)(1 + δ)`, `|δ| ≤ u` (Higham, *Accuracy and
/// Stability of Numerical Algorithms*, 2.2), which is all the bounds use.
struct Crossing {
    o: Vec2,
    d: Vec2,
    p: Vec2,
    q: Vec2,
    num_sum: f64,
    num_mag: f64,
    den_sum: f64,
    den_mag: f64,
}

impl Crossing {
    /// The exact sign of `num - tau den` (`tau` finite).
    ///
    /// **Filter.** With `Sₙ`, `S_d` the exact sums and `Mₙ`, `M_d` the exact sums of
    /// magnitudes, recursive summation gives `|num_sum - Sₙ| ≤ γ₅ Mₙ` and
    /// `|den_sum - S_d| ≤ γ₃ M_d` (Higham 4.2, `γₖ = k u / (1 - k u)`). The estimate
    /// `v = fl(num_sum - fl(tau den_sum))` then errs from `Sₙ - tau S_d` by at most
    /// `γ₅ Mₙ + |tau| γ₃ M_d + u |tau den_sum| (1 + u) + u |num_sum - fl(tau den_sum)|`, and
    /// with `|num_sum| ≤ (1 + γ₅) Mₙ`, `|den_sum| ≤ (1 + γ₃) M_d` that is below
    /// `7 u (Mₙ + |tau| M_d)`. The computed magnitude `fl(num_mag + fl(|tau| den_mag))` is
    /// at least `(1 - u)⁷` times `Mₙ + |tau| M_d` (sums of non-negative values only round
    /// down by their own `u`), so `16 u` times it (a power of two: exact) exceeds the error
    /// bound, and an estimate beyond it has the exact sign. Otherwise (near a tie, and
    /// always when `t = tau` exactly) the exact expansion sum of [`Self::compare_exact`].
    #[inline]
    fn compare(&self, tau: f32) -> f64 {
        let tau64 = f64::from(tau);
        let v = self.num_sum - tau64 * self.den_sum;
        let bound = 16.0 * U * (self.num_mag + tau64.abs() * self.den_mag);
        if v > bound || -v > bound {
            return v.signum();
        }
        self.compare_exact(tau)
    }

    /// The exact sign of `num - tau den`: `num`'s six exact products and `tau den`'s four
    /// products of three, each as the exact pair of a [`two_product`], by [`sum_sign`].
    #[cold]
    fn compare_exact(&self, tau: f32) -> f64 {
        let (d, p, q) = (self.d, self.p, self.q);
        let scaled = scaled_terms(tau, [(d.x, q.y), (d.x, p.y), (d.y, q.x), (d.y, p.x)]);
        let mut terms = [0.0; 14];
        terms[..6].copy_from_slice(&num_terms(self.o, p, q));
        // - tau den: den's terms carry their signs in the pairs' order.
        for (i, s) in [1.0, -1.0, -1.0, 1.0].into_iter().enumerate() {
            terms[6 + 2 * i] = -s * scaled[2 * i];
            terms[7 + 2 * i] = -s * scaled[2 * i + 1];
        }
        sum_sign(terms)
    }

    /// `fl(sum_rounded(num) / sum_rounded(den))`, clamped to `[lo, hi]` and rounded to
    /// `f32`, as that `f32` value (the callers round to `f32` next, so only it matters).
    ///
    /// **Filter.** [`sum_rounded`] adds the components `eⱼ` of the *Grow-Expansion* of the
    /// terms (Shewchuk 1997, Theorem 10) from the smallest up, so it errs from the exact sum
    /// by at most `γₙ₋₁ Σ|eⱼ|` (Higham 4.2). Each *Grow-Expansion* step adds a term `x` to
    /// an expansion of length `L` through `L` *Two-Sums* `(qᵢ, hᵢ) = two_sum(qᵢ₋₁, eᵢ)`, with
    /// `|qᵢ| ≤ (1 + u)(|qᵢ₋₁| + |eᵢ|)` and `|hᵢ| ≤ u |qᵢ|`, so the new components' magnitudes
    /// sum to at most `(1 + L u)(1 + u)ᴸ (|x| + Σ|eᵢ|)`: over six terms `Σ|eⱼ| ≤ (1 + 31 u) Mₙ`.
    /// With `|num_sum - Sₙ| ≤ γ₅ Mₙ`, `|sum_rounded(num) - num_sum| < 11 u Mₙ < 12 u num_mag`,
    /// and likewise `< 8 u den_mag` for `den`. When `|num_sum| > 2⁻¹² num_mag` and
    /// `|den_sum| > 2⁻¹² den_mag`, the reference's operands are `num_sum (1 + θₙ)` and
    /// `den_sum (1 + θ_d)` with `|θₙ| < 12 u 2¹² < 2⁻³⁷`, `|θ_d| < 2⁻³⁸`; both quotients add a
    /// relative `δ ≤ u`, so the reference quotient is within a factor `1 ± 2⁻³⁵·⁴` of
    /// `t = fl(num_sum / den_sum)` (non-zero and in the normal range, by the no-underflow
    /// note). The interval `t ∓ 2⁻³⁵ |t|`, computed (`2⁻³⁵ |t|` exactly, the sums rounded by
    /// `u`), contains it. Clamping and rounding to `f32` are monotone, so when both ends of
    /// the interval give the same `f32` bits, the reference gives them too (every value in
    /// it has `t`'s sign, so a zero result has one sign throughout). An interval `2⁻³⁴`
    /// wide holds an `f32` rounding boundary for about one `t` in `2¹⁰`; those, and sums
    /// that cancel past `2⁻¹²`, take the reference itself.
    #[inline]
    fn t(&self, lo: f64, hi: f64) -> f32 {
        let f = |x: f64| clamp(x, lo, hi) as f32;
        let filter = 1.0 / (1u64 << 12) as f64;
        if self.num_sum.abs() > filter * self.num_mag && self.den_sum.abs() > filter * self.den_mag {
            let t = self.num_sum / self.den_sum;
            let w = t.abs() * (1.0 / (1u64 << 35) as f64);
            let (a, b) = (f(t - w), f(t + w));
            if a.to_bits() == b.to_bits() {
                return a;
            }
        }
        self.t_exact(lo, hi)
    }

    /// The reference itself: the exact sums, rounded, divided, clamped, rounded to `f32`.
    #[cold]
    fn t_exact(&self, lo: f64, hi: f64) -> f32 {
        let num = sum_rounded(num_terms(self.o, self.p, self.q));
        let den = sum_rounded(den_terms(self.d, self.p, self.q));
        clamp(num / den, lo, hi) as f32
    }
}

/// The exact side of `a` relative to the ray's line: `sign(cross(d, a - o))`.
#[inline]
pub(super) fn side(o: Vec2, d: Vec2, a: Vec2) -> f64 {
    sign_of(cross_terms(d, a, o))
}

/// Where the ray crosses the segment's line, when it does within the segment (see
/// [`crossing`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Crossed {
    /// `[t, t]`.
    pub span: RaySpan,
    /// `r(t_min)` is the crossing itself: the ray starts on the segment.
    pub starts_on: bool,
    /// The sign of `den = cross(d, q - p)` (non-zero).
    pub den_sign: f64,
}

/// The crossing of the ray's line with the segment's line, which must cross it within the
/// segment: the sides of `p` and `q` ([`side`]) are not both zero and not of one strict
/// sign. `None` when the crossing is outside `[t_min, t_max]` (or past `f32::MAX`).
#[inline]
pub(super) fn crossing(o: Vec2, d: Vec2, (t_min, t_max): (f32, f32), p: Vec2, q: Vec2) -> Option<Crossed> {
    // The lines cross at one point of the segment: t = num / den with
    // num = cross(p - o, q - o) (= cross(p - o, q - p)) and den = cross(d, q - p).
    let (num_sum, num_mag) = sum_and_magnitude(num_terms(o, p, q));
    let den = den_terms(d, p, q);
    let (den_sum, den_mag) = sum_and_magnitude(den);
    let c = Crossing { o, d, p, q, num_sum, num_mag, den_sum, den_mag };
    // Non-zero: the lines are not parallel. sum_sign's own filter, on the same sums.
    let den_sign = if den_sum.abs() > 16.0 * U * den_mag { den_sum.signum() } else { sum_sign(den) };
    // sign(t - tau) = sign(den) · sign(num - tau den), tau finite; t_min once.
    let at_min = (t_min != f32::NEG_INFINITY).then(|| den_sign * c.compare(t_min));
    let after_min = at_min.is_none_or(|s| s >= 0.0);
    let before_max = t_max == f32::INFINITY || den_sign * c.compare(t_max) <= 0.0;
    if !(after_min && before_max) {
        return None;
    }
    let starts_on = at_min == Some(0.0);
    let t = if starts_on { t_min } else { c.t(f64::from(t_min), f64::from(t_max)) };
    let span = f32_span(f64::from(t), f64::from(t))?;
    Some(Crossed { span, starts_on, den_sign })
}

/// What [`quick`] decided.
pub(super) enum Quick {
    /// Both ends strictly on one side of the ray's line (or the crossing out of range).
    Miss,
    /// A crossing at `[t, t]` (not at `t_min`: the ray does not start on the segment), its
    /// comparisons and its `t` settled; the sign of `cross(d, q - p)`.
    Crossing(RaySpan, f64),
    /// Out of range, or within rounding of a decision: run the full kernel.
    Unsure,
}

/// The kernel's common case, in `f64` on the coordinate differences `a = p - o`,
/// `b = q - o` (each rounded once), with error bounds that prove every decision and the
/// `t` it returns: the answer is the full kernel's, bit for bit, or [`Quick::Unsure`].
///
/// **Sides.** `s_p = d.x a.y - d.y a.x` (and `s_q` from `b`) is `cross(d, p - o)`. Each
/// product has three roundings (the difference, the product) and the subtraction one more,
/// so `s_p` is within `4.1 u m_p` of the exact value, `m_p = |d.x a.y| + |d.y a.x|` as
/// computed (Higham, *Accuracy and Stability of Numerical Algorithms*, 3.1; every operand
/// is an `f32` value or a difference of two, products of two lie within `2^±260`, so no
/// under- or overflow). `|s_p| > 8 u m_p` proves its sign.
///
/// **Crossing.** With the sides of opposite strict signs, `den = cross(d, q - p) = s_q - s_p`
/// (no cancellation; within `5.2 u (m_p + m_q)`) and `num = cross(p - o, q - o) = a.x b.y -
/// a.y b.x` (within `4.2 u m_n`). `num - τ den` for a finite bound `τ` errs by at most
/// `4.2 u m_n + 6.3 u |τ| (m_p + m_q) + 1.01 u |v|` (`v` the computed value), so
/// `|v| > 16 u (m_n + |τ| (m_p + m_q))` proves its sign: never zero, so the ray does not
/// start on the segment here.
///
/// **`t`.** The full kernel's `t` is `fl(num' / den')` clamped and rounded to `f32`, with
/// `num'`, `den'` the exact expansions of `num`'s six and `den`'s four products rounded
/// ([`sum_rounded`]), within `16 u` times the sum of those products' magnitudes of the exact
/// values ([`Crossing::t`]); those sums are at most `6 L²` and `4 L L_d` (`L` the largest
/// coordinate magnitude of `o`, `p`, `q`, `L_d` of `d`). When `|num| > 2⁻¹² (m_n + 8 L²)`
/// and `|den| > 2⁻¹² (m_p + m_q + 8 L L_d)`, both `num / den` here and `num' / den'` lie
/// within a factor `1 ± 2⁻³⁶` of the exact quotient, so within `t ∓ 2⁻³⁵ |t|`; when both
/// ends of that interval give the same `f32` (clamped), so does the full kernel.
#[inline(always)]
pub(super) fn quick(o: Vec2, d: Vec2, (t_min, t_max): (f32, f32), p: Vec2, q: Vec2) -> Quick {
    let (o, d, p, q) = (o.as_dvec2(), d.as_dvec2(), p.as_dvec2(), q.as_dvec2());
    let (a, b) = (p - o, q - o);
    let side = |a: DVec2| {
        let (x, y) = (d.x * a.y, d.y * a.x);
        (x - y, x.abs() + y.abs())
    };
    let ((s_p, m_p), (s_q, m_q)) = (side(a), side(b));
    let sure = |s: f64, m: f64| s.abs() > 8.0 * U * m;
    if !(sure(s_p, m_p) && sure(s_q, m_q)) {
        return Quick::Unsure;
    }
    if (s_p > 0.0) == (s_q > 0.0) {
        return Quick::Miss;
    }
    let den = s_q - s_p;
    let m_d = m_p + m_q;
    let (x, y) = (a.x * b.y, a.y * b.x);
    let (num, m_n) = (x - y, x.abs() + y.abs());
    // sign(t - τ) = sign(den) sign(num - τ den), when proven.
    let order = |tau: f32| {
        let tau = f64::from(tau);
        let v = num - tau * den;
        if v.abs() > 16.0 * U * (m_n + tau.abs() * m_d) { v * den } else { f64::NAN }
    };
    let after_min = t_min == f32::NEG_INFINITY || order(t_min) > 0.0;
    let before_max = t_max == f32::INFINITY || order(t_max) < 0.0;
    if !(after_min && before_max) {
        // Out of range, or unsure (NaN): only a proven order misses here.
        let out = (t_min != f32::NEG_INFINITY && order(t_min) < 0.0)
            || (t_max != f32::INFINITY && order(t_max) > 0.0);
        return if out { Quick::Miss } else { Quick::Unsure };
    }
    let l = o.abs().max(p.abs()).max(q.abs()).max_element();
    let l_d = d.abs().max_element();
    let filter = 1.0 / (1u64 << 12) as f64;
    if !(num.abs() > filter * (m_n + 8.0 * l * l) && den.abs() > filter * (m_d + 8.0 * l * l_d)) {
        return Quick::Unsure;
    }
    let t = num / den;
    let w = t.abs() * (1.0 / (1u64 << 35) as f64);
    let (lo, hi) = (f64::from(t_min), f64::from(t_max));
    let round = |x: f64| clamp(x, lo, hi) as f32;
    let (t_lo, t_hi) = (round(t - w), round(t + w));
    if t_lo.to_bits() != t_hi.to_bits() {
        return Quick::Unsure;
    }
    match f32_span(f64::from(t_lo), f64::from(t_lo)) {
        Some(span) => Quick::Crossing(span, den.signum()),
        None => Quick::Miss,
    }
}

/// The ray–segment kernel; see the module docs.
#[inline]
fn ray_segment2(ray: &Ray2, p: Vec2, q: Vec2) -> Option<Meet> {
    let (o, d) = (ray.origin(), ray.dir());
    match quick(o, d, (ray.t_min(), ray.t_max()), p, q) {
        Quick::Miss => None,
        Quick::Crossing(span, den_sign) => Some(Meet::Crossing { span, starts_on: false, den_sign }),
        Quick::Unsure => full_ray_segment2(ray, p, q),
    }
}

/// The kernel without [`quick`]: exact decisions, filtered.
#[cold]
#[inline(never)]
fn full_ray_segment2(ray: &Ray2, p: Vec2, q: Vec2) -> Option<Meet> {
    let (o, d) = (ray.origin(), ray.dir());
    let (side_p, side_q) = (side(o, d, p), side(o, d, q));
    if side_p * side_q > 0.0 {
        return None; // both ends strictly on one side of the ray's line
    }
    if side_p == 0.0 && side_q == 0.0 {
        return collinear(ray, p, q);
    }
    let c = crossing(o, d, (ray.t_min(), ray.t_max()), p, q)?;
    Some(Meet::Crossing { span: c.span, starts_on: c.starts_on, den_sign: c.den_sign })
}

/// The segment on the ray's line, in 2D: [`collinear_span`].
#[cold]
fn collinear(ray: &Ray2, p: Vec2, q: Vec2) -> Option<Meet> {
    let (o, d) = (ray.origin().to_array(), ray.dir().to_array());
    let (span, first) = collinear_span(o, d, (ray.t_min(), ray.t_max()), p.to_array(), q.to_array())?;
    Some(Meet::Along { span, first: first.map(Vec2::from_array) })
}

/// A segment `p q` on the ray's line (both ends on it, exactly), in any dimension: the
/// ends' parameters, clipped to `[t_min, t_max]`, and the end the ray reaches first from
/// outside the segment (`None` when `r(t_min)` is already on it). Every comparison is
/// exact (signs of sums of exact products, `sum_sign`); the parameters are rounded.
#[inline]
pub(super) fn collinear_span<const N: usize>(
    o: [f32; N],
    d: [f32; N],
    (t_min, t_max): (f32, f32),
    p: [f32; N],
    q: [f32; N],
) -> Option<(RaySpan, Option<[f32; N]>)> {
    // Measure along the largest component of d (non-zero, as d is; the first on ties).
    let k = (1..N).fold(0, |k, i| if d[k].abs() < d[i].abs() { i } else { k });
    let dk_sign = f64::from(d[k].signum());
    // sign(t_a - tau) for an end a on the line (a = o + t_a d exactly).
    let compare = |a: [f32; N], tau: f32| {
        dk_sign * sum_sign([f64::from(a[k]), -f64::from(o[k]), -(f64::from(tau) * f64::from(d[k]))])
    };
    let param = |a: [f32; N]| (f64::from(a[k]) - f64::from(o[k])) / f64::from(d[k]);
    // The end met first along the ray, then the other.
    let q_first = dk_sign * sum_sign([f64::from(q[k]), -f64::from(p[k])]) < 0.0;
    let (first, last) = if q_first { (q, p) } else { (p, q) };
    let min_finite = t_min != f32::NEG_INFINITY;
    let max_finite = t_max != f32::INFINITY;
    if (min_finite && compare(last, t_min) < 0.0) || (max_finite && compare(first, t_max) > 0.0) {
        return None;
    }
    let starts_on = min_finite && compare(first, t_min) <= 0.0;
    let (lo, hi) = (f64::from(t_min), f64::from(t_max));
    let t_enter = if starts_on { lo } else { clamp(param(first), lo, hi) };
    let t_exit = if max_finite && compare(last, t_max) >= 0.0 { hi } else { clamp(param(last), lo, hi) };
    let span = f32_span(t_enter, t_exit)?;
    Some((span, (!starts_on).then_some(first)))
}

/// A ray against a closed segment: a crossing is a single point (`t_enter == t_exit`), a
/// ray running along the segment's line meets it over the clipped interval between the
/// ends' parameters, and a zero-length segment is a point.
///
/// `cast_ray`'s normal is the segment's unit perpendicular on the side the ray comes from;
/// when the ray runs along the segment's line it reaches an end point, and the normal is
/// `-dir`, normalised; when the ray starts on the segment (`r(t_min)` is on it), `t = t_min`
/// and the normal is zero, as for a ray starting inside a solid.
///
/// **Precision.** Whether the ray meets the segment, where `t` lies against `t_min` and
/// `t_max`, and whether the ray starts on the segment are decided exactly for all finite
/// `f32` inputs (signs of sums of products of the inputs: `f64` with an error bound and an
/// exact expansion sum as the fallback), so a ray through an end point or grazing along the
/// segment is never missed. The reported `t` is the exact value rounded (computed in `f64`,
/// then rounded to `f32`).
///
/// ```
/// use raybox::{Ray2, RayCast, Segment2};
/// use glam::Vec2;
///
/// let wall = Segment2::new(Vec2::new(2.0, -1.0), Vec2::new(2.0, 1.0));
/// // Through the end point (2, 1) exactly, at t = 1.
/// let ray = Ray2::new(Vec2::new(0.0, -1.0), Vec2::new(2.0, 2.0));
/// let hit = wall.cast_ray(&ray).unwrap();
/// assert_eq!((hit.t, hit.point, hit.normal), (1.0, Vec2::new(2.0, 1.0), Vec2::new(-1.0, 0.0)));
/// // Along the segment's line: the whole segment, from y = -1 to y = 1.
/// let along = Ray2::new(Vec2::new(2.0, -3.0), Vec2::Y);
/// let span = wall.ray_span(&along).unwrap();
/// assert_eq!((span.t_enter, span.t_exit), (2.0, 4.0));
/// assert_eq!(wall.cast_ray(&along).unwrap().normal, Vec2::NEG_Y);
/// // Missing the end by one f32 step.
/// let past = Ray2::new(Vec2::new(0.0, -1.0), Vec2::new(2.0, 2.000_000_2));
/// assert!(wall.cast_ray(&past).is_none());
/// ```
impl RayCast for Segment2 {
    type Ray = Ray2;
    type Hit = RayHit2;

    #[inline]
    fn ray_span(&self, ray: &Ray2) -> Option<RaySpan> {
        ray_segment2(ray, self.start(), self.end()).map(Meet::span)
    }

    #[inline]
    fn cast_ray(&self, ray: &Ray2) -> Option<RayHit2> {
        let (p, q) = (self.start(), self.end());
        let h = ray_segment2(ray, p, q)?.hit(ray.origin(), ray.dir(), p, q);
        Some(RayHit2 { t: h.span.t_enter, point: h.point, normal: h.normal })
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::arrays::Each;

    /// The kernel as it was before the filters of [`Crossing`]: the reference the fast
    /// paths must match to the bit.
    fn reference_ray_segment2(ray: &Ray2, p: Vec2, q: Vec2) -> Option<SegmentHit> {
        let (o, d) = (ray.origin(), ray.dir());
        let (t_min, t_max) = (ray.t_min(), ray.t_max());
        let side_p = sum_sign(cross_terms(d, p, o));
        let side_q = sum_sign(cross_terms(d, q, o));
        if side_p * side_q > 0.0 {
            return None;
        }
        if side_p == 0.0 && side_q == 0.0 {
            return collinear(ray, p, q).map(|m| m.hit(o, d, p, q));
        }
        let f = |v: f32| f64::from(v);
        let num = [
            f(p.x) * f(q.y),
            -(f(p.y) * f(q.x)),
            -(f(p.x) * f(o.y)),
            f(p.y) * f(o.x),
            -(f(o.x) * f(q.y)),
            f(o.y) * f(q.x),
        ];
        let den = [f(d.x) * f(q.y), -(f(d.x) * f(p.y)), -(f(d.y) * f(q.x)), f(d.y) * f(p.x)];
        let den_sign = sum_sign(den);
        let den_pairs = [(d.x, q.y), (d.x, p.y), (d.y, q.x), (d.y, p.x)];
        let compare = |tau: f32| {
            let scaled = scaled_terms(tau, den_pairs);
            let mut terms = [0.0; 14];
            terms[..6].copy_from_slice(&num);
            for (i, s) in [1.0, -1.0, -1.0, 1.0].into_iter().enumerate() {
                terms[6 + 2 * i] = -s * scaled[2 * i];
                terms[7 + 2 * i] = -s * scaled[2 * i + 1];
            }
            den_sign * sum_sign(terms)
        };
        let after_min = t_min == f32::NEG_INFINITY || compare(t_min) >= 0.0;
        let before_max = t_max == f32::INFINITY || compare(t_max) <= 0.0;
        if !(after_min && before_max) {
            return None;
        }
        let starts_on = t_min != f32::NEG_INFINITY && compare(t_min) == 0.0;
        let t = if starts_on {
            f64::from(t_min)
        } else {
            (sum_rounded(num) / sum_rounded(den)).clamp(f(t_min), f(t_max))
        };
        let span = f32_span(t, t)?;
        Some(Meet::Crossing { span, starts_on, den_sign }.hit(o, d, p, q))
    }

    /// Every float of a hit, as bits (so `-0.0` and `0.0` differ).
    fn hit_bits(h: Option<SegmentHit>) -> Option<[u32; 6]> {
        h.map(|h| {
            let (s, p, n) = (h.span, h.point, h.normal);
            [s.t_enter, s.t_exit, p.x, p.y, n.x, n.y].each(f32::to_bits)
        })
    }

    /// SplitMix64 (Steele, Lea and Flood 2014): a fixed, seedable stream for the test.
    pub(in crate::query::ray) struct Rng(pub(in crate::query::ray) u64);

    impl Rng {
        pub(in crate::query::ray) fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        pub(in crate::query::ray) fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        /// Uniform in `[-r, r]`.
        pub(in crate::query::ray) fn uniform(&mut self, r: f32) -> f32 {
            ((self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * r
        }
        /// A small integer in `[-n, n]`, sometimes `-0.0`.
        pub(in crate::query::ray) fn grid(&mut self, n: u64) -> f32 {
            let v = self.below(2 * n + 1) as f32 - n as f32;
            if v == 0.0 && self.below(4) == 0 { -0.0 } else { v }
        }
        /// Any finite float of magnitude in about `[2^-40, 2^40]`, or a subnormal.
        pub(in crate::query::ray) fn wide(&mut self) -> f32 {
            let sign = if self.below(2) == 0 { 1.0 } else { -1.0 };
            if self.below(50) == 0 {
                return sign * f32::from_bits(1 + self.below(1 << 23) as u32);
            }
            let e = self.below(81) as i32 - 40;
            sign * (1.0 + (self.next() >> 41) as f32 / (1u64 << 23) as f32) * 2f32.powi(e)
        }
        /// A `t` near `t` (the same, or a few `f32` steps off), or a plain value.
        pub(in crate::query::ray) fn near(&mut self, t: f32) -> f32 {
            if !t.is_finite() {
                return t;
            }
            let mut moved = t;
            for _ in 0..self.below(3) {
                moved = if self.below(2) == 0 { moved.next_up() } else { moved.next_down() };
            }
            if moved.is_finite() { moved } else { t }
        }
    }

    fn vec(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// A range `[t_min, t_max]` from `picks` (either bound maybe infinite), in order.
    fn range(rng: &mut Rng, picks: [f32; 2]) -> (f32, f32) {
        let (mut a, mut b) = (picks[0], picks[1]);
        if a > b {
            (a, b) = (b, a);
        }
        if rng.below(4) == 0 {
            a = f32::NEG_INFINITY;
        }
        if rng.below(4) == 0 {
            b = f32::INFINITY;
        }
        (a, b)
    }

    #[test]
    fn matches_the_reference_to_the_bit() {
        let mut rng = Rng(0x0005_eed0_f5e9);
        let (mut cases, mut hits, mut starts, mut along) = (0u32, 0u32, 0u32, 0u32);
        let mut check = |ray: Ray2, p: Vec2, q: Vec2| {
            let new = ray_segment2(&ray, p, q).map(|m| m.hit(ray.origin(), ray.dir(), p, q));
            let old = reference_ray_segment2(&ray, p, q);
            assert_eq!(hit_bits(new), hit_bits(old), "{ray:?} {p:?} {q:?}");
            cases += 1;
            if let Some(h) = old {
                hits += 1;
                starts += u32::from(h.normal == Vec2::ZERO);
                along += u32::from(h.span.t_enter != h.span.t_exit);
            }
            old
        };
        for i in 0..240_000u32 {
            let (o, d, p, q, t_pair) = match i % 10 {
                // Random floats in a box.
                0 => {
                    let mut u = || rng.uniform(10.0);
                    (vec(u(), u()), vec(u(), u()), vec(u(), u()), vec(u(), u()), [u(), u()])
                }
                // Floats of any magnitude.
                1 => {
                    let mut w = || rng.wide();
                    (vec(w(), w()), vec(w(), w()), vec(w(), w()), vec(w(), w()), [w(), w()])
                }
                // Small-integer grids: ends on the ray, collinear segments, ties.
                2 | 3 => {
                    let mut g = |n| rng.grid(n);
                    let (o, d) = (vec(g(4), g(4)), vec(g(3), g(3)));
                    (o, d, vec(g(4), g(4)), vec(g(4), g(4)), [g(3) * 0.5, g(3) * 0.5])
                }
                // The origin on the segment's line, rounded (num nearly cancels).
                6 => {
                    let s = rng.uniform(2.0);
                    let mut u = || rng.uniform(10.0);
                    let (p, q, d) = (vec(u(), u()), vec(u(), u()), vec(u(), u()));
                    (p + (q - p) * s, d, p, q, [u(), u()])
                }
                // The direction nearly along the segment (den nearly cancels).
                7 => {
                    let (k, wobble) = (rng.uniform(3.0), vec(rng.uniform(1e-5), rng.uniform(1e-5)));
                    let mut u = || rng.uniform(10.0);
                    let (p, q, o) = (vec(u(), u()), vec(u(), u()), vec(u(), u()));
                    (o, (q - p) * k + wobble, p, q, [u(), u()])
                }
                // Through an end at a dyadic tau (exactly when o + tau d rounds to nothing),
                // a far origin and a near, full-precision other end: tau as a bound is a tie
                // the rounded sums (mixed magnitudes) get wrong.
                8 => {
                    let tau = rng.grid(8) * 0.25;
                    let far = 2f32.powi(rng.below(16) as i32);
                    let d = vec(rng.grid(3), rng.grid(3)) * far;
                    let o = vec(rng.uniform(far), rng.uniform(far));
                    let near = 2f32.powi(rng.below(8) as i32 - 4);
                    let q = vec(rng.uniform(near), rng.uniform(near));
                    (o, d, o + d * tau, q, [tau, tau + rng.grid(2)])
                }
                // The origin far along the segment's line (rounded onto it, or a few steps
                // off it): num cancels to far below its terms.
                9 => {
                    let p = vec(rng.uniform(4.0), rng.uniform(4.0));
                    let e = vec(rng.grid(64), rng.grid(64)) * 2f32.powi(-10 - rng.below(14) as i32);
                    let mut o = p + e * (rng.grid(3) * 2f32.powi(rng.below(21) as i32));
                    let off_by = 1 << rng.below(6);
                    for _ in 0..rng.below(off_by) {
                        o.x = if rng.below(2) == 0 { o.x.next_up() } else { o.x.next_down() };
                    }
                    let d = vec(rng.uniform(1.0), rng.uniform(1.0));
                    (o, d, p, p + e, [rng.uniform(1.0), rng.uniform(1.0)])
                }
                // Scaled grids: 2^-60 and 2^60, the direction scaled apart or not.
                _ => {
                    let s = if i % 2 == 0 { 2f32.powi(-60) } else { 2f32.powi(60) };
                    let sd = [1.0, s, 1.0 / s][rng.below(3) as usize];
                    let mut g = |n| rng.grid(n);
                    let (o, d) = (vec(g(4), g(4)) * s, vec(g(3), g(3)) * sd);
                    (o, d, vec(g(4), g(4)) * s, vec(g(4), g(4)) * s, [g(3), g(3)])
                }
            };
            if d == Vec2::ZERO {
                continue;
            }
            let (t_min, t_max) = range(&mut rng, t_pair);
            check(Ray2::with_range(o, d, t_min, t_max), p, q);
            check(Ray2::new(o, d), p, q);
            // t_min or t_max on (or a few steps off) the reference's own t.
            let line = Ray2::with_range(o, d, f32::NEG_INFINITY, f32::INFINITY);
            if let Some(h) = check(line, p, q) {
                let t = rng.near(h.span.t_enter);
                let ray = if rng.below(2) == 0 {
                    Ray2::with_range(o, d, t, f32::INFINITY)
                } else {
                    Ray2::with_range(o, d, f32::NEG_INFINITY, t)
                };
                check(ray, p, q);
            }
        }
        assert!(cases >= 600_000 && hits > 100_000 && starts > 1_000 && along > 1_000);
        println!("{cases} cases, {hits} hits, {starts} starting on, {along} along");
    }

    /// Any finite `f32` of magnitude `2^-149 .. 2^127` (subnormals included), or zero.
    fn any_magnitude(rng: &mut Rng) -> f32 {
        let sign = if rng.below(2) == 0 { 1.0 } else { -1.0 };
        match rng.below(8) {
            0 => sign * f32::from_bits(1 + rng.below(1 << 23) as u32),
            1 => 0.0,
            _ => sign * f32::from_bits(((1 + rng.below(254)) << 23 | rng.below(1 << 23)) as u32),
        }
    }

    #[test]
    fn extreme_magnitudes_match_the_reference_to_the_bit() {
        // Every coordinate of any magnitude from 2^-149 to 2^127; ends put on the ray's
        // line (o + s d, rounded), the origin put on the segment, ranges on and one step off
        // the crossing, t_min = -inf: the kernel with its fast path gives the reference's
        // bits, and never NaN.
        let mut rng = Rng(0x00ad_7e55_a1ee);
        let (mut cases, mut hits, mut normals) = (0u32, 0u32, 0u32);
        for i in 0..200_000u32 {
            let mut w = || any_magnitude(&mut rng);
            let (mut o, d, mut p, q) = (vec(w(), w()), vec(w(), w()), vec(w(), w()), vec(w(), w()));
            match i % 4 {
                1 => p = o + d * any_magnitude(&mut rng),
                2 => o = p + (q - p) * rng.uniform(1.0),
                _ => {}
            }
            if d == Vec2::ZERO || !(o.is_finite() && p.is_finite()) {
                continue;
            }
            let mut rays = vec![Ray2::new(o, d), Ray2::with_range(o, d, f32::NEG_INFINITY, f32::INFINITY)];
            if let Some(m) = reference_ray_segment2(&rays[1], p, q) {
                let t = m.span.t_enter;
                for tau in [t, t.next_up(), t.next_down()].into_iter().filter(|x| x.is_finite()) {
                    rays.push(Ray2::with_range(o, d, tau, f32::INFINITY));
                    rays.push(Ray2::with_range(o, d, f32::NEG_INFINITY, tau));
                }
            }
            for ray in rays {
                let new = ray_segment2(&ray, p, q).map(|m| m.hit(ray.origin(), ray.dir(), p, q));
                let old = reference_ray_segment2(&ray, p, q);
                assert_eq!(hit_bits(new), hit_bits(old), "{ray:?} {p:?} {q:?}");
                if let Some(h) = new {
                    assert!(!(h.point.is_nan() || h.normal.is_nan()), "{ray:?} {p:?} {q:?}");
                    hits += 1;
                    // A crossing (not along the line, not starting on it): the normal is
                    // the f64 unit perpendicular facing the ray, within 2⁻²¹.
                    let along = side(o, d, p) == 0.0 && side(o, d, q) == 0.0;
                    if !along && h.normal != Vec2::ZERO {
                        let e = q.as_dvec2() - p.as_dvec2();
                        let want = DVec2::new(-e.y, e.x).normalize();
                        let want = if want.dot(d.as_dvec2()) > 0.0 { -want } else { want };
                        let err = (h.normal.as_dvec2() - want).length();
                        assert!(err <= 1.0 / f64::from(1 << 21), "{ray:?} {p:?} {q:?}: {err:e}");
                        normals += 1;
                    }
                }
                cases += 1;
            }
        }
        assert!(cases > 400_000 && hits > 50_000 && normals > 20_000, "{cases} {hits} {normals}");
    }

    #[test]
    fn the_quick_path_decides_most_cases_as_the_full_kernel_does() {
        // Random scenes in a box, far from the origin, and with t_min / t_max a few steps
        // from the crossing: whenever `quick` decides, the full kernel agrees to the bit.
        let mut rng = Rng(0x0000_0b5e_55ed);
        let (mut decided, mut total, mut crossings) = (0u32, 0u32, 0u32);
        for i in 0..200_000u32 {
            let shift = if i % 4 == 0 { vec(rng.uniform(1e6), rng.uniform(1e6)) } else { Vec2::ZERO };
            let mut u = || rng.uniform(4.0);
            let (o, d, p, q) =
                (vec(u(), u()) + shift, vec(u(), u()), vec(u(), u()) + shift, vec(u(), u()) + shift);
            if d == Vec2::ZERO {
                continue;
            }
            let start = rng.uniform(2.0);
            let mut ranges = vec![(0.0, f32::INFINITY), (start, start + 2.0)];
            if let Some(m) = full_ray_segment2(&Ray2::new(o, d), p, q) {
                let t = m.span().t_enter;
                ranges.extend([(rng.near(t), f32::INFINITY), (0.0, rng.near(t).max(0.0))]);
            }
            for (t_min, t_max) in ranges {
                let ray = Ray2::with_range(o, d, t_min, t_max);
                let full = full_ray_segment2(&ray, p, q);
                total += 1;
                match quick(o, d, (t_min, t_max), p, q) {
                    Quick::Unsure => continue,
                    Quick::Miss => assert!(full.is_none(), "{ray:?} {p:?} {q:?}: {full:?}"),
                    Quick::Crossing(span, den_sign) => {
                        let m = Meet::Crossing { span, starts_on: false, den_sign };
                        let bits = |m: Meet| m.hit(o, d, p, q);
                        assert_eq!(hit_bits(Some(bits(m))), hit_bits(full.map(bits)), "{ray:?} {p:?} {q:?}");
                        crossings += 1;
                    }
                }
                decided += 1;
            }
        }
        assert!(
            f64::from(decided) > 0.9 * f64::from(total) && crossings > 50_000,
            "{decided} {total} {crossings}"
        );
    }

    #[test]
    fn crossing_normals_are_the_f64_unit_perpendicular() {
        // Segments at every scale, crossed from either side: the normal (f32 where |q - p|²
        // is a normal f32, f64 otherwise) is within 2⁻²⁰ of the f64 unit perpendicular,
        // and faces the ray.
        let mut rng = Rng(0x0000_7e57_0a11);
        let mut checked = 0;
        for i in 0..50_000u32 {
            let scale = 2f32.powi((i % 241) as i32 - 120);
            let mut u = || rng.uniform(4.0) * scale;
            let (p, q, o) = (vec(u(), u()), vec(u(), u()), vec(u(), u()));
            let mid = (p + q) * 0.5;
            let Ok(ray) = Ray2::try_new(o, mid - o) else { continue };
            let Some(meet) = ray_segment2(&ray, p, q) else { continue };
            let Meet::Crossing { starts_on: false, .. } = meet else { continue };
            let n = meet.hit(o, ray.dir(), p, q).normal;
            let e = q.as_dvec2() - p.as_dvec2();
            let want = DVec2::new(-e.y, e.x).normalize();
            let want = if want.dot(ray.dir().as_dvec2()) > 0.0 { -want } else { want };
            assert!(
                (n.as_dvec2() - want).length() < 1.0 / f64::from(1 << 20),
                "{p:?} {q:?} {o:?}: {n:?} {want:?}"
            );
            checked += 1;
        }
        assert!(checked > 40_000, "{checked}");
    }

    fn seg(a: (f32, f32), b: (f32, f32)) -> Segment2 {
        Segment2::new(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1))
    }

    fn span(s: &Segment2, ray: &Ray2) -> Option<(f32, f32)> {
        s.ray_span(ray).map(|s| (s.t_enter, s.t_exit))
    }

    #[test]
    fn crossing_the_middle_from_either_side() {
        let s = seg((2.0, -1.0), (2.0, 1.0));
        let hit = s.cast_ray(&Ray2::new(Vec2::new(0.0, 0.5), Vec2::new(4.0, 0.0))).unwrap();
        assert_eq!((hit.t, hit.point, hit.normal), (0.5, Vec2::new(2.0, 0.5), Vec2::NEG_X));
        assert_eq!(span(&s, &Ray2::new(Vec2::new(0.0, 0.5), Vec2::X)), Some((2.0, 2.0)));
        // From the other side, the normal turns; the segment's own direction does not matter.
        let back = Ray2::new(Vec2::new(5.0, 0.0), Vec2::NEG_X);
        assert_eq!(s.cast_ray(&back).unwrap().normal, Vec2::X);
        assert_eq!(seg((2.0, 1.0), (2.0, -1.0)).cast_ray(&back).unwrap().normal, Vec2::X);
        // A slanted segment: the normal is its unit perpendicular.
        let slant = seg((0.0, 0.0), (3.0, 4.0));
        let hit = slant.cast_ray(&Ray2::new(Vec2::new(3.0, 0.0), Vec2::NEG_X)).unwrap();
        assert_eq!((hit.t, hit.normal), (3.0, Vec2::new(0.8, -0.6)));
        // Behind the origin, and past t_max.
        assert_eq!(span(&s, &Ray2::new(Vec2::new(3.0, 0.0), Vec2::X)), None);
        assert_eq!(span(&s, &Ray2::with_range(Vec2::ZERO, Vec2::X, 0.0, 1.5)), None);
    }

    #[test]
    fn end_points_are_hit_and_one_step_past_them_is_not() {
        let s = seg((2.0, -1.0), (2.0, 1.0));
        for y in [1.0, -1.0] {
            let hit = s.cast_ray(&Ray2::new(Vec2::new(0.0, y), Vec2::X)).unwrap();
            assert_eq!((hit.t, hit.point), (2.0, Vec2::new(2.0, y)));
            let past = f32::from_bits(y.to_bits() + 1); // one step farther out
            assert!(s.cast_ray(&Ray2::new(Vec2::new(0.0, past), Vec2::X)).is_none());
        }
        // Through an end along a slanted direction: (0.125, 1.625) + 3 (0.375, 0.625).
        let e = Vec2::new(1.25, 3.5);
        let s = seg((1.25, 3.5), (7.0, 9.0));
        let ray = Ray2::new(Vec2::new(1.25 - 3.0 * 0.375, 3.5 - 3.0 * 0.625), Vec2::new(0.375, 0.625));
        let hit = s.cast_ray(&ray).unwrap();
        assert_eq!((hit.t, hit.point), (3.0, e));
    }

    #[test]
    fn collinear_overlap_touch_and_gap() {
        let s = seg((1.0, 1.0), (3.0, 1.0));
        let along = |x: f32, dx: f32| Ray2::new(Vec2::new(x, 1.0), Vec2::new(dx, 0.0));
        // Overlap: enters at the near end, leaves at the far one; normal against the ray.
        let hit = s.cast_ray(&along(0.0, 0.5)).unwrap();
        assert_eq!((hit.t, hit.point, hit.normal), (2.0, Vec2::new(1.0, 1.0), Vec2::NEG_X));
        assert_eq!(span(&s, &along(0.0, 0.5)), Some((2.0, 6.0)));
        assert_eq!(s.cast_ray(&along(5.0, -1.0)).unwrap().normal, Vec2::X);
        assert_eq!(span(&s, &along(5.0, -1.0)), Some((2.0, 4.0)));
        // Touch: the ray's interval ends exactly at the near end.
        let touch = Ray2::with_range(Vec2::new(0.0, 1.0), Vec2::X, 0.0, 1.0);
        assert_eq!(span(&s, &touch), Some((1.0, 1.0)));
        // Gap: stops short of it, or runs away from it.
        assert_eq!(span(&s, &Ray2::with_range(Vec2::new(0.0, 1.0), Vec2::X, 0.0, 0.99)), None);
        assert_eq!(span(&s, &along(4.0, 1.0)), None);
        // A line (t_min = -inf) through the segment from its far side.
        let line = Ray2::with_range(Vec2::new(4.0, 1.0), Vec2::X, f32::NEG_INFINITY, f32::INFINITY);
        assert_eq!(span(&s, &line), Some((-3.0, -1.0)));
    }

    #[test]
    fn parallel_not_collinear_misses() {
        let s = seg((1.0, 1.0), (3.0, 1.0));
        assert!(s.cast_ray(&Ray2::new(Vec2::ZERO, Vec2::X)).is_none());
        let hair = Ray2::new(Vec2::new(0.0, f32::from_bits(1.0f32.to_bits() - 1)), Vec2::X);
        assert!(s.cast_ray(&hair).is_none());
        let line = Ray2::with_range(Vec2::new(9.0, 1.5), Vec2::NEG_X, f32::NEG_INFINITY, f32::INFINITY);
        assert!(s.ray_span(&line).is_none());
    }

    #[test]
    fn zero_length_segment_is_a_point() {
        let p = seg((2.0, 3.0), (2.0, 3.0));
        let hit = p.cast_ray(&Ray2::new(Vec2::ZERO, Vec2::new(1.0, 1.5))).unwrap();
        assert_eq!((hit.t, hit.point), (2.0, Vec2::new(2.0, 3.0)));
        assert!((hit.normal + Vec2::new(1.0, 1.5).normalize()).length() < 1e-6);
        assert_eq!(span(&p, &Ray2::new(Vec2::ZERO, Vec2::new(1.0, 1.5))), Some((2.0, 2.0)));
        assert!(p.cast_ray(&Ray2::new(Vec2::ZERO, Vec2::new(1.0, 1.500_000_1))).is_none());
        // Starting on the point.
        let on = p.cast_ray(&Ray2::new(Vec2::new(2.0, 3.0), Vec2::Y)).unwrap();
        assert_eq!((on.t, on.normal), (0.0, Vec2::ZERO));
    }

    #[test]
    fn ray_starting_on_the_segment() {
        let s = seg((0.0, 0.0), (4.0, 2.0));
        // Across the segment from a point on it: t = t_min, zero normal.
        let hit = s.cast_ray(&Ray2::new(Vec2::new(2.0, 1.0), Vec2::new(1.0, -3.0))).unwrap();
        assert_eq!((hit.t, hit.point, hit.normal), (0.0, Vec2::new(2.0, 1.0), Vec2::ZERO));
        assert_eq!(span(&s, &Ray2::new(Vec2::new(2.0, 1.0), Vec2::new(1.0, -3.0))), Some((0.0, 0.0)));
        // Along it from a point on it: inside until the end.
        let along = Ray2::new(Vec2::new(2.0, 1.0), Vec2::new(2.0, 1.0));
        assert_eq!(span(&s, &along), Some((0.0, 1.0)));
        assert_eq!(s.cast_ray(&along).unwrap().normal, Vec2::ZERO);
        // From an end, away from the segment: touching at t = 0 only.
        let away = Ray2::new(Vec2::new(4.0, 2.0), Vec2::new(2.0, 1.0));
        assert_eq!(span(&s, &away), Some((0.0, 0.0)));
        // r(t_min) on the segment with t_min != 0.
        let late = Ray2::with_range(Vec2::new(2.0, -2.0), Vec2::new(0.0, 1.0), 3.0, 9.0);
        let hit = s.cast_ray(&late).unwrap();
        assert_eq!((hit.t, hit.point, hit.normal), (3.0, Vec2::new(2.0, 1.0), Vec2::ZERO));
        // A line through a point of the segment: met at t = 0, not at t_min.
        let line = Ray2::with_range(Vec2::new(2.0, 1.0), Vec2::Y, f32::NEG_INFINITY, f32::INFINITY);
        let hit = s.cast_ray(&line).unwrap();
        assert_eq!(hit.t, 0.0);
        assert!((hit.normal - Vec2::new(1.0, -2.0).normalize()).length() < 1e-6);
    }

    #[test]
    fn clipping_to_t_min_and_t_max() {
        let s = seg((1.0, 0.0), (5.0, 0.0));
        let r = |t_min, t_max| Ray2::with_range(Vec2::ZERO, Vec2::X, t_min, t_max);
        assert_eq!(span(&s, &r(2.0, 3.0)), Some((2.0, 3.0)));
        assert_eq!(span(&s, &r(0.0, 1.0)), Some((1.0, 1.0)));
        assert_eq!(span(&s, &r(5.0, 8.0)), Some((5.0, 5.0)));
        assert_eq!(span(&s, &r(5.5, 8.0)), None);
        let crossing = Segment2::new(Vec2::new(3.0, -1.0), Vec2::new(3.0, 1.0));
        assert_eq!(span(&crossing, &r(3.0, 3.0)), Some((3.0, 3.0)));
        assert_eq!(span(&crossing, &r(0.0, f32::from_bits(3.0f32.to_bits() - 1))), None);
        assert_eq!(span(&crossing, &r(f32::from_bits(3.0f32.to_bits() + 1), 9.0)), None);
        // t_min = 3 exactly at the crossing: the ray starts on the segment.
        assert_eq!(crossing.cast_ray(&r(3.0, 9.0)).unwrap().normal, Vec2::ZERO);
    }

    #[test]
    fn negative_zero_and_axis_parallel_directions() {
        let s = seg((2.0, -1.0), (2.0, 1.0));
        for dir in [Vec2::new(1.0, -0.0), Vec2::new(1.0, 0.0)] {
            let hit = s.cast_ray(&Ray2::new(Vec2::new(0.0, 1.0), dir)).unwrap();
            assert_eq!((hit.t, hit.point, hit.normal), (2.0, Vec2::new(2.0, 1.0), Vec2::NEG_X));
        }
        // Along the segment's line with a -0.0 component: no NaN, the clipped interval.
        for dir in [Vec2::new(-0.0, 1.0), Vec2::new(0.0, -1.0), Vec2::new(-0.0, -1.0)] {
            let ray = Ray2::with_range(Vec2::new(2.0, 0.0), dir, f32::NEG_INFINITY, f32::INFINITY);
            assert_eq!(span(&s, &ray), Some((-1.0, 1.0)));
            let hit = s.cast_ray(&ray).unwrap();
            assert!(!hit.point.is_nan() && !hit.normal.is_nan());
            assert_eq!(hit.normal, -dir);
        }
        // A -0.0 segment coordinate.
        let z = seg((-0.0, -1.0), (0.0, 1.0));
        assert_eq!(span(&z, &Ray2::new(Vec2::new(-1.0, -0.0), Vec2::X)), Some((1.0, 1.0)));
    }

    #[test]
    fn tiny_directions_and_far_crossings() {
        let s = seg((2.0, -1.0), (2.0, 1.0));
        // Crossing at t = 2^150: beyond f32, no hit. At 2e30: a hit with a unit normal.
        let tiny = Ray2::new(Vec2::ZERO, Vec2::new(f32::from_bits(1), 0.0));
        assert!(s.cast_ray(&tiny).is_none());
        let small = s.cast_ray(&Ray2::new(Vec2::ZERO, Vec2::new(1.0e-30, 0.0))).unwrap();
        assert!((small.t - 2.0e30).abs() <= 2.0e30 * 1e-6 && small.normal == Vec2::NEG_X);
        let along = Segment2::new(Vec2::new(1.0e-38, 0.0), Vec2::new(2.0e-38, 0.0));
        let hit = along.cast_ray(&Ray2::new(Vec2::ZERO, Vec2::new(1.0e-40, 0.0))).unwrap();
        assert_eq!(hit.normal, Vec2::NEG_X);
        assert!((hit.t - 100.0).abs() < 1e-3);
    }
}
