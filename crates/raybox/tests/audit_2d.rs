//! Audit of the 2D queries (`Aabb2`, `Obb2`, `Circle`, `Capsule2`, `Segment2`) against an
//! exact reference: every shape is a convex polygon (1 to 4 vertices) grown by a radius, so
//! two shapes overlap exactly when the origin is within `r1 + r2` of the convex hull of
//! their vertex differences (their Minkowski difference). On lattice scenes (integer
//! vertices and radii) that decision is made in `i128`; distances, depths and sweep times
//! are computed from the same hull in `f64` and compared within tolerance. The frame shared
//! with `audit_3d_curved.rs` (the reference form, the checks, the generator and the report)
//! is `common/audit.rs`; this file gives the 2D shapes, hulls and scenes.

mod common;

use common::audit::{
    Audit, Audited, D2, Ref, Rng, SCALES, check_contact, check_distance, check_overlap_family, check_ray,
    check_sweep, magnitude, scale, scaled_pairs,
};
use glam::{DVec2, Vec2};
use raybox::{
    Aabb2, BuildQuality, Bvh2, Capsule2, Circle, ClosestPoint, Contact, ContainsPoint, Distance, Obb2,
    Overlaps, Ray2, RayCast, RaySpan, Segment2, Sweep,
};

type Report = common::audit::Report<D2>;

// ---------------------------------------------------------------------------------------
// The shapes under test and their reference form.

#[derive(Clone, Copy, Debug)]
enum S {
    Aabb(Aabb2),
    Obb(Obb2),
    Circle(Circle),
    Cap(Capsule2),
    Seg(Segment2),
}

macro_rules! with_b {
    ($b:expr, |$y:ident| $body:expr) => {
        match $b {
            S::Aabb($y) => $body,
            S::Obb($y) => $body,
            S::Circle($y) => $body,
            S::Cap($y) => $body,
            S::Seg($y) => $body,
        }
    };
}

macro_rules! pair {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {
        match $a {
            S::Aabb($x) => with_b!($b, |$y| $body),
            S::Obb($x) => with_b!($b, |$y| $body),
            S::Circle($x) => with_b!($b, |$y| $body),
            S::Cap($x) => with_b!($b, |$y| $body),
            S::Seg($x) => with_b!($b, |$y| $body),
        }
    };
}

fn dv(v: Vec2) -> DVec2 {
    v.as_dvec2()
}

impl Audited for S {
    type A = D2;

    fn reference(&self) -> Ref<D2> {
        match self {
            S::Aabb(b) => Ref { v: b.corners().iter().map(|&c| dv(c)).collect(), r: 0.0 },
            S::Obb(o) => {
                // The box's own axes, exactly: products of f32s are exact in f64, and the sums
                // stay exact for the lattice scenes used here.
                let [u, w] = o.axes().map(dv);
                let (c, h) = (dv(o.center()), o.half_extents().as_dvec2());
                let v = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                    .iter()
                    .map(|&(sx, sy)| c + u * (sx * h.x) + w * (sy * h.y))
                    .collect();
                Ref { v, r: 0.0 }
            }
            S::Circle(c) => Ref { v: vec![dv(c.center())], r: f64::from(c.radius()) },
            S::Cap(c) => Ref { v: vec![dv(c.start()), dv(c.end())], r: f64::from(c.radius()) },
            S::Seg(g) => Ref { v: vec![dv(g.start()), dv(g.end())], r: 0.0 },
        }
    }

    fn name(&self) -> &'static str {
        match self {
            S::Aabb(_) => "Aabb2",
            S::Obb(_) => "Obb2",
            S::Circle(_) => "Circle",
            S::Cap(_) => "Capsule2",
            S::Seg(_) => "Segment2",
        }
    }

    /// (Exact for the scenes used: powers of two and lattice offsets.)
    fn mapped(&self, k: f32, o: Vec2) -> S {
        match *self {
            S::Aabb(b) => S::Aabb(Aabb2::new(b.min() * k + o, b.max() * k + o)),
            S::Obb(q) => S::Obb(
                Obb2::try_from_rotation(q.center() * k + o, q.half_extents() * k, q.axes()[0]).unwrap(),
            ),
            S::Circle(c) => S::Circle(Circle::new(c.center() * k + o, c.radius() * k)),
            S::Cap(c) => S::Cap(Capsule2::new(c.start() * k + o, c.end() * k + o, c.radius() * k)),
            S::Seg(g) => S::Seg(Segment2::new(g.start() * k + o, g.end() * k + o)),
        }
    }

    fn overlaps(&self, other: &S, swap: bool) -> bool {
        if swap { pair!(other, self, |x, y| x.overlaps(y)) } else { pair!(self, other, |x, y| x.overlaps(y)) }
    }
    fn contact(&self, other: &S, swap: bool) -> Option<raybox::Contact2> {
        if swap { pair!(other, self, |x, y| x.contact(y)) } else { pair!(self, other, |x, y| x.contact(y)) }
    }
    fn distance(&self, other: &S, swap: bool) -> f32 {
        if swap { pair!(other, self, |x, y| x.distance(y)) } else { pair!(self, other, |x, y| x.distance(y)) }
    }
    fn closest_points(&self, other: &S, swap: bool) -> (Vec2, Vec2) {
        let (a, b) = if swap { (other, self) } else { (self, other) };
        pair!(a, b, |x, y| x.closest_points(y))
    }
    fn sweep(&self, v: Vec2, other: &S, swap: bool) -> Option<raybox::SweepHit2> {
        let (a, b) = if swap { (other, self) } else { (self, other) };
        pair!(a, b, |x, y| x.sweep(v, y))
    }
    fn ray(&self, ray: &Ray2) -> (Option<RaySpan>, Option<raybox::RayHit2>) {
        with_b!(self, |x| (x.ray_span(ray), x.cast_ray(ray)))
    }
}

// ---------------------------------------------------------------------------------------
// Exact decisions on lattice points (`i128`).

type P = (i128, i128);

fn cross(o: P, a: P, b: P) -> i128 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

/// Convex hull, counter-clockwise, without collinear points (Andrew's monotone chain).
fn hull(mut pts: Vec<P>) -> Vec<P> {
    pts.sort_unstable();
    pts.dedup();
    if pts.len() <= 2 {
        return pts;
    }
    let mut h: Vec<P> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let iter: Box<dyn Iterator<Item = &P>> =
            if pass == 0 { Box::new(pts.iter()) } else { Box::new(pts.iter().rev()) };
        for &p in iter {
            while h.len() >= start + 2 && cross(h[h.len() - 2], h[h.len() - 1], p) <= 0 {
                h.pop();
            }
            h.push(p);
        }
        h.pop();
    }
    if h.len() == 2 && h[0] == h[1] {
        h.pop();
    }
    h
}

/// Squared distance from `q` to the hull as `num / den` (exact).
fn hull_d2(h: &[P], q: P) -> (i128, i128) {
    let sq = |p: P| (p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1);
    if h.len() == 1 {
        return (sq(h[0]), 1);
    }
    if h.len() >= 3 && (0..h.len()).all(|i| cross(h[i], h[(i + 1) % h.len()], q) >= 0) {
        return (0, 1);
    }
    let n = if h.len() == 2 { 1 } else { h.len() };
    let mut best: Option<(i128, i128)> = None;
    for i in 0..n {
        let (p, r) = (h[i], h[(i + 1) % h.len()]);
        let d = (r.0 - p.0, r.1 - p.1);
        let dd = d.0 * d.0 + d.1 * d.1;
        let t = (q.0 - p.0) * d.0 + (q.1 - p.1) * d.1;
        let cand = if t <= 0 {
            (sq(p), 1)
        } else if t >= dd {
            (sq(r), 1)
        } else {
            let c = cross(p, r, q);
            (c * c, dd)
        };
        if best.is_none_or(|b| cand.0 * b.1 < b.0 * cand.1) {
            best = Some(cand);
        }
    }
    best.unwrap()
}

impl Audit for D2 {
    type P = P;
    type Hull = Vec<DVec2>;
    const SHOW: &'static str = "AUDIT_2D_SHOW";
    const SWEEP_STEPS: usize = 200;
    const RAY_STEPS: usize = 200;

    fn lattice(v: DVec2, unit: f64) -> Option<P> {
        let (x, y) = (v.x / unit, v.y / unit);
        (x.fract() == 0.0 && y.fract() == 0.0 && x.abs() < 1e12 && y.abs() < 1e12)
            .then_some((x as i128, y as i128))
    }

    fn exact_overlap(a: &Ref<D2>, b: &Ref<D2>, unit: f64) -> Option<bool> {
        let pts = a.lattice_minus(b, unit)?;
        let r = (a.r + b.r) / unit;
        if r.fract() != 0.0 {
            return None;
        }
        let r = r as i128;
        let (num, den) = hull_d2(&hull(pts), (0, 0));
        Some(num <= r * r * den)
    }

    fn hull(pts: &[DVec2]) -> Vec<DVec2> {
        dhull(pts)
    }

    fn hull_sd(h: &Vec<DVec2>, q: DVec2) -> f64 {
        poly_sd(h, q)
    }
}

// ---------------------------------------------------------------------------------------
// Float reference: signed distance to a rounded convex polygon.

fn dhull(pts: &[DVec2]) -> Vec<DVec2> {
    let mut p: Vec<DVec2> = pts.to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() <= 2 {
        return p;
    }
    let cr = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut h: Vec<DVec2> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let seq: Vec<DVec2> = if pass == 0 { p.clone() } else { p.iter().rev().copied().collect() };
        for q in seq {
            while h.len() >= start + 2 && cr(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    if h.len() == 2 && h[0] == h[1] {
        h.pop();
    }
    h
}

fn seg_dist(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let d = b - a;
    let dd = d.length_squared();
    let t = if dd == 0.0 { 0.0 } else { ((p - a).dot(d) / dd).clamp(0.0, 1.0) };
    (a + d * t - p).length()
}

/// Signed distance from `q` to the polygon `h` (convex hull, ccw): negative inside.
fn poly_sd(h: &[DVec2], q: DVec2) -> f64 {
    let n = h.len();
    let mut d = f64::INFINITY;
    for i in 0..n.max(1) {
        d = d.min(seg_dist(q, h[i], h[(i + 1) % n]));
    }
    if n >= 3 && (0..n).all(|i| (h[(i + 1) % n] - h[i]).perp_dot(q - h[i]) >= 0.0) {
        // Inside: the distance to the nearest edge line.
        let mut e = f64::INFINITY;
        for i in 0..n {
            let (a, b) = (h[i], h[(i + 1) % n]);
            e = e.min((b - a).perp_dot(q - a) / (b - a).length());
        }
        return -e;
    }
    d
}

// ---------------------------------------------------------------------------------------
// Scene generators.

/// A lattice shape with coordinates in `[-n, n]` and sizes up to `m`; `degenerate` forces
/// zero extents, zero radii and zero-length segments now and then.
/// Two lattice shapes: the first of kind `kind`, the second of a random kind.
fn lattice_pair(rng: &mut Rng, kind: u64, n: i64, m: i64) -> (S, S) {
    let a = lattice_shape(rng, kind, n, m);
    let k = rng.next();
    (a, lattice_shape(rng, k, n, m))
}

fn lattice_shape(rng: &mut Rng, kind: u64, n: i64, m: i64) -> S {
    let p = |rng: &mut Rng| rng.vec2(n);
    let size = |rng: &mut Rng| if rng.next().is_multiple_of(5) { 0.0 } else { rng.int(0, m) as f32 };
    match kind % 5 {
        0 => {
            let lo = p(rng);
            S::Aabb(Aabb2::new(lo, lo + Vec2::new(size(rng), size(rng))))
        }
        1 => {
            let axis = rng.pick(&[Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y]);
            S::Obb(Obb2::try_from_rotation(p(rng), Vec2::new(size(rng), size(rng)), axis).unwrap())
        }
        2 => S::Circle(Circle::new(p(rng), size(rng))),
        3 => {
            let a = p(rng);
            let b = if rng.next().is_multiple_of(6) { a } else { p(rng) };
            S::Cap(Capsule2::new(a, b, size(rng)))
        }
        _ => {
            let a = p(rng);
            let b = if rng.next().is_multiple_of(6) { a } else { p(rng) };
            S::Seg(Segment2::new(a, b))
        }
    }
}

/// An oriented box turned by a Pythagorean direction (its axes are rounded to `f32`).
fn turned_obb(rng: &mut Rng, n: i64, m: i64) -> S {
    let dirs = [
        (3.0, 4.0),
        (4.0, 3.0),
        (-3.0, 4.0),
        (5.0, 12.0),
        (-12.0, 5.0),
        (8.0, -15.0),
        (1.0, 1.0),
        (1.0, 2.0),
    ];
    let (x, y) = rng.pick(&dirs);
    let c = rng.vec2(n);
    let h = Vec2::new(rng.int(0, m) as f32, rng.int(0, m) as f32);
    S::Obb(Obb2::try_from_rotation(c, h, Vec2::new(x, y)).unwrap())
}

// ---------------------------------------------------------------------------------------
// Checks (the shared ones are `common::audit`'s).

/// Containment, closest point and distance to a point against the reference.
fn check_point(rep: &mut Report, a: &S, p: Vec2, unit: f64) {
    let ra = a.reference();
    let tol = 2e-5 * (magnitude(&[&ra]) + dv(p).abs().max_element()).max(f64::MIN_POSITIVE);
    let pt = Ref { v: vec![dv(p)], r: 0.0 };
    let exact = D2::exact_overlap(&ra, &pt, unit);
    let (inside, c, d) = with_b!(a, |x| (x.contains_point(p), x.closest_point(p), x.distance_to_point(p)));
    rep.count += 1;
    let want = ra.point_distance(dv(p));
    let mut bad = Vec::new();
    if exact.is_some_and(|e| e != inside) {
        bad.push(format!("contains {inside}, exact {exact:?}"));
    }
    if exact.is_some_and(|e| e != (d == 0.0)) {
        bad.push(format!("distance_to_point {d} with exact containment {exact:?}"));
    }
    if (f64::from(d) - want).abs() > tol
        || ra.point_distance(dv(c)) > tol
        || (dv(c).distance(dv(p)) - want).abs() > tol
    {
        bad.push(format!("closest {c} distance {d}, want {want}"));
    }
    if !bad.is_empty() {
        rep.fail(format!("point {p} against {}: {}: {a:?}", a.name(), bad.join("; ")));
    }
}

// ---------------------------------------------------------------------------------------
// Tests.

/// Calls `f(rng, a, b, s)` on `count` (times `mult()`) pairs of lattice shapes
/// ([`lattice_pair`] with the lattice sizes `nm`), scaled together by `s`, a power of two
/// from [`SCALES`] in turn; `rng` (seeded `seed`) is the one that made them.
fn scaled_lattice_pairs(seed: u64, count: u64, (n, m): (i64, i64), f: impl FnMut(&mut Rng, &S, &S, f32)) {
    scaled_pairs(seed, count * mult(), |rng, i| lattice_pair(rng, i, n, m), f);
}

#[test]
fn lattice_overlaps_contacts_distances_exact_in_both_orders() {
    let mut rep = Report::new();
    let mut rng = Rng::new(1);
    for i in 0..12_000 * mult() {
        let a = lattice_shape(&mut rng, i, 6, 4);
        let b = {
            let k = i / 5 + rng.next() % 5;
            lattice_shape(&mut rng, k, 6, 4)
        };
        let k = SCALES[(i % 7) as usize];
        let (a, b) = (a.mapped(scale(k), Vec2::ZERO), b.mapped(scale(k), Vec2::ZERO));
        check_overlap_family(&mut rep, &a, &b, f64::from(scale(k)));
    }
    rep.finish("lattice overlaps");
}

#[test]
fn lattice_far_from_the_origin() {
    let mut rep = Report::new();
    let mut rng = Rng::new(2);
    for i in 0..6_000 * mult() {
        let (a, b) = lattice_pair(&mut rng, i, 6, 4);
        // 2^20 and 2^23 (about 1e6 and 8e6): lattice gaps of 1 are 1e-6 .. 1.2e-7 relative.
        let o =
            rng.pick(&[Vec2::splat(1_048_576.0), Vec2::new(-8_388_600.0, 3_000_000.0), Vec2::new(1e6, -1e6)]);
        let (a, b) = (a.mapped(1.0, o), b.mapped(1.0, o));
        check_overlap_family(&mut rep, &a, &b, 1.0);
    }
    rep.finish("far lattice overlaps");
}

#[test]
fn contacts_against_the_minkowski_reference() {
    let mut rep = Report::new();
    scaled_lattice_pairs(3, 8_000, (5, 4), |_, a, b, _| check_contact(&mut rep, a, b));
    rep.finish("contacts");
}

#[test]
fn distances_against_the_minkowski_reference() {
    let mut rep = Report::new();
    scaled_lattice_pairs(4, 8_000, (8, 4), |_, a, b, _| check_distance(&mut rep, a, b));
    rep.finish("distances");
}

#[test]
fn sweeps_against_the_minkowski_reference() {
    let mut rep = Report::new();
    scaled_lattice_pairs(5, 8_000, (8, 3), |rng, a, b, s| {
        let v = rng.vec2(16);
        check_sweep(&mut rep, a, v * s, b, f64::from(s), false);
    });
    rep.finish("sweeps");
}

#[test]
fn points_against_the_reference() {
    let mut rep = Report::new();
    let mut rng = Rng::new(6);
    for i in 0..10_000 * mult() {
        let a = lattice_shape(&mut rng, i, 6, 4);
        let p = rng.vec2(9);
        let k = SCALES[(i % 7) as usize];
        check_point(&mut rep, &a.mapped(scale(k), Vec2::ZERO), p * scale(k), f64::from(scale(k)));
    }
    rep.finish("points");
}

#[test]
fn turned_boxes_against_the_reference() {
    let mut rep = Report::new();
    let mut rng = Rng::new(7);
    for i in 0..6_000 * mult() {
        let a = turned_obb(&mut rng, 6, 4);
        let b = if i % 3 == 0 {
            turned_obb(&mut rng, 6, 4)
        } else {
            {
                let k = rng.next();
                lattice_shape(&mut rng, k, 6, 4)
            }
        };
        let (a, b) = if i % 2 == 0 { (a, b) } else { (b, a) };
        let ab = pair!(&a, &b, |x, y| x.overlaps(y));
        let ba = pair!(&a, &b, |x, y| y.overlaps(x));
        rep.count += 1;
        let (ra, rb) = (a.reference(), b.reference());
        let s = ra.minus(&rb).sd(DVec2::ZERO);
        if ab != ba || (s.abs() > 1e-5 && ab != (s <= 0.0)) {
            rep.fail(format!("overlaps {ab}/{ba}, signed gap {s}: {a:?} {b:?}"));
        }
        check_contact(&mut rep, &a, &b);
        check_distance(&mut rep, &a, &b);
        let v = rng.vec2(16);
        check_sweep(&mut rep, &a, v, &b, 0.0, false);
    }
    rep.finish("turned boxes");
}

/// A ball whose centre enters the box grown along `y` exactly at that grown box's corner
/// (the slab entries of `x` and `y` tie) touches the box's bottom face below a corner: the
/// normal is `-y` and the point that corner. The kernel took the `x` slab's normal, and put
/// the point `r` to the side of the centre, off the box.
#[test]
fn ball_entering_a_grown_box_at_its_corner_gets_the_face_normal() {
    let mut rep = Report::new();
    for k in -60..=60 {
        let s = scale(k);
        let ball = Circle::new(Vec2::new(1.0, 0.0) * s, 2.0 * s);
        let v = Vec2::new(2.0, 8.0) * s;
        let bx = Aabb2::new(Vec2::new(2.0, 6.0) * s, Vec2::new(4.0, 9.0) * s);
        let ob = Obb2::try_from_rotation(Vec2::new(3.0, 7.5) * s, Vec2::new(1.0, 1.5) * s, Vec2::X).unwrap();
        let ob_turned =
            Obb2::try_from_rotation(Vec2::new(3.0, 7.5) * s, Vec2::new(1.5, 1.0) * s, Vec2::Y).unwrap();
        for other in [S::Aabb(bx), S::Obb(ob), S::Obb(ob_turned)] {
            check_sweep(&mut rep, &S::Circle(ball), v, &other, f64::from(s), false);
            // The box moving the other way into the ball: the same contact.
            check_sweep(&mut rep, &other, -v, &S::Circle(ball), f64::from(s), false);
        }
        let hit = ball.sweep(v, &bx).unwrap();
        rep.count += 1;
        if hit.normal != Vec2::NEG_Y || hit.point != Vec2::new(2.0, 6.0) * s || hit.t != 0.5 {
            rep.fail(format!("scale 2^{k}: {hit:?}"));
        }
    }
    rep.finish("ball at a grown box's corner");
}

/// How many times more cases to run (`AUDIT_2D_MULT`, for longer hunts by hand).
fn mult() -> u64 {
    std::env::var("AUDIT_2D_MULT").ok().and_then(|v| v.parse().ok()).unwrap_or(1)
}

fn lattice_ray(rng: &mut Rng, n: i64) -> Ray2 {
    let o = rng.vec2(n);
    let mut d = Vec2::ZERO;
    while d == Vec2::ZERO {
        d = rng.vec2(3);
    }
    if rng.next().is_multiple_of(7) {
        d.x = if d.x == 0.0 { -0.0 } else { d.x };
    }
    let t0 = rng.pick(&[0.0, -2.0, 0.5, 1.0]);
    let t1 = rng.pick(&[4.0, 1.0, 2.5, 8.0]);
    Ray2::with_range(o, d, t0, t1)
}

#[test]
fn rays_against_the_reference() {
    let mut rep = Report::new();
    let mut rng = Rng::new(8);
    for i in 0..6_000 * mult() {
        // Circles and segments are left to their own tests (their ray kernels are being
        // changed elsewhere): boxes, oriented boxes and capsules here.
        let kind = [0u64, 1, 3][(i % 3) as usize];
        let a = if i % 11 == 0 { turned_obb(&mut rng, 5, 3) } else { lattice_shape(&mut rng, kind, 5, 3) };
        let ray = lattice_ray(&mut rng, 7);
        let k = SCALES[(i % 7) as usize];
        let s = scale(k);
        let r2 = Ray2::with_range(ray.origin() * s, ray.dir(), ray.t_min(), ray.t_max());
        check_ray(&mut rep, &a.mapped(s, Vec2::ZERO), &r2);
    }
    rep.finish("rays");
}

#[test]
fn sweeps_far_from_the_origin_and_grazing() {
    let mut rep = Report::new();
    let mut rng = Rng::new(9);
    for i in 0..4_000 * mult() {
        let (a, b) = lattice_pair(&mut rng, i, 6, 3);
        // Motions of every slant, some nearly along an axis (grazing a face).
        let v = match i % 3 {
            0 => rng.vec2(12),
            1 => Vec2::new(rng.int(-12, 12) as f32, rng.int(-3, 3) as f32 / 1024.0),
            _ => Vec2::new(rng.int(-3, 3) as f32 / 4096.0, rng.int(-12, 12) as f32),
        };
        let o = if i % 2 == 0 { Vec2::splat(1_048_576.0) } else { Vec2::ZERO };
        check_sweep(&mut rep, &a.mapped(1.0, o), v, &b.mapped(1.0, o), 1.0, false);
    }
    rep.finish("far and grazing sweeps");
}

/// Shapes and their equivalents answer alike: a capsule of radius 0 and its segment, an
/// oriented box at angle 0 and its axis-aligned box, a circle of radius 0 and a point box.
#[test]
fn equivalent_shapes_answer_alike() {
    let mut rep = Report::new();
    let mut rng = Rng::new(10);
    let twin = |s: &S| -> Option<S> {
        match *s {
            S::Cap(c) if c.radius() == 0.0 => Some(S::Seg(Segment2::new(c.start(), c.end()))),
            S::Seg(g) => Some(S::Cap(Capsule2::new(g.start(), g.end(), 0.0))),
            S::Obb(o) => Some(S::Aabb(o.to_aabb())),
            S::Aabb(b) => Some(S::Obb(Obb2::new(b.center(), b.half_extents(), 0.0))),
            S::Circle(c) if c.radius() == 0.0 => Some(S::Aabb(Aabb2::new(c.center(), c.center()))),
            _ => None,
        }
    };
    for i in 0..6_000 * mult() {
        let (a, b) = lattice_pair(&mut rng, i, 5, 3);
        let Some(a2) = twin(&a) else { continue };
        rep.count += 1;
        let tol = 1e-5 * 16.0;
        let x = pair!(&a, &b, |p, q| (p.overlaps(q), p.contact(q), p.distance(q)));
        let y = pair!(&a2, &b, |p, q| (p.overlaps(q), p.contact(q), p.distance(q)));
        let same_contact = match (x.1, y.1) {
            (Some(c), Some(d)) => (c.depth - d.depth).abs() <= tol,
            (None, None) => true,
            _ => false,
        };
        if x.0 != y.0 || !same_contact || (x.2 - y.2).abs() > tol {
            rep.fail(format!("{a:?} and {a2:?} against {b:?}: {x:?} / {y:?}"));
        }
        let v = rng.vec2(9);
        let (sx, sy) = (pair!(&a, &b, |p, q| p.sweep(v, q)), pair!(&a2, &b, |p, q| p.sweep(v, q)));
        if sx.is_some() != sy.is_some() || sx.zip(sy).is_some_and(|(p, q)| (p.t - q.t).abs() > 1e-5) {
            rep.fail(format!("sweeps by {v} of {a:?} and {a2:?} against {b:?}: {sx:?} / {sy:?}"));
        }
    }
    rep.finish("equivalent shapes");
}

#[test]
fn bvh2_against_brute_force() {
    let mut rep = Report::new();
    let mut rng = Rng::new(11);
    for round in 0..60 * mult() {
        let k = SCALES[(round % 7) as usize];
        let s = scale(k);
        let n = 1 + (rng.next() % 200) as usize;
        let boxes: Vec<Aabb2> = (0..n)
            .map(|_| {
                let lo = rng.vec2(40);
                let size = Vec2::new(rng.int(0, 6) as f32, rng.int(0, 6) as f32);
                Aabb2::new(lo * s, (lo + size) * s)
            })
            .collect();
        let quality = rng.pick(&[BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High]);
        let bvh = Bvh2::build(&boxes, quality).unwrap();
        for _ in 0..60 {
            rep.count += 1;
            let ray = lattice_ray(&mut rng, 45);
            let ray = Ray2::with_range(ray.origin() * s, ray.dir(), ray.t_min() * 20.0, ray.t_max() * 20.0);
            let brute = boxes
                .iter()
                .filter_map(|b| b.ray_span(&ray).map(|sp| sp.t_enter))
                .fold(None, |m: Option<f32>, t| Some(m.map_or(t, |m| m.min(t))));
            let got = bvh.cast_ray(&ray, |i, r| boxes[i as usize].ray_span(r).map(|sp| sp.t_enter));
            if got.map(|g| g.1) != brute {
                rep.fail(format!("cast {ray:?}: {got:?}, brute {brute:?}"));
            }
            let all = bvh.all_hits(&ray, |i, r| boxes[i as usize].ray_span(r).map(|sp| sp.t_enter));
            let count = boxes.iter().filter(|b| b.ray_span(&ray).is_some()).count();
            if all.len() != count
                || bvh.any_hit(&ray, |i, r| boxes[i as usize].intersects_ray(r)).is_some() != (count > 0)
            {
                rep.fail(format!("all/any {ray:?}: {} of {count}", all.len()));
            }
            let q = Aabb2::new(rng.vec2(45) * s, Vec2::splat(45.0) * s);
            let c = Circle::new(rng.vec2(45) * s, rng.int(0, 9) as f32 * s);
            let mut seen = Vec::new();
            bvh.for_each_overlapping_aabb(&q, |i| seen.push(i));
            seen.sort_unstable();
            let want: Vec<u32> = (0..n as u32).filter(|&i| boxes[i as usize].overlaps(&q)).collect();
            let mut seen_c = Vec::new();
            bvh.for_each_overlapping_circle(&c, |i| seen_c.push(i));
            seen_c.sort_unstable();
            let want_c: Vec<u32> = (0..n as u32).filter(|&i| boxes[i as usize].overlaps(&c)).collect();
            if seen != want || seen_c != want_c {
                rep.fail(format!(
                    "overlap queries {q:?} {c:?}: {seen:?} / {want:?}, {seen_c:?} / {want_c:?}"
                ));
            }
            let p = c.center();
            let near =
                bvh.nearest(p, |i, best| Some(boxes[i as usize].distance_to_point(p)).filter(|&d| d <= best));
            let want_d = boxes.iter().map(|b| b.distance_to_point(p)).fold(f32::INFINITY, f32::min);
            if near.map(|x| x.1) != Some(want_d) {
                rep.fail(format!("nearest to {p}: {near:?}, brute {want_d}"));
            }
        }
    }
    rep.finish("bvh2");
}

/// A capsule of radius zero is its core segment: a ray hits it where it hits the segment,
/// with the segment's normal (its unit perpendicular on the ray's side, or `-dir` along
/// it). The capsule took the direction from the core to the `f32` hit point, which is
/// rounding noise when the radius is zero: (1, 0) for a ray along (1, 1) hitting the core
/// (-3, 3)-(-1, -4), a normal pointing away from the ray.
#[test]
fn zero_radius_capsule_rays_hit_like_their_segment() {
    let mut rep = Report::new();
    let mut rng = Rng::new(12);
    for i in 0..20_000 {
        let s = scale(SCALES[(i % 7) as usize]);
        let p = rng.vec2(5) * s;
        let q = if i % 9 == 0 { p } else { rng.vec2(5) * s };
        let ray = lattice_ray(&mut rng, 7);
        let ray = Ray2::with_range(ray.origin() * s, ray.dir(), ray.t_min(), ray.t_max());
        let (cap, seg) = (Capsule2::new(p, q, 0.0), Segment2::new(p, q));
        check_ray(&mut rep, &S::Cap(cap), &ray);
        let (hc, hs) = (cap.cast_ray(&ray), seg.cast_ray(&ray));
        rep.count += 1;
        match (hc, hs) {
            (None, None) => {}
            (Some(c), Some(g)) => {
                // A ray starting on the core: the segment says zero, the capsule may give
                // the surface normal (`t_min` is then the hit of both).
                let starts_on = g.normal == Vec2::ZERO && c.t == ray.t_min();
                let close =
                    (c.t - g.t).abs() <= 1e-6 * (1.0 + g.t.abs()) && (c.normal - g.normal).length() <= 1e-6;
                if !starts_on && !close {
                    rep.fail(format!("{ray:?} against {p} - {q}: capsule {c:?}, segment {g:?}"));
                }
            }
            _ => rep.fail(format!("{ray:?} against {p} - {q}: capsule {hc:?}, segment {hs:?}")),
        }
    }
    rep.finish("zero-radius capsule rays");
}

/// A ball sliding along the plane of a grown box's face (its centre exactly `r` beside the
/// box's side) touches the box at a corner, where the normal is that face's: `+y` for a
/// circle of radius 1 at (5, 0) moving by (-5, 0) onto the box [4, 4] x [-4, -1]. The
/// kernel took the normal of the slab it entered last (`+x`), with the point (3, 0) off
/// the box.
#[test]
fn ball_sliding_along_a_grown_face_gets_its_normal() {
    let mut rep = Report::new();
    for k in -60..=60 {
        let s = scale(k);
        let ball = Circle::new(Vec2::new(5.0, 0.0) * s, s);
        let v = Vec2::new(-5.0, 0.0) * s;
        let bx = Aabb2::new(Vec2::new(4.0, -4.0) * s, Vec2::new(4.0, -1.0) * s);
        let ob =
            Obb2::try_from_rotation(Vec2::new(4.0, -2.5) * s, Vec2::new(0.0, 1.5) * s, Vec2::NEG_X).unwrap();
        for other in [S::Aabb(bx), S::Obb(ob)] {
            check_sweep(&mut rep, &S::Circle(ball), v, &other, f64::from(s), false);
            check_sweep(&mut rep, &other, -v, &S::Circle(ball), f64::from(s), false);
        }
        let hit = ball.sweep(v, &bx).unwrap();
        rep.count += 1;
        if hit.normal != Vec2::Y || hit.point != Vec2::new(4.0, -1.0) * s || hit.t != 0.2 {
            rep.fail(format!("scale 2^{k}: {hit:?}"));
        }
    }
    rep.finish("ball sliding along a grown face");
}

/// A point (a circle of radius 0) moving onto a segment (a capsule of radius 0) 0.2 away,
/// at coordinates near 1e6: conservative advancement lands on the contact in one step,
/// where the direction between the touching cores is noise, and it had kept no direction
/// from the start (a gap below `1e-7` of the coordinates counted as unreliable): the normal
/// came out either way across the segment. The segment's normal toward the point is
/// `(4, -9) / √97`.
#[test]
fn point_onto_a_segment_far_out_gets_the_segment_normal() {
    let mut rep = Report::new();
    let mut rng = Rng::new(13);
    for _ in 0..200 {
        let o = Vec2::new(rng.int(-1 << 22, 1 << 22) as f32, rng.int(-1 << 22, 1 << 22) as f32);
        let (p, q) = (Vec2::new(4.0, 2.0) + o, Vec2::new(-5.0, -2.0) + o);
        let ball = Circle::new(o, 0.0);
        let v = Vec2::new(-7.0, 0.0);
        let want = Vec2::new(4.0, -9.0) / 97f32.sqrt();
        for (a, b) in [
            (S::Circle(ball), S::Cap(Capsule2::new(p, q, 0.0))),
            (S::Circle(ball), S::Seg(Segment2::new(p, q))),
        ] {
            check_sweep(&mut rep, &a, v, &b, 1.0, false);
            let hit = pair!(&a, &b, |x, y| x.sweep(v, y)).unwrap();
            rep.count += 1;
            if (hit.normal - want).length() > 1e-4 {
                rep.fail(format!("{a:?} by {v} onto {b:?}: {hit:?}"));
            }
        }
    }
    rep.finish("point onto a segment far out");
}

/// Two shapes of one type: the distance is the same to the bit in both orders, and the
/// closest points swap. GJK ran in the order given, and two oriented boxes (one turned by
/// (-0.6, 0.8)) 1.8 apart came out 1.8 one way and a float above the other.
#[test]
fn same_type_distances_are_symmetric_to_the_bit() {
    let mut rep = Report::new();
    let mut rng = Rng::new(14);
    for i in 0..4_000 * mult() {
        let kind = [0u64, 1, 2, 3][(i % 4) as usize];
        let (a, b) = if kind == 1 {
            (turned_obb(&mut rng, 6, 4), turned_obb(&mut rng, 6, 4))
        } else {
            (lattice_shape(&mut rng, kind, 6, 4), lattice_shape(&mut rng, kind, 6, 4))
        };
        let a = a.mapped(0.1, Vec2::ZERO); // (not exact: rounded inputs)
        let b = b.mapped(0.1, Vec2::ZERO);
        rep.count += 1;
        let (d, e) = pair!(&a, &b, |x, y| (x.distance(y), y.distance(x)));
        let (p, q) = pair!(&a, &b, |x, y| (x.closest_points(y), y.closest_points(x)));
        if d.to_bits() != e.to_bits() || p.0 != q.1 || p.1 != q.0 {
            rep.fail(format!("{a:?} {b:?}: {d} / {e}, {p:?} / {q:?}"));
        }
    }
    rep.finish("same-type distances");
}

/// A point box at the centre of a flat turned box touches it (`Overlaps` and `Contact`
/// say so), so a sweep starts at `t = 0`. The box sweeps decided the start by `f64` GJK,
/// which read the pair as a hair apart, and answered `t = 1e-45` with a normal along the
/// motion.
#[test]
fn box_sweeps_start_where_overlaps_says() {
    let mut rep = Report::new();
    for k in -60..=60 {
        let s = scale(k);
        let c = Vec2::new(4.0, 4.0) * s;
        let flat = Obb2::try_from_rotation(c, Vec2::new(2.0, 0.0) * s, Vec2::new(5.0, 12.0)).unwrap();
        let dot = Obb2::try_from_rotation(c, Vec2::ZERO, Vec2::new(1.0, 2.0)).unwrap();
        let v = Vec2::new(13.0, -12.0) * s;
        for a in [S::Obb(dot), S::Aabb(Aabb2::new(c, c))] {
            rep.count += 1;
            let (ov, hit, back) =
                pair!(&a, &S::Obb(flat), |x, y| (x.overlaps(y), x.sweep(v, y), y.sweep(-v, x)));
            if !ov || hit.is_none_or(|h| h.t != 0.0) || back.is_none_or(|h| h.t != 0.0) {
                rep.fail(format!("scale 2^{k}: {a:?} {flat:?}: overlaps {ov}, sweeps {hit:?} / {back:?}"));
            }
        }
    }
    rep.finish("box sweeps start where overlaps says");
}

/// A 2D capsule touching another shape exactly (a box corner, a disc, a segment's end or
/// a point on its rim) overlaps it, contains that point, and is at distance zero from it,
/// in both orders and at every scale. Capsule pairs ran GJK in `f64`, which read such
/// touching lattice pairs as `1e-16` apart: (2, 1) was outside the capsule (6, -1)-(2, -4)
/// of radius 4, and the point box at (0, 4) did not touch the zero-radius capsule
/// (1, 5)-(-4, 0) that the segment test says passes through it.
#[test]
fn capsules_touching_exactly_overlap() {
    let mut rep = Report::new();
    let cap = Capsule2::new(Vec2::new(6.0, -1.0), Vec2::new(2.0, -4.0), 4.0);
    let stick = Capsule2::new(Vec2::new(1.0, 5.0), Vec2::new(-4.0, 0.0), 0.0);
    for k in -60..=60 {
        let s = scale(k);
        let c = S::Cap(cap).mapped(s, Vec2::ZERO);
        let st = S::Cap(stick).mapped(s, Vec2::ZERO);
        let p = Vec2::new(2.0, 1.0) * s;
        check_point(&mut rep, &c, p, f64::from(s));
        let q = Vec2::new(0.0, 4.0) * s;
        let others = [
            (c, S::Aabb(Aabb2::new(p, p + Vec2::splat(s)))),
            (c, S::Circle(Circle::new(p - Vec2::new(0.0, s), s))),
            (c, S::Seg(Segment2::new(p, p + Vec2::new(3.0, 2.0) * s))),
            (c, S::Cap(Capsule2::new(p + Vec2::new(0.0, s), p + Vec2::new(3.0, 3.0) * s, s))),
            (st, S::Aabb(Aabb2::new(q, q))),
            (st, S::Obb(Obb2::try_from_rotation(q, Vec2::ZERO, Vec2::Y).unwrap())),
        ];
        for (a, b) in others {
            check_overlap_family(&mut rep, &a, &b, f64::from(s));
        }
    }
    rep.finish("capsules touching exactly");
}

/// Rays against circles and segments (kernels `ray_sphere.rs` and `ray_segment.rs`),
/// against the same reference as the other shapes.
#[test]
fn circle_and_segment_rays_against_the_reference() {
    let mut rep = Report::new();
    let mut rng = Rng::new(15);
    for i in 0..6_000 * mult() {
        let kind = [2u64, 4][(i % 2) as usize];
        let a = lattice_shape(&mut rng, kind, 5, 3);
        let ray = lattice_ray(&mut rng, 7);
        let s = scale(SCALES[(i % 7) as usize]);
        let r2 = Ray2::with_range(ray.origin() * s, ray.dir(), ray.t_min(), ray.t_max());
        check_ray(&mut rep, &a.mapped(s, Vec2::ZERO), &r2);
    }
    rep.finish("circle and segment rays");
}
