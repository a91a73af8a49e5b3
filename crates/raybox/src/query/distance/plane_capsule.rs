//! Plane against capsule (3D): `max(0, min(|s₀|, |s₁|) - r)` for ends on one side of the
//! two-sided plane (`s₀, s₁` their signed distances), zero when they straddle it.

use glam::{DVec3, Vec3};

use crate::query::overlap::end_distances;
use crate::{Capsule3, Distance, Plane};

impl Distance<Capsule3> for Plane {
    type Point = Vec3;

    #[inline]
    fn distance(&self, other: &Capsule3) -> f32 {
        let (s0, s1) = end_distances(self, other);
        if s0 * s1 <= 0.0 {
            return 0.0;
        }
        (s0.abs().min(s1.abs()) - f64::from(other.radius())).max(0.0) as f32
    }

    #[inline]
    fn closest_points(&self, other: &Capsule3) -> (Vec3, Vec3) {
        let n = self.unit_normal().as_dvec3();
        let (s0, s1) = end_distances(self, other);
        let (a, b) = (other.start().as_dvec3(), other.end().as_dvec3());
        if s0 * s1 <= 0.0 {
            // Straddling: the core crosses the plane there.
            let p: DVec3 = if s0 == s1 { a } else { a + (b - a) * (s0 / (s0 - s1)) };
            return (p.as_vec3(), p.as_vec3());
        }
        let (end, s) = if s0.abs() <= s1.abs() { (a, s0) } else { (b, s1) };
        let r = f64::from(other.radius());
        let on_plane = end - n * s;
        if s.abs() <= r {
            return (on_plane.as_vec3(), on_plane.as_vec3());
        }
        (on_plane.as_vec3(), (end - n * (s.signum() * r)).as_vec3())
    }
}

super::reverse_distance!(Vec3; Plane => Capsule3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hovering_and_straddling() {
        let floor = Plane::new(Vec3::new(0.0, 0.0, 2.0), 0.0);
        let c = Capsule3::new(Vec3::new(0.0, 0.0, 2.0), Vec3::new(3.0, 0.0, 4.0), 0.5);
        assert_eq!(floor.distance(&c), 1.5);
        assert_eq!(c.closest_points(&floor), (Vec3::new(0.0, 0.0, 1.5), Vec3::ZERO));
        let s = Capsule3::new(Vec3::new(0.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 3.0), 0.0);
        assert_eq!(s.distance(&floor), 0.0);
        assert_eq!(floor.closest_points(&s).0, Vec3::ZERO);
    }
}
