//! The builder of [`BuildQuality::Fast`](super::BuildQuality::Fast): a linear BVH.
//!
//! Lauterbach, Garland, Sengupta, Luebke & Manocha, *Fast BVH Construction on GPUs* (2009):
//! sort the primitives along a Morton (Z-order) curve through their centroids, and the
//! hierarchy of the curve's cells is a BVH. A node's primitives are a run of the sorted
//! order; it splits where the highest bit in which the run's first and last codes differ
//! turns from 0 to 1 (found by binary search, as in Karras, *Maximizing Parallelism in the
//! Construction of BVHs, Octrees, and k-d Trees*, 2012), so each split halves a cell of the
//! grid, and a run of equal codes splits in the middle. The grid is a cube (one scale for
//! all axes), so a thin axis is split only where its cells are as large as the others'.
//!
//! The 8-wide nodes are made straight from the sorted codes, top-down: a node takes the two
//! halves of its run, then splits again the child whose cell is largest (the highest
//! differing bit; the most primitives among equals) until it has 8 children or only leaves
//! are left. That is the greedy collapse of `collapse.rs` with the cell's size standing in
//! for the box's area, which the codes give without looking at a primitive. So nothing is
//! read per node but the codes: the boxes come bottom-up, each leaf's from its primitives
//! (read once, when the leaf is made) and each node's as the union of its children's.
//!
//! Its cost is one pass over the primitives for the codes (counting the radix sort's digits
//! on the way), the sort (three passes of 10 bits, fewer when a digit is the same for all),
//! a binary search per split, and one read of each primitive at its leaf. A mesh's leaves
//! are written as their 4-triangle blocks right there ([`Tree::build_fast_blocks`]), so the
//! triangles are read twice in all and no per-primitive record is ever stored.

use crate::arrays::Each;
use glam::{Vec3, Vec3A};

use super::build::{NodeInfo, PrimRef};
use super::collapse::{WideBuilder, WideTree};
use super::kernels::TriBlock4;
use super::node::{Bounds, ChildRef, WIDTH, WideNode};
use super::{BvhStats, Tree};

/// Bits per axis of the Morton code (30 in all).
const BITS: u32 = 10;
/// Bits per radix sort pass, and the passes that cover the code.
const DIGIT: u32 = 10;
const BUCKETS: usize = 1 << DIGIT;
const PASSES: usize = 3;
const _: () = assert!(DIGIT * PASSES as u32 == 3 * BITS);

/// Subtrees with more primitives than this are built on another thread.
#[cfg(feature = "rayon")]
const PARALLEL_THRESHOLD: usize = 4096;

/// Spreads the low 10 bits of `x` to every third bit (bit `i` to bit `3 i`).
const fn spread(x: u32) -> u32 {
    let mut x = x & 0x3ff;
    x = (x | (x << 16)) & 0x0300_00ff;
    x = (x | (x << 8)) & 0x0300_f00f;
    x = (x | (x << 4)) & 0x030c_30c3;
    (x | (x << 2)) & 0x0924_9249
}

/// [`spread`] of every 10-bit number: three lookups cost less than three spreads.
static SPREAD: [u32; 1 << BITS] = {
    let mut table = [0; 1 << BITS];
    let mut i = 0;
    while i < table.len() {
        table[i] = spread(i as u32);
        i += 1;
    }
    table
};

/// The Morton grid over a box: 2^10 cubic cells per axis (one scale for all axes).
#[derive(Clone, Copy)]
struct Grid {
    min: Vec3A,
    scale: f32,
}

impl Grid {
    fn new(bounds: &Bounds) -> Self {
        let cells = (1u32 << BITS) as f32;
        let extent = (bounds.max - bounds.min).max_element();
        // Just below `cells / extent`, so that a point on the box's max lands in the last cell.
        let scale = if extent > 0.0 { cells * (1.0 - 1e-6) / extent } else { 0.0 };
        Self { min: bounds.min, scale }
    }

    /// The code of the cell of `p` (points outside the box go to the nearest cell).
    #[inline]
    fn code(&self, p: Vec3A) -> u32 {
        // The cell is `floor((p - min) * scale)`, computed as `(p - min) * scale - 1/2`
        // rounded to the nearest integer by adding 2^23, after which the integer is in the
        // low bits of the float (as `build.rs` bins): cheaper than three float-to-integer
        // conversions, and the same but for exact ties. The mask keeps the table index in
        // range whatever the float held, which drops the bounds checks.
        const ROUND: f32 = 8_388_608.0;
        const MASK: u32 = (1 << BITS) - 1;
        let last = Vec3A::splat(MASK as f32);
        let t = ((p - self.min) * self.scale - Vec3A::splat(0.5)).min(last).max(Vec3A::ZERO);
        let [x, y, z] = (t + Vec3A::splat(ROUND)).to_array().each(|c| SPREAD[(c.to_bits() & MASK) as usize]);
        (x << 2) | (y << 1) | z
    }
}

/// The sort keys `code << 32 | index`, with the counts of the code's top radix digit
/// gathered as they are pushed (so the sort needs no counting pass over all the keys).
struct Keys {
    keys: Vec<u64>,
    counts: Vec<u32>,
}

/// The code of a sort key.
#[inline]
fn code(key: u64) -> u32 {
    (key >> 32) as u32
}

/// The radix digit `pass` (0 the lowest) of a sort key.
#[inline]
fn digit(key: u64, pass: usize) -> usize {
    (key >> (32 + DIGIT * pass as u32)) as usize & (BUCKETS - 1)
}

/// Buckets of at most this many keys are sorted by comparison, not by digits.
const SMALL_BUCKET: usize = 256;

impl Keys {
    fn with_capacity(n: usize) -> Self {
        Self { keys: Vec::with_capacity(n), counts: vec![0; BUCKETS] }
    }

    #[inline]
    fn push(&mut self, code: u32, index: u32) {
        let key = (u64::from(code) << 32) | u64::from(index);
        self.counts[digit(key, PASSES - 1)] += 1;
        self.keys.push(key);
    }

    /// The keys sorted by code, stably (equal codes keep the order they were pushed in).
    ///
    /// One pass over all the keys scatters them by the code's top digit; then each bucket,
    /// which is small enough to stay in cache, is sorted on its own by the two lower digits
    /// (least significant first). Three scatters over the whole array would each write to
    /// a thousand places far apart, missing the cache and the TLB on almost every key.
    fn sort(self) -> Vec<u64> {
        let n = self.keys.len();
        let mut scratch = self.keys;
        let mut keys = vec![0u64; n];
        let mut next = vec![0u32; BUCKETS];
        let mut sum = 0;
        for (start, &count) in next.iter_mut().zip(&self.counts) {
            *start = sum;
            sum += count;
        }
        for &k in &scratch {
            let d = digit(k, PASSES - 1);
            keys[next[d] as usize] = k;
            next[d] += 1;
        }
        let mut start = 0;
        for &count in &self.counts {
            let end = start + count as usize;
            sort_bucket(&mut keys[start..end], &mut scratch[start..end]);
            start = end;
        }
        keys
    }
}

/// Sorts keys that share their top digit by the lower two, stably, with `scratch` (as long).
fn sort_bucket(keys: &mut [u64], scratch: &mut [u64]) {
    if keys.len() <= SMALL_BUCKET {
        // Keys are distinct (their indices are), so by value is by code, then by push order.
        keys.sort_unstable();
        return;
    }
    let mut counts = [[0u32; BUCKETS]; PASSES - 1];
    for &k in keys.iter() {
        for (pass, c) in counts.iter_mut().enumerate() {
            c[digit(k, pass)] += 1;
        }
    }
    let scatter = |from: &[u64], to: &mut [u64], pass: usize, counts: &[u32; BUCKETS]| {
        let mut next = [0u32; BUCKETS];
        let mut sum = 0;
        for (start, &count) in next.iter_mut().zip(counts) {
            *start = sum;
            sum += count;
        }
        for &k in from {
            let d = digit(k, pass);
            to[next[d] as usize] = k;
            next[d] += 1;
        }
    };
    scatter(keys, scratch, 0, &counts[0]);
    scatter(scratch, keys, 1, &counts[1]);
}

/// Where in a run of sorted keys (more than one) its node splits: at the first code with
/// the highest differing bit set, or in the middle of a run of equal codes.
#[inline]
fn split_point(keys: &[u64]) -> usize {
    let n = keys.len();
    let (a, b) = (code(keys[0]), code(keys[n - 1]));
    if a == b {
        return n / 2;
    }
    // Every code of the run shares the bits above `bit`; those with `bit` clear come first.
    let bit = 1u32 << (31 - (a ^ b).leading_zeros());
    keys.partition_point(|&k| code(k) & bit == 0)
}

/// How large the cell of a run is: the position of the highest bit in which its first and
/// last codes differ (0 for equal codes), then its length among equal cells.
#[inline]
fn cell_size(keys: &[u64]) -> u64 {
    let (a, b) = (code(keys[0]), code(keys[keys.len() - 1]));
    (u64::from(32 - (a ^ b).leading_zeros()) << 32) | keys.len() as u64
}

/// What the builder does with a leaf: the primitives' storage is the caller's.
pub(crate) trait Leaves: Send + Sync + Sized {
    /// Makes the leaf of the primitives whose sorted keys are `keys` (from position `first`
    /// of the sorted order) and returns its reference and box.
    fn leaf(&mut self, keys: &[u64], first: usize) -> (ChildRef, Bounds);
    /// An empty store for a subtree built on another thread.
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))]
    fn fork(&self) -> Self;
    /// Appends a forked store's leaves; returns how far the first-primitive field of its
    /// leaf references moves.
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))]
    fn append(&mut self, other: Self) -> u32;
}

/// A built subtree: its reference, box, wide depth (0 for a leaf), and SAH cost
/// `Σ A(node) + Σ A(leaf) n(leaf)` (unnormalised).
#[derive(Clone, Copy)]
struct Subtree {
    r: ChildRef,
    bounds: Bounds,
    depth: usize,
    cost: f64,
}

/// The wide tree over sorted keys, with its SAH cost (unnormalised).
struct Built {
    wide: WideTree,
    cost: f64,
}

struct Builder<'k> {
    keys: &'k [u64],
    max_leaf: usize,
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))]
    parallel: bool,
}

/// Builds the wide tree over the sorted `keys` (at least one), leaves of at most
/// `max_leaf`, written by `leaves`.
fn build<L: Leaves>(keys: &[u64], max_leaf: usize, leaves: &mut L) -> Built {
    debug_assert!(!keys.is_empty() && max_leaf >= 1);
    let b = Builder { keys, max_leaf, parallel: super::collapse::parallel() };
    // At least one node per 8 leaves, and leaves hold 2.5 to 4 primitives on most meshes.
    let mut nodes = Vec::with_capacity(keys.len() / (2 * max_leaf).max(8) + 1);
    let s = b.subtree(0, keys.len(), &mut nodes, leaves);
    Built { wide: WideTree { nodes, root: s.r, root_bounds: s.bounds, depth: s.depth }, cost: s.cost }
}

impl Builder<'_> {
    /// The runs of a node's children, in order: its own run split greedily, the largest
    /// cell first (the first of equals), until there are [`WIDTH`] or all are leaves.
    fn children(&self, start: usize, len: usize) -> ([(usize, usize); WIDTH], usize) {
        // Each run with its cell's size, or 0 for a leaf.
        let size = |s: usize, l: usize| if l > self.max_leaf { cell_size(&self.keys[s..s + l]) } else { 0 };
        let mut runs = [(0, 0); WIDTH];
        let mut sizes = [0u64; WIDTH];
        runs[0] = (start, len);
        sizes[0] = size(start, len);
        let mut n = 1;
        while n < WIDTH {
            let mut pick = 0;
            for i in 1..n {
                if sizes[i] > sizes[pick] {
                    pick = i;
                }
            }
            if sizes[pick] == 0 {
                break;
            }
            let (s, l) = runs[pick];
            let k = split_point(&self.keys[s..s + l]);
            // The halves take the run's place, in order, so lanes stay in sorted order.
            runs.copy_within(pick + 1..n, pick + 2);
            sizes.copy_within(pick + 1..n, pick + 2);
            runs[pick] = (s, k);
            runs[pick + 1] = (s + k, l - k);
            sizes[pick] = size(s, k);
            sizes[pick + 1] = size(s + k, l - k);
            n += 1;
        }
        (runs, n)
    }

    /// The leaf or subtree of the run `start..start + len`, its nodes appended to `nodes`
    /// (parents first, children's subtrees in lane order).
    fn subtree<L: Leaves>(
        &self,
        start: usize,
        len: usize,
        nodes: &mut Vec<WideNode>,
        leaves: &mut L,
    ) -> Subtree {
        if len <= self.max_leaf {
            let (r, bounds) = leaves.leaf(&self.keys[start..start + len], start);
            let cost = bounds.half_area_f64() * len as f64;
            return Subtree { r, bounds, depth: 0, cost };
        }
        let (runs, n) = self.children(start, len);
        let index = nodes.len();
        nodes.push(WideNode::EMPTY);
        // The children already built on other threads, if any.
        #[cfg(feature = "rayon")]
        let built = if self.parallel && len > PARALLEL_THRESHOLD {
            self.in_parallel(&runs[..n], nodes, leaves)
        } else {
            [None; WIDTH]
        };
        #[cfg(not(feature = "rayon"))]
        let built: [Option<Subtree>; WIDTH] = [None; WIDTH];
        let (mut bounds, mut cost, mut depth) = (Bounds::EMPTY, 0.0, 0);
        for (lane, (&(s, l), done)) in runs[..n].iter().zip(built).enumerate() {
            let child = done.unwrap_or_else(|| self.subtree(s, l, nodes, leaves));
            nodes[index].set_child(lane, &child.bounds, child.r);
            bounds.grow(&child.bounds);
            cost += child.cost;
            depth = depth.max(child.depth);
        }
        cost += bounds.half_area_f64();
        Subtree { r: ChildRef::inner(index as u32), bounds, depth: depth + 1, cost }
    }

    /// Builds the inner children of a node on other threads, each into its own vectors, and
    /// appends them in lane order with their references shifted: exactly what building them
    /// one after the other would have appended. Leaf children are made here too, in lane
    /// order between the appends, so each takes a sequential build's place among the leaves.
    /// Returns every child, by lane.
    #[cfg(feature = "rayon")]
    fn in_parallel<L: Leaves>(
        &self,
        runs: &[(usize, usize)],
        nodes: &mut Vec<WideNode>,
        leaves: &mut L,
    ) -> [Option<Subtree>; WIDTH] {
        use rayon::prelude::*;
        let mut built = [None; WIDTH];
        let parts: Vec<Option<(Subtree, Vec<WideNode>, L)>> = runs
            .par_iter()
            .map(|&(s, l)| {
                (l > self.max_leaf).then(|| {
                    let (mut local, mut mine) = (Vec::new(), leaves.fork());
                    let sub = self.subtree(s, l, &mut local, &mut mine);
                    (sub, local, mine)
                })
            })
            .collect();
        for (lane, part) in parts.into_iter().enumerate() {
            let Some((sub, local, mine)) = part else {
                // A leaf: made now, in lane order, so its place among the leaves is a
                // sequential build's. Later leaves come after it, so later subtrees must wait.
                let (s, l) = runs[lane];
                built[lane] = Some(self.subtree(s, l, nodes, leaves));
                continue;
            };
            let base = nodes.len() as u32;
            let moved = leaves.append(mine);
            let shift = |r: ChildRef| {
                if r == ChildRef::EMPTY {
                    r
                } else if r.is_leaf() {
                    let (first, count) = r.leaf_range();
                    ChildRef::leaf(first as u32 + moved, count as u32)
                } else {
                    ChildRef::inner(r.index() as u32 + base)
                }
            };
            nodes.extend(local.into_iter().map(|mut node| {
                node.children = node.children.each(shift);
                node
            }));
            built[lane] = Some(Subtree { r: shift(sub.r), ..sub });
        }
        built
    }
}

/// The splitter of [`BuildQuality::Fast`](super::BuildQuality::Fast) for a [`Tree`] over
/// boxes: the primitive records sorted along the Morton curve, and their sorted keys.
pub(crate) struct MortonSplitter {
    keys: Vec<u64>,
    max_leaf: usize,
}

impl MortonSplitter {
    /// Sorts `prims` along the Morton curve of their centroids (whose box is `centers2`, in
    /// the doubled coordinates of [`PrimRef::center2`]).
    pub fn sort(prims: &mut Vec<PrimRef>, centers2: &Bounds, max_leaf: usize) -> Self {
        let grid = Grid::new(centers2);
        let mut keys = Keys::with_capacity(prims.len());
        for (i, p) in prims.iter().enumerate() {
            keys.push(grid.code(p.center2()), i as u32);
        }
        let keys = keys.sort();
        *prims = keys.iter().map(|&k| prims[k as u32 as usize]).collect();
        Self { keys, max_leaf }
    }
}

/// The leaves of a [`Tree`] over boxes: runs of the sorted primitive records.
struct PrimLeaves<'a> {
    prims: &'a [PrimRef],
}

impl Leaves for PrimLeaves<'_> {
    fn leaf(&mut self, keys: &[u64], first: usize) -> (ChildRef, Bounds) {
        let bounds = self.prims[first..first + keys.len()].iter().fold(Bounds::EMPTY, |mut b, p| {
            b.grow(&p.bounds());
            b
        });
        (ChildRef::leaf(first as u32, keys.len() as u32), bounds)
    }

    fn fork(&self) -> Self {
        Self { prims: self.prims }
    }

    fn append(&mut self, _other: Self) -> u32 {
        0 // leaves refer to the shared sorted order
    }
}

impl WideBuilder for MortonSplitter {
    fn build_wide(&self, prims: &mut [PrimRef], _info: NodeInfo) -> WideTree {
        build(&self.keys, self.max_leaf, &mut PrimLeaves { prims }).wide
    }
}

/// The leaves of a mesh: each one a [`TriBlock4`] of its triangles, referred to by its
/// block index (and a count of 1).
struct BlockLeaves<'a> {
    vertices: &'a [Vec3],
    indices: &'a [[u32; 3]],
    blocks: Vec<TriBlock4>,
}

impl Leaves for BlockLeaves<'_> {
    fn leaf(&mut self, keys: &[u64], _first: usize) -> (ChildRef, Bounds) {
        let mut tris = [(0u32, [Vec3::ZERO; 3]); 4];
        let mut bounds = Bounds::EMPTY;
        for (slot, &k) in tris.iter_mut().zip(keys) {
            let triangle = k as u32;
            let corners = self.indices[triangle as usize].each(|i| self.vertices[i as usize]);
            for p in corners {
                bounds.grow_point(p.into());
            }
            *slot = (triangle, corners);
        }
        self.blocks.push(TriBlock4::new(&tris[..keys.len()]));
        (ChildRef::leaf(self.blocks.len() as u32 - 1, 1), bounds)
    }

    fn fork(&self) -> Self {
        Self { vertices: self.vertices, indices: self.indices, blocks: Vec::new() }
    }

    fn append(&mut self, other: Self) -> u32 {
        let moved = self.blocks.len() as u32;
        self.blocks.extend(other.blocks);
        moved
    }
}

/// A mesh's [`BuildQuality::Fast`](super::BuildQuality::Fast) tree and its blocks.
pub(crate) struct FastBlocks {
    /// The tree; its leaves refer to `blocks`, and its `order` is empty.
    pub tree: Tree,
    pub blocks: Vec<TriBlock4>,
    /// The triangles left out because `keep` said no.
    pub left_out: usize,
}

impl Tree {
    /// The [`BuildQuality::Fast`](super::BuildQuality::Fast) tree over the triangles for
    /// which `keep` is true, with leaves of up to 4 triangles, each a [`TriBlock4`] (in
    /// the order the walk meets them, which is the Morton order). `vertices` must be finite.
    ///
    /// The Morton grid spans the vertices' box rather than the triangles' centroids' (which
    /// would cost another pass over the triangles): the same grid up to half a triangle at
    /// the edges, but a mesh with far-away unused vertices gets coarser cells (a slower
    /// tree, never a wrong one).
    ///
    /// # Errors
    /// The first triangle with a vertex index out of range.
    pub(crate) fn build_fast_blocks(
        vertices: &[Vec3],
        indices: &[[u32; 3]],
        keep: impl Fn(Vec3, Vec3, Vec3) -> bool,
    ) -> Result<FastBlocks, usize> {
        let vertex_bounds = vertices.iter().fold(Bounds::EMPTY, |mut b, &v| {
            b.grow_point(v.into());
            b
        });
        let grid = Grid::new(&vertex_bounds);
        let mut keys = Keys::with_capacity(indices.len());
        for (triangle, tri) in indices.iter().enumerate() {
            let [a, b, c] = tri.each(|i| vertices.get(i as usize).copied());
            let (Some(a), Some(b), Some(c)) = (a, b, c) else { return Err(triangle) };
            if keep(a, b, c) {
                let (a, b, c) = (Vec3A::from(a), Vec3A::from(b), Vec3A::from(c));
                let bounds = Bounds { min: a.min(b).min(c), max: a.max(b).max(c) };
                keys.push(grid.code(bounds.centroid()), triangle as u32);
            }
        }
        let left_out = indices.len() - keys.keys.len();
        let keys = keys.sort();
        let mut leaves = BlockLeaves { vertices, indices, blocks: Vec::with_capacity(keys.len() / 2 + 1) };
        let mut tree = Self::empty();
        if keys.is_empty() {
            return Ok(FastBlocks { tree, blocks: Vec::new(), left_out });
        }
        let built = build(&keys, 4, &mut leaves);
        let wide = built.wide;
        let root_area = wide.root_bounds.half_area_f64();
        tree.stats = BvhStats {
            primitive_count: keys.len(),
            node_count: wide.nodes.len(),
            leaf_count: leaves.blocks.len(),
            depth: wide.depth,
            sah_cost: if root_area > 0.0 { (built.cost / root_area) as f32 } else { built.cost as f32 },
        };
        tree.nodes = super::finish_nodes(wide.nodes);
        tree.root = wide.root;
        tree.root_min = wide.root_bounds.min.into();
        tree.root_max = wide.root_bounds.max.into();
        Ok(FastBlocks { tree, blocks: super::pages::on_huge_pages(leaves.blocks), left_out })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_interleaves() {
        assert_eq!(spread(0b1), 0b1);
        assert_eq!(spread(0b11), 0b1001);
        assert_eq!(spread(0x3ff), 0x0924_9249);
    }

    #[test]
    fn radix_sort_is_stable_and_sorted() {
        // 1. Codes over all 30 bits: buckets small enough for the comparison sort.
        // 2. 22 bits: four large buckets sorted by digits.
        // 3. 12 bits: one bucket.
        // 4. 3 bits: one bucket of many equal codes, which must keep their order.
        for code_bits in [30, 22, 12, 3] {
            let mut keys = Keys::with_capacity(20_000);
            let codes: Vec<u32> =
                (0..20_000u32).map(|i| i.wrapping_mul(2_654_435_761) >> (32 - code_bits)).collect();
            for (i, &c) in codes.iter().enumerate() {
                keys.push(c, i as u32);
            }
            let mut expected: Vec<u64> =
                codes.iter().enumerate().map(|(i, &c)| (u64::from(c) << 32) | i as u64).collect();
            expected.sort_unstable();
            assert_eq!(keys.sort(), expected);
        }
    }

    /// A mesh's `Fast` tree and blocks (everything the mesh holds) are the same on any
    /// number of threads: a terrain of 20,000 triangles has subtrees above the parallel
    /// threshold, a soup of overlapping triangles has equal codes, and both have zero-area
    /// triangles left out.
    #[cfg(feature = "rayon")]
    #[test]
    fn mesh_trees_do_not_depend_on_the_thread_count() {
        use crate::BuildQuality;
        use crate::mesh::{TriMesh, scene};
        let mut soup = scene::triangle_soup(9000, 0.5, 7);
        soup.indices.extend([[0, 0, 1], [2, 2, 2]]);
        for data in [scene::terrain(100, 3), soup] {
            let build = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let mesh = pool.install(|| {
                    TriMesh::with_quality(data.vertices.clone(), data.indices.clone(), BuildQuality::Fast)
                });
                format!("{:?}", mesh.unwrap())
            };
            assert_eq!(build(1), build(4));
        }
    }

    #[test]
    fn splits_at_the_highest_differing_bit() {
        let keys = |codes: &[u32]| codes.iter().map(|&c| u64::from(c) << 32).collect::<Vec<_>>();
        // 1. Codes differing first in bit 2: the split is at the first code with bit 2 set.
        assert_eq!(split_point(&keys(&[0b001, 0b011, 0b100, 0b111])), 2);
        // 2. Equal codes: the middle.
        assert_eq!(split_point(&keys(&[5, 5, 5, 5, 5])), 2);
        // 3. One code apart from the rest.
        assert_eq!(split_point(&keys(&[1, 1, 1, 1 << 20])), 3);
    }
}
