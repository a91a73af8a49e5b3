//! Ball against triangle: the distance from the centre to the closest point of the
//! triangle (Ericson, *Real-Time Collision Detection*, 5.2.7).

use glam::Vec3;

use crate::query::closest::closest_point_on_triangle;
use crate::query::reverse_overlaps;
use crate::{Overlaps, Sphere, Triangle3};

impl Overlaps<Triangle3> for Sphere {
    fn overlaps(&self, other: &Triangle3) -> bool {
        let c = self.center().as_dvec3();
        let closest = closest_point_on_triangle(c, other.vertices().map(Vec3::as_dvec3));
        c.distance_squared(closest) <= f64::from(self.radius()).powi(2)
    }
}

reverse_overlaps!(Sphere => Triangle3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphere_over_a_triangle() {
        let t = Triangle3::new(Vec3::ZERO, Vec3::X * 2.0, Vec3::Y * 2.0);
        assert!(Sphere::new(Vec3::new(0.5, 0.5, 1.0), 1.0).overlaps(&t));
        assert!(!t.overlaps(&Sphere::new(Vec3::new(0.5, 0.5, 1.0), 0.999)));
        assert!(!Sphere::new(Vec3::new(2.0, 2.0, 0.0), 1.4).overlaps(&t)); // sqrt 2 from the edge
    }
}
