//! Ball against segment, 2D and 3D: the distance from the centre to the segment
//! (Ericson, *Real-Time Collision Detection*, 5.1.2), less the radius.
//! The distance is zero exactly when the overlap test of `overlap/sphere_segment.rs` says so.

use super::{f2, f3, gjk_distance};
use crate::{Circle, Segment2, Segment3, Sphere};
use glam::{Vec2, Vec3};

gjk_distance!(Circle, Segment2 => Vec2, f2, exact; Sphere, Segment3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Circle, Distance, Segment2, Segment3, Sphere};
    use glam::{Vec2, Vec3};

    #[test]
    fn beside_the_middle_and_beyond_an_end() {
        let s = Segment3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0));
        assert_eq!(Sphere::new(Vec3::new(2.0, 3.0, 0.0), 1.0).distance(&s), 2.0);
        assert_eq!(s.distance(&Sphere::new(Vec3::new(7.0, 4.0, 0.0), 1.0)), 4.0);
        let (on_seg, _) = s.closest_points(&Sphere::new(Vec3::new(7.0, 4.0, 0.0), 1.0));
        assert_eq!(on_seg, Vec3::new(4.0, 0.0, 0.0));
        assert_eq!(Circle::new(Vec2::new(1.0, 0.5), 1.0).distance(&Segment2::new(Vec2::ZERO, Vec2::X)), 0.0);
    }
}
