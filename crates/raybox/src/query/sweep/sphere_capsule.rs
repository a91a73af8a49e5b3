//! Moving ball against capsule (and back), 2D and 3D: conservative advancement on the GJK
//! distance (see `mod.rs`), the start decided by the pair's exact `Overlaps` test (through
//! its contact, `decided_sweep`), so that touching shapes give `t = 0`.

use super::decided_sweep;
use crate::{Capsule2, Capsule3, Circle, Sphere};

decided_sweep!(2D: Circle, Capsule2);
decided_sweep!(3D: Sphere, Capsule3);

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Sphere, Sweep};
    use glam::Vec3;

    #[test]
    fn ball_into_the_body() {
        let c = Capsule3::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 0.5);
        let hit = Sphere::new(Vec3::new(5.0, 1.0, 0.0), 0.5).sweep(Vec3::new(-8.0, 0.0, 0.0), &c).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec3::X).length() < 1e-6);
        assert!((hit.point - Vec3::new(0.5, 1.0, 0.0)).length() < 1e-5);
    }
}
