//! Axis-aligned box against capsule, 2D and 3D: a box core and a segment core, by the
//! kernel of `rounded.rs` (closest points when the core is outside the box, the
//! separating-axis penetration plus the radius when it passes through); `Some` exactly when
//! `Overlaps` says so (`gated_contact`).

use super::gated_contact;
use crate::{Aabb2, Aabb3, Capsule2, Capsule3};

gated_contact!(2D: Aabb2, Capsule2);
gated_contact!(3D: Aabb3, Capsule3);

#[cfg(test)]
mod tests {
    use crate::{Aabb3, Capsule3, Contact};
    use glam::Vec3;

    #[test]
    fn capsule_beside_and_through_a_box() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let beside = Capsule3::new(Vec3::new(2.0, 0.5, 0.5), Vec3::new(2.0, 0.5, 3.0), 1.25);
        let k = b.contact(&beside).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::X, 0.25));
        // The core runs through the box 0.25 inside its +x face: out by 0.25 + r.
        let through = Capsule3::new(Vec3::new(0.75, 0.5, -3.0), Vec3::new(0.75, 0.5, 3.0), 0.5);
        let k = b.contact(&through).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::X, 0.75));
        assert_eq!(through.contact(&b).unwrap().normal, Vec3::NEG_X);
    }
}
