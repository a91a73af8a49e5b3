//! Distances (`Distance`): reference vectors and properties on random pairs.
//!
//! - `aabb_aabb_*`: the Euclidean distance from the exact per-axis gaps (computed here in
//!   `f64` from the inputs), zero exactly when the vectors say the boxes overlap.
//! - `circle_aabb_2d`, `sphere_aabb_3d`: `max(0, √dist_sq - r)`.
//! - `obb_obb_*`: zero exactly when overlapping (binary32 rules), and never below the
//!   vectors' `sat_separation` (a lower bound of the distance) when apart.
//! - properties: symmetric; zero exactly when `overlaps` (pairs with an exact overlap
//!   test); the closest points lie on their shapes, are `distance` apart, and each is at
//!   `distance` from the other shape (so neither shape has a nearer point).

mod common;

use common::strategies::*;
use common::{Case, Report, expected, f32_array, f32_of, load};
use glam::{Quat, Vec2, Vec3};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use raybox::{
    Aabb2, Aabb3, Capsule3, Circle, ClosestPoint, Contact, ContainsPoint, Distance, Obb2, Obb3, Overlaps,
    Ray2, Ray3, RayCast, Segment3, ShapeError, Sphere,
};
use serde_json::Value;

fn v2(v: &Value) -> Vec2 {
    Vec2::from_slice(&f32_array(v))
}
fn v3(v: &Value) -> Vec3 {
    Vec3::from_slice(&f32_array(v))
}
fn aabb2(b: &Value) -> Result<Aabb2, ShapeError> {
    Aabb2::try_new(v2(&b["min"]), v2(&b["max"]))
}
fn aabb3(b: &Value) -> Result<Aabb3, ShapeError> {
    Aabb3::try_new(v3(&b["min"]), v3(&b["max"]))
}
fn obb2(o: &Value) -> Result<Obb2, ShapeError> {
    let p = f32_array(&o["rotation"]["pythagorean"]);
    Obb2::try_from_rotation(v2(&o["center"]), v2(&o["half_extents"]), Vec2::new(p[0], p[1]))
}
fn obb3(o: &Value) -> Result<Obb3, ShapeError> {
    let q = f32_array(&o["rotation"]["quat_wxyz"]);
    Obb3::try_new(v3(&o["center"]), v3(&o["half_extents"]), Quat::from_xyzw(q[1], q[2], q[3], q[0]))
}

fn run(name: &'static str, mut check: impl FnMut(&mut Report, &Case<'_>)) -> Report {
    let mut report = Report::new(name);
    for raw in &load(name) {
        let case = Case::new(raw);
        if case.f64_only() {
            report.skipped += 1;
            continue;
        }
        report.cases += 1;
        check(&mut report, &case);
    }
    report
}

/// The exact Euclidean distance of two boxes from their per-axis gaps.
fn box_gap(a: (&[f32], &[f32]), b: (&[f32], &[f32])) -> f64 {
    (0..a.0.len())
        .map(|i| {
            let gap =
                (f64::from(b.0[i]) - f64::from(a.1[i])).max(f64::from(a.0[i]) - f64::from(b.1[i])).max(0.0);
            gap * gap
        })
        .sum::<f64>()
        .sqrt()
}

fn check_box_distance(report: &mut Report, case: &Case<'_>, ab: f32, ba: f32, want: f64) {
    let overlap = case.expect["overlap"].as_bool().expect("overlap");
    report.check_bool(case, "overlap (distance == 0)", ab == 0.0, overlap, true);
    report.check_dist(case, "euclidean distance", f64::from(ab), want);
    report.check_dist(case, "euclidean distance (reversed)", f64::from(ba), want);
}

#[test]
fn aabb_aabb_2d_distances() {
    run("aabb_aabb_2d", |report, case| {
        let (Ok(a), Ok(b)) = (aabb2(&case.inputs["a"]), aabb2(&case.inputs["b"])) else {
            return report.fail(case, "valid boxes rejected");
        };
        let want =
            box_gap((&a.min().to_array(), &a.max().to_array()), (&b.min().to_array(), &b.max().to_array()));
        check_box_distance(report, case, a.distance(&b), b.distance(&a), want);
    })
    .finish(80, 80);
}

#[test]
fn aabb_aabb_3d_distances() {
    run("aabb_aabb_3d", |report, case| {
        let (Ok(a), Ok(b)) = (aabb3(&case.inputs["a"]), aabb3(&case.inputs["b"])) else {
            return report.fail(case, "valid boxes rejected");
        };
        let want =
            box_gap((&a.min().to_array(), &a.max().to_array()), (&b.min().to_array(), &b.max().to_array()));
        check_box_distance(report, case, a.distance(&b), b.distance(&a), want);
    })
    .finish(80, 80);
}

fn check_ball_box(report: &mut Report, case: &Case<'_>, got: f32, radius: f32) {
    let e = case.expect;
    let want = e["overlap"].as_bool().expect("overlap");
    report.check_bool(case, "overlap (distance == 0)", got == 0.0, want, case.strict_bool());
    let d = expected(&e["dist_sq"]).expect("dist_sq").sqrt();
    report.check_dist(case, "distance = max(0, dist - r)", f64::from(got), (d - f64::from(radius)).max(0.0));
}

#[test]
fn circle_aabb_2d_distances() {
    run("circle_aabb_2d", |report, case| {
        let s = &case.inputs["sphere"];
        let (Ok(c), Ok(b)) =
            (Circle::try_new(v2(&s["center"]), f32_of(&s["radius"])), aabb2(&case.inputs["box"]))
        else {
            return report.fail(case, "valid shapes rejected");
        };
        check_ball_box(report, case, c.distance(&b), c.radius());
    })
    .finish(80, 80);
}

#[test]
fn sphere_aabb_3d_distances() {
    run("sphere_aabb_3d", |report, case| {
        let s = &case.inputs["sphere"];
        let (Ok(c), Ok(b)) =
            (Sphere::try_new(v3(&s["center"]), f32_of(&s["radius"])), aabb3(&case.inputs["box"]))
        else {
            return report.fail(case, "valid shapes rejected");
        };
        check_ball_box(report, case, c.distance(&b), c.radius());
    })
    .finish(80, 80);
}

fn check_obb_distance(report: &mut Report, case: &Case<'_>, ab: f32, ba: f32) {
    let e = case.expect;
    let overlap = e["overlap"].as_bool().expect("overlap");
    report.check_bool(case, "overlap (distance == 0)", ab == 0.0, overlap, case.strict_bool());
    report.check_bool(case, "overlap (reversed distance == 0)", ba == 0.0, overlap, case.strict_bool());
    report.check(case, (ab - ba).abs() <= 1e-5 * (1.0 + ab), || format!("asymmetric: {ab} vs {ba}"));
    if let Some(lower) = expected(&e["sat_separation"]) {
        report.values += 1;
        let tol = common::DIST_TOL * (lower + case.input_scale());
        report.check(case, f64::from(ab) >= lower - tol, || {
            format!("distance {ab} below the SAT bound {lower}")
        });
    }
}

#[test]
fn obb_obb_2d_distances() {
    run("obb_obb_2d", |report, case| {
        let (Ok(a), Ok(b)) = (obb2(&case.inputs["a"]), obb2(&case.inputs["b"])) else {
            return report.fail(case, "valid boxes rejected");
        };
        check_obb_distance(report, case, a.distance(&b), b.distance(&a));
    })
    .finish(80, 20);
}

#[test]
fn obb_obb_3d_distances() {
    run("obb_obb_3d", |report, case| {
        let (Ok(a), Ok(b)) = (obb3(&case.inputs["a"]), obb3(&case.inputs["b"])) else {
            return report.fail(case, "valid boxes rejected");
        };
        check_obb_distance(report, case, a.distance(&b), b.distance(&a));
    })
    .finish(80, 20);
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

/// Distance tolerance at the strategies' scale (coordinates within about ±4).
const TOL: f32 = 1e-5 * 8.0;

/// The closest-point properties, for any pair.
fn check_closest<A, B, V>(a: &A, b: &B) -> Result<f32, TestCaseError>
where
    A: Distance<B, Point = V> + ClosestPoint<Point = V>,
    B: Distance<A, Point = V> + ClosestPoint<Point = V>,
    V: Copy + core::fmt::Debug + core::ops::Sub<Output = V> + Into<Len>,
{
    let (d, back) = (a.distance(b), b.distance(a));
    prop_assert!(d >= 0.0 && (d - back).abs() <= TOL, "asymmetric: {} vs {}", d, back);
    let (pa, pb) = a.closest_points(b);
    let (qb, qa) = b.closest_points(a);
    prop_assert!(a.distance_to_point(pa) <= TOL && b.distance_to_point(pb) <= TOL, "points off their shapes");
    prop_assert!(a.distance_to_point(qa) <= TOL && b.distance_to_point(qb) <= TOL, "points off their shapes");
    let gap: Len = (pb - pa).into();
    prop_assert!((gap.0 - d).abs() <= TOL, "points {:?} {:?} are {} apart, distance {}", pa, pb, gap.0, d);
    // Optimality: no point of A is nearer to pb, and no point of B nearer to pa.
    prop_assert!((a.distance_to_point(pb) - d).abs() <= TOL, "A has a point nearer to {:?}", pb);
    prop_assert!((b.distance_to_point(pa) - d).abs() <= TOL, "B has a point nearer to {:?}", pa);
    Ok(d)
}

/// Pairs with an exact overlap test: the distance is zero exactly when they overlap.
fn check_exact<A, B, V>(a: &A, b: &B) -> Result<(), TestCaseError>
where
    A: Distance<B, Point = V> + ClosestPoint<Point = V> + Overlaps<B>,
    B: Distance<A, Point = V> + ClosestPoint<Point = V>,
    V: Copy + core::fmt::Debug + core::ops::Sub<Output = V> + Into<Len>,
{
    let d = check_closest(a, b)?;
    prop_assert_eq!(d == 0.0, a.overlaps(b), "distance {} vs overlaps", d);
    Ok(())
}

struct Len(f32);
impl From<Vec2> for Len {
    fn from(v: Vec2) -> Self {
        Len(v.length())
    }
}
impl From<Vec3> for Len {
    fn from(v: Vec3) -> Self {
        Len(v.length())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn circle_circle(a in circle(), b in circle()) { check_exact(&a, &b)?; }
    #[test]
    fn circle_aabb(a in circle(), b in aabb2s()) { check_exact(&a, &b)?; check_exact(&b, &a)?; }
    #[test]
    fn circle_obb(a in circle(), b in obb2s()) { check_exact(&a, &b)?; check_exact(&b, &a)?; }
    #[test]
    fn aabb2_aabb2(a in aabb2s(), b in aabb2s()) { check_exact(&a, &b)?; }
    #[test]
    fn aabb2_obb2(a in aabb2s(), b in obb2s()) { check_exact(&a, &b)?; check_exact(&b, &a)?; }
    #[test]
    fn obb2_obb2(a in obb2s(), b in obb2s()) { check_exact(&a, &b)?; }
    #[test]
    fn sphere_sphere(a in sphere(), b in sphere()) { check_exact(&a, &b)?; }
    #[test]
    fn sphere_aabb(a in sphere(), b in aabb3s()) { check_exact(&a, &b)?; check_exact(&b, &a)?; }
    #[test]
    fn sphere_obb(a in sphere(), b in obb3s()) { check_exact(&a, &b)?; check_exact(&b, &a)?; }
    #[test]
    fn aabb3_aabb3(a in aabb3s(), b in aabb3s()) { check_exact(&a, &b)?; }
    #[test]
    fn aabb3_obb3(a in aabb3s(), b in obb3s()) { check_exact(&a, &b)?; check_exact(&b, &a)?; }
    #[test]
    fn obb3_obb3(a in obb3s(), b in obb3s()) { check_exact(&a, &b)?; }
    #[test]
    fn segment2_pairs(s in segment2s(), t in segment2s(), c in circle(), b in aabb2s(), o in obb2s()) {
        check_closest(&s, &t)?; check_closest(&s, &c)?; check_closest(&s, &b)?; check_closest(&s, &o)?;
    }
    #[test]
    fn capsule2_pairs(c in capsule2s(), d in capsule2s(), s in circle(), b in aabb2s(), o in obb2s(), g in segment2s()) {
        check_exact(&c, &d)?; check_exact(&c, &s)?; check_exact(&c, &b)?; check_exact(&c, &o)?; check_exact(&c, &g)?;
        check_exact(&s, &c)?; check_exact(&b, &c)?; check_exact(&o, &c)?;
    }
    #[test]
    fn capsule3_pairs(c in capsule3s(), d in capsule3s(), s in sphere(), b in aabb3s(), o in obb3s(), g in segment3s()) {
        check_exact(&c, &d)?; check_exact(&c, &s)?; check_exact(&c, &b)?; check_exact(&c, &o)?; check_exact(&c, &g)?;
        check_exact(&s, &c)?; check_exact(&b, &c)?; check_exact(&o, &c)?;
    }
    #[test]
    fn capsule2_ray_hits_the_surface(c in capsule2s().prop_filter("has an inside", |c| c.radius() > 0.01), o in point2(), t in point2()) {
        let ray = Ray2::new(o * 2.0, t - o * 2.0 + Vec2::splat(1e-3));
        check_ray_hit(c.cast_ray(&ray).map(|h| (h.point, h.normal)), |k| ray.at(k), |p| c.contains_point(p))?;
    }
    #[test]
    fn capsule3_ray_hits_the_surface(c in capsule3s().prop_filter("has an inside", |c| c.radius() > 0.01), o in point3(), t in point3()) {
        let ray = Ray3::new(o * 2.0, t - o * 2.0 + Vec3::splat(1e-3));
        check_ray_hit(c.cast_ray(&ray).map(|h| (h.point, h.normal)), |k| ray.at(k), |p| c.contains_point(p))?;
    }
    #[test]
    fn segment3_pairs(s in segment3s(), t in segment3s(), c in sphere(), b in aabb3s(), o in obb3s()) {
        check_exact(&s, &t)?; check_closest(&s, &c)?; check_closest(&s, &b)?; check_closest(&s, &o)?;
    }
    #[test]
    fn plane_pairs(p in plane3s(), s in sphere(), b in aabb3s(), o in obb3s(), t in triangle3s(), g in segment3s()) {
        check_exact(&p, &s)?; check_exact(&s, &p)?; check_exact(&p, &b)?; check_exact(&b, &p)?;
        check_exact(&p, &o)?; check_exact(&o, &p)?; check_exact(&p, &t)?; check_exact(&t, &p)?;
        check_exact(&p, &g)?; check_exact(&g, &p)?;
    }
    #[test]
    fn triangle_ball_and_boxes(t in triangle3s(), s in sphere(), b in aabb3s(), o in obb3s()) {
        check_exact(&t, &s)?; check_exact(&s, &t)?; check_exact(&t, &b)?; check_exact(&b, &t)?;
        check_exact(&t, &o)?; check_exact(&o, &t)?;
    }
    #[test]
    fn triangle_capsule(t in triangle3s(), c in capsule3s()) {
        check_exact(&t, &c)?; check_exact(&c, &t)?;
    }
}

/// A ray cast against a capsule: a hit point is on the surface with the normal pointing
/// out (a nudge along it leaves, against it enters); a miss has no sampled point inside.
fn check_ray_hit<V>(
    hit: Option<(V, V)>,
    at: impl Fn(f32) -> V,
    inside: impl Fn(V) -> bool,
) -> Result<(), TestCaseError>
where
    V: Copy
        + core::fmt::Debug
        + PartialEq
        + Default
        + core::ops::Add<Output = V>
        + core::ops::Mul<f32, Output = V>,
{
    match hit {
        Some((p, n)) if n != V::default() => {
            prop_assert!(inside(p + n * -1e-3), "just behind the hit {:?} is outside", p);
            prop_assert!(!inside(p + n * 1e-3), "just in front of the hit {:?} is inside", p);
        }
        Some(_) => prop_assert!(inside(at(0.0)), "a zero normal means the ray starts inside"),
        None => {
            for k in 0..=256 {
                prop_assert!(!inside(at(k as f32 / 64.0)), "a miss, yet r({}) is inside", k as f32 / 64.0);
            }
        }
    }
    Ok(())
}

/// Moving both shapes far from the origin changes the answers only by the rounding of the
/// moved coordinates (`f32` at 1000 has a resolution of 6e-5).
fn check_far<A, B>(a: &A, b: &B) -> Result<(), TestCaseError>
where
    A: Distance<B> + raybox::Contact<B, Output = raybox::Contact3> + Translate<Vec3>,
    B: Translate<Vec3>,
{
    let far = Vec3::new(1000.0, -1000.0, 500.0);
    let (fa, fb) = (a.moved(far), b.moved(far));
    let (d, fd) = (a.distance(b), fa.distance(&fb));
    prop_assert!((d - fd).abs() <= 1e-3, "distance {} near the origin, {} far from it", d, fd);
    if let (Some(c), Some(fc)) = (a.contact(b), fa.contact(&fb)) {
        prop_assert!((c.depth - fc.depth).abs() <= 1e-3, "depth {} vs {}", c.depth, fc.depth);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn far_from_the_origin(s in sphere(), b in aabb3s(), o in obb3s(), c in capsule3s(), d in capsule3s()) {
        check_far(&s, &o)?; check_far(&b, &o)?; check_far(&o, &o.moved(Vec3::X))?; check_far(&c, &o)?;
        check_far(&c, &d)?; check_far(&s, &c)?;
    }
}

// ---------------------------------------------------------------------------------------
// Boxes ten orders of magnitude larger than the gap (GJK's near face)
// ---------------------------------------------------------------------------------------

/// `got` within `1e-6 (1 + want)` of `want`: GJK converges to `1e-10` relative in `f64` on
/// the parts of the cores near each other, and the distance is rounded once to `f32`
/// (`6e-8` relative); the near faces' coordinates (1 and 0) are exact in `f64`.
fn near(got: f32, want: f64) -> bool {
    (f64::from(got) - want).abs() <= 1e-6 * (1.0 + want)
}

/// Shapes next to the near corner of a box spanning `[1, 1e10]` on every axis, with exact
/// distances along the axes: `a.distance(&b)` and `b.distance(&a)` both find the face
/// `x = 1`. (GJK saw the box through its `f32` centre and half extents, `5e9 ± 5e9`, whose
/// near face is at 0, and its tolerances, relative to the far corners, read small gaps as
/// contact.)
#[test]
fn boxes_spanning_1_to_1e10_keep_their_near_face() {
    let big = Aabb3::new(Vec3::ONE, Vec3::splat(1e10));
    let gap = |x: f32| 1.0 - f64::from(x); // from x < 1 to the face x = 1
    let aabbs = [
        (Aabb3::new(Vec3::new(-3.0, 2.0, 2.0), Vec3::new(0.5, 3.0, 3.0)), gap(0.5)),
        (Aabb3::new(Vec3::new(-3.0, 5.0, 5.0), Vec3::new(0.99, 6.0, 6.0)), gap(0.99)),
        (Aabb3::new(Vec3::splat(-2.0), Vec3::splat(-1.0)), 2.0 * 3f64.sqrt()), // corner: (2, 2, 2)
    ];
    for (small, want) in aabbs {
        let (ab, ba) = (big.distance(&small), small.distance(&big));
        assert!(near(ab, want) && ab == ba, "{small:?}: {ab} and {ba}, want {want}");
        let (on_big, on_small) = big.closest_points(&small);
        assert!(near((on_small - on_big).length(), want) && on_big.x == 1.0, "{on_big} {on_small}");
    }
    // Oriented boxes: axis-aligned, and turned by exact quarter turns (the same cube).
    for q in [Quat::IDENTITY, Quat::from_xyzw(1.0, 0.0, 0.0, 1.0), Quat::from_xyzw(0.0, 0.0, 1.0, 1.0)] {
        let o = Obb3::new(Vec3::new(-1.0, 2.5, 2.5), Vec3::splat(0.5), q);
        let (ab, ba) = (big.distance(&o), o.distance(&big));
        assert!(near(ab, 1.5) && ab == ba && !big.overlaps(&o), "{q}: {ab} {ba}");
    }
    let capsule = Capsule3::new(Vec3::new(-2.0, 3.0, 3.0), Vec3::new(-2.0, 3.0, 7.0), 0.5);
    assert!(near(big.distance(&capsule), 2.5) && near(capsule.distance(&big), 2.5));
    let ball = Sphere::new(Vec3::new(-0.25, 4.0, 4.0), 0.75);
    assert!(near(big.distance(&ball), 0.5) && near(ball.distance(&big), 0.5));
    let segment = Segment3::new(Vec3::new(-1.0, 2.0, 2.0), Vec3::new(-1.0, 8.0, 2.0));
    assert!(near(big.distance(&segment), 2.0) && near(segment.distance(&big), 2.0));
    // 2D: the same box, a rectangle.
    let big2 = Aabb2::new(Vec2::ONE, Vec2::splat(1e10));
    let small2 = Aabb2::new(Vec2::new(-3.0, 2.0), Vec2::new(0.5, 3.0));
    assert!(near(big2.distance(&small2), 0.5) && near(small2.distance(&big2), 0.5));
    let diamond = Obb2::new(Vec2::new(0.25, 3.0), Vec2::splat(0.5), std::f32::consts::FRAC_PI_2);
    assert!(near(big2.distance(&diamond), 0.25) && near(diamond.distance(&big2), 0.25));
}

/// An oriented box spanning `[0, 2^34]` (and `[0, 2^41]`), exactly representable, against
/// small shapes 0.03 to 2 from its face `x = 0`: GJK distances (boxes, capsules) and the
/// ball's, whose zero the `f32` overlap test decided (`f32` box-frame coordinates near
/// `2^33` are 1/1024 apart, so a gap of 0.03 read as touching).
#[test]
fn huge_oriented_boxes_keep_small_gaps() {
    for e in [33, 40] {
        let h = 2f32.powi(e);
        for q in [Quat::IDENTITY, Quat::from_xyzw(0.0, 1.0, 0.0, 1.0), Quat::from_xyzw(1.0, 1.0, 1.0, 1.0)] {
            let big = Obb3::new(Vec3::splat(h), Vec3::splat(h), q);
            for gap in [0.03f32, 0.5, 2.0] {
                let ball = Sphere::new(Vec3::new(-gap - 0.25, 5.0, 5.0), 0.25);
                let want = f64::from(-gap - 0.25).abs() - 0.25; // the centre's x, less the radius
                let (ab, ba) = (big.distance(&ball), ball.distance(&big));
                assert!(near(ab, want) && ab == ba, "2^{e} {q} gap {gap}: {ab}, want {want}");
                assert!(!big.overlaps(&ball) && big.contact(&ball).is_none());
                let small = Obb3::new(Vec3::new(-gap - 0.5, 3.0, 3.0), Vec3::splat(0.5), Quat::IDENTITY);
                let want = f64::from(-gap - 0.5).abs() - 0.5;
                assert!(near(big.distance(&small), want), "2^{e} {q}: {}", big.distance(&small));
                let aabb = Aabb3::new(Vec3::new(-gap - 1.0, 3.0, 3.0), Vec3::new(-gap, 4.0, 4.0));
                assert!(near(big.distance(&aabb), f64::from(gap)) && !aabb.overlaps(&big));
                let capsule =
                    Capsule3::new(Vec3::new(-gap - 0.5, 3.0, 3.0), Vec3::new(-gap - 0.5, 3.0, 9.0), 0.5);
                let want = f64::from(-gap - 0.5).abs() - 0.5;
                assert!(near(capsule.distance(&big), want), "2^{e} {q}: {}", capsule.distance(&big));
            }
        }
    }
}

/// Two boxes both spanning `1e10`, their faces 0.01 apart: neither can be cut down to the
/// other's size, and GJK's answer stays within `f64` rounding of the far corners (`2e-6`).
#[test]
fn two_huge_boxes_close_together() {
    let a = Aabb3::new(Vec3::ONE, Vec3::splat(1e10));
    let b = Aabb3::new(Vec3::new(-1e10, 1.0, 1.0), Vec3::new(0.99, 1e10, 1e10));
    let want = 1.0 - f64::from(0.99f32);
    let (ab, ba) = (a.distance(&b), b.distance(&a));
    assert!((f64::from(ab) - want).abs() < 1e-5 && (f64::from(ba) - want).abs() < 1e-5, "{ab} {ba}");
}
