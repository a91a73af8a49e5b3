//! Moving ball against a static triangle (3D): conservative advancement on the GJK
//! distance (see `mod.rs`).

use super::ca_sweep;
use crate::{Sphere, Triangle3};

ca_sweep!(moving 3D: Sphere, Triangle3);

#[cfg(test)]
mod tests {
    use crate::{Sphere, Sweep, Triangle3};
    use glam::Vec3;

    #[test]
    fn ball_onto_the_face() {
        let t = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
        let hit = Sphere::new(Vec3::new(1.0, 1.0, 5.0), 1.0).sweep(Vec3::new(0.0, 0.0, -8.0), &t).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec3::Z).length() < 1e-6);
        assert!((hit.point - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-5);
    }
}
