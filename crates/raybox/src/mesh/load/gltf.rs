//! glTF 2.0 (`.gltf` and `.glb`), parsed by the `gltf` crate; buffers and accessors read here.
//!
//! The `gltf` crate checks the JSON against the schema. The bytes behind the accessors
//! are read by this file, with every offset and length checked, so that a file whose
//! numbers point past its buffers gives an error rather than a panic. Image data is never
//! touched. Buffers come from the GLB binary chunk, from base64 `data:` URIs, or from
//! files next to the glTF file (percent-encoded relative paths).

use std::borrow::Cow;
use std::path::Path;

use glam::{Mat4, Vec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;

use super::{LoadMeshError, MeshFormat};
use crate::mesh::MeshData;

fn error(message: impl Into<String>) -> LoadMeshError {
    LoadMeshError::parse(MeshFormat::Gltf, None, message)
}

/// Reads a glTF or GLB file's bytes; `folder` is where relative buffer URIs start.
pub(super) fn read(bytes: &[u8], folder: Option<&Path>) -> Result<MeshData, LoadMeshError> {
    if bytes.is_empty() {
        return Err(error("the file is empty"));
    }
    let not_gltf = |source: gltf::Error| LoadMeshError::Parse {
        path: None,
        format: MeshFormat::Gltf,
        at: None,
        message: "not a valid glTF or GLB file".to_owned(),
        source: Some(Box::new(source)),
    };
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
    let gltf::Gltf { document, blob } = gltf::Gltf::from_slice_without_validation(bytes).map_err(not_gltf)?;
    let json = document.into_json();
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
    let file = gltf::Gltf { document: gltf::Document::from_json(json).map_err(not_gltf)?, blob };
    let buffers = read_buffers(&file, folder)?;
    let document = &file.document;
    let mut data = MeshData::default();

    let Some(scene) = document.default_scene().or_else(|| document.scenes().next()) else {
        // No scene: every mesh, untransformed.
        for mesh in document.meshes() {
            add_mesh(&mesh, Mat4::IDENTITY, &buffers, &mut data)?;
        }
        return Ok(data);
    };
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
            add_mesh(&mesh, world, &buffers, &mut data)?;
        }
        stack.extend(node.children().map(|child| (child, world)));
    }
    Ok(data)
}

/// The bytes of every buffer, in order.
fn read_buffers<'a>(
    file: &'a gltf::Gltf,
    folder: Option<&Path>,
) -> Result<Vec<Cow<'a, [u8]>>, LoadMeshError> {
    let mut buffers = Vec::new();
    for buffer in file.document.buffers() {
        let i = buffer.index();
        let bytes: Cow<'a, [u8]> = match buffer.source() {
            gltf::buffer::Source::Bin => Cow::Borrowed(file.blob.as_deref().ok_or_else(|| {
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
                let path = folder.join(decode_percent(uri));
                Cow::Owned(std::fs::read(&path).map_err(|source| LoadMeshError::Io { path, source })?)
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

/// Appends the triangles of every triangle primitive of `mesh`, transformed by `world`.
fn add_mesh(
    mesh: &gltf::Mesh<'_>,
    world: Mat4,
    buffers: &[Cow<'_, [u8]>],
    data: &mut MeshData,
) -> Result<(), LoadMeshError> {
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
        let base = data.vertices.len();
        for k in 0..count {
            let p = &bytes[k * stride..k * stride + 12];
            let xyz: [f32; 3] = core::array::from_fn(|c| {
                f32::from_le_bytes([p[4 * c], p[4 * c + 1], p[4 * c + 2], p[4 * c + 3]])
            });
            data.vertices.push(world.transform_point3(Vec3::from_array(xyz)));
        }
        let base = u32::try_from(base)
            .ok()
            .filter(|_| u32::try_from(data.vertices.len()).is_ok())
            .ok_or_else(|| error("more vertices than 32-bit indices can address"))?;

        // The corner list: the index accessor's values, or 0, 1, 2, ... without one.
        let corners: Vec<u32> = match primitive.indices() {
            None => (0..count as u32).collect(),
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
                let mut corners = Vec::with_capacity(n);
                for k in 0..n {
                    let b = &bytes[k * stride..];
                    corners.push(match size {
                        1 => u32::from(b[0]),
                        2 => u32::from(u16::from_le_bytes([b[0], b[1]])),
                        _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                    });
                }
                corners
            }
        };
        if let Some(&index) = corners.iter().find(|&&i| i as usize >= count) {
            return Err(LoadMeshError::IndexOutOfRange {
                path: None,
                format: MeshFormat::Gltf,
                at: None,
                index: index.into(),
                vertex_count: count,
            });
        }
        let triangle = |t: [u32; 3]| t.map(|i| i + base);
        match mode {
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
    Ok(())
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
