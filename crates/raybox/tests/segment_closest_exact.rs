//! Closest points and distances of points to segments and capsules (`ClosestPoint` for
//! `Segment2`, `Segment3`, `Capsule2`, `Capsule3`) against an exact rational reference, on
//! segments with one end near a moderate point and the other up to `2^60` away.
//!
//! **The reference.** Every `f32` input is an integer times `2^-149`, so with all
//! coordinates scaled by `2^149` (a `num_bigint::BigInt`, [`big`]) the segment
//! `p, q`, the query `x` and `d = q - p` are exact integers, and so are `dd = d · d` and
//! `n = (x - p) · d`. The exact closest point is `c = p + d n / dd` for `0 < n < dd`, and `p`
//! or `q` otherwise: `dd c = p dd + d n` is an exact integer vector `F`. Only the final
//! quotients are rounded (to `f64`, from the leading 64 bits of each integer), which is far
//! below the tolerances:
//!
//! - each coordinate of the returned point within one `f32` spacing at that coordinate of
//!   `c` (the exact point rounded to `f32` is within half of one);
//! - `distance_to_point` within 4 `f32` spacings of the exact `|x - c|`;
//! - for capsules (points outside them), the closest point `c + (x - c) r / |x - c|` and the
//!   distance `|x - c| - r` within the same, computed in `f64` from the exact `c`;
//!
//! each plus a slack for the `f64` rounding of `x` minus the segment's end, perpendicular to
//! the segment ([`f64_term`]): a point by the middle of a segment reaching to `1e15` is
//! `5e14` from both ends, and exact differences would need more than twice `f64`'s
//! precision. Along an axis the slack is nearly zero at any length.
//!
//! Before the fix, the closest point was `p + d t`, rounded at the size of `p`: with the far
//! end (`2^50`) as `p`, a point near the near end came back as much as 0.25 away from the
//! exact one, 0.14 off the line, where `f32` steps by `4e-6` or less
//! ([`a_point_by_the_near_end_of_a_1e15_segment`]); and the distance was `|x - foot|`, which
//! the foot's rounding along the segment (0.06 at `5e14`) made 0.125 for a point 0.00977 from
//! the middle ([`a_point_by_the_middle_of_a_1e15_segment`]). The random test failed on
//! 1,665 of its 13,500 queries then.

use glam::{Vec2, Vec3};
use num_bigint::{BigInt, Sign};
use raybox::{Capsule2, Capsule3, ClosestPoint, ContainsPoint, Segment2, Segment3};

mod common;
use common::long_segments::{Long, Place, Rng, SCALE, big, big3, dot, ratio, spacing, sub3};

/// The exact answer for the point `x` and the segment `p, q` (not of zero length).
struct Exact {
    /// `dd = |q - p|²` (scaled by `2^298`).
    dd: BigInt,
    /// `dd` times the closest point (scaled by `2^447`).
    foot: [BigInt; 3],
    /// The closest point, each coordinate rounded to `f64`.
    c: [f64; 3],
    /// `|x - c|`, rounded to `f64`.
    dist: f64,
    /// How far `f64` work on the inputs may fairly be off, perpendicular to the segment
    /// ([`f64_term`]).
    slack: f64,
}

fn exact(p: [f32; 3], q: [f32; 3], x: [f32; 3]) -> Exact {
    let (pf, qf, xf) = (p, q, x);
    let (p, q, x) = (big3(p), big3(q), big3(x));
    let d = sub3(&q, &p);
    let dd = dot(&d, &d);
    assert!(dd.sign() == Sign::Plus, "a point, not a segment");
    let n = dot(&sub3(&x, &p), &d);
    let foot: [BigInt; 3] = std::array::from_fn(|i| {
        if n.sign() != Sign::Plus {
            &p[i] * &dd
        } else if n >= dd {
            &q[i] * &dd
        } else {
            &p[i] * &dd + &d[i] * &n
        }
    });
    let c = std::array::from_fn(|i| ratio(&foot[i], &dd, -SCALE));
    let dd2 = &dd * &dd;
    let dist = (0..3)
        .map(|i| {
            let off = &x[i] * &dd - &foot[i];
            ratio(&(&off * &off), &dd2, -2 * SCALE)
        })
        .sum::<f64>()
        .sqrt();
    let slack = f64_term(pf, qf, xf, c);
    Exact { dd, foot, c, dist, slack }
}

/// The rounding of `x - e` in `f64` (`e` the segment's end nearer the exact foot `c`): up to
/// `2^-53 |x_i - e_i|` in each coordinate, which moves the distance by its part
/// perpendicular to the segment, `sqrt(1 - d_i² / |d|²)` of it; four times that. No error
/// of the foot along the segment is allowed for: along an axis this is 0 whatever the
/// segment's length.
fn f64_term(p: [f32; 3], q: [f32; 3], x: [f32; 3], c: [f64; 3]) -> f64 {
    let g = |v: [f32; 3]| v.map(f64::from);
    let (p, q, x) = (g(p), g(q), g(x));
    let far = |e: [f64; 3]| (0..3).map(|i| (c[i] - e[i]).abs()).fold(0.0, f64::max);
    let e = if far(p) <= far(q) { p } else { q };
    let d: [f64; 3] = std::array::from_fn(|i| q[i] - p[i]);
    let dd: f64 = d.iter().map(|v| v * v).sum();
    (0..3).map(|i| (x[i] - e[i]).abs() * (1.0 - d[i] * d[i] / dd).max(0.0).sqrt()).sum::<f64>()
        * 2f64.powi(-51)
}

/// How far each coordinate of `got` is from the exact closest point, in units of its
/// tolerance (at most 1 passes).
fn point_error(e: &Exact, got: [f32; 3]) -> f64 {
    (0..3)
        .map(|i| {
            let off = ratio(&(big(got[i]) * &e.dd - &e.foot[i]), &e.dd, -SCALE);
            off.abs() / (spacing(e.c[i]) + e.slack)
        })
        .fold(0.0, f64::max)
}

/// How far `got` is from the exact distance, in units of its tolerance.
fn distance_error(e: &Exact, got: f32) -> f64 {
    (f64::from(got) - e.dist).abs() / (4.0 * spacing(e.dist) + e.slack)
}

/// The capsule's exact closest point (for `x` outside it), from the exact core point.
fn capsule_error(e: &Exact, x: [f32; 3], r: f32, got: [f32; 3], got_dist: f32) -> (f64, f64) {
    let k = f64::from(r) / e.dist;
    let want: [f64; 3] = std::array::from_fn(|i| e.c[i] + (f64::from(x[i]) - e.c[i]) * k);
    let point = (0..3)
        .map(|i| (f64::from(got[i]) - want[i]).abs() / (spacing(want[i]) + e.slack))
        .fold(0.0, f64::max);
    let dist = (f64::from(got_dist) - (e.dist - f64::from(r))).abs() / (4.0 * spacing(e.dist) + e.slack);
    (point, dist)
}

/// One query: the segment `p, q`, the point `x`, a capsule radius, 2D or 3D.
#[derive(Clone, Copy, Debug)]
struct Query {
    p: [f32; 3],
    q: [f32; 3],
    x: [f32; 3],
    r: f32,
    dim: usize,
}

/// A segment from a moderate point `m` (within `2^k` of the origin, `k` in `-20..=10`) to
/// `m + 2^far · u`, both times `2^scale`, with `u` a random direction or one near an axis,
/// and a point drawn near the near end (within a few units of `m`'s size or of the
/// segment's local width), near the middle, or near the far end; the near end is the
/// segment's start or its end at random.
fn query(rng: &mut Rng, dim: usize, far: i32, scale: i32, place: Place) -> Query {
    let f = |v: f64| v as f32;
    let long = Long::draw(rng, dim, far, scale);
    let (near, away, near_size, s) = (long.near, long.away, long.near_size, long.s);
    let at = |t: f64, i: usize| long.at(t, i);
    let wobble = rng.vector(dim, near_size * s * 4.0);
    let x: [f32; 3] = match place {
        Place::NearEnd => std::array::from_fn(|i| f(at(0.0, i) + wobble[i])),
        Place::Middle => {
            let t = 0.3 + 0.4 * (rng.signed() + 1.0) / 2.0;
            std::array::from_fn(|i| f(at(t, i) + wobble[i]))
        }
        Place::FarEnd => {
            let t = 1.0 + rng.signed() * 2f64.powi(-30);
            std::array::from_fn(|i| f(at(t, i) + wobble[i]))
        }
    };
    let r = f(near_size * s * (rng.signed() + 1.0));
    let (p, q) = if rng.below(2) == 0 { (near, away) } else { (away, near) };
    Query { p, q, x, r, dim }
}

/// The library's answers: segment closest point and distance, capsule closest point and
/// distance (as 3D arrays).
fn answers(k: &Query) -> ([f32; 3], f32, [f32; 3], f32) {
    let (p, q, x) = (Vec3::from(k.p), Vec3::from(k.q), Vec3::from(k.x));
    if k.dim == 2 {
        let (p, q, x) = (p.truncate(), q.truncate(), x.truncate());
        let s = Segment2::new(p, q);
        let c = Capsule2::new(p, q, k.r);
        let e = |v: Vec2| [v.x, v.y, 0.0];
        (e(s.closest_point(x)), s.distance_to_point(x), e(c.closest_point(x)), c.distance_to_point(x))
    } else {
        let s = Segment3::new(p, q);
        let c = Capsule3::new(p, q, k.r);
        (s.closest_point(x).into(), s.distance_to_point(x), c.closest_point(x).into(), c.distance_to_point(x))
    }
}

/// An error (in units of its tolerance) over the tolerance, or NaN.
fn fails(err: f64) -> bool {
    err.is_nan() || err > 1.0
}

/// The worst errors (in units of their tolerances) over some queries, with the query.
#[derive(Default)]
struct Worst {
    point: (f64, Option<Query>),
    dist: (f64, Option<Query>),
    capsule: (f64, Option<Query>),
    failures: usize,
}

impl Worst {
    fn note(slot: &mut (f64, Option<Query>), err: f64, k: &Query) {
        if err.is_nan() || err > slot.0 {
            *slot = (err, Some(*k));
        }
    }

    fn check(&mut self, k: &Query) {
        let e = exact(k.p, k.q, k.x);
        let (point, dist, cap_point, cap_dist) = answers(k);
        let (pe, de) = (point_error(&e, point), distance_error(&e, dist));
        Worst::note(&mut self.point, pe, k);
        Worst::note(&mut self.dist, de, k);
        let mut bad = fails(pe) || fails(de);
        // Capsules: points clearly outside (within rounding of the rim either answer is fair).
        if e.dist > f64::from(k.r) * (1.0 + 1e-6) {
            let (cp, cd) = capsule_error(&e, k.x, k.r, cap_point, cap_dist);
            Worst::note(&mut self.capsule, cp.max(cd), k);
            bad |= fails(cp) || fails(cd);
        }
        self.failures += usize::from(bad);
    }
}

#[test]
fn points_near_long_segments_against_an_exact_reference() {
    let mut rng = Rng(0x5e6_c105);
    let mut report = Vec::new();
    let mut failures = 0;
    for dim in [2, 3] {
        for far in [0, 20, 40, 50, 60] {
            for scale in [-30, 0, 30] {
                for place in [Place::NearEnd, Place::Middle, Place::FarEnd] {
                    let mut w = Worst::default();
                    for _ in 0..150 {
                        w.check(&query(&mut rng, dim, far, scale, place));
                    }
                    failures += w.failures;
                    if w.failures > 0 {
                        report.push(format!(
                            "{dim}D, far end at 2^{far}, scale 2^{scale}, {place:?}: {} of 150 wrong; \
                             worst point {:.3e} ({:?}), distance {:.3e} ({:?}), capsule {:.3e} ({:?})",
                            w.failures, w.point.0, w.point.1, w.dist.0, w.dist.1, w.capsule.0, w.capsule.1
                        ));
                    }
                }
            }
        }
    }
    assert!(failures == 0, "{failures} wrong:\n{}", report.join("\n"));
}

/// The exact distance of `r` from the line through `p` and `q`.
fn off_line(p: [f32; 3], q: [f32; 3], r: [f32; 3]) -> f64 {
    let (p, q, r) = (big3(p), big3(q), big3(r));
    let (d, w) = (sub3(&q, &p), sub3(&r, &p));
    let cr = [&w[1] * &d[2] - &w[2] * &d[1], &w[2] * &d[0] - &w[0] * &d[2], &w[0] * &d[1] - &w[1] * &d[0]];
    ratio(&dot(&cr, &cr), &dot(&d, &d), -2 * SCALE).sqrt()
}

/// Checks one query against the reference, as the random test does.
fn assert_exact(k: Query) {
    let mut w = Worst::default();
    w.check(&k);
    assert_eq!(w.failures, 0, "{k:?}: point {}, distance {}, capsule {}", w.point.0, w.dist.0, w.capsule.0);
}

/// The worst case of the old closest point among 3,000 queries near the near end of
/// segments reaching to `2^50 ≈ 1.1e15`: from `(-7.4e14, -8.7e14, 8.6e14)` to
/// `(-11.3, -5.9, 2.2)`, the point `(-34.5, 12.6, 55.7)` got a closest point 0.25 from the
/// exact one and 0.14 off the segment's line (coordinates near 10, where `f32` steps by
/// `1e-6`), because `p + t d` was rounded at the size of the far end `p`.
#[test]
fn a_point_by_the_near_end_of_a_1e15_segment() {
    let (p, q) =
        ([-738060000000000.0, -871943860000000.0, 855507900000000.0], [-11.309046, -5.9245834, 2.1700907]);
    let x = [-34.518784, 12.597074, 55.666355];
    let got: [f32; 3] = Segment3::new(p.into(), q.into()).closest_point(x.into()).into();
    assert!(off_line(p, q, got) < 1e-5, "{got:?} is {} off the line", off_line(p, q, got));
    assert_exact(Query { p, q, x, r: 13.497164, dim: 3 });
    assert_exact(Query { p: q, q: p, x, r: 13.497164, dim: 3 });
    // The 2D worst case (0.24 from the exact point, 0.14 off the line).
    let (p, q) = ([-374792400000000.0, -908722400000000.0, 0.0], [-0.55663747, 0.78886014, 0.0]);
    let x = [-2.6625652, 1.0142615, 0.0];
    let got = Segment2::new(Vec3::from(p).truncate(), Vec3::from(q).truncate())
        .closest_point(Vec3::from(x).truncate());
    assert!(off_line(p, q, [got.x, got.y, 0.0]) < 1e-6);
    assert_exact(Query { p, q, x, r: 0.60748243, dim: 2 });
    assert_exact(Query { p: q, q: p, x, r: 0.60748243, dim: 2 });
}

/// The worst case of the old distance among the random queries by the middle of a segment:
/// the point `(-3.5e14, -0.0236)` is 0.00977 from the segment from `(-2^50, -0.068)` to
/// `(-0.083, 0.011)`, and came out 0.125 (`|x - foot|`, with the foot rounded by about 0.06
/// along the segment), so a capsule of radius 0.0098 around it did not hold the point.
#[test]
fn a_point_by_the_middle_of_a_1e15_segment() {
    let (p, q) = ([-1125899900000000.0, -0.068237, 0.0], [-0.08347597, 0.011038279, 0.0]);
    let x = [-353127300000000.0, -0.02359796, 0.0];
    let e = exact(p, q, x);
    assert!((e.dist - 0.009772336).abs() < 1e-8, "{}", e.dist);
    for dim in [2, 3] {
        assert_exact(Query { p, q, x, r: 0.028055644, dim });
        assert_exact(Query { p: q, q: p, x, r: 0.028055644, dim });
    }
    // The same along z, in 3D.
    let z = |v: [f32; 3]| [v[1], v[2], v[0]];
    assert_exact(Query { p: z(p), q: z(q), x: z(x), r: 0.028055644, dim: 3 });
    assert!(Capsule3::new(z(p).into(), z(q).into(), 0.0098).contains_point(z(x).into()));
    assert!(!Capsule3::new(z(p).into(), z(q).into(), 0.0097).contains_point(z(x).into()));
}
