//! Triangle against triangle (3D): GJK on the two triangles, in `f64`; zero exactly when the
//! exact overlap test of `overlap/triangle_triangle.rs` says they overlap.

use super::{f3, gjk_distance};
use crate::Triangle3;
use glam::Vec3;

gjk_distance!(same: Triangle3 => Vec3, f3, exact);

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
}
