//! Overlap tests: one file per shape pair, named in the pair order of `query/mod.rs`.
//!
//! Every test is **closed**: shapes that only touch overlap. Where a test compares
//! distances, it does so in `f64` on squared values, so that a touching pair given by
//! `f32` inputs is decided exactly.
//!
//! Triangle against triangle, triangle against segment, box against segment and segment
//! against segment go further: every decision is the sign of a determinant of the `f32`
//! coordinates, computed exactly (Shewchuk's predicates, `orient.rs`), so their answers are
//! the exact ones for any finite inputs; plane against plane compares exact products.
//! Capsule against triangle uses both: squared distances from the core segment's ends to
//! the triangle and from the segment to its edges, then the exact segment–triangle test for
//! a segment through the face (exact outright for a zero radius). A 2D capsule against
//! any 2D shape is exact too: its core meets the shape, or an end of the core or a vertex
//! of the shape is within the radius (the exact disc–segment test), `capsule_segment.rs`.

mod aabb_aabb;
mod aabb_capsule;
mod aabb_obb;
mod aabb_segment;
mod aabb_triangle;
mod capsule_capsule;
mod capsule_segment;
mod normals;
mod obb_capsule;
mod obb_obb;
mod obb_segment;
mod obb_triangle;
mod orient;
mod plane;
mod plane_capsule;
mod plane_plane;
mod segment_segment;
mod sphere_aabb;
mod sphere_capsule;
mod sphere_obb;
mod sphere_segment;
mod sphere_sphere;
mod sphere_triangle;
mod triangle_capsule;
mod triangle_segment;
mod triangle_triangle;

pub use plane::Side;

pub(crate) use aabb_obb::{aabb_centre_half2, aabb_centre_half3};
pub(crate) use aabb_triangle::box_triangle_separated;
pub(crate) use orient::{degenerate_triangle, det3_filtered, orient3d, triangle_normal};
pub(crate) use plane::PlaneBox;
pub(crate) use plane_capsule::end_distances;
pub(crate) use sphere_obb::{ball_in_obb2_frame, ball_in_obb3_frame};
