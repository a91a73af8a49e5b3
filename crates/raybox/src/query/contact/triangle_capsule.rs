//! Triangle against capsule (3D): a triangle core and a segment core, by the kernel of
//! `rounded.rs` (the separating axes of a triangle and a segment: the triangle's normal
//! and the cross products of its edges with the segment).

use super::rounded_contact;
use crate::{Capsule3, Triangle3};

rounded_contact!(3D: Triangle3, Capsule3);

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Contact, Triangle3};
    use glam::Vec3;

    #[test]
    fn standing_on_and_stuck_through() {
        let t = Triangle3::new(
            Vec3::new(-6.0, -6.0, 0.0),
            Vec3::new(12.0, -6.0, 0.0),
            Vec3::new(-6.0, 12.0, 0.0),
        );
        let on = Capsule3::new(Vec3::new(0.0, 0.0, 1.0), Vec3::new(0.0, 0.0, 3.0), 1.5);
        let k = t.contact(&on).unwrap();
        assert!((k.normal - Vec3::Z).length() < 1e-6 && (k.depth - 0.5).abs() < 1e-6, "{k:?}");
        // Through the triangle, 1 below it: up by 1 + r is the shortest way out.
        let through = Capsule3::new(Vec3::new(0.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 3.0), 0.5);
        let k = t.contact(&through).unwrap();
        assert!((k.normal - Vec3::Z).length() < 1e-12 && (k.depth - 1.5).abs() < 1e-6, "{k:?}");
    }
}
