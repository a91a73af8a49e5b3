//! Segment against segment, 2D and 3D, in `f64`: the kernel behind every pair of segment
//! cores (segments and capsules), and the segments' `Distance`.
//!
//! - **In a plane** (all four ends at `z = 0`, which every 2D pair is): whether the
//!   segments meet is decided exactly, by the signs of four orientation determinants
//!   (Cormen et al., *Introduction to Algorithms*, 33.1, closed: touching and collinear
//!   overlap count), each computed by Shewchuk's adaptive predicate (*Adaptive Precision
//!   Floating-Point Arithmetic and Fast Robust Geometric Predicates*, 1997: a floating-point
//!   estimate with an error bound, and an exact expansion sum when the bound does not
//!   settle the sign). Segments that do not meet are nearest at an end of one of them, so
//!   their distance is the least of the four end-to-segment distances (RTCD 5.1.2).
//! - **In 3D**: the clamped closest points of the two lines (Ericson, *Real-Time Collision
//!   Detection*, 5.1.9).
//!
//! `Segment3`'s `Distance` takes its zero from the exact overlap test of
//! `overlap/segment_segment.rs` (coplanarity by an exact `orient3d`, then the planar test).
//!
//! The kernel puts the two segments in a fixed order (a total order on their coordinates)
//! before computing, so that swapping the arguments swaps the results to the bit.
//!
//! GJK is not used here: two nearly parallel crossing segments have a long thin Minkowski
//! difference, and GJK's "the origin is in the simplex" test, a tolerance on a nearest
//! point computed with cancellation, then answered "touching" in one argument order and
//! "apart by 4e-12" in the other (so zero-radius capsules overlapped one way only).

use crate::arrays::Each;
use core::cmp::Ordering;

use super::gjk::Closest;
use super::{d2, d3, f2, f3};
use crate::query::closest::{closest_pair_segment_segment, closest_point_and_squared_distance};
use crate::{Distance, Overlaps, Segment2, Segment3};
use glam::{DVec3, Vec2, Vec3};

/// A segment `(start, end)` in `f64`.
pub(crate) type Seg = (DVec3, DVec3);

/// The order the kernel computes a pair in: lexicographic on the coordinates, then on
/// `extra` (a capsule's radius), by `f64::total_cmp`. `Greater` means "swap the pair".
#[inline]
pub(crate) fn segment_order(a: Seg, ka: f64, b: Seg, kb: f64) -> Ordering {
    let key = |(p, q): Seg, k: f64| [p.x, p.y, p.z, q.x, q.y, q.z, k];
    key(a, ka)
        .iter()
        .zip(key(b, kb).iter())
        .map(|(x, y)| x.total_cmp(y))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// The distance between two segments and a closest point on each (one common point,
/// twice, when they meet: then the distance is exactly zero). Symmetric: swapping the
/// arguments swaps the points and keeps the distance, to the bit.
#[inline]
pub(crate) fn segment_segment_closest(a: Seg, b: Seg) -> Closest {
    if segment_order(a, 0.0, b, 0.0) == Ordering::Greater {
        let c = segment_segment_closest_ordered(b, a);
        return Closest { distance: c.distance, on_a: c.on_b, on_b: c.on_a };
    }
    segment_segment_closest_ordered(a, b)
}

#[inline]
fn segment_segment_closest_ordered(a: Seg, b: Seg) -> Closest {
    let planar = [a.0.z, a.1.z, b.0.z, b.1.z].iter().all(|&z| z == 0.0);
    if !planar {
        let (on_a, on_b, dd) = closest_pair_segment_segment(a, b);
        return Closest { distance: dd.sqrt(), on_a, on_b };
    }
    if let Some(p) = planar_common_point(a, b) {
        return Closest { distance: 0.0, on_a: p, on_b: p };
    }
    // Apart: the nearest pair has an end of one segment (RTCD 5.1.2 for each end), its
    // distance by the point query's cross product (not `|end - foot|`, which takes the
    // foot's rounding along a long segment in full).
    let to_b = |x: DVec3| {
        let (y, dd) = closest_point_and_squared_distance(x, b.0, b.1);
        (x, y, dd)
    };
    let to_a = |y: DVec3| {
        let (x, dd) = closest_point_and_squared_distance(y, a.0, a.1);
        (x, y, dd)
    };
    let candidates = [to_b(a.0), to_b(a.1), to_a(b.0), to_a(b.1)];
    let (on_a, on_b, dd) =
        candidates.into_iter().min_by(|x, y| x.2.total_cmp(&y.2)).expect("four candidates");
    // The exact test said apart: never report zero (rounding can put an end onto the other
    // segment when it passes within a hair of it).
    Closest { distance: dd.sqrt().max(f64::MIN_POSITIVE), on_a, on_b }
}

/// A common point of two segments in the plane `z = 0`, or `None` when they do not meet
/// (decided exactly; the point itself is rounded).
#[inline]
pub(crate) fn planar_common_point((p1, q1): Seg, (p2, q2): Seg) -> Option<DVec3> {
    let (o1, o2) = (orient2d(p1, q1, p2), orient2d(p1, q1, q2));
    let (o3, o4) = (orient2d(p2, q2, p1), orient2d(p2, q2, q1));
    // An end on the other segment's line, within its bounding box, is on the segment.
    let within = |x: DVec3, p: DVec3, q: DVec3| {
        p.x.min(q.x) <= x.x && x.x <= p.x.max(q.x) && p.y.min(q.y) <= x.y && x.y <= p.y.max(q.y)
    };
    let touching = [(o1, p2, p1, q1), (o2, q2, p1, q1), (o3, p1, p2, q2), (o4, q1, p2, q2)];
    if let Some(&(_, x, _, _)) = touching.iter().find(|(o, x, p, q)| *o == 0.0 && within(*x, *p, *q)) {
        return Some(x);
    }
    if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
        // A proper crossing: where one segment's signed distance from the other's line
        // changes sign (estimated, clamped onto the segment), measured from the end nearer
        // to it (of the segment whose end is nearer): from a far end the point is rounded at
        // that end's size (0.06 at `5e14`, for a crossing by the other end of the segment).
        // The signed distances (times the length) are taken from the end of the line's
        // segment nearer the point: Shewchuk's estimate, from a far point, multiplies two
        // differences of its size, whose products (`1e34` for a crossing near the origin
        // of a `1e18` segment) cancel far below their rounding.
        let side = |p: DVec3, q: DVec3, x: DVec3| {
            let e = if x.distance_squared(p) <= x.distance_squared(q) { p } else { q };
            let (d, w) = (q - p, x - e);
            d.x * w.y - d.y * w.x
        };
        let (e1, e2) = (side(p1, q1, p2), side(p1, q1, q2));
        let (e3, e4) = (side(p2, q2, p1), side(p2, q2, q1));
        // The crossing at `p + (q - p) ep / (ep - eq)`, from `p` or from `q`, and how far
        // it is from that end.
        let from_nearer = |p: DVec3, q: DVec3, ep: f64, eq: f64| {
            if ep == eq {
                return (p + (q - p) * 0.5, f64::INFINITY);
            }
            let (end, other, u) =
                if ep.abs() <= eq.abs() { (p, q, ep / (ep - eq)) } else { (q, p, eq / (eq - ep)) };
            let u = u.clamp(0.0, 1.0);
            (end + (other - end) * u, u * u * (other - end).length_squared())
        };
        let (x, far1) = from_nearer(p1, q1, e3, e4);
        let (y, far2) = from_nearer(p2, q2, e1, e2);
        return Some(if far1 <= far2 { x } else { y });
    }
    None
}

/// The sign (`-1.0`, `0.0` or `1.0`) of twice the signed area of `a b c`, exact.
///
/// Shewchuk's `orient2d`: the estimate decides when it exceeds its error bound
/// `(3 + 16 ε) ε (|l| + |r|)` (his `ccwerrboundA`); otherwise the determinant, expanded into
/// six products `a.x b.y - a.y b.x + b.x c.y - b.y c.x + c.x a.y - c.y a.x`, is summed
/// exactly (each product as a two-term expansion, *Two-Product*, grown into one
/// nonoverlapping expansion, *Grow-Expansion*), and the sign is that of its largest term.
#[inline]
pub(crate) fn orient2d(a: DVec3, b: DVec3, c: DVec3) -> f64 {
    // A repeated point (or both products with an exactly zero factor): exactly zero, which
    // the error bound (then zero too) cannot tell; without this, every degenerate triangle
    // (a segment given as `(p, q, q)`) took the exact expansion, three times per normal.
    if (a.x == c.x || b.y == c.y) && (a.y == c.y || b.x == c.x) {
        return 0.0;
    }
    let (l, r) = ((a.x - c.x) * (b.y - c.y), (a.y - c.y) * (b.x - c.x));
    let det = l - r;
    let eps = f64::EPSILON / 2.0;
    let bound = (3.0 + 16.0 * eps) * eps * (l.abs() + r.abs());
    if det > bound || -det > bound {
        return det.signum();
    }
    orient2d_exact(a, b, c)
}

/// [`orient2d`]'s exact stage, out of line: inlined, it made `orient2d` too large to be
/// inlined itself in cargo's default release build (a call for each of the three signs of a
/// triangle's normal).
#[cold]
#[inline(never)]
fn orient2d_exact(a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let products = [(a.x, b.y), (-a.y, b.x), (b.x, c.y), (-b.y, c.x), (c.x, a.y), (-c.y, a.x)]
        .each(|(x, y)| two_product(x, y));
    let mut expansion = [0.0f64; 12];
    let mut len = 0;
    for (hi, lo) in products {
        for term in [lo, hi] {
            grow(&mut expansion, &mut len, term);
        }
    }
    expansion[..len].iter().rev().find(|&&x| x != 0.0).map_or(0.0, |x| x.signum())
}

/// Shewchuk's *Grow-Expansion* step: adds `term` to the first `len` components of
/// `expansion` (nonoverlapping, in increasing magnitude, zeros allowed), exactly, and
/// appends the new largest component.
#[inline]
pub(crate) fn grow(expansion: &mut [f64], len: &mut usize, term: f64) {
    let mut q = term;
    for e in &mut expansion[..*len] {
        let (s, h) = two_sum(q, *e);
        *e = h;
        q = s;
    }
    expansion[*len] = q;
    *len += 1;
}

/// `u`, the unit roundoff of `f64` (`2⁻⁵³`).
const U: f64 = f64::EPSILON / 2.0;

/// The sign (`-1.0`, `0.0` or `1.0`) of the exact sum of `terms`, each an exactly
/// represented value (a product of two `f32` values, or a half of a [`two_product`]).
///
/// A filter first: recursive summation of `n` terms errs by at most `γₙ₋₁ Σ|tᵢ|`,
/// `γₖ = k u / (1 - k u)` (Higham, *Accuracy and Stability of Numerical Algorithms*, 4.2),
/// and the computed `Σ|tᵢ|` is at least `(1 - γₙ₋₁)` times the exact one, so `4 n u` times
/// it (itself rounded by less than the spare factor) bounds the error while `n u < 1/4`. A
/// sum beyond the bound has the sign of the estimate. Otherwise the terms are summed
/// exactly, as in [`orient2d`] (*Grow-Expansion*), and the sign is that of the largest
/// component. Exact for any terms whose partial sums do not overflow (sums never lose bits
/// to underflow: a sum that falls below the normal range is exact).
#[inline]
pub(crate) fn sum_sign<const N: usize>(terms: [f64; N]) -> f64 {
    let (mut sum, mut magnitude) = (0.0, 0.0);
    for t in terms {
        sum += t;
        magnitude += t.abs();
    }
    let bound = 4.0 * N as f64 * U * magnitude;
    if sum > bound || -sum > bound {
        return sum.signum();
    }
    let expansion = grow_expansion(terms);
    expansion.iter().rev().find(|&&x| x != 0.0).map_or(0.0, |x| x.signum())
}

/// The exact sum of `terms` as a nonoverlapping expansion (Shewchuk's *Grow-Expansion*,
/// components in increasing magnitude, zeros allowed).
#[inline]
fn grow_expansion<const N: usize>(terms: [f64; N]) -> [f64; N] {
    let (mut expansion, mut len) = ([0.0f64; N], 0);
    for term in terms {
        grow(&mut expansion, &mut len, term);
    }
    expansion
}

/// The exact sum of `terms` (as for [`sum_sign`]), rounded: the expansion's components
/// added from the smallest up. Its sign is the exact sign, and it is within a few units in
/// the last place of the exact sum (the components do not overlap, so the sum of those
/// below the largest is less than one ulp of it).
#[inline]
pub(crate) fn sum_rounded<const N: usize>(terms: [f64; N]) -> f64 {
    grow_expansion(terms).iter().sum()
}

/// Knuth's *Two-Sum*: `a + b = s + e` exactly, `s` the rounded sum.
#[inline]
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// Dekker's *Two-Product* (Veltkamp splitting): `a b = p + e` exactly, `p` the rounded
/// product (no overflow for the coordinates of `f32` shapes).
#[inline]
pub(crate) fn two_product(a: f64, b: f64) -> (f64, f64) {
    let split = |x: f64| {
        let c = 134_217_729.0 * x; // 2^27 + 1
        let hi = c - (c - x);
        (hi, x - hi)
    };
    let p = a * b;
    let ((ah, al), (bh, bl)) = (split(a), split(b));
    (p, al * bl - (((p - ah * bh) - al * bh) - ah * bl))
}

macro_rules! segment_distance {
    ($Segment:ident, $V:ident, $d:ident, $f:ident) => {
        impl Distance<$Segment> for $Segment {
            type Point = $V;

            #[inline]
            fn distance(&self, other: &$Segment) -> f32 {
                let c = segment_segment_closest(
                    ($d(self.start()), $d(self.end())),
                    ($d(other.start()), $d(other.end())),
                );
                // Zero exactly when the kernel says the segments meet.
                if c.distance > 0.0 { (c.distance as f32).max(f32::MIN_POSITIVE) } else { 0.0 }
            }

            #[inline]
            fn closest_points(&self, other: &$Segment) -> ($V, $V) {
                let c = segment_segment_closest(
                    ($d(self.start()), $d(self.end())),
                    ($d(other.start()), $d(other.end())),
                );
                ($f(c.on_a), $f(c.on_b))
            }
        }
    };
}

segment_distance!(Segment2, Vec2, d2, f2);

/// The kernel on two 3D segments.
#[inline]
fn segment3_closest(a: &Segment3, b: &Segment3) -> Closest {
    segment_segment_closest((d3(a.start()), d3(a.end())), (d3(b.start()), d3(b.end())))
}

/// In 3D the kernel's clamped closest points round, so the exact overlap test of
/// `overlap/segment_segment.rs` decides the zero instead: crossing segments are at distance
/// zero even when the rounded closest points are a hair apart, and segments that miss by
/// one `f32` step are never at distance zero.
impl Distance<Segment3> for Segment3 {
    type Point = Vec3;

    #[inline]
    fn distance(&self, other: &Segment3) -> f32 {
        if self.overlaps(other) {
            return 0.0;
        }
        (segment3_closest(self, other).distance as f32).max(f32::MIN_POSITIVE)
    }

    #[inline]
    fn closest_points(&self, other: &Segment3) -> (Vec3, Vec3) {
        let c = segment3_closest(self, other);
        if c.distance > 0.0 && self.overlaps(other) {
            // They meet; the rounded points are a hair apart: one point between them.
            let m = f3((c.on_a + c.on_b) * 0.5);
            return (m, m);
        }
        (f3(c.on_a), f3(c.on_b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_crossing_and_parallel() {
        let a = Segment3::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
        let b = Segment3::new(Vec3::new(0.5, -1.0, 2.0), Vec3::new(0.5, 1.0, 2.0));
        assert_eq!(a.distance(&b), 2.0);
        assert_eq!(a.closest_points(&b), (Vec3::new(0.5, 0.0, 0.0), Vec3::new(0.5, 0.0, 2.0)));
        let x = Segment2::new(Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0));
        let y = Segment2::new(Vec2::new(-1.0, 1.0), Vec2::new(1.0, -1.0));
        assert_eq!(x.distance(&y), 0.0);
        let p = Segment2::new(Vec2::new(0.0, 3.0), Vec2::new(5.0, 3.0));
        assert_eq!(Segment2::new(Vec2::ZERO, Vec2::new(2.0, 0.0)).distance(&p), 3.0);
    }

    fn p(x: f32, y: f32) -> DVec3 {
        DVec3::new(f64::from(x), f64::from(y), 0.0)
    }

    #[test]
    fn orientation_is_exact_where_the_estimate_is_not() {
        // On the line y = x, far from the origin: the estimate rounds, the sign does not.
        let (a, b) = (DVec3::new(0.5, 0.5, 0.0), DVec3::new(12.0, 12.0, 0.0));
        let on = DVec3::new(24.0, 24.0, 0.0);
        assert_eq!(orient2d(a, b, on), 0.0);
        let step = f64::EPSILON * 24.0;
        assert_eq!(orient2d(a, b, DVec3::new(24.0, 24.0 + step, 0.0)), 1.0);
        assert_eq!(orient2d(a, b, DVec3::new(24.0 + step, 24.0, 0.0)), -1.0);
        // Shewchuk's example: a within a few ulps of (0.5, 0.5), on or off the line through
        // (12, 12) and (24, 24). The estimate gets most signs wrong and its error bound
        // defers every one to the exact sum; check them against an exact integer
        // determinant (these values are multiples of 2^-54).
        let int = |x: f64| (x * 2f64.powi(54)) as i128;
        let ulps = |x: f64, k: i64| f64::from_bits(x.to_bits().wrapping_add_signed(k));
        let (b, c) = (DVec3::new(12.0, 12.0, 0.0), DVec3::new(24.0, 24.0, 0.0));
        for i in -8..=8 {
            for j in -8..=8 {
                let a = DVec3::new(ulps(0.5, i), ulps(0.5, j), 0.0);
                let det = (int(a.x) - int(c.x)) * (int(b.y) - int(c.y))
                    - (int(a.y) - int(c.y)) * (int(b.x) - int(c.x));
                assert_eq!(orient2d(a, b, c), det.signum() as f64, "{a:?}");
            }
        }
        // f32 points within a few ulps of a line through two f32 points, against the
        // exact integer determinant (these f32 values are multiples of 2^-27).
        let int = |x: f32| (f64::from(x) * 2f64.powi(27)) as i128;
        let (u, v) = ((0.1f32, 0.3f32), (0.7f32, 2.1f32)); // y = 3x, up to rounding
        let nudge = |x: f32, k: i32| f32::from_bits(x.to_bits().wrapping_add_signed(k));
        for i in -4..=4 {
            for j in -4..=4 {
                let w = (nudge(0.4, i), nudge(1.2, j));
                let det = (int(v.0) - int(u.0)) * (int(w.1) - int(u.1))
                    - (int(v.1) - int(u.1)) * (int(w.0) - int(u.0));
                let got = orient2d(p(u.0, u.1), p(v.0, v.1), p(w.0, w.1));
                assert_eq!(got, det.signum() as f64, "{w:?}");
            }
        }
    }

    #[test]
    fn sums_of_exact_terms_keep_their_sign() {
        // The f64 estimate of 2^100 - 1 - 2^100 is 0; the exact sum is -1.
        let big = 2f64.powi(100);
        assert_eq!(sum_sign([big, -1.0, -big]), -1.0);
        assert_eq!(sum_sign([big, 1.0, -big]), 1.0);
        assert_eq!(sum_sign([big, -big, 0.0]), 0.0);
        assert_eq!(sum_sign([0.0; 4]), 0.0);
        assert_eq!(sum_rounded([big, 1.0, -big, 2f64.powi(-200)]), 1.0 + 2f64.powi(-200));
        // Products of f32 values of far-apart scales, as the ray cast forms them.
        let (a, b) = (f64::from(1.0e30f32), f64::from(3.0e-30f32));
        assert_eq!(sum_sign([a * a, a * b, -(a * a)]), 1.0);
    }

    #[test]
    fn nearly_parallel_crossing_segments_meet_in_both_orders() {
        // The case `capsule2_pairs` found (GJK said "apart by 4e-12" in one order).
        let c = (p(-1.3340487, 0.6720245), p(1.6826805, -0.41062155));
        let d = (p(0.44748405, 0.029433675), p(1.9915029, -0.50065047));
        let (cd, dc) = (segment_segment_closest(c, d), segment_segment_closest(d, c));
        assert_eq!((cd.distance, dc.distance), (0.0, 0.0));
        assert_eq!((cd.on_a, cd.on_b), (dc.on_b, dc.on_a));
        assert!(cd.on_a.distance(crate::query::closest::closest_point_on_segment(cd.on_a, d.0, d.1)) < 1e-12);
    }

    /// Segments crossing at `(6, 4, -3) / 7`: RTCD's clamped closest points of the two lines
    /// round to `3.7e-16` apart (the kernel's distance, a foot's cross product, now comes
    /// out 0 here), but the exact test says they meet, and so does the distance. One step
    /// off, they are apart.
    #[test]
    fn crossing_at_a_point_that_is_not_an_f64() {
        let a = Segment3::new(Vec3::new(2.0, 0.0, -1.0), Vec3::new(0.0, 1.0, 0.0));
        let b = Segment3::new(Vec3::new(0.0, -2.0, 3.0), Vec3::new(1.0, 1.0, -1.0));
        assert_eq!((a.distance(&b), b.distance(&a)), (0.0, 0.0));
        let (p, q) = a.closest_points(&b);
        assert!(p == q && (p - Vec3::new(6.0, 4.0, -3.0) / 7.0).length() < 1e-6, "{p} {q}");
        let off = Segment3::new(b.start(), Vec3::new(1.0, 1.0, f32::from_bits((-1.0f32).to_bits() + 1)));
        assert!(!a.overlaps(&off) && a.distance(&off) > 0.0 && a.distance(&off) < 1e-6);
    }

    #[test]
    fn touching_collinear_and_degenerate_segments() {
        let x = (p(0.0, 0.0), p(4.0, 0.0));
        // An end on the other segment; a T; collinear overlap; collinear and apart.
        assert_eq!(segment_segment_closest(x, (p(4.0, 0.0), p(5.0, 3.0))).distance, 0.0);
        assert_eq!(segment_segment_closest(x, (p(1.5, 0.0), p(1.5, 3.0))).distance, 0.0);
        assert_eq!(segment_segment_closest(x, (p(3.0, 0.0), p(9.0, 0.0))).distance, 0.0);
        assert_eq!(segment_segment_closest(x, (p(5.0, 0.0), p(9.0, 0.0))).distance, 1.0);
        // Points (zero-length segments), on and off.
        assert_eq!(segment_segment_closest(x, (p(2.0, 0.0), p(2.0, 0.0))).distance, 0.0);
        let off = segment_segment_closest((p(2.0, 1.0), p(2.0, 1.0)), x);
        assert_eq!((off.distance, off.on_a, off.on_b), (1.0, p(2.0, 1.0), p(2.0, 0.0)));
        // Apart by a hair: never zero.
        let hair = f32::from_bits(1);
        assert!(segment_segment_closest(x, (p(1.0, hair), p(3.0, 1.0))).distance > 0.0);
        // Parallel lines, not collinear.
        assert_eq!(segment_segment_closest(x, (p(1.0, 2.0), p(3.0, 2.0))).distance, 2.0);
    }
}
