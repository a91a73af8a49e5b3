//! The shapes: validated once by their constructors, then trusted by every query.

mod aabb;
mod capsule;
mod obb;
mod plane;
mod ray;
mod segment;
mod sphere;
mod triangle;

pub use aabb::{Aabb2, Aabb3};
pub use capsule::{Capsule2, Capsule3};
pub use obb::{Obb2, Obb3};
pub use plane::Plane;
pub use ray::{Ray2, Ray3};
pub use segment::{Segment2, Segment3};
pub use sphere::{Circle, Sphere};
pub use triangle::Triangle3;
