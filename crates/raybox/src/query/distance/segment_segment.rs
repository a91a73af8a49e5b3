//! Segment against segment, 2D and 3D: Ericson, *Real-Time Collision Detection*, 5.1.9
//! (clamped closest points of the two lines), in `f64`.

use super::{d2, d3, f2, f3};
use crate::query::closest::closest_points_segment_segment;
use crate::{Distance, Segment2, Segment3};
use glam::{Vec2, Vec3};

impl Distance<Segment2> for Segment2 {
    type Point = Vec2;

    fn distance(&self, other: &Segment2) -> f32 {
        let (p, q) = closest_points_segment_segment(
            (d2(self.start()), d2(self.end())),
            (d2(other.start()), d2(other.end())),
        );
        p.distance(q) as f32
    }

    fn closest_points(&self, other: &Segment2) -> (Vec2, Vec2) {
        let (p, q) = closest_points_segment_segment(
            (d2(self.start()), d2(self.end())),
            (d2(other.start()), d2(other.end())),
        );
        (f2(p), f2(q))
    }
}

impl Distance<Segment3> for Segment3 {
    type Point = Vec3;

    fn distance(&self, other: &Segment3) -> f32 {
        let (p, q) = closest_points_segment_segment(
            (d3(self.start()), d3(self.end())),
            (d3(other.start()), d3(other.end())),
        );
        p.distance(q) as f32
    }

    fn closest_points(&self, other: &Segment3) -> (Vec3, Vec3) {
        let (p, q) = closest_points_segment_segment(
            (d3(self.start()), d3(self.end())),
            (d3(other.start()), d3(other.end())),
        );
        (f3(p), f3(q))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_crossing_and_parallel() {
        let a = Segment3::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
        let b = Segment3::new(Vec3::new(0.5, -1.0, 2.0), Vec3::new(0.5, 1.0, 2.0));
        assert_eq!(a.distance(&b), 2.0);
        assert_eq!(a.closest_points(&b), (Vec3::new(0.5, 0.0, 0.0), Vec3::new(0.5, 0.0, 2.0)));
        let x = Segment2::new(Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0));
        let y = Segment2::new(Vec2::new(-1.0, 1.0), Vec2::new(1.0, -1.0));
        assert_eq!(x.distance(&y), 0.0);
        let p = Segment2::new(Vec2::new(0.0, 3.0), Vec2::new(5.0, 3.0));
        assert_eq!(Segment2::new(Vec2::ZERO, Vec2::new(2.0, 0.0)).distance(&p), 3.0);
    }
}
