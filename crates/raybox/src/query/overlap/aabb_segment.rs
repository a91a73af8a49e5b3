//! Axis-aligned box against segment, 2D: the separating-axis test on the three axes
//! that can separate a box from a segment (Ericson, *Real-Time Collision Detection*,
//! 5.3.3, for the box's axes, and the segment's normal): the box's `x` and `y` (the
//! segment's bounding box against the box) and the segment's normal (all four corners
//! strictly on one side of the segment's line).
//!
//! Exact for any finite `f32` inputs: the axis tests compare `f32` coordinates, and the
//! corner sides are `orient2d` signs (Shewchuk's adaptive predicate, exact). A segment
//! inside the box overlaps it (the corners then lie on both sides of its line): the test
//! does not look for end points inside the box or for crossed edges, so containment
//! cannot slip through. A zero-length segment has no normal (every corner is on its
//! "line"), and the bounding-box test alone decides it, as a point.

use crate::query::distance::{d2, orient2d};
use crate::query::reverse_overlaps;
use crate::{Aabb2, Overlaps, Segment2};

/// The closed box and the closed segment share a point; exact.
///
/// ```
/// use raybox::{Aabb2, Overlaps, Segment2};
/// use glam::Vec2;
///
/// let b = Aabb2::new(Vec2::ZERO, Vec2::new(2.0, 2.0));
/// // Fully inside: no end point outside, no edge crossed, still an overlap.
/// assert!(b.overlaps(&Segment2::new(Vec2::new(0.5, 0.5), Vec2::new(1.5, 1.0))));
/// // Passing the corner (2, 2) on the outside, and touching it.
/// assert!(!b.overlaps(&Segment2::new(Vec2::new(1.0, 3.5), Vec2::new(3.5, 1.0))));
/// assert!(Segment2::new(Vec2::new(1.0, 3.0), Vec2::new(3.0, 1.0)).overlaps(&b));
/// ```
impl Overlaps<Segment2> for Aabb2 {
    fn overlaps(&self, other: &Segment2) -> bool {
        let (p, q) = (other.start(), other.end());
        let (lo, hi) = (p.min(q), p.max(q));
        let (min, max) = (self.min(), self.max());
        // The box's axes: the segment's bounding box against the box (closed).
        if lo.x > max.x || hi.x < min.x || lo.y > max.y || hi.y < min.y {
            return false;
        }
        // The segment's normal: separated when every corner is strictly on one side.
        let corners = [(min.x, min.y), (max.x, min.y), (max.x, max.y), (min.x, max.y)];
        let sides = corners.map(|(x, y)| orient2d(d2(p), d2(q), d2(glam::Vec2::new(x, y))));
        !(sides.iter().all(|&s| s > 0.0) || sides.iter().all(|&s| s < 0.0))
    }
}

reverse_overlaps!(Aabb2 => Segment2);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn seg(a: (f32, f32), b: (f32, f32)) -> Segment2 {
        Segment2::new(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1))
    }

    fn both(b: &Aabb2, s: Segment2) -> bool {
        let (bs, sb) = (b.overlaps(&s), s.overlaps(b));
        assert_eq!(bs, sb, "{b:?} {s:?}");
        bs
    }

    #[test]
    fn through_inside_touching_and_past_a_corner() {
        let b = Aabb2::new(Vec2::new(1.0, 1.0), Vec2::new(3.0, 2.0));
        assert!(both(&b, seg((0.0, 1.5), (4.0, 1.5)))); // through, no end inside
        assert!(both(&b, seg((1.5, 1.2), (2.5, 1.8)))); // inside: no edge crossed
        assert!(both(&b, seg((0.0, 2.0), (4.0, 2.0)))); // along the top face
        assert!(both(&b, seg((3.0, 2.0), (5.0, 7.0)))); // an end on the corner
        assert!(both(&b, seg((2.0, 3.0), (4.0, 1.0)))); // through the corner (3, 2) only
        assert!(!both(&b, seg((2.0, 3.0), (4.0, f32::from_bits(1.0f32.to_bits() + 1)))));
        // Diagonal past the corner: its bounding box overlaps the box, its line does not.
        assert!(!both(&b, seg((2.5, 3.0), (4.0, 1.5))));
        assert!(!both(&b, seg((0.0, 3.0), (4.0, 3.0)))); // above
    }

    #[test]
    fn zero_length_segments_and_flat_boxes() {
        let b = Aabb2::new(Vec2::new(1.0, 1.0), Vec2::new(3.0, 2.0));
        assert!(both(&b, seg((2.0, 1.5), (2.0, 1.5))));
        assert!(both(&b, seg((3.0, 2.0), (3.0, 2.0)))); // on the corner
        assert!(!both(&b, seg((3.5, 1.5), (3.5, 1.5))));
        // A box of zero height (a segment) crossed by a segment, and missed.
        let flat = Aabb2::new(Vec2::new(0.0, 1.0), Vec2::new(4.0, 1.0));
        assert!(both(&flat, seg((2.0, 0.0), (2.0, 5.0))));
        assert!(both(&flat, seg((4.0, 1.0), (6.0, 1.0)))); // collinear, touching
        assert!(!both(&flat, seg((4.5, 0.0), (5.5, 2.0))));
        // A point box.
        let point = Aabb2::new(Vec2::new(1.0, 1.0), Vec2::new(1.0, 1.0));
        assert!(both(&point, seg((0.0, 0.0), (2.0, 2.0))));
        assert!(!both(&point, seg((0.0, 0.0), (2.0, 2.000_000_2))));
    }
}
