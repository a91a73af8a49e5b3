//! Capsule against segment, 2D and 3D: the distance between the core and the segment
//! (the segment kernel of `segment_segment.rs`, in `f64`), less the radius.

use super::{f2, f3, gjk_distance};
use crate::{Capsule2, Capsule3, Segment2, Segment3};
use glam::{Vec2, Vec3};

gjk_distance!(Capsule2, Segment2 => Vec2, f2, exact; Capsule3, Segment3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Capsule2, Distance, Segment2};
    use glam::Vec2;

    #[test]
    fn segment_above_a_capsule() {
        let c = Capsule2::new(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0), 1.0);
        let s = Segment2::new(Vec2::new(0.5, 2.0), Vec2::new(0.5, 3.0));
        assert!((c.distance(&s) - 1.0).abs() < 1e-6);
        assert_eq!(s.distance(&c), c.distance(&s));
    }
}
