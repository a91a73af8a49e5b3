//! Moving triangle against a static triangle (3D), and a triangle moving against the other
//! shapes (each the other shape moving the other way, `reversed_sweep!`).
//!
//! **Two triangles first touch on an edge of one of them.** At the first contact time `t*`
//! the common part `K` of the moved triangle `A` and of `B` is convex and not empty, and it
//! holds a point of an edge of `A` or of `B`: triangles in one plane share a convex polygon,
//! whose boundary lies on their edges; triangles in planes that cross share a piece of the
//! planes' common line, whose ends are where that line leaves `A` or `B`, on an edge
//! (parallel distinct planes share nothing). So at `t*` an edge of `A` touches `B`, or an
//! edge of `B` touches `A`: `t*` is at least the least of the six segment sweeps (each edge
//! of `A` moving by `v` against `B`, each edge of `B` moving by `-v` against `A`), and each
//! of those is a time at which the triangles touch, so at most it. The segment sweeps are
//! the closed form of `triangle_segment.rs`, with no iteration.
//!
//! The start is decided by the pair's `Contact`, `Some` exactly when the exact overlap test
//! of `overlap/triangle_triangle.rs` says so: `t = 0`, its point and its normal reversed; a
//! zero motion is that test. Triangles apart at `t = 0` have every edge apart from the
//! other triangle too, so the edge sweeps start from a gap.

use glam::Vec3;

use super::{SweepHit3, contact_start, reversed_sweep};
use crate::{Aabb3, Capsule3, Contact, Obb3, Segment3, Sphere, Sweep, Triangle3};

/// The three edges of a triangle, as segments.
fn edges(t: &Triangle3) -> [Segment3; 3] {
    let [a, b, c] = t.vertices();
    [Segment3::new(a, b), Segment3::new(b, c), Segment3::new(c, a)]
}

impl Sweep<Triangle3> for Triangle3 {
    type Motion = Vec3;
    type Hit = SweepHit3;

    /// The first contact of this triangle moving by `motion` with `other`: the earliest of
    /// its edges reaching `other` and of `other`'s edges reaching it.
    ///
    /// ```
    /// use raybox::{Sweep, Triangle3};
    /// use glam::Vec3;
    ///
    /// let floor = Triangle3::new(Vec3::new(-4.0, -4.0, 0.0), Vec3::new(4.0, -4.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
    /// // A vertical triangle, its lowest corner 2 above the floor, falling 4: lands at t = 0.5.
    /// let fin = Triangle3::new(Vec3::new(0.0, 0.0, 2.0), Vec3::new(1.0, 0.0, 3.0), Vec3::new(-1.0, 0.0, 3.0));
    /// let hit = fin.sweep(Vec3::new(0.0, 0.0, -4.0), &floor).unwrap();
    /// assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::Z, Vec3::ZERO));
    /// ```
    fn sweep(&self, motion: Vec3, other: &Triangle3) -> Option<SweepHit3> {
        if let Some(done) = contact_start(motion, || self.contact(other)) {
            return done;
        }
        let mine = edges(self).into_iter().filter_map(|e| e.sweep(motion, other));
        // An edge of `other` moving by `-motion` against this triangle: the same contact,
        // seen from the other side (the normal reversed, the point moved into this frame).
        let theirs = edges(other).into_iter().filter_map(|e| {
            let h = e.sweep(-motion, self)?;
            Some(SweepHit3 { t: h.t, point: h.point + motion * h.t, normal: -h.normal })
        });
        mine.chain(theirs).min_by(|x, y| x.t.total_cmp(&y.t))
    }
}

reversed_sweep!(3D: Triangle3 => Sphere, Triangle3 => Aabb3, Triangle3 => Obb3, Triangle3 => Capsule3, Triangle3 => Segment3);

#[cfg(test)]
mod tests {
    use crate::{Aabb3, Sphere, Sweep, Triangle3};
    use glam::Vec3;

    fn floor() -> Triangle3 {
        Triangle3::new(Vec3::new(-4.0, -4.0, 0.0), Vec3::new(4.0, -4.0, 0.0), Vec3::new(0.0, 4.0, 0.0))
    }

    #[test]
    fn a_vertex_lands_an_edge_crosses_an_edge_and_a_face_meets_a_vertex() {
        // A vertex of the moving triangle landing on the floor's face.
        let fin =
            Triangle3::new(Vec3::new(0.0, 0.0, 2.0), Vec3::new(1.0, 0.0, 3.0), Vec3::new(-1.0, 0.0, 3.0));
        let hit = fin.sweep(Vec3::new(0.0, 0.0, -4.0), &floor()).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::Z, Vec3::ZERO));
        // The floor moving up into the fin: the same time, the normal reversed, the point
        // where the fin's vertex is (it stays still).
        let up = floor().sweep(Vec3::new(0.0, 0.0, 4.0), &fin).unwrap();
        assert_eq!((up.t, up.normal, up.point), (0.5, Vec3::NEG_Z, Vec3::new(0.0, 0.0, 2.0)));
        // In one plane: a triangle below the floor's edge y = -4, its top edge y = -6
        // (parallel to it), sliding +y by 4, meets that edge at t = 0.5.
        let below =
            Triangle3::new(Vec3::new(-1.0, -6.0, 0.0), Vec3::new(1.0, -6.0, 0.0), Vec3::new(0.0, -9.0, 0.0));
        let slide = below.sweep(Vec3::new(0.0, 4.0, 0.0), &floor()).unwrap();
        assert!((slide.t - 0.5).abs() < 1e-6 && (slide.normal - Vec3::NEG_Y).length() < 1e-6, "{slide:?}");
        // An edge across an edge: an upright triangle in the plane x = 0 whose vertical edge
        // (y = -6, z from -1 to 1) moves +y by 4 and crosses the floor's edge y = -4 at
        // t = 0.5, at the origin's x; the normal is the edges' common perpendicular.
        let wall =
            Triangle3::new(Vec3::new(0.0, -6.0, -1.0), Vec3::new(0.0, -6.0, 1.0), Vec3::new(0.0, -8.0, 0.0));
        let hit = wall.sweep(Vec3::new(0.0, 4.0, 0.0), &floor()).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec3::NEG_Y).length() < 1e-6, "{hit:?}");
        assert!((hit.point - Vec3::new(0.0, -4.0, 0.0)).length() < 1e-6, "{hit:?}");
        // Passing beside; already touching (the wall's edge through the slid triangle).
        assert!(fin.sweep(Vec3::new(9.0, 0.0, 0.0), &floor()).is_none());
        let through =
            Triangle3::new(Vec3::new(0.0, -7.0, -1.0), Vec3::new(0.0, -7.0, 1.0), Vec3::new(0.0, -8.0, 0.0));
        assert_eq!(through.sweep(Vec3::new(5.0, 0.0, 0.0), &below).map(|h| h.t), Some(0.0));
    }

    #[test]
    fn a_triangle_moving_against_a_ball_and_a_box() {
        // A floor rising 4 toward a ball 3 above it (radius 1): touches at t = 0.5.
        let ball = Sphere::new(Vec3::new(0.0, 0.0, 3.0), 1.0);
        let hit = floor().sweep(Vec3::new(0.0, 0.0, 4.0), &ball).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::NEG_Z, Vec3::new(0.0, 0.0, 2.0)));
        let b = Aabb3::new(Vec3::new(-1.0, -1.0, 2.0), Vec3::new(1.0, 1.0, 3.0));
        let hit = floor().sweep(Vec3::new(0.0, 0.0, 4.0), &b).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && hit.normal == Vec3::NEG_Z, "{hit:?}");
    }
}
