//! Axis-aligned box against capsule, 2D and 3D: GJK on the box and the core segment, in
//! `f64`, less the radius.

use super::{f2, f3, gjk_distance};
use crate::{Aabb2, Aabb3, Capsule2, Capsule3};
use glam::{Vec2, Vec3};

gjk_distance!(Aabb2, Capsule2 => Vec2, f2, exact; Aabb3, Capsule3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Aabb3, Capsule3, Distance};
    use glam::Vec3;

    #[test]
    fn capsule_beside_a_box() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let c = Capsule3::new(Vec3::new(2.0, 0.5, 0.5), Vec3::new(2.0, 0.5, 3.0), 0.5);
        assert!((b.distance(&c) - 0.5).abs() < 1e-6);
        let (on_box, on_capsule) = b.closest_points(&c);
        assert!((on_box.x - 1.0).abs() < 1e-6 && (on_capsule.x - 1.5).abs() < 1e-6);
    }
}
