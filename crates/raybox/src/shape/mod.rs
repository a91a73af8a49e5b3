//! The shapes: validated once by their constructors, then trusted by every query.

mod aabb;
mod obb;
mod plane;
mod ray;
mod sphere;
mod triangle;

pub use aabb::{Aabb2, Aabb3};
pub use obb::{Obb2, Obb3};
pub use plane::Plane;
pub use ray::{Ray2, Ray3};
pub use sphere::{Circle, Sphere};
pub use triangle::Triangle3;
