//! The Gilbert–Johnson–Keerthi distance algorithm on convex "cores" (points, segments,
//! boxes, triangles), each optionally rounded by a radius (balls, capsules).
//!
//! Gilbert, Johnson & Keerthi 1988; van den Bergen, *Collision Detection in Interactive
//! 3D Environments*, 4.3; Ericson, *Real-Time Collision Detection*, 9.5 (the simplex
//! solver uses the Voronoi-region closest-point routines of RTCD 5.1.2 and 5.1.5).
//!
//! GJK walks a simplex of support points of the Minkowski difference `A - B` toward the
//! origin: `v` is the simplex point nearest the origin, `w = s_A(-v) - s_B(v)` the next
//! support point, and the loop stops when `|v|² - v·w` (the gap between the lower and
//! upper bounds of the distance, times `|v|`) falls below [`GJK_REL_TOL`] of `|v|²`, when
//! the simplex contains the origin (up to [`GJK_ZERO_REL`] of its size), or when `|v|` stops decreasing. Polytopes have finitely
//! many support points, so it ends; [`GJK_MAX_ITERATIONS`] guards the rest.
//!
//! Everything is in `f64`; 2D shapes are embedded in the plane `z = 0` (the simplex then
//! never needs more than three points). A box or segment core far larger than the gap
//! and the other core is first cut down to the part that can hold the closest points
//! ([`near_parts`]), so that those tolerances, relative to the simplex's size, are relative
//! to the part of the shapes that matters.

use crate::arrays::Each;
use glam::{DVec2, DVec3, Vec2, Vec3};

use super::segment_segment::{segment_order, segment_segment_closest};
use crate::query::closest::{closest_point_on_segment, closest_points_triangle_segment};

/// Relative convergence tolerance of GJK on `|v|²`: far below `f32` resolution, far above
/// the rounding of `v` (a small difference of large support points).
pub(crate) const GJK_REL_TOL: f64 = 1e-10;
/// A simplex point nearer the origin than this fraction of the simplex's size is the
/// origin up to rounding: the cores intersect.
pub(crate) const GJK_ZERO_REL: f64 = 1e-12;
/// More iterations than any box, segment or triangle pair needs (they converge in a
/// handful); a guard against cycling on rounding noise.
pub(crate) const GJK_MAX_ITERATIONS: usize = 64;

/// A convex core in `f64`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Core {
    Point(DVec3),
    Segment(DVec3, DVec3),
    /// Centre, unit axes, half extents (a 2D box has a zero third half extent).
    Box(DVec3, [DVec3; 3], [f64; 3]),
    Triangle([DVec3; 3]),
}

/// A core swept by a ball of `radius` (zero for polytopes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rounded {
    pub core: Core,
    pub radius: f64,
}

#[inline]
pub(crate) fn d3(v: Vec3) -> DVec3 {
    v.as_dvec3()
}
#[inline]
pub(crate) fn d2(v: Vec2) -> DVec3 {
    DVec3::new(f64::from(v.x), f64::from(v.y), 0.0)
}
#[inline]
pub(crate) fn f2(v: DVec3) -> Vec2 {
    DVec2::new(v.x, v.y).as_vec2()
}
#[inline]
pub(crate) fn f3(v: DVec3) -> Vec3 {
    v.as_vec3()
}

impl Core {
    /// A point of the core maximising `x · d`.
    #[inline]
    pub(crate) fn support(&self, d: DVec3) -> DVec3 {
        match *self {
            Core::Point(p) => p,
            Core::Segment(p, q) => {
                if q.dot(d) > p.dot(d) {
                    q
                } else {
                    p
                }
            }
            Core::Box(c, axes, h) => {
                let mut s = c;
                for k in 0..3 {
                    let dk = axes[k].dot(d);
                    if dk > 0.0 {
                        s += axes[k] * h[k];
                    } else if dk < 0.0 {
                        s -= axes[k] * h[k];
                    }
                }
                s
            }
            Core::Triangle(v) => {
                let mut best = v[0];
                for &x in &v[1..] {
                    if x.dot(d) > best.dot(d) {
                        best = x;
                    }
                }
                best
            }
        }
    }

    /// The vertices (for projections in the separating-axis test).
    #[inline]
    pub(crate) fn vertices(&self) -> ([DVec3; 8], usize) {
        let mut out = [DVec3::ZERO; 8];
        match *self {
            Core::Point(p) => {
                out[0] = p;
                (out, 1)
            }
            Core::Segment(p, q) => {
                out[0] = p;
                out[1] = q;
                (out, 2)
            }
            Core::Box(c, axes, h) => {
                for (i, o) in out.iter_mut().enumerate() {
                    let s = |bit: usize, k: usize| if i & bit != 0 { h[k] } else { -h[k] };
                    *o = c + axes[0] * s(1, 0) + axes[1] * s(2, 1) + axes[2] * s(4, 2);
                }
                (out, 8)
            }
            Core::Triangle(v) => {
                out[..3].copy_from_slice(&v);
                (out, 3)
            }
        }
    }
}

impl Rounded {
    /// The shape moved by `offset`.
    #[inline]
    pub(crate) fn translated(&self, o: DVec3) -> Self {
        let core = match self.core {
            Core::Point(p) => Core::Point(p + o),
            Core::Segment(p, q) => Core::Segment(p + o, q + o),
            Core::Box(c, axes, h) => Core::Box(c + o, axes, h),
            Core::Triangle(v) => Core::Triangle(v.each(|x| x + o)),
        };
        Self { core, radius: self.radius }
    }

    /// A point of the rounded shape maximising `x · d` (`d` a unit vector).
    #[inline]
    pub(crate) fn support(&self, d: DVec3) -> DVec3 {
        self.core.support(d) + d * self.radius
    }

    /// A length scale of the shape: the largest coordinate magnitude of a vertex, plus the radius.
    #[inline]
    pub(crate) fn scale(&self) -> f64 {
        let (v, n) = self.core.vertices();
        v[..n].iter().fold(0.0f64, |m, x| m.max(x.abs().max_element())) + self.radius
    }
}

/// A support point of `A - B`, with the points of A and B it came from.
#[derive(Clone, Copy, Debug)]
struct Vertex {
    w: DVec3,
    a: DVec3,
    b: DVec3,
}

/// The result of GJK: the distance between the cores and a closest point on each
/// (equal, a common point, when the cores intersect).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Closest {
    pub distance: f64,
    pub on_a: DVec3,
    pub on_b: DVec3,
}

/// A relative tolerance at the rounding of `f64`: GJK then runs until its support points
/// repeat or `|v|` stops decreasing, which for polytopes is exact convergence up to
/// rounding. The sweeps use it: on a grazing motion an error `δ` in the distance moves the
/// time of impact by `δ` over the closing speed.
pub(crate) const GJK_PRECISE_TOL: f64 = 4.0 * f64::EPSILON;

/// The distance between two cores, and a closest pair of points.
#[inline]
pub(crate) fn gjk(a: &Core, b: &Core) -> Closest {
    gjk_to(a, b, GJK_REL_TOL)
}

/// [`gjk`], stopping when `|v|² - v·w` falls below `tol` of `|v|²`.
#[inline]
fn gjk_to(a: &Core, b: &Core, tol: f64) -> Closest {
    let first = {
        let d = DVec3::X;
        let (sa, sb) = (a.support(-d), b.support(d));
        Vertex { w: sa - sb, a: sa, b: sb }
    };
    let mut simplex = [first; 4];
    let mut len = 1;
    let mut lambda = [1.0, 0.0, 0.0, 0.0];
    let mut v = first.w;
    let size = |s: &[Vertex]| s.iter().fold(0.0f64, |m, x| m.max(x.w.length_squared()));
    for _ in 0..GJK_MAX_ITERATIONS {
        let vv = v.length_squared();
        if vv <= GJK_ZERO_REL * GJK_ZERO_REL * size(&simplex[..len]) {
            break; // the origin is in the simplex
        }
        let (sa, sb) = (a.support(-v), b.support(v));
        let w = sa - sb;
        if vv - v.dot(w) <= tol * vv || simplex[..len].iter().any(|x| x.w == w) {
            break; // converged: w is no closer to the origin than v
        }
        let previous = (simplex, len, lambda, v);
        simplex[len] = Vertex { w, a: sa, b: sb };
        len += 1;
        let (new_v, new_len, new_lambda) = closest_on_simplex(&mut simplex, len);
        if new_v.length_squared() >= vv {
            // No progress (rounding): keep the better simplex and stop.
            (simplex, len, lambda, v) = previous;
            break;
        }
        v = new_v;
        len = new_len;
        lambda = new_lambda;
    }
    let mut on_a: DVec3 = (0..len).map(|k| simplex[k].a * lambda[k]).sum();
    let mut on_b: DVec3 = (0..len).map(|k| simplex[k].b * lambda[k]).sum();
    let touching = v.length_squared() <= GJK_ZERO_REL * GJK_ZERO_REL * size(&simplex[..len]);
    let distance = if touching { 0.0 } else { v.length() };
    if !touching {
        // `on_a - on_b` is `v` up to the rounding of the weights. On a sliver simplex
        // (nearly parallel edges, see `closest_on_triangle`) that rounding moves the two
        // points along the edges, and for cores much closer than it the direction between
        // the points (the contact normal of `contact/rounded.rs`, the direction of the
        // closest points of rounded shapes) was off by it over the distance: a segment
        // touching a box edge it nearly runs along got a normal leaving it 464 deep.
        // `v` comes from the simplex's face normal (or its foot on an edge), so its
        // direction does not suffer: each point moves by half the difference, a shift of
        // the order of that rounding.
        let e = (on_a - on_b - v) * 0.5;
        on_a -= e;
        on_b += e;
    }
    Closest { distance, on_a, on_b }
}

/// A simplex solution: the nearest point, the number of vertices kept, their weights.
type Solved = (DVec3, usize, [f64; 4]);

/// The point of the simplex nearest the origin; the simplex is reduced (in place) to the
/// vertices whose barycentric weights are positive, returned with the weights.
#[inline]
fn closest_on_simplex(s: &mut [Vertex; 4], len: usize) -> Solved {
    match len {
        1 => (s[0].w, 1, [1.0, 0.0, 0.0, 0.0]),
        2 => closest_on_segment(s, [0, 1]),
        3 => closest_on_triangle(s, [0, 1, 2]),
        _ => closest_on_tetrahedron(s),
    }
}

/// Keeps the vertices `idx` (in order) with weights `w`.
#[inline]
fn keep<const K: usize>(s: &mut [Vertex; 4], idx: [usize; K], w: [f64; K]) -> Solved {
    let picked: [Vertex; K] = idx.each(|i| s[i]);
    let mut lambda = [0.0; 4];
    let mut v = DVec3::ZERO;
    for k in 0..K {
        s[k] = picked[k];
        lambda[k] = w[k];
        v += picked[k].w * w[k];
    }
    (v, K, lambda)
}

#[inline]
fn closest_on_segment(s: &mut [Vertex; 4], [i, j]: [usize; 2]) -> Solved {
    let (a, b) = (s[i].w, s[j].w);
    let ab = b - a;
    let t = -a.dot(ab);
    if t <= 0.0 {
        return keep(s, [i], [1.0]);
    }
    let dd = ab.length_squared();
    if t >= dd {
        return keep(s, [j], [1.0]);
    }
    let t = t / dd;
    keep(s, [i, j], [1.0 - t, t])
}

/// RTCD 5.1.5 with `p` the origin, keeping track of the region.
#[inline]
fn closest_on_triangle(s: &mut [Vertex; 4], [i, j, k]: [usize; 3]) -> Solved {
    let (a, b, c) = (s[i].w, s[j].w, s[k].w);
    let (ab, ac, ap) = (b - a, c - a, -a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return keep(s, [i], [1.0]);
    }
    let bp = -b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return keep(s, [j], [1.0]);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let t = d1 / (d1 - d3);
        return keep(s, [i, j], [1.0 - t, t]);
    }
    let cp = -c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return keep(s, [k], [1.0]);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let t = d2 / (d2 - d6);
        return keep(s, [i, k], [1.0 - t, t]);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return keep(s, [j, k], [1.0 - t, t]);
    }
    let denom = va + vb + vc;
    if denom <= 0.0 {
        // A degenerate (flat) triangle: the best of its edges.
        return best_of_edges(s, [i, j, k]);
    }
    // The nearest point is the origin's projection on the triangle's plane, taken from the
    // normal as `n (n·a) / |n|²` rather than as `a + v ab + w ac`: on a sliver triangle (a
    // nearly flat corner of A - B, from nearly parallel edges) the weights `vb / denom`,
    // `vc / denom` carry rounding errors growing as 1/|n|² (differences of products of dot
    // products), the projection's only as 1/|n|. In 2D (z = 0) it is exactly the origin, as
    // it must be: a planar triangle's interior region contains the origin.
    let n = ab.cross(ac);
    let nn = n.length_squared();
    if nn == 0.0 {
        let (v, w) = (vb / denom, vc / denom);
        return keep(s, [i, j, k], [1.0 - v - w, v, w]);
    }
    let nearest = n * (n.dot(a) / nn);
    // The weights of that point, from the areas it spans with the edges (barycentric
    // coordinates by cross products, Ericson, *Real-Time Collision Detection*, 3.4): their
    // errors also grow only as 1/|n|. The weights give the closest points of the two cores
    // (`gjk_to`); with the old ones, a capsule 8e-6 from a box edge it runs along at a slant
    // of 2e-4 had closest points 3e-9 off along the edge, and their direction 4e-4 off.
    let p = nearest - a;
    let (v, w) = (p.cross(ac).dot(n) / nn, ab.cross(p).dot(n) / nn);
    let (_, len, lambda) = keep(s, [i, j, k], [1.0 - v - w, v, w]);
    (nearest, len, lambda)
}

#[inline]
fn best_of_edges(s: &mut [Vertex; 4], [i, j, k]: [usize; 3]) -> Solved {
    let orig = *s;
    let mut best: Option<([Vertex; 4], Solved)> = None;
    for e in [[i, j], [j, k], [k, i]] {
        let mut t = orig;
        let r = closest_on_segment(&mut t, e);
        if best.as_ref().is_none_or(|(_, b)| r.0.length_squared() < b.0.length_squared()) {
            best = Some((t, r));
        }
    }
    let (t, r) = best.expect("three edges");
    *s = t;
    r
}

/// The origin is inside the tetrahedron unless it is beyond one of its face planes; then
/// the nearest point is on the boundary, the nearest of the four faces' nearest points
/// (RTCD 5.1.6). Taking all four, not only the faces the origin is beyond, keeps a nearly
/// flat tetrahedron (whose plane tests rounding can flip) from skipping the right face.
#[inline]
fn closest_on_tetrahedron(s: &mut [Vertex; 4]) -> Solved {
    let orig = *s;
    let faces = [([0, 1, 2], 3), ([0, 2, 3], 1), ([0, 3, 1], 2), ([1, 3, 2], 0)];
    let outside = faces.iter().any(|&(f, opposite)| {
        let [a, b, c] = f.each(|i| orig[i].w);
        let n = (b - a).cross(c - a);
        let (side_origin, side_opposite) = (n.dot(-a), n.dot(orig[opposite].w - a));
        side_opposite == 0.0 || side_origin * side_opposite < 0.0
    });
    // Inside: the weights are the barycentric coordinates of the origin. A nearly flat
    // tetrahedron can pass the plane tests by rounding; its weights then leave [0, 1].
    let [a, b, c, d] = orig.each(|x| x.w);
    let vol = |p: DVec3, q: DVec3, r: DVec3, x: DVec3| (q - p).cross(r - p).dot(x - p);
    let total = vol(a, b, c, d);
    let w =
        [vol(DVec3::ZERO, b, c, d), vol(a, DVec3::ZERO, c, d), vol(a, b, DVec3::ZERO, d)].each(|x| x / total);
    let w = [w[0], w[1], w[2], 1.0 - w[0] - w[1] - w[2]];
    if !outside && w.iter().all(|x| (0.0..=1.0).contains(x)) {
        return (DVec3::ZERO, 4, w);
    }
    let mut best: Option<([Vertex; 4], Solved)> = None;
    for (f, _) in faces {
        let mut t = orig;
        let r = closest_on_triangle(&mut t, f);
        if best.as_ref().is_none_or(|(_, b)| r.0.length_squared() < b.0.length_squared()) {
            best = Some((t, r));
        }
    }
    let (t, r) = best.expect("four faces");
    *s = t;
    r
}

/// A core far larger than the reach of its closest points (see [`near_parts`]) is cut
/// down when its largest half extent exceeds this many times that reach.
const CLIP_RATIO: f64 = 256.0;

impl Core {
    /// A ball holding the core: a centre that lies in the core, and the square of a
    /// radius at least the distance from it to every point of the core.
    #[inline]
    fn bounding_ball(&self) -> (DVec3, f64) {
        match *self {
            Core::Point(p) => (p, 0.0),
            Core::Segment(p, q) => ((p + q) * 0.5, (q - p).length_squared() * 0.25),
            // `Σ h_k` bounds the half diagonal `|Σ ±h_k axis_k|` even for axes that are
            // unit and orthogonal only to `f32` rounding (the 1e-3 covers them).
            Core::Box(c, _, h) => (c, ((h[0] + h[1] + h[2]) * (1.0 + 1e-3)).powi(2)),
            Core::Triangle(v) => {
                let c = (v[0] + v[1] + v[2]) / 3.0;
                (c, v.iter().fold(0.0f64, |m, x| m.max((*x - c).length_squared())) * (1.0 + 1e-9))
            }
        }
    }
}

/// The parts of two cores that hold all their closest points (or, when they intersect,
/// all their common points): each box or segment core much larger than the distance
/// between the cores plus the other core's size is cut down around the other core.
///
/// GJK's simplex is made of support points of `A - B`, and its tests of convergence and of
/// contact are relative to their size: for a box spanning `[1, 1e10]` next to a unit box
/// those are the far corners, and a gap of `1e-2` then reads as contact (or a near face is
/// lost in the rounding of `1e10`). Cut to the part near the other core, the box spans
/// about the distance plus the other's size, and GJK's tolerances are relative to that.
///
/// Why nothing is lost: let `c_b` be a point of B (its centre) and `g` an upper bound of
/// the distance from `c_b` to A. The distance `d` between the cores is at most `g`, so a
/// closest point of A (within `d` of a point of B, itself within `r_b` of `c_b`) lies
/// within `g + r_b` of `c_b`, and so does every point of A in B. The cut keeps every point
/// of A that close to `c_b` (a box stays a box: it is clipped in its own frame, a segment
/// to a sub-segment), so the cut core has the same distance to B and the same closest
/// points. B is then cut around the cut A in the same way.
///
/// The cut is only made when it shrinks a core by [`CLIP_RATIO`] or more: in the common
/// case (shapes of comparable sizes, or apart by more than the larger one) the cores go to
/// GJK unchanged, after a few comparisons.
#[inline]
fn near_parts(a: &Core, b: &Core) -> (Core, Core) {
    let a = clip_near(a, b.bounding_ball());
    let b = clip_near(b, a.bounding_ball());
    (a, b)
}

/// `core` cut down to its points within reach of the ball `(c_b, r_b²)` (see
/// [`near_parts`]), or `core` itself when that would not shrink it by [`CLIP_RATIO`].
#[inline]
fn clip_near(core: &Core, (cb, rb2): (DVec3, f64)) -> Core {
    match *core {
        Core::Box(c, axes, h) => {
            // Worth it only if the largest half extent exceeds CLIP_RATIO (gap + r_b).
            let k = h[0].max(h[1]).max(h[2]) / CLIP_RATIO;
            if k * k <= rb2 {
                return *core;
            }
            let d = cb - c;
            let gap2: f64 = (0..3).map(|i| (axes[i].dot(d).abs() - h[i]).max(0.0).powi(2)).sum();
            let rb = rb2.sqrt();
            if gap2 >= (k - rb) * (k - rb) {
                return *core;
            }
            clip_box(c, axes, h, cb, rb).unwrap_or(*core)
        }
        Core::Segment(p, q) => {
            let e = q - p;
            let ee = e.length_squared();
            let k2 = ee * (0.25 / (CLIP_RATIO * CLIP_RATIO)); // (half length / CLIP_RATIO)²
            if k2 <= rb2 {
                return *core;
            }
            let s = ((cb - p).dot(e) / ee).clamp(0.0, 1.0);
            let gap2 = (cb - (p + e * s)).length_squared();
            let (k, rb) = (k2.sqrt(), rb2.sqrt());
            if gap2 >= (k - rb) * (k - rb) {
                return *core;
            }
            clip_segment(p, q, cb, gap2.sqrt() + rb).unwrap_or(*core)
        }
        Core::Point(_) | Core::Triangle(_) => *core,
    }
}

/// Relative and absolute (to the magnitudes involved) widening of a cut, for the
/// rounding of the `f64` arithmetic that places it.
const CLIP_SLACK: f64 = 64.0 * f64::EPSILON;

/// The box `c + Σ u_k axes_k`, `|u_k| <= h_k`, cut to the parameters `u` of its points
/// within reach of the ball `(c_b, r_b)`; `None` if rounding left nothing.
#[cold]
#[inline(never)]
fn clip_box(c: DVec3, axes: [DVec3; 3], h: [f64; 3], cb: DVec3, rb: f64) -> Option<Core> {
    // The parameters of a point `x` are `M⁻¹ (x - c)`, `M` the matrix of the axes; its
    // inverse's rows are the cross products of the other two axes over the determinant
    // (the axes may be orthonormal only to `f32` rounding, so `Mᵀ` would be off by
    // 1e-7 of the coordinates: 1e3 on a box at 1e10).
    let [a0, a1, a2] = axes;
    let det = a0.dot(a1.cross(a2));
    (det.abs() > 0.5).then_some(())?; // else not a rotation (cannot happen for valid boxes)
    let rows = [a1.cross(a2) / det, a2.cross(a0) / det, a0.cross(a1) / det];
    let d = cb - c;
    let u: [f64; 3] = crate::arrays::from_fn(|k| rows[k].dot(d));
    // The box point with the clamped parameters: its distance to c_b bounds the gap.
    let near = (0..3).fold(c, |x, k| x + axes[k] * u[k].clamp(-h[k], h[k]));
    let reach = ((cb - near).length() + rb) * (1.0 + CLIP_SLACK);
    let mut lo = [0.0; 3];
    let mut hi = [0.0; 3];
    for k in 0..3 {
        // |(M⁻¹ y)_k| <= |row_k| |y|: the parameters of the points within `reach`.
        let w = reach * rows[k].length() * (1.0 + CLIP_SLACK) + CLIP_SLACK * (u[k].abs() + h[k]);
        (lo[k], hi[k]) = ((u[k] - w).max(-h[k]), (u[k] + w).min(h[k]));
        (lo[k] <= hi[k]).then_some(())?;
    }
    // The new centre from a face kept, not from the old centre: a face at 1 of a box
    // centred at 2^40 is `c - h` there, exactly as the support points place it, where
    // `c + (lo + hi) / 2` would round at 2^40 (1e-4). Axis by axis: the kept face (or the
    // old centre, when both are kept), then half the new width from it.
    let half: [f64; 3] = crate::arrays::from_fn(|k| (hi[k] - lo[k]) * 0.5);
    let (mut anchor, mut step) = (c, DVec3::ZERO);
    for k in 0..3 {
        match (lo[k] == -h[k], hi[k] == h[k]) {
            (true, true) => {}
            (true, false) => (anchor, step) = (anchor - axes[k] * h[k], step + axes[k] * half[k]),
            (false, true) => (anchor, step) = (anchor + axes[k] * h[k], step - axes[k] * half[k]),
            (false, false) => anchor += axes[k] * ((lo[k] + hi[k]) * 0.5),
        }
    }
    Some(Core::Box(anchor + step, axes, half))
}

/// The segment `p q` cut to its points within `reach` of `c_b`; `None` if rounding left
/// nothing.
#[cold]
#[inline(never)]
fn clip_segment(p: DVec3, q: DVec3, cb: DVec3, reach: f64) -> Option<Core> {
    let e = q - p;
    let ee = e.length_squared();
    let s = (cb - p).dot(e) / ee;
    let w = reach * (1.0 + CLIP_SLACK) / ee.sqrt() + CLIP_SLACK * (s.abs() + 1.0);
    let (lo, hi) = ((s - w).max(0.0), (s + w).min(1.0));
    (lo <= hi).then_some(())?;
    let at = |t: f64| {
        if t == 0.0 {
            p
        } else if t == 1.0 {
            q
        } else {
            p + e * t
        }
    };
    Some(Core::Segment(at(lo), at(hi)))
}

/// The distance between two cores, and a closest pair of points: GJK (on the parts of the
/// cores near each other, see [`near_parts`]), except for two segments, which have an
/// exact kernel (`segment_segment.rs`; GJK can misjudge nearly parallel crossing segments,
/// and differently in the two argument orders), a point against a point or a segment,
/// computed directly (Ericson, *Real-Time Collision Detection*, 5.1.2): a few ulps of the
/// coordinates, where GJK's direction between a point and a long segment a hair from it
/// is noise, and a segment against a triangle, by its candidate pairs
/// (`closest_points_triangle_segment`: GJK's sliver simplex of a segment nearly along an
/// edge put the closest points' direction 8° off).
#[inline]
pub(crate) fn core_closest(a: &Core, b: &Core) -> Closest {
    let closest = |on_a: DVec3, on_b: DVec3| Closest { distance: on_a.distance(on_b), on_a, on_b };
    match (*a, *b) {
        (Core::Segment(p1, q1), Core::Segment(p2, q2)) => segment_segment_closest((p1, q1), (p2, q2)),
        (Core::Point(x), Core::Point(y)) => closest(x, y),
        (Core::Point(x), Core::Segment(p, q)) => closest(x, closest_point_on_segment(x, p, q)),
        (Core::Segment(p, q), Core::Point(x)) => closest(closest_point_on_segment(x, p, q), x),
        _ => match near_parts(a, b) {
            // Cut down first (a segment `1e10` long over a unit triangle rounds at `1e-6`).
            (Core::Triangle(t), Core::Segment(p, q)) => {
                let (on_t, on_s) = closest_points_triangle_segment(t, (p, q));
                closest(on_t, on_s)
            }
            (Core::Segment(p, q), Core::Triangle(t)) => {
                let (on_t, on_s) = closest_points_triangle_segment(t, (p, q));
                closest(on_s, on_t)
            }
            (a, b) => gjk(&a, &b),
        },
    }
}

/// [`core_closest`] converged to the rounding of `f64` ([`GJK_PRECISE_TOL`]) where that
/// can be trusted: pushed that far, GJK's simplex can turn degenerate (a flat tetrahedron),
/// and the answer is then kept only if it agrees with the usual one to its tolerance and
/// its distance is that of its own closest points.
#[inline]
pub(crate) fn core_closest_precise(a: &Core, b: &Core) -> Closest {
    if direct_kernel(a, b) {
        return core_closest(a, b); // not GJK: already at rounding
    }
    let (a, b) = &near_parts(a, b);
    let usual = gjk(a, b);
    let fine = gjk_to(a, b, GJK_PRECISE_TOL);
    let slack = 4.0 * GJK_REL_TOL * usual.distance + 1e-300;
    let agrees = (fine.distance - usual.distance).abs() <= slack
        && ((fine.on_b - fine.on_a).length() - fine.distance).abs() <= slack;
    if agrees { fine } else { usual }
}

/// Whether [`core_closest`] computes the pair directly rather than by GJK: two segments, a
/// point against a point or a segment, or a segment against a triangle.
#[inline]
pub(crate) fn direct_kernel(a: &Core, b: &Core) -> bool {
    matches!(
        (a, b),
        (Core::Segment(..) | Core::Point(_), Core::Segment(..) | Core::Point(_))
            | (Core::Segment(..), Core::Triangle(_))
            | (Core::Triangle(_), Core::Segment(..))
    )
}

/// Whether a pair of rounded cores is computed in the other order: two segment cores
/// (capsules and segments, whose pairs may be of one type) are put in a fixed order, so
/// that every answer on them is exactly symmetric. Other pairs are of two types and
/// always computed in one order (the reverse impls call the forward ones).
#[inline]
pub(crate) fn swap_rounded(a: &Rounded, b: &Rounded) -> bool {
    match (a.core, b.core) {
        (Core::Segment(p1, q1), Core::Segment(p2, q2)) => {
            segment_order((p1, q1), a.radius, (p2, q2), b.radius) == core::cmp::Ordering::Greater
        }
        _ => false,
    }
}

/// Whether two rounded cores overlap: the cores are at most `r_a + r_b` apart.
#[inline]
pub(crate) fn rounded_overlaps(a: &Rounded, b: &Rounded) -> bool {
    core_closest(&a.core, &b.core).distance <= a.radius + b.radius
}

/// The distance between two rounded cores, with a closest point on each (the same
/// point, midway between the surfaces, when they overlap).
#[inline]
pub(crate) fn rounded_closest(a: &Rounded, b: &Rounded) -> Closest {
    if swap_rounded(a, b) {
        let c = rounded_closest(b, a);
        return Closest { distance: c.distance, on_a: c.on_b, on_b: c.on_a };
    }
    let c = core_closest(&a.core, &b.core);
    if c.distance == 0.0 {
        let p = (c.on_a + c.on_b) / 2.0;
        return Closest { distance: 0.0, on_a: p, on_b: p };
    }
    let n = (c.on_b - c.on_a) / c.distance;
    // Positive exactly when `rounded_overlaps` is false.
    let gap = c.distance - (a.radius + b.radius);
    if gap > 0.0 {
        return Closest { distance: gap, on_a: c.on_a + n * a.radius, on_b: c.on_b - n * b.radius };
    }
    // Overlapping: the points of the core-to-core segment within both radii form the
    // interval [d - r_b, r_a] ∩ [0, d] of distances from on_a; take its middle.
    let lo = (c.distance - b.radius).max(0.0);
    let hi = a.radius.min(c.distance);
    let p = c.on_a + n * ((lo + hi) / 2.0);
    Closest { distance: 0.0, on_a: p, on_b: p }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box(c: DVec3) -> Core {
        Core::Box(c, [DVec3::X, DVec3::Y, DVec3::Z], [1.0; 3])
    }

    #[test]
    fn boxes_face_edge_and_corner_apart() {
        let a = unit_box(DVec3::ZERO);
        // Face to face: 1 apart along x.
        let c = gjk(&a, &unit_box(DVec3::new(3.0, 0.5, 0.0)));
        assert!(
            (c.distance - 1.0).abs() < 1e-12
                && (c.on_a.x - 1.0).abs() < 1e-12
                && (c.on_b.x - 2.0).abs() < 1e-12
        );
        // Corner to corner: (1, 2, 2) apart, distance 3.
        let c = gjk(&a, &unit_box(DVec3::new(3.0, 4.0, 4.0)));
        assert!((c.distance - 3.0).abs() < 1e-12, "{c:?}");
        assert!(
            (c.on_a - DVec3::ONE).length() < 1e-12 && (c.on_b - DVec3::new(2.0, 3.0, 3.0)).length() < 1e-12
        );
        // Overlapping: zero, and a common point.
        let c = gjk(&a, &unit_box(DVec3::new(1.5, 0.0, 0.0)));
        assert_eq!(c.distance, 0.0);
    }

    #[test]
    fn segment_against_triangle_and_point() {
        let t = Core::Triangle([DVec3::ZERO, DVec3::new(4.0, 0.0, 0.0), DVec3::new(0.0, 4.0, 0.0)]);
        let s = Core::Segment(DVec3::new(1.0, 1.0, 2.0), DVec3::new(1.0, 1.0, 5.0));
        let c = gjk(&s, &t);
        assert!((c.distance - 2.0).abs() < 1e-12 && (c.on_b - DVec3::new(1.0, 1.0, 0.0)).length() < 1e-12);
        let c = gjk(&Core::Point(DVec3::new(5.0, 5.0, 0.0)), &t);
        assert!((c.distance - 3.0 * 2f64.sqrt()).abs() < 1e-12, "{c:?}");
    }

    /// A 2D box whose long edge is within 1e-4 rad of parallel to a segment: near contact,
    /// the simplex is a sliver triangle of `A - B`, whose interior point the barycentric
    /// weights put 5e-8 off the origin (the `obb2_moving` sweep regression, case at
    /// `t = 0.2518406`). Reference distances from exact rational arithmetic on the same
    /// inputs (2.163e-7 at `t = 0.2518405`, 1.3309e-4 at `t = 0.2518`, touching after).
    #[test]
    fn box_and_nearly_parallel_segment_in_2d() {
        let f = |x: f32, y: f32| DVec3::new(f64::from(x), f64::from(y), 0.0);
        let (v, s) =
            (f(-3.3462994, 0.93229526), Core::Segment(f(-1.4663804, -1.7591732), f(-1.6688949, 1.4446722)));
        let a = |t: f64| {
            let axes = [f(-0.06317201, 0.99800265), f(-0.99800265, -0.06317201), DVec3::Z];
            let h = [f64::from(1.4380575f32), f64::from(0.58636945f32), 0.0];
            Core::Box(f(-0.07006633, -1.454699) + v * t, axes, h)
        };
        for t in [0.2518406083, 0.25184062, 0.2519, 0.26] {
            assert_eq!(gjk(&a(t), &s).distance, 0.0, "t = {t}");
        }
        for (t, d) in [(0.2518405, 2.1628392655111545e-7), (0.2518, 1.330895540039371e-4)] {
            let c = gjk(&a(t), &s);
            assert!((c.distance - d).abs() < 1e-12, "t = {t}: {c:?}");
        }
    }
}
