//! Ball against segment (3D): the squared distance from the centre to the segment against
//! the squared radius, in `f64` (Ericson, *Real-Time Collision Detection*, 5.1.2 and 5.3.2).
//!
//! With `d = q - p` and `m = c - p`: the nearest point is `p` when `m · d <= 0`, `q` when
//! `m · d >= d · d`, and otherwise the foot of the perpendicular, at squared distance
//! `|m × d|² / |d|²`; the ball overlaps when that is at most `r²`, compared without the
//! division (`|m × d|² <= r² |d|²`). A zero-length segment is its point (`m · d = 0`). The
//! two formulas agree where the regions meet, so a rounding that puts a centre in the
//! neighbouring region moves the answer by no more than the rounding of the distances.

use crate::query::reverse_overlaps;
use crate::{Overlaps, Segment3, Sphere};

impl Overlaps<Segment3> for Sphere {
    /// Closed: a segment touching the sphere, or ending on it, overlaps.
    ///
    /// ```
    /// use raybox::{Overlaps, Segment3, Sphere};
    /// use glam::Vec3;
    ///
    /// let ball = Sphere::new(Vec3::ZERO, 5.0);
    /// // A tangent line segment at distance 5, and a point on the sphere.
    /// assert!(ball.overlaps(&Segment3::new(Vec3::new(-9.0, 5.0, 0.0), Vec3::new(9.0, 5.0, 0.0))));
    /// assert!(Segment3::new(Vec3::new(3.0, 4.0, 0.0), Vec3::new(3.0, 4.0, 0.0)).overlaps(&ball));
    /// // Past the end: the nearest point is the end (6, 8, 0), 10 away.
    /// assert!(!ball.overlaps(&Segment3::new(Vec3::new(6.0, 8.0, 0.0), Vec3::new(12.0, 16.0, 0.0))));
    /// ```
    fn overlaps(&self, other: &Segment3) -> bool {
        let (c, p, q) = (self.center().as_dvec3(), other.start().as_dvec3(), other.end().as_dvec3());
        let rr = f64::from(self.radius()).powi(2);
        let (d, m) = (q - p, c - p);
        let md = m.dot(d);
        if md <= 0.0 {
            return m.length_squared() <= rr;
        }
        let dd = d.length_squared();
        if md >= dd {
            return c.distance_squared(q) <= rr;
        }
        m.cross(d).length_squared() <= rr * dd
    }
}

reverse_overlaps!(Sphere => Segment3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn beside_the_middle_past_the_ends_and_inside() {
        let ball = Sphere::new(Vec3::new(1.0, 2.0, 2.0), 3.0); // 3 from the origin
        let s = |a: Vec3, b: Vec3| Segment3::new(a, b);
        // Tangent in the middle: the x axis passes at distance sqrt(8) < 3; the line
        // x = t, y = 0, z = -1 passes at distance sqrt(4 + 9) > 3; y = 2, z = -1 at exactly 3.
        assert!(ball.overlaps(&s(Vec3::new(-9.0, 0.0, 0.0), Vec3::new(9.0, 0.0, 0.0))));
        assert!(!ball.overlaps(&s(Vec3::new(-9.0, 0.0, -1.0), Vec3::new(9.0, 0.0, -1.0))));
        assert!(ball.overlaps(&s(Vec3::new(-9.0, 2.0, -1.0), Vec3::new(9.0, 2.0, -1.0))));
        assert!(!ball.overlaps(&s(Vec3::new(-9.0, 2.0, -1.001), Vec3::new(9.0, 2.0, -1.001))));
        // Ending exactly on the sphere (at the origin), and a hair short of it.
        assert!(ball.overlaps(&s(Vec3::new(-4.0, -8.0, -8.0), Vec3::ZERO)));
        assert!(!ball.overlaps(&s(Vec3::new(-4.0, -8.0, -8.0), Vec3::new(-1e-3, -2e-3, -2e-3))));
        // Wholly inside; a point inside, on, and outside.
        assert!(ball.overlaps(&s(Vec3::new(1.0, 2.0, 1.0), Vec3::new(1.0, 2.0, 3.0))));
        for (point, inside) in [(Vec3::new(1.0, 2.0, 2.0), true), (Vec3::new(4.0, 2.0, 2.0), true)] {
            assert_eq!(ball.overlaps(&s(point, point)), inside);
        }
        let out = Vec3::new(4.0, 2.0, 2.0 + 1e-5);
        assert!(!s(out, out).overlaps(&ball));
    }
}
