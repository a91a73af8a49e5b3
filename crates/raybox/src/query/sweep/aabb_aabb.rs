//! Moving box against box (axis-aligned), 2D and 3D: the slab test of the displacement
//! against the Minkowski difference of the boxes (the static box grown by the moving one;
//! Ericson, *Real-Time Collision Detection*, 5.5.8), with `ray/ray_aabb.rs`'s kernel.
//!
//! The point is the centre of the face the boxes share at the time of impact.

use glam::{Vec2, Vec3};

use super::{SweepHit2, SweepHit3};
use crate::query::ray::slab_span;
use crate::{Aabb2, Aabb3, Contact, Overlaps, Sweep};

macro_rules! aabb_sweep {
    ($Aabb:ident, $V:ident, $Hit:ident) => {
        impl Sweep<$Aabb> for $Aabb {
            type Motion = $V;
            type Hit = $Hit;

            #[inline]
            fn sweep(&self, motion: $V, other: &$Aabb) -> Option<$Hit> {
                if !motion.is_finite() {
                    return None; // a non-finite motion touches nothing
                }
                if self.overlaps(other) {
                    let k = self.contact(other)?;
                    return Some($Hit { t: 0.0, point: k.points[0], normal: -k.normal });
                }
                // The boxes overlap at time t iff, on every axis, the displacement t v lies
                // in [other.min - self.max, other.max - self.min]: the slab test from the
                // origin. Each bound is one rounded difference of inputs, so on a grazing
                // motion (tiny v[i]) the gap keeps its relative precision and t = gap / v[i]
                // does too; the centre and the grown bounds, rounded to f32 on their own,
                // would put an ulp of the coordinates (not of the gap) over v[i].
                let (lo, hi) = (other.min() - self.max(), other.max() - self.min());
                let s = slab_span(
                    $V::ZERO.to_array(),
                    motion.to_array(),
                    lo.to_array(),
                    hi.to_array(),
                    (0.0, 1.0),
                )?;
                let axis = s.enter_axis?; // None would mean overlapping at t = 0
                let mut normal = $V::ZERO;
                normal[axis] = -motion[axis].signum();
                // The shared face at time t: the overlap of the two boxes, flattened.
                let (a_min, a_max) = (self.min() + motion * s.t_enter, self.max() + motion * s.t_enter);
                let (f_lo, f_hi) = (a_min.max(other.min()), a_max.min(other.max()));
                let mut point = (f_lo + f_hi) * 0.5;
                point[axis] = if normal[axis] > 0.0 { other.max()[axis] } else { other.min()[axis] };
                Some($Hit { t: s.t_enter, point, normal })
            }
        }
    };
}

aabb_sweep!(Aabb2, Vec2, SweepHit2);
aabb_sweep!(Aabb3, Vec3, SweepHit3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_slides_into_a_wall_and_past_a_corner() {
        let wall = Aabb2::new(Vec2::new(4.0, -5.0), Vec2::new(5.0, 5.0));
        let b = Aabb2::new(Vec2::ZERO, Vec2::ONE);
        let hit = b.sweep(Vec2::new(6.0, 1.0), &wall).unwrap();
        assert_eq!((hit.t, hit.normal), (0.5, Vec2::NEG_X));
        assert_eq!(hit.point, Vec2::new(4.0, 1.0));
        // Corner to corner: touching only at t = 1, and a hair short.
        let c = Aabb3::new(Vec3::splat(2.0), Vec3::splat(3.0));
        let a = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        assert_eq!(a.sweep(Vec3::ONE, &c).map(|h| h.t), Some(1.0));
        assert!(a.sweep(Vec3::splat(0.999), &c).is_none());
    }
}
