//! Points against shapes: containment and closest points, one file per shape.
//!
//! Distances are computed in `f64` (where differences and products of `f32` inputs are
//! exact or nearly so) and rounded once at the end.

mod aabb;
mod obb;
mod plane;
mod segment;
mod sphere;
mod triangle;

pub(crate) use aabb::{aabb_distance_squared, aabb_distance_squared_f64};
pub(crate) use segment::{
    closest_pair_segment_segment, closest_point_and_squared_distance, closest_point_on_segment,
    closest_points_segment_segment, closest_points_segment_segment_by_cross,
};
pub(crate) use triangle::{
    closest_point_on_triangle, closest_points_triangle_segment, closest_points_triangle_triangle, edge_side,
};
