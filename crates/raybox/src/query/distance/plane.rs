//! Balls, boxes, triangles and segments against a plane (3D): zero when the shape touches
//! or crosses the two-sided plane, as the overlap test of `overlap/plane.rs` decides;
//! otherwise the least absolute signed distance over the shape's support points, which lie
//! all on one side (Ericson, *Real-Time Collision Detection*, 5.2.2–5.2.3):
//!
//! - a ball whose centre is at signed distance `d`: `|d| - r`;
//! - a box whose centre has the value `s` and whose projected radius is `r` (both for the
//!   normal as given, `overlap/plane.rs`'s `PlaneBox`): `(|s| - r) / |n|`;
//! - a triangle or a segment: the least `|sᵢ|` of its vertices.
//!
//! All in `f64`. The closest points: the shape's point nearest the plane (for a box whose
//! nearest face or edge is parallel to the plane, the middle of that face or edge) and its
//! projection onto the plane; when they overlap, one point where the shape meets the plane
//! (on the segment from its lowest to its highest support point), twice.

use crate::arrays::Each;
use glam::{DVec3, Vec3};

use super::{d3, f3};
use crate::query::overlap::PlaneBox;
use crate::{Aabb3, Distance, Obb3, Overlaps, Plane, Segment3, Sphere, Triangle3};

/// A shape's closest points to a plane: the distance (zero when they overlap), the point on
/// the plane and the point on the shape.
struct Nearest {
    distance: f64,
    on_plane: DVec3,
    on_shape: DVec3,
}

impl Nearest {
    /// A common point.
    #[inline]
    fn common(p: DVec3) -> Self {
        Self { distance: 0.0, on_plane: p, on_shape: p }
    }
}

/// The plane's unit normal and the length of its normal as given, in `f64`.
#[inline]
fn unit_normal(plane: &Plane) -> (DVec3, f64) {
    let n = plane.normal().as_dvec3();
    let len = n.length();
    (n / len, len)
}

/// The point where the segment from `lo` (value `s_lo <= 0`) to `hi` (value `s_hi >= 0`)
/// crosses the plane, on the segment whatever the rounding.
#[inline]
fn crossing((lo, s_lo): (DVec3, f64), (hi, s_hi): (DVec3, f64)) -> DVec3 {
    if s_hi > s_lo { lo + (hi - lo) * (-s_lo / (s_hi - s_lo)).clamp(0.0, 1.0) } else { lo }
}

/// The nearest points of a shape with these vertices (maybe one repeated), `overlapping`
/// as the overlap test decided.
#[inline]
fn vertices_nearest(plane: &Plane, overlapping: bool, vertices: &[DVec3]) -> Nearest {
    let (unit, len) = unit_normal(plane);
    let values = vertices.iter().map(|&x| (x, plane.eval(x)));
    if overlapping {
        let lo = values.clone().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap_or((DVec3::ZERO, 0.0));
        let hi = values.max_by(|a, b| a.1.total_cmp(&b.1)).unwrap_or((DVec3::ZERO, 0.0));
        return Nearest::common(crossing(lo, hi));
    }
    let (x, s) = values.min_by(|a, b| a.1.abs().total_cmp(&b.1.abs())).unwrap_or((DVec3::ZERO, 0.0));
    Nearest { distance: s.abs() / len, on_plane: x - unit * (s / len), on_shape: x }
}

/// The nearest points of a plane and a shape.
trait PlaneNearest {
    fn plane_nearest(&self, plane: &Plane) -> Nearest;
}

impl PlaneNearest for Sphere {
    #[inline]
    fn plane_nearest(&self, plane: &Plane) -> Nearest {
        let (unit, len) = unit_normal(plane);
        let c = self.center().as_dvec3();
        let d = plane.eval(c) / len;
        let on_plane = c - unit * d; // within the ball when they overlap (|d| <= r)
        if plane.overlaps(self) {
            return Nearest::common(on_plane);
        }
        let r = f64::from(self.radius());
        Nearest { distance: d.abs() - r, on_plane, on_shape: c - unit * (d.signum() * r) }
    }
}

/// A box's nearest points, through its centre's value `s` and the exact signs of `n·aₖ`.
#[inline]
fn box_nearest(plane: &Plane, overlapping: bool, b: &PlaneBox) -> Nearest {
    let (unit, len) = unit_normal(plane);
    let facing = b.facing();
    if overlapping {
        // The lowest and highest points (corners, or the middles of faces and edges
        // parallel to the plane) straddle it.
        return Nearest::common(crossing(b.point(facing.each(|f| -f)), b.point(facing)));
    }
    // All on the side of the centre: the point farthest to the other side is nearest.
    let side = b.s.signum();
    let (x, value) = b.point(facing.each(|f| -side * f));
    Nearest { distance: (b.s.abs() - b.radius()) / len, on_plane: x - unit * (value / len), on_shape: x }
}

impl PlaneNearest for Aabb3 {
    #[inline]
    fn plane_nearest(&self, plane: &Plane) -> Nearest {
        box_nearest(plane, plane.overlaps(self), &PlaneBox::aabb(plane, self))
    }
}

impl PlaneNearest for Obb3 {
    #[inline]
    fn plane_nearest(&self, plane: &Plane) -> Nearest {
        box_nearest(plane, plane.overlaps(self), &PlaneBox::obb(plane, self))
    }
}

impl PlaneNearest for Triangle3 {
    #[inline]
    fn plane_nearest(&self, plane: &Plane) -> Nearest {
        vertices_nearest(plane, plane.overlaps(self), &self.vertices().each(d3))
    }
}

impl PlaneNearest for Segment3 {
    #[inline]
    fn plane_nearest(&self, plane: &Plane) -> Nearest {
        vertices_nearest(plane, plane.overlaps(self), &[d3(self.start()), d3(self.end())])
    }
}

macro_rules! plane_distance {
    ($($S:ty),*) => {$(
        impl Distance<$S> for Plane {
            type Point = Vec3;

            #[inline]
            fn distance(&self, other: &$S) -> f32 {
                // Zero exactly when the overlap test says so; a positive gap stays positive.
                if self.overlaps(other) {
                    return 0.0;
                }
                (other.plane_nearest(self).distance as f32).max(f32::MIN_POSITIVE)
            }

            #[inline]
            fn closest_points(&self, other: &$S) -> (Vec3, Vec3) {
                let k = other.plane_nearest(self);
                (f3(k.on_plane), f3(k.on_shape))
            }
        }

        super::reverse_distance!(Vec3; Plane => $S);
    )*};
}

plane_distance!(Sphere, Aabb3, Obb3, Triangle3, Segment3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    /// A plane beyond `f32::MAX` (`x = 6e38`): a distance below `f32::MAX` is finite, one
    /// beyond it and the plane's coordinates overflow to `inf`, their rounding in `f32`.
    #[test]
    fn planes_beyond_the_largest_f32() {
        let far = Plane::new(Vec3::new(0.5, 0.0, 0.0), 3e38);
        let ball = Sphere::new(Vec3::new(3e38, 0.0, 0.0), 1.0);
        assert_eq!(far.distance(&ball), 3e38);
        assert_eq!(ball.distance(&far), 3e38);
        let (on_plane, on_ball) = far.closest_points(&ball);
        assert_eq!((on_plane.x, on_ball), (f32::INFINITY, Vec3::new(3e38 + 1.0, 0.0, 0.0)));
        let beyond = Plane::new(Vec3::new(f32::from_bits(1), 0.0, 0.0), 1.0); // x = 2^149
        assert_eq!(beyond.distance(&ball), f32::INFINITY);
        assert_eq!(beyond.signed_distance(Vec3::ZERO), f32::NEG_INFINITY);
    }

    #[test]
    fn balls_hovering_and_touching() {
        let p = Plane::new(Vec3::new(0.0, 0.0, 4.0), 8.0); // z = 2
        let s = Sphere::new(Vec3::new(1.0, 2.0, 5.0), 1.0);
        assert_eq!(p.distance(&s), 2.0);
        assert_eq!(p.closest_points(&s), (Vec3::new(1.0, 2.0, 2.0), Vec3::new(1.0, 2.0, 4.0)));
        assert_eq!(s.closest_points(&p), (Vec3::new(1.0, 2.0, 4.0), Vec3::new(1.0, 2.0, 2.0)));
        let below = Sphere::new(Vec3::new(1.0, 2.0, -2.0), 1.5);
        assert_eq!((p.distance(&below), below.distance(&p)), (2.5, 2.5));
        assert_eq!(p.closest_points(&below), (Vec3::new(1.0, 2.0, 2.0), Vec3::new(1.0, 2.0, -0.5)));
        let touching = Sphere::new(Vec3::new(0.0, 0.0, 3.0), 1.0);
        assert_eq!(p.distance(&touching), 0.0);
        assert_eq!(p.closest_points(&touching), (Vec3::new(0.0, 0.0, 2.0), Vec3::new(0.0, 0.0, 2.0)));
        // Apart by less than an f32 step of the coordinates: positive, never zero.
        let hair = Sphere::new(Vec3::new(0.0, 0.0, 3.0), 0.999_999_94);
        assert!(!p.overlaps(&hair) && p.distance(&hair) > 0.0 && p.distance(&hair) < 1e-7);
    }

    #[test]
    fn boxes_nearest_face_edge_and_corner() {
        let floor = Plane::new(Vec3::new(0.0, 0.0, 2.0), 0.0); // z = 0
        // A face parallel to the plane: its middle is the nearest point.
        let b = Aabb3::new(Vec3::new(1.0, 1.0, 3.0), Vec3::new(3.0, 5.0, 4.0));
        assert_eq!(floor.distance(&b), 3.0);
        assert_eq!(floor.closest_points(&b), (Vec3::new(2.0, 3.0, 0.0), Vec3::new(2.0, 3.0, 3.0)));
        let o = Obb3::new(b.center(), b.half_extents(), Quat::IDENTITY);
        assert_eq!((floor.distance(&o), o.closest_points(&floor).0), (3.0, Vec3::new(2.0, 3.0, 3.0)));
        // Below, turned about x by a quarter turn (exactly, as a matrix): still a face.
        let q = Quat::from_xyzw(1.0, 0.0, 0.0, 1.0);
        let under = Obb3::new(Vec3::new(0.0, 0.0, -5.0), Vec3::new(1.0, 2.0, 0.5), q);
        assert_eq!(floor.distance(&under), 3.0);
        assert_eq!(floor.closest_points(&under), (Vec3::ZERO, Vec3::new(0.0, 0.0, -3.0)));
        // A tilted plane x + y = 4 (normal (1, 1, 0)) against the unit cube: its nearest
        // edge x = y = 1, at (4 - 2) / sqrt 2.
        let tilted = Plane::new(Vec3::new(1.0, 1.0, 0.0), 4.0);
        let cube = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        assert!((tilted.distance(&cube) - 2f32.sqrt()).abs() < 1e-6);
        let (on_plane, on_cube) = tilted.closest_points(&cube);
        assert_eq!(on_cube, Vec3::new(1.0, 1.0, 0.5));
        assert!((on_plane - Vec3::new(2.0, 2.0, 0.5)).length() < 1e-6);
        // Straddling: zero, one common point on the plane and in the box.
        let cross = Aabb3::new(Vec3::new(0.0, 0.0, -1.0), Vec3::new(2.0, 2.0, 3.0));
        let (p, q) = floor.closest_points(&cross);
        assert_eq!((floor.distance(&cross), p), (0.0, q));
        assert_eq!(p, Vec3::new(1.0, 1.0, 0.0));
    }

    #[test]
    fn triangles_and_segments() {
        let p = Plane::new(Vec3::new(3.0, 4.0, 0.0), 10.0); // 3x + 4y = 10, |n| = 5
        let t = Triangle3::new(Vec3::new(2.0, 1.0, 0.0), Vec3::new(6.0, 1.0, 0.0), Vec3::new(2.0, 5.0, 9.0));
        // The vertex (2, 1, 0): 3 * 2 + 4 - 10 = 0: touching.
        assert_eq!((p.distance(&t), t.distance(&p)), (0.0, 0.0));
        assert_eq!(p.closest_points(&t), (Vec3::new(2.0, 1.0, 0.0), Vec3::new(2.0, 1.0, 0.0)));
        let t = Triangle3::new(Vec3::new(5.0, 5.0, 0.0), Vec3::new(6.0, 1.0, 0.0), Vec3::new(2.0, 5.0, 9.0));
        // Values 25, 12, 16: the nearest vertex (6, 1, 0), 12 / 5 away.
        assert!((p.distance(&t) - 2.4).abs() < 1e-6);
        let (on_plane, on_t) = p.closest_points(&t);
        assert_eq!(on_t, Vec3::new(6.0, 1.0, 0.0));
        assert!((on_plane - Vec3::new(6.0 - 1.44, 1.0 - 1.92, 0.0)).length() < 1e-6);
        // Segments: beside, crossing (at the point where the values change sign), on it.
        let s = Segment3::new(Vec3::new(-2.0, -2.0, 1.0), Vec3::new(-2.0, -7.0, 1.0)); // -24, -44
        assert!((p.distance(&s) - 4.8).abs() < 1e-6 && (s.distance(&p) - 4.8).abs() < 1e-6);
        let s = Segment3::new(Vec3::new(0.0, 0.0, 1.0), Vec3::new(4.0, 0.0, 1.0)); // -10, 2
        assert_eq!(p.distance(&s), 0.0);
        let (a, b) = p.closest_points(&s);
        assert!(a == b && (a - Vec3::new(10.0 / 3.0, 0.0, 1.0)).length() < 1e-6, "{a}");
        let point = Segment3::new(Vec3::new(2.0, 1.0, 7.0), Vec3::new(2.0, 1.0, 7.0));
        assert_eq!(p.closest_points(&point), (Vec3::new(2.0, 1.0, 7.0), Vec3::new(2.0, 1.0, 7.0)));
        // A hair beside: positive.
        let hair = Segment3::new(
            Vec3::new(2.0, f32::from_bits(1.0f32.to_bits() + 1), 0.0),
            Vec3::new(9.0, 9.0, 0.0),
        );
        assert!(!p.overlaps(&hair) && p.distance(&hair) > 0.0);
    }
}
