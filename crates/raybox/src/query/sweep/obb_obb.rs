//! Moving oriented box against oriented box, 2D and 3D: conservative advancement on the
//! GJK distance (see `mod.rs`).

use super::ca_sweep;
use crate::{Obb2, Obb3};

ca_sweep!(moving 2D: Obb2, Obb2);
ca_sweep!(moving 3D: Obb3, Obb3);

#[cfg(test)]
mod tests {
    use crate::{Obb2, Sweep};
    use glam::Vec2;

    #[test]
    fn corner_into_a_face() {
        let wall = Obb2::new(Vec2::new(5.0, 0.0), Vec2::new(1.0, 5.0), 0.0);
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let hit = diamond.sweep(Vec2::new(8.0, 0.0), &wall).unwrap();
        assert!(
            (hit.t - (4.0 - 2f32.sqrt()) / 8.0).abs() < 1e-5 && (hit.normal - Vec2::NEG_X).length() < 1e-5
        );
        assert!((hit.point - Vec2::new(4.0, 0.0)).length() < 1e-4, "{hit:?}");
    }
}
