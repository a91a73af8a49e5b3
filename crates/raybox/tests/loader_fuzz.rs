//! Deterministic mutation fuzzing of the mesh loaders.
//!
//! Small valid files of every format (OBJ; ASCII PLY and binary PLY of both byte orders;
//! ASCII and binary STL; glTF JSON with a `data:` buffer, and GLB) are mutated in many
//! fixed-seed ways: cut at every length, bits flipped, bytes set, inserted, deleted and
//! repeated, every number of the text replaced by huge, negative, NaN and infinite values,
//! every binary word overwritten, and edits aimed at each format's counts, types, offsets,
//! strides and indices. Each mutant is loaded inside `catch_unwind`, and:
//!
//! - no load may panic (the panics are counted, then reported together);
//! - every `Ok` mesh is valid: at least one triangle, every index below the vertex count,
//!   every coordinate finite, and no more vertices or triangles than the file has bytes;
//! - no load may ask the allocator for much more than the file's size in one block (a
//!   counting allocator watches the loading thread), so a huge count in a header fails
//!   before anything is reserved for it;
//! - changing white space only (a space to a tab, a line break to CR LF) gives the same mesh.
//!
//! The cases this fuzzing found are kept as named tests in `tests/loaders.rs`
//! (`polylines_of_three_points_or_more_are_skipped`,
//! `ascii_values_after_the_last_record_are_errors`); the named tests at the end of this
//! file check the allocation watch itself, and huge counts of every format.

#![allow(dead_code, unused_imports)] // with some loader features off

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use glam::Vec3;
use raybox::MeshData;
use raybox::mesh::{LoadMeshError, MeshFormat, load_from_bytes};

use common::mesh_files::*;

// ---------------------------------------------------------------------------------------
// A watching allocator and a quiet panic hook

/// Forwards to the system allocator; on a watched thread, remembers the largest block asked.
struct Watching;

thread_local! {
    /// Whether this thread's allocations are watched (only while a loader runs).
    static WATCHED: Cell<bool> = const { Cell::new(false) };
    /// The largest block asked for since the last reset.
    static LARGEST: Cell<usize> = const { Cell::new(0) };
    /// Whether a panic on this thread is expected to be caught (and so not printed).
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// Where the last caught panic happened, as the hook saw it.
    static PANIC_AT: RefCell<String> = const { RefCell::new(String::new()) };
}

fn note(size: usize) {
    if WATCHED.try_with(Cell::get).unwrap_or(false) {
        let _ = LARGEST.try_with(|largest| largest.set(largest.get().max(size)));
    }
}

// SAFETY: every call goes to the system allocator unchanged; sizes are only noted.
unsafe impl GlobalAlloc for Watching {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Watching = Watching;

/// Installs, once, a panic hook that stays silent for the panics `load` catches (noting
/// where they happened) and prints every other panic as before.
fn install_quiet_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.try_with(Cell::get).unwrap_or(false) {
                let at = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
                let _ = PANIC_AT.try_with(|p| *p.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
}

// ---------------------------------------------------------------------------------------
// Running one mutant

/// What one load did.
enum Outcome {
    Loaded(MeshData),
    Failed(LoadMeshError),
    Panicked(String),
}

/// Loads `bytes` as `format`, catching a panic, and returns what happened, the largest
/// block allocated, and the time taken.
fn load(bytes: &[u8], format: MeshFormat) -> (Outcome, usize, Duration) {
    install_quiet_hook();
    QUIET.with(|q| q.set(true));
    LARGEST.with(|l| l.set(0));
    let start = Instant::now();
    WATCHED.with(|w| w.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(|| load_from_bytes(bytes, format)));
    WATCHED.with(|w| w.set(false));
    let elapsed = start.elapsed();
    QUIET.with(|q| q.set(false));
    let largest = LARGEST.with(Cell::get);
    let outcome = match result {
        Ok(Ok(mesh)) => Outcome::Loaded(mesh),
        Ok(Err(error)) => Outcome::Failed(error),
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            Outcome::Panicked(format!("{message} (at {})", PANIC_AT.with(|p| p.borrow().clone())))
        }
    };
    (outcome, largest, elapsed)
}

/// Why a loaded mesh is not a valid answer, if it is not.
fn invalid(mesh: &MeshData, file_len: usize) -> Option<String> {
    if mesh.indices.is_empty() {
        return Some("no triangle".to_owned());
    }
    let n = mesh.vertices.len();
    if let Some(t) = mesh.indices.iter().find(|t| t.iter().any(|&i| i as usize >= n)) {
        return Some(format!("triangle {t:?} past the {n} vertices"));
    }
    if let Some(v) = mesh.vertices.iter().find(|v| !v.is_finite()) {
        return Some(format!("vertex {v} is not finite"));
    }
    if n > file_len || mesh.indices.len() > file_len {
        return Some(format!("{n} vertices and {} triangles from {file_len} bytes", mesh.indices.len()));
    }
    None
}

/// The most a load may allocate in one block: a multiple of the file's size (a vector of
/// vertices may be 12 bytes for each byte of a file of `char` coordinates, and doubles as
/// it grows), and a floor for the fixed costs of the parsers.
fn allocation_limit(file_len: usize) -> usize {
    64 * file_len + (256 << 10)
}

/// The tally of one seed file's mutants.
struct Tally {
    name: &'static str,
    format: MeshFormat,
    runs: usize,
    loaded: usize,
    failures: Vec<String>,
    slowest: (Duration, String),
}

impl Tally {
    fn new(name: &'static str, format: MeshFormat) -> Self {
        Self {
            name,
            format,
            runs: 0,
            loaded: 0,
            failures: Vec::new(),
            slowest: (Duration::ZERO, String::new()),
        }
    }

    /// Loads one mutant and checks the outcome; `what` describes the mutant (called only
    /// when something is wrong).
    fn run(&mut self, bytes: &[u8], what: impl Fn() -> String) -> Option<MeshData> {
        self.runs += 1;
        let (outcome, largest, elapsed) = load(bytes, self.format);
        if elapsed > self.slowest.0 {
            self.slowest = (elapsed, what());
        }
        let limit = allocation_limit(bytes.len());
        if largest > limit {
            self.failures.push(format!(
                "{}, {}: allocated {largest} bytes at once for a {}-byte file",
                self.name,
                what(),
                bytes.len()
            ));
        }
        match outcome {
            Outcome::Loaded(mesh) => {
                self.loaded += 1;
                if let Some(why) = invalid(&mesh, bytes.len()) {
                    self.failures.push(format!("{}, {}: invalid mesh: {why}", self.name, what()));
                }
                Some(mesh)
            }
            Outcome::Failed(error) => {
                if error.to_string().is_empty() {
                    self.failures.push(format!("{}, {}: an error with no message", self.name, what()));
                }
                None
            }
            Outcome::Panicked(message) => {
                self.failures.push(format!("{}, {}: PANIC {message}", self.name, what()));
                None
            }
        }
    }

    /// Loads a mutant that must give `expected`.
    fn run_same(&mut self, bytes: &[u8], expected: &MeshData, what: impl Fn() -> String) {
        let failures = self.failures.len();
        match self.run(bytes, &what) {
            Some(mesh) if mesh != *expected => {
                self.failures.push(format!("{}, {}: a different mesh", self.name, what()));
            }
            None if self.failures.len() == failures => {
                let error =
                    load_from_bytes(bytes, self.format).err().map(|e| e.to_string()).unwrap_or_default();
                self.failures.push(format!(
                    "{}, {}: expected the same mesh, got: {error}",
                    self.name,
                    what()
                ));
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------
// Mutations

/// Text numbers put in place of a number of a text file (or of a header).
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "2",
    "3",
    "4",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e39",
    "-1e39",
    "3.4028236e38",
    "1e308",
    "1e309",
    "1e-45",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "infinity",
    "0.5",
    "-2.5",
    "1e",
    "-",
    "",
];

/// Numbers inserted before a number of a text.
const INSERTED: &[&str] = &["0 ", "1 ", "3 ", "-1 ", "4294967295 ", "nan "];

/// 32-bit words written over binary data: small counts and indices, type limits, and the
/// bits of NaN, the infinities and the largest float.
const WORDS: &[u32] = &[
    0,
    1,
    2,
    3,
    4,
    0xFF,
    0x100,
    0xFFFF,
    0x0100_0000,
    0x7FFF_FFFF,
    0x8000_0000,
    0xFFFF_FFFE,
    0xFFFF_FFFF,
    0x7FC0_0000, // NaN
    0x7F80_0000, // +inf
    0xFF80_0000, // -inf
    0x7F7F_FFFF, // f32::MAX
];

/// Bytes written over binary data.
const BYTES: &[u8] = &[0, 1, 2, 3, 4, 0x7F, 0x80, 0xFE, 0xFF, b'\n', b' ', b'-'];

/// The byte ranges of the numbers of a text (runs of digits, signs, dots and exponents
/// that hold a digit), between `from` and `to`.
fn number_spans(bytes: &[u8], from: usize, to: usize) -> Vec<(usize, usize)> {
    let is_part = |b: u8| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E');
    let mut spans = Vec::new();
    let mut k = from;
    while k < to {
        if is_part(bytes[k]) && (k == 0 || !bytes[k - 1].is_ascii_alphanumeric()) {
            let start = k;
            while k < to && is_part(bytes[k]) {
                k += 1;
            }
            let ends_word = k == bytes.len() || !bytes[k].is_ascii_alphanumeric();
            if ends_word && bytes[start..k].iter().any(u8::is_ascii_digit) {
                spans.push((start, k));
            }
        } else {
            k += 1;
        }
    }
    spans
}

fn splice(bytes: &[u8], range: (usize, usize), with: &[u8]) -> Vec<u8> {
    [&bytes[..range.0], with, &bytes[range.1..]].concat()
}

/// The first `from` replaced by `to`, if `from` is there.
fn replace_first(bytes: &[u8], from: &str, to: &str) -> Option<Vec<u8>> {
    let at = bytes.windows(from.len()).position(|w| w == from.as_bytes())?;
    Some(splice(bytes, (at, at + from.len()), to.as_bytes()))
}

/// One random mutation, or a few stacked, described.
fn random_mutant(original: &[u8], rng: &mut Rng) -> (String, Vec<u8>) {
    let mut bytes = original.to_vec();
    let mut steps = Vec::new();
    for _ in 0..1 + rng.below(3) * rng.below(2) {
        let len = bytes.len();
        match rng.below(6) {
            0 => {
                let (at, bit) = (rng.below(len), rng.below(8));
                if at < len {
                    bytes[at] ^= 1 << bit;
                }
                steps.push(format!("bit {bit} of byte {at} flipped"));
            }
            1 => {
                let at = rng.below(len);
                let value = BYTES[rng.below(BYTES.len())];
                if at < len {
                    bytes[at] = value;
                }
                steps.push(format!("byte {at} set to {value}"));
            }
            2 => {
                let at = rng.below(len + 1);
                let piece: Vec<u8> = (0..1 + rng.below(8)).map(|_| rng.next() as u8).collect();
                steps.push(format!("{piece:?} inserted at {at}"));
                bytes.splice(at..at, piece);
            }
            3 => {
                let at = rng.below(len);
                let end = (at + 1 + rng.below(16)).min(len);
                steps.push(format!("bytes {at}..{end} deleted"));
                bytes.drain(at..end);
            }
            4 => {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(64)).min(len);
                let to = rng.below(len + 1);
                steps.push(format!("bytes {start}..{end} repeated at {to}"));
                let piece = bytes[start..end].to_vec();
                bytes.splice(to..to, piece);
            }
            _ => {
                let at = rng.below(len.saturating_sub(3));
                let word = WORDS[rng.below(WORDS.len())];
                if at + 4 <= len {
                    bytes[at..at + 4].copy_from_slice(&word.to_le_bytes());
                }
                steps.push(format!("word {word:#x} written at {at}"));
            }
        }
    }
    (steps.join(", then "), bytes)
}

// ---------------------------------------------------------------------------------------
// Seed files

/// A tetrahedron: 4 vertices, 4 triangles (smaller than the cube, so that cutting a file
/// at every length stays cheap).
fn tetra() -> MeshData {
    MeshData {
        vertices: vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(0.25, 0.5, 1.5)],
        indices: vec![[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]],
    }
}

/// An OBJ file with texture coordinates, normals, a quad, two groups and negative numbers.
const OBJ_MIXED: &str = "o a\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvn 0 0 1\n\
    f 1/1/1 2/2/1 3/1/1 4/2/1\ng b\nv 0.5 0.5 1\nf -5//1 -4//1 -1//1\n";

/// An ASCII PLY file with an extra vertex property before `x`, a quad, and an element
/// of another kind between the vertices and the faces.
const PLY_MIXED: &str = "ply\nformat ascii 1.0\ncomment fuzz seed\nelement vertex 5\nproperty uchar flag\n\
    property float x\nproperty double y\nproperty short z\nelement edge 1\nproperty list uchar int ends\n\
    element face 2\nproperty list uchar uint vertex_indices\nend_header\n\
    1 0 0 0\n0 1 0 0\n0 1 1 0\n0 0 1 0\n2 0.5 0.5 1\n2 0 1\n4 0 1 2 3\n3 0 1 4\n";

/// The glTF JSON of `tetra` with its buffer in a `data:` URI.
fn gltf_with_data_uri(mesh: &MeshData) -> Vec<u8> {
    let uri = format!(r#","uri":"data:application/octet-stream;base64,{}""#, base64(&gltf_buffer(mesh)));
    gltf_json(mesh, &uri).into_bytes()
}

/// A glTF file with an interleaved, strided buffer view (positions padded to 16 bytes),
/// `u16` indices drawn as a strip, and a node tree with a transform.
fn gltf_strided() -> Vec<u8> {
    let mut bin = Vec::new();
    for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]] {
        for c in p {
            bin.extend_from_slice(&c.to_le_bytes());
        }
        bin.extend_from_slice(&[0; 4]);
    }
    for i in [0u16, 1, 2, 3] {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],
"nodes":[{{"children":[1],"translation":[1,2,3]}},{{"mesh":0,"scale":[2,2,2]}}],
"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1,"mode":5}}]}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}},
{{"bufferView":1,"byteOffset":2,"componentType":5123,"count":3,"type":"SCALAR"}}],
"bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":64,"byteStride":16}},{{"buffer":0,"byteOffset":64,"byteLength":8}}],
"buffers":[{{"byteLength":72,"uri":"data:application/octet-stream;base64,{}"}}]}}"#,
        base64(&bin)
    )
    .into_bytes()
}

/// Edits aimed at a PLY header: count and item types of the corner list, coordinate types,
/// element order and counts, encodings, and extra elements of huge counts.
const PLY_EDITS: &[(&str, &str)] = &[
    ("property list uchar int vertex_indices", "property list uint int vertex_indices"),
    ("property list uchar int vertex_indices", "property list int int vertex_indices"),
    ("property list uchar int vertex_indices", "property list char int vertex_indices"),
    ("property list uchar int vertex_indices", "property list uchar uchar vertex_indices"),
    ("property list uchar int vertex_indices", "property list uchar short vertex_indices"),
    ("property list uchar int vertex_indices", "property list uchar float vertex_indices"),
    ("property list uchar int vertex_indices", "property list double int vertex_indices"),
    ("property list uchar int vertex_indices", "property int vertex_indices"),
    ("property list uchar int vertex_indices", "property list uchar int vertex_index"),
    ("property list uchar int vertex_indices", "property list uchar int corners"),
    ("property list uchar int vertex_indices", ""),
    ("property float x", "property double x"),
    ("property float x", "property char x"),
    ("property float x", "property uint x"),
    ("property float x", "property list uchar float x"),
    ("property float x", ""),
    ("property float z\n", "property float z\nproperty float x\n"),
    ("property float z\n", "property float z\nproperty list uint uchar extra\n"),
    ("element vertex", "element vertices"),
    ("element face", "element vertex"),
    ("element face", "element faces"),
    ("format ascii", "format binary_little_endian"),
    ("format ascii", "format binary_big_endian"),
    ("format binary_little_endian", "format ascii"),
    ("format binary_little_endian", "format binary_big_endian"),
    ("format binary_big_endian", "format binary_little_endian"),
    ("format binary_big_endian", "format ascii"),
    (" 1.0\n", "\n"),
    ("end_header\n", "element extra 1000000000\nproperty float q\nend_header\n"),
    ("end_header\n", "element extra 18446744073709551615\nproperty list uint uint q\nend_header\n"),
    ("end_header\n", "element extra 4294967295\nproperty list uchar float q\nend_header\n"),
    (
        "end_header\n",
        "element vertex 4000000000\nproperty float x\nproperty float y\nproperty float z\nend_header\n",
    ),
    ("end_header\n", "element face 4000000000\nproperty list uint uint vertex_indices\nend_header\n"),
    ("element vertex", "element face 1\nproperty list uchar int vertex_indices\nelement vertex"),
    ("end_header\n", "end_header\r\n"),
    ("end_header\n", "end_header"),
    ("end_header\n", "end_header \n"),
    ("end_header\n", ""),
    ("ply\n", "ply\r\n"),
    ("ply\n", "PLY\n"),
];

/// Edits aimed at an OBJ file: line and point elements, texture-coordinate and normal
/// numbers out of range, `w` coordinates and colours, materials and object names.
const OBJ_EDITS: &[(&str, &str)] = &[
    ("f ", "l "),
    ("f 1/1/1", "l 1/0"),
    ("f 1/1/1 2/2/1 3/1/1 4/2/1", "l 1/0 2/1 3/1"),
    ("f 1/1/1 2/2/1 3/1/1 4/2/1", "l 1/-11 2/1 3/1"),
    ("f 1/1/1 2/2/1 3/1/1 4/2/1", "l 1/1/9 2/1/1 3/1/1"),
    ("f 1/1/1 2/2/1 3/1/1 4/2/1", "l 1 2 9"),
    ("f 1/1/1 2/2/1 3/1/1 4/2/1", "p 1 2 3"),
    ("f 1/1/1 2/2/1 3/1/1 4/2/1", "f 1 2"),
    ("f 1/1/1 2/2/1 3/1/1 4/2/1", "f 1/1/1 2/2/1 \\\n3/1/1 4/2/1"),
    ("f 1/1/1", "f 1/3/1"),
    ("f 1/1/1", "f 1/1/2"),
    ("f 1/1/1", "f 1/1/1/1"),
    ("f 1/1/1", "f 1//"),
    ("f 1/1/1", "f 1/-3/1"),
    ("f 1/1/1", "f 1/1/-2"),
    ("f 1/1/1", "f 1/ 1/1"),
    ("f -5//1", "f -6//1"),
    ("f -5//1", "f 0//1"),
    ("vt 0 0\n", ""),
    ("vn 0 0 1\n", ""),
    ("vt 0 0\n", "vt 0\n"),
    ("v 0.5 0.5 1\n", "v 0.5 0.5 1 0\n"),
    ("v 0.5 0.5 1\n", "v 0.5 0.5 1 1e-45\n"),
    ("v 0.5 0.5 1\n", "v 0.5 0.5 1 -1\n"),
    ("v 0 0 0\n", "v 0 0 0 1 0 0\n"),
    ("v 0 0 0\n", "v 0 0 0 1 0\n"),
    ("v 0 0 0\n", "v 0 0 0 1 x y\n"),
    ("v 0 0 0\n", "vp 0 0 0\n"),
    ("o a\n", "o\n"),
    ("o a\n", "mtllib missing.mtl\nusemtl red\n"),
    ("g b\n", "usemtl\n"),
    ("g b\n", "usemtl red\n"),
    ("g b\n", "g\n"),
];

/// Edits aimed at an ASCII STL file.
const STL_EDITS: &[(&str, &str)] = &[
    ("outer loop\n", ""),
    ("endloop\n", ""),
    ("endfacet\n", ""),
    ("facet normal 0 0 0\n", ""),
    ("endsolid", "solid"),
    ("endsolid written by tests\n", ""),
    ("solid written by tests\n", ""),
    ("solid written by tests\n", "solid\nsolid\n"),
    ("   vertex 0 0 0\n", ""),
    ("   vertex 0 0 0\n", "   vertex 0 0 0\n   vertex 0 0 0\n"),
    ("   vertex 0 0 0\n", "   vertex 0 0\n"),
    ("   vertex 0 0 0\n", "   vertex 0 0 0 0\n"),
    ("   vertex 0 0 0\n", "   vertex\n"),
    ("   vertex 0 0 0\n", "   VERTEX 0 0 0\n"),
    ("endloop\n endfacet\n", "endloop\n endfacet\nendsolid\nsolid again\n"),
    ("solid", "\u{feff}solid"),
    ("solid", "  solid"),
];

/// Edits aimed at a glTF file's JSON: counts, offsets, lengths and strides past their
/// buffers, huge or negative numbers, bad types, modes and indices, missing members,
/// cycles, and node transforms.
const GLTF_EDITS: &[(&str, &str)] = &[
    (r#""count":4"#, r#""count":4294967295"#),
    (r#""count":4"#, r#""count":18446744073709551615"#),
    (r#""count":4"#, r#""count":1000000000000"#),
    (r#""count":4"#, r#""count":0"#),
    (r#""count":4"#, r#""count":-1"#),
    (r#""count":12"#, r#""count":13"#),
    (r#""count":12"#, r#""count":11"#),
    (r#""count":12"#, r#""count":4611686018427387904"#),
    (r#""count":12"#, r#""count":0"#),
    (r#""byteOffset":0,"#, r#""byteOffset":18446744073709551615,"#),
    (r#""byteOffset":0,"#, r#""byteOffset":9223372036854775807,"#),
    (r#""byteOffset":0,"#, r#""byteOffset":4,"#),
    (r#""byteOffset":48,"#, r#""byteOffset":18446744073709551600,"#),
    (r#""byteOffset":48,"#, r#""byteOffset":49,"#),
    (r#""byteLength":48"#, r#""byteLength":18446744073709551615"#),
    (r#""byteLength":48"#, r#""byteLength":47"#),
    (r#""byteLength":48"#, r#""byteLength":0"#),
    (r#""byteLength":48,"#, r#""byteLength":48,"byteStride":4,"#),
    (r#""byteLength":48,"#, r#""byteLength":48,"byteStride":252,"#),
    (r#""byteLength":48,"#, r#""byteLength":48,"byteStride":256,"#),
    (r#""byteLength":48,"#, r#""byteLength":48,"byteStride":0,"#),
    (r#""byteLength":48,"#, r#""byteLength":48,"byteStride":18446744073709551615,"#),
    (r#""byteLength":96"#, r#""byteLength":18446744073709551615"#),
    (r#""byteLength":96"#, r#""byteLength":95"#),
    (r#""byteLength":96"#, r#""byteLength":1000000000000"#),
    (r#""bufferView":0,"#, r#""bufferView":2,"#),
    (r#""bufferView":0,"#, r#""bufferView":4294967296,"#),
    (r#""bufferView":0,"#, r#""bufferView":1,"#),
    (r#""bufferView":0,"#, r#""bufferView":0,"byteOffset":18446744073709551615,"#),
    (r#""bufferView":0,"#, r#""bufferView":0,"byteOffset":4,"#),
    (r#""bufferView":1,"#, r#""bufferView":1,"byteOffset":18446744073709551612,"#),
    (r#""bufferView":1,"#, r#""bufferView":0,"#),
    (r#""bufferView":0,"#, ""),
    (r#""buffer":0,"#, r#""buffer":1,"#),
    (r#""indices":1"#, r#""indices":2"#),
    (r#""indices":1"#, r#""indices":0"#),
    (r#""indices":1"#, r#""indices":18446744073709551615"#),
    (r#""indices":1"#, r#""indices":1,"mode":5"#),
    (r#""indices":1"#, r#""indices":1,"mode":6"#),
    (r#""indices":1"#, r#""indices":1,"mode":4294967295"#),
    (r#""indices":1"#, r#""indices":1,"targets":[{"POSITION":9}]"#),
    (r#""indices":1"#, r#""indices":1,"material":9"#),
    (r#""POSITION":0"#, r#""POSITION":1"#),
    (r#""POSITION":0"#, r#""POSITION":9"#),
    (r#""POSITION":0"#, r#""POSITION":0,"NORMAL":9"#),
    (r#""POSITION":0"#, r#""NORMAL":0"#),
    (r#""componentType":5126"#, r#""componentType":5125"#),
    (r#""componentType":5126"#, r#""componentType":5130"#),
    (r#""componentType":5125"#, r#""componentType":5121"#),
    (r#""componentType":5125"#, r#""componentType":5123"#),
    (r#""componentType":5125"#, r#""componentType":5126"#),
    (r#""componentType":5125"#, r#""componentType":5120"#),
    (r#""componentType":5125"#, r#""componentType":1"#),
    (r#""type":"VEC3""#, r#""type":"VEC4""#),
    (r#""type":"VEC3""#, r#""type":"MAT4""#),
    (r#""type":"SCALAR""#, r#""type":"VEC2""#),
    (r#""type":"SCALAR""#, r#""type":"VEC3""#),
    (r#""type":"SCALAR""#, r#""type":"scalar""#),
    (
        r#""type":"SCALAR""#,
        r#""type":"SCALAR","sparse":{"count":1,"indices":{"bufferView":1,"componentType":5125},"values":{"bufferView":1}}"#,
    ),
    (r#""min":["#, r#""min":[1e39,"#),
    (r#""max":["#, r#""max":["a","#),
    (r#","min":["#, r#","mix":["#),
    (r#""nodes":[0]"#, r#""nodes":[0,0]"#),
    (r#""nodes":[0]"#, r#""nodes":[1]"#),
    (r#""nodes":[0]"#, r#""nodes":[]"#),
    (r#""nodes":[0]"#, r#""nodes":[18446744073709551615]"#),
    (r#""scene":0"#, r#""scene":1"#),
    (r#""scene":0,"#, ""),
    (r#"{"mesh":0}"#, r#"{"mesh":0,"children":[0]}"#),
    (r#"{"mesh":0}"#, r#"{"mesh":1}"#),
    (r#"{"mesh":0}"#, r#"{"mesh":0,"camera":3}"#),
    (r#"{"mesh":0}"#, r#"{"mesh":0,"scale":[1e30,1e30,1e30]}"#),
    (r#"{"mesh":0}"#, r#"{"mesh":0,"scale":[0,0,0]}"#),
    (r#"{"mesh":0}"#, r#"{"mesh":0,"rotation":[0,0,0,0]}"#),
    (r#"{"mesh":0}"#, r#"{"mesh":0,"rotation":[1e30,0,0,1]}"#),
    (r#"{"mesh":0}"#, r#"{"mesh":0,"translation":[3e38,3e38,3e38]}"#),
    (r#"{"mesh":0}"#, r#"{"mesh":0,"matrix":[1e38,0,0,0,0,1e38,0,0,0,0,1e38,0,0,0,0,1e38]}"#),
    (r#"{"mesh":0}"#, r#"{"mesh":0,"matrix":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}"#),
    (r#"{"mesh":0}"#, r#"{"mesh":0,"matrix":[1,0,0,0]}"#),
    (r#"{"mesh":0}"#, r#"{"mesh":0,"skin":0}"#),
    (r#""version":"2.0""#, r#""version":"1.0""#),
    (r#""version":"2.0""#, r#""version":2"#),
    (r#""asset":{"version":"2.0"},"#, ""),
    (r#""meshes":[{"primitives":["#, r#""meshes":[{"primitives":[],"x":["#),
    ("data:application/octet-stream;base64,", "data:application/octet-stream,"),
    ("data:application/octet-stream;base64,", "data:application/octet-stream;base64,!"),
    ("data:application/octet-stream;base64,", "data:;base64,A"),
    ("data:application/octet-stream;base64,", "file:///dev/zero#"),
    ("data:application/octet-stream;base64,", "../"),
    (r#""uri":"#, r#""uri":"","x":"#),
    (r#""buffers":[{"#, r#""buffers":[{"byteLength":1,"uri":"data:;base64,AA=="},{"#),
    (r#""accessors":[{"#, r#""accessors":[{"count":1},{"#),
];

// ---------------------------------------------------------------------------------------
// The fuzzing

/// Every mutation of one seed: cuts at every length, random mutations, every number
/// replaced by each of [`NUMBERS`] (in the text part, `text_end` bytes), binary words and
/// bytes overwritten (from `binary_from` on), and the format's aimed edits.
struct Plan<'a> {
    name: &'static str,
    format: MeshFormat,
    seed: Vec<u8>,
    /// The text part (a text file, or a binary file's header) ends here.
    text_end: usize,
    /// Binary data starts here (the file's length for a text file).
    binary_from: usize,
    /// Random mutations to run.
    random: usize,
    edits: &'a [(&'a str, &'a str)],
    /// Whether white space may be changed without changing the mesh (outside strings).
    whitespace_oracle: bool,
    /// A GLB's binary chunk: the text mutations apply to the JSON, which is then wrapped
    /// again with the right lengths.
    glb_bin: Option<Vec<u8>>,
}

impl Plan<'_> {
    /// The bytes to load for mutated text: the text itself, or a GLB around it.
    fn wrap(&self, text: &[u8]) -> Vec<u8> {
        match &self.glb_bin {
            Some(bin) => glb(text, bin),
            None => text.to_vec(),
        }
    }

    fn fuzz(&self) -> Tally {
        let mut tally = Tally::new(self.name, self.format);
        let file = self.wrap(&self.seed);
        let expected = tally.run(&file, || "the seed itself".to_owned());
        let expected =
            expected.unwrap_or_else(|| panic!("{}: the seed must load: {:?}", self.name, tally.failures));

        // Cut at every length.
        for len in 0..file.len() {
            tally.run(&file[..len], || format!("cut to {len} bytes"));
        }
        // Random mutations of the file (for a GLB: of the whole file, headers included).
        let mut rng = Rng(0x5DEE_CE66_D1CE_5EED ^ self.seed.len() as u64);
        for _ in 0..self.random {
            let (how, bytes) = random_mutant(&file, &mut rng);
            tally.run(&bytes, || how.clone());
        }
        // Every number of the text part replaced.
        for span in number_spans(&self.seed, 0, self.text_end) {
            for number in NUMBERS {
                let bytes = self.wrap(&splice(&self.seed, span, number.as_bytes()));
                tally.run(&bytes, || {
                    format!(
                        "`{}` at {} replaced by `{number}`",
                        String::from_utf8_lossy(&self.seed[span.0..span.1]),
                        span.0
                    )
                });
            }
        }
        // A number inserted before every number of the text part (a value too many).
        for span in number_spans(&self.seed, 0, self.text_end) {
            for number in INSERTED {
                let bytes = self.wrap(&splice(&self.seed, (span.0, span.0), number.as_bytes()));
                tally.run(&bytes, || format!("`{number}` inserted at {}", span.0));
            }
        }
        // Binary words and bytes overwritten at every offset.
        for at in self.binary_from..file.len() {
            for &word in WORDS.iter().filter(|_| at + 4 <= file.len()) {
                let mut bytes = file.clone();
                bytes[at..at + 4].copy_from_slice(&word.to_le_bytes());
                tally.run(&bytes, || format!("word {word:#x} written at {at}"));
                let mut bytes = file.clone();
                bytes[at..at + 4].copy_from_slice(&word.to_be_bytes());
                tally.run(&bytes, || format!("big-endian word {word:#x} written at {at}"));
            }
            for &byte in BYTES {
                let mut bytes = file.clone();
                bytes[at] = byte;
                tally.run(&bytes, || format!("byte {at} set to {byte}"));
            }
        }
        // Aimed edits, each alone.
        for (from, to) in self.edits {
            if let Some(text) = replace_first(&self.seed, from, to) {
                tally.run(&self.wrap(&text), || format!("`{from}` replaced by `{to}`"));
            }
        }
        // White space changed: the same mesh.
        if self.whitespace_oracle {
            let mut in_string = false;
            for at in 0..self.text_end {
                let b = self.seed[at];
                if b == b'"' {
                    in_string = !in_string;
                }
                let with: &[u8] = match b {
                    _ if in_string => continue,
                    b' ' => b"\t",
                    b'\n' => b"\r\n",
                    _ => continue,
                };
                let bytes = self.wrap(&splice(&self.seed, (at, at + 1), with));
                tally.run_same(&bytes, &expected, || format!("byte {at} ({b:?}) replaced by {with:?}"));
            }
        }
        tally
    }
}

/// Random mutations of each seed file.
const RANDOM: usize = 4000;

fn text_plan<'a>(
    name: &'static str,
    format: MeshFormat,
    seed: Vec<u8>,
    random: usize,
    edits: &'a [(&'a str, &'a str)],
) -> Plan<'a> {
    let len = seed.len();
    Plan {
        name,
        format,
        seed,
        text_end: len,
        binary_from: len,
        random,
        edits,
        whitespace_oracle: true,
        glb_bin: None,
    }
}

/// Where a binary PLY's header ends.
fn ply_body_start(bytes: &[u8]) -> usize {
    bytes.windows(11).position(|w| w == b"end_header\n").unwrap() + 11
}

/// Whether this build has the format's loader.
fn enabled(format: MeshFormat) -> bool {
    !matches!(load_from_bytes(b"", format), Err(LoadMeshError::FeatureDisabled { .. }))
}

fn run_plans(plans: Vec<Plan<'_>>) {
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for plan in plans.into_iter().filter(|p| enabled(p.format)) {
        let tally = plan.fuzz();
        summary.push(format!(
            "{}: {} mutants, {} loaded, slowest {:.2?} ({})",
            tally.name, tally.runs, tally.loaded, tally.slowest.0, tally.slowest.1
        ));
        failures.extend(tally.failures);
    }
    println!("{}\ntotal {:.2?}", summary.join("\n"), start.elapsed());
    let shown = failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n");
    assert!(failures.is_empty(), "{} failures:\n{shown}", failures.len());
}

#[test]
fn obj_mutants() {
    run_plans(vec![
        text_plan("tetrahedron.obj", MeshFormat::Obj, write_obj(&tetra()).into_bytes(), RANDOM, OBJ_EDITS),
        text_plan("mixed.obj", MeshFormat::Obj, OBJ_MIXED.as_bytes().to_vec(), RANDOM, OBJ_EDITS),
    ]);
}

#[test]
fn ply_mutants() {
    let mut plans = vec![
        text_plan("tetrahedron ASCII PLY", MeshFormat::Ply, write_ply_ascii(&tetra()), RANDOM, PLY_EDITS),
        text_plan("mixed ASCII PLY", MeshFormat::Ply, PLY_MIXED.as_bytes().to_vec(), RANDOM, PLY_EDITS),
    ];
    for (name, big_endian) in
        [("tetrahedron binary PLY (little endian)", false), ("tetrahedron binary PLY (big endian)", true)]
    {
        let seed = write_ply_binary(&tetra(), big_endian);
        let body = ply_body_start(&seed);
        plans.push(Plan {
            name,
            format: MeshFormat::Ply,
            seed,
            text_end: body,
            binary_from: body,
            random: RANDOM,
            edits: PLY_EDITS,
            whitespace_oracle: false,
            glb_bin: None,
        });
    }
    run_plans(plans);
}

#[test]
fn stl_mutants() {
    let binary = write_stl_binary(&tetra());
    // Binary files whose size matches their count, whatever the count (so they are read
    // as binary even when they start with `solid`), and counts that do not match.
    let mut tally = Tally::new("tetrahedron binary STL, counts", MeshFormat::Stl);
    for count in [0u32, 1, 2, 3, 5, 8, 100, 0x0100_0000, u32::MAX] {
        for exact in [false, true] {
            for solid in [false, true] {
                let mut bytes = binary.clone();
                bytes[80..84].copy_from_slice(&count.to_le_bytes());
                if exact {
                    bytes.resize((84 + 50 * u64::from(count)).min(84 + 50 * 8) as usize, 0);
                }
                if solid {
                    bytes[..6].copy_from_slice(b"solid ");
                }
                tally.run(&bytes, || format!("count {count}, exact size {exact}, `solid` {solid}"));
            }
        }
    }
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
    run_plans(vec![
        text_plan("tetrahedron ASCII STL", MeshFormat::Stl, write_stl_ascii(&tetra()), RANDOM, STL_EDITS),
        Plan {
            name: "tetrahedron binary STL",
            format: MeshFormat::Stl,
            seed: binary,
            text_end: 0,
            binary_from: 80,
            random: RANDOM,
            edits: &[],
            whitespace_oracle: false,
            glb_bin: None,
        },
    ]);
}

#[test]
fn gltf_mutants() {
    let tetra = tetra();
    run_plans(vec![
        text_plan(
            "tetrahedron glTF, data URI",
            MeshFormat::Gltf,
            gltf_with_data_uri(&tetra),
            RANDOM,
            GLTF_EDITS,
        ),
        text_plan("strided strip glTF", MeshFormat::Gltf, gltf_strided(), RANDOM, GLTF_EDITS),
    ]);
}

#[test]
fn glb_mutants() {
    let tetra = tetra();
    let json = gltf_json(&tetra, "").into_bytes();
    let file = write_glb(&tetra);
    // Binary mutations go to the headers and the binary chunk, not the JSON (whose
    // numbers are mutated as text, then wrapped again).
    let bin_chunk = file.len() - gltf_buffer(&tetra).len().next_multiple_of(4) - 8;
    let plan = Plan {
        name: "tetrahedron GLB",
        format: MeshFormat::Gltf,
        text_end: json.len(),
        seed: json,
        binary_from: bin_chunk,
        random: RANDOM,
        edits: GLTF_EDITS,
        whitespace_oracle: true,
        glb_bin: Some(gltf_buffer(&tetra)),
    };
    run_plans(vec![plan]);
    // The GLB and chunk headers: every word and byte of the first 20 bytes.
    let mut tally = Tally::new("tetrahedron GLB headers", MeshFormat::Gltf);
    for at in 0..20 {
        for &word in WORDS {
            let mut bytes = file.clone();
            bytes[at..at + 4].copy_from_slice(&word.to_le_bytes());
            tally.run(&bytes, || format!("word {word:#x} written at {at}"));
        }
        for &byte in BYTES {
            let mut bytes = file.clone();
            bytes[at] = byte;
            tally.run(&bytes, || format!("byte {at} set to {byte}"));
        }
    }
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
}

// ---------------------------------------------------------------------------------------
// Named cases

/// The largest block allocated while loading `bytes`, and the error (the load must fail).
fn failing_load(bytes: &[u8], format: MeshFormat) -> (String, usize) {
    let (outcome, largest, _) = load(bytes, format);
    match outcome {
        Outcome::Failed(error) => (error.to_string(), largest),
        Outcome::Loaded(mesh) => panic!("loaded {} triangles", mesh.indices.len()),
        Outcome::Panicked(message) => panic!("panicked: {message}"),
    }
}

/// The fuzzing's allocation check sees large blocks (so that its silence means something).
#[test]
fn the_watching_allocator_sees_a_large_block() {
    WATCHED.with(|w| w.set(true));
    LARGEST.with(|l| l.set(0));
    let block = std::hint::black_box(vec![0u8; 3 << 20]);
    WATCHED.with(|w| w.set(false));
    assert!(LARGEST.with(Cell::get) >= 3 << 20);
    drop(block);
    let (_, largest, _) = load(&write_stl_binary(&tetra()), MeshFormat::Stl);
    assert!(largest > 0 && largest < allocation_limit(284));
}

/// Counts of billions in PLY headers, an STL count of 2^32 - 1, and glTF counts, lengths
/// and offsets past any buffer: each an error naming the problem, with nothing reserved
/// for the count (no block larger than the fuzzing allows, 64 bytes per byte of the file
/// and 256 kB).
#[test]
fn huge_counts_fail_without_huge_allocations() {
    let mut cases: Vec<(MeshFormat, Vec<u8>, &str)> = Vec::new();
    let ply = String::from_utf8(write_ply_ascii(&tetra())).unwrap();
    for (from, to, problem) in [
        ("element vertex 4", "element vertex 4294967295", "the file ends early"),
        ("element vertex 4", "element vertex 4294967296", "more than 32-bit indices"),
        ("element face 4", "element face 18446744073709551615", "the file ends early"),
        ("3 0 2 1", "255 0 2 1", "the file ends early"),
    ] {
        cases.push((MeshFormat::Ply, ply.replacen(from, to, 1).into_bytes(), problem));
    }
    let binary_ply = write_ply_binary(&tetra(), false);
    let huge_list = replace_first(&binary_ply, "uchar int", "uint int").unwrap();
    cases.push((
        MeshFormat::Ply,
        replace_first(&binary_ply, "vertex 4", "vertex 4000000000").unwrap(),
        "ends early",
    ));
    // The first face declares 2^32 - 1 corners, and the file ends after two of them.
    let body = ply_body_start(&huge_list) + 48;
    let mut huge_list = huge_list[..body].to_vec();
    for word in [u32::MAX, 0, 1] {
        huge_list.extend_from_slice(&word.to_le_bytes());
    }
    cases.push((MeshFormat::Ply, huge_list, "ends early"));
    let mut stl = write_stl_binary(&tetra());
    stl[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
    cases.push((MeshFormat::Stl, stl, "4294967295 triangles"));
    let json = String::from_utf8(gltf_with_data_uri(&tetra())).unwrap();
    for (from, to, problem) in [
        (r#""count":4"#, r#""count":4000000000000"#, "past the end of its buffer view"),
        (r#""count":12"#, r#""count":4611686018427387904"#, "past the end of its buffer view"),
        (r#""byteLength":96"#, r#""byteLength":1000000000000"#, "fewer than its byteLength"),
        (r#""byteLength":48"#, r#""byteLength":18446744073709551615"#, "past the end of its buffer"),
        (r#""byteOffset":48"#, r#""byteOffset":18446744073709551600"#, "past the end of its buffer"),
    ] {
        assert!(json.contains(from), "{from}");
        cases.push((MeshFormat::Gltf, json.replacen(from, to, 1).into_bytes(), problem));
    }
    for (format, bytes, problem) in cases.into_iter().filter(|c| enabled(c.0)) {
        let (message, largest) = failing_load(&bytes, format);
        assert!(message.contains(problem), "{message:?} should say {problem:?}");
        assert!(largest <= allocation_limit(bytes.len()), "{message}: {largest} bytes at once");
    }
}
