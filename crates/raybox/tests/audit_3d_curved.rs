//! Audit of the 3D curved pairs (`Sphere` and `Capsule3` against `Sphere`, `Capsule3`,
//! `Aabb3`, `Obb3`, `Segment3` and `Triangle3`) against an exact reference, in the manner of
//! `audit_2d.rs`: every shape is the convex hull of 1 to 8 vertices grown by a radius, so two
//! shapes overlap exactly when the origin is within `r1 + r2` of the convex hull of their
//! vertex differences (their Minkowski difference). On lattice scenes (integer vertices and
//! radii, oriented boxes turned by quarter turns) that decision is made in `i128`; distances,
//! depths, sweep times and ray hits are computed from the same hull in `f64` and compared
//! within tolerance. Scenes are scaled by powers of two (`2^-60 ..= 2^60`, which keeps the
//! lattice exact) and moved near `1e6`; constructed scenes touch exactly at large lattice
//! coordinates (Pythagorean directions), where `f64` products no longer hold the squares.
//! The frame shared with `audit_2d.rs` is `common/audit.rs`; this file gives the 3D shapes,
//! hulls and scenes.

mod common;

use common::audit::{
    Audit, Audited, D3, Ref, Rng, SCALES, check_contact, check_distance, check_overlap_family, check_ray,
    check_sweep, golden_min, scale, scaled_pairs,
};
use glam::{DVec3, Quat, Vec3};
use raybox::{
    Aabb3, Capsule3, Contact, Contact3, Distance, Obb3, Overlaps, Ray3, RayCast, RayHit3, RaySpan, Segment3,
    Sphere, Sweep, SweepHit3, Triangle3,
};

type Report = common::audit::Report<D3>;

// ---------------------------------------------------------------------------------------
// The shapes under test and their reference form.

#[derive(Clone, Copy, Debug)]
enum S {
    Ball(Sphere),
    Cap(Capsule3),
    Aabb(Aabb3),
    Obb(Obb3),
    Seg(Segment3),
    Tri(Triangle3),
}

macro_rules! with_b {
    ($b:expr, |$y:ident| $body:expr) => {
        match $b {
            S::Ball($y) => $body,
            S::Cap($y) => $body,
            S::Aabb($y) => $body,
            S::Obb($y) => $body,
            S::Seg($y) => $body,
            S::Tri($y) => $body,
        }
    };
}

/// The first shape is curved (a ball or a capsule); the second any.
macro_rules! pair {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {
        match $a {
            S::Ball($x) => with_b!($b, |$y| $body),
            S::Cap($x) => with_b!($b, |$y| $body),
            _ => unreachable!("the first shape of a pair is curved"),
        }
    };
}

macro_rules! curved {
    ($a:expr, |$x:ident| $body:expr) => {
        match $a {
            S::Ball($x) => $body,
            S::Cap($x) => $body,
            _ => unreachable!("a curved shape"),
        }
    };
}

fn dv(v: Vec3) -> DVec3 {
    v.as_dvec3()
}

impl Audited for S {
    type A = D3;

    fn reference(&self) -> Ref<D3> {
        match self {
            S::Ball(b) => Ref { v: vec![dv(b.center())], r: f64::from(b.radius()) },
            S::Cap(c) => Ref { v: vec![dv(c.start()), dv(c.end())], r: f64::from(c.radius()) },
            S::Aabb(b) => Ref { v: b.corners().iter().map(|&c| dv(c)).collect(), r: 0.0 },
            S::Obb(o) => {
                // Quarter turns: the axes are exact, and so are the corners in f64.
                let [u, w, z] = o.axes().map(dv);
                let (c, h) = (dv(o.center()), o.half_extents().as_dvec3());
                let mut v = Vec::new();
                for i in 0..8 {
                    let s = |k: i32| if i >> k & 1 == 1 { 1.0 } else { -1.0 };
                    v.push(c + u * (s(0) * h.x) + w * (s(1) * h.y) + z * (s(2) * h.z));
                }
                Ref { v, r: 0.0 }
            }
            S::Seg(g) => Ref { v: vec![dv(g.start()), dv(g.end())], r: 0.0 },
            S::Tri(t) => Ref { v: t.vertices().iter().map(|&c| dv(c)).collect(), r: 0.0 },
        }
    }

    fn name(&self) -> &'static str {
        match self {
            S::Ball(_) => "Sphere",
            S::Cap(_) => "Capsule3",
            S::Aabb(_) => "Aabb3",
            S::Obb(_) => "Obb3",
            S::Seg(_) => "Segment3",
            S::Tri(_) => "Triangle3",
        }
    }

    /// (Exact for the scenes used: powers of two and lattice offsets.)
    fn mapped(&self, k: f32, o: Vec3) -> S {
        match *self {
            S::Ball(b) => S::Ball(Sphere::new(b.center() * k + o, b.radius() * k)),
            S::Cap(c) => S::Cap(Capsule3::new(c.start() * k + o, c.end() * k + o, c.radius() * k)),
            S::Aabb(b) => S::Aabb(Aabb3::new(b.min() * k + o, b.max() * k + o)),
            S::Obb(q) => {
                S::Obb(Obb3::try_from_matrix(q.center() * k + o, q.half_extents() * k, q.rotation()).unwrap())
            }
            S::Seg(g) => S::Seg(Segment3::new(g.start() * k + o, g.end() * k + o)),
            S::Tri(t) => {
                let [a, b, c] = t.vertices();
                S::Tri(Triangle3::new(a * k + o, b * k + o, c * k + o))
            }
        }
    }

    // The first of a pair is curved ([`pair!`]): swapped queries are asked of `y` with `x`.
    fn overlaps(&self, other: &S, swap: bool) -> bool {
        if swap { pair!(self, other, |x, y| y.overlaps(x)) } else { pair!(self, other, |x, y| x.overlaps(y)) }
    }
    fn contact(&self, other: &S, swap: bool) -> Option<Contact3> {
        if swap { pair!(self, other, |x, y| y.contact(x)) } else { pair!(self, other, |x, y| x.contact(y)) }
    }
    fn distance(&self, other: &S, swap: bool) -> f32 {
        if swap { pair!(self, other, |x, y| y.distance(x)) } else { pair!(self, other, |x, y| x.distance(y)) }
    }
    fn closest_points(&self, other: &S, swap: bool) -> (Vec3, Vec3) {
        if swap {
            pair!(self, other, |x, y| y.closest_points(x))
        } else {
            pair!(self, other, |x, y| x.closest_points(y))
        }
    }
    fn sweep(&self, v: Vec3, other: &S, swap: bool) -> Option<SweepHit3> {
        if swap { pair!(self, other, |x, y| y.sweep(v, x)) } else { pair!(self, other, |x, y| x.sweep(v, y)) }
    }
    fn ray(&self, ray: &Ray3) -> (Option<RaySpan>, Option<RayHit3>) {
        curved!(self, |x| (x.ray_span(ray), x.cast_ray(ray)))
    }

    /// Touching pairs outside [`EXACT`]: their overlaps are within the contract (a hair of
    /// the boundary), and counted by `touching_lattice_pairs`.
    fn tolerated(a: &S, b: &S, ra: &Ref<D3>, rb: &Ref<D3>, unit: f64) -> bool {
        let key = format!("{} {}", a.name(), b.name());
        !EXACT.contains(&key.as_str()) && exact_overlap_touching(ra, rb, unit).is_some_and(|x| x.1)
    }
}

// ---------------------------------------------------------------------------------------
// Exact decisions on lattice points (`i128`).

type P = [i128; 3];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: P, b: P) -> i128 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: P, b: P) -> P {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// Whether the origin is within `sqrt(rr)` of the convex hull of `pts`, exactly: the
/// nearest point of a hull that does not hold the origin lies on a triangle, an edge or a
/// vertex of its points (each tested by its own region), and a hull that holds it holds it
/// in a tetrahedron of its points (Carathéodory).
fn hull_within(pts: &[P], (rn, rd): (i128, i128)) -> bool {
    let n = pts.len();
    if pts.iter().any(|&p| dot(p, p) * rd <= rn) {
        return true;
    }
    for i in 0..n {
        for j in i + 1..n {
            let (a, d) = (pts[i], sub(pts[j], pts[i]));
            let (t, dd) = (-dot(a, d), dot(d, d));
            if t > 0 && t < dd {
                let c = cross(a, d);
                if dot(c, c) * rd <= rn * dd {
                    return true;
                }
            }
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let (a, b, c) = (pts[i], pts[j], pts[k]);
                let nn = cross(sub(b, a), sub(c, a));
                if nn == [0, 0, 0] {
                    continue;
                }
                let inside = [(a, b), (b, c), (c, a)]
                    .iter()
                    .all(|&(p, q)| dot(nn, cross(sub(q, p), [-p[0], -p[1], -p[2]])) >= 0);
                let g = dot(nn, a);
                if inside && g * g * rd <= rn * dot(nn, nn) {
                    return true;
                }
            }
        }
    }
    let orient = |a: P, b: P, c: P, d: P| dot(sub(b, a), cross(sub(c, a), sub(d, a))).signum();
    let o = [0, 0, 0];
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                for l in k + 1..n {
                    let (a, b, c, d) = (pts[i], pts[j], pts[k], pts[l]);
                    let s = orient(a, b, c, d);
                    if s != 0
                        && [orient(o, b, c, d), orient(a, o, c, d), orient(a, b, o, d), orient(a, b, c, o)]
                            .iter()
                            .all(|&x| x == s || x == 0)
                    {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// The squared distance from the origin to the convex hull of `pts`, exactly, as
/// `num / den` (the same regions as [`hull_within`]).
fn hull_d2(pts: &[P]) -> (i128, i128) {
    if hull_within(pts, (0, 1)) {
        return (0, 1);
    }
    let n = pts.len();
    let mut best = pts.iter().map(|&p| (dot(p, p), 1)).min_by(|a, b| (a.0 * b.1).cmp(&(b.0 * a.1))).unwrap();
    let mut keep = |c: (i128, i128)| {
        if c.0 * best.1 < best.0 * c.1 {
            best = c;
        }
    };
    for i in 0..n {
        for j in i + 1..n {
            let (a, d) = (pts[i], sub(pts[j], pts[i]));
            let (t, dd) = (-dot(a, d), dot(d, d));
            if t > 0 && t < dd {
                let c = cross(a, d);
                keep((dot(c, c), dd));
            }
            for k in j + 1..n {
                let (a, b, c) = (pts[i], pts[j], pts[k]);
                let nn = cross(sub(b, a), sub(c, a));
                if nn == [0, 0, 0] {
                    continue;
                }
                let inside = [(a, b), (b, c), (c, a)]
                    .iter()
                    .all(|&(p, q)| dot(nn, cross(sub(q, p), [-p[0], -p[1], -p[2]])) >= 0);
                if inside {
                    let g = dot(nn, a);
                    keep((g * g, dot(nn, nn)));
                }
            }
        }
    }
    best
}

/// [`Audit::exact_overlap`], and whether the two touch exactly (the cores exactly `r1 + r2`
/// apart, with `r1 + r2 > 0`).
fn exact_overlap_touching(a: &Ref<D3>, b: &Ref<D3>, unit: f64) -> Option<(bool, bool)> {
    let mut pts = a.lattice_minus(b, unit)?;
    pts.sort_unstable();
    pts.dedup();
    // The radius as `num / 2^e` in lattice units (a dyadic rational: one `f32` step off an
    // integer, say); the squares' comparisons then scale by `4^e`.
    let mut r = (a.r + b.r) / unit;
    let mut e = 0;
    while r.fract() != 0.0 && e < 40 {
        r *= 2.0;
        e += 1;
    }
    if r.fract() != 0.0 || r > 1e9 {
        return None;
    }
    let r = r as i128;
    let (rn, rd) = (r * r, 1i128 << (2 * e));
    let within = hull_within(&pts, (rn, rd));
    // Touching: within, and not within any smaller radius (the squared distance is r²);
    // for a zero radius, a point of a flat hull (no tetrahedron of its points has volume).
    let flat = || {
        let o = pts[0];
        let n = pts.len();
        (1..n).all(|i| {
            (i + 1..n)
                .all(|j| (j + 1..n).all(|k| dot(sub(pts[i], o), cross(sub(pts[j], o), sub(pts[k], o))) == 0))
        })
    };
    let touching = within && (r > 0 || flat()) && {
        let (num, den) = hull_d2(&pts);
        num * rd == rn * den
    };
    Some((within, touching))
}

// ---------------------------------------------------------------------------------------
// Float reference: signed distance to a rounded convex polytope.

fn closest_on_segment(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let d = b - a;
    let dd = d.length_squared();
    let t = if dd == 0.0 { 0.0 } else { ((p - a).dot(d) / dd).clamp(0.0, 1.0) };
    a + d * t
}

/// The distance from `p` to the triangle `a b c` (possibly degenerate).
fn tri_dist(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let n = (b - a).cross(c - a);
    let edges = [(a, b), (b, c), (c, a)]
        .iter()
        .map(|&(x, y)| (closest_on_segment(p, x, y) - p).length())
        .fold(f64::INFINITY, f64::min);
    if n.length_squared() == 0.0 {
        return edges;
    }
    let inside = [(a, b), (b, c), (c, a)].iter().all(|&(x, y)| n.dot((y - x).cross(p - x)) >= 0.0);
    if inside { (n.dot(p - a) / n.length()).abs() } else { edges }
}

/// A convex hull: its points, and for a solid hull its facets (outward unit normal and
/// offset) and the triangles of its points that lie on them.
pub struct Hull {
    pts: Vec<DVec3>,
    facets: Vec<(DVec3, f64)>,
    tris: Vec<[usize; 3]>,
}

fn hull(pts: &[DVec3]) -> Hull {
    let mut p: Vec<DVec3> = pts.to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)).then(a.z.total_cmp(&b.z)));
    p.dedup();
    let n = p.len();
    let (mut facets, mut tris) = (Vec::new(), Vec::new());
    let mut all = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                all.push([i, j, k]);
                let nn = (p[j] - p[i]).cross(p[k] - p[i]);
                if nn == DVec3::ZERO {
                    continue;
                }
                let sides: Vec<f64> = p.iter().map(|&q| nn.dot(q - p[i])).collect();
                let (pos, neg) = (sides.iter().any(|&s| s > 0.0), sides.iter().any(|&s| s < 0.0));
                if pos && neg || !pos && !neg {
                    continue;
                }
                let u = if pos { -nn } else { nn }.normalize();
                tris.push([i, j, k]);
                facets.push((u, u.dot(p[i])));
            }
        }
    }
    if facets.is_empty() {
        // Flat or lower: every triangle, and the points themselves.
        tris = all;
    }
    Hull { pts: p, facets, tris }
}

/// Signed distance from `q` to the hull (negative inside).
fn hull_sd(h: &Hull, q: DVec3) -> f64 {
    if !h.facets.is_empty() && h.facets.iter().all(|&(u, o)| u.dot(q) <= o) {
        return -h.facets.iter().map(|&(u, o)| o - u.dot(q)).fold(f64::INFINITY, f64::min);
    }
    let mut d = h.pts.iter().map(|&p| (p - q).length()).fold(f64::INFINITY, f64::min);
    if h.pts.len() == 2 {
        d = d.min((closest_on_segment(q, h.pts[0], h.pts[1]) - q).length());
    }
    for &[i, j, k] in &h.tris {
        d = d.min(tri_dist(q, h.pts[i], h.pts[j], h.pts[k]));
    }
    d
}

impl Audit for D3 {
    type P = P;
    type Hull = Hull;
    const SHOW: &'static str = "AUDIT_3D_SHOW";
    const SWEEP_STEPS: usize = 80;
    const RAY_STEPS: usize = 120;

    fn lattice(v: DVec3, unit: f64) -> Option<P> {
        let w = v / unit;
        let ok = |x: f64| x.fract() == 0.0 && x.abs() < 1e15;
        (ok(w.x) && ok(w.y) && ok(w.z)).then_some([w.x as i128, w.y as i128, w.z as i128])
    }

    fn exact_overlap(a: &Ref<D3>, b: &Ref<D3>, unit: f64) -> Option<bool> {
        exact_overlap_touching(a, b, unit).map(|x| x.0)
    }

    fn hull(pts: &[DVec3]) -> Hull {
        hull(pts)
    }

    fn hull_sd(h: &Hull, q: DVec3) -> f64 {
        hull_sd(h, q)
    }
}

// ---------------------------------------------------------------------------------------
// Scene generators.

/// A rotation by quarter turns: an integer quaternion with one, two or four non-zero
/// components of magnitude one (a signed permutation matrix, exact).
fn quarter_turn(rng: &mut Rng) -> Quat {
    let mut q = [0.0f32; 4];
    match rng.next() % 3 {
        0 => q[(rng.next() % 4) as usize] = 1.0,
        1 => {
            let i = (rng.next() % 4) as usize;
            let j = (i + 1 + (rng.next() % 3) as usize) % 4;
            q[i] = 1.0;
            q[j] = rng.pick(&[1.0, -1.0]);
        }
        _ => q = [0, 1, 2, 3].map(|_| rng.pick(&[1.0f32, -1.0])),
    }
    Quat::from_xyzw(q[0], q[1], q[2], q[3])
}

/// A lattice shape with coordinates in `[-n, n]` and sizes up to `m`; zero sizes, zero
/// radii and zero-length cores now and then.
fn lattice_shape(rng: &mut Rng, kind: u64, n: i64, m: i64) -> S {
    let size = |rng: &mut Rng| if rng.next().is_multiple_of(5) { 0.0 } else { rng.int(0, m) as f32 };
    match kind % 6 {
        0 => S::Ball(Sphere::new(rng.vec3(n), size(rng))),
        1 => {
            let a = rng.vec3(n);
            let b = if rng.next().is_multiple_of(7) { a } else { rng.vec3(n) };
            S::Cap(Capsule3::new(a, b, size(rng)))
        }
        2 => {
            let lo = rng.vec3(n);
            S::Aabb(Aabb3::new(lo, lo + Vec3::new(size(rng), size(rng), size(rng))))
        }
        3 => {
            // Half extents and a centre such that the corners stay on the lattice.
            let c = rng.vec3(n);
            let h = Vec3::new(size(rng), size(rng), size(rng)) * 0.5;
            let rot = Obb3::new(Vec3::ZERO, h, quarter_turn(rng)).rotation();
            let w = (rot * h).abs(); // the half extents along the world axes
            let c = c + Vec3::new(w.x.fract(), w.y.fract(), w.z.fract());
            S::Obb(Obb3::try_from_matrix(c, h, rot).unwrap())
        }
        4 => {
            let a = rng.vec3(n);
            let b = if rng.next().is_multiple_of(7) { a } else { rng.vec3(n) };
            S::Seg(Segment3::new(a, b))
        }
        _ => loop {
            let (a, b, c) = (rng.vec3(n), rng.vec3(n), rng.vec3(n));
            if let Ok(t) = Triangle3::try_new(a, b, c) {
                break S::Tri(t);
            }
        },
    }
}

/// A curved shape (ball or capsule) and a shape of any kind.
fn lattice_pair(rng: &mut Rng, i: u64, n: i64, m: i64) -> (S, S) {
    let a = lattice_shape(rng, i % 2, n, m);
    let k = rng.next();
    (a, lattice_shape(rng, k, n, m))
}

/// How many times more cases to run (`AUDIT_3D_MULT`, for longer hunts by hand); fewer in
/// debug builds.
fn mult() -> u64 {
    let m = std::env::var("AUDIT_3D_MULT").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    if cfg!(debug_assertions) { m.max(1) } else { m * 8 }
}

fn lattice_ray(rng: &mut Rng, n: i64) -> Ray3 {
    let o = rng.vec3(n);
    let mut d = Vec3::ZERO;
    while d == Vec3::ZERO {
        d = rng.vec3(3);
    }
    let t0 = rng.pick(&[0.0, -2.0, 0.5, 1.0]);
    let t1 = rng.pick(&[4.0, 1.0, 2.5, 8.0]);
    Ray3::with_range(o, d, t0, t1)
}

// ---------------------------------------------------------------------------------------
// Tests.

/// Calls `f(rng, a, b, s)` on `count` (times `mult()`) lattice pairs ([`lattice_pair`]
/// with the lattice sizes `nm`), scaled together by `s`, a power of two from [`SCALES`] in
/// turn.
fn scaled_lattice_pairs(seed: u64, count: u64, (n, m): (i64, i64), f: impl FnMut(&mut Rng, &S, &S, f32)) {
    scaled_pairs(seed, count * mult(), |rng, i| lattice_pair(rng, i, n, m), f);
}

#[test]
fn lattice_overlaps_contacts_distances_exact_in_both_orders() {
    let mut rep = Report::new();
    scaled_lattice_pairs(1, 2_000, (5, 4), |_, a, b, s| {
        check_overlap_family(&mut rep, a, b, f64::from(s));
    });
    rep.finish("lattice overlaps");
}

#[test]
fn lattice_far_from_the_origin() {
    let mut rep = Report::new();
    let mut rng = Rng::new(2);
    for i in 0..1_000 * mult() {
        let (a, b) = lattice_pair(&mut rng, i, 5, 4);
        let o = rng.pick(&[
            Vec3::splat(1_048_576.0),
            Vec3::new(-8_388_600.0, 3_000_000.0, 1_000_000.0),
            Vec3::new(1e6, -1e6, 4e6),
        ]);
        check_overlap_family(&mut rep, &a.mapped(1.0, o), &b.mapped(1.0, o), 1.0);
    }
    rep.finish("far lattice overlaps");
}

#[test]
fn contacts_against_the_minkowski_reference() {
    let mut rep = Report::new();
    scaled_lattice_pairs(3, 1_000, (4, 4), |_, a, b, _| check_contact(&mut rep, a, b));
    rep.finish("contacts");
}

#[test]
fn distances_against_the_minkowski_reference() {
    let mut rep = Report::new();
    scaled_lattice_pairs(4, 1_000, (6, 4), |_, a, b, _| check_distance(&mut rep, a, b));
    rep.finish("distances");
}

#[test]
fn sweeps_against_the_minkowski_reference() {
    let mut rep = Report::new();
    scaled_lattice_pairs(5, 500, (6, 3), |rng, a, b, s| {
        let v = rng.vec3(12);
        let rev = rng.next().is_multiple_of(2);
        check_sweep(&mut rep, a, v * s, b, f64::from(s), rev);
    });
    rep.finish("sweeps");
}

#[test]
fn sweeps_far_from_the_origin_and_grazing() {
    let mut rep = Report::new();
    let mut rng = Rng::new(9);
    for i in 0..400 * mult() {
        let (a, b) = lattice_pair(&mut rng, i, 5, 3);
        let v = match i % 3 {
            0 => rng.vec3(12),
            1 => Vec3::new(rng.int(-12, 12) as f32, rng.int(-3, 3) as f32 / 1024.0, rng.int(-12, 12) as f32),
            _ => Vec3::new(rng.int(-3, 3) as f32 / 4096.0, rng.int(-12, 12) as f32, 0.0),
        };
        let o = if i % 2 == 0 { Vec3::splat(1_048_576.0) } else { Vec3::ZERO };
        check_sweep(&mut rep, &a.mapped(1.0, o), v, &b.mapped(1.0, o), 1.0, i % 4 == 1);
    }
    rep.finish("far and grazing sweeps");
}

#[test]
fn rays_against_the_reference() {
    let mut rep = Report::new();
    let mut rng = Rng::new(8);
    for i in 0..2_000 * mult() {
        let a = lattice_shape(&mut rng, i % 2, 5, 3);
        let ray = lattice_ray(&mut rng, 7);
        let s = scale(SCALES[(i % 7) as usize]);
        let r = Ray3::with_range(ray.origin() * s, ray.dir(), ray.t_min(), ray.t_max());
        check_ray(&mut rep, &a.mapped(s, Vec3::ZERO), &r);
    }
    rep.finish("rays");
}

/// The exact distance between the cores of two lattice shapes, when it is an integer.
fn integer_core_distance(a: &Ref<D3>, b: &Ref<D3>) -> Option<i128> {
    let mut pts = a.lattice_minus(b, 1.0)?;
    pts.sort_unstable();
    pts.dedup();
    let (num, den) = hull_d2(&pts);
    if num % den != 0 {
        return None;
    }
    let q = num / den;
    let k = (q as f64).sqrt().round() as i128;
    (k * k == q && k > 0).then_some(k)
}

/// The shape with its radius set to `r` (balls and capsules only).
fn with_radius(s: &S, r: f32) -> S {
    match *s {
        S::Ball(b) => S::Ball(Sphere::new(b.center(), r)),
        S::Cap(c) => S::Cap(Capsule3::new(c.start(), c.end(), r)),
        other => other,
    }
}

/// Lattice pairs whose cores are an integer `k` apart, their radii set to sum to `k`
/// (touching exactly) or to one `f32` step less (apart by a hair).
fn touching_pairs(seed: u64, count: u64, mut f: impl FnMut(&mut Rng, &S, &S, bool, f32)) {
    let mut rng = Rng::new(seed);
    let mut i = 0;
    let mut found = 0;
    while found < count * mult() {
        i += 1;
        let (a, b) = lattice_pair(&mut rng, i, 6, 4);
        let Some(k) = integer_core_distance(&a.reference(), &b.reference()) else { continue };
        found += 1;
        let k = k as f32;
        let curved_b = matches!(b, S::Ball(_) | S::Cap(_));
        let ra = if curved_b { rng.int(0, k as i64) as f32 } else { k };
        let touch = !rng.next().is_multiple_of(4);
        let (ra, rb) = if touch {
            (ra, k - ra)
        } else if curved_b && ra < k {
            (ra, (k - ra).next_down())
        } else {
            (ra.next_down(), k - ra)
        };
        let s = scale(SCALES[(i % 7) as usize]);
        let (a, b) = (with_radius(&a, ra), with_radius(&b, rb));
        f(&mut rng, &a.mapped(s, Vec3::ZERO), &b.mapped(s, Vec3::ZERO), touch, s);
    }
}

/// Counts, per pair and query, the touching (and one-step-apart) lattice pairs whose
/// answer is not the exact one. Prints the table (`--nocapture`); fails for the pairs in
/// `EXACT`, which decide touching exactly.
#[test]
fn touching_lattice_pairs() {
    use std::collections::BTreeMap;
    let mut table: BTreeMap<(String, &'static str), (usize, usize)> = BTreeMap::new();
    let mut rep = Report::new();
    let mut strict = Report::new();
    touching_pairs(20, 3_000, |_, a, b, touch, s| {
        let key = format!("{} {}", a.name(), b.name());
        let e = table.entry((key.clone(), if touch { "touching" } else { "one step apart" })).or_default();
        e.1 += 1;
        let mut r = Report::new();
        if let Some(q) = check_overlap_family(&mut r, a, b, f64::from(s)) {
            e.0 += 1;
            match r.fails.pop() {
                Some(f) => strict.fail(f), // an exact pair, or a pair one step apart
                None => rep.fail(format!("{q} {key}: {a:?} {b:?}")),
            }
        }
        strict.count += 1;
    });
    for ((pair, what), (bad, all)) in &table {
        eprintln!("{pair:20} {what:15} {bad:5} of {all}");
    }
    for f in rep.fails.iter().take(6) {
        eprintln!("(not exact yet) {f}");
    }
    strict.finish("touching lattice pairs");
}

/// The pairs that decide touching exactly.
const EXACT: &[&str] = &[
    "Sphere Sphere",
    "Sphere Aabb3",
    "Sphere Obb3",
    "Sphere Segment3",
    "Sphere Capsule3",
    "Capsule3 Sphere",
    "Capsule3 Capsule3",
    "Capsule3 Segment3",
    "Capsule3 Aabb3",
    "Capsule3 Obb3",
    "Sphere Triangle3",
    "Capsule3 Triangle3",
];

/// A point (a ball of radius 0) moving onto a triangle's edge that lies in its path's
/// plane: the path meets the triangle only on that edge, the closed-form pieces miss it by
/// rounding, and the watertight safety net gives an `f32` time, a hair late. The normal was
/// the direction from the edge to that overshot point, across the edge and along the
/// motion, `(0.914, -0.406, 0)` for a point at (1, 1, -5) moving by (3/4096, -11, 0) onto
/// the triangle (4, 5, 5), (0, -5, -5), (4, 4, -5); the reverse sweep likewise.
#[test]
fn point_onto_a_triangle_edge_gets_a_closing_normal() {
    let mut rep = Report::new();
    let tri = Triangle3::new(Vec3::new(4.0, 5.0, 5.0), Vec3::new(0.0, -5.0, -5.0), Vec3::new(4.0, 4.0, -5.0));
    let v = Vec3::new(3.0 / 4096.0, -11.0, 0.0);
    for k in -60..=60 {
        let s = scale(k);
        for o in [Vec3::ZERO, Vec3::splat(1_048_576.0 * s), Vec3::splat(1024.0 * s)] {
            let ball = S::Ball(Sphere::new(Vec3::new(1.0, 1.0, -5.0), 0.0)).mapped(s, o);
            let t = S::Tri(tri).mapped(s, o);
            for reverse in [false, true] {
                check_sweep(&mut rep, &ball, v * s, &t, f64::from(s), reverse);
            }
            let hit = pair!(&ball, &t, |x, y| x.sweep(v * s, y)).unwrap();
            rep.count += 1;
            if hit.normal.dot(v) > 0.0 {
                rep.fail(format!("scale 2^{k}, offset {o}: {hit:?}"));
            }
        }
    }
    rep.finish("point onto a triangle's edge");
}

/// The distance from `x` to the core of a ball or capsule, and the direction away from it.
fn core_offset(a: &S, x: DVec3) -> DVec3 {
    match a {
        S::Ball(b) => x - dv(b.center()),
        S::Cap(c) => x - closest_on_segment(x, dv(c.start()), dv(c.end())),
        _ => unreachable!("a curved shape"),
    }
}

/// Rays against balls and capsules whose radius is far below the rounding of their
/// coordinates (`1e-3` at `1e6`, where an `f32` step is `0.0625`): the normal is the unit
/// outward normal at the exact entry, within `1e-3` (for radii from `1e-3`), never along
/// the ray. The normal came from the `f32` hit point, whose rounding is noise at that size:
/// 17,852 of these 31,831 hits were off, most with the normal `-dir` (the point rounded to
/// the centre). The entry is
/// found in `f64` by bisection on the distance to the core; rays that pass within `0.8 r`
/// of the core (not grazing) only.
#[test]
fn tiny_radius_ray_normals() {
    let mut rep = Report::new();
    let mut rng = Rng::new(30);
    let mut hits = 0;
    for i in 0..4_000 * mult() {
        let o = Vec3::new(1_000_000.0, -3_000_000.0, 2_000_000.0);
        let r = rng.pick(&[1e-3f32, 0.01, 0.2, 1e-5]);
        let p = o + rng.vec3(8);
        let a = if i % 2 == 0 {
            S::Ball(Sphere::new(p, r))
        } else {
            S::Cap(Capsule3::new(p, p + rng.vec3(8), r))
        };
        // A ray from a lattice point toward a point near the core, off the lattice by a
        // fraction of the radius.
        let from = o + rng.vec3(30);
        let on = match a {
            S::Cap(c) => {
                c.start().as_dvec3() + (c.end() - c.start()).as_dvec3() * (rng.int(1, 15) as f64 / 16.0)
            }
            _ => p.as_dvec3(),
        };
        let jitter = DVec3::new(rng.int(-4, 4) as f64, rng.int(-4, 4) as f64, rng.int(-4, 4) as f64)
            * (f64::from(r) / 8.0);
        let dir = (on + jitter - from.as_dvec3()).as_vec3();
        if dir == Vec3::ZERO {
            continue;
        }
        let ray = Ray3::new(from, dir);
        let Some(hit) = curved!(&a, |x| x.cast_ray(&ray)) else { continue };
        let (od, dd) = (dv(from), dv(dir));
        let f = |t: f64| core_offset(&a, od + dd * t).length() - f64::from(r);
        // The closest approach (golden section), then the entry by bisection before it.
        let tm = golden_min(f, 0.0, 2.0, 200);
        if f(tm) > -0.2 * f64::from(r) || f(0.0) <= 0.0 {
            continue; // grazing, or starting inside
        }
        let (mut a0, mut b0) = (0.0, tm);
        for _ in 0..200 {
            let m = (a0 + b0) / 2.0;
            if f(m) > 0.0 { a0 = m } else { b0 = m }
        }
        let want = core_offset(&a, od + dd * b0).normalize();
        let n = dv(hit.normal);
        hits += 1;
        rep.count += 1;
        // (The body's roots are computed in `f64` from differences of size ~30, so for a
        // radius of `1e-5` the entry itself is within only about `1e-3 r`.)
        let close = r < 1e-3 || (n - want).length() <= 1e-3;
        if (n.length() - 1.0).abs() > 1e-5 || n.dot(dd) > 0.0 || !close {
            rep.fail(format!("{ray:?} against {a:?}: {hit:?}, want normal {want}"));
        }
    }
    assert!(hits > 1_000, "{hits}");
    rep.finish("tiny radius ray normals");
}

/// A ball touching a segment (or a capsule's core) exactly at large lattice coordinates:
/// the segment along `(1, 2, 2) k`, the centre `(2, 1, -2) m` or `(2, -2, 1) m` beside an
/// inner point (or `(1, 2, 2) m` past an end), `3 m` away, with integers up to `2^21`:
/// touching overlaps, one `f32` step less does not, in both orders, for `Sphere`–`Segment3`
/// and `Sphere`–`Capsule3` (the radius split between the two). The squares outgrow `f64`,
/// whose test read some touching centres as apart.
#[test]
fn balls_touching_segments_exactly_at_large_coordinates() {
    let mut rep = Report::new();
    let mut rng = Rng::new(40);
    for i in 0..2_000 * mult() {
        let k = rng.int(1, 1 << 19);
        let m = rng.int(1, 1 << 19);
        let j = rng.int(0, k);
        let big = |rng: &mut Rng| rng.int(-(1 << 21), 1 << 21) as f32;
        let p = Vec3::new(big(&mut rng), big(&mut rng), big(&mut rng));
        let dir = Vec3::new(1.0, 2.0, 2.0);
        let q = p + dir * k as f32;
        let c = match i % 3 {
            0 => p + dir * j as f32 + Vec3::new(2.0, 1.0, -2.0) * m as f32,
            1 => p + dir * j as f32 + Vec3::new(2.0, -2.0, 1.0) * m as f32,
            _ => q + dir * m as f32,
        };
        let r = 3.0 * m as f32;
        let seg = Segment3::new(p, q);
        let split = rng.int(0, m - 1) as f32;
        for (r, want) in [(r, true), (r.next_down(), false)] {
            rep.count += 1;
            let ball = Sphere::new(c, r);
            let got = [ball.overlaps(&seg), seg.overlaps(&ball), ball.distance(&seg) == 0.0];
            if got.iter().any(|&g| g != want) {
                rep.fail(format!("{ball:?} {seg:?}: {got:?}, want {want}"));
            }
            // The same touching as a ball and a capsule: radii `r - 3 split` and `3 split`
            // (exact in `f32`, and so is their sum).
            let (rb, rc) = (r - 3.0 * split, 3.0 * split);
            if rb + rc == r && f64::from(rb) + f64::from(rc) == f64::from(r) {
                let (ball, cap) = (Sphere::new(c, rb), Capsule3::new(p, q, rc));
                let got = [ball.overlaps(&cap), cap.overlaps(&ball), ball.distance(&cap) == 0.0];
                if got.iter().any(|&g| g != want) {
                    rep.fail(format!("{ball:?} {cap:?}: {got:?}, want {want}"));
                }
            }
        }
    }
    rep.finish("balls touching segments at large coordinates");
}

/// Capsules touching exactly, at every scale: two crossing cores along `(1, 2, 2)` and
/// `(2, 1, -2)`, `3` apart along their common normal `(-2, 2, -1)`, with radii `1` and `2`;
/// a capsule of radius 3 whose core passes `3` from a box's edge (along `(2, -2, 1)` from
/// the edge's middle) and from an oriented box turned a quarter turn; a segment `3` from a
/// capsule's core; lattice pairs that GJK read as a hair apart; and a point on a triangle
/// (a ball of radius 0), which the closest-point test read as off it.
#[test]
fn capsules_and_points_touching_exactly() {
    let mut rep = Report::new();
    let cap = |a: Vec3, b: Vec3, r: f32| S::Cap(Capsule3::new(a, b, r));
    let (d1, d2, n) = (Vec3::new(1.0, 2.0, 2.0), Vec3::new(2.0, 1.0, -2.0), Vec3::new(-2.0, 2.0, -1.0));
    let c0 = Vec3::new(1.0, -2.0, 3.0);
    let scenes = [
        (cap(c0 - d1, c0 + d1 * 2.0, 1.0), cap(c0 + n - d2 * 2.0, c0 + n + d2, 2.0)),
        (cap(c0 - d1, c0 + d1 * 2.0, 3.0), S::Seg(Segment3::new(c0 + n - d2 * 2.0, c0 + n + d2))),
        (cap(c0 - d1, c0 + d1 * 2.0, 9.0), S::Seg(Segment3::new(c0 + n * 3.0 - d2, c0 + n * 3.0 + d2))),
        // The box [0, 4] x [0, 2] x [-1, 5]: its edge x = 4, y = 0 (z from -1 to 5); the core
        // crosses above (2, -2, 1) from that edge's point (4, 0, 2), along (1, 1, 0).
        (
            cap(
                Vec3::new(6.0, -2.0, 3.0) - Vec3::new(1.0, 1.0, 0.0) * 3.0,
                Vec3::new(6.0, -2.0, 3.0) + Vec3::new(1.0, 1.0, 0.0) * 2.0,
                3.0,
            ),
            S::Aabb(Aabb3::new(Vec3::new(0.0, 0.0, -1.0), Vec3::new(4.0, 2.0, 5.0))),
        ),
        (
            cap(
                Vec3::new(6.0, -2.0, 3.0) - Vec3::new(1.0, 1.0, 0.0) * 3.0,
                Vec3::new(6.0, -2.0, 3.0) + Vec3::new(1.0, 1.0, 0.0) * 2.0,
                3.0,
            ),
            S::Obb(Obb3::new(
                Vec3::new(2.0, 1.0, 2.0),
                Vec3::new(1.0, 2.0, 3.0),
                Quat::from_xyzw(0.0, 0.0, 1.0, 1.0),
            )),
        ),
        // Touching lattice pairs that GJK read as apart (found by `touching_lattice_pairs`).
        (
            cap(Vec3::new(2.0, 4.0, -1.0), Vec3::new(1.0, 0.0, -4.0), 1.0),
            S::Seg(Segment3::new(Vec3::new(4.0, -2.0, -5.0), Vec3::new(-6.0, 2.0, -4.0))),
        ),
        (
            cap(Vec3::new(0.0, 6.0, 0.0), Vec3::new(-6.0, 3.0, -6.0), 7.0),
            S::Aabb(Aabb3::new(Vec3::new(-6.0, 1.0, 4.0), Vec3::new(-3.0, 1.0, 7.0))),
        ),
        (
            cap(Vec3::new(-3.0, 1.0, 4.0), Vec3::new(-3.0, 4.0, 0.0), 3.0),
            S::Obb(
                Obb3::try_from_matrix(
                    Vec3::new(-2.5, 0.5, -1.0),
                    Vec3::new(0.0, 1.5, 0.5),
                    glam::Mat3::from_cols(Vec3::NEG_Z, Vec3::NEG_X, Vec3::Y),
                )
                .unwrap(),
            ),
        ),
        (
            cap(Vec3::new(-6.0, 2.0, -4.0), Vec3::new(-5.0, -6.0, 0.0), 0.0),
            cap(Vec3::new(-3.0, -1.0, -4.0), Vec3::new(5.0, -2.0, -1.0), 3.0),
        ),
        (
            S::Ball(Sphere::new(Vec3::new(0.0, -4.0, 3.0), 0.0)),
            S::Tri(Triangle3::new(
                Vec3::new(3.0, 1.0, 2.0),
                Vec3::new(-1.0, -5.0, 4.0),
                Vec3::new(2.0, -2.0, 1.0),
            )),
        ),
    ];
    for k in -60..=60 {
        let s = scale(k);
        for (a, b) in &scenes {
            let (a, b) = (a.mapped(s, Vec3::ZERO), b.mapped(s, Vec3::ZERO));
            rep.count += 1;
            let exact = D3::exact_overlap(&a.reference(), &b.reference(), f64::from(s));
            if exact != Some(true) {
                rep.fail(format!("the scene does not touch: {exact:?} {a:?} {b:?}"));
            }
            let mut r = Report::new();
            if let Some(q) = check_overlap_family(&mut r, &a, &b, f64::from(s)) {
                let f = r.fails.pop().unwrap_or_else(|| format!("{q}: {a:?} {b:?}"));
                rep.fail(format!("scale 2^{k}: {f}"));
            }
        }
    }
    rep.finish("capsules and points touching exactly");
}

/// Orthogonal integer frames whose three vectors share one integer length: `(1, 2, 2)`,
/// `(2, 3, 6)` and `(1, 4, 8)` with their partners (lengths 3, 7 and 9).
const FRAMES: [([[i64; 3]; 3], i64); 3] = [
    ([[1, 2, 2], [2, 1, -2], [2, -2, 1]], 3),
    ([[2, 3, 6], [3, -6, 2], [6, 2, -3]], 7),
    ([[1, 4, 8], [4, 7, -4], [8, -4, 1]], 9),
];

/// A frame of [`FRAMES`] under a random signed permutation of the axes, its vectors in a
/// random order: `(e1, e2, e3, length)` with `e3` the one to step off a plane along.
fn lattice_frame(rng: &mut Rng) -> (Vec3, Vec3, Vec3, i64) {
    let ([a, b, c], len) = rng.pick(&FRAMES);
    let axes = rng.pick(&[[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]);
    let signs = [0, 1, 2].map(|_| if rng.next().is_multiple_of(2) { 1.0 } else { -1.0 });
    let turn = |v: [i64; 3]| Vec3::from_array([0, 1, 2].map(|k| v[axes[k]] as f32 * signs[k]));
    let vs = [turn(a), turn(b), turn(c)];
    let i = (rng.next() % 3) as usize;
    (vs[(i + 1) % 3], vs[(i + 2) % 3], vs[i], len)
}

/// Touching pairs whose cores are nearest at a point inside both (or a ball over a
/// triangle's face), with lattice coordinates near `2^21` and cores up to about `2^20`
/// long, where the products of the line distance (`|w · n|² ≤ r² |n|²`, degree 6) and of
/// the closest parameters (degree 4) outgrow `f64`: `f(rng, a, b, touch)` for the pair at
/// distance exactly `r` (`touch`) or with the radius one `f32` step less. Kinds (by
/// `i % 4`): capsule–capsule, capsule–segment, ball–triangle, capsule–triangle.
fn touching_at_large_coordinates(seed: u64, count: u64, mut f: impl FnMut(u64, &S, &S, bool)) {
    let mut rng = Rng::new(seed);
    for i in 0..count {
        let (e1, e2, e3, len) = lattice_frame(&mut rng);
        let c0 = Vec3::new(
            rng.int(-(1 << 21), 1 << 21) as f32,
            rng.int(-(1 << 21), 1 << 21) as f32,
            rng.int(-(1 << 21), 1 << 21) as f32,
        );
        let m = rng.int(1, 1 << 14);
        let r = (m * len) as f32; // the cores' distance
        // Lengths: up to 2^16 steps along directions of up to 8 times two frame vectors
        // (coordinates below 2^21 + 2^23 + 2^17 < 2^24: exact integers in `f32`).
        let long = |rng: &mut Rng| rng.int(1, 1 << 16) as f32;
        let small = |rng: &mut Rng| rng.int(-8, 8) as f32;
        let touch = !rng.next().is_multiple_of(4);
        let r = if touch { r } else { r.next_down() };
        // A split of `r` between two radii, both and their sum exact.
        let split = |rng: &mut Rng| {
            let ra = (rng.int(0, m * len) as f32).min(r);
            (ra, r - ra)
        };
        let side = if rng.next().is_multiple_of(2) { 1.0 } else { -1.0 };
        let off = c0 + e3 * (side * m as f32);
        let (a, b) = match i % 4 {
            0 | 1 => {
                // Two lines in planes parallel to (e1, e2), `m len` apart along e3, crossing
                // (seen along e3) at c0: directions with a non-zero determinant.
                let (d1, d2) = loop {
                    let (x, y, z, w) = (small(&mut rng), small(&mut rng), small(&mut rng), small(&mut rng));
                    if x * w - y * z != 0.0 {
                        break (e1 * x + e2 * y, e1 * z + e2 * w);
                    }
                };
                let (p, q) = (c0 - d1 * long(&mut rng), c0 + d1 * long(&mut rng));
                let (a, b) = (off - d2 * long(&mut rng), off + d2 * long(&mut rng));
                if i % 4 == 0 {
                    let (ra, rb) = split(&mut rng);
                    (S::Cap(Capsule3::new(p, q, ra)), S::Cap(Capsule3::new(a, b, rb)))
                } else {
                    (S::Cap(Capsule3::new(p, q, r)), S::Seg(Segment3::new(a, b)))
                }
            }
            _ => {
                // A triangle in the plane through c0 spanned by (e1, e2), c0 strictly inside
                // it; a ball above c0, or a capsule with an end there and the other end no
                // nearer the plane.
                let (ka, kb, kc, kd, ke) =
                    (long(&mut rng), long(&mut rng), long(&mut rng), long(&mut rng), long(&mut rng));
                let t = Triangle3::new(c0 - e1 * ka - e2 * kb, c0 + e1 * kc - e2 * kd, c0 + e2 * ke);
                let ball_or_cap = if i % 4 == 2 {
                    S::Ball(Sphere::new(off, r))
                } else {
                    let away = e1 * rng.int(-(1 << 12), 1 << 12) as f32
                        + e2 * small(&mut rng)
                        + e3 * (side * rng.int(0, 1 << 10) as f32);
                    S::Cap(Capsule3::new(off, off + away, r))
                };
                (ball_or_cap, S::Tri(t))
            }
        };
        f(i, &a, &b, touch);
    }
}

/// Cores (or a ball's centre) exactly `r` from each other (from a triangle's face) at a
/// point inside both, at lattice coordinates near `2^21`: touching overlaps, one `f32` step
/// less does not, in both orders, and the distance is zero and the contact `Some` exactly
/// then. The lines' distance in `f64` read touching pairs as apart: 2,388 of 8,000
/// capsule pairs, 2,440 of 8,000 capsule–segment pairs, and (the plane's distance) 222 of
/// 8,000 ball–triangle and 253 of 8,000 capsule–triangle pairs (about three quarters of
/// each kind touch).
#[test]
fn cores_touching_inside_at_large_coordinates() {
    let mut rep = Report::new();
    let names = ["Capsule3 Capsule3", "Capsule3 Segment3", "Sphere Triangle3", "Capsule3 Triangle3"];
    let mut wrong = [0usize; 4];
    let mut all = [0usize; 4];
    touching_at_large_coordinates(50, 4_000 * mult(), |i, a, b, want| {
        let k = (i % 4) as usize;
        all[k] += 1;
        rep.count += 1;
        let got = [
            a.overlaps(b, false),
            a.overlaps(b, true),
            a.distance(b, false) == 0.0,
            a.distance(b, true) == 0.0,
            a.contact(b, false).is_some(),
            a.contact(b, true).is_some(),
        ];
        if got.iter().any(|&g| g != want) {
            wrong[k] += 1;
            rep.fail(format!("{}: {a:?} {b:?}: {got:?}, want {want}", names[k]));
        }
    });
    for k in 0..4 {
        eprintln!("{:20} {:5} wrong of {}", names[k], wrong[k], all[k]);
    }
    rep.finish("cores touching inside at large coordinates");
}
