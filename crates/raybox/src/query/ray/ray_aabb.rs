//! Ray against axis-aligned box: the slab test, in 2D and 3D.
//!
//! Kay & Kajiya 1986; Ericson, *Real-Time Collision Detection*, 5.3.3; the parallel and
//! boundary handling follows Williams et al. 2005 and Barnes 2022 (closed boxes).
//!
//! Per axis the ray is inside the slab `min[i] <= x[i] <= max[i]` for `t` between
//! `(min[i] - o[i]) / d[i]` and `(max[i] - o[i]) / d[i]`; the span is the intersection of
//! those intervals with `[t_min, t_max]`. The rules that make it exact:
//! - **division, not a reciprocal**: `(b - o) / d` is one correctly rounded operation, so
//!   two axes whose exact entry and exit `t` are equal (a ray grazing an edge or a corner)
//!   compute equal values, and the touch is a hit. `b * (1/d)` rounds twice and can split them.
//! - **a zero component (`+0.0` or `-0.0`) is parallel to its slab**: it adds no bound on
//!   `t`, only the condition `min[i] <= o[i] <= max[i]`. No `0 * inf = NaN` can arise, and no
//!   artificial `t = 0` bound is added (the "zero-t sentinel" bug).
//! - **closed comparisons** (`<=`) everywhere: touching is a hit, `t_enter == t_exit`.
//!
//! `slab_span` writes the test as a loop over `N` axes (the sweeps use it);
//! `slab_span3a` is the same test on `Vec3A` lanes, without a branch per axis, for the
//! ray casts. It keeps every rule: the two vector divisions are correctly rounded per lane
//! (the same values as the scalar divisions), a lane with `d == ±0` is replaced by a select
//! (its `x / 0` value, possibly NaN, is never used), and the span is the same `max`/`min`
//! over the same values, so both give the same span.

use glam::{Vec2, Vec3, Vec3A};

use super::point_at;
use crate::{Aabb2, Aabb3, Ray2, Ray3, RayCast, RayHit2, RayHit3, RaySpan};

/// Where a ray is inside all the slabs `min[i] <= x[i] <= max[i]` of a box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SlabSpan {
    pub t_enter: f32,
    pub t_exit: f32,
    /// The axis whose slab the ray entered last, or `None` when `r(t_min)` is already in the box.
    pub enter_axis: Option<usize>,
}

/// The slab test on `N` axes; shared by `Aabb2`, `Aabb3` and the `Obb`s (in box space).
///
/// Never returns NaN: `d[i] != 0` in every division, and `b - o` is at worst infinite.
#[inline]
pub(crate) fn slab_span<const N: usize>(
    origin: [f32; N],
    dir: [f32; N],
    min: [f32; N],
    max: [f32; N],
    (t_min, t_max): (f32, f32),
) -> Option<SlabSpan> {
    let mut span = SlabSpan { t_enter: t_min, t_exit: t_max, enter_axis: None };
    for i in 0..N {
        if dir[i] == 0.0 {
            // Parallel to this slab: inside it for every t, or for none.
            if origin[i] < min[i] || origin[i] > max[i] {
                return None;
            }
            continue;
        }
        let t0 = (min[i] - origin[i]) / dir[i];
        let t1 = (max[i] - origin[i]) / dir[i];
        let (t_near, t_far) = if dir[i] > 0.0 { (t0, t1) } else { (t1, t0) };
        if t_near > span.t_enter {
            span.t_enter = t_near;
            span.enter_axis = Some(i);
        }
        span.t_exit = span.t_exit.min(t_far);
    }
    (span.t_enter <= span.t_exit).then_some(span)
}

/// The slab test on the three lanes of `Vec3A` (2D callers put `0` in the `z` lanes of
/// the origin, the direction and both corners: a parallel slab the origin is in, so that
/// lane never bounds `t`). Returns `(t_enter, t_exit)` and the lanes' entry times.
#[inline(always)]
pub(crate) fn slab_span3a(
    origin: Vec3A,
    dir: Vec3A,
    min: Vec3A,
    max: Vec3A,
    (t_min, t_max): (f32, f32),
) -> Option<(f32, f32, Vec3A)> {
    // t0 = (min[i] - o[i]) / d[i], t1 = (max[i] - o[i]) / d[i]: divisions, not reciprocals.
    let t0 = (min - origin) / dir;
    let t1 = (max - origin) / dir;
    // d[i] == 0 (either sign): parallel; inside the slab for every t iff min <= o <= max.
    let parallel = dir.cmpeq(Vec3A::ZERO);
    let in_slab = origin.cmpge(min) & origin.cmple(max);
    let (always, never) = (Vec3A::NEG_INFINITY, Vec3A::INFINITY);
    // near[i] = min(t0, t1), far[i] = max(t0, t1), or (-inf, inf) / (inf, -inf) if parallel.
    let near = Vec3A::select(parallel, Vec3A::select(in_slab, always, never), t0.min(t1));
    let far = Vec3A::select(parallel, Vec3A::select(in_slab, never, always), t0.max(t1));
    let t_enter = near.max_element().max(t_min);
    let t_exit = far.min_element().min(t_max);
    (t_enter <= t_exit).then_some((t_enter, t_exit, near))
}

/// The axis whose slab the ray entered last: the first lane of `near` equal to `t_enter`,
/// unless `t_enter` is `t_min` (the origin is already in the box). This is the axis the
/// loop in `slab_span` records (it replaces the axis only on a strictly larger entry).
#[inline]
pub(crate) fn enter_axis(near: Vec3A, t_enter: f32, t_min: f32) -> Option<usize> {
    if t_enter <= t_min {
        return None;
    }
    (0..3).find(|&i| near[i] == t_enter)
}

impl RayCast for Aabb2 {
    type Ray = Ray2;
    type Hit = RayHit2;

    fn ray_span(&self, ray: &Ray2) -> Option<RaySpan> {
        let (t_enter, t_exit, _) = slab2(self, ray)?;
        Some(RaySpan { t_enter, t_exit })
    }

    fn cast_ray(&self, ray: &Ray2) -> Option<RayHit2> {
        let (t_enter, t_exit, near) = slab2(self, ray)?;
        let s = SlabSpan { t_enter, t_exit, enter_axis: enter_axis(near, t_enter, ray.t_min()) };
        // Entering through the min face of axis i when moving up it, the max face when moving down.
        let mut normal = Vec2::ZERO;
        if let Some(i) = s.enter_axis {
            normal[i] = -ray.dir()[i].signum();
        }
        let point = point_at(ray.origin().to_array(), ray.dir().to_array(), s.t_enter);
        Some(RayHit2 { t: s.t_enter, point: Vec2::from_array(point), normal })
    }
}

fn slab2(b: &Aabb2, ray: &Ray2) -> Option<(f32, f32, Vec3A)> {
    let lift = |v: Vec2| Vec3A::new(v.x, v.y, 0.0);
    let range = (ray.t_min(), ray.t_max());
    slab_span3a(lift(ray.origin()), lift(ray.dir()), lift(b.min()), lift(b.max()), range)
}

impl RayCast for Aabb3 {
    type Ray = Ray3;
    type Hit = RayHit3;

    fn ray_span(&self, ray: &Ray3) -> Option<RaySpan> {
        let (t_enter, t_exit, _) = slab3(self, ray)?;
        Some(RaySpan { t_enter, t_exit })
    }

    fn cast_ray(&self, ray: &Ray3) -> Option<RayHit3> {
        let (t_enter, t_exit, near) = slab3(self, ray)?;
        let s = SlabSpan { t_enter, t_exit, enter_axis: enter_axis(near, t_enter, ray.t_min()) };
        let mut normal = Vec3::ZERO;
        if let Some(i) = s.enter_axis {
            normal[i] = -ray.dir()[i].signum();
        }
        let point = point_at(ray.origin().to_array(), ray.dir().to_array(), s.t_enter);
        Some(RayHit3 { t: s.t_enter, point: Vec3::from_array(point), normal })
    }
}

fn slab3(b: &Aabb3, ray: &Ray3) -> Option<(f32, f32, Vec3A)> {
    let (o, d) = (Vec3A::from(ray.origin()), Vec3A::from(ray.dir()));
    slab_span3a(o, d, b.min().into(), b.max().into(), (ray.t_min(), ray.t_max()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box() -> Aabb3 {
        Aabb3::new(Vec3::ZERO, Vec3::ONE)
    }

    #[test]
    fn origin_on_slab_plane_with_zero_dir_component_is_not_nan() {
        // Runs exactly along the face z = 1: the 0 * inf trap of the reciprocal slab test.
        let ray = Ray3::new(Vec3::new(-1.0, 0.5, 1.0), Vec3::new(1.0, 0.0, -0.0));
        let span = unit_box().ray_span(&ray).unwrap();
        assert_eq!((span.t_enter, span.t_exit), (1.0, 2.0));
    }

    #[test]
    fn parallel_outside_is_a_miss_not_a_zero_t_hit() {
        // collision-rs #25: origin (6, 0), direction (0, 1), box [21, 23] x [14, 16].
        let b = Aabb2::new(Vec2::new(21.0, 14.0), Vec2::new(23.0, 16.0));
        assert_eq!(b.ray_span(&Ray2::new(Vec2::new(6.0, 0.0), Vec2::Y)), None);
    }

    #[test]
    fn origin_inside_hits_at_t_min_with_zero_normal() {
        let hit = unit_box().cast_ray(&Ray3::new(Vec3::splat(0.5), Vec3::X)).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.0, Vec3::ZERO, Vec3::splat(0.5)));
        let span = unit_box().ray_span(&Ray3::new(Vec3::splat(0.5), Vec3::X)).unwrap();
        assert_eq!(span.t_exit, 0.5);
    }

    #[test]
    fn grazing_an_edge_is_a_hit() {
        // Through the edge x = 1, y = 1 exactly: enters x and leaves y at the same t.
        let ray = Ray3::new(Vec3::new(0.0, 2.0, 0.5), Vec3::new(1.0, -1.0, 0.0));
        let span = unit_box().ray_span(&ray).unwrap();
        assert_eq!((span.t_enter, span.t_exit), (1.0, 1.0));
    }

    #[test]
    fn line_queries_are_not_clamped_at_zero() {
        let line = Ray3::with_range(Vec3::new(5.0, 0.5, 0.5), Vec3::X, f32::NEG_INFINITY, f32::INFINITY);
        let span = unit_box().ray_span(&line).unwrap();
        assert_eq!((span.t_enter, span.t_exit), (-5.0, -4.0));
        // A line whose origin is inside: the hit point at t = -inf has no NaN.
        let inside = Ray3::with_range(Vec3::splat(0.5), Vec3::X, f32::NEG_INFINITY, 0.0);
        let s = Aabb3::new(Vec3::new(-1.0e30, 0.0, 0.0), Vec3::ONE).cast_ray(&inside).unwrap();
        assert!(!s.point.is_nan() && s.t.is_finite());
    }

    #[test]
    fn normals_point_out_of_the_entered_face() {
        let b = unit_box();
        let hit = b.cast_ray(&Ray3::new(Vec3::new(0.5, 3.0, 0.5), Vec3::new(0.0, -2.0, 0.0))).unwrap();
        assert_eq!((hit.t, hit.normal), (1.0, Vec3::Y));
        assert_eq!(hit.point, Vec3::new(0.5, 1.0, 0.5));
    }

    #[test]
    fn tiny_and_huge_directions() {
        let b = unit_box();
        let tiny = Ray3::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(f32::from_bits(1), 0.0, 0.0));
        let s = b.ray_span(&tiny).unwrap();
        assert!(s.t_enter > 1.0e38 || s.t_enter.is_infinite());
        let huge = Ray3::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(1.0e38, 0.0, 0.0));
        let s = b.ray_span(&huge).unwrap();
        assert!(s.t_enter > 0.0 && s.t_enter < 1.0e-37);
    }
}
