//! Mesh loaders: small hand-written files with known answers, the embedded bunny written
//! out in every format and read back, malformed files (each with its error and message),
//! and a few hundred corrupted copies that must never make a loader panic.
//!
//! Files are made by the tiny writers of `tests/common/mesh_files.rs`, shared with
//! `tests/loader_fuzz.rs`.

#![allow(dead_code, unused_imports)] // with some loader features off

mod common;

use std::path::{Path, PathBuf};

use glam::Vec3;
use raybox::MeshData;
use raybox::mesh::{LoadMeshError, Location, MeshFormat, bunny, load, load_from_bytes};

use common::mesh_files::*;

// ---------------------------------------------------------------------------------------
// Helpers

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/meshes").join(name)
}

fn read_fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixture(name)).unwrap()
}

/// A fresh, empty folder for files a test writes.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("raybox-loaders-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts that `result` is an error whose message contains every one of `words`.
fn assert_message(result: Result<MeshData, LoadMeshError>, words: &[&str]) -> LoadMeshError {
    let err = result.expect_err("a malformed file must give an error");
    let message = err.to_string();
    for word in words {
        assert!(message.contains(word), "message {message:?} should contain {word:?}");
    }
    err
}

// ---------------------------------------------------------------------------------------
// Dispatch and errors common to every format

#[test]
fn errors_are_send_sync_and_static() {
    fn check<T: Send + Sync + 'static + std::error::Error>() {}
    check::<LoadMeshError>();
}

#[test]
fn unknown_extension_names_the_file() {
    let err =
        assert_message(load(Path::new("meshes/scene.fbx")), &["scene.fbx", "unknown mesh file extension"]);
    assert!(matches!(err, LoadMeshError::UnknownExtension { .. }));
    assert!(matches!(load(Path::new("no_extension")), Err(LoadMeshError::UnknownExtension { .. })));
}

#[test]
#[cfg(feature = "obj")]
fn missing_file_is_an_io_error_naming_the_file() {
    let err = assert_message(load(&fixture("missing.obj")), &["missing.obj", "cannot read the file"]);
    let LoadMeshError::Io { path, source } = &err else { panic!("{err:?}") };
    assert_eq!(path, &fixture("missing.obj"));
    assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
    assert!(std::error::Error::source(&err).is_some());
}

#[test]
#[cfg(feature = "obj")]
fn extensions_are_case_insensitive() {
    let dir = scratch("case");
    let path = dir.join("CUBE.OBJ");
    std::fs::copy(fixture("cube.obj"), &path).unwrap();
    assert_eq!(load(&path).unwrap().indices.len(), 12);
}

/// Whether this build has the format's loader.
fn enabled(format: MeshFormat) -> bool {
    !matches!(load_from_bytes(b"", format), Err(LoadMeshError::FeatureDisabled { .. }))
}

#[test]
fn empty_files_are_errors_in_every_format() {
    let cases = [
        (MeshFormat::Obj, "empty.obj", "no triangle"),
        (MeshFormat::Ply, "empty.ply", "line 1: the file is empty"),
        (MeshFormat::Stl, "empty.stl", "empty"),
        (MeshFormat::Gltf, "empty.glb", "empty"),
    ];
    let dir = scratch("empty");
    for (format, name, problem) in cases.into_iter().filter(|c| enabled(c.0)) {
        assert_message(load_from_bytes(b"", format), &[&format.to_string(), problem]);
        // Through a path, the message names the file too.
        std::fs::write(dir.join(name), b"").unwrap();
        assert_message(load(&dir.join(name)), &[name, problem]);
    }
    if enabled(MeshFormat::Obj) {
        let err = load_from_bytes(b"# nothing\n", MeshFormat::Obj).unwrap_err();
        assert!(matches!(err, LoadMeshError::NoTriangles { format: MeshFormat::Obj, .. }));
    }
}

#[test]
#[cfg(feature = "obj")]
fn non_finite_coordinates_are_errors() {
    let obj = "v 0 0 0\nv 1e39 0 0\nv 0 1 0\nf 1 2 3\n";
    let err =
        assert_message(load_from_bytes(obj.as_bytes(), MeshFormat::Obj), &["vertex 1", "NaN or infinite"]);
    assert!(matches!(err, LoadMeshError::NonFinite { vertex: 1, .. }));
}

#[test]
#[cfg(feature = "ply")]
fn nan_coordinates_are_errors() {
    let ply = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n\
               element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n0 NaN 0\n1 0 0\n3 0 1 2\n";
    let err = load_from_bytes(ply.as_bytes(), MeshFormat::Ply).unwrap_err();
    assert!(matches!(err, LoadMeshError::NonFinite { vertex: 1, .. }), "{err}");
}

#[test]
#[cfg(not(feature = "gltf"))]
fn a_disabled_format_names_its_feature() {
    let err = assert_message(load_from_bytes(b"{}", MeshFormat::Gltf), &["glTF", "`gltf` cargo feature"]);
    assert!(matches!(err, LoadMeshError::FeatureDisabled { feature: "gltf", .. }));
    assert!(matches!(load(Path::new("x.glb")), Err(LoadMeshError::FeatureDisabled { .. })));
}

#[test]
#[cfg(not(feature = "obj"))]
fn a_disabled_obj_loader_names_its_feature() {
    let err = load_from_bytes(b"v 0 0 0", MeshFormat::Obj).unwrap_err();
    assert!(matches!(err, LoadMeshError::FeatureDisabled { feature: "obj", .. }));
}

// ---------------------------------------------------------------------------------------
// OBJ

#[cfg(feature = "obj")]
mod obj {
    use super::*;

    /// Found by an audit: `tobj` 4.0.5 overflows (a panic in debug builds, which the tests
    /// are) on a texture-coordinate or normal number past the ones read; each is an error
    /// naming the line. Numbers within range, negative ones included, still load.
    #[test]
    fn texture_and_normal_numbers_out_of_range_are_errors() {
        let head = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n";
        for (face, words) in [
            ("f 1/-11 2/1 3/1", &["line 6", "texture coordinate -11, but only 1 were read before it"][..]),
            ("f 1//-11 2//1 3//1", &["line 6", "normal -11, but only 1 were read before it"]),
            (
                "f 1/9223372036854775807 2/1 3/1",
                &["line 6", "texture coordinate 9223372036854775807, but the file has 1"],
            ),
            ("f 1/1/2 2/1/1 3/1/1", &["line 6", "normal 2, but the file has 1"]),
            // Numbers start at 1: a zero is out of range for every kind.
            ("f 1/0 2/1 3/1", &["line 6", "texture coordinate 0, but the file has 1"]),
            ("f 1//0 2//1 3//1", &["line 6", "normal 0, but the file has 1"]),
        ] {
            let text = format!("{head}{face}\n");
            assert_message(load_from_bytes(text.as_bytes(), MeshFormat::Obj), words);
        }
        for face in ["f 1/-1/-1 2/1/1 3/-1/1", "f -3/1 -2/1 -1/1", "f 1//1 2//1 3//1"] {
            let mesh = load_from_bytes(format!("{head}{face}\n").as_bytes(), MeshFormat::Obj).unwrap();
            assert_eq!(mesh.indices.len(), 1, "{face}");
        }
    }

    /// Found by `tests/loader_fuzz.rs`: `tobj` 4.0.5 reads an `l` (polyline) line with its
    /// face parser, so `l 1 2 3` came back as a triangle (a wrong mesh: lines are skipped),
    /// and `l 1/-11 2/1 3/1` overflowed in `tobj` (a panic in debug builds), since the
    /// number checks only looked at `f` lines. Every `l` line is now skipped, whatever it holds.
    #[test]
    fn polylines_of_three_points_or_more_are_skipped() {
        let head = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\n";
        let err = load_from_bytes(format!("{head}l 1 2 3\n").as_bytes(), MeshFormat::Obj).unwrap_err();
        assert!(matches!(err, LoadMeshError::NoTriangles { .. }), "{err}");
        for line in ["l 1 2 3 1", "l 1/-11 2/1 3/1", "l 1/1 2/1 3/9", "l 1 2 9", "l a b c", " l 1 2 3"] {
            let text = format!("{head}{line}\nf 1 2 3\ng next\nl 3 2 1\n");
            let mesh =
                load_from_bytes(text.as_bytes(), MeshFormat::Obj).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(mesh.indices, vec![[0, 1, 2]], "{line}");
        }
        // Line numbers in errors still count the skipped lines.
        let text = format!("{head}l 1 2 3\nv 0 zero 0\nf 1 2 3\n");
        assert_message(load_from_bytes(text.as_bytes(), MeshFormat::Obj), &["line 6", "vertex position"]);
    }

    #[test]
    fn cube_loads_as_12_triangles_in_first_use_order() {
        let mesh = load(&fixture("cube.obj")).unwrap();
        // tobj numbers vertices in the order the faces first use them: 1 4 3 2 5 6 7 8.
        let c = cube().vertices;
        assert_eq!(mesh.vertices, vec![c[0], c[3], c[2], c[1], c[4], c[5], c[6], c[7]]);
        assert_eq!(
            mesh.indices,
            vec![
                [0, 1, 2],
                [0, 2, 3],
                [4, 5, 6],
                [4, 6, 7],
                [0, 3, 5],
                [0, 5, 4],
                [3, 2, 6],
                [3, 6, 5],
                [2, 1, 7],
                [2, 7, 6],
                [1, 0, 4],
                [1, 4, 7]
            ]
        );
        assert_eq!(corner_positions(&mesh), corner_positions(&cube()));
    }

    #[test]
    fn polygons_are_fans_and_objects_merge() {
        let obj = "o a\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0.5 2 0\nv 0 1 0\nf 1 2 3 4 5\n\
                   o b\nv 5 5 5\nv 6 5 5\nv 5 6 5\nf -3 -2 -1\nl 1 2\n";
        let mesh = load_from_bytes(obj.as_bytes(), MeshFormat::Obj).unwrap();
        assert_eq!(mesh.vertices.len(), 8);
        assert_eq!(mesh.vertices[5], Vec3::splat(5.0));
        assert_eq!(mesh.indices, vec![[0, 1, 2], [0, 2, 3], [0, 3, 4], [5, 6, 7]]);
    }

    #[test]
    fn materials_normals_and_texture_coordinates_are_ignored() {
        let obj = "mtllib missing.mtl\nusemtl red\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n\
                   g side\ns 1\nf 1/1/1 2/1/1 3/1/1\n";
        let mesh = load_from_bytes(obj.as_bytes(), MeshFormat::Obj).unwrap();
        assert_eq!((mesh.vertices.len(), mesh.indices.clone()), (3, vec![[0, 1, 2]]));
    }

    #[test]
    fn bunny_round_trips() {
        let bunny = bunny();
        let mesh = load_from_bytes(write_obj(&bunny).as_bytes(), MeshFormat::Obj).unwrap();
        assert_eq!(mesh.indices.len(), 3674);
        assert_eq!(corner_positions(&mesh), corner_positions(&bunny));
    }

    #[test]
    fn a_bad_number_names_its_line() {
        let obj = "v 0 0 0\nv 1 zero 0\nv 0 1 0\nf 1 2 3\n";
        let err = assert_message(
            load_from_bytes(obj.as_bytes(), MeshFormat::Obj),
            &["OBJ, line 2", "vertex position"],
        );
        assert!(matches!(err, LoadMeshError::Parse { at: Some(Location::Line(2)), .. }));
        assert!(std::error::Error::source(&err).is_some(), "tobj's error is the source");
    }

    #[test]
    fn a_face_past_the_vertices_names_its_line() {
        let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n\nf 1 2 9\n";
        let err = assert_message(
            load_from_bytes(obj.as_bytes(), MeshFormat::Obj),
            &["line 6", "vertex 9", "only 3"],
        );
        assert!(matches!(err, LoadMeshError::IndexOutOfRange { index: 9, vertex_count: 3, .. }));
        // Vertex 0 does not exist in OBJ (numbers start at 1), nor does -4 here.
        for face in ["f 0 1 2", "f -4 1 2"] {
            let text = format!("v 0 0 0\nv 1 0 0\nv 0 1 0\n{face}\n");
            let err = load_from_bytes(text.as_bytes(), MeshFormat::Obj).unwrap_err();
            assert!(matches!(err, LoadMeshError::IndexOutOfRange { .. }), "{face}: {err}");
        }
    }

    #[test]
    fn a_path_error_names_the_file() {
        let dir = scratch("obj-path");
        let path = dir.join("broken.obj");
        std::fs::write(&path, "v 0 0\n").unwrap();
        let err = assert_message(load(&path), &["broken.obj: OBJ, line 1"]);
        let LoadMeshError::Parse { path: Some(p), .. } = err else { panic!() };
        assert_eq!(p, path);
    }
}

// ---------------------------------------------------------------------------------------
// PLY

#[cfg(feature = "ply")]
mod ply {
    use super::*;

    #[test]
    fn ascii_cube_with_shuffled_and_extra_properties() {
        assert_eq!(load(&fixture("cube_ascii.ply")).unwrap(), cube());
    }

    #[test]
    fn binary_cubes_of_both_byte_orders() {
        for big_endian in [false, true] {
            let bytes = write_ply_binary(&cube(), big_endian);
            assert_eq!(load_from_bytes(&bytes, MeshFormat::Ply).unwrap(), cube(), "big endian: {big_endian}");
        }
    }

    #[test]
    fn binary_with_mixed_types_and_skipped_elements() {
        // x as double, y as short, z as float; a uchar before; a `vertex_index` list of
        // ushort counts and uint items; a `material` element with a list to skip.
        let mut bytes =
            b"ply\nformat binary_little_endian 1.0\nelement material 1\nproperty list uchar int ids\n\
            element vertex 4\nproperty uchar flag\nproperty double x\nproperty short y\nproperty float z\n\
            element face 1\nproperty list ushort uint vertex_index\nend_header\n"
                .to_vec();
        bytes.extend_from_slice(&[2, 7, 0, 0, 0, 9, 0, 0, 0]); // material: ids [7, 9]
        for (x, y, z) in [(0.0f64, 0i16, 0.5f32), (1.0, 0, 0.5), (1.0, 1, 0.5), (0.0, 1, 0.5)] {
            bytes.push(1);
            bytes.extend_from_slice(&x.to_le_bytes());
            bytes.extend_from_slice(&y.to_le_bytes());
            bytes.extend_from_slice(&z.to_le_bytes());
        }
        bytes.extend_from_slice(&4u16.to_le_bytes());
        for i in [0u32, 1, 2, 3] {
            bytes.extend_from_slice(&i.to_le_bytes());
        }
        let mesh = load_from_bytes(&bytes, MeshFormat::Ply).unwrap();
        assert_eq!(mesh.vertices[2], Vec3::new(1.0, 1.0, 0.5));
        assert_eq!(mesh.indices, vec![[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn bunny_round_trips_in_ascii_and_binary() {
        let bunny = bunny();
        for (name, bytes) in [
            ("ascii", write_ply_ascii(&bunny)),
            ("little endian", write_ply_binary(&bunny, false)),
            ("big endian", write_ply_binary(&bunny, true)),
        ] {
            assert_eq!(load_from_bytes(&bytes, MeshFormat::Ply).unwrap(), bunny, "{name}");
        }
    }

    #[test]
    fn truncated_binary_names_the_byte_and_the_record() {
        let bytes = write_ply_binary(&cube(), false);
        let cut = &bytes[..bytes.len() - 3];
        let err = assert_message(
            load_from_bytes(cut, MeshFormat::Ply),
            &["PLY, byte", "face 11 of 12", "truncated"],
        );
        assert!(matches!(err, LoadMeshError::Parse { at: Some(Location::Byte(_)), .. }));
        // Cut inside the vertices.
        let header = ply_header(&cube(), "binary_little_endian").len();
        let cut = &bytes[..header + 30];
        assert_message(
            load_from_bytes(cut, MeshFormat::Ply),
            &[&format!("byte {}", header + 28), "vertex 2 of 8"],
        );
    }

    #[test]
    fn bad_ascii_numbers_name_their_line() {
        let text = String::from_utf8(write_ply_ascii(&cube())).unwrap().replace("1 1 1\n", "1 one 1\n");
        let err = assert_message(
            load_from_bytes(text.as_bytes(), MeshFormat::Ply),
            &["line 16", "vertex 6 of 8", "`one`"],
        );
        assert!(matches!(err, LoadMeshError::Parse { at: Some(Location::Line(16)), .. }));
    }

    #[test]
    fn a_face_past_the_vertices_is_an_index_error() {
        let text = String::from_utf8(write_ply_ascii(&cube())).unwrap().replace("3 2 7 6\n", "3 2 8 6\n");
        let err = assert_message(
            load_from_bytes(text.as_bytes(), MeshFormat::Ply),
            &["line 27", "vertex 8", "only 8"],
        );
        assert!(matches!(err, LoadMeshError::IndexOutOfRange { index: 8, vertex_count: 8, .. }));
        let text = text.replace("3 2 8 6\n", "3 2 -1 6\n");
        let err = load_from_bytes(text.as_bytes(), MeshFormat::Ply).unwrap_err();
        assert!(matches!(err, LoadMeshError::IndexOutOfRange { index: -1, .. }), "{err}");
    }

    #[test]
    fn header_errors_name_their_line() {
        let cases: [(&str, &[&str]); 6] = [
            ("plyx\n", &["line 1", "not a PLY file"]),
            ("ply\nformat ascii 1.0\nelement vertex 1\n", &["line 4", "no `end_header`"]),
            ("ply\nformat ebcdic 1.0\nend_header\n", &["line 2", "unknown format `ebcdic`"]),
            (
                "ply\nformat ascii 1.0\nelement vertex 1\nproperty quad x\nend_header\n",
                &["line 4", "unknown type `quad`"],
            ),
            (
                "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n0\n",
                &["line 3", "no property `y`"],
            ),
            ("ply\nelement vertex 0\nend_header\n", &["no `format` line"]),
        ];
        for (text, words) in cases {
            assert_message(load_from_bytes(text.as_bytes(), MeshFormat::Ply), words);
        }
    }

    #[test]
    fn a_huge_element_without_properties_is_skipped_at_once() {
        let text = String::from_utf8(write_ply_ascii(&cube()))
            .unwrap()
            .replace("end_header\n", "element nothing 18446744073709551615\nend_header\n");
        assert_eq!(load_from_bytes(text.as_bytes(), MeshFormat::Ply).unwrap(), cube());
    }

    /// Found by `tests/loader_fuzz.rs`: a value too many in an ASCII record shifted every
    /// record after it, and the value left over at the end was ignored, so the file loaded
    /// as another mesh. Here a `0` before the first face made it a face of no corners
    /// (skipped), and the cube came back with 11 triangles, the last `6` unread. Any value
    /// after the last record is now an error naming its line.
    #[test]
    fn ascii_values_after_the_last_record_are_errors() {
        let text = String::from_utf8(write_ply_ascii(&cube())).unwrap();
        let shifted = text.replacen("3 0 3 2\n", "0 3 0 3 2\n", 1);
        assert_ne!(shifted, text);
        assert_message(
            load_from_bytes(shifted.as_bytes(), MeshFormat::Ply),
            &["PLY, line 29", "`3` follows"],
        );
        let trailing = format!("{text}\n\nend\n");
        assert_message(load_from_bytes(trailing.as_bytes(), MeshFormat::Ply), &["line 32", "`end` follows"]);
        // White space after the last record is fine.
        let spaces = format!("{text} \r\n\n\t");
        assert_eq!(load_from_bytes(spaces.as_bytes(), MeshFormat::Ply).unwrap(), cube());
    }

    #[test]
    fn faces_with_fewer_than_three_corners_are_skipped() {
        let text = String::from_utf8(write_ply_ascii(&cube()))
            .unwrap()
            .replace("element face 12", "element face 13")
            + "2 0 1\n";
        assert_eq!(load_from_bytes(text.as_bytes(), MeshFormat::Ply).unwrap(), cube());
    }
}

// ---------------------------------------------------------------------------------------
// STL

#[cfg(feature = "stl")]
mod stl {
    use super::*;

    #[test]
    fn ascii_quad_shares_its_diagonal() {
        let mesh = load(&fixture("quad.stl")).unwrap();
        assert_eq!(mesh.vertices, vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y]);
        assert_eq!(mesh.indices, vec![[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn binary_cube_is_merged_back_to_8_vertices() {
        let mesh = load_from_bytes(&write_stl_binary(&cube()), MeshFormat::Stl).unwrap();
        assert_eq!(corner_positions(&mesh), corner_positions(&cube()));
        // Vertices are numbered in order of first appearance: corners 0, 3, 2 come first.
        let c = cube().vertices;
        assert_eq!(mesh.vertices, vec![c[0], c[3], c[2], c[1], c[4], c[5], c[6], c[7]]);
    }

    /// Found by an audit: each of these ASCII files was read as binary ("the header
    /// announces 1684956426 triangles"): a byte-order mark, keywords in upper case, a
    /// `solid` name in Latin-1 (not UTF-8).
    #[test]
    fn ascii_with_a_bom_upper_case_keywords_or_a_latin1_name() {
        let ascii = write_stl_ascii(&cube());
        let bom = [b"\xEF\xBB\xBF".as_slice(), &ascii].concat();
        let upper = String::from_utf8(ascii.clone()).unwrap().to_ascii_uppercase().into_bytes();
        let latin1 =
            [b"solid caf\xE9\n".as_slice(), &ascii[ascii.iter().position(|&b| b == b'\n').unwrap() + 1..]]
                .concat();
        let latin1_end =
            [&ascii[..ascii.len() - "endsolid written by tests\n".len()], b"endsolid caf\xE9\r\n"].concat();
        for (what, bytes) in [("bom", bom), ("upper", upper), ("latin1", latin1), ("latin1 end", latin1_end)]
        {
            let mesh = load_from_bytes(&bytes, MeshFormat::Stl).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(corner_positions(&mesh), corner_positions(&cube()), "{what}");
        }
        // A binary file that starts with `solid`, with a non-UTF-8 byte in its header and a
        // size that does not match its count, is still read as binary, not as a name.
        let mut binary = write_stl_binary(&cube());
        binary[..6].copy_from_slice(b"solid ");
        binary[10] = 0xE9;
        binary.push(0);
        let mesh = load_from_bytes(&binary, MeshFormat::Stl).unwrap();
        assert_eq!(corner_positions(&mesh), corner_positions(&cube()));
    }

    #[test]
    fn binary_files_may_start_with_solid() {
        let mut bytes = write_stl_binary(&cube());
        bytes[..6].copy_from_slice(b"solid ");
        let mesh = load_from_bytes(&bytes, MeshFormat::Stl).unwrap();
        assert_eq!(corner_positions(&mesh), corner_positions(&cube()));
    }

    #[test]
    fn negative_zero_merges_with_zero() {
        let mut soup = cube();
        soup.vertices.push(Vec3::new(-0.0, 0.0, -0.0)); // vertex 8 is vertex 0 again
        soup.indices[1] = [8, 2, 1];
        let mesh = load_from_bytes(&write_stl_binary(&soup), MeshFormat::Stl).unwrap();
        assert_eq!(mesh.vertices.len(), 8);
        assert_eq!(mesh.vertices[0].to_array().map(f32::to_bits), [0; 3], "the first seen, +0.0, is kept");
        assert_eq!(corner_positions(&mesh), corner_positions(&cube()));
    }

    #[test]
    fn bunny_round_trips_in_binary_and_ascii() {
        let bunny = bunny();
        for bytes in [write_stl_binary(&bunny), write_stl_ascii(&bunny)] {
            let mesh = load_from_bytes(&bytes, MeshFormat::Stl).unwrap();
            assert_eq!(corner_positions(&mesh), corner_positions(&bunny));
            // The bunny's vertices are all distinct, so merging finds each once.
            assert_eq!(mesh.vertices.len(), bunny.vertices.len());
        }
    }

    #[test]
    fn truncated_binary_says_how_many_bytes_are_missing() {
        let bytes = write_stl_binary(&cube());
        let err = assert_message(
            load_from_bytes(&bytes[..bytes.len() - 10], MeshFormat::Stl),
            &["12 triangles", "684 bytes", "only 674 bytes", "truncated"],
        );
        assert!(matches!(err, LoadMeshError::Parse { at: Some(Location::Byte(674)), .. }));
        assert_message(load_from_bytes(&bytes[..40], MeshFormat::Stl), &["40 bytes long", "84-byte header"]);
    }

    #[test]
    fn ascii_errors_name_their_line() {
        let text = String::from_utf8(read_fixture("quad.stl")).unwrap();
        let cases: [(String, &[&str]); 4] = [
            (
                text.replace("vertex 1 1 0\n    endloop", "vertex 1 1 x\n    endloop"),
                &["line 6", "`x` is not a number"],
            ),
            (text.replace("      vertex 1 0 0\n", ""), &["line 6", "2 corners"]),
            (text.replace("endsolid quad\n", ""), &["line 15", "before `endsolid`", "truncated"]),
            (text.replace("outer loop", "inner loop"), &["line 3"]),
        ];
        for (text, words) in cases {
            assert_message(load_from_bytes(text.as_bytes(), MeshFormat::Stl), words);
        }
    }
}

// ---------------------------------------------------------------------------------------
// glTF

#[cfg(feature = "gltf")]
mod gltf {
    use super::*;

    #[test]
    fn node_transforms_apply_and_lines_are_skipped() {
        // quad.gltf: a translation of 10 along x above a scale of 2; a second primitive of
        // lines, skipped; a second mesh in no node, left out.
        let mesh = load(&fixture("quad.gltf")).unwrap();
        let v = |x: f32, y: f32| Vec3::new(x, y, 0.0);
        assert_eq!(mesh.vertices, vec![v(10.0, 0.0), v(12.0, 0.0), v(12.0, 2.0), v(10.0, 2.0)]);
        assert_eq!(mesh.indices, vec![[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn strips_and_fans_follow_the_specification() {
        // quad.gltf's first primitive, with the corner list 0 1 2 0 2 3 read as a strip
        // (triangle k is k, k+1, k+2, the last two swapped for odd k) and as a fan
        // (triangle k is k+1, k+2, 0).
        let text = String::from_utf8(read_fixture("quad.gltf")).unwrap();
        let cases = [
            (5, vec![[0, 1, 2], [1, 0, 2], [2, 0, 2], [0, 3, 2]]),
            (6, vec![[1, 2, 0], [2, 0, 0], [0, 2, 0], [2, 3, 0]]),
        ];
        for (mode, expected) in cases {
            let json = text.replacen(r#""indices": 1 }"#, &format!(r#""indices": 1, "mode": {mode} }}"#), 1);
            let mesh = load_from_bytes(json.as_bytes(), MeshFormat::Gltf).unwrap();
            assert_eq!(mesh.indices, expected, "mode {mode}");
        }
    }

    #[test]
    fn glb_extension_is_case_insensitive() {
        let path = scratch("glb-case").join("cube.GLB");
        std::fs::write(&path, write_glb(&cube())).unwrap();
        assert_eq!(load(&path).unwrap(), cube());
    }

    #[test]
    fn bunny_round_trips_through_glb() {
        let bunny = bunny();
        assert_eq!(load_from_bytes(&write_glb(&bunny), MeshFormat::Gltf).unwrap(), bunny);
    }

    #[test]
    fn data_uri_and_external_buffers() {
        let cube = cube();
        let uri = format!(r#","uri":"data:application/octet-stream;base64,{}""#, base64(&gltf_buffer(&cube)));
        let json = gltf_json(&cube, &uri);
        assert_eq!(load_from_bytes(json.as_bytes(), MeshFormat::Gltf).unwrap(), cube);

        // A buffer in a file beside the glTF file, its name percent-encoded.
        let dir = scratch("gltf-external");
        std::fs::write(dir.join("cube data.bin"), gltf_buffer(&cube)).unwrap();
        let json = gltf_json(&cube, r#","uri":"cube%20data.bin""#);
        std::fs::write(dir.join("cube.gltf"), &json).unwrap();
        assert_eq!(load(&dir.join("cube.gltf")).unwrap(), cube);
        // From bytes alone, the buffer cannot be found: the message says to use `load`.
        assert_message(load_from_bytes(json.as_bytes(), MeshFormat::Gltf), &["cube%20data.bin", "`load`"]);
        // A missing buffer file is an I/O error naming that file.
        std::fs::remove_file(dir.join("cube data.bin")).unwrap();
        let err = assert_message(load(&dir.join("cube.gltf")), &["cube data.bin", "cannot read"]);
        assert!(matches!(err, LoadMeshError::Io { .. }));
    }

    #[test]
    fn malformed_files_are_errors() {
        let cube = cube();
        let glb = write_glb(&cube);
        let err = assert_message(
            load_from_bytes(&glb[..glb.len() - 20], MeshFormat::Gltf),
            &["glTF", "not a valid"],
        );
        assert!(std::error::Error::source(&err).is_some(), "the gltf crate's error is the source");
        assert_message(load_from_bytes(b"{\"asset\":", MeshFormat::Gltf), &["not a valid glTF"]);

        // An index past the vertex count.
        let mut bad = cube.clone();
        bad.indices[3][1] = 8;
        let err =
            assert_message(load_from_bytes(&write_glb(&bad), MeshFormat::Gltf), &["vertex 8", "only 8"]);
        assert!(matches!(err, LoadMeshError::IndexOutOfRange { index: 8, vertex_count: 8, .. }));

        // An accessor that claims more vertices than its view holds.
        let json = gltf_json(&cube, "").replacen(r#""count":8"#, r#""count":9"#, 1);
        let mut glb = write_glb(&cube);
        let old = gltf_json(&cube, "");
        assert_eq!(json.len(), old.len());
        let at = glb.windows(old.len()).position(|w| w == old.as_bytes()).unwrap();
        glb[at..at + json.len()].copy_from_slice(json.as_bytes());
        assert_message(
            load_from_bytes(&glb, MeshFormat::Gltf),
            &["accessor 0", "past the end of its buffer view"],
        );

        // A triangle list of 35 corners (the last triangle cut short): an error, not 11
        // triangles.
        let json = gltf_json(&cube, "").replacen(r#""count":36"#, r#""count":35"#, 1);
        assert_ne!(json, gltf_json(&cube, ""), "the index accessor's count");
        let mut glb = write_glb(&cube);
        glb[at..at + json.len()].copy_from_slice(json.as_bytes());
        assert_message(
            load_from_bytes(&glb, MeshFormat::Gltf),
            &["primitive 0", "35 corners", "multiple of 3"],
        );
    }

    /// A glTF file of one point at the origin and `corners` zero `u8` indices, read as one
    /// triangle strip of `corners - 2` triangles (all degenerate), instanced by `nodes`
    /// nodes; the buffer is a `data:` URI, so the file is small for any number of triangles.
    fn instanced_strip(corners: usize, nodes: usize) -> String {
        let buffer = base64(&vec![0; 12 + corners]);
        let list = (0..nodes).map(|n| n.to_string()).collect::<Vec<_>>().join(",");
        let node_list = vec![r#"{"mesh":0}"#; nodes].join(",");
        format!(
            r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[{list}]}}],"nodes":[{node_list}],
"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1,"mode":5}}]}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}},
{{"bufferView":1,"componentType":5121,"count":{corners},"type":"SCALAR"}}],
"bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":12}},{{"buffer":0,"byteOffset":12,"byteLength":{corners}}}],
"buffers":[{{"byteLength":{},"uri":"data:application/octet-stream;base64,{buffer}"}}]}}"#,
            12 + corners
        )
    }

    #[test]
    fn instancing_past_the_triangle_limit_fails_before_expanding() {
        // 3,356 nodes of one 39,998-triangle strip: 134,233,288 triangles (1.6 GB of them),
        // just past the 2^27 (134,217,728) a mesh can index, from a file of about 100 kB.
        // The count is checked before any triangle is copied: this fails at once.
        let corners = 40_000;
        let nodes = (1 << 27) / (corners - 2) + 1;
        let json = instanced_strip(corners, nodes);
        assert!(json.len() < 150_000, "{}", json.len());
        assert_message(
            load_from_bytes(json.as_bytes(), MeshFormat::Gltf),
            &["glTF", "134233288 triangles", "134217728"],
        );
        // Two nodes are well within the limit: the same mesh, counted the same way.
        let json = instanced_strip(corners, 2);
        let mesh = load_from_bytes(json.as_bytes(), MeshFormat::Gltf).unwrap();
        assert_eq!((mesh.vertices.len(), mesh.indices.len()), (2, 2 * (corners - 2)));
    }

    #[test]
    fn instancing_past_the_vertex_limit_fails_before_expanding() {
        // 403 nodes of a mesh of 100 primitives, each one triangle over the same 10,000
        // positions: every primitive copies its positions, so 403,000,000 vertices (4.8 GB),
        // past the 3 * 2^27 (402,653,184) that 2^27 triangles can use, from a 170 kB file.
        let (positions, primitives, nodes) = (10_000, 100, 403);
        let mut bin = vec![0u8; 12 * positions];
        bin.extend_from_slice(&[0, 1, 2, 0]);
        let list = (0..nodes).map(|n| n.to_string()).collect::<Vec<_>>().join(",");
        let node_list = vec![r#"{"mesh":0}"#; nodes].join(",");
        let primitive_list = vec![r#"{"attributes":{"POSITION":0},"indices":1}"#; primitives].join(",");
        let json = format!(
            r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[{list}]}}],"nodes":[{node_list}],
"meshes":[{{"primitives":[{primitive_list}]}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":{positions},"type":"VEC3","min":[0,0,0],"max":[0,0,0]}},
{{"bufferView":1,"componentType":5121,"count":3,"type":"SCALAR"}}],
"bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":{}}},{{"buffer":0,"byteOffset":{},"byteLength":3}}],
"buffers":[{{"byteLength":{},"uri":"data:application/octet-stream;base64,{}"}}]}}"#,
            12 * positions,
            12 * positions,
            bin.len(),
            base64(&bin)
        );
        assert_message(
            load_from_bytes(json.as_bytes(), MeshFormat::Gltf),
            &["glTF", "403000000 vertices", "402653184"],
        );
    }

    /// Writes the cube's glTF file, with its buffer at `uri` (as the JSON writes it), into
    /// `folder`, and returns the glTF file's path.
    fn cube_with_buffer_at(folder: &Path, uri: &str) -> PathBuf {
        let json = gltf_json(&cube(), &format!(r#","uri":"{uri}""#));
        let path = folder.join("cube.gltf");
        std::fs::write(&path, json).unwrap();
        path
    }

    #[test]
    fn buffers_outside_the_folder_are_refused() {
        let dir = scratch("gltf-outside");
        let inside = dir.join("models");
        std::fs::create_dir(&inside).unwrap();
        std::fs::write(dir.join("cube.bin"), gltf_buffer(&cube())).unwrap();
        std::fs::write(inside.join("cube.bin"), gltf_buffer(&cube())).unwrap();
        // The same buffer inside the folder loads, also as `./cube.bin`.
        assert_eq!(load(&cube_with_buffer_at(&inside, "cube.bin")).unwrap(), cube());
        assert_eq!(load(&cube_with_buffer_at(&inside, "./cube.bin")).unwrap(), cube());

        // An absolute path, even to a readable file of the right size, and `..`, written
        // plainly or percent-encoded, or in the middle of the path.
        let absolute = dir.join("cube.bin").to_str().unwrap().replace('\\', "/");
        for uri in [absolute.as_str(), "../cube.bin", "%2E%2E/cube.bin", "sub/../../cube.bin", "/dev/zero"] {
            let err = assert_message(load(&cube_with_buffer_at(&inside, uri)), &[uri, "cube.gltf", "folder"]);
            assert!(matches!(err, LoadMeshError::Parse { .. }), "{uri}: {err:?}");
        }
    }

    #[test]
    #[cfg(unix)]
    fn buffers_that_resolve_outside_the_folder_are_refused() {
        let dir = scratch("gltf-symlink");
        let inside = dir.join("models");
        std::fs::create_dir(&inside).unwrap();
        std::fs::write(dir.join("cube.bin"), gltf_buffer(&cube())).unwrap();
        std::os::unix::fs::symlink(dir.join("cube.bin"), inside.join("link.bin")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", inside.join("zero.bin")).unwrap();
        for uri in ["link.bin", "zero.bin"] {
            assert_message(load(&cube_with_buffer_at(&inside, uri)), &[uri, "outside", "folder"]);
        }
        // A link that stays inside the folder is followed.
        std::fs::write(inside.join("cube.bin"), gltf_buffer(&cube())).unwrap();
        std::os::unix::fs::symlink("cube.bin", inside.join("inner.bin")).unwrap();
        assert_eq!(load(&cube_with_buffer_at(&inside, "inner.bin")).unwrap(), cube());
    }

    #[test]
    #[cfg(unix)]
    fn buffers_that_are_not_regular_files_are_not_opened() {
        let dir = scratch("gltf-fifo");
        std::fs::create_dir(dir.join("folder.bin")).unwrap();
        let made = std::process::Command::new("mkfifo").arg(dir.join("fifo.bin")).status();
        let mut uris = vec!["folder.bin"];
        if made.is_ok_and(|status| status.success()) {
            uris.push("fifo.bin");
        }
        for uri in uris {
            // Opening a FIFO for reading waits for a writer: run the load on its own thread
            // so that a regression fails the test instead of hanging it.
            let path = cube_with_buffer_at(&dir, uri);
            let (send, receive) = std::sync::mpsc::channel();
            std::thread::spawn(move || send.send(load(&path).map_err(|e| e.to_string())));
            let result = receive.recv_timeout(std::time::Duration::from_secs(20)).expect("the load hangs");
            let message = result.expect_err("not a regular file");
            assert!(message.contains(uri) && message.contains("not a regular file"), "{message}");
        }
    }

    #[test]
    fn external_buffers_must_have_their_declared_length() {
        let dir = scratch("gltf-length");
        let mut bin = gltf_buffer(&cube());
        let length = bin.len();
        std::fs::write(dir.join("cube.bin"), &bin[..length - 1]).unwrap();
        let path = cube_with_buffer_at(&dir, "cube.bin");
        assert_message(
            load(&path),
            &["cube.bin", &format!("{}", length - 1), &format!("byteLength of {length}")],
        );
        bin.push(0);
        std::fs::write(dir.join("cube.bin"), &bin).unwrap();
        assert_message(load(&path), &["cube.bin", "more than", &format!("byteLength of {length}")]);
        // A huge byteLength does not make the loader read (or allocate) that much.
        let json = std::fs::read_to_string(&path).unwrap();
        let json = json.replacen(
            &format!(r#""byteLength":{length},"uri""#),
            r#""byteLength":1000000000000,"uri""#,
            1,
        );
        std::fs::write(&path, json).unwrap();
        assert_message(load(&path), &["cube.bin", "byteLength of 1000000000000"]);
    }

    #[test]
    fn extras_may_be_any_json_value() {
        let cube = cube();
        let uri = format!(r#","uri":"data:application/octet-stream;base64,{}""#, base64(&gltf_buffer(&cube)));
        let json = gltf_json(&cube, &uri);
        let values =
            ["null", "true", "-2", "3.5", r#""text""#, "[]", r#"[1,"a",{"extras":5}]"#, r#"{"a":[null]}"#];
        // Root, asset, scene, node, mesh, primitive, accessor, buffer view and buffer.
        let places = [
            (r#"{"asset":"#, r#"{"extras":X,"asset":"#),
            (r#""version":"2.0""#, r#""version":"2.0","extras":X"#),
            (r#""nodes":[0]"#, r#""nodes":[0],"extras":X"#),
            (r#"{"mesh":0}"#, r#"{"mesh":0,"extras":X}"#),
            (r#""meshes":[{"#, r#""meshes":[{"extras":X,"#),
            (r#""indices":1}"#, r#""indices":1,"extras":X}"#),
            (r#""type":"SCALAR""#, r#""type":"SCALAR","extras":X"#),
            (r#""byteOffset":0,"#, r#""extras":X,"byteOffset":0,"#),
            (r#""buffers":[{"#, r#""buffers":[{"extras":X,"#),
        ];
        for value in values {
            let mut with_extras = json.clone();
            for (old, new) in places {
                assert!(with_extras.contains(old), "{old}");
                with_extras = with_extras.replacen(old, &new.replace('X', value), 1);
            }
            let mesh = load_from_bytes(with_extras.as_bytes(), MeshFormat::Gltf);
            assert_eq!(mesh.unwrap_or_else(|e| panic!("extras {value}: {e}")), cube, "extras {value}");
        }
        // Extensions are objects; their contents are ignored.
        let with_extensions =
            json.replacen(r#"{"mesh":0}"#, r#"{"mesh":0,"extensions":{"VENDOR_x":{"extras":[1],"y":2}}}"#, 1);
        assert_eq!(load_from_bytes(with_extensions.as_bytes(), MeshFormat::Gltf).unwrap(), cube);
    }
}

// ---------------------------------------------------------------------------------------
// Corrupted copies: never a panic

/// A corrupted copy: truncated, bytes overwritten, digits changed, or a slice repeated.
fn corrupt(original: &[u8], rng: &mut Rng) -> (String, Vec<u8>) {
    let mut bytes = original.to_vec();
    let how = rng.below(4);
    let description = match how {
        0 => {
            let len = rng.below(bytes.len());
            bytes.truncate(len);
            format!("truncated to {len} bytes")
        }
        1 => {
            let mut at = Vec::new();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(bytes.len());
                bytes[i] = rng.next() as u8;
                at.push(i);
            }
            format!("bytes overwritten at {at:?}")
        }
        2 => {
            let digits = b"0123456789-.e+ \n";
            let mut at = Vec::new();
            for _ in 0..1 + rng.below(6) {
                let i = rng.below(bytes.len());
                bytes[i] = digits[rng.below(digits.len())];
                at.push(i);
            }
            format!("digits written at {at:?}")
        }
        _ => {
            let start = rng.below(bytes.len());
            let end = (start + 1 + rng.below(64)).min(bytes.len());
            let insert_at = rng.below(bytes.len());
            let piece = bytes[start..end].to_vec();
            bytes.splice(insert_at..insert_at, piece);
            format!("bytes {start}..{end} repeated at {insert_at}")
        }
    };
    (description, bytes)
}

#[test]
fn corrupted_files_never_panic() {
    let cube = cube();
    let uri = format!(r#","uri":"data:application/octet-stream;base64,{}""#, base64(&gltf_buffer(&cube)));
    let originals: Vec<(MeshFormat, &str, Vec<u8>)> = [
        (MeshFormat::Obj, "cube.obj", read_fixture("cube.obj")),
        (MeshFormat::Ply, "cube_ascii.ply", read_fixture("cube_ascii.ply")),
        (MeshFormat::Ply, "binary little endian cube", write_ply_binary(&cube, false)),
        (MeshFormat::Ply, "binary big endian cube", write_ply_binary(&cube, true)),
        (MeshFormat::Stl, "quad.stl", read_fixture("quad.stl")),
        (MeshFormat::Stl, "binary cube", write_stl_binary(&cube)),
        (MeshFormat::Gltf, "quad.gltf", read_fixture("quad.gltf")),
        (MeshFormat::Gltf, "cube with a data URI", gltf_json(&cube, &uri).into_bytes()),
        (MeshFormat::Gltf, "cube.glb", write_glb(&cube)),
    ]
    .into_iter()
    .filter(|(format, ..)| enabled(*format))
    .collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut runs, mut oks) = (0, 0);
    let mut panics = Vec::new();
    for (format, name, original) in &originals {
        for _ in 0..100 {
            let (how, bytes) = corrupt(original, &mut rng);
            runs += 1;
            match std::panic::catch_unwind(|| load_from_bytes(&bytes, *format)) {
                Ok(Ok(_)) => oks += 1,
                Ok(Err(err)) => assert!(!err.to_string().is_empty()),
                Err(_) => panics.push(format!("{name}, {how}")),
            }
        }
    }
    assert!(panics.is_empty(), "{} of {runs} corrupted files panicked:\n{}", panics.len(), panics.join("\n"));
    assert!(runs == 0 || oks < runs, "some corruptions must be errors");
}

// ---------------------------------------------------------------------------------------
// The Stanford dragon (fetched by scripts/fetch-dragon.sh; not in git)

#[test]
#[ignore = "needs the dragon: run scripts/fetch-dragon.sh, then cargo test --release -- --ignored"]
#[cfg(feature = "ply")]
fn stanford_dragon_loads() {
    let folder = std::env::var_os("RAYBOX_SCENES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/scenes"));
    let path = folder.join("dragon.ply");
    let start = std::time::Instant::now();
    let mesh = load(&path).unwrap_or_else(|e| panic!("{e} (run scripts/fetch-dragon.sh first)"));
    let elapsed = start.elapsed();
    println!(
        "dragon: {} vertices, {} triangles, loaded in {elapsed:.2?}",
        mesh.vertices.len(),
        mesh.indices.len()
    );
    assert_eq!(mesh.indices.len(), 871_414);
}
