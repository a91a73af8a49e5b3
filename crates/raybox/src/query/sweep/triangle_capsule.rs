//! Moving capsule against a static triangle (3D): conservative advancement on the GJK
//! distance (see `mod.rs`).

use super::ca_sweep;
use crate::{Capsule3, Triangle3};

ca_sweep!(moving 3D: Capsule3, Triangle3);

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Sweep, Triangle3};
    use glam::Vec3;

    #[test]
    fn capsule_falls_onto_a_triangle() {
        let t =
            Triangle3::new(Vec3::new(-4.0, 0.0, -4.0), Vec3::new(4.0, 0.0, -4.0), Vec3::new(0.0, 0.0, 4.0));
        let c = Capsule3::new(Vec3::new(0.0, 1.5, 0.0), Vec3::new(0.0, 3.0, 0.0), 0.5);
        let hit = c.sweep(Vec3::new(0.0, -2.0, 0.0), &t).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec3::Y).length() < 1e-6, "{hit:?}");
    }
}
