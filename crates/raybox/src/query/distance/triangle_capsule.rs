//! Triangle against capsule (3D): GJK on the triangle and the core segment, in `f64`, less
//! the radius, with the zero decided by the overlap test of `overlap/triangle_capsule.rs`.

use super::{f3, gjk_distance};
use crate::{Capsule3, Triangle3};
use glam::Vec3;

gjk_distance!(Triangle3, Capsule3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Distance, Triangle3};
    use glam::Vec3;

    #[test]
    fn capsule_above_and_beside_a_triangle() {
        let t = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
        let above = Capsule3::new(Vec3::new(1.0, 1.0, 2.0), Vec3::new(1.0, 1.0, 4.0), 0.5);
        assert!((t.distance(&above) - 1.5).abs() < 1e-6);
        let beside = Capsule3::new(Vec3::new(-2.0, 1.0, -1.0), Vec3::new(-2.0, 1.0, 1.0), 0.5);
        assert!((beside.distance(&t) - 1.5).abs() < 1e-6);
    }
}
