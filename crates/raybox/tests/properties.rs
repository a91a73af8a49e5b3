//! Property tests: every query checked against a second, independent way of getting the
//! same answer (the other query of the same shape, the same scene moved, brute force),
//! on random scenes built on a dyadic grid (see `props/strategies.rs`).
//!
//! Tolerances follow the crate's *Semantics*: a `t` within `1e-5` relative, a point
//! within `1e-5` of the scene's scale. Where a boolean answer is compared with brute
//! force, cases within a small margin of the decision boundary are skipped with
//! `prop_assume!` (proptest fails the test if too many are), and the margin is checked by
//! running the brute force on the shapes grown and shrunk by it.

#[path = "props/strategies.rs"]
mod strategies;

use std::fmt::Debug;
use std::ops::{Add, Mul, Sub};

use glam::{DVec2, DVec3, Quat, Vec2, Vec3};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{TestCaseError, TestRunner};
use raybox::{
    Aabb2, Aabb3, Circle, ClosestPoint, ContainsPoint, Obb2, Obb3, Overlaps, Plane, Ray2, Ray3, RayCast,
    RayHit2, RayHit3, RayPlane, RaySpan, RayTriangle, Sphere, Triangle3,
};
use strategies::*;

/// Relative tolerance of reported `t` values and points (the crate's precision contract).
const REL: f32 = 1e-5;

/// 2D overlap pairs are placed with centres within this of the origin (per axis).
const NEAR: f32 = 5.0;

/// 3D overlap pairs: closer, so that they overlap about as often as the 2D ones.
const NEAR3: f32 = 3.5;

type Check = Result<(), TestCaseError>;

// ---------------------------------------------------------------------------------------
// A little vocabulary over 2D and 3D, so each property is written once.

trait Pt: Copy + Debug + PartialEq + Add<Output = Self> + Sub<Output = Self> + Mul<f32, Output = Self> {
    const ZERO: Self;
    fn len(self) -> f32;
    fn max_abs(self) -> f32;
    fn dot_(self, other: Self) -> f32;
}

impl Pt for Vec2 {
    const ZERO: Self = Vec2::ZERO;
    fn len(self) -> f32 {
        self.length()
    }
    fn max_abs(self) -> f32 {
        self.abs().max_element()
    }
    fn dot_(self, other: Self) -> f32 {
        self.dot(other)
    }
}

impl Pt for Vec3 {
    const ZERO: Self = Vec3::ZERO;
    fn len(self) -> f32 {
        self.length()
    }
    fn max_abs(self) -> f32 {
        self.abs().max_element()
    }
    fn dot_(self, other: Self) -> f32 {
        self.dot(other)
    }
}

trait AnyRay: Copy + Debug {
    type P: Pt;
    fn point(&self, t: f32) -> Self::P;
    fn start(&self) -> Self::P;
    fn direction(&self) -> Self::P;
    fn range(&self) -> (f32, f32);
    fn shifted(&self, v: Self::P) -> Self;
}

impl AnyRay for Ray2 {
    type P = Vec2;
    fn point(&self, t: f32) -> Vec2 {
        self.at(t)
    }
    fn start(&self) -> Vec2 {
        self.origin()
    }
    fn direction(&self) -> Vec2 {
        self.dir()
    }
    fn range(&self) -> (f32, f32) {
        (self.t_min(), self.t_max())
    }
    fn shifted(&self, v: Vec2) -> Self {
        Ray2::with_range(self.origin() + v, self.dir(), self.t_min(), self.t_max())
    }
}

impl AnyRay for Ray3 {
    type P = Vec3;
    fn point(&self, t: f32) -> Vec3 {
        self.at(t)
    }
    fn start(&self) -> Vec3 {
        self.origin()
    }
    fn direction(&self) -> Vec3 {
        self.dir()
    }
    fn range(&self) -> (f32, f32) {
        (self.t_min(), self.t_max())
    }
    fn shifted(&self, v: Vec3) -> Self {
        Ray3::with_range(self.origin() + v, self.dir(), self.t_min(), self.t_max())
    }
}

trait AnyHit: Copy + Debug {
    type P: Pt;
    fn hit_t(&self) -> f32;
    fn hit_point(&self) -> Self::P;
    fn hit_normal(&self) -> Self::P;
}

impl AnyHit for RayHit2 {
    type P = Vec2;
    fn hit_t(&self) -> f32 {
        self.t
    }
    fn hit_point(&self) -> Vec2 {
        self.point
    }
    fn hit_normal(&self) -> Vec2 {
        self.normal
    }
}

impl AnyHit for RayHit3 {
    type P = Vec3;
    fn hit_t(&self) -> f32 {
        self.t
    }
    fn hit_point(&self) -> Vec3 {
        self.point
    }
    fn hit_normal(&self) -> Vec3 {
        self.normal
    }
}

/// What the properties need to know about a shape besides the queries under test.
trait Geo: Clone + Debug {
    type P: Pt;
    /// Solids (boxes, balls) have an inside; planes and triangles are thin.
    const SOLID: bool;
    /// The same shape moved by `v` (exactly, for the grid values of the strategies).
    fn moved(&self, v: Self::P) -> Self;
    /// The largest coordinate magnitude involved.
    fn scale(&self) -> f32;
    /// A point of the shape, built from parameters in `[0, 1]^3` without the library's queries.
    fn sample(&self, u: Vec3) -> Self::P;
    /// The smallest width of the shape (zero for thin shapes).
    fn thickness(&self) -> f32;
    /// The shape with `margin` added on every side (negative: removed, down to nothing).
    fn grown(&self, margin: f32) -> Self;
}

impl Geo for Aabb2 {
    type P = Vec2;
    const SOLID: bool = true;
    fn moved(&self, v: Vec2) -> Self {
        self.translated(v)
    }
    fn scale(&self) -> f32 {
        self.min().max_abs().max(self.max().max_abs())
    }
    fn sample(&self, u: Vec3) -> Vec2 {
        self.min() + self.size() * u.truncate()
    }
    fn thickness(&self) -> f32 {
        self.size().min_element()
    }
    fn grown(&self, margin: f32) -> Self {
        self.grow(margin)
    }
}

impl Geo for Aabb3 {
    type P = Vec3;
    const SOLID: bool = true;
    fn moved(&self, v: Vec3) -> Self {
        self.translated(v)
    }
    fn scale(&self) -> f32 {
        self.min().max_abs().max(self.max().max_abs())
    }
    fn sample(&self, u: Vec3) -> Vec3 {
        self.min() + self.size() * u
    }
    fn thickness(&self) -> f32 {
        self.size().min_element()
    }
    fn grown(&self, margin: f32) -> Self {
        self.grow(margin)
    }
}

impl Geo for Obb2 {
    type P = Vec2;
    const SOLID: bool = true;
    fn moved(&self, v: Vec2) -> Self {
        // Rebuilt from the stored x axis; `moved(ZERO)` is the base to compare with.
        Obb2::try_from_rotation(self.center() + v, self.half_extents(), self.axes()[0]).unwrap()
    }
    fn scale(&self) -> f32 {
        self.center().max_abs() + 1.5 * self.half_extents().max_element()
    }
    fn sample(&self, u: Vec3) -> Vec2 {
        self.point_to_world(self.half_extents() * (u.truncate() * 2.0 - Vec2::ONE))
    }
    fn thickness(&self) -> f32 {
        2.0 * self.half_extents().min_element()
    }
    fn grown(&self, margin: f32) -> Self {
        let h = (self.half_extents() + Vec2::splat(margin)).max(Vec2::ZERO);
        Obb2::try_from_rotation(self.center(), h, self.axes()[0]).unwrap()
    }
}

impl Geo for Obb3 {
    type P = Vec3;
    const SOLID: bool = true;
    fn moved(&self, v: Vec3) -> Self {
        Obb3::try_from_matrix(self.center() + v, self.half_extents(), self.rotation()).unwrap()
    }
    fn scale(&self) -> f32 {
        self.center().max_abs() + 1.8 * self.half_extents().max_element()
    }
    fn sample(&self, u: Vec3) -> Vec3 {
        self.point_to_world(self.half_extents() * (u * 2.0 - Vec3::ONE))
    }
    fn thickness(&self) -> f32 {
        2.0 * self.half_extents().min_element()
    }
    fn grown(&self, margin: f32) -> Self {
        let h = (self.half_extents() + Vec3::splat(margin)).max(Vec3::ZERO);
        Obb3::try_from_matrix(self.center(), h, self.rotation()).unwrap()
    }
}

/// A point of a unit ball from `u` in `[0, 1]^3`: inside when `2u - 1` is, else on the sphere.
fn ball_offset3(u: Vec3) -> Vec3 {
    let v = u * 2.0 - Vec3::ONE;
    if v.length_squared() <= 1.0 { v } else { v.normalize() }
}

impl Geo for Circle {
    type P = Vec2;
    const SOLID: bool = true;
    fn moved(&self, v: Vec2) -> Self {
        Circle::new(self.center() + v, self.radius())
    }
    fn scale(&self) -> f32 {
        self.center().max_abs() + self.radius()
    }
    fn sample(&self, u: Vec3) -> Vec2 {
        let angle = u.x * std::f32::consts::TAU;
        let fraction = if u.z < 0.25 { 1.0 } else { u.y }; // a quarter of the samples on the rim
        self.center() + Vec2::from_angle(angle) * (self.radius() * fraction)
    }
    fn thickness(&self) -> f32 {
        2.0 * self.radius()
    }
    fn grown(&self, margin: f32) -> Self {
        Circle::new(self.center(), (self.radius() + margin).max(0.0))
    }
}

impl Geo for Sphere {
    type P = Vec3;
    const SOLID: bool = true;
    fn moved(&self, v: Vec3) -> Self {
        Sphere::new(self.center() + v, self.radius())
    }
    fn scale(&self) -> f32 {
        self.center().max_abs() + self.radius()
    }
    fn sample(&self, u: Vec3) -> Vec3 {
        self.center() + ball_offset3(u) * self.radius()
    }
    fn thickness(&self) -> f32 {
        2.0 * self.radius()
    }
    fn grown(&self, margin: f32) -> Self {
        Sphere::new(self.center(), (self.radius() + margin).max(0.0))
    }
}

impl Geo for Plane {
    type P = Vec3;
    const SOLID: bool = false;
    fn moved(&self, v: Vec3) -> Self {
        let offset = f64::from(self.offset()) + self.normal().as_dvec3().dot(v.as_dvec3());
        Plane::new(self.normal(), offset as f32)
    }
    fn scale(&self) -> f32 {
        self.offset().abs() / self.normal().length() + 12.0
    }
    fn sample(&self, u: Vec3) -> Vec3 {
        // The foot of the origin plus an in-plane offset, all in f64.
        let n = self.normal().as_dvec3();
        let foot = n * (f64::from(self.offset()) / n.length_squared());
        let (e1, e2) = n.normalize().any_orthonormal_pair();
        let (a, b) = (f64::from(u.x) - 0.5, f64::from(u.y) - 0.5);
        (foot + e1 * (16.0 * a) + e2 * (16.0 * b)).as_vec3()
    }
    fn thickness(&self) -> f32 {
        0.0
    }
    fn grown(&self, _margin: f32) -> Self {
        *self
    }
}

impl Geo for Triangle3 {
    type P = Vec3;
    const SOLID: bool = false;
    fn moved(&self, v: Vec3) -> Self {
        let [a, b, c] = self.vertices();
        Triangle3::new(a + v, b + v, c + v)
    }
    fn scale(&self) -> f32 {
        self.vertices().iter().map(|v| v.max_abs()).fold(0.0, f32::max)
    }
    fn sample(&self, u: Vec3) -> Vec3 {
        let (mut s, mut t) = (f64::from(u.x), f64::from(u.y));
        if s + t > 1.0 {
            (s, t) = (1.0 - s, 1.0 - t);
        }
        let [a, b, c] = self.vertices().map(Vec3::as_dvec3);
        (a + (b - a) * s + (c - a) * t).as_vec3()
    }
    fn thickness(&self) -> f32 {
        0.0
    }
    fn grown(&self, _margin: f32) -> Self {
        *self
    }
}

/// The scale of a scene: its largest coordinate, at least 1.
fn scene_scale<S: Geo, R: AnyRay<P = S::P>>(shape: &S, ray: &R) -> f32 {
    shape.scale().max(ray.start().max_abs()).max(1.0)
}

/// The tolerance on a `t` of the ray: `REL` of the scene, in units of `dir`, and of `t`.
fn t_tol<R: AnyRay>(ray: &R, scale: f32, t: f32) -> f32 {
    REL * (scale / ray.direction().len() + t.abs())
}

/// The tolerance on the position of `r(t)`: `REL` of the scene and of `|t dir|` (a far
/// point of the ray is only as precise as its own coordinates).
fn point_tol<R: AnyRay>(ray: &R, scale: f32, t: f32) -> f32 {
    REL * (scale + t.abs() * ray.direction().len())
}

fn same_t(a: f32, b: f32, tol: f32) -> bool {
    a == b || (a - b).abs() <= tol
}

// ---------------------------------------------------------------------------------------
// Ray properties, written once for every shape.

/// `cast_ray` and `ray_span` agree: both miss, or the hit is at `t_enter`; the span is an
/// ordered sub-interval of the ray's range, and the hit point is `r(t)`.
fn cast_agrees_with_span<S, P>(s: &S, ray: &<S as RayCast>::Ray) -> Check
where
    S: Geo<P = P> + RayCast,
    <S as RayCast>::Ray: AnyRay<P = P>,
    <S as RayCast>::Hit: AnyHit<P = P>,
    P: Pt,
{
    let span = s.ray_span(ray);
    let hit = s.cast_ray(ray);
    prop_assert_eq!(s.intersects_ray(ray), span.is_some());
    match (span, hit) {
        (None, None) => {}
        (Some(span), Some(hit)) => {
            let (t_min, t_max) = ray.range();
            prop_assert_eq!(
                hit.hit_t(),
                span.t_enter,
                "cast_ray t vs ray_span t_enter: {:?} {:?}",
                hit,
                span
            );
            prop_assert!(
                t_min <= span.t_enter && span.t_enter <= span.t_exit && span.t_exit <= t_max,
                "{span:?}"
            );
            let scale = scene_scale(s, ray);
            if span.t_enter.is_finite() {
                let expected = ray.point(span.t_enter);
                let off = (hit.hit_point() - expected).len();
                prop_assert!(
                    off <= point_tol(ray, scale, span.t_enter),
                    "hit point {:?} vs r(t) {:?}",
                    hit.hit_point(),
                    expected
                );
            }
        }
        (span, hit) => prop_assert!(false, "ray_span {:?} but cast_ray {:?}", span, hit),
    }
    Ok(())
}

/// Moving the shape and the ray by the same grid vector asks the same question exactly.
fn translation_invariant<S, P>(s: &S, ray: &<S as RayCast>::Ray, v: P) -> Check
where
    S: Geo<P = P> + RayCast,
    <S as RayCast>::Ray: AnyRay<P = P>,
    P: Pt,
{
    let base = s.moved(P::ZERO);
    let (a, b) = (base.ray_span(ray), s.moved(v).ray_span(&ray.shifted(v)));
    match (a, b) {
        (None, None) => {}
        (Some(a), Some(b)) => {
            let scale = scene_scale(s, ray) + v.max_abs();
            for (x, y) in [(a.t_enter, b.t_enter), (a.t_exit, b.t_exit)] {
                prop_assert!(same_t(x, y, t_tol(ray, scale, x)), "{:?} vs moved {:?}", a, b);
            }
        }
        _ => prop_assert!(false, "span {:?}, moved by {:?}: {:?}", a, v, b),
    }
    Ok(())
}

/// Points of the ray inside the span are in the shape; points of the line well before
/// the entry or after the exit are not; a missed ray has no point inside the shape
/// shrunk by a margin.
fn span_matches_membership<S, P>(s: &S, ray: &<S as RayCast>::Ray) -> Check
where
    S: Geo<P = P> + RayCast + ContainsPoint<Point = P> + ClosestPoint<Point = P>,
    <S as RayCast>::Ray: AnyRay<P = P>,
    P: Pt,
{
    let scale = scene_scale(s, ray);
    let (t_min, t_max) = ray.range();
    let step = scale / ray.direction().len();
    match s.ray_span(ray) {
        Some(RaySpan { t_enter, t_exit }) if S::SOLID => {
            for f in [0.0, 0.01, 0.25, 0.5, 0.75, 0.99, 1.0] {
                let t = t_enter + (t_exit - t_enter) * f;
                let d = s.distance_to_point(ray.point(t));
                let tol = point_tol(ray, scale, t);
                prop_assert!(d <= tol, "r({t}) is {d} from the shape, span [{t_enter}, {t_exit}]");
            }
            // Outside the span, the *line* is outside the shape, unless the end was clipped.
            if t_enter > t_min {
                let p = ray.point(t_enter - step);
                prop_assert!(!s.contains_point(p), "before the entry {t_enter}: {:?} is inside", p);
            }
            if t_exit < t_max {
                let p = ray.point(t_exit + step);
                prop_assert!(!s.contains_point(p), "after the exit {t_exit}: {:?} is inside", p);
            }
        }
        Some(RaySpan { t_enter, t_exit }) => {
            // Thin shapes: the ends of the span are on the shape.
            for t in [t_enter, t_exit].into_iter().filter(|t| t.is_finite()) {
                let d = s.distance_to_point(ray.point(t));
                prop_assert!(d <= point_tol(ray, scale, t), "r({t}) is {d} from the thin shape");
            }
        }
        None if S::SOLID => {
            let core = s.grown(-REL * 10.0 * scale);
            let lo = if t_min.is_finite() { t_min } else { -4.0 * step };
            let hi = if t_max.is_finite() { t_max } else { lo.max(0.0) + 4.0 * step };
            for k in 0..=32 {
                let t = lo + (hi - lo) * (k as f32 / 32.0);
                let p = ray.point(t);
                prop_assert!(!core.contains_point(p), "missed, yet r({t}) = {:?} is well inside", p);
            }
        }
        None => {}
    }
    Ok(())
}

/// The hit point is on the surface, the normal is a unit vector pointing out of the
/// face hit (against the ray), and a nudge along it leaves the shape by exactly the
/// nudge; a nudge against it stays inside. A zero normal only for a ray starting inside.
fn hit_normal_points_out<S, P>(s: &S, ray: &<S as RayCast>::Ray) -> Check
where
    S: Geo<P = P> + RayCast + ContainsPoint<Point = P> + ClosestPoint<Point = P>,
    <S as RayCast>::Ray: AnyRay<P = P>,
    <S as RayCast>::Hit: AnyHit<P = P>,
    P: Pt,
{
    let Some(hit) = s.cast_ray(ray) else { return Ok(()) };
    let scale = scene_scale(s, ray);
    let tol = point_tol(ray, scale, hit.hit_t());
    let (p, n) = (hit.hit_point(), hit.hit_normal());
    prop_assert!(s.distance_to_point(p) <= tol, "hit point {:?} is off the shape", p);
    if n == P::ZERO {
        // Only a ray starting inside a solid (or lying in a thin shape) has no normal.
        prop_assert_eq!(hit.hit_t(), ray.range().0, "zero normal away from t_min: {:?}", hit);
        return Ok(());
    }
    prop_assert!((n.len() - 1.0).abs() <= 1e-5, "normal {:?} is not a unit vector", n);
    let d = ray.direction();
    prop_assert!(n.dot_(d) <= 1e-5 * d.len(), "normal {:?} faces along the ray {:?}", n, d);
    if S::SOLID {
        let eps = 1e-3 * scale;
        let out = s.distance_to_point(p + n * eps);
        prop_assert!((out - eps).abs() <= 2.0 * tol, "nudged out by {eps}: distance {out}, normal {:?}", n);
        if s.thickness() > 4.0 * eps {
            let back = s.distance_to_point(p - n * eps);
            prop_assert!(back <= tol, "nudged in by {eps}: distance {back}, normal {:?}", n);
        }
    }
    Ok(())
}

/// The closest point is on the shape, at the reported distance, and no sampled point of
/// the shape is nearer; a point inside a solid is its own closest point.
fn closest_point_is_closest<S, P>(s: &S, p: P, params: &[Vec3]) -> Check
where
    S: Geo<P = P> + ContainsPoint<Point = P> + ClosestPoint<Point = P>,
    P: Pt,
{
    let scale = s.scale().max(p.max_abs()).max(1.0);
    let tol = REL * scale;
    let c = s.closest_point(p);
    let d = s.distance_to_point(p);
    prop_assert!(d >= 0.0 && d.is_finite());
    prop_assert!(s.distance_to_point(c) <= tol, "closest point {:?} is off the shape", c);
    prop_assert!(((p - c).len() - d).abs() <= tol, "|p - closest| = {} but distance {d}", (p - c).len());
    for &u in params {
        let q = s.sample(u);
        prop_assert!(s.distance_to_point(q) <= tol, "sample {:?} of the shape is off it", q);
        prop_assert!((p - q).len() >= d - tol, "sample {:?} is nearer ({}) than {d}", q, (p - q).len());
    }
    if S::SOLID {
        if s.contains_point(p) {
            prop_assert_eq!(c, p);
            prop_assert_eq!(d, 0.0);
        } else {
            prop_assert!(d > 0.0, "outside, yet at distance zero");
        }
    } else if s.contains_point(p) {
        prop_assert!(d <= tol && (c - p).len() <= tol);
    }
    Ok(())
}

/// Writes the ray and closest-point properties for one shape, as a module of tests.
macro_rules! shape_properties {
    ($($module:ident: $shape:expr, $with_ray:ident, $with_point:ident, $shift:ident;)*) => {$(
        mod $module {
            use super::*;

            proptest! {
                #[test]
                fn cast_ray_agrees_with_ray_span((s, ray) in $with_ray($shape)) {
                    cast_agrees_with_span(&s, &ray)?;
                }

                #[test]
                fn span_is_translation_invariant((s, ray) in $with_ray($shape), v in $shift()) {
                    translation_invariant(&s, &ray, v)?;
                }

                #[test]
                fn span_matches_point_membership((s, ray) in $with_ray($shape)) {
                    span_matches_membership(&s, &ray)?;
                }

                #[test]
                fn hit_is_on_the_surface_with_an_outward_normal((s, ray) in $with_ray($shape)) {
                    hit_normal_points_out(&s, &ray)?;
                }

                #[test]
                fn closest_point_is_the_nearest_point((s, p, params) in $with_point($shape)) {
                    closest_point_is_closest(&s, p, &params)?;
                }
            }
        }
    )*};
}

shape_properties! {
    aabb2: aabb2(FAR), with_ray2, with_point2, shift2;
    aabb3: aabb3(FAR), with_ray3, with_point3, shift3;
    obb2: obb2(FAR), with_ray2, with_point2, shift2;
    obb3: obb3(FAR), with_ray3, with_point3, shift3;
    circle: circle(FAR), with_ray2, with_point2, shift2;
    sphere: sphere(FAR), with_ray3, with_point3, shift3;
    plane: plane(FAR), with_ray3, with_point3, shift3;
    triangle: triangle(FAR), with_ray3, with_point3, shift3;
}

// ---------------------------------------------------------------------------------------
// Other ray properties.

/// `t` values agree exactly or within `REL` of the scene.
fn spans_agree<R: AnyRay>(a: Option<RaySpan>, b: Option<RaySpan>, ray: &R, scale: f32) -> Check {
    match (a, b) {
        (None, None) => {}
        (Some(x), Some(y)) => {
            prop_assert!(same_t(x.t_enter, y.t_enter, t_tol(ray, scale, x.t_enter)), "{:?} vs {:?}", x, y);
            prop_assert!(same_t(x.t_exit, y.t_exit, t_tol(ray, scale, x.t_exit)), "{:?} vs {:?}", x, y);
        }
        _ => prop_assert!(false, "{:?} vs {:?}", a, b),
    }
    Ok(())
}

proptest! {
    #[test]
    fn aabb2_span_equals_the_span_of_the_same_box_as_an_obb2((b, ray) in with_ray2(aabb2(FAR))) {
        let obb = Obb2::new(b.center(), b.half_extents(), 0.0);
        prop_assert_eq!(obb.rotation(), glam::Mat2::IDENTITY);
        spans_agree(b.ray_span(&ray), obb.ray_span(&ray), &ray, scene_scale(&b, &ray))?;
        if let (Some(x), Some(y)) = (b.cast_ray(&ray), obb.cast_ray(&ray)) {
            prop_assert_eq!(x.normal, y.normal);
        }
    }

    #[test]
    fn aabb3_span_equals_the_span_of_the_same_box_as_an_obb3((b, ray) in with_ray3(aabb3(FAR))) {
        let obb = Obb3::new(b.center(), b.half_extents(), Quat::IDENTITY);
        prop_assert_eq!(obb.rotation(), glam::Mat3::IDENTITY);
        spans_agree(b.ray_span(&ray), obb.ray_span(&ray), &ray, scene_scale(&b, &ray))?;
        if let (Some(x), Some(y)) = (b.cast_ray(&ray), obb.cast_ray(&ray)) {
            prop_assert_eq!(x.normal, y.normal);
        }
    }

    /// The plane's `ray_intersection` classifies the crossing as `n · r(t) = offset` says.
    #[test]
    fn plane_crossing_is_on_the_plane_and_faces_right((p, ray) in with_ray3(plane(FAR))) {
        let n = p.normal().as_dvec3();
        let n_dot_d = n.dot(ray.dir().as_dvec3());
        match p.ray_intersection(&ray) {
            RayPlane::Hit { t, front_facing } => {
                prop_assert_eq!(front_facing, n_dot_d < 0.0);
                prop_assert!(ray.t_min() <= t && t <= ray.t_max());
                let scale = scene_scale(&p, &ray);
                let d = p.distance_to_point(ray.at(t));
                prop_assert!(d <= point_tol(&ray, scale, t), "r({}) is {} from the plane", t, d);
            }
            RayPlane::Miss { t } => {
                prop_assert!(n_dot_d != 0.0);
                prop_assert!(t < ray.t_min() || t > ray.t_max(), "a miss at {} inside the range", t);
            }
            RayPlane::Parallel => {
                prop_assert_eq!(n_dot_d, 0.0);
                prop_assert!(!p.contains_point(ray.origin()));
            }
            RayPlane::Coplanar => {
                prop_assert_eq!(n_dot_d, 0.0);
                prop_assert!(p.contains_point(ray.origin()));
            }
        }
    }

    /// Barycentrics of a triangle hit rebuild the hit point.
    #[test]
    fn triangle_barycentrics_rebuild_the_hit_point((tri, ray) in with_ray3(triangle(FAR))) {
        if let RayTriangle::Hit(h) = tri.ray_intersection(&ray) {
            let [a, b, c] = tri.vertices();
            prop_assert!(h.u >= 0.0 && h.v >= 0.0 && h.u + h.v <= 1.0 + 1e-6, "{:?}", h);
            let rebuilt = a * h.w() + b * h.u + c * h.v;
            let scale = scene_scale(&tri, &ray);
            let off = (rebuilt - ray.at(h.t)).length();
            prop_assert!(off <= 10.0 * REL * scale, "barycentric point {} vs r(t) {}: {}", rebuilt, ray.at(h.t), off);
            let n = tri.normal().as_dvec3();
            prop_assert_eq!(h.front_facing, n.dot(ray.dir().as_dvec3()) < 0.0);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Overlaps: symmetry.

proptest! {
    #[test]
    fn overlaps_is_symmetric_2d(
        (a1, a2) in (aabb2(NEAR), aabb2(NEAR)),
        (c1, c2) in (circle(NEAR), circle(NEAR)),
        (o1, o2) in (obb2(NEAR), obb2(NEAR)),
    ) {
        prop_assert_eq!(a1.overlaps(&a2), a2.overlaps(&a1), "Aabb2/Aabb2");
        prop_assert_eq!(c1.overlaps(&a1), a1.overlaps(&c1), "Circle/Aabb2");
        prop_assert_eq!(c1.overlaps(&o1), o1.overlaps(&c1), "Circle/Obb2");
        prop_assert_eq!(a1.overlaps(&o1), o1.overlaps(&a1), "Aabb2/Obb2");
        prop_assert_eq!(o1.overlaps(&o2), o2.overlaps(&o1), "Obb2/Obb2");
        prop_assert_eq!(c1.overlaps(&c2), c2.overlaps(&c1), "Circle/Circle");
    }

    #[test]
    fn overlaps_is_symmetric_3d(
        (a1, a2) in (aabb3(NEAR3), aabb3(NEAR3)),
        (s1, s2) in (sphere(NEAR3), sphere(NEAR3)),
        (o1, o2) in (obb3(NEAR3), obb3(NEAR3)),
        p in plane(NEAR3),
        t in triangle(NEAR3),
    ) {
        prop_assert_eq!(a1.overlaps(&a2), a2.overlaps(&a1), "Aabb3/Aabb3");
        prop_assert_eq!(s1.overlaps(&a1), a1.overlaps(&s1), "Sphere/Aabb3");
        prop_assert_eq!(s1.overlaps(&o1), o1.overlaps(&s1), "Sphere/Obb3");
        prop_assert_eq!(a1.overlaps(&o1), o1.overlaps(&a1), "Aabb3/Obb3");
        prop_assert_eq!(o1.overlaps(&o2), o2.overlaps(&o1), "Obb3/Obb3");
        prop_assert_eq!(s1.overlaps(&s2), s2.overlaps(&s1), "Sphere/Sphere");
        prop_assert_eq!(p.overlaps(&s1), s1.overlaps(&p), "Plane/Sphere");
        prop_assert_eq!(p.overlaps(&a1), a1.overlaps(&p), "Plane/Aabb3");
        prop_assert_eq!(p.overlaps(&o1), o1.overlaps(&p), "Plane/Obb3");
        prop_assert_eq!(p.overlaps(&t), t.overlaps(&p), "Plane/Triangle3");
        prop_assert_eq!(t.overlaps(&a1), a1.overlaps(&t), "Triangle3/Aabb3");
        prop_assert_eq!(t.overlaps(&o1), o1.overlaps(&t), "Triangle3/Obb3");
        prop_assert_eq!(t.overlaps(&s1), s1.overlaps(&t), "Triangle3/Sphere");
    }
}

// ---------------------------------------------------------------------------------------
// Overlaps against brute force.

/// Closed intervals per axis, written independently: the overlap of `[a, b]` and `[c, d]`
/// is `[max(a, c), min(b, d)]`, non-empty when its ends are ordered.
fn intervals_overlap(a_min: &[f32], a_max: &[f32], b_min: &[f32], b_max: &[f32]) -> bool {
    (0..a_min.len()).all(|i| a_min[i].max(b_min[i]) <= a_max[i].min(b_max[i]))
}

/// A 2D box in `f64`: centre, axes and half extents, as stored by the library.
#[derive(Clone, Copy, Debug)]
struct Box2 {
    c: DVec2,
    axes: [DVec2; 2],
    h: [f64; 2],
}

impl Box2 {
    fn of_obb(b: &Obb2) -> Self {
        let h = b.half_extents().as_dvec2();
        Box2 { c: b.center().as_dvec2(), axes: b.axes().map(Vec2::as_dvec2), h: [h.x, h.y] }
    }

    fn of_aabb(b: &Aabb2) -> Self {
        let (lo, hi) = (b.min().as_dvec2(), b.max().as_dvec2());
        let h = (hi - lo) * 0.5;
        Box2 { c: (lo + hi) * 0.5, axes: [DVec2::X, DVec2::Y], h: [h.x, h.y] }
    }

    fn grown(&self, m: f64) -> Self {
        Box2 { h: self.h.map(|h| (h + m).max(0.0)), ..*self }
    }

    /// Counter-clockwise corners.
    fn corners(&self) -> [DVec2; 4] {
        let [u, v] = [self.axes[0] * self.h[0], self.axes[1] * self.h[1]];
        [self.c - u - v, self.c + u - v, self.c + u + v, self.c - u + v]
    }

    fn contains(&self, p: DVec2) -> bool {
        let d = p - self.c;
        (0..2).all(|k| d.dot(self.axes[k]).abs() <= self.h[k])
    }
}

fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// Do the closed segments `pq` and `rs` share a point?
fn segments_meet(p: DVec2, q: DVec2, r: DVec2, s: DVec2) -> bool {
    let on = |a: DVec2, b: DVec2, x: DVec2| {
        orient(a, b, x) == 0.0 && x.cmpge(a.min(b)).all() && x.cmple(a.max(b)).all()
    };
    let (d1, d2) = (orient(r, s, p), orient(r, s, q));
    let (d3, d4) = (orient(p, q, r), orient(p, q, s));
    (d1 * d2 < 0.0 && d3 * d4 < 0.0) || on(r, s, p) || on(r, s, q) || on(p, q, r) || on(p, q, s)
}

/// Two convex quadrilaterals meet when a corner of one is in the other or two edges meet.
fn boxes2_meet(a: &Box2, b: &Box2) -> bool {
    let (ca, cb) = (a.corners(), b.corners());
    let edges = |c: [DVec2; 4]| (0..4).map(move |i| (c[i], c[(i + 1) % 4]));
    ca.iter().any(|&p| b.contains(p))
        || cb.iter().any(|&p| a.contains(p))
        || edges(ca).any(|(p, q)| edges(cb).any(|(r, s)| segments_meet(p, q, r, s)))
}

/// Brute force on both shapes grown and shrunk by `margin`; `None` when the two disagree
/// (the pair is within the margin of touching).
fn decided<T>(a: &T, b: &T, margin: f64, meet: impl Fn(&T, &T, f64) -> bool) -> Option<bool> {
    let (grown, shrunk) = (meet(a, b, margin), meet(a, b, -margin));
    (grown == shrunk).then_some(grown)
}

/// A segment of a 3D shape's edge against another shape (a degenerate edge is a point).
fn edge_meets<S: RayCast<Ray = Ray3> + ContainsPoint<Point = Vec3>>(from: Vec3, to: Vec3, s: &S) -> bool {
    if from == to { s.contains_point(from) } else { s.ray_span(&Ray3::segment(from, to)).is_some() }
}

/// The 12 edges of a box given its corners (corner `i` and `i | bit` for each unset bit).
fn box_edges(c: [Vec3; 8]) -> impl Iterator<Item = (Vec3, Vec3)> {
    (0..8usize).flat_map(move |i| {
        [1, 2, 4].into_iter().filter(move |bit| i & bit == 0).map(move |bit| (c[i], c[i | bit]))
    })
}

fn triangle_edges(t: &Triangle3) -> [(Vec3, Vec3); 3] {
    let [a, b, c] = t.vertices();
    [(a, b), (b, c), (c, a)]
}

/// Two solid boxes meet exactly when an edge of one meets the other: a vertex of their
/// intersection lies on an edge of one of them (or is a corner, on an edge too).
fn obbs3_meet(a: &Obb3, b: &Obb3) -> bool {
    box_edges(a.corners()).any(|(p, q)| edge_meets(p, q, b))
        || box_edges(b.corners()).any(|(p, q)| edge_meets(p, q, a))
}

/// A box and a triangle meet exactly when an edge of one meets the other.
fn box_triangle_meet<B>(b: &B, corners: [Vec3; 8], t: &Triangle3) -> bool
where
    B: RayCast<Ray = Ray3> + ContainsPoint<Point = Vec3>,
{
    triangle_edges(t).iter().any(|&(p, q)| edge_meets(p, q, b))
        || box_edges(corners).any(|(p, q)| edge_meets(p, q, t))
}

/// The distance from `p` to the closed triangle, computed apart from the library: the
/// distance to the plane when `p` projects inside, else to the nearest edge.
fn triangle_distance(p: DVec3, [a, b, c]: [DVec3; 3]) -> f64 {
    let n = (b - a).cross(c - a);
    let inside = [(a, b), (b, c), (c, a)].iter().all(|&(u, v)| (v - u).cross(p - u).dot(n) >= 0.0);
    if inside {
        return (p - a).dot(n).abs() / n.length();
    }
    let to_segment = |u: DVec3, v: DVec3| {
        let e = v - u;
        let s = ((p - u).dot(e) / e.dot(e)).clamp(0.0, 1.0);
        (u + e * s - p).length()
    };
    to_segment(a, b).min(to_segment(b, c)).min(to_segment(c, a))
}

/// `n · x - offset` over some points, in `f64`: the plane touches their hull when the
/// values straddle zero. `None` when the nearest value to zero is within `margin`.
fn plane_straddles(p: &Plane, points: &[Vec3], margin: f64) -> Option<bool> {
    let n = p.normal().as_dvec3();
    let values: Vec<f64> = points.iter().map(|x| n.dot(x.as_dvec3()) - f64::from(p.offset())).collect();
    let (lo, hi) = values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
    if lo.abs().min(hi.abs()) <= margin * n.length() {
        return None;
    }
    Some(lo <= 0.0 && 0.0 <= hi)
}

/// The margin of a brute-force decision: `REL * 10` of the coordinates (at most ~20).
const MARGIN: f64 = 10.0 * REL as f64 * 20.0;

proptest! {
    #[test]
    fn aabb_overlap_is_interval_overlap_on_every_axis(
        (a, b) in (aabb2(NEAR), aabb2(NEAR)),
        (c, d) in (aabb3(NEAR3), aabb3(NEAR3)),
    ) {
        let expected2 = intervals_overlap(&a.min().to_array(), &a.max().to_array(), &b.min().to_array(), &b.max().to_array());
        prop_assert_eq!(a.overlaps(&b), expected2);
        let expected3 = intervals_overlap(&c.min().to_array(), &c.max().to_array(), &d.min().to_array(), &d.max().to_array());
        prop_assert_eq!(c.overlaps(&d), expected3);
    }

    #[test]
    fn ball_box_overlap_is_distance_to_the_box_at_most_r(
        (c, a, o) in (circle(NEAR), aabb2(NEAR), obb2(NEAR)),
        (s, b, q) in (sphere(NEAR3), aabb3(NEAR3), obb3(NEAR3)),
    ) {
        let cases = [
            ("Circle/Aabb2", a.distance_to_point(c.center()), c.radius(), c.overlaps(&a)),
            ("Circle/Obb2", o.distance_to_point(c.center()), c.radius(), c.overlaps(&o)),
            ("Sphere/Aabb3", b.distance_to_point(s.center()), s.radius(), s.overlaps(&b)),
            ("Sphere/Obb3", q.distance_to_point(s.center()), s.radius(), s.overlaps(&q)),
        ];
        for (pair, d, r, overlaps) in cases {
            prop_assume!((d - r).abs() > 1e-5 * 20.0, "within a hair of touching");
            prop_assert_eq!(overlaps, d <= r, "{}: distance {} radius {}", pair, d, r);
        }
    }

    #[test]
    fn ball_ball_overlap_is_centre_distance_at_most_the_radii(
        (c1, c2) in (circle(NEAR), circle(NEAR)),
        (s1, s2) in (sphere(NEAR3), sphere(NEAR3)),
    ) {
        let d2 = c1.center().as_dvec2().distance(c2.center().as_dvec2()) - f64::from(c1.radius() + c2.radius());
        let d3 = s1.center().as_dvec3().distance(s2.center().as_dvec3()) - f64::from(s1.radius() + s2.radius());
        prop_assume!(d2.abs() > 1e-4 && d3.abs() > 1e-4);
        prop_assert_eq!(c1.overlaps(&c2), d2 <= 0.0);
        prop_assert_eq!(s1.overlaps(&s2), d3 <= 0.0);
    }

    #[test]
    fn obb2_overlap_agrees_with_corners_and_edges((a, b) in (obb2(NEAR), obb2(NEAR))) {
        let meet = |x: &Box2, y: &Box2, m: f64| boxes2_meet(&x.grown(m), &y.grown(m));
        let expected = decided(&Box2::of_obb(&a), &Box2::of_obb(&b), MARGIN, meet);
        prop_assume!(expected.is_some(), "within the margin of touching");
        prop_assert_eq!(a.overlaps(&b), expected.unwrap());
    }

    #[test]
    fn aabb2_obb2_overlap_agrees_with_corners_and_edges((a, b) in (aabb2(NEAR), obb2(NEAR))) {
        let meet = |x: &Box2, y: &Box2, m: f64| boxes2_meet(&x.grown(m), &y.grown(m));
        let expected = decided(&Box2::of_aabb(&a), &Box2::of_obb(&b), MARGIN, meet);
        prop_assume!(expected.is_some(), "within the margin of touching");
        prop_assert_eq!(a.overlaps(&b), expected.unwrap());
    }

    #[test]
    fn obb3_overlap_agrees_with_edge_casts((a, b) in (obb3(NEAR3), obb3(NEAR3))) {
        let m = MARGIN as f32;
        let meet = |x: &Obb3, y: &Obb3, m: f64| obbs3_meet(&x.grown(m as f32), &y.grown(m as f32));
        let expected = decided(&a, &b, f64::from(m), meet);
        prop_assume!(expected.is_some(), "within the margin of touching");
        prop_assert_eq!(a.overlaps(&b), expected.unwrap());
    }

    #[test]
    fn aabb3_obb3_overlap_agrees_with_edge_casts((a, b) in (aabb3(NEAR3), obb3(NEAR3))) {
        let as_obb = Obb3::new(a.center(), a.half_extents(), Quat::IDENTITY);
        let meet = |x: &Obb3, y: &Obb3, m: f64| obbs3_meet(&x.grown(m as f32), &y.grown(m as f32));
        let expected = decided(&as_obb, &b, MARGIN, meet);
        prop_assume!(expected.is_some(), "within the margin of touching");
        prop_assert_eq!(a.overlaps(&b), expected.unwrap());
    }

    #[test]
    fn box_triangle_overlap_agrees_with_edge_casts((a, o, t) in (aabb3(NEAR3), obb3(NEAR3), triangle(NEAR3))) {
        let m = MARGIN as f32;
        let aabb_meets = |margin: f32| {
            let g = a.grow(margin);
            box_triangle_meet(&g, g.corners(), &t)
        };
        let obb_meets = |margin: f32| {
            let g = o.grown(margin);
            box_triangle_meet(&g, g.corners(), &t)
        };
        let (ga, sa) = (aabb_meets(m), aabb_meets(-m));
        let (go, so) = (obb_meets(m), obb_meets(-m));
        prop_assume!(ga == sa && go == so, "within the margin of touching");
        prop_assert_eq!(a.overlaps(&t), ga, "Aabb3/Triangle3");
        prop_assert_eq!(o.overlaps(&t), go, "Obb3/Triangle3");
    }

    #[test]
    fn sphere_triangle_overlap_is_distance_at_most_r((s, t) in (sphere(NEAR3), triangle(NEAR3))) {
        let d = triangle_distance(s.center().as_dvec3(), t.vertices().map(Vec3::as_dvec3));
        let r = f64::from(s.radius());
        prop_assume!((d - r).abs() > 1e-4, "within a hair of touching");
        prop_assert_eq!(s.overlaps(&t), d <= r, "distance {} radius {}", d, r);
    }

    #[test]
    fn plane_overlap_agrees_with_signs_at_the_corners(
        p in plane(NEAR3),
        (s, a, o, t) in (sphere(NEAR3), aabb3(NEAR3), obb3(NEAR3), triangle(NEAR3)),
    ) {
        let margin = 1e-4;
        let sd = f64::from(p.signed_distance(s.center()));
        prop_assume!((sd.abs() - f64::from(s.radius())).abs() > margin);
        prop_assert_eq!(p.overlaps(&s), sd.abs() <= f64::from(s.radius()), "Plane/Sphere");
        let cases = [
            ("Plane/Aabb3", plane_straddles(&p, &a.corners(), margin), p.overlaps(&a)),
            ("Plane/Obb3", plane_straddles(&p, &o.corners(), margin), p.overlaps(&o)),
            ("Plane/Triangle3", plane_straddles(&p, &t.vertices(), margin), p.overlaps(&t)),
        ];
        for (pair, expected, overlaps) in cases {
            prop_assume!(expected.is_some());
            prop_assert_eq!(overlaps, expected.unwrap(), "{}", pair);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Guards: the random scenes are not vacuous.

/// The fraction of `count` generated values for which `test` holds (fixed seed).
fn rate<T: Debug>(strategy: impl Strategy<Value = T>, count: usize, test: impl Fn(&T) -> bool) -> f64 {
    let mut runner = TestRunner::deterministic();
    let hits = (0..count).filter(|_| test(&strategy.new_tree(&mut runner).unwrap().current())).count();
    hits as f64 / count as f64
}

#[test]
fn generated_rays_hit_between_30_and_70_percent_of_the_time() {
    const N: usize = 2000;
    let rates = [
        ("Aabb2", rate(with_ray2(aabb2(FAR)), N, |(s, r)| s.ray_span(r).is_some())),
        ("Aabb3", rate(with_ray3(aabb3(FAR)), N, |(s, r)| s.ray_span(r).is_some())),
        ("Obb2", rate(with_ray2(obb2(FAR)), N, |(s, r)| s.ray_span(r).is_some())),
        ("Obb3", rate(with_ray3(obb3(FAR)), N, |(s, r)| s.ray_span(r).is_some())),
        ("Circle", rate(with_ray2(circle(FAR)), N, |(s, r)| s.ray_span(r).is_some())),
        ("Sphere", rate(with_ray3(sphere(FAR)), N, |(s, r)| s.ray_span(r).is_some())),
        ("Plane", rate(with_ray3(plane(FAR)), N, |(s, r)| s.ray_span(r).is_some())),
        ("Triangle3", rate(with_ray3(triangle(FAR)), N, |(s, r)| s.ray_span(r).is_some())),
    ];
    let report: Vec<String> = rates.iter().map(|(shape, r)| format!("{shape} {:.0}%", r * 100.0)).collect();
    eprintln!("hit rates: {}", report.join(", "));
    assert!(rates.iter().all(|(_, r)| (0.3..=0.7).contains(r)), "hit rates: {}", report.join(", "));
}

#[test]
fn generated_pairs_overlap_between_20_and_80_percent_of_the_time() {
    const N: usize = 1000;
    let rates = [
        ("Aabb2", rate((aabb2(NEAR), aabb2(NEAR)), N, |(a, b)| a.overlaps(b))),
        ("Obb2", rate((obb2(NEAR), obb2(NEAR)), N, |(a, b)| a.overlaps(b))),
        ("Aabb2/Obb2", rate((aabb2(NEAR), obb2(NEAR)), N, |(a, b)| a.overlaps(b))),
        ("Obb3", rate((obb3(NEAR3), obb3(NEAR3)), N, |(a, b)| a.overlaps(b))),
        ("Aabb3/Obb3", rate((aabb3(NEAR3), obb3(NEAR3)), N, |(a, b)| a.overlaps(b))),
        ("Sphere/Obb3", rate((sphere(NEAR3), obb3(NEAR3)), N, |(a, b)| a.overlaps(b))),
        ("Aabb3/Triangle3", rate((aabb3(NEAR3), triangle(NEAR3)), N, |(a, b)| a.overlaps(b))),
        ("Plane/Obb3", rate((plane(NEAR3), obb3(NEAR3)), N, |(a, b)| a.overlaps(b))),
    ];
    let report: Vec<String> = rates.iter().map(|(pair, r)| format!("{pair} {:.0}%", r * 100.0)).collect();
    eprintln!("overlap rates: {}", report.join(", "));
    assert!(rates.iter().all(|(_, r)| (0.2..=0.8).contains(r)), "overlap rates: {}", report.join(", "));
}
