//! Ball against oriented box, 2D and 3D: the ball–box contact of `sphere_aabb.rs`,
//! computed in the box frame (where the box is `[-h, h]`) and turned back into the world
//! (Ericson, *Real-Time Collision Detection*, 5.2.5).
//!
//! The centre is moved into the box frame exactly as the overlap test moves it (in `f32`,
//! or in `f64` when the `f32` rounding could change the answer or overflows, see
//! `overlap/sphere_obb.rs`), so the contact is `Some` exactly when [`crate::Overlaps`] says
//! the shapes overlap.

use glam::{DVec2, DVec3};

use super::sphere_aabb::ball_box_contact_f64;
use crate::query::contact::reverse_contact;
use crate::query::overlap::{ball_in_obb2_frame, ball_in_obb3_frame};
use crate::{Circle, Contact, Contact2, Contact3, ContactPoints2, ContactPoints3, Obb2, Obb3, Sphere};

impl Contact<Obb2> for Circle {
    type Output = Contact2;

    #[inline]
    fn contact(&self, other: &Obb2) -> Option<Contact2> {
        let h = other.half_extents().as_dvec2();
        // The centre in the box frame exactly as the overlap test takes it.
        let (local, _) = ball_in_obb2_frame(other, self.center(), self.radius());
        let r = f64::from(self.radius());
        let k = ball_box_contact_f64(local.to_array(), r, (-h).to_array(), h.to_array())?;
        let rot = other.rotation().as_dmat2();
        let point = other.center().as_dvec2() + rot * DVec2::from_array(k.point);
        Some(Contact2 {
            normal: (rot * DVec2::from_array(k.normal)).normalize().as_vec2(),
            depth: k.depth as f32,
            points: ContactPoints2::one(point.as_vec2()),
        })
    }
}

impl Contact<Obb3> for Sphere {
    type Output = Contact3;

    #[inline]
    fn contact(&self, other: &Obb3) -> Option<Contact3> {
        let h = other.half_extents().as_dvec3();
        // The centre in the box frame exactly as the overlap test takes it.
        let (local, _) = ball_in_obb3_frame(other, self.center(), self.radius());
        let r = f64::from(self.radius());
        let k = ball_box_contact_f64(local.to_array(), r, (-h).to_array(), h.to_array())?;
        let rot = other.rotation().as_dmat3();
        let point = other.center().as_dvec3() + rot * DVec3::from_array(k.point);
        Some(Contact3 {
            normal: (rot * DVec3::from_array(k.normal)).normalize().as_vec3(),
            depth: k.depth as f32,
            points: ContactPoints3::one(point.as_vec3()),
        })
    }
}

reverse_contact!(Circle => Obb2: Contact2, Sphere => Obb3: Contact3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec2, Vec3};

    #[test]
    fn circle_against_a_diamond_corner() {
        // The diamond's right corner is at (sqrt 2, 0); a circle at (2, 0) of radius 0.75
        // reaches 0.75 - (2 - sqrt 2) past it, straight along -x.
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let c = Circle::new(Vec2::new(2.0, 0.0), 0.75).contact(&diamond).unwrap();
        assert!((c.depth - (0.75 - (2.0 - 2f32.sqrt()))).abs() < 1e-6);
        assert!((c.normal - Vec2::NEG_X).length() < 1e-6);
        assert!(Circle::new(Vec2::new(2.0, 0.0), 0.5).contact(&diamond).is_none());
    }

    #[test]
    fn sphere_on_a_turned_face() {
        // A box turned 90 degrees about z: its local +x face is the world +y face at y = 1.
        let b = Obb3::new(Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0), Quat::from_xyzw(0.0, 0.0, 1.0, 1.0));
        let c = b.contact(&Sphere::new(Vec3::new(0.0, 1.5, 0.0), 1.0)).unwrap();
        assert!((c.normal - Vec3::Y).length() < 1e-7, "{c:?}");
        assert!((c.depth - 0.5).abs() < 1e-6);
        assert!((c.points[0] - Vec3::new(0.0, 0.75, 0.0)).length() < 1e-6);
    }
}
