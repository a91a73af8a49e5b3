//! Contacts: the minimum translation that separates two overlapping shapes, and where they
//! touch. One file per shape pair, named in the pair order of `query/mod.rs`.
//!
//! **Conventions** (the same for every pair):
//! - `normal` is a unit vector pointing from the first shape to the second: moving the
//!   second shape by `normal * depth` leaves the two shapes touching, moving it any less
//!   far (in any direction) leaves them overlapping.
//! - `depth >= 0` is that minimum translation distance (zero when the shapes only touch).
//! - `points` are where the shapes touch: each lies midway between the two surfaces along
//!   the normal, so it is within `depth / 2` of both shapes (inside both when neither is
//!   thinner than the depth). Ball pairs give one point; box pairs and triangle pairs give
//!   a manifold found by reference-face clipping (up to 2 points in 2D, up to 4 in 3D), or
//!   one point for an edge–edge contact in 3D; a shape against a plane gives a point for
//!   each vertex past the plane (the deepest four), and a ball its deepest point; the
//!   other pairs (capsules, segments) one point.
//! - `None` when the shapes are apart; `Some` exactly when [`crate::Overlaps`] says they
//!   overlap (the same separating-axis arithmetic decides both, or the contact is gated by
//!   the overlap test: `gated_contact!`).
//! - **Segments** have no volume, and their contacts keep the same meaning: the depth is
//!   the least translation that separates the shapes. A segment through a box, a ball or a
//!   triangle leaves it by the shorter of its ends and the sides; two segments crossing in
//!   the plane, by the nearer end. Two segments that meet in space, or a segment lying in
//!   a triangle's plane, can be moved off each other by any amount, however small: they
//!   only touch, with depth zero (as coplanar triangles do), and the normal is across both.
//! - The reverse pair flips the normal and keeps the points, bit for bit; for two shapes of
//!   one type too, whose kernel runs with the two in a fixed order ([`in_fixed_order`]), so
//!   that ties (equal extents, concentric balls) do not pick one world direction both ways.

use crate::arrays::Each;
use core::fmt;
use core::ops::Deref;

use glam::{Vec2, Vec3};

mod aabb_aabb;
mod aabb_capsule;
mod aabb_obb;
mod aabb_segment;
mod capsule_capsule;
mod capsule_segment;
mod obb_capsule;
mod obb_obb;
mod obb_segment;
mod plane;
mod plane_capsule;
pub(crate) mod rounded;
mod segment_segment;
mod sphere_aabb;
mod sphere_capsule;
mod sphere_obb;
mod sphere_segment;
mod sphere_sphere;
mod triangle;
mod triangle_capsule;
mod triangle_segment;
mod triangle_triangle;

macro_rules! contact_types {
    ($Contact:ident, $Points:ident, $V:ident, $N:literal, $dim:literal, $vec:literal, $example:literal) => {
        #[doc = concat!("Up to ", stringify!($N), " contact points of a ", $dim, " contact, stored inline (no allocation).")]
        ///
        /// Dereferences to a slice of the points in use.
        ///
        /// ```
        #[doc = $example]
        /// ```
        #[derive(Clone, Copy)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(try_from = $vec, into = $vec))]
        pub struct $Points {
            points: [$V; $N],
            len: u8,
        }

        impl $Points {
            /// No points.
            pub(crate) const EMPTY: Self = Self { points: [$V::ZERO; $N], len: 0 };

            /// The points in use, as a slice.
            ///
            /// ```
            #[doc = $example]
            /// assert_eq!(c.points.as_slice().len(), c.points.len());
            /// ```
            #[inline]
            #[must_use]
            pub fn as_slice(&self) -> &[$V] {
                &self.points[..usize::from(self.len)]
            }

            /// Adds a point; ignored when full (callers never pass more than the capacity).
            #[inline]
            pub(crate) fn push(&mut self, p: $V) {
                if usize::from(self.len) < $N {
                    self.points[usize::from(self.len)] = p;
                    self.len += 1;
                }
            }

            /// The single point `p`.
            #[inline]
            pub(crate) fn one(p: $V) -> Self {
                let mut s = Self::EMPTY;
                s.push(p);
                s
            }
        }

        impl Deref for $Points {
            type Target = [$V];
            #[inline]
            fn deref(&self) -> &[$V] {
                self.as_slice()
            }
        }

        impl PartialEq for $Points {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                self.as_slice() == other.as_slice()
            }
        }

        impl fmt::Debug for $Points {
            #[inline]
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.as_slice()).finish()
            }
        }

        #[cfg(feature = "serde")]
        impl TryFrom<Vec<$V>> for $Points {
            type Error = &'static str;
            #[inline]
            fn try_from(v: Vec<$V>) -> Result<Self, Self::Error> {
                if v.len() > $N {
                    return Err(concat!("a contact has at most ", stringify!($N), " points"));
                }
                let mut p = Self::EMPTY;
                v.into_iter().for_each(|x| p.push(x));
                Ok(p)
            }
        }

        #[cfg(feature = "serde")]
        impl From<$Points> for Vec<$V> {
            #[inline]
            fn from(p: $Points) -> Self {
                p.as_slice().to_vec()
            }
        }

        impl<'a> IntoIterator for &'a $Points {
            type Item = &'a $V;
            type IntoIter = core::slice::Iter<'a, $V>;
            #[inline]
            fn into_iter(self) -> Self::IntoIter {
                self.as_slice().iter()
            }
        }

        #[doc = concat!("The minimum translation between two overlapping ", $dim, " shapes, and where they touch.")]
        ///
        /// See [`Contact`] for the conventions.
        ///
        /// ```
        #[doc = $example]
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct $Contact {
            /// Unit vector from the first shape to the second.
            pub normal: $V,
            /// How far the second shape must move along `normal` to only touch (`>= 0`).
            pub depth: f32,
            /// Where the shapes touch, midway between their surfaces.
            pub points: $Points,
        }

        impl $Contact {
            /// The same contact seen from the other shape: the normal reversed.
            ///
            /// ```
            #[doc = $example]
            /// assert_eq!(c.flipped().normal, -c.normal);
            /// ```
            #[inline]
            #[must_use]
            pub fn flipped(self) -> Self {
                Self { normal: -self.normal, ..self }
            }
        }
    };
}

contact_types!(
    Contact2,
    ContactPoints2,
    Vec2,
    2,
    "2D",
    "Vec<glam::Vec2>",
    "use raybox::{Circle, Contact};\nuse glam::Vec2;\nlet c = Circle::new(Vec2::ZERO, 1.0).contact(&Circle::new(Vec2::new(1.5, 0.0), 1.0)).unwrap();\nassert_eq!((c.normal, c.depth, c.points.as_slice()), (Vec2::X, 0.5, &[Vec2::new(0.75, 0.0)][..]));"
);
contact_types!(
    Contact3,
    ContactPoints3,
    Vec3,
    4,
    "3D",
    "Vec<glam::Vec3>",
    "use raybox::{Sphere, Contact};\nuse glam::Vec3;\nlet c = Sphere::new(Vec3::ZERO, 1.0).contact(&Sphere::new(Vec3::new(0.0, 0.0, 1.5), 1.0)).unwrap();\nassert_eq!((c.normal, c.depth, c.points.len()), (Vec3::Z, 0.5, 1));"
);

/// The minimum translation that separates two overlapping shapes, and their contact points.
///
/// Implemented for both orders of every supported pair; `None` exactly when the shapes do
/// not overlap ([`crate::Overlaps`]). The normal points from `self` to `other`, `depth` is
/// the shortest distance `other` must move to only touch `self`, and the points lie midway
/// between the surfaces (see the module docs of `query/contact` and the crate *Semantics*).
///
/// ```
/// use raybox::{Aabb3, Contact};
/// use glam::Vec3;
///
/// let floor = Aabb3::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0));
/// let crate_box = Aabb3::new(Vec3::new(0.0, -0.25, 0.0), Vec3::new(1.0, 0.75, 1.0));
/// let c = floor.contact(&crate_box).unwrap();
/// assert_eq!((c.normal, c.depth), (Vec3::Y, 0.25)); // push the crate up by 0.25
/// assert_eq!(c.points.len(), 4); // the crate's bottom face
/// assert!(floor.contact(&crate_box.translated(Vec3::Y)).is_none());
/// ```
#[doc(alias = "penetration")]
#[doc(alias = "manifold")]
#[doc(alias = "collide")]
pub trait Contact<T: ?Sized> {
    /// [`Contact2`] for 2D shapes, [`Contact3`] for 3D shapes.
    type Output;

    /// The contact between `self` and `other`, or `None` when they are apart.
    fn contact(&self, other: &T) -> Option<Self::Output>;
}

/// A total order on the shapes of one type, by their stored values' bits: see
/// [`in_fixed_order`].
pub(crate) trait FixedOrder {
    /// The stored values' bits, compared lexicographically.
    type Key: Ord;
    /// This shape's key.
    fn key(&self) -> Self::Key;
}

/// `FixedOrder` for each shape with a same-type contact kernel that can tie, or a same-type
/// distance (`query/distance/mod.rs`, `gjk_distance!(same: ...)`).
macro_rules! fixed_order {
    ($($T:ty, $N:literal, |$s:ident| $values:expr;)*) => {
        $(impl FixedOrder for $T {
            type Key = [u32; $N];
            #[inline]
            fn key(&self) -> [u32; $N] {
                let $s = self;
                let values: [f32; $N] = $values;
                values.each(f32::to_bits)
            }
        })*
    };
}

fixed_order! {
    crate::Aabb2, 4, |b| [b.min().x, b.min().y, b.max().x, b.max().y];
    crate::Aabb3, 6, |b| { let (l, h) = (b.min(), b.max()); [l.x, l.y, l.z, h.x, h.y, h.z] };
    crate::Obb2, 8, |b| {
        let (c, h, r) = (b.center(), b.half_extents(), b.rotation().to_cols_array());
        [c.x, c.y, h.x, h.y, r[0], r[1], r[2], r[3]]
    };
    crate::Obb3, 15, |b| {
        let (c, h, r) = (b.center(), b.half_extents(), b.rotation().to_cols_array());
        [c.x, c.y, c.z, h.x, h.y, h.z, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]]
    };
    crate::Capsule2, 5, |c| [c.start().x, c.start().y, c.end().x, c.end().y, c.radius()];
    crate::Capsule3, 7, |c| {
        let (p, q) = (c.start(), c.end());
        [p.x, p.y, p.z, q.x, q.y, q.z, c.radius()]
    };
    crate::Circle, 3, |b| [b.center().x, b.center().y, b.radius()];
    crate::Sphere, 4, |b| [b.center().x, b.center().y, b.center().z, b.radius()];
}

/// The contact of two shapes of one type, computed with the two in a fixed order (the
/// lesser [`FixedOrder::key`] first), so that `b.contact(&a)` is exactly `a.contact(&b)`
/// flipped, ties included: where two directions separate equally well (boxes of equal
/// extent along the shallowest axis, concentric balls) a kernel picks one, and without a
/// fixed order both orders would pick the same world direction, breaking the convention
/// that the reverse pair flips the normal.
#[inline]
pub(crate) fn in_fixed_order<S: FixedOrder, C>(
    a: &S,
    b: &S,
    kernel: impl FnOnce(&S, &S) -> Option<C>,
    flip: impl FnOnce(C) -> C,
) -> Option<C> {
    if b.key() < a.key() { kernel(b, a).map(flip) } else { kernel(a, b) }
}

/// Implements `Contact<$A> for $B` by flipping `Contact<$B> for $A`.
macro_rules! reverse_contact {
    ($($A:ty => $B:ty : $Out:ty),* $(,)?) => {
        $(impl crate::Contact<$A> for $B {
            type Output = $Out;
            #[inline]
            fn contact(&self, other: &$A) -> Option<$Out> {
                crate::Contact::<$B>::contact(other, self).map(<$Out>::flipped)
            }
        })*
    };
}
pub(crate) use reverse_contact;

/// Implements `Contact<$B> for $A`, and the reverse, for a pair whose [`crate::Overlaps`]
/// test is its own (exact, or a closed form) rather than the rounded-core kernel's GJK:
/// `None` unless that test says the shapes overlap, then the kernel's contact
/// (`overlapping_rounded_contact` in `rounded.rs`, which reads a pair GJK finds a hair
/// apart as touching), so that the contact is `Some` exactly when `Overlaps` says so.
macro_rules! gated_contact {
    (@one $planar:expr, $Contact:ident, $Points:ident, $f:path, $A:ty, $B:ty) => {
        impl crate::Contact<$B> for $A {
            type Output = crate::$Contact;
            #[inline]
            fn contact(&self, other: &$B) -> Option<crate::$Contact> {
                use crate::query::distance::ToRounded;
                if !crate::Overlaps::<$B>::overlaps(self, other) {
                    return None;
                }
                let k = crate::query::contact::rounded::overlapping_rounded_contact(
                    &self.to_rounded(),
                    &other.to_rounded(),
                    $planar,
                );
                Some(crate::$Contact {
                    normal: $f(k.normal).normalize(),
                    depth: k.depth as f32,
                    points: crate::$Points::one($f(k.point)),
                })
            }
        }
    };
    (2D: $($A:ty, $B:ty);* $(;)?) => {
        $(gated_contact!(@one true, Contact2, ContactPoints2, crate::query::distance::f2, $A, $B);
          crate::query::contact::reverse_contact!($A => $B: crate::Contact2);)*
    };
    (3D: $($A:ty, $B:ty);* $(;)?) => {
        $(gated_contact!(@one false, Contact3, ContactPoints3, crate::query::distance::f3, $A, $B);
          crate::query::contact::reverse_contact!($A => $B: crate::Contact3);)*
    };
}
pub(crate) use gated_contact;
