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
fn cross_terms(a: Vec2, b: Vec2, c: Vec2) -> [f64; 4] {
    let (ax, ay) = (f64::from(a.x), f64::from(a.y));
    let (bx, by, cx, cy) = (f64::from(b.x), f64::from(b.y), f64::from(c.x), f64::from(c.y));
    [ax * by, -(ax * cy), -(ay * bx), ay * cx]
}

/// `tau` times each of four exact products `x y` (`x`, `y` and `tau` being `f32` values),
/// each as the exact pair of a [`two_product`]: `tau x` is exact, `(tau x) y` is not.
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
fn unit(v: DVec2) -> Vec2 {
    (v / v.length()).as_vec2()
}

/// The ray–segment kernel; see the module docs.
fn ray_segment2(ray: &Ray2, p: Vec2, q: Vec2) -> Option<SegmentHit> {
    let (o, d) = (ray.origin(), ray.dir());
    let (t_min, t_max) = (ray.t_min(), ray.t_max());
    let side_p = sum_sign(cross_terms(d, p, o));
    let side_q = sum_sign(cross_terms(d, q, o));
    if side_p * side_q > 0.0 {
        return None; // both ends strictly on one side of the ray's line
    }
    if side_p == 0.0 && side_q == 0.0 {
        return collinear(ray, p, q);
    }
    // The lines cross at one point of the segment: t = num / den with
    // num = cross(p - o, q - o) (= cross(p - o, q - p)) and den = cross(d, q - p).
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
    let den_sign = sum_sign(den); // non-zero: the lines are not parallel
    let den_pairs = [(d.x, q.y), (d.x, p.y), (d.y, q.x), (d.y, p.x)];
    // sign(t - tau) = sign(den) · sign(num - tau den), tau finite.
    let compare = |tau: f32| {
        let scaled = scaled_terms(tau, den_pairs);
        let mut terms = [0.0; 14];
        terms[..6].copy_from_slice(&num);
        // - tau den: den's terms carry their signs in the pairs' order above.
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
    let point = Vec2::from_array(point_at(o.to_array(), d.to_array(), span.t_enter));
    let normal = if starts_on {
        Vec2::ZERO
    } else {
        // perp(e) = (-e.y, e.x) has perp(e)·d = -cross(d, e): it faces the ray's origin
        // side when den > 0.
        let e = q.as_dvec2() - p.as_dvec2();
        unit(DVec2::new(-e.y, e.x) * den_sign)
    };
    Some(SegmentHit { span, point, normal })
}

/// The segment on the ray's line: the ends' parameters, clipped.
fn collinear(ray: &Ray2, p: Vec2, q: Vec2) -> Option<SegmentHit> {
    let (o, d) = (ray.origin(), ray.dir());
    let (t_min, t_max) = (ray.t_min(), ray.t_max());
    // Measure along the larger component of d (non-zero, as d is).
    let k = usize::from(d.x.abs() < d.y.abs());
    let dk_sign = f64::from(d[k].signum());
    // sign(t_a - tau) for an end a on the line (a = o + t_a d exactly).
    let compare = |a: Vec2, tau: f32| {
        dk_sign * sum_sign([f64::from(a[k]), -f64::from(o[k]), -(f64::from(tau) * f64::from(d[k]))])
    };
    let param = |a: Vec2| (f64::from(a[k]) - f64::from(o[k])) / f64::from(d[k]);
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
    let t_enter = if starts_on { lo } else { param(first).clamp(lo, hi) };
    let t_exit = if max_finite && compare(last, t_max) >= 0.0 { hi } else { param(last).clamp(lo, hi) };
    let span = f32_span(t_enter, t_exit)?;
    let (point, normal) = if starts_on {
        (Vec2::from_array(point_at(o.to_array(), d.to_array(), span.t_enter)), Vec2::ZERO)
    } else {
        // Reaching the first end from outside, along the segment: the normal points back
        // toward the ray.
        (first, unit(-d.as_dvec2()))
    };
    Some(SegmentHit { span, point, normal })
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

    fn ray_span(&self, ray: &Ray2) -> Option<RaySpan> {
        ray_segment2(ray, self.start(), self.end()).map(|h| h.span)
    }

    fn cast_ray(&self, ray: &Ray2) -> Option<RayHit2> {
        ray_segment2(ray, self.start(), self.end()).map(|h| RayHit2 {
            t: h.span.t_enter,
            point: h.point,
            normal: h.normal,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
