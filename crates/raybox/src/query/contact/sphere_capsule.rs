//! Ball against capsule, 2D and 3D: two rounded cores (a point and a segment), by the
//! kernel of `rounded.rs`: along the line between the centre and the nearest core point,
//! `depth = r_ball + r_capsule - distance` (Ericson, *Real-Time Collision Detection*, 4.5.1).
//! `Some` exactly when `Overlaps` says so (its exact test, 2D and 3D), which the kernel's
//! GJK would not be for shapes that touch exactly.

use super::gated_contact;
use crate::{Capsule2, Capsule3, Circle, Sphere};

gated_contact!(2D: Circle, Capsule2);
gated_contact!(3D: Sphere, Capsule3);

#[cfg(test)]
mod tests {
    use crate::{Capsule2, Capsule3, Circle, Contact, Sphere};
    use glam::{Vec2, Vec3};

    #[test]
    fn ball_against_the_body() {
        let c = Capsule3::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 0.5);
        let k = Sphere::new(Vec3::new(2.0, 1.0, 0.0), 1.75).contact(&c).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::NEG_X, 0.25));
        assert!((k.points[0] - Vec3::new(0.375, 1.0, 0.0)).length() < 1e-6);
        let k2 = Capsule2::new(Vec2::ZERO, Vec2::new(0.0, 2.0), 0.5)
            .contact(&Circle::new(Vec2::new(0.0, 3.0), 1.0))
            .unwrap();
        assert_eq!((k2.normal, k2.depth), (Vec2::Y, 0.5));
    }
}
