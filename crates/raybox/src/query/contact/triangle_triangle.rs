//! Triangle against triangle (3D): the minimum translation by the separating-axis test,
//! then a contact manifold by reference-face clipping.
//!
//! **When.** `Some` exactly when the exact overlap test of `overlap/triangle_triangle.rs`
//! (Guigue–Devillers on Shewchuk's predicates) says the closed triangles share a point;
//! the arithmetic below only measures how deep they are.
//!
//! **Depth.** Moving `B` by `t` leaves it overlapping `A` exactly while `t` is in the
//! Minkowski difference `M = A - B`, a convex polytope, so the minimum translation is the
//! distance from the origin to the boundary of `M`: the least, over the facets of `M`, of
//! the overlap of the two triangles' projections on the facet's normal. The facet normals
//! of `M` are among the two face normals and the 9 cross products of an edge of `A` with
//! an edge of `B` (Gottschalk, Lin & Manocha 1996; Ericson, *Real-Time Collision
//! Detection*, 5.2.1 and 5.2.9; Gregorius, *The Separating Axis Test*, GDC 2013). Any
//! other direction only overlaps as much or more, so the in-plane edge normals `n × e` of
//! each triangle, which Ericson adds for coplanar triangles, are candidates too: they
//! stand in for the cross products of nearly parallel edges, which are skipped when
//! shorter than [`MIN_SINE`] of the edges' lengths (their facet is a sliver, and no
//! narrower than that, so skipping them costs at most that fraction of an edge).
//! Projections are in `f64`, on coordinates taken relative to the middle of the two
//! triangles' common bounding box.
//!
//! **Coplanar triangles** (decided exactly: every vertex of `B` on `A`'s plane) overlap
//! only as surfaces: moving `B` off the plane by any amount separates them, so the depth
//! is zero and the normal is the first triangle's unit normal; the points are the corners
//! of the common polygon.
//!
//! **Manifold** (as in `obb_obb.rs`):
//! - *face axis*: that triangle is the reference, the other the incident one. The incident
//!   triangle is clipped by the reference triangle's prism (the planes through its edges,
//!   perpendicular to it) and by the reference plane (Sutherland & Hodgman 1974), and the
//!   corners behind the plane are moved halfway to it; more than 4 are reduced to 4.
//! - *edge axis* (a cross product or an in-plane edge normal): the features of the two
//!   triangles that reach furthest toward each other along the normal (an edge or a
//!   vertex each, or the whole triangle for one nearly perpendicular to the normal), and
//!   the midpoint of their closest points.
//! - when rounding leaves no point (touching pairs a hair apart in `f64`), the midpoint of
//!   the triangles' closest points (GJK in `f64`, `distance/gjk.rs`).
//!
//! **Face preference.** As for boxes, an edge axis is taken only when it is shallower than
//! the best face axis by more than [`FACE_PREFERENCE`] of the pair's extent: a margin for the
//! `f64` rounding of the projections, not a tolerance of the depth. (It was `1e-7` of the
//! longest edges, and a review found a triangle `2e6` long crossing a small one at depth
//! `0.1` reported at depth `0.28`: the margin must not grow with the triangles' size.)
//!
//! **Symmetry.** The pair is computed in a fixed order of the two triangles (their
//! coordinates compared lexicographically), so `b.contact(a)` is `a.contact(b)` with the
//! normal reversed, to the bit.

use crate::arrays::Each;
use core::cmp::Ordering;

use glam::{DVec3, Vec3};

use super::ContactPoints3;
use crate::query::closest::closest_points_segment_segment;
use crate::query::distance::{Core, core_closest};
use crate::query::overlap::orient3d;
use crate::{Contact, Contact3, Overlaps, Triangle3};

/// How much shallower, relative to the pair's extent about its middle ([`size`]), an edge
/// axis must be than the best face axis to be chosen over it: above the rounding of the
/// `f64` projections (about `1e-15` of the extent), far below any depth `f32` resolves.
const FACE_PREFERENCE: f64 = 1e-12;

/// A cross product of two edges shorter than this fraction of the product of their
/// lengths (the sine of the angle between them) is skipped as an axis.
const MIN_SINE: f64 = 1e-10;

/// The tolerance, relative to the pair's extent around its middle, within which vertices
/// count as equally far along a normal (the two ends of an edge perpendicular to it):
/// far above the rounding of the `f64` projections (about `1e-15` of the extent).
const SUPPORT_TOL: f64 = 1e-10;

/// Which kind of axis gave the depth.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Axis {
    /// The face normal of the first triangle.
    FaceA,
    /// The face normal of the second triangle.
    FaceB,
    /// An edge cross product, or an in-plane edge normal.
    Edge,
}

/// A convex polygon of up to 8 corners: a triangle clipped by 4 planes has at most 7.
#[derive(Clone, Copy)]
struct Polygon {
    v: [DVec3; 8],
    len: usize,
}

impl Polygon {
    const EMPTY: Self = Self { v: [DVec3::ZERO; 8], len: 0 };

    #[inline]
    fn push(&mut self, p: DVec3) {
        if self.len < self.v.len() {
            self.v[self.len] = p;
            self.len += 1;
        }
    }
    #[inline]
    fn as_slice(&self) -> &[DVec3] {
        &self.v[..self.len]
    }
}

/// Sutherland–Hodgman: the part of `poly` where `side(x) <= 0` (`side` affine).
#[inline]
fn clip(poly: &Polygon, side: impl Fn(DVec3) -> f64) -> Polygon {
    let mut out = Polygon::EMPTY;
    let corners = poly.as_slice();
    for (k, &p) in corners.iter().enumerate() {
        let q = corners[(k + 1) % corners.len()];
        let (dp, dq) = (side(p), side(q));
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
            out.push(p + (q - p) * (dp / (dp - dq)));
        }
    }
    out
}

/// The lowest and highest projections of `t`'s corners on `u`.
#[inline]
fn extent(t: &[DVec3; 3], u: DVec3) -> (f64, f64) {
    t.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x.dot(u)), hi.max(x.dot(u))))
}

/// The edge vectors `v1 - v0`, `v2 - v1`, `v0 - v2`, in `f64` from the `f32` corners.
#[inline]
fn edges(t: [Vec3; 3]) -> [DVec3; 3] {
    [0, 1, 2].each(|k| t[(k + 1) % 3].as_dvec3() - t[k].as_dvec3())
}

/// The geometric normal `(v1 - v0) × (v2 - v0)`, computed as `Triangle3::try_new` checks it
/// (so it is never zero).
#[inline]
fn normal(t: [Vec3; 3]) -> DVec3 {
    let v0 = t[0].as_dvec3();
    (t[1].as_dvec3() - v0).cross(t[2].as_dvec3() - v0)
}

/// Whether `a` comes before `b` in the fixed order the pair is computed in.
#[inline]
fn in_order(a: [Vec3; 3], b: [Vec3; 3]) -> bool {
    let key = |t: [Vec3; 3]| t.each(|v| v.to_array());
    let (ka, kb) = (key(a), key(b));
    let order = ka.iter().flatten().zip(kb.iter().flatten()).map(|(x, y)| x.total_cmp(y)).find(|o| o.is_ne());
    order != Some(Ordering::Greater)
}

/// The contact of two triangles that overlap (the exact test said so), `a` first.
#[inline]
fn overlapping_contact(a32: [Vec3; 3], b32: [Vec3; 3]) -> Contact3 {
    // The middle of the common bounding box (not empty: the triangles share a point).
    let box_of = |t: [Vec3; 3]| (t[0].min(t[1]).min(t[2]).as_dvec3(), t[0].max(t[1]).max(t[2]).as_dvec3());
    let ((lo_a, hi_a), (lo_b, hi_b)) = (box_of(a32), box_of(b32));
    let o = (lo_a.max(lo_b) + hi_a.min(hi_b)) / 2.0;
    let a = a32.each(|v| v.as_dvec3() - o);
    let b = b32.each(|v| v.as_dvec3() - o);
    let na = normal(a32);

    if b32.iter().all(|&x| orient3d(a32[0], a32[1], a32[2], x) == 0.0) {
        // Coplanar: touching as surfaces, whichever way the normal points.
        let n = na.normalize();
        let points = face_points(a, na, n, b, false);
        return finish(n, 0.0, points, a, b, o);
    }

    let nb = normal(b32);
    let (ea, eb) = (edges(a32), edges(b32));
    let mut face: Option<(f64, DVec3, Axis)> = None;
    let mut edge: Option<(f64, DVec3, Axis)> = None;
    let mut consider = |l: DVec3, floor: f64, axis: Axis| {
        let len = l.length();
        if len <= floor {
            return; // zero, or two edges too nearly parallel to tell their normal
        }
        let u = l / len;
        let ((a_lo, a_hi), (b_lo, b_hi)) = (extent(&a, u), extent(&b, u));
        // Move B along +u until its lowest point meets A's highest, or along -u.
        let (up, down) = (a_hi - b_lo, b_hi - a_lo);
        let (depth, n) = if up <= down { (up, u) } else { (down, -u) };
        let slot = if axis == Axis::Edge { &mut edge } else { &mut face };
        if slot.is_none_or(|(d, ..)| depth < d) {
            *slot = Some((depth, n, axis));
        }
    };
    consider(na, 0.0, Axis::FaceA);
    consider(nb, 0.0, Axis::FaceB);
    for u in ea {
        for v in eb {
            consider(u.cross(v), MIN_SINE * u.length() * v.length(), Axis::Edge);
        }
    }
    // The in-plane edge normals (|n × e| = |n| |e| up to rounding: never skipped).
    for (n, e) in [(na, ea), (nb, eb)] {
        for u in e {
            consider(n.cross(u), MIN_SINE * n.length() * u.length(), Axis::Edge);
        }
    }

    let slack = FACE_PREFERENCE * size(&a, &b);
    // The face normals are never zero for valid triangles; a fallback keeps this total.
    let face = face.unwrap_or((0.0, na.normalize(), Axis::FaceA));
    let (depth, n, axis) = match edge {
        Some(e) if e.0 < face.0 - slack => e,
        _ => face,
    };
    let points = match axis {
        Axis::FaceA => face_points(a, na, n, b, true),
        Axis::FaceB => face_points(b, nb, -n, a, true),
        Axis::Edge => {
            let tol = SUPPORT_TOL * size(&a, &b);
            let (pa, pb) = match (support(a, n, tol), support(b, -n, tol)) {
                (Some(fa), Some(fb)) => closest_points_segment_segment(fa, fb),
                // A whole triangle that far (one nearly perpendicular to the axis):
                // the closest points of the two features, one or both a triangle.
                (fa, fb) => {
                    let feature = |f: Option<(DVec3, DVec3)>, t| {
                        f.map_or(Core::Triangle(t), |(p, q)| Core::Segment(p, q))
                    };
                    let c = core_closest(&feature(fa, a), &feature(fb, b));
                    (c.on_a, c.on_b)
                }
            };
            let mut one = Polygon::EMPTY;
            one.push((pa + pb) / 2.0);
            one
        }
    };
    finish(n, depth, points, a, b, o)
}

/// The feature of `t` furthest along `d` (within `tol`), as a segment: an edge, or a
/// vertex (a segment of length zero); `None` when all three corners are that far (the
/// triangle nearly perpendicular to `d`): the feature is then the whole triangle.
///
/// (It was the triangle's longest edge, and the random pairs of `tests/contacts.rs` found
/// nearly coplanar triangles, crossing at a depth of `2e-8` of their size along an edge
/// axis within `1e-11` of the first one's normal, whose contact point was then `0.03` of
/// their size from the second: the edge of the second triangle reaching furthest toward
/// the first passes nowhere near that longest edge, only near the rest of the face.)
#[inline]
fn support(t: [DVec3; 3], d: DVec3, tol: f64) -> Option<(DVec3, DVec3)> {
    let s = t.each(|x| x.dot(d));
    let top = s[0].max(s[1]).max(s[2]);
    let far = [0, 1, 2].each(|k| s[k] >= top - tol);
    Some(match far {
        [true, true, true] => return None,
        [true, true, false] => (t[0], t[1]),
        [false, true, true] => (t[1], t[2]),
        [true, false, true] => (t[2], t[0]),
        _ => {
            let k = (0..3).fold(0, |best, k| if s[k] > s[best] { k } else { best });
            (t[k], t[k])
        }
    })
}

/// Clips `inc` by the prism of the reference triangle `r` (geometric normal `r_normal`)
/// and, when `behind`, by the reference plane: the part of `inc` on the far side of that
/// plane as seen along `nr` (unit, pointing from `r` toward where `inc` is pushed), each
/// corner moved halfway to the plane. At most 4 corners are kept.
#[inline]
fn face_points(r: [DVec3; 3], r_normal: DVec3, nr: DVec3, inc: [DVec3; 3], behind: bool) -> Polygon {
    let unit = r_normal.normalize();
    let mut poly = Polygon::EMPTY;
    inc.iter().for_each(|&x| poly.push(x));
    for k in 0..3 {
        // Outward in r's plane: r's corners run counterclockwise about its normal.
        let (p, q) = (r[k], r[(k + 1) % 3]);
        let out = (q - p).cross(unit);
        poly = clip(&poly, |x| (x - p).dot(out));
    }
    // Corners that clipping repeated (a corner of `inc` on a side plane, kept and then
    // met again as a crossing) count once.
    let tol = SUPPORT_TOL * size(&r, &inc);
    if !behind {
        return reduced(&distinct(&poly, tol), |_| 0.0, nr);
    }
    let h = r.iter().map(|x| x.dot(nr)).fold(f64::NEG_INFINITY, f64::max);
    let sep = |x: DVec3| x.dot(nr) - h;
    let poly = clip(&poly, sep);
    let mut mid = Polygon::EMPTY;
    poly.as_slice().iter().for_each(|&x| mid.push(x - nr * (sep(x) / 2.0)));
    // The depth of a midpoint is half its corner's; the reduction ranks by it.
    reduced(&distinct(&mid, tol), sep, nr)
}

/// `poly` without corners within `tol` (in each coordinate) of an earlier one.
#[inline]
fn distinct(poly: &Polygon, tol: f64) -> Polygon {
    let mut out = Polygon::EMPTY;
    for &x in poly.as_slice() {
        if !out.as_slice().iter().any(|y| (x - *y).abs().max_element() <= tol) {
            out.push(x);
        }
    }
    out
}

/// The largest coordinate of two triangles (relative to their common middle), in
/// magnitude: the scale of the rounding of their projections.
#[inline]
fn size(a: &[DVec3; 3], b: &[DVec3; 3]) -> f64 {
    crate::query::largest_coordinate(a, b)
}

/// At most 4 of `poly`'s corners: all of them, or the deepest (least `sep`), the one
/// farthest from it, and the two spanning the largest triangles with those on either
/// side (seen along `n`).
#[inline]
fn reduced(poly: &Polygon, sep: impl Fn(DVec3) -> f64, n: DVec3) -> Polygon {
    let pts = poly.as_slice();
    if pts.len() <= 4 {
        return *poly;
    }
    let deepest = (0..pts.len()).fold(0, |b, k| if sep(pts[k]) < sep(pts[b]) { k } else { b });
    let dist = |k: usize| (pts[k] - pts[deepest]).length_squared();
    let far = (0..pts.len()).fold(deepest, |b, k| if dist(k) > dist(b) { k } else { b });
    let area = |k: usize| (pts[far] - pts[deepest]).cross(pts[k] - pts[deepest]).dot(n);
    let left = (0..pts.len()).fold(deepest, |b, k| if area(k) > area(b) { k } else { b });
    let right = (0..pts.len()).fold(deepest, |b, k| if area(k) < area(b) { k } else { b });
    let mut out = Polygon::EMPTY;
    for k in [deepest, left, far, right] {
        if !out.as_slice().contains(&pts[k]) {
            out.push(pts[k]);
        }
    }
    out
}

/// The contact in `f32`, back in world coordinates (`o` is the origin of `a` and `b`);
/// an empty manifold becomes the midpoint of the triangles' closest points.
#[inline]
fn finish(n: DVec3, depth: f64, points: Polygon, a: [DVec3; 3], b: [DVec3; 3], o: DVec3) -> Contact3 {
    let mut out = ContactPoints3::EMPTY;
    for &p in points.as_slice() {
        out.push((p + o).as_vec3());
    }
    if out.is_empty() {
        let c = core_closest(&Core::Triangle(a), &Core::Triangle(b));
        out.push(((c.on_a + c.on_b) / 2.0 + o).as_vec3());
    }
    Contact3 { normal: n.as_vec3(), depth: depth.max(0.0) as f32, points: out }
}

impl Contact<Triangle3> for Triangle3 {
    type Output = Contact3;

    /// The minimum translation of two triangles by the separating-axis test, with up to 4
    /// contact points (see `query/contact/triangle_triangle.rs`). `None` exactly when the
    /// exact [`Overlaps`] test says they are apart. As for every pair, moving `other` by
    /// `normal * depth` leaves the two only touching. Coplanar triangles only touch: depth
    /// zero, along the first one's normal, with the corners of their common polygon.
    ///
    /// ```
    /// use raybox::{Contact, Triangle3};
    /// use glam::Vec3;
    ///
    /// let floor = Triangle3::new(Vec3::new(-6.0, -6.0, 0.0), Vec3::new(12.0, -6.0, 0.0), Vec3::new(-6.0, 12.0, 0.0));
    /// // A blade in the plane y = 0, its lowest corner 0.25 below the floor.
    /// let blade = Triangle3::new(Vec3::new(0.0, 0.0, -0.25), Vec3::new(1.0, 0.0, 3.0), Vec3::new(-1.0, 0.0, 3.0));
    /// let c = floor.contact(&blade).unwrap();
    /// assert_eq!((c.normal, c.depth), (Vec3::Z, 0.25)); // lift the blade by 0.25
    /// assert_eq!(c.points.len(), 3); // its tip, halfway up, and where it crosses the floor
    /// assert!(floor.contact(&Triangle3::new(Vec3::Z, Vec3::new(1.0, 0.0, 3.0), Vec3::new(-1.0, 0.0, 3.0))).is_none());
    /// ```
    #[inline]
    fn contact(&self, other: &Triangle3) -> Option<Contact3> {
        if !self.overlaps(other) {
            return None;
        }
        let (a, b) = (self.vertices(), other.vertices());
        Some(if in_order(a, b) { overlapping_contact(a, b) } else { overlapping_contact(b, a).flipped() })
    }
}

#[cfg(test)]
mod tests {
    use crate::arrays::Each;
    use crate::{ClosestPoint, Contact, Contact3, Overlaps, Triangle3};
    use glam::Vec3;

    fn tri(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> Triangle3 {
        Triangle3::new(Vec3::from(a), Vec3::from(b), Vec3::from(c))
    }

    /// `a.contact(b)`, checked against `b.contact(a)` (the normal reversed, all else equal).
    fn contact(a: &Triangle3, b: &Triangle3) -> Option<Contact3> {
        let (ab, ba) = (a.contact(b), b.contact(a));
        assert_eq!(ab.map(Contact3::flipped), ba, "the reverse pair");
        assert_eq!(ab.is_some(), a.overlaps(b), "Some exactly when overlapping");
        ab
    }

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-6
    }

    /// Whether `got` holds the points `want` (in any order) and no others.
    fn same_points(got: &[Vec3], want: &[Vec3]) -> bool {
        got.len() == want.len() && want.iter().all(|w| got.iter().any(|g| close(*g, *w)))
    }

    /// A long triangle crossed near its middle by a small one: the edge axis (depth 0.1)
    /// wins over a face axis (depth 0.28) however long the first triangle is. (A review's
    /// case, 2026-11-24: with the face preference relative to the edges' lengths, the face
    /// won at 1e6.)
    #[test]
    fn a_long_triangle_does_not_widen_the_face_preference() {
        for long in [1.0f32, 1e3, 1e6] {
            let a = tri([-long, 0.0, 0.0], [long, 0.0, 0.0], [0.0, 0.0, -1.0]);
            let b = tri([0.0, -0.28, -0.1], [0.0, 0.28, -0.1], [0.0, 0.0, 2.0]);
            let c = contact(&a, &b).unwrap();
            assert!(close(c.normal, Vec3::Z) && (c.depth - 0.1).abs() < 1e-6, "{long}: {c:?}");
            let moved = |d: f32| tri([0.0, -0.28, -0.1 + d], [0.0, 0.28, -0.1 + d], [0.0, 0.0, 2.0 + d]);
            assert!(!a.overlaps(&moved(c.depth * 1.0001)));
        }
    }

    fn floor() -> Triangle3 {
        tri([-6.0, -6.0, 0.0], [12.0, -6.0, 0.0], [-6.0, 12.0, 0.0])
    }

    #[test]
    fn a_corner_through_a_face_is_lifted_out() {
        // A blade in the plane y = 0, its lowest corner 0.25 below the floor: lifting it by
        // 0.25 is the shortest way out (sideways: at least 1; along y: 6).
        let blade = tri([0.0, 0.0, -0.25], [1.0, 0.0, 3.0], [-1.0, 0.0, 3.0]);
        let c = contact(&floor(), &blade).unwrap();
        assert_eq!((c.normal, c.depth), (Vec3::Z, 0.25));
        // The corner, halfway up, and the two points where the blade's edges cross the
        // floor, at x = ±0.25 / 3.25.
        let x = 1.0 / 13.0;
        let want = [Vec3::new(0.0, 0.0, -0.125), Vec3::new(x, 0.0, 0.0), Vec3::new(-x, 0.0, 0.0)];
        assert!(same_points(&c.points, &want), "{c:?}");
        // From the blade's side: the floor goes down.
        assert_eq!(contact(&blade, &floor()).unwrap().normal, -Vec3::Z);
        // The blade raised a hair above the floor: apart.
        let raised = tri([0.0, 0.0, 1e-6], [1.0, 0.0, 3.0], [-1.0, 0.0, 3.0]);
        assert!(contact(&floor(), &raised).is_none());
    }

    #[test]
    fn a_shallow_face_against_a_steep_one_uses_the_other_face() {
        // The floor's corner (-6, -6, 0) pokes 0.5 through a wall in the plane x = -5.5
        // that reaches 1 above and below the floor: pushing the wall along -x by 0.5, past
        // the floor's edge x = -6, frees it (lifting it: 1; along y: 2).
        let wall = tri([-5.5, -8.0, -1.0], [-5.5, -4.0, -1.0], [-5.5, -6.0, 1.0]);
        let c = contact(&floor(), &wall).unwrap();
        assert!(c.normal == -Vec3::X && c.depth == 0.5, "{c:?}");
        // The wall's face is the reference: the floor's part behind it (x in [-6, -5.5]),
        // within the wall's prism (y in [-7, -5] at z = 0) and on the floor (y >= -6), its
        // corners moved halfway to the wall's plane.
        let want =
            [[-5.75, -6.0], [-5.5, -6.0], [-5.5, -5.0], [-5.75, -5.0]].each(|[x, y]| Vec3::new(x, y, 0.0));
        assert!(same_points(&c.points, &want), "{c:?}");
    }

    #[test]
    fn crossing_edges_are_pushed_apart_along_their_common_normal() {
        // An X: A hangs below its edge along x at z = 0, B stands on its edge along y at
        // z = -0.1. The edges cross 0.1 deep; lifting B by 0.1 along x × y = z frees it,
        // while both faces (x = 0 and y = 0) would need 2.
        let a = tri([-2.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, -2.0]);
        let b = tri([0.0, -2.0, -0.1], [0.0, 2.0, -0.1], [0.0, 0.0, 2.0]);
        let c = contact(&a, &b).unwrap();
        assert_eq!((c.normal, c.depth), (Vec3::Z, 0.1));
        assert_eq!(c.points.len(), 1);
        assert!(close(c.points[0], Vec3::new(0.0, 0.0, -0.05)), "{c:?}");
        // Tilted planes, the same crossing: only the cross product of the edges is z (the
        // in-plane normals of the crossing edges are not).
        let tilted_a = tri([-2.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 1.0, -2.0]);
        let tilted_b = tri([0.0, -2.0, -0.1], [0.0, 2.0, -0.1], [1.0, 0.0, 2.0]);
        let c = contact(&tilted_a, &tilted_b).unwrap();
        assert_eq!((c.normal, c.depth), (Vec3::Z, 0.1));
        assert_eq!(c.points.len(), 1);
        assert!(close(c.points[0], Vec3::new(0.0, 0.0, -0.05)), "{c:?}");
        // Turned about z, the same crossing: the common normal is still z.
        let q = glam::Quat::from_rotation_z(0.7);
        let (ra, rb) = (a.vertices().each(|v| q * v), b.vertices().each(|v| q * v));
        let c = contact(&Triangle3::new(ra[0], ra[1], ra[2]), &Triangle3::new(rb[0], rb[1], rb[2])).unwrap();
        assert!(close(c.normal, Vec3::Z) && (c.depth - 0.1).abs() < 1e-6, "{c:?}");
        assert!(close(c.points[0], Vec3::new(0.0, 0.0, -0.05)), "{c:?}");
        // B lowered to z = 0.001 above A's edge: apart.
        let above = tri([0.0, -2.0, 0.001], [0.0, 2.0, 0.001], [0.0, 0.0, 2.0]);
        assert!(contact(&a, &above).is_none());
    }

    #[test]
    fn coplanar_triangles_only_touch() {
        // Overlapping in the plane z = 0: moving either off the plane by any amount
        // separates them, so the depth is zero along the plane's normal (of the triangle
        // computed first: the one whose coordinates come first). The points are the corners
        // of the common triangle (1, 1), (3, 1), (1, 3).
        let a = tri([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
        let b = tri([1.0, 1.0, 0.0], [5.0, 1.0, 0.0], [1.0, 5.0, 0.0]);
        let c = contact(&a, &b).unwrap();
        assert_eq!((c.normal, c.depth), (Vec3::Z, 0.0));
        let want = [Vec3::new(1.0, 1.0, 0.0), Vec3::new(3.0, 1.0, 0.0), Vec3::new(1.0, 3.0, 0.0)];
        assert!(same_points(&c.points, &want), "{c:?}");
        // b's vertex order reversed: the same answer.
        let b_rev = tri([1.0, 1.0, 0.0], [1.0, 5.0, 0.0], [5.0, 1.0, 0.0]);
        assert_eq!(contact(&a, &b_rev).map(|c| (c.normal, c.depth)), Some((Vec3::Z, 0.0)));
        // In the tilted plane 7x + 11y + 13z = 1001, where the f64 projections on the unit
        // normal round (the separating-axis arithmetic alone gave a depth of 3.6e-15): still
        // exactly zero, with points on both triangles.
        let ta = tri([14.0, 10.0, 61.0], [-31.0, -37.0, 125.0], [50.0, 6.0, 45.0]);
        let tb = tri([-10.0, -9.0, 90.0], [-1.0, 42.0, 42.0], [58.0, -18.0, 61.0]);
        let c = contact(&ta, &tb).unwrap();
        assert_eq!(c.depth, 0.0, "{c:?}");
        assert!(close(c.normal.abs(), Vec3::new(7.0, 11.0, 13.0).normalize()), "{c:?}");
        assert!(!c.points.is_empty() && c.points.len() <= 4, "{c:?}");
        for p in &c.points {
            assert!(ta.distance_to_point(*p) < 1e-4 && tb.distance_to_point(*p) < 1e-4, "{c:?}");
        }
        // In the plane 2x + 3y + 5z = 30: b inside a, on two of its edges, gives its 3
        // corners (each once, though clipping meets the two on a's edges twice). (`b`
        // comes first in the fixed order: the normal is its own, reversed.)
        let ta = tri([15.0, 0.0, 0.0], [0.0, 10.0, 0.0], [0.0, 0.0, 6.0]);
        let tb = tri([5.0, 5.0, 1.0], [10.0, 0.0, 2.0], [0.0, 5.0, 3.0]);
        let c = contact(&ta, &tb).unwrap();
        assert_eq!(c.depth, 0.0, "{c:?}");
        assert!(close(c.normal, -tb.unit_normal()), "{c:?}");
        assert!(same_points(&c.points, &tb.vertices()), "{c:?}");
        // A hexagon of overlap (a star of David) is reduced to 4 of its 6 corners.
        let up = tri([0.0, 0.0, 5.0], [6.0, 0.0, 5.0], [3.0, 6.0, 5.0]);
        let down = tri([0.0, 4.0, 5.0], [3.0, -2.0, 5.0], [6.0, 4.0, 5.0]);
        let c = contact(&up, &down).unwrap();
        assert_eq!(c.depth, 0.0);
        assert!(close(c.normal.abs(), Vec3::Z), "{c:?}");
        assert_eq!(c.points.len(), 4);
        for p in &c.points {
            assert!(p.z == 5.0 && up.distance_to_point(*p) < 1e-6 && down.distance_to_point(*p) < 1e-6);
        }
        // Lifted by the smallest step: apart.
        let lifted = tri([1.0, 1.0, f32::from_bits(1)], [5.0, 1.0, 0.0], [1.0, 5.0, 0.0]);
        assert!(contact(&a, &lifted).is_none());
    }

    #[test]
    fn touching_at_a_vertex_gives_depth_zero() {
        // B stands on A's face with one corner, at (1, 1, 0).
        let a = tri([0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
        let b = tri([1.0, 1.0, 0.0], [0.0, 1.0, 3.0], [2.0, 1.0, 3.0]);
        let c = contact(&a, &b).unwrap();
        assert_eq!((c.normal, c.depth, c.points.as_slice()), (Vec3::Z, 0.0, &[Vec3::new(1.0, 1.0, 0.0)][..]));
        // Corner on corner, the triangles leaning away from each other.
        let d = tri([0.0, 0.0, 0.0], [-1.0, 0.0, 1.0], [0.0, -1.0, 1.0]);
        let c = contact(&a, &d).unwrap();
        assert_eq!(c.depth, 0.0, "{c:?}");
        assert!((c.normal.length() - 1.0).abs() < 1e-6 && c.points.len() == 1, "{c:?}");
        assert!(c.points[0].length() < 1e-6, "{c:?}");
        // Edge on edge: B's edge along y crosses A's edge along x at the origin.
        let e = tri([0.0, -1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, -2.0]);
        let c = contact(&a, &e).unwrap();
        assert_eq!(c.depth, 0.0, "{c:?}");
        assert!(c.points.iter().any(|p| p.length() < 1e-6), "{c:?}");
    }

    /// Two nearly coplanar triangles sharing a corner (to `f32` rounding), found by the
    /// random pairs of `tests/contacts.rs` at the scale `1e20`: the least push is along the
    /// cross product of two of their edges, within `1e-11` of the first one's normal, at a
    /// depth of `2e-8` of their size. All three corners of the first were then within the
    /// support tolerance along it, and the contact point came from its longest edge,
    /// `6e18` from the second triangle. The same pair at `1e-20` and `1` (scaled by powers
    /// of two, so exactly the same geometry): each point is within `depth / 2` of both
    /// triangles, up to the `f32` rounding of the point.
    #[test]
    fn a_nearly_coplanar_pair_has_its_point_on_both() {
        let a = [
            [8.436048e19, -4.404759e19, -1.776746e20],
            [9.476434e19, -1.8671375e20, -9.787023e19],
            [1.8357717e20, -1.0610636e20, 4.742273e19],
        ];
        let b = [
            [9.850963e19, -6.6940023e19, -1.3977772e20],
            [8.752045e19, -2.3736447e20, -9.152806e19],
            [8.4360425e19, -4.4047575e19, -1.7767459e20],
        ];
        for steps in 0..3 {
            // Scaled by 2^-66 (exact) 0, 1 or 2 times: about 1e20, 1 and 1e-20.
            let s = |x: f32| (0..steps).fold(x, |x, _| x * 2f32.powi(-66));
            let t = |[p, q, r]: [[f32; 3]; 3]| tri(p.each(s), q.each(s), r.each(s));
            let (a, b) = (t(a), t(b));
            let size = s(2e20);
            let c = contact(&a, &b).unwrap();
            assert!(c.depth > 0.0 && c.depth < 1e-7 * size, "{size}: {c:?}");
            // Above the f32 rounding of a point's coordinates (a few 1e-8 of them).
            let tol = c.depth / 2.0 + 1e-7 * size;
            for p in &c.points {
                let (da, db) = (a.distance_to_point(*p), b.distance_to_point(*p));
                assert!(da <= tol && db <= tol, "{size}: {p} is {da} from a and {db} from b: {c:?}");
            }
        }
    }

    #[test]
    fn slivers_give_finite_answers() {
        // A triangle 1e-30 high against a crossing one, and against itself shifted.
        let sliver = tri([0.0, 0.0, 0.0], [1.0, 0.0, 1e-30], [2.0, 0.0, 0.0]);
        let cross = tri([1.0, -1.0, -1.0], [1.0, 1.0, -1.0], [1.0, 0.0, 1.0]);
        for (a, b) in [(sliver, cross), (sliver, floor()), (cross, floor())] {
            if let Some(c) = contact(&a, &b) {
                assert!(c.normal.is_finite() && (c.normal.length() - 1.0).abs() < 1e-6, "{c:?}");
                assert!(c.depth.is_finite() && c.depth >= 0.0 && !c.points.is_empty(), "{c:?}");
                assert!(c.points.iter().all(|p| p.is_finite()), "{c:?}");
            }
        }
        assert!(contact(&sliver, &cross).is_some());
    }
}
