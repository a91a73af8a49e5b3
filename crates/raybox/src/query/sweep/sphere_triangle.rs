//! Moving ball against a static triangle (3D), in closed form: the ball's centre is a ray
//! against the triangle grown by the radius, which is the union of the triangle's prism
//! of half-height `r` (entered through its top or bottom face, the triangle moved by `±r`
//! along its normal) and the three capsules of radius `r` around its edges (which hold
//! the prism's side walls and the balls at the vertices). The union is convex, so a ray
//! that starts outside it enters it where it first enters one of the pieces (Ericson,
//! *Real-Time Collision Detection*, 5.5.6, there with the prism's faces tested as
//! triangles). All in `f64`: the face times are a difference over `v · n`, the capsule
//! times the stable roots of `ray_capsule.rs`.
//!
//! A ball that already overlaps the triangle (by the exact test of
//! `overlap/sphere_triangle.rs`), and a zero motion, take the shared path of `mod.rs`
//! (`t = 0`, the penetration normal), as every other pair does.

use glam::{DVec3, Vec3};

use super::{SweepHit3, Toi, hit3, sweep_rounded};
use crate::query::closest::closest_point_on_triangle;
use crate::query::distance::ToRounded;
use crate::query::ray::capsule_roots;
use crate::{Overlaps, Sphere, Sweep, Triangle3};

impl Sweep<Triangle3> for Sphere {
    type Motion = Vec3;
    type Hit = SweepHit3;

    fn sweep(&self, motion: Vec3, other: &Triangle3) -> Option<SweepHit3> {
        if !motion.is_finite() {
            return None;
        }
        // The exact overlap test decides `t = 0` (the same answer as `Overlaps`).
        if motion == Vec3::ZERO || self.overlaps(other) {
            return sweep_rounded(&self.to_rounded(), motion.as_dvec3(), &other.to_rounded(), false)
                .map(hit3);
        }
        ball_triangle_toi(self.center(), self.radius(), motion, other.vertices()).map(hit3)
    }
}

/// The first contact of the ball `(c, r)` moving by `t v`, `t` in `[0, 1]`, with the
/// triangle, for a ball that does not touch it at `t = 0`.
fn ball_triangle_toi(c: Vec3, r: f32, v: Vec3, tri: [Vec3; 3]) -> Option<Toi> {
    let first = ball_triangle_time(c, r, v, tri);
    if first > 1.0 {
        return None;
    }
    Some(ball_touch(c.as_dvec3() + v.as_dvec3() * first, first, v.as_dvec3(), tri.map(Vec3::as_dvec3)))
}

/// The first time `t >= 0` at which the ball `(c, r)` moved by `t v` touches the triangle
/// (`INFINITY` if it never does), for a ball that does not touch it at `t = 0`: the
/// kernel of [`Sweep<Triangle3> for Sphere`](Sweep), shared with the capsule's end balls
/// (`triangle_capsule.rs`).
pub(crate) fn ball_triangle_time(c: Vec3, r: f32, v: Vec3, tri: [Vec3; 3]) -> f64 {
    let [a, b, k] = tri.map(Vec3::as_dvec3);
    let (cd, vd, rd) = (c.as_dvec3(), v.as_dvec3(), f64::from(r));
    let mut first = f64::INFINITY;
    // The edges' capsules (with the vertices' balls): their entry roots at t >= 0. (An
    // interval around 0 is a ball the exact test found apart, inside a capsule by the
    // roots' rounding: it touches at once.)
    for (p, q) in [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])] {
        if let Some((lo, hi)) = capsule_roots(c.to_array(), v.to_array(), p.to_array(), q.to_array(), r)
            && hi >= 0.0
        {
            first = first.min(lo.max(0.0));
        }
    }
    // The prism's top and bottom faces: the centre at distance r from the plane, over the
    // triangle.
    let n = (b - a).cross(k - a);
    let (nv, h) = (n.dot(vd), n.dot(cd - a));
    let len = n.length();
    if nv != 0.0 && len > 0.0 {
        for side in [1.0, -1.0] {
            let t = (side * rd * len - h) / nv;
            if t >= 0.0 && t < first {
                let x = cd + vd * t;
                let inside =
                    [(a, b), (b, k), (k, a)].iter().all(|&(p, q)| (q - p).cross(x - p).dot(n) >= 0.0);
                if inside {
                    first = t;
                }
            }
        }
    }
    first
}

/// The contact of a ball whose centre is at `x` at time `t` (moving by `v`), touching the
/// triangle: the triangle's point nearest the centre, and the normal from it toward the
/// centre (against the motion when the centre is on the triangle: a zero radius).
pub(crate) fn ball_touch(x: DVec3, t: f64, v: DVec3, tri: [DVec3; 3]) -> Toi {
    let point = closest_point_on_triangle(x, tri);
    let out = x - point;
    let normal = if out.length_squared() > 0.0 { out.normalize() } else { -v.normalize() };
    Toi { t, point, normal: if normal.is_finite() { normal } else { DVec3::ZERO } }
}

#[cfg(test)]
mod tests {
    use crate::{Sphere, Sweep, Triangle3};
    use glam::Vec3;

    fn tri() -> Triangle3 {
        Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0))
    }

    #[test]
    fn ball_onto_the_face() {
        let hit =
            Sphere::new(Vec3::new(1.0, 1.0, 5.0), 1.0).sweep(Vec3::new(0.0, 0.0, -8.0), &tri()).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::Z, Vec3::new(1.0, 1.0, 0.0)));
        // From below, onto the back of the face.
        let hit =
            Sphere::new(Vec3::new(1.0, 1.0, -5.0), 1.0).sweep(Vec3::new(0.0, 0.0, 8.0), &tri()).unwrap();
        assert_eq!((hit.t, hit.normal), (0.5, Vec3::NEG_Z));
    }

    #[test]
    fn ball_onto_an_edge_and_a_vertex() {
        // Sliding in the plane toward the edge x = 0 from x = -5: touches at x = -1.
        let hit =
            Sphere::new(Vec3::new(-5.0, 1.0, 0.0), 1.0).sweep(Vec3::new(8.0, 0.0, 0.0), &tri()).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::NEG_X, Vec3::new(0.0, 1.0, 0.0)));
        // Toward the vertex (4, 0, 0) along the x axis from beyond it.
        let hit =
            Sphere::new(Vec3::new(9.0, 0.0, 0.0), 1.0).sweep(Vec3::new(-8.0, 0.0, 0.0), &tri()).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::X, Vec3::new(4.0, 0.0, 0.0)));
        // Passing over the vertex at a height of exactly r: a touch.
        let hit =
            Sphere::new(Vec3::new(4.0, -3.0, 1.0), 1.0).sweep(Vec3::new(0.0, 6.0, 0.0), &tri()).unwrap();
        assert_eq!((hit.t, hit.point), (0.5, Vec3::new(4.0, 0.0, 0.0)));
        // A hair higher: nothing.
        assert!(
            Sphere::new(Vec3::new(4.0, -3.0, 1.0001), 1.0).sweep(Vec3::new(0.0, 6.0, 0.0), &tri()).is_none()
        );
    }

    #[test]
    fn short_motions_and_overlaps() {
        let ball = Sphere::new(Vec3::new(1.0, 1.0, 5.0), 1.0);
        assert!(ball.sweep(Vec3::new(0.0, 0.0, -3.9), &tri()).is_none());
        assert_eq!(ball.sweep(Vec3::new(0.0, 0.0, -4.0), &tri()).map(|h| h.t), Some(1.0));
        let sunk = Sphere::new(Vec3::new(1.0, 1.0, 0.5), 1.0);
        let hit = sunk.sweep(Vec3::new(1.0, 0.0, 0.0), &tri()).unwrap();
        assert_eq!((hit.t, hit.normal), (0.0, Vec3::Z));
    }
}
