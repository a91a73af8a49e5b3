//! Plane against capsule (3D): the plane is a two-sided surface, met when the core's end
//! points straddle it or one of them is within the radius of it.
//!
//! With `s₀, s₁` the signed distances of the ends (`(n·x - offset) / |n|`, in `f64`):
//! overlap when `s₀ s₁ <= 0` or `min(|s₀|, |s₁|) <= r`.

use glam::Vec3;

use crate::query::reverse_overlaps;
use crate::{Capsule3, Overlaps, Plane};

/// The signed distances of the capsule's end points to the plane.
#[inline]
pub(crate) fn end_distances(plane: &Plane, c: &Capsule3) -> (f64, f64) {
    let len = plane.normal().as_dvec3().length();
    let s = |p: Vec3| plane.eval(p.as_dvec3()) / len;
    (s(c.start()), s(c.end()))
}

impl Overlaps<Capsule3> for Plane {
    #[inline]
    fn overlaps(&self, other: &Capsule3) -> bool {
        let (s0, s1) = end_distances(self, other);
        s0 * s1 <= 0.0 || s0.abs().min(s1.abs()) <= f64::from(other.radius())
    }
}

reverse_overlaps!(Plane => Capsule3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lying_hanging_and_straddling() {
        let floor = Plane::new(Vec3::new(0.0, 0.0, 2.0), 0.0); // z = 0
        let lying = |z: f32| Capsule3::new(Vec3::new(-1.0, 0.0, z), Vec3::new(1.0, 0.0, z), 0.5);
        assert!(floor.overlaps(&lying(0.5)) && floor.overlaps(&lying(-0.5)) && !floor.overlaps(&lying(0.51)));
        let straddling = Capsule3::new(Vec3::new(0.0, 0.0, -3.0), Vec3::new(0.0, 0.0, 3.0), 0.0);
        assert!(straddling.overlaps(&floor));
    }
}
