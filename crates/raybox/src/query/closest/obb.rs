//! Points against oriented boxes: clamp in the box frame (Ericson, *Real-Time Collision
//! Detection*, 5.1.4).
//!
//! The point goes to the box frame in `f32` ([`Obb3::point_to_local`]); when that
//! overflows (coordinates near `f32::MAX`: a difference of two of them exceeds it, and the
//! rotation then makes `0 · inf` or `inf - inf`, NaN), every step is done in `f64`
//! instead, where no `f32` input can overflow, and rounded once at the end: the answer is
//! right, or `±inf` where it lies beyond `f32`'s range (a distance above `f32::MAX`),
//! never NaN.

use glam::{Vec2, Vec3};

use super::{aabb_distance_squared, aabb_distance_squared_f64};
use crate::{ClosestPoint, ContainsPoint, Obb2, Obb3};

macro_rules! obb_point_impls {
    ($Obb:ident, $V:ident, $as_v:ident, $to_v:ident) => {
        impl ContainsPoint for $Obb {
            type Point = $V;

            #[inline]
            fn contains_point(&self, point: $V) -> bool {
                // A local coordinate that overflowed to ±inf is beyond every half extent.
                self.point_to_local(point).abs().cmple(self.half_extents()).all()
            }
        }

        impl ClosestPoint for $Obb {
            type Point = $V;

            #[inline]
            fn closest_point(&self, point: $V) -> $V {
                let h = self.half_extents();
                let local = self.point_to_local(point);
                if local.abs().cmple(h).all() {
                    return point; // inside: its own closest point
                }
                let world = self.point_to_world(local.clamp(-h, h));
                if local.is_finite() && world.is_finite() {
                    return world;
                }
                // Overflow on the way in or out (a box reaching past `f32::MAX` can have a
                // finite closest point whose f32 sum of centre and offset overflows).
                let h = h.$as_v();
                self.point_to_world_f64(self.point_to_local_f64(point).clamp(-h, h)).$to_v()
            }

            #[inline]
            fn distance_to_point(&self, point: $V) -> f32 {
                let h = self.half_extents();
                let local = self.point_to_local(point);
                let d2 = if local.is_finite() {
                    aabb_distance_squared(local.to_array(), (-h).to_array(), h.to_array())
                } else {
                    let local = self.point_to_local_f64(point).to_array();
                    let h = h.$as_v();
                    aabb_distance_squared_f64(local, (-h).to_array(), h.to_array())
                };
                d2.sqrt() as f32
            }
        }
    };
}

obb_point_impls!(Obb2, Vec2, as_dvec2, as_vec2);
obb_point_impls!(Obb3, Vec3, as_dvec3, as_vec3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn closest_point_of_a_turned_box() {
        let b = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::from_xyzw(0.0, 0.0, 1.0, 1.0));
        let p = Vec3::new(3.0, 0.5, 0.0);
        assert!((b.closest_point(p) - Vec3::new(1.0, 0.5, 0.0)).length() < 1e-6);
        assert!((b.distance_to_point(p) - 2.0).abs() < 1e-6);
        assert!(b.contains_point(Vec3::new(1.0, 1.0, -1.0)));
    }
}
