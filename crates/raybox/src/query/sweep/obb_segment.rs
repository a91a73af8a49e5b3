//! Moving oriented box against a static segment, 2D and 3D: conservative advancement on the
//! GJK distance (see `mod.rs`).

use super::ca_sweep;
use crate::{Obb2, Obb3, Segment2, Segment3};

ca_sweep!(moving 2D: Obb2, Segment2);
ca_sweep!(moving 3D: Obb3, Segment3);

#[cfg(test)]
mod tests {
    use crate::{Obb2, Segment2, Sweep};
    use glam::Vec2;

    #[test]
    fn diamond_onto_a_ledge() {
        let ledge = Segment2::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0));
        let diamond = Obb2::new(Vec2::new(0.0, 3.0), Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let hit = diamond.sweep(Vec2::new(0.0, -3.0), &ledge).unwrap();
        assert!((hit.t - (3.0 - 2f32.sqrt()) / 3.0).abs() < 1e-6, "{hit:?}");
    }
}
