//! Moving ball against ball, 2D and 3D: the centre's ray against the static ball grown by
//! the moving radius (Ericson, *Real-Time Collision Detection*, 5.5.5), with the stable
//! `f64` roots of `ball_entry` (`mod.rs`).

use crate::arrays::Each;
use glam::{DVec3, Vec2, Vec3};

use super::{SweepHit2, SweepHit3, Toi, ball_entry, hit2, hit3};
use crate::query::distance::{d2, d3};
use crate::{Circle, Contact, Overlaps, Sphere, Sweep};

/// The first time the ball `(c, r)` moving by `v` touches `(c2, r2)`, when apart at `t = 0`.
///
/// In `f64`, where `c - c2` and `r + r2` are exact: the time of impact of a grazing motion
/// (small `v·n` at the contact) moves by `δ / (v·n)` for an error `δ` in either, so the
/// summed radius rounded to `f32` (`δ` up to an ulp of it) would cost far more than `t`'s ulp.
#[inline]
fn ball_ball_toi<const N: usize>(c: [f32; N], r: f32, v: [f32; N], c2: [f32; N], r2: f32) -> Option<f64> {
    let f = crate::arrays::from_fn(|i| f64::from(c[i]) - f64::from(c2[i]));
    let (t1, _) = ball_entry(f, v.each(f64::from), f64::from(r) + f64::from(r2))?; // None for a zero v
    (0.0..=1.0).contains(&t1).then_some(t1)
}

/// The hit at time `t`: the normal from the static centre to the moving one.
#[inline]
fn ball_ball_hit(c: DVec3, r2: f64, v: DVec3, c2: DVec3, t: f64) -> Toi {
    let n = (c + v * t - c2).normalize_or(-v.normalize());
    Toi { t, point: c2 + n * r2, normal: n }
}

impl Sweep<Circle> for Circle {
    type Motion = Vec2;
    type Hit = SweepHit2;

    #[inline]
    fn sweep(&self, motion: Vec2, other: &Circle) -> Option<SweepHit2> {
        if !motion.is_finite() {
            return None; // a non-finite motion touches nothing
        }
        if self.overlaps(other) {
            let k = self.contact(other)?;
            return Some(SweepHit2 { t: 0.0, point: k.points[0], normal: -k.normal });
        }
        let (c, c2) = (self.center(), other.center());
        let t = ball_ball_toi(c.to_array(), self.radius(), motion.to_array(), c2.to_array(), other.radius())?;
        Some(hit2(ball_ball_hit(d2(c), f64::from(other.radius()), d2(motion), d2(c2), t)))
    }
}

impl Sweep<Sphere> for Sphere {
    type Motion = Vec3;
    type Hit = SweepHit3;

    #[inline]
    fn sweep(&self, motion: Vec3, other: &Sphere) -> Option<SweepHit3> {
        if !motion.is_finite() {
            return None; // a non-finite motion touches nothing
        }
        if self.overlaps(other) {
            let k = self.contact(other)?;
            return Some(SweepHit3 { t: 0.0, point: k.points[0], normal: -k.normal });
        }
        let (c, c2) = (self.center(), other.center());
        let t = ball_ball_toi(c.to_array(), self.radius(), motion.to_array(), c2.to_array(), other.radius())?;
        Some(hit3(ball_ball_hit(d3(c), f64::from(other.radius()), d3(motion), d3(c2), t)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_on_glancing_missing_and_overlapping() {
        let a = Sphere::new(Vec3::ZERO, 1.0);
        let b = Sphere::new(Vec3::new(10.0, 0.0, 0.0), 2.0);
        let hit = a.sweep(Vec3::new(14.0, 0.0, 0.0), &b).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::NEG_X, Vec3::new(8.0, 0.0, 0.0)));
        // Offset by 3 sideways (= r1 + r2): a tangent graze at x = 10.
        let graze = Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.0).sweep(Vec3::new(20.0, 0.0, 0.0), &b).unwrap();
        assert_eq!((graze.t, graze.normal), (0.5, Vec3::Y));
        assert!(Sphere::new(Vec3::new(0.0, 3.001, 0.0), 1.0).sweep(Vec3::new(20.0, 0.0, 0.0), &b).is_none());
        assert!(a.sweep(Vec3::new(6.9, 0.0, 0.0), &b).is_none()); // stops short
        let inside =
            Circle::new(Vec2::ZERO, 1.0).sweep(Vec2::ZERO, &Circle::new(Vec2::new(1.5, 0.0), 1.0)).unwrap();
        assert_eq!((inside.t, inside.normal), (0.0, Vec2::NEG_X));
        assert!(
            Circle::new(Vec2::ZERO, 1.0).sweep(Vec2::ZERO, &Circle::new(Vec2::new(2.5, 0.0), 1.0)).is_none()
        );
    }

    #[test]
    fn non_finite_motion_touches_nothing() {
        use crate::{Aabb3, Capsule3, Obb3, Plane};
        let s = Sphere::new(Vec3::ZERO, 1.0);
        let b = Aabb3::new(Vec3::splat(2.0), Vec3::splat(3.0));
        let o = Obb3::new(Vec3::splat(2.5), Vec3::splat(0.5), glam::Quat::IDENTITY);
        let c = Capsule3::new(Vec3::splat(2.0), Vec3::splat(3.0), 0.5);
        let p = Plane::new(Vec3::X, 2.0);
        for v in [
            Vec3::new(f32::NAN, 0.0, 0.0),
            Vec3::splat(f32::INFINITY),
            Vec3::new(0.0, f32::NEG_INFINITY, 1.0),
        ] {
            assert!(s.sweep(v, &Sphere::new(Vec3::splat(3.0), 1.0)).is_none());
            assert!(s.sweep(v, &b).is_none() && b.sweep(v, &s).is_none() && b.sweep(v, &b).is_none());
            assert!(s.sweep(v, &o).is_none() && o.sweep(v, &o).is_none() && c.sweep(v, &o).is_none());
            assert!(s.sweep(v, &p).is_none() && c.sweep(v, &p).is_none());
        }
    }
}
