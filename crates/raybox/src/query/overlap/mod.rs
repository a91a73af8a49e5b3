//! Overlap tests: one file per shape pair, named in the pair order of `query/mod.rs`.
//!
//! Every test is **closed**: shapes that only touch overlap. Where a test compares
//! distances, it does so in `f64` on squared values, so that a touching pair given by
//! `f32` inputs is decided exactly.

mod aabb_aabb;
mod aabb_obb;
mod aabb_triangle;
mod obb_obb;
mod obb_triangle;
mod plane;
mod sphere_aabb;
mod sphere_obb;
mod sphere_sphere;
mod sphere_triangle;

pub use plane::Side;

pub(crate) use aabb_triangle::box_triangle_separated;
