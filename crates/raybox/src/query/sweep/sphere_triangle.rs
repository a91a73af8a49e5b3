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
//! `overlap/sphere_triangle.rs`) gives `t = 0` and the penetration normal
//! (`overlapping_toi` in `mod.rs`), and a zero motion nothing more.

use crate::arrays::Each;
use glam::{DVec3, Vec3};

use super::{SweepHit3, Toi, apart_time, hit3, hit3_apart, overlapping_toi};
use crate::query::closest::{closest_point_on_triangle, edge_side};
use crate::query::distance::ToRounded;
use crate::query::ray::capsule_roots;
use crate::query::{WoopRay, ray_triangle_watertight};
use crate::{Overlaps, Sphere, Sweep, Triangle3};

impl Sweep<Triangle3> for Sphere {
    type Motion = Vec3;
    type Hit = SweepHit3;

    #[inline]
    fn sweep(&self, motion: Vec3, other: &Triangle3) -> Option<SweepHit3> {
        if !motion.is_finite() {
            return None;
        }
        // The exact overlap test decides `t = 0` (the same answer as `Overlaps`).
        if self.overlaps(other) {
            return Some(hit3(overlapping_toi(&self.to_rounded(), &other.to_rounded())));
        }
        if motion == Vec3::ZERO {
            return None;
        }
        ball_triangle_toi(self.center(), self.radius(), motion, other.vertices()).map(hit3_apart)
    }
}

/// The `t` of [`Sweep::sweep`] for the pair, bit for bit, without its point and normal:
/// for a walk that tests many triangles and finishes only the first.
#[inline]
pub(crate) fn sweep_time(ball: &Sphere, motion: Vec3, other: &Triangle3) -> Option<f32> {
    if !motion.is_finite() {
        return None;
    }
    if ball.overlaps(other) {
        return Some(0.0);
    }
    if motion == Vec3::ZERO {
        return None;
    }
    let t = ball_triangle_time(ball.center(), ball.radius(), motion, other.vertices());
    (t <= 1.0).then_some(apart_time(t))
}

/// The first contact of the ball `(c, r)` moving by `t v`, `t` in `[0, 1]`, with the
/// triangle, for a ball that does not touch it at `t = 0`.
#[inline]
fn ball_triangle_toi(c: Vec3, r: f32, v: Vec3, tri: [Vec3; 3]) -> Option<Toi> {
    let first = ball_triangle_time(c, r, v, tri);
    if first > 1.0 {
        return None;
    }
    Some(ball_touch(c.as_dvec3() + v.as_dvec3() * first, first, v.as_dvec3(), tri.each(Vec3::as_dvec3)))
}

/// The first time `t >= 0` at which the ball `(c, r)` moved by `t v` touches the triangle
/// (`INFINITY` if it never does), for a ball that does not touch it at `t = 0`: the
/// kernel of [`Sweep<Triangle3> for Sphere`](Sweep), shared with the capsule's end balls
/// (`triangle_capsule.rs`).
#[inline]
pub(crate) fn ball_triangle_time(c: Vec3, r: f32, v: Vec3, tri: [Vec3; 3]) -> f64 {
    let [a, b, k] = tri.each(Vec3::as_dvec3);
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
                let inside = [(a, b), (b, k), (k, a)].iter().all(|&(p, q)| edge_side(p, q, x, n) >= 0.0);
                if inside {
                    first = t;
                }
            }
        }
    }
    if nv == 0.0 && len > 0.0 && h.abs() <= rd * len {
        // Moving parallel to the plane within `r` of it (resting on it, sliding): the prism
        // is entered where the centre's projection enters the triangle, a linear test per
        // edge (the edge functions `((q - p) × (x(t) - p)) · n`, positive inside). Without
        // it, a ball at exactly height `r` would meet a slanted edge only at a tangency of
        // that edge's capsule, a double root that rounding loses.
        let (mut lo, mut hi) = (0.0f64, f64::INFINITY);
        for (p, q) in [(a, b), (b, k), (k, a)] {
            let (f0, f1) = (edge_side(p, q, cd, n), (q - p).cross(vd).dot(n));
            if f1 == 0.0 {
                if f0 < 0.0 {
                    (lo, hi) = (1.0, 0.0); // beside this edge for every t
                }
            } else if f1 > 0.0 {
                lo = lo.max(-f0 / f1);
            } else {
                hi = hi.min(-f0 / f1);
            }
        }
        if lo <= hi {
            first = first.min(lo);
        }
    }
    if first > 1.0 {
        first = centre_crossing(c, r, v, tri);
    }
    first
}

/// The safety net under the closed form for tiny radii: where the centre's path itself
/// crosses the triangle (the watertight ray test, exact about hitting, also on an edge two
/// triangles share), the ball touches it no later. With `r` near zero the pieces' tests can
/// all miss such a crossing by rounding: the edge capsules' discriminant `r² - d²` goes
/// negative when the path runs through the edge (`d = 0`), and the face test's rounded
/// point lands outside every triangle that shares the edge. The time is then the face
/// plane's (offset by `r`, toward the start), within rounding of the pieces' own answer;
/// `INFINITY` when the path does not cross the triangle either.
#[cold]
fn centre_crossing(c: Vec3, r: f32, v: Vec3, tri: [Vec3; 3]) -> f64 {
    let Some((t_cross, ..)) = ray_triangle_watertight(&WoopRay::new(c, v), tri, 0.0, 1.0) else {
        return f64::INFINITY;
    };
    let [a, b, k] = tri.each(Vec3::as_dvec3);
    let n = (b - a).cross(k - a).normalize();
    // The start's side of the plane (the path crosses it, so the start is off it or on it).
    let side = if n.dot(c.as_dvec3() - a) >= 0.0 { n } else { -n };
    let closing = -side.dot(v.as_dvec3());
    let before = if closing > 0.0 { f64::from(r) / closing } else { 0.0 };
    (f64::from(t_cross) - before).clamp(0.0, 1.0)
}

/// Points closer than this fraction of the coordinates' magnitude are one point, for the
/// direction between them: a few hundred `f64` ulps, the rounding of a closest point.
pub(crate) const TOUCH_NOISE: f64 = 256.0 * f64::EPSILON;

/// The contact of a ball whose centre is at `x` at time `t` (moving by `v`), touching the
/// triangle: the triangle's point nearest the centre, and the normal from it toward the
/// centre. When the centre is on the triangle (a zero radius), the face normal on the side
/// the ball comes from, or against the motion for a motion in the triangle's plane; so too
/// when it is off the triangle by no more than the rounding of the coordinates
/// ([`TOUCH_NOISE`] of them), where the direction between the two points is noise (a
/// segment's end landing on a face once came out with a normal along the face).
///
/// So too when the direction points along the motion (`out · v > 0`): at the first touch
/// the gap is closing, so the true direction never does; `x` is then past the contact,
/// from a time rounded to `f32` ([`centre_crossing`]'s watertight `t`). A point (radius 0)
/// at (1, 1, -5) moving by (0.00073, -11, 0) onto the edge (0, -5, -5)-(4, 4, -5) of a
/// triangle overshot that edge by `3e-7` and took the direction across it, away from where
/// it came from (an audit, `tests/audit_3d_curved.rs`).
#[inline]
pub(crate) fn ball_touch(x: DVec3, t: f64, v: DVec3, tri: [DVec3; 3]) -> Toi {
    let point = closest_point_on_triangle(x, tri);
    let out = x - point;
    let scale = tri.iter().fold(x.abs().max_element(), |m, y| m.max(y.abs().max_element()));
    let normal = if out.length() > TOUCH_NOISE * scale && out.dot(v) <= 0.0 {
        out.normalize()
    } else {
        let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
        match n.dot(v) {
            s if s < 0.0 => n.normalize(),
            s if s > 0.0 => -n.normalize(),
            _ => -v.normalize(),
        }
    };
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

    /// A review's case: the centre's path runs exactly through the midpoint of the edge
    /// `a b` two triangles share. With `r = 0` (or `1e-30`) every piece's test missed it by
    /// rounding, for both triangles.
    #[test]
    fn a_point_ball_through_a_shared_edge() {
        let (a, b) =
            (Vec3::new(-0.14814734, 1.6804774, -0.21921706), Vec3::new(1.0318644, -1.5865166, 0.985209));
        let (c, d) =
            (Vec3::new(-1.4923801, 0.56045175, 1.7771101), Vec3::new(-0.20933199, 0.80695224, 0.6350305));
        let start = Vec3::new(2.1055236, -3.8513694, 0.2851181);
        let motion = Vec3::new(-3.32733, 7.7966995, 0.19575572);
        for r in [0.0, 1e-30] {
            let ball = Sphere::new(start, r);
            for tri in [Triangle3::new(a, b, c), Triangle3::new(b, a, d)] {
                let hit = ball.sweep(motion, &tri).unwrap_or_else(|| panic!("r = {r}: {tri:?} missed"));
                assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal.length() - 1.0).abs() < 1e-6, "{hit:?}");
            }
        }
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
