//! [`MeshInstances`] held to their definition (`instances.rs`, `audit_instance_shapes.rs`):
//! every triangle of every instance placed in the world, and the overlap queries asked of
//! each placed triangle.

use glam::Affine3A;
use raybox::{MeshInstances, MeshQuery, Overlaps, TriMesh, Triangle3};

/// Every instance's triangles placed in the world as the docs say (each vertex mapped by
/// the pose in `f64`, rounded once to `f32`; triangles degenerate in the mesh or after
/// placing left out), as `(instance, triangle, placed)`.
pub fn placed_triangles<'a>(
    instances: impl IntoIterator<Item = (&'a TriMesh, &'a Affine3A)>,
) -> Vec<(u32, u32, Triangle3)> {
    let mut out = Vec::new();
    for (i, (mesh, pose)) in instances.into_iter().enumerate() {
        let world = pose.as_daffine3();
        for (k, idx) in mesh.indices().iter().enumerate() {
            let local = idx.map(|v| mesh.vertices()[v as usize]);
            if Triangle3::try_new(local[0], local[1], local[2]).is_err() {
                continue;
            }
            let [a, b, c] = local.map(|v| world.transform_point3(v.as_dvec3()).as_vec3());
            if let Ok(t) = Triangle3::try_new(a, b, c) {
                out.push((i as u32, k as u32, t));
            }
        }
    }
    out
}

/// `overlapping_triangles`, `overlaps` and `overlapping_instances` against testing every
/// placed triangle; returns the overlapping `(instance, triangle)`s.
pub fn overlapping_as_defined<S>(
    built: &MeshInstances,
    placed: &[(u32, u32, Triangle3)],
    shape: &S,
) -> Vec<(u32, u32)>
where
    S: MeshQuery + Overlaps<Triangle3> + core::fmt::Debug,
{
    let want: Vec<(u32, u32)> = placed.iter().filter(|p| shape.overlaps(&p.2)).map(|p| (p.0, p.1)).collect();
    assert_eq!(built.overlapping_triangles(shape), want, "{shape:?}");
    assert_eq!(built.overlaps(shape), !want.is_empty(), "{shape:?}");
    let mut instances: Vec<u32> = want.iter().map(|p| p.0).collect();
    instances.dedup();
    assert_eq!(built.overlapping_instances(shape), instances, "{shape:?}");
    want
}
