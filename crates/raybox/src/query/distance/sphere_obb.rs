//! Ball against oriented box, 2D and 3D: GJK on the point core and the box, in `f64`;
//! zero exactly when the overlap test says they overlap.

use super::{f2, f3, gjk_distance};
use crate::{Circle, Obb2, Obb3, Sphere};
use glam::{Vec2, Vec3};

gjk_distance!(Circle, Obb2 => Vec2, f2, exact; Sphere, Obb3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Circle, Distance, Obb2, Obb3, Sphere};
    use glam::{Quat, Vec2, Vec3};

    #[test]
    fn beyond_a_diamond_corner_and_a_turned_face() {
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let c = Circle::new(Vec2::new(3.0, 0.0), 0.5);
        assert!((c.distance(&diamond) - (2.5 - 2f32.sqrt())).abs() < 1e-6);
        let (_, corner) = c.closest_points(&diamond);
        assert!((corner - Vec2::new(2f32.sqrt(), 0.0)).length() < 1e-6);
        let b = Obb3::new(
            Vec3::ZERO,
            Vec3::new(1.0, 2.0, 3.0),
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        );
        assert!((b.distance(&Sphere::new(Vec3::new(0.0, 4.0, 0.0), 1.0)) - 2.0).abs() < 1e-6);
    }
}
