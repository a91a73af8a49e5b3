//! Axis-aligned box against oriented box, 2D and 3D: the AABB is an OBB with the identity
//! rotation, so this is the OBB–OBB contact of `obb_obb.rs` (the same boxes the overlap
//! test builds, so `contact` is `Some` exactly when `overlaps` is true).

use super::obb_obb::{Box2, Box3, box2_box2_contact, box3_box3_contact};
use crate::query::contact::reverse_contact;
use crate::{Aabb2, Aabb3, Contact, Contact2, Contact3, Obb2, Obb3};

impl Contact<Obb2> for Aabb2 {
    type Output = Contact2;

    #[inline]
    fn contact(&self, other: &Obb2) -> Option<Contact2> {
        box2_box2_contact(&Box2::from_aabb(self), &Box2::from_obb(other))
    }
}

impl Contact<Obb3> for Aabb3 {
    type Output = Contact3;

    #[inline]
    fn contact(&self, other: &Obb3) -> Option<Contact3> {
        box3_box3_contact(&Box3::from_aabb(self), &Box3::from_obb(other))
    }
}

reverse_contact!(Aabb2 => Obb2: Contact2, Aabb3 => Obb3: Contact3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec2, Vec3};

    #[test]
    fn diamond_corner_into_a_floor() {
        // A 2x2 square turned 45 degrees, its lower corner at y = 1 - sqrt 2 below the
        // floor's top y = 0 ... the corner pokes in by sqrt 2 - 1.
        let floor = Aabb2::new(Vec2::new(-5.0, -1.0), Vec2::new(5.0, 0.0));
        let diamond = Obb2::new(Vec2::new(0.0, 1.0), Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let c = floor.contact(&diamond).unwrap();
        assert_eq!(c.normal, Vec2::Y);
        assert!((c.depth - (2f32.sqrt() - 1.0)).abs() < 1e-6);
        assert_eq!(c.points.len(), 1);
        assert!((c.points[0] - Vec2::new(0.0, (1.0 - 2f32.sqrt()) / 2.0)).length() < 1e-6);
        assert_eq!(diamond.contact(&floor).unwrap().normal, Vec2::NEG_Y);
    }

    #[test]
    fn identity_obb_agrees_with_the_aabb() {
        let a = Aabb3::new(Vec3::ZERO, Vec3::new(2.0, 1.0, 1.0));
        let b = Obb3::new(Vec3::new(2.5, 0.5, 0.5), Vec3::splat(0.75), Quat::IDENTITY);
        let b_aabb = Aabb3::new(Vec3::new(1.75, -0.25, -0.25), Vec3::new(3.25, 1.25, 1.25));
        let (c, d) = (a.contact(&b).unwrap(), a.contact(&b_aabb).unwrap());
        assert_eq!((c.normal, c.depth), (d.normal, d.depth));
        assert_eq!(c.points.len(), 4);
        for p in &c.points {
            assert!(d.points.iter().any(|q| (*p - *q).length() < 1e-6), "{p} not in {:?}", d.points);
        }
    }
}
