//! Ball against axis-aligned box, 2D and 3D: the clamped closest point (Arvo 1990;
//! Ericson, *Real-Time Collision Detection*, 5.2.5), or the nearest face when the centre
//! is inside the box.
//!
//! - **Centre outside the box**: the normal runs from the centre to the closest point `q`
//!   of the box, and `depth = r - |q - c|`.
//! - **Centre inside (or on) the box**: the box must move until its nearest face `f`
//!   passes the far side of the ball: `depth = r + dist(c, f)`, along that face's axis.
//!   Ties between faces go to the lowest axis, `min` face before `max` face.
//!
//! The decision `|q - c|² <= r²` is the overlap test's, in `f64` on the same values.

use crate::arrays::Each;
use crate::query::closest::aabb_distance_squared_f64;
use crate::query::contact::reverse_contact;
use crate::{Aabb2, Aabb3, Circle, Contact, Contact2, Contact3, ContactPoints2, ContactPoints3, Sphere};
use glam::{DVec2, DVec3};

/// A ball–box contact in the box's coordinates: unit normal (ball to box), depth, point.
pub(crate) struct BallBox<const N: usize> {
    pub normal: [f64; N],
    pub depth: f64,
    pub point: [f64; N],
}

/// The contact of the ball `(c, r)` with the box `[min, max]`, or `None` when apart.
#[inline]
pub(crate) fn ball_box_contact<const N: usize>(
    c: [f32; N],
    r: f32,
    min: [f32; N],
    max: [f32; N],
) -> Option<BallBox<N>> {
    ball_box_contact_f64(c.each(f64::from), f64::from(r), min.each(f64::from), max.each(f64::from))
}

/// [`ball_box_contact`] on `f64` inputs (the same arithmetic: the `f32` inputs convert exactly).
#[inline]
pub(crate) fn ball_box_contact_f64<const N: usize>(
    c: [f64; N],
    r: f64,
    min: [f64; N],
    max: [f64; N],
) -> Option<BallBox<N>> {
    let d2 = aabb_distance_squared_f64(c, min, max);
    if d2 > r * r || d2.is_nan() {
        return None;
    }
    if d2 > 0.0 {
        // Outside: toward the clamped point q.
        let q: [f64; N] = crate::arrays::from_fn(|i| c[i].clamp(min[i], max[i]));
        let dist = d2.sqrt();
        let normal: [f64; N] = crate::arrays::from_fn(|i| (q[i] - c[i]) / dist);
        let depth = (r - dist).max(0.0);
        // Midway between q and the ball's deepest point c + n r.
        let point = crate::arrays::from_fn(|i| (q[i] + c[i] + normal[i] * r) / 2.0);
        return Some(BallBox { normal, depth, point });
    }
    // Inside: the nearest face; the box moves away from it, through the centre.
    let (mut axis, mut sign, mut face) = (0, 1.0, f64::INFINITY);
    for i in 0..N {
        let (to_min, to_max) = (c[i] - min[i], max[i] - c[i]);
        if to_min < face {
            (axis, sign, face) = (i, 1.0, to_min);
        }
        if to_max < face {
            (axis, sign, face) = (i, -1.0, to_max);
        }
    }
    let mut normal = [0.0; N];
    normal[axis] = sign;
    let mut point = c;
    point[axis] += sign * (r - face) / 2.0;
    Some(BallBox { normal, depth: r + face, point })
}

impl Contact<Aabb2> for Circle {
    type Output = Contact2;

    #[inline]
    fn contact(&self, other: &Aabb2) -> Option<Contact2> {
        let k = ball_box_contact(
            self.center().to_array(),
            self.radius(),
            other.min().to_array(),
            other.max().to_array(),
        )?;
        Some(Contact2 {
            normal: DVec2::from_array(k.normal).as_vec2(),
            depth: k.depth as f32,
            points: ContactPoints2::one(DVec2::from_array(k.point).as_vec2()),
        })
    }
}

impl Contact<Aabb3> for Sphere {
    type Output = Contact3;

    #[inline]
    fn contact(&self, other: &Aabb3) -> Option<Contact3> {
        let k = ball_box_contact(
            self.center().to_array(),
            self.radius(),
            other.min().to_array(),
            other.max().to_array(),
        )?;
        Some(Contact3 {
            normal: DVec3::from_array(k.normal).as_vec3(),
            depth: k.depth as f32,
            points: ContactPoints3::one(DVec3::from_array(k.point).as_vec3()),
        })
    }
}

reverse_contact!(Circle => Aabb2: Contact2, Sphere => Aabb3: Contact3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Vec2, Vec3};

    #[test]
    fn ball_near_a_corner_pushes_along_the_diagonal() {
        // Corner (1, 1, 1); centre at (2, 3, 3) is 3 away (1-2-2); radius 4: depth 1.
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let s = Sphere::new(Vec3::new(2.0, 3.0, 3.0), 4.0);
        let c = s.contact(&b).unwrap();
        assert_eq!(c.depth, 1.0);
        assert!((c.normal - Vec3::new(-1.0, -2.0, -2.0) / 3.0).length() < 1e-7);
        // Midway between the corner and the ball's deepest point (2,3,3) + 4 n.
        let expected = (Vec3::ONE + Vec3::new(2.0, 3.0, 3.0) + 4.0 * c.normal) / 2.0;
        assert!((c.points[0] - expected).length() < 1e-6);
        assert_eq!(b.contact(&s).unwrap().normal, -c.normal);
    }

    #[test]
    fn centre_inside_pushes_out_through_the_nearest_face() {
        let b = Aabb2::new(Vec2::ZERO, Vec2::new(4.0, 2.0));
        let c = Circle::new(Vec2::new(3.5, 1.0), 0.25).contact(&b).unwrap();
        // Nearest face x = 4 (0.5 away): the box moves by -x, 0.5 + 0.25.
        assert_eq!((c.normal, c.depth), (Vec2::NEG_X, 0.75));
        // Midway between the ball's deepest point x = 3.25 and the face x = 4.
        assert_eq!(c.points[0], Vec2::new(3.625, 1.0));
    }

    #[test]
    fn touching_a_face_and_a_corner() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let face = Sphere::new(Vec3::new(0.5, 0.5, 3.0), 2.0).contact(&b).unwrap();
        assert_eq!((face.normal, face.depth, face.points[0]), (Vec3::NEG_Z, 0.0, Vec3::new(0.5, 0.5, 1.0)));
        assert!(Sphere::new(Vec3::new(0.5, 0.5, 3.0), 1.999_999).contact(&b).is_none());
        assert!(Sphere::new(Vec3::new(2.0, 3.0, 3.0), 3.0).contact(&b).is_some_and(|c| c.depth == 0.0));
    }
}
