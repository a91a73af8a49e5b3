//! Oriented box against segment, 2D: the separating-axis test on the box's two axes and
//! the segment's normal (Ericson, *Real-Time Collision Detection*, 4.4 and 5.3.3), with
//! projections in `f64`, as the other oriented-box tests (`obb_obb.rs`).
//!
//! On an axis `l`, the box projects to `c·l ± (h_x |u·l| + h_y |v·l|)` (`u`, `v` its axes)
//! and the segment to `m·l ± |w·l|`, `m` its midpoint and `w` half of `end - start`; an
//! axis separates when the centres' projections are farther apart than the sum of the
//! radii (closed: touching overlaps). The segment's normal `(-w.y, w.x)` has `w·l = 0`
//! exactly, and for a zero-length segment it is zero: no axis, and the box's axes alone
//! decide (a point in the box). A segment inside the box is caught as any other overlap:
//! no axis separates it, whether or not an end point or an edge is involved.
//!
//! Precision: `m` and `w` are exact in `f64` unless the ends' coordinates differ by more
//! than `2^29` in scale, and each projection is a dot product rounded in `f64`, so the
//! answer is exact except within `f64` rounding (about `1e-15` relative) of touching.
//!
//! Oriented box against segment (3D): move the segment into the box frame (in `f64`), then
//! the 13-axis test of `aabb_triangle.rs` on the segment as a degenerate triangle
//! `(p, q, q)`: its zero normal and zero edge are skipped, which leaves the box's three face
//! normals and the three cross products of its axes with the segment (Ericson, *Real-Time
//! Collision Detection*, 5.3.3), as for `obb_triangle.rs`.

use crate::arrays::Each;
use glam::DVec2;

use crate::query::reverse_overlaps;
use crate::{Obb2, Overlaps, Segment2};

/// The closed oriented box and the closed segment share a point.
///
/// ```
/// use raybox::{Obb2, Overlaps, Segment2};
/// use glam::Vec2;
/// use std::f32::consts::FRAC_PI_4;
///
/// // A 2x2 square turned by 45 degrees: a diamond with corners at distance sqrt 2.
/// let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, FRAC_PI_4);
/// assert!(diamond.overlaps(&Segment2::new(Vec2::new(-0.2, 0.1), Vec2::new(0.3, -0.2)))); // inside
/// assert!(!diamond.overlaps(&Segment2::new(Vec2::new(0.9, 0.9), Vec2::new(3.0, 0.9))));
/// assert!(Segment2::new(Vec2::new(1.2, -1.0), Vec2::new(1.2, 1.0)).overlaps(&diamond));
/// ```
impl Overlaps<Segment2> for Obb2 {
    #[inline]
    fn overlaps(&self, other: &Segment2) -> bool {
        let (p, q) = (other.start().as_dvec2(), other.end().as_dvec2());
        let (m, w) = ((p + q) * 0.5, (q - p) * 0.5);
        let [u, v] = self.axes().each(|a| a.as_dvec2());
        let h = self.half_extents().as_dvec2();
        let t = m - self.center().as_dvec2();
        let separates = |l: DVec2, seg_radius: f64| {
            t.dot(l).abs() > h.x * u.dot(l).abs() + h.y * v.dot(l).abs() + seg_radius
        };
        let n = DVec2::new(-w.y, w.x);
        !(separates(u, w.dot(u).abs()) || separates(v, w.dot(v).abs()) || separates(n, 0.0))
    }
}

reverse_overlaps!(Obb2 => Segment2);

#[cfg(test)]
mod tests_2d {
    use super::*;
    use glam::Vec2;

    fn seg(a: (f32, f32), b: (f32, f32)) -> Segment2 {
        Segment2::new(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1))
    }

    fn both(b: &Obb2, s: Segment2) -> bool {
        let (bs, sb) = (b.overlaps(&s), s.overlaps(b));
        assert_eq!(bs, sb, "{b:?} {s:?}");
        bs
    }

    #[test]
    fn quarter_turned_box_is_exact() {
        // Turned by exactly 90 degrees (axes (0, 1) and (-1, 0)): the box [-1, 1] x [-2, 2].
        let b = Obb2::try_from_rotation(Vec2::ZERO, Vec2::new(2.0, 1.0), Vec2::Y).unwrap();
        assert!(both(&b, seg((-0.5, -1.0), (0.5, 1.0)))); // inside
        assert!(both(&b, seg((1.0, 3.0), (1.0, -3.0)))); // along the face x = 1
        assert!(both(&b, seg((1.0, 2.0), (4.0, 4.0)))); // an end on the corner
        assert!(!both(&b, seg((1.0, 2.5), (3.0, 1.5)))); // past the corner (1, 2)
        assert!(both(&b, seg((0.0, 3.0), (2.0, 1.0)))); // through the corner only
        assert!(!both(&b, seg((0.0, 3.0), (2.0, f32::from_bits(1.0f32.to_bits() + 1)))));
        assert!(both(&b, seg((0.5, 0.5), (0.5, 0.5)))); // a point inside
        assert!(!both(&b, seg((1.5, 0.5), (1.5, 0.5))));
    }

    #[test]
    fn diamond_edges_and_containment() {
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let r = 2f32.sqrt();
        assert!(both(&diamond, seg((-0.1, -0.1), (0.1, 0.2))));
        assert!(both(&diamond, seg((-3.0, 0.0), (3.0, 0.0)))); // through two corners
        // Parallel to an edge, just outside and just inside its line x + y = sqrt 2.
        assert!(!both(&diamond, seg((r * 0.5 + 0.01, r * 0.5 + 0.01), (r + 0.02, 0.01))));
        assert!(both(&diamond, seg((r * 0.5 - 0.01, r * 0.5 - 0.01), (r - 0.02, -0.01))));
        // Its bounding box overlaps the diamond's, but it passes the corner region.
        assert!(!both(&diamond, seg((0.8, 0.9), (1.3, 0.6))));
    }
}

use crate::query::overlap::box_triangle_separated;
use crate::{Obb3, Segment3};

impl Overlaps<Segment3> for Obb3 {
    /// Closed, in `f64` in the box frame.
    ///
    /// ```
    /// use raybox::{Obb3, Overlaps, Segment3};
    /// use glam::{Quat, Vec3};
    ///
    /// // A unit cube turned 45 degrees about z reaches out to x = sqrt(2) / 2 = 0.7071.
    /// let b = Obb3::new(Vec3::ZERO, Vec3::splat(0.5), Quat::from_rotation_z(std::f32::consts::FRAC_PI_4));
    /// let post = |x: f32| Segment3::new(Vec3::new(x, 0.0, -3.0), Vec3::new(x, 0.0, 3.0));
    /// assert!(b.overlaps(&post(0.7)) && post(0.7).overlaps(&b));
    /// assert!(!b.overlaps(&post(0.71)));
    /// ```
    #[inline]
    fn overlaps(&self, other: &Segment3) -> bool {
        let to_local = self.rotation().as_dmat3().transpose();
        let c = self.center().as_dvec3();
        let [p, q] = [other.start(), other.end()].each(|x| to_local * (x.as_dvec3() - c));
        !box_triangle_separated(self.half_extents().as_dvec3(), [p, q, q])
    }
}

reverse_overlaps!(Obb3 => Segment3);

#[cfg(test)]
mod tests_3d {
    use super::*;
    use glam::{Quat, Vec3};

    #[test]
    fn turned_box_edge_axes_and_points() {
        let b = Obb3::new(Vec3::new(1.0, 0.0, 0.0), Vec3::new(1.0, 0.5, 0.5), Quat::IDENTITY);
        // With an identity rotation the frame change is exact: touching counts.
        let s = |p: Vec3, q: Vec3| Segment3::new(p, q);
        assert!(b.overlaps(&s(Vec3::new(2.0, 0.5, 0.5), Vec3::new(3.0, 3.0, 3.0)))); // a corner
        assert!(!b.overlaps(&s(Vec3::new(2.01, 0.5, 0.5), Vec3::new(3.0, 3.0, 3.0))));
        // Past the edge x = 2, y = 0.5 diagonally: x + y = 2.5 touches.
        assert!(b.overlaps(&s(Vec3::new(2.5, 0.0, 0.0), Vec3::new(1.5, 1.0, 0.0))));
        assert!(!b.overlaps(&s(Vec3::new(2.6, 0.0, 0.0), Vec3::new(1.6, 1.0, 0.0))));
        // Inside, and a point inside and outside.
        assert!(s(Vec3::new(0.5, 0.0, 0.0), Vec3::new(1.5, 0.1, 0.1)).overlaps(&b));
        assert!(b.overlaps(&s(Vec3::ONE * 0.25, Vec3::ONE * 0.25)));
        assert!(!b.overlaps(&s(Vec3::ONE, Vec3::ONE)));
        // Turned a quarter about x: half extents y and z trade places.
        let turned = Obb3::new(
            Vec3::ZERO,
            Vec3::new(1.0, 2.0, 0.25),
            Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        );
        assert!(turned.overlaps(&s(Vec3::new(0.0, 0.2, -1.9), Vec3::new(0.0, 0.2, 1.9))));
        assert!(!turned.overlaps(&s(Vec3::new(0.0, 0.3, -1.9), Vec3::new(0.0, 0.3, 1.9))));
    }
}
