//! `render`, `cast` and `info` end to end, checked against the library's own answers.

mod common;

use std::path::Path;

use common::{files_in, raybox};
use glam::Vec3;
use raybox::{Ray3, TriMesh};

/// A unit cube `[0, 1]^3` as OBJ text: 8 vertices, 6 quads (12 triangles), plus one
/// zero-area triangle that must be counted as degenerate.
const CUBE_OBJ: &str = "\
# unit cube
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f 3 4 8 7
f 4 1 5 8
f 1 2 1
";

fn cube_mesh() -> TriMesh {
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for line in CUBE_OBJ.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first() {
            Some(&"v") => {
                vertices.push(Vec3::new(w[1].parse().unwrap(), w[2].parse().unwrap(), w[3].parse().unwrap()))
            }
            Some(&"f") => {
                let i: Vec<u32> = w[1..].iter().map(|s| s.parse::<u32>().unwrap() - 1).collect();
                for k in 1..i.len() - 1 {
                    indices.push([i[0], i[k], i[k + 1]]);
                }
            }
            _ => {}
        }
    }
    TriMesh::new(vertices, indices).unwrap()
}

/// Rays at the cube: through the middle of faces, along an edge, from inside, missing,
/// and one stopped short by `tmax`.
fn test_rays() -> Vec<(Vec3, Vec3, f32)> {
    let mut rays = vec![
        (Vec3::new(0.5, 0.5, -2.0), Vec3::Z, f32::INFINITY),
        (Vec3::new(-1.0, 0.25, 0.75), Vec3::new(2.0, 0.0, 0.0), f32::INFINITY),
        (Vec3::new(0.5, 0.5, 0.5), Vec3::new(0.3, -0.2, 1.0), f32::INFINITY),
        (Vec3::new(3.0, 3.0, 3.0), Vec3::X, f32::INFINITY),
        (Vec3::new(0.5, 0.5, -2.0), Vec3::Z, 1.5),
        (Vec3::new(2.0, 2.0, 2.0), Vec3::new(-1.0, -1.0, -1.0), f32::INFINITY),
    ];
    // A fan of rays from a corner outside, some hitting, some missing.
    for i in 0..40 {
        let a = i as f32 * 0.05;
        rays.push((Vec3::new(-1.0, -1.0, 0.3), Vec3::new(a.cos(), a.sin(), 0.1), f32::INFINITY));
    }
    rays
}

fn library_answers() -> Vec<Option<raybox::MeshHit>> {
    let mesh = cube_mesh();
    test_rays().iter().map(|&(o, d, t_max)| mesh.cast_ray(&Ray3::with_range(o, d, 0.0, t_max))).collect()
}

fn setup(dir: &Path) {
    std::fs::write(dir.join("cube.obj"), CUBE_OBJ).unwrap();
    let mut csv = String::from("ox,oy,oz,dx,dy,dz,tmax\n");
    let mut bin = Vec::new();
    for (o, d, t) in test_rays() {
        csv.push_str(&format!("{},{},{},{},{},{},{}\n", o.x, o.y, o.z, d.x, d.y, d.z, t));
        for x in [o.x, o.y, o.z, d.x, d.y, d.z, t] {
            bin.extend(x.to_le_bytes());
        }
    }
    std::fs::write(dir.join("rays.csv"), csv).unwrap();
    std::fs::write(dir.join("rays.bin"), bin).unwrap();
}

#[test]
fn cast_csv_matches_the_library_ray_by_ray() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let run =
        raybox(dir.path(), &["cast", "cube.obj", "rays.csv", "-o", "hits.csv", "--json", "--batch", "7"]);
    run.assert_ok();
    let expected = library_answers();
    assert_eq!(run.json()["rays"], expected.len());
    assert_eq!(run.json()["hits"], expected.iter().flatten().count());
    let text = std::fs::read_to_string(dir.path().join("hits.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("t,triangle,u,v,nx,ny,nz"));
    let lines: Vec<&str> = lines.collect();
    assert_eq!(lines.len(), expected.len(), "one line per ray");
    assert!(expected.iter().any(Option::is_none) && expected.iter().any(Option::is_some));
    for (i, (line, want)) in lines.iter().zip(&expected).enumerate() {
        match want {
            None => assert_eq!(*line, ",,,,,,", "ray {i} misses"),
            Some(h) => {
                let f: Vec<&str> = line.split(',').collect();
                assert_eq!(f[0].parse::<f32>().unwrap(), h.t, "ray {i} t");
                assert_eq!(f[1].parse::<u32>().unwrap(), h.triangle, "ray {i} triangle");
                assert_eq!(f[2].parse::<f32>().unwrap(), h.u, "ray {i} u");
                assert_eq!(f[3].parse::<f32>().unwrap(), h.v, "ray {i} v");
                let n = Vec3::new(f[4].parse().unwrap(), f[5].parse().unwrap(), f[6].parse().unwrap());
                assert_eq!(n, h.normal, "ray {i} normal");
            }
        }
    }
    assert!(!text.contains("NaN"));
}

#[test]
fn cast_binary_matches_the_library_and_encodes_misses_without_nan() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    raybox(dir.path(), &["cast", "cube.obj", "rays.bin", "-o", "hits.bin", "--threads", "1"]).assert_ok();
    let bytes = std::fs::read(dir.path().join("hits.bin")).unwrap();
    let expected = library_answers();
    assert_eq!(bytes.len(), 28 * expected.len());
    for (i, (record, want)) in bytes.chunks_exact(28).zip(&expected).enumerate() {
        let f = |k: usize| f32::from_le_bytes(record[4 * k..4 * k + 4].try_into().unwrap());
        let triangle = u32::from_le_bytes(record[4..8].try_into().unwrap());
        let values = [f(0), f(2), f(3), f(4), f(5), f(6)];
        assert!(values.iter().all(|v| !v.is_nan()), "ray {i}: no NaN");
        match want {
            None => assert_eq!(
                (f(0), triangle, [f(2), f(3), f(4), f(5), f(6)]),
                (f32::INFINITY, u32::MAX, [0.0; 5]),
                "ray {i}"
            ),
            Some(h) => assert_eq!(
                (f(0), triangle, f(2), f(3), Vec3::new(f(4), f(5), f(6))),
                (h.t, h.triangle, h.u, h.v, h.normal),
                "ray {i}"
            ),
        }
    }
}

#[test]
fn cast_occluded_agrees_with_the_closest_hit() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let run = raybox(dir.path(), &["cast", "cube.obj", "rays.csv", "--occluded"]);
    run.assert_ok();
    let mesh = cube_mesh();
    let expected: Vec<&str> = test_rays()
        .iter()
        .map(|&(o, d, t)| if mesh.occluded(&Ray3::with_range(o, d, 0.0, t)) { "1" } else { "0" })
        .collect();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "occluded");
    assert_eq!(&lines[1..], expected.as_slice());
    let closest: Vec<&str> = library_answers().iter().map(|h| if h.is_some() { "1" } else { "0" }).collect();
    assert_eq!(expected, closest);
    assert!(run.stderr.contains("rays: 46 from rays.csv"), "the report goes to stderr: {}", run.stderr);
}

#[test]
fn info_on_a_known_mesh() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let run = raybox(dir.path(), &["info", "cube.obj", "--json"]);
    run.assert_ok();
    let json = run.json();
    assert_eq!(json["triangles"], 13);
    assert_eq!(json["vertices"], 8);
    assert_eq!(json["degenerate_triangles"], 1);
    assert_eq!(json["bounds"]["min"], serde_json::json!([0.0, 0.0, 0.0]));
    assert_eq!(json["bounds"]["max"], serde_json::json!([1.0, 1.0, 1.0]));
    let builds = json["bvh"].as_array().unwrap();
    let qualities: Vec<&str> = builds.iter().map(|b| b["quality"].as_str().unwrap()).collect();
    assert_eq!(qualities, ["fast", "balanced", "high"]);
    for b in builds {
        assert!(b["leaves"].as_u64().unwrap() >= 1 && b["sah_cost"].as_f64().unwrap() > 0.0, "{b}");
    }
    let text = raybox(dir.path(), &["info", "cube.obj"]);
    text.assert_ok();
    assert!(
        text.stdout.contains("triangles: 13")
            && text.stdout.contains("degenerate triangles (zero area, never hit): 1")
    );

    let bunny = raybox(dir.path(), &["info", "--json"]).json();
    assert_eq!((bunny["triangles"].as_u64(), bunny["vertices"].as_u64()), (Some(3674), Some(1839)));
}

/// Reads the PNG and counts the pixels that are not the background.
fn silhouette(png: &Path) -> (u32, u32, f64) {
    let image = image::open(png).expect("a PNG").to_rgb8();
    let background = [28u8, 30, 38];
    let covered = image.pixels().filter(|p| p.0 != background).count();
    (image.width(), image.height(), covered as f64 / f64::from(image.width() * image.height()))
}

#[test]
fn render_the_bunny_at_a_small_size() {
    let dir = tempfile::tempdir().unwrap();
    let run = raybox(dir.path(), &["render", "--size", "96x72", "--json"]);
    run.assert_ok();
    let json = run.json();
    assert_eq!(json["primary_rays"], 96 * 72);
    assert!(json["mrays_per_s"].as_f64().unwrap() > 0.0);
    let (w, h, covered) = silhouette(&dir.path().join("raybox.png"));
    assert_eq!((w, h), (96, 72));
    assert!((0.15..0.6).contains(&covered), "the bunny covers {covered:.3} of the picture");
    assert_eq!(json["pixels_hit"].as_f64().unwrap() / f64::from(96 * 72), covered);

    for shade in ["depth", "ao"] {
        let out = format!("{shade}.png");
        raybox(
            dir.path(),
            &["render", "--size", "64x48", "--shade", shade, "--ao-samples", "4", "-o", &out, "-q"],
        )
        .assert_ok();
        let (w, h, covered) = silhouette(&dir.path().join(&out));
        assert_eq!((w, h), (64, 48));
        assert!((0.15..0.6).contains(&covered), "{shade}: {covered:.3}");
    }
}

#[test]
fn render_copies_of_the_bunny_placed_by_poses() {
    let dir = tempfile::tempdir().unwrap();
    let run = raybox(dir.path(), &["render", "--copies", "3", "--size", "96x72", "--json"]);
    run.assert_ok();
    let json = run.json();
    assert_eq!(json["copies"], 27);
    let (_, _, covered) = silhouette(&dir.path().join("raybox.png"));
    assert!((0.1..0.9).contains(&covered), "27 bunnies cover {covered:.3} of the picture");
    assert_eq!(json["pixels_hit"].as_f64().unwrap() / f64::from(96 * 72), covered);
    let run = raybox(
        dir.path(),
        &["render", "--copies", "2", "--size", "40x30", "--shade", "ao", "--ao-samples", "2"],
    );
    run.assert_ok();
    assert!(run.stdout.contains("copies: 8 placed by poses (29,392 triangles in all)"), "{}", run.stdout);
    raybox(dir.path(), &["render", "--copies", "0"]).assert_fails_with("invalid value '0' for '--copies");
    raybox(dir.path(), &["render", "--copies", "41"]).assert_fails_with("invalid value '41' for '--copies");
}

#[test]
fn render_text_report_names_build_time_rays_and_speed() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let run = raybox(
        dir.path(),
        &["render", "cube.obj", "--size", "40x30", "-o", "cube.png", "--camera", "2.5,2,3"],
    );
    run.assert_ok();
    assert!(run.stdout.contains("BVH built in"), "{}", run.stdout);
    assert!(run.stdout.contains("1,200 primary"), "{}", run.stdout);
    assert!(run.stdout.contains("Mrays/s"), "{}", run.stdout);
    let (_, _, covered) = silhouette(&dir.path().join("cube.png"));
    assert!(covered > 0.05, "the cube is in view: {covered}");
}

#[test]
fn bad_mesh_and_ray_files() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let d = dir.path();
    std::fs::write(d.join("bad.obj"), "v 0 0 0\nv 1 0 0\nf 1 2 3\n").unwrap();
    std::fs::write(d.join("nan.obj"), "v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    std::fs::write(d.join("empty.obj"), "# nothing\n").unwrap();
    std::fs::write(d.join("short.csv"), "0,0,0,1,0\n").unwrap();
    std::fs::write(d.join("zero.csv"), "0,0,0,1,0,0\n0,0,0,0,0,0\n").unwrap();
    let ragged: Vec<u8> = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, f32::INFINITY]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .chain([0, 0])
        .collect();
    std::fs::write(d.join("ragged.bin"), ragged).unwrap();
    std::fs::write(
        d.join("far.obj"),
        "v -1 -1 0\nv 1 -1 0\nv 0 1 0\nv 1e20 0 0\nv 1.000001e20 0 0\nv 1e20 1 0\nf 1 2 3\nf 4 5 6\n",
    )
    .unwrap();
    std::fs::write(d.join("nan.csv"), "nan,0.5,-2,0,0,1\n0.5,0.5,-2,0,0,1\n").unwrap();
    let before = files_in(d);

    raybox(d, &["info", "missing.obj"])
        .assert_fails_with("missing.obj: cannot read: no such file or directory");
    raybox(d, &["info", "bad.obj"])
        .assert_fails_with("bad.obj: OBJ, line 3: a face refers to vertex 3, but there are only 2 vertices");
    raybox(d, &["info", "nan.obj"])
        .assert_fails_with("nan.obj: OBJ: vertex 0 has a NaN or infinite coordinate");
    raybox(d, &["info", "empty.obj"]).assert_fails_with("empty.obj: OBJ: the file holds no triangle");
    raybox(d, &["info", "rays.csv"]).assert_fails_with("rays.csv: unknown mesh file extension");
    raybox(d, &["render", "bad.obj", "-o", "x.png"]).assert_fails_with("bad.obj: OBJ, line 3:");
    raybox(d, &["render", "--size", "12", "-o", "x.png"]).assert_fails_with("invalid value '12' for '--size");
    raybox(d, &["render", "--shade", "toon"]).assert_fails_with("invalid value 'toon' for '--shade");
    // Found by an audit: a mesh wider than ~1.8e19 panicked in the occlusion rays' set-up,
    // and a far camera was reported as "the same point" as its target.
    raybox(d, &["render", "far.obj", "--shade", "ao", "--size", "8x8", "-o", "x.png"])
        .assert_fails_with("far.obj: the mesh reaches 1.000001e20 from the origin: too far to render");
    raybox(d, &["render", "--camera", "1e38,1e38,1e38", "--size", "8x8", "-o", "x.png"])
        .assert_fails_with("is too far from the origin (at most 1e18 on every axis)");
    raybox(d, &["render", "--threads", "100000", "--size", "8x8", "-o", "x.png"])
        .assert_fails_with("--threads must be at most 1024, not 100000");
    raybox(d, &["render", "-o", "no/such/dir/x.png", "--size", "8x8"])
        .assert_fails_with("no/such/dir/x.png: cannot write: the directory does not exist");
    raybox(d, &["cast", "cube.obj", "missing.csv", "-o", "h.csv"])
        .assert_fails_with("missing.csv: cannot read");
    raybox(d, &["cast", "cube.obj", "short.csv", "-o", "h.csv"])
        .assert_fails_with("short.csv:1: expected 6 or 7 numbers");
    raybox(d, &["cast", "cube.obj", "zero.csv", "-o", "h.csv"])
        .assert_fails_with("zero.csv:2: ray 1: Ray3: dir must not be the zero vector");
    raybox(d, &["cast", "cube.obj", "ragged.bin", "-o", "h.bin", "--batch", "1"])
        .assert_fails_with("ragged.bin: ends with 2 bytes after ray 1");
    // A first ray with a NaN is refused, not skipped as a header (found by an audit).
    raybox(d, &["cast", "cube.obj", "nan.csv", "-o", "h.csv"]).assert_fails_with("nan.csv:1: ray 0:");
    // With the hits on stdout, the JSON error goes to stderr, not into the data (found by
    // an audit); with the hits in a file, it stays on stdout.
    let run = raybox(d, &["--json", "cast", "cube.obj", "zero.csv", "--batch", "1"]);
    assert_eq!(run.status, 2);
    assert!(!run.stdout.contains("\"ok\":false"), "error JSON in the data: {}", run.stdout);
    assert!(run.stderr.contains("\"ok\":false"), "{}", run.stderr);
    let run = raybox(d, &["--json", "cast", "cube.obj", "zero.csv", "-o", "h.csv"]);
    assert!(run.stdout.contains("\"ok\":false"), "{}", run.stdout);
    raybox(d, &["cast", "cube.obj", "rays.csv", "-o", "h.csv", "--format", "xml"])
        .assert_fails_with("invalid value 'xml'");
    assert_eq!(files_in(d), before, "no output file left behind");
}

#[test]
fn cast_csv_skips_comments_blank_lines_and_a_header_and_reads_inf() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let csv = "# rays at the cube\n\nox,oy,oz,dx,dy,dz,tmax\n0.5,0.5,-2,0,0,1,inf\n# a miss\n5,5,5,1,0,0\n";
    std::fs::write(dir.path().join("mixed.csv"), csv).unwrap();
    let run = raybox(dir.path(), &["cast", "cube.obj", "mixed.csv"]);
    run.assert_ok();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    assert!(lines[1].starts_with("2,"), "t = 2 through the bottom face: {}", lines[1]);
    assert_eq!(lines[2], ",,,,,,");
}

/// The cube's 12 triangles (without the OBJ's degenerate one), as flat `f32` positions and
/// `u32` indices in the cube's own vertex order.
fn cube_arrays() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mesh = cube_mesh();
    let indices = mesh.indices()[..12].to_vec();
    (mesh.vertices().to_vec(), indices)
}

/// Standard base64 with padding (for a glTF `data:` URI).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The cube as glTF: one buffer of positions then `u32` indices, two accessors, one mesh,
/// one node. `uri` is the buffer's URI, or `None` for the GLB binary chunk.
fn cube_gltf_json(uri: Option<&str>, byte_length: usize) -> String {
    let (vertices, indices) = cube_arrays();
    let positions = 12 * vertices.len();
    let uri = uri.map_or(String::new(), |u| format!(r#""uri":"{u}","#));
    format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],"nodes":[{{"mesh":0}}],
"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],
"buffers":[{{{uri}"byteLength":{byte_length}}}],
"bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":{positions}}},{{"buffer":0,"byteOffset":{positions},"byteLength":{}}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":{},"type":"VEC3","min":[0,0,0],"max":[1,1,1]}},
{{"bufferView":1,"componentType":5125,"count":{},"type":"SCALAR"}}]}}"#,
        12 * indices.len(),
        vertices.len(),
        3 * indices.len()
    )
}

fn cube_buffer() -> Vec<u8> {
    let (vertices, indices) = cube_arrays();
    let mut buffer: Vec<u8> = vertices.iter().flat_map(|v| v.to_array()).flat_map(f32::to_le_bytes).collect();
    buffer.extend(indices.iter().flatten().flat_map(|i| i.to_le_bytes()));
    buffer
}

/// A GLB file: the 12-byte header, the JSON chunk (padded with spaces), the BIN chunk.
fn cube_glb() -> Vec<u8> {
    let buffer = cube_buffer();
    let mut json = cube_gltf_json(None, buffer.len()).into_bytes();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut bin = buffer;
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut glb = b"glTF".to_vec();
    glb.extend(2u32.to_le_bytes());
    glb.extend((total as u32).to_le_bytes());
    glb.extend((json.len() as u32).to_le_bytes());
    glb.extend(b"JSON");
    glb.extend(json);
    glb.extend((bin.len() as u32).to_le_bytes());
    glb.extend(b"BIN\0");
    glb.extend(bin);
    glb
}

#[test]
fn gltf_and_glb_meshes_load_and_cast_like_the_library() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let d = dir.path();
    let buffer = cube_buffer();
    let uri = format!("data:application/octet-stream;base64,{}", base64(&buffer));
    std::fs::write(d.join("cube.gltf"), cube_gltf_json(Some(&uri), buffer.len())).unwrap();
    std::fs::write(d.join("cube.glb"), cube_glb()).unwrap();
    // A buffer in a file next to the glTF file, and one that is missing.
    std::fs::write(d.join("outside.gltf"), cube_gltf_json(Some("outside.bin"), buffer.len())).unwrap();
    std::fs::write(d.join("outside.bin"), &buffer).unwrap();
    std::fs::write(d.join("lost.gltf"), cube_gltf_json(Some("lost.bin"), buffer.len())).unwrap();
    raybox(d, &["info", "lost.gltf"])
        .assert_fails_with("lost.gltf: cannot read its buffer lost.bin: no such file or directory");
    for file in ["cube.gltf", "cube.glb", "outside.gltf"] {
        let json = raybox(d, &["info", file, "--json"]).json();
        assert_eq!((json["triangles"].as_u64(), json["vertices"].as_u64()), (Some(12), Some(8)), "{file}");
        assert_eq!(json["bounds"]["max"], serde_json::json!([1.0, 1.0, 1.0]), "{file}");
    }
    let (vertices, indices) = cube_arrays();
    let mesh = TriMesh::new(vertices, indices).unwrap();
    raybox(d, &["cast", "cube.glb", "rays.csv", "-o", "hits.csv", "-q"]).assert_ok();
    let text = std::fs::read_to_string(d.join("hits.csv")).unwrap();
    for (i, (line, &(o, dir, t_max))) in text.lines().skip(1).zip(&test_rays()).enumerate() {
        let want = mesh.cast_ray(&Ray3::with_range(o, dir, 0.0, t_max));
        let got = line.split(',').next().unwrap();
        match want {
            Some(h) => assert_eq!(got.parse::<f32>().unwrap(), h.t, "ray {i}"),
            None => assert_eq!(line, ",,,,,,", "ray {i}"),
        }
    }
}

#[test]
fn malformed_ply_stl_and_glb_name_the_file_and_the_format() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ply = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n\
               element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n";
    std::fs::write(d.join("short.ply"), ply).unwrap();
    std::fs::write(d.join("garbage.stl"), b"\x00\x01 not an stl file").unwrap();
    let mut glb = cube_glb();
    glb.truncate(glb.len() - 40);
    std::fs::write(d.join("cut.glb"), glb).unwrap();
    std::fs::write(d.join("empty.gltf"), "").unwrap();
    let before = files_in(d);
    for (file, expected) in [
        ("short.ply", "short.ply: PLY"),
        ("garbage.stl", "garbage.stl: STL"),
        ("cut.glb", "cut.glb: glTF"),
        ("empty.gltf", "empty.gltf: glTF: the file is empty"),
    ] {
        raybox(d, &["info", file]).assert_fails_with(expected);
        raybox(d, &["render", file, "-o", "x.png", "--size", "8x8"]).assert_fails_with(expected);
        raybox(d, &["cast", file, "-", "-o", "h.csv"]).assert_fails_with(expected);
    }
    assert_eq!(files_in(d), before, "no output file left behind");
}
