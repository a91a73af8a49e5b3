//! Ball against axis-aligned box, 2D and 3D: exact, by the distance from the centre to
//! the box (Arvo 1990; Ericson, *Real-Time Collision Detection*, 5.2.5).
//!
//! Not "grow the box by the radius and test the centre", which is wrong in the corner
//! regions: a ball near a corner can be within `r` of both faces' planes and still
//! farther than `r` from the corner.

use crate::query::closest::aabb_distance_squared;
use crate::query::reverse_overlaps;
use crate::{Aabb2, Aabb3, Circle, Overlaps, Sphere};

impl Overlaps<Aabb2> for Circle {
    #[inline]
    fn overlaps(&self, other: &Aabb2) -> bool {
        let d2 =
            aabb_distance_squared(self.center().to_array(), other.min().to_array(), other.max().to_array());
        d2 <= f64::from(self.radius()).powi(2)
    }
}

impl Overlaps<Aabb3> for Sphere {
    #[inline]
    fn overlaps(&self, other: &Aabb3) -> bool {
        let d2 =
            aabb_distance_squared(self.center().to_array(), other.min().to_array(), other.max().to_array());
        d2 <= f64::from(self.radius()).powi(2)
    }
}

reverse_overlaps!(Circle => Aabb2, Sphere => Aabb3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Vec2, Vec3};

    #[test]
    fn near_a_corner_the_grown_box_is_wrong() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        // Inside the grown box [-0.5, 1.5]^3, but sqrt(3) * 0.4 = 0.69 from the corner.
        let s = Sphere::new(Vec3::splat(1.4), 0.5);
        assert!(!s.overlaps(&b) && !b.overlaps(&s));
        // Touching the corner exactly: 1-2-2 offsets, distance 3.
        let t = Sphere::new(Vec3::new(2.0, 3.0, 3.0), 3.0);
        assert!(t.overlaps(&b));
    }

    #[test]
    fn circle_touching_a_face() {
        let b = Aabb2::new(Vec2::ZERO, Vec2::ONE);
        assert!(Circle::new(Vec2::new(0.5, 2.0), 1.0).overlaps(&b));
        assert!(!Circle::new(Vec2::new(0.5, 2.0), 0.999_999).overlaps(&b));
    }
}
