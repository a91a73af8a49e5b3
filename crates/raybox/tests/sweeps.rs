//! Sweeps (`Sweep`): properties on random pairs of every supported kind.
//!
//! - The time of impact agrees with bisection on `overlaps` (or on `distance == 0` where
//!   the pair has no overlap test) to `1e-4`: the first sampled touching time is found on
//!   a grid of 1/512 and refined by bisection; a sweep may report an earlier time only for
//!   a graze the grid stepped over, and then the shapes must really touch at that time.
//! - Shapes overlapping at `t = 0` give `t = 0`; a zero motion is the overlap test.
//! - The contact point lies on both shapes at time `t`, the normal is a unit vector, and
//!   the motion runs against it (`motion · normal <= 0`) for `t > 0`.
//! - Segments moving: each pair also swept the other way (the same `t`, opposite normals,
//!   the same point), `t = 0` with the contact's point and reversed normal when they
//!   overlap, and segments crossing in space against an `f64` reference (Cramer's rule).
//!   Triangles moving against every 3D shape (triangles included) and against planes, and
//!   planes moving, the same way.
//!   Exact references for 2D segments on a grid are in `segments2d.rs`.

mod common;

use common::strategies::*;
use glam::{DVec3, Vec2, Vec3};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use raybox::{
    ClosestPoint, Contact, Distance, Obb2, Obb3, Overlaps, Plane, Segment2, Segment3, Sphere, Sweep,
    SweepHit2, SweepHit3, Triangle3,
};

/// Agreement required between the sweep and the bisection.
const TOI_TOL: f32 = 1e-4;
/// How close the contact point must be to both shapes (coordinates within about ±6).
const POINT_TOL: f32 = 1e-3;

/// A sweep result as `(t, point, normal)`.
trait Parts<V> {
    fn parts(&self) -> (f32, V, V);
}
impl Parts<Vec2> for SweepHit2 {
    fn parts(&self) -> (f32, Vec2, Vec2) {
        (self.t, self.point, self.normal)
    }
}
impl Parts<Vec3> for SweepHit3 {
    fn parts(&self) -> (f32, Vec3, Vec3) {
        (self.t, self.point, self.normal)
    }
}

/// Vector operations the checks need, for `Vec2` and `Vec3`.
trait V: Copy + core::fmt::Debug + core::ops::Mul<f32, Output = Self> + PartialEq {
    const ZERO: Self;
    fn len(self) -> f32;
    fn dot(self, o: Self) -> f32;
}
impl V for Vec2 {
    const ZERO: Self = Vec2::ZERO;
    fn len(self) -> f32 {
        self.length()
    }
    fn dot(self, o: Self) -> f32 {
        Vec2::dot(self, o)
    }
}
impl V for Vec3 {
    const ZERO: Self = Vec3::ZERO;
    fn len(self) -> f32 {
        self.length()
    }
    fn dot(self, o: Self) -> f32 {
        Vec3::dot(self, o)
    }
}

/// The sweep of `a` by `v` against `b`, checked against bisection on `touching`.
fn check_sweep<A, B, P, H>(a: &A, v: P, b: &B, touching: impl Fn(&A, &B) -> bool) -> Result<(), TestCaseError>
where
    A: Sweep<B, Motion = P, Hit = H> + Translate<P> + ClosestPoint<Point = P>,
    B: ClosestPoint<Point = P>,
    H: Parts<P> + core::fmt::Debug,
    P: V,
{
    let at = |t: f32| a.moved(v * t);
    let hit = a.sweep(v, b);
    let zero = a.sweep(P::ZERO, b);
    prop_assert_eq!(zero.is_some(), touching(a, b), "a zero motion is the overlap test");
    // The first touching time on a grid, refined by bisection.
    let steps = 512;
    let first = (0..=steps).map(|k| k as f32 / steps as f32).find(|&t| touching(&at(t), b));
    let expected = first.map(|t1| {
        if t1 == 0.0 {
            return 0.0;
        }
        let (mut lo, mut hi) = (t1 - 1.0 / steps as f32, t1);
        for _ in 0..30 {
            let mid = 0.5 * (lo + hi);
            if touching(&at(mid), b) { hi = mid } else { lo = mid }
        }
        hi
    });
    match (&hit, expected) {
        (None, Some(t)) => prop_assert!(false, "sweep missed; bisection says t = {}", t),
        (Some(h), expected) => {
            let (t, point, normal) = h.parts();
            prop_assert!((0.0..=1.0).contains(&t), "t = {} outside [0, 1]", t);
            prop_assert!((normal.len() - 1.0).abs() < 1e-4, "normal not unit: {:?}", h);
            let moved = at(t);
            let (da, db) = (moved.distance_to_point(point), b.distance_to_point(point));
            // (At t = 0 the shapes may overlap deeply: the point is then the contact's, midway.)
            prop_assert!(
                t == 0.0 || (da <= POINT_TOL && db <= POINT_TOL),
                "point {:?} is {} / {} off the shapes: {:?}",
                point,
                da,
                db,
                h
            );
            if t > 0.0 {
                prop_assert!(
                    v.dot(normal) <= 1e-3 * v.len(),
                    "the motion does not run against the normal: {:?}",
                    h
                );
            }
            match expected {
                Some(e) if (t - e).abs() <= TOI_TOL => {}
                // A graze between grid points, or no touch on the grid at all: it must be real.
                Some(e) if t < e => {
                    prop_assert!(da <= POINT_TOL && db <= POINT_TOL, "early t {} (bisection {})", t, e)
                }
                Some(e) => prop_assert!(false, "sweep t = {}, bisection t = {}: {:?}", t, e, h),
                None => {}
            }
            if touching(a, b) {
                prop_assert_eq!(t, 0.0, "overlapping at t = 0 must give t = 0");
            }
        }
        (None, None) => {}
    }
    Ok(())
}

fn motion2() -> impl Strategy<Value = Vec2> {
    point2().prop_map(|p| p * 2.0)
}
fn motion3() -> impl Strategy<Value = Vec3> {
    point3().prop_map(|p| p * 2.0)
}

fn ov<A: Overlaps<B>, B>(a: &A, b: &B) -> bool {
    a.overlaps(b)
}
fn d0<A: Distance<B>, B>(a: &A, b: &B) -> bool {
    a.distance(b) == 0.0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn circle_moving(a in circle(), v in motion2(), c in circle(), b in aabb2s(), o in obb2s(), k in capsule2s(), s in segment2s()) {
        check_sweep(&a, v, &c, ov)?; check_sweep(&a, v, &b, ov)?; check_sweep(&a, v, &o, ov)?;
        check_sweep(&a, v, &k, ov)?; check_sweep(&a, v, &s, d0)?;
    }
    #[test]
    fn aabb2_moving(a in aabb2s(), v in motion2(), c in circle(), b in aabb2s(), o in obb2s(), k in capsule2s(), s in segment2s()) {
        check_sweep(&a, v, &c, ov)?; check_sweep(&a, v, &b, ov)?; check_sweep(&a, v, &o, ov)?;
        check_sweep(&a, v, &k, ov)?; check_sweep(&a, v, &s, d0)?;
    }
    #[test]
    fn obb2_moving(a in obb2s(), v in motion2(), c in circle(), b in aabb2s(), o in obb2s(), k in capsule2s(), s in segment2s()) {
        check_sweep(&a, v, &c, ov)?; check_sweep(&a, v, &b, ov)?; check_sweep(&a, v, &o, ov)?;
        check_sweep(&a, v, &k, ov)?; check_sweep(&a, v, &s, d0)?;
    }
    #[test]
    fn capsule2_moving(a in capsule2s(), v in motion2(), c in circle(), b in aabb2s(), o in obb2s(), k in capsule2s(), s in segment2s()) {
        check_sweep(&a, v, &c, ov)?; check_sweep(&a, v, &b, ov)?; check_sweep(&a, v, &o, ov)?;
        check_sweep(&a, v, &k, ov)?; check_sweep(&a, v, &s, ov)?;
    }
    #[test]
    fn sphere_moving(a in sphere(), v in motion3(), c in sphere(), b in aabb3s(), o in obb3s(), k in capsule3s(), s in segment3s(), t in triangles()) {
        check_sweep(&a, v, &c, ov)?; check_sweep(&a, v, &b, ov)?; check_sweep(&a, v, &o, ov)?;
        check_sweep(&a, v, &k, ov)?; check_sweep(&a, v, &s, d0)?; check_sweep(&a, v, &t, ov)?;
    }
    #[test]
    fn aabb3_moving(a in aabb3s(), v in motion3(), c in sphere(), b in aabb3s(), o in obb3s(), k in capsule3s(), s in segment3s(), t in triangles()) {
        check_sweep(&a, v, &c, ov)?; check_sweep(&a, v, &b, ov)?; check_sweep(&a, v, &o, ov)?;
        check_sweep(&a, v, &k, ov)?; check_sweep(&a, v, &s, d0)?; check_sweep(&a, v, &t, ov)?;
    }
    #[test]
    fn obb3_moving(a in obb3s(), v in motion3(), c in sphere(), b in aabb3s(), o in obb3s(), k in capsule3s(), s in segment3s(), t in triangles()) {
        check_sweep(&a, v, &c, ov)?; check_sweep(&a, v, &b, ov)?; check_sweep(&a, v, &o, ov)?;
        check_sweep(&a, v, &k, ov)?; check_sweep(&a, v, &s, d0)?; check_sweep(&a, v, &t, ov)?;
    }
    #[test]
    fn capsule3_moving(a in capsule3s(), v in motion3(), c in sphere(), b in aabb3s(), o in obb3s(), k in capsule3s(), s in segment3s(), t in triangles()) {
        check_sweep(&a, v, &c, ov)?; check_sweep(&a, v, &b, ov)?; check_sweep(&a, v, &o, ov)?;
        check_sweep(&a, v, &k, ov)?; check_sweep(&a, v, &s, ov)?; check_sweep(&a, v, &t, ov)?;
    }
    #[test]
    fn against_planes(s in sphere(), b in aabb3s(), o in obb3s(), k in capsule3s(), v in motion3(), p in planes()) {
        check_sweep(&s, v, &p, ov)?; check_sweep(&b, v, &p, ov)?; check_sweep(&o, v, &p, ov)?; check_sweep(&k, v, &p, ov)?;
    }
}

/// The pair swept both ways, `a` by `v` against `b` and `b` by `-v` against `a`: the same
/// contact seen from either shape. Both or neither touch (unless the one that touches does
/// so at the very end of the motion, a graze the other's rounding may miss), at times within
/// `TOI_TOL` (equal at `t = 0`, where both come from the pair's contact: its point and its
/// normal, reversed to point at the moving shape), with opposite normals (to the bit at
/// `t = 0`), at the same point once the frames are matched
/// (`a`'s at `t` is `b`'s plus `v t`), unless the shapes touch along a face or an edge, where
/// any of its points will do: then both points lie on both shapes.
fn check_reverse<A, B, P, H, C>(a: &A, v: P, b: &B) -> Result<(), TestCaseError>
where
    A: Sweep<B, Motion = P, Hit = H> + Translate<P> + ClosestPoint<Point = P> + Contact<B, Output = C>,
    B: Sweep<A, Motion = P, Hit = H> + Translate<P> + ClosestPoint<Point = P>,
    H: Parts<P> + core::fmt::Debug,
    C: ContactParts<P>,
    P: V + core::ops::Neg<Output = P> + core::ops::Add<Output = P> + core::ops::Sub<Output = P>,
{
    check_start(a, v, b)?;
    let (ab, ba) = (a.sweep(v, b), b.sweep(-v, a));
    let (x, y) = match (&ab, &ba) {
        (Some(x), Some(y)) => (x.parts(), y.parts()),
        (Some(h), None) | (None, Some(h)) => {
            prop_assert!(
                h.parts().0 >= 1.0 - TOI_TOL,
                "one order touches, the other not: {:?} / {:?}",
                ab,
                ba
            );
            return Ok(());
        }
        (None, None) => return Ok(()),
    };
    let ((t, p, n), (t_back, p_back, n_back)) = (x, y);
    if t == 0.0 || t_back == 0.0 {
        prop_assert_eq!((t, p, n), (t_back, p_back, -n_back), "t = 0 comes from the pair's contact");
        return Ok(());
    }
    prop_assert!(
        (t - t_back).abs() <= TOI_TOL,
        "t = {} one way, {} the other: {:?} / {:?}",
        t,
        t_back,
        ab,
        ba
    );
    prop_assert!((n + n_back).len() <= 1e-3, "normals not opposite: {:?} / {:?}", ab, ba);
    let same_point = (p - (p_back + v * t)).len() <= POINT_TOL;
    let (a_at, b_at) = (a.moved(v * t), b.moved(-v * t_back));
    let on_both =
        |q: P, a: &A, b: &B| a.distance_to_point(q) <= POINT_TOL && b.distance_to_point(q) <= POINT_TOL;
    prop_assert!(
        same_point || (on_both(p, &a_at, b) && on_both(p_back, a, &b_at)),
        "points apart: {:?} / {:?}",
        ab,
        ba
    );
    Ok(())
}

/// Shapes that overlap at the start: `t = 0`, the contact's point, its normal reversed (to
/// point at the moving shape).
fn check_start<A, B, P, H, C>(a: &A, v: P, b: &B) -> Result<(), TestCaseError>
where
    A: Sweep<B, Motion = P, Hit = H> + Contact<B, Output = C>,
    H: Parts<P>,
    C: ContactParts<P>,
    P: V + core::ops::Neg<Output = P>,
{
    if let Some(k) = a.contact(b) {
        let (kn, kp) = k.normal_and_point();
        let got = a.sweep(v, b).map(|h| h.parts());
        prop_assert_eq!(
            got,
            Some((0.0, kp, -kn)),
            "overlapping: t = 0, the contact's point, its normal reversed"
        );
    }
    Ok(())
}

/// A contact's normal and first point, 2D or 3D.
trait ContactParts<P> {
    fn normal_and_point(&self) -> (P, P);
}
impl ContactParts<Vec2> for raybox::Contact2 {
    fn normal_and_point(&self) -> (Vec2, Vec2) {
        (self.normal, self.points[0])
    }
}
impl ContactParts<Vec3> for raybox::Contact3 {
    fn normal_and_point(&self) -> (Vec3, Vec3) {
        (self.normal, self.points[0])
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn segment2_moving(a in segment2s(), v in motion2(), c in circle(), b in aabb2s(), o in obb2s(), k in capsule2s(), s in segment2s()) {
        check_sweep(&a, v, &c, ov)?; check_sweep(&a, v, &b, ov)?; check_sweep(&a, v, &o, ov)?;
        check_sweep(&a, v, &k, ov)?; check_sweep(&a, v, &s, ov)?;
        check_reverse(&a, v, &c)?; check_reverse(&a, v, &b)?; check_reverse(&a, v, &o)?;
        check_reverse(&a, v, &k)?; check_reverse(&a, v, &s)?;
    }
    #[test]
    fn segment3_moving(a in segment3s(), v in motion3(), c in sphere(), b in aabb3s(), o in obb3s(), k in capsule3s(), t in triangles(), p in planes()) {
        check_sweep(&a, v, &c, ov)?; check_sweep(&a, v, &b, ov)?; check_sweep(&a, v, &o, ov)?;
        check_sweep(&a, v, &k, ov)?; check_sweep(&a, v, &t, ov)?; check_sweep(&a, v, &p, ov)?;
        check_reverse(&a, v, &c)?; check_reverse(&a, v, &b)?; check_reverse(&a, v, &o)?;
        check_reverse(&a, v, &k)?; check_start(&a, v, &t)?; check_start(&a, v, &p)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A triangle moving against every 3D shape, and a plane moving against them: against
    /// bisection, and each pair swept both ways.
    #[test]
    fn triangle_moving(a in triangles(), v in motion3(), c in sphere(), b in aabb3s(), o in obb3s(), k in capsule3s(), s in segment3s(), t in triangles(), p in planes()) {
        check_sweep(&a, v, &c, ov)?; check_sweep(&a, v, &b, ov)?; check_sweep(&a, v, &o, ov)?;
        check_sweep(&a, v, &k, ov)?; check_sweep(&a, v, &s, ov)?; check_sweep(&a, v, &t, ov)?;
        check_sweep(&a, v, &p, ov)?;
        check_reverse(&a, v, &c)?; check_reverse(&a, v, &b)?; check_reverse(&a, v, &o)?;
        check_reverse(&a, v, &k)?; check_reverse(&a, v, &s)?; check_reverse(&a, v, &t)?;
        check_reverse(&a, v, &p)?;
    }
    #[test]
    fn plane_moving(p in planes(), v in motion3(), c in sphere(), b in aabb3s(), o in obb3s(), k in capsule3s(), s in segment3s()) {
        check_sweep(&p, v, &c, ov)?; check_sweep(&p, v, &b, ov)?; check_sweep(&p, v, &o, ov)?;
        check_sweep(&p, v, &k, ov)?; check_sweep(&p, v, &s, ov)?;
    }
}

/// The first contact of the segment `a` moving by `t v`, `t` in `[0, 1]`, with the segment
/// `b`, in `f64`, when it is well defined: `a₀ + s dₐ + t v = b₀ + u d_b` is a 3×3 linear
/// system (Cramer's rule), whose one solution is the only time the segments meet, if `s`,
/// `t` and `u` are all in `[0, 1]`. Returns `t` and the least margin of the three parameters
/// to their bounds (negative: out of range, no contact), or `None` when the system is
/// nearly singular (parallel directions, a motion along the segments' plane).
fn segment_segment_toi(a: &Segment3, v: Vec3, b: &Segment3) -> Option<(f64, f64)> {
    let (da, db, vd) = ((a.end() - a.start()).as_dvec3(), (b.end() - b.start()).as_dvec3(), v.as_dvec3());
    let w = (b.start() - a.start()).as_dvec3();
    let det = da.dot(vd.cross(-db));
    if det.abs() <= 1e-3 * da.length() * vd.length() * db.length() {
        return None;
    }
    let s = w.dot(vd.cross(-db)) / det;
    let t = da.dot(w.cross(-db)) / det;
    let u = da.dot(vd.cross(w)) / det;
    let margin = [s, t, u].iter().map(|x| x.min(1.0 - x)).fold(f64::INFINITY, f64::min);
    Some((t, margin))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Segments in space meet at one moment, if at all: the sweep finds it, against the
    /// `f64` reference, in both orders; at that time the segments are within a hair of each
    /// other (the exact overlap test, on the `f32` time, sees them a hair apart on one side
    /// or the other), and a little earlier clearly apart.
    #[test]
    fn segment3_moving_across_segment3(a in segment3s(), v in motion3(), b in segment3s()) {
        prop_assert!(!a.overlaps(&b) || a.sweep(v, &b).map(|h| h.t) == Some(0.0));
        let Some((t_ref, margin)) = segment_segment_toi(&a, v, &b) else { return Ok(()) };
        let (hit, back) = (a.sweep(v, &b), b.sweep(-v, &a));
        if margin < -1e-3 {
            prop_assert!(hit.is_none() && back.is_none(), "no contact (reference margin {}): {:?} / {:?}", margin, hit, back);
        } else if margin > 1e-3 {
            let (Some(h), Some(k)) = (hit, back) else {
                return Err(TestCaseError::fail(format!("missed t = {t_ref}: {hit:?} / {back:?}")));
            };
            prop_assert!((f64::from(h.t) - t_ref).abs() <= 1e-5 && (f64::from(k.t) - t_ref).abs() <= 1e-5,
                "t = {} / {}, reference {}", h.t, k.t, t_ref);
            prop_assert!((h.normal + k.normal).length() <= 1e-4, "{:?} / {:?}", h, k);
            // The normal is across both segments: their common perpendicular.
            let (da, db) = ((a.end() - a.start()).normalize(), (b.end() - b.start()).normalize());
            prop_assert!(h.normal.dot(da).abs() <= 1e-4 && h.normal.dot(db).abs() <= 1e-4, "{:?}", h);
            prop_assert!(v.dot(h.normal) <= 0.0, "{:?}", h);
            let at = |t: f32| Segment3::new(a.start() + v * t, a.end() + v * t);
            prop_assert!(at(h.t).distance(&b) <= 1e-5, "apart at t: {}", at(h.t).distance(&b));
            prop_assert!(at(h.t).distance_to_point(h.point) <= 1e-5 && b.distance_to_point(h.point) <= 1e-5, "{:?}", h);
            let before = (h.t - 1e-3).max(0.0);
            prop_assert!(before == 0.0 || !at(before).overlaps(&b) && at(before).distance(&b) > 0.0);
        }
    }
}

/// The random segments and motions of `segment3_moving_across_segment3` meet often enough
/// to test the hits, and miss often enough to test the misses.
#[test]
fn segment3_sweeps_cover_hits_and_misses() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut hits, mut misses, n) = (0, 0, 2000);
    for _ in 0..n {
        let (a, v, b) = (segment3s(), motion3(), segment3s()).new_tree(&mut runner).unwrap().current();
        match segment_segment_toi(&a, v, &b) {
            Some((_, margin)) if margin > 1e-3 => hits += 1,
            Some((_, margin)) if margin < -1e-3 => misses += 1,
            _ => {}
        }
    }
    assert!(hits > n / 20 && misses > n / 2, "{hits} hits and {misses} misses of {n}");
}

/// The random triangles and motions of `triangle_moving` touch another triangle part way
/// through the motion often enough to test those times, and miss often enough.
#[test]
fn triangle_sweeps_cover_hits_and_misses() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut later, mut misses, n) = (0, 0, 1000);
    for _ in 0..n {
        let (a, v, b) = (triangles(), motion3(), triangles()).new_tree(&mut runner).unwrap().current();
        match a.sweep(v, &b) {
            Some(h) if h.t > 0.0 => later += 1,
            None => misses += 1,
            _ => {}
        }
    }
    assert!(later > n / 10 && misses > n / 10, "{later} later contacts and {misses} misses of {n}");
}

fn triangles() -> impl Strategy<Value = Triangle3> {
    (point3(), point3(), point3())
        .prop_filter("non-degenerate", |(a, b, c)| (*b - *a).cross(*c - *a).length() > 1e-2)
        .prop_map(|(a, b, c)| Triangle3::new(a, b, c))
}

fn planes() -> impl Strategy<Value = Plane> {
    (point3(), point3())
        .prop_filter("non-zero normal", |(_, n)| n.length() > 0.1)
        .prop_map(|(p, n)| Plane::from_point_normal(p, n))
}

/// The `obb2_moving` case proptest found (seed 16e42318… in `sweeps.proptest-regressions`):
/// the box's long edge is nearly parallel to the segment and first touches it at
/// `t = 0.25184057` (exact arithmetic); GJK's sliver-triangle rounding once made the sweep
/// step past the contact and report no hit.
#[test]
fn obb2_onto_a_steep_segment() {
    let a = Obb2::try_from_matrix(
        Vec2::new(-0.07006633, -1.454699),
        Vec2::new(1.4380575, 0.58636945),
        glam::Mat2::from_cols(Vec2::new(-0.06317201, 0.99800265), Vec2::new(-0.99800265, -0.06317201)),
    )
    .unwrap();
    let v = Vec2::new(-3.3462994, 0.93229526);
    let s = Segment2::new(Vec2::new(-1.4663804, -1.7591732), Vec2::new(-1.6688949, 1.4446722));
    check_sweep(&a, v, &s, d0).unwrap();
}

/// Found by `PROPTEST_CASES=100000` (seed 48d0751a…): a sphere grazing an `Obb3` face
/// (closing speed 2.9e-4 along the face normal, in the box frame). Exact rational arithmetic
/// on these inputs (box frame `Rᵀ (p - center)`, as `Obb3::point_to_local`) gives
/// `t = 0.42436731`; the sweep once took the centre and the motion to the box frame in `f32`,
/// whose 2.5e-8 error in the gap over the 2.9e-4 closing speed made `t = 0.4244451`.
#[test]
fn sphere_grazing_an_obb3_face() {
    let a = Sphere::new(Vec3::new(-0.6623271, -1.4999967, -0.8896998), 0.07670176);
    let v = Vec3::new(0.65111244, -0.35555106, 1.36524);
    let o = Obb3::try_from_matrix(
        Vec3::new(-0.46749774, -1.133927, -0.29777315),
        Vec3::new(0.075756714, 1.5040839, 1.7747513),
        glam::Mat3::from_cols(
            Vec3::new(-0.87765837, 0.14548337, 0.45667312),
            Vec3::new(0.47785342, 0.3392414, 0.81029093),
            Vec3::new(-0.037038572, 0.92938143, -0.36725777),
        ),
    )
    .unwrap();
    let hit = a.sweep(v, &o).unwrap();
    assert!((f64::from(hit.t) - 0.42436731).abs() < 1e-6, "{hit:?}");
    check_sweep(&a, v, &o, ov).unwrap();
}

// Grazing motions against the closed-form sweeps, checked against an `f64` reference.
//
// A grazing motion closes on the static shape at a tiny speed `v·n` along the contact
// normal, so the time of impact is a small gap over a small speed: an error `δ` in the gap
// (an `f32` rounding of a coordinate, a grown bound or a box-frame transform) moves `t` by
// `δ / (v·n)`, far more than `t`'s own rounding. `check_sweep`'s bisection moves the shapes
// in `f32` and has the same blur, so these tests use their own reference: the distance
// between the shapes at time `t`, `D(t)`, computed in `f64` from the exact `f32` inputs.
// `D` is convex in `t` (the distance between a translating convex shape and a fixed one),
// so its minimum on `[0, 1]` comes from a ternary search, and the first touching time is
// the bisection of `D(t) <= reach` on `[0, argmin]`, where `D` decreases.

/// The first `t` in `[0, 1]` with `dist(t) <= reach` for a convex `dist`, and `dist`'s minimum.
fn first_touch(dist: impl Fn(f64) -> f64, reach: f64) -> (Option<f64>, f64) {
    // The smallest distance sampled, and where (a flat bottom, touching boxes, may lie on
    // either side of the search's last bracket).
    let mut best = [0.0, 1.0]
        .map(|t| (dist(t), t))
        .into_iter()
        .fold((f64::INFINITY, 0.0), |b, x| if x.0 < b.0 { x } else { b });
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    // (2/3)^100 and 2^-64 below: brackets far under f64's resolution of [0, 1].
    for _ in 0..100 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        let (d1, d2) = (dist(m1), dist(m2));
        for x in [(d1, m1), (d2, m2)] {
            if x.0 < best.0 {
                best = x;
            }
        }
        if d1 <= d2 { hi = m2 } else { lo = m1 }
    }
    let (min, argmin) = best;
    if dist(0.0) <= reach {
        return (Some(0.0), min);
    }
    if min > reach {
        return (None, min);
    }
    let (mut a, mut b) = (0.0f64, argmin);
    for _ in 0..64 {
        let mid = 0.5 * (a + b);
        if dist(mid) <= reach { b = mid } else { a = mid }
    }
    (Some(b), min)
}

/// Agreement required with the `f64` reference: a few ulps of `t` in `f32`.
const GRAZE_TOL: f64 = 1e-6;
/// Distances within this of the reach are touching within a hair (coordinates about ±10).
const GRAZE_HAIR: f64 = 1e-9;
/// The sweeps answer `t = 0` when the shapes' overlap test says they overlap at the start;
/// for oriented boxes that test is within a few `f32` ulps of the coordinates (not an `f64`
/// hair) of exact.
const START_HAIR: f64 = 1e-5;

/// The sweep's time `t` against the reference on `dist` (the shapes' `f64` distance at time
/// `t`), given the shapes' own overlap test at `t = 0`.
fn check_graze(
    overlapping: bool,
    t: Option<f32>,
    dist: impl Fn(f64) -> f64,
    reach: f64,
) -> Result<(), TestCaseError> {
    if overlapping {
        prop_assert!(dist(0.0) <= reach + START_HAIR, "overlap test wrong by {}", dist(0.0) - reach);
        prop_assert_eq!(t, Some(0.0), "overlapping at t = 0 must give t = 0");
        return Ok(());
    }
    let (expected, min) = first_touch(&dist, reach);
    // A motion that only just touches (or only just misses) has an ill-conditioned time:
    // accept any answer whose time really touches within a hair.
    let tangent = (min - reach).abs() <= GRAZE_HAIR;
    match (t.map(f64::from), expected) {
        (Some(t), Some(e)) => prop_assert!(
            (t - e).abs() <= GRAZE_TOL || (tangent && dist(t) <= reach + GRAZE_HAIR),
            "sweep t = {}, reference t = {} (distance there {} for reach {})",
            t,
            e,
            dist(t),
            reach
        ),
        (None, Some(e)) => prop_assert!(tangent, "sweep missed; reference t = {}", e),
        (Some(t), None) => {
            prop_assert!(tangent && dist(t) <= reach + GRAZE_HAIR, "sweep t = {}; reference: no touch", t)
        }
        (None, None) => {}
    }
    Ok(())
}

/// The distance from `p` to the box `[-h, h]` in `f64`.
fn box_distance(p: glam::DVec3, h: glam::DVec3) -> f64 {
    (p - p.clamp(-h, h)).length()
}

/// A grazing motion in a box's frame: the centre of a ball of radius `r` touches the box
/// `[-h, h]` rounded by `r` at time `t0`, at the point `(u, w)` of the plane of face `±axis`
/// (within the face, or past its edges, where the rounded edges and corners are), moving
/// along that plane at `speed` and across it at `closing` (toward the box when positive).
/// Returns the centre at `t = 0` and the motion.
fn graze_local(
    h: Vec3,
    r: f32,
    (axis, side): (usize, f32),
    (u, w): (f32, f32),
    (tangent, speed, closing): (Vec2, f32, f32),
    t0: f32,
) -> (glam::DVec3, glam::DVec3) {
    let (i, j) = ((axis + 1) % 3, (axis + 2) % 3);
    let mut contact = glam::DVec3::ZERO;
    contact[axis] = f64::from(side * (h[axis] + r));
    contact[i] = f64::from(u * h[i]);
    contact[j] = f64::from(w * h[j]);
    let t = tangent.normalize_or(Vec2::X) * speed;
    let mut v = glam::DVec3::ZERO;
    v[axis] = -f64::from(side * closing);
    v[i] = f64::from(t.x);
    v[j] = f64::from(t.y);
    (contact - v * f64::from(t0), v)
}

/// `(axis, side)`, `(u, w)`, `(tangent, speed, closing)`, `t0` for `graze_local`: closing
/// speeds from 1e-2 down to 1e-7 of the sliding speed, either way; contacts mostly in
/// `[0, 1]`, a few just outside it.
#[allow(clippy::type_complexity)]
fn grazes() -> impl Strategy<Value = ((usize, f32), (f32, f32), (Vec2, f32, f32), f32)> {
    (
        (0usize..3, prop_oneof![Just(-1.0f32), Just(1.0f32)]),
        (-1.4f32..1.4, -1.4f32..1.4),
        (point2(), 0.2f32..4.0, 2.0f32..7.0, prop_oneof![3 => Just(1.0f32), 1 => Just(-1.0f32)]),
        -0.1f32..1.1,
    )
        .prop_map(|(face, uw, (tangent, speed, exp, sign), t0)| {
            (face, uw, (tangent, speed, sign * speed * 10f32.powf(-exp)), t0)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn sphere_grazing_obb3(o in obb3s(), r in 0.0f32..1.0, (face, uw, motion, t0) in grazes()) {
        // Built in the box frame, then placed in the world (rounded to f32: still grazing).
        let (local, v_local) = graze_local(o.half_extents(), r, face, uw, motion, t0);
        let c = o.point_to_world(local.as_vec3());
        let v = o.rotation() * v_local.as_vec3();
        prop_assume!(v != Vec3::ZERO);
        let a = Sphere::new(c, r);
        // The reference in the frame of `Obb3::point_to_local` (`Rᵀ (p - center)`), in f64.
        let rt = o.rotation().as_dmat3().transpose();
        let (c0, v0) = (rt * (c.as_dvec3() - o.center().as_dvec3()), rt * v.as_dvec3());
        let h = o.half_extents().as_dvec3();
        let dist = |t: f64| box_distance(c0 + v0 * t, h);
        check_graze(a.overlaps(&o), a.sweep(v, &o).map(|k| k.t), dist, f64::from(r))?;
        // The box moving the other way against the ball: the same time.
        check_graze(a.overlaps(&o), o.sweep(-v, &a).map(|k| k.t), dist, f64::from(r))?;
    }

    #[test]
    fn sphere_grazing_aabb3(b in aabb3s(), r in 0.0f32..1.0, (face, uw, motion, t0) in grazes()) {
        let (local, v_local) = graze_local(b.half_extents(), r, face, uw, motion, t0);
        let (c, v) = (b.center() + local.as_vec3(), v_local.as_vec3());
        prop_assume!(v != Vec3::ZERO);
        let a = Sphere::new(c, r);
        let (lo, hi) = (b.min().as_dvec3(), b.max().as_dvec3());
        let dist = |t: f64| {
            let p = c.as_dvec3() + v.as_dvec3() * t;
            (p - p.clamp(lo, hi)).length()
        };
        check_graze(a.overlaps(&b), a.sweep(v, &b).map(|k| k.t), dist, f64::from(r))?;
        check_graze(a.overlaps(&b), b.sweep(-v, &a).map(|k| k.t), dist, f64::from(r))?;
    }

    #[test]
    fn circle_grazing_obb2_and_aabb2(o in obb2s(), r in 0.0f32..1.0, side in prop_oneof![Just(-1.0f32), Just(1.0f32)],
                                     axis in 0usize..2, u in -1.4f32..1.4, speed in 0.2f32..4.0, exp in 2.0f32..7.0, t0 in -0.1f32..1.1) {
        // In the box frame: the centre touches face `side * axis` at t0, sliding along it.
        let h = o.half_extents();
        let other = 1 - axis;
        let closing = speed * 10f32.powf(-exp);
        let mut contact = Vec2::ZERO;
        contact[axis] = side * (h[axis] + r);
        contact[other] = u * h[other];
        let mut v_local = Vec2::ZERO;
        v_local[axis] = -side * closing;
        v_local[other] = speed;
        let c = o.point_to_world(contact - v_local * t0);
        let v = o.rotation() * v_local;
        let a = raybox::Circle::new(c, r);
        let rt = o.rotation().as_dmat2().transpose();
        let (c0, v0) = (rt * (c.as_dvec2() - o.center().as_dvec2()), rt * v.as_dvec2());
        let hd = h.as_dvec2();
        let dist = |t: f64| {
            let p = c0 + v0 * t;
            (p - p.clamp(-hd, hd)).length()
        };
        check_graze(a.overlaps(&o), a.sweep(v, &o).map(|k| k.t), dist, f64::from(r))?;
        // The same in world axes, against the box's bounding box.
        let b = o.to_aabb();
        let (lo, hi) = (b.min().as_dvec2(), b.max().as_dvec2());
        let dist = |t: f64| {
            let p = c.as_dvec2() + v.as_dvec2() * t;
            (p - p.clamp(lo, hi)).length()
        };
        check_graze(a.overlaps(&b), a.sweep(v, &b).map(|k| k.t), dist, f64::from(r))?;
    }

    #[test]
    fn sphere_grazing_sphere(s in sphere(), r in 0.0f32..1.0, (tangent, speed, closing) in (point3(), 0.2f32..4.0, 2.0f32..7.0),
                             n in point3(), t0 in -0.1f32..1.1) {
        // The centres `s.radius() + r` apart at t0, the motion almost perpendicular to the
        // line between them (closing at `speed * 10^-closing`).
        let n = n.normalize_or(Vec3::X);
        let reach = s.radius() + r;
        let slide = (tangent - n * tangent.dot(n)).normalize_or(n.any_orthonormal_vector()) * speed;
        let v = slide - n * (speed * 10f32.powf(-closing));
        let c = s.center() + n * reach - v * t0;
        let a = Sphere::new(c, r);
        let (c0, v0, c2) = (c.as_dvec3(), v.as_dvec3(), s.center().as_dvec3());
        let dist = |t: f64| (c0 + v0 * t - c2).length();
        let reach = f64::from(s.radius()) + f64::from(r);
        check_graze(a.overlaps(&s), a.sweep(v, &s).map(|k| k.t), dist, reach)?;
    }

    #[test]
    fn aabb3_grazing_aabb3(a in aabb3s(), b in aabb3s(), axis in 0usize..3, side in prop_oneof![Just(-1.0f32), Just(1.0f32)],
                           (tangent, speed, closing) in (point3(), 0.2f32..4.0, 2.0f32..7.0), t0 in -0.1f32..1.1) {
        // `a` placed so that its face `-side * axis` meets `b`'s face `side * axis` at t0,
        // sliding along it (the faces overlap at t0 or not, depending on the tangent).
        let mut v = tangent * speed;
        v[axis] = -side * speed * 10f32.powf(-closing);
        let mut place = b.center() - a.center() - v * t0 + tangent;
        place[axis] = side * (b.half_extents()[axis] + a.half_extents()[axis]) + b.center()[axis] - a.center()[axis] - v[axis] * t0;
        let a = raybox::Aabb3::new(a.min() + place, a.max() + place);
        let (amin, amax, bmin, bmax) = (a.min().as_dvec3(), a.max().as_dvec3(), b.min().as_dvec3(), b.max().as_dvec3());
        let vd = v.as_dvec3();
        // The distance between the boxes at time t: per axis, the gap between the intervals
        // (the differences of inputs first: exact, so that touching gives exactly zero).
        let dist = |t: f64| {
            let gap = ((bmin - amax) - vd * t).max((amin - bmax) + vd * t).max(glam::DVec3::ZERO);
            gap.length()
        };
        check_graze(a.overlaps(&b), a.sweep(v, &b).map(|k| k.t), dist, 0.0)?;
    }
}

// Grazing motions against the sweeps by conservative advancement (GJK distance), checked
// against the same `f64` reference: the pairs below have a distance that is cheap to
// compute exactly in `f64` (a segment against a box or a segment, two boxes with the same
// rotation), so the reference does not depend on GJK.

/// The minimum of a convex `f` on `[0, 1]` (golden-section search, to about 1e-13).
fn convex_min(f: impl Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.0f64, 1.0f64);
    let (mut x1, mut x2) = (b - g * (b - a), a + g * (b - a));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..64 {
        if f1 <= f2 {
            (b, x2, f2) = (x2, x1, f1);
            x1 = b - g * (b - a);
            f1 = f(x1);
        } else {
            (a, x1, f1) = (x1, x2, f2);
            x2 = a + g * (b - a);
            f2 = f(x2);
        }
    }
    [f(0.0), f(1.0), f1, f2].into_iter().fold(f64::INFINITY, f64::min)
}

/// The distance from `p` to the segment `[a, b]` in `f64`.
fn segment_distance(p: glam::DVec3, a: glam::DVec3, b: glam::DVec3) -> f64 {
    let ab = b - a;
    let s =
        if ab == glam::DVec3::ZERO { 0.0 } else { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) };
    (p - (a + ab * s)).length()
}

/// The distance from `q` to the parallelepiped `{Σ yₖ axesₖ : |yₖ| <= hₖ}` in `f64`: an
/// oriented box as the GJK sweeps see it (its stored `f32` axes are orthonormal only to
/// about 1e-7, which on a grazing motion moves the time of impact by far more than the
/// tolerance). Projected Gauss–Seidel on `|R y - q|²`: the axes are nearly orthogonal, so
/// each sweep shrinks the error by about 1e-7 and a few reach `f64` rounding.
fn parallelepiped_distance(q: glam::DVec3, axes: [glam::DVec3; 3], h: glam::DVec3) -> f64 {
    let mut y = glam::DVec3::ZERO;
    let at = |y: glam::DVec3| axes[0] * y.x + axes[1] * y.y + axes[2] * y.z;
    for _ in 0..6 {
        for k in 0..3 {
            let step = axes[k].dot(q - at(y)) / axes[k].length_squared();
            y[k] = (y[k] + step).clamp(-h[k], h[k]);
        }
    }
    // No bound active at the minimum: `q` is inside (exactly zero, not the residual's
    // rounding, which would defeat the reference's `distance <= 0` for touching boxes).
    // (A flat axis, `h = 0`, bounds nothing when `q` has no component along it.)
    let inside = (0..3).all(|k| y[k].abs() < h[k] || (h[k] == 0.0 && axes[k].dot(q) == 0.0));
    if inside { 0.0 } else { (q - at(y)).length() }
}

/// A capsule of radius `r` whose first end cap grazes: its segment starts at `local`
/// (from `graze_local`) and leaves the face at `tilt` (the end cap is the part nearest the
/// face, within it or past its edges), `len` long.
fn capsule_from(local: glam::DVec3, face: (usize, f32), tilt: Vec3, len: f32) -> (glam::DVec3, glam::DVec3) {
    let (axis, side) = face;
    let mut d = tilt.normalize_or(Vec3::Y).as_dvec3();
    d[axis] = d[axis].abs() * f64::from(side);
    (local, local + d * f64::from(len))
}

proptest! {
    // (Fewer cases: each reference distance is a search over the capsule's segment.)
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn capsule_grazing_obb3(o in obb3s(), r in 0.01f32..1.0, (face, uw, motion, t0) in grazes(),
                            tilt in point3(), len in 0.0f32..3.0) {
        let (local, v_local) = graze_local(o.half_extents(), r, face, uw, motion, t0);
        let (p, q) = capsule_from(local, face, tilt, len);
        let (p, q) = (o.point_to_world(p.as_vec3()), o.point_to_world(q.as_vec3()));
        let v = o.rotation() * v_local.as_vec3();
        prop_assume!(v != Vec3::ZERO);
        let a = raybox::Capsule3::new(p, q, r);
        let (axes, h) = (o.axes().map(Vec3::as_dvec3), o.half_extents().as_dvec3());
        let (p0, q0, v0) = (p.as_dvec3() - o.center().as_dvec3(), q.as_dvec3() - o.center().as_dvec3(), v.as_dvec3());
        let dist = |t: f64| convex_min(|s| parallelepiped_distance(p0 + (q0 - p0) * s + v0 * t, axes, h));
        check_graze(a.overlaps(&o), a.sweep(v, &o).map(|k| k.t), dist, f64::from(r))?;
        check_graze(a.overlaps(&o), o.sweep(-v, &a).map(|k| k.t), dist, f64::from(r))?;
    }

    #[test]
    fn capsule_grazing_capsule(b in capsule3s(), r in 0.0f32..1.0, (tangent, speed, closing) in (point3(), 0.2f32..4.0, 2.0f32..7.0),
                               s in 0.0f32..1.0, n in point3(), tilt in point3(), len in 0.0f32..3.0, t0 in -0.1f32..1.1) {
        // The moving capsule's first end touches `b` at t0 beside the point `s` of its
        // segment, along `n` (perpendicular to `b`'s segment), moving almost across `n`.
        let (b0, b1) = (b.start(), b.end());
        let axis = (b1 - b0).normalize_or(Vec3::X);
        let n = (n - axis * n.dot(axis)).normalize_or(axis.any_orthonormal_vector());
        let reach = b.radius() + r;
        let slide = (tangent - n * tangent.dot(n)).normalize_or(axis) * speed;
        let v = slide - n * (speed * 10f32.powf(-closing));
        let start = b0 + (b1 - b0) * s + n * reach - v * t0;
        let mut d = tilt.normalize_or(n);
        if d.dot(n) < 0.0 {
            d -= n * (2.0 * d.dot(n));
        }
        let a = raybox::Capsule3::new(start, start + d * len, r);
        let (a0, a1, c0, c1, vd) = (a.start().as_dvec3(), a.end().as_dvec3(), b0.as_dvec3(), b1.as_dvec3(), v.as_dvec3());
        let dist = |t: f64| convex_min(|s| segment_distance(a0 + (a1 - a0) * s + vd * t, c0, c1));
        let reach = f64::from(b.radius()) + f64::from(r);
        check_graze(a.overlaps(&b), a.sweep(v, &b).map(|k| k.t), dist, reach)?;
        check_graze(a.overlaps(&b), b.sweep(-v, &a).map(|k| k.t), dist, reach)?;
    }

    #[test]
    fn obb3_grazing_obb3(b in obb3s(), ha in half3(), axis in 0usize..3, side in prop_oneof![Just(-1.0f32), Just(1.0f32)],
                         (tangent, speed, closing) in (point3(), 0.2f32..4.0, 2.0f32..7.0), offset in point3(), t0 in -0.1f32..1.1) {
        // Two boxes with the same rotation, `a`'s face `-side * axis` meeting `b`'s face
        // `side * axis` at t0, sliding along it (built in `b`'s frame).
        let hb = b.half_extents();
        let mut v_local = tangent * speed;
        v_local[axis] = -side * speed * 10f32.powf(-closing);
        let mut c_local = offset * 0.5 - v_local * t0;
        c_local[axis] = side * (hb[axis] + ha[axis]) - v_local[axis] * t0;
        let a = Obb3::try_from_matrix(b.point_to_world(c_local), ha, b.rotation()).unwrap();
        let v = b.rotation() * v_local;
        prop_assume!(v != Vec3::ZERO);
        // With one set of axes, `a - b` is the parallelepiped of the summed half extents
        // around the difference of the centres: the distance is that of the origin to it.
        let axes = b.axes().map(Vec3::as_dvec3);
        let (c0, v0) = (a.center().as_dvec3() - b.center().as_dvec3(), v.as_dvec3());
        let h = a.half_extents().as_dvec3() + b.half_extents().as_dvec3();
        let dist = |t: f64| parallelepiped_distance(-(c0 + v0 * t), axes, h);
        check_graze(a.overlaps(&b), a.sweep(v, &b).map(|k| k.t), dist, 0.0)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn obb2_grazing_obb2(b in obb2s(), ha in half2(), axis in 0usize..2, side in prop_oneof![Just(-1.0f32), Just(1.0f32)],
                         (speed, closing, up) in (0.2f32..4.0, 2.0f32..7.0, prop_oneof![Just(-1.0f32), Just(1.0f32)]),
                         offset in -3.0f32..3.0, t0 in -0.1f32..1.1) {
        // As `obb3_grazing_obb3`, in the plane: `a`'s side meets `b`'s side `side * axis`.
        let hb = b.half_extents();
        let other = 1 - axis;
        let mut v_local = Vec2::ZERO;
        v_local[other] = up * speed;
        v_local[axis] = -side * speed * 10f32.powf(-closing);
        let mut c_local = Vec2::ZERO;
        c_local[other] = offset - v_local[other] * t0;
        c_local[axis] = side * (hb[axis] + ha[axis]) - v_local[axis] * t0;
        let a = Obb2::try_from_matrix(b.point_to_world(c_local), ha, b.rotation()).unwrap();
        let v = b.rotation() * v_local;
        prop_assume!(v != Vec2::ZERO);
        // In the plane z = 0, with a flat third axis.
        let [x, y] = b.axes().map(|x| x.extend(0.0).as_dvec3());
        let axes = [x, y, glam::DVec3::Z];
        let c0 = a.center().extend(0.0).as_dvec3() - b.center().extend(0.0).as_dvec3();
        let v0 = v.extend(0.0).as_dvec3();
        let h = a.half_extents().extend(0.0).as_dvec3() + b.half_extents().extend(0.0).as_dvec3();
        let dist = |t: f64| parallelepiped_distance(-(c0 + v0 * t), axes, h);
        check_graze(a.overlaps(&b), a.sweep(v, &b).map(|k| k.t), dist, 0.0)?;
    }
}

/// The rounded sweeps (conservative advancement) are scale-free: the same motion at
/// `2^-60` or `2^60` of the size gives the same `t`. (Until 2026-11-24 their
/// tolerances had an absolute part, `1 + scale`, so below about `1e-10` every pair within
/// reach of the motion read as touching at `t = 0`.)
#[test]
fn rounded_sweeps_scale_with_their_inputs() {
    let tri = Triangle3::new(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0));
    let ball = Sphere::new(Vec3::new(0.1, 3.0, 0.2), 1.0);
    let capsule = raybox::Capsule3::new(Vec3::new(-0.5, 2.0, 0.0), Vec3::new(0.5, 2.5, 0.3), 0.5);
    let motion = Vec3::new(0.3, -4.0, 0.1);
    let at = |s: f32| {
        let tri = Triangle3::new(tri.vertices()[0] * s, tri.vertices()[1] * s, tri.vertices()[2] * s);
        let ball = Sphere::new(ball.center() * s, ball.radius() * s);
        let capsule = raybox::Capsule3::new(capsule.start() * s, capsule.end() * s, capsule.radius() * s);
        (ball.sweep(motion * s, &tri).map(|h| h.t), capsule.sweep(motion * s, &tri).map(|h| h.t))
    };
    let (ball_t, capsule_t) = at(1.0);
    assert!((ball_t.unwrap() - 0.5).abs() < 1e-6 && capsule_t.unwrap() > 0.3, "{ball_t:?} {capsule_t:?}");
    for k in [-60, -40, -30, -20, -10, 10, 20, 40, 60] {
        let s = 2f32.powi(k);
        let (b, c) = at(s);
        assert!((b.unwrap() - ball_t.unwrap()).abs() < 1e-6, "scale 2^{k}: {b:?} against {ball_t:?}");
        assert!((c.unwrap() - capsule_t.unwrap()).abs() < 1e-6, "scale 2^{k}: {c:?} against {capsule_t:?}");
    }
}

/// Cases a review found on 2026-11-24, with their exact first contacts (worked out in
/// rational arithmetic): a zero-radius capsule whose core runs exactly through a vertex, or
/// slides in the triangle's plane onto an edge; a ball sliding at exactly its radius above
/// a triangle, entering over a slanted edge; and boxes falling a tiny gap onto triangles
/// (whose times the separating-axis sweep once padded early).
#[test]
fn review_cases_have_their_exact_first_contacts() {
    let v = Vec3::new;
    let tri = |a: Vec3, b: Vec3, c: Vec3| Triangle3::new(a, b, c);
    let close = |got: Option<f32>, want: f64, what: &str| {
        let t = got.unwrap_or_else(|| panic!("{what}: no contact, want t = {want}"));
        assert!((f64::from(t) - want).abs() <= 1e-5 * want.max(1e-3), "{what}: t = {t}, want {want}");
    };
    let capsule = raybox::Capsule3::new(v(-2.5, 1.5, -2.5), v(2.5, -3.0, 2.5), 0.0);
    let t = tri(v(-0.5, 1.5, -0.5), v(2.0, -2.0, 0.0), v(2.0, 2.0, 2.0));
    close(capsule.sweep(v(4.0, 8.0, 4.0), &t).map(|h| h.t), 9.0 / 58.0, "core through a vertex");
    let capsule = raybox::Capsule3::new(v(-0.5, 0.5, 3.0), v(-1.25, 0.5, 2.5), 0.0);
    let t = tri(v(1.0, 0.5, 2.0), v(-0.5, 0.5, 1.0), v(-2.0, 0.5, 1.0));
    close(capsule.sweep(v(-3.0, 0.0, -7.0), &t).map(|h| h.t), 5.0 / 24.0, "in the plane onto an edge");
    let ball = Sphere::new(v(0.5, -1.0, 0.5), 1.0);
    let t = tri(v(1.5, -1.0, 0.0), v(1.5, 0.0, -0.5), v(1.5, -2.0, -0.5));
    close(ball.sweep(v(0.0, 1.0, -1.5), &t).map(|h| h.t), 0.5, "sliding at height r");
    let ball = Sphere::new(v(-0.25, 0.75, 1.0), 1.0);
    let t = tri(v(1.5, 0.5, 0.0), v(0.75, -0.75, 0.0), v(0.25, 1.75, 0.0));
    close(ball.sweep(v(5.5, -3.0, 0.0), &t).map(|h| h.t), 1.0 / 7.0, "sliding at height r, slanted edge");
    let gap = 2f32.powi(-40);
    let small = raybox::Aabb3::new(v(-0.25, -0.25, gap), v(0.25, 0.25, 1.0));
    let t = tri(v(-1.0, -1.0, 0.0), v(1.0, -1.0, 0.0), v(0.0, 1.0, 0.0));
    close(small.sweep(v(0.0, 0.0, -2.0 * gap), &t).map(|h| h.t), 0.5, "a box falling 2^-40");
    let gap = 2f32.powi(-30);
    let b = raybox::Aabb3::new(v(-0.5, -0.5, gap), v(0.5, 0.5, 1.0));
    let t = tri(v(-1000.0, -1000.0, 0.0), v(1000.0, -1000.0, 0.0), v(0.0, 1000.0, 0.0));
    close(b.sweep(v(0.0, 0.0, -2.0 * gap), &t).map(|h| h.t), 0.5, "a box falling 2^-30 onto a wide floor");
}

/// A second review's cases (2026-11-24): shapes that stay far apart for the whole motion,
/// which the rounding allowances of the body–edge case (a capsule against a short triangle
/// edge) and of the separating-axis sweep (an axis with a tiny closing speed) once reported
/// as touching.
#[test]
fn shapes_far_apart_never_touch() {
    let v = Vec3::new;
    let core = (v(-1.0, 0.0, 1.0), v(0.0, 0.0, 1.0));
    let down = v(0.0, 0.0, -2.0);
    // (The edge 5e-5 away is within reach of a radius of 0.5: only the bare core there.)
    let cases: [(Triangle3, &str, &[f32]); 3] = [
        (
            Triangle3::new(v(100.0, -1e-20, 0.0), v(100.0, 1e-20, 0.0), v(100.0, 0.0, 1e-20)),
            "tiny triangle",
            &[0.0, 0.5],
        ),
        (
            Triangle3::new(v(100.0, -1e-20, 0.0), v(100.0, 1e-20, 0.0), v(101.0, 0.0, 0.0)),
            "sliver",
            &[0.0, 0.5],
        ),
        (
            Triangle3::new(v(5e-5, -1e-10, 0.0), v(5e-5, 1e-10, 0.0), v(1.0, 0.0, 0.0)),
            "short edge 5e-5 away",
            &[0.0],
        ),
    ];
    for (t, what, radii) in cases {
        for &r in radii {
            let capsule = raybox::Capsule3::new(core.0, core.1, r);
            assert_eq!(capsule.sweep(down, &t), None, "{what}, r = {r}");
        }
    }
    let b = raybox::Aabb3::new(v(-1.0, -1.0, -1.0), v(0.0, 0.0, 1.0));
    let t = Triangle3::new(v(5e-16, 0.1, 0.0), v(5e-16 + 1.0, 0.1, 0.0), v(5e-16, 1.0, 0.0));
    assert_eq!(b.sweep(v(1e-15, -1.0, 0.0), &t), None, "a box moving away in y, creeping in x");
}

/// A box a hair (`1e-12`) above a triangle `1e4` across, or beside a long segment, moving
/// along it: the separating-axis sweep reads the gap as rounding, a touch; but the exact
/// overlap test says apart, so the sweep must not answer `t = 0` (which it keeps for shapes
/// that overlap at the start). A touch within rounding of the start comes at the least
/// positive `f32` time.
#[test]
fn a_hair_apart_at_the_start_is_not_t_zero() {
    let big = Triangle3::new(Vec3::new(-1e4, -1e4, 0.0), Vec3::new(1e4, -1e4, 0.0), Vec3::new(0.0, 1e4, 0.0));
    let b = raybox::Aabb3::new(Vec3::new(-1.0, -1.0, 1e-12), Vec3::new(1.0, 1.0, 2.0));
    let o = Obb3::new(Vec3::new(0.0, 0.0, 1.0 + 1e-12), Vec3::ONE, glam::Quat::IDENTITY);
    let rod = Segment3::new(Vec3::new(-1e4, 0.0, -1e-12), Vec3::new(1e4, 0.0, -1e-12));
    for motion in [Vec3::new(3.0, 1.0, 0.0), Vec3::new(0.0, 0.0, -1.0)] {
        assert!(!b.overlaps(&big) && !b.overlaps(&rod));
        for hit in [b.sweep(motion, &big), b.sweep(motion, &rod), big.sweep(-motion, &b)] {
            assert!(hit.is_none_or(|h| h.t > 0.0), "{motion}: {hit:?}");
        }
        if !o.overlaps(&big) {
            let hit = o.sweep(motion, &big);
            assert!(hit.is_none_or(|h| h.t > 0.0), "{motion}: {hit:?}");
        }
    }
    // Moving down onto it: a contact right at the start, but after it.
    let down = b.sweep(Vec3::new(0.0, 0.0, -1.0), &big).unwrap();
    assert!(down.t > 0.0 && down.t < 1e-6 && down.normal == Vec3::Z, "{down:?}");
}

/// Motions far longer than the gap (a unit gap crossed by motions of `1e8` to `1e30`): moving
/// apart never touches, and moving closer touches at the gap over the motion's length. The
/// separating-axis sweeps counted the motion's rounding in full at every time (`64 ε` of
/// the motion, more than the gap once the motion passes about `1e15` times it), so a box one
/// unit above a triangle moving up by `1e25` met it at `t = 1e-45`.
#[test]
fn huge_motions_past_a_unit_gap() {
    use glam::Quat;
    use raybox::{Aabb3, Capsule3};
    let tri = Triangle3::new(
        Vec3::new(-10.0, -10.0, 0.0),
        Vec3::new(30.0, -10.0, 0.0),
        Vec3::new(-10.0, 30.0, 0.0),
    );
    let turn = Quat::from_rotation_z(0.3);
    // Shapes whose lowest point is at z = 1, above the triangle in z = 0 and above the box
    // `[-10, 10]² × [-1, 0]` (wide enough that slanted motions land on them).
    let boxed = Aabb3::new(Vec3::new(0.0, 0.0, 1.0), Vec3::new(1.0, 1.0, 2.0));
    let turned = Obb3::new(Vec3::new(0.3, 0.3, 1.5), Vec3::splat(0.5), turn);
    let seg = Segment3::new(Vec3::new(0.2, 0.2, 1.0), Vec3::new(0.3, 0.2, 1.5));
    let lid = Triangle3::new(Vec3::new(0.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 1.0), Vec3::new(0.0, 1.0, 1.5));
    let ball = Sphere::new(Vec3::new(0.2, 0.2, 1.5), 0.5);
    let capsule = Capsule3::new(Vec3::new(0.2, 0.2, 1.5), Vec3::new(0.4, 0.2, 1.5), 0.5);
    let floor = Obb3::new(Vec3::new(0.0, 0.0, -0.5), Vec3::new(10.0, 10.0, 0.5), Quat::IDENTITY);
    let mut checked = 0;
    for e in [8, 12, 15, 18, 20, 25, 30] {
        let len = 10f32.powi(e);
        for dir in [Vec3::Z, Vec3::new(0.3, 0.1, 1.0).normalize(), Vec3::new(-0.2, 0.4, 1.0).normalize()] {
            let (away, toward) = (dir * len, -dir * len);
            let want = 1.0 / (dir.z * len); // the gap, 1, over the closing speed
            let sweeps: [(&str, Option<SweepHit3>, Option<SweepHit3>); 10] = [
                ("box-triangle", boxed.sweep(away, &tri), boxed.sweep(toward, &tri)),
                ("turned box-triangle", turned.sweep(away, &tri), turned.sweep(toward, &tri)),
                ("segment-triangle", seg.sweep(away, &tri), seg.sweep(toward, &tri)),
                ("triangle-triangle", lid.sweep(away, &tri), lid.sweep(toward, &tri)),
                ("ball-triangle", ball.sweep(away, &tri), ball.sweep(toward, &tri)),
                ("capsule-triangle", capsule.sweep(away, &tri), capsule.sweep(toward, &tri)),
                ("box-box", boxed.sweep(away, &floor), boxed.sweep(toward, &floor)),
                ("turned box-box", turned.sweep(away, &floor), turned.sweep(toward, &floor)),
                ("segment-box", seg.sweep(away, &floor), seg.sweep(toward, &floor)),
                ("capsule-box", capsule.sweep(away, &floor), capsule.sweep(toward, &floor)),
            ];
            for (name, apart, closer) in sweeps {
                assert_eq!(apart, None, "{name} moving apart by {away:?}");
                let t = closer.unwrap_or_else(|| panic!("{name} moving closer by {toward:?} missed")).t;
                assert!((t / want - 1.0).abs() < 1e-4, "{name} by {toward:?}: t = {t:e}, want {want:e}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 7 * 3 * 10);
}

/// A contact sooner than `f32` can tell from the start (a gap of `1e-10` closed by a motion
/// of `1e36`: `t = 1e-46`, below half the least positive `f32`) is reported at that least
/// positive time, not at `t = 0` (nor `-0.0`), which the pairs with an exact overlap test
/// keep for shapes that overlap at the start. A capsule `3e-11` from a triangle, moving by
/// `5e34`, came out at `t = -0.0`.
#[test]
fn contacts_too_soon_for_f32_are_not_at_the_start() {
    use raybox::{Aabb3, Capsule3};
    let k = 1e-10;
    let tri = Triangle3::new(
        Vec3::new(-10.0, -10.0, 0.0) * k,
        Vec3::new(30.0, -10.0, 0.0) * k,
        Vec3::new(-10.0, 30.0, 0.0) * k,
    );
    let boxed = Aabb3::new(Vec3::new(0.0, 0.0, 1.0) * k, Vec3::new(1.0, 1.0, 2.0) * k);
    let seg = Segment3::new(Vec3::new(0.2, 0.2, 1.0) * k, Vec3::new(0.3, 0.2, 1.5) * k);
    let lid = Triangle3::new(
        Vec3::new(0.0, 0.0, 1.0) * k,
        Vec3::new(1.0, 0.0, 1.0) * k,
        Vec3::new(0.0, 1.0, 1.5) * k,
    );
    let ball = Sphere::new(Vec3::new(0.2, 0.2, 1.5) * k, 0.5 * k);
    let capsule = Capsule3::new(Vec3::new(0.2, 0.2, 1.5) * k, Vec3::new(0.4, 0.2, 1.5) * k, 0.5 * k);
    // In z = 0, across the segment's shadow under both motions.
    let rail = Segment3::new(Vec3::new(0.25, 0.0, 0.0) * k, Vec3::new(0.4, 0.7, 0.0) * k);
    let tiny = f32::from_bits(1);
    for motion in [Vec3::new(0.0, 0.0, -1e36), Vec3::new(0.1e36, 0.2e36, -1e36)] {
        let sweeps = [
            ("box-triangle", boxed.overlaps(&tri), boxed.sweep(motion, &tri)),
            ("segment-triangle", seg.overlaps(&tri), seg.sweep(motion, &tri)),
            ("triangle-triangle", lid.overlaps(&tri), lid.sweep(motion, &tri)),
            ("ball-triangle", ball.overlaps(&tri), ball.sweep(motion, &tri)),
            ("capsule-triangle", capsule.overlaps(&tri), capsule.sweep(motion, &tri)),
            ("capsule-segment", capsule.overlaps(&rail), capsule.sweep(motion, &rail)),
            ("segment-segment", seg.overlaps(&rail), seg.sweep(motion, &rail)),
        ];
        for (name, overlapping, hit) in sweeps {
            assert!(!overlapping, "{name}");
            let t = hit.unwrap_or_else(|| panic!("{name} by {motion:?} missed")).t;
            assert_eq!(t.to_bits(), tiny.to_bits(), "{name} by {motion:?}: t = {t:e}");
        }
    }
}

/// A point tens of thousands behind the near vertex of a sliver reaching to `1e15`,
/// moving by less than a hundredth: it cannot touch. The separating-axis sweep padded every
/// projection by the rounding of the largest coordinate of either shape (0.1 at `1e15`),
/// more than the point's separation along the axes that separate it (about 0.02), and
/// reported a touch at `t = 1e-45`; each end now pads by its own vertex's rounding.
/// (Three of the eight such sweeps `tests/audit_instance_shapes.rs` found.)
#[test]
fn points_behind_the_near_vertex_of_a_huge_sliver_stay_apart() {
    let cases = [
        (
            Vec3::new(20081.1, 19095.088, -67235.68),
            Vec3::new(-0.004205857, 0.001655759, 0.000320799),
            [
                Vec3::new(174.8263, 165.86415, -582.46985),
                Vec3::new(-610126400000000.0, -580184100000000.0, 2042913400000000.0),
                Vec3::new(-441118800000000.0, -419462500000000.0, 1477031200000000.0),
            ],
        ),
        (
            Vec3::new(19468.22, -55002.98, -798048.56),
            Vec3::new(-0.005455742, 0.0024726249, 0.00017360484),
            [
                Vec3::new(-19.078653, 56.600433, 813.7131),
                Vec3::new(-40465852000000.0, 114376630000000.0, 1658984300000000.0),
                Vec3::new(-93141416000000.0, 263186800000000.0, 3818304600000000.0),
            ],
        ),
        (
            Vec3::new(1746114.8, 602071.25, 3525474.5),
            Vec3::new(-0.019154677, -0.0060083144, -0.09492131),
            [
                Vec3::new(-384.4047, -131.5514, -775.5172),
                Vec3::new(-1742502200000000.0, -600825260000000.0, -3518180600000000.0),
                Vec3::new(-2006501900000000.0, -691853600000000.0, -4051206000000000.0),
            ],
        ),
    ];
    for (p, motion, [a, b, c]) in cases {
        let tri = Triangle3::new(a, b, c);
        // The point is far from the triangle: its distance, measured directly, is thousands.
        assert!(tri.distance_to_point(p) > 1000.0, "{p}: {}", tri.distance_to_point(p));
        let hit = Segment3::new(p, p).sweep(motion, &tri);
        assert!(hit.is_none(), "{p} by {motion}: {hit:?}");
    }
}

/// A point beside the near vertices of two slivers reaching to `1e15`: 82,665 from the
/// first (from its near vertex) and 0.7 from the second (from its edge `[c, a]`, about
/// 80,000 along it from `a`), and a motion of about a thousandth
/// ([`a_point_beside_a_huge_sliver_moving_a_hair_does_not_touch_it`], and the boxes'
/// [`a_box_beside_a_huge_sliver_moving_a_hair_does_not_touch_it`]).
const BESIDE_SLIVERS: Vec3 = Vec3::new(41246.33, -29257.549, -64262.19);
const HAIR: Vec3 = Vec3::new(-0.0009446217, -0.00084712886, -0.00043628554);
const HUGE_SLIVERS: [[Vec3; 3]; 2] = [
    [
        Vec3::new(-449.2823, 319.90683, 700.77716),
        Vec3::new(-1556356400000000.0, 1104029800000000.0, 2424936000000000.0),
        Vec3::new(-1418273800000000.0, 1006078640000000.0, 2209797700000000.0),
    ],
    [
        Vec3::new(520.8415, -368.2672, -810.7267),
        Vec3::new(-1033084900000000.0, 732838400000000.0, 1609656000000000.0),
        Vec3::new(627915700000000.0, -445422000000000.0, -978292950000000.0),
    ],
];

/// A point beside the near vertex of two slivers reaching to `1e15`, 0.7 from one and
/// 82,665 from the other, moving by about a thousandth: it cannot touch either. Every
/// separating axis of the walk that could show it (an in-plane edge normal, a cross of
/// `1e15`-long edges) is rounded by about `1e-16` rad, which moves the far vertices'
/// projections by 0.1 and more, so no axis kept the point apart and both sweeps reported a
/// touch at `t = 1e-45` (the last sweep `tests/audit_instance_shapes.rs` counted as
/// inherited). A touch within rounding of the start is now checked against a distance
/// measured from the features' nearby ends. Lifted off the plane and moving into either
/// at a slant, the point still meets it, once it has covered the gap; a triangle around it,
/// the same.
#[test]
fn a_point_beside_a_huge_sliver_moving_a_hair_does_not_touch_it() {
    let (p, motion, slivers) = (BESIDE_SLIVERS, HAIR, HUGE_SLIVERS);
    // A small triangle around the point (within 0.01 of it), for the triangle pair.
    let around = Triangle3::new(
        p + Vec3::new(0.01, 0.0, 0.0),
        p + Vec3::new(-0.005, 0.008, 0.0),
        p + Vec3::new(-0.005, -0.008, 0.004),
    );
    let point = Segment3::new(p, p);
    for [a, b, c] in slivers {
        let tri = Triangle3::new(a, b, c);
        let gap = tri.distance_to_point(p);
        assert!(gap > 0.5 && gap > 100.0 * motion.length(), "{gap}");
        assert!(!point.overlaps(&tri) && !around.overlaps(&tri));
        assert_eq!(point.sweep(motion, &tri), None, "{tri:?}");
        assert_eq!(around.sweep(motion, &tri), None, "{tri:?}");
        // Lifted off the sliver's plane as far as it is from the near vertex, and moving
        // twice the way to a point of the face ~300 inside its edges: the first contact
        // comes once the point has covered its gap, and by halfway (the triangle around
        // it, within 0.01 of it, at most that much sooner). The confirming distance must
        // not lose these.
        let n = ((b - a) * 1e-15).cross((c - a) * 1e-15).normalize(); // (|n|² overflows at 1e30)
        let inner = a + (b - a) * 1e-11 + (c - a) * 1e-11;
        let lifted = p + n * (p - a).length();
        let toward = (inner - lifted) * 2.0;
        let soonest = tri.distance_to_point(lifted) / toward.length();
        let hit = Segment3::new(lifted, lifted).sweep(toward, &tri).expect("moving into the sliver");
        assert!(hit.t >= soonest - 1e-6 && hit.t <= 0.5 + 1e-6, "{hit:?}: not before {soonest}");
        assert!(hit.normal.dot(toward) < 0.0, "{hit:?}");
        let [u, w, x] = around.vertices().map(|y| y + (lifted - p));
        let hit = Triangle3::new(u, w, x).sweep(toward, &tri).expect("moving into the sliver");
        let soonest = soonest - 0.011 / toward.length();
        assert!(hit.t >= soonest - 1e-6 && hit.t <= 0.5 + 1e-6, "{hit:?}: not before {soonest}");
    }
}

/// The boxes' analogue of [`a_point_beside_a_huge_sliver_moving_a_hair_does_not_touch_it`]:
/// an `Aabb3` and an `Obb3` of reach below 0.08 around the same point, moving by the same
/// hair, touch neither sliver (nor the second one's edge `[c, a]`, 0.7 from the point, as a
/// segment), alone or in a mesh. Their separating-axis walk, with no distance to confirm
/// it, reported a touch at `t = 1e-45`: its axes (crosses of the sliver's `1e15` edges, and
/// the segment's normals) move the far vertices' projections by rounding far above the
/// boxes' 0.6 clearance. Lifted off the sliver's plane and moving into its face at a slant,
/// or moving straight across the gap into the edge, each box still meets it once it has
/// covered the gap: at no time before its reach allows, and by the time its centre gets
/// there (into the edge, by the time it has come within its least half extent).
#[test]
fn a_box_beside_a_huge_sliver_moving_a_hair_does_not_touch_it() {
    use glam::Quat;
    use raybox::{Aabb3, TriMesh};
    let (p, motion) = (BESIDE_SLIVERS, HAIR);
    // Powers of two, so that the `Aabb3`'s corners `p ± half` are exact in `f32`.
    let half = Vec3::new(0.0625, 0.03125, 0.015625);
    let turn = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    // Boxes centred at `c`, and how far their points reach from the centre.
    let boxes = |c: Vec3| (Aabb3::from_center_half_extents(c, half), Obb3::new(c, half, turn));
    let reach = half.length();
    let mesh_of = |t: &Triangle3| TriMesh::new(t.vertices().to_vec(), vec![[0, 1, 2]]).unwrap();
    for (i, [a, b, c]) in HUGE_SLIVERS.into_iter().enumerate() {
        let tri = Triangle3::new(a, b, c);
        let mesh = mesh_of(&tri);
        // Every point of either box is within `reach` of `p`, so at least this far away.
        let gap = tri.distance_to_point(p) - reach;
        assert!(gap > 0.6 && gap > 100.0 * motion.length(), "{gap}");
        let (aabb, obb) = boxes(p);
        assert_eq!(aabb.center(), p);
        assert!(!aabb.overlaps(&tri) && !obb.overlaps(&tri));
        assert_eq!(aabb.sweep(motion, &tri), None, "aabb, sliver {i}");
        assert_eq!(obb.sweep(motion, &tri), None, "obb, sliver {i}");
        assert_eq!(mesh.sweep(&aabb, motion), None, "aabb in a mesh, sliver {i}");
        assert_eq!(mesh.sweep(&obb, motion), None, "obb in a mesh, sliver {i}");
        // Lifted off the plane and moving into the face, as the point test does.
        let n = ((b - a) * 1e-15).cross((c - a) * 1e-15).normalize(); // (|n|² overflows at 1e30)
        let inner = a + (b - a) * 1e-11 + (c - a) * 1e-11;
        let lifted = p + n * (p - a).length();
        let toward = (inner - lifted) * 2.0;
        let soonest = (tri.distance_to_point(lifted) - reach) / toward.length();
        let (aabb, obb) = boxes(lifted);
        for (name, hit, in_mesh) in [
            ("aabb", aabb.sweep(toward, &tri), mesh.sweep(&aabb, toward)),
            ("obb", obb.sweep(toward, &tri), mesh.sweep(&obb, toward)),
        ] {
            let hit = hit.unwrap_or_else(|| panic!("{name} moving into sliver {i} missed"));
            assert!(hit.t >= soonest - 1e-6 && hit.t <= 0.5 + 1e-6, "{name}: {hit:?}: not before {soonest}");
            assert!(hit.normal.dot(toward) < 0.0, "{name}: {hit:?}");
            assert_eq!(in_mesh.map(|h| h.t), Some(hit.t), "{name} in a mesh, sliver {i}");
        }
    }
    // The second sliver's edge `[c, a]`, 0.7 from `p`, as a segment. The offset of `p` from
    // its line, in `f64` along the unit direction (to about 1e-11: `|p - a|` is 80,000; the
    // `f32` closest point of `Segment3`, an interpolation along the `1e15` edge, is 0.05
    // off the line).
    let [a, _, c] = HUGE_SLIVERS[1];
    let edge = Segment3::new(c, a);
    let (from_a, along) = ((p - a).as_dvec3(), (c - a).as_dvec3().normalize());
    assert!(from_a.dot(along) > 0.0); // the foot is inside the edge, 80,000 from `a`
    let off = from_a - along * from_a.dot(along);
    let gap = off.length();
    assert!(gap > 0.69 && gap < 0.71, "{gap}");
    let (aabb, obb) = boxes(p);
    assert!(!aabb.overlaps(&edge) && !obb.overlaps(&edge));
    assert_eq!(aabb.sweep(motion, &edge), None, "aabb against the edge");
    assert_eq!(obb.sweep(motion, &edge), None, "obb against the edge");
    assert_eq!(edge.sweep(-motion, &aabb), None, "the edge against the aabb");
    assert_eq!(edge.sweep(-motion, &obb), None, "the edge against the obb");
    // Moving straight across the line, twice the way to it: each box holds the ball of
    // its least half extent about its centre and lies in the ball of `reach`, so it
    // touches the line once its centre is within `reach` of it and before it is within
    // the least half extent (the motion's `f32` rounding is far below these margins).
    let across = (-off * 2.0).as_vec3();
    let time_to = |r: f64| ((gap - r) / (2.0 * gap)) as f32;
    let (soonest, latest) = (time_to(f64::from(reach)), time_to(f64::from(half.min_element())));
    for (name, hit, moved) in [
        ("aabb", aabb.sweep(across, &edge), across),
        ("obb", obb.sweep(across, &edge), across),
        ("the edge against the aabb", edge.sweep(-across, &aabb), -across),
        ("the edge against the obb", edge.sweep(-across, &obb), -across),
    ] {
        let hit = hit.unwrap_or_else(|| panic!("{name} moving across the edge missed"));
        assert!(hit.t >= soonest && hit.t <= latest, "{name}: {hit:?}: not in [{soonest}, {latest}]");
        assert!(hit.normal.dot(moved) < 0.0, "{name}: {hit:?}");
    }
}

/// The 2D analogue of the boxes' edge case above: an `Aabb2` and an `Obb2` 0.7 beside a
/// segment reaching to `1e15`, 80,000 along it from its near end, moving by a hair, do not
/// touch it (the segment moving, the same); moving straight across its line, twice the way,
/// they meet it once it has come within their reach, and before it is within their least
/// half extent. The walk's axis along the segment's normal is exact, but the projection
/// of its far end is rounded by 0.1 and padded by more: every box sweep reported a touch at
/// `t = 1e-45`, the one across included.
#[test]
fn a_2d_box_beside_a_huge_segment_moving_a_hair_does_not_touch_it() {
    use glam::DVec2;
    use raybox::Aabb2;
    let (a, c) = (Vec2::new(520.8415, -368.2672), Vec2::new(627915700000000.0, -445422000000000.0));
    let along = (c - a).as_dvec2().normalize();
    let beside = DVec2::new(-along.y, along.x) * 0.7;
    let p = (a.as_dvec2() + along * 80000.0 + beside).as_vec2();
    // `p`'s offset from the line (to about 1e-11, as in the 3D test).
    let from_a = (p - a).as_dvec2();
    let off = from_a - along * from_a.dot(along);
    let gap = off.length();
    assert!(gap > 0.69 && gap < 0.71, "{gap}");
    let edge = Segment2::new(c, a);
    // Powers of two: the `Aabb2`'s corners `p ± half` are exact in `f32`.
    let half = Vec2::new(0.0625, 0.03125);
    let (aabb, obb) = (Aabb2::from_center_half_extents(p, half), Obb2::new(p, half, 0.7));
    assert_eq!(aabb.center(), p);
    let hair = Vec2::new(-0.0009446217, -0.00084712886);
    assert!(!aabb.overlaps(&edge) && !obb.overlaps(&edge));
    assert_eq!(aabb.sweep(hair, &edge), None);
    assert_eq!(obb.sweep(hair, &edge), None);
    assert_eq!(edge.sweep(-hair, &aabb), None);
    assert_eq!(edge.sweep(-hair, &obb), None);
    let across = (-off * 2.0).as_vec2();
    let time_to = |r: f32| ((gap - f64::from(r)) / (2.0 * gap)) as f32;
    let (soonest, latest) = (time_to(half.length()), time_to(half.min_element()));
    for (name, hit, moved) in [
        ("aabb", aabb.sweep(across, &edge), across),
        ("obb", obb.sweep(across, &edge), across),
        ("the edge against the aabb", edge.sweep(-across, &aabb), -across),
        ("the edge against the obb", edge.sweep(-across, &obb), -across),
    ] {
        let hit = hit.unwrap_or_else(|| panic!("{name} moving across the edge missed"));
        assert!(hit.t >= soonest && hit.t <= latest, "{name}: {hit:?}: not in [{soonest}, {latest}]");
        assert!(hit.normal.dot(moved) < 0.0, "{name}: {hit:?}");
    }
}

/// A zero-radius `Capsule3` along the second sliver's edge `[c, a]` (to `1e15`), with an
/// `Aabb3` and an `Obb3` 0.7 beside it (80,000 along it from `a`) and 0.6 beyond its near
/// end `a`: moving a hair, or the capsule moving, they do not touch; moving straight at it,
/// twice the way, they meet it once within their reach and before within their least half
/// extent. Right before this test was written (its start is the pair's exact test,
/// `decided_sweep`, and its walk is confirmed as the segment's: `sat_entry`); with that
/// confirmation off, every hair sweep here reported a touch at `t = 1e-45`.
#[test]
fn a_zero_radius_capsule_along_a_huge_edge_beside_a_box_does_not_touch_it() {
    use glam::Quat;
    use raybox::{Aabb3, Capsule3};
    let half = Vec3::new(0.0625, 0.03125, 0.015625);
    let turn = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    let reach = f64::from(half.length());
    let [a, _, c] = HUGE_SLIVERS[1];
    let capsule = Capsule3::new(c, a, 0.0);
    let along = (c - a).as_dvec3().normalize();
    for (name, p) in
        [("beside", BESIDE_SLIVERS), ("beyond the end", (a.as_dvec3() - along * (0.6 + reach)).as_vec3())]
    {
        // `p`'s offset from the edge, in `f64` from `a` (to about 1e-11, as above).
        let from_a = (p - a).as_dvec3();
        let off = from_a - along * from_a.dot(along).max(0.0);
        let gap = off.length();
        assert!(gap - reach > 0.59 && gap < 0.71 + reach, "{name}: {gap}");
        let (aabb, obb) = (Aabb3::from_center_half_extents(p, half), Obb3::new(p, half, turn));
        assert!(!aabb.overlaps(&capsule) && !obb.overlaps(&capsule));
        assert_eq!(aabb.sweep(HAIR, &capsule), None, "{name}: aabb");
        assert_eq!(obb.sweep(HAIR, &capsule), None, "{name}: obb");
        assert_eq!(capsule.sweep(-HAIR, &aabb), None, "{name}: against the aabb");
        assert_eq!(capsule.sweep(-HAIR, &obb), None, "{name}: against the obb");
        // Straight at the edge's nearest point, twice the way.
        let across = (-off * 2.0).as_vec3();
        let time_to = |r: f64| ((gap - r) / (2.0 * gap)) as f32;
        let (soonest, latest) = (time_to(reach), time_to(f64::from(half.min_element())));
        for (what, hit, moved) in [
            ("aabb", aabb.sweep(across, &capsule), across),
            ("obb", obb.sweep(across, &capsule), across),
            ("against the aabb", capsule.sweep(-across, &aabb), -across),
            ("against the obb", capsule.sweep(-across, &obb), -across),
        ] {
            let hit = hit.unwrap_or_else(|| panic!("{name}: {what} missed"));
            assert!(
                hit.t >= soonest && hit.t <= latest,
                "{name}: {what}: {hit:?}: not in [{soonest}, {latest}]"
            );
            assert!(hit.normal.dot(moved) < 0.0, "{name}: {what}: {hit:?}");
        }
    }
}

/// A sliver box reaching to `1e15` whose near end is exactly at the origin: its centre
/// `h₀a₀`, the product of a power of two and its `f32` axis, is exact, so its points are
/// exactly `u a₀ + v a₁ + w a₂` for `u` in `[0, 2h₀]`, `|v| <= h₁`, `|w| <= h₂` (`aₖ` its
/// stored axes, `hₖ` its half extents). The turned `Obb3` and the axis-aligned `Aabb3`
/// (`[0, 2^50] x [-h, h]²`), each with its axes and half extents.
fn huge_slivers() -> (Obb3, raybox::Aabb3, [DVec3; 3], DVec3) {
    use glam::Quat;
    use raybox::Aabb3;
    let turn = Quat::from_axis_angle(Vec3::new(3.0, -1.0, 2.0).normalize(), 0.01);
    let h0 = (1u64 << 49) as f32;
    let half = Vec3::new(h0, 1e-3, 1e-3);
    let axes = Obb3::new(Vec3::ZERO, half, turn).axes();
    let obb = Obb3::new(axes[0] * h0, half, turn);
    assert_eq!(obb.axes(), axes);
    assert_eq!(obb.center().as_dvec3(), axes[0].as_dvec3() * f64::from(h0)); // exact
    let aabb = Aabb3::new(Vec3::new(0.0, -half.y, -half.z), Vec3::new(2.0 * h0, half.y, half.z));
    (obb, aabb, axes.map(|a| a.as_dvec3()), half.as_dvec3())
}

/// Where a small shape of reach `reach` about `q` is placed beside a sliver of
/// [`huge_slivers`] (axes `a`, half extents `h`), how far it is at least from it, and the
/// point of the sliver it is aimed at: `end` beyond the near end, along `-a₀`; or beside
/// its long face `+a₁`, `1000` along it. The bounds are planes the exact sliver lies
/// behind: `x · a₀ >= -(h₁ |a₁ · a₀| + h₂ |a₂ · a₀|)` (as `x · a₀ = u |a₀|² + ...`, `u >= 0`),
/// and `x · N <= h₁ |a₁ · N|` for `N = a₂ × a₀`, exactly normal to `a₀` and `a₂` (so that
/// the sliver's `1e15` length does not enter; `N` rounded to `f64` moves the bound by
/// `1e-16` of `|q|`, far below the `1e-9` kept). Returns `(gap, aim)`.
fn sliver_gap(a: [DVec3; 3], h: DVec3, q: DVec3, reach: f64, end: bool) -> (f64, DVec3) {
    if end {
        let unit = a[0].normalize();
        let back = h.y * a[1].dot(unit).abs() + h.z * a[2].dot(unit).abs();
        (-q.dot(unit) - reach - back - 1e-9, a[0] * 2e-3)
    } else {
        let n = a[2].cross(a[0]).normalize();
        (q.dot(n) - reach - h.y * a[1].dot(n).abs() - 1e-9, a[0] * 1000.0)
    }
}

/// The contact window of a small shape whose centre `q` moves by `m` straight at the
/// point `aim` of a sliver, through it: not before the plane bound `gap` of
/// [`sliver_gap`] is closed (at the closing speed along its normal), and by the time the
/// centre comes within `r` of `aim` (`r` the radius of a ball about the centre that the
/// small shape holds, plus that of a ball about `aim` the sliver holds).
fn window(q: DVec3, m: DVec3, aim: DVec3, (gap, closing): (f64, f64), r: f64) -> (f32, f32) {
    let soonest = gap / closing;
    let t_c = (aim - q).dot(m) / m.length_squared();
    let miss = (q + m * t_c - aim).length();
    assert!(miss < r / 2.0, "{miss}");
    let latest = t_c - (r * r - miss * miss).sqrt() / m.length();
    ((soonest - 1e-6) as f32, (latest + 1e-6) as f32)
}

/// The sweep's answer checked against a contact window (and its normal against the
/// motion).
fn within(name: &str, hit: Option<SweepHit3>, moved: Vec3, (soonest, latest): (f32, f32)) {
    let hit = hit.unwrap_or_else(|| panic!("{name}: missed"));
    assert!(hit.t >= soonest && hit.t <= latest, "{name}: {hit:?}: not in [{soonest}, {latest}]");
    assert!(hit.normal.dot(moved) < 0.0, "{name}: {hit:?}");
}

/// Small boxes (`Aabb3` and turned `Obb3`, reach 0.07) beside the near end of a box
/// reaching to `1e15` ([`huge_slivers`]: an `Obb3` of half extents `(2^49, 1e-3, 1e-3)`
/// turned by 0.01 rad, and an `Aabb3` as long): 0.6 beyond its end and 0.7 beside its long
/// face, either one moving by a hair, do not touch it; moving straight at it, twice the
/// way, they meet it inside the window of [`window`]. Every such sweep (`Aabb3`-`Obb3` and
/// `Obb3`-`Obb3`, separating-axis walks started by GJK, with no distance to confirm them)
/// reported a touch at `t = 1e-45`: a box's corners are computed as `c ± h₀a₀ ± ...`,
/// rounded by 0.06 at `1e15`, and the walk pads each corner's projection by 3.5 there. Two
/// `Aabb3`s (the slab test) are checked too.
#[test]
fn a_box_beside_a_huge_box_moving_a_hair_does_not_touch_it() {
    use glam::Quat;
    use raybox::Aabb3;
    let (big_obb, big_aabb, axes, h) = huge_slivers();
    let half = Vec3::new(0.0625, 0.03125, 0.015625);
    let turn = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    let reach = f64::from(half.length());
    // The ball the small boxes hold about their centre, and the one the slivers hold about
    // a point of their axis `u a₀` at least `1e-3` from the ends (their axes are
    // orthonormal to `1e-6`).
    let r = f64::from(half.min_element()) + 0.9 * h.y.min(h.z);
    let side = axes[2].cross(axes[0]).normalize();
    for (name, q, end) in [
        ("beyond the end", -axes[0].normalize() * (0.6 + reach), true),
        ("beside the face", axes[0] * 1000.0 + side * (0.7 + reach), false),
    ] {
        let q = q.as_vec3();
        let (aabb, obb) = (Aabb3::from_center_half_extents(q, half), Obb3::new(q, half, turn));
        let (gap, aim) = sliver_gap(axes, h, q.as_dvec3(), reach, end);
        assert!(gap > 0.59, "{name}: {gap}");
        assert!(!aabb.overlaps(&big_obb) && !obb.overlaps(&big_obb));
        assert_eq!(aabb.sweep(HAIR, &big_obb), None, "{name}: aabb");
        assert_eq!(big_obb.sweep(-HAIR, &aabb), None, "{name}: against the aabb");
        assert_eq!(obb.sweep(HAIR, &big_obb), None, "{name}: obb");
        assert_eq!(big_obb.sweep(-HAIR, &obb), None, "{name}: against the obb");
        let m = ((aim - q.as_dvec3()) * 2.0).as_vec3();
        let unit = if end { -axes[0].normalize() } else { side };
        let w = window(q.as_dvec3(), m.as_dvec3(), aim, (gap, -m.as_dvec3().dot(unit)), r);
        within(&format!("{name}: aabb"), aabb.sweep(m, &big_obb), m, w);
        within(&format!("{name}: against the aabb"), big_obb.sweep(-m, &aabb), -m, w);
        within(&format!("{name}: obb"), obb.sweep(m, &big_obb), m, w);
        within(&format!("{name}: against the obb"), big_obb.sweep(-m, &obb), -m, w);
    }
    // The axis-aligned sliver: its axes are exact, its faces the planes `x = 0`, `y = ±h₁`.
    // The sweeps take it as a centre and half extents, `(max ± min) / 2` in `f64`, whose
    // sums of an `f32` at `2^50` and one near zero may be rounded, so its near faces are
    // known to `ε` of its size only, 0.25: a contact may come that much early (not more).
    let known = 0.3;
    for (name, q, end) in [
        ("beyond the aabb's end", DVec3::new(-0.6 - reach, 0.0, 0.0), true),
        ("beside the aabb's face", DVec3::new(1000.0, 0.7 + reach + h.y, 0.0), false),
    ] {
        let q = q.as_vec3();
        let (aabb, obb) = (Aabb3::from_center_half_extents(q, half), Obb3::new(q, half, turn));
        let unit = if end { DVec3::NEG_X } else { DVec3::Y };
        let gap = q.as_dvec3().dot(unit) - reach - if end { 0.0 } else { h.y };
        assert!(gap > 0.59, "{name}: {gap}");
        assert!(!obb.overlaps(&big_aabb));
        assert_eq!(obb.sweep(HAIR, &big_aabb), None, "{name}: obb");
        assert_eq!(big_aabb.sweep(-HAIR, &obb), None, "{name}: against the obb");
        assert_eq!(aabb.sweep(HAIR, &big_aabb), None, "{name}: aabb");
        let aim = DVec3::new(if end { 2e-3 } else { 1000.0 }, 0.0, 0.0);
        let m = ((aim - q.as_dvec3()) * 2.0).as_vec3();
        let w = window(q.as_dvec3(), m.as_dvec3(), aim, (gap - known, -m.as_dvec3().dot(unit)), r);
        within(&format!("{name}: obb"), obb.sweep(m, &big_aabb), m, w);
        within(&format!("{name}: against the obb"), big_aabb.sweep(-m, &obb), -m, w);
        within(&format!("{name}: aabb"), aabb.sweep(m, &big_aabb), m, w);
    }
}

/// A small segment, zero-radius capsule and triangle (reach 0.08) beside the near end of
/// the turned sliver box of [`huge_slivers`], as the boxes of
/// [`a_box_beside_a_huge_box_moving_a_hair_does_not_touch_it`]: moving a hair, or the box
/// moving, they do not touch it; moving straight at it, they meet it inside the window of
/// [`window`] (the box cast against the triangle in a `TriMesh` as well, at the same time).
/// Their walks (started by the pairs' exact tests) were confirmed only against a triangle
/// or a segment far larger than the box, not a box far larger than them: each reported a
/// touch at `t = 1e-45`.
#[test]
fn small_shapes_beside_a_huge_box_moving_a_hair_do_not_touch_it() {
    use raybox::{Capsule3, TriMesh};
    let (big, _, axes, h) = huge_slivers();
    let side = axes[2].cross(axes[0]).normalize();
    let (d, e) = (Vec3::new(0.03, 0.05, -0.04), Vec3::new(0.0, 0.03, 0.05));
    let reach = f64::from(d.length().max((d + e).length()).max((e - d).length())) + 1e-6;
    let r = 0.9 * h.y.min(h.z);
    for (name, q, end) in [
        ("beyond the end", -axes[0].normalize() * (0.6 + reach), true),
        ("beside the face", axes[0] * 1000.0 + side * (0.7 + reach), false),
    ] {
        let q = q.as_vec3();
        let (gap, aim) = sliver_gap(axes, h, q.as_dvec3(), reach, end);
        assert!(gap > 0.59, "{name}: {gap}");
        // Each holds `q`: the segment's midpoint, the triangle's first edge's.
        let (seg, cap) = (Segment3::new(q - d, q + d), Capsule3::new(q - d, q + d, 0.0));
        let tri = Triangle3::new(q - d, q + d, q + e);
        let mesh = TriMesh::new(tri.vertices().to_vec(), vec![[0, 1, 2]]).unwrap();
        assert!(!seg.overlaps(&big) && !cap.overlaps(&big) && !tri.overlaps(&big));
        for (what, hit) in [
            ("segment", seg.sweep(HAIR, &big)),
            ("against the segment", big.sweep(-HAIR, &seg)),
            ("capsule", cap.sweep(HAIR, &big)),
            ("against the capsule", big.sweep(-HAIR, &cap)),
            ("triangle", tri.sweep(HAIR, &big)),
            ("against the triangle", big.sweep(-HAIR, &tri)),
        ] {
            assert_eq!(hit, None, "{name}: {what}");
        }
        assert_eq!(mesh.sweep(&big, -HAIR).map(|h| h.t), None, "{name}: cast against it in a mesh");
        let m = ((aim - q.as_dvec3()) * 2.0).as_vec3();
        let unit = if end { -axes[0].normalize() } else { side };
        let w = window(q.as_dvec3(), m.as_dvec3(), aim, (gap, -m.as_dvec3().dot(unit)), r);
        for (what, hit, moved) in [
            ("segment", seg.sweep(m, &big), m),
            ("against the segment", big.sweep(-m, &seg), -m),
            ("capsule", cap.sweep(m, &big), m),
            ("against the capsule", big.sweep(-m, &cap), -m),
            ("triangle", tri.sweep(m, &big), m),
            ("against the triangle", big.sweep(-m, &tri), -m),
        ] {
            within(&format!("{name}: {what}"), hit, moved, w);
        }
        let cast = mesh.sweep(&big, -m).map(|h| h.t);
        assert_eq!(cast, big.sweep(-m, &tri).map(|h| h.t), "{name}: cast against it in a mesh");
    }
}

/// The 2D analogue of [`a_box_beside_a_huge_box_moving_a_hair_does_not_touch_it`] and
/// [`small_shapes_beside_a_huge_box_moving_a_hair_do_not_touch_it`]: an `Obb2` of half
/// extents `(2^49, 1e-3)` turned by 0.01 rad, its near end exactly at the origin (its
/// centre `h₀a₀` is exact), so that its points are `u a₀ + v a₁`, `u` in `[0, 2h₀]`,
/// `|v| <= h₁`; an `Aabb2`, an `Obb2` (reach 0.07) and a segment (reach 0.06) 0.6 beyond
/// its end and 0.7 beside its long side, moving a hair, or the sliver moving, do not touch
/// it; moving straight at a point of its axis `2e-3` (beyond the end) or `1000` (beside)
/// along it, they meet it after the plane bound is closed and by the time their centre is
/// within `r` of that point. The bounds are `x · a₀ >= -h₁ |a₁ · a₀|` and, for
/// `N = (-a₀.y, a₀.x)`, exactly normal to `a₀`, `x · N <= h₁ |a₁ · N|`. Every hair sweep
/// here reported a touch at `t = 1e-45` (their walks were confirmed only against a segment
/// far larger than the box).
#[test]
fn a_2d_box_beside_a_huge_2d_box_moving_a_hair_does_not_touch_it() {
    use glam::DVec2;
    use raybox::Aabb2;
    let h0 = (1u64 << 49) as f32;
    let half_big = Vec2::new(h0, 1e-3);
    let axes = Obb2::new(Vec2::ZERO, half_big, 0.01).axes();
    let big = Obb2::new(axes[0] * h0, half_big, 0.01);
    assert_eq!(big.axes(), axes);
    let [a0, a1] = axes.map(|a| a.as_dvec2());
    let h1 = f64::from(half_big.y);
    let half = Vec2::new(0.0625, 0.03125);
    let d = Vec2::new(0.036, -0.048); // the segment's half, 0.06 long
    let reach = f64::from(half.length());
    let hair = Vec2::new(-0.0009446217, -0.00084712886);
    let (unit0, n) = (a0.normalize(), DVec2::new(-a0.y, a0.x).normalize());
    for (name, q, end) in [
        ("beyond the end", -unit0 * (0.6 + reach), true),
        ("beside the side", a0 * 1000.0 + n * (0.7 + reach + h1), false),
    ] {
        let q = q.as_vec2();
        let qd = q.as_dvec2();
        let (gap, aim, unit) = if end {
            (-qd.dot(unit0) - reach - h1 * a1.dot(unit0).abs() - 1e-9, a0 * 2e-3, -unit0)
        } else {
            (qd.dot(n) - reach - h1 * a1.dot(n).abs() - 1e-9, a0 * 1000.0, n)
        };
        assert!(gap > 0.59, "{name}: {gap}");
        let (aabb, obb) = (Aabb2::from_center_half_extents(q, half), Obb2::new(q, half, 0.7));
        let seg = Segment2::new(q - d, q + d);
        assert!(!aabb.overlaps(&big) && !obb.overlaps(&big) && !seg.overlaps(&big));
        for (what, hit) in [
            ("aabb", aabb.sweep(hair, &big)),
            ("against the aabb", big.sweep(-hair, &aabb)),
            ("obb", obb.sweep(hair, &big)),
            ("against the obb", big.sweep(-hair, &obb)),
            ("segment", seg.sweep(hair, &big)),
            ("against the segment", big.sweep(-hair, &seg)),
        ] {
            assert_eq!(hit, None, "{name}: {what}");
        }
        let m = ((aim - qd) * 2.0).as_vec2();
        let md = m.as_dvec2();
        let soonest = gap / -md.dot(unit);
        let t_c = (aim - qd).dot(md) / md.length_squared();
        let miss = (qd + md * t_c - aim).length();
        let latest_within = |r: f64| {
            assert!(miss < r / 2.0, "{miss}");
            ((t_c - (r * r - miss * miss).sqrt() / md.length()) + 1e-6) as f32
        };
        // The boxes hold the ball of their least half extent about `q`, the segment the
        // point `q`; the sliver, the ball of 0.9e-3 about `aim`.
        let (boxes, segment) = (latest_within(f64::from(half.min_element()) + 0.9e-3), latest_within(0.9e-3));
        let soonest = (soonest - 1e-6) as f32;
        for (what, hit, moved, latest) in [
            ("aabb", aabb.sweep(m, &big), m, boxes),
            ("against the aabb", big.sweep(-m, &aabb), -m, boxes),
            ("obb", obb.sweep(m, &big), m, boxes),
            ("against the obb", big.sweep(-m, &obb), -m, boxes),
            ("segment", seg.sweep(m, &big), m, segment),
            ("against the segment", big.sweep(-m, &seg), -m, segment),
        ] {
            let hit = hit.unwrap_or_else(|| panic!("{name}: {what} missed"));
            assert!(
                hit.t >= soonest && hit.t <= latest,
                "{name}: {what}: {hit:?}: not in [{soonest}, {latest}]"
            );
            assert!(hit.normal.dot(moved) < 0.0, "{name}: {what}: {hit:?}");
        }
    }
}
