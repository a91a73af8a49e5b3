//! Points against balls.

use glam::{Vec2, Vec3};

use crate::{Circle, ClosestPoint, ContainsPoint, Sphere};

macro_rules! ball_point_impls {
    ($Ball:ident, $V:ident, $as_dvec:ident, $as_f32:ident) => {
        impl ContainsPoint for $Ball {
            type Point = $V;

            #[inline]
            fn contains_point(&self, point: $V) -> bool {
                let d = point.$as_dvec() - self.center().$as_dvec();
                let r = f64::from(self.radius());
                d.length_squared() <= r * r
            }
        }

        impl ClosestPoint for $Ball {
            type Point = $V;

            #[inline]
            fn closest_point(&self, point: $V) -> $V {
                let d = point.$as_dvec() - self.center().$as_dvec();
                let (len, r) = (d.length(), f64::from(self.radius()));
                if len <= r { point } else { (self.center().$as_dvec() + d * (r / len)).$as_f32() }
            }

            #[inline]
            fn distance_to_point(&self, point: $V) -> f32 {
                let d = point.$as_dvec() - self.center().$as_dvec();
                (d.length() - f64::from(self.radius())).max(0.0) as f32
            }
        }
    };
}

ball_point_impls!(Circle, Vec2, as_dvec2, as_vec2);
ball_point_impls!(Sphere, Vec3, as_dvec3, as_vec3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_point_is_on_the_surface() {
        let s = Sphere::new(Vec3::new(1.0, 0.0, 0.0), 2.0);
        assert_eq!(s.closest_point(Vec3::new(1.0, 5.0, 0.0)), Vec3::new(1.0, 2.0, 0.0));
        assert_eq!(s.distance_to_point(Vec3::new(1.0, 5.0, 0.0)), 3.0);
        assert!(s.contains_point(Vec3::new(3.0, 0.0, 0.0)));
        let c = Circle::new(Vec2::ZERO, 0.0);
        assert_eq!(c.closest_point(Vec2::new(3.0, 4.0)), Vec2::ZERO);
    }
}
