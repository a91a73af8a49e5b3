//! raybox's mesh peers: parry3d's `TriMesh`, `obvhs`'s compressed wide BVH, `bvh`'s
//! binary BVH and, where the system has it, Embree 3 (through `embree-peer`), each built
//! over a [`MeshData`] and answering "the closest hit's `t`" through its documented API. Every value crosses as an array (parry does its math on glamx,
//! `bvh` on nalgebra 0.35); rays are converted once, before timing, into each library's
//! own ray type.
//!
//! | library | build | closest hit |
//! | --- | --- | --- |
//! | parry3d 0.31 | `TriMesh::new(vertices, indices)` | `cast_local_ray(&ray, inf, solid = true)` |
//! | obvhs 0.4 | `build_cwbvh_from_tris(.., BvhBuildParams::medium_build(), ..)`, triangles reordered by `primitive_indices` (as its `cornell_box_cwbvh` example) | `CwBvh::ray_traverse` with `Triangle::intersect` (Möller–Trumbore, two-sided) |
//! | bvh 0.13 | `Bvh::build_par` over one shape per triangle | `nearest_traverse_iterator` (leaves in order of entry), stopping once a leaf's box starts beyond the best hit; `Ray::intersects_triangle` on both windings (it culls back faces) |
//! | Embree 3.13 (the system's `libembree3.so.3`, opened at run time) | one triangle geometry, `RTC_BUILD_QUALITY_MEDIUM` (its default), default device | `rtcIntersect1` (incoherent context); the batch also tries `rtcIntersect16` on runs of 16 rays (coherent context); any hit is `rtcOccluded1`, and in the batch also `rtcOccluded16` |

use std::time::Duration;

use bvh::aabb::{Aabb, Bounded};
use bvh::bounding_hierarchy::{BHShape, BoundingHierarchy};
use nalgebra::{Point3, Vector3};
use parry3d::query::RayCast as _;
use raybox::{MeshData, Ray3};

pub use embree_peer::{Embree, Quality as EmbreeQuality};

/// A library that builds a BVH over a triangle mesh and casts closest-hit rays.
pub trait MeshPeer: Sized + Sync {
    /// The library's own ray, converted before timing.
    type Ray: Sync;
    /// The name in tables.
    const NAME: &'static str;
    /// Builds the library's structure over the mesh.
    fn build(data: &MeshData) -> Self;
    /// raybox's ray in the library's type.
    fn ray(ray: &Ray3) -> Self::Ray;
    /// The closest hit's `t` (in units of the direction, which the ray sets keep unit).
    fn cast(&self, ray: &Self::Ray) -> Option<f32>;
}

/// parry3d's `TriMesh`.
pub struct ParryMesh(parry3d::shape::TriMesh);

/// The mesh as parry3d's `TriMesh::new` takes it: its own vertices and indices.
#[must_use]
pub fn parry_inputs(data: &MeshData) -> (Vec<parry3d::math::Vector>, Vec<[u32; 3]>) {
    let vertices = data.vertices.iter().map(|v| parry3d::math::Vector::from_array(v.to_array())).collect();
    (vertices, data.indices.clone())
}

/// parry3d's `TriMesh::new` (what the build benchmarks time, the inputs made beforehand).
///
/// # Panics
/// If parry rejects the mesh.
#[must_use]
pub fn parry_trimesh(inputs: (Vec<parry3d::math::Vector>, Vec<[u32; 3]>)) -> parry3d::shape::TriMesh {
    parry3d::shape::TriMesh::new(inputs.0, inputs.1).expect("parry3d accepts the mesh")
}

impl MeshPeer for ParryMesh {
    type Ray = parry3d::query::Ray;
    const NAME: &'static str = "parry3d";

    fn build(data: &MeshData) -> Self {
        Self(parry_trimesh(parry_inputs(data)))
    }

    fn ray(ray: &Ray3) -> Self::Ray {
        parry3d::query::Ray::new(
            parry3d::math::Vector::from_array(ray.origin().to_array()),
            parry3d::math::Vector::from_array(ray.dir().to_array()),
        )
    }

    #[inline]
    fn cast(&self, ray: &Self::Ray) -> Option<f32> {
        self.0.cast_local_ray(ray, f32::INFINITY, true)
    }
}

/// obvhs's CWBVH with the triangles in leaf order.
pub struct ObvhsMesh {
    bvh: obvhs::cwbvh::CwBvh,
    /// `triangles[i]` is the triangle of the BVH's primitive `i`.
    triangles: Vec<obvhs::triangle::Triangle>,
}

fn vec3a(v: glam::Vec3) -> glam::Vec3A {
    glam::Vec3A::from_array(v.to_array())
}

impl MeshPeer for ObvhsMesh {
    type Ray = obvhs::ray::Ray;
    const NAME: &'static str = "obvhs";

    fn build(data: &MeshData) -> Self {
        let tris: Vec<obvhs::triangle::Triangle> = data
            .indices
            .iter()
            .map(|t| {
                let [v0, v1, v2] = t.map(|i| vec3a(data.vertices[i as usize]));
                obvhs::triangle::Triangle { v0, v1, v2 }
            })
            .collect();
        let bvh = obvhs::cwbvh::builder::build_cwbvh_from_tris(
            &tris,
            obvhs::BvhBuildParams::medium_build(),
            &mut Duration::default(),
        );
        let triangles = bvh.primitive_indices.iter().map(|&i| tris[i as usize]).collect();
        Self { bvh, triangles }
    }

    fn ray(ray: &Ray3) -> Self::Ray {
        obvhs::ray::Ray::new_inf(vec3a(ray.origin()), vec3a(ray.dir()))
    }

    #[inline]
    fn cast(&self, ray: &Self::Ray) -> Option<f32> {
        let mut hit = obvhs::ray::RayHit::none();
        self.bvh.ray_traverse(*ray, &mut hit, |r, id| self.triangles[id].intersect(r)).then_some(hit.t)
    }
}

/// One triangle as a `bvh` shape.
#[derive(Clone, Debug)]
pub struct BvhTriangle {
    a: Point3<f32>,
    b: Point3<f32>,
    c: Point3<f32>,
    node_index: usize,
}

impl Bounded<f32, 3> for BvhTriangle {
    fn aabb(&self) -> Aabb<f32, 3> {
        Aabb::with_bounds(self.a.inf(&self.b).inf(&self.c), self.a.sup(&self.b).sup(&self.c))
    }
}

impl BHShape<f32, 3> for BvhTriangle {
    fn set_bh_node_index(&mut self, index: usize) {
        self.node_index = index;
    }

    fn bh_node_index(&self) -> usize {
        self.node_index
    }
}

/// The `bvh` crate's BVH and its shapes.
pub struct BvhMesh {
    bvh: bvh::bvh::Bvh<f32, 3>,
    triangles: Vec<BvhTriangle>,
}

fn point3(v: glam::Vec3) -> Point3<f32> {
    Point3::from(v.to_array())
}

impl MeshPeer for BvhMesh {
    type Ray = bvh::ray::Ray<f32, 3>;
    const NAME: &'static str = "bvh";

    fn build(data: &MeshData) -> Self {
        let mut triangles: Vec<BvhTriangle> = data
            .indices
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| point3(data.vertices[i as usize]));
                BvhTriangle { a, b, c, node_index: 0 }
            })
            .collect();
        let bvh = bvh::bvh::Bvh::build_par(&mut triangles);
        Self { bvh, triangles }
    }

    fn ray(ray: &Ray3) -> Self::Ray {
        bvh::ray::Ray::new(point3(ray.origin()), Vector3::from(ray.dir().to_array()))
    }

    #[inline]
    fn cast(&self, ray: &Self::Ray) -> Option<f32> {
        let mut best = f32::INFINITY;
        for tri in self.bvh.nearest_traverse_iterator(ray, &self.triangles) {
            // Leaves come in order of where the ray enters their boxes: none after this
            // one can be closer than the best hit.
            if let Some((enter, _)) = ray.intersection_slice_for_aabb(&tri.aabb())
                && enter > best
            {
                break;
            }
            let front = ray.intersects_triangle(&tri.a, &tri.b, &tri.c).distance;
            let back = ray.intersects_triangle(&tri.a, &tri.c, &tri.b).distance;
            best = best.min(front).min(back);
        }
        best.is_finite().then_some(best)
    }
}

/// Embree 3's scene over the mesh (see [`embree_peer`]).
pub struct EmbreeMesh(embree_peer::Scene);

impl EmbreeMesh {
    /// Builds the mesh on `device` with `quality`.
    ///
    /// # Errors
    /// When Embree refuses the mesh.
    pub fn new(
        device: &embree_peer::Device,
        data: &MeshData,
        quality: EmbreeQuality,
    ) -> Result<Self, embree_peer::Error> {
        Self::from_arrays(device, &Self::vertices(data), &data.indices, quality)
    }

    /// The mesh's vertices as Embree takes them.
    #[must_use]
    pub fn vertices(data: &MeshData) -> Vec<[f32; 3]> {
        data.vertices.iter().map(|v| v.to_array()).collect()
    }

    /// Builds the mesh given as arrays (what the build timings time).
    ///
    /// # Errors
    /// When Embree refuses the mesh.
    pub fn from_arrays(
        device: &embree_peer::Device,
        vertices: &[[f32; 3]],
        indices: &[[u32; 3]],
        quality: EmbreeQuality,
    ) -> Result<Self, embree_peer::Error> {
        device.scene(vertices, indices, quality).map(Self)
    }

    /// Closest hits of a batch on all threads: `rtcIntersect16` on each run of 16 rays
    /// (Embree's packet path); returns how many rays hit.
    #[must_use]
    pub fn cast16_par(&self, rays: &[embree_peer::Ray]) -> usize {
        count16_par(rays, None, |chunk, out| self.0.intersect16(chunk, out), Option::is_some)
    }

    /// Occlusion of a batch on all threads: `rtcOccluded16` on each run of 16 rays; returns
    /// how many rays are occluded.
    #[must_use]
    pub fn occluded16_par(&self, rays: &[embree_peer::Ray]) -> usize {
        count16_par(rays, false, |chunk, out| self.0.occluded16(chunk, out), |&o| o)
    }

    /// Whether `ray` hits anything (`rtcOccluded1`).
    #[inline]
    #[must_use]
    pub fn occluded(&self, ray: &embree_peer::Ray) -> bool {
        self.0.occluded(ray)
    }
}

/// Runs `trace` on each run of 16 rays on all threads and counts the answers that are `yes`.
fn count16_par<T: Copy + Send + Sync>(
    rays: &[embree_peer::Ray],
    empty: T,
    trace: impl Fn(&[embree_peer::Ray], &mut [T]) + Sync,
    yes: impl Fn(&T) -> bool + Sync,
) -> usize {
    use rayon::prelude::*;
    rays.par_chunks(16)
        .map(|chunk| {
            let mut out = [empty; 16];
            trace(chunk, &mut out);
            out.iter().filter(|o| yes(o)).count()
        })
        .sum()
}

impl MeshPeer for EmbreeMesh {
    type Ray = embree_peer::Ray;
    const NAME: &'static str = "Embree";

    /// # Panics
    /// When Embree 3 is not installed (callers that may run without it use
    /// [`EmbreeMesh::new`]).
    fn build(data: &MeshData) -> Self {
        // SAFETY: Embree as `scripts/install-embree` installs it (Debian's build, default layout).
        let device = unsafe { Embree::load() }.and_then(|e| e.device("")).expect("Embree 3 is installed");
        Self::new(&device, data, EmbreeQuality::Medium).expect("Embree accepts the mesh")
    }

    fn ray(ray: &Ray3) -> Self::Ray {
        embree_peer::Ray {
            origin: ray.origin().to_array(),
            dir: ray.dir().to_array(),
            t_min: ray.t_min(),
            t_max: ray.t_max(),
        }
    }

    #[inline]
    fn cast(&self, ray: &Self::Ray) -> Option<f32> {
        self.0.intersect(ray).map(|h| h.t)
    }
}
