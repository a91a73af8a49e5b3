//! Balls, boxes, triangles and segments against a plane (3D): the shape leaves the
//! two-sided plane by the shorter way, as the capsule does in `plane_capsule.rs`.
//!
//! With `n̂` the plane's unit normal and the shape spanning `[lo, hi]` in signed distance
//! from the plane (a ball: its centre's `d ∓ r`; a box: its centre's value `∓` its
//! projected radius, Ericson, *Real-Time Collision Detection*, 5.2.3; a triangle or a
//! segment: its vertices' least and greatest), an overlapping shape has `lo <= 0 <= hi`
//! and leaves the plane rising by `-lo` (normal `+n̂`) or sinking by `hi` (normal `-n̂`):
//! the shorter is the depth, a tie rising. The overlap test of `overlap/plane.rs` is the
//! gate, so the contact is `Some` exactly when [`crate::Overlaps`] says the shapes
//! overlap, and `lo` and `hi` come from the values it reads (a box's centre value and
//! projected radius, a triangle's vertex values, in `f64`), so an overlapping shape's
//! depth is never negative (a ball's, compared on squares there, is clamped to zero).
//!
//! Points: every vertex of the shape at or past the plane on the side it is pushed from (a
//! ball: its deepest point) gives one, midway between the vertex and the plane, the
//! deepest first and at most four: a box face lying on the plane gives its four corners,
//! a box on an edge two, a triangle lying in the plane its three vertices, a segment lying
//! in it its two ends. The deepest vertex always gives one, so a shape that only touches
//! the plane has a point too.

use crate::arrays::Each;
use glam::{DVec3, Vec3};

use super::reverse_contact;
use crate::query::overlap::PlaneBox;
use crate::{Aabb3, Contact, Contact3, ContactPoints3, Obb3, Overlaps, Plane, Segment3, Sphere, Triangle3};

/// The plane's unit normal and the length of its normal as given, in `f64`.
#[inline]
fn unit_normal(plane: &Plane) -> (DVec3, f64) {
    let n = plane.normal().as_dvec3();
    let len = n.length();
    (n / len, len)
}

/// Which way a shape spanning `[lo, hi]` in signed distance (`lo <= 0 <= hi`, up to
/// rounding) leaves the plane: `1.0` rising, `-1.0` sinking, and how far.
#[inline]
fn way_out(lo: f64, hi: f64) -> (f64, f64) {
    if -lo <= hi { (1.0, -lo) } else { (-1.0, hi) }
}

/// The contact that pushes the shape along `sign * unit` by `depth`, with a point midway
/// between the plane and each vertex `(x, signed distance of x)` at or past it on the side
/// the shape is pushed from (the deepest first, at most four, the deepest always).
#[inline]
fn push_out(unit: DVec3, sign: f64, depth: f64, vertices: &mut [(DVec3, f64)]) -> Contact3 {
    // Deepest first: the most negative `sign * s` is the farthest past the plane (a stable
    // insertion sort: at most eight vertices, ties kept in the shape's order).
    for i in 1..vertices.len() {
        let mut j = i;
        while j > 0 && sign * vertices[j - 1].1 > sign * vertices[j].1 {
            vertices.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut points = ContactPoints3::EMPTY;
    for (i, &(x, s)) in vertices.iter().enumerate() {
        if points.len() == 4 || (i > 0 && sign * s > 0.0) {
            break;
        }
        // Half way to the plane: the signed distance s / 2.
        let p = (x - unit * (s / 2.0)).as_vec3();
        if !points.contains(&p) {
            points.push(p);
        }
    }
    // Rounding can leave a touching shape's depth a hair below zero (or at -0.0).
    let depth = if depth > 0.0 { depth as f32 } else { 0.0 };
    Contact3 { normal: (unit * sign).as_vec3(), depth, points }
}

impl Contact<Sphere> for Plane {
    type Output = Contact3;

    /// The ball rises or sinks until it only touches the plane; one point, midway between
    /// its deepest point and the plane.
    ///
    /// ```
    /// use raybox::{Contact, Plane, Sphere};
    /// use glam::Vec3;
    ///
    /// let floor = Plane::new(Vec3::new(0.0, 0.0, 2.0), 0.0); // z = 0
    /// let c = floor.contact(&Sphere::new(Vec3::new(1.0, 2.0, 0.75), 1.0)).unwrap();
    /// assert_eq!((c.normal, c.depth), (Vec3::Z, 0.25));
    /// assert_eq!(c.points.as_slice(), &[Vec3::new(1.0, 2.0, -0.125)]);
    /// ```
    #[inline]
    fn contact(&self, other: &Sphere) -> Option<Contact3> {
        if !self.overlaps(other) {
            return None;
        }
        let (unit, len) = unit_normal(self);
        let c = other.center().as_dvec3();
        let (d, r) = (self.eval(c) / len, f64::from(other.radius()));
        let (sign, depth) = way_out(d - r, d + r);
        // The deepest point against the push, at signed distance d - sign r.
        let deepest = c - unit * (sign * r);
        Some(push_out(unit, sign, depth, &mut [(deepest, d - sign * r)]))
    }
}

/// A box's contact: its eight corners, at `s ± r` at the extremes (`PlaneBox`).
#[inline]
fn box_contact(plane: &Plane, b: &PlaneBox) -> Contact3 {
    let (unit, len) = unit_normal(plane);
    let r = b.radius();
    let (sign, depth) = way_out((b.s - r) / len, (b.s + r) / len);
    let mut corners: [(DVec3, f64); 8] = crate::arrays::from_fn(|i| {
        let sigma = [1, 2, 4].each(|bit| if i & bit != 0 { 1.0 } else { -1.0 });
        let (x, value) = b.point(sigma);
        (x, value / len)
    });
    push_out(unit, sign, depth, &mut corners)
}

impl Contact<Aabb3> for Plane {
    type Output = Contact3;

    /// The box rises or sinks until it only touches the plane; up to four points (a face
    /// on the plane).
    ///
    /// ```
    /// use raybox::{Aabb3, Contact, Plane};
    /// use glam::Vec3;
    ///
    /// let floor = Plane::new(Vec3::Z, 0.0);
    /// let sunk = Aabb3::new(Vec3::new(0.0, 0.0, -0.5), Vec3::new(1.0, 1.0, 2.0));
    /// let c = floor.contact(&sunk).unwrap();
    /// assert_eq!((c.normal, c.depth, c.points.len()), (Vec3::Z, 0.5, 4));
    /// assert!(c.points.iter().all(|p| p.z == -0.25));
    /// ```
    #[inline]
    fn contact(&self, other: &Aabb3) -> Option<Contact3> {
        self.overlaps(other).then(|| box_contact(self, &PlaneBox::aabb(self, other)))
    }
}

impl Contact<Obb3> for Plane {
    type Output = Contact3;

    #[inline]
    fn contact(&self, other: &Obb3) -> Option<Contact3> {
        self.overlaps(other).then(|| box_contact(self, &PlaneBox::obb(self, other)))
    }
}

impl Contact<Triangle3> for Plane {
    type Output = Contact3;

    /// The triangle rises or sinks until it only touches the plane; a point for each
    /// vertex at or past the plane on the side it leaves from.
    ///
    /// ```
    /// use raybox::{Contact, Plane, Triangle3};
    /// use glam::Vec3;
    ///
    /// let floor = Plane::new(Vec3::Z, 0.0);
    /// let t = Triangle3::new(Vec3::new(0.0, 0.0, -1.0), Vec3::new(4.0, 0.0, -1.0), Vec3::new(0.0, 4.0, 3.0));
    /// let c = floor.contact(&t).unwrap();
    /// assert_eq!((c.normal, c.depth), (Vec3::Z, 1.0)); // rising by 1 beats sinking by 3
    /// assert_eq!(c.points.as_slice(), &[Vec3::new(0.0, 0.0, -0.5), Vec3::new(4.0, 0.0, -0.5)]);
    /// ```
    #[inline]
    fn contact(&self, other: &Triangle3) -> Option<Contact3> {
        self.overlaps(other).then(|| vertices_contact(self, other.vertices()))
    }
}

impl Contact<Segment3> for Plane {
    type Output = Contact3;

    /// The segment rises or sinks until it only touches the plane, as a triangle does with
    /// two vertices: a point for each end at or past the plane on the side it leaves from
    /// (two for a segment lying in the plane, at depth zero).
    ///
    /// ```
    /// use raybox::{Contact, Plane, Segment3};
    /// use glam::Vec3;
    ///
    /// let floor = Plane::new(Vec3::Z, 0.0);
    /// let post = Segment3::new(Vec3::new(1.0, 0.0, -0.5), Vec3::new(1.0, 0.0, 3.0));
    /// let c = floor.contact(&post).unwrap();
    /// assert_eq!((c.normal, c.depth), (Vec3::Z, 0.5)); // rising by 0.5 beats sinking by 3
    /// assert_eq!(c.points.as_slice(), &[Vec3::new(1.0, 0.0, -0.25)]);
    /// let lying = Segment3::new(Vec3::new(0.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0));
    /// assert_eq!(floor.contact(&lying).map(|c| (c.depth, c.points.len())), Some((0.0, 2)));
    /// ```
    #[inline]
    fn contact(&self, other: &Segment3) -> Option<Contact3> {
        self.overlaps(other).then(|| vertices_contact(self, [other.start(), other.end()]))
    }
}

/// The contact of a polytope given by its vertices (a triangle, a segment) that overlaps
/// the plane: it spans `[lo, hi]` in signed distance, its vertices' least and greatest.
#[inline]
fn vertices_contact<const N: usize>(plane: &Plane, vertices: [Vec3; N]) -> Contact3 {
    let (unit, len) = unit_normal(plane);
    let mut vertices = vertices.each(|v| {
        let x = v.as_dvec3();
        (x, plane.eval(x) / len)
    });
    let lo = vertices.iter().map(|v| v.1).fold(f64::INFINITY, f64::min);
    let hi = vertices.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
    let (sign, depth) = way_out(lo, hi);
    push_out(unit, sign, depth, &mut vertices)
}

reverse_contact!(
    Plane => Sphere: Contact3,
    Plane => Aabb3: Contact3,
    Plane => Obb3: Contact3,
    Plane => Triangle3: Contact3,
    Plane => Segment3: Contact3,
);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    #[test]
    fn balls_rise_or_sink_the_shorter_way() {
        let p = Plane::new(Vec3::new(0.0, 4.0, 0.0), 8.0); // y = 2, |n| = 4
        let k = p.contact(&Sphere::new(Vec3::new(1.0, 2.5, 3.0), 1.0)).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::Y, 0.5));
        assert_eq!(k.points.as_slice(), &[Vec3::new(1.0, 1.75, 3.0)]); // midway from 1.5 to 2
        let k = p.contact(&Sphere::new(Vec3::new(1.0, 1.0, 3.0), 1.5)).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::NEG_Y, 0.5));
        assert_eq!(k.points.as_slice(), &[Vec3::new(1.0, 2.25, 3.0)]);
        // Touching: depth zero, the point on the plane; the centre on the plane: rises.
        let k = p.contact(&Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.0)).unwrap();
        assert_eq!((k.normal, k.depth, k.points.as_slice()), (Vec3::Y, 0.0, &[Vec3::new(0.0, 2.0, 0.0)][..]));
        let k = p.contact(&Sphere::new(Vec3::new(0.0, 2.0, 0.0), 1.0)).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::Y, 1.0));
        assert!(p.contact(&Sphere::new(Vec3::new(0.0, 3.0, 0.0), 0.999_999)).is_none());
        // The reverse flips the normal.
        let s = Sphere::new(Vec3::new(1.0, 2.5, 3.0), 1.0);
        assert_eq!(s.contact(&p).map(|k| (k.normal, k.depth)), Some((Vec3::NEG_Y, 0.5)));
        // A point ball on the plane.
        let k = p.contact(&Sphere::new(Vec3::new(7.0, 2.0, 7.0), 0.0)).unwrap();
        assert_eq!((k.depth, k.points.as_slice()), (0.0, &[Vec3::new(7.0, 2.0, 7.0)][..]));
    }

    #[test]
    fn boxes_give_a_face_an_edge_or_a_corner() {
        let floor = Plane::new(Vec3::new(0.0, 0.0, -2.0), 0.0); // z = 0, normal down
        // A face on the plane, sunk by 0.25: lifted (along -normal = +z), four corners.
        let b = Aabb3::new(Vec3::new(-1.0, -1.0, -0.25), Vec3::new(1.0, 1.0, 3.0));
        let k = floor.contact(&b).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::Z, 0.25));
        let mut pts = k.points.to_vec();
        pts.sort_by(|a, b| a.to_array().partial_cmp(&b.to_array()).unwrap());
        let want: Vec<Vec3> = [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
            .each(|(x, y)| Vec3::new(x, y, -0.125))
            .into();
        assert_eq!(pts, want);
        // The same box as an Obb3 with the identity rotation.
        let o = Obb3::new(b.center(), b.half_extents(), Quat::IDENTITY);
        let ko = floor.contact(&o).unwrap();
        assert_eq!((ko.normal, ko.depth, ko.points.len()), (Vec3::Z, 0.25, 4));
        // Touching with a face: depth 0, four points on the plane.
        let on = Aabb3::new(Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 2.0, 3.0));
        let k = floor.contact(&on).unwrap();
        assert_eq!((k.depth, k.points.len()), (0.0, 4));
        assert!(k.points.iter().all(|p| p.z == 0.0));
        // A cube on an edge: turned 45 degrees about x, the edge 0.5 below the plane.
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let turn = Quat::from_rotation_x(0.25 * std::f32::consts::PI);
        let edge = Obb3::new(Vec3::new(0.0, 0.0, 0.5), Vec3::splat(h), turn);
        let k = floor.contact(&edge).unwrap();
        assert!((k.normal - Vec3::Z).length() < 1e-6 && (k.depth - 0.5).abs() < 1e-6, "{k:?}");
        assert_eq!(k.points.len(), 2, "{k:?}");
        for p in &k.points {
            assert!((p.z + 0.25).abs() < 1e-6 && p.y.abs() < 1e-6 && (p.x.abs() - h).abs() < 1e-6, "{p}");
        }
        // Apart by one f32 step (at a scale where the box's f64 centre is exact).
        let above = Aabb3::new(Vec3::new(0.0, 0.0, 2f32.powi(-24)), Vec3::ONE);
        assert!(floor.contact(&above).is_none() && above.contact(&floor).is_none());
        // Mostly below: pushed down (along the plane's own normal, -z).
        let deep = Aabb3::new(Vec3::new(0.0, 0.0, -3.0), Vec3::new(1.0, 1.0, 1.0));
        let k = floor.contact(&deep).unwrap();
        assert_eq!((k.normal, k.depth, k.points.len()), (Vec3::NEG_Z, 1.0, 4));
        assert!(k.points.iter().all(|p| p.z == 0.5));
    }

    #[test]
    fn box_depth_is_computed_in_f64() {
        // A box at 2^20 whose bottom face is 0.375 below the plane z = 2^20: its centre,
        // 2^20 + 0.8125, is not an f32 (whose step there is 0.125), so f32 arithmetic would
        // round the depth.
        let z = 1_048_576.0;
        let b = Aabb3::new(Vec3::new(0.0, 0.0, z - 0.375), Vec3::new(1.0, 1.0, z + 2.0));
        let plane = Plane::new(Vec3::Z, z);
        let k = plane.contact(&b).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::Z, 0.375));
        // Flat boxes (zero extent) give each distinct corner once.
        let flat = Aabb3::new(Vec3::new(0.0, 0.0, z), Vec3::new(1.0, 0.0, z));
        let k = plane.contact(&flat).unwrap();
        assert_eq!((k.depth, k.points.len()), (0.0, 2));
    }

    #[test]
    fn triangles_give_their_deepest_vertices() {
        let p = Plane::new(Vec3::new(1.0, 0.0, 0.0), 1.0); // x = 1
        // x = 0.5, 0, 3: rising to x >= 1 (by 1) beats sinking to x <= 1 (by 2).
        let t = Triangle3::new(Vec3::new(0.5, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0), Vec3::new(3.0, 0.0, 1.0));
        let k = p.contact(&t).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::X, 1.0));
        assert_eq!(k.points.as_slice(), &[Vec3::new(0.5, 1.0, 0.0), Vec3::new(0.75, 0.0, 0.0)]);
        // x = 0, 1.5, 1.25: sinking (by 0.5) beats rising (by 1); the deepest vertex first.
        let t = Triangle3::new(Vec3::ZERO, Vec3::new(1.25, 0.0, 1.0), Vec3::new(1.5, 1.0, 0.0));
        let k = p.contact(&t).unwrap();
        assert_eq!((k.normal, k.depth), (Vec3::NEG_X, 0.5));
        assert_eq!(k.points.as_slice(), &[Vec3::new(1.25, 1.0, 0.0), Vec3::new(1.125, 0.0, 1.0)]);
        // Lying in the plane: depth 0, three points; the reverse flips the normal.
        let lying =
            Triangle3::new(Vec3::new(1.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, 0.0, 1.0));
        let k = p.contact(&lying).unwrap();
        assert_eq!((k.normal, k.depth, k.points.len()), (Vec3::X, 0.0, 3));
        assert_eq!(lying.contact(&p).unwrap().normal, Vec3::NEG_X);
        let beside =
            Triangle3::new(Vec3::new(1.5, 0.0, 0.0), Vec3::new(1.5, 1.0, 0.0), Vec3::new(9.0, 0.0, 1.0));
        assert!(p.contact(&beside).is_none() && beside.contact(&p).is_none());
    }
}
