//! Triangle against triangle (3D): Guigue & Devillers, *Fast and Robust Triangle-Triangle
//! Overlap Test Using Orientation Predicates* (JGT 8(1), 2003), on the exact orientations of
//! `orient.rs`, so the answer is the exact one for the `f32` vertices, touching included.
//!
//! With `[a, b, c, d]` the sign of `det[b - a, c - a, d - a]`:
//!
//! 1. The vertices of each triangle are classified against the other's plane. All three
//!    strictly on one side: apart.
//! 2. All three on the plane: the triangles are coplanar, and the test is done in the
//!    coordinate plane onto which their common plane projects one to one (dropping an axis
//!    along which the exact normal is not zero): an edge of one crosses an edge of the
//!    other, or a vertex of one is inside the other.
//! 3. Otherwise each triangle is rotated so that its first vertex `p` is alone on its side
//!    of the other's plane (or alone on the plane, the other two strictly on one side), and
//!    the other triangle's last two vertices are swapped if needed so that `p` is on its
//!    positive side. Each triangle then meets the other's plane in a segment (maybe a
//!    point) of the planes' common line, from its edge `p q` to its edge `p r`, and the two
//!    segments overlap exactly when `[p₁, q₁, p₂, q₂] <= 0` and `[p₁, r₁, r₂, p₂] <= 0`.
//!
//! Degenerate triangles (zero area, exactly: collinear or coincident vertices) are the
//! segment or point they cover, and overlap what that segment or point touches: the
//! triangle–segment test of `triangle_segment.rs`, or two segments. Every decision is a sign
//! of an exact determinant or a comparison of coordinates, so nothing here rounds.

use crate::arrays::{Each, all_equal};
use glam::Vec3;

use super::orient::{normal_signs, orient3d, project, segment_meets_triangle_2d};
use super::segment_segment::segments_meet_3d;
use super::triangle_segment::triangle_segment_meet;
use crate::{Overlaps, Triangle3};

/// What three points span: a triangle, or (collinear) the segment between the two farthest
/// apart, maybe a point.
enum Span {
    /// The triangle, with the exact signs of its normal's components (not all zero).
    Triangle([Vec3; 3], [f64; 3]),
    Segment(Vec3, Vec3),
}

#[inline]
fn span(t: [Vec3; 3]) -> Span {
    let n = normal_signs(t);
    if !all_equal(n, 0.0) {
        return Span::Triangle(t, n);
    }
    // Collinear: along the line, the lexicographic order of the coordinates is the order
    // of the points, so its least and greatest points are the segment's ends. (Index loops:
    // `min_by` and `max_by` over `copied()` were calls of their own in cargo's default
    // release build, on the path every `Triangle3`–`Segment3` pair took.)
    let (mut lo, mut hi) = (t[0], t[0]);
    for &x in &t[1..] {
        if lex_less(x, lo) {
            lo = x;
        }
        if !lex_less(x, hi) {
            hi = x; // the last of equals, as `max_by`
        }
    }
    Span::Segment(lo, hi)
}

/// Whether `u` comes before `v` in the lexicographic order of their coordinates (finite).
#[inline]
fn lex_less(u: Vec3, v: Vec3) -> bool {
    if u.x != v.x {
        return u.x < v.x;
    }
    if u.y != v.y {
        return u.y < v.y;
    }
    u.z < v.z
}

/// Whether the closed triangles `t1` and `t2` share a point; either may be degenerate (a
/// segment or a point given as a triangle with repeated or collinear vertices). Exact.
#[inline]
pub(crate) fn triangles_overlap(t1: [Vec3; 3], t2: [Vec3; 3]) -> bool {
    // Bounding boxes apart: apart (comparisons of coordinates, exact).
    let (lo1, hi1) = (t1[0].min(t1[1]).min(t1[2]), t1[0].max(t1[1]).max(t1[2]));
    let (lo2, hi2) = (t2[0].min(t2[1]).min(t2[2]), t2[0].max(t2[1]).max(t2[2]));
    if lo1.cmpgt(hi2).any() || lo2.cmpgt(hi1).any() {
        return false;
    }
    match (span(t1), span(t2)) {
        (Span::Triangle(a, na), Span::Triangle(b, _)) => proper_triangles_overlap(a, na, b),
        (Span::Triangle(t, n), Span::Segment(p, q)) | (Span::Segment(p, q), Span::Triangle(t, n)) => {
            triangle_segment_meet(t, n, p, q)
        }
        (Span::Segment(p1, q1), Span::Segment(p2, q2)) => segments_meet_3d(p1, q1, p2, q2),
    }
}

/// [`triangles_overlap`] of `t` and the segment `[p, q]` given as one, `(p, q, q)`, without
/// working out what the segment spans: the same answer (both are exact, and the segment's
/// direction changes no sign that decides), a third of the work when the triangle is proper.
#[inline]
pub(crate) fn triangle_segment_overlap(t: [Vec3; 3], p: Vec3, q: Vec3) -> bool {
    let (lo, hi) = (t[0].min(t[1]).min(t[2]), t[0].max(t[1]).max(t[2]));
    if lo.cmpgt(p.max(q)).any() || p.min(q).cmpgt(hi).any() {
        return false;
    }
    match span(t) {
        Span::Triangle(t, n) => triangle_segment_meet(t, n, p, q),
        Span::Segment(a, b) => segments_meet_3d(a, b, p, q),
    }
}

/// Guigue–Devillers for two non-degenerate triangles (`n1`: the signs of `t1`'s normal).
#[inline]
fn proper_triangles_overlap(t1: [Vec3; 3], n1: [f64; 3], t2: [Vec3; 3]) -> bool {
    let s1 = t1.each(|x| orient3d(t2[0], t2[1], t2[2], x));
    if all_equal(s1, 1.0) || all_equal(s1, -1.0) {
        return false;
    }
    let s2 = t2.each(|x| orient3d(t1[0], t1[1], t1[2], x));
    if all_equal(s2, 1.0) || all_equal(s2, -1.0) {
        return false;
    }
    if all_equal(s1, 0.0) {
        return coplanar_triangles_overlap(t1, n1, t2);
    }
    let (i1, side1) = alone(s1);
    let (i2, side2) = alone(s2);
    let [p1, mut q1, mut r1] = rotated(t1, i1);
    let [p2, mut q2, mut r2] = rotated(t2, i2);
    // Put p1 on the positive side of t2 and p2 on the positive side of t1: swapping two
    // vertices of one triangle flips its plane's orientation and leaves the signs of the
    // other triangle's vertices against it unchanged, and a rotation changes neither.
    if side1 < 0.0 {
        core::mem::swap(&mut q2, &mut r2);
    }
    if side2 < 0.0 {
        core::mem::swap(&mut q1, &mut r1);
    }
    orient3d(p1, q1, p2, q2) <= 0.0 && orient3d(p1, r1, r2, p2) <= 0.0
}

/// The vertex alone on its side of the other triangle's plane, and that side (`1.0` or
/// `-1.0`), for signs `s` neither all equal nor all of one strict sign.
///
/// When two signs are equal, the third vertex is alone: strictly on the other side, or on
/// the plane with the two strictly on one side (its side is then the opposite of theirs).
/// When all three differ (`+`, `-`, `0`), the `+` vertex is alone: the others are on the
/// closed negative side. Either way the other two vertices lie on the closed side opposite
/// the alone one's, which is what the segment construction needs.
#[inline]
fn alone(s: [f64; 3]) -> (usize, f64) {
    for i in 0..3 {
        let (a, b) = (s[(i + 1) % 3], s[(i + 2) % 3]);
        if a == b && s[i] != a {
            return (i, if s[i] != 0.0 { s[i] } else { -a });
        }
    }
    (s.iter().position(|&x| x > 0.0).unwrap_or(0), 1.0)
}

/// `t` rotated so that vertex `i` comes first (the orientation is kept).
#[inline]
fn rotated(t: [Vec3; 3], i: usize) -> [Vec3; 3] {
    [t[i], t[(i + 1) % 3], t[(i + 2) % 3]]
}

/// Two coplanar, non-degenerate triangles: in the coordinate plane along whose axis `k`
/// the normal of `t1` is not zero, a one-to-one projection of their common plane.
#[inline]
fn coplanar_triangles_overlap(t1: [Vec3; 3], n1: [f64; 3], t2: [Vec3; 3]) -> bool {
    let k = n1.iter().position(|&x| x != 0.0).unwrap_or(2);
    let (a, b) = (t1.each(|v| project(v, k)), t2.each(|v| project(v, k)));
    // An edge of each crossing, or one triangle holding the other's vertex (and then all of
    // it, as no edges cross).
    (0..3).any(|i| segment_meets_triangle_2d(a[i], a[(i + 1) % 3], b))
        || super::orient::point_in_triangle_2d(b[0], a)
}

impl Overlaps<Triangle3> for Triangle3 {
    /// Exact: Guigue & Devillers 2003 on exact orientation signs (see
    /// `query/overlap/triangle_triangle.rs`). Touching counts: a vertex on the other's face,
    /// an edge on an edge, coplanar triangles sharing an edge.
    ///
    /// ```
    /// use raybox::{Overlaps, Triangle3};
    /// use glam::Vec3;
    ///
    /// let floor = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
    /// // Standing on the floor with one vertex, at (1, 1, 0).
    /// let tip = Triangle3::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(0.0, 1.0, 3.0), Vec3::new(2.0, 1.0, 3.0));
    /// assert!(floor.overlaps(&tip) && tip.overlaps(&floor));
    /// // Lifted by the smallest f32 step above 0: apart.
    /// let lifted = Triangle3::new(
    ///     Vec3::new(1.0, 1.0, f32::from_bits(1)),
    ///     Vec3::new(0.0, 1.0, 3.0),
    ///     Vec3::new(2.0, 1.0, 3.0),
    /// );
    /// assert!(!floor.overlaps(&lifted));
    /// ```
    #[inline]
    fn overlaps(&self, other: &Triangle3) -> bool {
        triangles_overlap(self.vertices(), other.vertices())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32, z: f32) -> Vec3 {
        Vec3::new(x, y, z)
    }

    /// The answer in every vertex order of both triangles and both argument orders.
    fn overlap_all_orders(a: [Vec3; 3], b: [Vec3; 3]) -> bool {
        let want = triangles_overlap(a, b);
        let orders = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]];
        for i in orders {
            for j in orders {
                let (x, y) = (i.each(|k| a[k]), j.each(|k| b[k]));
                assert_eq!(triangles_overlap(x, y), want, "{x:?} {y:?}");
                assert_eq!(triangles_overlap(y, x), want, "{y:?} {x:?}");
            }
        }
        want
    }

    const FLOOR: [Vec3; 3] = [Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0)];

    /// `triangle_segment_overlap` gives what `triangles_overlap` gives for the segment as
    /// the triangle `(p, q, q)` (and `(q, p, p)`), on a small lattice where touching,
    /// coplanar, collinear and degenerate cases are common, and with the triangle's span
    /// ends in either order (`span`'s index loops against the lexicographic extremes).
    #[test]
    fn the_segment_form_answers_as_the_degenerate_triangle() {
        let mut rng = crate::mesh::scene::Pcg32::new(0x5e6);
        let mut point = || Vec3::new(0.0, 0.0, 0.0).map(|_| (rng.next_u32() % 5) as f32 - 2.0);
        let (mut hits, mut degenerate) = (0, 0);
        for _ in 0..40_000 {
            let t = [point(), point(), point()];
            let (p, q) = (point(), point());
            let want = triangles_overlap(t, [p, q, q]);
            assert_eq!(triangles_overlap(t, [q, p, p]), want, "{t:?} {p} {q}");
            assert_eq!(triangle_segment_overlap(t, p, q), want, "{t:?} {p} {q}");
            assert_eq!(triangle_segment_overlap(t, q, p), want, "{t:?} {q} {p}");
            hits += usize::from(want);
            degenerate += usize::from(matches!(span(t), Span::Segment(..)));
        }
        // Both answers common, and degenerate triangles among them.
        assert!((4_000..36_000).contains(&hits), "{hits} of 40,000 overlap");
        assert!(degenerate > 1_000, "{degenerate} degenerate triangles");
        // The span of a collinear triangle: its lexicographic least and greatest points.
        let (a, b, c) = (v(1.0, 2.0, 3.0), v(-1.0, 0.0, 1.0), v(3.0, 4.0, 5.0));
        for t in [[a, b, c], [c, a, b], [b, c, a], [a, c, b]] {
            assert!(matches!(span(t), Span::Segment(lo, hi) if lo == b && hi == c), "{t:?}");
        }
    }

    #[test]
    fn crossing_and_apart() {
        // A wall through the floor, and the same wall moved past its hypotenuse.
        let wall = |x: f32| [v(x, -1.0, -1.0), v(x, 5.0, -1.0), v(x, 2.0, 2.0)];
        assert!(overlap_all_orders(FLOOR, wall(1.0)));
        assert!(!overlap_all_orders(FLOOR, wall(-0.5)));
        // Two triangles whose planes cross inside both bounding boxes but whose segments on
        // the common line do not overlap (the interval test decides).
        let a = [v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0), v(0.0, 2.0, 0.0)];
        let b = [v(1.5, 1.5, -1.0), v(1.5, 1.5, 1.0), v(3.0, 3.0, 0.0)];
        assert!(!overlap_all_orders(a, b));
        // The floor wholly on one side of a wall's plane x + y = 6, their bounding boxes
        // overlapping (so the plane test, not the boxes, decides).
        assert!(!overlap_all_orders(FLOOR, [v(3.0, 3.0, -1.0), v(3.0, 3.0, 1.0), v(5.0, 1.0, 0.0)]));
    }

    #[test]
    fn touching_configurations() {
        // A vertex on the face, on an edge, on a vertex.
        let tip = |x: f32, y: f32| [v(x, y, 0.0), v(x - 1.0, y, 3.0), v(x + 1.0, y, 3.0)];
        assert!(overlap_all_orders(FLOOR, tip(1.0, 1.0)));
        assert!(overlap_all_orders(FLOOR, tip(2.0, 2.0))); // on the hypotenuse
        assert!(overlap_all_orders(FLOOR, tip(0.0, 0.0))); // on a vertex
        assert!(!overlap_all_orders(FLOOR, tip(2.0, 2.0 + 1.0 / 1024.0)));
        let lifted = [v(1.0, 1.0, f32::from_bits(1)), v(0.0, 1.0, 3.0), v(2.0, 1.0, 3.0)];
        assert!(!overlap_all_orders(FLOOR, lifted));
        // An edge lying on the face; an edge crossing an edge (skew edges meeting at a point).
        assert!(overlap_all_orders(FLOOR, [v(1.0, 0.5, 0.0), v(1.0, 2.0, 0.0), v(1.0, 1.0, 5.0)]));
        // (In the wall x = 2, the edge from (2, -1, 1) to (2, 1, -1) crosses the floor's edge
        // y = 0 at (2, 0, 0), and the rest of the wall meets the floor's plane at y < 0.)
        let wall = |dz: f32| [v(2.0, -1.0, 1.0 + dz), v(2.0, 1.0, -1.0 + dz), v(2.0, -3.0, -1.0 + dz)];
        assert!(overlap_all_orders(FLOOR, wall(0.0)));
        assert!(!overlap_all_orders(FLOOR, wall(-0.01)));
        assert!(overlap_all_orders(FLOOR, wall(0.01))); // through the floor near its edge
        // Hinged: sharing an edge, at an angle.
        assert!(overlap_all_orders(FLOOR, [v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(2.0, -3.0, 2.0)]));
    }

    #[test]
    fn coplanar_pairs() {
        // Overlapping, sharing an edge from outside, touching at a vertex, one holding the
        // other, the same triangle, apart.
        assert!(overlap_all_orders(FLOOR, [v(1.0, 1.0, 0.0), v(5.0, 1.0, 0.0), v(1.0, 5.0, 0.0)]));
        assert!(overlap_all_orders(FLOOR, [v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0), v(4.0, 4.0, 0.0)]));
        assert!(overlap_all_orders(FLOOR, [v(4.0, 0.0, 0.0), v(6.0, -1.0, 0.0), v(6.0, 1.0, 0.0)]));
        assert!(overlap_all_orders(FLOOR, [v(0.5, 0.5, 0.0), v(1.0, 0.5, 0.0), v(0.5, 1.0, 0.0)]));
        assert!(overlap_all_orders(FLOOR, FLOOR));
        assert!(!overlap_all_orders(FLOOR, [v(2.5, 2.5, 0.0), v(5.0, 2.5, 0.0), v(2.5, 5.0, 0.0)]));
        // A star of David: edges cross, no vertex inside the other.
        let up = [v(0.0, 0.0, 0.0), v(6.0, 0.0, 0.0), v(3.0, 6.0, 0.0)];
        let down = [v(0.0, 4.0, 0.0), v(3.0, -2.0, 0.0), v(6.0, 4.0, 0.0)];
        assert!(overlap_all_orders(up, down));
        // Coplanar in a slanted plane x + y + z = 3, where projecting along z is one to one.
        let a = [v(3.0, 0.0, 0.0), v(0.0, 3.0, 0.0), v(0.0, 0.0, 3.0)];
        assert!(overlap_all_orders(a, [v(1.0, 1.0, 1.0), v(2.0, 2.0, -1.0), v(4.0, -2.0, 1.0)]));
        assert!(!overlap_all_orders(a, [v(3.0, 1.0, -1.0), v(5.0, 1.0, -3.0), v(4.0, 2.0, -3.0)]));
    }

    #[test]
    fn degenerate_triangles_are_segments_and_points() {
        // A segment (collinear vertices, the middle one listed first) through the floor, beside
        // it, and lying in it; a point on it and above it.
        let through = [v(1.0, 1.0, 0.0), v(1.0, 1.0, -1.0), v(1.0, 1.0, 2.0)];
        assert!(overlap_all_orders(FLOOR, through));
        assert!(!overlap_all_orders(FLOOR, [v(3.0, 3.0, 0.0), v(3.0, 3.0, -1.0), v(3.0, 3.0, 2.0)]));
        assert!(overlap_all_orders(FLOOR, [v(2.0, 2.0, 0.0), v(3.0, 3.0, 0.0), v(5.0, 5.0, 0.0)]));
        assert!(!overlap_all_orders(FLOOR, [v(3.0, 3.0, 0.0), v(4.0, 4.0, 0.0), v(5.0, 5.0, 0.0)]));
        let point = |z: f32| [v(1.0, 1.0, z); 3];
        assert!(overlap_all_orders(FLOOR, point(0.0)));
        assert!(!overlap_all_orders(FLOOR, point(1e-30)));
        // Two degenerate ones: crossing segments, skew segments, a point on a segment.
        let seg = |a: Vec3, b: Vec3| [a, b, b];
        assert!(overlap_all_orders(
            seg(v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0)),
            seg(v(2.0, 0.0, 0.0), v(0.0, 2.0, 2.0))
        ));
        assert!(!overlap_all_orders(
            seg(v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0)),
            seg(v(2.0, 0.0, 0.0), v(0.0, 2.0, 2.5))
        ));
        assert!(overlap_all_orders(seg(v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0)), point(1.0)));
        assert!(!overlap_all_orders(seg(v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0)), point(1.5)));
        // Collinear, overlapping and apart along one line.
        assert!(overlap_all_orders(
            seg(v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0)),
            seg(v(2.0, 2.0, 2.0), v(3.0, 3.0, 3.0))
        ));
        assert!(!overlap_all_orders(
            seg(v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0)),
            seg(v(2.5, 2.5, 2.5), v(3.0, 3.0, 3.0))
        ));
    }
}
