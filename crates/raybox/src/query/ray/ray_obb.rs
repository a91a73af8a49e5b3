//! Ray against oriented box: move the ray into the box frame, then the slab test.
//!
//! Ericson, *Real-Time Collision Detection*, 5.3.3. In the box frame the box is the
//! AABB `[-h, h]`; `t` is unchanged because the change of frame is a rigid motion
//! applied to the origin and the direction alike.

use glam::{Vec2, Vec3, Vec3A};

use super::{SlabSpan, enter_axis, point_at, slab_span3a};
use crate::{Obb2, Obb3, Ray2, Ray3, RayCast, RayHit2, RayHit3, RaySpan};

impl RayCast for Obb2 {
    type Ray = Ray2;
    type Hit = RayHit2;

    fn ray_span(&self, ray: &Ray2) -> Option<RaySpan> {
        let ((t_enter, t_exit, _), _) = slab_obb2(self, ray)?;
        Some(RaySpan { t_enter, t_exit })
    }

    fn cast_ray(&self, ray: &Ray2) -> Option<RayHit2> {
        let ((t_enter, t_exit, near), local_dir) = slab_obb2(self, ray)?;
        let s = SlabSpan { t_enter, t_exit, enter_axis: enter_axis(near, t_enter, ray.t_min()) };
        let mut local_normal = Vec2::ZERO;
        if let Some(i) = s.enter_axis {
            local_normal[i] = -local_dir[i].signum();
        }
        let point = point_at(ray.origin().to_array(), ray.dir().to_array(), s.t_enter);
        let normal = self.rotation() * local_normal;
        Some(RayHit2 { t: s.t_enter, point: Vec2::from_array(point), normal })
    }
}

/// The slab span, in the box frame, and the local direction (see `slab_span3a`).
fn slab_obb2(b: &Obb2, ray: &Ray2) -> Option<((f32, f32, Vec3A), Vec2)> {
    let local_origin = b.point_to_local(ray.origin());
    let local_dir = b.rotation().transpose() * ray.dir();
    let lift = |v: Vec2| Vec3A::new(v.x, v.y, 0.0);
    let h = lift(b.half_extents());
    let range = (ray.t_min(), ray.t_max());
    Some((slab_span3a(lift(local_origin), lift(local_dir), -h, h, range)?, local_dir))
}

impl RayCast for Obb3 {
    type Ray = Ray3;
    type Hit = RayHit3;

    fn ray_span(&self, ray: &Ray3) -> Option<RaySpan> {
        let ((t_enter, t_exit, _), _) = slab_obb3(self, ray)?;
        Some(RaySpan { t_enter, t_exit })
    }

    fn cast_ray(&self, ray: &Ray3) -> Option<RayHit3> {
        let ((t_enter, t_exit, near), local_dir) = slab_obb3(self, ray)?;
        let s = SlabSpan { t_enter, t_exit, enter_axis: enter_axis(near, t_enter, ray.t_min()) };
        let mut local_normal = Vec3::ZERO;
        if let Some(i) = s.enter_axis {
            local_normal[i] = -local_dir[i].signum();
        }
        let point = point_at(ray.origin().to_array(), ray.dir().to_array(), s.t_enter);
        let normal = self.rotation() * local_normal;
        Some(RayHit3 { t: s.t_enter, point: Vec3::from_array(point), normal })
    }
}

/// The slab span, in the box frame, and the local direction (see `slab_span3a`).
fn slab_obb3(b: &Obb3, ray: &Ray3) -> Option<((f32, f32, Vec3A), Vec3)> {
    let local_origin = b.point_to_local(ray.origin());
    let local_dir = b.rotation().transpose() * ray.dir();
    let h = Vec3A::from(b.half_extents());
    let range = (ray.t_min(), ray.t_max());
    Some((slab_span3a(local_origin.into(), local_dir.into(), -h, h, range)?, local_dir))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Aabb3;
    use glam::Quat;

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
