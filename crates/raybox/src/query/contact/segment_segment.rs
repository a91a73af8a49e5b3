//! Segment against segment, 2D and 3D.
//!
//! - **2D**: two segment cores by the kernel of `rounded.rs` (the capsule–capsule contact
//!   with both radii zero), gated by the exact overlap test of `overlap/segment_segment.rs`
//!   (which the kernel's closest points of two planar segments share, so the two never
//!   disagree). The translations of the second segment that keep the pair overlapping form
//!   their Minkowski difference, a parallelogram with sides along the two segments: its
//!   edge normals are the two segments' normals, the kernel's separating axes. So segments
//!   that cross leave each other the shorter way an end of one can reach the other's line
//!   (a positive depth), an end on the other segment (a T) or collinear segments that share
//!   a piece only touch (depth zero, across the line).
//! - **3D**: segments that meet lie in a common plane (a line, for collinear ones), and
//!   moving either one off it by any amount separates them: they only touch, with depth
//!   zero, as coplanar triangles do in `triangle_triangle.rs`. The normal is the unit
//!   common perpendicular `(q₁ - p₁) × (q₂ - p₂)` of the two directions (for parallel
//!   segments, or a zero-length one, any unit vector perpendicular to the line), the point
//!   is a common point (the segments' closest points, Ericson, *Real-Time Collision
//!   Detection*, 5.1.9, computed in `f64`, midway). `Some` exactly when the exact overlap
//!   test says the segments meet; the kernel's closest points are not used to decide (for
//!   segments that cross off the coordinate planes they are only within rounding of each
//!   other, and a hair apart would read as apart).
//!
//! Both pairs are computed in a fixed order of the two segments (`segment_order`), so
//! `b.contact(a)` is `a.contact(b)` with the normal reversed, to the bit.

use core::cmp::Ordering;

use glam::DVec3;

use super::{ContactPoints3, gated_contact};
use crate::query::distance::{Seg, d3, segment_order, segment_segment_closest};
use crate::{Contact, Contact3, Overlaps, Segment2, Segment3};

gated_contact!(@one true, Contact2, ContactPoints2, crate::query::distance::f2, Segment2, Segment2);

impl Contact<Segment3> for Segment3 {
    type Output = Contact3;

    /// Segments that meet only touch (depth zero), along their common perpendicular.
    ///
    /// ```
    /// use raybox::{Contact, Segment3};
    /// use glam::Vec3;
    ///
    /// let a = Segment3::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
    /// let b = Segment3::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0));
    /// let c = a.contact(&b).unwrap();
    /// assert_eq!((c.normal.z.abs(), c.depth, c.points[0]), (1.0, 0.0, Vec3::ZERO));
    /// assert_eq!(b.contact(&a).unwrap().normal, -c.normal);
    /// assert!(a.contact(&Segment3::new(Vec3::new(0.0, -1.0, 1e-3), Vec3::Y)).is_none());
    /// ```
    #[inline]
    fn contact(&self, other: &Segment3) -> Option<Contact3> {
        if !self.overlaps(other) {
            return None;
        }
        let (a, b) = ((d3(self.start()), d3(self.end())), (d3(other.start()), d3(other.end())));
        Some(if segment_order(a, 0.0, b, 0.0) == Ordering::Greater {
            touching(b, a).flipped()
        } else {
            touching(a, b)
        })
    }
}

/// The contact of two segments in space that meet: depth zero, the common perpendicular.
#[inline]
fn touching(a: Seg, b: Seg) -> Contact3 {
    let (da, db) = (a.1 - a.0, b.1 - b.0);
    let across = da.cross(db);
    let normal = if across != DVec3::ZERO {
        across.normalize()
    } else if da != DVec3::ZERO {
        da.normalize().any_orthonormal_vector()
    } else if db != DVec3::ZERO {
        db.normalize().any_orthonormal_vector()
    } else {
        DVec3::X // two points, at one place
    };
    let c = segment_segment_closest(a, b);
    Contact3 {
        normal: normal.as_vec3(),
        depth: 0.0,
        points: ContactPoints3::one(((c.on_a + c.on_b) / 2.0).as_vec3()),
    }
}

#[cfg(test)]
mod tests {
    use crate::{Contact, Segment2, Segment3};
    use glam::{Vec2, Vec3};

    fn seg2(a: (f32, f32), b: (f32, f32)) -> Segment2 {
        Segment2::new(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1))
    }

    #[test]
    fn crossing_segments_in_the_plane_leave_by_the_nearer_end() {
        let x = seg2((-2.0, 0.0), (2.0, 0.0));
        // Crossing at (0.5, 0): the lower end is 1 below the x axis, x's right end 1.5 to
        // the right of the vertical: up by 1.
        let k = x.contact(&seg2((0.5, -1.0), (0.5, 3.0))).unwrap();
        assert_eq!((k.normal, k.depth, k.points[0]), (Vec2::Y, 1.0, Vec2::new(0.5, 0.0)));
        assert_eq!(seg2((0.5, -1.0), (0.5, 3.0)).contact(&x).unwrap().normal, Vec2::NEG_Y);
        // A T (an end on x) and collinear overlapping segments: touching.
        assert_eq!(
            x.contact(&seg2((1.0, 0.0), (1.0, 2.0))).map(|k| (k.normal, k.depth)),
            Some((Vec2::Y, 0.0))
        );
        let k = x.contact(&seg2((1.0, 0.0), (3.0, 0.0))).unwrap();
        assert_eq!((k.normal.x, k.normal.y.abs(), k.depth), (0.0, 1.0, 0.0));
        assert!(x.contact(&seg2((2.5, 0.0), (3.0, 0.0))).is_none());
    }

    #[test]
    fn segments_in_space_touch_along_their_common_perpendicular() {
        // Crossing at (1, 1, 1), in the plane x = y (off the coordinate planes).
        let a = Segment3::new(Vec3::ZERO, Vec3::new(2.0, 2.0, 2.0));
        let b = Segment3::new(Vec3::new(0.0, 0.0, 2.0), Vec3::new(2.0, 2.0, 0.0));
        let k = a.contact(&b).unwrap();
        let n = Vec3::new(1.0, -1.0, 0.0).normalize();
        assert!((k.normal.dot(n).abs() - 1.0).abs() < 1e-6 && k.depth == 0.0, "{k:?}");
        assert!((k.points[0] - Vec3::ONE).length() < 1e-6);
        assert_eq!(b.contact(&a).unwrap().normal, -k.normal);
        // Collinear, sharing [1, 2] on the line: touching, across the line.
        let c = Segment3::new(Vec3::ONE, Vec3::splat(3.0));
        let k = a.contact(&c).unwrap();
        assert!(k.normal.dot(Vec3::ONE).abs() < 1e-6 && k.depth == 0.0, "{k:?}");
        // An end moved off the plane x = y by 2^-40: skew lines, apart.
        let off = Segment3::new(Vec3::new(2f32.powi(-40), 0.0, 2.0), Vec3::new(2.0, 2.0, 0.0));
        assert!(a.contact(&off).is_none() && off.contact(&a).is_none());
        // Zero-length segments: a point on the other segment, and two points at one place.
        let p = Segment3::new(Vec3::ONE, Vec3::ONE);
        assert_eq!(a.contact(&p).map(|k| k.depth), Some(0.0));
        assert_eq!(p.contact(&p).map(|k| (k.normal.length(), k.depth)), Some((1.0, 0.0)));
    }
}
