//! Triangle against capsule (3D): the core segment is within the radius of the triangle
//! (GJK on the triangle and the segment, in `f64`).

use super::rounded_overlaps;
use crate::{Capsule3, Triangle3};

rounded_overlaps!(Triangle3, Capsule3);

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Overlaps, Triangle3};
    use glam::Vec3;

    #[test]
    fn capsule_standing_on_a_triangle() {
        let t = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
        let c = |z: f32| Capsule3::new(Vec3::new(1.0, 1.0, z), Vec3::new(1.0, 1.0, z + 2.0), 0.5);
        assert!(t.overlaps(&c(0.5)) && c(0.5).overlaps(&t));
        assert!(!t.overlaps(&c(0.51)));
        assert!(t.overlaps(&c(-1.0))); // through it
    }
}
