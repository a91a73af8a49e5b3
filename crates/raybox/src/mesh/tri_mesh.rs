//! `TriMesh`: a triangle mesh with a BVH, for closest-hit and any-hit ray casts.
//!
//! The BVH's leaves hold up to 4 triangles, and the mesh keeps a copy of each triangle's
//! three vertices in leaf order (36 bytes each) so a leaf's triangles are read from one
//! place in memory. The triangle test is the watertight one of `query/ray/ray_triangle.rs`
//! (Woop, Benthin & Wald 2013), so no ray slips between two triangles that share an edge.

use crate::arrays::Each;
use glam::{DVec3, Vec3};

use super::data::{MeshData, MeshError};
use crate::bvh::kernels::{
    BlockRay, Kernel, NodeKernel, PACKET, PacketBest, PacketKernel, PacketStart, PreparedRay, Started,
    TriBlock4, WIDE, intersect_block4, prefetch_bytes, with_kernel,
};
use crate::bvh::traverse::{AnyWalk, ClosestWalk, Step};
use crate::bvh::{Bounds, box_distance_squared};
use crate::bvh::{BuildQuality, BvhStats, ChildRef, MAX_PRIMITIVES, PrimRef, Tree, pages, prepare, traverse};
use crate::query::overlap::degenerate_triangle;
use crate::query::{WoopRay, ray_triangle_watertight_edges};
use crate::{Aabb3, Ray3};

mod pairs;
mod shapes;
pub use pairs::MeshPairDistance;
pub(crate) use pairs::PoseBoxes;
pub use shapes::{MeshQuery, MeshSweepHit};
pub(crate) use shapes::{Reach, vertex_bounds};

/// Meshes whose nodes and blocks take more than this are cast in batches with three rays in
/// flight per thread (`TriMesh::cast_chunk`), and their walks ask for the next node to pop
/// early; smaller ones, which stay in a core's L2 cache, one ray after the other. (The
/// bunny, 0.27 MB, ran 5–15% slower interleaved; a 1M-triangle terrain, 60 MB, 1.4–1.5x
/// faster with two in flight, 3–6% more with three.)
const INTERLEAVE_ABOVE_BYTES: usize = 1 << 20;

/// A packet's leaf reached by at most this many of its rays is tested ray by ray (4
/// triangles per vector) rather than triangle by triangle (8 or 16 rays per vector).
const SINGLES_AT_MOST: u32 = 3;

/// A packet whose rays came fewer than this many (times 4) to each leaf it visited, on
/// average, is a poor one ([`Sharing::poor`]). The 16-ray packets' break-even on row-major
/// camera rays, 1 thread: a 1M-triangle terrain at 1024 pixels wide (1.8 rays per leaf)
/// ran 1.3x faster as packets than one by one, at 512 wide (1.2 rays per leaf) 0.85x.
/// (Calibrated with leaves of one block; the SAH builds' leaves now hold up to two, so a
/// leaf shared by the same rays is worth a little more work; not re-measured.)
const POOR_RAYS_PER_LEAF_X4: u32 = 5;

/// The most groups of rays that the batch driver casts one by one after a poor packet
/// before it tries a packet again (see `in_packets`).
const MAX_BACKOFF: u32 = 16;

/// Triangles per SIMD block: the leaf test takes 4 triangles at a time.
const BLOCK: u32 = 4;

/// Most triangles per BVH leaf for the SAH builds (two blocks); the SAH, costing a leaf by
/// its blocks, decides between a leaf of 5 to 8 triangles and a split. Against leaves of at
/// most 4 (one block), both trees in one process, alternating (1 thread, `first_hit` loop /
/// batch): the 1M terrain 1.06x–1.09x / 1.14x–1.16x faster (84,751 nodes -> 54,999), the
/// dragon 1.01x–1.07x / 1.06x–1.07x, the bunny 0.97x–1.02x / 0.97x–1.08x (386 nodes, depth
/// 5 -> 247, depth 4).
/// `Fast` (`Tree::build_fast_blocks`) keeps leaves of one block: its Morton splits do not
/// weigh the choice.
const SAH_LEAF: u32 = 8;

/// The closest hit of a ray on a [`TriMesh`]. Of triangles hit at exactly the same `t` (a
/// ray through a shared edge or vertex), the one with the lowest index is reported, by
/// single and batch casts alike.
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

/// The closest hit of a ray on a [`TriMesh`], lean: the ray parameter, the triangle and
/// the barycentrics, which the ray cast finds anyway; [`TriMesh::first_hit`] returns it
/// and [`TriMesh::hit_details`] adds the normal, the facing and the point ([`MeshHit`]).
/// Of triangles hit at exactly the same `t`, the one with the lowest index, as in
/// [`MeshHit`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FirstHit {
    /// The ray parameter of the hit.
    pub t: f32,
    /// The index of the triangle hit, in the mesh's `indices`.
    pub triangle: u32,
    /// Barycentric weight of the triangle's second vertex (`P = w v0 + u v1 + v v2`).
    pub u: f32,
    /// Barycentric weight of the triangle's third vertex.
    pub v: f32,
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
    /// The BVH; its leaves refer to `blocks` (each leaf is one or two consecutive blocks of 1
    /// to 4 triangles; one with `Fast`).
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
        // Read into ordinary pages; the walks want the large arrays on huge ones (bvh/pages.rs).
        let mut tree = d.tree;
        tree.nodes = crate::bvh::finish_nodes(tree.nodes);
        Ok(Self {
            vertices: d.vertices,
            indices: d.indices,
            tree,
            blocks: pages::on_huge_pages(d.blocks),
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
            let built = Tree::build_fast_blocks(&vertices, &indices, |a, b, c| !degenerate_triangle(a, b, c))
                .map_err(index_error)?;
            let (tree, blocks, degenerate) = (built.tree, built.blocks, built.left_out);
            return Ok(Self { vertices, indices, tree, blocks, degenerate });
        }
        // One pass: check the indices, leave out zero-area triangles, and make each other
        // triangle's build record (its box and its index).
        let mut prims = Vec::with_capacity(indices.len());
        for (triangle, tri) in indices.iter().enumerate() {
            let [a, b, c] = tri.each(|i| vertices.get(i as usize).copied());
            let (Some(a), Some(b), Some(c)) = (a, b, c) else { return Err(index_error(triangle)) };
            if !degenerate_triangle(a, b, c) {
                prims.push(PrimRef::from_points(a.into(), b.into(), c.into(), triangle as u32));
            }
        }
        let valid = prims.len();
        // (`Fast` returned above, with leaves of one block.)
        let mut tree = Tree::build_refs(prims, quality, SAH_LEAF, BLOCK)
            .map_err(|_| MeshError::TooManyTriangles { count: indices.len() })?;
        // Each leaf's triangles (the tree's order lists triangle indices) become one or two
        // SIMD blocks, written in node order; the leaf then refers to its blocks.
        let order = std::mem::take(&mut tree.order);
        // The exact number of blocks, so the vector never grows (and moves off the pages
        // advised below).
        let leaves = tree.nodes.iter().flat_map(|n| n.children).chain([tree.root]);
        let block_count: usize = leaves
            .filter(|r| r.is_leaf() && *r != ChildRef::EMPTY)
            .map(|r| r.leaf_range().1.div_ceil(BLOCK as usize))
            .sum();
        let mut blocks = Vec::with_capacity(block_count);
        // Before the first write, so the blocks of a large mesh land on huge pages (bvh/pages.rs).
        pages::advise_huge_pages(&blocks);
        let mut to_block = |r: ChildRef| {
            let (first, count) = r.leaf_range();
            let start = blocks.len();
            for group in order[first..first + count].chunks(BLOCK as usize) {
                let mut tris = [(0u32, [Vec3::ZERO; 3]); BLOCK as usize];
                for (slot, &t) in tris.iter_mut().zip(group) {
                    *slot = (t, indices[t as usize].each(|i| vertices[i as usize]));
                }
                blocks.push(TriBlock4::new(&tris[..group.len()]));
            }
            ChildRef::leaf(start as u32, (blocks.len() - start) as u32)
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
        debug_assert_eq!(blocks.len(), blocks.capacity());
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

    /// The closest triangle along the ray within `[t_min, t_max]`, with its normal, the
    /// side the ray arrives from and the point hit. [`TriMesh::first_hit`] finds the same
    /// hit without these (a `f64` normalisation per hit): the faster call when only the
    /// distance or the triangle matters.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray3) -> Option<MeshHit> {
        with_kernel!(Kernel::detect(), |k| self.cast_with(k, ray))
    }

    /// The closest triangle along the ray within `[t_min, t_max]`: its parameter `t`,
    /// index and barycentrics, the same as [`TriMesh::cast_ray`]'s, bit for bit, without
    /// the normal, facing and point, which [`TriMesh::hit_details`] adds on demand.
    ///
    /// ```
    /// use raybox::{Ray3, TriMesh, mesh};
    /// use glam::Vec3;
    ///
    /// let bunny = TriMesh::from_data(mesh::bunny()).unwrap();
    /// let ray = Ray3::new(Vec3::new(0.0, 0.1, 20.0), Vec3::new(0.0, 0.0, -1.0));
    /// let hit = bunny.first_hit(&ray).expect("the ray meets the bunny");
    /// let full = bunny.cast_ray(&ray).unwrap();
    /// assert_eq!((hit.t, hit.triangle, hit.u, hit.v), (full.t, full.triangle, full.u, full.v));
    /// assert_eq!(bunny.hit_details(&ray, &hit), Some(full));
    /// ```
    #[must_use]
    pub fn first_hit(&self, ray: &Ray3) -> Option<FirstHit> {
        with_kernel!(Kernel::detect(), |k| self.first_with(k, ray))
    }

    /// The [`MeshHit`] of `hit` (from [`TriMesh::first_hit`] with the same `ray`): the
    /// normal, facing and point that [`TriMesh::cast_ray`] would report, bit for bit.
    /// `None` when `hit.triangle` is not a triangle of this mesh with a non-zero area.
    #[must_use]
    pub fn hit_details(&self, ray: &Ray3, hit: &FirstHit) -> Option<MeshHit> {
        let tri = self.indices.get(hit.triangle as usize)?;
        let [a, b, c] = tri.each(|i| self.vertices[i as usize]);
        Some(details(ray, [a, b, c], hit.triangle, hit.t, hit.u, hit.v)).filter(|h| h.normal.is_finite())
    }

    /// Whether any triangle lies on the ray within `[t_min, t_max]` (a shadow or
    /// line-of-sight test: it stops at the first hit it finds).
    #[must_use]
    pub fn occluded(&self, ray: &Ray3) -> bool {
        with_kernel!(Kernel::detect(), |k| self.occluded_with(k, ray))
    }

    /// [`TriMesh::cast_ray`] for many rays, on all cores (with the `rayon` feature), with
    /// the same answers. Runs of 8 consecutive coherent rays (nearly parallel, from nearby
    /// origins: a camera's rays in image order, say), or of 16 on CPUs with AVX-512, are
    /// traced together as packets, which is faster than one by one; order the rays so that
    /// neighbours are coherent (a camera's 4x4 pixel tiles, say).
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
        in_chunks(rays, None, out, |rays: &[Ray3], out: &mut [Option<MeshHit>]| {
            self.cast_run(Kernel::detect(), rays, out);
        });
    }

    /// A batch's run of rays with `kernel`: packets where the rays are coherent (of the
    /// kernel's width, else of 8), the other rays one by one.
    fn cast_run(&self, kernel: Kernel, rays: &[Ray3], out: &mut [Option<MeshHit>]) {
        with_kernel!(kernel, |k| in_packets(
            k,
            rays,
            out,
            #[inline(always)]
            |rays: &[Ray3], out: &mut [Option<MeshHit>]| if rays.len() == WIDE {
                self.cast_packet::<_, WIDE>(k, rays, out)
            } else {
                self.cast_packet::<_, PACKET>(k, rays, out)
            },
            #[inline(always)]
            |rays: &[Ray3], out: &mut [Option<MeshHit>]| self.cast_singles(
                k,
                rays,
                out,
                #[inline(always)]
                |ray: &Ray3, (b, lane, t, u, v)| self.hit(ray, b, lane, t, u, v)
            ),
            #[inline(always)]
            |rays: &[Ray3], out: &mut [Option<MeshHit>]| answer_each(
                rays,
                out,
                #[inline(always)]
                |r| self.cast_with(k, r)
            ),
        ));
    }

    /// [`TriMesh::first_hit`] for many rays, on all cores (with the `rayon` feature), as
    /// [`TriMesh::cast_rays`] casts them (coherent runs of rays as packets), with the same
    /// hits as `cast_rays` without the normal, facing and point.
    #[must_use]
    pub fn first_hits(&self, rays: &[Ray3]) -> Vec<Option<FirstHit>> {
        let mut out = Vec::new();
        self.first_hits_into(rays, &mut out);
        out
    }

    /// [`TriMesh::first_hits`] into a vector the caller keeps (see
    /// [`TriMesh::cast_rays_into`]): afterwards `out` holds ray `i`'s hit at index `i`.
    ///
    /// ```
    /// use raybox::{Ray3, TriMesh, mesh};
    /// use glam::Vec3;
    ///
    /// let bunny = TriMesh::from_data(mesh::bunny()).unwrap();
    /// let rays: Vec<Ray3> =
    ///     (0..64).map(|i| Ray3::new(Vec3::new(i as f32 * 0.01 - 0.3, 0.1, 20.0), Vec3::NEG_Z)).collect();
    /// let mut hits = Vec::new();
    /// bunny.first_hits_into(&rays, &mut hits);
    /// for (ray, hit) in rays.iter().zip(&hits) {
    ///     assert_eq!(hit.map(|h| (h.t, h.triangle)), bunny.cast_ray(ray).map(|h| (h.t, h.triangle)));
    /// }
    /// ```
    pub fn first_hits_into(&self, rays: &[Ray3], out: &mut Vec<Option<FirstHit>>) {
        in_chunks(rays, None, out, |rays: &[Ray3], out: &mut [Option<FirstHit>]| {
            self.first_run(Kernel::detect(), rays, out);
        });
    }

    /// [`TriMesh::cast_run`] for [`FirstHit`]s.
    fn first_run(&self, kernel: Kernel, rays: &[Ray3], out: &mut [Option<FirstHit>]) {
        with_kernel!(kernel, |k| in_packets(
            k,
            rays,
            out,
            #[inline(always)]
            |rays: &[Ray3], out: &mut [Option<FirstHit>]| if rays.len() == WIDE {
                self.first_packet::<_, WIDE>(k, rays, out)
            } else {
                self.first_packet::<_, PACKET>(k, rays, out)
            },
            #[inline(always)]
            |rays: &[Ray3], out: &mut [Option<FirstHit>]| self.cast_singles(
                k,
                rays,
                out,
                #[inline(always)]
                |_: &Ray3, c| self.first(c)
            ),
            #[inline(always)]
            |rays: &[Ray3], out: &mut [Option<FirstHit>]| answer_each(
                rays,
                out,
                #[inline(always)]
                |r| self.first_with(k, r)
            ),
        ));
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
        in_chunks(rays, false, out, |rays: &[Ray3], out: &mut [bool]| {
            self.occluded_run(Kernel::detect(), rays, out);
        });
    }

    /// [`TriMesh::cast_run`] for any-hit queries.
    fn occluded_run(&self, kernel: Kernel, rays: &[Ray3], out: &mut [bool]) {
        with_kernel!(kernel, |k| in_packets(
            k,
            rays,
            out,
            #[inline(always)]
            |rays: &[Ray3], out: &mut [bool]| if rays.len() == WIDE {
                self.occluded_packet::<_, WIDE>(k, rays, out)
            } else {
                self.occluded_packet::<_, PACKET>(k, rays, out)
            },
            #[inline(always)]
            |rays: &[Ray3], out: &mut [bool]| self.occluded_singles(k, rays, out),
            #[inline(always)]
            |rays: &[Ray3], out: &mut [bool]| answer_each(
                rays,
                out,
                #[inline(always)]
                |r| self.occluded_with(k, r)
            ),
        ));
    }

    /// Whether `point` is inside the volume a **closed** mesh bounds (on the surface counts
    /// as inside). Counts the surface crossings of rays in fixed, unrelated directions and
    /// takes the majority of three rays' parities. A ray that meets a triangle exactly on an
    /// edge or a vertex (which the neighbouring triangles hold too, so the crossing counts
    /// twice or more) has no vote: the next direction stands in for it. For an open mesh the
    /// answer is not meaningful.
    #[must_use]
    pub fn contains_point(&self, point: Vec3) -> bool {
        const DIRECTIONS: [Vec3; 9] = [
            Vec3::new(0.577_215_7, 0.328_309_9, 0.751_879_7),
            Vec3::new(-0.414_213_6, 0.869_604_4, -0.267_949_2),
            Vec3::new(0.189_207_1, -0.632_120_6, 0.741_879_7),
            Vec3::new(-0.711_325_4, -0.305_117_3, -0.635_103_2),
            Vec3::new(0.267_261_2, 0.534_522_5, -0.801_783_7),
            Vec3::new(-0.113_143_9, -0.936_586_1, -0.331_662_5),
            Vec3::new(0.853_553_4, -0.146_446_6, 0.5),
            Vec3::new(-0.639_602_1, 0.426_401_4, 0.639_602_1),
            Vec3::new(0.371_390_7, -0.557_086, -0.742_781_4),
        ];
        if self.tree.root == ChildRef::EMPTY {
            return false; // every triangle degenerate: no volume (and no tree to walk)
        }
        // The rays' parities: those that met no edge (votes), and all (a last resort).
        let (mut votes, mut odd) = (0, 0);
        let (mut all, mut all_odd) = (0, 0);
        for dir in DIRECTIONS {
            let ray = Ray3::new(point, dir);
            let mut crossings = 0usize;
            let (mut on_surface, mut on_edge) = (false, false);
            let woop = WoopRay::new(point, dir);
            let prepared = prepare(&ray, &self.tree);
            let mut leaf = |first: usize, count: usize, _t_max: f32| {
                for tri in self.triangles_of(first, count) {
                    if let Some((t, _, _, edge)) =
                        ray_triangle_watertight_edges(&woop, tri, 0.0, f32::INFINITY)
                    {
                        crossings += 1;
                        on_surface |= t == 0.0;
                        on_edge |= edge;
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
                self.footprint() > INTERLEAVE_ABOVE_BYTES,
                &mut leaf
            ));
            if on_surface {
                return true;
            }
            (all, all_odd) = (all + 1, all_odd + crossings % 2);
            if !on_edge {
                (votes, odd) = (votes + 1, odd + crossings % 2);
                if votes == 3 {
                    break;
                }
            }
        }
        // Nine directions that all meet an edge: take every ray's parity.
        if votes == 0 { 2 * all_odd > all } else { 2 * odd > votes }
    }

    /// Whether any triangle of the mesh overlaps the closed box (exact 13-axis test per
    /// candidate triangle, Akenine-Möller 2001).
    #[must_use]
    pub fn overlaps_aabb(&self, aabb: &Aabb3) -> bool {
        self.overlaps(aabb)
    }

    /// The distance from `point` to the nearest triangle (`None` if there is none; `inf`
    /// when it is past `f32::MAX`, as [`ClosestPoint::distance_to_point`](crate::ClosestPoint)
    /// rounds it).
    #[must_use]
    pub fn distance_to_point(&self, point: Vec3) -> Option<f32> {
        if self.tree.is_empty() {
            return None;
        }
        let p = point.as_dvec3();
        let mut box_dist = |b: &Bounds| box_distance_squared(b, p.to_array()).sqrt() as f32;
        // Whether a leaf was reached: a distance past `f32::MAX` rounds to `inf`, which is
        // still the distance to a triangle (the tree is not empty, so the walk reaches one:
        // no box is farther than `inf`).
        let mut reached = false;
        let mut leaf = |first: usize, count: usize, best: f32| {
            reached = true;
            let d = self
                .triangles_of(first, count)
                .map(|tri| {
                    let q = crate::query::closest::closest_point_on_triangle(p, tri.each(Vec3::as_dvec3));
                    p.distance(q) as f32
                })
                .fold(f32::INFINITY, f32::min);
            (d < best).then_some(d)
        };
        let d = traverse::nearest(&self.tree.nodes, self.tree.root, f32::INFINITY, &mut box_dist, &mut leaf);
        reached.then_some(d)
    }

    #[inline(always)]
    fn cast_with<K: NodeKernel>(&self, kernel: K, ray: &Ray3) -> Option<MeshHit> {
        let (block, lane, t, u, v) = self.closest_with(kernel, ray)?;
        Some(self.hit(ray, block, lane, t, u, v))
    }

    #[inline(always)]
    fn first_with<K: NodeKernel>(&self, kernel: K, ray: &Ray3) -> Option<FirstHit> {
        self.closest_with(kernel, ray).map(|c| self.first(c))
    }

    #[inline(always)]
    fn first(&self, (block, lane, t, u, v): Closest) -> FirstHit {
        FirstHit { t, triangle: self.blocks[block].ids[lane & 3], u, v }
    }

    /// The closest hit as `(block, lane, t, u, v)`.
    #[inline(always)]
    fn closest_with<K: NodeKernel>(&self, kernel: K, ray: &Ray3) -> Option<Closest> {
        let prepared = self.prepare_walk(ray)?;
        // The triangle test's set-up waits for the first leaf (a ray may reach none).
        let mut woop = None;
        let t_min = ray.t_min();
        let mut best = None;
        traverse::closest_hit(
            kernel,
            &self.tree.nodes,
            self.tree.root,
            &prepared,
            ray.t_max(),
            self.footprint() > INTERLEAVE_ABOVE_BYTES,
            #[inline(always)]
            |first: usize, count: usize, t_max: f32| {
                let woop = woop.get_or_insert_with(|| Self::block_ray(kernel, ray));
                self.leaf_closest(kernel, woop, t_min, &mut best, first, count, t_max)
            },
        );
        best
    }

    /// Rays one by one: three in flight once the walk waits on memory (1.5x on a
    /// 1M-triangle terrain, one thread, with two; three gained 3–6% more on the terrain's
    /// and the dragon's scattered rays once the walk's step lost its branches, 2026-11-23);
    /// on a mesh that fits the L2 cache a plain loop.
    #[inline(always)]
    fn cast_singles<K: NodeKernel, T>(
        &self,
        kernel: K,
        rays: &[Ray3],
        out: &mut [Option<T>],
        finish: impl Fn(&Ray3, Closest) -> T,
    ) {
        if self.footprint() > INTERLEAVE_ABOVE_BYTES {
            self.cast_chunk::<_, _, 3>(kernel, rays, out, finish);
        } else {
            answer_each(
                rays,
                out,
                #[inline(always)]
                |r| self.closest_with(kernel, r).map(|c| finish(r, c)),
            );
        }
    }

    /// [`TriMesh::cast_singles`] for any-hit queries.
    #[inline(always)]
    fn occluded_singles<K: NodeKernel>(&self, kernel: K, rays: &[Ray3], out: &mut [bool]) {
        if self.footprint() > INTERLEAVE_ABOVE_BYTES {
            self.occluded_chunk::<_, 3>(kernel, rays, out);
        } else {
            answer_each(
                rays,
                out,
                #[inline(always)]
                |r| self.occluded_with(kernel, r),
            );
        }
    }

    /// Traces `rays` (`N` of them) as one packet if they are coherent: the same
    /// direction signs, directions within about 3 degrees of each other, origins within 1%
    /// of the mesh's size (camera rays, for instance) and the same `WoopRay` axes. Returns
    /// each ray's closest hit (or with `any_hit`, some hit), the single casts' bit for bit,
    /// or `None` when the rays are not coherent (a packet of scattered rays would visit the
    /// union of their paths); with the hits, how many leaves the packet visited and how
    /// many of its rays tested them (the batch driver's measure of the packet's gain).
    /// Rays whose direction signs and origins pass (the first checks) and that all miss the
    /// mesh's box by the packet test of that box are [`Traced::Outside`] as soon as their
    /// extremes are known, with no other set-up, whatever their spread of directions.
    #[inline(always)]
    fn trace_packet<K: PacketKernel<N>, const N: usize>(
        &self,
        kernel: K,
        rays: &[Ray3],
        any_hit: bool,
    ) -> Option<Traced<N>> {
        let rays: &[Ray3; N] = rays.try_into().ok()?;
        // Origins within 1% of the mesh's size of each other, directions within about 3
        // degrees, the same direction signs and `WoopRay` axes.
        let (lo, hi) = (self.tree.root_min, self.tree.root_max);
        let size = (Vec3::from(hi) - Vec3::from(lo)).max_element();
        let bounds = [lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]];
        let PacketStart { packet, woop, t_max } = match kernel.packet_start(rays, 0.01 * size, bounds) {
            Started::Packet(start) => start,
            Started::Outside => return Some(Traced::Outside),
            Started::Incoherent => return None,
        };
        let t_min = woop.t_min;
        let mut best = PacketBest::new(t_max);
        let mut sharing = Sharing::default();
        if self.tree.root == ChildRef::EMPTY {
            return Some(Traced::Walked(best, sharing));
        }
        let who = kernel.rays_in_bounds(&packet, self.tree.root_min, self.tree.root_max, &t_max);
        if who != 0 {
            traverse::closest_hit_packet(
                kernel,
                &self.tree.nodes,
                self.tree.root,
                &packet,
                who,
                &mut best,
                #[inline(always)]
                |first: usize, count: usize, who: u32, best: &mut PacketBest<N>| {
                    sharing.leaves += 1;
                    sharing.leaf_rays += who.count_ones();
                    let blocks = (first..).zip(&self.blocks[first..first + count]);
                    if who.count_ones() <= SINGLES_AT_MOST {
                        // Few rays reach this leaf (fine geometry): each tests the block
                        // alone, 4 triangles per vector, rather than `N` rays per triangle.
                        let mut bits = who;
                        while bits != 0 {
                            let i = bits.trailing_zeros() as usize % N;
                            let ray = BlockRay::of_packet(&woop, i);
                            for (b, block) in blocks.clone() {
                                if let Some((lane, t, u, v)) =
                                    intersect_block4(&ray, block, t_min[i], best.t[i])
                                {
                                    best.offer(i, (t, u, v), block.ids[lane], b as u32, lane);
                                }
                            }
                            bits &= bits - 1;
                        }
                    } else {
                        for (b, block) in blocks {
                            kernel.packet_block(&woop, block, b as u32, who, best);
                        }
                    }
                    if any_hit {
                        // A ray with a hit is done: a reach of -inf drops it everywhere.
                        let mut done = who & best.found();
                        while done != 0 {
                            best.t[done.trailing_zeros() as usize % N] = f32::NEG_INFINITY;
                            done &= done - 1;
                        }
                    }
                },
            );
        }
        Some(Traced::Walked(best, sharing))
    }

    /// Closest hits of `rays` as one packet (see `trace_packet`), and how well its rays
    /// shared its leaves: `None`, having written nothing, when they are not coherent. The
    /// hits are those of [`TriMesh::cast_ray`].
    #[inline(always)]
    fn cast_packet<K: PacketKernel<N>, const N: usize>(
        &self,
        kernel: K,
        rays: &[Ray3],
        out: &mut [Option<MeshHit>],
    ) -> Option<Sharing> {
        let Traced::Walked(best, sharing) = self.trace_packet::<K, N>(kernel, rays, false)? else {
            out.fill(None);
            return Some(Sharing::default());
        };
        let hits = (0..N).fold(0u32, |m, i| m | u32::from(best.id[i] != u32::MAX) << i);
        if hits == 0 {
            out.fill(None);
            return Some(sharing);
        }
        // The hit triangles' vertices and the rays' directions lane by lane (a ray with no
        // hit takes the first hit's triangle: its lane is not read), for the normals of all
        // `N` at once, as `hit` makes them.
        let some = hits.trailing_zeros() as usize % N;
        let mut v = [[0.0f32; N]; 9];
        let mut dir = [[0.0f32; N]; 3];
        for i in 0..N {
            let j = if hits & (1 << i) != 0 { i } else { some };
            let (block, lane) = (&self.blocks[best.block[j] as usize], best.lane[j] as usize & 3);
            for (row, coords) in v.iter_mut().zip(&block.v) {
                row[i] = coords[lane];
            }
            let d = rays[i].dir();
            (dir[0][i], dir[1][i], dir[2][i]) = (d.x, d.y, d.z);
        }
        let (normals, front) = kernel.packet_normals(&v, &dir);
        for (i, o) in out.iter_mut().enumerate().take(N) {
            *o = (hits & (1 << i) != 0).then(|| MeshHit {
                t: best.t[i],
                triangle: self.blocks[best.block[i] as usize].ids[best.lane[i] as usize & 3],
                u: best.u[i],
                v: best.v[i],
                normal: Vec3::new(normals[0][i], normals[1][i], normals[2][i]),
                front_facing: front & (1 << i) != 0,
                point: rays[i].at(best.t[i]),
            });
        }
        Some(sharing)
    }

    /// [`TriMesh::cast_packet`] for [`FirstHit`]s: the same hits, without the normals.
    #[inline(always)]
    fn first_packet<K: PacketKernel<N>, const N: usize>(
        &self,
        kernel: K,
        rays: &[Ray3],
        out: &mut [Option<FirstHit>],
    ) -> Option<Sharing> {
        let Traced::Walked(best, sharing) = self.trace_packet::<K, N>(kernel, rays, false)? else {
            out.fill(None);
            return Some(Sharing::default());
        };
        for (i, o) in out.iter_mut().enumerate().take(N) {
            *o = (best.id[i] != u32::MAX).then(|| FirstHit {
                t: best.t[i],
                triangle: best.id[i],
                u: best.u[i],
                v: best.v[i],
            });
        }
        Some(sharing)
    }

    /// [`TriMesh::cast_packet`] for any-hit queries: each ray stops at its first hit.
    #[inline(always)]
    fn occluded_packet<K: PacketKernel<N>, const N: usize>(
        &self,
        kernel: K,
        rays: &[Ray3],
        out: &mut [bool],
    ) -> Option<Sharing> {
        let Traced::Walked(best, sharing) = self.trace_packet::<K, N>(kernel, rays, true)? else {
            out.fill(false);
            return Some(Sharing::default());
        };
        for (i, o) in out.iter_mut().enumerate() {
            *o = best.id[i] != u32::MAX;
        }
        Some(sharing)
    }

    /// [`TriMesh::cast_with`] for a run of rays, `N` in flight: their walks advance in
    /// turn, one step each, so that the CPU overlaps one ray's cache misses with the others'
    /// work (on meshes larger than the caches, a walk mostly waits for memory).
    #[inline(always)]
    fn cast_chunk<K: NodeKernel, T, const N: usize>(
        &self,
        kernel: K,
        rays: &[Ray3],
        out: &mut [Option<T>],
        finish: impl Fn(&Ray3, Closest) -> T,
    ) {
        let root = self.tree.root;
        let nodes = &self.tree.nodes[..];
        // Not `Copy` (each holds its stack), and built once per chunk of rays.
        #[allow(clippy::disallowed_methods)]
        let mut walks: [ClosestWalk; N] = core::array::from_fn(|_| ClosestWalk::new(root, 0.0));
        let mut lanes: [Option<InFlight>; N] = [const { None }; N];
        let mut next = 0;
        // The next ray that reaches the mesh's box goes into `lane`; the others get `None`.
        let mut refill = |lane: &mut Option<InFlight>, walk: &mut ClosestWalk, out: &mut [Option<T>]| {
            *lane = None;
            while next < rays.len() {
                let (index, ray) = (next, &rays[next]);
                next += 1;
                // The answer's memory, a few rays ahead (see `answer_each`).
                prefetch_bytes(out.as_ptr().wrapping_add(index + ANSWER_AHEAD).cast(), 1);
                match self.start(ray) {
                    Some(prepared) => {
                        walk.restart(root, ray.t_max());
                        *lane = Some(InFlight {
                            index,
                            prepared,
                            woop: Self::block_ray(kernel, ray),
                            best: None,
                        });
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
                // Each ray's steps with the node test its set-up allows (`PreparedRay::fused`).
                macro_rules! step {
                    ($fused:literal) => {
                        walk.step::<K, $fused>(
                            kernel,
                            nodes,
                            &l.prepared,
                            #[inline(always)]
                            |first: usize, count: usize, t_max: f32| {
                                self.leaf_closest(
                                    kernel,
                                    &l.woop,
                                    rays[l.index].t_min(),
                                    &mut l.best,
                                    first,
                                    count,
                                    t_max,
                                )
                            },
                        )
                    };
                }
                let going = if l.prepared.fused { step!(true) } else { step!(false) };
                if !going {
                    out[l.index] = l.best.map(|c| finish(&rays[l.index], c));
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
        // Not `Copy` (each holds its stack), and built once per chunk of rays.
        #[allow(clippy::disallowed_methods)]
        let mut walks: [AnyWalk; N] = core::array::from_fn(|_| AnyWalk::new(root));
        // In flight: the ray's index, its set-up for the nodes and for the blocks.
        let mut lanes: [Option<(usize, PreparedRay, BlockRay)>; N] = [const { None }; N];
        let mut next = 0;
        let mut refill =
            |lane: &mut Option<(usize, PreparedRay, BlockRay)>, walk: &mut AnyWalk, out: &mut [bool]| {
                *lane = None;
                while next < rays.len() {
                    let (index, ray) = (next, &rays[next]);
                    next += 1;
                    // The answer's memory, a few rays ahead (see `answer_each`).
                    prefetch_bytes(out.as_ptr().wrapping_add(index + ANSWER_AHEAD).cast(), 1);
                    match self.start(ray) {
                        Some(prepared) => {
                            walk.restart(root);
                            *lane = Some((index, prepared, Self::block_ray(kernel, ray)));
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
                macro_rules! step {
                    ($fused:literal) => {
                        walk.step::<K, $fused>(
                            kernel,
                            nodes,
                            prepared,
                            ray.t_max(),
                            #[inline(always)]
                            |first: usize, count: usize, t_max: f32| {
                                self.leaf_any(kernel, woop, t_min, first, count, t_max)
                            },
                        )
                    };
                }
                let step = if prepared.fused { step!(true) } else { step!(false) };
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

    /// The ray prepared for a single ray's walk (`None` for an empty mesh), without the
    /// test of the mesh's box that [`TriMesh::start`] makes: the root node's test of its
    /// children answers for it. Where rays come from all around and inside the mesh,
    /// whether one enters the box is a coin toss for the branch predictor, and the box
    /// test only put a second such branch before the root node's. Measured in one binary
    /// switching between the two at run time (raybox over Embree, 1 thread): scattered
    /// rays 0.839x -> 0.930x (bunny), 0.894x -> 0.914x (terrain); camera rays, whose
    /// misses come in runs that the box test's branch predicted, lost 1–2% (bunny 1.062x
    /// -> 1.051x, terrain 0.998x -> 0.977x). (The box test with the fused arithmetic, a
    /// shorter chain before its branch, gained 1% on the scattered rays: not kept.)
    #[inline(always)]
    fn prepare_walk(&self, ray: &Ray3) -> Option<PreparedRay> {
        (self.tree.root != ChildRef::EMPTY).then(|| prepare(ray, &self.tree))
    }

    /// The ray prepared for the walk, or `None` when it cannot reach the mesh's box.
    #[inline(always)]
    fn start(&self, ray: &Ray3) -> Option<PreparedRay> {
        let prepared = self.prepare_walk(ray)?;
        prepared.may_enter(self.tree.root_min, self.tree.root_max, ray.t_max()).then_some(prepared)
    }

    #[inline(always)]
    fn block_ray<K: NodeKernel>(kernel: K, ray: &Ray3) -> BlockRay {
        kernel.block_ray(ray.origin(), ray.dir())
    }

    /// The closest-hit leaf test: the blocks `first..first + count`, narrowing `t_max`;
    /// records the nearest hit in `best` and returns its `t`. A leaf of two blocks (the
    /// SAH builds' leaves of 5 to 8 triangles) is one test of 8 lanes with the AVX kernels.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn leaf_closest<K: NodeKernel>(
        &self,
        kernel: K,
        woop: &BlockRay,
        t_min: f32,
        best: &mut Option<(usize, usize, f32, f32, f32)>,
        first: usize,
        count: usize,
        mut t_max: f32,
    ) -> Option<f32> {
        let blocks = &self.blocks[first..first + count];
        if let Ok(pair) = <&[TriBlock4; 2]>::try_from(blocks) {
            let (lane, t, u, v) = kernel.intersect_pair(woop, pair, t_min, t_max)?;
            let (b, lane) = (first + lane / 4, lane & 3);
            // As below: of hits at the same `t`, the lowest triangle index wins.
            if t < t_max || self.tie_wins(best.as_ref(), self.blocks[b].ids[lane]) {
                *best = Some((b, lane, t, u, v));
                return Some(t);
            }
            return None;
        }
        let mut found = None;
        for (b, block) in (first..).zip(blocks) {
            if let Some((lane, t, u, v)) = intersect_block4(woop, block, t_min, t_max) {
                // Of hits at the same `t` (a ray through a shared edge or vertex), the
                // lowest triangle index wins, whatever order the walk took (a packet visits
                // leaves in another order than a single cast; a block's lanes are in
                // index order and its nearest first lane wins).
                let wins = t < t_max || self.tie_wins(best.as_ref(), block.ids[lane]);
                if wins {
                    t_max = t;
                    found = Some(t);
                    *best = Some((b, lane, t, u, v));
                }
            }
        }
        found
    }

    /// Whether a hit on triangle `id` at exactly the best `t` so far replaces the best (the
    /// rare case of `leaf_closest`: kept out of line, where it costs the hot loop nothing).
    #[cold]
    #[inline(never)]
    fn tie_wins(&self, best: Option<&(usize, usize, f32, f32, f32)>, id: u32) -> bool {
        best.is_none_or(|&(b, lane, ..)| id < self.blocks[b].ids[lane])
    }

    #[inline(always)]
    fn occluded_with<K: NodeKernel>(&self, kernel: K, ray: &Ray3) -> bool {
        let Some(prepared) = self.prepare_walk(ray) else { return false };
        // As in `closest_with`: the triangle test's set-up waits for the first leaf.
        let mut woop = None;
        let t_min = ray.t_min();
        traverse::any_hit(
            kernel,
            &self.tree.nodes,
            self.tree.root,
            &prepared,
            ray.t_max(),
            self.footprint() > INTERLEAVE_ABOVE_BYTES,
            #[inline(always)]
            |first: usize, count: usize, t_max: f32| {
                let woop = woop.get_or_insert_with(|| Self::block_ray(kernel, ray));
                self.leaf_any(kernel, woop, t_min, first, count, t_max)
            },
        )
    }

    /// The any-hit leaf test: whether a block of `first..first + count` has a hit.
    #[inline(always)]
    fn leaf_any<K: NodeKernel>(
        &self,
        kernel: K,
        woop: &BlockRay,
        t_min: f32,
        first: usize,
        count: usize,
        t_max: f32,
    ) -> bool {
        let blocks = &self.blocks[first..first + count];
        if let Ok(pair) = <&[TriBlock4; 2]>::try_from(blocks) {
            return kernel.any_in_pair(woop, pair, t_min, t_max);
        }
        blocks.iter().any(|b| intersect_block4(woop, b, t_min, t_max).is_some())
    }

    /// The triangles (not padding) of the blocks `first..first + count`.
    fn triangles_of(&self, first: usize, count: usize) -> impl Iterator<Item = [Vec3; 3]> + '_ {
        self.blocks[first..first + count].iter().flat_map(|b| b.lanes().map(|l| b.triangle(l)))
    }

    fn hit(&self, ray: &Ray3, block: usize, lane: usize, t: f32, u: f32, v: f32) -> MeshHit {
        let block = &self.blocks[block];
        details(ray, block.triangle(lane), block.ids[lane], t, u, v)
    }
}

/// The [`MeshHit`] of a hit on the triangle `[a, b, c]` (index `triangle`).
fn details(ray: &Ray3, [a, b, c]: [Vec3; 3], triangle: u32, t: f32, u: f32, v: f32) -> MeshHit {
    let n = geometric_normal(a, b, c);
    let front_facing = n.dot(ray.dir().as_dvec3()) < 0.0;
    MeshHit { t, triangle, u, v, normal: n.normalize().as_vec3(), front_facing, point: ray.at(t) }
}

/// A closest hit as the walks find it: `(block, lane, t, u, v)`.
type Closest = (usize, usize, f32, f32, f32);

/// A ray of [`TriMesh::cast_chunk`] on its way: its index, its set-up and its best hit.
struct InFlight {
    index: usize,
    prepared: PreparedRay,
    woop: BlockRay,
    best: Option<(usize, usize, f32, f32, f32)>,
}

/// A packet's trace (`TriMesh::trace_packet`).
enum Traced<const N: usize> {
    /// No ray of the packet can reach the mesh's box: all miss.
    Outside,
    /// Each ray's closest hit (or some hit), and how well the rays shared the leaves.
    Walked(PacketBest<N>, Sharing),
}

/// How a packet went: how many leaves it visited, and how many of its rays tested them
/// in all. A packet pays off when its rays share their leaves (and so the nodes above):
/// a 4x4 tile of camera rays on the bunny brings about 11 rays to each leaf it visits;
/// a row of 16 pixels at 512 wide on a 1M-triangle terrain brings 1.2, and then the
/// packet walks the union of 16 single paths, slower than the rays one by one.
#[derive(Clone, Copy, Debug, Default)]
struct Sharing {
    leaves: u32,
    leaf_rays: u32,
}

impl Sharing {
    /// Whether the packet's rays shared too few of its leaves for it to pay off.
    #[inline(always)]
    fn poor(self) -> bool {
        self.leaf_rays * 4 < self.leaves * POOR_RAYS_PER_LEAF_X4
    }
}

/// How many rays ahead of the group it is at `in_packets` asks for the rays and their
/// answers' memory: a batch streams through both once (32 and 20-odd bytes a ray), and a
/// camera packet over a mesh in cache is short work (~270 ns for 16 rays on the bunny), so
/// without the hint each packet started by waiting for its rays. The bunny's 1024x1024
/// camera batch, 1 thread, over Embree's 16-ray packets, three sets of alternating runs in
/// one binary (a noisy hour): +9%, +1.6%, +4.3% (medians); the dragon's +2–8%; scattered
/// rays unchanged. By distance (5 runs each, alternating): none 1.102x Embree's packets, 32
/// rays ahead 1.155x, 64 1.178x, 128 1.179x.
const STREAM_AHEAD: usize = 64;

/// How many rays ahead of the one it casts a batch's plain loop asks for the memory of an
/// answer ([`answer_each`]).
const ANSWER_AHEAD: usize = 16;

/// `out[i] = cast(&rays[i])` for each ray, asking for `out[i + ANSWER_AHEAD]`'s cache line
/// as it goes. A batch's answers fill a vector larger than the caches, and the first store
/// to each of its lines waits for that line to be read in; stores leave the CPU in order,
/// so the walk's own stores (its stack) queue behind it. Asked for ahead, the line is there.
/// Measured on the bunny's scattered batch, 1 thread, over Embree's 16-ray packets
/// (2026-11-23, medians of alternating runs): with 262,144 rays 2.659x with plain stores,
/// 2.712x with the answers asked for ahead, 2.784x writing no answers at all; with 2^20
/// rays, in a run-time switch, 2.707x -> 2.772x (91.4 -> 89.2 ns a ray, against 87.7 for
/// a `first_hit` loop that only counts). The walks in flight on large meshes ask too, as
/// they take each ray: the dragon's and the terrain's scattered batches within 1%.
#[inline(always)]
fn answer_each<T>(rays: &[Ray3], out: &mut [T], mut cast: impl FnMut(&Ray3) -> T) {
    let ahead = out.as_ptr();
    for (i, (r, o)) in rays.iter().zip(out.iter_mut()).enumerate() {
        prefetch_bytes(ahead.wrapping_add(i + ANSWER_AHEAD).cast(), 1);
        *o = cast(r);
    }
}

/// A batch's run of rays: each group of `K::PACKET_WIDTH` rays that `packet` accepts
/// (coherent ones) is traced as a packet; a wide group ([`WIDE`]) that is not coherent is
/// tried as two groups of [`PACKET`]; the others go to `singles`, in runs. `packet` is
/// given [`WIDE`] or [`PACKET`] rays and traces them as a packet of that width, returning
/// `None` (having written nothing) when they are not coherent.
///
/// Coherent rays still make poor packets when they diverge before the leaves (rows of
/// camera pixels on a finely tessellated mesh): after a packet whose rays shared few of
/// its leaves ([`Sharing::poor`]), the next groups go to `in_order` unasked, 1, 2, 4, ...
/// of them after each poor packet in a row, up to `MAX_BACKOFF`, and a good packet ends
/// the back-off (the exponential back-off of a probe: the cost of a poor probe stays a
/// small part of the rays, and a batch whose rays come together again, nearer the camera
/// say, finds out within a few groups). Groups that make no packet at all (scattered rays)
/// back off the same way once two come in a row, their rays left to `singles` in runs
/// unasked (asking costs the AVX-512 kernel three tries per 16 rays, as 16 and as two 8).
/// Under callgrind (AVX2, 1 thread) that takes 2.1% of the instructions off the bunny's
/// scattered batch and adds 0.3% to its camera batch (tile rows along a sign change);
/// timed, a 1-thread batch of the bunny's scattered rays went from 0.93x–0.95x the speed of
/// a plain `first_hit` loop to 1.01x–1.05x. A single group without a packet among packets
/// (a camera tile across a sign change) starts nothing: backing off after each such group
/// sent coherent tiles to single casts, +6 to +10 instructions a camera ray.
///
/// `in_order` casts rays one by one in a plain loop, not several in flight as `singles` may:
/// these rays are coherent, each reads mostly the nodes and leaves its predecessor has
/// just brought into the cache, and there are few misses for the interleave to overlap
/// (row-major camera rays on a 1M-triangle terrain, 1 thread: 4.07 Mrays/s in order,
/// 3.45 interleaved).
#[inline(always)]
fn in_packets<K: NodeKernel, T>(
    _kernel: K,
    rays: &[Ray3],
    out: &mut [T],
    mut packet: impl FnMut(&[Ray3], &mut [T]) -> Option<Sharing>,
    mut singles: impl FnMut(&[Ray3], &mut [T]),
    mut in_order: impl FnMut(&[Ray3], &mut [T]),
) {
    let mut pending = 0;
    let mut start = 0;
    // Groups still to cast in order, and the back-off after the last poor packet.
    let (mut skip, mut backoff) = (0u32, 0u32);
    // Groups still to leave to `singles` unasked, and the back-off after the last group
    // that made no packet at all.
    let (mut pass, mut idle, mut streak) = (0u32, 0u32, false);
    while K::PACKETS && start + PACKET <= rays.len() {
        let wide = K::PACKET_WIDTH == WIDE && start + WIDE <= rays.len();
        if pass > 0 {
            pass -= 1;
            start += if wide { WIDE } else { PACKET };
            continue;
        }
        if start + STREAM_AHEAD < rays.len() {
            // The rays and the answers a few packets ahead (see `STREAM_AHEAD`).
            let n = rays.len().min(start + STREAM_AHEAD + WIDE) - (start + STREAM_AHEAD);
            prefetch_bytes(rays[start + STREAM_AHEAD..].as_ptr().cast(), n * size_of::<Ray3>());
            prefetch_bytes(out[start + STREAM_AHEAD..].as_ptr().cast(), n * size_of::<T>());
        }
        if skip > 0 {
            skip -= 1;
            let end = start + if wide { WIDE } else { PACKET };
            singles(&rays[pending..start], &mut out[pending..start]);
            in_order(&rays[start..end], &mut out[start..end]);
            (pending, start) = (end, end);
            continue;
        }
        let sharing = if wide
            && let Some(sharing) =
                traced(&mut packet, &mut singles, rays, out, start..start + WIDE, &mut pending)
        {
            start += WIDE;
            Some(sharing)
        } else {
            // A group of `PACKET` (or a wide group's halves).
            let mut sharing: Option<Sharing> = None;
            for _ in 0..if wide { WIDE / PACKET } else { 1 } {
                let group = start..start + PACKET;
                if let Some(s) = traced(&mut packet, &mut singles, rays, out, group, &mut pending) {
                    let all = sharing.unwrap_or_default();
                    sharing = Some(Sharing {
                        leaves: all.leaves + s.leaves,
                        leaf_rays: all.leaf_rays + s.leaf_rays,
                    });
                }
                start += PACKET;
            }
            sharing
        };
        match sharing {
            Some(s) if s.poor() => {
                backoff = (backoff * 2).clamp(1, MAX_BACKOFF);
                (skip, idle, streak) = (backoff, 0, false);
            }
            Some(_) => (backoff, idle, streak) = (0, 0, false),
            // A lone group without a packet is no sign (a camera tile across a change of
            // the directions' signs); two in a row start the back-off, and it goes on
            // doubling until a packet is made.
            None if streak => {
                idle = (idle * 2).clamp(1, MAX_BACKOFF);
                pass = idle;
            }
            None => streak = true,
        }
    }
    singles(&rays[pending..], &mut out[pending..]);
}

/// Traces the rays `group` as a packet if `packet` accepts them, having first sent the
/// rays `pending..` before them to `singles`; `pending` then moves past the group.
/// (A function, not a closure: `#[inline(always)]`, so that it is compiled into the
/// kernel's `#[target_feature]` entry point with the walk.)
#[inline(always)]
fn traced<T>(
    packet: &mut impl FnMut(&[Ray3], &mut [T]) -> Option<Sharing>,
    singles: &mut impl FnMut(&[Ray3], &mut [T]),
    rays: &[Ray3],
    out: &mut [T],
    group: core::ops::Range<usize>,
    pending: &mut usize,
) -> Option<Sharing> {
    let sharing = packet(&rays[group.clone()], &mut out[group.clone()])?;
    singles(&rays[*pending..group.start], &mut out[*pending..group.start]);
    *pending = group.end;
    Some(sharing)
}

/// Runs `chunk(rays, out)` over pieces of `rays` (on all cores with the `rayon` feature),
/// each writing its results into its own piece of `out` (one entry per ray; `chunk` must
/// write every entry of its piece): no per-chunk vectors and no serial concatenation at the end (which, for a million
/// 48-byte hits, was a single-threaded copy of 48 MB).
pub(crate) fn in_chunks<T: Send + Sync + Copy>(
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

/// `(b - a) × (c - a)` in `f64`, zero exactly when the points are collinear (`triangle_normal`).
fn geometric_normal(a: Vec3, b: Vec3, c: Vec3) -> DVec3 {
    crate::query::overlap::triangle_normal(a, b, c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::kernels::Kernel;
    use crate::mesh::scene::{self, Pcg32};
    use crate::query::ray_triangle_watertight;

    /// Whether every node's children orders (`WideNode::orders`) are made from its boxes:
    /// the walks would still be right with stale ones, only slower, so nothing else notices.
    fn orders_fresh(mesh: &TriMesh) -> bool {
        mesh.tree.nodes.iter().all(|n| {
            let mut fresh = *n;
            fresh.fill_orders();
            fresh.orders == n.orders
        })
    }

    /// The walks' answers do not depend on the nodes' children orders, only their speed:
    /// with every order reset to the identity (a valid, unhelpful one) each kernel finds the
    /// same closest hits (`t` and triangle: ties go to the lower index in any order) and the
    /// same any hits.
    #[test]
    fn answers_do_not_depend_on_the_children_orders() {
        let data = scene::terrain(60, 4);
        let mesh = TriMesh::new(data.vertices.clone(), data.indices.clone()).unwrap();
        let mut plain = mesh.clone();
        for node in &mut plain.tree.nodes {
            node.orders = [0x0123_4567; 8];
        }
        assert!(!orders_fresh(&plain));
        let (lo, hi) = data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(l, h), v| (l.min(*v), h.max(*v)));
        let (centre, extent) = ((lo + hi) * 0.5, (hi - lo).length());
        let mut rng = Pcg32::new(12);
        let rays: Vec<Ray3> = (0..4000)
            .map(|_| Ray3::new(centre + rng.unit_vector() * extent * 0.5 * rng.next_f32(), rng.unit_vector()))
            .collect();
        let mut hits = 0;
        for kernel in Kernel::all_supported() {
            for ray in &rays {
                let (a, b) = with_kernel!(kernel, |k| (mesh.first_with(k, ray), plain.first_with(k, ray)));
                assert_eq!(
                    a.map(|h| (h.t, h.triangle)),
                    b.map(|h| (h.t, h.triangle)),
                    "{}: {ray:?}",
                    kernel.name()
                );
                let (a, b) =
                    with_kernel!(kernel, |k| (mesh.occluded_with(k, ray), plain.occluded_with(k, ray)));
                assert_eq!(a, b, "{}: {ray:?}", kernel.name());
                hits += usize::from(a);
            }
        }
        assert!(hits > rays.len() / 4, "{hits}");
    }

    /// A mesh's tree, with its leaves of blocks, is the same at every scale where the
    /// coordinates are normal floats, at every quality: the unit test beside `Tree` checks
    /// the builders over boxes, this one the mesh's own paths (`Fast` makes its blocks as it
    /// builds, from the vertices' box).
    #[test]
    fn mesh_trees_are_the_same_at_every_scale() {
        let data = crate::mesh::bunny();
        for quality in [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High] {
            let base = TriMesh::with_quality(data.vertices.clone(), data.indices.clone(), quality).unwrap();
            for k in [-112, -100, -60, 60, 100, 120] {
                let s = 2f32.powi(k);
                let vertices = data.vertices.iter().map(|&v| v * s).collect();
                let mesh = TriMesh::with_quality(vertices, data.indices.clone(), quality).unwrap();
                mesh.tree.assert_scaled_copy_of(&base.tree, s, &format!("bunny {quality:?} 2^{k}"));
            }
        }
    }

    #[test]
    fn every_build_and_load_orders_the_nodes_children() {
        let data = scene::terrain(40, 3);
        for quality in [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High] {
            let mesh = TriMesh::with_quality(data.vertices.clone(), data.indices.clone(), quality).unwrap();
            assert!(mesh.tree.nodes.len() > 10);
            assert!(orders_fresh(&mesh), "{quality:?}");
            #[cfg(feature = "serde")]
            {
                let back: TriMesh = serde_json::from_str(&serde_json::to_string(&mesh).unwrap()).unwrap();
                assert!(orders_fresh(&back), "{quality:?}, loaded");
            }
        }
    }

    /// A pinhole camera looking at the centre of the mesh's bounds from direction `from`,
    /// `distance` times the bounds' diagonal away: `(eye, forward, right, up)` and the diagonal.
    fn camera_frame(data: &MeshData, from: Vec3, distance: f32) -> (Vec3, Vec3, Vec3, Vec3, f32) {
        let (lo, hi) = data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(l, h), v| (l.min(*v), h.max(*v)));
        let (centre, extent) = ((lo + hi) * 0.5, (hi - lo).length());
        let eye = centre + from.normalize() * extent * distance;
        let forward = (centre - eye).normalize();
        let right = forward.cross(Vec3::Y).normalize();
        (eye, forward, right, right.cross(forward), extent)
    }

    /// Camera rays at the mesh (rows of a pinhole image, in groups of `PACKET` along a row)
    /// with varied `t_min`/`t_max`, then groups aimed at one triangle's vertices and edge
    /// midpoints (rays through shared vertices and edges: ties between triangles).
    fn coherent_rays(data: &MeshData, rng: &mut Pcg32) -> Vec<Ray3> {
        let (eye, forward, right, up, extent) = camera_frame(data, Vec3::new(0.3, 0.6, 1.0), 1.2);
        let side = 128;
        let mut rays: Vec<Ray3> = (0..side * side)
            .map(|i| {
                let (x, y) = ((i % side) as f32 / side as f32 - 0.5, (i / side) as f32 / side as f32 - 0.5);
                let dir = forward + (right * x + up * y) * 0.8;
                match rng.next_u32() % 8 {
                    0 => Ray3::with_range(eye, dir, 0.0, extent * rng.range(0.8, 1.6)),
                    1 => Ray3::with_range(eye, dir, extent * rng.range(0.9, 1.3), f32::INFINITY),
                    _ => Ray3::new(eye, dir),
                }
            })
            .collect();
        for _ in 0..300 {
            let [a, b, c] = data.indices[(rng.next_u32() as usize) % data.indices.len()]
                .each(|i| data.vertices[i as usize]);
            let targets = [a, b, c, (a + b) * 0.5, (b + c) * 0.5, (c + a) * 0.5, (a + b + c) / 3.0, a];
            rays.extend(targets.each(|t| Ray3::new(eye, t - eye)));
        }
        rays
    }

    /// The brute-force closest hit with the mesh's tie rule: least `t`, then least index.
    fn brute(mesh: &TriMesh, ray: &Ray3) -> Option<(f32, u32)> {
        let woop = WoopRay::new(ray.origin(), ray.dir());
        let mut best: Option<(f32, u32)> = None;
        for (i, tri) in mesh.indices.iter().enumerate() {
            let v = tri.each(|k| mesh.vertices[k as usize]);
            if degenerate_triangle(v[0], v[1], v[2]) {
                continue;
            }
            if let Some((t, _, _)) = ray_triangle_watertight(&woop, v, ray.t_min(), ray.t_max())
                && best.is_none_or(|b| (t, i as u32) < b)
            {
                best = Some((t, i as u32));
            }
        }
        best
    }

    #[test]
    fn packets_find_the_single_casts_hits_bit_for_bit() {
        let mut rng = Pcg32::new(5);
        for (name, data) in [("bunny", crate::mesh::bunny()), ("terrain", scene::terrain(40, 3))] {
            let mesh = TriMesh::from_data(data.clone()).unwrap();
            let rays = coherent_rays(&data, &mut rng);
            let singles: Vec<Option<MeshHit>> = rays.iter().map(|r| mesh.cast_ray(r)).collect();
            for kernel in Kernel::all_supported() {
                let (mut packets, mut hits) = (0, 0);
                for (group, want) in rays.chunks_exact(PACKET).zip(singles.chunks_exact(PACKET)) {
                    let mut out = [None; PACKET];
                    if with_kernel!(kernel, |k| mesh.cast_packet::<_, PACKET>(k, group, &mut out)).is_some() {
                        packets += 1;
                        hits += out.iter().flatten().count();
                        assert_eq!(&out[..], want, "{name}, {}: a packet's hits differ", kernel.name());
                    }
                    let mut blocked = [false; PACKET];
                    if with_kernel!(kernel, |k| mesh.occluded_packet::<_, PACKET>(k, group, &mut blocked))
                        .is_some()
                    {
                        let alone: Vec<bool> = group.iter().map(|r| mesh.occluded(r)).collect();
                        assert_eq!(
                            &blocked[..],
                            &alone[..],
                            "{name}, {}: a packet's any-hits differ",
                            kernel.name()
                        );
                    }
                }
                let groups = rays.len() / PACKET;
                assert!(packets * 10 > groups * 9, "{name}: only {packets} of {groups} groups were packets");
                assert!(hits * 5 > rays.len(), "{name}: only {hits} hits");
            }
            // The batch call (packets where it can) gives the same answers...
            assert_eq!(mesh.cast_rays(&rays), singles, "{name}: batch");
            let occluded: Vec<bool> = rays.iter().map(|r| mesh.occluded(r)).collect();
            assert_eq!(mesh.occluded_rays(&rays), occluded, "{name}: any-hit batch");
            assert_eq!(
                occluded,
                singles.iter().map(Option::is_some).collect::<Vec<_>>(),
                "{name}: any vs closest"
            );
            // ... which are the brute-force ones, ties included (every 7th ray, and all the
            // rays aimed at vertices and edges).
            let aimed = rays.len() - 300 * PACKET;
            for (i, (ray, hit)) in rays.iter().zip(&singles).enumerate() {
                if i % 7 == 0 || i >= aimed {
                    assert_eq!(hit.map(|h| (h.t, h.triangle)), brute(&mesh, ray), "{name}: ray {i}");
                }
            }
        }
    }

    /// Camera rays in 4x4 pixel tiles (16 consecutive rays are a tile, as the benchmark
    /// camera emits them) over a view wider than the mesh, so that tiles at its silhouette
    /// have rays that miss its box; with varied `t_min`/`t_max` in some tiles; then tiles
    /// of rays aimed at one triangle's vertices and edge midpoints (ties between triangles).
    fn camera_tiles(data: &MeshData, rng: &mut Pcg32) -> Vec<Ray3> {
        let (eye, forward, right, up, extent) = camera_frame(data, Vec3::new(-0.4, 0.5, 1.0), 1.1);
        let side = 96;
        let mut rays = Vec::with_capacity(side * side + 200 * WIDE);
        for tile in 0..(side / 4) * (side / 4) {
            let (tx, ty) = (tile % (side / 4), tile / (side / 4));
            // Per tile: all rays plain, or ranges varied ray by ray, or one shared range.
            let kind = rng.next_u32() % 4;
            let shared = (extent * rng.range(0.5, 0.95), extent * rng.range(1.0, 1.6));
            for i in 0..WIDE {
                let (x, y) = (4 * tx + i % 4, 4 * ty + i / 4);
                let (x, y) = (x as f32 / side as f32 - 0.5, y as f32 / side as f32 - 0.5);
                let dir = forward + (right * x + up * y) * 0.9;
                rays.push(match (kind, rng.next_u32() % 3) {
                    (1, 0) => Ray3::with_range(eye, dir, 0.0, extent * rng.range(0.6, 1.6)),
                    (1, 1) => Ray3::with_range(eye, dir, extent * rng.range(0.8, 1.3), f32::INFINITY),
                    (2, _) => Ray3::with_range(eye, dir, shared.0, shared.1),
                    _ => Ray3::new(eye, dir),
                });
            }
        }
        for _ in 0..200 {
            let [a, b, c] = data.indices[(rng.next_u32() as usize) % data.indices.len()]
                .each(|i| data.vertices[i as usize]);
            let targets = [a, b, c, (a + b) * 0.5, (b + c) * 0.5, (c + a) * 0.5, (a + b + c) / 3.0, a];
            let near = targets.each(|t| t + (t - eye) * 1e-3);
            rays.extend(targets.iter().chain(&near).map(|&t| Ray3::new(eye, t - eye)));
        }
        rays
    }

    /// Packets of 16 rays give the single casts' answers bit for bit, closest and any hit,
    /// with every kernel (the AVX-512 kernel's own vector code; the others' with the
    /// references of `packet.rs`): whole tiles, tiles partly or wholly off the mesh's box
    /// (most of the latter end at the packet test of the box, `Traced::Outside`; the kernel
    /// test `every_kernel_starts_packets_as_the_reference` counts that path), tiles with ranges that
    /// end before or start after the mesh, tiles aimed at shared edges.
    #[test]
    fn wide_packets_find_the_single_casts_hits_bit_for_bit() {
        let mut rng = Pcg32::new(21);
        for (name, data) in [("bunny", crate::mesh::bunny()), ("terrain", scene::terrain(40, 3))] {
            let mesh = TriMesh::from_data(data.clone()).unwrap();
            let rays = camera_tiles(&data, &mut rng);
            let bounds = mesh.bounds().unwrap();
            let off_box = rays
                .chunks_exact(WIDE)
                .filter(|t| t.iter().all(|r| crate::RayCast::cast_ray(&bounds, r).is_none()))
                .count();
            assert!(off_box > 20, "{name}: {off_box} tiles off the mesh's box");
            let singles: Vec<Option<MeshHit>> = rays.iter().map(|r| mesh.cast_ray(r)).collect();
            let occluded: Vec<bool> = rays.iter().map(|r| mesh.occluded(r)).collect();
            assert_eq!(occluded, singles.iter().map(Option::is_some).collect::<Vec<_>>(), "{name}");
            for kernel in Kernel::all_supported() {
                let (mut packets, mut partial, mut hits) = (0, 0, 0);
                for (i, group) in rays.chunks_exact(WIDE).enumerate() {
                    let want = &singles[i * WIDE..(i + 1) * WIDE];
                    let mut out = [None; WIDE];
                    if with_kernel!(kernel, |k| mesh.cast_packet::<_, WIDE>(k, group, &mut out)).is_some() {
                        packets += 1;
                        let n = out.iter().flatten().count();
                        hits += n;
                        partial += usize::from(n > 0 && n < WIDE);
                        assert_eq!(&out[..], want, "{name}, {}: tile {i}'s hits differ", kernel.name());
                    } else {
                        assert_eq!(out, [None; WIDE], "nothing is written");
                    }
                    let mut blocked = [false; WIDE];
                    if with_kernel!(kernel, |k| mesh.occluded_packet::<_, WIDE>(k, group, &mut blocked))
                        .is_some()
                    {
                        let alone = &occluded[i * WIDE..(i + 1) * WIDE];
                        assert_eq!(
                            &blocked[..],
                            alone,
                            "{name}, {}: tile {i}'s any-hits differ",
                            kernel.name()
                        );
                    }
                }
                let tiles = rays.len() / WIDE;
                assert!(packets * 10 > tiles * 9, "{name}: only {packets} of {tiles} tiles were packets");
                assert!(hits * 4 > rays.len() && partial > 20, "{name}: {hits} hits, {partial} partial");
            }
        }
    }

    /// The batch driver with each kernel (16-ray packets with AVX-512, falling back to
    /// halves of 8 and to single rays): the single casts' answers, on runs that start
    /// anywhere in a tile and on tiles whose halves are not coherent together.
    #[test]
    fn batch_runs_give_the_single_casts_answers_with_every_kernel() {
        let mut rng = Pcg32::new(22);
        for (name, data) in [("bunny", crate::mesh::bunny()), ("terrain", scene::terrain(40, 3))] {
            let mesh = TriMesh::from_data(data.clone()).unwrap();
            let mut rays = camera_tiles(&data, &mut rng);
            // Every 5th tile's second half turned away (a tile that is two 8-ray packets).
            for tile in rays.chunks_exact_mut(WIDE).step_by(5) {
                for r in &mut tile[PACKET..] {
                    *r = Ray3::with_range(r.origin(), -r.dir(), r.t_min(), r.t_max());
                }
            }
            let singles: Vec<Option<MeshHit>> = rays.iter().map(|r| mesh.cast_ray(r)).collect();
            let occluded: Vec<bool> = singles.iter().map(Option::is_some).collect();
            for kernel in Kernel::all_supported() {
                for skip in [0, 3, 8, 13] {
                    let (rays, singles, occluded) = (&rays[skip..], &singles[skip..], &occluded[skip..]);
                    let mut out = vec![None; rays.len()];
                    mesh.cast_run(kernel, rays, &mut out);
                    assert_eq!(out, singles, "{name}, {}, from {skip}: closest hits", kernel.name());
                    let mut firsts = vec![None; rays.len()];
                    mesh.first_run(kernel, rays, &mut firsts);
                    let lean: Vec<_> =
                        singles.iter().map(|h| h.map(|h| (h.t, h.triangle, h.u, h.v))).collect();
                    let got: Vec<_> = firsts.iter().map(|h| h.map(|h| (h.t, h.triangle, h.u, h.v))).collect();
                    assert_eq!(got, lean, "{name}, {}, from {skip}: first hits", kernel.name());
                    let mut blocked = vec![true; rays.len()];
                    mesh.occluded_run(kernel, rays, &mut blocked);
                    assert_eq!(blocked, occluded, "{name}, {}, from {skip}: any hits", kernel.name());
                }
            }
        }
    }

    /// The width of a kernel's packets in a batch, or `None` if it makes none.
    fn packet_width<K: NodeKernel>(_: K) -> Option<usize> {
        K::PACKETS.then_some(K::PACKET_WIDTH)
    }

    /// A pinhole camera's rays, `width` x `height` pixels row after row (as most callers
    /// make them), over a view wider than the mesh; every 9th ray has a range that ends
    /// before or starts within the mesh.
    fn camera_rows(data: &MeshData, width: usize, height: usize, rng: &mut Pcg32) -> Vec<Ray3> {
        let (eye, forward, right, up, extent) = camera_frame(data, Vec3::new(0.3, 0.6, 1.0), 1.2);
        (0..width * height)
            .map(|i| {
                let (x, y) =
                    ((i % width) as f32 / width as f32 - 0.5, (i / width) as f32 / height as f32 - 0.5);
                let dir = forward + (right * x + up * y) * 0.9;
                match (i % 9, rng.next_u32() % 2) {
                    (0, 0) => Ray3::with_range(eye, dir, 0.0, extent * rng.range(0.8, 1.4)),
                    (0, _) => Ray3::with_range(eye, dir, extent * rng.range(0.9, 1.3), f32::INFINITY),
                    _ => Ray3::new(eye, dir),
                }
            })
            .collect()
    }

    /// The batch driver's back-off: row-major camera rays on a finely tessellated terrain
    /// make coherent packets whose rays share few leaves, so that the driver casts many of
    /// the following groups one by one (in order), while on the bunny it keeps to packets;
    /// either way every kernel gives the single casts' answers, closest, first and any hit.
    #[test]
    fn row_major_batches_back_off_to_single_rays_with_the_same_answers() {
        let mut rng = Pcg32::new(23);
        for (name, data, backs_off) in
            [("bunny", crate::mesh::bunny(), false), ("fine terrain", scene::terrain(300, 4), true)]
        {
            let mesh = TriMesh::from_data(data.clone()).unwrap();
            let rays = camera_rows(&data, 160, 80, &mut rng);
            let singles: Vec<Option<MeshHit>> = rays.iter().map(|r| mesh.cast_ray(r)).collect();
            let occluded: Vec<bool> = singles.iter().map(Option::is_some).collect();
            assert!(occluded.iter().filter(|&&b| b).count() * 8 > rays.len(), "{name}: too few hits");
            for kernel in Kernel::all_supported() {
                // The batch calls' own drivers, on runs as `in_chunks` cuts them...
                for run in [1024, 997] {
                    let mut out = vec![None; rays.len()];
                    let mut firsts = vec![None; rays.len()];
                    let mut blocked = vec![true; rays.len()];
                    for (i, rays) in rays.chunks(run).enumerate() {
                        let at = i * run..i * run + rays.len();
                        mesh.cast_run(kernel, rays, &mut out[at.clone()]);
                        mesh.first_run(kernel, rays, &mut firsts[at.clone()]);
                        mesh.occluded_run(kernel, rays, &mut blocked[at]);
                    }
                    assert_eq!(out, singles, "{name}, {}, runs of {run}: closest hits", kernel.name());
                    let lean: Vec<_> =
                        singles.iter().map(|h| h.map(|h| (h.t, h.triangle, h.u, h.v))).collect();
                    let got: Vec<_> = firsts.iter().map(|h| h.map(|h| (h.t, h.triangle, h.u, h.v))).collect();
                    assert_eq!(got, lean, "{name}, {}, runs of {run}: first hits", kernel.name());
                    assert_eq!(blocked, occluded, "{name}, {}, runs of {run}: any hits", kernel.name());
                }
                // ... and the driver's choices, counted: rays in packets and rays the back-off
                // casts in order (each ray answered once).
                if with_kernel!(kernel, |k| packet_width(k)).is_none() {
                    continue;
                }
                let (mut packed, mut in_order) = (0, 0);
                let mut out = vec![None; rays.len()];
                for (i, rays) in rays.chunks(1024).enumerate() {
                    let out = &mut out[i * 1024..i * 1024 + rays.len()];
                    with_kernel!(kernel, |k| in_packets(
                        k,
                        rays,
                        out,
                        |rays: &[Ray3], out: &mut [Option<MeshHit>]| {
                            let sharing = if rays.len() == WIDE {
                                mesh.cast_packet::<_, WIDE>(k, rays, out)
                            } else {
                                mesh.cast_packet::<_, PACKET>(k, rays, out)
                            };
                            packed += sharing.map_or(0, |_| rays.len());
                            sharing
                        },
                        |rays: &[Ray3], out: &mut [Option<MeshHit>]| {
                            for (r, o) in rays.iter().zip(out) {
                                *o = mesh.cast_ray(r);
                            }
                        },
                        |rays: &[Ray3], out: &mut [Option<MeshHit>]| {
                            in_order += rays.len();
                            for (r, o) in rays.iter().zip(out) {
                                *o = mesh.cast_ray(r);
                            }
                        },
                    ));
                }
                assert_eq!(out, singles, "{name}, {}: counted driver", kernel.name());
                let reach = occluded.len();
                if backs_off {
                    assert!(in_order * 4 > reach, "{name}, {}: {in_order} rays in order", kernel.name());
                } else {
                    assert!(
                        in_order * 50 < packed,
                        "{name}, {}: {in_order} in order, {packed} packed",
                        kernel.name()
                    );
                }
            }
        }
    }

    /// The back-off itself, with a stand-in packet that always reports a poor (or a good)
    /// sharing: after each poor packet in a row the driver casts 1, 2, 4, ... groups in
    /// order, up to `MAX_BACKOFF`; a good packet keeps the packets going; and every ray is
    /// answered exactly once, by one of the three.
    #[test]
    fn the_back_off_doubles_up_to_its_bound_and_answers_every_ray_once() {
        let rays = vec![Ray3::new(Vec3::ZERO, Vec3::ONE); 1000];
        for kernel in Kernel::all_supported() {
            let Some(width) = with_kernel!(kernel, |k| packet_width(k)) else { continue };
            for poor in [true, false] {
                let mut out = vec![0u8; rays.len()];
                // (A `RefCell`: the three closures log to it.)
                let groups = core::cell::RefCell::new(Vec::new());
                let sharing = if poor {
                    Sharing { leaves: 10, leaf_rays: 10 }
                } else {
                    Sharing { leaves: 10, leaf_rays: 40 }
                };
                with_kernel!(kernel, |k| in_packets(
                    k,
                    &rays,
                    &mut out,
                    |rays: &[Ray3], out: &mut [u8]| {
                        groups.borrow_mut().push(('p', rays.len()));
                        out.iter_mut().for_each(|o| *o += 1);
                        Some(sharing)
                    },
                    |rays: &[Ray3], out: &mut [u8]| {
                        groups.borrow_mut().push(('s', rays.len()));
                        out.iter_mut().for_each(|o| *o += 1);
                    },
                    |rays: &[Ray3], out: &mut [u8]| {
                        groups.borrow_mut().push(('o', rays.len()));
                        out.iter_mut().for_each(|o| *o += 1);
                    },
                ));
                assert!(out.iter().all(|&n| n == 1), "{}: every ray once", kernel.name());
                let kinds: String =
                    groups.borrow().iter().filter(|g| g.1 > 0 && g.0 != 's').map(|g| g.0).collect();
                // Groups of `width`, then one of `PACKET` if enough rays are left.
                let whole = rays.len() / width + usize::from(rays.len() % width >= PACKET);
                if poor {
                    // p, o, p, oo, p, oooo, ..., then at most `MAX_BACKOFF` in order per probe.
                    let mut want = String::new();
                    let mut backoff = 1;
                    while want.len() < whole {
                        want.push('p');
                        want.extend(core::iter::repeat_n('o', backoff));
                        backoff = (backoff * 2).min(MAX_BACKOFF as usize);
                    }
                    want.truncate(whole);
                    assert_eq!(kinds, want, "{}", kernel.name());
                } else {
                    assert_eq!(kinds, "p".repeat(whole), "{}", kernel.name());
                }
            }
        }
    }

    /// Groups that make no packet (scattered rays) go to `singles`; after two in a row,
    /// the groups after each are left to it unasked: 1, 2, 4, ... up to `MAX_BACKOFF`. A lone
    /// such group among packets (a camera tile across a sign change) changes nothing. Every
    /// ray is answered once.
    #[test]
    fn groups_that_make_no_packet_back_off_to_singles() {
        let rays = vec![Ray3::new(Vec3::ZERO, Vec3::ONE); 1000];
        let base = rays.as_ptr() as usize;
        for kernel in Kernel::all_supported() {
            let Some(width) = with_kernel!(kernel, |k| packet_width(k)) else { continue };
            // Groups of `width`, then one of `PACKET` if enough rays are left.
            let whole = rays.len() / width + usize::from(rays.len() % width >= PACKET);
            for scattered in [true, false] {
                let mut out = vec![0u8; rays.len()];
                let asked = core::cell::RefCell::new(Vec::new());
                with_kernel!(kernel, |k| in_packets(
                    k,
                    &rays,
                    &mut out,
                    |group: &[Ray3], out: &mut [u8]| {
                        // Which group (of `width`) this call is, or its second half.
                        let offset = (group.as_ptr() as usize - base) / core::mem::size_of::<Ray3>();
                        asked.borrow_mut().push(offset);
                        // Scattered: no group makes a packet. Otherwise only group 5 fails.
                        if scattered || offset / width == 5 {
                            return None;
                        }
                        out.iter_mut().for_each(|o| *o += 1);
                        Some(Sharing { leaves: 10, leaf_rays: 40 })
                    },
                    |group: &[Ray3], out: &mut [u8]| out[..group.len()].iter_mut().for_each(|o| *o += 1),
                    // In order: only after a poor packet, which these groups never make.
                    |group: &[Ray3], out: &mut [u8]| out[..group.len()].iter_mut().for_each(|o| *o += 10),
                ));
                assert!(out.iter().all(|&n| n == 1), "{}: every ray once, none in order", kernel.name());
                let mut groups: Vec<usize> =
                    asked.borrow().iter().filter(|&&o| o % width == 0).map(|o| o / width).collect();
                groups.dedup();
                let want: Vec<usize> = if scattered {
                    // 0 and 1 asked, then 1, 2, 4, ... groups passed over after each.
                    let (mut want, mut g, mut idle) = (vec![0], 1, 1);
                    while g < whole {
                        want.push(g);
                        g += 1 + idle;
                        idle = (idle * 2).min(MAX_BACKOFF as usize);
                    }
                    want
                } else {
                    (0..whole).collect()
                };
                assert_eq!(groups, want, "{} (scattered: {scattered})", kernel.name());
            }
        }
    }

    /// A triangle whose edge functions overflow `f32` for this ray (one exactly 0, two NaN
    /// from infinite products): the scalar kernel's `f64` fallback finds the hit at `t = 1`,
    /// and so must every block, pair and packet test (minps/maxps pass a NaN over and could
    /// hide the 0).
    #[test]
    fn a_hit_behind_overflowing_edge_functions_is_found_by_every_path() {
        let tri = [Vec3::new(1e20, 9e19, 1.0), Vec3::new(-1e19, -1e19, 1.0), Vec3::new(1e19, 1e19, 1.0)];
        // Equal x and y components keep the sheared `b` and `c` symmetric, so `u` is exactly
        // 0; no zero component, so that 16 such rays make a packet.
        let ray = Ray3::new(Vec3::ZERO, Vec3::new(1e-3, 1e-3, 1.0));
        let want = ray_triangle_watertight(&WoopRay::new(ray.origin(), ray.dir()), tri, 0.0, f32::INFINITY);
        let want_t = want.map(|h| h.0).expect("the scalar kernel finds the hit");
        assert!((want_t - 1.0).abs() < 1e-3, "the scalar kernel: {want:?}");
        // One triangle (one block), five (a leaf of two blocks, the hit in either) and 16
        // equal rays (a packet).
        for (count, at) in [(1, 0), (5, 0), (5, 4)] {
            let mut vertices = Vec::new();
            let mut indices = Vec::new();
            for i in 0..count {
                // The others far off the ray, small.
                let v =
                    if i == at { tri } else { [0, 1, 2].each(|k| Vec3::new(50.0 + i as f32, k as f32, 2.0)) };
                let n = vertices.len() as u32;
                vertices.extend(v);
                indices.push([n, n + 1, n + 2]);
            }
            let mesh = TriMesh::new(vertices, indices).unwrap();
            let rays = vec![ray; WIDE];
            for kernel in Kernel::all_supported() {
                crate::bvh::kernels::force_kernel(Some(kernel));
                let single = mesh.first_hit(&ray);
                assert!(
                    single.is_some_and(|h| h.t == want_t && h.triangle == at as u32),
                    "{}: {single:?}",
                    kernel.name()
                );
                let batch = mesh.first_hits(&rays);
                assert!(batch.iter().all(|h| *h == single), "{}: {batch:?}", kernel.name());
                assert!(
                    mesh.occluded(&ray) && mesh.occluded_rays(&rays).iter().all(|&o| o),
                    "{}",
                    kernel.name()
                );
            }
            crate::bvh::kernels::force_kernel(None);
        }
    }

    /// Scattered rays are not cast as packets (they would visit the union of their paths).
    /// Found by an audit: a mesh of zero-area triangles only (accepted, with an empty tree)
    /// panicked in `contains_point`; every query answers "nothing there".
    #[test]
    fn a_mesh_of_degenerate_triangles_answers_every_query() {
        let vertices = vec![Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0)];
        for quality in [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High] {
            let mesh = TriMesh::with_quality(vertices.clone(), vec![[0, 1, 2]], quality).unwrap();
            assert_eq!(mesh.degenerate_count(), 1);
            assert!(!mesh.contains_point(Vec3::ZERO));
            assert!(!mesh.contains_point(Vec3::new(0.5, 0.0, 0.0)));
            let ray = Ray3::new(Vec3::new(0.5, 0.0, -1.0), Vec3::Z);
            assert!(mesh.cast_ray(&ray).is_none() && !mesh.occluded(&ray));
            assert!(!mesh.overlaps_aabb(&Aabb3::new(Vec3::splat(-1.0), Vec3::splat(3.0))));
            assert!(mesh.bounds().is_none() && mesh.distance_to_point(Vec3::ZERO).is_none());
        }
    }

    /// Found by an audit: a convex octahedron whose vertices lie exactly on the first two
    /// directions `contains_point` casts from its centre. Each of those rays met four
    /// triangles at a vertex (an even count), outvoting the third ray: "outside", 0.6 deep
    /// inside. Rays through an edge or a vertex now have no vote.
    #[test]
    fn rays_through_vertices_do_not_vote() {
        let a = Vec3::new(0.767_696_86, 0.436_652_15, 1.0);
        let b = Vec3::new(-0.476_324_17, 1.0, -0.308_127_67);
        let c = Vec3::new(-0.748_642_86, -0.158_218_76, 0.643_817_3);
        let vertices = vec![a, -a, b, -b, c, -c];
        let mut indices = Vec::new();
        for x in [0u32, 1] {
            for y in [2u32, 3] {
                for z in [4u32, 5] {
                    indices.push([x, y, z]);
                }
            }
        }
        let mesh = TriMesh::new(vertices, indices).unwrap();
        assert!(mesh.contains_point(Vec3::ZERO));
        assert!(mesh.contains_point(Vec3::new(0.05, -0.02, 0.03)));
        assert!(!mesh.contains_point(Vec3::new(3.0, 3.0, 3.0)));
    }

    #[test]
    fn scattered_rays_make_no_packet() {
        let mesh = TriMesh::from_data(crate::mesh::bunny()).unwrap();
        let mut rng = Pcg32::new(9);
        let group: Vec<Ray3> = (0..PACKET).map(|_| Ray3::new(Vec3::ZERO, rng.unit_vector())).collect();
        let mut out = [None; PACKET];
        assert!(
            with_kernel!(Kernel::detect(), |k| mesh.cast_packet::<_, PACKET>(k, &group, &mut out)).is_none()
        );
        assert_eq!(out, [None; PACKET], "nothing is written");
    }
}
