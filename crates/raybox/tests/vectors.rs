//! The exact reference vectors of `tests/vectors/` (see `tests/vectors/README.md`), checked
//! with the **binary32** rules: `f64-only` cases are skipped, inputs are parsed as `f32`.
//!
//! One test per vector file, so that a failure names its query. Every test collects all of
//! its failures (case id, inputs, what raybox answered, what was expected) before
//! asserting, and asserts that a sensible number of cases ran.

mod common;

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

use common::{
    Case, NORMAL_TOL, Report, expected, f32_array, f32_of, face_normal, first_inexact_input, load, matrix,
    number, rational, t_matches,
};
use glam::{Mat3, Quat, Vec2, Vec3};
use raybox::{
    Aabb2, Aabb3, Circle, ClosestPoint, ContainsPoint, Obb2, Obb3, Overlaps, Plane, Ray2, Ray3, RayCast,
    RayHit2, RayHit3, RayPlane, RaySpan, RayTriangle, ShapeError, Sphere, Triangle3,
};
use serde_json::Value;

/// Fewest binary32 cases a 100-case file must run for its test to count.
const MIN_CASES: usize = 80;
/// Fewest binary32 cases a 50-case `point_aabb_*` file must run (a third are `f64-only`).
const MIN_POINT_CASES: usize = 30;
/// Fewest parameters (t, barycentrics, distances) a file with numeric answers must compare.
const MIN_VALUES: usize = 40;

// ---------------------------------------------------------------------------------------
// Running a file
// ---------------------------------------------------------------------------------------

/// Runs `check` on every binary32 case of `vectors/<name>.json`. A panic inside `check`
/// (in raybox or in the harness) is recorded as a failure of that case.
fn run(name: &'static str, mut check: impl FnMut(&mut Report, &Case<'_>)) -> Report {
    let mut report = Report::new(name);
    for raw in &load(name) {
        let case = Case::new(raw);
        if case.f64_only() {
            report.skipped += 1;
            continue;
        }
        report.cases += 1;
        if case.has_tag("f32-exact")
            && let Some(s) = first_inexact_input(case.inputs)
        {
            report.fail(&case, format!("harness: input {s:?} of an f32-exact case is not exact in f32"));
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| check(&mut report, &case)));
        if let Err(payload) = outcome {
            report.fail(&case, format!("panicked: {}", panic_message(payload.as_ref())));
        }
    }
    report
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_string()
    }
}

/// A shape built from valid inputs; a rejection is a failure of the case.
fn built<T>(report: &mut Report, case: &Case<'_>, what: &str, r: Result<T, ShapeError>) -> Option<T> {
    match r {
        Ok(t) => Some(t),
        Err(e) => {
            report.fail(case, format!("{what}: valid input rejected: {e}"));
            None
        }
    }
}

// ---------------------------------------------------------------------------------------
// Building shapes from the JSON inputs
// ---------------------------------------------------------------------------------------

fn v2(v: &Value) -> Vec2 {
    let a = f32_array(v);
    assert_eq!(a.len(), 2, "expected 2 components: {v}");
    Vec2::new(a[0], a[1])
}

fn v3(v: &Value) -> Vec3 {
    let a = f32_array(v);
    assert_eq!(a.len(), 3, "expected 3 components: {v}");
    Vec3::new(a[0], a[1], a[2])
}

fn ray2(i: &Value) -> Result<Ray2, ShapeError> {
    Ray2::try_with_range(v2(&i["origin"]), v2(&i["dir"]), f32_of(&i["tmin"]), f32_of(&i["tmax"]))
}

fn ray3(i: &Value) -> Result<Ray3, ShapeError> {
    Ray3::try_with_range(v3(&i["origin"]), v3(&i["dir"]), f32_of(&i["tmin"]), f32_of(&i["tmax"]))
}

fn aabb2(b: &Value) -> Result<Aabb2, ShapeError> {
    Aabb2::try_new(v2(&b["min"]), v2(&b["max"]))
}

fn aabb3(b: &Value) -> Result<Aabb3, ShapeError> {
    Aabb3::try_new(v3(&b["min"]), v3(&b["max"]))
}

/// A 2D OBB from its Pythagorean triple `(a, b, c)`: `cos = a/c`, `sin = b/c`.
fn obb2(o: &Value) -> Result<Obb2, ShapeError> {
    let p = f32_array(&o["rotation"]["pythagorean"]);
    Obb2::try_from_rotation(v2(&o["center"]), v2(&o["half_extents"]), Vec2::new(p[0], p[1]))
}

/// A 3D OBB from its integer quaternion `quat_wxyz` (glam takes `x, y, z, w`).
fn obb3(o: &Value) -> Result<Obb3, ShapeError> {
    let q = f32_array(&o["rotation"]["quat_wxyz"]);
    Obb3::try_new(v3(&o["center"]), v3(&o["half_extents"]), Quat::from_xyzw(q[1], q[2], q[3], q[0]))
}

/// A 3D OBB from the rounded matrix `matrix_f64` (rows), through `try_from_matrix`.
fn obb3_from_matrix(o: &Value) -> Result<Obb3, ShapeError> {
    let m = matrix(&o["rotation"]["matrix_f64"]);
    let col = |k: usize| Vec3::new(m[0][k] as f32, m[1][k] as f32, m[2][k] as f32);
    Obb3::try_from_matrix(v3(&o["center"]), v3(&o["half_extents"]), Mat3::from_cols(col(0), col(1), col(2)))
}

/// The box axes (the columns of `matrix_f64`) in world coordinates, from the vectors.
fn obb_axes(o: &Value) -> Vec<Vec<f64>> {
    let m = matrix(&o["rotation"]["matrix_f64"]);
    (0..m.len()).map(|k| m.iter().map(|row| row[k]).collect()).collect()
}

fn identity_axes(n: usize) -> Vec<Vec<f64>> {
    (0..n).map(|k| (0..n).map(|i| if i == k { 1.0 } else { 0.0 }).collect()).collect()
}

fn sphere3(s: &Value) -> Result<Sphere, ShapeError> {
    Sphere::try_new(v3(&s["center"]), f32_of(&s["radius"]))
}

fn circle2(s: &Value) -> Result<Circle, ShapeError> {
    Circle::try_new(v2(&s["center"]), f32_of(&s["radius"]))
}

fn plane(p: &Value) -> Result<Plane, ShapeError> {
    Plane::try_new(v3(&p["normal"]), f32_of(&p["offset"]))
}

fn triangle(t: &Value) -> Result<Triangle3, ShapeError> {
    let v = t.as_array().expect("triangle: three vertices");
    Triangle3::try_new(v3(&v[0]), v3(&v[1]), v3(&v[2]))
}

// ---------------------------------------------------------------------------------------
// What a ray query answered, dimension-free
// ---------------------------------------------------------------------------------------

/// A cast hit with its point and normal as plain components.
#[derive(Debug, Clone)]
struct Cast {
    t: f32,
    point: Vec<f32>,
    normal: Vec<f32>,
}

impl From<RayHit2> for Cast {
    fn from(h: RayHit2) -> Self {
        Self { t: h.t, point: h.point.to_array().to_vec(), normal: h.normal.to_array().to_vec() }
    }
}

impl From<RayHit3> for Cast {
    fn from(h: RayHit3) -> Self {
        Self { t: h.t, point: h.point.to_array().to_vec(), normal: h.normal.to_array().to_vec() }
    }
}

impl Cast {
    fn outputs(&self) -> Vec<f32> {
        let mut v = vec![self.t];
        v.extend(&self.point);
        v.extend(&self.normal);
        v
    }

    fn normal_is_zero(&self) -> bool {
        self.normal.iter().all(|&c| c == 0.0)
    }
}

/// The three `RayCast` answers for one ray.
#[derive(Debug, Clone)]
struct RayAnswers {
    span: Option<RaySpan>,
    cast: Option<Cast>,
    intersects: bool,
}

impl RayAnswers {
    fn of2<S: RayCast<Ray = Ray2, Hit = RayHit2>>(shape: &S, ray: &Ray2) -> Self {
        Self {
            span: shape.ray_span(ray),
            cast: shape.cast_ray(ray).map(Cast::from),
            intersects: shape.intersects_ray(ray),
        }
    }

    fn of3<S: RayCast<Ray = Ray3, Hit = RayHit3>>(shape: &S, ray: &Ray3) -> Self {
        Self {
            span: shape.ray_span(ray),
            cast: shape.cast_ray(ray).map(Cast::from),
            intersects: shape.intersects_ray(ray),
        }
    }

    fn outputs(&self) -> Vec<f32> {
        let mut v = Vec::new();
        if let Some(s) = self.span {
            v.extend([s.t_enter, s.t_exit]);
        }
        if let Some(c) = &self.cast {
            v.extend(c.outputs());
        }
        v
    }

    /// The contract between the three answers: `intersects_ray` and `cast_ray` agree with
    /// `ray_span`, `cast_ray(..).t == ray_span(..).t_enter`, `t_enter <= t_exit`, no NaN.
    fn check_consistent(&self, report: &mut Report, case: &Case<'_>) {
        report.check_no_nan(case, "ray outputs", &self.outputs());
        let some = self.span.is_some();
        report.check(case, self.intersects == some, || {
            format!("intersects_ray = {} but ray_span = {:?}", self.intersects, self.span)
        });
        report.check(case, self.cast.is_some() == some, || {
            format!("cast_ray = {:?} but ray_span = {:?}", self.cast, self.span)
        });
        if let (Some(span), Some(cast)) = (self.span, &self.cast) {
            report.check(case, cast.t == span.t_enter, || {
                format!("cast_ray.t = {:e} != ray_span.t_enter = {:e}", cast.t, span.t_enter)
            });
        }
        if let Some(span) = self.span {
            report.check(case, span.t_enter <= span.t_exit, || {
                format!("ray_span {span:?} has t_enter > t_exit")
            });
        }
    }
}

/// Ray against a box (AABB or OBB): the `hit` boolean, `t_enter`/`t_exit`, and the hit
/// normal against `enter_faces`. `axes[k]` is the box's axis `k` in world coordinates.
fn check_ray_box(report: &mut Report, case: &Case<'_>, got: &RayAnswers, axes: &[Vec<f64>]) {
    let e = case.expect;
    got.check_consistent(report, case);
    let want_hit = e["hit"].as_bool().expect("hit");
    report.check_bool(case, "hit (ray_span)", got.span.is_some(), want_hit, case.strict_bool());
    let Some(span) = got.span else { return };
    if want_hit {
        report.check_t(case, "t_enter", span.t_enter, expected(&e["t_enter"]).expect("t_enter"));
        report.check_t(case, "t_exit", span.t_exit, expected(&e["t_exit"]).expect("t_exit"));
    }
    let faces: Vec<&str> =
        e["enter_faces"].as_array().map(|f| f.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    if let Some(cast) = &got.cast
        && !cast.normal_is_zero()
        && want_hit
        && !faces.is_empty()
    {
        let distance = |face: &str| -> f64 {
            let n = face_normal(face, axes);
            n.iter().zip(&cast.normal).map(|(a, &b)| (a - f64::from(b)).powi(2)).sum::<f64>().sqrt()
        };
        let best = faces.iter().map(|f| distance(f)).fold(f64::INFINITY, f64::min);
        report.normals += 1;
        report.check(case, best <= NORMAL_TOL, || {
            format!("hit normal {:?} is not the outward normal of any of enter_faces {faces:?}", cast.normal)
        });
    }
}

// ---------------------------------------------------------------------------------------
// Ray against boxes
// ---------------------------------------------------------------------------------------

#[test]
fn ray_aabb_2d() {
    run("ray_aabb_2d", |report, case| {
        let i = case.inputs;
        let Some(ray) = built(report, case, "Ray2", ray2(i)) else { return };
        let Some(b) = built(report, case, "Aabb2", aabb2(&i["box"])) else { return };
        check_ray_box(report, case, &RayAnswers::of2(&b, &ray), &identity_axes(2));
    })
    .finish(MIN_CASES, MIN_VALUES);
}

#[test]
fn ray_aabb_3d() {
    run("ray_aabb_3d", |report, case| {
        let i = case.inputs;
        let Some(ray) = built(report, case, "Ray3", ray3(i)) else { return };
        let Some(b) = built(report, case, "Aabb3", aabb3(&i["box"])) else { return };
        check_ray_box(report, case, &RayAnswers::of3(&b, &ray), &identity_axes(3));
    })
    .finish(MIN_CASES, MIN_VALUES);
}

#[test]
fn ray_obb_2d() {
    run("ray_obb_2d", |report, case| {
        let i = case.inputs;
        let Some(ray) = built(report, case, "Ray2", ray2(i)) else { return };
        let Some(b) = built(report, case, "Obb2", obb2(&i["obb"])) else { return };
        check_ray_box(report, case, &RayAnswers::of2(&b, &ray), &obb_axes(&i["obb"]));
    })
    .finish(MIN_CASES, MIN_VALUES);
}

#[test]
fn ray_obb_3d() {
    run("ray_obb_3d", |report, case| {
        let i = case.inputs;
        let Some(ray) = built(report, case, "Ray3", ray3(i)) else { return };
        let Some(b) = built(report, case, "Obb3", obb3(&i["obb"])) else { return };
        check_ray_box(report, case, &RayAnswers::of3(&b, &ray), &obb_axes(&i["obb"]));
    })
    .finish(MIN_CASES, MIN_VALUES);
}

// ---------------------------------------------------------------------------------------
// Ray against plane, sphere, triangle
// ---------------------------------------------------------------------------------------

fn plane_kind(r: &RayPlane) -> &'static str {
    match r {
        RayPlane::Hit { .. } => "hit",
        RayPlane::Miss { .. } => "miss",
        RayPlane::Parallel => "parallel",
        RayPlane::Coplanar => "coplanar",
    }
}

fn triangle_kind(r: &RayTriangle) -> &'static str {
    match r {
        RayTriangle::Hit(_) => "hit",
        RayTriangle::Miss => "miss",
        RayTriangle::Parallel => "parallel",
        RayTriangle::Coplanar { .. } => "coplanar",
    }
}

/// `kind` under the boolean rules: exact when strict; otherwise either answer, except that
/// a coplanar ray must still be reported without a finite crossing `t` (rule 4).
fn check_kind(report: &mut Report, case: &Case<'_>, got: &str, detail: &dyn Debug) {
    let want = case.expect["kind"].as_str().expect("kind");
    report.strict_bools += usize::from(case.strict_bool());
    if case.strict_bool() {
        report.check(case, got == want, || {
            format!("kind: got {got} ({detail:?}), expected {want} (margin_rel {:e})", case.margin_rel())
        });
    } else if want == "coplanar" {
        report.check(case, matches!(got, "coplanar" | "parallel"), || {
            format!("kind: got {got} ({detail:?}) for a coplanar ray: a finite crossing t is not allowed")
        });
    }
}

/// The hit normal of a two-sided plane or triangle: unit length, facing the ray.
fn check_facing_normal(report: &mut Report, case: &Case<'_>, cast: &Cast, dir: Vec3) {
    let n = Vec3::from_slice(&cast.normal);
    report.check(case, (n.length() - 1.0).abs() <= 1e-5, || format!("hit normal {n} is not unit length"));
    let along = f64::from(n.dot(dir)) / f64::from(dir.length());
    report
        .check(case, along <= 1e-6, || format!("hit normal {n} does not face the ray (n·d/|d| = {along:e})"));
}

#[test]
fn ray_plane_3d() {
    run("ray_plane_3d", |report, case| {
        let (i, e) = (case.inputs, case.expect);
        let Some(ray) = built(report, case, "Ray3", ray3(i)) else { return };
        let Some(p) = built(report, case, "Plane", plane(&i["plane"])) else { return };
        let got = p.ray_intersection(&ray);
        let kind = plane_kind(&got);
        check_kind(report, case, kind, &got);
        match got {
            RayPlane::Hit { t, front_facing } => {
                report.check_no_nan(case, "RayPlane::Hit", &[t]);
                if e["kind"] == "hit" {
                    report.check_t(case, "t", t, expected(&e["t"]).expect("t"));
                    if case.strict_bool() {
                        let want = e["front_facing"].as_bool().expect("front_facing");
                        report.check(case, front_facing == want, || {
                            format!("front_facing: got {front_facing}, expected {want}")
                        });
                    }
                }
            }
            RayPlane::Miss { t } => report.check_no_nan(case, "RayPlane::Miss", &[t]),
            RayPlane::Parallel | RayPlane::Coplanar => {}
        }
        // RayCast agrees with ray_intersection: a crossing is [t, t], a coplanar ray the
        // whole [t_min, t_max] (hit at t_min with a zero normal).
        let answers = RayAnswers::of3(&p, &ray);
        answers.check_consistent(report, case);
        let want_span = match got {
            RayPlane::Hit { t, .. } => Some(RaySpan { t_enter: t, t_exit: t }),
            RayPlane::Coplanar => Some(RaySpan { t_enter: ray.t_min(), t_exit: ray.t_max() }),
            RayPlane::Miss { .. } | RayPlane::Parallel => None,
        };
        report.check(case, answers.span == want_span, || {
            format!("ray_span = {:?} but ray_intersection = {got:?}", answers.span)
        });
        if let Some(cast) = &answers.cast {
            if kind == "hit" {
                check_facing_normal(report, case, cast, ray.dir());
            } else {
                report.check(case, cast.normal_is_zero(), || format!("coplanar cast_ray normal {cast:?}"));
            }
        }
    })
    .finish(MIN_CASES, MIN_VALUES);
}

#[test]
fn ray_sphere_3d() {
    run("ray_sphere_3d", |report, case| {
        let (i, e) = (case.inputs, case.expect);
        let Some(ray) = built(report, case, "Ray3", ray3(i)) else { return };
        let Some(s) = built(report, case, "Sphere", sphere3(&i["sphere"])) else { return };
        let strict = case.strict_bool();

        // Solid convention: RayCast.
        let solid = RayAnswers::of3(&s, &ray);
        solid.check_consistent(report, case);
        let want_hit = e["hit"].as_bool().expect("hit");
        report.check_bool(case, "hit (solid, ray_span)", solid.span.is_some(), want_hit, strict);
        if let (Some(span), true) = (solid.span, want_hit) {
            report.check_t(case, "t_enter", span.t_enter, expected(&e["t_enter"]).expect("t_enter"));
            report.check_t(case, "t_exit", span.t_exit, expected(&e["t_exit"]).expect("t_exit"));
        }

        // Surface convention: cast_ray_surface.
        let surface = s.cast_ray_surface(&ray);
        if let Some(h) = surface {
            report.check_no_nan(case, "cast_ray_surface", &Cast::from(h).outputs());
        }
        let want_surface = e["surface_hit"].as_bool().expect("surface_hit");
        report.check_bool(case, "surface_hit (cast_ray_surface)", surface.is_some(), want_surface, strict);
        if let (Some(h), true) = (surface, want_surface) {
            report.check_t(case, "t_surface", h.t, expected(&e["t_surface"]).expect("t_surface"));
        }

        // The unclipped roots. Whether the *line* meets the ball is binding where the
        // exact answer is on a verified boundary, or where the ray itself robustly hits.
        let roots = s.ray_roots(&ray);
        if let Some(r) = roots {
            report.check_no_nan(case, "ray_roots", &[r.near, r.far]);
        }
        let want_roots = e["roots"].as_array();
        let roots_strict = case.has_tag("exact-boundary") || (strict && want_hit);
        report.check_bool(
            case,
            "roots exist (ray_roots)",
            roots.is_some(),
            want_roots.is_some(),
            roots_strict,
        );
        if let (Some(r), Some(w)) = (roots, want_roots) {
            report.check_t(case, "roots[0]", r.near, expected(&w[0]).expect("root"));
            report.check_t(case, "roots[1]", r.far, expected(&w[1]).expect("root"));
        }
    })
    .finish(MIN_CASES, MIN_VALUES);
}

#[test]
fn ray_triangle_3d() {
    // group id -> (case ids, whether any member reported a hit)
    let mut groups: BTreeMap<String, (Vec<String>, bool)> = BTreeMap::new();
    let mut report = run("ray_triangle_3d", |report, case| {
        let (i, e) = (case.inputs, case.expect);
        let Some(ray) = built(report, case, "Ray3", ray3(i)) else { return };
        let Some(tri) = built(report, case, "Triangle3", triangle(&i["triangle"])) else { return };
        let strict = case.strict_bool();
        let got = tri.ray_intersection(&ray);
        let kind = triangle_kind(&got);
        check_kind(report, case, kind, &got);
        match got {
            RayTriangle::Hit(h) => {
                report.check_no_nan(case, "TriangleHit", &[h.t, h.u, h.v, h.w()]);
                if e["kind"] == "hit" {
                    report.check_t(case, "t", h.t, expected(&e["t"]).expect("t"));
                    report.check_bary(case, "u", h.u, expected(&e["u"]).expect("u"));
                    report.check_bary(case, "v", h.v, expected(&e["v"]).expect("v"));
                    report.check_bary(case, "w", h.w(), expected(&e["w"]).expect("w"));
                    if strict {
                        let want = e["front_facing"].as_bool().expect("front_facing");
                        report.check(case, h.front_facing == want, || {
                            format!("front_facing: got {}, expected {want}", h.front_facing)
                        });
                    }
                }
            }
            RayTriangle::Coplanar { span } => {
                if let Some(s) = span {
                    report.check_no_nan(case, "coplanar span", &[s.t_enter, s.t_exit]);
                }
                if e["kind"] == "coplanar" {
                    let touches = e["coplanar_touches"].as_bool().expect("coplanar_touches");
                    report.check_bool(case, "coplanar_touches", span.is_some(), touches, strict);
                    if let (Some(s), true) = (span, touches) {
                        let w = e["coplanar_interval"].as_array().expect("coplanar_interval");
                        report.check_t(case, "coplanar t_enter", s.t_enter, expected(&w[0]).expect("t"));
                        report.check_t(case, "coplanar t_exit", s.t_exit, expected(&w[1]).expect("t"));
                    }
                }
            }
            RayTriangle::Miss | RayTriangle::Parallel => {}
        }
        // RayCast agrees with ray_intersection.
        let answers = RayAnswers::of3(&tri, &ray);
        answers.check_consistent(report, case);
        let want_span = match got {
            RayTriangle::Hit(h) => Some(RaySpan { t_enter: h.t, t_exit: h.t }),
            RayTriangle::Coplanar { span } => span,
            RayTriangle::Miss | RayTriangle::Parallel => None,
        };
        report.check(case, answers.span == want_span, || {
            format!("ray_span = {:?} but ray_intersection = {got:?}", answers.span)
        });
        if let Some(cast) = &answers.cast {
            if kind == "hit" {
                check_facing_normal(report, case, cast, ray.dir());
            } else {
                report.check(case, cast.normal_is_zero(), || format!("coplanar cast_ray normal {cast:?}"));
            }
        }
        // Watertightness groups (rule 5).
        if let Some(g) = case.group()
            && (case.has_tag("watertight-pair") || case.has_tag("watertight-fan"))
        {
            let entry = groups.entry(g.to_string()).or_default();
            entry.0.push(case.id.to_string());
            entry.1 |= answers.span.is_some();
        }
    });
    println!("ray_triangle_3d: {} watertight group(s) checked", groups.len());
    for (g, (ids, any_hit)) in &groups {
        report
            .fail_unless(*any_hit, || format!("group:{g}: no triangle of the group reports a hit: {ids:?}"));
    }
    assert!(!groups.is_empty(), "ray_triangle_3d: no watertight group ran");
    report.finish(MIN_CASES, MIN_VALUES);
}

// ---------------------------------------------------------------------------------------
// Overlaps and containment
// ---------------------------------------------------------------------------------------

/// Box–box overlap (exact on every case) in both orders, and containment through
/// `ContainsPoint` on the other box's corners.
fn check_aabb_pair(report: &mut Report, case: &Case<'_>, ab: bool, ba: bool, a_in: [bool; 2]) {
    let e = case.expect;
    let want = e["overlap"].as_bool().expect("overlap");
    report.check_bool(case, "overlap (a.overlaps(b))", ab, want, true);
    report.check_bool(case, "overlap (b.overlaps(a))", ba, want, true);
    let want_ab = e["a_contains_b"].as_bool().expect("a_contains_b");
    let want_ba = e["b_contains_a"].as_bool().expect("b_contains_a");
    report.check_bool(case, "a_contains_b (a contains b.min and b.max)", a_in[0], want_ab, true);
    report.check_bool(case, "b_contains_a (b contains a.min and a.max)", a_in[1], want_ba, true);
}

#[test]
fn aabb_aabb_2d() {
    run("aabb_aabb_2d", |report, case| {
        let Some(a) = built(report, case, "Aabb2 a", aabb2(&case.inputs["a"])) else { return };
        let Some(b) = built(report, case, "Aabb2 b", aabb2(&case.inputs["b"])) else { return };
        let contains = |x: &Aabb2, y: &Aabb2| x.contains_point(y.min()) && x.contains_point(y.max());
        check_aabb_pair(report, case, a.overlaps(&b), b.overlaps(&a), [contains(&a, &b), contains(&b, &a)]);
    })
    .finish(MIN_CASES, 0);
}

#[test]
fn aabb_aabb_3d() {
    run("aabb_aabb_3d", |report, case| {
        let Some(a) = built(report, case, "Aabb3 a", aabb3(&case.inputs["a"])) else { return };
        let Some(b) = built(report, case, "Aabb3 b", aabb3(&case.inputs["b"])) else { return };
        let contains = |x: &Aabb3, y: &Aabb3| x.contains_point(y.min()) && x.contains_point(y.max());
        check_aabb_pair(report, case, a.overlaps(&b), b.overlaps(&a), [contains(&a, &b), contains(&b, &a)]);
    })
    .finish(MIN_CASES, 0);
}

/// Point in box (exact on every case), and `ClosestPoint` consistent with it: the point is
/// its own closest point, at distance zero, exactly when it is inside.
fn check_point_box(report: &mut Report, case: &Case<'_>, inside: bool, own_closest: bool, distance: f32) {
    let want = case.expect["inside"].as_bool().expect("inside");
    report.check_bool(case, "inside (contains_point)", inside, want, true);
    report.check_bool(case, "inside (closest_point == point)", own_closest, want, true);
    report.check_bool(case, "inside (distance_to_point == 0)", distance == 0.0, want, true);
    report.check_no_nan(case, "distance_to_point", &[distance]);
}

#[test]
fn point_aabb_2d() {
    run("point_aabb_2d", |report, case| {
        let p = v2(&case.inputs["point"]);
        let Some(b) = built(report, case, "Aabb2", aabb2(&case.inputs["box"])) else { return };
        check_point_box(report, case, b.contains_point(p), b.closest_point(p) == p, b.distance_to_point(p));
    })
    .finish(MIN_POINT_CASES, 0);
}

#[test]
fn point_aabb_3d() {
    run("point_aabb_3d", |report, case| {
        let p = v3(&case.inputs["point"]);
        let Some(b) = built(report, case, "Aabb3", aabb3(&case.inputs["box"])) else { return };
        check_point_box(report, case, b.contains_point(p), b.closest_point(p) == p, b.distance_to_point(p));
    })
    .finish(MIN_POINT_CASES, 0);
}

/// Ball–box overlap in both orders, the distance from the centre to the box (`dist_sq`)
/// and the closest point of the box (`closest_point`).
fn check_ball_box(report: &mut Report, case: &Case<'_>, ab: bool, ba: bool, distance: f32, closest: &[f32]) {
    let e = case.expect;
    let want = e["overlap"].as_bool().expect("overlap");
    let strict = case.strict_bool();
    report.check_bool(case, "overlap (ball.overlaps(box))", ab, want, strict);
    report.check_bool(case, "overlap (box.overlaps(ball))", ba, want, strict);
    report.check(case, ab == ba, || format!("overlaps is not symmetric: {ab} vs {ba}"));
    report.check_no_nan(case, "distance_to_point / closest_point", &[&[distance], closest].concat());
    let d = f64::from(distance);
    report.check_dist(case, "dist_sq (distance_to_point²)", d * d, expected(&e["dist_sq"]).expect("dist_sq"));
    let want_point: Vec<f64> =
        e["closest_point"].as_array().expect("closest_point").iter().map(rational).collect();
    for (k, (&g, &w)) in closest.iter().zip(&want_point).enumerate() {
        report.check_dist(case, &format!("closest_point[{k}]"), f64::from(g), w);
    }
}

#[test]
fn circle_aabb_2d() {
    run("circle_aabb_2d", |report, case| {
        let Some(s) = built(report, case, "Circle", circle2(&case.inputs["sphere"])) else { return };
        let Some(b) = built(report, case, "Aabb2", aabb2(&case.inputs["box"])) else { return };
        let c = s.center();
        let closest = b.closest_point(c).to_array();
        check_ball_box(report, case, s.overlaps(&b), b.overlaps(&s), b.distance_to_point(c), &closest);
    })
    .finish(MIN_CASES, MIN_VALUES);
}

#[test]
fn sphere_aabb_3d() {
    run("sphere_aabb_3d", |report, case| {
        let Some(s) = built(report, case, "Sphere", sphere3(&case.inputs["sphere"])) else { return };
        let Some(b) = built(report, case, "Aabb3", aabb3(&case.inputs["box"])) else { return };
        let c = s.center();
        let closest = b.closest_point(c).to_array();
        check_ball_box(report, case, s.overlaps(&b), b.overlaps(&s), b.distance_to_point(c), &closest);
    })
    .finish(MIN_CASES, MIN_VALUES);
}

/// OBB–OBB overlap (booleans only) in both orders.
fn check_obb_pair(report: &mut Report, case: &Case<'_>, ab: bool, ba: bool) {
    let want = case.expect["overlap"].as_bool().expect("overlap");
    let strict = case.strict_bool();
    report.check_bool(case, "overlap (a.overlaps(b))", ab, want, strict);
    report.check_bool(case, "overlap (b.overlaps(a))", ba, want, strict);
    report.check(case, ab == ba, || format!("overlaps is not symmetric: {ab} vs {ba}"));
}

#[test]
fn obb_obb_2d() {
    run("obb_obb_2d", |report, case| {
        let Some(a) = built(report, case, "Obb2 a", obb2(&case.inputs["a"])) else { return };
        let Some(b) = built(report, case, "Obb2 b", obb2(&case.inputs["b"])) else { return };
        check_obb_pair(report, case, a.overlaps(&b), b.overlaps(&a));
    })
    .finish(MIN_CASES, 0);
}

#[test]
fn obb_obb_3d() {
    run("obb_obb_3d", |report, case| {
        let Some(a) = built(report, case, "Obb3 a", obb3(&case.inputs["a"])) else { return };
        let Some(b) = built(report, case, "Obb3 b", obb3(&case.inputs["b"])) else { return };
        check_obb_pair(report, case, a.overlaps(&b), b.overlaps(&a));
    })
    .finish(MIN_CASES, 0);
}

// ---------------------------------------------------------------------------------------
// Bad inputs
// ---------------------------------------------------------------------------------------

/// What raybox did with a bad input.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Reject(String),
    Miss,
    Hit,
    Coplanar,
    NoOverlap,
    Overlap,
    Outside,
    Inside,
}

impl Outcome {
    /// The word the `acceptable`/`forbidden` lists use for it.
    fn word(&self) -> &'static str {
        match self {
            Self::Reject(_) => "reject",
            Self::Miss => "miss",
            Self::Hit => "hit",
            Self::Coplanar => "coplanar",
            Self::NoOverlap => "no overlap",
            Self::Overlap => "overlap",
            Self::Outside => "outside",
            Self::Inside => "inside",
        }
    }
}

/// One way of building and querying a bad input: the outcome, every output value (for the
/// NaN check) and, for a hit, the span (for `if_normalized`).
#[derive(Debug)]
struct BadRun {
    how: &'static str,
    outcome: Outcome,
    outputs: Vec<f32>,
    span: Option<RaySpan>,
}

impl BadRun {
    fn rejected(how: &'static str, e: &ShapeError) -> Self {
        Self { how, outcome: Outcome::Reject(e.to_string()), outputs: Vec::new(), span: None }
    }

    fn from_ray(how: &'static str, answers: &RayAnswers) -> Self {
        let outcome = if answers.span.is_some() || answers.cast.is_some() || answers.intersects {
            Outcome::Hit
        } else {
            Outcome::Miss
        };
        Self { how, outcome, outputs: answers.outputs(), span: answers.span }
    }

    fn from_bool(how: &'static str, yes: bool, (t, f): (Outcome, Outcome)) -> Self {
        Self { how, outcome: if yes { t } else { f }, outputs: Vec::new(), span: None }
    }
}

/// Builds every shape with `try_*` (a rejection is an outcome), then runs the query;
/// `$how` names the way of building, for the messages.
macro_rules! build_or_reject {
    ($how:ident = $label:expr; $($shape:ident = $e:expr),+ => $body:expr) => {{
        let $how: &'static str = $label;
        (|| -> BadRun {
            $(let $shape = match $e {
                Ok(s) => s,
                Err(err) => return BadRun::rejected($how, &err),
            };)+
            $body
        })()
    }};
}

fn run_bad(query: &str, i: &Value) -> Vec<BadRun> {
    let overlap = || (Outcome::Overlap, Outcome::NoOverlap);
    match query {
        "ray_aabb_2d" => vec![build_or_reject!(how = "Ray2 + Aabb2"; ray = ray2(i), b = aabb2(&i["box"]) =>
            BadRun::from_ray(how, &RayAnswers::of2(&b, &ray)))],
        "ray_aabb_3d" => vec![build_or_reject!(how = "Ray3 + Aabb3"; ray = ray3(i), b = aabb3(&i["box"]) =>
            BadRun::from_ray(how, &RayAnswers::of3(&b, &ray)))],
        "ray_obb_2d" => vec![build_or_reject!(how = "Ray2 + Obb2"; ray = ray2(i), b = obb2(&i["obb"]) =>
            BadRun::from_ray(how, &RayAnswers::of2(&b, &ray)))],
        "ray_obb_3d" => vec![
            build_or_reject!(how = "Ray3 + Obb3::try_new(quat_wxyz)"; ray = ray3(i), b = obb3(&i["obb"]) =>
                BadRun::from_ray(how, &RayAnswers::of3(&b, &ray))),
            build_or_reject!(how = "Ray3 + Obb3::try_from_matrix(matrix_f64)"; ray = ray3(i),
                b = obb3_from_matrix(&i["obb"]) =>
                BadRun::from_ray(how, &RayAnswers::of3(&b, &ray))),
        ],
        "ray_sphere_3d" => {
            vec![build_or_reject!(how = "Ray3 + Sphere"; ray = ray3(i), s = sphere3(&i["sphere"]) => {
                let solid = RayAnswers::of3(&s, &ray);
                let mut run = BadRun::from_ray(how, &solid);
                if let Some(h) = s.cast_ray_surface(&ray) {
                    run.outputs.extend(Cast::from(h).outputs());
                    run.outcome = Outcome::Hit;
                }
                if let Some(r) = s.ray_roots(&ray) {
                    run.outputs.extend([r.near, r.far]);
                }
                run
            })]
        }
        "ray_plane_3d" => {
            vec![build_or_reject!(how = "Ray3 + Plane"; ray = ray3(i), p = plane(&i["plane"]) => {
                let answers = RayAnswers::of3(&p, &ray);
                let mut run = BadRun::from_ray(how, &answers);
                match p.ray_intersection(&ray) {
                    RayPlane::Coplanar => run.outcome = Outcome::Coplanar,
                    RayPlane::Hit { t, .. } => run.outputs.push(t),
                    RayPlane::Miss { t } => run.outputs.push(t),
                    RayPlane::Parallel => {}
                }
                run
            })]
        }
        "ray_triangle_3d" => {
            vec![
                build_or_reject!(how = "Ray3 + Triangle3"; ray = ray3(i), tri = triangle(&i["triangle"]) => {
                    let answers = RayAnswers::of3(&tri, &ray);
                    let mut run = BadRun::from_ray(how, &answers);
                    if let RayTriangle::Hit(h) = tri.ray_intersection(&ray) {
                        run.outputs.extend([h.t, h.u, h.v, h.w()]);
                    }
                    run
                }),
            ]
        }
        "aabb_aabb_2d" => {
            vec![build_or_reject!(how = "Aabb2 pair"; a = aabb2(&i["a"]), b = aabb2(&i["b"]) =>
                BadRun::from_bool(how, a.overlaps(&b) || b.overlaps(&a), overlap()))]
        }
        "aabb_aabb_3d" => {
            vec![build_or_reject!(how = "Aabb3 pair"; a = aabb3(&i["a"]), b = aabb3(&i["b"]) =>
                BadRun::from_bool(how, a.overlaps(&b) || b.overlaps(&a), overlap()))]
        }
        "point_aabb_2d" => vec![build_or_reject!(how = "Aabb2::contains_point"; b = aabb2(&i["box"]) =>
            BadRun::from_bool(how, b.contains_point(v2(&i["point"])),
                (Outcome::Inside, Outcome::Outside)))],
        "point_aabb_3d" => vec![build_or_reject!(how = "Aabb3::contains_point"; b = aabb3(&i["box"]) =>
            BadRun::from_bool(how, b.contains_point(v3(&i["point"])),
                (Outcome::Inside, Outcome::Outside)))],
        "circle_aabb_2d" => {
            vec![build_or_reject!(how = "Circle + Aabb2"; s = circle2(&i["sphere"]), b = aabb2(&i["box"]) =>
                BadRun::from_bool(how, s.overlaps(&b) || b.overlaps(&s), overlap()))]
        }
        "sphere_aabb_3d" => {
            vec![build_or_reject!(how = "Sphere + Aabb3"; s = sphere3(&i["sphere"]), b = aabb3(&i["box"]) =>
                BadRun::from_bool(how, s.overlaps(&b) || b.overlaps(&s), overlap()))]
        }
        "obb_obb_2d" => vec![build_or_reject!(how = "Obb2 pair"; a = obb2(&i["a"]), b = obb2(&i["b"]) =>
            BadRun::from_bool(how, a.overlaps(&b) || b.overlaps(&a), overlap()))],
        "obb_obb_3d" => vec![
            build_or_reject!(how = "Obb3::try_new pair"; a = obb3(&i["a"]), b = obb3(&i["b"]) =>
                BadRun::from_bool(how, a.overlaps(&b) || b.overlaps(&a), overlap())),
            build_or_reject!(how = "Obb3::try_from_matrix pair"; a = obb3_from_matrix(&i["a"]),
                b = obb3_from_matrix(&i["b"]) =>
                BadRun::from_bool(how, a.overlaps(&b) || b.overlaps(&a), overlap())),
        ],
        other => panic!("bad_inputs.json: unknown query {other:?}"),
    }
}

/// The outcome word an `acceptable` entry stands for: `"miss (empty box)"` is a miss,
/// `"treat as |r| (documented): then hit t in [2, 4]"` a hit; an entry naming no outcome
/// (`"documented (e.g. re-orthonormalise)"`, `"normalise (documented)"`) is `"documented"`.
fn acceptable_word(entry: &str) -> &'static str {
    let tail = entry.rsplit(':').next().unwrap_or(entry).trim();
    let tail = tail.strip_prefix("then ").unwrap_or(tail);
    const WORDS: [(&str, &str); 9] = [
        ("reject", "reject"),
        ("no overlap", "no overlap"),
        ("overlap", "overlap"),
        ("miss", "miss"),
        ("solid hit", "hit"),
        ("hit", "hit"),
        ("coplanar", "coplanar"),
        ("outside", "outside"),
        ("inside", "inside"),
    ];
    WORDS.iter().find(|(prefix, _)| tail.starts_with(prefix)).map_or("documented", |&(_, word)| word)
}

#[test]
fn bad_inputs() {
    let report = run("bad_inputs", |report, case| {
        let raw_query = case.id.split('/').nth(1).expect("bad/<query>/<name> id");
        let e = case.expect;
        let strings = |k: &str| -> Vec<String> {
            e[k].as_array().expect("list").iter().filter_map(|s| s.as_str().map(str::to_string)).collect()
        };
        let (acceptable, forbidden) = (strings("acceptable"), strings("forbidden"));
        let words: Vec<&str> = acceptable.iter().map(|a| acceptable_word(a)).collect();
        for run in run_bad(raw_query, case.inputs) {
            let word = run.outcome.word();
            let how = run.how;
            report.check(case, words.contains(&word) || words.contains(&"documented"), || {
                format!("{how}: outcome {:?} is not acceptable {acceptable:?}", run.outcome)
            });
            report.check(case, !forbidden.iter().any(|f| f == word), || {
                format!("{how}: outcome {:?} is forbidden {forbidden:?}", run.outcome)
            });
            report.check_no_nan(case, how, &run.outputs);
            // A documented normalisation must give the answer in `if_normalized`.
            if let (Outcome::Hit, Some(norm)) = (&run.outcome, e.get("if_normalized")) {
                let span = run.span.expect("a ray hit has a span");
                for (what, got) in [("t_enter", span.t_enter), ("t_exit", span.t_exit)] {
                    if let Some(want) = expected(&norm[what]) {
                        report.check(case, t_matches(got, want, case.t_scale(), false).is_ok(), || {
                            format!("{how}: normalised {what} = {got:e}, expected {want:e}")
                        });
                    }
                }
            }
        }
    });
    // Every case of the list must have run (none is f64-only).
    assert_eq!(report.skipped, 0, "bad_inputs: cases were skipped");
    report.finish(60, 0);
}

/// The spellings the README promises (`"inf"`, `"-inf"`, `"NaN"`, `"-0.0"`) parse in Rust.
#[test]
fn vector_spellings_parse() {
    for (s, want) in [("inf", f64::INFINITY), ("-inf", f64::NEG_INFINITY), ("-0.0", -0.0)] {
        let got = number(&Value::String(s.into())).unwrap();
        assert!(got == want && got.is_sign_negative() == want.is_sign_negative(), "{s}: {got}");
        assert_eq!(f32_of(&Value::String(s.into())), want as f32);
    }
    assert!(f32_of(&Value::String("NaN".into())).is_nan());
}
