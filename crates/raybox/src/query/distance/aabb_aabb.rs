//! Box against box (axis-aligned), 2D and 3D: the gaps between the intervals on each axis
//! combine by Pythagoras (GJK on the two boxes computes the same, in `f64`); zero exactly
//! when the interval test says they overlap.

use super::{f2, f3, gjk_distance};
use crate::{Aabb2, Aabb3};
use glam::{Vec2, Vec3};

gjk_distance!(same: Aabb2 => Vec2, f2, exact; Aabb3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Aabb2, Aabb3, Distance};
    use glam::{Vec2, Vec3};

    #[test]
    fn corner_to_corner_and_face_to_face() {
        let a = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let b = Aabb3::new(Vec3::new(2.0, 3.0, 3.0), Vec3::splat(5.0)); // gaps (1, 2, 2): 3
        assert!((a.distance(&b) - 3.0).abs() < 1e-6);
        let (p, q) = a.closest_points(&b);
        assert!((p - Vec3::ONE).length() < 1e-6 && (q - Vec3::new(2.0, 3.0, 3.0)).length() < 1e-6);
        let c = Aabb2::new(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0));
        let d = Aabb2::new(Vec2::new(1.5, -3.0), Vec2::new(2.0, 3.0));
        assert!((c.distance(&d) - 0.5).abs() < 1e-6);
        assert_eq!(c.distance(&Aabb2::new(Vec2::ONE, Vec2::splat(2.0))), 0.0); // touching corner
    }
}
