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
//! `slab_lanes` is the same test on `Vec3A` lanes, without a branch at all, for the ray
//! casts (the OBBs' too). It keeps every rule: the two vector divisions are correctly
//! rounded per lane (the same values as the scalar divisions), a lane with `d == ±0` is
//! replaced by a select (its `x / 0` value, possibly NaN, is never used), and the span is
//! the same `max`/`min` over the same values, so both give the same span; the entered face
//! (`entry_normal`) is the axis `slab_span` records. The unit test
//! `lanes_agree_with_the_loop` checks both on random, axis-parallel and on-face rays.

use core::hint::select_unpredictable;

use glam::{Vec2, Vec3A};

#[cfg(any(doc, test))]
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

/// The slab test on the three lanes of `Vec3A`, without a branch (2D callers put `0` in
/// the `z` lanes of the origin, the direction and both corners: a parallel slab the origin
/// is in, so that lane never bounds `t`).
///
/// The answer is `hit`; the other fields are meaningful only when it is `true`. Callers
/// build their `Option` with `core::hint::select_unpredictable`: whether a ray hits is
/// as good as random to the branch predictor, and a mispredicted branch costs more than
/// the few stores it would skip.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SlabLanes {
    pub t_enter: f32,
    pub t_exit: f32,
    /// Each lane's entry time (`-inf` on a parallel lane).
    pub near: Vec3A,
    pub hit: bool,
}

/// `max(a, b)` for values known not to be NaN: one `maxss`, where `f32::max` also has
/// to handle NaN.
#[inline(always)]
fn max_no_nan(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// `min(a, b)` for values known not to be NaN.
#[inline(always)]
fn min_no_nan(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// The slab test on `Vec3A` lanes; see [`SlabLanes`].
///
/// Same values as `slab_span`: the lanes divide (correctly rounded, lane by lane the
/// scalar quotients), `near = min(t0, t1)` and `far = max(t0, t1)`, and the span is the
/// same `max`/`min` over them. A parallel lane (`d == ±0`, whose `x / 0` may be NaN) is
/// replaced by `(-inf, +inf)`, and the miss it causes when the origin is outside its slab
/// is a separate mask, so no NaN reaches a `max` or `min` and the reductions need no NaN
/// handling.
#[inline(always)]
pub(crate) fn slab_lanes(
    origin: Vec3A,
    dir: Vec3A,
    min: Vec3A,
    max: Vec3A,
    (t_min, t_max): (f32, f32),
) -> SlabLanes {
    // t0 = (min[i] - o[i]) / d[i], t1 = (max[i] - o[i]) / d[i]: divisions, not reciprocals.
    let t0 = (min - origin) / dir;
    let t1 = (max - origin) / dir;
    // d[i] == 0 (either sign): parallel; inside the slab for every t iff min <= o <= max.
    let parallel = dir.cmpeq(Vec3A::ZERO);
    let in_slab = origin.cmpge(min) & origin.cmple(max);
    let blocked = (parallel & !in_slab).any();
    let near = Vec3A::select(parallel, Vec3A::NEG_INFINITY, t0.min(t1));
    let far = Vec3A::select(parallel, Vec3A::INFINITY, t0.max(t1));
    let t_enter = max_no_nan(near.max_element(), t_min);
    let t_exit = min_no_nan(far.min_element(), t_max);
    // An entry at +inf (or an exit at -inf) is a quotient that overflowed, not a crossing:
    // the box is met, if at all, beyond every `f32` parameter (all slabs overflowing at
    // once made disjoint intervals look like `[inf, inf]`).
    let finite = (t_enter < f32::INFINITY) & (t_exit > f32::NEG_INFINITY);
    SlabLanes { t_enter, t_exit, near, hit: (t_enter <= t_exit) & !blocked & finite }
}

/// The outward normal of the face the ray entered through, in the box frame, without a
/// branch: `-sign(d[i])` on the axis `enter_axis` names, zero elsewhere (all zero when
/// the origin is already in the box). Entering through the min face of axis `i` when
/// moving up it, the max face when moving down.
#[inline(always)]
pub(crate) fn entry_normal(s: &SlabLanes, dir: Vec3A, t_min: f32) -> Vec3A {
    // Lanes whose entry time is the span's entry; none when the entry is t_min.
    let entered = u32::from(s.t_enter > t_min).wrapping_neg();
    let bits = s.near.cmpeq(Vec3A::splat(s.t_enter)).bitmask() & entered;
    // The first of them (the lowest set bit), as a lane mask.
    let first = bits & bits.wrapping_neg();
    let lane = Vec3A::new(1.0, 2.0, 4.0).cmpeq(Vec3A::splat(first as f32));
    // -sign(d) on that lane: d != 0 there (a parallel lane's entry is -inf < t_enter).
    Vec3A::select(lane, Vec3A::ONE.copysign(-dir), Vec3A::ZERO)
}

/// `origin + t * dir`, keeping the origin's coordinate where `dir` is zero (see
/// [`point_at`]), on `Vec3A` lanes.
#[inline(always)]
pub(crate) fn point_at3a(origin: Vec3A, dir: Vec3A, t: f32) -> Vec3A {
    Vec3A::select(dir.cmpeq(Vec3A::ZERO), origin, origin + t * dir)
}

impl RayCast for Aabb2 {
    type Ray = Ray2;
    type Hit = RayHit2;

    #[inline]
    fn ray_span(&self, ray: &Ray2) -> Option<RaySpan> {
        let s = slab2(self, ray);
        select_unpredictable(s.hit, Some(RaySpan { t_enter: s.t_enter, t_exit: s.t_exit }), None)
    }

    #[inline]
    fn cast_ray(&self, ray: &Ray2) -> Option<RayHit2> {
        let s = slab2(self, ray);
        let (o, d) = (lift(ray.origin()), lift(ray.dir()));
        let normal = entry_normal(&s, d, ray.t_min()).truncate();
        let point = point_at3a(o, d, s.t_enter).truncate();
        select_unpredictable(s.hit, Some(RayHit2 { t: s.t_enter, point, normal }), None)
    }
}

/// A 2D vector in the `x, y` lanes of a `Vec3A`, `0` in `z`.
#[inline(always)]
fn lift(v: Vec2) -> Vec3A {
    Vec3A::new(v.x, v.y, 0.0)
}

#[inline(always)]
fn slab2(b: &Aabb2, ray: &Ray2) -> SlabLanes {
    let range = (ray.t_min(), ray.t_max());
    slab_lanes(lift(ray.origin()), lift(ray.dir()), lift(b.min()), lift(b.max()), range)
}

impl RayCast for Aabb3 {
    type Ray = Ray3;
    type Hit = RayHit3;

    #[inline]
    fn ray_span(&self, ray: &Ray3) -> Option<RaySpan> {
        let s = slab3(self, ray);
        select_unpredictable(s.hit, Some(RaySpan { t_enter: s.t_enter, t_exit: s.t_exit }), None)
    }

    #[inline]
    fn cast_ray(&self, ray: &Ray3) -> Option<RayHit3> {
        let s = slab3(self, ray);
        let (o, d) = (Vec3A::from(ray.origin()), Vec3A::from(ray.dir()));
        let normal = entry_normal(&s, d, ray.t_min()).into();
        let point = point_at3a(o, d, s.t_enter).into();
        select_unpredictable(s.hit, Some(RayHit3 { t: s.t_enter, point, normal }), None)
    }
}

#[inline(always)]
fn slab3(b: &Aabb3, ray: &Ray3) -> SlabLanes {
    let (o, d) = (Vec3A::from(ray.origin()), Vec3A::from(ray.dir()));
    slab_lanes(o, d, b.min().into(), b.max().into(), (ray.t_min(), ray.t_max()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

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
        // The box is met at t = 2^149, past every `f32`: no hit (an entry at +inf was a hit
        // before, and so was a pair of disjoint slabs that both overflowed; `slab_lanes`).
        let tiny = Ray3::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(f32::from_bits(1), 0.0, 0.0));
        assert_eq!(b.ray_span(&tiny), None);
        // Met at t = 1e37: a representable entry still hits.
        let small = Ray3::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(1.0e-37, 0.0, 0.0));
        let s = b.ray_span(&small).unwrap();
        assert!(s.t_enter > 1.0e36 && s.t_enter.is_finite());
        let huge = Ray3::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(1.0e38, 0.0, 0.0));
        let s = b.ray_span(&huge).unwrap();
        assert!(s.t_enter > 0.0 && s.t_enter < 1.0e-37);
    }
    #[test]
    fn lanes_agree_with_the_loop() {
        // Random boxes and rays on a coarse grid (so that origins on slab planes, ties
        // between axes, zero and -0.0 direction components and grazes are common), with
        // finite, line and one-sided ranges: the branch-free lanes give the loop's span,
        // and the loop's entry axis gives `entry_normal`.
        let mut state = 0x1234_5678_u32;
        let mut next = move |n: u32| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state % n) as f32 - (n / 2) as f32
        };
        let mut hits = 0;
        for _ in 0..200_000 {
            let mut v = |n| Vec3::new(next(n), next(n), next(n));
            let (a, b) = (v(9), v(9));
            let (min, max) = (a.min(b), a.max(b));
            let (o, mut d) = (v(13), v(5) * 0.5);
            if next(4) == 0.0 {
                d.x = -0.0;
            }
            if d == Vec3::ZERO {
                continue;
            }
            let ranges = [(0.0, f32::INFINITY), (f32::NEG_INFINITY, f32::INFINITY), (1.0, 2.0), (-3.0, 0.5)];
            let range = ranges[(next(4) + 2.0) as usize];
            let want = slab_span(o.to_array(), d.to_array(), min.to_array(), max.to_array(), range);
            let got = slab_lanes(o.into(), d.into(), min.into(), max.into(), range);
            assert_eq!(got.hit, want.is_some(), "{o} {d} {min} {max} {range:?}");
            let Some(want) = want else { continue };
            hits += 1;
            assert_eq!(
                (got.t_enter, got.t_exit),
                (want.t_enter, want.t_exit),
                "{o} {d} {min} {max} {range:?}"
            );
            let mut normal = Vec3::ZERO;
            if let Some(i) = want.enter_axis {
                normal[i] = -d[i].signum();
            }
            assert_eq!(Vec3::from(entry_normal(&got, d.into(), range.0)), normal, "{o} {d} {min} {max}");
            let aabb = Aabb3::new(min, max);
            let ray = Ray3::with_range(o, d, range.0, range.1);
            let hit = aabb.cast_ray(&ray).unwrap();
            assert_eq!((hit.t, hit.normal), (want.t_enter, normal));
            assert_eq!(hit.point, Vec3::from_array(point_at(o.to_array(), d.to_array(), want.t_enter)));
        }
        assert!(hits > 10_000, "{hits}");
    }
}
