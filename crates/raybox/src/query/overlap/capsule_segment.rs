//! Capsule against segment, 2D and 3D: the segment is within the radius of the core
//! (the segment kernel of `distance/segment_segment.rs`: exact in the plane, in `f64`).

use super::rounded_overlaps;
use crate::{Capsule2, Capsule3, Segment2, Segment3};

rounded_overlaps!(Capsule2, Segment2; Capsule3, Segment3);

#[cfg(test)]
mod tests {
    use crate::{Capsule2, Overlaps, Segment2};
    use glam::Vec2;

    #[test]
    fn segment_touching_the_cap() {
        let c = Capsule2::new(Vec2::ZERO, Vec2::new(2.0, 0.0), 1.0);
        assert!(c.overlaps(&Segment2::new(Vec2::new(3.0, -1.0), Vec2::new(3.0, 1.0))));
        assert!(!Segment2::new(Vec2::new(3.01, -1.0), Vec2::new(3.01, 1.0)).overlaps(&c));
    }
}
