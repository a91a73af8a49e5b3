//! Plain mesh data, its validation errors, and the embedded bunny.

use glam::Vec3;

/// Vertices and triangles, as loaded from a file or generated: the input of [`super::TriMesh::new`].
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeshData {
    /// Vertex positions.
    pub vertices: Vec<Vec3>,
    /// Triangles, as three indices into `vertices` each.
    pub indices: Vec<[u32; 3]>,
}

/// Why a [`super::TriMesh`] could not be built.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum MeshError {
    /// The mesh has no triangles.
    Empty,
    /// A vertex has a NaN or infinite coordinate.
    NonFiniteVertex {
        /// The vertex's index.
        vertex: usize,
    },
    /// A triangle refers to a vertex that does not exist.
    IndexOutOfRange {
        /// The triangle's index.
        triangle: usize,
        /// The index it holds.
        index: u32,
        /// The number of vertices.
        vertex_count: usize,
    },
    /// More triangles than a BVH can index (2^27).
    TooManyTriangles {
        /// How many were given.
        count: usize,
    },
}

impl core::fmt::Display for MeshError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Empty => write!(f, "the mesh has no triangles"),
            Self::NonFiniteVertex { vertex } => write!(f, "vertex {vertex} has a NaN or infinite coordinate"),
            Self::IndexOutOfRange { triangle, index, vertex_count } => write!(
                f,
                "triangle {triangle} refers to vertex {index}, but there are only {vertex_count} vertices"
            ),
            Self::TooManyTriangles { count } => {
                write!(f, "{count} triangles are more than a mesh can index ({})", crate::bvh::MAX_PRIMITIVES)
            }
        }
    }
}

impl std::error::Error for MeshError {}

/// The Stanford bunny (Stanford 3D Scanning Repository; Greg Turk and Marc Levoy, 1994),
/// low-resolution reconstruction: 1,839 vertices, 3,674 triangles, about 15.6 units long.
/// It is open at the bottom (not a closed mesh).
///
/// ```
/// let bunny = raybox::mesh::bunny();
/// assert_eq!(bunny.indices.len(), 3674);
/// ```
#[must_use]
pub fn bunny() -> MeshData {
    parse_simple_obj(include_str!("../../assets/bunny.obj"))
}

/// Reads the `v x y z` and `f a b c` lines of the embedded OBJ file (1-based indices).
fn parse_simple_obj(text: &str) -> MeshData {
    let mut data = MeshData::default();
    for line in text.lines() {
        let mut words = line.split_ascii_whitespace();
        match words.next() {
            Some("v") => {
                let c: Vec<f32> = words.filter_map(|w| w.parse().ok()).collect();
                data.vertices.push(Vec3::new(c[0], c[1], c[2]));
            }
            Some("f") => {
                let i: Vec<u32> = words.filter_map(|w| w.parse::<u32>().ok()).collect();
                data.indices.push([i[0] - 1, i[1] - 1, i[2] - 1]);
            }
            _ => {}
        }
    }
    data
}
