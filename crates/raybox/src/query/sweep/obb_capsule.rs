//! Moving oriented box against capsule (and back), 2D and 3D: conservative advancement on
//! the GJK distance (see `mod.rs`), the start decided by the pair's `Overlaps` test
//! (`decided_sweep`).

use super::decided_sweep;
use crate::{Capsule2, Capsule3, Obb2, Obb3};

decided_sweep!(2D: Obb2, Capsule2);
decided_sweep!(3D: Obb3, Capsule3);

#[cfg(test)]
mod tests {
    use crate::{Capsule2, Obb2, Sweep};
    use glam::Vec2;

    #[test]
    fn capsule_onto_a_diamond() {
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let c = Capsule2::new(Vec2::new(-3.0, 3.0), Vec2::new(3.0, 3.0), 0.5);
        let hit = c.sweep(Vec2::new(0.0, -2.0), &diamond).unwrap();
        assert!(
            (hit.t - (2.5 - 2f32.sqrt()) / 2.0).abs() < 1e-6 && (hit.normal - Vec2::Y).length() < 1e-5,
            "{hit:?}"
        );
    }
}
