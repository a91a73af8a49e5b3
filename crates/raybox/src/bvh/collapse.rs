//! Binary splits to 8-wide nodes, while building: each wide node takes the two halves of its
//! first split, then splits again, greedily, the child with the largest surface area (the
//! most likely to be visited) until it has 8 children or only leaves are left. This is the
//! collapse of Ernst & Greiner 2008 (and tinybvh's `MBVH::ConvertFrom`) done on the fly, as
//! Embree's wide builders do, so no binary tree is ever stored. (`Fast` makes its wide
//! nodes the same way in `morton.rs`, from the sorted Morton codes alone.)
//!
//! Nodes are written parents first, each wide node followed by its children's subtrees in
//! lane order (depth-first). Large subtrees are built on other threads into their own
//! vectors and appended in lane order with their indices shifted, which gives exactly the
//! tree a single thread builds.

use super::build::{NodeInfo, PrimRef, SahSplitter, Splitter};
use super::node::{BinaryNode, Bounds, ChildRef, LEAF_BIT, WIDTH, WideNode};
use crate::arrays::Each;

pub(crate) struct WideTree {
    pub nodes: Vec<WideNode>,
    /// The root: an inner node (index 0) or, for a tree of one leaf, that leaf.
    pub root: ChildRef,
    pub root_bounds: Bounds,
    /// Wide levels from the root to the deepest leaf (a lone leaf has depth 0).
    pub depth: usize,
}

/// Subtrees with more primitives than this are built on another thread.
#[cfg(feature = "rayon")]
const PARALLEL_THRESHOLD: usize = 4096;

/// A child of the wide node being assembled: a binary node whose `a` is the offset of its
/// primitives within the wide node's and whose `b` is their count (with [`LEAF_BIT`] once
/// the splitter has declined to split it), with what splitting it further needs.
#[derive(Clone, Copy)]
struct Child {
    node: BinaryNode,
    centers: Bounds,
    depth: u32,
    /// [`Splitter::area`] of `node.bounds`, computed once: the search for the largest child
    /// reads it up to 7 times per child.
    area: f32,
}

impl Child {
    const UNUSED: Self = Self { node: BinaryNode::UNUSED, centers: Bounds::EMPTY, depth: 0, area: 0.0 };

    fn open(offset: usize, count: usize, info: NodeInfo, depth: u32, splitter: &impl Splitter) -> Self {
        Self {
            node: BinaryNode { bounds: info.bounds, a: offset as u32, b: count as u32 },
            centers: info.centers,
            depth,
            area: splitter.area(&info.bounds),
        }
    }

    fn range(&self) -> core::ops::Range<usize> {
        let (offset, count) = self.node.leaf_range();
        offset as usize..(offset + count) as usize
    }

    fn info(&self) -> NodeInfo {
        NodeInfo { bounds: self.node.bounds, centers: self.centers }
    }
}

/// A way of making the wide tree over primitive records: the greedy collapse below for the
/// SAH splitter, the Morton builder (`morton.rs`) for `Fast`.
pub(crate) trait WideBuilder {
    /// Builds the wide tree over `prims` (whose boxes are `info`); `prims` ends in leaf order.
    fn build_wide(&self, prims: &mut [PrimRef], info: NodeInfo) -> WideTree;
}

impl WideBuilder for SahSplitter {
    fn build_wide(&self, prims: &mut [PrimRef], info: NodeInfo) -> WideTree {
        let b = Builder { splitter: self, parallel: parallel() };
        let mut nodes = Vec::with_capacity(prims.len() / 8 + 1);
        let (root, depth) = b.subtree(prims, 0, info, 0, &mut nodes);
        WideTree { nodes, root, root_bounds: info.bounds, depth }
    }
}

/// Builds the wide tree over `prims` (whose boxes are `info`) with `builder`; `prims` ends
/// in leaf order.
pub(crate) fn build_wide<B: WideBuilder>(builder: &B, prims: &mut [PrimRef], info: NodeInfo) -> WideTree {
    builder.build_wide(prims, info)
}

/// Whether subtrees may go to other threads (more than one in rayon's pool).
#[cfg(feature = "rayon")]
pub(super) fn parallel() -> bool {
    rayon::current_num_threads() > 1
}

#[cfg(not(feature = "rayon"))]
pub(super) fn parallel() -> bool {
    false
}

struct Builder<'a, S> {
    splitter: &'a S,
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))]
    parallel: bool,
}

impl<S: Splitter> Builder<'_, S> {
    /// Builds the subtree of `prims` (at `first` in the build order, `depth` binary levels
    /// down), appending its nodes to `nodes`; returns its reference and wide depth.
    fn subtree(
        &self,
        prims: &mut [PrimRef],
        first: usize,
        info: NodeInfo,
        depth: u32,
        nodes: &mut Vec<WideNode>,
    ) -> (ChildRef, usize) {
        let n = prims.len();
        let Some((k, left, right)) = self.splitter.split(prims, first, &info, depth) else {
            return (ChildRef::leaf(first as u32, n as u32), 0);
        };
        let mut kids = [Child::UNUSED; WIDTH];
        kids[0] = Child::open(0, k, left, depth + 1, self.splitter);
        kids[1] = Child::open(k, n - k, right, depth + 1, self.splitter);
        let mut len = 2;
        while len < WIDTH {
            // The open child with the largest area (the first of equals).
            let mut pick: Option<(usize, f32)> = None;
            for (i, c) in kids[..len].iter().enumerate() {
                if !c.node.is_leaf() && pick.is_none_or(|(_, best)| c.area > best) {
                    pick = Some((i, c.area));
                }
            }
            let Some((i, _)) = pick else { break };
            let c = kids[i];
            let range = c.range();
            let offset = range.start;
            match self.splitter.split(&mut prims[range.clone()], first + offset, &c.info(), c.depth) {
                None => kids[i].node.b |= LEAF_BIT,
                Some((k, left, right)) => {
                    // The halves take the child's place, in order, so lanes stay in build order.
                    kids.copy_within(i + 1..len, i + 2);
                    kids[i] = Child::open(offset, k, left, c.depth + 1, self.splitter);
                    kids[i + 1] = Child::open(offset + k, range.len() - k, right, c.depth + 1, self.splitter);
                    len += 1;
                }
            }
        }
        let index = nodes.len();
        nodes.push(WideNode::EMPTY);
        let mut wide_depth = 0;
        #[cfg(feature = "rayon")]
        if self.parallel && n > PARALLEL_THRESHOLD {
            let built = self.children_in_parallel(prims, first, &kids[..len]);
            for (lane, (c, (r, local, d))) in kids[..len].iter().zip(built).enumerate() {
                let base = nodes.len() as u32;
                let shift =
                    |r: ChildRef| if r.is_leaf() { r } else { ChildRef::inner(r.index() as u32 + base) };
                nodes.extend(local.into_iter().map(|mut node| {
                    node.children = node.children.each(shift);
                    node
                }));
                wide_depth = wide_depth.max(d);
                nodes[index].set_child(lane, &c.node.bounds, shift(r));
            }
            return (ChildRef::inner(index as u32), 1 + wide_depth);
        }
        for (lane, c) in kids[..len].iter().enumerate() {
            let range = c.range();
            let r = if c.node.is_leaf() {
                ChildRef::leaf((first + range.start) as u32, range.len() as u32)
            } else {
                let (r, d) =
                    self.subtree(&mut prims[range.clone()], first + range.start, c.info(), c.depth, nodes);
                wide_depth = wide_depth.max(d);
                r
            };
            nodes[index].set_child(lane, &c.node.bounds, r);
        }
        (ChildRef::inner(index as u32), 1 + wide_depth)
    }

    /// Each child's subtree in its own vector (its root, if inner, at index 0).
    #[cfg(feature = "rayon")]
    fn children_in_parallel(
        &self,
        prims: &mut [PrimRef],
        first: usize,
        kids: &[Child],
    ) -> Vec<(ChildRef, Vec<WideNode>, usize)> {
        use rayon::prelude::*;
        let mut jobs = Vec::with_capacity(kids.len());
        let mut rest = prims;
        for c in kids {
            let (mine, tail) = rest.split_at_mut(c.range().len());
            jobs.push((mine, c));
            rest = tail;
        }
        jobs.into_par_iter()
            .map(|(mine, c)| {
                let start = first + c.range().start;
                if c.node.is_leaf() {
                    return (ChildRef::leaf(start as u32, mine.len() as u32), Vec::new(), 0);
                }
                let mut local = Vec::new();
                let (r, d) = self.subtree(mine, start, c.info(), c.depth, &mut local);
                (r, local, d)
            })
            .collect()
    }
}

#[cfg(all(test, feature = "rayon"))]
mod tests {
    use super::super::{BuildQuality, Tree};
    use crate::arrays::Each;
    use crate::bvh::Bounds;
    use glam::Vec3A;

    /// Boxes scattered by a small generator, some of them equal (ties in every splitter).
    fn boxes(n: usize) -> Vec<Bounds> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 24) as f32
        };
        (0..n)
            .map(|i| {
                if i % 97 == 0 {
                    return Bounds { min: Vec3A::ZERO, max: Vec3A::splat(0.01) };
                }
                let c = Vec3A::new(next(), next() * 0.2, next());
                let h = Vec3A::new(next(), next(), next()) * 0.01;
                Bounds { min: c - h, max: c + h }
            })
            .collect()
    }

    #[test]
    fn the_tree_does_not_depend_on_the_thread_count() {
        let prims = boxes(40_000);
        let build = |threads: usize, quality: BuildQuality| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| Tree::build(&prims, quality, 4, 4).unwrap())
        };
        for quality in [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High] {
            let (one, four) = (build(1, quality), build(4, quality));
            four.validate(&prims).unwrap();
            assert_eq!(one.order, four.order, "{quality:?}");
            assert_eq!(one.root, four.root);
            assert_eq!(one.stats, four.stats);
            assert_eq!(one.nodes.len(), four.nodes.len());
            for (a, b) in one.nodes.iter().zip(&four.nodes) {
                assert_eq!(a.children, b.children, "{quality:?}");
                assert_eq!(a.planes.each(|r| r.each(f32::to_bits)), b.planes.each(|r| r.each(f32::to_bits)));
            }
        }
    }
}
