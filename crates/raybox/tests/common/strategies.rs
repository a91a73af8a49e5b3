//! proptest strategies for the shapes (aimed so that about half the pairs overlap), and
//! a way to move any shape.

use glam::{Quat, Vec2, Vec3};
use proptest::prelude::*;
use raybox::{Aabb2, Aabb3, Capsule2, Capsule3, Circle, Obb2, Obb3, Segment2, Segment3, Sphere, Triangle3};

pub fn coord() -> impl Strategy<Value = f32> {
    -2.0f32..2.0
}
pub fn point2() -> impl Strategy<Value = Vec2> {
    (coord(), coord()).prop_map(|(x, y)| Vec2::new(x, y))
}
pub fn point3() -> impl Strategy<Value = Vec3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}
pub fn half2() -> impl Strategy<Value = Vec2> {
    (0.05f32..2.0, 0.05f32..2.0).prop_map(|(x, y)| Vec2::new(x, y))
}
pub fn half3() -> impl Strategy<Value = Vec3> {
    (0.05f32..2.0, 0.05f32..2.0, 0.05f32..2.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}
pub fn circle() -> impl Strategy<Value = Circle> {
    (point2(), 0.0f32..2.0).prop_map(|(c, r)| Circle::new(c, r))
}
pub fn sphere() -> impl Strategy<Value = Sphere> {
    (point3(), 0.0f32..2.0).prop_map(|(c, r)| Sphere::new(c, r))
}
pub fn aabb2s() -> impl Strategy<Value = Aabb2> {
    (point2(), half2()).prop_map(|(c, h)| Aabb2::from_center_half_extents(c, h))
}
pub fn aabb3s() -> impl Strategy<Value = Aabb3> {
    (point3(), half3()).prop_map(|(c, h)| Aabb3::from_center_half_extents(c, h))
}
pub fn obb2s() -> impl Strategy<Value = Obb2> {
    (point2(), half2(), -3.2f32..3.2).prop_map(|(c, h, a)| Obb2::new(c, h, a))
}
pub fn quat() -> impl Strategy<Value = Quat> {
    (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, 0.1f32..1.0)
        .prop_map(|(x, y, z, w)| Quat::from_xyzw(x, y, z, w))
}
pub fn obb3s() -> impl Strategy<Value = Obb3> {
    (point3(), half3(), quat()).prop_map(|(c, h, q)| Obb3::new(c, h, q))
}

/// Moves a shape by `v`.
pub trait Translate<V> {
    fn moved(&self, v: V) -> Self;
}
impl Translate<Vec2> for Circle {
    fn moved(&self, v: Vec2) -> Self {
        Circle::new(self.center() + v, self.radius())
    }
}
impl Translate<Vec3> for Sphere {
    fn moved(&self, v: Vec3) -> Self {
        Sphere::new(self.center() + v, self.radius())
    }
}
impl Translate<Vec2> for Aabb2 {
    fn moved(&self, v: Vec2) -> Self {
        self.translated(v)
    }
}
impl Translate<Vec3> for Aabb3 {
    fn moved(&self, v: Vec3) -> Self {
        self.translated(v)
    }
}
impl Translate<Vec2> for Obb2 {
    fn moved(&self, v: Vec2) -> Self {
        Obb2::try_from_matrix(self.center() + v, self.half_extents(), self.rotation()).unwrap()
    }
}
impl Translate<Vec3> for Obb3 {
    fn moved(&self, v: Vec3) -> Self {
        Obb3::try_from_matrix(self.center() + v, self.half_extents(), self.rotation()).unwrap()
    }
}

pub fn segment2s() -> impl Strategy<Value = Segment2> {
    (point2(), point2()).prop_map(|(a, b)| Segment2::new(a, b))
}
pub fn segment3s() -> impl Strategy<Value = Segment3> {
    (point3(), point3()).prop_map(|(a, b)| Segment3::new(a, b))
}
pub fn capsule2s() -> impl Strategy<Value = Capsule2> {
    (point2(), point2(), 0.0f32..1.5).prop_map(|(a, b, r)| Capsule2::new(a, b, r))
}
pub fn capsule3s() -> impl Strategy<Value = Capsule3> {
    (point3(), point3(), 0.0f32..1.5).prop_map(|(a, b, r)| Capsule3::new(a, b, r))
}
impl Translate<Vec2> for Capsule2 {
    fn moved(&self, v: Vec2) -> Self {
        Capsule2::new(self.start() + v, self.end() + v, self.radius())
    }
}
impl Translate<Vec3> for Capsule3 {
    fn moved(&self, v: Vec3) -> Self {
        Capsule3::new(self.start() + v, self.end() + v, self.radius())
    }
}
impl Translate<Vec2> for Segment2 {
    fn moved(&self, v: Vec2) -> Self {
        Segment2::new(self.start() + v, self.end() + v)
    }
}
impl Translate<Vec3> for Segment3 {
    fn moved(&self, v: Vec3) -> Self {
        Segment3::new(self.start() + v, self.end() + v)
    }
}
impl Translate<Vec3> for Triangle3 {
    fn moved(&self, v: Vec3) -> Self {
        let [a, b, c] = self.vertices();
        Triangle3::new(a + v, b + v, c + v)
    }
}
