//! Ball against ball, 2D and 3D: the centre line is the normal, and the depth is
//! `r₁ + r₂ - |c₂ - c₁|` (Ericson, *Real-Time Collision Detection*, 4.3.1).
//!
//! Decided in `f64` on squared values, like the overlap test, so a touching pair is
//! `Some` with depth zero exactly when [`crate::Overlaps`] says it overlaps.
//! Concentric balls have no preferred direction: the normal is then `+x` for the pair in
//! its fixed order (`in_fixed_order`), and `-x` for the reverse pair.

use glam::{DVec2, DVec3};

use crate::{Circle, Contact, Contact2, Contact3, ContactPoints2, ContactPoints3, Sphere};

macro_rules! ball_ball_contact {
    ($Ball:ident, $Contact:ident, $Points:ident, $DV:ident, $as_dvec:ident, $as_f32:ident) => {
        impl Contact<$Ball> for $Ball {
            type Output = $Contact;

            #[inline]
            fn contact(&self, other: &$Ball) -> Option<$Contact> {
                super::in_fixed_order(
                    self,
                    other,
                    |a: &$Ball, b: &$Ball| {
                        let (ca, cb) = (a.center().$as_dvec(), b.center().$as_dvec());
                        let (ra, rb) = (f64::from(a.radius()), f64::from(b.radius()));
                        let d = cb - ca;
                        let (d2, r) = (d.length_squared(), ra + rb);
                        if d2 > r * r {
                            return None;
                        }
                        let dist = d2.sqrt();
                        // Concentric: any direction separates equally well; take +x.
                        let normal = if dist > 0.0 { d / dist } else { $DV::X };
                        let depth = (r - dist).max(0.0);
                        // Midway between the deepest points c₁ + n r₁ and c₂ - n r₂.
                        let point = ca + normal * (ra - depth / 2.0);
                        Some($Contact {
                            normal: normal.$as_f32(),
                            depth: depth as f32,
                            points: $Points::one(point.$as_f32()),
                        })
                    },
                    $Contact::flipped,
                )
            }
        }
    };
}

ball_ball_contact!(Circle, Contact2, ContactPoints2, DVec2, as_dvec2, as_vec2);
ball_ball_contact!(Sphere, Contact3, ContactPoints3, DVec3, as_dvec3, as_vec3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Vec2, Vec3};

    #[test]
    fn overlapping_spheres_along_a_3_4_5_line() {
        // Centres 5 apart, radii 3 and 3: depth 1, normal (0.6, 0.8, 0).
        let a = Sphere::new(Vec3::ZERO, 3.0);
        let b = Sphere::new(Vec3::new(3.0, 4.0, 0.0), 3.0);
        let c = a.contact(&b).unwrap();
        assert_eq!(c.depth, 1.0);
        assert!((c.normal - Vec3::new(0.6, 0.8, 0.0)).length() < 1e-7);
        assert!((c.points[0] - Vec3::new(1.5, 2.0, 0.0)).length() < 1e-6);
        let r = b.contact(&a).unwrap();
        assert_eq!((r.normal, r.depth), (-c.normal, c.depth));
    }

    #[test]
    fn touching_gives_depth_zero_and_apart_gives_none() {
        let a = Circle::new(Vec2::ZERO, 2.0);
        let touching = Circle::new(Vec2::new(3.0, 4.0), 3.0);
        let c = a.contact(&touching).unwrap();
        assert_eq!(c.depth, 0.0);
        assert_eq!(c.points[0], Vec2::new(1.2, 1.6));
        assert!(a.contact(&Circle::new(Vec2::new(3.0, 4.0), 2.999_999)).is_none());
    }

    #[test]
    fn concentric_balls_push_along_x() {
        // The fixed order puts the smaller radius first: `+x` from it, `-x` from the other.
        let (big, small) = (Sphere::new(Vec3::ONE, 1.0), Sphere::new(Vec3::ONE, 0.5));
        let c = big.contact(&small).unwrap();
        assert_eq!((c.normal, c.depth), (Vec3::NEG_X, 1.5));
        assert_eq!(small.contact(&big).unwrap().normal, Vec3::X);
        let z = Circle::new(Vec2::ZERO, 0.0).contact(&Circle::new(Vec2::ZERO, 0.0)).unwrap();
        assert_eq!((z.normal, z.depth, z.points[0]), (Vec2::X, 0.0, Vec2::ZERO));
    }
}
