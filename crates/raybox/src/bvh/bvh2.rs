//! The 2D BVH: a [`Bvh`] over the boxes placed in the plane `z = 0`. A 2D ray becomes a
//! 3D ray with `dir.z = 0` and `origin.z = 0`, which the conservative node test treats as
//! parallel to (and inside) every flat slab, exactly.

use glam::{Vec2, Vec3};

use super::{BuildBvhError, BuildQuality, Bvh, BvhStats};
use crate::{Aabb2, Aabb3, Circle, Ray2, Ray3, Sphere};

/// A bounding volume hierarchy over 2D boxes; the 2D twin of [`Bvh`], with the same queries.
///
/// ```
/// use raybox::{Aabb2, Bvh2, BuildQuality};
/// use glam::Vec2;
///
/// let boxes: Vec<Aabb2> = (0..10).map(|i| Aabb2::new(Vec2::new(i as f32, 0.0), Vec2::new(i as f32 + 0.5, 1.0))).collect();
/// let bvh = Bvh2::build(&boxes, BuildQuality::Fast).unwrap();
/// let mut found = Vec::new();
/// bvh.for_each_overlapping_aabb(&Aabb2::new(Vec2::new(2.2, 0.2), Vec2::new(4.0, 0.4)), |i| found.push(i));
/// found.sort();
/// assert_eq!(found, [2, 3, 4]); // box 4 starts at x = 4: touching counts
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bvh2 {
    inner: Bvh,
}

fn lift(b: &Aabb2) -> Aabb3 {
    Aabb3::new(b.min().extend(0.0), b.max().extend(0.0))
}

fn lift_ray(r: &Ray2) -> Ray3 {
    Ray3::with_range(r.origin().extend(0.0), r.dir().extend(0.0), r.t_min(), r.t_max())
}

fn lower_ray(r: &Ray3) -> Ray2 {
    Ray2::with_range(r.origin().truncate(), r.dir().truncate(), r.t_min(), r.t_max())
}

impl Bvh2 {
    /// Builds a BVH over `boxes`.
    ///
    /// # Errors
    /// [`BuildBvhError::TooManyPrimitives`] past 2^27 boxes.
    pub fn build(boxes: &[Aabb2], quality: BuildQuality) -> Result<Self, BuildBvhError> {
        let lifted: Vec<Aabb3> = boxes.iter().map(lift).collect();
        Ok(Self { inner: Bvh::build(&lifted, quality)? })
    }

    /// The number of primitives.
    #[must_use]
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// `true` when built over no boxes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// Sizes and the SAH cost of the tree (areas of the flat 3D boxes: perimeters).
    #[must_use]
    pub fn stats(&self) -> BvhStats {
        self.inner.stats()
    }

    /// The closest hit along the ray; see [`Bvh::cast_ray`].
    pub fn cast_ray(&self, ray: &Ray2, mut hit: impl FnMut(u32, &Ray2) -> Option<f32>) -> Option<(u32, f32)> {
        self.inner.cast_ray(&lift_ray(ray), |i, r| hit(i, &lower_ray(r)))
    }

    /// Any hit along the ray; see [`Bvh::any_hit`].
    pub fn any_hit(&self, ray: &Ray2, mut hit: impl FnMut(u32, &Ray2) -> bool) -> Option<u32> {
        self.inner.any_hit(&lift_ray(ray), |i, r| hit(i, &lower_ray(r)))
    }

    /// Every hit along the ray, sorted by `t`; see [`Bvh::all_hits`].
    pub fn all_hits(&self, ray: &Ray2, mut hit: impl FnMut(u32, &Ray2) -> Option<f32>) -> Vec<(u32, f32)> {
        self.inner.all_hits(&lift_ray(ray), |i, r| hit(i, &lower_ray(r)))
    }

    /// Calls `visit(index)` for every primitive whose box overlaps `aabb` (touching counts).
    pub fn for_each_overlapping_aabb(&self, aabb: &Aabb2, visit: impl FnMut(u32)) {
        self.inner.for_each_overlapping_aabb(&lift(aabb), visit);
    }

    /// Calls `visit(index)` for every primitive whose box overlaps `circle`.
    pub fn for_each_overlapping_circle(&self, circle: &Circle, visit: impl FnMut(u32)) {
        let s = Sphere::new(circle.center().extend(0.0), circle.radius());
        self.inner.for_each_overlapping_sphere(&s, visit);
    }

    /// The primitive nearest to `point`; see [`Bvh::nearest`].
    pub fn nearest(&self, point: Vec2, distance: impl FnMut(u32, f32) -> Option<f32>) -> Option<(u32, f32)> {
        self.inner.nearest(Vec3::new(point.x, point.y, 0.0), distance)
    }

    /// Updates the boxes after the primitives moved; see [`Bvh::refit`].
    ///
    /// # Errors
    /// [`BuildBvhError::WrongCount`] unless `boxes` has one box per primitive.
    pub fn refit(&mut self, boxes: &[Aabb2]) -> Result<(), BuildBvhError> {
        let lifted: Vec<Aabb3> = boxes.iter().map(lift).collect();
        self.inner.refit(&lifted)
    }
}
