//! Mesh files for the loader tests: a unit cube, writers for every format the loaders
//! read (OBJ, ASCII and binary PLY, ASCII and binary STL, glTF JSON and GLB), and a small
//! seeded generator for corrupting them. Shared by `tests/loaders.rs` and
//! `tests/loader_fuzz.rs`.

use glam::Vec3;
use raybox::MeshData;

/// The unit cube of the fixtures: 8 vertices in the order of `cube_ascii.ply`, and
/// 12 triangles, the fans of its 6 quads.
pub fn cube() -> MeshData {
    let v = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    MeshData {
        vertices: vec![
            v(0., 0., 0.),
            v(1., 0., 0.),
            v(1., 1., 0.),
            v(0., 1., 0.),
            v(0., 0., 1.),
            v(1., 0., 1.),
            v(1., 1., 1.),
            v(0., 1., 1.),
        ],
        indices: vec![
            [0, 3, 2],
            [0, 2, 1],
            [4, 5, 6],
            [4, 6, 7],
            [0, 1, 5],
            [0, 5, 4],
            [1, 2, 6],
            [1, 6, 5],
            [2, 3, 7],
            [2, 7, 6],
            [3, 0, 4],
            [3, 4, 7],
        ],
    }
}

/// Each triangle as its three corner positions (bit patterns): equal for two meshes
/// that draw the same triangles in the same order, however their vertices are numbered.
pub fn corner_positions(mesh: &MeshData) -> Vec<[[u32; 3]; 3]> {
    mesh.indices.iter().map(|t| t.map(|i| mesh.vertices[i as usize].to_array().map(f32::to_bits))).collect()
}

pub fn write_obj(mesh: &MeshData) -> String {
    let mut s = String::from("# written by raybox's loader tests\n");
    for v in &mesh.vertices {
        // `{}` prints the shortest decimal that reads back as the same f32.
        s += &format!("v {} {} {}\n", v.x, v.y, v.z);
    }
    for t in &mesh.indices {
        s += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    s
}

pub fn ply_header(mesh: &MeshData, format: &str) -> String {
    format!(
        "ply\nformat {format} 1.0\nelement vertex {}\nproperty float x\nproperty float y\nproperty float z\n\
         element face {}\nproperty list uchar int vertex_indices\nend_header\n",
        mesh.vertices.len(),
        mesh.indices.len()
    )
}

pub fn write_ply_ascii(mesh: &MeshData) -> Vec<u8> {
    let mut s = ply_header(mesh, "ascii");
    for v in &mesh.vertices {
        s += &format!("{} {} {}\n", v.x, v.y, v.z);
    }
    for t in &mesh.indices {
        s += &format!("3 {} {} {}\n", t[0], t[1], t[2]);
    }
    s.into_bytes()
}

pub fn write_ply_binary(mesh: &MeshData, big_endian: bool) -> Vec<u8> {
    let format = if big_endian { "binary_big_endian" } else { "binary_little_endian" };
    let mut out = ply_header(mesh, format).into_bytes();
    let put = |bytes: [u8; 4], out: &mut Vec<u8>| {
        let mut b = bytes;
        if big_endian {
            b.reverse();
        }
        out.extend_from_slice(&b);
    };
    for v in &mesh.vertices {
        for c in v.to_array() {
            put(c.to_le_bytes(), &mut out);
        }
    }
    for t in &mesh.indices {
        out.push(3);
        for i in t {
            put((*i as i32).to_le_bytes(), &mut out);
        }
    }
    out
}

pub fn write_stl_binary(mesh: &MeshData) -> Vec<u8> {
    let mut out = vec![b' '; 80];
    out[..13].copy_from_slice(b"raybox tests ");
    out.extend_from_slice(&(mesh.indices.len() as u32).to_le_bytes());
    for t in &mesh.indices {
        out.extend_from_slice(&[0; 12]); // the normal, which readers ignore
        for i in t {
            for c in mesh.vertices[*i as usize].to_array() {
                out.extend_from_slice(&c.to_le_bytes());
            }
        }
        out.extend_from_slice(&[0; 2]);
    }
    out
}

pub fn write_stl_ascii(mesh: &MeshData) -> Vec<u8> {
    let mut s = String::from("solid written by tests\n");
    for t in &mesh.indices {
        s += " facet normal 0 0 0\n  outer loop\n";
        for i in t {
            let v = mesh.vertices[*i as usize];
            s += &format!("   vertex {} {} {}\n", v.x, v.y, v.z);
        }
        s += "  endloop\n endfacet\n";
    }
    s += "endsolid written by tests\n";
    s.into_bytes()
}

/// The glTF JSON for one mesh whose positions and `u32` indices lie in buffer 0.
pub fn gltf_json(mesh: &MeshData, buffer: &str) -> String {
    let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for v in &mesh.vertices {
        min = min.min(*v);
        max = max.max(*v);
    }
    let positions = mesh.vertices.len() * 12;
    let indices = mesh.indices.len() * 12;
    format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],"nodes":[{{"mesh":0}}],
"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":{},"type":"VEC3","min":[{},{},{}],"max":[{},{},{}]}},
{{"bufferView":1,"componentType":5125,"count":{},"type":"SCALAR"}}],
"bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":{positions}}},{{"buffer":0,"byteOffset":{positions},"byteLength":{indices}}}],
"buffers":[{{"byteLength":{}{buffer}}}]}}"#,
        mesh.vertices.len(),
        min.x,
        min.y,
        min.z,
        max.x,
        max.y,
        max.z,
        mesh.indices.len() * 3,
        positions + indices,
    )
}

/// Positions then `u32` indices, little endian: the buffer of [`gltf_json`].
pub fn gltf_buffer(mesh: &MeshData) -> Vec<u8> {
    let mut bin = Vec::new();
    for v in &mesh.vertices {
        for c in v.to_array() {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    for i in mesh.indices.iter().flatten() {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    bin
}

pub fn write_glb(mesh: &MeshData) -> Vec<u8> {
    glb(gltf_json(mesh, "").as_bytes(), &gltf_buffer(mesh))
}

/// A GLB file of a JSON chunk and a binary chunk, each padded to four bytes, with every
/// length right.
pub fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let mut json = json.to_vec();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut bin = bin.to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

pub fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (k, &b)| n | u32::from(b) << (16 - 8 * k));
        for k in 0..=chunk.len() {
            s.push(DIGITS[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    while !s.len().is_multiple_of(4) {
        s.push('=');
    }
    s
}

/// A small deterministic generator (xorshift64*), so the corruptions are the same each run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
