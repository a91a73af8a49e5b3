//! Reading meshes from files: OBJ, STL (ASCII and binary) and PLY (ASCII and binary).
//!
//! raybox's library has no file loaders yet (they are planned behind the `obj`, `ply`,
//! `stl` and `gltf` features); until they land, the command reads the common formats
//! itself, positions and triangles only. Polygons are split into fans of triangles.
//! Every error names the file, and the line where there is one.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use glam::Vec3;
use raybox::{BuildQuality, MeshData, TriMesh};

use crate::error::CliError;

/// A mesh ready to trace, with where it came from and how long its BVH took.
pub struct LoadedMesh {
    /// The file name, or "the embedded Stanford bunny".
    pub name: String,
    /// The mesh and its BVH.
    pub mesh: TriMesh,
    /// The BVH build time (the file's parse time not included).
    pub build_time: Duration,
}

/// The mesh argument of a subcommand: `None` (omitted, or `@bunny`) for the embedded bunny.
pub fn mesh_path(arg: Option<&Path>) -> Option<&Path> {
    arg.filter(|p| p.as_os_str() != "@bunny")
}

/// A mesh file's contents, or the embedded bunny for `None`, with a name for reports.
pub fn load_or_bunny(path: Option<&Path>) -> Result<(String, MeshData), CliError> {
    Ok(match path {
        Some(path) => (path.display().to_string(), load(path)?),
        None => ("the embedded Stanford bunny".to_owned(), raybox::mesh::bunny()),
    })
}

/// Loads `path` (or the embedded bunny when `None`) and builds its BVH at `quality`.
pub fn load_and_build(path: Option<&Path>, quality: BuildQuality) -> Result<LoadedMesh, CliError> {
    let (name, data) = load_or_bunny(path)?;
    let start = Instant::now();
    let mesh = TriMesh::with_quality(data.vertices, data.indices, quality).map_err(|e| match path {
        Some(path) => CliError::in_file(path, e),
        None => CliError::new(e),
    })?;
    Ok(LoadedMesh { name, mesh, build_time: start.elapsed() })
}

/// Reads a mesh file, choosing the format by the extension.
pub fn load(path: &Path) -> Result<MeshData, CliError> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    let bytes = || std::fs::read(path).map_err(|e| CliError::reading(path, &e));
    let fail = |line: Option<usize>, what: String| match line {
        Some(line) => CliError::new(format!("{}:{line}: {what}", path.display())),
        None => CliError::in_file(path, what),
    };
    let data = match ext.as_str() {
        "obj" => {
            let text = String::from_utf8(bytes()?).map_err(|_| fail(None, "not UTF-8 text".to_owned()))?;
            parse_obj(&text).map_err(|(line, what)| fail(Some(line), what))?
        }
        "stl" => parse_stl(&bytes()?).map_err(|(line, what)| fail(line, what))?,
        "ply" => parse_ply(&bytes()?).map_err(|what| fail(None, what))?,
        "gltf" | "glb" => {
            return Err(fail(None, "glTF is not supported yet (use OBJ, PLY or STL)".to_owned()));
        }
        _ => {
            return Err(fail(None, "unknown mesh format: expected a .obj, .ply or .stl file".to_owned()));
        }
    };
    if data.indices.is_empty() {
        return Err(fail(None, "the file has no triangles".to_owned()));
    }
    Ok(data)
}

// ---------------------------------------------------------------------------------------
// OBJ
// ---------------------------------------------------------------------------------------

/// `v x y z` and `f a b c …` lines (`a`, `a/t`, `a//n`, `a/t/n`; negative = from the end).
fn parse_obj(text: &str) -> Result<MeshData, (usize, String)> {
    let mut data = MeshData::default();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        let mut words = line.split_ascii_whitespace();
        match words.next() {
            Some("v") => {
                let coords: Vec<f32> = words
                    .take(3)
                    .map(|w| w.parse::<f32>().map_err(|_| (line_no, format!("bad vertex coordinate `{w}`"))))
                    .collect::<Result<_, _>>()?;
                if coords.len() != 3 {
                    return Err((line_no, format!("a vertex needs 3 coordinates, found {}", coords.len())));
                }
                data.vertices.push(Vec3::new(coords[0], coords[1], coords[2]));
            }
            Some("f") => {
                let count = data.vertices.len();
                let corners: Vec<u32> = words
                    .map(|w| {
                        let first = w.split('/').next().unwrap_or("");
                        let i: i64 = first.parse().map_err(|_| (line_no, format!("bad face index `{w}`")))?;
                        // 1-based from the start, or negative from the end of the vertices so far.
                        let resolved = if i > 0 { i - 1 } else { count as i64 + i };
                        if i == 0 || resolved < 0 || resolved >= count as i64 {
                            return Err((
                                line_no,
                                format!("face index {i} does not name one of the {count} vertices so far"),
                            ));
                        }
                        Ok(resolved as u32)
                    })
                    .collect::<Result<_, _>>()?;
                if corners.len() < 3 {
                    return Err((
                        line_no,
                        format!("a face needs at least 3 vertices, found {}", corners.len()),
                    ));
                }
                for k in 1..corners.len() - 1 {
                    data.indices.push([corners[0], corners[k], corners[k + 1]]);
                }
            }
            _ => {}
        }
    }
    Ok(data)
}

// ---------------------------------------------------------------------------------------
// STL
// ---------------------------------------------------------------------------------------

/// Merges equal vertices (bit for bit), as STL repeats them per triangle.
#[derive(Default)]
struct Welder {
    data: MeshData,
    seen: HashMap<[u32; 3], u32>,
}

impl Welder {
    fn vertex(&mut self, p: Vec3) -> u32 {
        let key = p.to_array().map(f32::to_bits);
        let next = self.data.vertices.len() as u32;
        *self.seen.entry(key).or_insert_with(|| {
            self.data.vertices.push(p);
            next
        })
    }
}

/// Binary STL when the size matches the triangle count in the header, ASCII otherwise.
fn parse_stl(bytes: &[u8]) -> Result<MeshData, (Option<usize>, String)> {
    if bytes.len() >= 84 {
        let count = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
        if bytes.len() == 84 + 50 * count {
            let mut welder = Welder::default();
            for record in bytes[84..].chunks_exact(50) {
                let f =
                    |k: usize| f32::from_le_bytes([record[k], record[k + 1], record[k + 2], record[k + 3]]);
                // 12 bytes of normal, then three vertices of 12 bytes, then 2 bytes of attributes.
                let corner = |v: usize| Vec3::new(f(12 + 12 * v), f(16 + 12 * v), f(20 + 12 * v));
                let tri = [0, 1, 2].map(|v| welder.vertex(corner(v)));
                welder.data.indices.push(tri);
            }
            return Ok(welder.data);
        }
    }
    let text = std::str::from_utf8(bytes).map_err(|_| {
        (None, "neither a binary STL (the size does not match its triangle count) nor ASCII".to_owned())
    })?;
    if !text.trim_start().starts_with("solid") {
        return Err((
            None,
            "neither a binary STL (the size does not match its triangle count) nor ASCII (`solid …`)"
                .to_owned(),
        ));
    }
    let mut welder = Welder::default();
    let mut corners = Vec::with_capacity(3);
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_ascii_whitespace();
        match words.next() {
            Some("vertex") => {
                let c: Vec<f32> = words.filter_map(|w| w.parse().ok()).collect();
                if c.len() != 3 {
                    return Err((Some(n + 1), "a vertex needs 3 coordinates".to_owned()));
                }
                corners.push(welder.vertex(Vec3::new(c[0], c[1], c[2])));
            }
            Some("endfacet") => {
                if corners.len() != 3 {
                    return Err((Some(n + 1), format!("a facet needs 3 vertices, found {}", corners.len())));
                }
                welder.data.indices.push([corners[0], corners[1], corners[2]]);
                corners.clear();
            }
            _ => {}
        }
    }
    Ok(welder.data)
}

// ---------------------------------------------------------------------------------------
// PLY
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq)]
enum PlyEncoding {
    Ascii,
    Little,
    Big,
}

/// A property: a scalar of some type, or a list (count type, item type).
#[derive(Clone)]
struct PlyProperty {
    name: String,
    scalar: &'static str,
    list_count: Option<&'static str>,
}

struct PlyElement {
    name: String,
    count: usize,
    properties: Vec<PlyProperty>,
}

fn ply_type(name: &str) -> Option<&'static str> {
    Some(match name {
        "char" | "int8" => "i8",
        "uchar" | "uint8" => "u8",
        "short" | "int16" => "i16",
        "ushort" | "uint16" => "u16",
        "int" | "int32" => "i32",
        "uint" | "uint32" => "u32",
        "float" | "float32" => "f32",
        "double" | "float64" => "f64",
        _ => return None,
    })
}

/// Reads values one at a time from the body, ASCII or binary.
struct PlyBody<'a> {
    bytes: &'a [u8],
    at: usize,
    encoding: PlyEncoding,
}

impl PlyBody<'_> {
    fn value(&mut self, ty: &str) -> Result<f64, String> {
        if self.encoding == PlyEncoding::Ascii {
            while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_whitespace() {
                self.at += 1;
            }
            let start = self.at;
            while self.at < self.bytes.len() && !self.bytes[self.at].is_ascii_whitespace() {
                self.at += 1;
            }
            let word = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("");
            if word.is_empty() {
                return Err("the data ends early".to_owned());
            }
            return word.parse::<f64>().map_err(|_| format!("bad number `{word}`"));
        }
        let size = match ty {
            "i8" | "u8" => 1,
            "i16" | "u16" => 2,
            "i32" | "u32" | "f32" => 4,
            _ => 8,
        };
        let Some(raw) = self.bytes.get(self.at..self.at + size) else {
            return Err("the data ends early".to_owned());
        };
        self.at += size;
        let mut buf = [0u8; 8];
        buf[..size].copy_from_slice(raw);
        if self.encoding == PlyEncoding::Big {
            buf[..size].reverse();
        }
        let b = |n: usize| -> [u8; 8] {
            let mut out = [0u8; 8];
            out[..n].copy_from_slice(&buf[..n]);
            out
        };
        Ok(match ty {
            "i8" => f64::from(buf[0] as i8),
            "u8" => f64::from(buf[0]),
            "i16" => f64::from(i16::from_le_bytes([buf[0], buf[1]])),
            "u16" => f64::from(u16::from_le_bytes([buf[0], buf[1]])),
            "i32" => f64::from(i32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]])),
            "u32" => f64::from(u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]])),
            "f32" => f64::from(f32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]])),
            _ => f64::from_le_bytes(b(8)),
        })
    }
}

fn parse_ply(bytes: &[u8]) -> Result<MeshData, String> {
    const END: &[u8] = b"end_header";
    let end = bytes.windows(END.len()).position(|w| w == END).ok_or("not a PLY file (no `end_header`)")?;
    let header = std::str::from_utf8(&bytes[..end]).map_err(|_| "the PLY header is not text")?;
    let mut body_start = end + END.len();
    // The body starts after the end of the `end_header` line (\n or \r\n).
    while body_start < bytes.len() && bytes[body_start] != b'\n' {
        body_start += 1;
    }
    body_start += 1;

    let mut lines = header.lines();
    if lines.next().map(str::trim) != Some("ply") {
        return Err("not a PLY file (it does not start with `ply`)".to_owned());
    }
    let mut encoding = None;
    let mut elements: Vec<PlyElement> = Vec::new();
    for line in lines {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        match words.as_slice() {
            ["format", "ascii", _] => encoding = Some(PlyEncoding::Ascii),
            ["format", "binary_little_endian", _] => encoding = Some(PlyEncoding::Little),
            ["format", "binary_big_endian", _] => encoding = Some(PlyEncoding::Big),
            ["element", name, count] => elements.push(PlyElement {
                name: (*name).to_owned(),
                count: count.parse().map_err(|_| format!("bad element count `{count}`"))?,
                properties: Vec::new(),
            }),
            ["property", "list", count_ty, item_ty, name] => {
                let element = elements.last_mut().ok_or("a property before any element")?;
                element.properties.push(PlyProperty {
                    name: (*name).to_owned(),
                    scalar: ply_type(item_ty).ok_or_else(|| format!("unknown PLY type `{item_ty}`"))?,
                    list_count: Some(
                        ply_type(count_ty).ok_or_else(|| format!("unknown PLY type `{count_ty}`"))?,
                    ),
                });
            }
            ["property", ty, name] => {
                let element = elements.last_mut().ok_or("a property before any element")?;
                element.properties.push(PlyProperty {
                    name: (*name).to_owned(),
                    scalar: ply_type(ty).ok_or_else(|| format!("unknown PLY type `{ty}`"))?,
                    list_count: None,
                });
            }
            _ => {}
        }
    }
    let encoding = encoding.ok_or("the PLY header has no `format` line")?;
    let mut body = PlyBody { bytes, at: body_start.min(bytes.len()), encoding };
    let mut data = MeshData::default();
    for element in &elements {
        let position = |axis: &str| element.properties.iter().position(|p| p.name == axis);
        let xyz = [position("x"), position("y"), position("z")];
        let is_vertex = element.name == "vertex";
        if is_vertex && xyz.iter().any(Option::is_none) {
            return Err("the vertex element has no x, y and z".to_owned());
        }
        let is_face = element.name == "face";
        for record in 0..element.count {
            let mut coords = [0.0f32; 3];
            for (k, property) in element.properties.iter().enumerate() {
                let context = |e: String| format!("{} {record}: {e}", element.name);
                match property.list_count {
                    None => {
                        let v = body.value(property.scalar).map_err(context)?;
                        if let Some(axis) = xyz.iter().position(|&p| p == Some(k)) {
                            coords[axis] = v as f32;
                        }
                    }
                    Some(count_ty) => {
                        let n = body.value(count_ty).map_err(context)? as usize;
                        let mut items = Vec::with_capacity(n);
                        for _ in 0..n {
                            items.push(body.value(property.scalar).map_err(context)?);
                        }
                        let is_indices = property.name == "vertex_indices" || property.name == "vertex_index";
                        if is_face && is_indices {
                            if n < 3 {
                                return Err(format!("face {record} has {n} vertices (at least 3 needed)"));
                            }
                            let idx: Vec<u32> = items.iter().map(|&i| i as u32).collect();
                            for j in 1..n - 1 {
                                data.indices.push([idx[0], idx[j], idx[j + 1]]);
                            }
                        }
                    }
                }
            }
            if is_vertex {
                data.vertices.push(Vec3::from_array(coords));
            }
        }
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obj_faces_are_fans_and_negative_indices_count_from_the_end() {
        let text = "# a square\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1/1/1 2//2 3 4\nf -4 -3 -1\n";
        let data = parse_obj(text).unwrap();
        assert_eq!(data.vertices.len(), 4);
        assert_eq!(data.indices, vec![[0, 1, 2], [0, 2, 3], [0, 1, 3]]);
    }

    #[test]
    fn obj_errors_name_the_line() {
        assert_eq!(parse_obj("v 0 0\n").unwrap_err().0, 1);
        let err = parse_obj("v 0 0 0\nv 1 0 0\nf 1 2 3\n").unwrap_err();
        assert_eq!(err.0, 3);
        assert!(err.1.contains("face index 3"), "{}", err.1);
    }

    #[test]
    fn binary_and_ascii_stl_weld_shared_corners() {
        let mut bytes = vec![0u8; 80];
        bytes.extend(2u32.to_le_bytes());
        for tri in [
            [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
        ] {
            bytes.extend([0u8; 12]);
            for v in tri {
                for c in v {
                    bytes.extend(c.to_le_bytes());
                }
            }
            bytes.extend([0u8; 2]);
        }
        let data = parse_stl(&bytes).unwrap();
        assert_eq!((data.vertices.len(), data.indices.len()), (4, 2));

        let ascii = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
        let data = parse_stl(ascii.as_bytes()).unwrap();
        assert_eq!((data.vertices.len(), data.indices.len()), (3, 1));
    }

    #[test]
    fn ply_ascii_and_binary_give_the_same_mesh() {
        let ascii = "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n\
                     element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n";
        let a = parse_ply(ascii.as_bytes()).unwrap();
        assert_eq!(a.indices, vec![[0, 1, 2], [0, 2, 3]]);

        let mut binary = b"ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty float x\nproperty float y\n\
                           property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
            .to_vec();
        for v in &a.vertices {
            for c in v.to_array() {
                binary.extend(c.to_le_bytes());
            }
        }
        binary.push(4);
        for i in [0i32, 1, 2, 3] {
            binary.extend(i.to_le_bytes());
        }
        assert_eq!(parse_ply(&binary).unwrap(), a);
        assert!(parse_ply(&binary[..binary.len() - 2]).unwrap_err().contains("ends early"));
    }
}
