//! `raybox draw`: the queries of a TOML scene, drawn as SVG.
//!
//! Shapes are outlined in blue, or in red when they overlap another shape. Each ray is a
//! line from its origin (a dot) with an arrowhead; where it enters a shape there is a
//! filled green dot, where it leaves a hollow one, and the outward normal of the first
//! point hit is an orange arrow. Overlapping pairs that raybox has a contact query for
//! show their contact points (purple diamonds) and the contact normal as a purple arrow as
//! long as the depth (a short stub when the depth is too small to see), labelled with the
//! depth. A shape with a `motion` is swept against every other shape: a dotted arrow shows
//! the path of its centre, a grey dashed outline where the motion ends, and a green one
//! where it first touches another shape, with the contact point (a purple diamond), the
//! normal of the shape touched (an orange arrow) and the time. Below the picture, one line
//! per query says what raybox answered. 3D scenes go through the same drawing after a
//! parallel or perspective projection; 2D scenes are seen from above.
//!
//! The SVG is written by hand: a handful of element kinds, no dependency.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use glam::{Vec2, Vec3};
use raybox::{Aabb3, Ray3, RayCast};
use serde_json::json;

use crate::GlobalArgs;
use crate::error::CliError;
use crate::output::{Report, write_atomically};
use crate::scene::{Items, Projection, Queries, Scene, Shape2, Shape3, SweepResult, View};

/// Arguments of `raybox draw`.
#[derive(Args, Debug)]
pub struct DrawArgs {
    /// The scene: a TOML file of shapes and rays (see examples/scenes/).
    pub scene: PathBuf,
    /// Where to write the SVG [default: the scene's name with .svg, in the current directory].
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The picture's width in pixels [default: the scene's `width`, else 480].
    #[arg(long, value_parser = clap::value_parser!(u32).range(16..=8192))]
    pub width: Option<u32>,
}

/// Outline colour of a shape that overlaps nothing.
pub const SHAPE_COLOUR: &str = "#1f5fa8";
/// Outline colour of a shape that overlaps another one.
pub const OVERLAP_COLOUR: &str = "#d62728";
const RAY_COLOUR: &str = "#222222";
const ENTRY_COLOUR: &str = "#2ca02c";
const NORMAL_COLOUR: &str = "#ff7f0e";
const CONTACT_COLOUR: &str = "#8e44ad";
const TEXT_COLOUR: &str = "#333333";
const LEGEND_COLOUR: &str = "#777777";
/// Outline colour of a ghost (a shape drawn for reference only), and of a moving shape
/// where its motion ends.
pub const GHOST_COLOUR: &str = "#999999";
/// Outline colour of a moving shape where it first touches another.
pub const IMPACT_COLOUR: &str = "#1b7a3a";
const PATH_COLOUR: &str = "#555555";

/// Runs `raybox draw`.
pub fn run(args: &DrawArgs, _global: GlobalArgs) -> Result<Report, CliError> {
    let scene = Scene::load(&args.scene)?;
    let queries = scene.run_queries();
    let lines = describe(&scene, &queries);
    let width = args.width.or(scene.width).unwrap_or(480);
    let svg = picture(&scene, &queries, &lines, width).map_err(|m| CliError::in_file(&args.scene, m))?;
    let output = match &args.output {
        Some(path) => path.clone(),
        None => {
            let stem = args.scene.file_stem().unwrap_or_else(|| "scene".as_ref());
            Path::new(stem).with_extension("svg")
        }
    };
    write_atomically(&output, |out| {
        out.write_all(svg.as_bytes()).map_err(|e| CliError::writing(&output, &e))
    })?;

    let mut report = Report::default();
    let (dim, shapes, rays) = match &scene.items {
        Items::Two { shapes, rays } => (2, shapes.len(), rays.len()),
        Items::Three { shapes, rays } => (3, shapes.len(), rays.len()),
    };
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let moving = match queries.sweeps.len() {
        0 => String::new(),
        n => format!(" ({n} moving)"),
    };
    report.line(format!(
        "{}: {dim}D, {}{moving}, {}",
        args.scene.display(),
        plural(shapes, "shape"),
        plural(rays, "ray")
    ));
    for line in &lines {
        report.line(format!("  {line}"));
    }
    report.line(format!("wrote {}", output.display()));
    report.field("scene", args.scene.display().to_string());
    report.field("output", output.display().to_string());
    report.field("dim", dim);
    report.field("shapes", shapes);
    report.field("rays", rays);
    report.field("ray_hits", queries.rays.iter().filter(|r| r.span.is_some()).count());
    report.field("overlapping_pairs", queries.pairs.iter().filter(|p| p.overlap == Some(true)).count());
    report.field("contacts", queries.pairs.iter().filter(|p| p.contact.is_some()).count());
    report.field("moving_shapes", queries.sweeps.len());
    report.field("sweep_hits", queries.sweeps.iter().filter(|q| q.hit.is_some()).count());
    report.field("queries", queries_json(&scene, &queries));
    Ok(report)
}

// ---------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------

/// A number for people: at most 3 decimals, no trailing zeros, no `-0`.
pub fn num(x: f32) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "inf".to_owned() } else { "-inf".to_owned() };
    }
    let text = format!("{x:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_owned() } else { text.to_owned() }
}

/// A point for people: `(1, 0.5)`, or `(1, 0.5, 2)` in 3D.
fn point(p: Vec3, dim: usize) -> String {
    let parts: Vec<String> = p.to_array()[..dim].iter().map(|&c| num(c)).collect();
    format!("({})", parts.join(", "))
}

/// One line per query: what raybox answered.
fn describe(scene: &Scene, queries: &Queries) -> Vec<String> {
    let dim = if matches!(scene.items, Items::Two { .. }) { 2 } else { 3 };
    let ray_at = |r: usize, t: f32| ray_point(&scene.items, r, t);
    let mut lines = Vec::new();
    for q in &queries.rays {
        let head = format!("{} → {}:", scene.ray_names[q.ray], scene.shape_names[q.shape]);
        if !q.queried {
            lines.push(format!("{head} no ray query for {}", scene.shape_kinds[q.shape]));
            continue;
        }
        let line = match (q.span, q.hit) {
            (Some(span), Some((t, _, normal))) => {
                let (enter, exit) = (ray_at(q.ray, span.t_enter), ray_at(q.ray, span.t_exit));
                let thin = matches!(scene.shape_kinds[q.shape], "plane" | "triangle");
                let first = if normal == Vec3::ZERO {
                    format!("starts inside at t = {} {}", num(t), point(enter, dim))
                } else if thin && span.t_enter == span.t_exit {
                    format!("hits at t = {} {}", num(span.t_enter), point(enter, dim))
                } else if span.t_enter == span.t_exit {
                    format!("touches at t = {} {}", num(span.t_enter), point(enter, dim))
                } else {
                    format!("enters at t = {} {}", num(span.t_enter), point(enter, dim))
                };
                let leave = if span.t_enter == span.t_exit && normal != Vec3::ZERO {
                    String::new()
                } else {
                    format!(", leaves at t = {} {}", num(span.t_exit), point(exit, dim))
                };
                let normal = if normal == Vec3::ZERO {
                    String::new()
                } else {
                    format!(", normal {}", point(normal, dim))
                };
                format!("{head} {first}{leave}{normal}")
            }
            (Some(span), None) => format!("{head} span [{}, {}]", num(span.t_enter), num(span.t_exit)),
            (None, _) => format!("{head} misses"),
        };
        lines.push(line);
    }
    for q in &queries.sweeps {
        lines.push(sweep_line(scene, q, dim));
    }
    for p in &queries.pairs {
        let (a, b) = (&scene.shape_names[p.a], &scene.shape_names[p.b]);
        lines.push(match (p.overlap, &p.contact) {
            (Some(true), Some(c)) => format!(
                "{a} × {b}: overlap, depth {} along {}, {} contact point{}",
                num(c.depth),
                point(c.normal, dim),
                c.points.len(),
                if c.points.len() == 1 { "" } else { "s" }
            ),
            (Some(true), None) => format!("{a} × {b}: overlap"),
            (Some(false), _) => format!("{a} × {b}: apart"),
            (None, _) => format!(
                "{a} × {b}: no overlap query for {} × {}",
                scene.shape_kinds[p.a], scene.shape_kinds[p.b]
            ),
        });
    }
    lines
}

/// What a sweep found: "ball moving by (4, 0) first touches wall at t = 0.35, point (..),
/// normal (..)", "… already touches …" at `t = 0`, or "… touches nothing".
fn sweep_line(scene: &Scene, q: &SweepResult, dim: usize) -> String {
    let name = &scene.shape_names[q.shape];
    let still = if q.motion == Vec3::ZERO { " (not moving)" } else { "" };
    let head = format!("{name} moving by {}{still}", point(q.motion, dim));
    let mut line = match &q.hit {
        Some(hit) => format!(
            "{head} {} {} at t = {}, point {}, normal {}",
            if hit.t == 0.0 { "already touches" } else { "first touches" },
            scene.shape_names[hit.other],
            num(hit.t),
            point(hit.point, dim),
            point(hit.normal, dim)
        ),
        None => format!("{head} touches nothing"),
    };
    if !q.unqueried.is_empty() {
        let names: Vec<&str> = q.unqueried.iter().map(|&o| scene.shape_names[o].as_str()).collect();
        let _ = write!(line, " (no sweep query of a plane against a plane: {})", names.join(", "));
    }
    line
}

fn queries_json(scene: &Scene, queries: &Queries) -> serde_json::Value {
    let dim = if matches!(scene.items, Items::Two { .. }) { 2 } else { 3 };
    let rays: Vec<_> = queries
        .rays
        .iter()
        .map(|q| {
            let hit = q.hit.map(
                |(t, p, n)| json!({ "t": t, "point": &p.to_array()[..dim], "normal": &n.to_array()[..dim] }),
            );
            json!({
                "ray": scene.ray_names[q.ray],
                "shape": scene.shape_names[q.shape],
                "span": q.span.map(|s| [s.t_enter, s.t_exit]),
                "hit": hit,
            })
        })
        .collect();
    let pairs: Vec<_> = queries
        .pairs
        .iter()
        .map(|p| {
            let contact = p.contact.as_ref().map(|c| {
                let points: Vec<&[f32]> = c.points.iter().map(|q| &q.as_ref()[..dim]).collect();
                json!({ "normal": &c.normal.to_array()[..dim], "depth": c.depth, "points": points })
            });
            json!({
                "a": scene.shape_names[p.a],
                "b": scene.shape_names[p.b],
                "overlap": p.overlap,
                "contact": contact,
            })
        })
        .collect();
    let sweeps: Vec<_> = queries
        .sweeps
        .iter()
        .map(|q| {
            let hit = q.hit.map(|h| {
                json!({
                    "shape": scene.shape_names[h.other],
                    "t": h.t,
                    "point": &h.point.to_array()[..dim],
                    "normal": &h.normal.to_array()[..dim],
                })
            });
            let unqueried: Vec<&str> = q.unqueried.iter().map(|&o| scene.shape_names[o].as_str()).collect();
            json!({
                "shape": scene.shape_names[q.shape],
                "motion": &q.motion.to_array()[..dim],
                "hit": hit,
                "no_sweep_query": unqueried,
            })
        })
        .collect();
    json!({ "rays": rays, "pairs": pairs, "sweeps": sweeps })
}

/// `origin + t * dir` of ray `r`, in 3D (z = 0 for 2D scenes).
fn ray_point(items: &Items, r: usize, t: f32) -> Vec3 {
    match items {
        Items::Two { rays, .. } => rays[r].at(t).extend(0.0),
        Items::Three { rays, .. } => rays[r].at(t),
    }
}

// ---------------------------------------------------------------------------------------
// Geometry to draw, in world coordinates (2D scenes at z = 0)
// ---------------------------------------------------------------------------------------

/// How a shape is drawn.
enum Outline {
    /// A closed, lightly filled polygon: 2D boxes, triangles, plane patches.
    Polygon(Vec<Vec3>),
    /// The 12 edges of a 3D box, each with its two faces (outward normal, a point).
    Edges(Vec<BoxEdge>),
    /// A circle or a sphere (its silhouette).
    Ball { center: Vec3, radius: f32 },
    /// A capsule: the outline around the balls at its two ends.
    Capsule { start: Vec3, end: Vec3, radius: f32 },
    /// A line segment.
    Segment(Vec3, Vec3),
}

struct ShapeDrawing {
    outline: Outline,
    /// Where the name goes.
    label_at: Vec3,
    /// A plane's normal, drawn from `label_at`.
    normal: Option<Vec3>,
}

/// The 8 corners of a box `center + sum(±half[k] * axes[k])`; corner `i` takes the `+`
/// sign on axis `k` when bit `k` of `i` is set.
fn box_corners(center: Vec3, axes: [Vec3; 3], half: Vec3) -> [Vec3; 8] {
    std::array::from_fn(|i| {
        let sign = |k: usize| if i & (1 << k) == 0 { -1.0 } else { 1.0 };
        center + axes[0] * (sign(0) * half.x) + axes[1] * (sign(1) * half.y) + axes[2] * (sign(2) * half.z)
    })
}

/// An edge of a box and the two faces that meet there, as (outward normal, point).
struct BoxEdge {
    ends: [Vec3; 2],
    faces: [(Vec3, Vec3); 2],
}

/// The 12 edges of a box from [`box_corners`]: corners that differ in one bit. The faces
/// along the edge from corner `i` on axis `k` are those of the other two axes, on the
/// sides that corner `i` is on.
fn box_edges(center: Vec3, axes: [Vec3; 3], half: Vec3) -> Vec<BoxEdge> {
    let c = box_corners(center, axes, half);
    let half = half.to_array();
    let mut edges = Vec::with_capacity(12);
    for i in 0..8 {
        for k in 0..3 {
            let j = i | (1 << k);
            if j == i {
                continue;
            }
            let face = |a: usize| {
                let sign = if i & (1 << a) == 0 { -1.0 } else { 1.0 };
                (axes[a] * sign, center + axes[a] * (sign * half[a]))
            };
            edges.push(BoxEdge { ends: [c[i], c[j]], faces: [face((k + 1) % 3), face((k + 2) % 3)] });
        }
    }
    edges
}

/// The shapes' outlines; planes, being infinite, become a square patch of half side `reach`
/// around the point of the plane nearest to `center`.
fn shape_drawings(items: &Items, center: Vec3, reach: f32) -> Vec<ShapeDrawing> {
    match items {
        Items::Two { shapes, .. } => shapes.iter().map(drawing_2d).collect(),
        Items::Three { shapes, .. } => shapes.iter().map(|s| drawing_3d(s, center, reach)).collect(),
    }
}

/// Shape `i` of the scene moved by `offset`, drawn as [`shape_drawings`] draws it; `None`
/// if the move takes it out of the range of `f32`.
fn moved_drawing(items: &Items, i: usize, offset: Vec3, center: Vec3, reach: f32) -> Option<ShapeDrawing> {
    match items {
        Items::Two { shapes, .. } => shapes[i].translated(offset.truncate()).ok().map(|s| drawing_2d(&s)),
        Items::Three { shapes, .. } => {
            shapes[i].translated(offset).ok().map(|s| drawing_3d(&s, center, reach))
        }
    }
}

fn plain(outline: Outline, label_at: Vec3) -> ShapeDrawing {
    ShapeDrawing { outline, label_at, normal: None }
}

fn drawing_2d(shape: &Shape2) -> ShapeDrawing {
    match shape {
        Shape2::Aabb(b) => {
            let (lo, hi) = (b.min(), b.max());
            let corners = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
            plain(Outline::Polygon(corners.iter().map(|c| c.extend(0.0)).collect()), b.center().extend(0.0))
        }
        Shape2::Obb(b) => plain(
            Outline::Polygon(b.corners().iter().map(|c| c.extend(0.0)).collect()),
            b.center().extend(0.0),
        ),
        Shape2::Circle(c) => plain(
            Outline::Ball { center: c.center().extend(0.0), radius: c.radius() },
            c.center().extend(0.0),
        ),
        Shape2::Capsule(c) => plain(
            Outline::Capsule { start: c.start().extend(0.0), end: c.end().extend(0.0), radius: c.radius() },
            ((c.start() + c.end()) / 2.0).extend(0.0),
        ),
        Shape2::Segment(g) => plain(
            Outline::Segment(g.start().extend(0.0), g.end().extend(0.0)),
            ((g.start() + g.end()) / 2.0).extend(0.0),
        ),
    }
}

fn drawing_3d(shape: &Shape3, center: Vec3, reach: f32) -> ShapeDrawing {
    match shape {
        Shape3::Aabb(b) => plain(
            Outline::Edges(box_edges(b.center(), [Vec3::X, Vec3::Y, Vec3::Z], b.half_extents())),
            b.center(),
        ),
        Shape3::Obb(b) => {
            plain(Outline::Edges(box_edges(b.center(), b.axes(), b.half_extents())), b.center())
        }
        Shape3::Sphere(s) => plain(Outline::Ball { center: s.center(), radius: s.radius() }, s.center()),
        Shape3::Plane(p) => {
            let n = p.unit_normal();
            let anchor = center - n * p.signed_distance(center);
            let u = n.any_orthonormal_vector();
            let v = n.cross(u);
            let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .map(|(a, b)| anchor + (u * a + v * b) * reach);
            ShapeDrawing { outline: Outline::Polygon(corners.to_vec()), label_at: anchor, normal: Some(n) }
        }
        Shape3::Triangle(t) => plain(Outline::Polygon(t.vertices().to_vec()), t.centroid()),
        Shape3::Capsule(c) => plain(
            Outline::Capsule { start: c.start(), end: c.end(), radius: c.radius() },
            (c.start() + c.end()) / 2.0,
        ),
        Shape3::Segment(g) => plain(Outline::Segment(g.start(), g.end()), (g.start() + g.end()) / 2.0),
    }
}

/// Every finite point that the picture must show: shape extremes and ray end points.
/// Planes are left out (they are drawn around what the rest spans).
fn finite_points(items: &Items) -> Vec<Vec3> {
    let mut points = Vec::new();
    match items {
        Items::Two { shapes, rays } => {
            for shape in shapes {
                points.extend(box_2d(shape));
            }
            for ray in rays {
                points.extend(
                    [ray.t_min(), ray.t_max()]
                        .into_iter()
                        .filter(|t| t.is_finite())
                        .map(|t| ray.at(t).extend(0.0)),
                );
            }
        }
        Items::Three { shapes, rays } => {
            for shape in shapes {
                points.extend(box_3d(shape).into_iter().flatten());
            }
            for ray in rays {
                points.extend(
                    [ray.t_min(), ray.t_max()].into_iter().filter(|t| t.is_finite()).map(|t| ray.at(t)),
                );
            }
        }
    }
    points
}

/// The corners of the bounding box of shape `i` moved by `offset` (none for a plane, or if
/// the move leaves the range of `f32`).
fn moved_points(items: &Items, i: usize, offset: Vec3) -> Vec<Vec3> {
    match items {
        Items::Two { shapes, .. } => shapes[i].translated(offset.truncate()).map(|s| box_2d(&s).to_vec()),
        Items::Three { shapes, .. } => {
            shapes[i].translated(offset).map(|s| box_3d(&s).into_iter().flatten().collect())
        }
    }
    .unwrap_or_default()
}

/// The min and max corners of a 2D shape's bounding box, at z = 0.
fn box_2d(shape: &Shape2) -> [Vec3; 2] {
    let b = match shape {
        Shape2::Aabb(b) => *b,
        Shape2::Obb(b) => b.to_aabb(),
        Shape2::Circle(c) => c.to_aabb(),
        Shape2::Capsule(c) => c.to_aabb(),
        Shape2::Segment(g) => g.to_aabb(),
    };
    [b.min().extend(0.0), b.max().extend(0.0)]
}

/// The min and max corners of a 3D shape's bounding box; `None` for a plane.
fn box_3d(shape: &Shape3) -> Option<[Vec3; 2]> {
    let b = match shape {
        Shape3::Aabb(b) => *b,
        Shape3::Obb(b) => b.to_aabb(),
        Shape3::Sphere(s) => s.to_aabb(),
        Shape3::Triangle(t) => t.to_aabb(),
        Shape3::Capsule(c) => c.to_aabb(),
        Shape3::Segment(g) => g.to_aabb(),
        Shape3::Plane(_) => return None,
    };
    Some([b.min(), b.max()])
}

/// The rays in 3D: origin, direction, `t_min`, `t_max`.
fn rays_3d(items: &Items) -> Vec<(Vec3, Vec3, f32, f32)> {
    match items {
        Items::Two { rays, .. } => {
            rays.iter().map(|r| (r.origin().extend(0.0), r.dir().extend(0.0), r.t_min(), r.t_max())).collect()
        }
        Items::Three { rays, .. } => {
            rays.iter().map(|r| (r.origin(), r.dir(), r.t_min(), r.t_max())).collect()
        }
    }
}

// ---------------------------------------------------------------------------------------
// The camera
// ---------------------------------------------------------------------------------------

/// World to picture plane (x right, y up), parallel or pinhole.
struct Camera {
    eye: Vec3,
    right: Vec3,
    up: Vec3,
    forward: Vec3,
    /// `1 / tan(fov / 2)` for a perspective camera.
    focal: Option<f32>,
    /// Points closer than this along `forward` are behind a perspective camera.
    near: f32,
}

impl Camera {
    fn new(view: &View, two_d: bool, center: Vec3, size: f32) -> Result<Self, String> {
        if two_d {
            let eye = center + Vec3::Z * size;
            return Ok(Self {
                eye,
                right: Vec3::X,
                up: Vec3::Y,
                forward: Vec3::NEG_Z,
                focal: None,
                near: 0.0,
            });
        }
        let target = view.target.unwrap_or(center);
        let eye = view.eye.unwrap_or(target + View::DEFAULT_EYE_DIRECTION.normalize() * 3.0 * size);
        let forward =
            (target - eye).try_normalize().ok_or("[view]: `eye` and `target` are the same point")?;
        let right = forward
            .cross(view.up)
            .try_normalize()
            .ok_or("[view]: `up` is parallel to the viewing direction")?;
        let up = right.cross(forward);
        let focal = match view.projection {
            Projection::Ortho => None,
            Projection::Perspective { fov_deg } => Some(1.0 / (fov_deg.to_radians() / 2.0).tan()),
        };
        Ok(Self { eye, right, up, forward, focal, near: 1e-3 * size })
    }

    fn depth(&self, p: Vec3) -> f32 {
        (p - self.eye).dot(self.forward)
    }

    /// The picture-plane position of a point in front of the camera.
    fn project(&self, p: Vec3) -> Vec2 {
        let d = p - self.eye;
        let flat = Vec2::new(d.dot(self.right), d.dot(self.up));
        match self.focal {
            None => flat,
            Some(f) => flat * (f / d.dot(self.forward).max(self.near)),
        }
    }

    /// Whether a face with this outward normal, through this point, faces the camera.
    fn faces_camera(&self, normal: Vec3, point: Vec3) -> bool {
        match self.focal {
            None => normal.dot(self.forward) < 0.0,
            Some(_) => normal.dot(self.eye - point) > 0.0,
        }
    }

    fn visible(&self, p: Vec3) -> bool {
        self.focal.is_none() || self.depth(p) >= self.near
    }

    /// The segment `a`–`b`, clipped to what lies in front of the camera, projected.
    fn segment(&self, a: Vec3, b: Vec3) -> Option<[Vec2; 2]> {
        if self.focal.is_none() {
            return Some([self.project(a), self.project(b)]);
        }
        let (da, db) = (self.depth(a) - self.near, self.depth(b) - self.near);
        if da < 0.0 && db < 0.0 {
            return None;
        }
        // Move the end behind the camera to where the segment crosses the near plane.
        let cut = |behind: Vec3, d_behind: f32, front: Vec3, d_front: f32| {
            behind + (front - behind) * (d_behind / (d_behind - d_front))
        };
        let a2 = if da < 0.0 { cut(a, da, b, db) } else { a };
        let b2 = if db < 0.0 { cut(b, db, a, da) } else { b };
        Some([self.project(a2), self.project(b2)])
    }

    /// A ball's centre and (approximate, for a perspective camera) radius in the picture;
    /// `None` when the centre is behind the camera.
    fn disc(&self, center: Vec3, radius: f32) -> Option<(Vec2, f32)> {
        match self.focal {
            None => Some((self.project(center), radius)),
            Some(f) if self.visible(center) => Some((self.project(center), radius * f / self.depth(center))),
            Some(_) => None,
        }
    }

    /// A ball's silhouette: a circle (center, radius) under a parallel projection, else a
    /// polygon; `None` when the eye is inside the ball.
    fn ball(&self, center: Vec3, radius: f32) -> Option<Result<(Vec2, f32), Vec<Vec2>>> {
        if self.focal.is_none() {
            return Some(Ok((self.project(center), radius)));
        }
        let to_center = center - self.eye;
        let d = to_center.length();
        if d <= radius * 1.0001 || !self.visible(center) {
            return None;
        }
        // The rim seen from the eye: a circle on the sphere, perpendicular to the line of
        // sight, at distance r²/d before the centre, of radius r·sqrt(1 - r²/d²).
        let w = to_center / d;
        let rim_center = center - w * (radius * radius / d);
        let rim_radius = radius * (1.0 - (radius / d).powi(2)).sqrt();
        let u = w.any_orthonormal_vector();
        let v = w.cross(u);
        let points = (0..72)
            .map(|i| {
                let a = i as f32 * std::f32::consts::TAU / 72.0;
                let p = rim_center + (u * a.cos() + v * a.sin()) * rim_radius;
                self.project(p)
            })
            .collect();
        Some(Err(points))
    }
}

/// The outline of two discs and everything between them (a capsule's silhouette): the
/// convex hull of 48 points on each circle.
fn two_disc_hull((a, ra): (Vec2, f32), (b, rb): (Vec2, f32)) -> Vec<Vec2> {
    let mut points: Vec<Vec2> = [(a, ra), (b, rb)]
        .iter()
        .flat_map(|&(c, r)| {
            (0..48).map(move |i| {
                let angle = i as f32 * std::f32::consts::TAU / 48.0;
                c + Vec2::new(angle.cos(), angle.sin()) * r
            })
        })
        .collect();
    // Andrew's monotone chain: sort, then the lower and upper hulls.
    points.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let turn = |o: Vec2, p: Vec2, q: Vec2| (p - o).perp_dot(q - o);
    let mut hull: Vec<Vec2> = Vec::with_capacity(points.len() + 1);
    for pass in [points.clone(), points.iter().rev().copied().collect()] {
        let base = hull.len();
        for p in pass {
            while hull.len() >= base + 2 && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop(); // the last point of each chain starts the other
    }
    hull
}

// ---------------------------------------------------------------------------------------
// The picture
// ---------------------------------------------------------------------------------------

/// What the picture holds, in picture-plane coordinates, before fitting to pixels.
#[derive(Default)]
struct Flat {
    /// One per shape: polygons (closed), segments, circles.
    shapes: Vec<FlatShape>,
    /// One per ray: the drawn part, the origin if drawn.
    rays: Vec<Option<([Vec2; 2], bool)>>,
    /// Entry points (filled), exit points (hollow).
    entries: Vec<Vec2>,
    exits: Vec<Vec2>,
    /// Normal arrows.
    normals: Vec<[Vec2; 2]>,
    /// Contacts of overlapping pairs.
    contacts: Vec<FlatContact>,
    /// One per moving shape.
    sweeps: Vec<FlatSweep>,
}

/// A moving shape in the picture: where it ends, its path, where it first touches.
struct FlatSweep {
    /// Its index among the scene's shapes.
    shape: usize,
    /// The index of the shape it first touches, and the time.
    touch: Option<(usize, f32)>,
    /// The shape where its motion ends (none for a zero motion).
    end: Option<FlatShape>,
    /// From its reference point (centre, centroid, …) to where that point ends.
    path: Option<[Vec2; 2]>,
    /// The shape at the time of the first contact.
    impact: Option<FlatShape>,
    /// The contact point.
    point: Option<Vec2>,
    /// The contact normal, from the shape touched toward the moving one.
    normal: Option<[Vec2; 2]>,
}

/// A contact in the picture: its points, the normal arrow, and the depth to print by it.
struct FlatContact {
    points: Vec<Vec2>,
    arrow: Option<[Vec2; 2]>,
    depth: f32,
}

#[derive(Default)]
struct FlatShape {
    polygons: Vec<Vec<Vec2>>,
    segments: Vec<[Vec2; 2]>,
    /// Edges behind the shape (both faces turned away), drawn dashed.
    hidden: Vec<[Vec2; 2]>,
    circles: Vec<(Vec2, f32)>,
    /// A capsule's core segment, drawn thin.
    axes: Vec<[Vec2; 2]>,
    label: Option<Vec2>,
    normal: Option<[Vec2; 2]>,
}

impl Flat {
    /// Where a shape's name goes: centred above its highest point.
    fn label_spot(s: &FlatShape) -> Option<Vec2> {
        let points: Vec<Vec2> = s
            .polygons
            .iter()
            .flatten()
            .chain(s.segments.iter().flatten())
            .chain(s.hidden.iter().flatten())
            .copied()
            .chain(s.circles.iter().flat_map(|&(c, r)| [c - Vec2::splat(r), c + Vec2::splat(r)]))
            .collect();
        let top = points.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
        let (lo, hi) =
            points.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| (lo.min(p.x), hi.max(p.x)));
        (top.is_finite() && lo.is_finite()).then(|| Vec2::new((lo + hi) / 2.0, top)).or(s.label)
    }

    /// Every point to fit in the picture.
    fn extent_points(&self) -> Vec<Vec2> {
        let mut points = Vec::new();
        for s in &self.shapes {
            points.extend(s.polygons.iter().flatten());
            points.extend(s.segments.iter().flatten());
            points.extend(s.hidden.iter().flatten());
            points.extend(s.circles.iter().flat_map(|&(c, r)| [c - Vec2::splat(r), c + Vec2::splat(r)]));
            points.extend(s.normal.iter().flatten());
        }
        points.extend(self.rays.iter().flatten().flat_map(|(seg, _)| seg.iter().copied()));
        points.extend(self.normals.iter().flatten());
        for c in &self.contacts {
            points.extend(c.points.iter().chain(c.arrow.iter().flatten()));
        }
        for q in &self.sweeps {
            for s in q.end.iter().chain(&q.impact) {
                points.extend(s.polygons.iter().flatten());
                points.extend(s.segments.iter().flatten());
                points.extend(s.hidden.iter().flatten());
                points.extend(s.circles.iter().flat_map(|&(c, r)| [c - Vec2::splat(r), c + Vec2::splat(r)]));
            }
            points.extend(q.path.iter().chain(&q.normal).flatten());
            points.extend(q.point);
        }
        points
    }
}

/// The SVG of a scene and its query results.
fn picture(scene: &Scene, queries: &Queries, lines: &[String], width: u32) -> Result<String, String> {
    let two_d = matches!(scene.items, Items::Two { .. });
    let view = scene.view.unwrap_or_else(|| if two_d { View::top_2d() } else { View::default_3d() });

    // The world box the picture is about: the finite geometry, or the 2D window.
    let mut points = finite_points(&scene.items);
    // Where the moving shapes end is part of the picture too.
    for q in &queries.sweeps {
        points.extend(moved_points(&scene.items, q.shape, q.motion));
    }
    if let Some((min, max)) = view.window {
        points = vec![min.extend(0.0), max.extend(0.0)];
    }
    let bounds = Aabb3::from_points(&points).unwrap_or_else(|| Aabb3::new(Vec3::splat(-1.0), Vec3::ONE));
    if let Some(extent) = super::too_far(&bounds) {
        return Err(format!(
            "the scene reaches {} from the origin: too far to draw (at most {} on every axis)",
            num(extent),
            num(super::FAR_LIMIT)
        ));
    }
    let center = bounds.center();
    let size = bounds.size().length().max(1e-3);
    let camera = Camera::new(&view, two_d, center, size)?;

    let mut flat = Flat::default();
    let reach_of_planes = 0.4 * size;
    let drawings = shape_drawings(&scene.items, center, reach_of_planes);
    for d in &drawings {
        flat.shapes.push(flatten(&camera, d, size));
    }

    // Moving shapes: at the end of the motion and at the first contact, outlined alone
    // (a plane without its normal); the path of the point its name hangs from.
    let moved = |i: usize, offset: Vec3| {
        moved_drawing(&scene.items, i, offset, center, reach_of_planes)
            .map(|d| FlatShape { normal: None, ..flatten(&camera, &d, size) })
    };
    for q in &queries.sweeps {
        let moving = q.motion != Vec3::ZERO;
        let from = drawings[q.shape].label_at;
        flat.sweeps.push(FlatSweep {
            shape: q.shape,
            touch: q.hit.map(|h| (h.other, h.t)),
            end: if moving { moved(q.shape, q.motion) } else { None },
            path: if moving { camera.segment(from, from + q.motion) } else { None },
            impact: q.hit.and_then(|h| moved(q.shape, q.motion * h.t)),
            point: q.hit.filter(|h| camera.visible(h.point)).map(|h| camera.project(h.point)),
            normal: q.hit.and_then(|h| camera.segment(h.point, h.point + h.normal * 0.12 * size)),
        });
    }

    // Rays: the part within a box around the scene (infinite rays end at its border).
    let reach = bounds.grow(0.15 * size);
    for (origin, dir, t_min, t_max) in rays_3d(&scene.items) {
        let ray = Ray3::with_range(origin, dir, t_min, t_max);
        let drawn = match reach.ray_span(&ray) {
            Some(span) if span.t_enter < span.t_exit => Some((span.t_enter, span.t_exit)),
            _ if t_min.is_finite() => {
                Some((t_min, if t_max.is_finite() { t_max } else { t_min + 0.3 * size / dir.length() }))
            }
            _ => None,
        };
        flat.rays.push(drawn.and_then(|(a, b)| {
            camera.segment(ray.at(a), ray.at(b)).map(|seg| (seg, t_min.is_finite() && camera.visible(origin)))
        }));
    }
    for q in &queries.rays {
        let Some(span) = q.span else { continue };
        let (enter, exit) =
            (ray_point(&scene.items, q.ray, span.t_enter), ray_point(&scene.items, q.ray, span.t_exit));
        if camera.visible(enter) {
            flat.entries.push(camera.project(enter));
        }
        if span.t_exit > span.t_enter && camera.visible(exit) {
            flat.exits.push(camera.project(exit));
        }
        if let Some((_, p, n)) = q.hit.filter(|h| h.2 != Vec3::ZERO) {
            flat.normals.extend(camera.segment(p, p + n * 0.12 * size));
        }
    }

    for p in &queries.pairs {
        let Some(c) = &p.contact else { continue };
        let middle = c.points.iter().copied().sum::<Vec3>() / c.points.len().max(1) as f32;
        // The arrow is the translation that separates the pair, centred on the contact
        // (from the second shape's deepest point to the first's surface), when it is long
        // enough to see; a stub from the contact otherwise.
        let (from, to) = if c.depth >= MIN_ARROW * size {
            (middle - c.normal * (c.depth / 2.0), middle + c.normal * (c.depth / 2.0))
        } else {
            (middle, middle + c.normal * (MIN_ARROW * size))
        };
        flat.contacts.push(FlatContact {
            points: c.points.iter().filter(|&&q| camera.visible(q)).map(|&q| camera.project(q)).collect(),
            arrow: camera.segment(from, to),
            depth: c.depth,
        });
    }

    let overlapping: Vec<bool> = (0..flat.shapes.len())
        .map(|i| queries.pairs.iter().any(|p| p.overlap == Some(true) && (p.a == i || p.b == i)))
        .collect();
    // The camera measures from the eye, so the window goes through it too.
    let window = view.window.map(|(lo, hi)| (camera.project(lo.extend(0.0)), camera.project(hi.extend(0.0))));
    Ok(svg(scene, &flat, &overlapping, lines, width, window))
}

/// A shape's outline in the picture plane.
fn flatten(camera: &Camera, d: &ShapeDrawing, size: f32) -> FlatShape {
    let mut s = FlatShape::default();
    match &d.outline {
        Outline::Polygon(points) if points.iter().all(|&p| camera.visible(p)) => {
            s.polygons.push(points.iter().map(|&p| camera.project(p)).collect());
        }
        Outline::Polygon(points) => {
            let n = points.len();
            s.segments.extend((0..n).filter_map(|i| camera.segment(points[i], points[(i + 1) % n])));
        }
        Outline::Edges(edges) => {
            for e in edges {
                let hidden = e.faces.iter().all(|&(n, p)| !camera.faces_camera(n, p));
                let list = if hidden { &mut s.hidden } else { &mut s.segments };
                list.extend(camera.segment(e.ends[0], e.ends[1]));
            }
        }
        Outline::Ball { center, radius } => match camera.ball(*center, *radius) {
            Some(Ok(circle)) => s.circles.push(circle),
            Some(Err(polygon)) => s.polygons.push(polygon),
            None => {}
        },
        Outline::Capsule { start, end, radius } => {
            if let (Some(a), Some(b)) = (camera.disc(*start, *radius), camera.disc(*end, *radius)) {
                s.polygons.push(two_disc_hull(a, b));
            }
            // The core segment, thin, so that the capsule's axis shows.
            s.axes.extend(camera.segment(*start, *end));
        }
        Outline::Segment(a, b) => s.segments.extend(camera.segment(*a, *b)),
    }
    if camera.visible(d.label_at) {
        s.label = Some(camera.project(d.label_at));
    }
    if let Some(n) = d.normal {
        s.normal = camera.segment(d.label_at, d.label_at + n * 0.15 * size);
    }
    s
}

/// The shortest contact arrow drawn to scale, as a share of the scene's size: shallower
/// contacts get an arrow this long from the contact point instead.
const MIN_ARROW: f32 = 0.06;

/// Picture plane to pixels: uniform scale, y down, margins, room for the title.
struct Frame {
    min: Vec2,
    max: Vec2,
    scale: f32,
    left: f32,
    top: f32,
}

impl Frame {
    fn px(&self, p: Vec2) -> (f32, f32) {
        (self.left + (p.x - self.min.x) * self.scale, self.top + (self.max.y - p.y) * self.scale)
    }
}

/// Red when the shape overlaps another, grey for a ghost, blue otherwise.
fn shape_colour(scene: &Scene, overlapping: &[bool], i: usize) -> &'static str {
    if scene.shape_ghosts[i] {
        GHOST_COLOUR
    } else if overlapping[i] {
        OVERLAP_COLOUR
    } else {
        SHAPE_COLOUR
    }
}

fn xy(p: (f32, f32)) -> String {
    format!("{:.2},{:.2}", p.0, p.1)
}

/// Escapes text for SVG content and attribute values.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const MAX_CAPTION_LINES: usize = 16;

/// The legend line under pictures with moving shapes.
const SWEEP_LEGEND: &str = "moving shapes: grey dashed where the motion ends, green where it first touches, ◆ there, → the normal there";

/// The second legend line, under pictures with contacts.
const CONTACT_LEGEND: &str =
    "◆ contact point · purple arrow: contact normal × depth, from the first shape to the second";

/// The elements of a shape's outline (the caller's group sets the colours and dashes).
fn outline_elements(out: &mut String, frame: &Frame, s: &FlatShape) {
    for polygon in &s.polygons {
        let pts: Vec<String> = polygon.iter().map(|&p| xy(frame.px(p))).collect();
        let _ = writeln!(out, r#"<polygon points="{}"/>"#, pts.join(" "));
    }
    for &(c, r) in &s.circles {
        let (x, y) = frame.px(c);
        let _ = writeln!(out, r#"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}"/>"#, r * frame.scale);
    }
    for seg in &s.segments {
        let ((x1, y1), (x2, y2)) = (frame.px(seg[0]), frame.px(seg[1]));
        let _ = writeln!(out, r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}"/>"#);
    }
    for seg in &s.axes {
        let ((x1, y1), (x2, y2)) = (frame.px(seg[0]), frame.px(seg[1]));
        let _ = writeln!(
            out,
            r#"<line class="axis" x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke-width="1" stroke-dasharray="2 3"/>"#
        );
    }
    for seg in &s.hidden {
        let ((x1, y1), (x2, y2)) = (frame.px(seg[0]), frame.px(seg[1]));
        let _ = writeln!(
            out,
            r#"<line class="hidden" x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke-width="1" stroke-dasharray="5 4"/>"#
        );
    }
    if let Some(seg) = s.normal {
        let ((x1, y1), (x2, y2)) = (frame.px(seg[0]), frame.px(seg[1]));
        let _ = writeln!(
            out,
            r#"<line class="plane-normal" x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke-dasharray="4 3"/>"#
        );
    }
}

fn svg(
    scene: &Scene,
    flat: &Flat,
    overlapping: &[bool],
    lines: &[String],
    width: u32,
    window: Option<(Vec2, Vec2)>,
) -> String {
    let margin = 24.0;
    let line_height = 15.0;
    let title_height = if scene.title.is_some() { 26.0 } else { 0.0 };
    let shown = lines.len().min(MAX_CAPTION_LINES) + usize::from(lines.len() > MAX_CAPTION_LINES);
    let legends = 1 + usize::from(!flat.contacts.is_empty()) + usize::from(!flat.sweeps.is_empty());
    let caption_height = (shown + legends) as f32 * line_height + 8.0;

    let points = match window {
        Some((lo, hi)) => vec![lo, hi],
        None => flat.extent_points(),
    };
    let (mut min, mut max) =
        points.iter().fold((Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)), |(lo, hi), &p| {
            (lo.min(p), hi.max(p))
        });
    if !(min.is_finite() && max.is_finite()) {
        (min, max) = (Vec2::splat(-1.0), Vec2::ONE);
    }
    if window.is_none() {
        let pad = (max - min).max_element().max(1e-3) * 0.04;
        (min, max) = (min - pad, max + pad);
    }
    let extent = (max - min).max(Vec2::splat(1e-3));
    // Wide enough for the longest caption line (about 6.6 px per character at 12 px).
    let legend = if flat.contacts.is_empty() { 72 } else { CONTACT_LEGEND.chars().count() };
    let legend = if flat.sweeps.is_empty() { legend } else { legend.max(SWEEP_LEGEND.chars().count()) };
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0).max(legend);
    let title = scene.title.as_ref().map_or(0.0, |t| t.chars().count() as f32 * 8.8);
    let width = width.max((longest as f32 * 6.6).max(title).ceil() as u32 + 2 * margin as u32);
    let inner = width as f32 - 2.0 * margin;
    // Keep the picture between a wide strip and a tall portrait.
    let scale = (inner / extent.x).min(1.2 * inner / extent.y);
    let drawing_height = (extent.y * scale).max(0.35 * inner);
    let (center_x, center_y) = ((min.x + max.x) / 2.0, (min.y + max.y) / 2.0);
    let half = Vec2::new(inner / scale / 2.0, drawing_height / scale / 2.0);
    let frame = Frame {
        min: Vec2::new(center_x, center_y) - half,
        max: Vec2::new(center_x, center_y) + half,
        scale,
        left: margin,
        top: margin + title_height,
    };
    let height = (margin + title_height + drawing_height + margin / 2.0 + caption_height).ceil();

    let mut out = String::new();
    let w = width;
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{height}" viewBox="0 0 {w} {height}" font-family="Helvetica, Arial, sans-serif" font-size="12">"#
    );
    if let Some(title) = &scene.title {
        let _ = writeln!(out, "<title>{}</title>", escape(title));
    }
    let _ = writeln!(
        out,
        r#"<defs><marker id="arrow-ray" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{RAY_COLOUR}"/></marker><marker id="arrow-normal" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{NORMAL_COLOUR}"/></marker>{}{}</defs>"#,
        if flat.contacts.is_empty() {
            String::new()
        } else {
            format!(
                r#"<marker id="arrow-contact" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{CONTACT_COLOUR}"/></marker>"#
            )
        },
        if flat.sweeps.is_empty() {
            String::new()
        } else {
            format!(
                r#"<marker id="arrow-path" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{PATH_COLOUR}"/></marker>"#
            )
        }
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    if let Some(title) = &scene.title {
        let _ = writeln!(
            out,
            r#"<text class="title" x="{margin}" y="{}" font-size="15" font-weight="bold" fill="{TEXT_COLOUR}">{}</text>"#,
            margin + 6.0,
            escape(title)
        );
    }

    // Everything drawn stays between the title and the caption (a 2D window may cut shapes).
    let clip_top = frame.top - 0.75 * margin;
    let clip_height = drawing_height + 1.25 * margin;
    let _ = writeln!(
        out,
        r#"<clipPath id="drawing-area"><rect x="0" y="{clip_top:.2}" width="{w}" height="{clip_height:.2}"/></clipPath>"#
    );
    let _ = writeln!(out, r#"<g class="drawing" clip-path="url(#drawing-area)">"#);
    sweep_elements(&mut out, &frame, scene, flat);
    let _ = writeln!(out, r#"<g class="shapes" stroke-width="2" stroke-linejoin="round">"#);
    for (i, s) in flat.shapes.iter().enumerate() {
        let ghost = scene.shape_ghosts[i];
        let colour = shape_colour(scene, overlapping, i);
        let (class, extra) = if ghost {
            ("shape ghost", r#" stroke-dasharray="6 4" stroke-width="1.5" fill-opacity="0""#)
        } else {
            ("shape", r#" fill-opacity="0.10""#)
        };
        let _ = writeln!(
            out,
            r#"<g class="{class}" data-name="{}" data-kind="{}" data-overlapping="{}" stroke="{colour}" fill="{colour}"{extra}>"#,
            escape(&scene.shape_names[i]),
            scene.shape_kinds[i],
            overlapping[i]
        );
        outline_elements(&mut out, &frame, s);
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(out, "</g>");

    let _ = writeln!(out, r#"<g class="rays" stroke="{RAY_COLOUR}" stroke-width="1.5">"#);
    for (i, ray) in flat.rays.iter().enumerate() {
        let Some((seg, origin_shown)) = ray else { continue };
        let ((x1, y1), (x2, y2)) = (frame.px(seg[0]), frame.px(seg[1]));
        let _ = writeln!(out, r#"<g class="ray" data-name="{}">"#, escape(&scene.ray_names[i]));
        let _ = writeln!(
            out,
            r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" marker-end="url(#arrow-ray)"/>"#
        );
        if *origin_shown {
            let _ = writeln!(
                out,
                r#"<circle class="origin" cx="{x1:.2}" cy="{y1:.2}" r="3" fill="{RAY_COLOUR}"/>"#
            );
        }
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(out, "</g>");

    let _ = writeln!(out, r#"<g class="normals" stroke="{NORMAL_COLOUR}" stroke-width="2">"#);
    for seg in &flat.normals {
        let ((x1, y1), (x2, y2)) = (frame.px(seg[0]), frame.px(seg[1]));
        let _ = writeln!(
            out,
            r#"<line class="normal" x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" marker-end="url(#arrow-normal)"/>"#
        );
    }
    let _ = writeln!(out, "</g>");
    if !flat.contacts.is_empty() {
        let _ = writeln!(
            out,
            r#"<g class="contacts" stroke="{CONTACT_COLOUR}" fill="{CONTACT_COLOUR}" stroke-width="2">"#
        );
        for c in &flat.contacts {
            let _ = writeln!(out, r#"<g class="contact" data-depth="{}">"#, num(c.depth));
            if let Some(seg) = c.arrow {
                let ((x1, y1), (x2, y2)) = (frame.px(seg[0]), frame.px(seg[1]));
                let _ = writeln!(
                    out,
                    r#"<line class="contact-normal" x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" marker-end="url(#arrow-contact)"/>"#
                );
                // The depth, beside the arrow's middle, on its right-hand side as drawn
                // (screen y is down, so that is (-dy, dx)).
                let (dx, dy) = (x2 - x1, y2 - y1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-3);
                let (side_x, side_y) = (-dy / len, dx / len);
                let (x, y) = ((x1 + x2) / 2.0 + 7.0 * side_x, (y1 + y2) / 2.0 + 7.0 * side_y + 4.0);
                let anchor = if side_x < -0.3 { "end" } else { "start" };
                let _ = writeln!(
                    out,
                    r#"<text class="contact-depth" x="{x:.2}" y="{y:.2}" stroke="none" font-size="11" text-anchor="{anchor}">depth {}</text>"#,
                    num(c.depth)
                );
            }
            for &p in &c.points {
                let (x, y) = frame.px(p);
                let _ = writeln!(
                    out,
                    r#"<path class="contact-point" d="M{:.2},{y:.2} L{x:.2},{:.2} L{:.2},{y:.2} L{x:.2},{:.2} z" stroke="white" stroke-width="1"/>"#,
                    x - 5.0,
                    y - 5.0,
                    x + 5.0,
                    y + 5.0
                );
            }
            let _ = writeln!(out, "</g>");
        }
        let _ = writeln!(out, "</g>");
    }
    sweep_hit_elements(&mut out, &frame, scene, flat);
    let _ = writeln!(out, r#"<g class="marks" stroke="{ENTRY_COLOUR}" stroke-width="2">"#);
    for &p in &flat.entries {
        let (x, y) = frame.px(p);
        let _ =
            writeln!(out, r#"<circle class="entry" cx="{x:.2}" cy="{y:.2}" r="4.5" fill="{ENTRY_COLOUR}"/>"#);
    }
    for &p in &flat.exits {
        let (x, y) = frame.px(p);
        let _ = writeln!(out, r#"<circle class="exit" cx="{x:.2}" cy="{y:.2}" r="4.5" fill="white"/>"#);
    }
    let _ = writeln!(out, "</g>");

    let _ = writeln!(out, r#"<g class="labels" font-size="11">"#);
    for (i, s) in flat.shapes.iter().enumerate() {
        let Some(at) = Flat::label_spot(s) else { continue };
        let (x, y) = frame.px(at);
        let y = y - 10.0;
        let colour = shape_colour(scene, overlapping, i);
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.2}" fill="{colour}" text-anchor="middle">{}</text>"#,
            x,
            y,
            escape(&scene.shape_names[i])
        );
    }
    for (i, ray) in flat.rays.iter().enumerate() {
        let Some((seg, _)) = ray else { continue };
        let (x, y) = frame.px(seg[0]);
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.2}" fill="{RAY_COLOUR}">{}</text>"#,
            x + 5.0,
            y - 6.0,
            escape(&scene.ray_names[i])
        );
    }
    let _ = writeln!(out, "</g>");

    let _ = writeln!(out, "</g>");

    let mut y = margin + title_height + drawing_height + margin / 2.0 + line_height;
    let _ = writeln!(out, r#"<g class="caption" fill="{TEXT_COLOUR}">"#);
    let _ = writeln!(
        out,
        r#"<text class="legend" x="{margin}" y="{y:.1}" fill="{LEGEND_COLOUR}">● entry · ○ exit · → normal of the first hit · red: overlaps another shape</text>"#
    );
    if !flat.contacts.is_empty() {
        y += line_height;
        let _ = writeln!(
            out,
            r#"<text class="legend" x="{margin}" y="{y:.1}" fill="{LEGEND_COLOUR}">{CONTACT_LEGEND}</text>"#
        );
    }
    if !flat.sweeps.is_empty() {
        y += line_height;
        let _ = writeln!(
            out,
            r#"<text class="legend" x="{margin}" y="{y:.1}" fill="{LEGEND_COLOUR}">{SWEEP_LEGEND}</text>"#
        );
    }
    for line in lines.iter().take(MAX_CAPTION_LINES) {
        y += line_height;
        let _ = writeln!(out, r#"<text x="{margin}" y="{y:.1}">{}</text>"#, escape(line));
    }
    if lines.len() > MAX_CAPTION_LINES {
        y += line_height;
        let _ = writeln!(
            out,
            r#"<text x="{margin}" y="{y:.1}">… and {} more</text>"#,
            lines.len() - MAX_CAPTION_LINES
        );
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(out, "</svg>");
    out
}

/// The moving shapes, under everything else: where each ends (grey, dashed), its path (a
/// dotted arrow) and where it first touches another shape (green).
fn sweep_elements(out: &mut String, frame: &Frame, scene: &Scene, flat: &Flat) {
    if flat.sweeps.is_empty() {
        return;
    }
    let _ = writeln!(out, r#"<g class="sweeps" stroke-linejoin="round">"#);
    for q in &flat.sweeps {
        let touch = match q.touch {
            Some((other, t)) => {
                format!(r#" data-touches="{}" data-t="{}""#, escape(&scene.shape_names[other]), num(t))
            }
            None => String::new(),
        };
        let _ =
            writeln!(out, r#"<g class="sweep" data-name="{}"{touch}>"#, escape(&scene.shape_names[q.shape]));
        if let Some(end) = &q.end {
            let _ = writeln!(
                out,
                r#"<g class="sweep-end" stroke="{GHOST_COLOUR}" fill="{GHOST_COLOUR}" stroke-width="1.5" stroke-dasharray="6 4" fill-opacity="0">"#
            );
            outline_elements(out, frame, end);
            let _ = writeln!(out, "</g>");
        }
        if let Some(seg) = q.path {
            let ((x1, y1), (x2, y2)) = (frame.px(seg[0]), frame.px(seg[1]));
            let _ = writeln!(
                out,
                r#"<line class="sweep-path" x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="{PATH_COLOUR}" stroke-width="1.2" stroke-dasharray="2 3" marker-end="url(#arrow-path)"/>"#
            );
        }
        if let Some(impact) = &q.impact {
            let _ = writeln!(
                out,
                r#"<g class="sweep-impact" stroke="{IMPACT_COLOUR}" fill="{IMPACT_COLOUR}" stroke-width="2" fill-opacity="0.12">"#
            );
            outline_elements(out, frame, impact);
            let _ = writeln!(out, "</g>");
        }
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(out, "</g>");
}

/// Where each moving shape first touches: the contact point (a diamond, as a contact's),
/// the normal (an arrow, as a ray hit's) and the time, under the shape at that time.
fn sweep_hit_elements(out: &mut String, frame: &Frame, scene: &Scene, flat: &Flat) {
    if flat.sweeps.iter().all(|q| q.touch.is_none()) {
        return;
    }
    let _ = writeln!(out, r#"<g class="sweep-hits" stroke-width="2">"#);
    for q in &flat.sweeps {
        let Some((_, t)) = q.touch else { continue };
        let _ = writeln!(out, r#"<g class="sweep-hit" data-name="{}">"#, escape(&scene.shape_names[q.shape]));
        if let Some(seg) = q.normal {
            let ((x1, y1), (x2, y2)) = (frame.px(seg[0]), frame.px(seg[1]));
            let _ = writeln!(
                out,
                r#"<line class="sweep-normal" x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="{NORMAL_COLOUR}" marker-end="url(#arrow-normal)"/>"#
            );
        }
        if let Some(p) = q.point {
            let (x, y) = frame.px(p);
            let _ = writeln!(
                out,
                r#"<path class="sweep-point" d="M{:.2},{y:.2} L{x:.2},{:.2} L{:.2},{y:.2} L{x:.2},{:.2} z" fill="{CONTACT_COLOUR}" stroke="white" stroke-width="1"/>"#,
                x - 5.0,
                y - 5.0,
                x + 5.0,
                y + 5.0
            );
        }
        // The time, just past the normal's tip (or by the point if the normal is hidden).
        let tip = q.normal.map(|seg| (frame.px(seg[0]), frame.px(seg[1]))).or(q.point.map(|p| {
            let (x, y) = frame.px(p);
            ((x, y), (x, y - 1.0))
        }));
        if let Some(((x1, y1), (x2, y2))) = tip {
            let (dx, dy) = (x2 - x1, y2 - y1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-3);
            let (ux, uy) = (dx / len, dy / len);
            let anchor = if ux < -0.5 {
                "end"
            } else if ux > 0.5 {
                "start"
            } else {
                "middle"
            };
            // Text hangs from its baseline: 4 px of its 11 px lie below the centre line.
            let (x, y) = (x2 + 7.0 * ux, y2 + 7.0 * uy + 4.0 + 4.0 * uy);
            let _ = writeln!(
                out,
                r#"<text class="sweep-t" x="{x:.2}" y="{y:.2}" fill="{IMPACT_COLOUR}" stroke="white" stroke-width="3" paint-order="stroke" font-size="11" text-anchor="{anchor}">t = {}</text>"#,
                num(t)
            );
        }
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(out, "</g>");
}
