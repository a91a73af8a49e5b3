//! Moving shapes against a plane (3D): the shape's extent along the unit normal,
//! `[lo, hi]` (its support distances, `n·x - offset` over the shape), moves by `t (v·n)`;
//! the first contact is when `lo` or `hi` reaches zero. Exact up to rounding, for every
//! convex shape (the plane is two-sided, so either side can be hit). A plane moving against
//! a shape is that shape moving the other way. Two planes have no sweep: planes that are not
//! parallel meet from the start and no motion parts them, so there is no contact to report.

use glam::{DVec3, Vec3};

use super::{SweepHit3, Toi, contact_start, hit3, reversed_sweep};
use crate::query::distance::{Rounded, ToRounded, d3};
use crate::{Aabb3, Capsule3, Contact, Obb3, Plane, Segment3, Sphere, Sweep, Triangle3};

/// The first time `a` moving by `v` touches the plane `n·x = offset`, for a shape that the
/// exact test found apart from it at `t = 0`.
///
/// The gap to the plane and the closing speed are in `f64` from the unit normal, each off
/// by a few ulps of its terms: a contact within that rounding of the end of the motion (a
/// vertex landing exactly on the plane at the end, which the division can put a hair past
/// it) counts, at `t = 1`; one within it of the start (the `f64` extent straddling the
/// plane that the exact test found apart) comes at the least positive `f32` time, as
/// `t = 0` is left to the exact test.
#[inline]
fn plane_toi(plane: &Plane, a: &Rounded, v: DVec3) -> Option<Toi> {
    let len = plane.normal().as_dvec3().length();
    let n = plane.normal().as_dvec3() / len;
    let offset = f64::from(plane.offset()) / len;
    let (low_point, high_point) = (a.support(-n), a.support(n));
    let (lo, hi) = (n.dot(low_point) - offset, n.dot(high_point) - offset);
    let vn = v.dot(n);
    let tiny = f64::from(f32::from_bits(1));
    if lo <= 0.0 && hi >= 0.0 {
        // Straddling by rounding: out by the shorter way, up (-lo) or down (hi).
        let (normal, deepest, depth) = if -lo <= hi { (n, low_point, -lo) } else { (-n, high_point, hi) };
        return Some(Toi { t: tiny, point: deepest + normal * (depth / 2.0) + v * tiny, normal });
    }
    // Above: the lowest point comes down; below: the highest point comes up.
    let (gap, closing, normal, point) =
        if lo > 0.0 { (lo, -vn, n, low_point) } else { (-hi, vn, -n, high_point) };
    let noise = 16.0 * f64::EPSILON * (n.abs().dot(low_point.abs().max(high_point.abs())) + offset.abs());
    if closing <= 0.0 || gap - noise > closing || !closing.is_finite() {
        return None; // moving away or along, or not reaching the plane by `t = 1`
    }
    let t = (gap / closing).clamp(tiny, 1.0);
    Some(Toi { t, point: point + v * t, normal })
}

/// Every shape's start against a plane is decided by its `Contact` with it (`Some` exactly
/// when the exact overlap test says so), so that a shape touching the plane gives `t = 0`
/// however the plane's normal rounds (a box corner exactly on it, moving away, is a contact
/// at the start, not a miss).
macro_rules! decided_plane_sweep {
    ($($T:ty),*) => {
        $(impl Sweep<Plane> for $T {
            type Motion = Vec3;
            type Hit = SweepHit3;

            #[inline]
            fn sweep(&self, motion: Vec3, other: &Plane) -> Option<SweepHit3> {
                if let Some(done) = contact_start(motion, || self.contact(other)) {
                    return done;
                }
                plane_toi(other, &self.to_rounded(), d3(motion)).map(hit3)
            }
        })*
    };
}

decided_plane_sweep!(Sphere, Aabb3, Obb3, Capsule3, Segment3, Triangle3);

// A plane moving against a shape: the shape moving the other way against the plane.
reversed_sweep!(3D: Plane => Sphere, Plane => Aabb3, Plane => Obb3, Plane => Capsule3, Plane => Segment3, Plane => Triangle3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn falling_onto_and_rising_to_a_plane() {
        let floor = Plane::new(Vec3::new(0.0, 2.0, 0.0), 0.0); // y = 0
        let hit =
            Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.0).sweep(Vec3::new(1.0, -4.0, 0.0), &floor).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::Y, Vec3::new(0.5, 0.0, 0.0)));
        let b = Aabb3::new(Vec3::new(0.0, -3.0, 0.0), Vec3::new(1.0, -2.0, 1.0));
        let up = b.sweep(Vec3::new(0.0, 4.0, 0.0), &floor).unwrap();
        assert_eq!((up.t, up.normal), (0.5, Vec3::NEG_Y));
        assert!(b.sweep(Vec3::new(5.0, 0.0, 0.0), &floor).is_none()); // parallel
        let straddling = Capsule3::new(Vec3::new(0.0, -0.25, 0.0), Vec3::new(0.0, 3.0, 0.0), 0.5);
        let h = straddling.sweep(Vec3::ZERO, &floor).unwrap();
        assert_eq!((h.t, h.normal), (0.0, Vec3::Y));
        // A segment: its lower end lands; one lying on the plane touches at once.
        let post = Segment3::new(Vec3::new(0.0, 1.0, 0.0), Vec3::new(1.0, 3.0, 0.0));
        let hit = post.sweep(Vec3::new(0.0, -2.0, 0.0), &floor).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::Y, Vec3::ZERO));
        let tilted = Plane::new(Vec3::new(1.0, 2.0, 2.0), 0.0); // |n| = 3
        let lying = Segment3::new(Vec3::new(2.0, -1.0, 0.0), Vec3::new(0.0, 1.0, -1.0));
        assert_eq!(lying.sweep(Vec3::ZERO, &tilted).map(|h| h.t), Some(0.0));
        assert!(lying.sweep(Vec3::ZERO, &Plane::new(Vec3::new(1.0, 2.0, 2.0), 2f32.powi(-20))).is_none());
    }

    #[test]
    fn a_triangle_lands_and_a_plane_rises() {
        let floor = Plane::new(Vec3::Z, 0.0);
        let fin =
            Triangle3::new(Vec3::new(0.0, 0.0, 2.0), Vec3::new(1.0, 0.0, 3.0), Vec3::new(-1.0, 0.0, 3.0));
        let hit = fin.sweep(Vec3::new(0.0, 0.0, -4.0), &floor).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::Z, Vec3::ZERO));
        // Lying in the plane: t = 0 (decided exactly, as the overlap test).
        let lying =
            Triangle3::new(Vec3::new(0.1, 0.0, 0.0), Vec3::new(1.0, 0.3, 0.0), Vec3::new(0.0, 0.7, 0.0));
        assert_eq!(lying.sweep(Vec3::X, &floor).map(|h| h.t), Some(0.0));
        // The plane rising into the triangle and into a ball: the same times, the normals
        // reversed, the points where the still shapes are touched.
        let up = floor.sweep(Vec3::new(0.0, 0.0, 4.0), &fin).unwrap();
        assert_eq!((up.t, up.normal, up.point), (0.5, Vec3::NEG_Z, Vec3::new(0.0, 0.0, 2.0)));
        let ball = Sphere::new(Vec3::new(3.0, 0.0, 3.0), 1.0);
        let up = floor.sweep(Vec3::new(0.0, 0.0, 4.0), &ball).unwrap();
        assert_eq!((up.t, up.normal, up.point), (0.5, Vec3::NEG_Z, Vec3::new(3.0, 0.0, 2.0)));
        assert!(floor.sweep(Vec3::new(0.0, 0.0, -4.0), &ball).is_none());
    }
}
