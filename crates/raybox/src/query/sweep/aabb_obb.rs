//! Moving axis-aligned box against oriented box (and back), 2D and 3D: the separating-axis
//! test over time (see `mod.rs`). In 2D the start is decided by the pair's own contact,
//! as for two oriented boxes (`obb_obb.rs`).

use super::{ca_sweep, decided_sweep};
use crate::{Aabb2, Aabb3, Obb2, Obb3};

decided_sweep!(2D: Aabb2, Obb2);
ca_sweep!(3D: Aabb3, Obb3);

#[cfg(test)]
mod tests {
    use crate::{Aabb3, Obb3, Sweep};
    use glam::{Quat, Vec3};

    #[test]
    fn box_onto_a_diamond_edge() {
        // An OBB turned 45 degrees about z: its edge along z at x = -sqrt 2 faces the box.
        let o = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::from_rotation_z(std::f32::consts::FRAC_PI_4));
        let b = Aabb3::new(Vec3::new(-6.0, -0.5, -0.5), Vec3::new(-5.0, 0.5, 0.5));
        let hit = b.sweep(Vec3::new(8.0, 0.0, 0.0), &o).unwrap();
        assert!((hit.t - (5.0 - 2f32.sqrt()) / 8.0).abs() < 1e-5, "{hit:?}");
        assert!((hit.point.x + 2f32.sqrt()).abs() < 1e-4, "{hit:?}");
        let back = o.sweep(Vec3::new(-8.0, 0.0, 0.0), &b).unwrap();
        assert!((back.t - hit.t).abs() < 1e-5);
    }
}
