//! Segment against segment, 2D and 3D, exact for any finite `f32` coordinates.
//!
//! - **2D**: the exact planar test of `distance/segment_segment.rs` (Cormen et al.,
//!   *Introduction to Algorithms*, 33.1, closed: the signs of four orientations, each exact
//!   by Shewchuk's adaptive predicate; an end on the other segment's line counts when it
//!   lies within that segment's bounding box). Collinear segments overlap when they share a
//!   point, touching included; a zero-length segment is a point. The same test decides
//!   [`crate::Distance`]'s zero, so the two always agree.
//! - **3D**: two segments can only meet if their four ends are coplanar, which the exact
//!   `orient3d` of `orient.rs` decides (a non-zero determinant: skew lines, apart). Four
//!   coplanar points lie in a plane, or a line, or are one point; for each there is a
//!   coordinate axis `eₖ` not parallel to it (the plane's normal has a non-zero component
//!   `k`; a line's direction is parallel to at most one axis), and dropping coordinate `k`
//!   maps it one to one onto a coordinate plane. The segments then meet exactly when their
//!   projections do in that plane; and as meeting segments have meeting projections in
//!   every coordinate plane, they meet exactly when their projections meet in all three.
//!   That needs no normal and no choice of `k`, which matters for collinear and
//!   zero-length segments, whose plane is not unique. (The usual projection, as in
//!   Möller's coplanar triangle test, drops the axis of the normal's largest component, to
//!   keep rounded arithmetic well conditioned; with exact predicates every one-to-one
//!   projection decides alike.) Each planar test is the 2D one above, on coordinates that
//!   are `f32` values. [`crate::Distance`] for `Segment3` takes its zero from this test.

use glam::Vec3;

use super::orient::{orient3d, project, segments_meet_2d};
use crate::query::distance::{d2, planar_common_point};
use crate::{Overlaps, Segment2, Segment3};

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
    #[inline]
    fn overlaps(&self, other: &Segment2) -> bool {
        planar_common_point((d2(self.start()), d2(self.end())), (d2(other.start()), d2(other.end())))
            .is_some()
    }
}

/// Whether the closed segments `[p1, q1]` and `[p2, q2]` (either may be a point) meet in
/// 3D, exactly: their ends are coplanar, and their projections meet in all three
/// coordinate planes (see the module docs for why that decides).
#[inline]
pub(crate) fn segments_meet_3d(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> bool {
    orient3d(p1, q1, p2, q2) == 0.0
        && (0..3).all(|k| segments_meet_2d(project(p1, k), project(q1, k), project(p2, k), project(q2, k)))
}

impl Overlaps<Segment3> for Segment3 {
    /// Two closed segments in space share a point; decided exactly for any finite `f32`
    /// coordinates (crossing, touching at an end, collinear and overlapping or touching,
    /// zero-length segments as points).
    ///
    /// ```
    /// use raybox::{Overlaps, Segment3};
    /// use glam::Vec3;
    ///
    /// let a = Segment3::new(Vec3::ZERO, Vec3::new(4.0, 4.0, 4.0));
    /// // Crossing at (2, 2, 2); passing one f32 step above it; collinear, touching at an end.
    /// assert!(a.overlaps(&Segment3::new(Vec3::new(2.0, 0.0, 4.0), Vec3::new(2.0, 4.0, 0.0))));
    /// let above = f32::from_bits(4.0f32.to_bits() + 1);
    /// assert!(!a.overlaps(&Segment3::new(Vec3::new(2.0, 0.0, above), Vec3::new(2.0, 4.0, 0.0))));
    /// assert!(a.overlaps(&Segment3::new(Vec3::splat(4.0), Vec3::splat(6.0))));
    /// ```
    #[inline]
    fn overlaps(&self, other: &Segment3) -> bool {
        let (p1, q1, p2, q2) = (self.start(), self.end(), other.start(), other.end());
        // Bounding boxes apart: apart (comparisons of coordinates, exact, and cheap).
        if p1.min(q1).cmpgt(p2.max(q2)).any() || p2.min(q2).cmpgt(p1.max(q1)).any() {
            return false;
        }
        segments_meet_3d(p1, q1, p2, q2)
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

    // -----------------------------------------------------------------------------------
    // 3D

    fn s3(a: (f32, f32, f32), b: (f32, f32, f32)) -> Segment3 {
        Segment3::new(Vec3::new(a.0, a.1, a.2), Vec3::new(b.0, b.1, b.2))
    }

    /// The answer in both argument orders and both directions of each segment, which must
    /// agree, and agree with the distance's zero.
    fn both3(a: Segment3, b: Segment3) -> bool {
        use crate::Distance;
        let want = a.overlaps(&b);
        let flip = |s: Segment3| Segment3::new(s.end(), s.start());
        for (x, y) in [(a, b), (flip(a), b), (a, flip(b)), (flip(a), flip(b))] {
            assert_eq!(x.overlaps(&y), want, "{x:?} {y:?}");
            assert_eq!(y.overlaps(&x), want, "{y:?} {x:?}");
            assert_eq!(x.distance(&y) == 0.0, want, "distance {} for {x:?} {y:?}", x.distance(&y));
        }
        want
    }

    fn up(x: f32) -> f32 {
        f32::from_bits(x.to_bits() + 1)
    }

    #[test]
    fn crossing_touching_and_skew_in_3d() {
        let a = s3((0.0, 0.0, 0.0), (4.0, 4.0, 4.0));
        assert!(both3(a, s3((2.0, 0.0, 4.0), (2.0, 4.0, 0.0)))); // crossing at (2, 2, 2)
        assert!(both3(a, s3((1.0, 1.0, 1.0), (1.0, 5.0, -3.0)))); // an end on a (a T)
        assert!(both3(a, s3((4.0, 4.0, 4.0), (9.0, -1.0, 3.0)))); // end to end
        assert!(both3(a, s3((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)))); // a point on a's end
        // One f32 step off: the second segment's end above the crossing, or beside it.
        assert!(!both3(a, s3((2.0, 0.0, up(4.0)), (2.0, 4.0, 0.0))));
        assert!(!both3(a, s3((1.0, 1.0, up(1.0)), (1.0, 5.0, -3.0))));
        assert!(!both3(a, s3((up(4.0), 4.0, 4.0), (9.0, -1.0, 3.0))));
        // Skew lines whose closest points are inside both segments, 1 apart.
        assert!(!both3(s3((-1.0, 0.0, 0.0), (1.0, 0.0, 0.0)), s3((0.0, -1.0, 1.0), (0.0, 1.0, 1.0))));
        // In the plane z = 1, parallel and apart, though their x and y ranges overlap: only
        // the projection along z tells.
        assert!(!both3(s3((0.0, 0.0, 1.0), (4.0, 4.0, 1.0)), s3((3.0, 0.0, 1.0), (4.0, 1.0, 1.0))));
        // Coplanar, the lines crossing outside the second segment.
        assert!(!both3(a, s3((2.0, 0.0, 4.0), (2.0, 1.5, 2.5))));
        assert!(both3(a, s3((2.0, 0.0, 4.0), (2.0, 2.0, 2.0))));
    }

    #[test]
    fn collinear_parallel_and_zero_length_in_3d() {
        let a = s3((1.0, 2.0, 3.0), (3.0, 6.0, 11.0)); // direction (1, 2, 4)
        assert!(both3(a, s3((2.0, 4.0, 7.0), (4.0, 8.0, 15.0)))); // collinear, overlapping
        assert!(both3(a, s3((3.0, 6.0, 11.0), (4.0, 8.0, 15.0)))); // collinear, touching
        assert!(!both3(a, s3((4.0, 8.0, 15.0), (5.0, 10.0, 19.0)))); // collinear, a gap
        assert!(both3(a, s3((0.0, 0.0, -1.0), (5.0, 10.0, 19.0)))); // containing a
        assert!(both3(a, s3((1.5, 3.0, 5.0), (2.5, 5.0, 9.0)))); // contained in a
        // Parallel and coplanar (shifted by (0, 0, 1), which is not along a): apart.
        assert!(!both3(a, s3((1.0, 2.0, 4.0), (3.0, 6.0, 12.0))));
        // Points: on a, on its line past the end, beside it, and two equal points.
        assert!(both3(a, s3((2.0, 4.0, 7.0), (2.0, 4.0, 7.0))));
        assert!(!both3(a, s3((4.0, 8.0, 15.0), (4.0, 8.0, 15.0))));
        assert!(!both3(a, s3((2.0, 4.0, up(7.0)), (2.0, 4.0, up(7.0)))));
        let p = s3((1.0, -2.0, 3.0), (1.0, -2.0, 3.0));
        assert!(both3(p, p));
        assert!(!both3(p, s3((1.0, -2.0, up(3.0)), (1.0, -2.0, up(3.0)))));
        assert!(both3(s3((0.0, -0.0, 0.0), (0.0, -0.0, 0.0)), s3((-0.0, 0.0, 0.0), (0.0, 0.0, 0.0))));
        // A segment along an axis: every projection but one flattens it.
        let x = s3((-1.0, 5.0, 5.0), (1.0, 5.0, 5.0));
        assert!(both3(x, s3((0.0, 5.0, 5.0), (7.0, 5.0, 5.0))));
        assert!(!both3(x, s3((2.0, 5.0, 5.0), (7.0, 5.0, 5.0))));
        assert!(!both3(x, s3((-1.0, 5.0, 6.0), (1.0, 5.0, 6.0))));
    }

    /// Crossings far from the origin and at tiny scales: only the exact signs see them.
    #[test]
    fn crossings_at_extreme_scales() {
        for scale in [2f32.powi(-120), 2f32.powi(-60), 1.0, 2f32.powi(60), 2f32.powi(100)] {
            let v = |x: f32, y: f32, z: f32| Vec3::new(x, y, z) * scale;
            let a = Segment3::new(v(-3.0, 1.0, 2.0), v(5.0, 5.0, 6.0)); // through (1, 3, 4)
            let b = Segment3::new(v(1.0, -1.0, 7.0), v(1.0, 7.0, 1.0)); // through (1, 3, 4)
            assert!(both3(a, b), "scale {scale}");
            let c = Segment3::new(v(1.0, -1.0, 7.0), Vec3::new(1.0, 7.0, up(1.0)) * scale);
            assert!(!both3(a, c), "scale {scale}");
        }
    }
}
