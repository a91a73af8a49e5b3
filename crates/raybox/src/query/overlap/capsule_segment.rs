//! Capsule against segment, 2D and 3D: the segment is within the radius of the core
//! (the segment kernel of `distance/segment_segment.rs`: exact in the plane, in `f64`).
//! A capsule of radius zero is its core, a segment: then the exact segment–segment test
//! decides (the `f64` kernel reads two segments that cross off the coordinate planes as a
//! hair apart), so a zero-radius capsule answers as the segment does.

use crate::query::distance::{ToRounded, rounded_overlaps};
use crate::{Capsule2, Capsule3, Overlaps, Segment2, Segment3};

macro_rules! capsule_segment_overlaps {
    ($($Capsule:ty, $Segment:ty);*) => {
        $(impl Overlaps<$Segment> for $Capsule {
            fn overlaps(&self, other: &$Segment) -> bool {
                if self.radius() == 0.0 {
                    return self.segment().overlaps(other);
                }
                rounded_overlaps(&self.to_rounded(), &other.to_rounded())
            }
        }
        crate::query::reverse_overlaps!($Capsule => $Segment);)*
    };
}

capsule_segment_overlaps!(Capsule2, Segment2; Capsule3, Segment3);

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
