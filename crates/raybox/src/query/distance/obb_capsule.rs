//! Oriented box against capsule, 2D and 3D: GJK on the box and the core segment, in `f64`,
//! less the radius.

use super::{f2, f3, gjk_distance};
use crate::{Capsule2, Capsule3, Obb2, Obb3};
use glam::{Vec2, Vec3};

gjk_distance!(Obb2, Capsule2 => Vec2, f2, exact; Obb3, Capsule3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Capsule2, Distance, Obb2};
    use glam::Vec2;

    #[test]
    fn capsule_above_a_diamond() {
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let c = Capsule2::new(Vec2::new(-3.0, 2.0), Vec2::new(3.0, 2.0), 0.5);
        assert!((diamond.distance(&c) - (1.5 - 2f32.sqrt())).abs() < 1e-6);
    }
}
