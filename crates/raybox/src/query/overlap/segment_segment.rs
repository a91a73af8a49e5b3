//! Segment against segment, 2D: the exact planar test of `distance/segment_segment.rs`
//! (Cormen et al., *Introduction to Algorithms*, 33.1, closed: the signs of four
//! orientations, each exact by Shewchuk's adaptive predicate; an end on the other
//! segment's line counts when it lies within that segment's bounding box). Collinear
//! segments overlap when they share a point, touching included; a zero-length segment is
//! a point. The same test decides [`crate::Distance`]'s zero, so the two always agree.

use crate::query::distance::{d2, planar_common_point};
use crate::{Overlaps, Segment2};

/// Two closed segments in the plane share a point; decided exactly for any finite `f32`
/// coordinates.
///
/// ```
/// use raybox::{Overlaps, Segment2};
/// use glam::Vec2;
///
/// let a = Segment2::new(Vec2::ZERO, Vec2::new(4.0, 0.0));
/// // Collinear, touching at (4, 0); collinear with a gap; crossing.
/// assert!(a.overlaps(&Segment2::new(Vec2::new(4.0, 0.0), Vec2::new(6.0, 0.0))));
/// assert!(!a.overlaps(&Segment2::new(Vec2::new(4.5, 0.0), Vec2::new(6.0, 0.0))));
/// assert!(a.overlaps(&Segment2::new(Vec2::new(1.0, -1.0), Vec2::new(2.0, 3.0))));
/// ```
impl Overlaps<Segment2> for Segment2 {
    fn overlaps(&self, other: &Segment2) -> bool {
        planar_common_point((d2(self.start()), d2(self.end())), (d2(other.start()), d2(other.end())))
            .is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn seg(a: (f32, f32), b: (f32, f32)) -> Segment2 {
        Segment2::new(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1))
    }

    fn both(a: Segment2, b: Segment2) -> bool {
        let (ab, ba) = (a.overlaps(&b), b.overlaps(&a));
        assert_eq!(ab, ba, "{a:?} {b:?}");
        ab
    }

    #[test]
    fn crossing_touching_and_apart() {
        let x = seg((0.0, 0.0), (4.0, 4.0));
        assert!(both(x, seg((0.0, 4.0), (4.0, 0.0)))); // an X
        assert!(both(x, seg((2.0, 2.0), (5.0, 0.0)))); // an end on the other (a T)
        assert!(both(x, seg((4.0, 4.0), (5.0, 0.0)))); // end to end
        assert!(!both(x, seg((3.0, 0.0), (5.0, 2.0)))); // parallel-ish, apart
        // An end one f32 step off the other segment.
        let off = f32::from_bits(2.0f32.to_bits() + 1);
        assert!(!both(x, seg((2.0, off), (2.0, 9.0))));
        assert!(both(x, seg((2.0, 2.0), (2.0, 9.0))));
    }

    #[test]
    fn collinear_overlap_touch_gap_and_containment() {
        let a = seg((0.0, 0.0), (4.0, 2.0));
        assert!(both(a, seg((2.0, 1.0), (6.0, 3.0)))); // overlapping
        assert!(both(a, seg((4.0, 2.0), (6.0, 3.0)))); // touching end to end
        assert!(!both(a, seg((6.0, 3.0), (8.0, 4.0)))); // a gap on the same line
        assert!(both(a, seg((1.0, 0.5), (3.0, 1.5)))); // one inside the other
        assert!(both(a, seg((-2.0, -1.0), (8.0, 4.0)))); // and the other way round
        // Parallel, not collinear.
        assert!(!both(a, seg((0.0, 1.0), (4.0, 3.0))));
    }

    #[test]
    fn zero_length_segments_are_points() {
        let a = seg((0.0, 0.0), (4.0, 2.0));
        assert!(both(a, seg((2.0, 1.0), (2.0, 1.0))));
        assert!(both(a, seg((4.0, 2.0), (4.0, 2.0))));
        assert!(!both(a, seg((6.0, 3.0), (6.0, 3.0)))); // on the line, past the end
        assert!(!both(a, seg((2.0, 1.5), (2.0, 1.5))));
        let p = seg((1.0, 1.0), (1.0, 1.0));
        assert!(both(p, p));
        assert!(!both(p, seg((1.0, -0.0), (1.0, 0.0))));
        assert!(both(seg((0.0, -0.0), (0.0, -0.0)), seg((0.0, 0.0), (0.0, 0.0)))); // -0.0 == 0.0
    }
}
