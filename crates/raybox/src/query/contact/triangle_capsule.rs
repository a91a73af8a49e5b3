//! Triangle against capsule (3D): a triangle core and a segment core, by the kernel of
//! `rounded.rs` (the separating axes of a triangle and a segment: the triangle's normal
//! and the cross products of its edges with the segment), gated by the overlap test of
//! `overlap/triangle_capsule.rs`, so that the contact is `Some` exactly when
//! [`crate::Overlaps`] says the shapes overlap (see `triangle.rs` for a pair that the
//! kernel's GJK reads a hair apart).

use super::reverse_contact;
use super::triangle::overlapping_contact;
use crate::query::distance::ToRounded;
use crate::{Capsule3, Contact, Contact3, Overlaps, Triangle3};

impl Contact<Triangle3> for Capsule3 {
    type Output = Contact3;

    #[inline]
    fn contact(&self, other: &Triangle3) -> Option<Contact3> {
        self.overlaps(other).then(|| overlapping_contact(&self.to_rounded(), &other.to_rounded()))
    }
}

reverse_contact!(Capsule3 => Triangle3: Contact3);

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Contact, Overlaps, Triangle3};
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
        assert_eq!(on.contact(&t).unwrap().normal, -k.normal);
        // Through the triangle, 1 below it: up by 1 + r is the shortest way out.
        let through = Capsule3::new(Vec3::new(0.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 3.0), 0.5);
        let k = t.contact(&through).unwrap();
        assert!((k.normal - Vec3::Z).length() < 1e-12 && (k.depth - 1.5).abs() < 1e-6, "{k:?}");
        // Touching exactly (the overlap test says so): a contact of depth zero; a hair
        // higher, none.
        let touching = Capsule3::new(Vec3::new(0.0, 0.0, 1.5), Vec3::new(0.0, 0.0, 3.0), 1.5);
        assert!(t.overlaps(&touching));
        assert_eq!(t.contact(&touching).map(|k| k.depth), Some(0.0));
        let off = Capsule3::new(Vec3::new(0.0, 0.0, 1.500_001), Vec3::new(0.0, 0.0, 3.0), 1.5);
        assert!(t.contact(&off).is_none() && off.contact(&t).is_none());
    }
}
