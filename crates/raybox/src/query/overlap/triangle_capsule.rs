//! Triangle against capsule (3D): the capsule's core segment `[p, q]` is within the radius
//! `r` of the closed triangle (no GJK).
//!
//! The distance between a segment and a triangle is zero when the segment meets the
//! triangle, and otherwise the least of the distances from `p` and from `q` to the triangle
//! and from the segment to each of the triangle's three edges (Ericson, *Real-Time
//! Collision Detection*, 5.1.10: a segment that does not cross the triangle has a closest
//! pair with an end of the segment, or with a point of the triangle's boundary). So:
//!
//! 1. The boxes of the segment and of the triangle more than `r` apart: apart (a lower
//!    bound of the distance, decided with a margin above its rounding, as in
//!    `sphere_triangle.rs`, so that this answer is the exact one).
//! 2. An end within `r` of the triangle (its closest point, RTCD 5.1.5), or the segment
//!    within `r` of an edge (RTCD 5.1.9): overlap, on squared distances in `f64` from the
//!    `f32` inputs where they clear a band around `r²` far wider than their rounding
//!    (`near_touching`); inside the band, the exact decompositions (an end against the
//!    triangle by `ball_within_triangle`, the core against an edge by
//!    `segment_within_3d_exact`).
//! 3. Otherwise, the segment crossing the triangle: the exact test of
//!    `triangle_segment.rs` (Shewchuk's orientation predicates).
//!
//! A zero radius skips step 2: the capsule is then its segment, and the answer is the
//! exact triangle–segment answer for any finite inputs. A zero-length segment is its ball.

use crate::arrays::{Each, all_equal};
use glam::{DVec3, Vec3};

use super::capsule_segment::segment_within_3d_exact;
use super::normals::{cross_dot_sign, volume_within};
use super::orient::{normal_signs, orient3d};
use super::sphere_segment::ball_segment_3d;
use super::triangle_segment::triangle_segment_meet;
use super::triangle_triangle::triangle_segment_overlap;
use crate::query::closest::{closest_point_on_triangle, closest_points_segment_segment};
use crate::query::reverse_overlaps;
use crate::{Capsule3, Overlaps, Triangle3};

/// `2⁻⁴⁰`: the relative margin by which the box test must clear `r²`.
const MARGIN: f64 = 1.0 / (1u64 << 40) as f64;

/// Whether the capsule with core `[p, q]` and radius `r` shares a point with the closed
/// triangle `t` (see the module docs).
#[inline]
pub(crate) fn capsule_triangle_overlap(p: Vec3, q: Vec3, r: f32, t: [Vec3; 3]) -> bool {
    let rr = f64::from(r) * f64::from(r);
    let (pd, qd) = (p.as_dvec3(), q.as_dvec3());
    let v = t.each(Vec3::as_dvec3);
    // 1. The boxes' gap: per axis a difference of `f32` values (within `u` in `f64`), the
    // sum of squares within `4u` more; `2⁻⁴⁰` clears both.
    let (lo, hi) = (v[0].min(v[1]).min(v[2]), v[0].max(v[1]).max(v[2]));
    let gap = (lo - pd.max(qd)).max(pd.min(qd) - hi).max(DVec3::ZERO);
    if gap.length_squared() > rr * (1.0 + MARGIN) {
        return false;
    }
    // 2. An end near the face, or the body near an edge; near touching (within
    // `near_touching` of `r²`), the exact decomposition instead.
    if r > 0.0 {
        let margin = near_touching([pd, qd, v[0], v[1], v[2]], r);
        let mut near = false;
        let mut within = |d2: f64| {
            near |= (d2 - rr).abs() <= margin;
            d2 <= rr - margin
        };
        let end_d2 = |x: DVec3| x.distance_squared(closest_point_on_triangle(x, v));
        if within(end_d2(pd)) || within(end_d2(qd)) {
            return true;
        }
        for i in 0..3 {
            let (on_s, on_e) = closest_points_segment_segment((pd, qd), (v[i], v[(i + 1) % 3]));
            if within(on_s.distance_squared(on_e)) {
                return true;
            }
        }
        if near && segment_within_triangle_exact(p, q, r, t) {
            return true;
        }
    }
    // 3. Through the face (or, for a zero radius, touching it anywhere).
    segment_meets_triangle(t, p, q)
}

/// The band around `r²` within which a squared distance from `closest_point_on_triangle`
/// or `closest_points_segment_segment` (in `f64`, their points within a few hundred `u` of
/// the coordinates' scale `S`) may be on the wrong side: `2⁻³⁰ S (S + r)`, far above that
/// rounding and far below any lattice step.
#[inline]
pub(crate) fn near_touching(points: [DVec3; 5], r: f32) -> f64 {
    let s = points.iter().fold(0.0f64, |m, x| m.max(x.abs().max_element()));
    s * (s + f64::from(r)) / (1u64 << 30) as f64
}

/// Step 2 near touching: an end within `r` of the triangle, or the core within `r` of an
/// edge, by the exact decompositions.
#[cold]
#[inline(never)]
fn segment_within_triangle_exact(p: Vec3, q: Vec3, r: f32, t: [Vec3; 3]) -> bool {
    ball_within_triangle(p, r, t)
        || ball_within_triangle(q, r, t)
        || (0..3).any(|i| segment_within_3d_exact(p, q, t[i], t[(i + 1) % 3], r))
}

/// Whether the closed ball `(c, r)` meets the closed triangle `t`, exactly: within `r` of
/// one of its edges (the exact ball–segment test), or over the face (the centre's
/// projection strictly inside, `((y - x) × (c - x)) · n > 0` for each edge `x y`, with
/// `n = (b - a) × (k - a)`: on an edge's line, the edge is nearest) and within `r` of its
/// plane (`(n · (c - a))² <= r² |n|²`), those two by the exact predicates of `normals.rs`
/// (a collinear triangle, `n = 0`, is never over its face). In `f64` the face test was exact
/// only while its products fit (lattice coordinates spanning up to about 2^8), and read
/// balls touching a face at coordinates near `2^21` as apart (an audit,
/// `tests/audit_3d_curved.rs`); the closest-point test in `f64` read a ball exactly touching
/// a triangle as a hair apart in about 1 of 80 touching lattice pairs, a capsule in 1 of 30.
#[cold]
#[inline(never)]
pub(crate) fn ball_within_triangle(c: Vec3, r: f32, t: [Vec3; 3]) -> bool {
    if (0..3).any(|i| ball_segment_3d(&t[i], &t[(i + 1) % 3], &c, r)) {
        return true;
    }
    let [a, b, k] = t;
    let n = [b, a, k, a];
    let over = [(a, b), (b, k), (k, a)].iter().all(|&(x, y)| cross_dot_sign([y, x, c, x], n) > 0.0);
    over && volume_within([a, b, k, c], n, r)
}

/// Whether the closed segment `[p, q]` meets the closed triangle `t`, exactly: the ends'
/// orientations against its plane first (the usual answer, "both on one side"), then the
/// full test of `triangle_segment.rs` (or, for a triangle whose vertices are exactly
/// collinear, that of `triangle_triangle.rs`, which handles it).
#[inline]
fn segment_meets_triangle(t: [Vec3; 3], p: Vec3, q: Vec3) -> bool {
    if orient3d(t[0], t[1], t[2], p) * orient3d(t[0], t[1], t[2], q) > 0.0 {
        return false;
    }
    let n = normal_signs(t);
    if all_equal(n, 0.0) {
        return triangle_segment_overlap(t, p, q);
    }
    triangle_segment_meet(t, n, p, q)
}

impl Overlaps<Capsule3> for Triangle3 {
    /// Touching counts, decided exactly: on squared distances in `f64` away from touching,
    /// by exact predicates near it and when the segment crosses the triangle (see the
    /// module docs).
    ///
    /// ```
    /// use raybox::{Capsule3, Overlaps, Triangle3};
    /// use glam::Vec3;
    ///
    /// let floor = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
    /// let lying = |z: f32| Capsule3::new(Vec3::new(-1.0, 1.0, z), Vec3::new(5.0, 1.0, z), 0.5);
    /// assert!(floor.overlaps(&lying(0.5)) && !floor.overlaps(&lying(0.500_001)));
    /// // Through the face, far from its edges and with both ends far from it.
    /// let pole = Capsule3::new(Vec3::new(1.0, 1.0, -9.0), Vec3::new(1.0, 1.0, 9.0), 0.1);
    /// assert!(pole.overlaps(&floor));
    /// ```
    #[inline]
    fn overlaps(&self, other: &Capsule3) -> bool {
        capsule_triangle_overlap(other.start(), other.end(), other.radius(), self.vertices())
    }
}

reverse_overlaps!(Triangle3 => Capsule3);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::distance::{ToRounded, rounded_overlaps};

    fn floor() -> Triangle3 {
        Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0))
    }

    #[test]
    fn capsule_standing_on_a_triangle() {
        let t = floor();
        let c = |z: f32| Capsule3::new(Vec3::new(1.0, 1.0, z), Vec3::new(1.0, 1.0, z + 2.0), 0.5);
        assert!(t.overlaps(&c(0.5)) && c(0.5).overlaps(&t));
        assert!(!t.overlaps(&c(0.51)));
        assert!(t.overlaps(&c(-1.0))); // through it
    }

    #[test]
    fn body_over_an_edge_and_through_the_face() {
        let t = floor();
        // Lying across the hypotenuse x + y = 4 above it, at height exactly r: touching.
        let across = |z: f32| Capsule3::new(Vec3::new(0.0, 0.0, z), Vec3::new(4.0, 4.0, z), 1.0);
        assert!(t.overlaps(&across(1.0)) && !t.overlaps(&across(1.000_001)));
        // Beside the edge y = 0, at a slant, crossing over its middle: 0.5 below z = 0 and
        // 0.5 out in -y at its nearest (the point (2, -0.5, 0)), so sqrt(0.5) from the edge.
        let slant = |r: f32| Capsule3::new(Vec3::new(0.0, -0.5, -1.0), Vec3::new(4.0, -0.5, 1.0), r);
        assert!(t.overlaps(&slant(0.5)) && !t.overlaps(&slant(0.499)));
        // A thin pole through the face, ends far on both sides.
        let pole = |r: f32| Capsule3::new(Vec3::new(1.0, 1.0, -9.0), Vec3::new(1.5, 1.0, 9.0), r);
        assert!(t.overlaps(&pole(0.01)) && t.overlaps(&pole(0.0)));
    }

    #[test]
    fn degenerate_capsules() {
        let t = floor();
        // A ball (zero-length core): touching the face from above, and a hair off.
        let ball = |z: f32| Capsule3::new(Vec3::new(1.0, 1.0, z), Vec3::new(1.0, 1.0, z), 1.0);
        assert!(t.overlaps(&ball(1.0)) && !t.overlaps(&ball(1.000_001)));
        // A segment (zero radius), exactly: ending on the hypotenuse, and a float step short.
        let seg = |x: f32| Capsule3::new(Vec3::new(5.0, 5.0, 0.0), Vec3::new(x, 2.0, 0.0), 0.0);
        assert!(t.overlaps(&seg(2.0)) && !t.overlaps(&seg(2.0f32.next_up())));
        // A point on the face, and just above it.
        assert!(t.overlaps(&Capsule3::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, 1.0, 0.0), 0.0)));
        let above = Vec3::new(1.0, 1.0, f32::from_bits(1));
        assert!(!t.overlaps(&Capsule3::new(above, above, 0.0)));
    }

    /// The new test against GJK's on random pairs: the same answer wherever GJK's
    /// distance is not within a hair of the reach (GJK decides to about `1e-9` relative).
    #[test]
    fn agrees_with_gjk_away_from_touching() {
        let mut next = crate::test_util::signed_units(0x2545_f491_u32);
        let (mut checked, mut overlapping) = (0, 0);
        for _ in 0..20_000 {
            let mut v = || Vec3::new(next(), next(), next()) * 3.0;
            let Ok(t) = Triangle3::try_new(v(), v(), v()) else { continue };
            let c = Capsule3::new(v(), v(), next().abs() * 1.5);
            let (a, b) = (t.to_rounded(), c.to_rounded());
            let d = crate::query::distance::rounded_closest(&a, &b).distance;
            let reach = f64::from(c.radius());
            if (crate::query::distance::core_closest(&a.core, &b.core).distance - reach).abs() < 1e-6 {
                continue; // too near touching for GJK to be the reference
            }
            checked += 1;
            overlapping += usize::from(d == 0.0);
            assert_eq!(t.overlaps(&c), rounded_overlaps(&a, &b), "{t:?} {c:?}");
            assert_eq!(c.overlaps(&t), t.overlaps(&c));
        }
        assert!(
            checked > 15_000 && overlapping > 2_000 && checked - overlapping > 2_000,
            "{checked} {overlapping}"
        );
    }
}
