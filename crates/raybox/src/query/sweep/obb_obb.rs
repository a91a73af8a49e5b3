//! Moving oriented box against oriented box, 2D and 3D: the separating-axis test over time
//! (see `mod.rs`). In 2D the start is decided by the boxes' own contact (Some exactly when
//! their exact separating-axis `Overlaps` says so): `f64` GJK's reading of the start took
//! a point box at the centre of a flat turned box for a hair apart, and the sweep said
//! `t = 1e-45` where `Overlaps` and `Contact` said they touch.

use super::{ca_sweep, decided_sweep};
use crate::{Obb2, Obb3};

decided_sweep!(@2D Obb2, Obb2);
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
