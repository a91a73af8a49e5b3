//! Oriented box against segment, 2D and 3D: GJK on the box and the segment, in `f64`.
//! The distance is zero exactly when the overlap test of `overlap/obb_segment.rs` says so.

use super::{f2, f3, gjk_distance};
use crate::{Obb2, Obb3, Segment2, Segment3};
use glam::{Vec2, Vec3};

gjk_distance!(Obb2, Segment2 => Vec2, f2, exact; Obb3, Segment3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Distance, Obb2, Segment2};
    use glam::Vec2;

    #[test]
    fn segment_above_a_diamond() {
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let s = Segment2::new(Vec2::new(-3.0, 2.0), Vec2::new(3.0, 2.0));
        assert!((diamond.distance(&s) - (2.0 - 2f32.sqrt())).abs() < 1e-6);
        let (top, on_seg) = diamond.closest_points(&s);
        assert!(
            (top - Vec2::new(0.0, 2f32.sqrt())).length() < 1e-6
                && (on_seg - Vec2::new(0.0, 2.0)).length() < 1e-6
        );
    }
}
