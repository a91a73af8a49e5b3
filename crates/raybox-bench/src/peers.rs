//! The benchmark inputs as parry2d/parry3d shapes, poses and rays.
//!
//! parry 0.31 does its math on `glamx` (glam 0.33); raybox uses glam 0.34, so every
//! value crosses as an array. How the two conventions map:
//!
//! | raybox | parry |
//! | --- | --- |
//! | `Aabb2`/`Aabb3` | `Cuboid` at a pose with the box's centre and no rotation (and `Aabb` for `Aabb`–`Aabb`) |
//! | `Obb2`/`Obb3` | `Cuboid` at a pose with the box's centre and rotation |
//! | `Circle`/`Sphere` | `Ball` at the centre |
//! | `Plane` (two-sided) | `HalfSpace` (solid behind the plane): the inputs keep rays and shapes in front of or across the plane, where the two agree |
//! | `Triangle3` | `Triangle` at the identity pose |
//! | `Segment2`/`Segment3` | `Segment` at the identity pose |
//! | `Ray*` with `t` in `[0, t_max]` | `Ray` and `max_time_of_impact = t_max` (parry's `t` starts at 0) |
//! | `ray_span` | `cast_ray(…, solid = true)`: the entry `t` only |
//! | `cast_ray` | `cast_ray_and_get_normal(…, solid = true)` |
//! | `overlaps` | `intersection_test(…).intersecting` (the dispatching entry point users call) |
//! | `a.sweep(motion, &b)`, `t` in `[0, 1]` | `cast_shapes(a, motion, b, 0)` with `max_time_of_impact = 1` and impact geometry computed, as raybox's point and normal are |

use parry2d::math::{Pose2, Rot2, Vector as PV2};
use parry3d::math::{Pose3, Vector as PV3};
use raybox::{Aabb2, Aabb3, Circle, Obb2, Obb3, Plane, Ray2, Ray3, Segment2, Segment3, Sphere, Triangle3};

/// A parry 2D shape and where it is.
#[derive(Clone, Copy, Debug)]
pub struct Placed2<S> {
    /// The shape in its own frame.
    pub shape: S,
    /// Its pose in the world.
    pub pose: Pose2,
}

/// A parry 3D shape and where it is.
#[derive(Clone, Copy, Debug)]
pub struct Placed3<S> {
    /// The shape in its own frame.
    pub shape: S,
    /// Its pose in the world.
    pub pose: Pose3,
}

/// A parry ray and the end of its range (parry's ranges start at `t = 0`).
#[derive(Clone, Copy, Debug)]
pub struct PeerRay<R> {
    /// Origin and direction (not normalised, as in raybox).
    pub ray: R,
    /// raybox's `t_max`.
    pub max_toi: f32,
}

fn v2(v: glam::Vec2) -> PV2 {
    PV2::from_array(v.to_array())
}

fn v3(v: glam::Vec3) -> PV3 {
    PV3::from_array(v.to_array())
}

/// raybox values that have a parry counterpart.
pub trait ToParry {
    /// The parry value.
    type Peer;
    /// The same geometry in parry's types.
    fn to_parry(&self) -> Self::Peer;
}

impl ToParry for Aabb2 {
    type Peer = Placed2<parry2d::shape::Cuboid>;
    fn to_parry(&self) -> Self::Peer {
        let shape = parry2d::shape::Cuboid::new(v2(self.half_extents()));
        Placed2 { shape, pose: Pose2::from_translation(v2(self.center())) }
    }
}

impl ToParry for Obb2 {
    type Peer = Placed2<parry2d::shape::Cuboid>;
    fn to_parry(&self) -> Self::Peer {
        // The first column of the rotation matrix is (cos, sin): parry's unit complex.
        let c = self.rotation().x_axis;
        let rotation = Rot2 { re: c.x, im: c.y };
        let shape = parry2d::shape::Cuboid::new(v2(self.half_extents()));
        Placed2 { shape, pose: Pose2::from_parts(v2(self.center()), rotation) }
    }
}

impl ToParry for Circle {
    type Peer = Placed2<parry2d::shape::Ball>;
    fn to_parry(&self) -> Self::Peer {
        Placed2 {
            shape: parry2d::shape::Ball::new(self.radius()),
            pose: Pose2::from_translation(v2(self.center())),
        }
    }
}

impl ToParry for Aabb3 {
    type Peer = Placed3<parry3d::shape::Cuboid>;
    fn to_parry(&self) -> Self::Peer {
        let shape = parry3d::shape::Cuboid::new(v3(self.half_extents()));
        Placed3 { shape, pose: Pose3::from_translation(v3(self.center())) }
    }
}

impl ToParry for Obb3 {
    type Peer = Placed3<parry3d::shape::Cuboid>;
    fn to_parry(&self) -> Self::Peer {
        let q = glam::Quat::from_mat3(&self.rotation()).normalize();
        let rotation = parry3d::math::Rot3::from_array(q.to_array());
        let shape = parry3d::shape::Cuboid::new(v3(self.half_extents()));
        Placed3 { shape, pose: Pose3::from_parts(v3(self.center()), rotation) }
    }
}

impl ToParry for Sphere {
    type Peer = Placed3<parry3d::shape::Ball>;
    fn to_parry(&self) -> Self::Peer {
        Placed3 {
            shape: parry3d::shape::Ball::new(self.radius()),
            pose: Pose3::from_translation(v3(self.center())),
        }
    }
}

impl ToParry for Plane {
    type Peer = Placed3<parry3d::shape::HalfSpace>;
    fn to_parry(&self) -> Self::Peer {
        // n·x = offset with a unit n: the point n * offset is on the plane.
        let unit = self.normalized();
        let shape = parry3d::shape::HalfSpace::new(v3(unit.normal()));
        Placed3 { shape, pose: Pose3::from_translation(v3(unit.normal() * unit.offset())) }
    }
}

impl ToParry for Triangle3 {
    type Peer = Placed3<parry3d::shape::Triangle>;
    fn to_parry(&self) -> Self::Peer {
        let [a, b, c] = self.vertices().map(v3);
        Placed3 { shape: parry3d::shape::Triangle::new(a, b, c), pose: Pose3::IDENTITY }
    }
}

impl ToParry for Segment2 {
    type Peer = Placed2<parry2d::shape::Segment>;
    fn to_parry(&self) -> Self::Peer {
        Placed2 {
            shape: parry2d::shape::Segment::new(v2(self.start()), v2(self.end())),
            pose: Pose2::IDENTITY,
        }
    }
}

impl ToParry for Segment3 {
    type Peer = Placed3<parry3d::shape::Segment>;
    fn to_parry(&self) -> Self::Peer {
        Placed3 {
            shape: parry3d::shape::Segment::new(v3(self.start()), v3(self.end())),
            pose: Pose3::IDENTITY,
        }
    }
}

impl ToParry for Ray2 {
    type Peer = PeerRay<parry2d::query::Ray>;
    fn to_parry(&self) -> Self::Peer {
        assert_eq!(self.t_min(), 0.0, "parry's rays start at t = 0");
        PeerRay { ray: parry2d::query::Ray::new(v2(self.origin()), v2(self.dir())), max_toi: self.t_max() }
    }
}

impl ToParry for Ray3 {
    type Peer = PeerRay<parry3d::query::Ray>;
    fn to_parry(&self) -> Self::Peer {
        assert_eq!(self.t_min(), 0.0, "parry's rays start at t = 0");
        PeerRay { ray: parry3d::query::Ray::new(v3(self.origin()), v3(self.dir())), max_toi: self.t_max() }
    }
}

/// A motion (of a sweep).
impl ToParry for glam::Vec3 {
    type Peer = PV3;
    fn to_parry(&self) -> Self::Peer {
        v3(*self)
    }
}

impl<A: ToParry, B: ToParry> ToParry for (A, B) {
    type Peer = (A::Peer, B::Peer);
    fn to_parry(&self) -> Self::Peer {
        (self.0.to_parry(), self.1.to_parry())
    }
}

impl<A: ToParry, B: ToParry, C: ToParry> ToParry for (A, B, C) {
    type Peer = (A::Peer, B::Peer, C::Peer);
    fn to_parry(&self) -> Self::Peer {
        (self.0.to_parry(), self.1.to_parry(), self.2.to_parry())
    }
}

/// raybox's `Aabb2` as parry's bounding-volume `Aabb` (for `Aabb::intersects`).
#[must_use]
pub fn bounding_aabb2(b: &Aabb2) -> parry2d::bounding_volume::Aabb {
    parry2d::bounding_volume::Aabb::new(v2(b.min()), v2(b.max()))
}

/// raybox's `Aabb3` as parry's bounding-volume `Aabb`.
#[must_use]
pub fn bounding_aabb3(b: &Aabb3) -> parry3d::bounding_volume::Aabb {
    parry3d::bounding_volume::Aabb::new(v3(b.min()), v3(b.max()))
}

/// parry's solid ray cast in 2D: the entry `t`.
#[inline]
pub fn toi2<S: parry2d::query::RayCast>(s: &Placed2<S>, r: &PeerRay<parry2d::query::Ray>) -> Option<f32> {
    s.shape.cast_ray(&s.pose, &r.ray, r.max_toi, true)
}

/// parry's solid ray cast in 2D with the normal.
#[inline]
pub fn hit2<S: parry2d::query::RayCast>(
    s: &Placed2<S>,
    r: &PeerRay<parry2d::query::Ray>,
) -> Option<parry2d::query::RayIntersection> {
    s.shape.cast_ray_and_get_normal(&s.pose, &r.ray, r.max_toi, true)
}

/// parry's solid ray cast in 3D: the entry `t`.
#[inline]
pub fn toi3<S: parry3d::query::RayCast>(s: &Placed3<S>, r: &PeerRay<parry3d::query::Ray>) -> Option<f32> {
    s.shape.cast_ray(&s.pose, &r.ray, r.max_toi, true)
}

/// parry's solid ray cast in 3D with the normal.
#[inline]
pub fn hit3<S: parry3d::query::RayCast>(
    s: &Placed3<S>,
    r: &PeerRay<parry3d::query::Ray>,
) -> Option<parry3d::query::RayIntersection> {
    s.shape.cast_ray_and_get_normal(&s.pose, &r.ray, r.max_toi, true)
}

/// parry's `intersection_test` in 2D.
///
/// # Panics
/// If parry does not support the pair (the benches check every pair before timing).
#[inline]
pub fn overlap2<A: parry2d::shape::Shape, B: parry2d::shape::Shape>(a: &Placed2<A>, b: &Placed2<B>) -> bool {
    parry2d::query::intersection_test(&a.pose, &a.shape, &b.pose, &b.shape)
        .expect("supported pair")
        .intersecting
}

/// parry's `intersection_test` in 3D.
///
/// # Panics
/// If parry does not support the pair.
#[inline]
pub fn overlap3<A: parry3d::shape::Shape, B: parry3d::shape::Shape>(a: &Placed3<A>, b: &Placed3<B>) -> bool {
    parry3d::query::intersection_test(&a.pose, &a.shape, &b.pose, &b.shape)
        .expect("supported pair")
        .intersecting
}

/// parry's `cast_shapes` in 3D: `a` moving by `motion` (over `t` in `[0, 1]`) against a
/// static `b`, stopping at a penetration at the start, with the impact geometry.
///
/// # Panics
/// If parry does not support the pair.
#[inline]
pub fn cast3<A: parry3d::shape::Shape, B: parry3d::shape::Shape>(
    a: &Placed3<A>,
    motion: &PV3,
    b: &Placed3<B>,
) -> Option<parry3d::query::ShapeCastHit> {
    let options = parry3d::query::ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    parry3d::query::cast_shapes(&a.pose, *motion, &a.shape, &b.pose, PV3::ZERO, &b.shape, options)
        .expect("supported pair")
}
