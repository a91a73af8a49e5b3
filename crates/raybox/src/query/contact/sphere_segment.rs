//! Ball against segment, 2D and 3D: a point core with the ball's radius and a segment core
//! with radius zero (a segment is a capsule of radius zero), by the kernel of `rounded.rs`,
//! gated by the overlap tests of `overlap/sphere_segment.rs` (`gated_contact!`).
//!
//! Why the capsule kernel is exactly right with a zero radius: with the centre at distance
//! `d > 0` from the segment, the ball leaves it by moving along the direction from the
//! segment's nearest point to the centre by `r - d` (the minimum translation of a ball
//! against a convex shape, Ericson, *Real-Time Collision Detection*, 4.5.1), which is the
//! kernel's cores-apart branch with `r_b = 0`. With the centre on the segment (`d = 0`),
//! every direction across the segment frees the ball after `r`, and leaving past an end
//! takes `r` plus the centre's distance to that end, never less: the kernel's
//! separating-axis branch finds no axis (3D) or the segment's normal (2D), with a
//! projection overlap of zero, and answers `0 + r` along a perpendicular of the segment.

use super::gated_contact;
use crate::{Circle, Segment2, Segment3, Sphere};

gated_contact!(2D: Circle, Segment2);
gated_contact!(3D: Sphere, Segment3);

#[cfg(test)]
mod tests {
    use crate::{Circle, Contact, Segment2, Segment3, Sphere};
    use glam::{Vec2, Vec3};

    #[test]
    fn ball_beside_on_and_past_the_segment() {
        let s = Segment2::new(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0));
        // The centre 0.25 above the middle: the segment moves down by 0.75.
        let k = Circle::new(Vec2::new(0.5, 0.25), 1.0).contact(&s).unwrap();
        assert_eq!((k.normal, k.depth), (Vec2::NEG_Y, 0.75));
        assert_eq!(s.contact(&Circle::new(Vec2::new(0.5, 0.25), 1.0)).unwrap().normal, Vec2::Y);
        // The centre on the segment: a full radius across it.
        let k = Circle::new(Vec2::new(1.0, 0.0), 0.5).contact(&s).unwrap();
        assert_eq!((k.normal.x, k.normal.y.abs(), k.depth), (0.0, 1.0, 0.5));
        // Touching the end (3, 0) - (2, 0) = 1: depth zero; a hair farther: none.
        let k = Circle::new(Vec2::new(3.0, 0.0), 1.0).contact(&s).unwrap();
        assert_eq!((k.normal, k.depth, k.points[0]), (Vec2::NEG_X, 0.0, Vec2::new(2.0, 0.0)));
        assert!(Circle::new(Vec2::new(3.0001, 0.0), 1.0).contact(&s).is_none());
        // 3D: the centre on the segment leaves across it.
        let s3 = Segment3::new(Vec3::ZERO, Vec3::new(0.0, 0.0, 4.0));
        let k = Sphere::new(Vec3::new(0.0, 0.0, 1.0), 2.0).contact(&s3).unwrap();
        assert!(k.normal.z.abs() < 1e-6 && k.depth == 2.0, "{k:?}");
    }
}
