//! The TOML scene format of `raybox draw`: shapes and rays, checked by raybox's `try_`
//! constructors, and the queries run between them.
//!
//! ```toml
//! title = "A ray through a rectangle"
//! dim = 2                                  # 2 or 3
//!
//! [[shape]]
//! name = "box"                             # optional; "aabb 1" otherwise
//! kind = "aabb"                            # aabb, obb, circle (2D), sphere (3D), capsule, segment,
//!                                          # plane (3D), triangle (3D)
//! min = [1, 1]
//! max = [4, 3]
//! motion = [2, 0]                          # optional: swept by this vector (see below)
//!
//! [[ray]]
//! origin = [0, 0]
//! dir = [2, 1]                             # or from = [..] and to = [..] for a segment
//! t_max = 5                                # optional: t_min = 0 and t_max = inf by default
//! ```
//!
//! Each kind's fields: `aabb`: `min`, `max`; `obb`: `center`, `half_extents` and, in 2D,
//! `angle_deg`, in 3D either `axis` and `angle_deg` or `quat = [x, y, z, w]`; `circle` and
//! `sphere`: `center`, `radius`; `plane`: `normal` and either `offset` (the plane is
//! `dot(normal, p) = offset`) or `point`; `triangle`: `vertices = [[..], [..], [..]]`;
//! `capsule`: `start`, `end`, `radius` (the points within `radius` of the segment);
//! `segment`: `start`, `end`.
//!
//! Any shape may say `ghost = true`: it is drawn dashed, for reference (say, the grown box
//! of a shortcut test), and takes part in no query.
//!
//! Any other shape may say `motion = [x, y]` (`[x, y, z]` in 3D): it is then also swept by
//! that vector (raybox's `Sweep`: moved by `t * motion`, `t` from 0 to 1) against every
//! other shape but the ghosts, each held still where the file puts it (moving or not), and
//! its first contact is drawn: the earliest over the other shapes, of equal times the
//! first in file order (`t = 0` if it starts touching one). A plane moving has no sweep
//! against another plane; the caption says so. The shape takes part in the other queries
//! where the file puts it. A zero motion is allowed (the sweep is then an overlap test); a
//! motion that is not `dim` finite numbers, or that carries the shape out of `f32` range,
//! is an error naming the file and the shape.
//!
//! The optional `[view]` table frames the picture: in 2D, `min` and `max` of the window;
//! in 3D, `kind = "ortho"` or `"perspective"`, `eye`, `target`, `up` and `fov_deg`.

use std::path::Path;

use glam::{Quat, Vec2, Vec3};
use raybox::{
    Aabb2, Aabb3, Capsule2, Capsule3, Circle, Contact, Contact2, Contact3, Obb2, Obb3, Overlaps, Plane, Ray2,
    Ray3, RayCast, RaySpan, Segment2, Segment3, ShapeError, Sphere, Sweep, SweepHit2, SweepHit3, Triangle3,
};
use serde::Deserialize;

use crate::error::CliError;

// ---------------------------------------------------------------------------------------
// The file, as written
// ---------------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneFile {
    title: Option<String>,
    dim: u8,
    width: Option<u32>,
    view: Option<ViewFile>,
    #[serde(default)]
    shape: Vec<ShapeFile>,
    #[serde(default)]
    ray: Vec<RayFile>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ViewFile {
    kind: Option<String>,
    min: Option<Vec<f32>>,
    max: Option<Vec<f32>>,
    eye: Option<Vec<f32>>,
    target: Option<Vec<f32>>,
    up: Option<Vec<f32>>,
    fov_deg: Option<f32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShapeFile {
    kind: String,
    name: Option<String>,
    ghost: Option<bool>,
    min: Option<Vec<f32>>,
    max: Option<Vec<f32>>,
    center: Option<Vec<f32>>,
    half_extents: Option<Vec<f32>>,
    angle_deg: Option<f32>,
    axis: Option<Vec<f32>>,
    quat: Option<Vec<f32>>,
    radius: Option<f32>,
    normal: Option<Vec<f32>>,
    offset: Option<f32>,
    point: Option<Vec<f32>>,
    vertices: Option<Vec<Vec<f32>>>,
    start: Option<Vec<f32>>,
    end: Option<Vec<f32>>,
    /// Read as any TOML value and checked here, so that a malformed motion is reported
    /// with the shape it belongs to.
    motion: Option<toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RayFile {
    name: Option<String>,
    origin: Option<Vec<f32>>,
    dir: Option<Vec<f32>>,
    from: Option<Vec<f32>>,
    to: Option<Vec<f32>>,
    t_min: Option<f32>,
    t_max: Option<f32>,
}

// ---------------------------------------------------------------------------------------
// The scene, validated
// ---------------------------------------------------------------------------------------

/// A 2D shape of a scene.
#[derive(Clone, Copy, Debug)]
pub enum Shape2 {
    /// `kind = "aabb"`.
    Aabb(Aabb2),
    /// `kind = "obb"`.
    Obb(Obb2),
    /// `kind = "circle"`.
    Circle(Circle),
    /// `kind = "capsule"`.
    Capsule(Capsule2),
    /// `kind = "segment"`.
    Segment(Segment2),
}

/// A 3D shape of a scene.
#[derive(Clone, Copy, Debug)]
pub enum Shape3 {
    /// `kind = "aabb"`.
    Aabb(Aabb3),
    /// `kind = "obb"`.
    Obb(Obb3),
    /// `kind = "sphere"`.
    Sphere(Sphere),
    /// `kind = "plane"`.
    Plane(Plane),
    /// `kind = "triangle"`.
    Triangle(Triangle3),
    /// `kind = "capsule"`.
    Capsule(Capsule3),
    /// `kind = "segment"`.
    Segment(Segment3),
}

/// The shapes and rays of a scene, in 2D or in 3D.
#[derive(Clone, Debug)]
pub enum Items {
    /// `dim = 2`.
    Two {
        /// The shapes, in file order.
        shapes: Vec<Shape2>,
        /// The rays, in file order.
        rays: Vec<Ray2>,
    },
    /// `dim = 3`.
    Three {
        /// The shapes, in file order.
        shapes: Vec<Shape3>,
        /// The rays, in file order.
        rays: Vec<Ray3>,
    },
}

/// How a picture is projected.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Projection {
    /// Parallel projection along the view direction.
    Ortho,
    /// Pinhole camera at `eye` with this vertical field of view, in degrees.
    Perspective {
        /// Vertical field of view in degrees.
        fov_deg: f32,
    },
}

/// Where the picture is seen from. 2D scenes are seen from above (+z), with +y up.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// Parallel or perspective.
    pub projection: Projection,
    /// The camera position (for `Ortho`, only the direction from `target` matters); `None`
    /// for the default 3D view direction.
    pub eye: Option<Vec3>,
    /// The point looked at; `None` for the centre of the scene.
    pub target: Option<Vec3>,
    /// The direction that points up in the picture.
    pub up: Vec3,
    /// For 2D scenes: the window to show (min and max corners); `None` to fit the scene.
    pub window: Option<(Vec2, Vec2)>,
}

/// A scene read from a TOML file.
#[derive(Clone, Debug)]
pub struct Scene {
    /// A line to print above the picture.
    pub title: Option<String>,
    /// The picture's width in pixels, if the file sets it.
    pub width: Option<u32>,
    /// The names of the shapes, in file order (given or made up).
    pub shape_names: Vec<String>,
    /// The kinds of the shapes (`"aabb"`, …), in file order.
    pub shape_kinds: Vec<&'static str>,
    /// Ghosts (`ghost = true`) are drawn dashed, for reference, and take part in no query.
    pub shape_ghosts: Vec<bool>,
    /// Each shape's `motion`, if it has one (finite; z = 0 in 2D).
    pub shape_motions: Vec<Option<Vec3>>,
    /// The names of the rays, in file order.
    pub ray_names: Vec<String>,
    /// The geometry.
    pub items: Items,
    /// How to look at it; `None` for the default view.
    pub view: Option<View>,
}

/// The most shapes a scene may hold (their pairs are what `draw` queries and describes).
const MAX_SHAPES: usize = 500;

/// The most rays a scene may hold (each is cast at every shape).
const MAX_RAYS: usize = 2000;

impl Scene {
    /// Reads and validates a scene file; every error names the file and the item.
    pub fn load(path: &Path) -> Result<Self, CliError> {
        let text = std::fs::read_to_string(path).map_err(|e| CliError::reading(path, &e))?;
        Self::parse(path, &text)
    }

    /// Validates the text of a scene file; `path` is used in error messages.
    pub fn parse(path: &Path, text: &str) -> Result<Self, CliError> {
        let file: SceneFile = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
        let err = |what: String| CliError::in_file(path, what);
        if file.dim != 2 && file.dim != 3 {
            return Err(err(format!("dim must be 2 or 3, not {}", file.dim)));
        }
        if file.width.is_some_and(|w| !(16..=8192).contains(&w)) {
            return Err(err("width must be between 16 and 8192 pixels".to_owned()));
        }
        // Every pair of shapes is queried and described (~2 KB each: 2,400 shapes took more
        // than 4.5 GB, found by an audit), and every ray against every shape.
        if file.shape.len() > MAX_SHAPES || file.ray.len() > MAX_RAYS {
            return Err(err(format!(
                "a scene holds at most {MAX_SHAPES} shapes and {MAX_RAYS} rays (this one {} and {}): \
                 every pair is queried and drawn",
                file.shape.len(),
                file.ray.len()
            )));
        }
        let dim = usize::from(file.dim);
        let mut shape_names = Vec::new();
        let mut shape_kinds = Vec::new();
        let mut shape_ghosts = Vec::new();
        let mut shape_motions = Vec::new();
        let mut ray_names = Vec::new();
        let mut shapes2 = Vec::new();
        let mut shapes3 = Vec::new();
        let mut rays2 = Vec::new();
        let mut rays3 = Vec::new();
        for (i, shape) in file.shape.iter().enumerate() {
            let label = item_label("shape", i, shape.name.as_deref());
            let checked = Fields { dim, label: &label };
            let kind = checked.kind(&shape.kind).map_err(&err)?;
            checked.only_fields(kind, shape).map_err(&err)?;
            let ghost = shape.ghost.unwrap_or(false);
            let motion = checked.motion(shape.motion.as_ref()).map_err(&err)?;
            if ghost && motion.is_some() {
                return Err(
                    err(checked.fail("a ghost takes part in no query, so it cannot have a `motion`")),
                );
            }
            // The shape where its motion ends must be a valid shape too (it is drawn there).
            let moved_error = |e: ShapeError| {
                checked.fail(format!(
                    "`motion` {} carries the shape out of range: {e}",
                    motion_text(motion.unwrap_or(Vec3::ZERO), dim)
                ))
            };
            if dim == 2 {
                let s = checked.shape2(kind, shape).map_err(&err)?;
                if let Some(m) = motion {
                    s.translated(m.truncate()).map_err(|e| err(moved_error(e)))?;
                }
                shapes2.push(s);
            } else {
                let s = checked.shape3(kind, shape).map_err(&err)?;
                if let Some(m) = motion {
                    s.translated(m).map_err(|e| err(moved_error(e)))?;
                }
                shapes3.push(s);
            }
            shape_names.push(shape.name.clone().unwrap_or_else(|| format!("{kind} {}", i + 1)));
            shape_kinds.push(kind);
            shape_ghosts.push(ghost);
            shape_motions.push(motion);
        }
        for (i, ray) in file.ray.iter().enumerate() {
            let label = item_label("ray", i, ray.name.as_deref());
            let checked = Fields { dim, label: &label };
            if dim == 2 {
                rays2.push(checked.ray2(ray).map_err(&err)?);
            } else {
                rays3.push(checked.ray3(ray).map_err(&err)?);
            }
            ray_names.push(ray.name.clone().unwrap_or_else(|| format!("ray {}", i + 1)));
        }
        let view = match &file.view {
            Some(v) => Some(parse_view(dim, v).map_err(|m| err(format!("[view]: {m}")))?),
            None => None,
        };
        let items = if dim == 2 {
            Items::Two { shapes: shapes2, rays: rays2 }
        } else {
            Items::Three { shapes: shapes3, rays: rays3 }
        };
        Ok(Self {
            title: file.title,
            width: file.width,
            shape_names,
            shape_kinds,
            shape_ghosts,
            shape_motions,
            ray_names,
            items,
            view,
        })
    }

    /// Runs every query of the scene: each ray against each shape, each pair of shapes, each
    /// moving shape against every other (ghosts left out).
    pub fn run_queries(&self) -> Queries {
        let real = |s: &usize| !self.shape_ghosts[*s];
        // The 2D and 3D shapes share method names but not a trait: one macro body for both.
        macro_rules! run {
            ($shapes:expr, $rays:expr) => {
                Queries {
                    rays: $rays
                        .iter()
                        .enumerate()
                        .flat_map(|(r, ray)| {
                            $shapes.iter().enumerate().map(move |(s, shape)| match shape.cast(ray) {
                                Some((span, hit)) => RayResult { ray: r, shape: s, queried: true, span, hit },
                                None => RayResult { ray: r, shape: s, queried: false, span: None, hit: None },
                            })
                        })
                        .collect(),
                    pairs: pairs($shapes.len())
                        .map(|(a, b)| PairResult {
                            a,
                            b,
                            overlap: $shapes[a].overlaps(&$shapes[b]),
                            contact: $shapes[a].contact(&$shapes[b]),
                        })
                        .collect(),
                    sweeps: Vec::new(),
                }
            };
        }
        let queries = match &self.items {
            Items::Two { shapes, rays } => run!(shapes, rays),
            Items::Three { shapes, rays } => run!(shapes, rays),
        };
        Queries {
            rays: queries.rays.into_iter().filter(|q| real(&q.shape)).collect(),
            pairs: queries.pairs.into_iter().filter(|p| real(&p.a) && real(&p.b)).collect(),
            sweeps: self.run_sweeps(),
        }
    }

    /// Each shape with a `motion` swept against every other shape that is not a ghost,
    /// held still: the earliest contact, the first in file order among equal times.
    fn run_sweeps(&self) -> Vec<SweepResult> {
        let mut sweeps = Vec::new();
        for (s, motion) in self.shape_motions.iter().enumerate() {
            let Some(motion) = *motion else { continue };
            let mut result = SweepResult { shape: s, motion, hit: None, unqueried: Vec::new() };
            for other in (0..self.shape_names.len()).filter(|&o| o != s && !self.shape_ghosts[o]) {
                let answer = match &self.items {
                    Items::Two { shapes, .. } => shapes[s].sweep(motion.truncate(), &shapes[other]),
                    Items::Three { shapes, .. } => shapes[s].sweep(motion, &shapes[other]),
                };
                let touch = match answer {
                    None => {
                        result.unqueried.push(other);
                        continue;
                    }
                    Some(Swept::Two(hit)) => hit.map(|h| SweepTouch::from_2d(other, h)),
                    Some(Swept::Three(hit)) => hit.map(|h| SweepTouch::from_3d(other, h)),
                };
                // Strictly earlier only: of equal times, the first shape in file order.
                if let Some(touch) = touch.filter(|t| result.hit.is_none_or(|best| t.t < best.t)) {
                    result.hit = Some(touch);
                }
            }
            sweeps.push(result);
        }
        sweeps
    }
}

/// A motion as written: `[4, 0]`, or `[4, 0, -1]` in 3D.
fn motion_text(m: Vec3, dim: usize) -> String {
    let parts: Vec<String> = m.to_array()[..dim].iter().map(|&x| number_text(x)).collect();
    format!("[{}]", parts.join(", "))
}

/// A number of the file, as short as it reads: `4`, `0.5`, `1e30`, `nan`, `inf`.
fn number_text<F: Copy + Into<f64> + std::fmt::Display + std::fmt::LowerExp>(x: F) -> String {
    let value: f64 = x.into();
    if value.is_nan() {
        "nan".to_owned()
    } else if value.is_infinite() {
        if value > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else if value != 0.0 && !(1e-4..1e9).contains(&value.abs()) {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

/// "a string", "an integer": a TOML type with its article.
fn a_type(value: &toml::Value) -> String {
    let name = value.type_str();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {name}")
}

/// Every unordered pair `(a, b)` with `a < b < n`.
fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |a| (a + 1..n).map(move |b| (a, b)))
}

/// `[[shape]] #2 "box"`, for error messages (1-based, as a reader counts tables).
fn item_label(table: &str, index: usize, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("[[{table}]] #{} \"{name}\"", index + 1),
        None => format!("[[{table}]] #{}", index + 1),
    }
}

/// A TOML error as `file:line:column: message`.
fn toml_error(path: &Path, text: &str, err: &toml::de::Error) -> CliError {
    let message = err.message().trim_end_matches('\n');
    match err.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            CliError::new(format!("{}:{line}:{column}: {message}", path.display()))
        }
        None => CliError::in_file(path, message),
    }
}

// ---------------------------------------------------------------------------------------
// Checking fields
// ---------------------------------------------------------------------------------------

/// The kinds of shapes, with the fields each accepts (besides `kind` and `name`).
const KINDS: [(&str, &[&str]); 8] = [
    ("aabb", &["min", "max"]),
    ("obb", &["center", "half_extents", "angle_deg", "axis", "quat"]),
    ("circle", &["center", "radius"]),
    ("sphere", &["center", "radius"]),
    ("capsule", &["start", "end", "radius"]),
    ("segment", &["start", "end"]),
    ("plane", &["normal", "offset", "point"]),
    ("triangle", &["vertices"]),
];

/// Checks the fields of one `[[shape]]` or `[[ray]]`; errors start with its label.
struct Fields<'a> {
    dim: usize,
    label: &'a str,
}

impl Fields<'_> {
    fn fail(&self, what: impl std::fmt::Display) -> String {
        format!("{}: {what}", self.label)
    }

    fn shape_error(&self, e: ShapeError) -> String {
        self.fail(e)
    }

    fn kind(&self, kind: &str) -> Result<&'static str, String> {
        let known = KINDS.iter().find(|(k, _)| *k == kind).map(|(k, _)| *k);
        let fits = |k: &str| match k {
            "circle" => self.dim == 2,
            "sphere" | "plane" | "triangle" => self.dim == 3,
            _ => true,
        };
        match known {
            Some(k) if fits(k) => Ok(k),
            Some(k) => Err(self.fail(format!(
                "kind \"{k}\" is not available in a {}D scene{}",
                self.dim,
                match k {
                    "circle" => " (use \"sphere\")",
                    "sphere" => " (use \"circle\")",
                    _ => "",
                }
            ))),
            None => Err(self.fail(format!(
                "unknown kind \"{kind}\" (expected one of: {})",
                KINDS.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
            ))),
        }
    }

    /// Rejects fields that do not belong to `kind` (a typo would otherwise pass silently).
    fn only_fields(&self, kind: &str, s: &ShapeFile) -> Result<(), String> {
        let given = [
            ("min", s.min.is_some()),
            ("max", s.max.is_some()),
            ("center", s.center.is_some()),
            ("half_extents", s.half_extents.is_some()),
            ("angle_deg", s.angle_deg.is_some()),
            ("axis", s.axis.is_some()),
            ("quat", s.quat.is_some()),
            ("radius", s.radius.is_some()),
            ("normal", s.normal.is_some()),
            ("offset", s.offset.is_some()),
            ("point", s.point.is_some()),
            ("vertices", s.vertices.is_some()),
            ("start", s.start.is_some()),
            ("end", s.end.is_some()),
        ];
        let allowed = KINDS.iter().find(|(k, _)| *k == kind).map_or(&[][..], |(_, f)| *f);
        match given.iter().find(|(field, present)| *present && !allowed.contains(field)) {
            Some((field, _)) => Err(self.fail(format!("field `{field}` does not apply to {kind}"))),
            None => Ok(()),
        }
    }

    fn numbers<'v>(&self, field: &str, value: Option<&'v Vec<f32>>, n: usize) -> Result<&'v [f32], String> {
        let v = value.ok_or_else(|| self.fail(format!("missing `{field}`")))?;
        if v.len() != n {
            return Err(self.fail(format!(
                "`{field}` needs {n} numbers in a {}D scene, found {}",
                self.dim,
                v.len()
            )));
        }
        Ok(v)
    }

    fn vec2(&self, field: &str, value: Option<&Vec<f32>>) -> Result<Vec2, String> {
        self.numbers(field, value, 2).map(Vec2::from_slice)
    }

    fn vec3(&self, field: &str, value: Option<&Vec<f32>>) -> Result<Vec3, String> {
        self.numbers(field, value, 3).map(Vec3::from_slice)
    }

    /// The optional `motion`: `dim` finite numbers (z = 0 in 2D).
    fn motion(&self, value: Option<&toml::Value>) -> Result<Option<Vec3>, String> {
        let Some(value) = value else { return Ok(None) };
        let dim = self.dim;
        let example = if dim == 2 { "[1, 0]" } else { "[1, 0, 0]" };
        let toml::Value::Array(items) = value else {
            return Err(self.fail(format!(
                "`motion` must be an array of {dim} numbers, like {example}, not {}",
                a_type(value)
            )));
        };
        if items.len() != dim {
            return Err(
                self.fail(format!("`motion` needs {dim} numbers in a {dim}D scene, found {}", items.len()))
            );
        }
        let mut numbers = Vec::with_capacity(dim);
        for item in items {
            numbers.push(match item {
                toml::Value::Float(x) => *x,
                toml::Value::Integer(x) => *x as f64,
                other => {
                    return Err(self.fail(format!(
                        "`motion` must hold numbers, like {example}, found {}",
                        a_type(other)
                    )));
                }
            });
        }
        let text = || format!("[{}]", numbers.iter().map(|&x| number_text(x)).collect::<Vec<_>>().join(", "));
        if !numbers.iter().all(|x| x.is_finite()) {
            return Err(self.fail(format!("`motion` must be finite, not {}", text())));
        }
        let mut m = Vec3::ZERO;
        for (k, &x) in numbers.iter().enumerate() {
            m[k] = x as f32;
        }
        if !m.is_finite() {
            return Err(self.fail(format!("`motion` {} is beyond the range of f32", text())));
        }
        Ok(Some(m))
    }

    fn scalar(&self, field: &str, value: Option<f32>) -> Result<f32, String> {
        value.ok_or_else(|| self.fail(format!("missing `{field}`")))
    }

    fn shape2(&self, kind: &str, s: &ShapeFile) -> Result<Shape2, String> {
        let shape = match kind {
            "aabb" => Aabb2::try_new(self.vec2("min", s.min.as_ref())?, self.vec2("max", s.max.as_ref())?)
                .map(Shape2::Aabb),
            "obb" => {
                if s.axis.is_some() || s.quat.is_some() {
                    return Err(self.fail("a 2D obb turns by `angle_deg`, not `axis` or `quat`"));
                }
                let angle = s.angle_deg.unwrap_or(0.0).to_radians();
                let center = self.vec2("center", s.center.as_ref())?;
                let half = self.vec2("half_extents", s.half_extents.as_ref())?;
                Obb2::try_new(center, half, angle).map(Shape2::Obb)
            }
            "circle" => {
                let center = self.vec2("center", s.center.as_ref())?;
                Circle::try_new(center, self.scalar("radius", s.radius)?).map(Shape2::Circle)
            }
            "capsule" => {
                let (start, end) = (self.vec2("start", s.start.as_ref())?, self.vec2("end", s.end.as_ref())?);
                Capsule2::try_new(start, end, self.scalar("radius", s.radius)?).map(Shape2::Capsule)
            }
            _ => Segment2::try_new(self.vec2("start", s.start.as_ref())?, self.vec2("end", s.end.as_ref())?)
                .map(Shape2::Segment),
        };
        shape.map_err(|e| self.shape_error(e))
    }

    fn shape3(&self, kind: &str, s: &ShapeFile) -> Result<Shape3, String> {
        let shape = match kind {
            "aabb" => Aabb3::try_new(self.vec3("min", s.min.as_ref())?, self.vec3("max", s.max.as_ref())?)
                .map(Shape3::Aabb),
            "obb" => {
                let center = self.vec3("center", s.center.as_ref())?;
                let half = self.vec3("half_extents", s.half_extents.as_ref())?;
                Obb3::try_new(center, half, self.rotation(s)?).map(Shape3::Obb)
            }
            "sphere" => {
                let center = self.vec3("center", s.center.as_ref())?;
                Sphere::try_new(center, self.scalar("radius", s.radius)?).map(Shape3::Sphere)
            }
            "plane" => {
                let normal = self.vec3("normal", s.normal.as_ref())?;
                match (s.offset, &s.point) {
                    (Some(offset), None) => Plane::try_new(normal, offset),
                    (None, Some(_)) => {
                        Plane::try_from_point_normal(self.vec3("point", s.point.as_ref())?, normal)
                    }
                    _ => return Err(self.fail("a plane needs exactly one of `offset` and `point`")),
                }
                .map(Shape3::Plane)
            }
            "capsule" => {
                let (start, end) = (self.vec3("start", s.start.as_ref())?, self.vec3("end", s.end.as_ref())?);
                Capsule3::try_new(start, end, self.scalar("radius", s.radius)?).map(Shape3::Capsule)
            }
            "segment" => {
                Segment3::try_new(self.vec3("start", s.start.as_ref())?, self.vec3("end", s.end.as_ref())?)
                    .map(Shape3::Segment)
            }
            _ => {
                let vertices = s.vertices.as_ref().ok_or_else(|| self.fail("missing `vertices`"))?;
                if vertices.len() != 3 {
                    return Err(self.fail(format!("`vertices` needs 3 points, found {}", vertices.len())));
                }
                let v: Vec<Vec3> =
                    vertices.iter().map(|p| self.vec3("vertices", Some(p))).collect::<Result<_, _>>()?;
                Triangle3::try_new(v[0], v[1], v[2]).map(Shape3::Triangle)
            }
        };
        shape.map_err(|e| self.shape_error(e))
    }

    /// A 3D obb's rotation: `quat`, or `axis` and `angle_deg`, or none.
    fn rotation(&self, s: &ShapeFile) -> Result<Quat, String> {
        match (&s.quat, &s.axis) {
            (Some(_), Some(_)) => Err(self.fail("give either `quat` or `axis` with `angle_deg`, not both")),
            (Some(q), None) => {
                let q = self
                    .numbers("quat", Some(q), 4)
                    .map_err(|_| self.fail("`quat` needs 4 numbers [x, y, z, w]"))?;
                if s.angle_deg.is_some() {
                    return Err(self.fail("`angle_deg` goes with `axis`, not with `quat`"));
                }
                // Not normalised here: Obb3::try_new accepts any non-zero quaternion and
                // rejects a zero or non-finite one.
                Ok(Quat::from_xyzw(q[0], q[1], q[2], q[3]))
            }
            (None, Some(_)) => {
                let axis = self.vec3("axis", s.axis.as_ref())?;
                let angle = self.scalar("angle_deg", s.angle_deg)?;
                if !angle.is_finite() {
                    return Err(self.fail("`angle_deg` must be finite"));
                }
                let axis =
                    axis.try_normalize().ok_or_else(|| self.fail("`axis` must be finite and not zero"))?;
                Ok(Quat::from_axis_angle(axis, angle.to_radians()))
            }
            (None, None) if s.angle_deg.is_some() => {
                Err(self.fail("a 3D obb needs an `axis` for its `angle_deg`"))
            }
            (None, None) => Ok(Quat::IDENTITY),
        }
    }

    fn ray2(&self, r: &RayFile) -> Result<Ray2, String> {
        self.ray_form(r)?;
        let ray = if r.from.is_some() {
            Ray2::try_segment(self.vec2("from", r.from.as_ref())?, self.vec2("to", r.to.as_ref())?)
        } else {
            let (t_min, t_max) = (r.t_min.unwrap_or(0.0), r.t_max.unwrap_or(f32::INFINITY));
            Ray2::try_with_range(
                self.vec2("origin", r.origin.as_ref())?,
                self.vec2("dir", r.dir.as_ref())?,
                t_min,
                t_max,
            )
        };
        ray.map_err(|e| self.shape_error(e))
    }

    fn ray3(&self, r: &RayFile) -> Result<Ray3, String> {
        self.ray_form(r)?;
        let ray = if r.from.is_some() {
            Ray3::try_segment(self.vec3("from", r.from.as_ref())?, self.vec3("to", r.to.as_ref())?)
        } else {
            let (t_min, t_max) = (r.t_min.unwrap_or(0.0), r.t_max.unwrap_or(f32::INFINITY));
            Ray3::try_with_range(
                self.vec3("origin", r.origin.as_ref())?,
                self.vec3("dir", r.dir.as_ref())?,
                t_min,
                t_max,
            )
        };
        ray.map_err(|e| self.shape_error(e))
    }

    /// A ray is `origin` + `dir` (with an optional `t_min`, `t_max`) or `from` + `to`.
    fn ray_form(&self, r: &RayFile) -> Result<(), String> {
        let segment = r.from.is_some() || r.to.is_some();
        let ray = r.origin.is_some() || r.dir.is_some() || r.t_min.is_some() || r.t_max.is_some();
        if segment && ray {
            return Err(self.fail("give either `origin` and `dir` or `from` and `to`, not both"));
        }
        if !segment && !ray {
            return Err(self.fail("missing `origin` and `dir` (or `from` and `to`)"));
        }
        Ok(())
    }
}

fn parse_view(dim: usize, v: &ViewFile) -> Result<View, String> {
    let fields = Fields { dim, label: "view" };
    let strip = |m: String| m.trim_start_matches("view: ").to_owned();
    if dim == 2 {
        if v.kind.is_some() || v.eye.is_some() || v.target.is_some() || v.up.is_some() || v.fov_deg.is_some()
        {
            return Err("a 2D view takes only `min` and `max`".to_owned());
        }
        let window = match (&v.min, &v.max) {
            (None, None) => None,
            _ => {
                let min = fields.vec2("min", v.min.as_ref()).map_err(strip)?;
                let max = fields.vec2("max", v.max.as_ref()).map_err(strip)?;
                Aabb2::try_new(min, max).map_err(|e| e.to_string())?;
                if (max - min).min_element() <= 0.0 {
                    return Err("the window `min`..`max` must have a positive width and height".to_owned());
                }
                Some((min, max))
            }
        };
        return Ok(View { window, ..View::top_2d() });
    }
    if v.min.is_some() || v.max.is_some() {
        return Err("a 3D view takes `kind`, `eye`, `target`, `up` and `fov_deg`, not `min`/`max`".to_owned());
    }
    let projection = match v.kind.as_deref().unwrap_or("ortho") {
        "ortho" => {
            if v.fov_deg.is_some() {
                return Err("`fov_deg` applies to kind = \"perspective\" only".to_owned());
            }
            Projection::Ortho
        }
        "perspective" => {
            let fov_deg = v.fov_deg.unwrap_or(40.0);
            if !(fov_deg > 1.0 && fov_deg < 170.0) {
                return Err(format!("`fov_deg` must be between 1 and 170 degrees, not {fov_deg}"));
            }
            Projection::Perspective { fov_deg }
        }
        other => return Err(format!("kind must be \"ortho\" or \"perspective\", not \"{other}\"")),
    };
    let default = View::default_3d();
    let eye = match &v.eye {
        Some(_) => Some(fields.vec3("eye", v.eye.as_ref()).map_err(strip)?),
        None if projection == Projection::Ortho => None,
        None => return Err("a perspective view needs an `eye` position".to_owned()),
    };
    let target = match &v.target {
        Some(_) => Some(fields.vec3("target", v.target.as_ref()).map_err(strip)?),
        None => None,
    };
    let up = match &v.up {
        Some(_) => fields.vec3("up", v.up.as_ref()).map_err(strip)?,
        None => default.up,
    };
    if !(eye.is_none_or(|e| e.is_finite()) && up.is_finite() && target.is_none_or(|t| t.is_finite())) {
        return Err("`eye`, `target` and `up` must be finite".to_owned());
    }
    Ok(View { projection, eye, target, up, window: None })
}

impl View {
    /// 2D scenes: seen from +z, x to the right, y up.
    pub fn top_2d() -> Self {
        Self { projection: Projection::Ortho, eye: None, target: None, up: Vec3::Y, window: None }
    }

    /// 3D scenes without a `[view]`: parallel projection from the front right
    /// ([`View::DEFAULT_EYE_DIRECTION`]), z up.
    pub fn default_3d() -> Self {
        Self { projection: Projection::Ortho, eye: None, target: None, up: Vec3::Z, window: None }
    }

    /// Where a 3D view without an `eye` looks from, seen from the target.
    pub const DEFAULT_EYE_DIRECTION: Vec3 = Vec3::new(3.0, -4.0, 2.5);
}

// ---------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------

/// One ray against one shape.
#[derive(Clone, Copy, Debug)]
pub struct RayResult {
    /// The ray's index.
    pub ray: usize,
    /// The shape's index.
    pub shape: usize,
    /// Whether raybox has a ray query for the shape (segments have none).
    pub queried: bool,
    /// `ray_span`: where the ray is inside the shape.
    pub span: Option<RaySpan>,
    /// `cast_ray`: the first point and its normal (z = 0 in 2D).
    pub hit: Option<(f32, Vec3, Vec3)>,
}

/// One pair of shapes.
#[derive(Clone, Debug)]
pub struct PairResult {
    /// The first shape's index.
    pub a: usize,
    /// The second shape's index (`a < b`).
    pub b: usize,
    /// `overlaps`, or `None` when raybox has no overlap query for the pair.
    pub overlap: Option<bool>,
    /// `contact`, for the overlapping pairs that raybox has a contact query for.
    pub contact: Option<ContactResult>,
}

/// A contact, in 3D (z = 0 in 2D): the normal from the pair's first shape to its second,
/// the depth, the contact points.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactResult {
    /// Unit normal, from the first shape to the second.
    pub normal: Vec3,
    /// The minimum translation distance.
    pub depth: f32,
    /// Where the shapes touch (1 to 4 points).
    pub points: Vec<Vec3>,
}

impl From<Contact2> for ContactResult {
    fn from(c: Contact2) -> Self {
        Self {
            normal: c.normal.extend(0.0),
            depth: c.depth,
            points: c.points.iter().map(|p| p.extend(0.0)).collect(),
        }
    }
}

impl From<Contact3> for ContactResult {
    fn from(c: Contact3) -> Self {
        Self { normal: c.normal, depth: c.depth, points: c.points.to_vec() }
    }
}

fn overlap<A: Overlaps<B>, B>(a: &A, b: &B) -> bool {
    a.overlaps(b)
}

fn contact2<A: Contact<B, Output = Contact2>, B>(a: &A, b: &B) -> Option<ContactResult> {
    a.contact(b).map(ContactResult::from)
}

fn contact3<A: Contact<B, Output = Contact3>, B>(a: &A, b: &B) -> Option<ContactResult> {
    a.contact(b).map(ContactResult::from)
}

/// `Some($f(a, b))` for each listed kind of `b`, `None` for the others (no such query).
macro_rules! against {
    ($Shape:ident, $f:ident, $a:expr, $b:expr; $($Kind:ident),*) => {
        match $b {
            $($Shape::$Kind(b) => Some($f($a, b)),)*
            #[allow(unreachable_patterns)]
            _ => None,
        }
    };
}

/// Every query of a scene.
#[derive(Clone, Debug, Default)]
pub struct Queries {
    /// Each ray against each shape, ray by ray.
    pub rays: Vec<RayResult>,
    /// Each pair of shapes.
    pub pairs: Vec<PairResult>,
    /// Each shape with a `motion`, in file order.
    pub sweeps: Vec<SweepResult>,
}

/// One moving shape swept against every other shape of the scene.
#[derive(Clone, Debug)]
pub struct SweepResult {
    /// The moving shape's index.
    pub shape: usize,
    /// Its `motion` (z = 0 in 2D).
    pub motion: Vec3,
    /// The earliest contact over the other shapes; `None` if it touches none.
    pub hit: Option<SweepTouch>,
    /// The other shapes that raybox has no sweep against (a plane moving against a plane).
    pub unqueried: Vec<usize>,
}

/// A sweep's first contact, in 3D (z = 0 in 2D).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepTouch {
    /// The index of the shape touched.
    pub other: usize,
    /// The fraction of the motion at the first contact, in `[0, 1]`.
    pub t: f32,
    /// Where the shapes touch at time `t`.
    pub point: Vec3,
    /// Unit normal at the contact, from the shape touched toward the moving one.
    pub normal: Vec3,
}

impl SweepTouch {
    fn from_2d(other: usize, h: SweepHit2) -> Self {
        Self { other, t: h.t, point: h.point.extend(0.0), normal: h.normal.extend(0.0) }
    }

    fn from_3d(other: usize, h: SweepHit3) -> Self {
        Self { other, t: h.t, point: h.point, normal: h.normal }
    }
}

/// A sweep's answer before it is known which shape it was against.
enum Swept {
    Two(Option<SweepHit2>),
    Three(Option<SweepHit3>),
}

fn sweep2<A: Sweep<B, Motion = Vec2, Hit = SweepHit2>, B>((a, motion): (&A, Vec2), b: &B) -> Swept {
    Swept::Two(a.sweep(motion, b))
}

fn sweep3<A: Sweep<B, Motion = Vec3, Hit = SweepHit3>, B>((a, motion): (&A, Vec3), b: &B) -> Swept {
    Swept::Three(a.sweep(motion, b))
}

impl Shape2 {
    /// The shape moved by `offset`; an error when that leaves the range of `f32`.
    pub fn translated(&self, offset: Vec2) -> Result<Self, ShapeError> {
        Ok(match self {
            Self::Aabb(b) => Self::Aabb(Aabb2::try_new(b.min() + offset, b.max() + offset)?),
            Self::Obb(b) => {
                Self::Obb(Obb2::try_from_rotation(b.center() + offset, b.half_extents(), b.axes()[0])?)
            }
            Self::Circle(c) => Self::Circle(Circle::try_new(c.center() + offset, c.radius())?),
            Self::Capsule(c) => {
                Self::Capsule(Capsule2::try_new(c.start() + offset, c.end() + offset, c.radius())?)
            }
            Self::Segment(g) => Self::Segment(Segment2::try_new(g.start() + offset, g.end() + offset)?),
        })
    }

    /// `sweep` against `other`, held still (every 2D pair has one; always `Some`).
    fn sweep(&self, motion: Vec2, other: &Self) -> Option<Swept> {
        use Shape2::{Aabb, Capsule, Circle, Obb, Segment};
        match self {
            Aabb(a) => against!(Shape2, sweep2, (a, motion), other; Aabb, Obb, Circle, Capsule, Segment),
            Obb(a) => against!(Shape2, sweep2, (a, motion), other; Aabb, Obb, Circle, Capsule, Segment),
            Circle(a) => against!(Shape2, sweep2, (a, motion), other; Aabb, Obb, Circle, Capsule, Segment),
            Capsule(a) => against!(Shape2, sweep2, (a, motion), other; Aabb, Obb, Circle, Capsule, Segment),
            Segment(a) => against!(Shape2, sweep2, (a, motion), other; Aabb, Obb, Circle, Capsule, Segment),
        }
    }

    /// `ray_span` and `cast_ray` (every 2D shape has them).
    #[allow(clippy::type_complexity)]
    fn cast(&self, ray: &Ray2) -> Option<(Option<RaySpan>, Option<(f32, Vec3, Vec3)>)> {
        let lift = |h: raybox::RayHit2| (h.t, h.point.extend(0.0), h.normal.extend(0.0));
        Some(match self {
            Self::Aabb(s) => (s.ray_span(ray), s.cast_ray(ray).map(lift)),
            Self::Obb(s) => (s.ray_span(ray), s.cast_ray(ray).map(lift)),
            Self::Circle(s) => (s.ray_span(ray), s.cast_ray(ray).map(lift)),
            Self::Capsule(s) => (s.ray_span(ray), s.cast_ray(ray).map(lift)),
            Self::Segment(s) => (s.ray_span(ray), s.cast_ray(ray).map(lift)),
        })
    }

    /// Every 2D pair has an overlap query.
    fn overlaps(&self, other: &Self) -> Option<bool> {
        use Shape2::{Aabb, Capsule, Circle, Obb, Segment};
        match self {
            Aabb(a) => against!(Shape2, overlap, a, other; Aabb, Obb, Circle, Capsule, Segment),
            Obb(a) => against!(Shape2, overlap, a, other; Aabb, Obb, Circle, Capsule, Segment),
            Circle(a) => against!(Shape2, overlap, a, other; Aabb, Obb, Circle, Capsule, Segment),
            Capsule(a) => against!(Shape2, overlap, a, other; Aabb, Obb, Circle, Capsule, Segment),
            Segment(a) => against!(Shape2, overlap, a, other; Aabb, Obb, Circle, Capsule, Segment),
        }
    }

    /// The contact, when the shapes overlap and raybox has a contact query for the pair.
    fn contact(&self, other: &Self) -> Option<ContactResult> {
        use Shape2::{Aabb, Capsule, Circle, Obb, Segment};
        match self {
            Aabb(a) => against!(Shape2, contact2, a, other; Aabb, Obb, Circle, Capsule, Segment),
            Obb(a) => against!(Shape2, contact2, a, other; Aabb, Obb, Circle, Capsule, Segment),
            Circle(a) => against!(Shape2, contact2, a, other; Aabb, Obb, Circle, Capsule, Segment),
            Capsule(a) => against!(Shape2, contact2, a, other; Aabb, Obb, Circle, Capsule, Segment),
            Segment(a) => against!(Shape2, contact2, a, other; Aabb, Obb, Circle, Capsule, Segment),
        }
        .flatten()
    }
}

impl Shape3 {
    /// The shape moved by `offset`; an error when that leaves the range of `f32`.
    pub fn translated(&self, offset: Vec3) -> Result<Self, ShapeError> {
        Ok(match self {
            Self::Aabb(b) => Self::Aabb(Aabb3::try_new(b.min() + offset, b.max() + offset)?),
            Self::Obb(b) => {
                Self::Obb(Obb3::try_from_matrix(b.center() + offset, b.half_extents(), b.rotation())?)
            }
            Self::Sphere(s) => Self::Sphere(Sphere::try_new(s.center() + offset, s.radius())?),
            Self::Plane(p) => {
                // `dot(n, x) = offset` moved by `d`: `dot(n, x) = offset + dot(n, d)`.
                let shift = p.normal().as_dvec3().dot(offset.as_dvec3());
                Self::Plane(Plane::try_new(p.normal(), (f64::from(p.offset()) + shift) as f32)?)
            }
            Self::Triangle(t) => {
                let [a, b, c] = t.vertices();
                Self::Triangle(Triangle3::try_new(a + offset, b + offset, c + offset)?)
            }
            Self::Capsule(c) => {
                Self::Capsule(Capsule3::try_new(c.start() + offset, c.end() + offset, c.radius())?)
            }
            Self::Segment(g) => Self::Segment(Segment3::try_new(g.start() + offset, g.end() + offset)?),
        })
    }

    /// `sweep` against `other`, held still; `None` for a plane against a plane (no sweep).
    fn sweep(&self, motion: Vec3, other: &Self) -> Option<Swept> {
        use Shape3::{Aabb, Capsule, Obb, Plane, Segment, Sphere, Triangle};
        let m = motion;
        match self {
            Aabb(a) => {
                against!(Shape3, sweep3, (a, m), other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Obb(a) => {
                against!(Shape3, sweep3, (a, m), other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Sphere(a) => {
                against!(Shape3, sweep3, (a, m), other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Plane(a) => {
                against!(Shape3, sweep3, (a, m), other; Aabb, Obb, Sphere, Triangle, Capsule, Segment)
            }
            Triangle(a) => {
                against!(Shape3, sweep3, (a, m), other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Capsule(a) => {
                against!(Shape3, sweep3, (a, m), other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Segment(a) => {
                against!(Shape3, sweep3, (a, m), other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
        }
    }

    /// `ray_span` and `cast_ray` (every 3D shape has them).
    #[allow(clippy::type_complexity)]
    fn cast(&self, ray: &Ray3) -> Option<(Option<RaySpan>, Option<(f32, Vec3, Vec3)>)> {
        let unpack = |h: raybox::RayHit3| (h.t, h.point, h.normal);
        Some(match self {
            Self::Aabb(s) => (s.ray_span(ray), s.cast_ray(ray).map(unpack)),
            Self::Obb(s) => (s.ray_span(ray), s.cast_ray(ray).map(unpack)),
            Self::Sphere(s) => (s.ray_span(ray), s.cast_ray(ray).map(unpack)),
            Self::Plane(s) => (s.ray_span(ray), s.cast_ray(ray).map(unpack)),
            Self::Triangle(s) => (s.ray_span(ray), s.cast_ray(ray).map(unpack)),
            Self::Capsule(s) => (s.ray_span(ray), s.cast_ray(ray).map(unpack)),
            Self::Segment(s) => (s.ray_span(ray), s.cast_ray(ray).map(unpack)),
        })
    }

    /// Every 3D pair has an overlap query (always `Some`).
    fn overlaps(&self, other: &Self) -> Option<bool> {
        use Shape3::{Aabb, Capsule, Obb, Plane, Segment, Sphere, Triangle};
        match self {
            Aabb(a) => {
                against!(Shape3, overlap, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Obb(a) => {
                against!(Shape3, overlap, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Sphere(a) => {
                against!(Shape3, overlap, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Plane(a) => {
                against!(Shape3, overlap, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Triangle(a) => {
                against!(Shape3, overlap, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Capsule(a) => {
                against!(Shape3, overlap, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Segment(a) => {
                against!(Shape3, overlap, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
        }
    }

    /// The contact, when the shapes overlap (every pair but plane–plane has a contact query).
    fn contact(&self, other: &Self) -> Option<ContactResult> {
        use Shape3::{Aabb, Capsule, Obb, Plane, Segment, Sphere, Triangle};
        match self {
            Aabb(a) => {
                against!(Shape3, contact3, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Obb(a) => {
                against!(Shape3, contact3, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Sphere(a) => {
                against!(Shape3, contact3, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Plane(a) => against!(Shape3, contact3, a, other; Aabb, Obb, Sphere, Triangle, Capsule, Segment),
            Triangle(a) => {
                against!(Shape3, contact3, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Capsule(a) => {
                against!(Shape3, contact3, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
            Segment(a) => {
                against!(Shape3, contact3, a, other; Aabb, Obb, Sphere, Plane, Triangle, Capsule, Segment)
            }
        }
        .flatten()
    }
}
