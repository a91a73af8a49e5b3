//! Triangle against segment (3D): a triangle core and a segment core (a segment is a
//! capsule of radius zero: this is `triangle_capsule.rs` with `r = 0`), by the kernel of
//! `rounded.rs`, gated by the exact overlap test of `overlap/triangle_segment.rs`, so that
//! the contact is `Some` exactly when [`crate::Overlaps`] says the shapes overlap.
//!
//! - **Through the triangle** (the ends strictly on both sides of its plane, the crossing
//!   inside it): the translations of the segment that keep it on the triangle form their
//!   Minkowski difference, a prism (the triangle swept along the segment) whose faces are
//!   normal to the triangle's plane and to the cross products of its edges with the
//!   segment: the kernel's separating axes (Ericson, *Real-Time Collision Detection*,
//!   5.2.1). So the depth is the shorter of pulling the segment back through the plane
//!   until its nearer end is on it and sliding it off across an edge.
//! - **In the triangle's plane** (both ends on it, decided exactly by `orient3d`): the
//!   shapes only touch, and moving the segment off the plane by any amount separates them,
//!   as for coplanar triangles in `triangle_triangle.rs`: depth zero, along the
//!   triangle's unit normal `(b - a) × (c - a)`, the point a common point.
//! - **Otherwise touching** (an end on the triangle, or the segment across an edge or a
//!   vertex from outside): depth zero, from the kernel, or from its touching fallback where
//!   `f64` GJK reads the pair as a hair apart (`overlapping_rounded_contact`).
//!
//! One contact point (a common point the kernel finds), not a clipped manifold.

use super::reverse_contact;
use super::triangle::overlapping_contact;
use crate::query::distance::ToRounded;
use crate::query::overlap::orient3d;
use crate::{Contact, Contact3, Overlaps, Segment3, Triangle3};

impl Contact<Segment3> for Triangle3 {
    type Output = Contact3;

    /// ```
    /// use raybox::{Contact, Segment3, Triangle3};
    /// use glam::Vec3;
    ///
    /// let floor = Triangle3::new(Vec3::ZERO, Vec3::new(8.0, 0.0, 0.0), Vec3::new(0.0, 8.0, 0.0));
    /// // A post through the floor, 1 below it and 3 above: pulled up by 1.
    /// let post = Segment3::new(Vec3::new(1.0, 1.0, -1.0), Vec3::new(1.0, 1.0, 3.0));
    /// let c = floor.contact(&post).unwrap();
    /// assert!((c.normal - Vec3::Z).length() < 1e-6 && (c.depth - 1.0).abs() < 1e-6);
    /// // A stick lying on the floor only touches it.
    /// let stick = Segment3::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(9.0, 1.0, 0.0));
    /// assert_eq!(floor.contact(&stick).map(|c| (c.normal, c.depth)), Some((Vec3::Z, 0.0)));
    /// ```
    #[inline]
    fn contact(&self, other: &Segment3) -> Option<Contact3> {
        if !self.overlaps(other) {
            return None;
        }
        let k = overlapping_contact(&self.to_rounded(), &other.to_rounded());
        let [a, b, c] = self.vertices();
        if orient3d(a, b, c, other.start()) == 0.0 && orient3d(a, b, c, other.end()) == 0.0 {
            // In the plane: the kernel's depth is the rounding of a zero projection overlap,
            // and its normal's sign a coin toss; both are exact here.
            let n = (b.as_dvec3() - a.as_dvec3()).cross(c.as_dvec3() - a.as_dvec3());
            return Some(Contact3 { normal: n.normalize().as_vec3(), depth: 0.0, points: k.points });
        }
        Some(k)
    }
}

reverse_contact!(Triangle3 => Segment3: Contact3);

#[cfg(test)]
mod tests {
    use crate::{Contact, Segment3, Triangle3};
    use glam::Vec3;

    fn floor() -> Triangle3 {
        Triangle3::new(Vec3::new(-6.0, -6.0, 0.0), Vec3::new(12.0, -6.0, 0.0), Vec3::new(-6.0, 12.0, 0.0))
    }

    #[test]
    fn through_near_an_edge_on_and_beside() {
        let t = floor();
        // Through the floor 0.25 inside its edge x = -6 (3 below, 3 above): slid out across
        // the edge, by 0.25.
        let s = Segment3::new(Vec3::new(-5.75, 0.0, -3.0), Vec3::new(-5.75, 0.0, 3.0));
        let k = t.contact(&s).unwrap();
        assert!((k.normal - Vec3::NEG_X).length() < 1e-6 && (k.depth - 0.25).abs() < 1e-6, "{k:?}");
        assert_eq!(s.contact(&t).unwrap().normal, -k.normal);
        // Hanging down onto the floor: touching, along the normal.
        let s = Segment3::new(Vec3::new(0.0, 0.0, 2.0), Vec3::ZERO);
        let k = t.contact(&s).unwrap();
        assert!((k.normal - Vec3::Z).length() < 1e-6 && k.depth == 0.0, "{k:?}");
        // Lying in the plane, crossing the edge: touching, the triangle's normal; reversed.
        let s = Segment3::new(Vec3::new(-8.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 0.0));
        assert_eq!(t.contact(&s).map(|k| (k.normal, k.depth)), Some((Vec3::Z, 0.0)));
        assert_eq!(s.contact(&t).map(|k| (k.normal, k.depth)), Some((Vec3::NEG_Z, 0.0)));
        // In the plane beside the triangle, and a hair above it: apart.
        assert!(t.contact(&Segment3::new(Vec3::new(-8.0, 0.0, 0.0), Vec3::new(-7.0, 0.0, 0.0))).is_none());
        assert!(t.contact(&Segment3::new(Vec3::new(0.0, 0.0, 1e-6), Vec3::new(1.0, 0.0, 1.0))).is_none());
    }
}
