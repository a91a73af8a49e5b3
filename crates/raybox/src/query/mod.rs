//! The questions raybox answers, one trait per question, one file per shape pair.
//!
//! | question | trait | folder |
//! | --- | --- | --- |
//! | where does a ray enter and leave, what does it hit first | [`RayCast`] | `query/ray/` |
//! | do two shapes overlap (touching counts) | [`Overlaps`] | `query/overlap/` |
//! | which side of a plane is a shape | [`PlaneSide`] | `query/overlap/plane_*.rs` |
//! | is a point inside, which point of a shape is closest | [`ContainsPoint`], [`ClosestPoint`] | `query/closest/` |
//! | how deep do two shapes overlap, along which normal, where | [`Contact`] | `query/contact/` |
//! | how far apart are two shapes, and their closest points | [`Distance`] | `query/distance/` |
//! | when does a moving shape first touch another | [`Sweep`] | `query/sweep/` |
//!
//! **Pair order.** Every pair file and kernel is named in one order:
//! `ray < plane < sphere (circle) < aabb < obb < triangle < capsule < segment`, so ray
//! against box lives in `ray/ray_aabb.rs` and sphere against box in
//! `overlap/sphere_aabb.rs` (never `aabb_sphere.rs`). The reverse trait impl (`Aabb3: Overlaps<Sphere>`) is a one-line
//! call in the same file. 2D and 3D versions of a pair sit side by side in that file.
//!
//! The crate docs hold the full query matrix and the *Semantics* every query keeps.

use glam::{Vec2, Vec3};

pub(crate) mod closest;
pub(crate) mod contact;
pub(crate) mod distance;
pub(crate) mod overlap;
pub(crate) mod ray;
pub(crate) mod sweep;

pub(crate) use ray::{DET_MAX, DET_MIN, WoopRay, ray_triangle_watertight, ray_triangle_watertight_edges};

pub use contact::{Contact, Contact2, Contact3, ContactPoints2, ContactPoints3};
pub use distance::Distance;
pub use overlap::Side;
pub use ray::{RayPlane, RayTriangle, SphereRoots, TriangleHit};
pub use sweep::{Sweep, SweepHit2, SweepHit3};

/// The part of a ray's `[t_min, t_max]` that lies inside a closed shape.
///
/// `t_enter <= t_exit`; they are equal when the ray only touches the shape.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RaySpan {
    /// Where the ray enters the shape (`t_min` when `r(t_min)` is already inside).
    pub t_enter: f32,
    /// Where the ray leaves the shape (`t_max` when `r(t_max)` is still inside).
    pub t_exit: f32,
}

/// The first point of a 2D shape along a ray.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayHit2 {
    /// The ray parameter of the hit, in units of the ray's `dir`.
    pub t: f32,
    /// The point hit, `origin + t * dir`.
    pub point: Vec2,
    /// The outward unit normal of the surface hit; zero when the ray starts inside.
    pub normal: Vec2,
}

/// The first point of a 3D shape along a ray.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayHit3 {
    /// The ray parameter of the hit, in units of the ray's `dir`.
    pub t: f32,
    /// The point hit, `origin + t * dir`.
    pub point: Vec3,
    /// The outward unit normal of the surface hit; zero when the ray starts inside.
    pub normal: Vec3,
}

/// Rays against a shape: where the ray is inside it, and what it hits first.
///
/// See the crate docs, *Semantics*, for boundaries, rays starting inside and the
/// units of `t`.
///
/// ```
/// use raybox::{Aabb2, Ray2, RayCast};
/// use glam::Vec2;
///
/// let rect = Aabb2::new(Vec2::new(1.0, -1.0), Vec2::new(3.0, 1.0));
/// let ray = Ray2::new(Vec2::ZERO, Vec2::X);
/// let span = rect.ray_span(&ray).unwrap();
/// assert_eq!((span.t_enter, span.t_exit), (1.0, 3.0));
/// let hit = rect.cast_ray(&ray).unwrap();
/// assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
/// ```
#[doc(alias = "raycast")]
#[doc(alias = "intersect_ray")]
pub trait RayCast {
    /// [`crate::Ray2`] for 2D shapes, [`crate::Ray3`] for 3D shapes.
    type Ray;
    /// [`RayHit2`] or [`RayHit3`].
    type Hit;

    /// Where the ray is inside the closed shape, clipped to the ray's `[t_min, t_max]`;
    /// `None` when it never is.
    fn ray_span(&self, ray: &Self::Ray) -> Option<RaySpan>;

    /// The first point of the shape along the ray, with the outward normal there (zero
    /// when the ray starts inside); `None` when the ray misses.
    fn cast_ray(&self, ray: &Self::Ray) -> Option<Self::Hit>;

    /// Whether the ray meets the shape at all (within `[t_min, t_max]`).
    #[inline]
    fn intersects_ray(&self, ray: &Self::Ray) -> bool {
        self.ray_span(ray).is_some()
    }
}

/// Whether two closed shapes share at least one point (touching counts).
///
/// Implemented for both orders of every supported pair.
///
/// ```
/// use raybox::{Aabb3, Overlaps, Sphere};
/// use glam::Vec3;
///
/// let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
/// // Near the corner (1, 1, 1), but 0.29 away from it: the grown-box test would say yes.
/// let s = Sphere::new(Vec3::splat(1.3), 0.5);
/// assert!(!b.overlaps(&s));
/// assert!(!s.overlaps(&b));
/// ```
#[doc(alias = "intersects")]
#[doc(alias = "collide")]
pub trait Overlaps<T: ?Sized> {
    /// `true` when the shapes share a point.
    fn overlaps(&self, other: &T) -> bool;
}

/// Whether a point belongs to a closed shape (its boundary included).
///
/// ```
/// use raybox::{Aabb2, ContainsPoint};
/// use glam::Vec2;
///
/// let b = Aabb2::new(Vec2::ZERO, Vec2::ONE);
/// assert!(b.contains_point(Vec2::new(1.0, 0.5))); // on the boundary
/// assert!(!b.contains_point(Vec2::new(1.0, 1.5)));
/// ```
pub trait ContainsPoint {
    /// `Vec2` for 2D shapes, `Vec3` for 3D shapes.
    type Point;

    /// `true` when `point` is in the shape or on its boundary.
    fn contains_point(&self, point: Self::Point) -> bool;
}

/// The point of a shape closest to a given point, and the distance to it.
///
/// Solids are solid: a point inside is its own closest point, at distance zero.
///
/// ```
/// use raybox::{Aabb3, ClosestPoint};
/// use glam::Vec3;
///
/// let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
/// assert_eq!(b.closest_point(Vec3::new(2.0, 0.5, -1.0)), Vec3::new(1.0, 0.5, 0.0));
/// assert_eq!(b.distance_to_point(Vec3::new(4.0, 5.0, 0.5)), 5.0);
/// ```
pub trait ClosestPoint {
    /// `Vec2` for 2D shapes, `Vec3` for 3D shapes.
    type Point;

    /// The point of the shape nearest to `point` (`point` itself when inside).
    fn closest_point(&self, point: Self::Point) -> Self::Point;

    /// The Euclidean distance from `point` to the shape (zero inside).
    fn distance_to_point(&self, point: Self::Point) -> f32;
}

/// Where a shape lies relative to a [`crate::Plane`]; see [`crate::Plane::side`].
pub trait PlaneSide {
    /// Which side of `plane` the shape is on.
    fn plane_side(&self, plane: &crate::Plane) -> Side;
}

/// Implements `Overlaps<$A> for $B` by calling `Overlaps<$B> for $A`.
macro_rules! reverse_overlaps {
    ($($A:ty => $B:ty),* $(,)?) => {
        $(impl crate::Overlaps<$A> for $B {
            #[inline]
            fn overlaps(&self, other: &$A) -> bool {
                crate::Overlaps::<$B>::overlaps(other, self)
            }
        })*
    };
}
pub(crate) use reverse_overlaps;

/// The largest coordinate magnitude of the points of `a` and `b` (0 for none), by index
/// loops (`iter().chain()` is a call of its own in a build split into codegen units).
#[inline]
pub(crate) fn largest_coordinate(a: &[glam::DVec3], b: &[glam::DVec3]) -> f64 {
    let mut m = 0.0f64;
    for x in a {
        m = m.max(x.abs().max_element());
    }
    for x in b {
        m = m.max(x.abs().max_element());
    }
    m
}
