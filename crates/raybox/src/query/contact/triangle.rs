//! Balls, boxes and oriented boxes against a triangle (3D): the rounded-core kernel of
//! `rounded.rs` (for a box, the 13 separating axes of a box and a triangle: 3 box faces,
//! the triangle's normal and the 9 cross products of their edges), gated by the exact
//! overlap tests of `overlap/sphere_triangle.rs`, `aabb_triangle.rs` and `obb_triangle.rs`,
//! so that the contact is `Some` exactly when [`crate::Overlaps`] says the shapes overlap.
//! One contact point (the middle of the deepest common region the kernel finds), not a
//! clipped manifold.

use super::rounded::overlapping_rounded_contact;
use super::{ContactPoints3, reverse_contact};
use crate::query::distance::{Rounded, ToRounded};
use crate::{Aabb3, Contact, Contact3, Obb3, Overlaps, Sphere, Triangle3};

/// The contact of two overlapping rounded shapes: the kernel's, or, where its `f64` GJK
/// reads a pair that the exact test calls touching as a hair apart, a touching contact
/// (depth zero) midway between the closest points (`overlapping_rounded_contact`).
#[inline]
pub(super) fn overlapping_contact(a: &Rounded, b: &Rounded) -> Contact3 {
    let k = overlapping_rounded_contact(a, b, false);
    Contact3 {
        normal: k.normal.normalize().as_vec3(),
        depth: k.depth as f32,
        points: ContactPoints3::one(k.point.as_vec3()),
    }
}

macro_rules! triangle_contact {
    ($($A:ty),*) => {$(
        impl Contact<Triangle3> for $A {
            type Output = Contact3;

            #[inline]
            fn contact(&self, other: &Triangle3) -> Option<Contact3> {
                self.overlaps(other).then(|| overlapping_contact(&self.to_rounded(), &other.to_rounded()))
            }
        }
        reverse_contact!($A => Triangle3: Contact3);
    )*};
}

triangle_contact!(Sphere, Aabb3, Obb3);

#[cfg(test)]
mod tests {
    use crate::{Aabb3, Contact, Obb3, Sphere, Triangle3};
    use glam::{Quat, Vec3};

    fn floor() -> Triangle3 {
        Triangle3::new(Vec3::new(-6.0, -6.0, 0.0), Vec3::new(12.0, -6.0, 0.0), Vec3::new(-6.0, 12.0, 0.0))
    }

    #[test]
    fn resting_sinking_and_apart() {
        let t = floor();
        let ball = Sphere::new(Vec3::new(1.0, 1.0, 0.75), 1.0);
        let k = t.contact(&ball).unwrap();
        assert!((k.normal - Vec3::Z).length() < 1e-6 && (k.depth - 0.25).abs() < 1e-6, "{k:?}");
        assert_eq!(ball.contact(&t).unwrap().normal, -k.normal);
        let b = Aabb3::new(Vec3::new(0.0, 0.0, -0.5), Vec3::new(1.0, 1.0, 2.0));
        let k = t.contact(&b).unwrap();
        assert!((k.normal - Vec3::Z).length() < 1e-6 && (k.depth - 0.5).abs() < 1e-6, "{k:?}");
        // Touching exactly: depth zero.
        let on = Aabb3::new(Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 2.0));
        assert_eq!(t.contact(&on).unwrap().depth, 0.0);
        let o = Obb3::new(Vec3::new(0.0, 0.0, 1.0), Vec3::ONE, Quat::from_rotation_x(0.3));
        let k = t.contact(&o).unwrap();
        assert!(k.normal.z > 0.99 && k.depth > 0.0, "{k:?}");
        assert!(t.contact(&Sphere::new(Vec3::new(1.0, 1.0, 1.0 + 1e-6), 1.0)).is_none());
        assert!(t.contact(&Aabb3::new(Vec3::new(13.0, 0.0, -1.0), Vec3::new(14.0, 1.0, 1.0))).is_none());
    }

    #[test]
    fn a_box_through_an_edge_leaves_sideways() {
        // A thin box straddling the triangle's vertical edge x = -6, mostly outside it:
        // pushing it out along -x is shorter than lifting it above the plane.
        let t = floor();
        let b = Aabb3::new(Vec3::new(-6.2, 0.0, -3.0), Vec3::new(-5.9, 1.0, 3.0));
        let k = b.contact(&t).unwrap();
        assert!((k.normal - Vec3::X).length() < 1e-6 && (k.depth - 0.1).abs() < 1e-5, "{k:?}");
    }
}
