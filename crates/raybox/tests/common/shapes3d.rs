//! One 3D shape of any kind a mesh query takes, for tests that draw shapes of every kind.

use raybox::{Aabb3, Capsule3, Obb3, Plane, Segment3, Sphere, Triangle3};

#[derive(Clone, Copy, Debug)]
pub enum Shape {
    Sphere(Sphere),
    Aabb(Aabb3),
    Obb(Obb3),
    Capsule(Capsule3),
    Segment(Segment3),
    Triangle(Triangle3),
    Plane(Plane),
}

/// `$body` with `$x` bound to the shape inside a [`Shape`], whatever its kind.
#[allow(unused_macros)]
macro_rules! with_shape {
    ($s:expr, |$x:ident| $body:expr) => {
        match $s {
            Shape::Sphere($x) => $body,
            Shape::Aabb($x) => $body,
            Shape::Obb($x) => $body,
            Shape::Capsule($x) => $body,
            Shape::Segment($x) => $body,
            Shape::Triangle($x) => $body,
            Shape::Plane($x) => $body,
        }
    };
}
#[allow(unused_imports)]
pub(crate) use with_shape;
