//! Audit of contact **minimality**: for every contact pair, raybox's `depth` against an
//! independent `f64` reference of the minimum translation distance, and its `normal`
//! against the depth it claims (`h_A(n) + h_B(-n) = depth`).
//!
//! # The reference
//!
//! Moving B by `v` leaves it overlapping A exactly when `v` lies in the Minkowski
//! difference `M = A - B`; the minimum translation distance of an overlapping pair is the
//! distance from the origin (inside `M`) to the boundary of `M`, which is
//! `min over unit d of h_M(d) = min_d (h_A(d) + h_B(-d))`, `h` the support function.
//!
//! Every shape here is a polytope *core* (a point, a segment, a triangle, a box) swept by a
//! ball of radius `r` (zero for the polytopes): `h = h_core + r` for unit `d`. So with
//! `P = core_A - core_B`, `depth = m + r_A + r_B` where `m = min_d h_P(d)`, and:
//! - cores apart (distance `δ > 0`): `m = -δ` (the support function of a convex set that
//!   misses the origin has its minimum over unit directions at minus its distance,
//!   attained towards the closest point). `δ` is the least of the distances from each
//!   vertex of one core to the other core and between every pair of edges: the closest
//!   pairs of two disjoint polytopes form a convex set, and at an extreme pair of it one
//!   point is a vertex or both lie on edges (the feature pairs of Lin–Canny; Ericson,
//!   *Real-Time Collision Detection*, 5.1, for each feature pair's closest points);
//! - cores intersecting, `P` full-dimensional: `m >= 0` is the distance from the origin to
//!   the nearest facet of `P`, and a facet of a Minkowski sum of polytopes is the sum of a
//!   face of one and a face of the other whose dimensions add up to at least its own, so
//!   its normal is a face normal of either or, in 3D, the cross product of one edge of
//!   each (in 2D: an edge normal of either) — the separating axes of Gottschalk's OBB test
//!   and of Ericson, 4.4 and 5.5; D. Gregorius, *The Separating Axis Test*, GDC 2013, for
//!   the Gauss-map view. So `m` is the least `h_P` over those finitely many directions,
//!   both signs, and a negative value among them proves the cores apart;
//! - cores intersecting, `P` flat (both cores in parallel planes, or lines): `P` has empty
//!   interior and `m = 0`, attained at the normal of its plane (a triangle's face normal,
//!   the cross product of two segments, or any perpendicular of a segment when `P` is a
//!   line): also in the candidate set. This is the contract's "segments only touch".
//!   No candidate separates a flat `P` that misses the origin within its plane (coplanar
//!   triangles side by side): there the feature distance decides, and it is exact because
//!   nothing pierces anything in a common plane.
//!
//! `h_P` at any direction is an upper bound of `m`, so extra candidate directions (edge
//! directions, perpendiculars of segments, the coordinate axes) can only help; that they
//! never beat the facet normals by more than rounding is checked on every case. A
//! two-sided `Plane` is `n̂·x = c`: its support is finite only along `±n̂`, so the depth of a
//! shape spanning `[lo, hi]` in signed distance is `min(-lo, hi)`.
//!
//! A dense direction search with local refinement (every fourth case) checks the reference
//! itself: it can only find upper bounds of `m`, so a candidate minimum above its result
//! would mean a missing candidate. And `the_audit_catches_a_box_kernel_without_edge_axes`
//! checks the audit's power: a box kernel that forgets the 9 edge axes must fail it.
//!
//! # Tolerance
//!
//! Inputs and outputs are `f32` (relative rounding `6e-8`), the normal is rounded to `f32`
//! too (which moves `h(n)` by ~`1e-7` of the size), and kernels that move points into a box
//! frame may do so in `f32` (errors of ulps of the coordinates). A disagreement is
//! `|depth - reference| > 1e-4 · L + 1e-5 · M`, `L` the size of the pair (largest extent or
//! radius), `M` its largest coordinate: about three orders of magnitude above that
//! rounding, far below the difference a wrong axis makes (unless two axes give nearly the
//! same depth, which is then harmless). The largest error seen, in units of the tolerance,
//! is printed per pair (about `1e-3` on every pair when this was written).
//!
//! Pairs come from a fixed-seed generator in nine modes (general, deep and containment,
//! thin boxes and slivers, shared rotations for parallel faces and edges, near-touching,
//! one shape through the other, the same on a grid so that they meet exactly, coplanar,
//! and a segment, capsule or triangle edge running a hair outside an edge of the other
//! shape at a slant of `1e-7` to `1e-2`, where closest points are ill-conditioned),
//! at sizes `1e-3` to `1e3` (powers of two on the grid), around the origin or far from it.
//! `depth_is_the_minimum_translation_large_sweep` (ignored) runs 40,000 pairs per kind:
//! `cargo test -p raybox --release --test audit_contacts -- --ignored --nocapture`.

use glam::{DVec3, Mat2, Mat3, Quat, Vec2, Vec3};
use raybox::{
    Aabb2, Aabb3, Capsule2, Capsule3, Circle, Contact, Contact2, Contact3, Distance, Obb2, Obb3, Plane,
    Segment2, Segment3, Sphere, Triangle3,
};

// ---------------------------------------------------------------------------------------
// A small fixed-seed generator (xorshift64*), so that every run sees the same pairs.
// ---------------------------------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `[0, 1)`.
    fn f(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        self.f() < p
    }
    /// Uniform in the unit ball.
    fn ball(&mut self) -> DVec3 {
        loop {
            let v = DVec3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            if v.length_squared() <= 1.0 {
                return v;
            }
        }
    }
    fn unit(&mut self) -> DVec3 {
        loop {
            let v = self.ball();
            if v.length_squared() > 1e-4 {
                return v.normalize();
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reference cores in f64
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum Kind {
    Point(DVec3),
    Seg(DVec3, DVec3),
    Tri([DVec3; 3]),
    /// Centre, axes (as stored), half extents, number of axes (2 in 2D).
    Box(DVec3, [DVec3; 3], [f64; 3], usize),
    /// Unit normal and offset: the points `n·x = c`.
    Plane(DVec3, f64),
}

#[derive(Clone, Copy, Debug)]
struct Core {
    kind: Kind,
    r: f64,
}

fn verts(k: &Kind) -> Vec<DVec3> {
    match *k {
        Kind::Point(p) => vec![p],
        Kind::Seg(p, q) => vec![p, q],
        Kind::Tri(t) => t.to_vec(),
        Kind::Box(c, a, h, n) => {
            let mut v = Vec::new();
            for i in 0..(1 << n) {
                let mut x = c;
                for j in 0..n {
                    let s = if i >> j & 1 == 1 { 1.0 } else { -1.0 };
                    x += a[j] * (s * h[j]);
                }
                v.push(x);
            }
            v
        }
        Kind::Plane(..) => unreachable!(),
    }
}

fn edges(k: &Kind) -> Vec<(DVec3, DVec3)> {
    match *k {
        Kind::Point(_) => vec![],
        Kind::Seg(p, q) => vec![(p, q)],
        Kind::Tri([a, b, c]) => vec![(a, b), (b, c), (c, a)],
        Kind::Box(..) => {
            let v = verts(k);
            let mut e = Vec::new();
            for i in 0..v.len() {
                for j in i + 1..v.len() {
                    if (i ^ j).count_ones() == 1 {
                        e.push((v[i], v[j]));
                    }
                }
            }
            e
        }
        Kind::Plane(..) => unreachable!(),
    }
}

/// Edge directions (non-zero ones).
fn edge_dirs(k: &Kind) -> Vec<DVec3> {
    let d: Vec<DVec3> = match *k {
        Kind::Box(_, a, h, n) => (0..n).filter(|&j| h[j] > 0.0).map(|j| a[j]).collect(),
        _ => edges(k).iter().map(|(p, q)| *q - *p).collect(),
    };
    d.into_iter().filter(|v| *v != DVec3::ZERO).collect()
}

/// Face normals in 3D (not normalised): a triangle's, a box's (crosses of its axes).
fn face_normals(k: &Kind) -> Vec<DVec3> {
    match *k {
        Kind::Tri([a, b, c]) => vec![(b - a).cross(c - a)],
        Kind::Box(_, a, _, 3) => vec![a[1].cross(a[2]), a[2].cross(a[0]), a[0].cross(a[1])],
        _ => vec![],
    }
}

fn support(k: &Kind, d: DVec3) -> f64 {
    verts(k).iter().map(|v| v.dot(d)).fold(f64::NEG_INFINITY, f64::max)
}

fn clamp01(x: f64) -> f64 {
    x.clamp(0.0, 1.0)
}

fn pt_seg(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let ab = b - a;
    let l = ab.length_squared();
    let t = if l > 0.0 { clamp01((p - a).dot(ab) / l) } else { 0.0 };
    (a + ab * t - p).length()
}

/// Ericson 5.1.9 (closest points of two segments), the distance; also bounded by the
/// four end-to-segment distances (all are distances of actual point pairs).
fn seg_seg(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> f64 {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let ends = pt_seg(p1, p2, q2).min(pt_seg(q1, p2, q2)).min(pt_seg(p2, p1, q1)).min(pt_seg(q2, p1, q1));
    if a == 0.0 || e == 0.0 {
        return ends;
    }
    let (b, c) = (d1.dot(d2), d1.dot(r));
    let denom = a * e - b * b;
    let mut s = if denom > 0.0 { clamp01((b * f - c * e) / denom) } else { 0.0 };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = clamp01(-c / a);
    } else if t > 1.0 {
        t = 1.0;
        s = clamp01((b - c) / a);
    }
    ((p1 + d1 * s) - (p2 + d2 * t)).length().min(ends)
}

/// Ericson 5.1.5 (closest point of a triangle), the distance.
fn pt_tri(p: DVec3, [a, b, c]: [DVec3; 3]) -> f64 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return (p - a).length();
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return (p - b).length();
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return pt_seg(p, a, b);
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return (p - c).length();
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return pt_seg(p, a, c);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return pt_seg(p, b, c);
    }
    let denom = 1.0 / (va + vb + vc);
    let (v, w) = (vb * denom, vc * denom);
    let q = a + ab * v + ac * w;
    // Also every edge (the region tests round near the edges of slivers).
    (p - q).length().min(pt_seg(p, a, b)).min(pt_seg(p, b, c)).min(pt_seg(p, c, a))
}

fn pt_core(p: DVec3, k: &Kind) -> f64 {
    match *k {
        Kind::Point(x) => (p - x).length(),
        Kind::Seg(a, b) => pt_seg(p, a, b),
        Kind::Tri(t) => pt_tri(p, t),
        Kind::Box(c, a, h, n) => {
            // The axes are unit and orthogonal to f32 rounding: clamping in the box frame
            // gives a point of the box within ~1e-7 of its size of the closest one.
            let mut q = c;
            for j in 0..n {
                let u = a[j] / a[j].length();
                q += u * (p - c).dot(u).clamp(-h[j], h[j]);
            }
            (p - q).length()
        }
        Kind::Plane(..) => unreachable!(),
    }
}

/// Distance between two cores (disjoint, or in a common plane), by vertex–core and
/// edge–edge features.
fn core_distance(a: &Kind, b: &Kind) -> f64 {
    let mut d = f64::INFINITY;
    for v in verts(a) {
        d = d.min(pt_core(v, b));
    }
    for v in verts(b) {
        d = d.min(pt_core(v, a));
    }
    for (p, q) in edges(a) {
        for (r, s) in edges(b) {
            d = d.min(seg_seg(p, q, r, s));
        }
    }
    d
}

/// `h_P(d) = h_A(d) + h_B(-d)` of the cores.
fn h_cores(a: &Kind, b: &Kind, d: DVec3) -> f64 {
    support(a, d) + support(b, -d)
}

/// The candidate directions (unit), both signs, each with the kind of feature it comes
/// from (for the coverage counts).
fn candidates(a: &Kind, b: &Kind, planar: bool) -> Vec<(DVec3, &'static str)> {
    let (ea, eb) = (edge_dirs(a), edge_dirs(b));
    let mut c: Vec<(DVec3, &'static str)> = Vec::new();
    let extras = |c: &mut Vec<(DVec3, &'static str)>, e: &DVec3| {
        let (p, q) = e.normalize().any_orthonormal_pair();
        c.extend([(*e, "extra"), (p, "extra"), (q, "extra")]);
    };
    if planar {
        for (es, label) in [(&ea, "edge A"), (&eb, "edge B")] {
            c.extend(es.iter().map(|e| (DVec3::new(-e.y, e.x, 0.0), label)));
        }
        c.extend(ea.iter().chain(&eb).map(|e| (*e, "extra")));
        c.extend([(DVec3::X, "extra"), (DVec3::Y, "extra")]);
    } else {
        c.extend(face_normals(a).into_iter().map(|n| (n, "face A")));
        c.extend(face_normals(b).into_iter().map(|n| (n, "face B")));
        for u in &ea {
            for v in &eb {
                c.push((u.cross(*v), "edge x edge"));
            }
        }
        for e in ea.iter().chain(&eb) {
            extras(&mut c, e);
        }
        c.extend([(DVec3::X, "extra"), (DVec3::Y, "extra"), (DVec3::Z, "extra")]);
    }
    let mut out = Vec::new();
    for (v, label) in c {
        let l = v.length();
        if l > 0.0 && l.is_finite() {
            out.push((v / l, label));
            out.push((-v / l, label));
        }
    }
    out
}

/// Whether every edge direction of both cores lies in one plane (3D) or line (2D): `P`
/// has no interior.
fn flat(a: &Kind, b: &Kind, planar: bool) -> bool {
    let dirs: Vec<DVec3> = edge_dirs(a).into_iter().chain(edge_dirs(b)).map(|v| v.normalize()).collect();
    if planar {
        return dirs.iter().all(|u| dirs.iter().all(|v| u.cross(*v).length() <= 1e-12));
    }
    let mut n = DVec3::ZERO;
    for u in &dirs {
        for v in &dirs {
            let c = u.cross(*v);
            if c.length() > n.length() {
                n = c;
            }
        }
    }
    if n.length() <= 1e-12 {
        return true;
    }
    let n = n.normalize();
    dirs.iter().all(|u| u.dot(n).abs() <= 1e-12)
}

struct Reference {
    /// Minimum translation distance (negative: apart by that much).
    depth: f64,
    /// A direction achieving it (zero when the cores are apart).
    dir: DVec3,
    /// What decides it: a kind of candidate, "cores apart", "flat", or "plane".
    class: &'static str,
    /// For intersecting cores with a full-dimensional `P`: how much lower the least `h_P`
    /// over all candidates is than over the facet normals alone (zero in theory).
    facet_gap: f64,
}

fn reference(a: &Core, b: &Core, planar: bool) -> Reference {
    if let Kind::Plane(n, c) = a.kind {
        let vs = verts(&b.kind);
        let lo = vs.iter().map(|v| v.dot(n) - c).fold(f64::INFINITY, f64::min) - b.r;
        let hi = vs.iter().map(|v| v.dot(n) - c).fold(f64::NEG_INFINITY, f64::max) + b.r;
        if lo > 0.0 || hi < 0.0 {
            return Reference {
                depth: -(lo.max(0.0) + (-hi).max(0.0)),
                dir: n,
                class: "plane",
                facet_gap: 0.0,
            };
        }
        let (depth, dir) = if -lo <= hi { (-lo, n) } else { (hi, -n) };
        return Reference { depth, dir, class: "plane", facet_gap: 0.0 };
    }
    let (ka, kb) = (&a.kind, &b.kind);
    let mut best = (f64::INFINITY, DVec3::X, "none");
    let mut facets = f64::INFINITY;
    for (d, label) in candidates(ka, kb, planar) {
        let h = h_cores(ka, kb, d);
        if h < best.0 {
            best = (h, d, label);
        }
        if label != "extra" {
            facets = facets.min(h);
        }
    }
    let is_flat = flat(ka, kb, planar);
    let (m, apart) = if best.0 < 0.0 {
        // Separated by a candidate: apart, and the feature distance is exact.
        (-core_distance(ka, kb), true)
    } else if is_flat {
        // No candidate separates a flat P within its plane; the feature distance decides
        // (nothing pierces a flat P: disjoint cores in a common plane or line have closest
        // points on a vertex-feature or edge-edge pair). Distances within the rounding of
        // the coordinates are zero.
        let dist = core_distance(ka, kb);
        let mag = verts(ka).iter().chain(&verts(kb)).fold(0.0f64, |m, v| m.max(v.abs().max_element()));
        if dist > 1e-12 * mag { (-dist, true) } else { (best.0, false) }
    } else {
        // Full-dimensional P, which no candidate separates: the cores intersect.
        (best.0, false)
    };
    let class = if apart {
        "cores apart"
    } else if is_flat {
        "flat"
    } else {
        best.2
    };
    let facet_gap = if apart || is_flat { 0.0 } else { facets - best.0 };
    Reference { depth: m + a.r + b.r, dir: if apart { DVec3::ZERO } else { best.1 }, class, facet_gap }
}

/// Least `h_P` over a dense set of directions refined by a shrinking random search: an
/// upper bound of the true minimum, close to it.
fn dense_min(a: &Kind, b: &Kind, planar: bool, rng: &mut Rng) -> f64 {
    let h = |d: DVec3| h_cores(a, b, d);
    if planar {
        let n = 3600;
        let mut best = (f64::INFINITY, 0.0);
        for i in 0..n {
            let t = i as f64 / n as f64 * std::f64::consts::TAU;
            let v = h(DVec3::new(t.cos(), t.sin(), 0.0));
            if v < best.0 {
                best = (v, t);
            }
        }
        let mut step = std::f64::consts::TAU / n as f64;
        while step > 1e-13 {
            for t in [best.1 - step, best.1 + step] {
                let v = h(DVec3::new(t.cos(), t.sin(), 0.0));
                if v < best.0 {
                    best = (v, t);
                }
            }
            step *= 0.75;
        }
        return best.0;
    }
    let n = 4000;
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut seeds: Vec<(f64, DVec3)> = (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let t = golden * i as f64;
            let d = DVec3::new(r * t.cos(), r * t.sin(), z);
            (h(d), d)
        })
        .collect();
    seeds.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut overall = f64::INFINITY;
    for &(v0, d0) in seeds.iter().take(4) {
        let mut best = (v0, d0);
        let mut step = 0.08;
        while step > 1e-12 {
            let (p, q) = best.1.any_orthonormal_pair();
            let mut improved = false;
            for _ in 0..16 {
                let t = rng.range(0.0, std::f64::consts::TAU);
                let s = step * rng.f().sqrt();
                let d = (best.1 + (p * t.cos() + q * t.sin()) * s).normalize();
                let v = h(d);
                if v < best.0 {
                    best = (v, d);
                    improved = true;
                }
            }
            if !improved {
                step *= 0.6;
            }
        }
        overall = overall.min(best.0);
    }
    overall
}

// ---------------------------------------------------------------------------------------
// Shapes: random generation, cores, translation
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    General,
    Deep,
    Thin,
    Parallel,
    Touching,
    /// B moved so that a random point of it lands on a random point of A: crossing and
    /// piercing pairs (segments and triangles rarely meet otherwise).
    Through,
    /// `Through` on a grid: every coordinate a multiple of `s / 64`, the anchors vertices or
    /// midpoints, so the shapes meet exactly (segments crossing in space, a vertex on an
    /// edge, triangles sharing a point, coplanar pieces).
    Grid,
    /// Both shapes' points (centres, segments, triangles) in one plane: coplanar triangles
    /// and segments, and segments in a triangle's plane.
    Coplanar,
    /// B's segment (a segment, a capsule's core, a triangle's edge) along an edge of A, a
    /// hair outside it and nearly parallel to it: ill-conditioned closest points.
    AlongEdge,
}
const MODES: [Mode; 9] = [
    Mode::General,
    Mode::Deep,
    Mode::Thin,
    Mode::Parallel,
    Mode::Touching,
    Mode::Through,
    Mode::Grid,
    Mode::Coplanar,
    Mode::AlongEdge,
];

thread_local! {
    /// The grid of the `Grid` mode (zero: none).
    static GRID: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// `x` on the current grid, as `f32`.
fn fl(x: f64) -> f32 {
    let g = GRID.with(std::cell::Cell::get);
    (if g > 0.0 { (x / g).round() * g } else { x }) as f32
}

/// What a pair's two shapes share.
struct Ctx {
    mode: Mode,
    /// The pair's size.
    s: f64,
    /// Where the shape goes.
    center: DVec3,
    /// A rotation both shapes use in the `Parallel` mode.
    rot: Quat,
    /// Relative size of this shape.
    k: f64,
    /// In the `Coplanar` mode, the shared plane (a point, a unit normal).
    plane: Option<(DVec3, DVec3)>,
    /// In the `AlongEdge` mode, for B: an edge of A and a unit direction out of A across it.
    edge: Option<(DVec3, DVec3, DVec3)>,
}

impl Ctx {
    /// `p` on the shared plane, if any.
    fn onto(&self, p: DVec3) -> DVec3 {
        match self.plane {
            Some((o, n)) => p - n * (p - o).dot(n),
            None => p,
        }
    }
}

fn v2(v: DVec3) -> Vec2 {
    Vec2::new(fl(v.x), fl(v.y))
}
fn v3(v: DVec3) -> Vec3 {
    Vec3::new(fl(v.x), fl(v.y), fl(v.z))
}
fn d2(v: Vec2) -> DVec3 {
    DVec3::new(f64::from(v.x), f64::from(v.y), 0.0)
}
fn d3(v: Vec3) -> DVec3 {
    v.as_dvec3()
}

fn rotation(rng: &mut Rng, c: &Ctx) -> Quat {
    if c.mode == Mode::Parallel {
        return c.rot;
    }
    match rng.below(5) {
        0 => Quat::IDENTITY,
        1 => {
            // A small turn: nearly parallel faces and edges.
            let axis = rng.unit().as_vec3();
            Quat::from_axis_angle(axis, rng.range(-1e-3, 1e-3) as f32)
        }
        _ => random_quat(rng),
    }
}

fn random_quat(rng: &mut Rng) -> Quat {
    let v = rng.ball();
    Quat::from_xyzw(v.x as f32, v.y as f32, v.z as f32, rng.range(-1.0, 1.0) as f32).normalize()
}

fn extent(rng: &mut Rng, c: &Ctx) -> f64 {
    let base = c.s * c.k;
    if c.mode == Mode::Thin && rng.chance(0.4) {
        return if rng.chance(0.3) { 0.0 } else { base * 10f64.powf(rng.range(-5.0, -2.0)) };
    }
    base * rng.range(0.05, 1.0)
}

fn radius(rng: &mut Rng, c: &Ctx) -> f64 {
    if rng.chance(0.1) {
        return 0.0;
    }
    extent(rng, c)
}

/// A direction for a segment: along a rotation axis in the `Parallel` mode.
fn direction(rng: &mut Rng, c: &Ctx, planar: bool) -> DVec3 {
    let axis_chance = if c.mode == Mode::Grid { 0.5 } else { 0.15 };
    let mut d = if c.mode == Mode::Parallel || rng.chance(axis_chance) {
        let m = Mat3::from_quat(c.rot).as_dmat3();
        m.col(rng.below(3))
    } else {
        rng.unit()
    };
    if planar || c.plane.is_some() {
        d = c.onto(d + c.center) - c.onto(c.center);
        d.z = if planar { 0.0 } else { d.z };
        if d.length() < 1e-3 {
            d = c.onto(c.center + rng.unit()) - c.onto(c.center);
            d.z = if planar { 0.0 } else { d.z };
        }
        d = d.normalize();
    }
    d
}

trait Shape: Sized + Copy + std::fmt::Debug {
    const PLANAR: bool;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self>;
    fn core(&self) -> Core;
    /// Moved by `v` (`None` if that makes it invalid: a triangle rounded flat).
    fn moved(&self, v: DVec3) -> Option<Self>;
    /// Largest coordinate magnitude.
    fn magnitude(&self) -> f64 {
        let k = self.core();
        let m = match k.kind {
            Kind::Plane(_, c) => c.abs(),
            kind => verts(&kind).iter().map(|v| v.abs().max_element()).fold(0.0, f64::max),
        };
        m + k.r
    }
    /// Size: the largest extent, or radius.
    fn size(&self) -> f64 {
        let k = self.core();
        let e = match k.kind {
            Kind::Plane(..) => 0.0,
            kind => {
                let v = verts(&kind);
                v.iter().flat_map(|p| v.iter().map(move |q| (*p - *q).length())).fold(0.0, f64::max)
            }
        };
        e.max(k.r)
    }
}

fn point_in(rng: &mut Rng, c: &Ctx, planar: bool) -> DVec3 {
    let mut p = c.center;
    if c.mode != Mode::Parallel {
        p += rng.ball() * (0.05 * c.s);
    }
    if planar {
        p.z = 0.0;
    }
    c.onto(p)
}

impl Shape for Circle {
    const PLANAR: bool = true;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        Some(Circle::new(v2(point_in(rng, c, true)), fl(radius(rng, c))))
    }
    fn core(&self) -> Core {
        Core { kind: Kind::Point(d2(self.center())), r: f64::from(self.radius()) }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        Some(Circle::new(self.center() + v2(v), self.radius()))
    }
}

impl Shape for Sphere {
    const PLANAR: bool = false;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        Some(Sphere::new(v3(point_in(rng, c, false)), fl(radius(rng, c))))
    }
    fn core(&self) -> Core {
        Core { kind: Kind::Point(d3(self.center())), r: f64::from(self.radius()) }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        Some(Sphere::new(self.center() + v3(v), self.radius()))
    }
}

impl Shape for Aabb2 {
    const PLANAR: bool = true;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        let h = DVec3::new(extent(rng, c), extent(rng, c), 0.0);
        Some(Aabb2::from_center_half_extents(v2(point_in(rng, c, true)), v2(h)))
    }
    fn core(&self) -> Core {
        let h = d2(self.max()) - d2(self.min());
        let axes = [DVec3::X, DVec3::Y, DVec3::Z];
        Core {
            kind: Kind::Box((d2(self.min()) + d2(self.max())) / 2.0, axes, [h.x / 2.0, h.y / 2.0, 0.0], 2),
            r: 0.0,
        }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        Some(self.translated(v2(v)))
    }
}

impl Shape for Aabb3 {
    const PLANAR: bool = false;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        let h = DVec3::new(extent(rng, c), extent(rng, c), extent(rng, c));
        Some(Aabb3::from_center_half_extents(v3(point_in(rng, c, false)), v3(h)))
    }
    fn core(&self) -> Core {
        let h = (d3(self.max()) - d3(self.min())) / 2.0;
        let axes = [DVec3::X, DVec3::Y, DVec3::Z];
        Core { kind: Kind::Box((d3(self.min()) + d3(self.max())) / 2.0, axes, h.to_array(), 3), r: 0.0 }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        Some(self.translated(v3(v)))
    }
}

impl Shape for Obb2 {
    const PLANAR: bool = true;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        let h = DVec3::new(extent(rng, c), extent(rng, c), 0.0);
        let angle = if c.mode == Mode::Parallel {
            // The z-rotation of the shared rotation's x axis.
            let x = c.rot * Vec3::X;
            x.y.atan2(x.x)
        } else if rng.chance(0.2) {
            rng.range(-1e-3, 1e-3) as f32
        } else {
            rng.range(-3.2, 3.2) as f32
        };
        Obb2::try_new(v2(point_in(rng, c, true)), v2(h), angle).ok()
    }
    fn core(&self) -> Core {
        let [x, y] = self.axes();
        let h = self.half_extents();
        Core {
            kind: Kind::Box(
                d2(self.center()),
                [d2(x), d2(y), DVec3::Z],
                [f64::from(h.x), f64::from(h.y), 0.0],
                2,
            ),
            r: 0.0,
        }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        let m: Mat2 = self.rotation();
        Obb2::try_from_matrix(self.center() + v2(v), self.half_extents(), m).ok()
    }
}

impl Shape for Obb3 {
    const PLANAR: bool = false;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        let h = DVec3::new(extent(rng, c), extent(rng, c), extent(rng, c));
        let q = rotation(rng, c);
        Obb3::try_new(v3(point_in(rng, c, false)), v3(h), q).ok()
    }
    fn core(&self) -> Core {
        let [x, y, z] = self.axes();
        let h = self.half_extents().as_dvec3();
        Core { kind: Kind::Box(d3(self.center()), [d3(x), d3(y), d3(z)], h.to_array(), 3), r: 0.0 }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        Obb3::try_from_matrix(self.center() + v3(v), self.half_extents(), self.rotation()).ok()
    }
}

fn seg_ends(rng: &mut Rng, c: &Ctx, planar: bool) -> (DVec3, DVec3) {
    if let Some(ends) = along_edge(rng, c, planar) {
        return ends;
    }
    let p = point_in(rng, c, planar);
    let d = direction(rng, c, planar);
    let len = if c.mode == Mode::Thin && rng.chance(0.2) { 0.0 } else { 2.0 * extent(rng, c) };
    let t = rng.range(0.0, 1.0);
    (p - d * (len * t), p + d * (len * (1.0 - t)))
}

impl Shape for Segment2 {
    const PLANAR: bool = true;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        let (p, q) = seg_ends(rng, c, true);
        Segment2::try_new(v2(p), v2(q)).ok()
    }
    fn core(&self) -> Core {
        Core { kind: Kind::Seg(d2(self.start()), d2(self.end())), r: 0.0 }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        Some(Segment2::new(self.start() + v2(v), self.end() + v2(v)))
    }
}

impl Shape for Segment3 {
    const PLANAR: bool = false;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        let (p, q) = seg_ends(rng, c, false);
        Segment3::try_new(v3(p), v3(q)).ok()
    }
    fn core(&self) -> Core {
        Core { kind: Kind::Seg(d3(self.start()), d3(self.end())), r: 0.0 }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        Some(Segment3::new(self.start() + v3(v), self.end() + v3(v)))
    }
}

impl Shape for Capsule2 {
    const PLANAR: bool = true;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        let (p, q) = seg_ends(rng, c, true);
        Capsule2::try_new(v2(p), v2(q), fl(radius(rng, c))).ok()
    }
    fn core(&self) -> Core {
        Core { kind: Kind::Seg(d2(self.start()), d2(self.end())), r: f64::from(self.radius()) }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        Some(Capsule2::new(self.start() + v2(v), self.end() + v2(v), self.radius()))
    }
}

impl Shape for Capsule3 {
    const PLANAR: bool = false;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        let (p, q) = seg_ends(rng, c, false);
        Capsule3::try_new(v3(p), v3(q), fl(radius(rng, c))).ok()
    }
    fn core(&self) -> Core {
        Core { kind: Kind::Seg(d3(self.start()), d3(self.end())), r: f64::from(self.radius()) }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        Some(Capsule3::new(self.start() + v3(v), self.end() + v3(v), self.radius()))
    }
}

impl Shape for Triangle3 {
    const PLANAR: bool = false;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        let p = point_in(rng, c, false);
        let m = Mat3::from_quat(c.rot).as_dmat3();
        let (a, b, cc) = match (c.mode, rng.below(3)) {
            (Mode::AlongEdge, _) if c.edge.is_some() => {
                // An edge along A's, the third vertex out of A.
                let (p, q) = along_edge(rng, c, false)?;
                let out = c.edge?.2;
                let third = (p + q) / 2.0 + (out + rng.ball()) * (c.s * c.k);
                (p, q, third)
            }
            (Mode::Parallel, _) => {
                // In a plane of the shared rotation's axes.
                let i = rng.below(3);
                let (u, v) = (m.col(i), m.col((i + 1) % 3));
                let mut pt = || p + (u * rng.range(-1.0, 1.0) + v * rng.range(-1.0, 1.0)) * (c.s * c.k);
                (pt(), pt(), pt())
            }
            (Mode::Thin, 0) => {
                // A sliver: the third vertex a hair off the line of the other two.
                let (u, off) = (rng.unit(), rng.unit());
                let l = c.s * c.k * rng.range(0.2, 1.0);
                let t = rng.range(-0.5, 1.5);
                (p, p + u * l, p + u * (l * t) + off * (l * 10f64.powf(rng.range(-5.0, -2.0))))
            }
            _ => {
                let mut pt = || c.onto(p + rng.ball() * (c.s * c.k));
                (pt(), pt(), pt())
            }
        };
        Triangle3::try_new(v3(a), v3(b), v3(cc)).ok()
    }
    fn core(&self) -> Core {
        Core { kind: Kind::Tri(self.vertices().map(d3)), r: 0.0 }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        let [a, b, c] = self.vertices();
        Triangle3::try_new(a + v3(v), b + v3(v), c + v3(v)).ok()
    }
}

impl Shape for Plane {
    const PLANAR: bool = false;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        let n = if c.mode == Mode::Parallel || rng.chance(0.2) {
            Mat3::from_quat(c.rot).as_dmat3().col(rng.below(3)) * rng.range(0.5, 3.0)
        } else {
            rng.unit() * rng.range(0.1, 3.0)
        };
        Plane::try_from_point_normal(v3(point_in(rng, c, false)), v3(n)).ok()
    }
    fn core(&self) -> Core {
        let n = d3(self.normal());
        let l = n.length();
        Core { kind: Kind::Plane(n / l, f64::from(self.offset()) / l), r: 0.0 }
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        let n = d3(self.normal());
        Some(Plane::new(self.normal(), (f64::from(self.offset()) + n.dot(v)) as f32))
    }
}

// ---------------------------------------------------------------------------------------
// The audit
// ---------------------------------------------------------------------------------------

/// A contact as `(unit normal, depth)` in f64.
trait Out {
    fn nd(&self) -> (DVec3, f64);
}
impl Out for Contact2 {
    fn nd(&self) -> (DVec3, f64) {
        (d2(self.normal), f64::from(self.depth))
    }
}
impl Out for Contact3 {
    fn nd(&self) -> (DVec3, f64) {
        (d3(self.normal), f64::from(self.depth))
    }
}

#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    overlapping: usize,
    depth: usize,
    normal: usize,
    missed: usize,
    phantom: usize,
    reference: usize,
    /// Largest |depth - reference| / tolerance over all overlapping cases.
    worst: f64,
    /// Overlapping cases by what decides the reference depth.
    classes: std::collections::BTreeMap<&'static str, usize>,
    examples: Vec<String>,
}

impl Tally {
    fn bad(&self) -> usize {
        self.depth + self.normal + self.missed + self.phantom + self.reference
    }
    fn note(&mut self, msg: String) {
        if self.examples.len() < 4 {
            self.examples.push(msg);
        }
    }
}

/// `h_A(n) + h_B(-n)` of the actual shapes (the radii included); a plane's support is
/// infinite except along its normal.
fn h_shapes(a: &Core, b: &Core, n: DVec3) -> f64 {
    match a.kind {
        Kind::Plane(p, c) => {
            let s = n.dot(p).signum();
            if (n - p * s).length() > 1e-5 {
                return f64::INFINITY;
            }
            s * c + support(&b.kind, -p * s) + b.r
        }
        _ => h_cores(&a.kind, &b.kind, n) + a.r + b.r,
    }
}

/// A random edge of a core (not a plane's) and the unit direction out of the core across
/// it (from its vertices' centroid, perpendicular to the edge).
fn edge_of(k: &Core, rng: &mut Rng, planar: bool) -> Option<(DVec3, DVec3, DVec3)> {
    if matches!(k.kind, Kind::Plane(..)) {
        return None;
    }
    let e = edges(&k.kind);
    let &(p, q) = e.get(rng.below(e.len().max(1)))?;
    let d = (q - p).try_normalize()?;
    let v = verts(&k.kind);
    let centroid = v.iter().sum::<DVec3>() / v.len() as f64;
    let mut out = (p + q) / 2.0 - centroid;
    out -= d * out.dot(d);
    let out = match out.try_normalize() {
        Some(o) => o,
        None if planar => DVec3::new(-d.y, d.x, 0.0),
        None => d.any_orthonormal_vector(),
    };
    Some((p, q, out))
}

/// In the `AlongEdge` mode: the ends of a segment along the context's edge, nearly
/// parallel to it and a hair outside it.
fn along_edge(rng: &mut Rng, c: &Ctx, planar: bool) -> Option<(DVec3, DVec3)> {
    let (p, q, out) = c.edge?;
    let mut tilt = rng.unit() * 10f64.powf(rng.range(-7.0, -2.0));
    if planar {
        tilt.z = 0.0;
    }
    let d = ((q - p).normalize() + tilt).normalize();
    let len = (q - p).length();
    let gap = c.s * 10f64.powf(rng.range(-8.0, -3.0));
    let mid = p + (q - p) * rng.range(0.2, 0.8) + out * gap;
    let half = len * rng.range(0.2, 0.8);
    Some((mid - d * half, mid + d * half))
}

/// A point of a core: in the `Grid` mode a vertex or the midpoint of two (exact on the
/// half grid), otherwise a random convex combination of the vertices.
fn anchor(k: &Core, rng: &mut Rng, grid: bool) -> DVec3 {
    let v = match k.kind {
        Kind::Plane(n, c) => {
            let x = rng.ball();
            return x - n * (x.dot(n) - c);
        }
        kind => verts(&kind),
    };
    if grid {
        let (i, j) = (rng.below(v.len()), rng.below(v.len()));
        return (v[i] + v[j]) / 2.0;
    }
    let w: Vec<f64> = v.iter().map(|_| rng.f().powi(2)).collect();
    let total: f64 = w.iter().sum();
    v.iter().zip(&w).map(|(x, w)| *x * (w / total)).sum()
}

fn gen_pair<A: Shape, B: Shape>(rng: &mut Rng, mode: Mode) -> Option<(A, B)> {
    let grid = mode == Mode::Grid;
    let s =
        if grid { [1.0 / 1024.0, 1.0, 1024.0][rng.below(3)] } else { [1e-3, 1.0, 1.0, 1e3][rng.below(4)] };
    GRID.with(|g| g.set(if grid { s / 64.0 } else { 0.0 }));
    let pair = gen_pair_at::<A, B>(rng, mode, s);
    GRID.with(|g| g.set(0.0));
    pair
}

fn gen_pair_at<A: Shape, B: Shape>(rng: &mut Rng, mode: Mode, s: f64) -> Option<(A, B)> {
    // Mostly about the origin, sometimes off it, now and then far from it.
    let base = match rng.below(20) {
        0..=3 => rng.ball() * (20.0 * s),
        4 => rng.ball() * (2000.0 * s),
        _ => DVec3::ZERO,
    };
    let base = if A::PLANAR { DVec3::new(base.x, base.y, 0.0) } else { base };
    let rot = if rng.chance(0.3) { Quat::IDENTITY } else { random_quat(rng) };
    let plane = (mode == Mode::Coplanar).then(|| (base, Mat3::from_quat(rot).as_dmat3().col(rng.below(3))));
    let ca = Ctx { mode, s, center: base, rot, k: 1.0, plane, edge: None };
    let a = A::random(rng, &ca)?;
    let kb = if mode == Mode::Deep {
        [1e-3, 0.05, 0.3, 1.0, 3.0, 30.0][rng.below(6)]
    } else {
        rng.range(0.2, 1.5)
    };
    let reach = a.size() / 2.0 + s * kb;
    let mut off = match mode {
        Mode::Deep => rng.ball() * (0.2 * reach),
        Mode::Parallel => {
            let m = Mat3::from_quat(rot).as_dmat3();
            m.col(rng.below(3)) * (rng.range(-1.0, 1.0) * reach) + rng.ball() * (0.1 * reach)
        }
        _ => rng.ball() * reach,
    };
    if A::PLANAR {
        off.z = 0.0;
    }
    let edge = if mode == Mode::AlongEdge { edge_of(&a.core(), rng, A::PLANAR) } else { None };
    let cb = Ctx { mode, s, center: base + off, rot, k: kb, plane, edge };
    let mut b = B::random(rng, &cb)?;
    if matches!(mode, Mode::Through | Mode::Grid) {
        let grid = mode == Mode::Grid;
        let (xa, xb) = (anchor(&a.core(), rng, grid), anchor(&b.core(), rng, grid));
        // (Midpoints lie on the half grid, and so does the move.)
        GRID.with(|g| g.set(g.get() / 2.0));
        b = b.moved(xa - xb)?;
    }
    Some((a, b))
}

fn audit<A: Shape + Contact<B>, B: Shape>(name: &str, n: usize, seed: u64) -> Tally
where
    <A as Contact<B>>::Output: Out,
{
    let mut rng = Rng(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut t = Tally::default();
    let mut tries = 0;
    while t.cases < n && tries < 20 * n {
        tries += 1;
        let mode = MODES[rng.below(MODES.len())];
        let Some((a, mut b)) = gen_pair::<A, B>(&mut rng, mode) else { continue };
        let (mut ca, mut cb) = (a.core(), b.core());
        let mut r = reference(&ca, &cb, A::PLANAR);
        if mode == Mode::Touching && r.depth > 0.0 && r.dir != DVec3::ZERO {
            // Near-touching: push B out along the reference direction to within a small
            // depth (or a small gap).
            let scale = a.size().max(b.size());
            let delta = scale * 10f64.powf(rng.range(-6.0, -2.0)) * if rng.chance(0.2) { -1.0 } else { 1.0 };
            let Some(moved) = b.moved(r.dir * (r.depth - delta)) else { continue };
            b = moved;
            cb = b.core();
            ca = a.core();
            r = reference(&ca, &cb, A::PLANAR);
        }
        t.cases += 1;
        let size = a.size().max(b.size());
        let mag = a.magnitude().max(b.magnitude());
        let tol = 1e-4 * size + 1e-5 * mag;
        if t.cases % 4 == 0 && !matches!(ca.kind, Kind::Plane(..)) && r.depth >= 0.0 {
            let dm = dense_min(&ca.kind, &cb.kind, A::PLANAR, &mut rng) + ca.r + cb.r;
            if dm < r.depth - (1e-6 * size + 1e-9 * mag) {
                t.reference += 1;
                t.note(format!("reference above a dense search: {} > {dm}: {a:?} {b:?}", r.depth));
            }
        }
        if r.facet_gap > 1e-9 * (size + mag) {
            t.reference += 1;
            t.note(format!("facet normals miss the minimum by {}: {a:?} {b:?}", r.facet_gap));
        }
        let got = a.contact(&b).map(|c| c.nd());
        match got {
            None => {
                if r.depth > tol {
                    t.missed += 1;
                    t.note(format!("missed overlap, reference depth {}: {a:?} {b:?}", r.depth));
                }
            }
            Some((n, depth)) => {
                if r.depth < -tol {
                    t.phantom += 1;
                    t.note(format!("contact of apart shapes, reference {}: {a:?} {b:?}", r.depth));
                    continue;
                }
                t.overlapping += 1;
                *t.classes.entry(r.class).or_default() += 1;
                let want = r.depth.max(0.0);
                let err = (depth - want).abs();
                t.worst = t.worst.max(err / tol);
                if err > tol {
                    t.depth += 1;
                    t.note(format!("depth {depth} vs reference {want} (dir {:?}): {a:?} {b:?}", r.dir));
                }
                let h = h_shapes(&ca, &cb, n.normalize());
                if (h - depth).abs() > tol {
                    t.normal += 1;
                    t.note(format!("normal {n:?} achieves {h}, not its depth {depth}: {a:?} {b:?}"));
                }
            }
        }
    }
    println!(
        "{name:<22} cases {:>6}  overlapping {:>6}  depth {:>4}  normal {:>4}  missed {:>3}  phantom {:>3}  reference {:>3}  worst {:.3}",
        t.cases, t.overlapping, t.depth, t.normal, t.missed, t.phantom, t.reference, t.worst
    );
    println!("    decided by {:?}", t.classes);
    for e in &t.examples {
        println!("    {e}");
    }
    t
}

macro_rules! audit_all {
    ($n:expr; $($A:ty, $B:ty);* $(;)?) => {{
        let mut bad = Vec::new();
        let mut seed = 1u64;
        $(
            seed += 1;
            let name = concat!(stringify!($A), "-", stringify!($B));
            let t = audit::<$A, $B>(name, $n, seed);
            if t.bad() > 0 {
                bad.push((name, t.bad()));
            }
        )*
        bad
    }};
}

fn run_all(n: usize) {
    let bad = audit_all!(n;
        Circle, Circle; Circle, Aabb2; Circle, Obb2; Circle, Capsule2; Circle, Segment2;
        Aabb2, Aabb2; Aabb2, Obb2; Aabb2, Capsule2; Aabb2, Segment2;
        Obb2, Obb2; Obb2, Capsule2; Obb2, Segment2;
        Capsule2, Capsule2; Capsule2, Segment2; Segment2, Segment2;
        Sphere, Sphere; Sphere, Aabb3; Sphere, Obb3; Sphere, Capsule3; Sphere, Segment3; Sphere, Triangle3;
        Aabb3, Aabb3; Aabb3, Obb3; Aabb3, Capsule3; Aabb3, Segment3; Aabb3, Triangle3;
        Obb3, Obb3; Obb3, Capsule3; Obb3, Segment3; Obb3, Triangle3;
        Capsule3, Capsule3; Capsule3, Segment3; Capsule3, Triangle3;
        Segment3, Segment3; Triangle3, Segment3; Triangle3, Triangle3;
        Plane, Sphere; Plane, Aabb3; Plane, Obb3; Plane, Triangle3; Plane, Segment3; Plane, Capsule3;
    );
    assert!(bad.is_empty(), "disagreements: {bad:?}");
}

#[test]
fn depth_is_the_minimum_translation_for_every_pair() {
    run_all(if cfg!(debug_assertions) { 500 } else { 2000 });
}

/// The larger sweep: `cargo test --release --test audit_contacts -- --ignored --nocapture`.
/// Reports no disagreement (the last one, a normal on Capsule3-Triangle3, is
/// `capsule_axis_along_a_triangle_edge_at_a_slant_of_1e_7`).
#[test]
#[ignore = "large sweep, run in release"]
fn depth_is_the_minimum_translation_large_sweep() {
    run_all(40_000);
}

/// A deliberately wrong box–box kernel for the audit to catch: raybox's contact with the
/// depth and normal of the 6 face axes only (the 9 edge–edge axes forgotten, the classic
/// SAT bug of RTCD 4.4).
#[derive(Clone, Copy, Debug)]
struct FacesOnly(Obb3);

impl Shape for FacesOnly {
    const PLANAR: bool = false;
    fn random(rng: &mut Rng, c: &Ctx) -> Option<Self> {
        Obb3::random(rng, c).map(FacesOnly)
    }
    fn core(&self) -> Core {
        self.0.core()
    }
    fn moved(&self, v: DVec3) -> Option<Self> {
        self.0.moved(v).map(FacesOnly)
    }
}

impl Contact<Obb3> for FacesOnly {
    type Output = Contact3;
    fn contact(&self, other: &Obb3) -> Option<Contact3> {
        let mut c = self.0.contact(other)?;
        let (a, b) = (self.core().kind, other.core().kind);
        let (h, n) = face_normals(&a)
            .into_iter()
            .chain(face_normals(&b))
            .flat_map(|n| [n.normalize(), -n.normalize()])
            .map(|n| (h_cores(&a, &b, n), n))
            .fold((f64::INFINITY, DVec3::X), |x, y| if y.0 < x.0 { y } else { x });
        (c.normal, c.depth) = (n.as_vec3(), h.max(0.0) as f32);
        Some(c)
    }
}

#[test]
fn the_audit_catches_a_box_kernel_without_edge_axes() {
    let t = audit::<FacesOnly, Obb3>("FacesOnly-Obb3 (mutant)", 300, 7);
    assert!(t.depth > 10, "the audit should see the missing edge axes: {t:?}");
}

// ---------------------------------------------------------------------------------------
// Cases the audit found: normals off the direction that achieves the depth, for a segment
// core nearly parallel to an edge of the other core and a hair outside it (GJK's closest
// points then came from the weights of a sliver simplex, whose rounding moves them along
// the nearly parallel edges; the depth was right).
// ---------------------------------------------------------------------------------------

/// `a.contact(b)` has the reference depth, and its normal achieves it, to the audit's
/// tolerance.
#[track_caller]
fn assert_minimal<A: Shape + Contact<B>, B: Shape>(a: A, b: B)
where
    <A as Contact<B>>::Output: Out,
{
    let (ca, cb) = (a.core(), b.core());
    let r = reference(&ca, &cb, A::PLANAR);
    let tol = 1e-4 * a.size().max(b.size()) + 1e-5 * a.magnitude().max(b.magnitude());
    let (n, depth) = a.contact(&b).expect("overlapping").nd();
    assert!((depth - r.depth.max(0.0)).abs() <= tol, "depth {depth}, reference {}", r.depth);
    let h = h_shapes(&ca, &cb, n.normalize());
    assert!((h - depth).abs() <= tol, "normal {n} achieves {h}, not the depth {depth} (tolerance {tol:e})");
}

fn obb3(center: [f32; 3], half: [f32; 3], cols: [[f32; 3]; 3]) -> Obb3 {
    let m = Mat3::from_cols(Vec3::from(cols[0]), Vec3::from(cols[1]), Vec3::from(cols[2]));
    Obb3::try_from_matrix(Vec3::from(center), Vec3::from(half), m).unwrap()
}

#[test]
fn capsule_along_a_box_edge_leaves_across_the_edge() {
    // The capsule's axis crosses the line of the box's edge x = max, y = min at a slant of
    // 1e-6, within 1e-6 of it: it leaves across the edge, not along +z (which moved it by
    // its radius 0.64 and left it 1.0 deep).
    let b = Aabb3::new(
        Vec3::new(-0.21635045, -0.9861311, -0.4922715),
        Vec3::new(0.21308719, 0.91284835, 0.5025559),
    );
    let c = Capsule3::new(
        Vec3::new(0.21308662, -0.98613644, -0.5292303),
        Vec3::new(0.21308811, -0.98612726, 0.97808176),
        0.63974744,
    );
    assert_minimal(b, c);
}

#[test]
fn capsule_nearly_parallel_to_a_turned_box_edge() {
    // On a grid of 1/128: the capsule's axis along x, the box turned by 2e-4, 8e-6 apart.
    // The normal was 4e-4 rad off, leaving the pair 4.8e-4 deep after the push.
    let b = obb3(
        [-11.765625, -15.421875, -1.734375],
        [0.953125, 0.234375, 0.84375],
        [
            [1.0, 0.00011941093, 0.00018501957],
            [-0.00011940838, 1.0, -1.3774211e-5],
            [-0.00018502121, 1.3752117e-5, 1.0],
        ],
    );
    let c = Capsule3::new(
        Vec3::new(-11.9609375, -15.65625, -0.890625),
        Vec3::new(-11.5703125, -15.65625, -0.890625),
        1.140625,
    );
    assert_minimal(b, c);
}

#[test]
fn segment_touching_a_box_edge_leaves_across_it() {
    // Depth zero (the segment touches the box's edge), and a normal across the edge, not
    // one that leaves the segment 464 deep.
    let b = obb3(
        [12.172025, 4.5810475, 11.781052],
        [228.1503, 236.25827, 673.63],
        [
            [0.71130115, -0.2571047, 0.65417725],
            [-0.35845125, -0.93326604, 0.022959683],
            [0.6046184, -0.2508219, -0.7559927],
        ],
    );
    let s = Segment3::new(
        Vec3::new(166.93057, -324.20392, -646.4178),
        Vec3::new(442.80322, -423.91968, -392.70068),
    );
    assert_minimal(b, s);
}

#[test]
fn capsule_along_a_triangle_edge_leaves_across_it() {
    let c = Capsule3::new(
        Vec3::new(23.081045, -3.8107555, 11.120203),
        Vec3::new(798.76447, -716.5712, 134.31314),
        710.5385,
    );
    let t = Triangle3::new(
        Vec3::new(209.19743, -174.82852, 40.677883),
        Vec3::new(652.06635, -581.77405, 111.01586),
        Vec3::new(826.2192, 532.602, 385.573),
    );
    assert_minimal(c, t);
}

#[test]
fn ball_centred_a_hair_off_a_capsule_axis_leaves_across_it() {
    // The centre is 6.4e-13 from the capsule's axis (coordinates about 0.6): the direction
    // between the closest points, rounded to ~1e-16, was 2.9e-4 rad off the axis's normal,
    // and the push along it left the pair 1.1e-4 deep.
    let ball = Circle::new(Vec2::new(0.038799543, 0.0006404728), 0.9078106);
    let capsule =
        Capsule2::new(Vec2::new(0.606728, -0.0929123), Vec2::new(-0.07095424, 0.018719811), 0.7035084);
    assert_minimal(ball, capsule);
}

#[test]
fn capsule_axis_along_a_triangle_edge_at_a_slant_of_1e_7() {
    // The capsule's axis runs along the triangle's edge v0-v1 at a slant of 1.3e-7 and
    // passes 3.4e-10 over its corner v0, nearest to the edge v2-v0 there. The depth was
    // right (0.8240289, the radius less the gap), but GJK took the sliver face of the
    // axis and the edge v0-v1 for the nearest: a normal 8 degrees off, along which the push
    // left the pair 0.13 deep (0.35 before the GJK fix of the closest points' difference).
    let c = Capsule3::new(
        Vec3::new(-0.05605537, 0.36945948, -0.11992862),
        Vec3::new(0.055259097, -0.03740881, 0.015670115),
        0.8240289,
    );
    let t = Triangle3::new(
        Vec3::new(-0.033815607, 0.28817037, -0.09283705),
        Vec3::new(0.051938567, -0.02527181, 0.011625213),
        Vec3::new(0.15447482, 0.06304456, 0.9847118),
    );
    assert_minimal(c, t);
    assert_minimal(t, c);
}

// The same family, found by a targeted search (a capsule's axis along a random triangle's
// edge, at slants of 3e-8 to 1e-4, a hair off it); each failed before the segment-triangle
// kernel of `closest_points_triangle_segment` (the last one with that kernel alone, before
// the normal took a triangle edge's direction).

#[test]
fn capsule_end_over_a_triangle_along_an_edge_at_a_slant_of_3e_8() {
    // The axis runs along the edge v0-v1 (a slant of 3.3e-8) over its interior, and its end
    // is 3.4e-9 above the face: the nearest pair is that end and its foot on the face.
    let c = Capsule3::new(
        Vec3::new(0.55432326, 0.08402183, -0.3258061),
        Vec3::new(-0.1700828, -0.13411917, -0.1067137),
        0.19412786,
    );
    let t = Triangle3::new(
        Vec3::new(0.7723698, 0.14968236, -0.39175302),
        Vec3::new(-0.49331647, -0.23145476, -0.0089535555),
        Vec3::new(-0.25900245, 0.07922368, -0.19688821),
    );
    assert_minimal(c, t);
    assert_minimal(t, c);
}

#[test]
fn capsule_through_a_triangle_along_an_edge_at_a_slant_of_1e_6() {
    // The axis crosses the face 6.3e-11 inside the edge v0-v1, along it at a slant of
    // 1.0e-6: the cores intersect, and the contact is theirs, not that of cores apart.
    let c = Capsule3::new(
        Vec3::new(-0.023869311, -0.4093469, 0.25921682),
        Vec3::new(0.45903844, -0.37463102, 0.459739),
        0.9555055,
    );
    let t = Triangle3::new(
        Vec3::new(-0.6348675, -0.4532718, 0.00550687),
        Vec3::new(0.6121149, -0.3636259, 0.523302),
        Vec3::new(0.07870691, 0.7003276, -0.5383217),
    );
    assert_minimal(c, t);
    assert_minimal(t, c);
}

#[test]
fn capsule_through_a_triangle_along_an_edge_at_a_slant_of_2e_5() {
    // As above, 1.2e-12 inside the edge, at a slant of 1.7e-5.
    let c = Capsule3::new(
        Vec3::new(0.7895466, 0.14239492, -0.17902651),
        Vec3::new(0.93598086, -0.48648742, 0.05356666),
        0.437566,
    );
    let t = Triangle3::new(
        Vec3::new(0.6872177, 0.5818105, -0.34155202),
        Vec3::new(0.9053767, -0.35503474, 0.004951257),
        Vec3::new(-0.03191447, 0.57790333, -0.15828036),
    );
    assert_minimal(c, t);
    assert_minimal(t, c);
}

#[test]
fn capsule_axis_5e_13_from_a_triangle_edge_leaves_across_it() {
    // The axis (along the edge v0-v1 at a slant of 3e-8) passes 4.6e-13 outside the edge
    // v2-v0, next to v0. The closest points are right to an ulp of their coordinates
    // (about 0.7), and so 1e-3 rad off the common perpendicular of the axis and that
    // edge over such a distance: the normal is that perpendicular.
    let c = Capsule3::new(
        Vec3::new(0.8685141, -0.41166595, -0.23536788),
        Vec3::new(0.5679566, 0.18845925, -0.20626453),
        0.46156332,
    );
    let t = Triangle3::new(
        Vec3::new(0.71750677, -0.1101485, -0.22074565),
        Vec3::new(0.26899663, 0.7853947, -0.17731589),
        Vec3::new(-0.53771967, 0.71921015, 0.0071524587),
    );
    assert_minimal(c, t);
    assert_minimal(t, c);
}

#[test]
fn segment_along_a_triangle_edge_is_as_far_as_its_nearest_pair() {
    // The first case's axis as a segment: its distance is that of the nearest pair of
    // features (the reference's, here the segment and the edge v2-v0 at v0, 3.427e-10),
    // where GJK's sliver face said 3.418e-10, nearer than any pair of points of the two.
    let s = Segment3::new(
        Vec3::new(-0.05605537, 0.36945948, -0.11992862),
        Vec3::new(0.055259097, -0.03740881, 0.015670115),
    );
    let t = Triangle3::new(
        Vec3::new(-0.033815607, 0.28817037, -0.09283705),
        Vec3::new(0.051938567, -0.02527181, 0.011625213),
        Vec3::new(0.15447482, 0.06304456, 0.9847118),
    );
    let want = core_distance(&t.core().kind, &s.core().kind);
    for got in [t.distance(&s), s.distance(&t)] {
        assert!((f64::from(got) - want).abs() <= 1e-6 * want, "distance {got}, reference {want:e}");
    }
}
