//! Triangle against triangle (3D): zero exactly when the exact overlap test of
//! `overlap/triangle_triangle.rs` says they overlap; apart, the nearest of the vertex–face
//! and edge–edge pairs (`closest_points_triangle_triangle`), each computed directly in
//! `f64`. (GJK, used before, stopped early on slivers far from the origin: `0.0154` for a
//! gap of `5.6e-7` between slivers `1e7` long.)

use crate::arrays::Each;
use glam::Vec3;

use crate::query::closest::closest_points_triangle_triangle;
use crate::query::distance::{ToRounded, rounded_closest};
use crate::{Distance, Overlaps, Triangle3};

impl Distance<Triangle3> for Triangle3 {
    type Point = Vec3;

    #[inline]
    fn distance(&self, other: &Triangle3) -> f32 {
        if self.overlaps(other) {
            return 0.0;
        }
        let (p, q) = closest_points_triangle_triangle(
            self.vertices().each(Vec3::as_dvec3),
            other.vertices().each(Vec3::as_dvec3),
        );
        (p.distance(q) as f32).max(f32::MIN_POSITIVE)
    }

    /// A closest pair; for overlapping triangles one common point, twice.
    #[inline]
    fn closest_points(&self, other: &Triangle3) -> (Vec3, Vec3) {
        if self.overlaps(other) {
            let c = rounded_closest(&self.to_rounded(), &other.to_rounded());
            return (c.on_a.as_vec3(), c.on_b.as_vec3());
        }
        let (p, q) = closest_points_triangle_triangle(
            self.vertices().each(Vec3::as_dvec3),
            other.vertices().each(Vec3::as_dvec3),
        );
        (p.as_vec3(), q.as_vec3())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Distance, Triangle3};
    use glam::Vec3;

    #[test]
    fn vertex_to_face_edge_to_edge_and_touching() {
        let floor = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
        // A vertex 2 above the face.
        let tip =
            Triangle3::new(Vec3::new(1.0, 1.0, 2.0), Vec3::new(0.0, 1.0, 5.0), Vec3::new(2.0, 1.0, 5.0));
        assert!((floor.distance(&tip) - 2.0).abs() < 1e-6);
        let (on_floor, on_tip) = floor.closest_points(&tip);
        assert!(
            (on_floor - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6
                && (on_tip - Vec3::new(1.0, 1.0, 2.0)).length() < 1e-6
        );
        // Edge to edge: a triangle below the floor's x-axis edge, its edge along y = -3, z = 4
        // crossing over it: distance 5 (3-4-5), between (2, 0, 0) and (2, -3, 4).
        let over = Triangle3::new(
            Vec3::new(2.0, -3.0, 4.0) - Vec3::X * 5.0,
            Vec3::new(2.0, -3.0, 4.0) + Vec3::X * 5.0,
            Vec3::new(2.0, -9.0, 12.0),
        );
        assert!((over.distance(&floor) - 5.0).abs() < 1e-5, "{}", over.distance(&floor));
        // Touching at a vertex: exactly zero, in both orders.
        let touching =
            Triangle3::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(0.0, 1.0, 5.0), Vec3::new(2.0, 1.0, 5.0));
        assert_eq!((floor.distance(&touching), touching.distance(&floor)), (0.0, 0.0));
    }

    /// Slivers `1e7` long, `5.6e-7` apart (found by an audit against double-double
    /// arithmetic): GJK said `0.0154`.
    #[test]
    fn slivers_far_out() {
        let v = Vec3::new;
        let a = Triangle3::new(
            v(0.0, 2.0, -2.0),
            v(8388608.0, -4194302.0, 8388606.0),
            v(1055032.0, -527515.0, 1055031.0),
        );
        let b = Triangle3::new(
            v(-4.0, 0.0, -2.0),
            v(8388612.0, -4194304.0, 8388610.0),
            v(1276812.0, -638405.0, 1276811.0),
        );
        for d in [a.distance(&b), b.distance(&a)] {
            assert!((d - 5.625e-7).abs() < 1e-9, "{d}");
        }
        let (p, q) = a.closest_points(&b);
        assert_eq!(b.closest_points(&a), (q, p));
        assert!((p.distance(q) - 5.6e-7).abs() < 0.5, "{p} {q}"); // f32 points at 8e6: 0.5 apart at most
    }
}
