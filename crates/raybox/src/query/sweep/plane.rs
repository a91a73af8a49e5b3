//! Moving shapes against a plane (3D): the shape's extent along the unit normal,
//! `[lo, hi]` (its support distances, `n·x - offset` over the shape), moves by `t (v·n)`;
//! the first contact is when `lo` or `hi` reaches zero. Exact up to rounding, for every
//! convex shape (the plane is two-sided, so either side can be hit).

use glam::{DVec3, Vec3};

use super::{SweepHit3, Toi, contact_start, hit3};
use crate::query::distance::{Rounded, ToRounded, d3};
use crate::{Aabb3, Capsule3, Contact, Obb3, Plane, Segment3, Sphere, Sweep};

/// The first time `a` moving by `v` touches the plane `n·x = offset`.
fn plane_toi(plane: &Plane, a: &Rounded, v: DVec3) -> Option<Toi> {
    let len = plane.normal().as_dvec3().length();
    let n = plane.normal().as_dvec3() / len;
    let offset = f64::from(plane.offset()) / len;
    let (low_point, high_point) = (a.support(-n), a.support(n));
    let (lo, hi) = (n.dot(low_point) - offset, n.dot(high_point) - offset);
    let vn = v.dot(n);
    if lo <= 0.0 && hi >= 0.0 {
        // Straddling at t = 0: out by the shorter way, up (-lo) or down (hi).
        let (normal, deepest, depth) = if -lo <= hi { (n, low_point, -lo) } else { (-n, high_point, hi) };
        return Some(Toi { t: 0.0, point: deepest + normal * (depth / 2.0), normal });
    }
    let (t, normal, point) = if lo > 0.0 {
        (lo / -vn, n, low_point) // above: the lowest point comes down
    } else {
        (-hi / vn, -n, high_point) // below: the highest point comes up
    };
    (t.is_finite() && (0.0..=1.0).contains(&t)).then(|| Toi { t, point: point + v * t, normal })
}

macro_rules! plane_sweep {
    ($($T:ty),*) => {
        $(impl Sweep<Plane> for $T {
            type Motion = Vec3;
            type Hit = SweepHit3;

            fn sweep(&self, motion: Vec3, other: &Plane) -> Option<SweepHit3> {
                if !motion.is_finite() {
                    return None; // a non-finite motion touches nothing
                }
                plane_toi(other, &self.to_rounded(), d3(motion)).map(hit3)
            }
        })*
    };
}

plane_sweep!(Sphere, Aabb3, Obb3, Capsule3);

impl Sweep<Plane> for Segment3 {
    type Motion = Vec3;
    type Hit = SweepHit3;

    /// As the other shapes, with the start decided by the segment's `Contact` with the plane
    /// (`Some` exactly when the exact overlap test says so: the ends' exact sides), so that
    /// a segment touching the plane gives `t = 0` however the plane's normal rounds.
    fn sweep(&self, motion: Vec3, other: &Plane) -> Option<SweepHit3> {
        if let Some(done) = contact_start(motion, || self.contact(other)) {
            return done;
        }
        plane_toi(other, &self.to_rounded(), d3(motion)).map(hit3)
    }
}

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
}
