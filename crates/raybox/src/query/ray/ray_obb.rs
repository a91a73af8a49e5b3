//! Ray against oriented box: move the ray into the box frame, then the slab test.
//!
//! Ericson, *Real-Time Collision Detection*, 5.3.3. In the box frame the box is the
//! AABB `[-h, h]`; `t` is unchanged because the change of frame is a rigid motion
//! applied to the origin and the direction alike.

use core::hint::select_unpredictable;

use glam::{Mat3A, Vec2, Vec3A};

use super::ray_aabb::{SlabLanes, entry_normal, point_at3a, slab_lanes};
use crate::{Obb2, Obb3, Ray2, Ray3, RayCast, RayHit2, RayHit3, RaySpan};

/// A 2D vector in the `x, y` lanes of a `Vec3A`, `0` in `z`.
#[inline(always)]
fn lift(v: Vec2) -> Vec3A {
    Vec3A::new(v.x, v.y, 0.0)
}

impl RayCast for Obb2 {
    type Ray = Ray2;
    type Hit = RayHit2;

    #[inline]
    fn ray_span(&self, ray: &Ray2) -> Option<RaySpan> {
        let (s, _) = slab_obb2(self, ray);
        select_unpredictable(s.hit, Some(RaySpan { t_enter: s.t_enter, t_exit: s.t_exit }), None)
    }

    #[inline]
    fn cast_ray(&self, ray: &Ray2) -> Option<RayHit2> {
        let (s, local_dir) = slab_obb2(self, ray);
        let local_normal = entry_normal(&s, local_dir, ray.t_min()).truncate();
        let normal = self.rotation() * local_normal;
        let point = point_at3a(lift(ray.origin()), lift(ray.dir()), s.t_enter).truncate();
        select_unpredictable(s.hit, Some(RayHit2 { t: s.t_enter, point, normal }), None)
    }
}

/// The slab lanes in the box frame, and the local direction (see `slab_lanes`).
#[inline(always)]
fn slab_obb2(b: &Obb2, ray: &Ray2) -> (SlabLanes, Vec3A) {
    let local_origin = lift(b.point_to_local(ray.origin()));
    let local_dir = lift(b.rotation().transpose() * ray.dir());
    let h = lift(b.half_extents());
    (slab_lanes(local_origin, local_dir, -h, h, (ray.t_min(), ray.t_max())), local_dir)
}

impl RayCast for Obb3 {
    type Ray = Ray3;
    type Hit = RayHit3;

    #[inline]
    fn ray_span(&self, ray: &Ray3) -> Option<RaySpan> {
        let (s, _, _) = slab_obb3(self, ray);
        select_unpredictable(s.hit, Some(RaySpan { t_enter: s.t_enter, t_exit: s.t_exit }), None)
    }

    #[inline]
    fn cast_ray(&self, ray: &Ray3) -> Option<RayHit3> {
        let (s, local_dir, rotation) = slab_obb3(self, ray);
        let normal = (rotation * entry_normal(&s, local_dir, ray.t_min())).into();
        let point = point_at3a(ray.origin().into(), ray.dir().into(), s.t_enter).into();
        select_unpredictable(s.hit, Some(RayHit3 { t: s.t_enter, point, normal }), None)
    }
}

/// The slab lanes in the box frame, the local direction and the rotation (see
/// `slab_lanes`).
///
/// `Rᵀ v` on `Vec3A` lanes: the same products and sums, in the same order, as
/// `Obb3::point_to_local` and `rotation().transpose() * dir` (each lane is
/// `(R₀ᵢ v₀ + R₁ᵢ v₁) + R₂ᵢ v₂`), so the same values, with one transpose for both.
#[inline(always)]
fn slab_obb3(b: &Obb3, ray: &Ray3) -> (SlabLanes, Vec3A, Mat3A) {
    let rotation = Mat3A::from(b.rotation());
    let to_local = rotation.transpose();
    let local_origin = to_local * (Vec3A::from(ray.origin()) - Vec3A::from(b.center()));
    let local_dir = to_local * Vec3A::from(ray.dir());
    let h = Vec3A::from(b.half_extents());
    (slab_lanes(local_origin, local_dir, -h, h, (ray.t_min(), ray.t_max())), local_dir, rotation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Aabb3;
    use glam::{Quat, Vec3};

    #[test]
    fn identity_rotation_matches_the_aabb() {
        let aabb = Aabb3::new(Vec3::new(-1.0, -2.0, -3.0), Vec3::new(1.0, 2.0, 3.0));
        let obb = Obb3::new(Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0), Quat::IDENTITY);
        let ray = Ray3::new(Vec3::new(-5.0, 0.5, 0.25), Vec3::new(2.0, 0.1, 0.0));
        assert_eq!(obb.ray_span(&ray), aabb.ray_span(&ray));
        assert_eq!(obb.cast_ray(&ray), aabb.cast_ray(&ray));
    }

    #[test]
    fn rotated_box_hit_normal_is_rotated() {
        // A 2x2 square turned 45 degrees: its corner points at -x, at distance sqrt 2.
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let hit = diamond.cast_ray(&Ray2::new(Vec2::new(-3.0, 0.5), Vec2::X)).unwrap();
        let expected_t = 3.0 - (2f32.sqrt() - 0.5);
        assert!((hit.t - expected_t).abs() < 1e-5, "{hit:?}");
        let n = hit.normal;
        assert!((n - Vec2::new(-1.0, 1.0).normalize()).length() < 1e-5, "{n}");
    }
}
