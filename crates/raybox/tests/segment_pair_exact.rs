//! Distances and closest points of two segments (`Distance` for `Segment2`, `Segment3`,
//! `Capsule2`, `Capsule3` pairs) against an exact rational reference, one segment reaching
//! up to `2^60` from a moderate near end, the other short, by its near end, its middle or
//! its far end.
//!
//! **The reference.** As in `segment_closest_exact.rs`, every `f32` times `2^149` is an
//! integer (a `num_bigint::BigInt`), so the exact squared distance is a quotient of
//! integers: the least of the four ends' squared distances from the other segment
//! (`|x - p|²`, `|x - q|²`, or `|(x - p) × d|² / |d|²` for a foot inside) and, when the
//! lines' closest parameters (`m · (d₂ × r) / |m|²` and `m · (d₁ × r) / |m|²`,
//! `m = d₁ × d₂`, `r = p₁ - p₂`) are both inside, `(r · m)² / |m|²` (Ericson, *Real-Time
//! Collision Detection*, 5.1.9). The candidates are compared exactly; only the least is
//! rounded.
//!
//! **The tolerances.** The distance within 4 `f32` spacings of the exact one, plus the
//! `f64` rounding of each exact closest point minus the nearer end of the other segment,
//! perpendicular to that segment (`2^-51` of it; [`f64_term`]): a segment by the middle of
//! one reaching to `1e15` is `5e14` from both its ends. Along an axis that is nearly zero
//! at any length. The closest points: each within one `f32` spacing of its coordinates
//! (plus the same slack) of its own segment, and as far apart as the exact distance within
//! their spacings and the distance's tolerance.
//!
//! Before the fix (RTCD's `p + s d` from a fixed end, the distance `|on_a - on_b|`), a
//! segment rising from a point 2.033 from the near end of a `1e15` segment came out 2.055
//! from it in 3D, and a segment whose end is 0.00977 from the middle of such a segment
//! came out 0.063 (2D) and 0.125 (3D) from it.

use glam::{Vec2, Vec3};
use num_bigint::{BigInt, Sign};
use raybox::{Capsule2, Capsule3, Distance, Segment2, Segment3};

mod common;
use common::long_segments::{B3, Long, Place, Rng, SCALE, big3, cross, dot, ratio, spacing, sub3};

/// A squared distance `num / den` (scaled by `2^298`), with the pair it is of (rounded).
struct Candidate {
    num: BigInt,
    den: BigInt,
    on_a: [f64; 3],
    on_b: [f64; 3],
}

/// `p + d n / den`, rounded.
fn point(p: &B3, d: &B3, n: &BigInt, den: &BigInt) -> [f64; 3] {
    std::array::from_fn(|i| ratio(&(&p[i] * den + &d[i] * n), den, -SCALE))
}

/// The end `x`'s squared distance from the segment `p, q` and its foot there.
fn end_candidate(x: &B3, p: &B3, q: &B3) -> (BigInt, BigInt, [f64; 3]) {
    let d = sub3(q, p);
    let dd = dot(&d, &d);
    let one = BigInt::from(1);
    if dd.sign() == Sign::NoSign {
        let w = sub3(x, p);
        return (dot(&w, &w), one.clone(), point(p, &d, &BigInt::from(0), &one));
    }
    let w = sub3(x, p);
    let n = dot(&w, &d);
    if n.sign() != Sign::Plus {
        (dot(&w, &w), one.clone(), point(p, &d, &BigInt::from(0), &one))
    } else if n >= dd {
        let w = sub3(x, q);
        (dot(&w, &w), one.clone(), point(q, &d, &BigInt::from(0), &one))
    } else {
        let c = cross(&w, &d);
        (dot(&c, &c), dd.clone(), point(p, &d, &n, &dd))
    }
}

/// The exact nearest pair of the segments `a` and `b`.
fn exact(a: [[f32; 3]; 2], b: [[f32; 3]; 2]) -> Candidate {
    let [p1, q1] = a.map(big3);
    let [p2, q2] = b.map(big3);
    let f = |x: &B3| -> [f64; 3] { std::array::from_fn(|i| ratio(&x[i], &BigInt::from(1), -SCALE)) };
    let mut all = Vec::new();
    for x in [&p1, &q1] {
        let (num, den, foot) = end_candidate(x, &p2, &q2);
        all.push(Candidate { num, den, on_a: f(x), on_b: foot });
    }
    for y in [&p2, &q2] {
        let (num, den, foot) = end_candidate(y, &p1, &q1);
        all.push(Candidate { num, den, on_a: foot, on_b: f(y) });
    }
    let (d1, d2, r) = (sub3(&q1, &p1), sub3(&q2, &p2), sub3(&p1, &p2));
    let m = cross(&d1, &d2);
    let mm = dot(&m, &m);
    if mm.sign() == Sign::Plus {
        let s = dot(&m, &cross(&d2, &r));
        let t = dot(&m, &cross(&d1, &r));
        let inside = |v: &BigInt| v.sign() == Sign::Plus && *v < mm;
        if inside(&s) && inside(&t) {
            let rm = dot(&r, &m);
            all.push(Candidate {
                num: &rm * &rm,
                den: mm.clone(),
                on_a: point(&p1, &d1, &s, &mm),
                on_b: point(&p2, &d2, &t, &mm),
            });
        }
    }
    all.into_iter().min_by(|x, y| (&x.num * &y.den).cmp(&(&y.num * &x.den))).expect("candidates")
}

/// The rounding of a closest point minus the other segment's end nearer its own closest
/// point, perpendicular to that segment, for both segments (`2^-51` of it).
fn f64_term(a: [[f32; 3]; 2], b: [[f32; 3]; 2], c: &Candidate) -> f64 {
    let term = |seg: [[f32; 3]; 2], own: [f64; 3], other: [f64; 3]| {
        let [p, q] = seg.map(|v| v.map(f64::from));
        let far = |e: [f64; 3]| (0..3).map(|i| (own[i] - e[i]).abs()).fold(0.0, f64::max);
        let e = if far(p) <= far(q) { p } else { q };
        let d: [f64; 3] = std::array::from_fn(|i| q[i] - p[i]);
        let dd: f64 = d.iter().map(|v| v * v).sum();
        let perp = |i: usize| if dd > 0.0 { (1.0 - d[i] * d[i] / dd).max(0.0).sqrt() } else { 1.0 };
        (0..3).map(|i| (other[i] - e[i]).abs() * perp(i)).sum::<f64>()
    };
    (term(a, c.on_a, c.on_b) + term(b, c.on_b, c.on_a)) * 2f64.powi(-51)
}

#[derive(Clone, Copy, Debug)]
struct Query {
    a: [[f32; 3]; 2],
    b: [[f32; 3]; 2],
    ra: f32,
    rb: f32,
    dim: usize,
}

/// A long segment from a moderate point `m` to `m + 2^far u` (times `2^scale`, `u` random
/// or near an axis) and a short one (a few times `m`'s size) starting near `place` on it,
/// the pair and each segment's ends in random order.
fn query(rng: &mut Rng, dim: usize, far: i32, scale: i32, place: Place) -> Query {
    let f = |v: f64| v as f32;
    let long = Long::draw(rng, dim, far, scale);
    let (near, away, near_size, s) = (long.near, long.away, long.near_size, long.s);
    let t = match place {
        Place::NearEnd => 0.0,
        Place::Middle => 0.3 + 0.4 * (rng.signed() + 1.0) / 2.0,
        Place::FarEnd => 1.0 + rng.signed() * 2f64.powi(-30),
    };
    let wobble = rng.vector(dim, near_size * s * 4.0);
    let start: [f32; 3] = std::array::from_fn(|i| f(long.at(t, i) + wobble[i]));
    let step = rng.vector(dim, near_size * s * 4.0);
    let end: [f32; 3] = std::array::from_fn(|i| f(f64::from(start[i]) + step[i]));
    let long = if rng.below(2) == 0 { [near, away] } else { [away, near] };
    let short = if rng.below(2) == 0 { [start, end] } else { [end, start] };
    let r = |rng: &mut Rng| f(near_size * s * (rng.signed() + 1.0) / 4.0);
    let (ra, rb) = (r(rng), r(rng));
    let (a, b) = if rng.below(2) == 0 { (long, short) } else { (short, long) };
    Query { a, b, ra, rb, dim }
}

/// The library's answers: the segments' distance and closest points, the capsules'
/// distance.
fn answers(k: &Query) -> (f32, [[f32; 3]; 2], f32) {
    let v = |x: [f32; 3]| Vec3::from(x);
    if k.dim == 2 {
        let w = |x: [f32; 3]| Vec2::new(x[0], x[1]);
        let (a, b) = (Segment2::new(w(k.a[0]), w(k.a[1])), Segment2::new(w(k.b[0]), w(k.b[1])));
        let (pa, pb) = a.closest_points(&b);
        let ca = Capsule2::new(w(k.a[0]), w(k.a[1]), k.ra);
        let cb = Capsule2::new(w(k.b[0]), w(k.b[1]), k.rb);
        (a.distance(&b), [[pa.x, pa.y, 0.0], [pb.x, pb.y, 0.0]], ca.distance(&cb))
    } else {
        let (a, b) = (Segment3::new(v(k.a[0]), v(k.a[1])), Segment3::new(v(k.b[0]), v(k.b[1])));
        let (pa, pb) = a.closest_points(&b);
        let ca = Capsule3::new(v(k.a[0]), v(k.a[1]), k.ra);
        let cb = Capsule3::new(v(k.b[0]), v(k.b[1]), k.rb);
        (a.distance(&b), [pa.into(), pb.into()], ca.distance(&cb))
    }
}

/// The errors of one query, in units of their tolerances (at most 1 passes): the segment
/// distance, the closest points, the capsule distance (0 for capsules that may touch).
fn errors(k: &Query) -> [f64; 3] {
    let e = exact(k.a, k.b);
    let dist = ratio(&e.num, &e.den, -2 * SCALE).sqrt();
    let slack = f64_term(k.a, k.b, &e);
    let tol = 4.0 * spacing(dist) + slack;
    let (got, [pa, pb], cap) = answers(k);
    let seg = (f64::from(got) - dist).abs() / tol;
    // The points: on their segments, and as far apart as the exact distance.
    let steps = |x: [f32; 3]| (0..3).map(|i| spacing(f64::from(x[i]))).sum::<f64>();
    let off = |x: [f32; 3], s: [[f32; 3]; 2]| {
        let (num, den, _) = end_candidate(&big3(x), &big3(s[0]), &big3(s[1]));
        ratio(&num, &den, -2 * SCALE).sqrt() / (steps(x) + slack)
    };
    let apart = {
        let (num, den, _) = end_candidate(&big3(pa), &big3(pb), &big3(pb));
        (ratio(&num, &den, -2 * SCALE).sqrt() - dist).abs() / (steps(pa) + steps(pb) + tol)
    };
    let points = off(pa, k.a).max(off(pb, k.b)).max(apart);
    let radii = f64::from(k.ra) + f64::from(k.rb);
    let cap = if dist > radii * (1.0 + 1e-6) { (f64::from(cap) - (dist - radii)).abs() / tol } else { 0.0 };
    [seg, points, cap]
}

fn fails(err: f64) -> bool {
    err.is_nan() || err > 1.0
}

#[test]
fn segments_by_long_segments_against_an_exact_reference() {
    let mut rng = Rng(0x5e6_9a1e);
    let (mut failures, mut report) = (0, Vec::new());
    for dim in [2, 3] {
        for far in [0, 20, 40, 50, 60] {
            for scale in [-30, 0, 30] {
                for place in [Place::NearEnd, Place::Middle, Place::FarEnd] {
                    let (mut wrong, mut worst) = (0, ([0.0f64; 3], None));
                    for _ in 0..100 {
                        let k = query(&mut rng, dim, far, scale, place);
                        let err = errors(&k);
                        if err.iter().any(|&e| fails(e)) {
                            wrong += 1;
                        }
                        let top = |e: &[f64; 3]| {
                            e.iter().fold(0.0, |a: f64, &b| if b.is_nan() { f64::INFINITY } else { a.max(b) })
                        };
                        if top(&err) > top(&worst.0) {
                            worst = (err, Some(k));
                        }
                    }
                    failures += wrong;
                    if wrong > 0 {
                        report.push(format!(
                            "{dim}D, far 2^{far}, scale 2^{scale}, {place:?}: {wrong} of 100 wrong; \
                             worst (segment, points, capsule) {:?} ({:?})",
                            worst.0, worst.1
                        ));
                    }
                }
            }
        }
    }
    assert!(failures == 0, "{failures} wrong:\n{}", report.join("\n"));
}

/// A segment dropping from a point 0.00977 below the middle of a segment from `(-2^50, -0.068)`
/// to `(-0.083, 0.011)` (the point case of `segment_closest_exact.rs`): the old kernels put it
/// 0.063 (2D, `|end - foot|`) and 0.125 (3D) from it.
#[test]
fn a_segment_by_the_middle_of_a_1e15_segment() {
    let long = [[-1125899900000000.0, -0.068237, 0.0], [-0.08347597, 0.011038279, 0.0]];
    let short = [[-353127300000000.0, -0.02359796, 0.0], [-353127300000000.0, -5.0, 0.0]];
    let e = exact(long, short);
    assert!((ratio(&e.num, &e.den, -2 * SCALE).sqrt() - 0.009772336).abs() < 1e-8);
    let z = |s: [[f32; 3]; 2]| s.map(|v| [v[1], v[2], v[0]]);
    for (a, b, dim) in [(long, short, 2), (short, long, 2), (long, short, 3), (z(short), z(long), 3)] {
        let k = Query { a, b, ra: 0.001, rb: 0.002, dim };
        let err = errors(&k);
        assert!(err.iter().all(|&e| !fails(e)), "{k:?}: {err:?}");
    }
}
