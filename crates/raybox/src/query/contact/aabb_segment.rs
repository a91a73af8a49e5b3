//! Axis-aligned box against segment, 2D and 3D: a box core and a segment core (a segment
//! is a capsule of radius zero), by the kernel of `rounded.rs`, gated by the exact overlap
//! tests of `overlap/aabb_segment.rs` (`gated_contact!`).
//!
//! The capsule–box contact is this segment–box contact plus the radius, so with a zero
//! radius the kernel answers exactly the segment's question: apart cores give no contact,
//! a segment touching the box gives depth zero, and a segment through the box the
//! separating-axis penetration of the two cores. That is the true minimum translation: the
//! translations that keep the segment overlapping the box form the Minkowski difference of
//! the two (a convex polytope), whose faces are normal to the box's faces and to the cross
//! products of the box's edges with the segment (in 2D: the box's axes and the segment's
//! normal), exactly the kernel's candidate axes (Ericson, *Real-Time Collision Detection*,
//! 5.2.1 and 5.3.3).

use super::gated_contact;
use crate::{Aabb2, Aabb3, Segment2, Segment3};

gated_contact!(2D: Aabb2, Segment2);
gated_contact!(3D: Aabb3, Segment3);

#[cfg(test)]
mod tests {
    use crate::{Aabb2, Aabb3, Contact, Segment2, Segment3};
    use glam::{Vec2, Vec3};

    #[test]
    fn segment_through_along_and_on_a_box() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        // Through the box, 0.25 inside its +x face: out that way by 0.25.
        let s = Segment3::new(Vec3::new(0.75, 0.5, -3.0), Vec3::new(0.75, 0.5, 3.0));
        let k = b.contact(&s).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::X, 0.25));
        assert_eq!(s.contact(&b).unwrap().normal, Vec3::NEG_X);
        // Dipping 0.125 into the top face: lifted out by 0.125 rather than slid out sideways.
        let s = Segment3::new(Vec3::new(0.5, 0.5, 0.875), Vec3::new(0.5, 0.5, 4.0));
        let k = b.contact(&s).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::Z, 0.125));
        // Lying on the top face: touching; a hair above it: apart.
        let on = Segment3::new(Vec3::new(0.25, 0.5, 1.0), Vec3::new(3.0, 0.5, 1.0));
        assert_eq!(b.contact(&on).map(|k| k.depth), Some(0.0));
        let above = Segment3::new(Vec3::new(0.25, 0.5, 1.000_001), Vec3::new(3.0, 0.5, 1.0));
        assert!(b.contact(&above).is_none() && above.contact(&b).is_none());
        // 2D: the diagonal x + y = 1.5 across the corner (1, 1) leaves along its own normal,
        // by 0.5 / sqrt 2 (to x + y = 2), less than the 0.5 along either axis.
        let b = Aabb2::new(Vec2::ZERO, Vec2::ONE);
        let s = Segment2::new(Vec2::new(0.0, 1.5), Vec2::new(1.5, 0.0));
        let k = b.contact(&s).unwrap();
        let n = Vec2::ONE.normalize();
        assert!((k.normal - n).length() < 1e-6 && (k.depth - 0.5 * n.x).abs() < 1e-6, "{k:?}");
    }
}
