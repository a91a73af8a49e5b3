//! STL, ASCII or binary, with identical vertices merged.
//!
//! An STL file lists each triangle's three corners on their own, so a mesh read as it
//! is shares no vertex. Corners with the same coordinates (compared bit for bit, with
//! `-0.0` taken as `+0.0`) become one vertex, numbered in order of first appearance, so
//! neighbouring triangles share their edge's vertices.
//!
//! A binary STL is an 80-byte header, a little-endian `u32` triangle count, then 50 bytes
//! per triangle (normal, three corners, a `u16` attribute). A file is read as binary when
//! its size is exactly `84 + 50 × count`, or when it does not start with `solid`;
//! otherwise as ASCII: keywords in any case, after an optional UTF-8 byte-order mark, with
//! a `solid`/`endsolid` name in any encoding (its invalid bytes replaced). Bytes after the last binary triangle are ignored.

use crate::arrays::Each;
use std::collections::HashMap;

use glam::Vec3;

use super::{LoadMeshError, Location, MeshFormat, push_fan};
use crate::mesh::MeshData;

const HEADER: usize = 84;
const TRIANGLE: usize = 50;

/// Reads an STL file's bytes.
pub(super) fn read(bytes: &[u8]) -> Result<MeshData, LoadMeshError> {
    if bytes.is_empty() {
        return Err(LoadMeshError::parse(MeshFormat::Stl, Some(Location::Byte(0)), "the file is empty"));
    }
    let exact_binary =
        binary_count(bytes).is_some_and(|n| HEADER as u64 + TRIANGLE as u64 * n == bytes.len() as u64);
    if exact_binary || !starts_with_solid(bytes) {
        return read_binary(bytes);
    }
    match read_ascii(bytes) {
        // Binary files may start with `solid` too: one whose size does not match its
        // count is more usefully reported as a binary file.
        Err(NotText) if bytes.len() >= HEADER => read_binary(bytes),
        Err(NotText) => Err(LoadMeshError::parse(
            MeshFormat::Stl,
            None,
            "the file starts with `solid` but is not ASCII text, and is too short for a binary STL",
        )),
        Ok(result) => result,
    }
}

/// The triangle count of a binary STL header.
fn binary_count(bytes: &[u8]) -> Option<u64> {
    let count: [u8; 4] = bytes.get(80..HEADER)?.try_into().ok()?;
    Some(u32::from_le_bytes(count).into())
}

/// Whether the text starts with `solid`, in any case, after an optional UTF-8 byte-order
/// mark and white space.
fn starts_with_solid(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
    bytes[start..].get(..5).is_some_and(|word| word.eq_ignore_ascii_case(b"solid"))
}

/// The UTF-8 byte-order mark, which some editors put before the text.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether a line that is not UTF-8 is a `solid` or `endsolid` line (in any case), whose
/// name is free text that some exporters write in another encoding: it is read with the
/// invalid bytes replaced. Binary data, which also fails UTF-8, does not start that way,
/// or holds control bytes (zeros above all), or makes a line longer than a name's.
fn named_line(line: &[u8]) -> bool {
    let start = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(line.len());
    let line = &line[start..];
    let keyword = |k: &[u8]| {
        line.get(..k.len()).is_some_and(|w| w.eq_ignore_ascii_case(k))
            && line.get(k.len()).is_none_or(|b| b.is_ascii_whitespace())
    };
    let text_like = line.iter().all(|&b| b >= 0x20 || b == b'\t' || b == b'\r');
    line.len() <= 1024 && text_like && (keyword(b"solid") || keyword(b"endsolid"))
}

/// Corners merged into shared vertices.
#[derive(Default)]
struct Welder {
    data: MeshData,
    seen: HashMap<[u32; 3], u32>,
}

impl Welder {
    fn vertex(&mut self, p: Vec3) -> Result<u32, LoadMeshError> {
        // `-0.0 + 0.0` is `+0.0`: both zeros get the same key.
        let key = (p + Vec3::ZERO).to_array().each(f32::to_bits);
        if let Some(&index) = self.seen.get(&key) {
            return Ok(index);
        }
        let index = u32::try_from(self.data.vertices.len()).map_err(|_| {
            LoadMeshError::parse(MeshFormat::Stl, None, "more vertices than 32-bit indices can address")
        })?;
        self.data.vertices.push(p);
        self.seen.insert(key, index);
        Ok(index)
    }
}

fn read_binary(bytes: &[u8]) -> Result<MeshData, LoadMeshError> {
    let count = binary_count(bytes).ok_or_else(|| {
        LoadMeshError::parse(
            MeshFormat::Stl,
            Some(Location::Byte(bytes.len() as u64)),
            format!(
                "the file is {} bytes long, shorter than a binary STL's 84-byte header, and does not start \
                 with `solid` (truncated?)",
                bytes.len()
            ),
        )
    })?;
    let expected = HEADER as u64 + TRIANGLE as u64 * count;
    if (bytes.len() as u64) < expected {
        return Err(LoadMeshError::parse(
            MeshFormat::Stl,
            Some(Location::Byte(bytes.len() as u64)),
            format!(
                "the header announces {count} triangles (84 + 50 × {count} = {expected} bytes), but the file \
                 has only {} bytes (truncated?)",
                bytes.len()
            ),
        ));
    }
    let body = &bytes[HEADER..];
    let mut welder = Welder::default();
    welder.data.indices.reserve(count as usize);
    for record in body.chunks_exact(TRIANGLE).take(count as usize) {
        // Skip the 12-byte normal; read the three corners; ignore the 2-byte attribute.
        let mut float = record[12..48].chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let mut corner = || {
            Vec3::new(float.next().unwrap_or(0.0), float.next().unwrap_or(0.0), float.next().unwrap_or(0.0))
        };
        let (a, b, c) = (corner(), corner(), corner());
        let triangle = [welder.vertex(a)?, welder.vertex(b)?, welder.vertex(c)?];
        welder.data.indices.push(triangle);
    }
    Ok(welder.data)
}

/// The ASCII reader's answer when the bytes are not text (so probably binary).
struct NotText;

/// Where the ASCII reader is inside a `solid`.
#[derive(Clone, Copy, PartialEq, Debug)]
enum State {
    /// Before `solid`, or after `endsolid`.
    Outside,
    /// Inside a solid, between facets.
    Solid,
    /// After `facet normal ...`, before `outer loop` or after `endloop`.
    Facet,
    /// Between `outer loop` and `endloop`.
    Loop,
}

fn read_ascii(bytes: &[u8]) -> Result<Result<MeshData, LoadMeshError>, NotText> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    // (A final line break ends the last line; it does not start another.)
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let mut welder = Welder::default();
    let mut state = State::Outside;
    let mut corners: Vec<u32> = Vec::new();
    let mut last_line = 0;
    for (number, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = match core::str::from_utf8(raw) {
            Ok(line) => std::borrow::Cow::Borrowed(line),
            Err(_) if named_line(raw) => String::from_utf8_lossy(raw),
            Err(_) => return Err(NotText),
        };
        last_line = number + 1;
        let fail = |message: String| {
            Ok(Err(LoadMeshError::parse(MeshFormat::Stl, Some(Location::Line(number + 1)), message)))
        };
        let mut words = line.split_ascii_whitespace();
        let Some(word) = words.next() else { continue };
        // Keywords in any case (`SOLID`, `Facet`, ...), as some exporters write them.
        let keyword = word.to_ascii_lowercase();
        state = match (state, keyword.as_str()) {
            (State::Outside, "solid") => State::Solid,
            (State::Solid, "facet") => State::Facet,
            (State::Solid, "endsolid") => State::Outside,
            (State::Facet, "outer") => {
                corners.clear();
                State::Loop
            }
            (State::Facet, "endfacet") => State::Solid,
            (State::Loop, "vertex") => {
                let mut xyz = [0.0f32; 3];
                for value in &mut xyz {
                    let Some(word) = words.next() else {
                        return fail("a vertex has fewer than three coordinates".to_owned());
                    };
                    let Ok(number) = word.parse() else {
                        return fail(format!("vertex coordinate `{word}` is not a number"));
                    };
                    *value = number;
                }
                if words.next().is_some() {
                    return fail("a vertex has more than three coordinates".to_owned());
                }
                match welder.vertex(Vec3::from_array(xyz)) {
                    Ok(index) => corners.push(index),
                    Err(e) => return Ok(Err(e)),
                }
                State::Loop
            }
            (State::Loop, "endloop") => {
                if corners.len() < 3 {
                    return fail(format!("a facet has {} corners; it needs three", corners.len()));
                }
                push_fan(&mut welder.data.indices, &corners);
                State::Facet
            }
            (State::Outside, _) => return fail(format!("expected `solid`, found `{word}`")),
            (_, _) => return fail(format!("unexpected `{word}` here")),
        };
    }
    if state != State::Outside {
        let message = "the file ends inside a solid, before `endsolid` (truncated?)";
        return Ok(Err(LoadMeshError::parse(MeshFormat::Stl, Some(Location::Line(last_line)), message)));
    }
    Ok(Ok(welder.data))
}
