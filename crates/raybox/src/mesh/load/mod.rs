//! Mesh file loaders: Wavefront OBJ, PLY, STL and glTF 2.0, each behind its cargo feature.
//!
//! Every loader returns one [`MeshData`]: vertex positions and triangles. Polygons with
//! more than three corners become triangle fans (`[0, 1, 2]`, `[0, 2, 3]`, ...), several
//! objects (OBJ groups, STL solids, glTF meshes and primitives) are merged into one mesh,
//! and everything else a file may hold (normals, colours, texture coordinates,
//! materials) is ignored. Every result is checked before it is returned: at least one
//! triangle, every index below the vertex count, every coordinate finite.
//!
//! Malformed files give a [`LoadMeshError`] that names the file (when loaded from a
//! path), the format, where in the file the problem is (a line or a byte offset) and what
//! it is. No input makes a loader panic.
//!
//! ```
//! use raybox::mesh::{self, MeshFormat};
//! use raybox::{Ray3, TriMesh};
//! use glam::Vec3;
//!
//! // A square made of two triangles, as an STL file would have it.
//! let stl = "solid square\n\
//!     facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\nendloop\nendfacet\n\
//!     facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\n\
//!     endsolid square\n";
//! let data = mesh::load_from_bytes(stl.as_bytes(), MeshFormat::Stl)?;
//! assert_eq!(data.vertices.len(), 4); // the diagonal's two corners are shared
//!
//! let square = TriMesh::from_data(data).unwrap();
//! let ray = Ray3::new(Vec3::new(0.5, 0.5, 1.0), Vec3::NEG_Z);
//! assert_eq!(square.cast_ray(&ray).unwrap().t, 1.0);
//! # Ok::<(), raybox::LoadMeshError>(())
//! ```

use core::fmt;
use std::path::{Path, PathBuf};

use glam::Vec3;

use super::MeshData;

#[cfg(feature = "gltf")]
mod gltf;
#[cfg(feature = "obj")]
mod obj;
#[cfg(feature = "ply")]
mod ply;
#[cfg(feature = "stl")]
mod stl;

/// A mesh file format that [`load_from_bytes`] can read.
///
/// ```
/// use raybox::mesh::MeshFormat;
///
/// assert_eq!(MeshFormat::from_extension("GLB"), Some(MeshFormat::Gltf));
/// assert_eq!(MeshFormat::Ply.feature(), "ply");
/// assert_eq!(MeshFormat::Gltf.to_string(), "glTF");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MeshFormat {
    /// Wavefront OBJ (`.obj`), text. Cargo feature `obj`.
    Obj,
    /// Stanford PLY (`.ply`), ASCII or binary of either byte order. Cargo feature `ply`.
    Ply,
    /// STL (`.stl`), ASCII or binary. Cargo feature `stl`.
    Stl,
    /// glTF 2.0, as JSON (`.gltf`) or binary (`.glb`); told apart by the bytes. Cargo feature `gltf`.
    Gltf,
}

impl MeshFormat {
    /// The format of a file extension (without the dot, any letter case): `obj`, `ply`,
    /// `stl`, `gltf` or `glb`. `None` for any other.
    ///
    /// ```
    /// use raybox::mesh::MeshFormat;
    ///
    /// assert_eq!(MeshFormat::from_extension("Obj"), Some(MeshFormat::Obj));
    /// assert_eq!(MeshFormat::from_extension("fbx"), None);
    /// ```
    #[must_use]
    pub fn from_extension(extension: &str) -> Option<Self> {
        let lower = extension.to_ascii_lowercase();
        match lower.as_str() {
            "obj" => Some(Self::Obj),
            "ply" => Some(Self::Ply),
            "stl" => Some(Self::Stl),
            "gltf" | "glb" => Some(Self::Gltf),
            _ => None,
        }
    }

    /// The cargo feature that enables this format's loader.
    ///
    /// ```
    /// use raybox::mesh::MeshFormat;
    ///
    /// assert_eq!(MeshFormat::Obj.feature(), "obj");
    /// ```
    #[must_use]
    pub fn feature(self) -> &'static str {
        match self {
            Self::Obj => "obj",
            Self::Ply => "ply",
            Self::Stl => "stl",
            Self::Gltf => "gltf",
        }
    }
}

impl fmt::Display for MeshFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Obj => "OBJ",
            Self::Ply => "PLY",
            Self::Stl => "STL",
            Self::Gltf => "glTF",
        })
    }
}

/// Where in a file a problem is.
///
/// ```
/// use raybox::mesh::Location;
///
/// assert_eq!(Location::Line(7).to_string(), "line 7");
/// assert_eq!(Location::Byte(84).to_string(), "byte 84");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Location {
    /// A line of a text file, counted from 1.
    Line(usize),
    /// A byte offset into a binary file, counted from 0.
    Byte(u64),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Line(line) => write!(f, "line {line}"),
            Self::Byte(byte) => write!(f, "byte {byte}"),
        }
    }
}

/// Why a mesh file could not be loaded.
///
/// The message names the file (for [`load`]), the format, where the problem is, and what
/// it is:
///
/// ```
/// use raybox::mesh::{LoadMeshError, MeshFormat, load_from_bytes};
///
/// let err = load_from_bytes(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", MeshFormat::Obj).unwrap_err();
/// assert!(matches!(err, LoadMeshError::IndexOutOfRange { index: 4, vertex_count: 3, .. }));
/// assert_eq!(err.to_string(), "OBJ, line 4: a face refers to vertex 4, but there are only 3 vertices");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadMeshError {
    /// The file (or a file it refers to, such as a glTF buffer) could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// [`load`] was given a path whose extension is not one of `obj`, `ply`, `stl`,
    /// `gltf`, `glb`.
    UnknownExtension {
        /// The file.
        path: PathBuf,
    },
    /// The format's loader was left out of this build: enable the cargo feature.
    FeatureDisabled {
        /// The format asked for.
        format: MeshFormat,
        /// The cargo feature that enables it.
        feature: &'static str,
    },
    /// The file is not a well-formed file of its format.
    Parse {
        /// The file, when loaded from a path.
        path: Option<PathBuf>,
        /// The format.
        format: MeshFormat,
        /// Where the problem is, when known.
        at: Option<Location>,
        /// What is wrong, in words.
        message: String,
        /// The underlying parser's error, for formats read through another crate.
        source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
    },
    /// The file is well formed but holds no triangle.
    NoTriangles {
        /// The file, when loaded from a path.
        path: Option<PathBuf>,
        /// The format.
        format: MeshFormat,
    },
    /// A face refers to a vertex that does not exist.
    IndexOutOfRange {
        /// The file, when loaded from a path.
        path: Option<PathBuf>,
        /// The format.
        format: MeshFormat,
        /// Where the face is, when known.
        at: Option<Location>,
        /// The index as the file writes it (1-based in OBJ, 0-based elsewhere).
        index: i64,
        /// The number of vertices there are.
        vertex_count: usize,
    },
    /// A vertex has a NaN or infinite coordinate.
    NonFinite {
        /// The file, when loaded from a path.
        path: Option<PathBuf>,
        /// The format.
        format: MeshFormat,
        /// The vertex's index in the loaded [`MeshData::vertices`].
        vertex: usize,
        /// Its coordinates.
        position: Vec3,
    },
}

impl LoadMeshError {
    /// A parse error with no underlying error.
    #[cfg_attr(
        not(any(feature = "obj", feature = "ply", feature = "stl", feature = "gltf")),
        allow(dead_code)
    )]
    pub(crate) fn parse(format: MeshFormat, at: Option<Location>, message: impl Into<String>) -> Self {
        Self::Parse { path: None, format, at, message: message.into(), source: None }
    }

    /// The same error, naming `file` as the file it is about.
    fn in_file(mut self, file: &Path) -> Self {
        match &mut self {
            Self::Parse { path, .. }
            | Self::NoTriangles { path, .. }
            | Self::IndexOutOfRange { path, .. }
            | Self::NonFinite { path, .. } => *path = Some(file.to_path_buf()),
            Self::Io { .. } | Self::UnknownExtension { .. } | Self::FeatureDisabled { .. } => {}
        }
        self
    }
}

/// Writes `"{path}: {format}, {at}: "`, leaving out what is unknown.
fn write_prefix(
    f: &mut fmt::Formatter<'_>,
    path: Option<&PathBuf>,
    format: MeshFormat,
    at: Option<&Location>,
) -> fmt::Result {
    if let Some(path) = path {
        write!(f, "{}: ", path.display())?;
    }
    write!(f, "{format}")?;
    if let Some(at) = at {
        write!(f, ", {at}")?;
    }
    f.write_str(": ")
}

impl fmt::Display for LoadMeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, source } => write!(f, "{}: cannot read the file: {source}", path.display()),
            Self::UnknownExtension { path } => write!(
                f,
                "{}: unknown mesh file extension (expected .obj, .ply, .stl, .gltf or .glb)",
                path.display()
            ),
            Self::FeatureDisabled { format, feature } => write!(
                f,
                "{format} files cannot be loaded: raybox was built without its `{feature}` cargo feature"
            ),
            Self::Parse { path, format, at, message, source } => {
                write_prefix(f, path.as_ref(), *format, at.as_ref())?;
                f.write_str(message)?;
                if let Some(source) = source {
                    write!(f, " ({source})")?;
                }
                Ok(())
            }
            Self::NoTriangles { path, format } => {
                write_prefix(f, path.as_ref(), *format, None)?;
                f.write_str("the file holds no triangle")
            }
            Self::IndexOutOfRange { path, format, at, index, vertex_count } => {
                write_prefix(f, path.as_ref(), *format, at.as_ref())?;
                write!(f, "a face refers to vertex {index}, but there are only {vertex_count} vertices")
            }
            Self::NonFinite { path, format, vertex, position } => {
                write_prefix(f, path.as_ref(), *format, None)?;
                write!(f, "vertex {vertex} has a NaN or infinite coordinate: {position}")
            }
        }
    }
}

impl std::error::Error for LoadMeshError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            Self::Parse { source: Some(source), .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

/// Loads a mesh file, choosing the format by the file's extension (`obj`, `ply`, `stl`,
/// `gltf`, `glb`, in any letter case). A glTF file's external buffers are read from paths
/// relative to the file's folder.
///
/// See [`load_from_bytes`] for what each format gives.
///
/// # Errors
///
/// [`LoadMeshError::UnknownExtension`] for another extension,
/// [`LoadMeshError::FeatureDisabled`] when the format's cargo feature is off,
/// [`LoadMeshError::Io`] when the file cannot be read, and the errors of
/// [`load_from_bytes`], each naming the file.
///
/// ```
/// use raybox::mesh::{LoadMeshError, load};
/// use std::path::Path;
///
/// let err = load(Path::new("scene.fbx")).unwrap_err();
/// assert!(matches!(err, LoadMeshError::UnknownExtension { .. }));
///
/// let path = std::env::temp_dir().join("raybox-doc-triangle.obj");
/// std::fs::write(&path, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
/// let mesh = load(&path).unwrap();
/// assert_eq!(mesh.indices, vec![[0, 1, 2]]);
/// ```
pub fn load(path: &Path) -> Result<MeshData, LoadMeshError> {
    let format = path
        .extension()
        .and_then(|e| e.to_str())
        .and_then(MeshFormat::from_extension)
        .ok_or_else(|| LoadMeshError::UnknownExtension { path: path.to_path_buf() })?;
    check_enabled(format)?;
    let bytes =
        std::fs::read(path).map_err(|source| LoadMeshError::Io { path: path.to_path_buf(), source })?;
    load_bytes(&bytes, format, path.parent()).map_err(|e| e.in_file(path))
}

/// Reads a mesh from the bytes of a file in the given format.
///
/// - **OBJ**: `v` and `f` lines (negative, relative indices too); objects and groups are
///   merged; lines and points are skipped. Vertices come in the order the faces first
///   use them, and vertices no face uses are dropped.
/// - **PLY**: ASCII, binary little endian and binary big endian; `x y z` of any numeric
///   type, in any order among other properties; faces from the list property
///   `vertex_indices` (or `vertex_index`); other elements are skipped, and so are faces
///   with fewer than three corners.
/// - **STL**: binary (told apart by its size, `84 + 50 × triangles` bytes) or ASCII;
///   vertices with the same coordinates are merged (bit for bit, `-0.0` with `+0.0`) so
///   that neighbouring triangles share their edge's vertices.
/// - **glTF**: `.glb` or `.gltf` with its buffers in the GLB chunk or in base64 `data:`
///   URIs (a buffer in another file needs [`load`]); the default scene's (or else the
///   first scene's) nodes with their transforms applied, or every mesh as it is when the
///   file has no scene; triangle lists, strips and fans; lines and points are skipped.
///
/// # Errors
///
/// [`LoadMeshError::FeatureDisabled`] when the format's cargo feature is off;
/// [`LoadMeshError::Parse`] for a malformed file; [`LoadMeshError::NoTriangles`],
/// [`LoadMeshError::IndexOutOfRange`] and [`LoadMeshError::NonFinite`] for a
/// well-formed file whose mesh is not usable.
///
/// ```
/// use raybox::mesh::{MeshFormat, load_from_bytes};
///
/// // A unit square, written as one quad: it comes back as a fan of two triangles.
/// let obj = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";
/// let mesh = load_from_bytes(obj.as_bytes(), MeshFormat::Obj).unwrap();
/// assert_eq!(mesh.vertices.len(), 4);
/// assert_eq!(mesh.indices, vec![[0, 1, 2], [0, 2, 3]]);
///
/// let ply = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n\
///            property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n\
///            0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
/// let mesh = load_from_bytes(ply.as_bytes(), MeshFormat::Ply).unwrap();
/// assert_eq!(mesh.indices, vec![[0, 1, 2]]);
///
/// let stl = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n\
///            vertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
/// let mesh = load_from_bytes(stl.as_bytes(), MeshFormat::Stl).unwrap();
/// assert_eq!(mesh.vertices[2], glam::Vec3::Y);
/// ```
pub fn load_from_bytes(bytes: &[u8], format: MeshFormat) -> Result<MeshData, LoadMeshError> {
    check_enabled(format)?;
    load_bytes(bytes, format, None)
}

/// `Err(FeatureDisabled)` when `format`'s loader is not compiled in.
fn check_enabled(format: MeshFormat) -> Result<(), LoadMeshError> {
    let enabled = match format {
        MeshFormat::Obj => cfg!(feature = "obj"),
        MeshFormat::Ply => cfg!(feature = "ply"),
        MeshFormat::Stl => cfg!(feature = "stl"),
        MeshFormat::Gltf => cfg!(feature = "gltf"),
    };
    if enabled { Ok(()) } else { Err(LoadMeshError::FeatureDisabled { format, feature: format.feature() }) }
}

/// Parses and checks; `folder` is where a glTF file's relative buffer paths start.
#[cfg_attr(not(feature = "gltf"), allow(unused_variables))]
fn load_bytes(bytes: &[u8], format: MeshFormat, folder: Option<&Path>) -> Result<MeshData, LoadMeshError> {
    let data = match format {
        #[cfg(feature = "obj")]
        MeshFormat::Obj => obj::read(bytes),
        #[cfg(feature = "ply")]
        MeshFormat::Ply => ply::read(bytes),
        #[cfg(feature = "stl")]
        MeshFormat::Stl => stl::read(bytes),
        #[cfg(feature = "gltf")]
        MeshFormat::Gltf => gltf::read(bytes, folder),
        #[allow(unreachable_patterns)] // with every feature on
        _ => Err(LoadMeshError::FeatureDisabled { format, feature: format.feature() }),
    };
    check(data?, format)
}

/// The checks every loader's result passes: triangles, indices in range, finite vertices.
fn check(data: MeshData, format: MeshFormat) -> Result<MeshData, LoadMeshError> {
    if data.indices.is_empty() {
        return Err(LoadMeshError::NoTriangles { path: None, format });
    }
    let vertex_count = data.vertices.len();
    if let Some(&index) = data.indices.iter().flatten().find(|&&i| i as usize >= vertex_count) {
        let index = i64::from(index) + i64::from(format == MeshFormat::Obj);
        return Err(LoadMeshError::IndexOutOfRange { path: None, format, at: None, index, vertex_count });
    }
    if let Some((vertex, &position)) = data.vertices.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(LoadMeshError::NonFinite { path: None, format, vertex, position });
    }
    Ok(data)
}

/// Appends the fan `[c0, c1, c2], [c0, c2, c3], ...` of a polygon's corners.
#[cfg_attr(not(any(feature = "ply", feature = "stl")), allow(dead_code))]
fn push_fan(indices: &mut Vec<[u32; 3]>, corners: &[u32]) {
    if let Some((&first, rest)) = corners.split_first() {
        for pair in rest.windows(2) {
            indices.push([first, pair[0], pair[1]]);
        }
    }
}
