//! The exact reference vectors (`crates/raybox/tests/vectors/*.json`, schema in the
//! README there), read as `f32` inputs for the baseline counts.
//!
//! Only **binding** cases count: skip `f64-only` cases (their inputs are not `f32`),
//! and keep a case when it is tagged `exact-boundary` or its `margin_rel` is at least
//! `1e-4` (the binary32 rule of the README). Elsewhere either answer is acceptable.

use std::path::PathBuf;

use glam::{Mat2, Mat3, Vec2, Vec3};
use raybox::{Aabb2, Aabb3, Circle, Obb2, Obb3, Ray3, Sphere};
use serde_json::Value;

/// The binary32 threshold of `margin_rel` above which a boolean must be exact.
pub const MARGIN_F32: f64 = 1e-4;

/// One reference case.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case id, e.g. `ray_aabb_3d-s2-a00012`.
    pub id: String,
    /// The `inputs` object.
    pub inputs: Value,
    /// The `expect` object.
    pub expect: Value,
    /// The tags.
    pub tags: Vec<String>,
}

impl Case {
    /// Whether the case carries `tag`.
    #[must_use]
    pub fn has(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }

    /// Whether an `f32` answer must agree with this case's boolean.
    #[must_use]
    pub fn binding_f32(&self) -> bool {
        if self.has("f64-only") {
            return false;
        }
        self.has("exact-boundary") || number(&self.expect["margin_rel"]) >= MARGIN_F32
    }

    /// The expected boolean `field` (`hit`, `overlap`).
    ///
    /// # Panics
    /// If the field is missing or not a boolean.
    #[must_use]
    pub fn expected(&self, field: &str) -> bool {
        self.expect[field].as_bool().unwrap_or_else(|| panic!("{}: no boolean {field}", self.id))
    }
}

/// The folder of the reference vectors.
#[must_use]
pub fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../raybox/tests/vectors")
}

/// All cases of `<query>.json`.
///
/// # Panics
/// If the file is missing or not the documented schema.
#[must_use]
pub fn load(query: &str) -> Vec<Case> {
    let path = dir().join(format!("{query}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let all: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    all.into_iter()
        .map(|c| Case {
            id: c["id"].as_str().unwrap_or_default().to_owned(),
            tags: c["tags"]
                .as_array()
                .map(|t| t.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
                .unwrap_or_default(),
            inputs: c["inputs"].clone(),
            expect: c["expect"].clone(),
        })
        .collect()
}

/// A number written as a JSON number or as a string (`"inf"`, `"-0.0"`, …); NaN if neither.
#[must_use]
pub fn number(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) => s.parse().unwrap_or(f64::NAN),
        _ => f64::NAN,
    }
}

/// A scalar input as `f32` (exact for `f32-exact` cases).
#[must_use]
pub fn f32_of(v: &Value) -> f32 {
    match v {
        Value::String(s) => s.parse().unwrap_or(f32::NAN),
        other => number(other) as f32,
    }
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array().map(|a| a.iter().map(f32_of).collect()).unwrap_or_default()
}

/// A 2D vector input.
#[must_use]
pub fn vec2(v: &Value) -> Vec2 {
    let f = floats(v);
    Vec2::new(f[0], f[1])
}

/// A 3D vector input.
#[must_use]
pub fn vec3(v: &Value) -> Vec3 {
    let f = floats(v);
    Vec3::new(f[0], f[1], f[2])
}

/// The ray of a `ray_*` case (`None` if raybox rejects it, e.g. a zero direction).
#[must_use]
pub fn ray3(i: &Value) -> Option<Ray3> {
    Ray3::try_with_range(vec3(&i["origin"]), vec3(&i["dir"]), f32_of(&i["tmin"]), f32_of(&i["tmax"])).ok()
}

/// A `{min, max}` box.
#[must_use]
pub fn aabb3(b: &Value) -> Option<Aabb3> {
    Aabb3::try_new(vec3(&b["min"]), vec3(&b["max"])).ok()
}

/// A `{min, max}` rectangle.
#[must_use]
pub fn aabb2(b: &Value) -> Option<Aabb2> {
    Aabb2::try_new(vec2(&b["min"]), vec2(&b["max"])).ok()
}

/// A `{center, radius}` ball.
#[must_use]
pub fn sphere(s: &Value) -> Option<Sphere> {
    Sphere::try_new(vec3(&s["center"]), f32_of(&s["radius"])).ok()
}

/// A `{center, radius}` circle.
#[must_use]
pub fn circle(s: &Value) -> Option<Circle> {
    Circle::try_new(vec2(&s["center"]), f32_of(&s["radius"])).ok()
}

/// The rows of `matrix_f64`, rounded to `f32`.
fn rows(m: &Value) -> Vec<Vec<f32>> {
    m.as_array().map(|r| r.iter().map(floats).collect()).unwrap_or_default()
}

/// An OBB from its centre, half extents and the rounded `matrix_f64` (columns = axes).
#[must_use]
pub fn obb3(o: &Value) -> Option<Obb3> {
    let m = rows(&o["rotation"]["matrix_f64"]);
    let col = |k: usize| Vec3::new(m[0][k], m[1][k], m[2][k]);
    Obb3::try_from_matrix(
        vec3(&o["center"]),
        vec3(&o["half_extents"]),
        Mat3::from_cols(col(0), col(1), col(2)),
    )
    .ok()
}

/// A 2D OBB from its centre, half extents and the rounded `matrix_f64`.
#[must_use]
pub fn obb2(o: &Value) -> Option<Obb2> {
    let m = rows(&o["rotation"]["matrix_f64"]);
    let col = |k: usize| Vec2::new(m[0][k], m[1][k]);
    Obb2::try_from_matrix(vec2(&o["center"]), vec2(&o["half_extents"]), Mat2::from_cols(col(0), col(1))).ok()
}

/// How a method fares on the binding cases of one file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Binding cases the method could be run on.
    pub binding: usize,
    /// Of those, the cases it answers differently from the exact answer.
    pub wrong: usize,
    /// Of the wrong answers, the overlaps or hits it reported where there are none.
    pub false_positive: usize,
}

/// Runs `method` on every binding case of `query` that `build` can turn into inputs, and
/// tallies the answers that differ from `expect[field]`.
pub fn tally<I>(
    query: &str,
    field: &str,
    build: impl Fn(&Value) -> Option<I>,
    method: impl Fn(&I) -> bool,
) -> Tally {
    let mut t = Tally::default();
    for case in load(query).iter().filter(|c| c.binding_f32()) {
        let Some(input) = build(&case.inputs) else { continue };
        t.binding += 1;
        let (got, want) = (method(&input), case.expected(field));
        if got != want {
            t.wrong += 1;
            t.false_positive += usize::from(got);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_query_file_loads_with_binding_cases() {
        for q in ["ray_aabb_3d", "sphere_aabb_3d", "circle_aabb_2d", "obb_obb_2d", "obb_obb_3d"] {
            let cases = load(q);
            assert!(cases.len() >= 50, "{q}");
            assert!(cases.iter().filter(|c| c.binding_f32()).count() >= 25, "{q}");
        }
    }
}
