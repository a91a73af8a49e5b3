//! Points against axis-aligned boxes: clamp to the box (Ericson, *Real-Time Collision
//! Detection*, 5.1.3).

use crate::arrays::Each;
use glam::{Vec2, Vec3};

use crate::{Aabb2, Aabb3, ClosestPoint, ContainsPoint};

/// The squared distance from `point` to the box `[min, max]`, in `f64`:
/// `Σ (p_i - clamp(p_i, min_i, max_i))²`.
#[inline]
pub(crate) fn aabb_distance_squared<const N: usize>(point: [f32; N], min: [f32; N], max: [f32; N]) -> f64 {
    aabb_distance_squared_f64(point.each(f64::from), min.each(f64::from), max.each(f64::from))
}

/// [`aabb_distance_squared`] on `f64` inputs.
#[inline]
pub(crate) fn aabb_distance_squared_f64<const N: usize>(
    point: [f64; N],
    min: [f64; N],
    max: [f64; N],
) -> f64 {
    (0..N)
        .map(|i| {
            let p = point[i];
            let gap = p - p.clamp(min[i], max[i]);
            gap * gap
        })
        .sum()
}

macro_rules! aabb_point_impls {
    ($Aabb:ident, $V:ident) => {
        impl ContainsPoint for $Aabb {
            type Point = $V;

            #[inline]
            fn contains_point(&self, point: $V) -> bool {
                point.cmpge(self.min()).all() && point.cmple(self.max()).all()
            }
        }

        impl ClosestPoint for $Aabb {
            type Point = $V;

            #[inline]
            fn closest_point(&self, point: $V) -> $V {
                point.clamp(self.min(), self.max())
            }

            #[inline]
            fn distance_to_point(&self, point: $V) -> f32 {
                let d2 =
                    aabb_distance_squared(point.to_array(), self.min().to_array(), self.max().to_array());
                d2.sqrt() as f32
            }
        }
    };
}

aabb_point_impls!(Aabb2, Vec2);
aabb_point_impls!(Aabb3, Vec3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundary_is_inside_and_nan_is_not() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        assert!(b.contains_point(Vec3::new(1.0, 0.0, 0.5)));
        assert!(!b.contains_point(Vec3::new(f32::NAN, 0.5, 0.5)));
        assert!(!b.contains_point(Vec3::new(1.0 + f32::EPSILON, 0.5, 0.5)));
    }

    #[test]
    fn distance_to_a_corner() {
        let b = Aabb2::new(Vec2::ZERO, Vec2::ONE);
        assert_eq!(b.distance_to_point(Vec2::new(4.0, 5.0)), 5.0);
        assert_eq!(b.distance_to_point(Vec2::new(0.5, 0.5)), 0.0);
    }
}
