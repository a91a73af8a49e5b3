//! Proptest strategies shared by the property tests: shapes, rays aimed at them, and
//! sample points.
//!
//! **Every coordinate is on a dyadic grid.** Centres, corners, vertices and plane offsets
//! are multiples of `2^-10` below 16, ray directions multiples of `2^-10` below 2, and ray
//! origins `target - s * dir` with `s` a multiple of `2^-4`, so origins are multiples of
//! `2^-14` below 64. Moving any of them by a multiple of `1/4` is then exact in `f32`,
//! and so are the differences `origin - center` the queries start from: a translated
//! scene is *exactly* the same geometric question, which the translation properties rely
//! on. Rotations (angles, quaternions) are arbitrary.

use std::f32::consts::PI;

use glam::{Quat, Vec2, Vec3};
use proptest::prelude::*;
use raybox::{Aabb2, Aabb3, Circle, Obb2, Obb3, Plane, Ray2, Ray3, Sphere, Triangle3};

/// The grid step of coordinates and directions.
pub const STEP: f32 = 1.0 / 1024.0;

/// A multiple of [`STEP`] in `[-limit, limit]`.
pub fn grid(limit: f32) -> impl Strategy<Value = f32> {
    let n = (limit / STEP) as i32;
    (-n..=n).prop_map(|k| k as f32 * STEP)
}

/// A multiple of [`STEP`] in `[0, limit]`, exactly zero one time in ten.
pub fn extent(limit: f32) -> impl Strategy<Value = f32> {
    let n = (limit / STEP) as i32;
    prop_oneof![1 => Just(0.0f32), 9 => (1..=n).prop_map(|k| k as f32 * STEP)]
}

/// `x` rounded to the nearest multiple of [`STEP`].
pub fn snap(x: f32) -> f32 {
    (x / STEP).round() * STEP
}

pub fn vec2(limit: f32) -> impl Strategy<Value = Vec2> {
    (grid(limit), grid(limit)).prop_map(|(x, y)| Vec2::new(x, y))
}

pub fn vec3(limit: f32) -> impl Strategy<Value = Vec3> {
    (grid(limit), grid(limit), grid(limit)).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn extents2(limit: f32) -> impl Strategy<Value = Vec2> {
    (extent(limit), extent(limit)).prop_map(|(x, y)| Vec2::new(x, y))
}

fn extents3(limit: f32) -> impl Strategy<Value = Vec3> {
    (extent(limit), extent(limit), extent(limit)).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// Largest half extent or radius of generated shapes.
pub const SIZE: f32 = 4.0;

/// Shape centres are within this of the origin (per component).
pub const FAR: f32 = 12.0;

pub fn aabb2(spread: f32) -> impl Strategy<Value = Aabb2> {
    (vec2(spread), extents2(SIZE)).prop_map(|(c, h)| Aabb2::new(c - h, c + h))
}

pub fn aabb3(spread: f32) -> impl Strategy<Value = Aabb3> {
    (vec3(spread), extents3(SIZE)).prop_map(|(c, h)| Aabb3::new(c - h, c + h))
}

/// Any angle; one time in eight a multiple of a quarter turn.
fn angle() -> impl Strategy<Value = f32> {
    prop_oneof![1 => (0..4).prop_map(|k| k as f32 * PI / 2.0), 7 => -PI..PI]
}

pub fn obb2(spread: f32) -> impl Strategy<Value = Obb2> {
    (vec2(spread), extents2(SIZE), angle()).prop_map(|(c, h, a)| Obb2::new(c, h, a))
}

/// Any rotation: a random quaternion of any length (the constructor normalises); one
/// time in eight an integer quaternion, which gives an exact rotation matrix.
fn rotation() -> impl Strategy<Value = Quat> {
    let small_int = -2i32..=2;
    let integer = (small_int.clone(), small_int.clone(), small_int.clone(), small_int)
        .prop_map(|(x, y, z, w)| Quat::from_xyzw(x as f32, y as f32, z as f32, w as f32));
    let any = (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0)
        .prop_map(|(x, y, z, w)| Quat::from_xyzw(x, y, z, w));
    prop_oneof![1 => integer, 7 => any].prop_filter("a rotation", |q| q.length_squared() > 0.01)
}

pub fn obb3(spread: f32) -> impl Strategy<Value = Obb3> {
    (vec3(spread), extents3(SIZE), rotation()).prop_map(|(c, h, q)| Obb3::new(c, h, q))
}

pub fn circle(spread: f32) -> impl Strategy<Value = Circle> {
    (vec2(spread), extent(SIZE)).prop_map(|(c, r)| Circle::new(c, r))
}

pub fn sphere(spread: f32) -> impl Strategy<Value = Sphere> {
    (vec3(spread), extent(SIZE)).prop_map(|(c, r)| Sphere::new(c, r))
}

/// A plane `n · x = offset` with `|n| >= 1/4` (so it passes within `4 * spread` of the origin).
pub fn plane(spread: f32) -> impl Strategy<Value = Plane> {
    (vec3(2.0), grid(spread))
        .prop_filter("a normal that is not tiny", |(n, _)| n.length() >= 0.25)
        .prop_map(|(n, offset)| Plane::new(n, offset))
}

/// A triangle with its vertices within [`SIZE`] of a centre, not too thin to matter.
pub fn triangle(spread: f32) -> impl Strategy<Value = Triangle3> {
    (vec3(spread), vec3(SIZE), vec3(SIZE), vec3(SIZE)).prop_filter_map("a proper triangle", |(c, a, b, d)| {
        Triangle3::try_new(c + a, c + b, c + d).ok().filter(|t| t.area() > 0.01)
    })
}

/// The point of a plane nearest to the world origin, snapped to the grid (the aim point
/// for rays and sample points; it need not lie exactly on the plane).
pub fn plane_anchor(p: &Plane) -> Vec3 {
    let n = p.normal();
    (n * (p.offset() / n.length_squared())).map(snap)
}

/// The parameter interval of a generated ray.
fn interval() -> impl Strategy<Value = (f32, f32)> {
    prop_oneof![
        6 => Just((0.0, f32::INFINITY)),
        1 => Just((f32::NEG_INFINITY, f32::INFINITY)),
        2 => extent(8.0).prop_map(|len| (0.0, len)),
        1 => (grid(4.0), extent(8.0)).prop_map(|(a, len)| (a, a + len)),
    ]
}

/// A direction component: a multiple of [`STEP`] in `[-2, 2]`, or `+0.0` / `-0.0`.
fn dir_component() -> impl Strategy<Value = f32> {
    prop_oneof![1 => Just(0.0f32), 1 => Just(-0.0f32), 16 => grid(2.0)]
}

/// How far before the aim point (in units of `dir`) the ray starts.
fn lead() -> impl Strategy<Value = f32> {
    (0..=96).prop_map(|k| k as f32 / 16.0)
}

/// A 2D ray aimed at a point within `1.5 * reach` (per axis) of `target`, starting
/// `s` directions before it.
pub fn ray2_toward(target: Vec2, reach: f32) -> impl Strategy<Value = Ray2> {
    let aim =
        (-1.5f32..=1.5, -1.5f32..=1.5).prop_map(move |(u, v)| (target + Vec2::new(u, v) * reach).map(snap));
    (aim, dir_component(), dir_component(), lead(), interval()).prop_filter_map(
        "a non-zero direction",
        |(aim, dx, dy, s, (t0, t1))| {
            let dir = Vec2::new(dx, dy);
            Ray2::try_with_range(aim - s * dir, dir, t0, t1).ok()
        },
    )
}

/// A 3D ray aimed at a point within `1.1 * reach` (per axis) of `target`.
pub fn ray3_toward(target: Vec3, reach: f32) -> impl Strategy<Value = Ray3> {
    let aim = (-1.1f32..=1.1, -1.1f32..=1.1, -1.1f32..=1.1)
        .prop_map(move |(u, v, w)| (target + Vec3::new(u, v, w) * reach).map(snap));
    (aim, dir_component(), dir_component(), dir_component(), lead(), interval()).prop_filter_map(
        "a non-zero direction",
        |(aim, dx, dy, dz, s, (t0, t1))| {
            let dir = Vec3::new(dx, dy, dz);
            Ray3::try_with_range(aim - s * dir, dir, t0, t1).ok()
        },
    )
}

/// Where to aim at a shape, and how far around it.
pub trait Aim {
    type Point;
    fn aim(&self) -> (Self::Point, f32);
}

impl Aim for Aabb2 {
    type Point = Vec2;
    fn aim(&self) -> (Vec2, f32) {
        (self.center().map(snap), self.half_extents().max_element().max(0.5))
    }
}

impl Aim for Aabb3 {
    type Point = Vec3;
    fn aim(&self) -> (Vec3, f32) {
        (self.center().map(snap), (self.half_extents().element_sum() / 3.0).max(0.5))
    }
}

impl Aim for Obb2 {
    type Point = Vec2;
    fn aim(&self) -> (Vec2, f32) {
        (self.center(), self.half_extents().max_element().max(0.5))
    }
}

impl Aim for Obb3 {
    type Point = Vec3;
    fn aim(&self) -> (Vec3, f32) {
        (self.center(), (self.half_extents().element_sum() / 3.0).max(0.5))
    }
}

impl Aim for Circle {
    type Point = Vec2;
    fn aim(&self) -> (Vec2, f32) {
        (self.center(), self.radius().max(0.5))
    }
}

impl Aim for Sphere {
    type Point = Vec3;
    fn aim(&self) -> (Vec3, f32) {
        (self.center(), self.radius().max(0.5))
    }
}

impl Aim for Plane {
    type Point = Vec3;
    fn aim(&self) -> (Vec3, f32) {
        (plane_anchor(self), 4.0)
    }
}

impl Aim for Triangle3 {
    type Point = Vec3;
    fn aim(&self) -> (Vec3, f32) {
        let c = self.centroid();
        let reach = self.vertices().iter().map(|v| v.distance(c)).fold(0.0, f32::max);
        (c.map(snap), reach * 0.2)
    }
}

/// A 2D shape with a ray aimed at it.
pub fn with_ray2<S>(shape: impl Strategy<Value = S>) -> impl Strategy<Value = (S, Ray2)>
where
    S: Aim<Point = Vec2> + Clone + std::fmt::Debug,
{
    shape.prop_flat_map(|s| {
        let (target, reach) = s.aim();
        (Just(s), ray2_toward(target, reach))
    })
}

/// A 3D shape with a ray aimed at it.
pub fn with_ray3<S>(shape: impl Strategy<Value = S>) -> impl Strategy<Value = (S, Ray3)>
where
    S: Aim<Point = Vec3> + Clone + std::fmt::Debug,
{
    shape.prop_flat_map(|s| {
        let (target, reach) = s.aim();
        (Just(s), ray3_toward(target, reach))
    })
}

/// Parameters in `[0, 1]^3` from which a shape picks its sample points.
pub fn unit_params(count: usize) -> impl Strategy<Value = Vec<Vec3>> {
    prop::collection::vec(
        (0.0f32..=1.0, 0.0f32..=1.0, 0.0f32..=1.0).prop_map(|(a, b, c)| Vec3::new(a, b, c)),
        count,
    )
}

/// A 2D shape, a query point near it (within three times its reach), and sample parameters.
pub fn with_point2<S>(shape: impl Strategy<Value = S>) -> impl Strategy<Value = (S, Vec2, Vec<Vec3>)>
where
    S: Aim<Point = Vec2> + Clone + std::fmt::Debug,
{
    shape.prop_flat_map(|s| {
        let (c, reach) = s.aim();
        let p =
            (-3.0f32..=3.0, -3.0f32..=3.0).prop_map(move |(u, v)| (c + Vec2::new(u, v) * reach).map(snap));
        (Just(s), p, unit_params(24))
    })
}

/// A 3D shape, a query point near it, and sample parameters.
pub fn with_point3<S>(shape: impl Strategy<Value = S>) -> impl Strategy<Value = (S, Vec3, Vec<Vec3>)>
where
    S: Aim<Point = Vec3> + Clone + std::fmt::Debug,
{
    shape.prop_flat_map(|s| {
        let (c, reach) = s.aim();
        let p = (-3.0f32..=3.0, -3.0f32..=3.0, -3.0f32..=3.0)
            .prop_map(move |(u, v, w)| (c + Vec3::new(u, v, w) * reach).map(snap));
        (Just(s), p, unit_params(24))
    })
}

/// A small translation whose components are multiples of `1/4` in `[-4, 4]`: exact on the grid.
pub fn shift2() -> impl Strategy<Value = Vec2> {
    (-16i32..=16, -16i32..=16).prop_map(|(x, y)| Vec2::new(x as f32, y as f32) * 0.25)
}

/// See [`shift2`].
pub fn shift3() -> impl Strategy<Value = Vec3> {
    (-16i32..=16, -16i32..=16, -16i32..=16)
        .prop_map(|(x, y, z)| Vec3::new(x as f32, y as f32, z as f32) * 0.25)
}
