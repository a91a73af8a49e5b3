//! Ball against oriented box, 2D and 3D: the distance from the centre to the box,
//! measured in the box frame (Ericson, *Real-Time Collision Detection*, 5.2.5).

use crate::query::closest::aabb_distance_squared;
use crate::query::reverse_overlaps;
use crate::{Circle, Obb2, Obb3, Overlaps, Sphere};

impl Overlaps<Obb2> for Circle {
    fn overlaps(&self, other: &Obb2) -> bool {
        let local = other.point_to_local(self.center());
        let h = other.half_extents();
        let d2 = aabb_distance_squared(local.to_array(), (-h).to_array(), h.to_array());
        d2 <= f64::from(self.radius()).powi(2)
    }
}

impl Overlaps<Obb3> for Sphere {
    fn overlaps(&self, other: &Obb3) -> bool {
        let local = other.point_to_local(self.center());
        let h = other.half_extents();
        let d2 = aabb_distance_squared(local.to_array(), (-h).to_array(), h.to_array());
        d2 <= f64::from(self.radius()).powi(2)
    }
}

reverse_overlaps!(Circle => Obb2, Sphere => Obb3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn circle_beside_a_diamond() {
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        // The diamond's corner is at (sqrt 2, 0).
        assert!(Circle::new(Vec2::new(2.0, 0.0), 0.6).overlaps(&diamond));
        assert!(!diamond.overlaps(&Circle::new(Vec2::new(2.0, 0.0), 0.5)));
    }
}
