//! Contacts (`Contact`): exact depths from the reference vectors, and properties on
//! random pairs of every supported kind.
//!
//! - `aabb_aabb_*`, `obb_obb_*`: `contact` is `Some` exactly when the vectors say the
//!   boxes overlap (binary32 boolean rules), and `depth` is the exact
//!   `penetration_depth` (the minimum translation distance) within the distance rule of
//!   `tests/vectors/README.md`. `circle_aabb_2d`, `sphere_aabb_3d`: depth `r - √dist_sq`.
//! - properties (every pair with a contact, planes included): `Some` exactly when
//!   `overlaps`; the reverse pair flips the normal; moving the second shape by
//!   `normal * (depth + ε)` separates the pair and by `normal * (depth - ε)` does not;
//!   every contact point lies within `depth / 2` of both shapes.
//! - segments against every shape (random pairs, segments built to meet exactly on a grid
//!   of sixteenths, and segments built to touch balls, boxes, triangles and planes exactly
//!   or to enter them): besides the above in both orders, the depth is the least push over
//!   sampled directions, and a segment that only touches has depth zero (segments meeting
//!   in space always do).
//! - triangle against triangle, on random, nearly coplanar and nearly touching pairs at
//!   several scales and distances from the origin: besides the above, the depth is the
//!   least push over sampled directions (no direction's projections overlap less), and the
//!   contact points lie in the two triangles' bounding boxes.

mod common;

use common::strategies::*;
use common::{Case, Report, expected, f32_array, f32_of, load};
use glam::{DVec3, Quat, Vec2, Vec3};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use raybox::{
    Aabb2, Aabb3, Capsule3, Circle, ClosestPoint, Contact, Contact2, Contact3, Distance, Obb2, Obb3,
    Overlaps, Plane, Segment2, Segment3, ShapeError, Sphere, Triangle3,
};
use serde_json::Value;

// ---------------------------------------------------------------------------------------
// Reference vectors
// ---------------------------------------------------------------------------------------

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

/// Runs `check` on every binary32 case of `vectors/<name>.json`.
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

/// The contact in both orders against the vectors' `overlap` and `penetration_depth`.
fn check_depth(
    report: &mut Report,
    case: &Case<'_>,
    strict: bool,
    ab: Option<(f32, f32)>,
    ba: Option<(f32, f32)>,
) {
    let e = case.expect;
    let want = e["overlap"].as_bool().expect("overlap");
    report.check_bool(case, "overlap (a.contact(b).is_some())", ab.is_some(), want, strict);
    report.check_bool(case, "overlap (b.contact(a).is_some())", ba.is_some(), want, strict);
    report.check(case, ab.map(|x| x.0) == ba.map(|x| x.0), || format!("asymmetric depth: {ab:?} vs {ba:?}"));
    if let (Some((depth, normal_len)), Some(want_depth)) = (ab, expected(&e["penetration_depth"])) {
        report.check_dist(case, "penetration_depth", f64::from(depth), want_depth);
        report
            .check(case, (normal_len - 1.0).abs() < 1e-5, || format!("normal not unit: |n| = {normal_len}"));
    }
}

fn summary2(c: Option<Contact2>) -> Option<(f32, f32)> {
    c.map(|c| (c.depth, c.normal.length()))
}
fn summary3(c: Option<Contact3>) -> Option<(f32, f32)> {
    c.map(|c| (c.depth, c.normal.length()))
}

#[test]
fn aabb_aabb_2d_depths() {
    run("aabb_aabb_2d", |report, case| {
        let (Ok(a), Ok(b)) = (aabb2(&case.inputs["a"]), aabb2(&case.inputs["b"])) else {
            return report.fail(case, "valid boxes rejected");
        };
        check_depth(report, case, true, summary2(a.contact(&b)), summary2(b.contact(&a)));
    })
    .finish(80, 40);
}

#[test]
fn aabb_aabb_3d_depths() {
    run("aabb_aabb_3d", |report, case| {
        let (Ok(a), Ok(b)) = (aabb3(&case.inputs["a"]), aabb3(&case.inputs["b"])) else {
            return report.fail(case, "valid boxes rejected");
        };
        check_depth(report, case, true, summary3(a.contact(&b)), summary3(b.contact(&a)));
    })
    .finish(80, 40);
}

#[test]
fn obb_obb_2d_depths() {
    run("obb_obb_2d", |report, case| {
        let (Ok(a), Ok(b)) = (obb2(&case.inputs["a"]), obb2(&case.inputs["b"])) else {
            return report.fail(case, "valid boxes rejected");
        };
        check_depth(report, case, case.strict_bool(), summary2(a.contact(&b)), summary2(b.contact(&a)));
        report.check(case, a.contact(&b).is_some() == a.overlaps(&b), || {
            "contact disagrees with overlaps".into()
        });
    })
    .finish(80, 30);
}

#[test]
fn obb_obb_3d_depths() {
    run("obb_obb_3d", |report, case| {
        let (Ok(a), Ok(b)) = (obb3(&case.inputs["a"]), obb3(&case.inputs["b"])) else {
            return report.fail(case, "valid boxes rejected");
        };
        check_depth(report, case, case.strict_bool(), summary3(a.contact(&b)), summary3(b.contact(&a)));
        report.check(case, a.contact(&b).is_some() == a.overlaps(&b), || {
            "contact disagrees with overlaps".into()
        });
    })
    .finish(80, 30);
}

/// Ball–box: where the centre is outside the box, the depth is `r - √dist_sq`.
fn check_ball_box(report: &mut Report, case: &Case<'_>, got: Option<f32>, radius: f32) {
    let e = case.expect;
    let want = e["overlap"].as_bool().expect("overlap");
    report.check_bool(case, "overlap (contact.is_some())", got.is_some(), want, case.strict_bool());
    let d2 = expected(&e["dist_sq"]).expect("dist_sq");
    if let (Some(depth), true) = (got, d2 > 0.0) {
        report.check_dist(case, "depth = r - dist", f64::from(depth), f64::from(radius) - d2.sqrt());
    }
}

#[test]
fn circle_aabb_2d_depths() {
    run("circle_aabb_2d", |report, case| {
        let s = &case.inputs["sphere"];
        let (Ok(c), Ok(b)) =
            (Circle::try_new(v2(&s["center"]), f32_of(&s["radius"])), aabb2(&case.inputs["box"]))
        else {
            return report.fail(case, "valid shapes rejected");
        };
        check_ball_box(report, case, c.contact(&b).map(|c| c.depth), c.radius());
    })
    .finish(80, 20);
}

#[test]
fn sphere_aabb_3d_depths() {
    run("sphere_aabb_3d", |report, case| {
        let s = &case.inputs["sphere"];
        let (Ok(c), Ok(b)) =
            (Sphere::try_new(v3(&s["center"]), f32_of(&s["radius"])), aabb3(&case.inputs["box"]))
        else {
            return report.fail(case, "valid shapes rejected");
        };
        check_ball_box(report, case, c.contact(&b).map(|c| c.depth), c.radius());
    })
    .finish(80, 20);
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

/// The coordinates' scale in these tests (centres within ±2, sizes up to 2).
const SCALE: f32 = 8.0;
/// The translation tolerance of the separation property, and the distance tolerance of
/// the contact points: well above `f32` rounding at `SCALE`, well below the sizes.
const EPS: f32 = 1e-4 * SCALE;

/// A 2D or 3D contact, seen through its parts.
trait ContactParts<V> {
    fn parts(&self) -> (V, f32, Vec<V>);
}
impl ContactParts<Vec2> for Contact2 {
    fn parts(&self) -> (Vec2, f32, Vec<Vec2>) {
        (self.normal, self.depth, self.points.to_vec())
    }
}
impl ContactParts<Vec3> for Contact3 {
    fn parts(&self) -> (Vec3, f32, Vec<Vec3>) {
        (self.normal, self.depth, self.points.to_vec())
    }
}

/// Every contact property, for one pair `(a, b)` of any supported kind and dimension.
fn check_contact<A, B, V, C>(a: &A, b: &B) -> Result<(), TestCaseError>
where
    A: Contact<B, Output = C> + Overlaps<B> + ClosestPoint<Point = V>,
    B: Contact<A, Output = C> + ClosestPoint<Point = V> + Translate<V>,
    C: ContactParts<V> + core::fmt::Debug,
    V: Copy + core::fmt::Debug + core::ops::Mul<f32, Output = V> + core::ops::Neg<Output = V> + PartialEq,
    V: Into<Vec3Like>,
{
    let contact = a.contact(b);
    prop_assert_eq!(contact.is_some(), a.overlaps(b), "contact must be Some exactly when overlapping");
    let Some(c) = contact else { return Ok(()) };
    let (n, depth, points) = c.parts();
    let back = b.contact(a).expect("the reverse pair overlaps too");
    let (rn, rdepth, _) = back.parts();
    prop_assert_eq!((rn, rdepth), (-n, depth), "the reverse contact flips the normal");
    let len: Vec3Like = n.into();
    prop_assert!((len.0 - 1.0).abs() < 1e-5, "normal not unit: {:?}", n);
    prop_assert!(depth >= 0.0);
    prop_assert!(!a.overlaps(&b.moved(n * (depth + EPS))), "moving by depth + ε must separate: {:?}", c);
    if depth > 2.0 * EPS {
        prop_assert!(
            a.overlaps(&b.moved(n * (depth - EPS))),
            "moving by depth - ε must not separate: {:?}",
            c
        );
    }
    prop_assert!(!points.is_empty());
    for p in points {
        let (da, db) = (a.distance_to_point(p), b.distance_to_point(p));
        let tol = depth / 2.0 + EPS;
        prop_assert!(da <= tol && db <= tol, "point {:?} is {} from a and {} from b: {:?}", p, da, db, c);
    }
    Ok(())
}

/// The length of a 2D or 3D vector (so one generic check serves both).
struct Vec3Like(f32);
impl From<Vec2> for Vec3Like {
    fn from(v: Vec2) -> Self {
        Vec3Like(v.length())
    }
}
impl From<Vec3> for Vec3Like {
    fn from(v: Vec3) -> Self {
        Vec3Like(v.length())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn circle_circle(a in circle(), b in circle()) { check_contact(&a, &b)?; }
    #[test]
    fn circle_aabb(a in circle(), b in aabb2s()) { check_contact(&a, &b)?; check_contact(&b, &a)?; }
    #[test]
    fn circle_obb(a in circle(), b in obb2s()) { check_contact(&a, &b)?; check_contact(&b, &a)?; }
    #[test]
    fn aabb2_aabb2(a in aabb2s(), b in aabb2s()) { check_contact(&a, &b)?; }
    #[test]
    fn aabb2_obb2(a in aabb2s(), b in obb2s()) { check_contact(&a, &b)?; check_contact(&b, &a)?; }
    #[test]
    fn obb2_obb2(a in obb2s(), b in obb2s()) { check_contact(&a, &b)?; }
    #[test]
    fn sphere_sphere(a in sphere(), b in sphere()) { check_contact(&a, &b)?; }
    #[test]
    fn sphere_aabb(a in sphere(), b in aabb3s()) { check_contact(&a, &b)?; check_contact(&b, &a)?; }
    #[test]
    fn sphere_obb(a in sphere(), b in obb3s()) { check_contact(&a, &b)?; check_contact(&b, &a)?; }
    #[test]
    fn aabb3_aabb3(a in aabb3s(), b in aabb3s()) { check_contact(&a, &b)?; }
    #[test]
    fn aabb3_obb3(a in aabb3s(), b in obb3s()) { check_contact(&a, &b)?; check_contact(&b, &a)?; }
    #[test]
    fn obb3_obb3(a in obb3s(), b in obb3s()) { check_contact(&a, &b)?; }
    #[test]
    fn capsule2_pairs(c in capsule2s(), d in capsule2s(), s in circle(), b in aabb2s(), o in obb2s(), g in segment2s()) {
        check_contact(&c, &d)?; check_contact(&s, &c)?; check_contact(&c, &s)?; check_contact(&b, &c)?;
        check_contact(&c, &b)?; check_contact(&o, &c)?; check_contact(&c, &o)?; check_contact(&c, &g)?;
    }
    #[test]
    fn capsule3_pairs(c in capsule3s(), d in capsule3s(), s in sphere(), b in aabb3s(), o in obb3s(), g in segment3s()) {
        check_contact(&c, &d)?; check_contact(&s, &c)?; check_contact(&c, &s)?; check_contact(&b, &c)?;
        check_contact(&c, &b)?; check_contact(&o, &c)?; check_contact(&c, &o)?; check_contact(&c, &g)?;
    }
    #[test]
    fn capsule3_triangle_and_plane(c in capsule3s(), t in triangles(), p in planes()) {
        check_contact(&t, &c)?; check_contact(&p, &c)?;
    }
    #[test]
    fn triangle_ball_and_boxes(t in triangles(), s in sphere(), b in aabb3s(), o in obb3s()) {
        check_contact(&t, &s)?; check_contact(&t, &b)?; check_contact(&t, &o)?;
    }
    #[test]
    fn plane_ball_boxes_and_triangle(p in plane3s(), s in sphere(), b in aabb3s(), o in obb3s(), t in triangle3s()) {
        check_contact(&p, &s)?; check_contact(&s, &p)?; check_contact(&p, &b)?; check_contact(&b, &p)?;
        check_contact(&p, &o)?; check_contact(&o, &p)?; check_contact(&p, &t)?; check_contact(&t, &p)?;
    }
    #[test]
    fn triangle_triangle(t in triangles(), u in triangles()) { check_contact(&t, &u)?; }
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

/// The strategies must produce both overlapping and separated pairs.
#[test]
fn strategies_mix_overlapping_and_separated_pairs() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut hits, n) = (0, 1000);
    for _ in 0..n {
        let a = obb3s().new_tree(&mut runner).unwrap().current();
        let b = obb3s().new_tree(&mut runner).unwrap().current();
        hits += usize::from(a.overlaps(&b));
    }
    assert!((200..=800).contains(&hits), "{hits} of {n} pairs overlap");
}

/// The case `capsule2_pairs` found: two zero-radius capsules (segments) that cross at a
/// shallow angle. Overlap, contact and distance must not depend on the argument order.
#[test]
fn capsule2_crossing_segments_are_symmetric() {
    use raybox::{Capsule2, Distance};
    let c = Capsule2::new(Vec2::new(-1.3340487, 0.6720245), Vec2::new(1.6826805, -0.41062155), 0.0);
    let d = Capsule2::new(Vec2::new(0.44748405, 0.029433675), Vec2::new(1.9915029, -0.50065047), 0.0);
    assert_eq!(c.overlaps(&d), d.overlaps(&c), "overlaps");
    assert_eq!(c.distance(&d), d.distance(&c), "distance");
    let (cd, dc) = (c.contact(&d), d.contact(&c));
    assert_eq!(cd.is_some(), c.overlaps(&d), "contact(c, d) vs overlaps: {cd:?}");
    assert_eq!(dc.is_some(), d.overlaps(&c), "contact(d, c) vs overlaps: {dc:?}");
    assert_eq!(cd.map(|k| (-k.normal, k.depth)), dc.map(|k| (k.normal, k.depth)), "flipped contact");
}

/// A segment `c` and a segment `d` crossing it properly at a shallow angle to it (or to
/// its reverse): `d` passes through an inner point of `c` and reaches at least 0.2 beyond
/// it on both sides, so its ends are at least `0.2 sin(1e-3)` from `c`'s line, far more
/// than `f32` rounding can move them.
fn thin_crossing() -> impl Strategy<Value = (Vec2, Vec2, Vec2, Vec2)> {
    (point2(), point2(), 0.2f32..0.8, 1e-3f32..0.05, any::<bool>(), any::<bool>(), 0.2f32..2.0, 0.2f32..2.0)
        .prop_filter("a long enough c", |(p, q, ..)| p.distance(*q) > 0.5)
        .prop_map(|(p, q, t, angle, left, back, before, after)| {
            let x = p.lerp(q, t);
            let angle = if back { core::f32::consts::PI - angle } else { angle };
            let u = Vec2::from_angle(if left { angle } else { -angle }).rotate((q - p).normalize());
            (p, q, x - u * before, x + u * after)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Zero-radius capsules and segments that cross at a shallow angle overlap, in both
    /// orders, with exactly flipped contacts and zero distance (2D, and 3D in z = 0).
    #[test]
    fn thin_crossings_overlap_in_both_orders((p, q, r, s) in thin_crossing(), radius in prop_oneof![Just(0.0f32), 0.0f32..1.0]) {
        use raybox::{Capsule2, Capsule3, Distance, Segment2, Segment3};
        let (c, d) = (Capsule2::new(p, q, 0.0), Capsule2::new(r, s, radius));
        prop_assert!(c.overlaps(&d) && d.overlaps(&c), "{:?} {:?}", c, d);
        prop_assert_eq!((c.distance(&d), d.distance(&c)), (0.0, 0.0));
        check_contact(&c, &d)?;
        check_contact(&d, &c)?;
        let g = Segment2::new(r, s);
        prop_assert!(c.overlaps(&g) && g.overlaps(&c));
        prop_assert_eq!(Segment2::new(p, q).distance(&g), 0.0);
        check_contact(&c, &g)?;
        let e3 = |v: Vec2| v.extend(0.0);
        let (c3, d3) = (Capsule3::new(e3(p), e3(q), 0.0), Capsule3::new(e3(r), e3(s), radius));
        prop_assert!(c3.overlaps(&d3) && d3.overlaps(&c3));
        prop_assert_eq!((c3.distance(&d3), d3.distance(&c3)), (0.0, 0.0));
        check_contact(&c3, &d3)?;
        let g3 = Segment3::new(e3(r), e3(s));
        prop_assert_eq!(Segment3::new(e3(p), e3(q)).distance(&g3), 0.0);
        check_contact(&c3, &g3)?;
    }
}

// ---------------------------------------------------------------------------------------
// Coordinates near f32::MAX and boxes far larger than the contact
// ---------------------------------------------------------------------------------------

/// A ball and an oriented box whose centres are `2 f32::MAX` apart: the `f32` move into
/// the box frame overflows (`-MAX - MAX = -inf`, then `0 · inf = NaN` in the rotation) and
/// the contact came out NaN, or `Some` for shapes far apart. In `f64` the answers are
/// exact: here the ball reaches exactly to the box's face `x = 0` (touching, depth 0), and
/// a unit ball at the far corner of the coordinates is apart.
#[test]
fn ball_and_oriented_box_near_f32_max() {
    let m = f32::MAX;
    for q in [Quat::IDENTITY, Quat::from_xyzw(1.0, 0.0, 0.0, 1.0)] {
        // Spans x in [0, 2 MAX] (valid: a finite centre and half extents), |y|, |z| <= 1.
        let wall = Obb3::new(Vec3::new(m, 0.0, 0.0), Vec3::new(m, 1.0, 1.0), q);
        let ball = Sphere::new(Vec3::new(-m, 0.0, 0.0), m);
        assert!(ball.overlaps(&wall) && wall.overlaps(&ball), "{q}");
        let c = ball.contact(&wall).expect("touching");
        assert_eq!((c.normal, c.depth, c.points.as_slice()), (Vec3::X, 0.0, &[Vec3::ZERO][..]), "{q}");
        assert_eq!(wall.contact(&ball).map(|c| c.normal), Some(Vec3::NEG_X));
        assert_eq!(ball.distance(&wall), 0.0);
        let far = Sphere::new(Vec3::splat(-m), 1.0);
        let corner_box = Obb3::new(Vec3::splat(0.75 * m), Vec3::ONE, q);
        assert!(far.contact(&corner_box).is_none() && !far.overlaps(&corner_box));
    }
    let wall = Obb2::new(Vec2::new(m, 0.0), Vec2::new(m, 1.0), 0.0);
    let disc = Circle::new(Vec2::new(-m, 0.5), m);
    let c = disc.contact(&wall).expect("touching");
    assert_eq!((c.normal, c.depth, c.points.as_slice()), (Vec2::X, 0.0, &[Vec2::new(0.0, 0.5)][..]));
    assert!(
        Circle::new(Vec2::splat(-m), 1.0)
            .contact(&Obb2::new(Vec2::splat(0.75 * m), Vec2::ONE, 0.5))
            .is_none()
    );
}

/// An AABB spanning `[1, 1e10]`: the box–OBB contact and overlap take it from its corners
/// (its `f32` centre and half extents, `5e9 ± 5e9`, put the near face at 0). An OBB
/// reaching 0.1 past the face `x = 1` is 0.1 deep; one ending at 0.9 is apart. (The depth
/// is a difference of projections measured from the centre `5e9`, where `f64` rounds by
/// `5e-7`: hence the tolerance of `4e-6`.)
#[test]
fn aabb_spanning_1_to_1e10_against_small_oriented_boxes() {
    let big = Aabb3::new(Vec3::ONE, Vec3::splat(1e10));
    let deep = Obb3::new(Vec3::new(0.9, 2.0, 2.0), Vec3::splat(0.2), Quat::IDENTITY);
    let want = f64::from(0.9f32) + f64::from(0.2f32) - 1.0;
    let c = big.contact(&deep).expect("overlapping");
    assert!((f64::from(c.depth) - want).abs() < 4e-6 && c.normal == Vec3::NEG_X, "{c:?}, want {want}");
    for p in &c.points {
        assert!((f64::from(p.x) - (1.0 + want / 2.0)).abs() < 4e-6, "{p}: midway between the faces");
    }
    let apart = Obb3::new(Vec3::new(0.7, 2.0, 2.0), Vec3::splat(0.2), Quat::IDENTITY);
    assert!(big.contact(&apart).is_none() && !apart.overlaps(&big));
    let big2 = Aabb2::new(Vec2::ONE, Vec2::splat(1e10));
    let deep2 = Obb2::new(Vec2::new(0.9, 2.0), Vec2::splat(0.2), 0.0);
    let c = big2.contact(&deep2).expect("overlapping");
    assert!((f64::from(c.depth) - want).abs() < 4e-6 && c.normal == Vec2::NEG_X, "{c:?}");
    assert!(big2.contact(&Obb2::new(Vec2::new(0.7, 2.0), Vec2::splat(0.2), 0.0)).is_none());
}

/// Capsules next to the face `x = 0` of an oriented box spanning `[0, 2^34]` or
/// `[0, 2^41]`: a core `g` from the face (radius 0.5) is `0.5 - g` deep, one `g + 0.5` away
/// is apart by `g` and a sweep along `+x` meets the box at `t = g`. GJK on the whole box
/// measured its tolerances against the far corners: a core gap below about `1e-12` of them
/// read as contact (depth 0.5, and at `2^41` the apart capsule overlapped, at distance 0 and
/// `t = 0`); on the box cut down near the capsule the gaps are exact.
#[test]
fn capsules_beside_a_huge_oriented_box() {
    use raybox::Sweep;
    for (e, g) in [(33, 0.005f32), (40, 0.1)] {
        let h = 2f32.powi(e);
        for q in [Quat::IDENTITY, Quat::from_xyzw(0.0, 1.0, 0.0, 1.0)] {
            let big = Obb3::new(Vec3::splat(h), Vec3::splat(h), q);
            let at = |x: f32| Capsule3::new(Vec3::new(x, 3.0, 3.0), Vec3::new(x, 3.0, 9.0), 0.5);
            let c = big.contact(&at(-g)).expect("overlapping");
            let want = 0.5 - f64::from(g);
            let n_err = (c.normal - Vec3::NEG_X).length();
            assert!((f64::from(c.depth) - want).abs() < 1e-7 && n_err < 1e-6, "2^{e} {q}: {c:?}");
            let apart = at(-g - 0.5);
            let want = f64::from(-g - 0.5).abs() - 0.5; // g, as rounded in the capsule's x
            assert!(big.contact(&apart).is_none() && !big.overlaps(&apart), "2^{e} {q}");
            assert!((f64::from(big.distance(&apart)) - want).abs() < 1e-7, "2^{e} {q}");
            let hit = apart.sweep(Vec3::X, &big).expect("reaches the face");
            let n_err = (hit.normal - Vec3::NEG_X).length();
            assert!((f64::from(hit.t) - want).abs() < 1e-7 && n_err < 1e-6, "2^{e} {q}: {hit:?}");
        }
    }
}

/// An AABB one `f32` ulp wide at `1e10` (`[1e10, 1e10 + 1024]` on x): its `f32` centre
/// `1e10 + 512` rounds to `1e10 + 1024`, a box shifted by half its width. An OBB 424 past
/// its face is apart, though the shifted box overlaps it by 88; one reaching 200 into it
/// from below overlaps, though it falls 312 short of the shifted box. The `f32` filter of
/// the separating-axis test, measuring its bound against the boxes' sizes (a few thousand),
/// took the shifted box's answers as certain; its bound now also covers the centre's
/// rounding (`2⁻²² |c|`), and the exact `f64` test, on the AABB's corners, decides.
#[test]
fn aabb_whose_f32_centre_rounds_against_an_obb() {
    let aabb = Aabb3::new(Vec3::new(1e10, 0.0, 0.0), Vec3::new(1e10 + 1024.0, 1.0, 1.0));
    assert_eq!(aabb.center().x, 1e10 + 1024.0); // the rounding this test is about
    for q in [Quat::IDENTITY, Quat::from_xyzw(0.0, 0.0, 1.0, 1.0)] {
        let obb = Obb3::new(Vec3::new(1e10 + 2048.0, 0.5, 0.5), Vec3::splat(600.0), q);
        assert!(!aabb.overlaps(&obb) && !obb.overlaps(&aabb) && aabb.contact(&obb).is_none(), "{q}");
        assert!((aabb.distance(&obb) - 424.0).abs() < 1e-3, "{q}: {}", aabb.distance(&obb));
        let touching = Obb3::new(Vec3::new(1e10 + 2048.0, 0.5, 0.5), Vec3::splat(1024.0), q);
        let c = aabb.contact(&touching).expect("touching at x = 1e10 + 1024");
        assert!(c.depth == 0.0 && c.normal == Vec3::X, "{q}: {c:?}");
        // From below: 200 into the box, though 312 short of the shifted one.
        let into = Obb3::new(Vec3::new(1e10 - 1024.0, 0.5, 0.5), Vec3::splat(1224.0), q);
        let c = aabb.contact(&into).expect("200 deep");
        assert!(aabb.overlaps(&into) && c.depth == 200.0 && c.normal == Vec3::NEG_X, "{q}: {c:?}");
    }
    let aabb2 = Aabb2::new(Vec2::new(1e10, 0.0), Vec2::new(1e10 + 1024.0, 1.0));
    let obb2 = Obb2::new(Vec2::new(1e10 + 2048.0, 0.5), Vec2::splat(600.0), 0.0);
    assert!(!aabb2.overlaps(&obb2) && aabb2.contact(&obb2).is_none());
}

// ---------------------------------------------------------------------------------------
// Triangle against triangle
// ---------------------------------------------------------------------------------------

/// How far `b` must move along `d` or `-d` (unit) to leave `a`'s projection on `d`, in
/// `f64`: the overlap of the two projections (negative when `d` separates them).
fn projection_overlap(a: &Triangle3, b: &Triangle3, d: DVec3) -> f64 {
    let extent = |t: &Triangle3| {
        t.vertices()
            .iter()
            .map(|v| v.as_dvec3().dot(d))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
    };
    let ((a_lo, a_hi), (b_lo, b_hi)) = (extent(a), extent(b));
    (a_hi - b_lo).min(b_hi - a_lo)
}

/// The largest coordinate of the pair, in magnitude: the scale of its rounding.
fn coordinate_scale(a: &Triangle3, b: &Triangle3) -> f32 {
    a.vertices().iter().chain(&b.vertices()).map(|v| v.abs().max_element()).fold(0.0, f32::max)
}

/// `b` moved by `v`, or `None` when the move rounds it to a degenerate triangle.
fn moved(b: &Triangle3, v: Vec3) -> Option<Triangle3> {
    let [p, q, r] = b.vertices();
    Triangle3::try_new(p + v, q + v, r + v).ok()
}

/// A unit direction from three numbers in `[-1, 1]` (`None` when too short to normalise).
fn unit(x: [f32; 3]) -> Option<DVec3> {
    let d = Vec3::from(x).as_dvec3();
    (d.length() > 0.1).then(|| d.normalize())
}

/// Every property of the contact of a triangle pair. `dirs`: random directions for the
/// minimality check, and small random tilts of the normal.
fn check_triangle_pair(a: &Triangle3, b: &Triangle3, dirs: &[[f32; 3]]) -> Result<(), TestCaseError> {
    let contact = a.contact(b);
    prop_assert_eq!(contact.is_some(), a.overlaps(b), "contact must be Some exactly when overlapping");
    let Some(c) = contact else { return Ok(()) };
    let back = b.contact(a);
    prop_assert_eq!(back, Some(c.flipped()), "the reverse contact flips the normal, keeps the rest");
    let (n, depth) = (c.normal, c.depth);
    prop_assert!(n.is_finite() && (n.length() - 1.0).abs() < 1e-6, "normal not unit: {:?}", c);
    prop_assert!(depth.is_finite() && depth >= 0.0, "{:?}", c);
    let scale = coordinate_scale(a, b);
    // Far above the f32 rounding of the moved vertices (a few 6e-8 of the coordinates).
    let tiny = 1e-5 * scale;
    // Moving b by the depth (plus a hair) separates the pair, exactly.
    if let Some(out) = moved(b, n * (depth * (1.0 + 1e-4) + tiny)) {
        prop_assert!(!a.overlaps(&out), "moving by depth + ε must separate: {:?}", c);
    }
    // Moving it less does not, where the depth is well above the rounding.
    if depth > 1e-3 * scale
        && let Some(inside) = moved(b, n * (depth * (1.0 - 1e-3)))
    {
        prop_assert!(a.overlaps(&inside), "moving by depth - ε must not separate: {:?}", c);
    }
    // Minimal: no sampled direction needs a shorter push; the tilted normals check that
    // the normal is a local minimum, the random directions that it is the global one.
    let floor = f64::from(depth) * (1.0 - 1e-4) - 1e-6 * f64::from(scale);
    let nd = n.as_dvec3();
    for (k, x) in dirs.iter().enumerate() {
        let Some(r) = unit(*x) else { continue };
        let d = if k % 2 == 0 { r } else { (nd + r * (1e-3 * (k as f64))).normalize() };
        let overlap = projection_overlap(a, b, d);
        prop_assert!(overlap >= floor, "along {} the push is {} < depth: {:?}", d, overlap, c);
    }
    // The points: in the two boxes, and within depth / 2 of both triangles.
    prop_assert!(!c.points.is_empty() && c.points.len() <= 4);
    let (lo, hi) = {
        let (ba, bb) = (a.to_aabb(), b.to_aabb());
        (ba.min().min(bb.min()) - Vec3::splat(tiny), ba.max().max(bb.max()) + Vec3::splat(tiny))
    };
    for p in &c.points {
        prop_assert!(
            p.is_finite() && p.cmpge(lo).all() && p.cmple(hi).all(),
            "point {} outside the boxes: {:?}",
            p,
            c
        );
        let (da, db) = (a.distance_to_point(*p), b.distance_to_point(*p));
        let tol = depth / 2.0 + tiny;
        prop_assert!(da <= tol && db <= tol, "point {} is {} from a and {} from b: {:?}", p, da, db, c);
    }
    Ok(())
}

/// A triangle from three points, or `None` for a degenerate one.
fn tri3(p: Vec3, q: Vec3, r: Vec3) -> Option<Triangle3> {
    Triangle3::try_new(p, q, r).ok()
}

/// Points of a triangle's plane, `a + s (b - a) + t (c - a)`, lifted off it by `h` times
/// the triangle's unit normal.
fn in_plane(t: &Triangle3, s: f32, u: f32, h: f32) -> Vec3 {
    let [a, b, c] = t.vertices();
    a + (b - a) * s + (c - a) * u + t.unit_normal() * h
}

/// Offsets off a plane: exactly on it, or a hair, or a visible amount to either side.
fn lift() -> impl Strategy<Value = f32> {
    prop_oneof![Just(0.0f32), -1e-6f32..1e-6, -1e-4f32..1e-4, -1e-2f32..1e-2]
}

/// Pairs of triangles in a box of size 2 about the origin: random, nearly coplanar (each
/// vertex of the second near the first's plane), and nearly touching (a corner or an edge
/// of the second near the first's face or edge, the rest on one side).
fn triangle_pair() -> impl Strategy<Value = (Triangle3, Triangle3)> {
    let t = || (point3(), point3(), point3()).prop_filter_map("degenerate", |(p, q, r)| tri3(p, q, r));
    let random = (t(), t()).boxed();
    let coplanar = (t(), prop::array::uniform3((-0.5f32..1.5, -0.5f32..1.5, lift())))
        .prop_filter_map("degenerate", |(a, v)| {
            let [p, q, r] = v.map(|(s, u, h)| in_plane(&a, s, u, h));
            Some((a, tri3(p, q, r)?))
        })
        .boxed();
    let flat = (prop::array::uniform3(point2()), prop::array::uniform3(point2()), -2.0f32..2.0)
        .prop_filter_map("degenerate", |(x, y, z)| {
            let up = |p: Vec2| p.extend(z);
            Some((tri3(up(x[0]), up(x[1]), up(x[2]))?, tri3(up(y[0]), up(y[1]), up(y[2]))?))
        })
        .boxed();
    let corner = (t(), 0.0f32..1.0, 0.0f32..1.0, lift(), point3(), point3())
        .prop_filter_map("degenerate or not on one side", |(a, s, u, h, x, y)| {
            let (s, u) = if s + u > 1.0 { (1.0 - s, 1.0 - u) } else { (s, u) };
            let p = in_plane(&a, s, u, h);
            // The other corners on the normal's side (or, for odd lifts, the other).
            let n = a.unit_normal() * if h.to_bits() % 2 == 0 { 1.0 } else { -1.0 };
            let away = |v: Vec3| v + n * (v.dot(n).abs() - v.dot(n) + 0.05);
            Some((a, tri3(p, p + away(x), p + away(y))?))
        })
        .boxed();
    let edge = (t(), 0usize..3, 0.0f32..1.0, lift(), point3(), point3())
        .prop_filter_map("degenerate", |(a, k, s, h, w, z)| {
            let v = a.vertices();
            let p = v[k].lerp(v[(k + 1) % 3], s) + a.unit_normal() * h;
            // An edge of b through (or near) p, and b's third corner out of a's plane.
            Some((a, tri3(p - w * 0.5, p + w * 0.5, p + z)?))
        })
        .boxed();
    prop_oneof![random, coplanar, flat, corner, edge]
}

/// A pair at another scale and place: scaled by `10^e`, moved by `offset` times that.
fn placed((a, b): (Triangle3, Triangle3), e: i32, offset: Vec3) -> Option<(Triangle3, Triangle3)> {
    let s = 10f32.powi(e);
    let f = |t: Triangle3| {
        let [p, q, r] = t.vertices().map(|v| (v + offset) * s);
        tri3(p, q, r)
    };
    Some((f(a)?, f(b)?))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn triangle_triangle_contact_is_the_least_push(
        pair in triangle_pair(),
        e in prop_oneof![Just(0), Just(-3), Just(3), Just(-20), Just(20)],
        offset in prop_oneof![Just(Vec3::ZERO), Just(Vec3::new(100.0, -30.0, 7.0))],
        dirs in prop::array::uniform32(prop::array::uniform3(-1.0f32..1.0)),
    ) {
        let Some((a, b)) = placed(pair, e, offset) else { return Ok(()) };
        check_triangle_pair(&a, &b, &dirs)?;
        check_triangle_pair(&b, &a, &dirs)?;
        // Another vertex order of each: the same contact, up to rounding.
        let [p, q, r] = b.vertices();
        let b2 = Triangle3::new(q, r, p);
        prop_assert_eq!(a.contact(&b).is_some(), a.contact(&b2).is_some());
        if let (Some(x), Some(y)) = (a.contact(&b), a.contact(&b2)) {
            let tol = 1e-5 * coordinate_scale(&a, &b);
            prop_assert!((x.depth - y.depth).abs() <= tol, "{:?} vs {:?}", x, y);
        }
    }
}

/// The strategies give overlapping and separated pairs, touching ones (depth zero) and
/// deep ones, of every kind of axis.
#[test]
fn triangle_pairs_cover_the_cases() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut some, mut zero, mut deep, n) = (0, 0, 0, 2000);
    for _ in 0..n {
        let (a, b) = triangle_pair().new_tree(&mut runner).unwrap().current();
        if let Some(c) = a.contact(&b) {
            some += 1;
            zero += usize::from(c.depth == 0.0);
            deep += usize::from(c.depth > 0.05);
        }
    }
    assert!((n / 5..=n * 4 / 5).contains(&some), "{some} of {n} pairs overlap");
    assert!(zero > n / 50 && deep > n / 20, "{zero} touching and {deep} deep pairs of {some}");
}

// ---------------------------------------------------------------------------------------
// Segments: random pairs, pairs built to meet or touch exactly, and the least push
// ---------------------------------------------------------------------------------------

/// 64 unit directions around the circle.
fn directions2() -> Vec<Vec2> {
    (0..64).map(|k| Vec2::from_angle(k as f32 * core::f32::consts::TAU / 64.0)).collect()
}

/// 128 unit directions spread over the sphere (a Fibonacci lattice), and the six axes.
fn directions3() -> Vec<Vec3> {
    let golden = core::f32::consts::PI * (3.0 - 5f32.sqrt());
    let lattice = (0..128).map(|k| {
        let z = 1.0 - (k as f32 + 0.5) / 64.0;
        let r = (1.0 - z * z).sqrt();
        let (s, c) = (k as f32 * golden).sin_cos();
        Vec3::new(r * c, r * s, z)
    });
    lattice.chain([Vec3::X, Vec3::Y, Vec3::Z, Vec3::NEG_X, Vec3::NEG_Y, Vec3::NEG_Z]).collect()
}

/// The depth is the least push: moving the second shape by `depth - ε` along any of `dirs`
/// leaves the pair overlapping (where the depth is well above `ε`).
fn check_least_push<A, B, V, C>(a: &A, b: &B, dirs: &[V]) -> Result<(), TestCaseError>
where
    A: Contact<B, Output = C> + Overlaps<B>,
    B: Translate<V>,
    C: ContactParts<V> + core::fmt::Debug,
    V: Copy + core::fmt::Debug + core::ops::Mul<f32, Output = V>,
{
    let Some(c) = a.contact(b) else { return Ok(()) };
    let (_, depth, _) = c.parts();
    if depth <= 2.0 * EPS {
        return Ok(());
    }
    for &u in dirs {
        prop_assert!(
            a.overlaps(&b.moved(u * (depth - EPS))),
            "moving along {:?} by depth - ε separates: the depth is not the least push: {:?}",
            u,
            c
        );
    }
    Ok(())
}

/// `check_contact` in both orders, and the least push in both orders.
fn check_segment_pair<A, B, V, C>(a: &A, b: &B, dirs: &[V]) -> Result<(), TestCaseError>
where
    A: Contact<B, Output = C> + Overlaps<B> + ClosestPoint<Point = V> + Translate<V>,
    B: Contact<A, Output = C> + Overlaps<A> + ClosestPoint<Point = V> + Translate<V>,
    C: ContactParts<V> + core::fmt::Debug,
    V: Copy + core::fmt::Debug + core::ops::Mul<f32, Output = V> + core::ops::Neg<Output = V> + PartialEq,
    V: Into<Vec3Like>,
{
    check_contact(a, b)?;
    check_contact(b, a)?;
    check_least_push(a, b, dirs)?;
    check_least_push(b, a, dirs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn segment2_pairs(g in segment2s(), h in segment2s(), c in circle(), b in aabb2s(), o in obb2s()) {
        let dirs = directions2();
        check_segment_pair(&g, &h, &dirs)?;
        check_segment_pair(&c, &g, &dirs)?;
        check_segment_pair(&b, &g, &dirs)?;
        check_segment_pair(&o, &g, &dirs)?;
    }

    #[test]
    fn segment3_pairs(g in segment3s(), h in segment3s(), s in sphere(), b in aabb3s(), o in obb3s(), t in triangles(), p in planes()) {
        let dirs = directions3();
        check_segment_pair(&g, &h, &dirs)?;
        check_segment_pair(&s, &g, &dirs)?;
        check_segment_pair(&b, &g, &dirs)?;
        check_segment_pair(&o, &g, &dirs)?;
        check_segment_pair(&t, &g, &dirs)?;
        check_segment_pair(&p, &g, &dirs)?;
    }
}

/// A grid point with integer coordinates in `[-n, n]`.
fn ipt3(n: i32) -> impl Strategy<Value = Vec3> {
    (-n..=n, -n..=n, -n..=n).prop_map(|(x, y, z)| Vec3::new(x as f32, y as f32, z as f32))
}

/// A quarter `k / 4` (exact in `f32`).
fn quarter(k: i32) -> f32 {
    k as f32 * 0.25
}

/// Two segments that meet at `x`, a point of the first at a quarter of the way between its
/// ends (an end, or inside), the second along `w` (or along the first: collinear) from
/// `x - w a/4` to `x + w b/4`: crossing, a T, an L, collinear and sharing a piece, or a
/// point on a segment. Every coordinate is a multiple of 1/16, exact.
fn meeting<V>(p: V, q: V, j: i32, w: V, a: i32, b: i32, collinear: bool) -> (V, V, V, V)
where
    V: Copy + core::ops::Add<Output = V> + core::ops::Sub<Output = V> + core::ops::Mul<f32, Output = V>,
{
    let x = p + (q - p) * quarter(j);
    let w = if collinear { q - p } else { w };
    (p, q, x - w * quarter(a), x + w * quarter(b))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Segments that meet exactly (in the plane and in space) overlap, have a contact in
    /// both orders (in space of depth zero: they only touch), and the contact is the least
    /// push; moved off by its normal they are apart.
    #[test]
    fn meeting_segments_touch_or_cross(
        (p, q, w) in (ipt3(4), ipt3(4), ipt3(3)), (j, a, b) in (0..=4, 0..=4, 0..=4), collinear in prop::bool::weighted(0.2),
    ) {
        let (p1, q1, p2, q2) = meeting(p.truncate(), q.truncate(), j, w.truncate(), a, b, collinear);
        // (A segment against itself has no reverse to flip to.)
        prop_assume!((p1, q1) != (p2, q2));
        let (g, h) = (raybox::Segment2::new(p1, q1), raybox::Segment2::new(p2, q2));
        prop_assert!(g.overlaps(&h) && h.overlaps(&g), "{:?} {:?}", g, h);
        check_segment_pair(&g, &h, &directions2())?;
        let (p1, q1, p2, q2) = meeting(p, q, j, w, a, b, collinear);
        let (g, h) = (raybox::Segment3::new(p1, q1), raybox::Segment3::new(p2, q2));
        prop_assert!(g.overlaps(&h) && h.overlaps(&g), "{:?} {:?}", g, h);
        let k = g.contact(&h).expect("meeting segments touch");
        prop_assert_eq!(k.depth, 0.0, "segments in space only touch: {:?}", k);
        prop_assert!(k.normal.dot(q1 - p1).abs() <= 1e-5 * (q1 - p1).length(), "normal not across g: {:?}", k);
        prop_assert!(k.normal.dot(q2 - p2).abs() <= 1e-5 * (q2 - p2).length(), "normal not across h: {:?}", k);
        check_segment_pair(&g, &h, &directions3())?;
    }
}

/// Offsets of integer length 5 in the plane, with an integer perpendicular.
const PYTHAGOREAN2: [(Vec2, Vec2); 4] = [
    (Vec2::new(3.0, 4.0), Vec2::new(-4.0, 3.0)),
    (Vec2::new(4.0, -3.0), Vec2::new(3.0, 4.0)),
    (Vec2::new(5.0, 0.0), Vec2::new(0.0, 1.0)),
    (Vec2::new(0.0, -5.0), Vec2::new(1.0, 0.0)),
];

/// An offset of integer length 3 in space (signs and order from `k`), with an integer
/// perpendicular.
fn pythagorean3(k: usize) -> (Vec3, Vec3) {
    let o = [
        Vec3::new(1.0, 2.0, 2.0),
        Vec3::new(2.0, 1.0, 2.0),
        Vec3::new(2.0, 2.0, 1.0),
        Vec3::new(0.0, 0.0, 3.0),
    ][k % 4];
    let sign = Vec3::new(
        if k & 4 != 0 { -1.0 } else { 1.0 },
        if k & 8 != 0 { -1.0 } else { 1.0 },
        if k & 16 != 0 { -1.0 } else { 1.0 },
    );
    let o = o * sign;
    (o, perpendicular(o))
}

/// An integer vector perpendicular to the non-zero integer vector `v`: `v` crossed with
/// the axis of its smallest component (not parallel to `v`).
fn perpendicular(v: Vec3) -> Vec3 {
    let axis = if v.x.abs() <= v.y.abs() && v.x.abs() <= v.z.abs() {
        Vec3::X
    } else if v.y.abs() <= v.z.abs() {
        Vec3::Y
    } else {
        Vec3::Z
    };
    v.cross(axis)
}

/// The ways a segment can leave a point `x` of a shape's boundary with outward direction
/// `out` and a tangent `along`: straight out, along the boundary (on both sides of `x`),
/// slanting out, or in through `x` (reaching into the shape from outside, or ending at `x`).
fn leaving<V>(x: V, out: V, along: V, way: usize, (a, b): (i32, i32)) -> (V, V)
where
    V: Copy + core::ops::Add<Output = V> + core::ops::Sub<Output = V> + core::ops::Mul<f32, Output = V>,
{
    let (a, b) = (quarter(a + 1), quarter(b));
    match way % 4 {
        0 => (x, x + out * a),
        1 => (x - along * b, x + along * a),
        2 => (x, x + (out + along) * a),
        _ => (x - out * a, x + out * b),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Segments built to touch balls, boxes (axis-aligned, and the same box as an oriented
    /// box turned by quarter turns), triangles and planes exactly, or to enter them: the
    /// overlap tests say they overlap, the contact is `Some` with depth zero when the
    /// segment only touches (it does not enter: ways 0 to 2), and every contact property
    /// holds in both orders.
    #[test]
    fn segments_touching_other_shapes(
        c in ipt3(3), k in 0usize..32, way in 0usize..4, ab in (0..=4, 0..=4),
        (lo, size) in (ipt3(3), (1..=4, 1..=4, 1..=4)), face in (0usize..3, any::<bool>()), uv in (0..=4, 0..=4),
        tri in (ipt3(3), ipt3(3), ipt3(3)), bary in (0..=4i32, 0..=4i32), n in ipt3(2), w in ipt3(2),
    ) {
        let (dirs2, dirs3) = (directions2(), directions3());
        let touching = way < 3;
        // Circles and spheres: the offsets of length 5 and 3 from the centre.
        let (o, t) = PYTHAGOREAN2[k % 4];
        let o = if k & 4 != 0 { -o } else { o };
        let (p, q) = leaving(c.truncate() + o, o, t, way, ab);
        let (disc, s) = (Circle::new(c.truncate(), 5.0), raybox::Segment2::new(p, q));
        prop_assert!(disc.overlaps(&s), "{:?} {:?}", disc, s);
        check_touch(&disc, &s, touching)?;
        check_segment_pair(&disc, &s, &dirs2)?;
        let (o, t) = pythagorean3(k);
        let (p, q) = leaving(c + o, o, t, way, ab);
        let (ball, s) = (Sphere::new(c, 3.0), raybox::Segment3::new(p, q));
        prop_assert!(ball.overlaps(&s), "{:?} {:?}", ball, s);
        check_touch(&ball, &s, touching)?;
        check_segment_pair(&ball, &s, &dirs3)?;

        // Boxes: a point of face `axis` (a corner, an edge or the face, on the quarter grid).
        let hi = lo + Vec3::new(size.0 as f32, size.1 as f32, size.2 as f32);
        let (axis, up) = face;
        let mut x = lo + (hi - lo) * Vec3::new(quarter(uv.0), quarter(uv.1), 0.5);
        x[axis] = if up { hi[axis] } else { lo[axis] };
        let mut out = Vec3::ZERO;
        out[axis] = if up { 1.0 } else { -1.0 };
        let mut along = w;
        along[axis] = 0.0;
        if along == Vec3::ZERO {
            along[(axis + 1) % 3] = 1.0;
        }
        let (p, q) = leaving(x, out, along, way, ab);
        let (b, s) = (Aabb3::new(lo, hi), raybox::Segment3::new(p, q));
        prop_assert!(b.overlaps(&s), "{:?} {:?}", b, s);
        check_touch(&b, &s, touching)?;
        check_segment_pair(&b, &s, &dirs3)?;
        // The same box as an oriented box whose axes are the world's, permuted and signed.
        let turn = glam::Mat3::from_cols(Vec3::Y, Vec3::NEG_Z, Vec3::NEG_X);
        let half = turn.transpose() * b.half_extents();
        let o = Obb3::try_from_matrix(b.center(), half.abs(), turn).unwrap();
        prop_assert!(o.overlaps(&s), "{:?} {:?}", o, s);
        check_touch(&o, &s, touching)?;
        check_segment_pair(&o, &s, &dirs3)?;
        // In the plane z = 0.
        let (b2, s2) = (Aabb2::new(lo.truncate(), hi.truncate()), raybox::Segment2::new(p.truncate(), q.truncate()));
        if axis < 2 {
            prop_assert!(b2.overlaps(&s2), "{:?} {:?}", b2, s2);
            check_touch(&b2, &s2, touching)?;
        }
        let h2 = b2.half_extents();
        let o2 = Obb2::try_from_matrix(b2.center(), Vec2::new(h2.y, h2.x), glam::Mat2::from_cols(Vec2::Y, Vec2::NEG_X)).unwrap();
        prop_assert_eq!(o2.overlaps(&s2), b2.overlaps(&s2));
        check_segment_pair(&b2, &s2, &dirs2)?;
        check_segment_pair(&o2, &s2, &dirs2)?;

        // Triangles: a point of the face, an edge or a vertex (quarter barycentrics), left
        // along the normal, in the plane, or through it.
        let (ta, tb, tc) = tri;
        let normal = (tb - ta).cross(tc - ta);
        prop_assume!(normal != Vec3::ZERO);
        let (i, j) = (bary.0, bary.1.min(4 - bary.0));
        let x = ta + (tb - ta) * quarter(i) + (tc - ta) * quarter(j);
        let (p, q) = leaving(x, normal * 0.0625, (tb - ta) * 0.25, way, ab);
        let (t, s) = (Triangle3::new(ta, tb, tc), raybox::Segment3::new(p, q));
        prop_assert!(t.overlaps(&s), "{:?} {:?}", t, s);
        // (Along the plane from an edge or a vertex, the segment may cross the triangle:
        // still touching, the plane being only a surface.)
        check_touch(&t, &s, touching)?;
        check_segment_pair(&t, &s, &dirs3)?;

        // Planes through `c` with normal `n`: ends on the plane.
        prop_assume!(n != Vec3::ZERO);
        let plane = Plane::from_point_normal(c, n);
        let tangent = if n.cross(w) == Vec3::ZERO { perpendicular(n) } else { n.cross(w) };
        let (p, q) = leaving(c + tangent * quarter(ab.1), n, tangent, way, ab);
        let s = raybox::Segment3::new(p, q);
        prop_assert!(plane.overlaps(&s), "{:?} {:?}", plane, s);
        check_touch(&plane, &s, touching)?;
        check_segment_pair(&plane, &s, &dirs3)?;
    }
}

/// A segment that only touches a shape has a contact of depth zero (up to `f32` rounding
/// of the kernel's `f64` arithmetic), in both orders.
fn check_touch<A, S, C, V>(a: &A, s: &S, touching: bool) -> Result<(), TestCaseError>
where
    A: Contact<S, Output = C> + core::fmt::Debug,
    S: Contact<A, Output = C> + core::fmt::Debug,
    C: ContactParts<V> + core::fmt::Debug,
{
    let (k, back) = (a.contact(s), s.contact(a));
    prop_assert!(k.is_some() && back.is_some(), "no contact: {:?} {:?}", a, s);
    if touching {
        let (depth, back_depth) = (k.unwrap().parts().1, back.unwrap().parts().1);
        prop_assert!(
            depth <= 1e-6 && back_depth <= 1e-6,
            "touching, depth {} / {}: {:?} {:?}",
            depth,
            back_depth,
            a,
            s
        );
    }
    Ok(())
}

/// A ball whose centre is a few `1e-8` from a long segment far from the origin (coordinates
/// near `1e6`, where `f64` resolves `2e-10`): the contact normal points from the segment
/// to the centre, as the exact geometry says. (Cores that close were once read as
/// touching, and the normal was any direction across the segment: about half the time it
/// pushed the ball through to the other side.) The same in 2D, with the `z` dropped.
#[test]
fn a_ball_a_hair_from_a_long_segment_far_out_keeps_its_side() {
    let cases: [([f32; 3], [f32; 3], [f32; 3]); 3] = [
        (
            [1000850.4, 1000947.06, 1000852.75],
            [1212641.6, 1116313.4, 1000852.75],
            [1152484.3, 1083544.6, 1000852.75],
        ),
        (
            [1000619.06, 1000357.44, 1000650.5],
            [1238732.9, 1223652.0, 1000650.5],
            [1029057.2, 1027025.7, 1000650.5],
        ),
        (
            [1000710.7, 1000266.0, 1000476.25],
            [1354543.9, 1179769.1, 1000476.25],
            [1067763.3, 1034282.44, 1000476.25],
        ),
    ];
    for (p, q, c) in cases {
        let (p, q, c) = (Vec3::from_array(p), Vec3::from_array(q), Vec3::from_array(c));
        // The exact direction, in f64 (the foot of c on the segment's line, inside it).
        let (pd, d, cd) = (p.as_dvec3(), (q - p).as_dvec3(), c.as_dvec3());
        let foot = pd + d * ((cd - pd).dot(d) / d.length_squared());
        let gap = cd - foot;
        assert!(gap.length() > 1e-8 && gap.length() < 1e-7, "{}", gap.length());
        let toward = gap.normalize();
        let ball = Sphere::new(c, 1.0);
        for k in [Segment3::new(p, q).contact(&ball), Capsule3::new(p, q, 0.5).contact(&ball)] {
            let k = k.expect("overlapping");
            assert!(k.normal.as_dvec3().dot(toward) > 0.999, "{:?} against {toward}", k.normal);
        }
        let back = ball.contact(&Segment3::new(p, q)).expect("overlapping");
        assert!(back.normal.as_dvec3().dot(toward) < -0.999, "{:?}", back.normal);
        let flat = |v: Vec3| v.truncate();
        let circle = Circle::new(flat(c), 1.0);
        let k = Segment2::new(flat(p), flat(q)).contact(&circle).expect("overlapping");
        let toward2 = toward.truncate().normalize();
        assert!(k.normal.as_dvec2().dot(toward2) > 0.999, "{:?} against {toward2}", k.normal);
    }
}
