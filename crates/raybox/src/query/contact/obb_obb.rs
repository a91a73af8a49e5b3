//! Oriented box against oriented box, 2D and 3D: the penetration axis by the
//! separating-axis test, then a contact manifold by reference-face clipping.
//!
//! **Depth.** For every candidate axis `L` of the SAT (see `overlap/obb_obb.rs`: 4 face
//! axes in 2D; 3 + 3 face axes and the 9 edge cross products in 3D, exact zeros skipped),
//! the boxes' projections overlap by `r_a + r_b - |T·L|`, and B leaves A along `L` after
//! moving `(r_a + r_b - |T·L|) / |L|`. The smallest of these is the exact minimum
//! translation distance for boxes (Gottschalk, Lin & Manocha 1996; Ericson, *Real-Time
//! Collision Detection*, 4.4 and 5.5; Dirk Gregorius, *The Separating Axis Test*, GDC
//! 2013). The arithmetic is the overlap test's, in `f64`, so `contact` is `Some` exactly
//! when `overlaps` is true.
//!
//! **Manifold** (Box2D's `b2ClipPolygons`, Gregorius's and ODE's `dBoxBox` in spirit):
//! - *face axis*: the face of that box across the normal is the reference face; the face
//!   of the other box most opposed to it is the incident face. The incident face (a
//!   segment in 2D, a quad in 3D) is clipped by the side planes of the reference face
//!   (Sutherland–Hodgman), and the clipped vertices that lie behind the reference face are
//!   kept, each moved halfway to it. In 3D, more than 4 are reduced to 4: the deepest,
//!   the farthest from it, and the two that span the largest triangles on either side.
//! - *edge axis* (3D only; 2D has none): the supporting edges of the two boxes along the
//!   normal, and the midpoint of their closest points (one point).
//!
//! **Face preference.** A near-null edge cross product is a valid axis but a poor
//! contact feature: an edge axis is only taken when it is shallower than the best face
//! axis by more than [`EDGE_PREFERENCE`] of the boxes' size. The depth reported is
//! always the chosen axis's, so it can exceed the exact minimum by at most that much.

use crate::arrays::Each;
use glam::{DVec2, DVec3, Vec2, Vec3};

use super::in_fixed_order;
use crate::query::closest::closest_points_segment_segment;
use crate::query::overlap::{aabb_centre_half2, aabb_centre_half3};
use crate::{Aabb2, Aabb3, Contact, Contact2, Contact3, ContactPoints2, ContactPoints3, Obb2, Obb3};

/// How much shallower (relative to the sum of the boxes' largest half extents) an
/// edge–edge axis must be than the best face axis to be chosen over it. Small enough to
/// be far below the `f32` tolerance of a depth, large enough to ignore the rounding noise
/// of near-parallel edges.
pub(crate) const EDGE_PREFERENCE: f64 = 1e-7;

/// A 2D box in `f64`: centre, unit axes, half extents.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Box2 {
    pub c: DVec2,
    pub axes: [DVec2; 2],
    pub h: [f64; 2],
}

/// A 3D box in `f64`: centre, unit axes, half extents.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Box3 {
    pub c: DVec3,
    pub axes: [DVec3; 3],
    pub h: [f64; 3],
}

impl Box2 {
    #[inline]
    pub(crate) fn from_obb(b: &Obb2) -> Self {
        Self {
            c: b.center().as_dvec2(),
            axes: b.axes().each(Vec2::as_dvec2),
            h: b.half_extents().as_dvec2().into(),
        }
    }
    /// The box as the overlap test sees it (an OBB with the identity rotation, its centre
    /// and half extents in `f64` from the corners).
    #[inline]
    pub(crate) fn from_aabb(b: &Aabb2) -> Self {
        let (c, h) = aabb_centre_half2(b);
        Self { c, axes: [DVec2::X, DVec2::Y], h: h.into() }
    }
    #[inline]
    fn radius(&self, l: DVec2) -> f64 {
        (0..2).map(|k| self.h[k] * self.axes[k].dot(l).abs()).sum()
    }
}

impl Box3 {
    #[inline]
    pub(crate) fn from_obb(b: &Obb3) -> Self {
        Self {
            c: b.center().as_dvec3(),
            axes: b.axes().each(Vec3::as_dvec3),
            h: b.half_extents().as_dvec3().into(),
        }
    }
    /// The box as the overlap test sees it (an OBB with the identity rotation, its centre
    /// and half extents in `f64` from the corners).
    #[inline]
    pub(crate) fn from_aabb(b: &Aabb3) -> Self {
        let (c, h) = aabb_centre_half3(b);
        Self { c, axes: [DVec3::X, DVec3::Y, DVec3::Z], h: h.into() }
    }
    #[inline]
    fn radius(&self, l: DVec3) -> f64 {
        (0..3).map(|k| self.h[k] * self.axes[k].dot(l).abs()).sum()
    }
    /// The sum of the half-extent vectors' lengths: an upper bound of the half diagonal.
    #[inline]
    pub(crate) fn size(&self) -> f64 {
        self.h.iter().sum()
    }
}

/// `1` for `x >= 0` (zero picks either side consistently), `-1` otherwise.
#[inline]
fn sign(x: f64) -> f64 {
    if x < 0.0 { -1.0 } else { 1.0 }
}

/// Which feature the penetration axis came from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Axis {
    FaceA(usize),
    FaceB(usize),
    Edge(usize, usize),
}

// ---------------------------------------------------------------------------------------
// 2D
// ---------------------------------------------------------------------------------------

/// The contact of two 2D boxes, or `None` when a face axis separates them.
#[inline]
pub(crate) fn box2_box2_contact(a: &Box2, b: &Box2) -> Option<Contact2> {
    let t = b.c - a.c;
    let mut best: Option<(f64, DVec2, Axis)> = None;
    let axes = [(a.axes[0], Axis::FaceA(0)), (a.axes[1], Axis::FaceA(1))]
        .into_iter()
        .chain([(b.axes[0], Axis::FaceB(0)), (b.axes[1], Axis::FaceB(1))]);
    for (l, feature) in axes {
        let (r, tl) = (a.radius(l) + b.radius(l), t.dot(l));
        if tl.abs() > r {
            return None;
        }
        let len = l.length();
        let depth = (r - tl.abs()) / len;
        if best.is_none_or(|(d, ..)| depth < d) {
            best = Some((depth, l / len * sign(tl), feature));
        }
    }
    let (depth, n, feature) = best?;
    let mut points = ContactPoints2::EMPTY;
    match feature {
        Axis::FaceA(i) => face_points_2d(a, i, n, b, &mut points),
        Axis::FaceB(j) => face_points_2d(b, j, -n, a, &mut points),
        Axis::Edge(..) => unreachable!("2D boxes have no edge–edge axes"),
    }
    Some(Contact2 { normal: n.as_vec2(), depth: depth.max(0.0) as f32, points })
}

/// Clips the incident edge of `inc` against the reference face `i` of `r` (outward
/// normal `nr`, pointing at `inc`), keeping the points behind that face.
#[inline]
fn face_points_2d(r: &Box2, i: usize, nr: DVec2, inc: &Box2, out: &mut ContactPoints2) {
    let fc = r.c + nr * r.h[i];
    let (u, w) = (r.axes[1 - i], r.h[1 - i]);
    // Incident edge: the face of `inc` whose outward normal is most opposed to nr.
    let m = if inc.axes[0].dot(nr).abs() >= inc.axes[1].dot(nr).abs() { 0 } else { 1 };
    let ic = inc.c - inc.axes[m] * (inc.h[m] * sign(inc.axes[m].dot(nr)));
    let side = inc.axes[1 - m] * inc.h[1 - m];
    let (mut p, mut q) = (ic - side, ic + side);
    // Clip to -w <= (x - fc)·u <= w.
    for (dir, limit) in [(u, w), (-u, w)] {
        let (dp, dq) = ((p - fc).dot(dir) - limit, (q - fc).dot(dir) - limit);
        if dp > 0.0 && dq > 0.0 {
            // Rounding pushed the whole edge past a side plane: keep its nearer end.
            if dp < dq { q = p } else { p = q }
        } else if dp > 0.0 {
            p += (q - p) * (dp / (dp - dq));
        } else if dq > 0.0 {
            q += (p - q) * (dq / (dq - dp));
        }
    }
    let candidates = if p == q { &[p][..] } else { &[p, q][..] };
    let sep = |x: DVec2| (x - fc).dot(nr);
    let behind = candidates.iter().filter(|&&x| sep(x) <= 0.0);
    for &x in behind {
        out.push((x - nr * (sep(x) / 2.0)).as_vec2());
    }
    if out.is_empty() {
        // A touching contact that rounding put a hair in front: keep the nearest point.
        let x = if sep(p) <= sep(q) { p } else { q };
        out.push((x - nr * (sep(x) / 2.0)).as_vec2());
    }
}

// ---------------------------------------------------------------------------------------
// 3D
// ---------------------------------------------------------------------------------------

/// The contact of two 3D boxes, or `None` when some axis separates them.
#[inline]
pub(crate) fn box3_box3_contact(a: &Box3, b: &Box3) -> Option<Contact3> {
    let t = b.c - a.c;
    let mut face: Option<(f64, DVec3, Axis)> = None;
    let mut edge: Option<(f64, DVec3, Axis)> = None;
    let faces =
        (0..3).map(|i| (a.axes[i], Axis::FaceA(i))).chain((0..3).map(|j| (b.axes[j], Axis::FaceB(j))));
    let edges = (0..9).map(|k| (a.axes[k / 3].cross(b.axes[k % 3]), Axis::Edge(k / 3, k % 3)));
    for (l, feature) in faces.chain(edges) {
        if l == DVec3::ZERO {
            continue; // parallel edges: the face axes cover them
        }
        let (r, tl) = (a.radius(l) + b.radius(l), t.dot(l));
        if tl.abs() > r {
            return None;
        }
        let len = l.length();
        let depth = (r - tl.abs()) / len;
        let slot = if matches!(feature, Axis::Edge(..)) { &mut edge } else { &mut face };
        if slot.is_none_or(|(d, ..)| depth < d) {
            *slot = Some((depth, l / len * sign(tl), feature));
        }
    }
    let face = face?;
    let slack = EDGE_PREFERENCE * (a.size() + b.size());
    let (depth, n, feature) = match edge {
        Some(e) if e.0 < face.0 - slack => e,
        _ => face,
    };
    let mut points = ContactPoints3::EMPTY;
    match feature {
        Axis::FaceA(i) => face_points_3d(a, i, n, b, &mut points),
        Axis::FaceB(j) => face_points_3d(b, j, -n, a, &mut points),
        Axis::Edge(i, j) => {
            // The edges of A and B that reach furthest toward each other along n.
            let mut ca = a.c;
            let mut cb = b.c;
            for k in 0..3 {
                if k != i {
                    ca += a.axes[k] * (a.h[k] * sign(a.axes[k].dot(n)));
                }
                if k != j {
                    cb -= b.axes[k] * (b.h[k] * sign(b.axes[k].dot(n)));
                }
            }
            let (ea, eb) = (a.axes[i] * a.h[i], b.axes[j] * b.h[j]);
            let (pa, pb) = closest_points_segment_segment((ca - ea, ca + ea), (cb - eb, cb + eb));
            points.push(((pa + pb) / 2.0).as_vec3());
        }
    }
    Some(Contact3 { normal: n.as_vec3(), depth: depth.max(0.0) as f32, points })
}

/// A polygon of up to 8 vertices (a quad clipped by 4 planes).
struct Polygon {
    v: [DVec3; 8],
    len: usize,
}

impl Polygon {
    #[inline]
    fn push(&mut self, p: DVec3) {
        if self.len < 8 {
            self.v[self.len] = p;
            self.len += 1;
        }
    }
    #[inline]
    fn as_slice(&self) -> &[DVec3] {
        &self.v[..self.len]
    }
}

/// Sutherland–Hodgman: the part of `poly` where `(x - o)·dir <= limit`.
#[inline]
fn clip(poly: &Polygon, o: DVec3, dir: DVec3, limit: f64) -> Polygon {
    let mut out = Polygon { v: [DVec3::ZERO; 8], len: 0 };
    let verts = poly.as_slice();
    for (k, &p) in verts.iter().enumerate() {
        let q = verts[(k + 1) % verts.len()];
        let (dp, dq) = ((p - o).dot(dir) - limit, (q - o).dot(dir) - limit);
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
            out.push(p + (q - p) * (dp / (dp - dq)));
        }
    }
    out
}

/// Clips the incident face of `inc` against the reference face `i` of `r` (outward normal
/// `nr`, pointing at `inc`), keeping at most 4 of the points behind the reference face.
#[inline]
fn face_points_3d(r: &Box3, i: usize, nr: DVec3, inc: &Box3, out: &mut ContactPoints3) {
    let fc = r.c + nr * r.h[i];
    // Incident face: the face of `inc` whose outward normal is most opposed to nr.
    let m = (0..3).fold(0, |m, k| if inc.axes[k].dot(nr).abs() > inc.axes[m].dot(nr).abs() { k } else { m });
    let ic = inc.c - inc.axes[m] * (inc.h[m] * sign(inc.axes[m].dot(nr)));
    let (p, q) = ((m + 1) % 3, (m + 2) % 3);
    let (u, v) = (inc.axes[p] * inc.h[p], inc.axes[q] * inc.h[q]);
    let incident = [ic + u + v, ic - u + v, ic - u - v, ic + u - v];
    let mut poly = Polygon { v: [DVec3::ZERO; 8], len: 0 };
    incident.iter().for_each(|&x| poly.push(x));
    for s in [(i + 1) % 3, (i + 2) % 3] {
        poly = clip(&poly, fc, r.axes[s], r.h[s]);
        poly = clip(&poly, fc, -r.axes[s], r.h[s]);
    }
    let sep = |x: DVec3| (x - fc).dot(nr);
    let mut kept = Polygon { v: [DVec3::ZERO; 8], len: 0 };
    for &x in poly.as_slice() {
        if sep(x) <= 0.0 {
            kept.push(x);
        }
    }
    if kept.len == 0 {
        // A touching contact that rounding put a hair in front (or clipped away): keep
        // the nearest clipped vertex, or the nearest incident vertex.
        let pool = if poly.len > 0 { poly.as_slice() } else { &incident[..] };
        let x = pool.iter().copied().fold(pool[0], |best, x| if sep(x) < sep(best) { x } else { best });
        kept.push(x);
    }
    let mid = |x: DVec3| (x - nr * (sep(x) / 2.0)).as_vec3();
    let pts = kept.as_slice();
    if pts.len() <= 4 {
        pts.iter().for_each(|&x| out.push(mid(x)));
        return;
    }
    // Reduce to 4: the deepest point, the one farthest from it, and the two spanning the
    // largest triangles on either side of the line between those.
    let deepest = (0..pts.len()).fold(0, |b, k| if sep(pts[k]) < sep(pts[b]) { k } else { b });
    let d = |k: usize| (pts[k] - pts[deepest]).length_squared();
    let far = (0..pts.len()).fold(deepest, |b, k| if d(k) > d(b) { k } else { b });
    let area = |k: usize| (pts[far] - pts[deepest]).cross(pts[k] - pts[deepest]).dot(nr);
    let left = (0..pts.len()).fold(deepest, |b, k| if area(k) > area(b) { k } else { b });
    let right = (0..pts.len()).fold(deepest, |b, k| if area(k) < area(b) { k } else { b });
    for k in [deepest, left, far, right] {
        let x = mid(pts[k]);
        if !out.contains(&x) {
            out.push(x);
        }
    }
}

impl Contact<Obb2> for Obb2 {
    type Output = Contact2;

    #[inline]
    fn contact(&self, other: &Obb2) -> Option<Contact2> {
        in_fixed_order(
            self,
            other,
            |a, b| box2_box2_contact(&Box2::from_obb(a), &Box2::from_obb(b)),
            Contact2::flipped,
        )
    }
}

impl Contact<Obb3> for Obb3 {
    type Output = Contact3;

    #[inline]
    fn contact(&self, other: &Obb3) -> Option<Contact3> {
        in_fixed_order(
            self,
            other,
            |a, b| box3_box3_contact(&Box3::from_obb(a), &Box3::from_obb(b)),
            Contact3::flipped,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;
    use std::f32::consts::{FRAC_PI_4, SQRT_2};

    fn close3(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn face_face_gives_the_incident_face_clipped() {
        // B (half 0.5, turned 30 degrees about z) sinks 0.25 into A's top face z = 1.
        let a = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::IDENTITY);
        let q = Quat::from_rotation_z(std::f32::consts::FRAC_PI_6);
        let b = Obb3::new(Vec3::new(0.0, 0.0, 1.25), Vec3::splat(0.5), q);
        let c = a.contact(&b).unwrap();
        assert!(close3(c.normal, Vec3::Z) && (c.depth - 0.25).abs() < 1e-6, "{c:?}");
        assert_eq!(c.points.len(), 4);
        for p in &c.points {
            assert!((p.z - 0.875).abs() < 1e-6, "{p}");
            let corner = q.inverse() * Vec3::new(p.x, p.y, 0.0);
            assert!((corner.x.abs() - 0.5).abs() < 1e-5 && (corner.y.abs() - 0.5).abs() < 1e-5, "{p}");
        }
        let r = b.contact(&a).unwrap();
        assert!(close3(r.normal, -Vec3::Z) && r.depth == c.depth);
    }

    #[test]
    fn wide_incident_face_is_clipped_to_the_reference_face() {
        // A small box resting on a large one: the large one's top face is clipped to the
        // small one's bottom face, which is then the reference (a face of B).
        let big = Obb3::new(Vec3::ZERO, Vec3::new(5.0, 5.0, 1.0), Quat::IDENTITY);
        let small = Obb3::new(Vec3::new(1.0, 2.0, 1.4), Vec3::new(0.5, 0.25, 0.5), Quat::IDENTITY);
        let c = big.contact(&small).unwrap();
        assert!(close3(c.normal, Vec3::Z) && (c.depth - 0.1).abs() < 1e-6, "{c:?}");
        assert_eq!(c.points.len(), 4);
        for p in &c.points {
            assert!((p.x - 1.0).abs() - 0.5 < 1e-6 && (p.y - 2.0).abs() - 0.25 < 1e-6, "{p}");
            assert!((p.z - 0.95).abs() < 1e-6, "{p}");
        }
    }

    #[test]
    fn octagon_overlap_is_reduced_to_four_points() {
        // Two equal cubes face to face, one turned 45 degrees: the incident square clipped
        // by the reference square is an octagon; 4 of its 8 corners are kept, spread out.
        let a = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::IDENTITY);
        let b = Obb3::new(Vec3::new(0.0, 0.0, 1.9), Vec3::ONE, Quat::from_rotation_z(FRAC_PI_4));
        let c = a.contact(&b).unwrap();
        assert!(close3(c.normal, Vec3::Z) && (c.depth - 0.1).abs() < 1e-6, "{c:?}");
        assert_eq!(c.points.len(), 4);
        for p in &c.points {
            // On the octagon's boundary: inside A's top face and inside B's turned face.
            assert!((p.z - 0.95).abs() < 1e-6 && p.x.abs() <= 1.0 + 1e-6 && p.y.abs() <= 1.0 + 1e-6, "{p}");
            assert!((p.x + p.y).abs() <= SQRT_2 + 1e-5 && (p.x - p.y).abs() <= SQRT_2 + 1e-5, "{p}");
            assert!(
                (p.x.abs() - 1.0).abs() < 1e-5 || (p.y.abs() - 1.0).abs() < 1e-5,
                "{p} is not on the octagon"
            );
        }
        // Spread out: the four points span a quadrilateral of area at least half the octagon's.
        let q = c.points.as_slice();
        let area = ((q[2] - q[0]).cross(q[3] - q[1])).length() / 2.0;
        assert!(area > 3.3 / 2.0, "area {area}: {q:?}");
    }

    #[test]
    fn edge_edge_gives_one_point_between_the_edges() {
        // A's vertical edge at x = sqrt(2)/2 and B's horizontal edge (along y) at
        // x = cx - sqrt(2)/2 cross, 0.01 deep: only the axis z × y = -x sees that.
        let a = Obb3::new(Vec3::ZERO, Vec3::splat(0.5), Quat::from_rotation_z(FRAC_PI_4));
        let b =
            Obb3::new(Vec3::new(SQRT_2 - 0.01, 0.0, 0.0), Vec3::splat(0.5), Quat::from_rotation_y(FRAC_PI_4));
        let c = a.contact(&b).unwrap();
        assert!(close3(c.normal, Vec3::X), "{c:?}");
        assert!((c.depth - 0.01).abs() < 1e-6, "{c:?}");
        assert_eq!(c.points.len(), 1);
        assert!(close3(c.points[0], Vec3::new(SQRT_2 / 2.0 - 0.005, 0.0, 0.0)), "{c:?}");
    }

    #[test]
    fn vertex_face_gives_the_vertex() {
        // A cube standing on a corner, 0.1 into a slab's top face z = 0.
        let slab = Obb3::new(Vec3::new(0.0, 0.0, -1.0), Vec3::new(4.0, 4.0, 1.0), Quat::IDENTITY);
        let q = Quat::from_rotation_arc(Vec3::ONE.normalize(), Vec3::Z);
        let cube = Obb3::new(Vec3::new(0.0, 0.0, 3f32.sqrt() - 0.1), Vec3::ONE, q);
        let c = slab.contact(&cube).unwrap();
        assert!(close3(c.normal, Vec3::Z) && (c.depth - 0.1).abs() < 1e-5, "{c:?}");
        assert_eq!(c.points.len(), 1);
        assert!(close3(c.points[0], Vec3::new(0.0, 0.0, -0.05)), "{c:?}");
    }

    #[test]
    fn touching_faces_give_depth_zero() {
        let a = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::IDENTITY);
        let b = Obb3::new(Vec3::new(2.0, 0.5, 0.0), Vec3::ONE, Quat::IDENTITY);
        let c = a.contact(&b).unwrap();
        assert_eq!((c.normal, c.depth, c.points.len()), (Vec3::X, 0.0, 4));
        assert!(c.points.iter().all(|p| p.x == 1.0));
        let apart = Obb3::new(Vec3::new(2.000_001, 0.5, 0.0), Vec3::ONE, Quat::IDENTITY);
        assert!(a.contact(&apart).is_none());
    }

    #[test]
    fn deep_penetration_takes_the_shortest_way_out() {
        let a = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::IDENTITY);
        let b = Obb3::new(Vec3::new(0.1, 0.0, 0.0), Vec3::splat(0.2), Quat::IDENTITY);
        let c = a.contact(&b).unwrap();
        assert!(close3(c.normal, Vec3::X) && (c.depth - 1.1).abs() < 1e-6, "{c:?}");
        assert!(c.points.iter().all(|p| (p.x - 0.45).abs() < 1e-6), "{c:?}");
    }

    #[test]
    fn rects_2d_face_vertex_and_touching() {
        // Face: B overlaps A's right side by 0.5.
        let a = Obb2::new(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.0);
        let b = Obb2::new(Vec2::new(2.5, 0.5), Vec2::ONE, 0.0);
        let c = a.contact(&b).unwrap();
        assert_eq!((c.normal, c.depth), (Vec2::X, 0.5));
        assert_eq!(c.points.as_slice(), &[Vec2::new(1.75, -0.5), Vec2::new(1.75, 1.0)]);
        // Vertex: a diamond's corner 0.1 into A's top face.
        let d = Obb2::new(Vec2::new(0.0, 1.0 + SQRT_2 - 0.1), Vec2::ONE, FRAC_PI_4);
        let c = a.contact(&d).unwrap();
        assert!((c.normal - Vec2::Y).length() < 1e-6 && (c.depth - 0.1).abs() < 1e-5, "{c:?}");
        assert_eq!(c.points.len(), 1);
        assert!((c.points[0] - Vec2::new(0.0, 0.95)).length() < 1e-5, "{c:?}");
        // Touching along y = 1.
        let t = Obb2::new(Vec2::new(-1.0, 2.0), Vec2::ONE, 0.0);
        let c = a.contact(&t).unwrap();
        assert_eq!((c.normal, c.depth), (Vec2::Y, 0.0));
        assert_eq!(c.points.as_slice(), &[Vec2::new(-2.0, 1.0), Vec2::new(0.0, 1.0)]);
    }
}
