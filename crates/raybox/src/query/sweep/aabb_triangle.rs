//! Moving axis-aligned box against a static triangle (3D): conservative advancement on the
//! GJK distance (see `mod.rs`).

use super::ca_sweep;
use crate::{Aabb3, Triangle3};

ca_sweep!(moving 3D: Aabb3, Triangle3);

#[cfg(test)]
mod tests {
    use crate::{Aabb3, Sweep, Triangle3};
    use glam::Vec3;

    #[test]
    fn box_onto_a_triangle() {
        let t =
            Triangle3::new(Vec3::new(-4.0, 0.0, -4.0), Vec3::new(4.0, 0.0, -4.0), Vec3::new(0.0, 0.0, 4.0));
        let b = Aabb3::new(Vec3::new(-0.5, 2.0, -0.5), Vec3::new(0.5, 3.0, 0.5));
        let hit = b.sweep(Vec3::new(0.0, -4.0, 0.0), &t).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec3::Y).length() < 1e-6, "{hit:?}");
    }
}
