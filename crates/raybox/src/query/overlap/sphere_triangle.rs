//! Ball against triangle: the distance from the centre to the closest point of the
//! triangle (Ericson, *Real-Time Collision Detection*, 5.2.7).

use crate::arrays::Each;
use glam::{DVec3, Vec3};

use crate::query::closest::closest_point_on_triangle;
use crate::query::reverse_overlaps;
use crate::{Overlaps, Sphere, Triangle3};

impl Overlaps<Triangle3> for Sphere {
    #[inline]
    fn overlaps(&self, other: &Triangle3) -> bool {
        if self.radius() == 0.0 {
            // A point: the exact triangle–segment test on a zero-length segment. The
            // closest-point test below reads a point lying in the triangle as a hair off it
            // (an audit, `tests/audit_3d_curved.rs`: the point (0, -4, 3) in the triangle
            // (3, 1, 2), (-1, -5, 4), (2, -2, 1), scaled by `2^60`).
            return other.overlaps(&crate::Segment3::new(self.center(), self.center()));
        }
        let c = self.center().as_dvec3();
        let v = other.vertices().each(Vec3::as_dvec3);
        let rr = f64::from(self.radius()).powi(2);
        if let Some(overlap) = quick_sphere_triangle(c, rr, v) {
            return overlap;
        }
        let d2 = c.distance_squared(closest_point_on_triangle(c, v));
        // Near touching, the exact decomposition (`triangle_capsule.rs`).
        let near = super::triangle_capsule::near_touching([c, v[0], v[1], v[2], c], self.radius());
        if (d2 - rr).abs() > near {
            return d2 <= rr;
        }
        super::triangle_capsule::ball_within_triangle(self.center(), self.radius(), other.vertices())
    }
}

/// `2⁻⁴⁰`: the relative margin by which the quick tests must clear their boundary.
const MARGIN: f64 = 1.0 / (1u64 << 40) as f64;

/// Three cheap tests that settle most pairs before the closest point is computed, each
/// only when it clears its boundary by far more than its rounding error (all in `f64`
/// from `f32` inputs, `u = 2⁻⁵³`), so that `Some(answer)` is the exact answer: a vertex
/// inside the ball means overlap; the ball wholly beside the triangle's bounding box, or
/// wholly off its plane, means no overlap. `None`: run the full test. The full test is
/// itself exact but for a relative hair (`~2⁻⁵⁰`) far inside these margins, so where this
/// answers, it answers as the full test does.
#[inline(always)]
fn quick_sphere_triangle(c: DVec3, rr: f64, v: [DVec3; 3]) -> Option<bool> {
    // A vertex inside: |v - c|² has relative error below 5u; 2⁻⁴⁰ clears it.
    let inside = v.each(|p| p.distance_squared(c) <= rr * (1.0 - MARGIN));
    if inside[0] || inside[1] || inside[2] {
        return Some(true);
    }
    // Beside the bounding box: the box holds the triangle, so the distance to the box is a
    // lower bound of the distance to the triangle (per axis gaps are differences of f32
    // values, within u; the sum of squares within 3u more).
    let (lo, hi) = (v[0].min(v[1]).min(v[2]), v[0].max(v[1]).max(v[2]));
    let gap = (lo - c).max(c - hi).max(DVec3::ZERO);
    if gap.length_squared() > rr * (1.0 + MARGIN) {
        return Some(false);
    }
    // Off the plane: with n = ab × ac and g = n · (c - a), the ball misses the plane when
    // g² > r² |n|². Each computed n_i is within 6.1u m_i of the exact one, with
    // m_i = |ab_j ac_k| + |ab_k ac_j|, and g within 11u M, M = Σ m_i |(c - a)_i|; so with
    // A = |g| - 2⁻⁴⁵ M (a lower bound of the exact |g|) and
    // B² = r² (|n|² (1 + 2⁻⁴⁰) + 2⁻⁶⁰ |m|²) (an upper bound of r² |n_exact|², by
    // (x + e)² <= x²(1 + δ) + e²(1 + 1/δ) with δ = 2⁻⁴⁰), A > 0 and A² > B² (1 + 2⁻⁴⁰)
    // prove that the ball is wholly on one side of the plane.
    let (ab, ac, ap) = (v[1] - v[0], v[2] - v[0], c - v[0]);
    let n = ab.cross(ac);
    let (pa, qa) = (ab.abs(), ac.abs());
    let m = DVec3::new(pa.y * qa.z + pa.z * qa.y, pa.z * qa.x + pa.x * qa.z, pa.x * qa.y + pa.y * qa.x);
    let a = n.dot(ap).abs() - m.dot(ap.abs()) / (1u64 << 45) as f64;
    let b2 = rr * (n.length_squared() * (1.0 + MARGIN) + m.length_squared() / (1u64 << 60) as f64);
    if a > 0.0 && a * a > b2 * (1.0 + MARGIN) {
        return Some(false);
    }
    None
}

reverse_overlaps!(Sphere => Triangle3);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ClosestPoint;

    #[test]
    fn sphere_over_a_triangle() {
        let t = Triangle3::new(Vec3::ZERO, Vec3::X * 2.0, Vec3::Y * 2.0);
        assert!(Sphere::new(Vec3::new(0.5, 0.5, 1.0), 1.0).overlaps(&t));
        assert!(!t.overlaps(&Sphere::new(Vec3::new(0.5, 0.5, 1.0), 0.999)));
        assert!(!Sphere::new(Vec3::new(2.0, 2.0, 0.0), 1.4).overlaps(&t)); // sqrt 2 from the edge
    }

    #[test]
    fn the_quick_tests_give_the_full_answer() {
        // Balls around random triangles, with the radius set to the exact-in-f64 distance
        // of the closest point and one f32 step either side: where the quick tests answer,
        // they give the closest-point test's answer.
        let mut next = crate::test_util::signed_units(0x7777_1111_u32);
        let mut answered = 0;
        for scale in [1.0e-15_f32, 1.0, 1.0e15] {
            for _ in 0..20_000 {
                let mut v = || Vec3::new(next(), next(), next()) * scale;
                let Ok(t) = Triangle3::try_new(v(), v(), v()) else { continue };
                let c = v() * 2.0;
                let dist = t.distance_to_point(c);
                for r in [dist, dist.next_up(), dist.next_down().max(0.0), next().abs() * 2.0 * scale] {
                    let (cd, vd, rr) =
                        (c.as_dvec3(), t.vertices().each(Vec3::as_dvec3), f64::from(r).powi(2));
                    let full = cd.distance_squared(closest_point_on_triangle(cd, vd)) <= rr;
                    if let Some(quick) = quick_sphere_triangle(cd, rr, vd) {
                        answered += 1;
                        assert_eq!(quick, full, "{t:?} {c} {r}");
                    }
                    assert_eq!(Sphere::new(c, r).overlaps(&t), full);
                }
            }
        }
        // Exact touching on the face: a triangle in the plane z = z0 and a ball centred right
        // above a point inside it, at height exactly r (the exact answer is "overlap").
        for _ in 0..20_000 {
            let z0 = next() * 8.0;
            let mut v = || Vec3::new(next() * 3.0, next() * 3.0, z0);
            let Ok(t) = Triangle3::try_new(v(), v(), v()) else { continue };
            let [a, b, c] = t.vertices();
            let inside = (a + b + c) / 3.0;
            let r = 0.25 + next().abs();
            let center = Vec3::new(inside.x, inside.y, z0 + r);
            if center.z - z0 != r {
                continue; // the height did not come out exact in f32
            }
            assert!(Sphere::new(center, r).overlaps(&t), "{t:?} {center} {r}");
        }
        assert!(answered > 20_000, "{answered}");
    }
}
