//! `raybox draw` with moving shapes (`motion`): the first contact it reports is raybox's
//! `Sweep` answer, called here directly on the same shapes, and the picture shows the shape
//! there, the contact point and the normal where they belong.

mod common;

use std::path::{Path, PathBuf};

use common::{raybox, repo_root};
use glam::{Quat, Vec2, Vec3};
use raybox::{
    Aabb2, Aabb3, Capsule2, Circle, Obb2, Obb3, Plane, Sphere, Sweep, SweepHit2, SweepHit3, Triangle3,
};
use serde_json::Value;

const IMPACT_COLOUR: &str = "#1b7a3a";
const GHOST_COLOUR: &str = "#999999";

/// Draws `scene` with `--json`: the JSON report, the SVG and the text report.
fn draw(scene: &Path) -> (Value, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.svg");
    let run = raybox(dir.path(), &["draw", scene.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"]);
    run.assert_ok();
    let json = run.json();
    let svg = std::fs::read_to_string(&out).unwrap();
    let text = raybox(dir.path(), &["draw", scene.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    text.assert_ok();
    (json, svg, text.stdout)
}

/// Writes `text` as `name.toml` in `dir` and draws it.
fn draw_text(dir: &Path, name: &str, text: &str) -> (Value, String, String) {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    draw(&path)
}

fn scene(name: &str) -> PathBuf {
    repo_root().join("examples/scenes").join(format!("{name}.toml"))
}

/// The `queries.sweeps` entry of a moving shape.
fn sweep_of<'a>(json: &'a Value, shape: &str) -> &'a Value {
    json["queries"]["sweeps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["shape"] == shape)
        .unwrap_or_else(|| panic!("a sweep of {shape} in {json}"))
}

/// A JSON number as the `f32` it was written from (serde writes an `f32` in its shortest
/// form, which reads back to the same `f32`).
fn f(v: &Value) -> f32 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v}")) as f32
}

fn vec2(v: &Value) -> Vec2 {
    Vec2::new(f(&v[0]), f(&v[1]))
}

fn vec3(v: &Value) -> Vec3 {
    Vec3::new(f(&v[0]), f(&v[1]), f(&v[2]))
}

/// The earliest hit of a list of (name, sweep answer), the first of equal times.
fn earliest<H: Copy>(
    answers: &[(&'static str, Option<H>)],
    t: impl Fn(&H) -> f32,
) -> Option<(&'static str, H)> {
    let mut best: Option<(&'static str, H)> = None;
    for &(name, hit) in answers {
        if let Some(hit) = hit
            && best.is_none_or(|(_, b)| t(&hit) < t(&b))
        {
            best = Some((name, hit));
        }
    }
    best
}

/// `draw`'s numbers: at most 3 decimals, no trailing zeros, no `-0`.
fn num(x: f32) -> String {
    let text = format!("{x:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_owned() } else { text.to_owned() }
}

fn assert_hit2(json: &Value, shape: &str, expected: Option<(&str, SweepHit2)>) {
    let hit = &sweep_of(json, shape)["hit"];
    match expected {
        None => assert_eq!(*hit, Value::Null, "{shape} touches nothing"),
        Some((other, h)) => {
            assert_eq!(hit["shape"], other, "{shape}: {hit}");
            assert_eq!(f(&hit["t"]), h.t, "{shape}: {hit}");
            assert_eq!(vec2(&hit["point"]), h.point, "{shape}: {hit}");
            assert_eq!(vec2(&hit["normal"]), h.normal, "{shape}: {hit}");
        }
    }
}

fn assert_hit3(json: &Value, shape: &str, expected: Option<(&str, SweepHit3)>) {
    let hit = &sweep_of(json, shape)["hit"];
    match expected {
        None => assert_eq!(*hit, Value::Null, "{shape} touches nothing"),
        Some((other, h)) => {
            assert_eq!(hit["shape"], other, "{shape}: {hit}");
            assert_eq!(f(&hit["t"]), h.t, "{shape}: {hit}");
            assert_eq!(vec3(&hit["point"]), h.point, "{shape}: {hit}");
            assert_eq!(vec3(&hit["normal"]), h.normal, "{shape}: {hit}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// The SVG
// ---------------------------------------------------------------------------------------

fn attr(n: roxmltree::Node, name: &str) -> f32 {
    n.attribute(name).unwrap_or_else(|| panic!("{name} on {n:?}")).parse().unwrap()
}

fn has_class(n: &roxmltree::Node, class: &str) -> bool {
    n.attribute("class") == Some(class)
}

/// The group of class `class` whose `data-name` is `name`.
fn group<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
    class: &str,
    name: &str,
) -> Option<roxmltree::Node<'a, 'i>> {
    doc.descendants().find(|n| has_class(n, class) && n.attribute("data-name") == Some(name))
}

fn child<'a, 'i>(n: roxmltree::Node<'a, 'i>, class: &str) -> Option<roxmltree::Node<'a, 'i>> {
    n.children().find(|c| has_class(c, class))
}

/// The first `<circle>` of a group: (cx, cy, r) in pixels.
fn circle_of(g: roxmltree::Node) -> (f32, f32, f32) {
    let c = g.children().find(|c| c.has_tag_name("circle")).expect("a circle");
    (attr(c, "cx"), attr(c, "cy"), attr(c, "r"))
}

/// The points of the first `<polygon>` of a group, in pixels.
fn polygon_of(g: roxmltree::Node) -> Vec<(f32, f32)> {
    let p = g.children().find(|c| c.has_tag_name("polygon")).expect("a polygon");
    p.attribute("points")
        .unwrap()
        .split_whitespace()
        .map(|xy| {
            let (x, y) = xy.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// The centre of a contact diamond `M x-5,y L x,y-5 …`.
fn diamond_centre(n: roxmltree::Node) -> (f32, f32) {
    let d = n.attribute("d").unwrap();
    let numbers: Vec<f32> = d
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|s| s.parse().ok())
        .collect();
    (numbers[0] + 5.0, numbers[1])
}

/// A 2D picture's world-to-pixel map (uniform scale, y down), from a circle drawn at a
/// known centre and radius.
struct PixelMap {
    scale: f32,
    origin: (f32, f32),
}

impl PixelMap {
    fn from_circle((cx, cy, r): (f32, f32, f32), center: Vec2, radius: f32) -> Self {
        let scale = r / radius;
        Self { scale, origin: (cx - center.x * scale, cy + center.y * scale) }
    }

    fn px(&self, p: Vec2) -> (f32, f32) {
        (self.origin.0 + p.x * self.scale, self.origin.1 - p.y * self.scale)
    }
}

fn assert_near(a: (f32, f32), b: (f32, f32), what: &str) {
    // The SVG holds 2 decimals; the map is read from such numbers.
    assert!((a.0 - b.0).abs() < 0.05 && (a.1 - b.1).abs() < 0.05, "{what}: {a:?}, expected {b:?}");
}

// ---------------------------------------------------------------------------------------
// The gallery scenes, against the library
// ---------------------------------------------------------------------------------------

/// The shapes of `examples/scenes/sweeps_2d.toml`, built as `draw` builds them.
struct Sweeps2d {
    wall: Aabb2,
    ramp: Obb2,
    ball: Circle,
    crate_box: Aabb2,
    pill: Capsule2,
}

const BALL_MOTION: Vec2 = Vec2::new(2.6, -3.6);
const CRATE_MOTION: Vec2 = Vec2::new(-2.5, 0.0);
const PILL_MOTION: Vec2 = Vec2::new(4.0, 0.0);

impl Sweeps2d {
    fn new() -> Self {
        Self {
            wall: Aabb2::new(Vec2::new(6.0, -4.0), Vec2::new(7.0, 3.0)),
            ramp: Obb2::new(Vec2::new(3.0, -1.5), Vec2::new(2.2, 0.3), (-15.0f32).to_radians()),
            ball: Circle::new(Vec2::new(1.8, 2.2), 0.6),
            crate_box: Aabb2::new(Vec2::new(5.6, 1.5), Vec2::new(6.6, 2.5)),
            pill: Capsule2::new(Vec2::new(-0.5, -3.6), Vec2::new(1.0, -3.6), 0.3),
        }
    }
}

#[test]
fn the_2d_gallery_sweeps_are_raybox_s_answers() {
    let s = Sweeps2d::new();
    let t = |h: &SweepHit2| h.t;
    let ball = earliest(
        &[
            ("wall", s.ball.sweep(BALL_MOTION, &s.wall)),
            ("ramp", s.ball.sweep(BALL_MOTION, &s.ramp)),
            ("crate", s.ball.sweep(BALL_MOTION, &s.crate_box)),
            ("pill", s.ball.sweep(BALL_MOTION, &s.pill)),
        ],
        t,
    );
    let crate_hit = earliest(
        &[
            ("wall", s.crate_box.sweep(CRATE_MOTION, &s.wall)),
            ("ramp", s.crate_box.sweep(CRATE_MOTION, &s.ramp)),
            ("ball", s.crate_box.sweep(CRATE_MOTION, &s.ball)),
            ("pill", s.crate_box.sweep(CRATE_MOTION, &s.pill)),
        ],
        t,
    );
    let pill = earliest(
        &[
            ("wall", s.pill.sweep(PILL_MOTION, &s.wall)),
            ("ramp", s.pill.sweep(PILL_MOTION, &s.ramp)),
            ("ball", s.pill.sweep(PILL_MOTION, &s.ball)),
            ("crate", s.pill.sweep(PILL_MOTION, &s.crate_box)),
        ],
        t,
    );
    // What the scene is about: the ball lands on the ramp part way, the crate starts in
    // the wall, the pill passes under everything.
    let (ball_on, ball_hit) = ball.expect("the ball touches something");
    assert_eq!(ball_on, "ramp");
    assert!(ball_hit.t > 0.5 && ball_hit.t < 1.0, "{ball_hit:?}");
    let (crate_on, crate_start) = crate_hit.expect("the crate touches the wall");
    assert_eq!((crate_on, crate_start.t, crate_start.normal), ("wall", 0.0, Vec2::NEG_X));
    assert!(pill.is_none());

    let (json, svg, text) = draw(&scene("sweeps_2d"));
    assert_eq!((json["moving_shapes"].as_u64(), json["sweep_hits"].as_u64()), (Some(3), Some(2)));
    assert_hit2(&json, "ball", ball);
    assert_hit2(&json, "crate", crate_hit);
    assert_hit2(&json, "pill", pill);
    assert_eq!(sweep_of(&json, "ball")["motion"], serde_json::json!([2.6f32, -3.6f32]));

    // The caption lines say the same, in draw's numbers.
    let (h, c) = (ball_hit, crate_start);
    for line in [
        format!(
            "ball moving by (2.6, -3.6) first touches ramp at t = {}, point ({}, {}), normal ({}, {})",
            num(h.t),
            num(h.point.x),
            num(h.point.y),
            num(h.normal.x),
            num(h.normal.y)
        ),
        format!(
            "crate moving by (-2.5, 0) already touches wall at t = 0, point ({}, {}), normal (-1, 0)",
            num(c.point.x),
            num(c.point.y)
        ),
        "pill moving by (4, 0) touches nothing".to_owned(),
    ] {
        assert!(text.contains(&format!("  {line}\n")), "{line:?} in\n{text}");
        assert!(svg.contains(&format!(">{line}</text>")), "{line:?} under the picture");
    }
    assert!(
        text.starts_with(&format!("{}: 2D, 5 shapes (3 moving), 0 rays\n", scene("sweeps_2d").display()))
    );

    // The picture: the ball where it first touches, at start + t * motion, the same size;
    // the contact point on the ramp; the normal arrow from it, along the normal.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let start = circle_of(group(&doc, "shape", "ball").unwrap());
    let map = PixelMap::from_circle(start, s.ball.center(), s.ball.radius());
    let sweep = group(&doc, "sweep", "ball").unwrap();
    assert_eq!(sweep.attribute("data-touches"), Some("ramp"));
    assert_eq!(sweep.attribute("data-t"), Some(num(h.t).as_str()));
    let impact = child(sweep, "sweep-impact").expect("the ball drawn where it first touches");
    assert_eq!(impact.attribute("stroke"), Some(IMPACT_COLOUR));
    let (x, y, r) = circle_of(impact);
    assert_near((x, y), map.px(s.ball.center() + BALL_MOTION * h.t), "the ball at the contact");
    assert!((r - start.2).abs() < 0.01, "the same radius: {r} and {}", start.2);
    let end = child(sweep, "sweep-end").expect("the ball where its motion ends");
    assert_eq!(end.attribute("stroke"), Some(GHOST_COLOUR));
    assert!(end.attribute("stroke-dasharray").is_some(), "dashed");
    let (x, y, _) = circle_of(end);
    assert_near((x, y), map.px(s.ball.center() + BALL_MOTION), "the ball at the end");
    let path = child(sweep, "sweep-path").expect("the path");
    assert_near(
        (attr(path, "x1"), attr(path, "y1")),
        map.px(s.ball.center()),
        "the path starts at the centre",
    );
    assert_near(
        (attr(path, "x2"), attr(path, "y2")),
        map.px(s.ball.center() + BALL_MOTION),
        "and ends there",
    );

    let hit = group(&doc, "sweep-hit", "ball").unwrap();
    let point = hit.children().find(|c| has_class(c, "sweep-point")).unwrap();
    assert_near(diamond_centre(point), map.px(h.point), "the contact point");
    let normal = hit.children().find(|c| has_class(c, "sweep-normal")).unwrap();
    assert_near((attr(normal, "x1"), attr(normal, "y1")), map.px(h.point), "the normal starts at the point");
    let (dx, dy) = (attr(normal, "x2") - attr(normal, "x1"), attr(normal, "y2") - attr(normal, "y1"));
    let along = Vec2::new(dx, -dy).normalize();
    assert!((along - h.normal).length() < 1e-3, "the arrow points along the normal: {along} vs {}", h.normal);

    // The crate touches at t = 0: drawn where it starts (and where its motion would end).
    let sweep = group(&doc, "sweep", "crate").unwrap();
    assert_eq!(sweep.attribute("data-t"), Some("0"));
    let impact = child(sweep, "sweep-impact").expect("the crate at t = 0");
    assert_eq!(polygon_of(impact), polygon_of(group(&doc, "shape", "crate").unwrap()), "where it starts");
    assert!(child(sweep, "sweep-end").is_some());
    assert!(group(&doc, "sweep-hit", "crate").is_some());

    // The pill touches nothing: its end and path, no contact.
    let sweep = group(&doc, "sweep", "pill").unwrap();
    assert!(child(sweep, "sweep-end").is_some() && child(sweep, "sweep-path").is_some());
    assert!(child(sweep, "sweep-impact").is_none());
    assert!(sweep.attribute("data-t").is_none());
    assert!(group(&doc, "sweep-hit", "pill").is_none());
}

#[test]
fn the_3d_gallery_sweeps_are_raybox_s_answers() {
    let floor = Plane::new(Vec3::Z, -1.0);
    let tile =
        Triangle3::new(Vec3::new(-5.5, -1.2, 0.0), Vec3::new(-2.5, -1.2, 0.0), Vec3::new(-4.0, 1.2, 0.0));
    let ball = Sphere::new(Vec3::new(-3.4, -0.6, 2.5), 0.5);
    let cube = Aabb3::new(Vec3::new(1.5, -0.5, 0.0), Vec3::new(2.5, 0.5, 1.0));
    let turned = Obb3::new(
        Vec3::new(5.0, 0.0, 0.5),
        Vec3::splat(0.6),
        Quat::from_axis_angle(Vec3::Z, 45f32.to_radians()),
    );
    let shard =
        Triangle3::new(Vec3::new(-1.4, -0.2, 1.3), Vec3::new(0.0, -0.6, 0.5), Vec3::new(1.0, 0.6, 1.5));
    let (down, right) = (Vec3::new(0.0, 0.0, -3.0), Vec3::new(3.0, 0.0, 0.0));
    let t = |h: &SweepHit3| h.t;

    let ball_hit = earliest(
        &[
            ("floor", ball.sweep(down, &floor)),
            ("tile", ball.sweep(down, &tile)),
            ("box", ball.sweep(down, &cube)),
            ("turned", ball.sweep(down, &turned)),
            ("shard", ball.sweep(down, &shard)),
        ],
        t,
    );
    let box_hit = earliest(
        &[
            ("floor", cube.sweep(right, &floor)),
            ("tile", cube.sweep(right, &tile)),
            ("ball", cube.sweep(right, &ball)),
            ("turned", cube.sweep(right, &turned)),
            ("shard", cube.sweep(right, &shard)),
        ],
        t,
    );
    let shard_hit = earliest(
        &[
            ("floor", shard.sweep(down, &floor)),
            ("tile", shard.sweep(down, &tile)),
            ("ball", shard.sweep(down, &ball)),
            ("box", shard.sweep(down, &cube)),
            ("turned", shard.sweep(down, &turned)),
        ],
        t,
    );
    // What the scene shows: the ball lands on the tile (its centre 0.5 above it), the box
    // meets the turned box's corner, the shard's lowest corner (z = 0.5) meets the floor.
    assert_eq!(ball_hit.map(|(n, h)| (n, h.normal)), Some(("tile", Vec3::Z)));
    assert!((ball_hit.unwrap().1.t - 2.0 / 3.0).abs() < 1e-6);
    assert_eq!(box_hit.map(|(n, _)| n), Some("turned"));
    let corner_x = 5.0 - 0.6 * std::f32::consts::SQRT_2;
    assert!((box_hit.unwrap().1.t - (corner_x - 2.5) / 3.0).abs() < 1e-5, "{box_hit:?}");
    assert_eq!(shard_hit.map(|(n, h)| (n, h.t, h.point)), Some(("floor", 0.5, Vec3::new(0.0, -0.6, -1.0))));

    let (json, svg, text) = draw(&scene("sweeps_3d"));
    assert_hit3(&json, "ball", ball_hit);
    assert_hit3(&json, "box", box_hit);
    assert_hit3(&json, "shard", shard_hit);
    assert!(
        text.contains("  shard moving by (0, 0, -3) first touches floor at t = 0.5, point (0, -0.6, -1), normal (0, 0, 1)\n"),
        "{text}"
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    for name in ["ball", "box", "shard"] {
        let sweep = group(&doc, "sweep", name).unwrap();
        for part in ["sweep-end", "sweep-path", "sweep-impact"] {
            assert!(child(sweep, part).is_some(), "{name}: {part}");
        }
        let hit = group(&doc, "sweep-hit", name).unwrap();
        assert_eq!(
            hit.children().filter(|c| has_class(c, "sweep-point") || has_class(c, "sweep-normal")).count(),
            2
        );
    }
    // The box at the contact is a box: 12 edges, some of them hidden.
    let impact = child(group(&doc, "sweep", "box").unwrap(), "sweep-impact").unwrap();
    assert_eq!(impact.children().filter(|c| c.has_tag_name("line")).count(), 12);
}

// ---------------------------------------------------------------------------------------
// Scenes made here
// ---------------------------------------------------------------------------------------

const WALL: &str = "[[shape]]\nname = \"wall\"\nkind = \"aabb\"\nmin = [4, -2]\nmax = [5, 2]\n";

#[test]
fn a_zero_motion_is_an_overlap_test_and_draws_no_path() {
    let dir = tempfile::tempdir().unwrap();
    let scene = format!(
        "dim = 2\n{WALL}\
         [[shape]]\nname = \"resting\"\nkind = \"circle\"\ncenter = [3.5, 0]\nradius = 1\nmotion = [0, 0]\n\
         [[shape]]\nname = \"apart\"\nkind = \"circle\"\ncenter = [0, 0]\nradius = 1\nmotion = [0, -0.0]\n"
    );
    let (json, svg, text) = draw_text(dir.path(), "still", &scene);
    let resting = Circle::new(Vec2::new(3.5, 0.0), 1.0);
    let wall = Aabb2::new(Vec2::new(4.0, -2.0), Vec2::new(5.0, 2.0));
    let expected = resting.sweep(Vec2::ZERO, &wall).expect("overlapping: t = 0");
    assert_eq!(expected.t, 0.0);
    assert_hit2(&json, "resting", Some(("wall", expected)));
    assert_hit2(&json, "apart", None);
    assert!(
        text.contains("  resting moving by (0, 0) (not moving) already touches wall at t = 0, point"),
        "{text}"
    );
    assert!(text.contains("  apart moving by (0, 0) (not moving) touches nothing\n"), "{text}");

    let doc = roxmltree::Document::parse(&svg).unwrap();
    for name in ["resting", "apart"] {
        let sweep = group(&doc, "sweep", name).unwrap();
        assert!(child(sweep, "sweep-end").is_none() && child(sweep, "sweep-path").is_none(), "{name}");
    }
    assert!(child(group(&doc, "sweep", "resting").unwrap(), "sweep-impact").is_some());
    assert!(child(group(&doc, "sweep", "apart").unwrap(), "sweep-impact").is_none());
}

#[test]
fn of_equal_times_the_first_shape_in_the_file_is_reported_and_ghosts_are_passed_through() {
    let dir = tempfile::tempdir().unwrap();
    let twin = |name: &str| WALL.replace("\"wall\"", &format!("\"{name}\""));
    let ball =
        "[[shape]]\nname = \"ball\"\nkind = \"circle\"\ncenter = [0, 0]\nradius = 1\nmotion = [8, 0]\n";
    let ghost = "[[shape]]\nname = \"ghost\"\nghost = true\nkind = \"aabb\"\nmin = [1.5, -1]\nmax = [2, 1]\n";
    let expected = Circle::new(Vec2::ZERO, 1.0)
        .sweep(Vec2::new(8.0, 0.0), &Aabb2::new(Vec2::new(4.0, -2.0), Vec2::new(5.0, 2.0)));
    assert_eq!(expected.map(|h| h.t), Some(3.0 / 8.0));
    for (first, second) in [("left", "right"), ("right", "left")] {
        let scene = format!("dim = 2\n{ball}{ghost}{}{}", twin(first), twin(second));
        let (json, _, _) = draw_text(dir.path(), "twins", &scene);
        assert_hit2(&json, "ball", expected.map(|h| (first, h)));
    }
    // Listed before the moving shape, the twin still comes first.
    let scene = format!("dim = 2\n{}{ball}{}", twin("before"), twin("after"));
    let (json, _, _) = draw_text(dir.path(), "twins", &scene);
    assert_hit2(&json, "ball", expected.map(|h| ("before", h)));
}

#[test]
fn a_plane_moving_against_a_plane_has_no_sweep_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let scene = "dim = 3\n\
                 [[shape]]\nname = \"lid\"\nkind = \"plane\"\nnormal = [0, 0, 1]\noffset = 2\nmotion = [0, 0, -4]\n\
                 [[shape]]\nname = \"floor\"\nkind = \"plane\"\nnormal = [0, 0, 1]\noffset = -2\n\
                 [[shape]]\nname = \"ball\"\nkind = \"sphere\"\ncenter = [0, 0, 0]\nradius = 0.5\n";
    let (json, svg, text) = draw_text(dir.path(), "planes", scene);
    let lid = Plane::new(Vec3::Z, 2.0);
    let expected =
        lid.sweep(Vec3::new(0.0, 0.0, -4.0), &Sphere::new(Vec3::ZERO, 0.5)).expect("the lid meets the ball");
    assert_hit3(&json, "lid", Some(("ball", expected)));
    assert_eq!(sweep_of(&json, "lid")["no_sweep_query"], serde_json::json!(["floor"]));
    assert!(
        text.contains(&format!(
            "  lid moving by (0, 0, -4) first touches ball at t = {}, point ({}, {}, {}), normal ({}, {}, {}) \
             (no sweep query of a plane against a plane: floor)\n",
            num(expected.t),
            num(expected.point.x),
            num(expected.point.y),
            num(expected.point.z),
            num(expected.normal.x),
            num(expected.normal.y),
            num(expected.normal.z)
        )),
        "{text}"
    );
    assert!(svg.contains("class=\"sweep-impact\""));
}

#[test]
fn every_3d_kind_moves_against_every_other_kind() {
    // One shape of each kind, each moving toward the middle: every ordered pair has a sweep
    // (a plane against a plane is the one pair without, and there is one plane here).
    let dir = tempfile::tempdir().unwrap();
    let shapes = [
        "kind = \"aabb\"\nmin = [-4, -0.5, -0.5]\nmax = [-3, 0.5, 0.5]\nmotion = [2, 0, 0]",
        "kind = \"obb\"\ncenter = [3.5, 0, 0]\nhalf_extents = [0.5, 0.5, 0.5]\naxis = [1, 1, 0]\nangle_deg = 30\nmotion = [-2, 0, 0]",
        "kind = \"sphere\"\ncenter = [0, -3.5, 0]\nradius = 0.5\nmotion = [0, 2, 0]",
        "kind = \"capsule\"\nstart = [-0.5, 3.5, 0]\nend = [0.5, 3.5, 0.2]\nradius = 0.3\nmotion = [0, -2, 0]",
        "kind = \"segment\"\nstart = [0, 0, 3]\nend = [0.5, 0.5, 3.5]\nmotion = [0, 0, -2]",
        "kind = \"triangle\"\nvertices = [[-1, -1, -3], [1, -1, -3], [0, 1, -3.5]]\nmotion = [0, 0, 2]",
        "kind = \"plane\"\nnormal = [1, 1, 1]\noffset = -8\nmotion = [1, 1, 1]",
    ];
    let scene = format!("dim = 3\n{}", shapes.map(|s| format!("[[shape]]\n{s}\n")).join(""));
    let (json, svg, _) = draw_text(dir.path(), "kinds", &scene);
    let sweeps = json["queries"]["sweeps"].as_array().unwrap();
    assert_eq!(sweeps.len(), 7);
    for s in sweeps {
        assert_eq!(s["no_sweep_query"], serde_json::json!([]), "{s}");
    }
    assert_eq!(json["moving_shapes"], 7);
    roxmltree::Document::parse(&svg).expect("well-formed");
}
