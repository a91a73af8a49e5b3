//! Ball against ball, 2D and 3D: `max(0, |c₂ - c₁| - r₁ - r₂)`, the closest points on the
//! centre line (GJK on the two point cores computes exactly this, in `f64`).

use super::{f2, f3, gjk_distance};
use crate::{Circle, Sphere};
use glam::{Vec2, Vec3};

gjk_distance!(same: Circle => Vec2, f2, exact; Sphere => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Circle, Distance, Sphere};
    use glam::{Vec2, Vec3};

    #[test]
    fn apart_touching_and_overlapping() {
        let a = Sphere::new(Vec3::ZERO, 1.0);
        let b = Sphere::new(Vec3::new(0.0, 6.0, 8.0), 2.0);
        assert_eq!(a.distance(&b), 7.0);
        assert_eq!(a.closest_points(&b), (Vec3::new(0.0, 0.6, 0.8), Vec3::new(0.0, 4.8, 6.4)));
        let touching = Circle::new(Vec2::new(3.0, 4.0), 4.0);
        assert_eq!(Circle::new(Vec2::ZERO, 1.0).distance(&touching), 0.0);
        let (p, q) = Circle::new(Vec2::ZERO, 2.0).closest_points(&touching);
        assert_eq!(p, q);
    }
}
