//! Meshes for the subcommands: a file read by the library's loaders (`raybox::mesh::load`:
//! OBJ, PLY, STL, and glTF/GLB through the `gltf` feature, which this crate turns on), or
//! the embedded Stanford bunny for `@bunny`.
//!
//! Every error is one line naming the file; the loaders' messages already name the
//! format and the line or byte where the problem is.

use std::path::Path;
use std::time::{Duration, Instant};

use raybox::mesh::LoadMeshError;
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

/// Reads a mesh file with the library's loader, which chooses the format by the extension.
pub fn load(path: &Path) -> Result<MeshData, CliError> {
    raybox::mesh::load(path).map_err(|e| match e {
        // The command's own words for I/O failures, as for every other file it reads.
        LoadMeshError::Io { path: failed, source } if failed == path => CliError::reading(path, &source),
        // A glTF file's external buffer: name the buffer too.
        LoadMeshError::Io { path: failed, source } => CliError::in_file(
            path,
            format!("cannot read its buffer {}: {}", failed.display(), crate::error::io_reason(&source)),
        ),
        // The other messages start with the file's name already.
        other => CliError::new(other),
    })
}
