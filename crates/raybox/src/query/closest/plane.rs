//! Points against planes: the orthogonal projection.

use glam::Vec3;

use crate::{ClosestPoint, ContainsPoint, Plane};

impl ContainsPoint for Plane {
    type Point = Vec3;

    /// `true` when `normal · point == offset`, evaluated in `f64` (exact for points whose
    /// products with the normal fit in 53 bits).
    #[inline]
    fn contains_point(&self, point: Vec3) -> bool {
        self.eval(point.as_dvec3()) == 0.0
    }
}

impl ClosestPoint for Plane {
    type Point = Vec3;

    #[inline]
    fn closest_point(&self, point: Vec3) -> Vec3 {
        let n = self.normal().as_dvec3();
        let p = point.as_dvec3();
        (p - n * (self.eval(p) / n.length_squared())).as_vec3()
    }

    #[inline]
    fn distance_to_point(&self, point: Vec3) -> f32 {
        self.signed_distance(point).abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projection_onto_a_plane() {
        let p = Plane::new(Vec3::new(0.0, 0.0, 4.0), 8.0); // z = 2
        assert_eq!(p.closest_point(Vec3::new(1.0, 2.0, 7.0)), Vec3::new(1.0, 2.0, 2.0));
        assert_eq!(p.distance_to_point(Vec3::new(1.0, 2.0, -1.0)), 3.0);
        assert!(p.contains_point(Vec3::new(9.0, -3.0, 2.0)));
    }
}
