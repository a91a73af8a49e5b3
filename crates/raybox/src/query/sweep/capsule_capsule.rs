//! Moving capsule against capsule, 2D and 3D: conservative advancement on the GJK distance
//! (see `mod.rs`), the start decided by the pair's `Overlaps` test (`decided_sweep`).

use super::decided_sweep;
use crate::{Capsule2, Capsule3};

decided_sweep!(@2D Capsule2, Capsule2);
decided_sweep!(@3D Capsule3, Capsule3);

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Sweep};
    use glam::Vec3;

    #[test]
    fn crossing_capsules_meet() {
        let a = Capsule3::new(Vec3::new(-2.0, 0.0, 4.0), Vec3::new(2.0, 0.0, 4.0), 0.5);
        let b = Capsule3::new(Vec3::new(0.0, -2.0, 0.0), Vec3::new(0.0, 2.0, 0.0), 0.5);
        let hit = a.sweep(Vec3::new(0.0, 0.0, -6.0), &b).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec3::Z).length() < 1e-6, "{hit:?}");
        assert!((hit.point - Vec3::new(0.0, 0.0, 0.5)).length() < 1e-5);
    }
}
