//! Plane against capsule (3D): the capsule leaves the two-sided plane by the shorter way,
//! up (`r - min(s₀, s₁)`) or down (`r + max(s₀, s₁)`), with `s₀, s₁` the signed
//! distances of the core's ends (see `overlap/plane_capsule.rs`).
//!
//! Every end whose ball reaches across the plane on the side of the push gives a point,
//! midway between the ball's deepest point and the plane: a capsule lying on the plane
//! gives two.

use super::reverse_contact;
use crate::query::overlap::end_distances;
use crate::{Capsule3, Contact, Contact3, ContactPoints3, Overlaps, Plane};

impl Contact<Capsule3> for Plane {
    type Output = Contact3;

    #[inline]
    fn contact(&self, other: &Capsule3) -> Option<Contact3> {
        if !self.overlaps(other) {
            return None;
        }
        let n = self.unit_normal().as_dvec3();
        let (s0, s1) = end_distances(self, other);
        let r = f64::from(other.radius());
        let (up, down) = (r - s0.min(s1), r + s0.max(s1));
        // Push along +n (the ends must rise to s >= r) or along -n (sink to s <= -r).
        let (sign, depth) = if up <= down { (1.0, up) } else { (-1.0, down) };
        let mut points = ContactPoints3::EMPTY;
        for (end, s) in [(other.start().as_dvec3(), s0), (other.end().as_dvec3(), s1)] {
            // The ball's deepest point against the push, and how far it is past the plane.
            let deepest = end - n * (sign * r);
            let past = sign * s - r;
            if past <= 0.0 {
                let p = deepest - n * (sign * past / 2.0);
                if !points.contains(&p.as_vec3()) {
                    points.push(p.as_vec3());
                }
            }
        }
        let normal = (n * sign).as_vec3();
        Some(Contact3 { normal, depth: depth.max(0.0) as f32, points })
    }
}

reverse_contact!(Plane => Capsule3: Contact3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn lying_capsule_gives_two_points() {
        let floor = Plane::new(Vec3::new(0.0, 0.0, 2.0), 0.0);
        let c = Capsule3::new(Vec3::new(-1.0, 0.0, 0.25), Vec3::new(1.0, 0.0, 0.25), 0.5);
        let k = floor.contact(&c).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::Z, 0.25));
        assert_eq!(k.points.as_slice(), &[Vec3::new(-1.0, 0.0, -0.125), Vec3::new(1.0, 0.0, -0.125)]);
        assert_eq!(c.contact(&floor).unwrap().normal, Vec3::NEG_Z);
        // Straddling, mostly below: pushed down.
        let s = Capsule3::new(Vec3::new(0.0, 0.0, -3.0), Vec3::new(0.0, 0.0, 0.5), 0.25);
        let k = floor.contact(&s).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::NEG_Z, 0.75));
        let above = Capsule3::new(Vec3::new(-1.0, 0.0, 0.75), Vec3::new(1.0, 0.0, 0.5001), 0.5);
        assert!(floor.contact(&above).is_none());
    }
}
