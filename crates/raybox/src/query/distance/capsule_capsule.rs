//! Capsule against capsule, 2D and 3D: the distance between the core segments (the
//! segment kernel of `segment_segment.rs`, in `f64`), less both radii.

use super::{f2, f3, gjk_distance};
use crate::{Capsule2, Capsule3};
use glam::{Vec2, Vec3};

gjk_distance!(same: Capsule2 => Vec2, f2, exact; Capsule3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Distance};
    use glam::Vec3;

    #[test]
    fn crossing_capsules_apart() {
        let a = Capsule3::new(Vec3::new(-2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0), 0.5);
        let b = Capsule3::new(Vec3::new(0.0, -2.0, 3.0), Vec3::new(0.0, 2.0, 3.0), 0.5);
        assert!((a.distance(&b) - 2.0).abs() < 1e-6);
        let (p, q) = a.closest_points(&b);
        assert!(
            (p - Vec3::new(0.0, 0.0, 0.5)).length() < 1e-6 && (q - Vec3::new(0.0, 0.0, 2.5)).length() < 1e-6
        );
    }
}
