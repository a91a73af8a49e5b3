//! Balls, boxes and oriented boxes against a triangle (3D): GJK on the cores in `f64`,
//! less the ball's radius, with the zero decided by the exact overlap tests of
//! `overlap/sphere_triangle.rs`, `aabb_triangle.rs` and `obb_triangle.rs`.

use super::{f3, gjk_distance};
use crate::{Aabb3, Obb3, Sphere, Triangle3};
use glam::Vec3;

gjk_distance!(
    Sphere, Triangle3 => Vec3, f3, exact;
    Aabb3, Triangle3 => Vec3, f3, exact;
    Obb3, Triangle3 => Vec3, f3, exact;
);

#[cfg(test)]
mod tests {
    use crate::{Aabb3, Distance, Obb3, Sphere, Triangle3};
    use glam::{Quat, Vec3};

    #[test]
    fn above_beside_and_touching() {
        let t = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
        let ball = Sphere::new(Vec3::new(1.0, 1.0, 3.0), 1.0);
        assert!((t.distance(&ball) - 2.0).abs() < 1e-6);
        let (on_t, on_ball) = t.closest_points(&ball);
        assert!((on_t - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6, "{on_t}");
        assert!((on_ball - Vec3::new(1.0, 1.0, 2.0)).length() < 1e-6, "{on_ball}");
        assert_eq!(ball.distance(&t), t.distance(&ball));
        // Beside the hypotenuse, across from (2, 2, 0): sqrt(2) away from the box's corner.
        let b = Aabb3::new(Vec3::new(3.0, 3.0, -1.0), Vec3::new(4.0, 4.0, 1.0));
        assert!((t.distance(&b) - 2f32.sqrt()).abs() < 1e-6);
        let touching = Aabb3::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(2.0, 2.0, 1.0));
        assert_eq!(t.distance(&touching), 0.0);
        let o = Obb3::new(Vec3::new(1.0, 1.0, 2.0), Vec3::splat(0.5), Quat::IDENTITY);
        assert!((o.distance(&t) - 1.5).abs() < 1e-6);
    }
}
