//! Oriented box against segment, both moving, 2D and 3D: the separating-axis test over
//! time (`sat_sweep` in `mod.rs`), with the start decided by the pair's `Contact`, `Some`
//! exactly when the overlap test of `overlap/obb_segment.rs` says so (`decided_sweep!`).
//! The segment moving against the box is the same test with the roles swapped.

use super::decided_sweep;
use crate::{Obb2, Obb3, Segment2, Segment3};

decided_sweep!(2D: Obb2, Segment2);
decided_sweep!(3D: Obb3, Segment3);

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
