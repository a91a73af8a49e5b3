//! Triangle against segment (3D): GJK on the triangle and the segment, in `f64`; zero
//! exactly when the exact overlap test of `overlap/triangle_segment.rs` says they meet.

use super::{f3, gjk_distance};
use crate::{Segment3, Triangle3};
use glam::Vec3;

gjk_distance!(Triangle3, Segment3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Distance, Segment3, Triangle3};
    use glam::Vec3;

    #[test]
    fn above_beside_and_through() {
        let t = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
        let above = Segment3::new(Vec3::new(1.0, 1.0, 3.0), Vec3::new(2.0, 1.0, 3.0));
        assert!((t.distance(&above) - 3.0).abs() < 1e-6);
        let beside = Segment3::new(Vec3::new(-2.0, 1.0, -1.0), Vec3::new(-2.0, 1.0, 1.0));
        assert!((beside.distance(&t) - 2.0).abs() < 1e-6);
        let through = Segment3::new(Vec3::new(1.0, 1.0, -1.0), Vec3::new(1.0, 1.0, 1.0));
        assert_eq!(t.distance(&through), 0.0);
        let (p, q) = t.closest_points(&through);
        assert!((p - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6 && (q - p).length() < 1e-6);
    }
}
