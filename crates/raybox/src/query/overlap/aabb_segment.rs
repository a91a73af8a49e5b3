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
//!
//! Axis-aligned box against segment (3D), exact: the separating-axis test with the box's
//! three face normals and the three cross products of a box axis with the segment
//! (Ericson, *Real-Time Collision Detection*, 5.3.3), each decided without rounding.
//!
//! - A face axis separates when both ends are beyond the same face: comparisons of
//!   coordinates.
//! - An axis `e_k × d` (`d = q - p`) is perpendicular to the segment, which projects to one
//!   value, and separates exactly when, in the coordinate plane along `e_k`, the line
//!   through the projected ends leaves the box's projected rectangle strictly on one side:
//!   the four corners' orientations against that line (the exact `orient2d`) all share one
//!   strict sign. Where the projected segment is a point, the axis is zero and skipped.

use crate::arrays::{Each, all_equal};
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
    #[inline]
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
        let sides = corners.each(|(x, y)| orient2d(d2(p), d2(q), d2(glam::Vec2::new(x, y))));
        !(sides.iter().all(|&s| s > 0.0) || sides.iter().all(|&s| s < 0.0))
    }
}

reverse_overlaps!(Aabb2 => Segment2);

#[cfg(test)]
mod tests_2d {
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

use glam::{DVec3, Vec3};

use super::orient::project;
use crate::{Aabb3, Segment3};

/// Whether the closed segment `[p, q]` meets the closed box `[min, max]`. Exact.
#[inline]
pub(crate) fn aabb_segment_overlap(min: Vec3, max: Vec3, p: Vec3, q: Vec3) -> bool {
    if p.min(q).cmpgt(max).any() || p.max(q).cmplt(min).any() {
        return false;
    }
    (0..3).all(|k| {
        let (a, b) = (project(p, k), project(q, k));
        if a == b {
            return true; // the segment runs along axis k: no such axis
        }
        let (lo, hi) = (project(min, k), project(max, k));
        let corners = [lo, DVec3::new(lo.x, hi.y, 0.0), DVec3::new(hi.x, lo.y, 0.0), hi];
        let s = corners.each(|x| orient2d(a, b, x));
        !(all_equal(s, 1.0) || all_equal(s, -1.0))
    })
}

impl Overlaps<Segment3> for Aabb3 {
    /// Exact: a segment inside the box, touching a face, an edge or a corner, or a point on
    /// the boundary overlaps.
    ///
    /// ```
    /// use raybox::{Aabb3, Overlaps, Segment3};
    /// use glam::Vec3;
    ///
    /// let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
    /// // Grazing the edge x = 1, y = 1 at its middle, and missing it.
    /// let graze = Segment3::new(Vec3::new(2.0, 0.0, 0.5), Vec3::new(0.0, 2.0, 0.5));
    /// assert!(b.overlaps(&graze) && graze.overlaps(&b));
    /// assert!(!b.overlaps(&Segment3::new(Vec3::new(2.0, 0.0, 0.5), Vec3::new(0.0, 2.001, 0.5))));
    /// ```
    #[inline]
    fn overlaps(&self, other: &Segment3) -> bool {
        aabb_segment_overlap(self.min(), self.max(), other.start(), other.end())
    }
}

reverse_overlaps!(Aabb3 => Segment3);

#[cfg(test)]
mod tests_3d {
    use super::*;

    fn meets(b: Aabb3, p: Vec3, q: Vec3) -> bool {
        let want = b.overlaps(&Segment3::new(p, q));
        assert_eq!(Segment3::new(q, p).overlaps(&b), want, "{b:?} {p} {q}");
        want
    }

    #[test]
    fn inside_through_and_touching() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let v = Vec3::new;
        assert!(meets(b, v(0.2, 0.2, 0.2), v(0.8, 0.5, 0.3))); // inside
        assert!(meets(b, v(-1.0, 0.5, 0.5), v(2.0, 0.5, 0.5))); // through, ends outside
        assert!(meets(b, v(1.0, 0.5, 0.5), v(3.0, 0.5, 0.5))); // ending on a face
        assert!(meets(b, v(1.0, 1.0, 1.0), v(3.0, 4.0, 5.0))); // from a corner
        assert!(meets(b, v(-1.0, 1.0, 2.0), v(1.0, 1.0, 0.0))); // lying in the face y = 1
        assert!(!meets(b, v(1.0 + 1e-6, 0.5, 0.5), v(3.0, 0.5, 0.5)));
        // Diagonal past the corner (1, 1, *): x + y = 2 touches, 2.001 does not.
        assert!(meets(b, v(2.0, 0.0, 0.5), v(0.0, 2.0, 0.5)));
        assert!(!meets(b, v(2.001, 0.0, 0.5), v(0.0, 2.001, 0.5)));
        // The segment from (2, 1, 0) to (0, 1, 2) runs in the plane of the face y = 1 and
        // touches the box only at the corner (1, 1, 1); moved up by a hair in y, apart.
        assert!(meets(b, v(2.0, 1.0, 0.0), v(0.0, 1.0, 2.0)));
        assert!(!meets(b, v(2.0, 1.0 + 1e-6, 0.0), v(0.0, 1.0 + 1e-6, 2.0)));
        // Near the edge x = y = 1: along x + y = 1.5 through the box; along x + y = 2.5 apart,
        // though no face axis separates them (only the axis z × d does).
        assert!(meets(b, v(1.5, 0.0, 0.5), v(0.0, 1.5, 0.5)));
        assert!(!meets(b, v(2.5, 0.0, 0.5), v(0.0, 2.5, 0.5)));
        // Zero-length: on a corner, inside, outside.
        assert!(meets(b, Vec3::ONE, Vec3::ONE));
        assert!(meets(b, Vec3::splat(0.5), Vec3::splat(0.5)));
        assert!(!meets(b, Vec3::splat(1.5), Vec3::splat(1.5)));
        // A flat box (zero extent in z) and a segment through it.
        let flat = Aabb3::new(Vec3::ZERO, v(1.0, 1.0, 0.0));
        assert!(meets(flat, v(0.5, 0.5, -1.0), v(0.5, 0.5, 1.0)));
        assert!(meets(flat, v(1.5, 0.5, -1.0), v(0.5, 1.5, 1.0))); // through its corner (1, 1, 0)
        assert!(!meets(flat, v(1.6, 0.5, -1.0), v(0.6, 1.5, 1.0)));
    }
}
