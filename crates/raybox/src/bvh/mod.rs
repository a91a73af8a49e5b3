//! Bounding volume hierarchies: [`Bvh`] over any list of 3D boxes ([`Bvh2`] for 2D).
//!
//! Built top-down with the binned surface area heuristic (`build.rs`) or along a Morton
//! curve (`morton.rs`), grouped into 8-wide nodes as it is built (`collapse.rs`) and walked with a SIMD node test chosen at run time
//! (`kernels/`): AVX-512 or AVX2 where the CPU has them, plain Rust otherwise. The box
//! test is conservative (Ize 2013): rounding can make a walk visit a box the ray misses by
//! a hair, never skip one it enters; the exact answer is then the leaf test's.

mod box_soup;
mod build;
mod bvh2;
mod collapse;
#[allow(unsafe_code)] // the SIMD node kernels and the uninitialised walk stack
pub(crate) mod kernels;
mod morton;
mod node;
pub(crate) mod pages;
pub(crate) mod traverse;

use glam::{Vec3, Vec3A};

pub use box_soup::BoxSoup;
pub use build::BuildQuality;
pub use bvh2::Bvh2;

use crate::{Aabb3, Ray3, Sphere};
pub(crate) use build::PrimRef;
use build::{BuildParams, NodeInfo, SahSplitter};
use kernels::{Kernel, PreparedRay, with_kernel};
use morton::MortonSplitter;
pub(crate) use node::{Bounds, ChildRef, MAX_PRIMITIVES, WideNode};

/// What a build made: sizes and the quality measure of the tree.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BvhStats {
    /// Primitives indexed.
    pub primitive_count: usize,
    /// 8-wide inner nodes.
    pub node_count: usize,
    /// Leaves (each holds 1 to 16 primitives).
    pub leaf_count: usize,
    /// Inner levels from the root to the deepest leaf.
    pub depth: usize,
    /// The surface area heuristic cost of the tree: `Σ A(node) + Σ A(leaf) · n(leaf)` over
    /// inner nodes and leaves, divided by the root's area. Lower is better. Summed in `f64`:
    /// finite for any boxes, and the same at every scale.
    pub sah_cost: f32,
}

/// Why a BVH could not be built or refitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildBvhError {
    /// More primitives than the node layout can index (2^27).
    TooManyPrimitives {
        /// How many were given.
        count: usize,
    },
    /// `refit` was given a different number of boxes than the BVH was built with.
    WrongCount {
        /// The number the BVH was built with.
        expected: usize,
        /// The number given.
        got: usize,
    },
}

impl core::fmt::Display for BuildBvhError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::TooManyPrimitives { count } => {
                write!(f, "{count} primitives are more than a BVH can index ({MAX_PRIMITIVES})")
            }
            Self::WrongCount { expected, got } => {
                write!(f, "refit needs {expected} boxes, one per primitive, but got {got}")
            }
        }
    }
}

impl std::error::Error for BuildBvhError {}

/// A tree's nodes made ready for the walks: each node's children ordered for the eight
/// octants of ray directions ([`WideNode::fill_orders`]; every builder and loader passes its
/// nodes through here), and the array on huge pages when it is large (`pages.rs`).
pub(crate) fn finish_nodes(mut nodes: Vec<WideNode>) -> Vec<WideNode> {
    nodes.iter_mut().for_each(WideNode::fill_orders);
    pages::on_huge_pages(nodes)
}

/// The shared core of [`Bvh`] and the mesh: the wide tree and the leaf order.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Tree {
    pub nodes: Vec<WideNode>,
    pub root: ChildRef,
    /// `order[i]` is the primitive in leaf slot `i`.
    pub order: Vec<u32>,
    pub root_min: [f32; 3],
    pub root_max: [f32; 3],
    pub stats: BvhStats,
}

impl Tree {
    /// The tree of no primitives.
    pub(crate) fn empty() -> Self {
        Self {
            nodes: Vec::new(),
            root: ChildRef::EMPTY,
            order: Vec::new(),
            root_min: [0.0; 3],
            root_max: [0.0; 3],
            stats: BvhStats { primitive_count: 0, node_count: 0, leaf_count: 0, depth: 0, sah_cost: 0.0 },
        }
    }

    /// Builds over `prims`; an empty list gives an empty tree.
    pub fn build(
        prims: &[Bounds],
        quality: BuildQuality,
        max_leaf: u32,
        block: u32,
    ) -> Result<Self, BuildBvhError> {
        if prims.len() > MAX_PRIMITIVES {
            return Err(BuildBvhError::TooManyPrimitives { count: prims.len() });
        }
        let refs = prims.iter().enumerate().map(|(i, b)| PrimRef::new(b, i as u32)).collect();
        Self::build_refs(refs, quality, max_leaf, block)
    }

    /// Builds over primitive records (each with its own index, which `order` then lists in
    /// leaf order); an empty list gives an empty tree.
    pub fn build_refs(
        mut prims: Vec<PrimRef>,
        quality: BuildQuality,
        max_leaf: u32,
        block: u32,
    ) -> Result<Self, BuildBvhError> {
        if prims.len() > MAX_PRIMITIVES {
            return Err(BuildBvhError::TooManyPrimitives { count: prims.len() });
        }
        if prims.is_empty() {
            return Ok(Self::empty());
        }
        let params = BuildParams::new(quality, max_leaf, block);
        let info = NodeInfo::of(&prims);
        let wide = match quality {
            BuildQuality::Fast => {
                let splitter = MortonSplitter::sort(&mut prims, &info.centers, params.max_leaf as usize);
                collapse::build_wide(&splitter, &mut prims, info)
            }
            BuildQuality::Balanced | BuildQuality::High => {
                collapse::build_wide(&SahSplitter::new(params, &info.bounds), &mut prims, info)
            }
        };
        let mut tree = Self {
            nodes: finish_nodes(wide.nodes),
            root: wide.root,
            order: prims.iter().map(PrimRef::index).collect(),
            root_min: wide.root_bounds.min.into(),
            root_max: wide.root_bounds.max.into(),
            stats: BvhStats {
                primitive_count: prims.len(),
                node_count: 0,
                leaf_count: 0,
                depth: wide.depth,
                sah_cost: 0.0,
            },
        };
        tree.update_stats();
        Ok(tree)
    }

    pub fn is_empty(&self) -> bool {
        self.root == ChildRef::EMPTY
    }

    /// Whether the nodes outgrow a core's L2 cache (1 MiB here): the walks then ask for
    /// the nodes they will pop before they pop them.
    pub fn is_large(&self) -> bool {
        self.nodes.len() * core::mem::size_of::<WideNode>() > 1 << 20
    }

    pub fn root_bounds(&self) -> Bounds {
        Bounds::from_arrays(self.root_min, self.root_max)
    }

    /// Recounts nodes and leaves and recomputes the SAH cost of the wide tree.
    fn update_stats(&mut self) {
        let root_area = self.root_bounds().half_area_f64();
        let (mut leaves, mut cost) = (0usize, 0.0f64);
        if self.root.is_leaf() {
            leaves = 1;
            cost = self.root.leaf_range().1 as f64 * root_area;
        }
        for node in &self.nodes {
            let mut area = Bounds::EMPTY;
            for lane in 0..8 {
                let child = node.children[lane];
                if child == ChildRef::EMPTY {
                    continue;
                }
                let b = node.child_bounds(lane);
                area.grow(&b);
                if child.is_leaf() {
                    leaves += 1;
                    cost += b.half_area_f64() * child.leaf_range().1 as f64;
                }
            }
            cost += area.half_area_f64();
        }
        self.stats.node_count = self.nodes.len();
        self.stats.leaf_count = leaves;
        self.stats.sah_cost = if root_area > 0.0 { (cost / root_area) as f32 } else { cost as f32 };
    }

    /// Recomputes every box bottom-up from new primitive boxes (nodes are stored parents
    /// first, so a reverse sweep sees children before parents).
    pub fn refit(&mut self, prims: &[Bounds]) {
        // The empty tree has nothing to refit: its root box stays the finite zero box that
        // `Tree::empty` gives it (an empty `+inf..-inf` box cannot be saved as JSON), and its
        // counts stay zero (`ChildRef::EMPTY` has the leaf bit, and would count as a leaf).
        if self.is_empty() {
            return;
        }
        let leaf_bounds = |order: &[u32], r: ChildRef| {
            let (first, count) = r.leaf_range();
            order[first..first + count].iter().fold(Bounds::EMPTY, |b, &p| b.union(&prims[p as usize]))
        };
        for i in (0..self.nodes.len()).rev() {
            for lane in 0..8 {
                let child = self.nodes[i].children[lane];
                if child == ChildRef::EMPTY {
                    continue;
                }
                let b = if child.is_leaf() {
                    leaf_bounds(&self.order, child)
                } else {
                    let c = &self.nodes[child.index()];
                    (0..8).fold(Bounds::EMPTY, |b, l| b.union(&c.child_bounds(l)))
                };
                self.nodes[i].set_child(lane, &b, child);
            }
            self.nodes[i].fill_orders();
        }
        let root = if self.root.is_leaf() {
            leaf_bounds(&self.order, self.root)
        } else if self.nodes.is_empty() {
            Bounds::EMPTY
        } else {
            (0..8).fold(Bounds::EMPTY, |b, l| b.union(&self.nodes[0].child_bounds(l)))
        };
        self.root_min = root.min.into();
        self.root_max = root.max.into();
        self.update_stats();
    }

    /// Checks what the walks rely on, for a tree read from outside (deserialised): child
    /// indices point forward (so walks end) and inside `nodes`, every node has exactly one
    /// parent (a tree: shared children would make a walk visit exponentially many paths),
    /// every leaf range lies inside `leaf_slots` (the primitives or blocks the leaves
    /// index), and the root box is a box (finite, `min <= max`) or, for the empty tree, empty.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub fn check_structure(&self, leaf_slots: usize) -> Result<(), String> {
        let leaf_ok = |r: ChildRef| {
            let (first, count) = r.leaf_range();
            first + count <= leaf_slots
        };
        let (lo, hi) = (Vec3A::from(self.root_min), Vec3A::from(self.root_max));
        let root_box = lo.is_finite() && hi.is_finite() && lo.cmple(hi).all();
        let empty_box = lo == Vec3A::INFINITY && hi == Vec3A::NEG_INFINITY;
        if !(root_box || (self.root == ChildRef::EMPTY && empty_box)) {
            return Err("the root box is not a box".into());
        }
        if self.root == ChildRef::EMPTY {
            return if self.nodes.is_empty() { Ok(()) } else { Err("nodes without a root".into()) };
        }
        if self.root.is_leaf() {
            return if leaf_ok(self.root) { Ok(()) } else { Err("root leaf out of range".into()) };
        }
        if self.root.index() != 0 || self.nodes.is_empty() {
            return Err("the root must be node 0".into());
        }
        // Children come after their parent, so one pass in index order knows each node's
        // depth (the longest path to it) before it visits the node. The walks' fixed
        // stacks rely on the depth bound.
        let mut depth = vec![0usize; self.nodes.len()];
        depth[0] = 1;
        for (i, node) in self.nodes.iter().enumerate() {
            for &child in &node.children {
                let ok = if child == ChildRef::EMPTY {
                    true
                } else if child.is_leaf() {
                    leaf_ok(child)
                } else {
                    child.index() > i && child.index() < self.nodes.len()
                };
                if !ok {
                    return Err(format!("node {i} has a child reference out of range"));
                }
                if !child.is_leaf() {
                    // Parents come first, so a child with a depth already has a parent.
                    if depth[child.index()] != 0 {
                        return Err(format!("node {} has two parents", child.index()));
                    }
                    depth[child.index()] = depth[i] + 1;
                }
            }
            if depth[i] == 0 {
                return Err(format!("node {i} is not reachable from the root"));
            }
            if depth[i] > traverse::MAX_DEPTH {
                return Err(format!("the tree is deeper than {} levels", traverse::MAX_DEPTH));
            }
        }
        Ok(())
    }

    /// Checks the invariants: every child box lies inside its parent's box, every
    /// primitive is in exactly one leaf, and every inner node is reachable once.
    pub fn validate(&self, prims: &[Bounds]) -> Result<(), String> {
        if self.is_empty() {
            return if prims.is_empty() { Ok(()) } else { Err("empty tree over primitives".into()) };
        }
        let mut seen = vec![0u32; prims.len()];
        let mut node_seen = vec![false; self.nodes.len()];
        let mut stack = vec![(self.root, self.root_bounds(), 1usize)];
        while let Some((r, parent, depth)) = stack.pop() {
            if depth > traverse::MAX_DEPTH {
                return Err(format!("deeper than {}", traverse::MAX_DEPTH));
            }
            if r.is_leaf() {
                let (first, count) = r.leaf_range();
                for &p in self.order.get(first..first + count).ok_or("leaf range out of bounds")? {
                    if !parent.contains(&prims[p as usize]) {
                        return Err(format!("primitive {p} outside its leaf box"));
                    }
                    seen[p as usize] += 1;
                }
                continue;
            }
            let seen_node = node_seen.get_mut(r.index()).ok_or("node index out of bounds")?;
            if std::mem::replace(seen_node, true) {
                return Err(format!("node {} reached twice", r.index()));
            }
            let node = &self.nodes[r.index()];
            let mut fresh = *node;
            fresh.fill_orders();
            if fresh.orders != node.orders {
                return Err(format!("node {}'s children orders do not match its boxes", r.index()));
            }
            for lane in 0..8 {
                if node.children[lane] == ChildRef::EMPTY {
                    continue;
                }
                let b = node.child_bounds(lane);
                if !parent.contains(&b) {
                    return Err(format!("child {lane} of node {} outside its parent", r.index()));
                }
                stack.push((node.children[lane], b, depth + 1));
            }
        }
        if let Some(p) = seen.iter().position(|&c| c != 1) {
            return Err(format!("primitive {p} is in {} leaves", seen[p]));
        }
        if node_seen.iter().any(|s| !s) {
            return Err("unreachable node".into());
        }
        Ok(())
    }
}

pub(crate) fn bounds_of_aabb(b: &Aabb3) -> Bounds {
    Bounds { min: b.min().into(), max: b.max().into() }
}

/// A bounding volume hierarchy over a list of 3D boxes: finds which boxes a ray, a box,
/// a sphere or a point query meets without testing them all.
///
/// The BVH knows only boxes; what is inside them is yours. Ray queries call back with the
/// index of each primitive whose box the ray may enter (near boxes first), and you answer
/// with the exact hit, as in this BVH over spheres:
///
/// ```
/// use raybox::{Bvh, BuildQuality, Ray3, RayCast, Sphere};
/// use glam::Vec3;
///
/// let spheres: Vec<Sphere> = (0..100).map(|i| Sphere::new(Vec3::new(i as f32 * 3.0, 0.0, 0.0), 1.0)).collect();
/// let boxes: Vec<_> = spheres.iter().map(Sphere::to_aabb).collect();
/// let bvh = Bvh::build(&boxes, BuildQuality::Balanced).unwrap();
///
/// let ray = Ray3::new(Vec3::new(-10.0, 0.0, 0.0), Vec3::X);
/// let (index, t) = bvh.cast_ray(&ray, |i, ray| spheres[i as usize].ray_span(ray).map(|s| s.t_enter)).unwrap();
/// assert_eq!((index, t), (0, 9.0));
/// ```
///
/// `Bvh` is `Send + Sync`; queries allocate nothing (except those that return a `Vec`).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "BvhData"))]
pub struct Bvh {
    tree: Tree,
}

/// What a deserialised [`Bvh`] is checked from before it is trusted.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct BvhData {
    tree: Tree,
}

#[cfg(feature = "serde")]
impl TryFrom<BvhData> for Bvh {
    type Error = String;
    fn try_from(data: BvhData) -> Result<Self, String> {
        let mut tree = data.tree;
        tree.check_structure(tree.order.len())?;
        if tree.order.len() != tree.stats.primitive_count
            || tree.order.iter().any(|&p| p as usize >= tree.order.len())
        {
            return Err("BVH primitive order out of range".into());
        }
        tree.nodes = finish_nodes(tree.nodes);
        Ok(Self { tree })
    }
}

impl Bvh {
    /// Builds a BVH over `boxes` (primitive `i` is `boxes[i]`); an empty list gives an empty BVH.
    ///
    /// # Errors
    /// [`BuildBvhError::TooManyPrimitives`] past 2^27 boxes.
    pub fn build(boxes: &[Aabb3], quality: BuildQuality) -> Result<Self, BuildBvhError> {
        let prims: Vec<Bounds> = boxes.iter().map(bounds_of_aabb).collect();
        // One primitive per leaf: a leaf box is then exactly its primitive's box, so the box
        // queries report exactly the primitives whose boxes overlap.
        Ok(Self { tree: Tree::build(&prims, quality, 1, 1)? })
    }

    /// The number of primitives.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tree.stats.primitive_count
    }

    /// `true` when built over no boxes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tree.is_empty()
    }

    /// Sizes and the SAH cost of the tree.
    #[must_use]
    pub fn stats(&self) -> BvhStats {
        self.tree.stats
    }

    /// The box around everything, or `None` when empty.
    #[must_use]
    pub fn bounds(&self) -> Option<Aabb3> {
        (!self.is_empty()).then(|| Aabb3::new(Vec3::from(self.tree.root_min), Vec3::from(self.tree.root_max)))
    }

    /// The closest hit along the ray: `hit(index, ray)` is called for primitives whose box
    /// the ray may enter, with the ray's `t_max` narrowed to the closest hit so far, and
    /// returns the primitive's hit parameter (inside the ray's `[t_min, t_max]`) or `None`.
    /// Returns the winning primitive and its `t`.
    pub fn cast_ray(&self, ray: &Ray3, mut hit: impl FnMut(u32, &Ray3) -> Option<f32>) -> Option<(u32, f32)> {
        if self.is_empty() {
            return None;
        }
        let prepared = prepare(ray, &self.tree);
        let mut best = None;
        let mut leaf = |first: usize, count: usize, t_max: f32| {
            let mut found = None;
            let mut t_max = t_max;
            for &p in &self.tree.order[first..first + count] {
                let narrowed = ray.try_with_interval(ray.t_min(), t_max).ok()?;
                if let Some(t) = hit(p, &narrowed).filter(|&t| ray.t_min() <= t && t <= t_max) {
                    t_max = t;
                    found = Some(t);
                    best = Some((p, t));
                }
            }
            found
        };
        let t_max = ray.t_max();
        let large = self.tree.is_large();
        with_kernel!(Kernel::detect(), |k| traverse::closest_hit(
            k,
            &self.tree.nodes,
            self.tree.root,
            &prepared,
            t_max,
            large,
            &mut leaf
        ));
        best
    }

    /// Any hit along the ray: stops at the first primitive for which `hit(index, ray)`
    /// returns `true`, and returns it (not necessarily the closest).
    pub fn any_hit(&self, ray: &Ray3, mut hit: impl FnMut(u32, &Ray3) -> bool) -> Option<u32> {
        if self.is_empty() {
            return None;
        }
        let prepared = prepare(ray, &self.tree);
        let mut found = None;
        let mut leaf = |first: usize, count: usize, _t_max: f32| {
            let p = self.tree.order[first..first + count].iter().copied().find(|&p| hit(p, ray));
            found = p;
            p.is_some()
        };
        with_kernel!(Kernel::detect(), |k| traverse::any_hit(
            k,
            &self.tree.nodes,
            self.tree.root,
            &prepared,
            ray.t_max(),
            self.tree.is_large(),
            &mut leaf
        ));
        found
    }

    /// Every hit along the ray: the primitives for which `hit(index, ray)` returns a
    /// parameter, sorted by it.
    pub fn all_hits(&self, ray: &Ray3, mut hit: impl FnMut(u32, &Ray3) -> Option<f32>) -> Vec<(u32, f32)> {
        let mut hits = Vec::new();
        if self.is_empty() {
            return hits;
        }
        let prepared = prepare(ray, &self.tree);
        let mut leaf = |first: usize, count: usize, _t_max: f32| {
            for &p in &self.tree.order[first..first + count] {
                if let Some(t) = hit(p, ray) {
                    hits.push((p, t));
                }
            }
            false
        };
        with_kernel!(Kernel::detect(), |k| traverse::any_hit(
            k,
            &self.tree.nodes,
            self.tree.root,
            &prepared,
            ray.t_max(),
            self.tree.is_large(),
            &mut leaf
        ));
        hits.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        hits
    }

    /// Calls `visit(index)` for every primitive whose box overlaps `aabb` (closed: touching counts).
    pub fn for_each_overlapping_aabb(&self, aabb: &Aabb3, mut visit: impl FnMut(u32)) {
        let q = bounds_of_aabb(aabb);
        let mut test = |b: &Bounds| (0..3).all(|k| b.min[k] <= q.max[k] && q.min[k] <= b.max[k]);
        self.visit(&mut test, &mut visit);
    }

    /// Calls `visit(index)` for every primitive whose box overlaps `sphere` (closed).
    pub fn for_each_overlapping_sphere(&self, sphere: &Sphere, mut visit: impl FnMut(u32)) {
        let c = sphere.center().as_dvec3().to_array();
        let r2 = f64::from(sphere.radius()).powi(2);
        let mut test = |b: &Bounds| box_distance_squared(b, c) <= r2;
        self.visit(&mut test, &mut visit);
    }

    /// The primitive nearest to `point`: `distance(index, best)` returns the distance from
    /// `point` to the primitive when it is below `best` (boxes farther than `best` are
    /// skipped). Returns the nearest primitive and its distance.
    pub fn nearest(
        &self,
        point: Vec3,
        mut distance: impl FnMut(u32, f32) -> Option<f32>,
    ) -> Option<(u32, f32)> {
        if self.is_empty() {
            return None;
        }
        let p = point.as_dvec3().to_array();
        let mut best = None;
        if self.tree.root.is_leaf() || self.tree.nodes.is_empty() {
            let (first, count) = self.tree.root.leaf_range();
            let mut d_best = f32::INFINITY;
            for &i in &self.tree.order[first..first + count] {
                if let Some(d) = distance(i, d_best).filter(|&d| d <= d_best) {
                    d_best = d;
                    best = Some((i, d));
                }
            }
            return best;
        }
        let mut box_dist = |b: &Bounds| box_distance_squared(b, p).sqrt() as f32;
        let mut leaf = |first: usize, count: usize, bound: f32| {
            let mut found = None;
            let mut bound = bound;
            for &i in &self.tree.order[first..first + count] {
                if let Some(d) = distance(i, bound).filter(|&d| d <= bound) {
                    bound = d;
                    found = Some(d);
                    best = Some((i, d));
                }
            }
            found
        };
        traverse::nearest(&self.tree.nodes, self.tree.root, f32::INFINITY, &mut box_dist, &mut leaf);
        best
    }

    /// Updates the boxes after the primitives moved, keeping the tree's structure (fast;
    /// rebuild when the primitives have moved far).
    ///
    /// # Errors
    /// [`BuildBvhError::WrongCount`] unless `boxes` has one box per primitive.
    pub fn refit(&mut self, boxes: &[Aabb3]) -> Result<(), BuildBvhError> {
        if boxes.len() != self.len() {
            return Err(BuildBvhError::WrongCount { expected: self.len(), got: boxes.len() });
        }
        let prims: Vec<Bounds> = boxes.iter().map(bounds_of_aabb).collect();
        self.tree.refit(&prims);
        Ok(())
    }

    /// Checks the tree's invariants against `boxes` (the boxes it was built or refitted
    /// with): every child box inside its parent, every primitive in exactly one leaf, every
    /// node's order of its children for the walks made from its boxes.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    pub fn validate(&self, boxes: &[Aabb3]) -> Result<(), String> {
        if boxes.len() != self.len() {
            return Err(format!("{} boxes for a BVH over {} primitives", boxes.len(), self.len()));
        }
        let prims: Vec<Bounds> = boxes.iter().map(bounds_of_aabb).collect();
        self.tree.validate(&prims)
    }

    /// Calls `visit(index)` for every primitive whose leaf box, and every box above it,
    /// passes `test`.
    pub(crate) fn visit(&self, test: &mut impl FnMut(&Bounds) -> bool, visit: &mut impl FnMut(u32)) {
        if self.is_empty() {
            return;
        }
        let order = &self.tree.order;
        let mut leaf =
            |first: usize, count: usize| order[first..first + count].iter().for_each(|&p| visit(p));
        traverse::visit_boxes(&self.tree.nodes, self.tree.root, &self.tree.root_bounds(), test, &mut leaf);
    }
}

impl Bvh {
    /// Best first over the primitives (`traverse::nearest`): `box_dist` bounds from below
    /// what anything inside a box can give, `prim(index, best)` returns a value at most
    /// `best` if the primitive has one. Returns the best value found (`limit` if none).
    pub(crate) fn best_first(
        &self,
        limit: f32,
        box_dist: &mut impl FnMut(&Bounds) -> f32,
        prim: &mut impl FnMut(u32, f32) -> Option<f32>,
    ) -> f32 {
        if self.is_empty() {
            return limit;
        }
        let order = &self.tree.order;
        let mut leaf = |first: usize, count: usize, bound: f32| {
            let mut found: Option<f32> = None;
            for &i in &order[first..first + count] {
                let bound = found.map_or(bound, |f| f.min(bound));
                if let Some(d) = prim(i, bound).filter(|&d| d <= bound) {
                    found = Some(d);
                }
            }
            found
        };
        traverse::nearest(&self.tree.nodes, self.tree.root, limit, box_dist, &mut leaf)
    }
}

/// `ray` prepared for the walks of `tree` (its root box holds every box they test on the
/// way to a primitive the ray meets). (`#[inline]`: without it, it was left out of line.)
#[inline]
pub(crate) fn prepare(ray: &Ray3, tree: &Tree) -> PreparedRay {
    PreparedRay::within(ray, &tree.root_min, &tree.root_max)
}

/// The squared distance from `p` to a box, in `f64`.
pub(crate) fn box_distance_squared(b: &Bounds, p: [f64; 3]) -> f64 {
    (0..3)
        .map(|k| {
            let gap = p[k] - p[k].clamp(f64::from(b.min[k]), f64::from(b.max[k]));
            gap * gap
        })
        .sum()
}

/// The name of the node kernel queries use on this CPU: `"avx512"`, `"avx2"` or
/// `"scalar"` (set `RAYBOX_KERNEL` to one of these to choose a lesser one).
#[must_use]
pub fn kernel_name() -> &'static str {
    Kernel::detect().name()
}

/// For tests and benchmarks: run `f` with every node kernel this CPU supports in turn
/// (the scalar reference first), passing the kernel's name.
#[doc(hidden)]
pub fn with_each_kernel(mut f: impl FnMut(&'static str)) {
    for k in Kernel::all_supported() {
        kernels::force_kernel(Some(k));
        f(k.name());
    }
    kernels::force_kernel(None);
}

#[cfg(test)]
impl Tree {
    /// Panics unless `self` is `base` built from the same primitives scaled by `scale` (a
    /// power of two): the same nodes, leaves, order and stats, and every box `scale` times
    /// `base`'s, bit for bit.
    pub(crate) fn assert_scaled_copy_of(&self, base: &Tree, scale: f32, what: &str) {
        use crate::arrays::Each;
        assert_eq!(self.stats, base.stats, "{what}: stats");
        assert_eq!((self.root, &self.order), (base.root, &base.order), "{what}: root and leaf order");
        let scaled = |v: [f32; 3]| v.each(|x| (x * scale).to_bits());
        assert_eq!(self.root_min.each(f32::to_bits), scaled(base.root_min), "{what}: root box");
        assert_eq!(self.root_max.each(f32::to_bits), scaled(base.root_max), "{what}: root box");
        assert_eq!(self.nodes.len(), base.nodes.len(), "{what}: nodes");
        for (i, (node, b)) in self.nodes.iter().zip(&base.nodes).enumerate() {
            assert_eq!(node.children, b.children, "{what}: node {i}'s children");
            assert_eq!(node.orders, b.orders, "{what}: node {i}'s orders");
            for (p, q) in node.planes.iter().zip(&b.planes) {
                let q = q.each(|x| if x.is_finite() { x * scale } else { x });
                assert_eq!(p.each(f32::to_bits), q.each(f32::to_bits), "{what}: node {i}'s boxes");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrays::Each;
    use crate::mesh::scene::Pcg32;

    #[test]
    fn validate_with_too_few_boxes_is_an_error_not_a_panic() {
        let boxes: Vec<Aabb3> =
            (0..20).map(|i| Aabb3::new(Vec3::splat(i as f32), Vec3::splat(i as f32 + 1.0))).collect();
        let bvh = Bvh::build(&boxes, BuildQuality::Balanced).unwrap();
        assert!(bvh.validate(&boxes).is_ok());
        assert_eq!(bvh.validate(&boxes[..3]).unwrap_err(), "3 boxes for a BVH over 20 primitives");
    }

    /// Powers of two from where the smallest coordinate of [`scene`] is about to become
    /// subnormal to where the largest box's extent is about to overflow.
    pub(crate) const SCALES: [i32; 7] = [-112, -100, -60, 0, 60, 100, 120];

    /// The bunny's triangle boxes, and beside it a cluster of 300 boxes up to `2^-11` wide
    /// whose corners lie on a grid of `2^-12`: at `2^-112` the cluster's small nodes have
    /// centroid spans below `2^-123`, where `bins / span` overflows `f32` (see `Binning`).
    fn scene() -> Vec<Bounds> {
        let bunny = crate::mesh::bunny();
        let mut boxes: Vec<Bounds> = bunny
            .indices
            .iter()
            .map(|t| {
                let [a, b, c] = t.each(|i| Vec3A::from(bunny.vertices[i as usize]));
                Bounds { min: a.min(b).min(c), max: a.max(b).max(c) }
            })
            .collect();
        let mut rng = Pcg32::new(11);
        let step = 2f32.powi(-15);
        for _ in 0..300 {
            // Multiples of 2^-15 near (12, 3, 5): every coordinate is exact at every scale.
            let mut k = |n: u32| (rng.next_u32() % n) as f32 * step;
            let min = Vec3A::new(12.0 + k(4), 3.0 + k(4), 5.0 + k(4));
            boxes.push(Bounds { min, max: min + Vec3A::new(k(2), k(2), k(2)) });
        }
        boxes
    }

    /// Found by a review: the SAH measured surface areas in plain `f32`, which overflow to
    /// infinity for extents beyond `2^64` and vanish below `2^-63`, so at such scales every
    /// split cost the same and the bunny's `Balanced` tree went 52 levels deep (its SAH
    /// cost `NaN`) at `1e25` and 21 at `1e-25`, against 4 at scale 1.
    #[test]
    fn trees_are_the_same_at_every_scale() {
        let boxes = scene();
        let moved: Vec<Bounds> = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let shift = Vec3A::new((i % 7) as f32, (i % 3) as f32, (i % 5) as f32) * 0.25;
                Bounds { min: b.min + shift, max: b.max + shift }
            })
            .collect();
        for quality in [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High] {
            // A `Bvh`'s leaves, and a mesh's.
            for (max_leaf, block) in [(1, 1), (8, 4)] {
                let base = Tree::build(&boxes, quality, max_leaf, block).unwrap();
                let mut base_refitted = base.clone();
                base_refitted.refit(&moved);
                for k in SCALES {
                    let s = 2f32.powi(k);
                    let scale = |v: &[Bounds]| -> Vec<Bounds> {
                        v.iter().map(|b| Bounds { min: b.min * s, max: b.max * s }).collect()
                    };
                    let what = format!("{quality:?}, leaves of {max_leaf}, 2^{k}");
                    let mut tree = Tree::build(&scale(&boxes), quality, max_leaf, block).unwrap();
                    tree.validate(&scale(&boxes)).unwrap();
                    tree.assert_scaled_copy_of(&base, s, &what);
                    assert!(tree.stats.sah_cost.is_finite() && tree.stats.sah_cost > 1.0, "{what}");
                    tree.refit(&scale(&moved));
                    tree.assert_scaled_copy_of(&base_refitted, s, &format!("{what}, refitted"));
                }
            }
        }
    }
}
