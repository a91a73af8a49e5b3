//! Ball against axis-aligned box, 2D and 3D: the box's distance to the centre, less the
//! radius (GJK on the point core and the box, in `f64`); zero exactly when the overlap
//! test (Arvo's) says they overlap.

use super::{f2, f3, gjk_distance};
use crate::{Aabb2, Aabb3, Circle, Sphere};
use glam::{Vec2, Vec3};

gjk_distance!(Circle, Aabb2 => Vec2, f2, exact; Sphere, Aabb3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Aabb2, Aabb3, Circle, Distance, Sphere};
    use glam::{Vec2, Vec3};

    #[test]
    fn to_a_corner_and_a_face() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let s = Sphere::new(Vec3::new(3.0, 5.0, 5.0), 1.0); // (2, 4, 4) from the corner: 6
        assert!((s.distance(&b) - 5.0).abs() < 1e-6);
        let (on_s, on_b) = s.closest_points(&b);
        assert!(
            (on_b - Vec3::ONE).length() < 1e-6 && (on_s - Vec3::new(8.0, 13.0, 13.0) / 3.0).length() < 1e-6
        );
        let r = Aabb2::new(Vec2::ZERO, Vec2::new(4.0, 1.0));
        let c = Circle::new(Vec2::new(2.0, 3.0), 0.5);
        assert!((r.distance(&c) - 1.5).abs() < 1e-6);
        assert_eq!(r.distance(&Circle::new(Vec2::new(2.0, 3.0), 2.0)), 0.0);
    }
}
