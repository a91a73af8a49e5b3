//! `TriMesh`: a triangle mesh with a BVH, for closest-hit and any-hit ray casts.
//!
//! The BVH's leaves hold up to 4 triangles, and the mesh keeps a copy of each triangle's
//! three vertices in leaf order (36 bytes each) so a leaf's triangles are read from one
//! place in memory. The triangle test is the watertight one of `query/ray/ray_triangle.rs`
//! (Woop, Benthin & Wald 2013), so no ray slips between two triangles that share an edge.

use core::mem::MaybeUninit;

use glam::{DVec3, Vec3};

use super::data::{MeshData, MeshError};
use crate::bvh::kernels::{
    BlockRay, NodeKernel, PreparedRay, STACK_CAPACITY, StackStorage, TriBlock4, intersect_block4, with_kernel,
};
use crate::bvh::traverse::{AnyWalk, ClosestWalk, Step};
use crate::bvh::{Bounds, box_distance_squared};
use crate::bvh::{BuildQuality, BvhStats, ChildRef, MAX_PRIMITIVES, PrimRef, Tree, prepare, traverse};
use crate::query::overlap::box_triangle_separated;
use crate::query::{WoopRay, ray_triangle_watertight};
use crate::{Aabb3, Ray3};

/// Meshes whose nodes and blocks take more than this are cast in batches with two rays in
/// flight per thread (`TriMesh::cast_chunk`); smaller ones, which stay in a core's L2
/// cache, one ray after the other. (The bunny, 0.27 MB, runs 5–15% slower interleaved; a
/// 1M-triangle terrain, 60 MB, 1.4–1.5x faster.)
const INTERLEAVE_ABOVE_BYTES: usize = 1 << 20;

/// Most triangles per BVH leaf.
const LEAF_SIZE: u32 = 4;

/// The closest hit of a ray on a [`TriMesh`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeshHit {
    /// The ray parameter of the hit.
    pub t: f32,
    /// The index of the triangle hit, in the mesh's `indices`.
    pub triangle: u32,
    /// Barycentric weight of the triangle's second vertex (`P = w v0 + u v1 + v v2`).
    pub u: f32,
    /// Barycentric weight of the triangle's third vertex.
    pub v: f32,
    /// The triangle's geometric unit normal, `(v1 - v0) × (v2 - v0)` normalised (its front side).
    pub normal: Vec3,
    /// `true` when the ray arrives from the front (`dir · normal < 0`).
    pub front_facing: bool,
    /// The point hit.
    pub point: Vec3,
}

/// A triangle mesh with a bounding volume hierarchy: fast closest-hit and any-hit ray casts.
///
/// Zero-area triangles are skipped (counted by [`TriMesh::degenerate_count`]); NaN
/// vertices and out-of-range indices are errors.
///
/// ```
/// use raybox::{Ray3, TriMesh, mesh};
/// use glam::Vec3;
///
/// let bunny = TriMesh::from_data(mesh::bunny()).unwrap();
/// let ray = Ray3::new(Vec3::new(0.0, 0.5, 20.0), Vec3::new(0.0, 0.0, -1.0));
/// let hit = bunny.cast_ray(&ray).expect("the bunny is in the way");
/// assert!(hit.t > 15.0 && hit.t < 20.0);
/// assert!(bunny.occluded(&ray));
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "TriMeshData"))]
pub struct TriMesh {
    vertices: Vec<Vec3>,
    indices: Vec<[u32; 3]>,
    /// The BVH; its leaves refer to `blocks` (each leaf is one block of 1 to 4 triangles).
    tree: Tree,
    /// The triangles, 4 to a block, in leaf order.
    blocks: Vec<TriBlock4>,
    degenerate: usize,
}

/// What a deserialised [`TriMesh`] is checked from before it is trusted: the BVH must only
/// refer to blocks that exist, and the blocks to triangles that exist.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct TriMeshData {
    vertices: Vec<Vec3>,
    indices: Vec<[u32; 3]>,
    tree: Tree,
    blocks: Vec<TriBlock4>,
    degenerate: usize,
}

#[cfg(feature = "serde")]
impl TryFrom<TriMeshData> for TriMesh {
    type Error = String;
    fn try_from(d: TriMeshData) -> Result<Self, String> {
        d.tree.check_structure(d.blocks.len())?;
        let ids_ok =
            d.blocks.iter().all(|b| b.ids.iter().all(|&i| i == u32::MAX || (i as usize) < d.indices.len()));
        let indices_ok = d.indices.iter().flatten().all(|&i| (i as usize) < d.vertices.len());
        if !ids_ok || !indices_ok || d.degenerate > d.indices.len() {
            return Err("mesh indices out of range".into());
        }
        Ok(Self {
            vertices: d.vertices,
            indices: d.indices,
            tree: d.tree,
            blocks: d.blocks,
            degenerate: d.degenerate,
        })
    }
}

impl TriMesh {
    /// Builds the mesh and its BVH with [`BuildQuality::Balanced`].
    ///
    /// # Errors
    /// [`MeshError`] for no triangles, a NaN or infinite vertex, an index out of range,
    /// or more than 2^27 triangles.
    pub fn new(vertices: Vec<Vec3>, indices: Vec<[u32; 3]>) -> Result<Self, MeshError> {
        Self::with_quality(vertices, indices, BuildQuality::Balanced)
    }

    /// [`TriMesh::new`] from a [`MeshData`].
    ///
    /// # Errors
    /// As [`TriMesh::new`].
    pub fn from_data(data: MeshData) -> Result<Self, MeshError> {
        Self::new(data.vertices, data.indices)
    }

    /// Builds the mesh and its BVH with the given build quality.
    ///
    /// # Errors
    /// As [`TriMesh::new`].
    pub fn with_quality(
        vertices: Vec<Vec3>,
        indices: Vec<[u32; 3]>,
        quality: BuildQuality,
    ) -> Result<Self, MeshError> {
        if indices.is_empty() {
            return Err(MeshError::Empty);
        }
        if indices.len() > MAX_PRIMITIVES {
            return Err(MeshError::TooManyTriangles { count: indices.len() });
        }
        if let Some(vertex) = vertices.iter().position(|v| !v.is_finite()) {
            return Err(MeshError::NonFiniteVertex { vertex });
        }
        let index_error = |triangle: usize| {
            let tri: [u32; 3] = indices[triangle];
            let index = tri.iter().copied().find(|&i| i as usize >= vertices.len()).unwrap_or(0);
            MeshError::IndexOutOfRange { triangle, index, vertex_count: vertices.len() }
        };
        if quality == BuildQuality::Fast {
            // The Morton builder checks the indices, leaves out zero-area triangles and writes
            // the blocks as it makes the leaves, with no per-triangle record in between.
            let built = Tree::build_fast_blocks(&vertices, &indices, |a, b, c| {
                geometric_normal(a, b, c) != DVec3::ZERO
            })
            .map_err(index_error)?;
            let (tree, blocks, degenerate) = (built.tree, built.blocks, built.left_out);
            return Ok(Self { vertices, indices, tree, blocks, degenerate });
        }
        // One pass: check the indices, leave out zero-area triangles, and make each other
        // triangle's build record (its box and its index).
        let mut prims = Vec::with_capacity(indices.len());
        for (triangle, tri) in indices.iter().enumerate() {
            let [a, b, c] = tri.map(|i| vertices.get(i as usize).copied());
            let (Some(a), Some(b), Some(c)) = (a, b, c) else { return Err(index_error(triangle)) };
            if geometric_normal(a, b, c) != DVec3::ZERO {
                prims.push(PrimRef::from_points(a.into(), b.into(), c.into(), triangle as u32));
            }
        }
        let valid = prims.len();
        let mut tree = Tree::build_refs(prims, quality, LEAF_SIZE, LEAF_SIZE)
            .map_err(|_| MeshError::TooManyTriangles { count: indices.len() })?;
        // Each leaf's triangles (the tree's order lists triangle indices) become one SIMD
        // block, written in node order; the leaf then refers to its block.
        let order = std::mem::take(&mut tree.order);
        let mut blocks = Vec::with_capacity(valid.div_ceil(3));
        let mut to_block = |r: ChildRef| {
            let (first, count) = r.leaf_range();
            let mut tris = [(0u32, [Vec3::ZERO; 3]); LEAF_SIZE as usize];
            for (slot, &t) in tris.iter_mut().zip(&order[first..first + count]) {
                *slot = (t, indices[t as usize].map(|i| vertices[i as usize]));
            }
            blocks.push(TriBlock4::new(&tris[..count]));
            ChildRef::leaf(blocks.len() as u32 - 1, 1)
        };
        if tree.root.is_leaf() && tree.root != ChildRef::EMPTY {
            tree.root = to_block(tree.root);
        }
        for node in &mut tree.nodes {
            for child in &mut node.children {
                if child.is_leaf() && *child != ChildRef::EMPTY {
                    *child = to_block(*child);
                }
            }
        }
        let degenerate = indices.len() - valid;
        Ok(Self { vertices, indices, tree, blocks, degenerate })
    }

    /// The vertices.
    #[must_use]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The triangles, as indices into [`TriMesh::vertices`].
    #[must_use]
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.indices
    }

    /// The number of triangles (including the degenerate ones, which are never hit).
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        self.indices.len()
    }

    /// The number of zero-area triangles the BVH leaves out.
    #[must_use]
    pub fn degenerate_count(&self) -> usize {
        self.degenerate
    }

    /// The box around every non-degenerate triangle (`None` if all are degenerate).
    #[must_use]
    pub fn bounds(&self) -> Option<Aabb3> {
        (!self.tree.is_empty())
            .then(|| Aabb3::new(Vec3::from(self.tree.root_min), Vec3::from(self.tree.root_max)))
    }

    /// The BVH's sizes and SAH cost.
    #[must_use]
    pub fn bvh_stats(&self) -> BvhStats {
        self.tree.stats
    }

    /// The closest triangle along the ray within `[t_min, t_max]`.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray3) -> Option<MeshHit> {
        with_kernel!(Kernel::detect(), |k| self.cast_with(k, ray))
    }

    /// Whether any triangle lies on the ray within `[t_min, t_max]` (a shadow or
    /// line-of-sight test: it stops at the first hit it finds).
    #[must_use]
    pub fn occluded(&self, ray: &Ray3) -> bool {
        with_kernel!(Kernel::detect(), |k| self.occluded_with(k, ray))
    }

    /// [`TriMesh::cast_ray`] for many rays, on all cores (with the `rayon` feature).
    ///
    /// To cast batch after batch without allocating, use [`TriMesh::cast_rays_into`].
    #[must_use]
    pub fn cast_rays(&self, rays: &[Ray3]) -> Vec<Option<MeshHit>> {
        let mut out = Vec::new();
        self.cast_rays_into(rays, &mut out);
        out
    }

    /// [`TriMesh::cast_rays`] into a vector the caller keeps: afterwards `out` holds ray
    /// `i`'s hit at index `i` (and nothing else). Reusing `out` from batch to batch saves the
    /// allocation and, above all, the first writes to fresh pages, which cost more than
    /// the ray casts on a small mesh (a million hits are 48 MB).
    ///
    /// ```
    /// use raybox::{Ray3, TriMesh, mesh};
    /// use glam::Vec3;
    ///
    /// let bunny = TriMesh::from_data(mesh::bunny()).unwrap();
    /// let rays = [Ray3::new(Vec3::new(0.0, 0.5, 20.0), Vec3::new(0.0, 0.0, -1.0)); 3];
    /// let mut hits = Vec::new();
    /// for _frame in 0..2 {
    ///     bunny.cast_rays_into(&rays, &mut hits);
    ///     assert_eq!(hits.len(), 3);
    ///     assert!(hits.iter().all(Option::is_some));
    /// }
    /// ```
    pub fn cast_rays_into(&self, rays: &[Ray3], out: &mut Vec<Option<MeshHit>>) {
        let chunk = |rays: &[Ray3], out: &mut [Option<MeshHit>]| {
            // Two rays in flight pay off once the walk waits on memory (1.5x on a 1M-triangle
            // terrain, one thread); on a mesh that fits the L2 cache the plain loop is faster.
            if self.footprint() > INTERLEAVE_ABOVE_BYTES {
                with_kernel!(Kernel::detect(), |k| self.cast_chunk::<_, 2>(k, rays, out));
            } else {
                with_kernel!(Kernel::detect(), |k| {
                    for (r, o) in rays.iter().zip(out) {
                        *o = self.cast_with(k, r);
                    }
                });
            }
        };
        in_chunks(rays, None, out, chunk);
    }

    /// [`TriMesh::occluded`] for many rays, on all cores (with the `rayon` feature).
    #[must_use]
    pub fn occluded_rays(&self, rays: &[Ray3]) -> Vec<bool> {
        let mut out = Vec::new();
        self.occluded_rays_into(rays, &mut out);
        out
    }

    /// [`TriMesh::occluded_rays`] into a vector the caller keeps (afterwards one answer per
    /// ray, in order), as [`TriMesh::cast_rays_into`].
    pub fn occluded_rays_into(&self, rays: &[Ray3], out: &mut Vec<bool>) {
        let chunk = |rays: &[Ray3], out: &mut [bool]| {
            // As in `cast_rays`: two rays in flight on meshes beyond the L2 cache.
            if self.footprint() > INTERLEAVE_ABOVE_BYTES {
                with_kernel!(Kernel::detect(), |k| self.occluded_chunk::<_, 2>(k, rays, out));
            } else {
                with_kernel!(Kernel::detect(), |k| {
                    for (r, o) in rays.iter().zip(out) {
                        *o = self.occluded_with(k, r);
                    }
                });
            }
        };
        in_chunks(rays, false, out, chunk);
    }

    /// Whether `point` is inside the volume a **closed** mesh bounds (on the surface counts
    /// as inside). Counts the surface crossings of three rays in fixed, unrelated
    /// directions and takes the majority of their parities, so one ray through an edge
    /// cannot decide it alone. For an open mesh the answer is not meaningful.
    #[must_use]
    pub fn contains_point(&self, point: Vec3) -> bool {
        const DIRECTIONS: [Vec3; 3] = [
            Vec3::new(0.577_215_7, 0.328_309_9, 0.751_879_7),
            Vec3::new(-0.414_213_6, 0.869_604_4, -0.267_949_2),
            Vec3::new(0.189_207_1, -0.632_120_6, 0.741_879_7),
        ];
        let mut odd = 0;
        for dir in DIRECTIONS {
            let ray = Ray3::new(point, dir);
            let mut crossings = 0usize;
            let mut on_surface = false;
            let woop = WoopRay::new(point, dir);
            let prepared = prepare(&ray);
            let mut leaf = |first: usize, count: usize, _t_max: f32| {
                for tri in self.triangles_of(first, count) {
                    if let Some((t, _, _)) = ray_triangle_watertight(&woop, tri, 0.0, f32::INFINITY) {
                        crossings += 1;
                        on_surface |= t == 0.0;
                    }
                }
                on_surface
            };
            with_kernel!(Kernel::detect(), |k| traverse::any_hit(
                k,
                &self.tree.nodes,
                self.tree.root,
                &prepared,
                f32::INFINITY,
                &mut leaf
            ));
            if on_surface {
                return true;
            }
            odd += crossings % 2;
        }
        odd >= 2
    }

    /// Whether any triangle of the mesh overlaps the closed box (exact 13-axis test per
    /// candidate triangle, Akenine-Möller 2001).
    #[must_use]
    pub fn overlaps_aabb(&self, aabb: &Aabb3) -> bool {
        if self.tree.is_empty() {
            return false;
        }
        let (min, max) = (aabb.min().as_dvec3(), aabb.max().as_dvec3());
        let (c, h) = ((min + max) * 0.5, (max - min) * 0.5);
        let q = crate::bvh::bounds_of_aabb(aabb);
        let found = core::cell::Cell::new(false);
        let mut test =
            |b: &Bounds| !found.get() && (0..3).all(|k| b.min[k] <= q.max[k] && q.min[k] <= b.max[k]);
        let mut leaf = |first: usize, count: usize| {
            let hit = self
                .triangles_of(first, count)
                .any(|tri| !box_triangle_separated(h, tri.map(|v| v.as_dvec3() - c)));
            found.set(found.get() || hit);
        };
        traverse::visit_boxes(
            &self.tree.nodes,
            self.tree.root,
            &self.tree.root_bounds(),
            &mut test,
            &mut leaf,
        );
        found.get()
    }

    /// The distance from `point` to the nearest triangle (`None` if there is none).
    #[must_use]
    pub fn distance_to_point(&self, point: Vec3) -> Option<f32> {
        if self.tree.is_empty() {
            return None;
        }
        let p = point.as_dvec3();
        let mut box_dist = |b: &Bounds| box_distance_squared(b, p.to_array()).sqrt() as f32;
        let mut leaf = |first: usize, count: usize, best: f32| {
            let d = self
                .triangles_of(first, count)
                .map(|tri| {
                    let q = crate::query::closest::closest_point_on_triangle(p, tri.map(Vec3::as_dvec3));
                    p.distance(q) as f32
                })
                .fold(f32::INFINITY, f32::min);
            (d < best).then_some(d)
        };
        let d = traverse::nearest(&self.tree.nodes, self.tree.root, &mut box_dist, &mut leaf);
        d.is_finite().then_some(d)
    }

    #[inline(always)]
    fn cast_with<K: NodeKernel>(&self, kernel: K, ray: &Ray3) -> Option<MeshHit> {
        // A ray that misses the mesh's box ends here, before the rest of the set-up (most
        // camera rays around a small object).
        let prepared = self.start(ray)?;
        let woop = self.block_ray(ray);
        let t_min = ray.t_min();
        let mut best = None;
        traverse::closest_hit(
            kernel,
            &self.tree.nodes,
            self.tree.root,
            &prepared,
            ray.t_max(),
            #[inline(always)]
            |first: usize, count: usize, t_max: f32| {
                self.leaf_closest(&woop, t_min, &mut best, first, count, t_max)
            },
        );
        let (block, lane, t, u, v) = best?;
        Some(self.hit(ray, block, lane, t, u, v))
    }

    /// [`TriMesh::cast_with`] for a run of rays, two in flight: their walks advance in
    /// turn, one step each, so that the CPU overlaps one ray's cache misses with the other
    /// ray's work (on meshes larger than the caches, a walk mostly waits for memory).
    #[inline(always)]
    fn cast_chunk<K: NodeKernel, const N: usize>(
        &self,
        kernel: K,
        rays: &[Ray3],
        out: &mut [Option<MeshHit>],
    ) {
        let root = self.tree.root;
        let nodes = &self.tree.nodes[..];
        let mut storage: [StackStorage<(ChildRef, f32)>; N] =
            [const { [const { MaybeUninit::uninit() }; STACK_CAPACITY] }; N];
        let mut walks = storage.each_mut().map(|s| ClosestWalk::new(s, root, 0.0));
        let mut lanes: [Option<InFlight>; N] = [const { None }; N];
        let mut next = 0;
        // The next ray that reaches the mesh's box goes into `lane`; the others get `None`.
        let mut refill =
            |lane: &mut Option<InFlight>, walk: &mut ClosestWalk<'_>, out: &mut [Option<MeshHit>]| {
                *lane = None;
                while next < rays.len() {
                    let (index, ray) = (next, &rays[next]);
                    next += 1;
                    match self.start(ray) {
                        Some(prepared) => {
                            walk.restart(root, ray.t_max());
                            *lane = Some(InFlight { index, prepared, woop: self.block_ray(ray), best: None });
                            return;
                        }
                        None => out[index] = None,
                    }
                }
            };
        for (lane, walk) in lanes.iter_mut().zip(&mut walks) {
            refill(lane, walk, out);
        }
        let mut active = lanes.iter().filter(|l| l.is_some()).count();
        while active > 0 {
            for (lane, walk) in lanes.iter_mut().zip(&mut walks) {
                let Some(l) = lane else { continue };
                let going = walk.step(
                    kernel,
                    nodes,
                    &l.prepared,
                    #[inline(always)]
                    |first: usize, count: usize, t_max: f32| {
                        self.leaf_closest(&l.woop, rays[l.index].t_min(), &mut l.best, first, count, t_max)
                    },
                );
                if !going {
                    out[l.index] =
                        l.best.map(|(b, lane, t, u, v)| self.hit(&rays[l.index], b, lane, t, u, v));
                    refill(lane, walk, out);
                    active -= usize::from(lane.is_none());
                }
            }
        }
    }

    /// [`TriMesh::occluded_with`] for a run of rays, `N` in flight (see `cast_chunk`).
    #[inline(always)]
    fn occluded_chunk<K: NodeKernel, const N: usize>(&self, kernel: K, rays: &[Ray3], out: &mut [bool]) {
        let root = self.tree.root;
        let nodes = &self.tree.nodes[..];
        let mut storage: [StackStorage<ChildRef>; N] =
            [const { [const { MaybeUninit::uninit() }; STACK_CAPACITY] }; N];
        let mut walks = storage.each_mut().map(|s| AnyWalk::new(s, root));
        // In flight: the ray's index, its set-up for the nodes and for the blocks.
        let mut lanes: [Option<(usize, PreparedRay, BlockRay)>; N] = [const { None }; N];
        let mut next = 0;
        let mut refill =
            |lane: &mut Option<(usize, PreparedRay, BlockRay)>, walk: &mut AnyWalk<'_>, out: &mut [bool]| {
                *lane = None;
                while next < rays.len() {
                    let (index, ray) = (next, &rays[next]);
                    next += 1;
                    match self.start(ray) {
                        Some(prepared) => {
                            walk.restart(root);
                            *lane = Some((index, prepared, self.block_ray(ray)));
                            return;
                        }
                        None => out[index] = false,
                    }
                }
            };
        for (lane, walk) in lanes.iter_mut().zip(&mut walks) {
            refill(lane, walk, out);
        }
        let mut active = lanes.iter().filter(|l| l.is_some()).count();
        while active > 0 {
            for (lane, walk) in lanes.iter_mut().zip(&mut walks) {
                let Some((index, prepared, woop)) = lane else { continue };
                let ray = &rays[*index];
                let t_min = ray.t_min();
                let step = walk.step(
                    kernel,
                    nodes,
                    prepared,
                    ray.t_max(),
                    #[inline(always)]
                    |first: usize, count: usize, t_max: f32| self.leaf_any(woop, t_min, first, count, t_max),
                );
                if step != Step::Going {
                    out[*index] = step == Step::Hit;
                    refill(lane, walk, out);
                    active -= usize::from(lane.is_none());
                }
            }
        }
    }

    /// The bytes the walks read: the nodes and the triangle blocks.
    fn footprint(&self) -> usize {
        self.tree.nodes.len() * core::mem::size_of::<crate::bvh::WideNode>()
            + self.blocks.len() * core::mem::size_of::<TriBlock4>()
    }

    /// The ray prepared for the walk, or `None` when it cannot reach the mesh's box.
    #[inline(always)]
    fn start(&self, ray: &Ray3) -> Option<PreparedRay> {
        if self.tree.root == ChildRef::EMPTY {
            return None;
        }
        let prepared = prepare(ray);
        prepared.may_enter(self.tree.root_min, self.tree.root_max, ray.t_max()).then_some(prepared)
    }

    #[inline(always)]
    fn block_ray(&self, ray: &Ray3) -> BlockRay {
        BlockRay::new(WoopRay::new(ray.origin(), ray.dir()))
    }

    /// The closest-hit leaf test: the blocks `first..first + count`, narrowing `t_max`;
    /// records the nearest hit in `best` and returns its `t`.
    #[inline(always)]
    fn leaf_closest(
        &self,
        woop: &BlockRay,
        t_min: f32,
        best: &mut Option<(usize, usize, f32, f32, f32)>,
        first: usize,
        count: usize,
        mut t_max: f32,
    ) -> Option<f32> {
        let mut found = None;
        for (b, block) in (first..).zip(&self.blocks[first..first + count]) {
            if let Some((lane, t, u, v)) = intersect_block4(woop, block, t_min, t_max) {
                t_max = t;
                found = Some(t);
                *best = Some((b, lane, t, u, v));
            }
        }
        found
    }

    #[inline(always)]
    fn occluded_with<K: NodeKernel>(&self, kernel: K, ray: &Ray3) -> bool {
        let Some(prepared) = self.start(ray) else { return false };
        let woop = self.block_ray(ray);
        let t_min = ray.t_min();
        traverse::any_hit(
            kernel,
            &self.tree.nodes,
            self.tree.root,
            &prepared,
            ray.t_max(),
            #[inline(always)]
            |first: usize, count: usize, t_max: f32| self.leaf_any(&woop, t_min, first, count, t_max),
        )
    }

    /// The any-hit leaf test: whether a block of `first..first + count` has a hit.
    #[inline(always)]
    fn leaf_any(&self, woop: &BlockRay, t_min: f32, first: usize, count: usize, t_max: f32) -> bool {
        self.blocks[first..first + count].iter().any(|b| intersect_block4(woop, b, t_min, t_max).is_some())
    }

    /// The triangles (not padding) of the blocks `first..first + count`.
    fn triangles_of(&self, first: usize, count: usize) -> impl Iterator<Item = [Vec3; 3]> + '_ {
        self.blocks[first..first + count].iter().flat_map(|b| b.lanes().map(|l| b.triangle(l)))
    }

    fn hit(&self, ray: &Ray3, block: usize, lane: usize, t: f32, u: f32, v: f32) -> MeshHit {
        let [a, b, c] = self.blocks[block].triangle(lane);
        let n = geometric_normal(a, b, c);
        let front_facing = n.dot(ray.dir().as_dvec3()) < 0.0;
        MeshHit {
            t,
            triangle: self.blocks[block].ids[lane],
            u,
            v,
            normal: n.normalize().as_vec3(),
            front_facing,
            point: ray.at(t),
        }
    }
}

/// A ray of [`TriMesh::cast_chunk`] on its way: its index, its set-up and its best hit.
struct InFlight {
    index: usize,
    prepared: PreparedRay,
    woop: BlockRay,
    best: Option<(usize, usize, f32, f32, f32)>,
}

/// Runs `chunk(rays, out)` over pieces of `rays` (on all cores with the `rayon` feature),
/// each writing its results into its own piece of `out` (one entry per ray; `chunk` must
/// write every entry of its piece): no per-chunk vectors and no serial concatenation at the end (which, for a million
/// 48-byte hits, was a single-threaded copy of 48 MB).
fn in_chunks<T: Send + Sync + Copy>(
    rays: &[Ray3],
    fill: T,
    out: &mut Vec<T>,
    chunk: impl Fn(&[Ray3], &mut [T]) + Sync + Send,
) {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        const CHUNK: usize = 1024;
        // Every entry is written by its chunk, so a reused vector of the right length
        // needs no fill; otherwise it is filled on all threads (first writes to fresh
        // pages are costly).
        if out.len() != rays.len() {
            out.clear();
            out.par_extend(rayon::iter::repeat_n(fill, rays.len()).with_min_len(CHUNK));
        }
        out.par_chunks_mut(CHUNK).zip(rays.par_chunks(CHUNK)).for_each(|(o, r)| chunk(r, o));
    }
    #[cfg(not(feature = "rayon"))]
    {
        out.clear();
        out.resize(rays.len(), fill);
        chunk(rays, out);
    }
}

/// `(b - a) × (c - a)` in `f64`.
fn geometric_normal(a: Vec3, b: Vec3, c: Vec3) -> DVec3 {
    let a = a.as_dvec3();
    (b.as_dvec3() - a).cross(c.as_dvec3() - a)
}
