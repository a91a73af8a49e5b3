//! Wavefront OBJ, read by `tobj`: positions and faces; every object and group merged.
//!
//! `tobj` reports what went wrong but not where. The reader handed to it counts the bytes
//! it has consumed, so a line error names the line that `tobj` stopped on; face numbers
//! out of range (which `tobj` finds only when an object ends, or overflows on) are found
//! first by a pass over the faces.
//!
//! Line elements (`l`) are blanked out before `tobj` sees them: `tobj` 4.0.5 reads an `l`
//! line with the face parser, so an `l` with three or more points came back as a triangle,
//! and one with a texture-coordinate number out of range overflowed (a panic in debug
//! builds), both found by `tests/loader_fuzz.rs`.

use crate::arrays::Each;
use std::borrow::Cow;
use std::io::{BufRead, Read};

use glam::Vec3;

use super::{LoadMeshError, Location, MeshFormat};
use crate::mesh::MeshData;

/// Reads an OBJ file's bytes.
pub(super) fn read(bytes: &[u8]) -> Result<MeshData, LoadMeshError> {
    let options = tobj::LoadOptions {
        single_index: false,
        triangulate: true, // fans from each polygon's first corner
        ignore_points: true,
        ignore_lines: true,
    };
    check_face_numbers(bytes)?;
    let filtered = without_line_elements(bytes);
    let bytes: &[u8] = &filtered;
    let mut reader = CountingReader { bytes, consumed: 0 };
    // Materials are not needed: every `mtllib` is answered with "not found", which tobj
    // records in the (ignored) materials result and goes on.
    let loaded = tobj::load_obj_buf(&mut reader, &options, |_| Err(tobj::LoadError::OpenFileFailed));
    let models = match loaded {
        Ok((models, _materials)) => models,
        Err(error) => return Err(locate(bytes, reader.consumed, error)),
    };

    let mut data = MeshData::default();
    for model in models {
        let mesh = model.mesh;
        let offset = u32::try_from(data.vertices.len()).map_err(|_| too_many())?;
        data.vertices.extend(mesh.positions.chunks_exact(3).map(|p| Vec3::new(p[0], p[1], p[2])));
        u32::try_from(data.vertices.len()).map_err(|_| too_many())?;
        for t in mesh.indices.chunks_exact(3) {
            data.indices.push([t[0] + offset, t[1] + offset, t[2] + offset]);
        }
    }
    Ok(data)
}

fn too_many() -> LoadMeshError {
    LoadMeshError::parse(MeshFormat::Obj, None, "more vertices than 32-bit indices can address")
}

/// Turns tobj's error into ours, with the line it stopped on (when that is where the
/// problem is) and a sentence.
fn locate(bytes: &[u8], consumed: usize, error: tobj::LoadError) -> LoadMeshError {
    use tobj::LoadError as E;
    let what = match error {
        // (`check_face_numbers` finds these first, with their line.)
        E::FaceVertexOutOfBounds => "a face refers to a vertex that does not exist",
        E::ReadError => "the file is not UTF-8 text",
        E::PositionParseError => "a vertex position (`v x y z`) is not three numbers",
        E::ScalingByZeroError => "a vertex has a w coordinate of 0",
        E::ColorParseError => "a vertex colour is not three numbers",
        E::NormalParseError => "a normal (`vn x y z`) is not three numbers",
        E::TexcoordParseError => "a texture coordinate (`vt u v`) is not two numbers",
        E::FaceParseError => "a face (`f a b c ...`) has an index that is not a vertex number",
        E::InvalidObjectName => "an object or group line has no name",
        E::UnrecognizedCharacter => "a line starts with an unrecognized character",
        E::MaterialParseError => "a material line is malformed",
        E::InvalidPolygon => "a face has fewer than three corners",
        E::FaceTexCoordOutOfBounds => "a face refers to a texture coordinate that does not exist",
        E::FaceNormalOutOfBounds => "a face refers to a normal that does not exist",
        E::FaceColorOutOfBounds => "a face refers to a vertex colour that does not exist",
        _ => "the file is malformed",
    };
    // The out-of-bounds and polygon errors come when an object ends, not on their line.
    let at_line = !matches!(
        error,
        E::FaceVertexOutOfBounds
            | E::InvalidPolygon
            | E::FaceTexCoordOutOfBounds
            | E::FaceNormalOutOfBounds
            | E::FaceColorOutOfBounds
    );
    let at = at_line.then(|| Location::Line(line_ending_at(bytes, consumed)));
    LoadMeshError::Parse {
        path: None,
        format: MeshFormat::Obj,
        at,
        message: what.to_owned(),
        source: Some(Box::new(error)),
    }
}

/// The 1-based number of the line that ends at byte `end` (just past its newline, if any).
fn line_ending_at(bytes: &[u8], end: usize) -> usize {
    let before = &bytes[..end.saturating_sub(1).min(bytes.len())];
    before.iter().filter(|&&b| b == b'\n').count() + 1
}

/// The file with every `l` (polyline) line emptied, its line break kept so that line
/// numbers do not change. Lines are what this loader skips, but `tobj` 4.0.5 parses them
/// as faces: with three points or more, as a triangle or a polygon (ignoring
/// `ignore_lines`, which only drops two-point lines), and without the checks
/// [`check_face_numbers`] makes for `f` lines. A line is split at `\n`, as `tobj` reads
/// it, and its first word found as `tobj` finds it (Unicode white space).
fn without_line_elements(bytes: &[u8]) -> Cow<'_, [u8]> {
    let is_polyline = |line: &[u8]| String::from_utf8_lossy(line).split_whitespace().next() == Some("l");
    if !bytes.split(|&b| b == b'\n').any(is_polyline) {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    for (k, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if k > 0 {
            out.push(b'\n');
        }
        if !is_polyline(line) {
            out.extend_from_slice(line);
        }
    }
    Cow::Owned(out)
}

/// Checks every face corner's numbers (`f v/vt/vn`) before `tobj` reads them, in one pass:
/// - a vertex number out of range is an [`LoadMeshError::IndexOutOfRange`] on its line
///   (`tobj` finds it only when an object ends, and does not say where);
/// - a texture-coordinate or normal number out of range, a negative one past the ones read
///   so far or a huge one, would make `tobj` 4.0.5 compute an index that overflows (a panic
///   in debug builds, found by an audit with `f 1/-11 2/1 3/1`): a parse error on its line.
///
/// Negative numbers count back from the last one read before the face; zero is never a
/// valid number. Words that are not numbers are left to `tobj`'s own error.
fn check_face_numbers(bytes: &[u8]) -> Result<(), LoadMeshError> {
    let text = String::from_utf8_lossy(bytes);
    let keywords = ["v", "vt", "vn"];
    let total = keywords.each(|k| text.lines().filter(|l| l.split_whitespace().next() == Some(k)).count());
    let mut seen = [0usize; 3];
    for (number, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { continue };
        if let Some(k) = keywords.iter().position(|&w| w == first) {
            seen[k] += 1;
            continue;
        }
        if first != "f" {
            continue;
        }
        for word in words {
            for (k, part) in word.split('/').take(3).enumerate() {
                let Ok(index) = part.parse::<i64>() else { continue }; // empty, or tobj's error
                let valid = if index < 0 {
                    index.unsigned_abs() <= seen[k] as u64
                } else {
                    index >= 1 && index.unsigned_abs() <= total[k] as u64
                };
                if valid {
                    continue;
                }
                let at = Some(Location::Line(number + 1));
                if k == 0 {
                    return Err(LoadMeshError::IndexOutOfRange {
                        path: None,
                        format: MeshFormat::Obj,
                        at,
                        index,
                        vertex_count: total[0],
                    });
                }
                let what = ["vertex", "texture coordinate", "normal"][k];
                let message = if index < 0 {
                    format!("a face refers to {what} {index}, but only {} were read before it", seen[k])
                } else {
                    format!("a face refers to {what} {index}, but the file has {}", total[k])
                };
                return Err(LoadMeshError::parse(MeshFormat::Obj, at, message));
            }
        }
    }
    Ok(())
}

/// A byte-slice reader that remembers how far it has been read.
struct CountingReader<'a> {
    bytes: &'a [u8],
    consumed: usize,
}

impl Read for CountingReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let rest = &self.bytes[self.consumed..];
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.consumed += n;
        Ok(n)
    }
}

impl BufRead for CountingReader<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        Ok(&self.bytes[self.consumed..])
    }

    fn consume(&mut self, amount: usize) {
        self.consumed = (self.consumed + amount).min(self.bytes.len());
    }
}
