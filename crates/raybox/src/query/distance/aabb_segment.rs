//! Axis-aligned box against segment, 2D and 3D: GJK on the box and the segment, in `f64`.
//! The distance is zero exactly when the overlap test of `overlap/aabb_segment.rs` says so.

use super::{f2, f3, gjk_distance};
use crate::{Aabb2, Aabb3, Segment2, Segment3};
use glam::{Vec2, Vec3};

gjk_distance!(Aabb2, Segment2 => Vec2, f2, exact; Aabb3, Segment3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Aabb2, Aabb3, Distance, Segment2, Segment3};
    use glam::{Vec2, Vec3};

    #[test]
    fn segment_past_an_edge_and_through_the_box() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        // The segment x = 2, y = 2 + t ... passes the edge x = y = 1 at distance sqrt 2.
        let s = Segment3::new(Vec3::new(2.0, 2.0, -5.0), Vec3::new(2.0, 2.0, 5.0));
        assert!((b.distance(&s) - 2f32.sqrt()).abs() < 1e-6);
        let (on_box, on_seg) = b.closest_points(&s);
        assert!((on_box.x - 1.0).abs() < 1e-6 && (on_box.y - 1.0).abs() < 1e-6);
        assert!((on_seg - Vec3::new(2.0, 2.0, on_box.z)).length() < 1e-6);
        let through = Segment2::new(Vec2::new(-1.0, 0.5), Vec2::new(3.0, 0.5));
        assert_eq!(Aabb2::new(Vec2::ZERO, Vec2::ONE).distance(&through), 0.0);
    }
}
