//! Ray against plane (two-sided).
//!
//! Solve `n · (o + t d) = offset`: `t = (offset - n·o) / (n·d)`, in `f64` (products of
//! `f32` inputs are exact there, so `n·d == 0` is decided exactly for small integer-like
//! inputs). Three cases that are not a single crossing are told apart, never turned into
//! an infinite or NaN `t`:
//! - `n·d == 0` and the origin off the plane: [`RayPlane::Parallel`];
//! - `n·d == 0` and the origin on the plane: the ray lies in the plane, [`RayPlane::Coplanar`];
//! - the crossing outside `[t_min, t_max]`: [`RayPlane::Miss`], with its `t`.
//!
//! Through [`RayCast`], a plane is a closed set like any other shape: a crossing is the
//! span `[t, t]`, a coplanar ray is inside it for all of `[t_min, t_max]` (and, like a ray
//! starting inside a solid, `cast_ray` reports `t_min` with a zero normal). The normal of
//! a crossing faces the ray: the plane is two-sided.

use glam::Vec3;

use super::{point_at, unit_f32};
use crate::{Plane, Ray3, RayCast, RayHit3, RaySpan};

/// How a ray meets a plane; see [`Plane::ray_intersection`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RayPlane {
    /// The ray crosses the plane at `t`, inside `[t_min, t_max]`.
    Hit {
        /// The ray parameter of the crossing.
        t: f32,
        /// `true` when the ray arrives from the front (`n · d < 0`).
        front_facing: bool,
    },
    /// The ray's line crosses the plane at `t`, outside `[t_min, t_max]`.
    Miss {
        /// The ray parameter of the crossing (may be infinite when it overflows `f32`).
        t: f32,
    },
    /// The ray is parallel to the plane and off it.
    Parallel,
    /// The ray lies in the plane.
    Coplanar,
}

impl Plane {
    /// How the ray meets the plane: a crossing inside or outside the ray's interval, or
    /// the parallel and coplanar cases, told apart.
    ///
    /// ```
    /// use raybox::{Plane, RayPlane, Ray3};
    /// use glam::Vec3;
    ///
    /// let floor = Plane::new(Vec3::Y, 0.0);
    /// let down = Ray3::new(Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.0, -4.0, 0.0));
    /// assert_eq!(floor.ray_intersection(&down), RayPlane::Hit { t: 0.5, front_facing: true });
    /// let along = Ray3::new(Vec3::ZERO, Vec3::X);
    /// assert_eq!(floor.ray_intersection(&along), RayPlane::Coplanar);
    /// ```
    #[must_use]
    #[inline]
    pub fn ray_intersection(&self, ray: &Ray3) -> RayPlane {
        let n_dot_d = self.normal().as_dvec3().dot(ray.dir().as_dvec3());
        let gap = -self.eval(ray.origin().as_dvec3()); // offset - n·o
        if n_dot_d == 0.0 {
            return if gap == 0.0 { RayPlane::Coplanar } else { RayPlane::Parallel };
        }
        let t = gap / n_dot_d;
        if f64::from(ray.t_min()) <= t && t <= f64::from(ray.t_max()) {
            RayPlane::Hit { t: t as f32, front_facing: n_dot_d < 0.0 }
        } else {
            RayPlane::Miss { t: t as f32 }
        }
    }
}

impl RayCast for Plane {
    type Ray = Ray3;
    type Hit = RayHit3;

    #[inline]
    fn ray_span(&self, ray: &Ray3) -> Option<RaySpan> {
        match self.ray_intersection(ray) {
            RayPlane::Hit { t, .. } => Some(RaySpan { t_enter: t, t_exit: t }),
            RayPlane::Coplanar => Some(RaySpan { t_enter: ray.t_min(), t_exit: ray.t_max() }),
            RayPlane::Miss { .. } | RayPlane::Parallel => None,
        }
    }

    #[inline]
    fn cast_ray(&self, ray: &Ray3) -> Option<RayHit3> {
        let (t, normal) = match self.ray_intersection(ray) {
            RayPlane::Hit { t, front_facing } => {
                // The normal is valid (finite, non-zero): f32 unless it is tiny or huge.
                let n = unit_f32(self.normal().into()).map_or_else(|| self.unit_normal(), Vec3::from);
                (t, if front_facing { n } else { -n })
            }
            RayPlane::Coplanar => (ray.t_min(), Vec3::ZERO),
            RayPlane::Miss { .. } | RayPlane::Parallel => return None,
        };
        let point = point_at(ray.origin().to_array(), ray.dir().to_array(), t);
        Some(RayHit3 { t, point: Vec3::from_array(point), normal })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_sided_normal_faces_the_ray() {
        let p = Plane::new(Vec3::new(0.0, 0.0, 2.0), 2.0); // z = 1
        let up = p.cast_ray(&Ray3::new(Vec3::ZERO, Vec3::Z)).unwrap();
        assert_eq!((up.t, up.normal), (1.0, -Vec3::Z));
        let down = p.cast_ray(&Ray3::new(Vec3::new(0.0, 0.0, 3.0), -Vec3::Z)).unwrap();
        assert_eq!((down.t, down.normal), (2.0, Vec3::Z));
    }

    #[test]
    fn coplanar_with_a_non_unit_normal_is_exact() {
        // (-3, 1, 0) · x = 7 holds along the whole ray: 1 * -3 + 3 * 1 = 0.
        let p = Plane::new(Vec3::new(-3.0, 1.0, 0.0), 7.0);
        let ray = Ray3::new(Vec3::new(-2.0, 1.0, 5.0), Vec3::new(1.0, 3.0, 2.0));
        assert_eq!(p.ray_intersection(&ray), RayPlane::Coplanar);
        let off = Ray3::new(Vec3::new(-2.0, 1.5, 5.0), Vec3::new(1.0, 3.0, 2.0));
        assert_eq!(p.ray_intersection(&off), RayPlane::Parallel);
        assert_eq!(p.cast_ray(&off), None);
    }

    #[test]
    fn behind_the_origin_is_a_miss_with_its_t() {
        let p = Plane::new(Vec3::X, -1.0);
        assert_eq!(p.ray_intersection(&Ray3::new(Vec3::ZERO, Vec3::X)), RayPlane::Miss { t: -1.0 });
    }
}
