//! The binary builder: top-down binned surface area heuristic (SAH).
//!
//! Wald, *On fast Construction of SAH-based Bounding Volume Hierarchies* (2007): bin the
//! primitive centroids along an axis, sweep the bins from both ends to find the plane
//! that minimises `C_trav + C_int (A_L N_L + A_R N_R) / A`, and make a leaf when that is
//! no cheaper than `C_int N`. The node array is preallocated (a subtree over `n`
//! primitives uses at most `2n - 1` nodes, so each subtree owns a fixed slice of it) and
//! large subtrees are built in parallel with `rayon::join`.

use glam::Vec3A;

use super::node::{BinaryNode, Bounds, LEAF_BIT, MAX_LEAF_SIZE};

/// How the builder trades build time for tree quality.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BuildQuality {
    /// 8 bins on the widest centroid axis only: the quickest build, a little slower to trace.
    Fast,
    /// 16 bins on each of the 3 axes: the default.
    #[default]
    Balanced,
    /// 32 bins on each axis near the root and an exact sweep of every split plane for
    /// nodes of 1,024 primitives or fewer: the slowest build, the best trees.
    High,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct BuildParams {
    bins: usize,
    all_axes: bool,
    /// Nodes with at most this many primitives get an exact sweep instead of bins (0: never).
    sweep_below: usize,
    pub max_leaf: u32,
    /// Primitives tested together by one leaf test (4 for the mesh's SIMD triangle blocks):
    /// the SAH counts a leaf's cost in blocks, `ceil(n / block)`, as Embree does.
    block: u32,
}

impl BuildParams {
    /// Parameters for `quality`, with leaves of at most `max_leaf` primitives, tested `block` at a time.
    pub fn new(quality: BuildQuality, max_leaf: u32, block: u32) -> Self {
        let max_leaf = max_leaf.clamp(1, MAX_LEAF_SIZE);
        let block = block.clamp(1, max_leaf);
        match quality {
            BuildQuality::Fast => Self { bins: 8, all_axes: false, sweep_below: 0, max_leaf, block },
            BuildQuality::Balanced => Self { bins: 16, all_axes: true, sweep_below: 0, max_leaf, block },
            BuildQuality::High => Self { bins: 32, all_axes: true, sweep_below: 1024, max_leaf, block },
        }
    }

    /// The number of leaf tests `n` primitives cost.
    #[inline]
    fn blocks(&self, n: usize) -> f32 {
        n.div_ceil(self.block as usize) as f32
    }
}

/// The SAH's relative cost of visiting a node and of testing a primitive.
const TRAVERSAL_COST: f32 = 1.0;
const INTERSECTION_COST: f32 = 1.0;
/// Below this depth the builder stops trusting the SAH and splits at the median, so the
/// tree stays shallow enough for the walks' fixed stacks whatever the input.
const MAX_SAH_DEPTH: u32 = 64;
/// Subtrees with more primitives than this are built on another thread.
const PARALLEL_THRESHOLD: usize = 4096;
const MAX_BINS: usize = 32;

/// The result of a build: the binary nodes (root at 0; unused slots are left over where
/// leaves hold several primitives) and the primitives in leaf order.
pub(crate) struct BinaryTree {
    pub nodes: Vec<BinaryNode>,
    pub order: Vec<u32>,
}

struct Ctx {
    params: BuildParams,
}

/// A primitive as the builder moves it around: partitioning moves these records
/// themselves (not indices to them), so every pass over a node reads memory in order.
#[derive(Clone, Copy, Debug)]
struct Item {
    bounds: Bounds,
    centroid: Vec3A,
    index: u32,
}

/// Builds the binary tree over `prims` (at least one).
pub(crate) fn build_binary(prims: &[Bounds], params: BuildParams) -> BinaryTree {
    debug_assert!(!prims.is_empty());
    let mut items: Vec<Item> = prims
        .iter()
        .enumerate()
        .map(|(i, b)| Item { bounds: *b, centroid: b.centroid(), index: i as u32 })
        .collect();
    let mut nodes = vec![BinaryNode::UNUSED; 2 * prims.len() - 1];
    let ctx = Ctx { params };
    build_node(&ctx, &mut items, 0, &mut nodes, 0, 0);
    BinaryTree { nodes, order: items.iter().map(|it| it.index).collect() }
}

fn bounds_of(order: &[Item]) -> (Bounds, Bounds) {
    let mut bounds = Bounds::EMPTY;
    let mut centroid_bounds = Bounds::EMPTY;
    for it in order {
        bounds.grow(&it.bounds);
        centroid_bounds.grow_point(it.centroid);
    }
    (bounds, centroid_bounds)
}

/// A chosen split: primitives whose centroid is below `pos` on `axis` go left.
struct Split {
    axis: usize,
    /// The SAH cost of the split, relative to the node's area.
    cost: f32,
    how: SplitHow,
}

enum SplitHow {
    /// By bin: centroid bin index `< bin` goes left.
    Bin { bin: usize, lo: f32, scale: f32, bins: usize },
    /// By the first `count` primitives after sorting by centroid.
    Sorted { count: usize },
}

/// Builds the subtree of `order` into `nodes[0..2n-1]`, whose first slot has the global
/// index `node_index`; `first` is the global offset of `order` in the build order.
fn build_node(
    ctx: &Ctx,
    order: &mut [Item],
    first: u32,
    nodes: &mut [BinaryNode],
    node_index: u32,
    depth: u32,
) {
    let n = order.len();
    let (bounds, centroid_bounds) = bounds_of(order);
    let make_leaf = |nodes: &mut [BinaryNode]| {
        nodes[0] = BinaryNode { bounds, a: first, b: LEAF_BIT | n as u32 };
    };
    if n == 1 {
        return make_leaf(nodes);
    }
    let leaf_cost = INTERSECTION_COST * ctx.params.blocks(n);
    let split = if depth < MAX_SAH_DEPTH { find_split(ctx, order, &bounds, &centroid_bounds) } else { None };
    let left_count = match split {
        Some(split) if split.cost < leaf_cost || n > ctx.params.max_leaf as usize => partition(order, &split),
        Some(_) => return make_leaf(nodes),
        None if n <= ctx.params.max_leaf as usize => return make_leaf(nodes),
        None => 0,
    };
    // No usable plane (all centroids equal, or a rounding tie emptied one side): split the
    // primitives in the middle of their order along the widest centroid axis.
    let left_count =
        if left_count == 0 || left_count == n { median_split(order, &centroid_bounds) } else { left_count };

    let (left_order, right_order) = order.split_at_mut(left_count);
    let (this, rest) = nodes.split_at_mut(1);
    let (left_nodes, right_nodes) = rest.split_at_mut(2 * left_count - 1);
    let left_index = node_index + 1;
    let right_index = node_index + 2 * left_count as u32;
    this[0] = BinaryNode { bounds, a: left_index, b: right_index };
    let right_first = first + left_count as u32;
    let mut left = move || build_node(ctx, left_order, first, left_nodes, left_index, depth + 1);
    let mut right = move || build_node(ctx, right_order, right_first, right_nodes, right_index, depth + 1);
    if n > PARALLEL_THRESHOLD {
        join(left, right);
    } else {
        left();
        right();
    }
}

#[cfg(feature = "rayon")]
fn join(a: impl FnOnce() + Send, b: impl FnOnce() + Send) {
    rayon::join(a, b);
}

#[cfg(not(feature = "rayon"))]
fn join(a: impl FnOnce(), b: impl FnOnce()) {
    a();
    b();
}

fn widest_axis(b: &Bounds) -> usize {
    let d: [f32; 3] = core::array::from_fn(|k| b.max[k] - b.min[k]);
    if d[0] >= d[1] && d[0] >= d[2] {
        0
    } else if d[1] >= d[2] {
        1
    } else {
        2
    }
}

/// The cheapest split by the SAH, as a cost relative to the node (`C_trav + C_int Σ A_i N_i / A`).
fn find_split(ctx: &Ctx, order: &mut [Item], bounds: &Bounds, centroid_bounds: &Bounds) -> Option<Split> {
    let parent_area = bounds.half_area();
    let axes: &[usize] = if ctx.params.all_axes { &[0, 1, 2] } else { &[widest_axis(centroid_bounds)] };
    // Axes along which the centroids spread (on the others every split is empty).
    let axes: Vec<usize> =
        axes.iter().copied().filter(|&k| centroid_bounds.max[k] - centroid_bounds.min[k] > 0.0).collect();
    if order.len() <= ctx.params.sweep_below {
        let mut best: Option<Split> = None;
        for &axis in &axes {
            if let Some(c) = sweep_split(&ctx.params, order, axis, parent_area)
                && best.as_ref().is_none_or(|b| c.cost < b.cost)
            {
                best = Some(c);
            }
        }
        // The sweep sorted `order` along the last axis it tried; redo the best one.
        if let Some(b) = &best {
            sort_by_centroid(order, b.axis);
        }
        return best;
    }
    binned_split(ctx, order, &axes, centroid_bounds, parent_area)
}

/// `C_trav + C_int (A_L B_L + A_R B_R) / A` with `B` the leaf blocks of each side (for a
/// zero-area node, just `B_L + B_R`).
fn split_cost(
    params: &BuildParams,
    left_area: f32,
    left_n: usize,
    right_area: f32,
    right_n: usize,
    parent_area: f32,
) -> f32 {
    let (bl, br) = (params.blocks(left_n), params.blocks(right_n));
    let weighted = left_area * bl + right_area * br;
    let relative = if parent_area > 0.0 { weighted / parent_area } else { bl + br };
    TRAVERSAL_COST + INTERSECTION_COST * relative
}

/// Bins the centroids on every axis of `axes` in one pass, then sweeps each axis's bins
/// from both ends for the cheapest plane.
fn binned_split(
    ctx: &Ctx,
    order: &[Item],
    axes: &[usize],
    centroid_bounds: &Bounds,
    parent_area: f32,
) -> Option<Split> {
    if axes.is_empty() {
        return None;
    }
    // Few primitives need few bins (Embree uses 4 + N/20): small nodes are most nodes.
    let bins = ctx.params.bins.min(4 + order.len() / 20);
    let lo = centroid_bounds.min;
    // Slightly below bins / extent, so the largest centroid lands in the last bin.
    let extent = (centroid_bounds.max - centroid_bounds.min).max(Vec3A::splat(f32::MIN_POSITIVE));
    let scale = Vec3A::splat(bins as f32 * (1.0 - 1e-6)) / extent;
    let mut bin_bounds = [[Bounds::EMPTY; MAX_BINS]; 3];
    let mut bin_counts = [[0u32; MAX_BINS]; 3];
    let max_bin = Vec3A::splat((bins - 1) as f32);
    let all_axes = axes.len() == 3;
    for it in order {
        // The bin of the centroid on each axis, clamped to [0, bins - 1] (so the casts are exact).
        let b = ((it.centroid - lo) * scale).min(max_bin).max(Vec3A::ZERO).to_array();
        if all_axes {
            for k in 0..3 {
                let bin = b[k] as u32 as usize;
                bin_bounds[k][bin].grow(&it.bounds);
                bin_counts[k][bin] += 1;
            }
        } else {
            let k = axes[0];
            let bin = b[k] as u32 as usize;
            bin_bounds[k][bin].grow(&it.bounds);
            bin_counts[k][bin] += 1;
        }
    }
    let mut best: Option<Split> = None;
    for &axis in axes {
        let (bounds, counts) = (&bin_bounds[axis], &bin_counts[axis]);
        // Right-to-left sweep: the area of bins b.. for each b.
        let mut right_area = [0.0f32; MAX_BINS];
        let mut acc = Bounds::EMPTY;
        for b in (1..bins).rev() {
            acc.grow(&bounds[b]);
            right_area[b] = acc.half_area();
        }
        let (mut left, mut left_n) = (Bounds::EMPTY, 0usize);
        for b in 1..bins {
            left.grow(&bounds[b - 1]);
            left_n += counts[b - 1] as usize;
            let right_n = order.len() - left_n;
            if left_n == 0 || right_n == 0 {
                continue;
            }
            let cost = split_cost(&ctx.params, left.half_area(), left_n, right_area[b], right_n, parent_area);
            if best.as_ref().is_none_or(|s| cost < s.cost) {
                let how = SplitHow::Bin { bin: b, lo: lo[axis], scale: scale[axis], bins };
                best = Some(Split { axis, cost, how });
            }
        }
    }
    best
}

/// The bin of centroid coordinate `c`: the same arithmetic as the binning loop.
#[inline]
fn bin_of(c: f32, lo: f32, scale: f32, bins: usize) -> usize {
    ((c - lo) * scale).min((bins - 1) as f32).max(0.0) as u32 as usize
}

fn sort_by_centroid(order: &mut [Item], axis: usize) {
    order.sort_unstable_by(|a, b| a.centroid[axis].total_cmp(&b.centroid[axis]).then(a.index.cmp(&b.index)));
}

/// Every split plane between consecutive centroids along `axis` (sorts `order`).
fn sweep_split(params: &BuildParams, order: &mut [Item], axis: usize, parent_area: f32) -> Option<Split> {
    debug_assert!(!order.is_empty());
    sort_by_centroid(order, axis);
    let n = order.len();
    let mut right_area = vec![0.0f32; n];
    let mut acc = Bounds::EMPTY;
    for k in (1..n).rev() {
        acc.grow(&order[k].bounds);
        right_area[k] = acc.half_area();
    }
    let mut left = Bounds::EMPTY;
    let mut best: Option<Split> = None;
    for k in 1..n {
        left.grow(&order[k - 1].bounds);
        let cost = split_cost(params, left.half_area(), k, right_area[k], n - k, parent_area);
        if best.as_ref().is_none_or(|s| cost < s.cost) {
            best = Some(Split { axis, cost, how: SplitHow::Sorted { count: k } });
        }
    }
    best
}

/// Reorders `order` so the left side of `split` comes first; returns its size.
fn partition(order: &mut [Item], split: &Split) -> usize {
    match split.how {
        SplitHow::Sorted { count } => count,
        SplitHow::Bin { bin, lo, scale, bins } => {
            let axis = split.axis;
            let goes_left = |it: &Item| bin_of(it.centroid.to_array()[axis], lo, scale, bins) < bin;
            let (mut i, mut j) = (0, order.len());
            while i < j {
                if goes_left(&order[i]) {
                    i += 1;
                } else {
                    j -= 1;
                    order.swap(i, j);
                }
            }
            i
        }
    }
}

/// Splits at the median centroid along the widest centroid axis (any order when they are all equal).
fn median_split(order: &mut [Item], centroid_bounds: &Bounds) -> usize {
    let axis = widest_axis(centroid_bounds);
    let mid = order.len() / 2;
    order.select_nth_unstable_by(mid, |a, b| {
        a.centroid[axis].total_cmp(&b.centroid[axis]).then(a.index.cmp(&b.index))
    });
    mid
}
