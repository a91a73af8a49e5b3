//! Oriented box against capsule, 2D and 3D: a box core and a segment core, by the kernel
//! of `rounded.rs`; `Some` exactly when `Overlaps` says so (`gated_contact`).

use super::gated_contact;
use crate::{Capsule2, Capsule3, Obb2, Obb3};

gated_contact!(2D: Obb2, Capsule2);
gated_contact!(3D: Obb3, Capsule3);

#[cfg(test)]
mod tests {
    use crate::{Capsule2, Contact, Obb2};
    use glam::Vec2;

    #[test]
    fn capsule_on_a_diamond_corner() {
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let c = Capsule2::new(Vec2::new(-3.0, 2.0), Vec2::new(3.0, 2.0), 0.75);
        let k = diamond.contact(&c).unwrap();
        assert!(
            (k.normal - Vec2::Y).length() < 1e-6 && (k.depth - (0.75 - (2.0 - 2f32.sqrt()))).abs() < 1e-6
        );
    }
}
