//! Bad input: one error line naming the file and what is wrong, exit status 2, and no
//! output file left behind (nor an existing one changed).

mod common;

use std::path::Path;

use common::{files_in, raybox};

/// Writes `scene` as `bad.toml` in a fresh directory, runs `draw bad.toml -o out.svg`,
/// and checks the failure.
fn draw_fails(scene: &str, expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), scene).unwrap();
    let run = raybox(dir.path(), &["draw", "bad.toml", "-o", "out.svg"]);
    run.assert_fails_with(expected);
    assert!(run.stderr.contains("bad.toml"), "the message names the file: {}", run.stderr);
    assert_eq!(files_in(dir.path()), ["bad.toml"], "nothing written");
}

const BOX: &str = "dim = 2\n[[shape]]\nname = \"box\"\nkind = \"aabb\"\n";

#[test]
fn missing_scene_file() {
    let dir = tempfile::tempdir().unwrap();
    let run = raybox(dir.path(), &["draw", "nope.toml", "-o", "out.svg"]);
    run.assert_fails_with("nope.toml: cannot read: no such file or directory");
    assert!(files_in(dir.path()).is_empty());
}

#[test]
fn malformed_toml_names_line_and_column() {
    draw_fails("dim = 2\n[[shape]\nkind = \"aabb\"\n", "bad.toml:2:");
    draw_fails("dim = 2\ntitle = \"unterminated\n", "bad.toml:2:");
}

#[test]
fn wrong_types_and_unknown_fields() {
    draw_fails("dim = \"two\"\n", "bad.toml:1:");
    draw_fails(&format!("{BOX}min = [0, 0]\nmax = [1, 1]\ncolour = \"red\"\n"), "unknown field `colour`");
    draw_fails("dim = 4\n", "dim must be 2 or 3, not 4");
}

#[test]
fn invalid_shape_values_name_the_shape_and_the_field() {
    draw_fails(
        &format!("{BOX}min = [0, 2]\nmax = [1, 1]\n"),
        "bad.toml: [[shape]] #1 \"box\": Aabb2: min.y (2) is greater than max.y (1)",
    );
    draw_fails(
        "dim = 2\n[[shape]]\nkind = \"aabb\"\nmin = [0, 0]\nmax = [1, 1]\n[[shape]]\nkind = \"circle\"\ncenter = [0, 0]\nradius = -1\n",
        "[[shape]] #2: Circle: radius must not be negative",
    );
    draw_fails(
        &format!("{BOX}min = [0, 0, 0]\nmax = [1, 1]\n"),
        "`min` needs 2 numbers in a 2D scene, found 3",
    );
    draw_fails(&format!("{BOX}min = [0, nan]\nmax = [1, 1]\n"), "Aabb2: min must be finite");
    draw_fails(&format!("{BOX}min = [0, 0]\n"), "[[shape]] #1 \"box\": missing `max`");
    draw_fails(
        "dim = 2\n[[shape]]\nkind = \"sphere\"\ncenter = [0, 0]\nradius = 1\n",
        "kind \"sphere\" is not available in a 2D scene",
    );
    draw_fails("dim = 3\n[[shape]]\nkind = \"blob\"\n", "unknown kind \"blob\"");
    draw_fails(
        "dim = 3\n[[shape]]\nkind = \"triangle\"\nvertices = [[0, 0, 0], [1, 1, 1], [2, 2, 2]]\n",
        "Triangle3: points are collinear",
    );
    draw_fails(
        "dim = 3\n[[shape]]\nkind = \"plane\"\nnormal = [0, 0, 0]\noffset = 1\n",
        "Plane: normal must not be the zero vector",
    );
    draw_fails(
        "dim = 3\n[[shape]]\nkind = \"obb\"\ncenter = [0, 0, 0]\nhalf_extents = [1, 1, 1]\nquat = [0, 0, 0, 0]\n",
        "Obb3: rotation must be finite and not zero",
    );
    draw_fails(
        &format!("{BOX}min = [0, 0]\nmax = [1, 1]\nradius = 2\n"),
        "field `radius` does not apply to aabb",
    );
}

#[test]
fn invalid_rays_and_views() {
    draw_fails(
        "dim = 2\n[[ray]]\nname = \"r\"\norigin = [0, 0]\ndir = [0, -0.0]\n",
        "[[ray]] #1 \"r\": Ray2: dir must not be the zero vector",
    );
    draw_fails(
        "dim = 2\n[[ray]]\norigin = [0, 0]\ndir = [1, 0]\nt_min = 2\nt_max = 1\n",
        "Ray2: [t_min, t_max] = [2, 1] is not a valid interval",
    );
    draw_fails(
        "dim = 2\n[[ray]]\norigin = [0, 0]\nto = [1, 0]\n",
        "give either `origin` and `dir` or `from` and `to`",
    );
    draw_fails("dim = 3\n[view]\nkind = \"fisheye\"\n", "[view]: kind must be \"ortho\" or \"perspective\"");
    draw_fails(
        "dim = 3\n[view]\neye = [0, 0, 5]\ntarget = [0, 0, 0]\nup = [0, 0, 1]\n",
        "[view]: `up` is parallel to the viewing direction",
    );
}

#[test]
fn unknown_option_and_missing_argument_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    raybox(dir.path(), &["draw", "x.toml", "--colour", "red"])
        .assert_fails_with("unexpected argument '--colour'");
    raybox(dir.path(), &["draw"]).assert_fails_with("required arguments were not provided");
    raybox(dir.path(), &["paint"]).assert_fails_with("unrecognized subcommand 'paint'");
    assert_eq!(raybox(dir.path(), &["--help"]).status, 0);
}

fn good_scene(dir: &Path) {
    std::fs::write(dir.join("good.toml"), format!("{BOX}min = [0, 0]\nmax = [1, 1]\n")).unwrap();
}

#[test]
fn unwritable_output_paths() {
    let dir = tempfile::tempdir().unwrap();
    good_scene(dir.path());
    raybox(dir.path(), &["draw", "good.toml", "-o", "missing/out.svg"])
        .assert_fails_with("missing/out.svg: cannot write: the directory does not exist");
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    raybox(dir.path(), &["draw", "good.toml", "-o", "sub"])
        .assert_fails_with("sub: cannot write: is a directory");
    assert_eq!(files_in(dir.path()), ["good.toml", "sub"]);
    assert!(files_in(&dir.path().join("sub")).is_empty());
}

#[test]
fn a_failed_run_leaves_an_existing_output_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("out.svg"), "old picture").unwrap();
    std::fs::write(
        dir.path().join("bad.toml"),
        "dim = 2\n[[shape]]\nkind = \"circle\"\ncenter = [0, 0]\nradius = -1\n",
    )
    .unwrap();
    raybox(dir.path(), &["draw", "bad.toml", "-o", "out.svg"])
        .assert_fails_with("radius must not be negative");
    assert_eq!(std::fs::read_to_string(dir.path().join("out.svg")).unwrap(), "old picture");
    assert_eq!(files_in(dir.path()), ["bad.toml", "out.svg"]);
}

#[test]
fn json_reports_failures_too() {
    let dir = tempfile::tempdir().unwrap();
    let run = raybox(dir.path(), &["draw", "nope.toml", "--json"]);
    assert_eq!(run.status, 2);
    let json = run.json();
    assert_eq!(json["ok"], false);
    assert!(json["error"].as_str().unwrap().contains("nope.toml"));
}

#[test]
fn invalid_capsules_and_segments() {
    draw_fails(
        "dim = 2\n[[shape]]\nkind = \"capsule\"\nstart = [0, 0]\nend = [1, 0]\nradius = -1\n",
        "[[shape]] #1: Capsule2: radius must not be negative",
    );
    draw_fails("dim = 3\n[[shape]]\nkind = \"segment\"\nstart = [0, 0, 0]\n", "[[shape]] #1: missing `end`");
    draw_fails(
        "dim = 2\n[[shape]]\nkind = \"segment\"\nstart = [0, 0]\nend = [1, 0]\nradius = 1\n",
        "field `radius` does not apply to segment",
    );
}

#[test]
fn scenes_too_far_to_draw_are_refused() {
    // Found by an audit: each of these panicked in the picture's arithmetic (its size overflowed).
    let too_far = "too far to draw (at most";
    draw_fails(&format!("{BOX}min = [0, 0]\nmax = [2e19, 1]\n"), too_far);
    draw_fails("dim = 2\n[[shape]]\nkind = \"circle\"\ncenter = [0, 0]\nradius = 1e20\n", too_far);
    draw_fails(
        &format!("{BOX}min = [0, 0]\nmax = [1, 1]\n[view]\nmin = [-3e38, -3e38]\nmax = [3e38, 3e38]\n"),
        too_far,
    );
}

/// Found by an audit: `-o` renamed its temporary file over whatever was at the path, so a
/// symbolic link became a plain file (its target never written) and, as root, a device
/// such as `/dev/full` became a PNG. A link is written through; a FIFO is written into.
#[cfg(unix)]
#[test]
fn output_through_a_link_or_into_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("s.toml"), format!("{BOX}min = [0, 0]\nmax = [1, 1]\n")).unwrap();
    std::fs::create_dir(d.join("real")).unwrap();
    std::os::unix::fs::symlink("real/target.svg", d.join("link.svg")).unwrap();
    raybox(d, &["draw", "s.toml", "-o", "link.svg"]).assert_ok();
    assert!(
        std::fs::symlink_metadata(d.join("link.svg")).unwrap().file_type().is_symlink(),
        "the link stays"
    );
    assert!(std::fs::read_to_string(d.join("real/target.svg")).unwrap().starts_with("<svg"));

    let fifo = d.join("pipe.svg");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo on this system
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    raybox(d, &["draw", "s.toml", "-o", "pipe.svg"]).assert_ok();
    // (Checked before joining: a replaced FIFO would leave the reader waiting.)
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO stays");
    assert!(reader.join().unwrap().starts_with("<svg"), "the SVG went through the FIFO");
}

#[test]
fn scenes_with_too_many_shapes_are_refused() {
    // Found by an audit: `draw` keeps ~2 KB per pair of shapes (2,400 shapes took more than
    // 4.5 GB); a scene now holds at most 500 shapes.
    let circle = "[[shape]]\nkind = \"circle\"\ncenter = [0, 0]\nradius = 1\n";
    draw_fails(
        &format!("dim = 2\n{}", circle.repeat(501)),
        "a scene holds at most 500 shapes and 2000 rays (this one 501 and 0)",
    );
}

#[test]
fn malformed_motions_name_the_file_and_the_shape() {
    let ball = "dim = 2\n[[shape]]\nname = \"ball\"\nkind = \"circle\"\ncenter = [0, 0]\nradius = 1\n";
    let fails = |motion: &str, expected: &str| {
        draw_fails(
            &format!("{ball}motion = {motion}\n"),
            &format!("bad.toml: [[shape]] #1 \"ball\": {expected}"),
        );
    };
    fails("[1, 0, 0]", "`motion` needs 2 numbers in a 2D scene, found 3");
    fails("[1]", "`motion` needs 2 numbers in a 2D scene, found 1");
    fails("[]", "`motion` needs 2 numbers in a 2D scene, found 0");
    fails("[nan, 0]", "`motion` must be finite, not [nan, 0]");
    fails("[0, -inf]", "`motion` must be finite, not [0, -inf]");
    fails("[1e39, 0]", "`motion` [1e39, 0] is beyond the range of f32");
    fails("\"fast\"", "`motion` must be an array of 2 numbers, like [1, 0], not a string");
    fails("4", "`motion` must be an array of 2 numbers, like [1, 0], not an integer");
    fails("[1, \"x\"]", "`motion` must hold numbers, like [1, 0], found a string");
    fails("[[1, 0]]", "`motion` needs 2 numbers in a 2D scene, found 1");
    fails("{ x = 1, y = 0 }", "`motion` must be an array of 2 numbers, like [1, 0], not a table");
    draw_fails(
        "dim = 3\n[[shape]]\nkind = \"sphere\"\ncenter = [0, 0, 0]\nradius = 1\nmotion = [1, 0]\n",
        "bad.toml: [[shape]] #1: `motion` needs 3 numbers in a 3D scene, found 2",
    );
    draw_fails(
        "dim = 3\n[[shape]]\nkind = \"plane\"\nnormal = [0, 0, 1]\noffset = 0\nmotion = [0, nan, 0]\n",
        "bad.toml: [[shape]] #1: `motion` must be finite, not [0, nan, 0]",
    );
}

#[test]
fn motions_that_cannot_be_drawn_or_belong_to_a_ghost_are_refused() {
    draw_fails(
        &format!("{BOX}min = [0, 0]\nmax = [1, 1]\nghost = true\nmotion = [1, 0]\n"),
        "[[shape]] #1 \"box\": a ghost takes part in no query, so it cannot have a `motion`",
    );
    // Finite, but the box where it ends is not.
    draw_fails(
        &format!("{BOX}min = [0, 0]\nmax = [1e38, 1]\nmotion = [3e38, 0]\n"),
        "[[shape]] #1 \"box\": `motion` [3e38, 0] carries the shape out of range: Aabb2: max must be finite",
    );
    draw_fails(
        "dim = 3\n[[shape]]\nname = \"lid\"\nkind = \"plane\"\nnormal = [0, 0, 1]\noffset = 3e38\nmotion = [0, 0, 1e38]\n",
        "[[shape]] #1 \"lid\": `motion` [0, 0, 1e38] carries the shape out of range: Plane: offset must be finite",
    );
    // In range, but too far to picture (the sweep itself runs: no panic on the way).
    draw_fails(&format!("{BOX}min = [0, 0]\nmax = [1, 1]\nmotion = [1e30, 0]\n"), "too far to draw (at most");
    draw_fails(
        "dim = 3\n[[shape]]\nkind = \"sphere\"\ncenter = [0, 0, 0]\nradius = 1\nmotion = [0, -1e25, 0]\n\
         [[shape]]\nkind = \"triangle\"\nvertices = [[-1, -9, -1], [1, -9, -1], [0, -9, 1]]\n",
        "too far to draw (at most",
    );
}
