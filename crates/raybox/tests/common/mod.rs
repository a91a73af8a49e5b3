//! Helpers for the reference-vector tests: reading the JSON cases, the binary32
//! comparison rules of `tests/vectors/README.md`, and a failure collector; and, in
//! submodules, shape strategies and the mesh files of the loader tests (`mesh_files`).

// Each integration test that declares `mod common;` compiles its own copy of this module
// and may use only part of it.
#![allow(dead_code)]

pub mod audit;
pub mod exact;
pub mod long_segments;
pub mod mesh_files;
pub mod placed;
pub mod shapes3d;
pub mod strategies;

use std::fmt::{Display, Write as _};

use serde_json::Value;

/// Relative and absolute tolerance of a ray parameter in binary32 (README, *Parameters*).
pub const T_TOL: f64 = 1e-5;
/// Absolute tolerance of a barycentric coordinate in binary32.
pub const BARY_TOL: f64 = 1e-4;
/// Distance to the boundary above which a boolean must agree in binary32 (`M_f32`).
pub const MARGIN_F32: f64 = 1e-4;
/// How close a hit normal must be to the outward normal of an entered face.
pub const NORMAL_TOL: f64 = 1e-4;
/// Relative tolerance of depths and distances in binary32.
pub const DIST_TOL: f64 = 1e-5;

/// Reads `tests/vectors/<name>.json` (a JSON array of cases).
pub fn load(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/vectors/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"));
    match value {
        Value::Array(cases) => cases,
        _ => panic!("{path}: expected a JSON array of cases"),
    }
}

/// One reference case: its id, inputs, expected answers and tags.
pub struct Case<'a> {
    /// The case id, e.g. `ray_aabb_3d-s2-a00012`.
    pub id: &'a str,
    /// The `inputs` object.
    pub inputs: &'a Value,
    /// The `expect` object.
    pub expect: &'a Value,
    /// The tags.
    pub tags: Vec<&'a str>,
}

impl<'a> Case<'a> {
    /// Wraps a case of a vector file.
    pub fn new(raw: &'a Value) -> Self {
        let id = raw["id"].as_str().expect("case without an id");
        let tags =
            raw["tags"].as_array().map(|t| t.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        Self { id, inputs: &raw["inputs"], expect: &raw["expect"], tags }
    }

    /// Whether the case carries `tag`.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.contains(&tag)
    }

    /// `f64-only` cases cannot be fed to a binary32 API and are skipped.
    pub fn f64_only(&self) -> bool {
        self.has_tag("f64-only")
    }

    /// `ill-conditioned` cases compare parameters with the square root of the tolerances.
    pub fn ill_conditioned(&self) -> bool {
        self.has_tag("ill-conditioned")
    }

    /// The `group:<id>` tag, if any.
    pub fn group(&self) -> Option<&'a str> {
        self.tags.iter().find_map(|t| t.strip_prefix("group:"))
    }

    /// `expect.margin_rel` (a number, or `"inf"`/`"NaN"`); NaN when absent.
    pub fn margin_rel(&self) -> f64 {
        number(&self.expect["margin_rel"]).unwrap_or(f64::NAN)
    }

    /// Boolean rules 1 and 3 of the README for binary32: `exact-boundary`, or a margin of at
    /// least `M_f32`; for ray/AABB cases also `exact-achievable-f32`.
    pub fn strict_bool(&self) -> bool {
        self.has_tag("exact-boundary")
            || self.margin_rel() >= MARGIN_F32
            || (self.id.starts_with("ray_aabb_") && self.has_tag("exact-achievable-f32"))
    }

    /// `expect.t_scale`, or (when it is null or missing) `S / |dir|` computed from the inputs.
    pub fn t_scale(&self) -> f64 {
        if let Some(s) = number(&self.expect["t_scale"]) {
            return s;
        }
        let dir = f64_array(&self.inputs["dir"]);
        let len = dir.iter().map(|d| d * d).sum::<f64>().sqrt();
        self.input_scale() / len
    }

    /// `S`: the largest finite |numeric input| of the case (rotation descriptions excluded).
    pub fn input_scale(&self) -> f64 {
        fn walk(v: &Value, key: &str, max: &mut f64) {
            match v {
                Value::String(s) if key != "rotation" => {
                    if let Ok(x) = s.parse::<f64>()
                        && x.is_finite()
                    {
                        *max = max.max(x.abs());
                    }
                }
                Value::Array(items) => items.iter().for_each(|i| walk(i, key, max)),
                Value::Object(map) => {
                    for (k, item) in map {
                        if k != "rotation" {
                            walk(item, k, max);
                        }
                    }
                }
                _ => {}
            }
        }
        let mut max = 0.0;
        walk(self.inputs, "", &mut max);
        max
    }

    /// The case summary printed with every failure.
    pub fn describe(&self) -> String {
        format!("{}\n      inputs: {}\n      tags: {:?}", self.id, self.inputs, self.tags)
    }
}

/// A JSON number or a numeric string (`"inf"`, `"NaN"`, …) as `f64`; `None` for null.
pub fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => Some(s.parse::<f64>().unwrap_or_else(|_| panic!("not a number: {s:?}"))),
        _ => None,
    }
}

/// An input string parsed as binary32.
pub fn f32_of(v: &Value) -> f32 {
    let s = v.as_str().unwrap_or_else(|| panic!("expected a numeric string, got {v}"));
    s.parse::<f32>().unwrap_or_else(|e| panic!("{s:?} does not parse as f32: {e}"))
}

/// An array of input strings parsed as binary32.
pub fn f32_array(v: &Value) -> Vec<f32> {
    v.as_array().unwrap_or_else(|| panic!("expected an array, got {v}")).iter().map(f32_of).collect()
}

/// An array of input strings parsed as binary64.
pub fn f64_array(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array, got {v}"))
        .iter()
        .map(|x| number(x).unwrap_or(f64::NAN))
        .collect()
}

/// Every input string of an `f32-exact` case must parse to the same value in binary32 and
/// binary64; returns the first one that does not (a harness sanity check).
pub fn first_inexact_input(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => {
            let (a, b) = (s.parse::<f32>().ok()?, s.parse::<f64>().ok()?);
            (!(a.is_nan() && b.is_nan()) && f64::from(a) != b).then(|| s.clone())
        }
        Value::Array(items) => items.iter().find_map(first_inexact_input),
        Value::Object(map) => map
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "matrix_exact" | "matrix_f64" | "half_axes"))
            .find_map(|(_, item)| first_inexact_input(item)),
        _ => None,
    }
}

/// An expected value object `{"exact", "f64", "dec30"?}` as `f64`; `None` for null.
pub fn expected(v: &Value) -> Option<f64> {
    match v {
        Value::Null => None,
        Value::Object(map) => number(map.get("f64").expect("value object without f64")),
        other => number(other),
    }
}

/// An exact rational `"p/q"` (or an integer) as the nearest-ish `f64`.
pub fn rational(v: &Value) -> f64 {
    let s = v.as_str().unwrap_or_else(|| panic!("expected a rational string, got {v}"));
    match s.split_once('/') {
        Some((p, q)) => p.trim().parse::<f64>().unwrap() / q.trim().parse::<f64>().unwrap(),
        None => s.trim().parse::<f64>().unwrap(),
    }
}

/// A row-major matrix of numeric strings (`matrix_f64`) as rows of `f64`.
pub fn matrix(v: &Value) -> Vec<Vec<f64>> {
    v.as_array().expect("matrix rows").iter().map(f64_array).collect()
}

/// The outward normal of a box face named `"-x"`, `"+y"`, `"-u0"`, … in world coordinates;
/// `axes[k]` is the box's axis `k` (the identity's rows for an AABB).
pub fn face_normal(face: &str, axes: &[Vec<f64>]) -> Vec<f64> {
    let (sign, axis) = face.split_at(1);
    let sign = if sign == "-" { -1.0 } else { 1.0 };
    let k = match axis {
        "x" | "u0" => 0,
        "y" | "u1" => 1,
        "z" | "u2" => 2,
        _ => panic!("unknown face {face:?}"),
    };
    axes[k].iter().map(|c| sign * c).collect()
}

/// The rule for a ray parameter: `|t_lib - t| <= rtol |t| + atol t_scale` (square roots of
/// the tolerances when ill-conditioned); infinities must match exactly.
pub fn t_matches(got: f32, want: f64, t_scale: f64, ill: bool) -> Result<(), String> {
    let tol = if ill { T_TOL.sqrt() } else { T_TOL };
    let want32 = want as f32;
    if got.is_nan() {
        return Err("NaN".into());
    }
    if want32.is_infinite() || got.is_infinite() {
        return if got == want32 { Ok(()) } else { Err(format!("infinities differ ({got} vs {want})")) };
    }
    let err = (f64::from(got) - want).abs();
    let bound = tol * want.abs() + tol * t_scale;
    if err <= bound { Ok(()) } else { Err(format!("error {err:.3e} > tolerance {bound:.3e}")) }
}

/// Collects every failure of one vector file, then asserts once.
pub struct Report {
    name: &'static str,
    failures: Vec<String>,
    /// Cases run (not skipped).
    pub cases: usize,
    /// `f64-only` cases skipped.
    pub skipped: usize,
    /// Individual checks performed (booleans, parameters, normals, …).
    pub checks: usize,
    /// Ray parameters (or barycentrics, distances) compared numerically.
    pub values: usize,
    /// Boolean answers that had to agree exactly (the others accept either answer).
    pub strict_bools: usize,
    /// Hit normals compared with the outward normals of `enter_faces`.
    pub normals: usize,
}

impl Report {
    /// An empty report for the vector file `name`.
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            failures: Vec::new(),
            cases: 0,
            skipped: 0,
            checks: 0,
            values: 0,
            strict_bools: 0,
            normals: 0,
        }
    }

    /// Records a failure of `case`.
    pub fn fail(&mut self, case: &Case<'_>, msg: impl Display) {
        self.failures.push(format!("  {}\n      {msg}", case.describe()));
    }

    /// Records a failure that belongs to no single case (e.g. a group of cases) unless `ok`.
    pub fn fail_unless(&mut self, ok: bool, msg: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.failures.push(format!("  {}", msg()));
        }
    }

    /// Checks a condition, recording `msg` as a failure when it does not hold.
    pub fn check(&mut self, case: &Case<'_>, ok: bool, msg: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.fail(case, msg());
        }
    }

    /// A boolean answer: must agree when `strict`, either answer accepted otherwise.
    pub fn check_bool(&mut self, case: &Case<'_>, what: &str, got: bool, want: bool, strict: bool) {
        self.checks += 1;
        self.strict_bools += usize::from(strict);
        if strict && got != want {
            let m = case.margin_rel();
            self.fail(case, format!("{what}: got {got}, expected {want} (margin_rel {m:e}, must agree)"));
        }
    }

    /// A ray parameter, under the `t` rule.
    pub fn check_t(&mut self, case: &Case<'_>, what: &str, got: f32, want: f64) {
        self.checks += 1;
        self.values += 1;
        let scale = case.t_scale();
        if let Err(why) = t_matches(got, want, scale, case.ill_conditioned()) {
            self.fail(case, format!("{what}: got {got:e}, expected {want:e} (t_scale {scale:e}): {why}"));
        }
    }

    /// A barycentric coordinate: absolute `1e-4` (square root when ill-conditioned).
    pub fn check_bary(&mut self, case: &Case<'_>, what: &str, got: f32, want: f64) {
        self.checks += 1;
        self.values += 1;
        let tol = if case.ill_conditioned() { BARY_TOL.sqrt() } else { BARY_TOL };
        let err = (f64::from(got) - want).abs();
        if err.is_nan() || err > tol {
            self.fail(case, format!("{what}: got {got:e}, expected {want:e} (|error| {err:.3e} > {tol:e})"));
        }
    }

    /// A distance-like value: `|x_lib - x| <= rtol (|x| + S)`.
    pub fn check_dist(&mut self, case: &Case<'_>, what: &str, got: f64, want: f64) {
        self.checks += 1;
        self.values += 1;
        let bound = DIST_TOL * (want.abs() + case.input_scale());
        let err = (got - want).abs();
        if err.is_nan() || err > bound {
            self.fail(
                case,
                format!("{what}: got {got:e}, expected {want:e} (|error| {err:.3e} > {bound:.3e})"),
            );
        }
    }

    /// No output may be NaN.
    pub fn check_no_nan(&mut self, case: &Case<'_>, what: &str, values: &[f32]) {
        self.check(case, values.iter().all(|v| !v.is_nan()), || format!("{what} has a NaN: {values:?}"));
    }

    /// Prints the summary and panics with every failure, or when fewer than `min_cases` ran
    /// or fewer than `min_values` numeric values were compared (so no test passes vacuously).
    #[track_caller]
    pub fn finish(self, min_cases: usize, min_values: usize) {
        println!(
            "{}: {} cases run, {} f64-only skipped; {} checks: {} strict booleans, {} values, \
             {} normals; {} failures",
            self.name,
            self.cases,
            self.skipped,
            self.checks,
            self.strict_bools,
            self.values,
            self.normals,
            self.failures.len()
        );
        let mut msg = String::new();
        if !self.failures.is_empty() {
            let _ = writeln!(msg, "{}: {} failure(s):", self.name, self.failures.len());
            for f in &self.failures {
                let _ = writeln!(msg, "{f}");
            }
        }
        if self.cases < min_cases {
            let _ =
                writeln!(msg, "{}: only {} cases ran (expected at least {min_cases})", self.name, self.cases);
        }
        if self.values < min_values {
            let _ = writeln!(
                msg,
                "{}: only {} values compared (expected at least {min_values})",
                self.name, self.values
            );
        }
        assert!(msg.is_empty(), "\n{msg}");
    }
}
