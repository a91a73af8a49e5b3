//! Capsule against capsule, 2D and 3D: the core segments are within `r_a + r_b` of each
//! other (the segment kernel of `distance/segment_segment.rs`: exact in the plane, in
//! `f64`; Ericson, *Real-Time Collision Detection*, 4.5.2).

use super::rounded_overlaps;
use crate::{Capsule2, Capsule3};

rounded_overlaps!(same: Capsule2, Capsule3);

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Overlaps};
    use glam::Vec3;

    #[test]
    fn crossing_capsules() {
        let a = Capsule3::new(Vec3::new(-2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0), 0.5);
        let b = |z: f32| Capsule3::new(Vec3::new(0.0, -2.0, z), Vec3::new(0.0, 2.0, z), 0.5);
        assert!(a.overlaps(&b(1.0)) && !a.overlaps(&b(1.01)));
    }
}
