//! Points against oriented boxes: clamp in the box frame (Ericson, *Real-Time Collision
//! Detection*, 5.1.4).

use glam::{Vec2, Vec3};

use super::aabb_distance_squared;
use crate::{ClosestPoint, ContainsPoint, Obb2, Obb3};

macro_rules! obb_point_impls {
    ($Obb:ident, $V:ident) => {
        impl ContainsPoint for $Obb {
            type Point = $V;

            fn contains_point(&self, point: $V) -> bool {
                self.point_to_local(point).abs().cmple(self.half_extents()).all()
            }
        }

        impl ClosestPoint for $Obb {
            type Point = $V;

            fn closest_point(&self, point: $V) -> $V {
                let h = self.half_extents();
                let local = self.point_to_local(point);
                if local.abs().cmple(h).all() {
                    return point; // inside: its own closest point
                }
                self.point_to_world(local.clamp(-h, h))
            }

            fn distance_to_point(&self, point: $V) -> f32 {
                let h = self.half_extents();
                let local = self.point_to_local(point).to_array();
                aabb_distance_squared(local, (-h).to_array(), h.to_array()).sqrt() as f32
            }
        }
    };
}

obb_point_impls!(Obb2, Vec2);
obb_point_impls!(Obb3, Vec3);

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
