//! Points against segments, and segment against segment: Ericson, *Real-Time Collision
//! Detection*, 5.1.2 (point) and 5.1.9 (two segments), in `f64`.

use glam::{DVec3, Vec2, Vec3};

use crate::query::distance::{d2, d3, f2, f3};
use crate::{Capsule2, Capsule3, ClosestPoint, ContainsPoint, Segment2, Segment3};

/// The point of the segment `[p, q]` nearest to `x`, measured from the end nearer to it
/// ([`foot`]).
#[inline]
pub(crate) fn closest_point_on_segment(x: DVec3, p: DVec3, q: DVec3) -> DVec3 {
    match foot(x, p, q) {
        Foot::End(e) => e,
        Foot::Inside { end, d, s, .. } => end + d * s,
    }
}

/// The point of the segment `[p, q]` nearest to `x` ([`closest_point_on_segment`]) and its
/// squared distance from `x`.
///
/// For a foot inside the segment the distance is `|(x - e) × d| / |d|` (`e` the end it is
/// measured from), not `|x - foot|`: the foot's rounding along the segment (up to an ulp
/// of its coordinates) would add to the distance in quadrature: a point 0.00977 from the
/// middle of a segment reaching to `1e15` was 0.125 from its computed foot. The cross
/// product's rounding is that of its terms, about the distance times `|d|`, and of `x - e`.
#[inline]
pub(crate) fn closest_point_and_squared_distance(x: DVec3, p: DVec3, q: DVec3) -> (DVec3, f64) {
    match foot(x, p, q) {
        Foot::End(e) => (e, x.distance_squared(e)),
        Foot::Inside { end, off, d, dd, s } => (end + d * s, off.cross(d).length_squared() / dd),
    }
}

/// Where the point of the segment `[p, q]` nearest to `x` lies.
enum Foot {
    /// At this end (or the segment is this one point).
    End(DVec3),
    /// At `end + d s`, with `d = q - p`, `dd = |d|²` and `off = x - end`.
    Inside { end: DVec3, off: DVec3, d: DVec3, dd: f64, s: f64 },
}

/// The foot of `x` on the segment `[p, q]`, measured from the end nearer to it.
///
/// RTCD 5.1.2's `p + t (q - p)` is rounded at the size of `p`, and `t` carries the
/// rounding of `x - p`: for a point near `q`, with `p` far away, both are far coarser than
/// the coordinates near `q`. (With `p` near `1e15` and `q` at `(-11.3, -5.9, 2.2)`, the
/// point `(-34.5, 12.6, 55.7)` got a closest point 0.25 from the exact one and 0.14 off
/// the line, `tests/segment_closest_exact.rs`.) So when the foot falls in the half of the
/// segment nearer `q` (`t > 1/2`, as `x - p` puts it), it is taken as `q + u d` with
/// `u = (x - q) · d / |d|²`, about `-1/2..0` (`t - 1` in exact arithmetic, computed
/// directly from `x - q`), and its error is then a few ulps of `q`, of the foot and of
/// `|x - q|`, as it is of `p`, the foot and `|x - p|` on the other half. Which end is used
/// can only be wrong for a foot within rounding of the middle, where both are as good.
#[inline]
fn foot(x: DVec3, p: DVec3, q: DVec3) -> Foot {
    let d = q - p;
    let dd = d.length_squared();
    if dd == 0.0 {
        return Foot::End(p);
    }
    let off = x - p;
    let t = off.dot(d) / dd;
    if t <= 0.5 {
        if t <= 0.0 { Foot::End(p) } else { Foot::Inside { end: p, off, d, dd, s: t } }
    } else {
        let off = x - q;
        let u = off.dot(d) / dd;
        if u >= 0.0 { Foot::End(q) } else { Foot::Inside { end: q, off, d, dd, s: u } }
    }
}

/// The closest pair of points of the segments `[p1, q1]` and `[p2, q2]` (one of the
/// pairs, when the segments are parallel), as `(on the first, on the second)`.
///
/// [`closest_pair_segment_segment`] without the distance.
#[inline]
pub(crate) fn closest_points_segment_segment(a: (DVec3, DVec3), b: (DVec3, DVec3)) -> (DVec3, DVec3) {
    let (on_a, on_b, _) = closest_pair_segment_segment(a, b);
    (on_a, on_b)
}

/// The closest pair of points of the segments `[p1, q1]` and `[p2, q2]` and their squared
/// distance, as `(on the first, on the second, squared distance)`.
///
/// Minimise `|p1 + s d1 - (p2 + t d2)|²` over `s, t ∈ [0, 1]`: solve for the lines'
/// closest `s`, clamp it, take the `t` nearest to that point, clamp it and, if it was
/// clamped, recompute `s` (RTCD 5.1.9, [`solve_by_dots`]). That solve, from `p1` and `p2`,
/// only tells which half of each segment the pair is in; it is solved again from the ends
/// of those halves ([`pair_from_nearer_ends`]), and the points and the distance are
/// computed from them ([`finish_pair`]).
#[inline]
pub(crate) fn closest_pair_segment_segment(a: (DVec3, DVec3), b: (DVec3, DVec3)) -> (DVec3, DVec3, f64) {
    pair_from_nearer_ends(a, b, solve_by_dots)
}

/// [`closest_pair_segment_segment`]'s points with the lines' closest parameter taken from
/// cross products ([`solve_by_cross`]): for segments at a small angle `θ` its pair is near
/// the lines' common perpendicular to `ε / θ` of their length, not to `ε / θ²`.
#[inline]
pub(crate) fn closest_points_segment_segment_by_cross(
    a: (DVec3, DVec3),
    b: (DVec3, DVec3),
) -> (DVec3, DVec3) {
    let (on_a, on_b, _) = pair_from_nearer_ends(a, b, solve_by_cross);
    (on_a, on_b)
}

/// RTCD 5.1.9's parameters `(s, t)` of the closest pair of `p1 + s d1` and `p2 + t d2`,
/// and whether `t` was clamped (then `s` is the foot of that end of the second segment).
type Solution = (f64, f64, bool);

/// RTCD 5.1.9, the lines' closest `s = (b f - c e) / (a e - b²)` from dot products.
#[inline]
fn solve_by_dots((p1, q1): (DVec3, DVec3), (p2, q2): (DVec3, DVec3)) -> Solution {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    if a == 0.0 {
        return (0.0, if e == 0.0 { 0.0 } else { (f / e).clamp(0.0, 1.0) }, false); // a point
    }
    let c = d1.dot(r);
    if e == 0.0 {
        return ((-c / a).clamp(0.0, 1.0), 0.0, true); // the second segment is a point
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b; // >= 0; zero for parallel segments
    let s = if denom > 0.0 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
    let t = (b * s + f) / e;
    if t < 0.0 {
        ((-c / a).clamp(0.0, 1.0), 0.0, true)
    } else if t > 1.0 {
        (((b - c) / a).clamp(0.0, 1.0), 1.0, true)
    } else {
        (s, t, false)
    }
}

/// [`solve_by_dots`] with the lines' closest `s` from cross products.
///
/// RTCD 5.1.9's `s = (b f - c e) / (a e - b²)` subtracts products of dot products that
/// agree to `cos² θ`; by Lagrange's identity `(u × v) · (w × x) = (u · w)(v · x) - (u · x)(v · w)`
/// the same quotient is `m · (d₂ × r) / |m|²` with `m = d₁ × d₂`, whose terms are of the size
/// of the result. At a slant of `1e-7` the dot form moves the pair along the segments by
/// about `1e-2` of their length, and the direction between the points, for segments closer
/// than `θ` times that, turns with it (the contact normal of a capsule along a triangle's
/// edge, `distance/triangle_segment.rs`). The rest (clamping, and the point of one segment
/// nearest to the other's clamped point, a projection) is RTCD's.
#[inline]
fn solve_by_cross((p1, q1): (DVec3, DVec3), (p2, q2): (DVec3, DVec3)) -> Solution {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e) = (d1.length_squared(), d2.length_squared());
    if a == 0.0 || e == 0.0 {
        return solve_by_dots((p1, q1), (p2, q2)); // a point: no angle
    }
    let m = d1.cross(d2);
    let mm = m.length_squared(); // zero for parallel segments: any s, take 0
    let s = if mm > 0.0 { (m.dot(d2.cross(r)) / mm).clamp(0.0, 1.0) } else { 0.0 };
    let t = (p1 + d1 * s - p2).dot(d2) / e;
    let foot = |x: DVec3| ((x - p1).dot(d1) / a).clamp(0.0, 1.0);
    if t < 0.0 {
        (foot(p2), 0.0, true)
    } else if t > 1.0 {
        (foot(q2), 1.0, true)
    } else {
        (s, t, false)
    }
}

/// The closest pair, solved from the ends nearer to it.
///
/// `solve` from `p1` and `p2` rounds `r = p1 - p2` at the size of the larger: for a pair
/// by the near ends of segments reaching to `1e15` its `s` and `t` (and so which ends or
/// insides the pair is at) are off by up to `0.06 / |d|` and more. Their halves are right
/// but for a pair within rounding of a middle, where either end is as good; so each segment
/// whose pair is in its far half (`s` or `t` above `1/2`) is turned around and the pair
/// solved again from the ends nearer to it.
#[inline]
fn pair_from_nearer_ends(
    (p1, q1): (DVec3, DVec3),
    (p2, q2): (DVec3, DVec3),
    solve: impl Fn((DVec3, DVec3), (DVec3, DVec3)) -> Solution,
) -> (DVec3, DVec3, f64) {
    let (mut a, mut b) = ((p1, q1), (p2, q2));
    let (s, t, clamped) = solve(a, b);
    let solution = if s > 0.5 || t > 0.5 {
        if s > 0.5 {
            a = (q1, p1);
        }
        if t > 0.5 {
            b = (q2, p2);
        }
        solve(a, b)
    } else {
        (s, t, clamped)
    };
    finish_pair(classify(solution, a, b), a, b)
}

/// Which pair of two segments RTCD 5.1.9's clamped solve found.
enum Pair {
    /// This end of the first segment, and its foot on the second.
    FirstEnd(DVec3),
    /// This end of the second segment, and its foot on the first.
    SecondEnd(DVec3),
    /// A point inside each, near the lines' parameters `s` and `t` (both in `(0, 1)`).
    Inside(f64, f64),
}

/// The pair of a [`Solution`]: an end of the second segment when `t` was clamped, an end of
/// the first when `s` is at one, inside both otherwise.
#[inline]
fn classify((s, t, clamped): Solution, (p1, q1): (DVec3, DVec3), (p2, q2): (DVec3, DVec3)) -> Pair {
    if clamped {
        Pair::SecondEnd(if t > 0.5 { q2 } else { p2 })
    } else if s <= 0.0 {
        Pair::FirstEnd(p1)
    } else if s >= 1.0 {
        Pair::FirstEnd(q1)
    } else {
        Pair::Inside(s, t)
    }
}

/// The points and squared distance of a [`Pair`], measured from the ends nearer to them.
///
/// RTCD's `p1 + s d1` is rounded at the size of `p1`, and `s` carries the rounding of
/// `p1 - p2`: for segments reaching to `1e15`, a segment rising from a point 2.033 from the
/// near end of another came out 2.055 from it, and the distance `|on_a - on_b|` took the
/// points' rounding along the segments (0.06 at `5e14`) in full, 0.125 for a segment whose
/// end is 0.00977 from the middle of a long one (`tests/segment_pair_exact.rs`). So:
///
/// - an end of one segment and its foot on the other: the point query
///   ([`closest_point_and_squared_distance`]: the foot from the nearer end, the distance
///   by a cross product);
/// - inside both: of the two points, the one nearer an end of its segment (`min(s, 1 - s)`
///   times the length, against `min(t, 1 - t)` times the other's) is recomputed from that
///   end, `e₁ + d₁ σ` with `σ = m · (d₂ × r) / |m|²` (or `e₂ + d₂ τ`,
///   `τ = m · (d₁ × r) / |m|²`), `m = d₁ × d₂`, `r = e₁ - e₂` for the ends `e₁`, `e₂`
///   nearer the points, `σ` about `s` or `s - 1` computed directly (the cross form of the
///   lines' closest parameters, [`closest_points_segment_segment_by_cross`]); and the
///   other point is its foot on the other segment, with the distance, by the point query.
///
/// Each answer's distance is that of a point of one segment from the other segment: never
/// below the exact distance by more than the rounding of the point query.
#[inline]
fn finish_pair(pair: Pair, (p1, q1): (DVec3, DVec3), (p2, q2): (DVec3, DVec3)) -> (DVec3, DVec3, f64) {
    match pair {
        Pair::FirstEnd(x) => {
            let (y, dd) = closest_point_and_squared_distance(x, p2, q2);
            (x, y, dd)
        }
        Pair::SecondEnd(y) => {
            let (x, dd) = closest_point_and_squared_distance(y, p1, q1);
            (x, y, dd)
        }
        Pair::Inside(s, t) => {
            let (d1, d2) = (q1 - p1, q2 - p2);
            let (e1, lo1) = if s > 0.5 { (q1, -1.0) } else { (p1, 0.0) };
            let (e2, lo2) = if t > 0.5 { (q2, -1.0) } else { (p2, 0.0) };
            let (m, r) = (d1.cross(d2), e1 - e2);
            let mm = m.length_squared();
            let (u, v) = (s.min(1.0 - s), t.min(1.0 - t));
            if u * u * d1.length_squared() <= v * v * d2.length_squared() {
                let sigma = if mm > 0.0 { m.dot(d2.cross(r)) / mm } else { s + lo1 };
                let x = e1 + d1 * sigma.clamp(lo1, lo1 + 1.0);
                let (y, dd) = closest_point_and_squared_distance(x, p2, q2);
                (x, y, dd)
            } else {
                let tau = if mm > 0.0 { m.dot(d1.cross(r)) / mm } else { t + lo2 };
                let y = e2 + d2 * tau.clamp(lo2, lo2 + 1.0);
                let (x, dd) = closest_point_and_squared_distance(y, p1, q1);
                (x, y, dd)
            }
        }
    }
}

macro_rules! segment_point_impls {
    ($Segment:ident, $Capsule:ident, $V:ident, $d:ident, $f:ident, $holds:ident) => {
        // `$holds(capsule, point, dd)`: does the capsule hold the point, `dd` being the
        // point's squared distance from the core (which the 3D test is, and the 2D ignores).
        impl ContainsPoint for $Segment {
            type Point = $V;

            /// `true` when `point` is on the segment: its distance to the segment, computed in
            /// `f64`, is zero (exact for points on axis-aligned segments and at the ends).
            #[inline]
            fn contains_point(&self, point: $V) -> bool {
                let x = $d(point);
                x == closest_point_on_segment(x, $d(self.start()), $d(self.end()))
            }
        }

        impl ClosestPoint for $Segment {
            type Point = $V;

            #[inline]
            fn closest_point(&self, point: $V) -> $V {
                $f(closest_point_on_segment($d(point), $d(self.start()), $d(self.end())))
            }

            #[inline]
            fn distance_to_point(&self, point: $V) -> f32 {
                let x = $d(point);
                closest_point_and_squared_distance(x, $d(self.start()), $d(self.end())).1.sqrt() as f32
            }
        }

        impl ContainsPoint for $Capsule {
            type Point = $V;

            /// `true` when `point` is within `radius` of the core segment (exact in 2D, the
            /// disc–segment test of `overlap/sphere_segment.rs`; squared, in `f64`, in 3D).
            #[inline]
            fn contains_point(&self, point: $V) -> bool {
                let dd = || closest_point_and_squared_distance($d(point), $d(self.start()), $d(self.end())).1;
                $holds(self, point, dd)
            }
        }

        impl ClosestPoint for $Capsule {
            type Point = $V;

            #[inline]
            fn closest_point(&self, point: $V) -> $V {
                let x = $d(point);
                let (c, dd) = closest_point_and_squared_distance(x, $d(self.start()), $d(self.end()));
                let (d, r) = (dd.sqrt(), f64::from(self.radius()));
                if d <= r || $holds(self, point, || dd) { point } else { $f(c + (x - c) * (r / d)) }
            }

            /// Zero exactly when the capsule contains the point.
            #[inline]
            fn distance_to_point(&self, point: $V) -> f32 {
                let dd = closest_point_and_squared_distance($d(point), $d(self.start()), $d(self.end())).1;
                if $holds(self, point, || dd) {
                    return 0.0;
                }
                ((dd.sqrt() - f64::from(self.radius())) as f32).max(f32::MIN_POSITIVE)
            }
        }
    };
}

/// A 2D capsule holds a point within its radius of the core: the exact disc–segment test
/// (the `f64` squared distance read a point exactly on the rim, (2, 1) for the capsule
/// (6, -1)-(2, -4) of radius 4, as outside).
#[inline]
fn capsule2_holds(c: &Capsule2, p: Vec2, _: impl FnOnce() -> f64) -> bool {
    crate::Overlaps::overlaps(&crate::Circle::new(p, c.radius()), &c.segment())
}

/// A 3D capsule holds a point within its radius of the core: `dd`, the point's squared
/// distance from the core ([`closest_point_and_squared_distance`]), at most `r²`.
#[inline]
fn capsule3_holds(c: &Capsule3, _: Vec3, dd: impl FnOnce() -> f64) -> bool {
    let r = f64::from(c.radius());
    dd() <= r * r
}

segment_point_impls!(Segment2, Capsule2, Vec2, d2, f2, capsule2_holds);
segment_point_impls!(Segment3, Capsule3, Vec3, d3, f3, capsule3_holds);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_parallel_and_degenerate_segments() {
        let x = |a: f64, b: f64, c: f64| DVec3::new(a, b, c);
        // Skew: the x axis segment and a segment along y one unit above.
        let (a, b) = closest_points_segment_segment(
            (x(-1., 0., 0.), x(1., 0., 0.)),
            (x(0.5, -1., 1.), x(0.5, 1., 1.)),
        );
        assert_eq!((a, b), (x(0.5, 0., 0.), x(0.5, 0., 1.)));
        // Parallel and overlapping: some pair at distance 2.
        let (a, b) =
            closest_points_segment_segment((x(0., 0., 0.), x(4., 0., 0.)), (x(1., 2., 0.), x(6., 2., 0.)));
        assert_eq!((a - b).length(), 2.0);
        // Beyond the end: clamped to the endpoints.
        let (a, b) =
            closest_points_segment_segment((x(0., 0., 0.), x(1., 0., 0.)), (x(3., 1., 0.), x(3., 5., 0.)));
        assert_eq!((a, b), (x(1., 0., 0.), x(3., 1., 0.)));
        // Points.
        let (a, b) =
            closest_points_segment_segment((x(1., 1., 1.), x(1., 1., 1.)), (x(0., 0., 0.), x(2., 0., 0.)));
        assert_eq!((a, b), (x(1., 1., 1.), x(1., 0., 0.)));
        assert_eq!(closest_point_on_segment(x(5., 5., 0.), x(0., 0., 0.), x(2., 0., 0.)), x(2., 0., 0.));
    }

    #[test]
    fn points_against_segments_and_capsules() {
        let s = Segment2::new(Vec2::ZERO, Vec2::new(4.0, 0.0));
        assert!(s.contains_point(Vec2::new(4.0, 0.0)) && s.contains_point(Vec2::new(1.5, 0.0)));
        assert!(!s.contains_point(Vec2::new(1.5, 1e-7)) && !s.contains_point(Vec2::new(4.5, 0.0)));
        assert_eq!(s.distance_to_point(Vec2::new(7.0, 4.0)), 5.0);
        let c = Capsule3::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 1.0);
        assert!(c.contains_point(Vec3::new(0.0, 3.0, 0.0)) && !c.contains_point(Vec3::new(0.8, 2.8, 0.0)));
        assert_eq!(c.closest_point(Vec3::new(3.0, 1.0, 0.0)), Vec3::new(1.0, 1.0, 0.0));
        assert_eq!(c.distance_to_point(Vec3::new(0.0, -4.0, 0.0)), 3.0);
        assert_eq!(c.closest_point(Vec3::new(0.5, 1.0, 0.0)), Vec3::new(0.5, 1.0, 0.0));
    }
}
