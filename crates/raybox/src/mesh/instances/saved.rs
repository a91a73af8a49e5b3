//! [`MeshInstances`] to and from bytes (feature `serde`): each shared mesh saved once, the
//! instances as a mesh number and a pose, and the top-level BVH (so that a set moved by
//! `set_poses` loads with the same tree). Reading it back checks everything before it is
//! trusted: mesh numbers in range, every pose finite and invertible (the same errors as
//! [`MeshInstances::new`]), and the BVH valid over the boxes recomputed from the poses.
//! Instances that shared a mesh share it again after loading.

use std::sync::Arc;

use glam::Affine3A;
use serde::{Deserialize, Serialize};

use super::{MeshInstances, Placement};
use crate::{Aabb3, Bvh, TriMesh};

/// One instance: which of the saved meshes, and where.
#[derive(Serialize, Deserialize)]
struct SavedInstance {
    mesh: u32,
    pose: Affine3A,
}

/// What is saved (borrowed from the set).
#[derive(Serialize)]
struct Saving<'a> {
    meshes: Vec<&'a TriMesh>,
    instances: Vec<SavedInstance>,
    bvh: &'a Bvh,
}

/// What is read back.
#[derive(Deserialize)]
struct Saved {
    meshes: Vec<TriMesh>,
    instances: Vec<SavedInstance>,
    bvh: Bvh,
}

impl Serialize for MeshInstances {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Each mesh once, in the order of first use; instances name it by number.
        let mut shared: Vec<&Arc<TriMesh>> = Vec::new();
        let mut instances = Vec::with_capacity(self.len());
        for (mesh, placement) in self.meshes.iter().zip(&self.placements) {
            let number = match shared.iter().position(|m| Arc::ptr_eq(m, mesh)) {
                Some(n) => n,
                None => {
                    shared.push(mesh);
                    shared.len() - 1
                }
            };
            instances.push(SavedInstance { mesh: number as u32, pose: placement.pose });
        }
        let meshes = shared.into_iter().map(|m| &**m).collect();
        Saving { meshes, instances, bvh: &self.bvh }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for MeshInstances {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let saved = Saved::deserialize(deserializer)?;
        let shared: Vec<Arc<TriMesh>> = saved.meshes.into_iter().map(Arc::new).collect();
        let (mut meshes, mut placements) = (Vec::new(), Vec::new());
        for (i, instance) in saved.instances.iter().enumerate() {
            let mesh = shared.get(instance.mesh as usize).ok_or_else(|| {
                D::Error::custom(format!(
                    "instance {i}: no mesh {} (there are {})",
                    instance.mesh,
                    shared.len()
                ))
            })?;
            placements.push(Placement::new(i, instance.pose).map_err(D::Error::custom)?);
            meshes.push(mesh.clone());
        }
        let boxes: Vec<Aabb3> = placements.iter().zip(&meshes).map(|(p, m)| p.world_box(m)).collect();
        saved.bvh.validate(&boxes).map_err(|e| D::Error::custom(format!("the instances' BVH: {e}")))?;
        Ok(Self { meshes, placements, boxes, bvh: saved.bvh })
    }
}
