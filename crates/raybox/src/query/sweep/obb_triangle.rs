//! Moving oriented box against a static triangle (3D): conservative advancement on the GJK
//! distance (see `mod.rs`).

use super::ca_sweep;
use crate::{Obb3, Triangle3};

ca_sweep!(moving 3D: Obb3, Triangle3);

#[cfg(test)]
mod tests {
    use crate::{Obb3, Sweep, Triangle3};
    use glam::{Quat, Vec3};

    #[test]
    fn cube_on_its_corner_onto_a_triangle() {
        let t =
            Triangle3::new(Vec3::new(-4.0, -4.0, 0.0), Vec3::new(4.0, -4.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
        let q = Quat::from_rotation_arc(Vec3::ONE.normalize(), Vec3::Z);
        let cube = Obb3::new(Vec3::new(0.0, 0.0, 5.0), Vec3::ONE, q);
        let hit = cube.sweep(Vec3::new(0.0, 0.0, -5.0), &t).unwrap();
        assert!((hit.t - (5.0 - 3f32.sqrt()) / 5.0).abs() < 1e-5, "{hit:?}");
    }
}
