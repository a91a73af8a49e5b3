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
    Aabb2, Aabb3, Circle, ClosestPoint, ContainsPoint, Distance, Obb2, Obb3, Overlaps, Ray2, Ray3, RayCast,
    ShapeError, Sphere,
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
        check_closest(&s, &t)?; check_closest(&s, &c)?; check_closest(&s, &b)?; check_closest(&s, &o)?;
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
