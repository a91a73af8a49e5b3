//! Moving ball against oriented box, 2D and 3D, and the box moving against the ball: the
//! rounded-box ray of `sphere_aabb.rs` in the box frame (where the box is `[-h, h]`).
//!
//! The centre and the motion are taken to the box frame in `f64` (`Rᵀ (c - center)` and
//! `Rᵀ v`, the frame of `Obb3::point_to_local`): the products of `f32` entries are exact
//! and each sum is rounded once, at `f64`'s precision. The component of `Rᵀ v` along a
//! face normal is a small difference of large products when the motion grazes that face,
//! and the time of impact divides by it (see `sphere_aabb.rs`, *Precision*).

use glam::{DVec2, DVec3, Vec2, Vec3};

use super::reversed_sweep;
use super::sphere_aabb::ray_rounded_box;
use super::{SweepHit2, SweepHit3, Toi, hit2, hit3};
use crate::query::distance::{d2, d3};
use crate::{Circle, Contact, Obb2, Obb3, Overlaps, Sphere, Sweep};

impl Sweep<Obb2> for Circle {
    type Motion = Vec2;
    type Hit = SweepHit2;

    #[inline]
    fn sweep(&self, motion: Vec2, other: &Obb2) -> Option<SweepHit2> {
        if !motion.is_finite() {
            return None; // a non-finite motion touches nothing
        }
        if self.overlaps(other) {
            let k = self.contact(other)?;
            return Some(SweepHit2 { t: 0.0, point: k.points[0], normal: -k.normal });
        }
        let h = other.half_extents();
        let rt = other.rotation().as_dmat2().transpose();
        let (o, v) = (rt * (self.center().as_dvec2() - other.center().as_dvec2()), rt * motion.as_dvec2());
        let bounds = ((-h).as_dvec2().to_array(), h.as_dvec2().to_array());
        let (t, n) = ray_rounded_box(o.to_array(), v.to_array(), bounds, f64::from(self.radius()))?;
        let normal = other.rotation().as_dmat2() * DVec2::from_array(n);
        let normal = DVec3::new(normal.x, normal.y, 0.0);
        let r = f64::from(self.radius());
        Some(hit2(Toi { t, point: d2(self.center()) + d2(motion) * t - normal * r, normal }))
    }
}

impl Sweep<Obb3> for Sphere {
    type Motion = Vec3;
    type Hit = SweepHit3;

    #[inline]
    fn sweep(&self, motion: Vec3, other: &Obb3) -> Option<SweepHit3> {
        if !motion.is_finite() {
            return None; // a non-finite motion touches nothing
        }
        if self.overlaps(other) {
            let k = self.contact(other)?;
            return Some(SweepHit3 { t: 0.0, point: k.points[0], normal: -k.normal });
        }
        let h = other.half_extents();
        let rt = other.rotation().as_dmat3().transpose();
        let (o, v) = (rt * (d3(self.center()) - d3(other.center())), rt * d3(motion));
        let bounds = (d3(-h).to_array(), d3(h).to_array());
        let (t, n) = ray_rounded_box(o.to_array(), v.to_array(), bounds, f64::from(self.radius()))?;
        let normal = other.rotation().as_dmat3() * DVec3::from_array(n);
        let r = f64::from(self.radius());
        Some(hit3(Toi { t, point: d3(self.center()) + d3(motion) * t - normal * r, normal }))
    }
}

reversed_sweep!(2D: Obb2 => Circle);
reversed_sweep!(3D: Obb3 => Sphere);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn ball_onto_a_turned_box() {
        // A diamond (square turned 45 degrees): its top corner at (0, sqrt 2).
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let hit = Circle::new(Vec2::new(0.0, 5.0), 1.0).sweep(Vec2::new(0.0, -5.0), &diamond).unwrap();
        assert!((hit.t - (4.0 - 2f32.sqrt()) / 5.0).abs() < 1e-6 && (hit.normal - Vec2::Y).length() < 1e-6);
        let b = Obb3::new(
            Vec3::ZERO,
            Vec3::new(1.0, 2.0, 3.0),
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        );
        let h = Sphere::new(Vec3::new(5.0, 0.0, 0.0), 1.0).sweep(Vec3::new(-4.0, 0.0, 0.0), &b).unwrap();
        assert!((h.t - 0.5).abs() < 1e-6 && (h.normal - Vec3::X).length() < 1e-6, "{h:?}");
        let back = b.sweep(Vec3::new(4.0, 0.0, 0.0), &Sphere::new(Vec3::new(5.0, 0.0, 0.0), 1.0)).unwrap();
        assert!((back.t - 0.5).abs() < 1e-6 && (back.normal + Vec3::X).length() < 1e-6, "{back:?}");
    }
}
