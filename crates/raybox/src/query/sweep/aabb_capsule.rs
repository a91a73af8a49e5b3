//! Moving axis-aligned box against capsule (and back), 2D and 3D: conservative advancement
//! on the GJK distance (see `mod.rs`), the start decided by the pair's `Overlaps` test
//! (`decided_sweep`).

use super::decided_sweep;
use crate::{Aabb2, Aabb3, Capsule2, Capsule3};

decided_sweep!(2D: Aabb2, Capsule2);
decided_sweep!(3D: Aabb3, Capsule3);

#[cfg(test)]
mod tests {
    use crate::{Aabb3, Capsule3, Sweep};
    use glam::Vec3;

    #[test]
    fn capsule_walks_into_a_box() {
        let b = Aabb3::new(Vec3::new(2.0, 0.0, -1.0), Vec3::new(3.0, 2.0, 1.0));
        let c = Capsule3::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 1.5, 0.0), 0.5);
        let hit = c.sweep(Vec3::new(3.0, 0.0, 0.0), &b).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec3::NEG_X).length() < 1e-6, "{hit:?}");
        let back = b.sweep(Vec3::new(-3.0, 0.0, 0.0), &c).unwrap();
        assert!((back.t - 0.5).abs() < 1e-6 && (back.normal - Vec3::X).length() < 1e-6, "{back:?}");
    }
}
