//! Axis-aligned box against oriented box, 2D and 3D: GJK on the two boxes, in `f64`; zero
//! exactly when the separating-axis test says they overlap.

use super::{f2, f3, gjk_distance};
use crate::{Aabb2, Aabb3, Obb2, Obb3};
use glam::{Vec2, Vec3};

gjk_distance!(Aabb2, Obb2 => Vec2, f2, exact; Aabb3, Obb3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Aabb2, Distance, Obb2};
    use glam::Vec2;

    #[test]
    fn box_to_a_diamond_corner() {
        let diamond = Obb2::new(Vec2::new(5.0, 0.5), Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let b = Aabb2::new(Vec2::ZERO, Vec2::ONE);
        assert!((b.distance(&diamond) - (4.0 - 2f32.sqrt())).abs() < 1e-6);
        let (on_box, on_diamond) = b.closest_points(&diamond);
        assert!((on_box - Vec2::new(1.0, 0.5)).length() < 1e-6, "{on_box}");
        assert!((on_diamond - Vec2::new(5.0 - 2f32.sqrt(), 0.5)).length() < 1e-6, "{on_diamond}");
    }
}
