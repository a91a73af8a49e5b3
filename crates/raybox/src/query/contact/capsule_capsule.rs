//! Capsule against capsule, 2D and 3D: two segment cores, by the kernel of `rounded.rs`
//! (Ericson, *Real-Time Collision Detection*, 4.5.2: the closest points of the segments).

use super::gated_contact;
use crate::{Capsule2, Capsule3};

gated_contact!(@one true, Contact2, ContactPoints2, crate::query::distance::f2, Capsule2, Capsule2);
gated_contact!(@one false, Contact3, ContactPoints3, crate::query::distance::f3, Capsule3, Capsule3);

#[cfg(test)]
mod tests {
    use crate::{Capsule2, Capsule3, Contact};
    use glam::{Vec2, Vec3};

    #[test]
    fn crossing_and_side_by_side() {
        let a = Capsule3::new(Vec3::new(-2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0), 0.5);
        let b = Capsule3::new(Vec3::new(0.0, -2.0, 0.8), Vec3::new(0.0, 2.0, 0.8), 0.5);
        let k = a.contact(&b).unwrap();
        assert_eq!(k.normal, Vec3::Z);
        assert!((k.depth - 0.2).abs() < 1e-6 && (k.points[0] - Vec3::new(0.0, 0.0, 0.4)).length() < 1e-6);
        let c = Capsule2::new(Vec2::ZERO, Vec2::new(0.0, 2.0), 0.5);
        let d = Capsule2::new(Vec2::new(0.75, 0.0), Vec2::new(0.75, 2.0), 0.5);
        let k = c.contact(&d).unwrap();
        assert_eq!((k.normal, k.depth), (Vec2::X, 0.25));
    }
}
