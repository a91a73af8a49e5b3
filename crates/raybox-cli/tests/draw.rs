//! `raybox draw` end to end: every gallery scene gives valid SVG with the expected shapes
//! and colours, and the committed gallery pictures are what the command draws today.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::{raybox, repo_root};

const SHAPE_COLOUR: &str = "#1f5fa8";
const OVERLAP_COLOUR: &str = "#d62728";
const GHOST_COLOUR: &str = "#999999";

fn gallery_scenes() -> Vec<PathBuf> {
    let dir = repo_root().join("examples/scenes");
    let mut scenes: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/scenes exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    scenes.sort();
    assert!(scenes.len() >= 10, "the gallery has a scene per seed query, found {}", scenes.len());
    scenes
}

/// What a drawn scene shows: shape name → (kind, overlapping, stroke colour), and counts.
struct Drawn {
    shapes: BTreeMap<String, (String, bool, String)>,
    rays: usize,
    entries: usize,
    exits: usize,
    normals: usize,
}

fn draw(scene: &std::path::Path) -> (Drawn, String, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.svg");
    let run = raybox(dir.path(), &["draw", scene.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"]);
    run.assert_ok();
    let json = run.json();
    let svg = std::fs::read_to_string(&out).expect("the SVG was written");
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    for attr in ["width", "height"] {
        let v: f32 = root.attribute(attr).unwrap().parse().unwrap();
        assert!(v > 100.0 && v < 3000.0, "{attr} = {v}");
    }
    let class = |n: &roxmltree::Node, c: &str| n.attribute("class") == Some(c);
    let mut shapes = BTreeMap::new();
    for g in doc.descendants().filter(|n| class(n, "shape") || class(n, "shape ghost")) {
        let drawn = g.children().filter(|c| c.is_element()).count();
        assert!(drawn > 0, "shape {:?} has no outline", g.attribute("data-name"));
        shapes.insert(
            g.attribute("data-name").unwrap().to_owned(),
            (
                g.attribute("data-kind").unwrap().to_owned(),
                g.attribute("data-overlapping") == Some("true"),
                g.attribute("stroke").unwrap().to_owned(),
            ),
        );
    }
    let count = |c: &str| doc.descendants().filter(|n| class(n, c)).count();
    let drawn = Drawn {
        shapes,
        rays: count("ray"),
        entries: count("entry"),
        exits: count("exit"),
        normals: count("normal"),
    };
    (drawn, svg, json)
}

#[test]
fn every_gallery_scene_draws_valid_svg_with_one_group_per_shape_and_ray() {
    for scene in gallery_scenes() {
        let text = std::fs::read_to_string(&scene).unwrap();
        let file: toml::Table = toml::from_str(&text).unwrap();
        let count = |key: &str| file.get(key).and_then(|v| v.as_array()).map_or(0, Vec::len);
        let (drawn, _, json) = draw(&scene);
        assert_eq!(drawn.shapes.len(), count("shape"), "{}", scene.display());
        assert_eq!(drawn.rays, count("ray"), "{}", scene.display());
        assert_eq!(json["shapes"], count("shape"));
        assert_eq!(json["ok"], true);
        // Overlapping shapes are red, the others blue, and the JSON agrees.
        for (name, (_, overlapping, stroke)) in &drawn.shapes {
            if stroke == GHOST_COLOUR {
                assert!(!overlapping, "a ghost takes part in no query");
                continue;
            }
            let expected = if *overlapping { OVERLAP_COLOUR } else { SHAPE_COLOUR };
            assert_eq!(stroke, expected, "{name} in {}", scene.display());
        }
        let overlapping = drawn.shapes.values().filter(|s| s.1).count();
        assert_eq!(json["overlapping_pairs"].as_u64().unwrap() > 0, overlapping > 0, "{}", scene.display());
    }
}

/// A piece of an attribute value or a text: words exactly, numbers as numbers.
#[derive(Debug)]
enum Token {
    Word(String),
    Number(f64),
}

/// Splits `text` into numbers (`-12.5`, `3`, `.25`) and the words between them.
fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut word = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let starts_number = chars[i].is_ascii_digit()
            || (matches!(chars[i], '-' | '.') && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit()));
        if starts_number {
            let start = i;
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let number: String = chars[start..i].iter().collect();
            if let Ok(x) = number.parse::<f64>() {
                if !word.is_empty() {
                    out.push(Token::Word(std::mem::take(&mut word)));
                }
                out.push(Token::Number(x));
                continue;
            }
            word.push_str(&number);
            continue;
        }
        word.push(chars[i]);
        i += 1;
    }
    if !word.is_empty() {
        out.push(Token::Word(word));
    }
    out
}

/// Where two SVG documents differ, beyond a rounding of their numbers; `None` if nowhere.
///
/// Why not compare the bytes: Rust formats floats itself (`{:.2}` is correctly rounded on
/// every platform), but the numbers formatted come from `sin`, `cos`, `tan` and `sqrt` of
/// the platform's libm and from glam, which takes SIMD paths on some targets and scalar
/// ones on others; a last-bit difference can move a coordinate across a rounding boundary
/// (`12.345` to `12.34` or `12.35`) and a byte comparison would then fail on a machine where
/// the picture is right. So the structure (elements, attributes, words) must match exactly
/// and each number within `tolerance`: one unit in the last place printed (0.01 px for the
/// coordinates; captions print 3 decimals) and a little more.
fn svg_difference(committed: &str, drawn: &str, tolerance: f64) -> Option<String> {
    let a = match roxmltree::Document::parse(committed) {
        Ok(a) => a,
        Err(e) => return Some(format!("the committed SVG does not parse: {e}")),
    };
    let b = roxmltree::Document::parse(drawn).expect("drawn SVG parses");
    let (na, nb): (Vec<_>, Vec<_>) = (a.descendants().collect(), b.descendants().collect());
    if na.len() != nb.len() {
        return Some(format!("{} nodes, now {}", na.len(), nb.len()));
    }
    let same = |x: &str, y: &str| {
        let (tx, ty) = (tokens(x), tokens(y));
        tx.len() == ty.len()
            && tx.iter().zip(&ty).all(|pair| match pair {
                (Token::Word(p), Token::Word(q)) => p == q,
                (Token::Number(p), Token::Number(q)) => (p - q).abs() <= tolerance,
                _ => false,
            })
    };
    for (x, y) in na.iter().zip(&nb) {
        if x.tag_name() != y.tag_name() {
            return Some(format!("<{:?}> is now <{:?}>", x.tag_name(), y.tag_name()));
        }
        if !same(x.text().unwrap_or("").trim(), y.text().unwrap_or("").trim()) {
            return Some(format!("text {:?} is now {:?}", x.text(), y.text()));
        }
        let attrs = |n: &roxmltree::Node| {
            n.attributes().map(|a| (a.name().to_owned(), a.value().to_owned())).collect::<Vec<_>>()
        };
        let (ax, ay) = (attrs(x), attrs(y));
        if ax.len() != ay.len() || ax.iter().zip(&ay).any(|((k1, v1), (k2, v2))| k1 != k2 || !same(v1, v2)) {
            return Some(format!("attributes {ax:?} are now {ay:?}"));
        }
    }
    None
}

#[test]
fn the_committed_gallery_is_what_draw_makes_today() {
    for scene in gallery_scenes() {
        let name = scene.file_stem().unwrap().to_str().unwrap();
        let committed = repo_root().join(format!("docs/gallery/{name}.svg"));
        let committed =
            std::fs::read_to_string(&committed).unwrap_or_else(|_| panic!("docs/gallery/{name}.svg exists"));
        let (_, svg, _) = draw(&scene);
        if let Some(difference) = svg_difference(&committed, &svg, 0.015) {
            panic!(
                "docs/gallery/{name}.svg is stale ({difference}): run \
                 `raybox draw examples/scenes/{name}.toml -o docs/gallery/{name}.svg`"
            );
        }
    }
}

#[test]
fn the_gallery_comparison_forgives_rounding_and_nothing_else() {
    let svg = r#"<svg x="1.25" class="a"><text y="3">depth 0.125</text><line x1="-2.00"/></svg>"#;
    assert_eq!(svg_difference(svg, svg, 0.015), None);
    let rounded = r#"<svg x="1.26" class="a"><text y="3">depth 0.124</text><line x1="-1.99"/></svg>"#;
    assert_eq!(svg_difference(svg, rounded, 0.015), None);
    for changed in [
        r#"<svg x="1.30" class="a"><text y="3">depth 0.125</text><line x1="-2.00"/></svg>"#,
        r#"<svg x="1.25" class="b"><text y="3">depth 0.125</text><line x1="-2.00"/></svg>"#,
        r#"<svg x="1.25" class="a"><text y="3">width 0.125</text><line x1="-2.00"/></svg>"#,
        r#"<svg x="1.25" class="a"><text y="3">depth 0.125</text><line x1="2.00"/></svg>"#,
        r#"<svg x="1.25" class="a"><text y="3">depth 0.125</text><circle x1="-2.00"/></svg>"#,
        r#"<svg x="1.25" class="a"><text y="3">depth 0.125</text></svg>"#,
    ] {
        assert!(svg_difference(svg, changed, 0.015).is_some(), "{changed}");
    }
}

fn scene(name: &str) -> PathBuf {
    repo_root().join("examples/scenes").join(format!("{name}.toml"))
}

fn colour_of<'a>(drawn: &'a Drawn, shape: &str) -> &'a str {
    &drawn.shapes.get(shape).unwrap_or_else(|| panic!("shape {shape} drawn")).2
}

#[test]
fn touching_rotated_rects_are_red_and_the_separated_pair_blue() {
    let (drawn, _, _) = draw(&scene("rotated_rects_touching"));
    assert_eq!(colour_of(&drawn, "square"), OVERLAP_COLOUR);
    assert_eq!(colour_of(&drawn, "diamond"), OVERLAP_COLOUR);
    assert_eq!(colour_of(&drawn, "square 2"), SHAPE_COLOUR);
    assert_eq!(colour_of(&drawn, "diamond 2"), SHAPE_COLOUR);
}

#[test]
fn sphere_near_the_corner_is_apart_where_the_grown_box_test_would_say_overlap() {
    let (drawn, _, json) = draw(&scene("sphere_near_box_corner"));
    assert_eq!(colour_of(&drawn, "near the corner"), SHAPE_COLOUR);
    assert_eq!(colour_of(&drawn, "touching a face"), OVERLAP_COLOUR);
    assert_eq!(colour_of(&drawn, "cube grown by r (shortcut)"), GHOST_COLOUR);
    let pairs = json["queries"]["pairs"].as_array().unwrap();
    let cube_corner = pairs.iter().find(|p| p["a"] == "cube" && p["b"] == "near the corner").unwrap();
    assert_eq!(cube_corner["overlap"], false);
}

#[test]
fn contained_shapes_overlap_their_container() {
    let (drawn, _, _) = draw(&scene("containment"));
    for name in ["big", "small", "tiny", "ball"] {
        assert_eq!(colour_of(&drawn, name), OVERLAP_COLOUR, "{name}");
    }
}

#[test]
fn ray_through_rect_marks_near_and_far_points_and_the_normal() {
    let (drawn, _, json) = draw(&scene("ray_through_rect"));
    assert_eq!((drawn.entries, drawn.exits, drawn.normals), (2, 2, 2));
    let ray = &json["queries"]["rays"][0];
    assert_eq!(ray["span"], serde_json::json!([0.5, 1.5]));
    assert_eq!(ray["hit"]["point"], serde_json::json!([1.0, 1.5]));
    assert_eq!(ray["hit"]["normal"], serde_json::json!([-1.0, 0.0]));
}

#[test]
fn a_ray_starting_inside_has_an_entry_at_its_start_and_no_normal() {
    let (drawn, _, json) = draw(&scene("ray_starts_inside"));
    assert_eq!((drawn.entries, drawn.exits, drawn.normals), (2, 2, 0));
    let rays = json["queries"]["rays"].as_array().unwrap();
    let inside = rays.iter().find(|r| r["ray"] == "from inside" && r["shape"] == "rect").unwrap();
    assert_eq!(inside["span"], serde_json::json!([0.0, 2.0]));
    assert_eq!(inside["hit"]["normal"], serde_json::json!([0.0, 0.0]));
}

#[test]
fn grazing_a_corner_hits_and_a_hair_past_misses() {
    let (_, _, json) = draw(&scene("ray_misses_by_a_hair"));
    let rays = json["queries"]["rays"].as_array().unwrap();
    let find = |ray: &str, shape: &str| {
        rays.iter().find(|r| r["ray"] == ray && r["shape"] == shape).unwrap().clone()
    };
    assert_eq!(find("grazes", "unit square")["span"], serde_json::json!([1.0, 1.0]));
    assert_eq!(find("a hair past", "shifted square")["span"], serde_json::Value::Null);
}

#[test]
fn three_d_rays_hit_box_obb_sphere_plane_and_triangle() {
    for (name, expected_hits) in [("ray3_box_and_obb", 2), ("ray3_sphere_plane", 2), ("ray3_triangle", 2)] {
        let (drawn, _, json) = draw(&scene(name));
        assert_eq!(json["ray_hits"], expected_hits, "{name}");
        assert_eq!(drawn.normals, expected_hits, "{name}");
    }
}

#[test]
fn text_report_lists_each_query_and_quiet_prints_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = scene("ray_through_rect");
    let run = raybox(dir.path(), &["draw", path.to_str().unwrap()]);
    run.assert_ok();
    assert!(
        run.stdout
            .contains("ray → rect: enters at t = 0.5 (1, 1.5), leaves at t = 1.5 (5, 2.5), normal (-1, 0)"),
        "{}",
        run.stdout
    );
    assert!(
        dir.path().join("ray_through_rect.svg").exists(),
        "default output: the scene's name, in the current directory"
    );
    let quiet = raybox(dir.path(), &["draw", path.to_str().unwrap(), "--quiet"]);
    quiet.assert_ok();
    assert_eq!((quiet.stdout.as_str(), quiet.stderr.as_str()), ("", ""));
}

#[test]
fn a_2d_view_window_frames_exactly_that_window() {
    let dir = tempfile::tempdir().unwrap();
    let scene = "dim = 2\n[view]\nmin = [0, 0]\nmax = [2, 1]\n[[shape]]\nkind = \"circle\"\ncenter = [1, 0.5]\nradius = 3\n\
                 [[ray]]\norigin = [-5, 0.5]\ndir = [1, 0]\n";
    std::fs::write(dir.path().join("win.toml"), scene).unwrap();
    raybox(dir.path(), &["draw", "win.toml", "-q"]).assert_ok();
    let svg = std::fs::read_to_string(dir.path().join("win.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let clip = doc.descendants().find(|n| n.has_tag_name("clipPath")).unwrap();
    let rect = clip.first_element_child().unwrap();
    let num = |n: roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f32>().unwrap();
    // The drawing area is the clip rectangle less 0.75 margin above and 0.5 below (margin 24).
    let (top, bottom) = (num(rect, "y") + 18.0, num(rect, "y") + num(rect, "height") - 12.0);
    let ray = doc.descendants().find(|n| n.attribute("class") == Some("ray")).unwrap();
    let line = ray.first_element_child().unwrap();
    let y = num(line, "y1");
    assert!(
        (y - (top + bottom) / 2.0).abs() < 0.01,
        "y = 0.5 is the middle of the window: {y} in [{top}, {bottom}]"
    );
    assert_eq!(num(line, "y1"), num(line, "y2"));
}

#[test]
fn overlapping_pairs_show_their_contact_points_normal_and_depth() {
    let (_, svg, json) = draw(&scene("box_contacts_2d"));
    assert_eq!(json["contacts"], 3);
    let pairs = json["queries"]["pairs"].as_array().unwrap();
    let pair = |a: &str, b: &str| pairs.iter().find(|p| p["a"] == a && p["b"] == b).unwrap().clone();
    let crate_on_floor = pair("floor", "crate");
    assert_eq!(crate_on_floor["contact"]["normal"], serde_json::json!([0.0, 1.0]));
    assert!((crate_on_floor["contact"]["depth"].as_f64().unwrap() - 0.3).abs() < 1e-6);
    assert_eq!(crate_on_floor["contact"]["points"].as_array().unwrap().len(), 2, "face on face: 2 points");
    assert_eq!(pair("floor", "ball")["contact"], serde_json::Value::Null, "apart: no contact");

    let doc = roxmltree::Document::parse(&svg).unwrap();
    let class = |c: &str| doc.descendants().filter(|n| n.attribute("class") == Some(c)).count();
    assert_eq!((class("contact"), class("contact-normal"), class("contact-point")), (3, 3, 4));
    let depths: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("contact-depth"))
        .filter_map(|n| n.text())
        .collect();
    assert!(depths.contains(&"depth 0.3"), "{depths:?}");
}

#[test]
fn capsules_and_segments_take_part_in_the_queries_raybox_has() {
    let (drawn, _, json) = draw(&scene("capsule_vs_box"));
    assert_eq!(drawn.shapes["capsule"].0, "capsule");
    assert_eq!(drawn.shapes["segment"].0, "segment");
    let rays = json["queries"]["rays"].as_array().unwrap();
    let ray = |r: &str, s: &str| rays.iter().find(|q| q["ray"] == r && q["shape"] == s).unwrap().clone();
    assert!(ray("ray", "capsule")["span"].is_array(), "a ray hits the capsule");
    assert_eq!(ray("ray", "segment")["span"], serde_json::Value::Null, "the ray passes the segment");
    let pairs = json["queries"]["pairs"].as_array().unwrap();
    let pair = |a: &str, b: &str| pairs.iter().find(|p| p["a"] == a && p["b"] == b).unwrap().clone();
    assert_eq!(pair("box", "capsule")["overlap"], true);
    assert!(pair("box", "capsule")["contact"]["depth"].as_f64().unwrap() > 0.0);
    assert_eq!(pair("pill", "segment")["overlap"], true, "a segment against a capsule has a query");
    assert_eq!(pair("box", "segment")["overlap"], false, "a segment against a box has a query too");

    let dir = tempfile::tempdir().unwrap();
    let run = raybox(dir.path(), &["draw", scene("capsule_vs_box").to_str().unwrap(), "-o", "c.svg"]);
    run.assert_ok();
    assert!(run.stdout.contains("ray → segment: misses"), "{}", run.stdout);
    assert!(run.stdout.contains("box × segment: apart"), "{}", run.stdout);
}

#[test]
fn a_3d_face_contact_has_four_points() {
    let (_, _, json) = draw(&scene("obb_obb_contact_3d"));
    let pairs = json["queries"]["pairs"].as_array().unwrap();
    let turned = pairs.iter().find(|p| p["a"] == "slab" && p["b"] == "turned").unwrap();
    assert_eq!(turned["contact"]["points"].as_array().unwrap().len(), 4);
    assert_eq!(turned["contact"]["normal"], serde_json::json!([0.0, 0.0, 1.0]));
}

#[test]
fn planes_have_contacts_and_plane_and_segment_pairs_have_overlaps() {
    let dir = tempfile::tempdir().unwrap();
    let scene = r#"
title = "planes and segments"
dim = 3
[view]
kind = "perspective"
eye = [6, -8, 5]
target = [0, 0, 0]
up = [0, 0, 1]
fov_deg = 45
[[shape]]
name = "floor"
kind = "plane"
normal = [0, 0, 2]
offset = 0
[[shape]]
name = "sunk"
kind = "aabb"
min = [-1, -1, -0.5]
max = [1, 1, 1]
[[shape]]
name = "lid"
kind = "plane"
normal = [0, 0, -1]
offset = -3
[[shape]]
name = "wall"
kind = "plane"
normal = [1, 0, 0.001]
offset = 4
[[shape]]
name = "rod"
kind = "segment"
start = [3, -2, 4]
end = [3, 2, 6]
[[shape]]
name = "bar"
kind = "segment"
start = [3, 0, 6]
end = [3, 0, 4]
"#;
    let path = dir.path().join("planes.toml");
    std::fs::write(&path, scene).unwrap();
    let (_, _, json) = draw(&path);
    let pairs = json["queries"]["pairs"].as_array().unwrap();
    let pair = |a: &str, b: &str| pairs.iter().find(|p| p["a"] == a && p["b"] == b).unwrap().clone();
    let sunk = pair("floor", "sunk");
    assert_eq!(sunk["overlap"], true);
    assert_eq!(sunk["contact"]["normal"], serde_json::json!([0.0, 0.0, 1.0]), "lifted out: {sunk}");
    assert_eq!(sunk["contact"]["depth"].as_f64(), Some(0.5));
    assert_eq!(sunk["contact"]["points"].as_array().unwrap().len(), 4, "the box's bottom face");
    assert_eq!(pair("floor", "lid")["overlap"], false, "parallel planes, 3 apart");
    assert_eq!(pair("floor", "wall")["overlap"], true, "planes that are not parallel meet");
    assert_eq!(pair("rod", "bar")["overlap"], true, "segments crossing at (3, 0, 5)");
    // Segments that meet in space only touch: depth 0, across both (along x here).
    let crossing = pair("rod", "bar");
    assert_eq!(crossing["contact"]["depth"].as_f64(), Some(0.0), "{crossing}");
    assert_eq!(crossing["contact"]["normal"][0].as_f64().map(f64::abs), Some(1.0), "{crossing}");
    assert_eq!(pair("lid", "bar")["overlap"], false);
}

#[test]
fn crossing_triangles_have_a_contact() {
    let dir = tempfile::tempdir().unwrap();
    let scene = r#"
title = "two triangles"
dim = 3
[view]
kind = "perspective"
eye = [6, -8, 5]
target = [0, 0, 0]
up = [0, 0, 1]
fov_deg = 45
[[shape]]
name = "flat"
kind = "triangle"
vertices = [[-2, -2, 0], [4, -2, 0], [-2, 4, 0]]
[[shape]]
name = "dipping"
kind = "triangle"
vertices = [[0, 0, -0.25], [1, 0, 2], [0, 1, 2]]
"#;
    let path = dir.path().join("triangles.toml");
    std::fs::write(&path, scene).unwrap();
    let (_, _, json) = draw(&path);
    let pairs = json["queries"]["pairs"].as_array().unwrap();
    let pair = pairs.iter().find(|p| p["a"] == "flat" && p["b"] == "dipping").unwrap();
    assert_eq!(pair["overlap"], true);
    // The dipping triangle's lowest corner is 0.25 below the flat one: pushed up by 0.25.
    assert_eq!(pair["contact"]["normal"], serde_json::json!([0.0, 0.0, 1.0]), "{pair}");
    assert_eq!(pair["contact"]["depth"].as_f64(), Some(0.25));
}
