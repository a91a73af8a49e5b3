//! Ray casts: one file per shape, named `ray_<shape>.rs` (the 3D segment in
//! `ray_segment_3d.rs`, beside the 2D kernel it builds on).

mod ray_aabb;
mod ray_capsule;
mod ray_obb;
mod ray_plane;
mod ray_segment;
mod ray_segment_3d;
mod ray_sphere;
mod ray_triangle;

pub use ray_plane::RayPlane;
pub use ray_sphere::SphereRoots;
pub use ray_triangle::{RayTriangle, TriangleHit};

pub(crate) use ray_aabb::slab_span;
pub(crate) use ray_capsule::capsule_roots;
pub(crate) use ray_triangle::{
    DET_MAX, DET_MIN, WoopRay, ray_triangle_watertight, ray_triangle_watertight_edges,
};

use glam::Vec3A;

use crate::RaySpan;

/// `v / |v|` in `f32`, when `|v|²` is a normal `f32` number: then no square of a component
/// that matters overflowed or lost bits to underflow, and the unit vector is within a few
/// ulps of `v`'s direction (one rounding in each of `|v|²`'s sums and products, the square
/// root and the division: a relative error below `2⁻²¹`, far inside the `1e-5` the crate
/// promises for normals). `None` otherwise (zero, tiny or huge `v`): the callers then
/// normalise in `f64`.
#[inline(always)]
pub(crate) fn unit_f32(v: Vec3A) -> Option<Vec3A> {
    let len2 = v.length_squared();
    len2.is_normal().then(|| v / len2.sqrt())
}

/// The span `[t_enter, t_exit]` (from `f64` roots, clipped to the ray's interval) in
/// `f32`, if not empty. An entry that rounds to `+inf` (or an exit to `-inf`) lies past
/// `f32::MAX` (a tiny direction): not a crossing the ray reaches, so no span, as in the
/// slab test (`ray_aabb.rs`).
#[inline(always)]
pub(crate) fn f32_span(t_enter: f64, t_exit: f64) -> Option<RaySpan> {
    let (enter, exit) = (t_enter as f32, t_exit as f32);
    (t_enter <= t_exit && enter < f32::INFINITY && exit > f32::NEG_INFINITY)
        .then_some(RaySpan { t_enter: enter, t_exit: exit })
}

/// `origin + t * dir` per component, without `0 * inf = NaN` when `t` is infinite
/// (a line query's `t_min = -inf`): a zero component of `dir` keeps the origin's coordinate.
#[inline]
pub(crate) fn point_at<const N: usize>(origin: [f32; N], dir: [f32; N], t: f32) -> [f32; N] {
    crate::arrays::from_fn(|i| if dir[i] == 0.0 { origin[i] } else { origin[i] + t * dir[i] })
}
