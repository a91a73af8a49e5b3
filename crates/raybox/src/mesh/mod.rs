//! Triangle meshes: [`TriMesh`] (vertices, indices and a BVH), the embedded Stanford
//! bunny, procedural scenes, and file loaders behind cargo features.

mod data;
mod instances;
pub mod load;
pub mod scene;
mod tri_mesh;

pub use data::{MeshData, MeshError, bunny};
pub use instances::{InstanceError, InstanceHit, InstanceSweepHit, MeshInstances};
pub use load::{LoadMeshError, Location, MeshFormat, load, load_from_bytes};
pub use tri_mesh::{FirstHit, MeshHit, MeshPairDistance, MeshQuery, MeshSweepHit, TriMesh};
