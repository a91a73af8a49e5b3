//! glTF 2.0 (`.gltf` and `.glb`), parsed by the `gltf` crate; buffers and accessors read here.
//!
//! The `gltf` crate checks the JSON against the schema. The bytes behind the accessors
//! are read by this file, with every offset and length checked, so that a file whose
//! numbers point past its buffers gives an error rather than a panic. Image data is never
//! touched. Buffers come from the GLB binary chunk, from base64 `data:` URIs, or from
//! files in the glTF file's folder (percent-encoded relative paths).
//!
//! The file's numbers decide how much is read and copied, so each is bounded before
//! anything is allocated for it:
//! - A buffer file is named by a relative path that stays inside the glTF file's folder
//!   (no absolute path, no `..`, no link out of it), must be a regular file (a FIFO or a
//!   device could be read forever), and must hold exactly its `byteLength` bytes, of which
//!   at most one more is read.
//! - A mesh is copied once for each node that places it, so a small file can ask for far
//!   more triangles than it holds. The triangles and vertices of the whole scene are
//!   counted first, and a scene past [`MAX_TRIANGLES`] or [`MAX_VERTICES`] is an error
//!   before any is copied.

use crate::arrays::Each;
use std::borrow::Cow;
use std::io::Read;
use std::path::{Component, Path};

use glam::{Mat4, Vec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;

use super::{LoadMeshError, MeshFormat};
use crate::mesh::MeshData;

/// Most triangles a glTF scene may place: as many as a mesh can index (2^27).
const MAX_TRIANGLES: usize = crate::bvh::MAX_PRIMITIVES;

/// Most vertices a glTF scene may place: three for each of [`MAX_TRIANGLES`]. More can only
/// be vertices that no triangle uses, and each costs 12 bytes, so they are bounded too.
const MAX_VERTICES: usize = 3 * MAX_TRIANGLES;

// Every vertex index of a scene within the limits fits in a `u32` (see `add_part`).
const _: () = assert!(MAX_VERTICES <= u32::MAX as usize);

fn error(message: impl Into<String>) -> LoadMeshError {
    LoadMeshError::parse(MeshFormat::Gltf, None, message)
}

fn not_gltf(source: gltf::Error) -> LoadMeshError {
    LoadMeshError::Parse {
        path: None,
        format: MeshFormat::Gltf,
        at: None,
        message: "not a valid glTF or GLB file".to_owned(),
        source: Some(Box::new(source)),
    }
}

/// Reads a glTF or GLB file's bytes; `folder` is where relative buffer URIs start.
pub(super) fn read(bytes: &[u8], folder: Option<&Path>) -> Result<MeshData, LoadMeshError> {
    if bytes.is_empty() {
        return Err(error("the file is empty"));
    }
    // The gltf crate subtracts the 12-byte header from the GLB's declared length without
    // checking it first (an overflow panic in debug builds): check it here.
    if let Some(length) = bytes.strip_prefix(b"glTF").and_then(|rest| rest.get(4..8)) {
        let length = u32::from_le_bytes([length[0], length[1], length[2], length[3]]);
        if length < 12 {
            return Err(error(format!(
                "the GLB header declares a length of {length} bytes, less than the header"
            )));
        }
    }
    let (json, blob) = parse(bytes)?;
    // gltf-json's validation looks up each primitive's POSITION accessor without checking
    // its index first (a panic for a bad index), so check attribute indices before it runs.
    for (m, mesh) in json.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            if let Some(index) = primitive.attributes.values().find(|i| i.value() >= json.accessors.len()) {
                return Err(error(format!(
                    "mesh {m} primitive {p}: an attribute refers to accessor {}, but there are only {}",
                    index.value(),
                    json.accessors.len()
                )));
            }
        }
    }
    let document = gltf::Document::from_json(json).map_err(not_gltf)?;
    let buffers = read_buffers(&document, blob.as_deref(), folder)?;

    // Every mesh to copy, with its transform and what places it (for error messages).
    let mut instances: Vec<(gltf::Mesh<'_>, Mat4, String)> = Vec::new();
    if let Some(scene) = document.default_scene().or_else(|| document.scenes().next()) {
        // Walk the scene's node trees with an explicit stack (no recursion, so a deep file
        // cannot overflow the call stack), applying each node's transform after its parent's.
        let mut reached = vec![false; document.nodes().count()];
        let mut stack: Vec<(gltf::Node<'_>, Mat4)> = scene.nodes().map(|n| (n, Mat4::IDENTITY)).collect();
        while let Some((node, parent)) = stack.pop() {
            let seen = reached.get_mut(node.index()).ok_or_else(|| error("a node index is out of range"))?;
            if *seen {
                return Err(error(format!(
                    "node {} is reached twice from the scene (node trees must not share or cycle)",
                    node.index()
                )));
            }
            *seen = true;
            let world = parent * Mat4::from_cols_array_2d(&node.transform().matrix());
            if let Some(mesh) = node.mesh() {
                instances.push((mesh, world, format!("node {}", node.index())));
            }
            stack.extend(node.children().map(|child| (child, world)));
        }
    } else {
        // No scene: every mesh, untransformed.
        for mesh in document.meshes() {
            let placed_by = format!("mesh {}", mesh.index());
            instances.push((mesh, Mat4::IDENTITY, placed_by));
        }
    }

    // Check each mesh once, and count what the instances add up to before copying any: a
    // mesh placed by many nodes is copied for each, and the copies, not the file, are what
    // could exhaust memory.
    let mut meshes: Vec<Option<Vec<Part<'_>>>> = vec![None; document.meshes().count()];
    let (mut vertices, mut triangles) = (0usize, 0usize);
    for (mesh, _, placed_by) in &instances {
        let parts = meshes.get_mut(mesh.index()).ok_or_else(|| error("a mesh index is out of range"))?;
        if parts.is_none() {
            *parts = Some(mesh_parts(mesh, &buffers)?);
        }
        for part in parts.iter().flatten() {
            vertices = vertices.saturating_add(part.vertex_count);
            triangles = triangles.saturating_add(part.triangle_count);
        }
        if triangles > MAX_TRIANGLES {
            return Err(error(format!(
                "{placed_by} brings the scene to {triangles} triangles, more than a mesh can index \
                 ({MAX_TRIANGLES})"
            )));
        }
        if vertices > MAX_VERTICES {
            return Err(error(format!(
                "{placed_by} brings the scene to {vertices} vertices, more than {MAX_TRIANGLES} \
                 triangles can use ({MAX_VERTICES})"
            )));
        }
    }
    let mut data =
        MeshData { vertices: Vec::with_capacity(vertices), indices: Vec::with_capacity(triangles) };
    for (mesh, world, _) in &instances {
        for part in meshes[mesh.index()].iter().flatten() {
            add_part(part, *world, &mut data);
        }
    }
    Ok(data)
}

/// A file's glTF JSON, and the GLB binary chunk if there is one.
type Parsed<'a> = (gltf::json::Root, Option<Cow<'a, [u8]>>);

/// The JSON of a `.gltf` or `.glb` file, and the GLB binary chunk if there is one.
///
/// The JSON goes through a `serde_json` value first, to drop every `extras` member: the
/// specification lets `extras` be any JSON value, but the `gltf` crate (without its
/// `extras` feature, which would keep them all) accepts only objects there.
fn parse(bytes: &[u8]) -> Result<Parsed<'_>, LoadMeshError> {
    let (text, blob) = if bytes.starts_with(b"glTF") {
        let glb = gltf::Glb::from_slice(bytes).map_err(not_gltf)?;
        (glb.json, glb.bin)
    } else {
        (Cow::Borrowed(bytes), None)
    };
    let invalid = |source| not_gltf(gltf::Error::Deserialize(source));
    let mut value: gltf::json::Value = gltf::json::deserialize::from_slice(&text).map_err(invalid)?;
    // serde_json nests no deeper than 128 levels, but walk with a stack all the same.
    let mut stack = vec![&mut value];
    while let Some(value) = stack.pop() {
        match value {
            gltf::json::Value::Object(members) => {
                members.remove("extras");
                stack.extend(members.values_mut());
            }
            gltf::json::Value::Array(elements) => stack.extend(elements.iter_mut()),
            _ => {}
        }
    }
    let root = gltf::json::deserialize::from_value(value).map_err(invalid)?;
    Ok((root, blob))
}

/// The bytes of every buffer, in order.
///
/// The GLB binary chunk and a `data:` URI may hold more bytes than the buffer's
/// `byteLength` (the chunk is padded to four bytes); a buffer file must hold exactly
/// `byteLength` bytes, as glTF validators require, since any other size means it is not
/// the file the glTF file was written with.
fn read_buffers<'a>(
    document: &gltf::Document,
    blob: Option<&'a [u8]>,
    folder: Option<&Path>,
) -> Result<Vec<Cow<'a, [u8]>>, LoadMeshError> {
    let mut buffers = Vec::new();
    for buffer in document.buffers() {
        let i = buffer.index();
        let bytes: Cow<'a, [u8]> = match buffer.source() {
            gltf::buffer::Source::Bin => Cow::Borrowed(blob.ok_or_else(|| {
                error(format!("buffer {i} is the GLB binary chunk, but the file has none"))
            })?),
            gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => {
                let (_, encoded) = uri
                    .split_once(";base64,")
                    .ok_or_else(|| error(format!("buffer {i} is a `data:` URI that is not base64")))?;
                Cow::Owned(
                    decode_base64(encoded)
                        .ok_or_else(|| error(format!("buffer {i} has malformed base64 data")))?,
                )
            }
            gltf::buffer::Source::Uri(uri) => {
                if uri.contains("://") {
                    return Err(error(format!(
                        "buffer {i} is at `{uri}`: only relative file paths are read"
                    )));
                }
                let folder = folder.ok_or_else(|| {
                    error(format!(
                        "buffer {i} is in the file `{uri}`: load the glTF file by its path (`load`) \
                         so that it can be found"
                    ))
                })?;
                Cow::Owned(read_buffer_file(i, uri, buffer.length(), folder)?)
            }
        };
        if bytes.len() < buffer.length() {
            return Err(error(format!(
                "buffer {i} has {} bytes, fewer than its byteLength of {}",
                bytes.len(),
                buffer.length()
            )));
        }
        buffers.push(bytes);
    }
    Ok(buffers)
}

/// Reads buffer `i` from the file at `uri`, a percent-encoded path relative to `folder`,
/// the glTF file's folder; the file must hold exactly `length` bytes.
fn read_buffer_file(i: usize, uri: &str, length: usize, folder: &Path) -> Result<Vec<u8>, LoadMeshError> {
    // Only a path that stays inside the folder: a glTF file from elsewhere must not make
    // the loader read `/dev/zero`, or any file of the user's that it can name.
    let relative = decode_percent(uri);
    let relative = Path::new(&relative);
    if !relative.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir)) {
        return Err(error(format!(
            "buffer {i} is at `{uri}`: only files inside the glTF file's folder are read \
             (no absolute path, no `..`)"
        )));
    }
    let path = folder.join(relative);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| LoadMeshError::Io { path, source }
    };
    // A link may still lead out of the folder: compare the paths with every link resolved.
    let folder = if folder.as_os_str().is_empty() { Path::new(".") } else { folder };
    let real_folder = folder.canonicalize().map_err(io(folder))?;
    let real = path.canonicalize().map_err(io(&path))?;
    if !real.starts_with(&real_folder) {
        return Err(error(format!(
            "buffer {i} is at `{uri}`, which resolves to `{}`, outside the glTF file's folder",
            real.display()
        )));
    }
    // A FIFO would block the open itself, and a device could be read forever: check the
    // kind of file before opening it, and again on the opened file in case it changed.
    let not_regular = || error(format!("buffer {i} is at `{uri}`, which is not a regular file"));
    let size = std::fs::metadata(&real).map_err(io(&path))?;
    if !size.is_file() {
        return Err(not_regular());
    }
    let file = std::fs::File::open(&real).map_err(io(&path))?;
    if !file.metadata().map_err(io(&path))?.is_file() {
        return Err(not_regular());
    }
    // Read one byte more than declared, to tell a longer file, and no more.
    let mut bytes = Vec::with_capacity(length.min(usize::try_from(size.len()).unwrap_or(usize::MAX)));
    file.take(u64::try_from(length).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io(&path))?;
    if bytes.len() < length {
        return Err(error(format!(
            "buffer {i} (`{uri}`) has {} bytes, fewer than its byteLength of {length}",
            bytes.len()
        )));
    }
    if bytes.len() > length {
        return Err(error(format!("buffer {i} (`{uri}`) has more than its byteLength of {length} bytes")));
    }
    Ok(bytes)
}

/// A triangle primitive, checked: its positions and its corner list (the index accessor's
/// values, or 0, 1, 2, ... without one), read from the buffers for each copy.
#[derive(Clone)]
struct Part<'b> {
    mode: Mode,
    /// The positions accessor's bytes and stride.
    positions: (&'b [u8], usize),
    vertex_count: usize,
    /// The index accessor's bytes, stride and component size, if there is one.
    indices: Option<(&'b [u8], usize, usize)>,
    corner_count: usize,
    /// The triangles the corners make in `mode`.
    triangle_count: usize,
}

/// The parts of every triangle primitive of `mesh`, each checked: types, accessor bounds,
/// and every index below the vertex count. Parts without vertices add nothing and are left
/// out, so that copying a mesh takes no longer than what it adds (a mesh of a million
/// empty primitives, placed by a million nodes, is not a million million steps).
fn mesh_parts<'b>(
    mesh: &gltf::Mesh<'_>,
    buffers: &'b [Cow<'_, [u8]>],
) -> Result<Vec<Part<'b>>, LoadMeshError> {
    let mut parts = Vec::new();
    for primitive in mesh.primitives() {
        let mode = primitive.mode();
        if !matches!(mode, Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) {
            continue; // points and lines have no area
        }
        let Some(positions) = primitive.get(&gltf::Semantic::Positions) else { continue };
        let where_ = format!("mesh {} primitive {}", mesh.index(), primitive.index());
        if positions.data_type() != DataType::F32 || positions.dimensions() != Dimensions::Vec3 {
            return Err(error(format!("{where_}: POSITION is not a VEC3 of floats")));
        }
        let (bytes, stride, count) = accessor_bytes(&positions, buffers, &where_)?;
        let indices = match primitive.indices() {
            None => None,
            Some(indices) => {
                let size = match indices.data_type() {
                    DataType::U8 => 1,
                    DataType::U16 => 2,
                    DataType::U32 => 4,
                    _ => return Err(error(format!("{where_}: indices are not unsigned integers"))),
                };
                if indices.dimensions() != Dimensions::Scalar {
                    return Err(error(format!("{where_}: indices are not scalars")));
                }
                let (bytes, stride, n) = accessor_bytes(&indices, buffers, &where_)?;
                Some((bytes, stride, size, n))
            }
        };
        let corner_count = indices.map_or(count, |(.., n)| n);
        // Leftover corners in a triangle list mean a file written wrong (a count or a view
        // off by some): an error, rather than a mesh with the tail dropped.
        if mode == Mode::Triangles && corner_count % 3 != 0 {
            return Err(error(format!(
                "{where_}: {corner_count} corners are not whole triangles (a triangle list needs a multiple of 3)"
            )));
        }
        let triangle_count = match mode {
            Mode::TriangleStrip | Mode::TriangleFan => corner_count.saturating_sub(2),
            _ => corner_count / 3,
        };
        let part = Part {
            mode,
            positions: (bytes, stride),
            vertex_count: count,
            indices: indices.map(|(bytes, stride, size, _)| (bytes, stride, size)),
            corner_count,
            triangle_count,
        };
        // Without indices, the corners are the vertices themselves.
        if part.indices.is_some()
            && let Some(index) = (0..corner_count).map(|k| corner(&part, k)).find(|&i| i as usize >= count)
        {
            return Err(LoadMeshError::IndexOutOfRange {
                path: None,
                format: MeshFormat::Gltf,
                at: None,
                index: index.into(),
                vertex_count: count,
            });
        }
        if count > 0 {
            parts.push(part);
        }
    }
    Ok(parts)
}

/// Corner `k` of a part: the index accessor's value, or `k` without one.
fn corner(part: &Part<'_>, k: usize) -> u32 {
    match part.indices {
        // Without indices, `k` is below the vertex count, so below `MAX_VERTICES` and
        // `u32::MAX` by the time a part is copied.
        None => k as u32,
        Some((bytes, stride, size)) => {
            let b = &bytes[k * stride..];
            match size {
                1 => u32::from(b[0]),
                2 => u32::from(u16::from_le_bytes([b[0], b[1]])),
                _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            }
        }
    }
}

/// Appends a checked part's vertices, transformed by `world`, and its triangles. The
/// caller has counted them against the limits, so the indices fit in `u32`.
fn add_part(part: &Part<'_>, world: Mat4, data: &mut MeshData) {
    let base = data.vertices.len() as u32;
    let (bytes, stride) = part.positions;
    for k in 0..part.vertex_count {
        let p = &bytes[k * stride..k * stride + 12];
        let xyz: [f32; 3] = crate::arrays::from_fn(|c| {
            f32::from_le_bytes([p[4 * c], p[4 * c + 1], p[4 * c + 2], p[4 * c + 3]])
        });
        data.vertices.push(world.transform_point3(Vec3::from_array(xyz)));
    }
    let corners: Vec<u32> = (0..part.corner_count).map(|k| corner(part, k)).collect();
    let triangle = |t: [u32; 3]| t.each(|i| i + base);
    match part.mode {
        Mode::TriangleStrip => {
            // Triangle k is (k, k+1, k+2), its last two corners swapped when k is odd,
            // so every triangle keeps the strip's winding.
            for (k, w) in corners.windows(3).enumerate() {
                let t = if k % 2 == 0 { [w[0], w[1], w[2]] } else { [w[0], w[2], w[1]] };
                data.indices.push(triangle(t));
            }
        }
        Mode::TriangleFan => {
            // Triangle k is (k+1, k+2, 0), as the glTF specification writes it.
            if let Some((&first, rest)) = corners.split_first() {
                data.indices.extend(rest.windows(2).map(|w| triangle([w[0], w[1], first])));
            }
        }
        _ => data.indices.extend(corners.chunks_exact(3).map(|t| triangle([t[0], t[1], t[2]]))),
    }
}

/// An accessor's bytes from its first element on, its stride, and its element count,
/// after checking that all `count` elements lie inside its buffer view and buffer.
fn accessor_bytes<'b>(
    accessor: &gltf::Accessor<'_>,
    buffers: &'b [Cow<'_, [u8]>],
    where_: &str,
) -> Result<(&'b [u8], usize, usize), LoadMeshError> {
    let i = accessor.index();
    let fail = |what: &str| error(format!("{where_}: accessor {i} {what}"));
    if accessor.sparse().is_some() {
        return Err(fail("is sparse, which raybox does not read"));
    }
    let view = accessor.view().ok_or_else(|| fail("has no buffer view"))?;
    let buffer = buffers.get(view.buffer().index()).ok_or_else(|| fail("refers to a missing buffer"))?;
    let element = accessor.size();
    let stride = view.stride().unwrap_or(element);
    if stride < element {
        return Err(fail("has a byte stride smaller than its elements"));
    }
    let view_bytes = view
        .offset()
        .checked_add(view.length())
        .and_then(|end| buffer.get(view.offset()..end))
        .ok_or_else(|| fail("has a buffer view that reaches past the end of its buffer"))?;
    let count = accessor.count();
    if count == 0 {
        return Ok((&[], stride, 0));
    }
    let end = stride
        .checked_mul(count - 1)
        .and_then(|n| n.checked_add(element))
        .and_then(|n| n.checked_add(accessor.offset()));
    match end {
        Some(end) if end <= view_bytes.len() => Ok((&view_bytes[accessor.offset()..end], stride, count)),
        _ => Err(fail("reaches past the end of its buffer view")),
    }
}

/// Decodes standard base64 (with or without `=` padding); `None` for any other character.
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let digits = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    let mut bits: u32 = 0;
    let mut bit_count = 0;
    for &c in digits {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(value);
        bit_count += 6;
        if bit_count >= 8 {
            bit_count -= 8;
            out.push((bits >> bit_count) as u8);
            bits &= (1 << bit_count) - 1;
        }
    }
    Some(out)
}

/// Decodes `%XX` escapes in a relative URI; malformed escapes are kept as they are.
fn decode_percent(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if let (b'%', Some(&h), Some(&l)) = (bytes[k], bytes.get(k + 1), bytes.get(k + 2))
            && let (Some(h), Some(l)) = (hex(h), hex(l))
        {
            out.push((h * 16 + l) as u8);
            k += 3;
        } else {
            out.push(bytes[k]);
            k += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_escapes_decode_before_the_folder_check() {
        assert_eq!(decode_percent("cube%20data.bin"), "cube data.bin");
        assert_eq!(decode_percent("100%25%zz%4"), "100%%zz%4");
        // `..` written as escapes is still `..`, and is refused.
        assert_eq!(decode_percent("%2E%2e/x.bin"), "../x.bin");
        let error = read_buffer_file(0, "%2E%2e/x.bin", 4, Path::new(".")).unwrap_err();
        assert!(error.to_string().contains("only files inside the glTF file's folder"), "{error}");
    }

    #[test]
    fn extras_of_any_type_are_dropped_at_any_depth() {
        let json = br#"{"asset":{"version":"2.0","extras":[1]},"extras":"x",
            "nodes":[{"extras":null,"extensions":{"A_b":{"extras":3}}}]}"#;
        let (root, blob) = parse(json).unwrap();
        assert_eq!(root.nodes.len(), 1);
        assert!(blob.is_none());
    }
}
