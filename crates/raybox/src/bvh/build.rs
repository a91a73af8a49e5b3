//! Top-down builders: the primitive records they sort, the build qualities, and the binned
//! surface area heuristic (SAH) splitter of `Balanced` and `High`.
//!
//! Every builder here is a *splitter*: given the primitives of a node (a contiguous run of
//! [`PrimRef`]s), it reorders them in place so that the left part comes first and returns
//! where the parts meet, or declines (the node becomes a leaf). `collapse.rs` calls a
//! splitter repeatedly to make 8-wide nodes directly. `Fast` has its own builder in
//! `morton.rs`, which makes the wide nodes from sorted Morton codes.
//!
//! The SAH splitter follows Wald, *On fast Construction of SAH-based Bounding Volume
//! Hierarchies* (2007): bin the primitive centroids along each axis, sweep the bins from both
//! ends to find the plane that minimises `C_trav + C_int (A_L N_L + A_R N_R) / A`, and make a
//! leaf when that is no cheaper than `C_int N` (`N` counted in leaf blocks, as Embree counts
//! its 4-triangle blocks). What keeps it fast: 32-byte primitive records partitioned in place
//! (no index indirection, every pass reads memory in order), one binning pass per node for all
//! three axes, the children's boxes taken from the bins and their centroid boxes gathered
//! during the partition (no separate bounds pass), and no allocation per node.

use crate::arrays::Each;
use glam::{BVec4A, IVec4, Vec3A, Vec4};

use super::node::{Bounds, MAX_LEAF_SIZE};

/// How the builder trades build time for tree quality.
///
/// Every quality makes 8-wide nodes the same way: a node takes the two halves of its first
/// split, then splits its largest child again until it has 8 children or only leaves are
/// left (the greedy collapse of Ernst & Greiner 2008, done while building). "Largest" is the
/// surface area, except at `Fast`, where it is the child's cell of the Morton grid. The
/// qualities differ in how a group of primitives is split in two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BuildQuality {
    /// A linear BVH (Lauterbach et al. 2009, "Fast BVH construction on GPUs"; the split
    /// search of Karras 2012, "Maximizing parallelism in the construction of BVHs"): the
    /// primitives are sorted once by the 30-bit Morton code of their centroids (a radix
    /// sort), and each node splits where the highest bit of the code that differs within it
    /// changes, that is, at the middle of its cell of the Morton grid. No surface areas are
    /// compared and the nodes are chosen from the codes alone, each primitive being read
    /// once more, at its leaf: the quickest build, with trees a little slower to trace than
    /// `Balanced`'s.
    Fast,
    /// Binned SAH (Wald 2007) on all three axes, up to 32 bins per axis (fewer for small
    /// nodes: `4 + n / 20`, as Embree): the default.
    #[default]
    Balanced,
    /// Binned SAH with 32 bins on each axis, and an exact sweep of every split plane between
    /// consecutive centroids on each axis for nodes of 1,024 primitives or fewer: the slowest
    /// build (4x–5x `Balanced`'s on the benchmark meshes). For a
    /// [`TriMesh`](crate::TriMesh) that has not paid off: on the bunny and an 80,000-triangle
    /// terrain its trees take as many instructions per ray as `Balanced`'s, within 1%
    /// (camera and scattered rays), so prefer `Balanced` there. (Spatial splits, which
    /// would make `High` differ in kind, are not built.)
    High,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct BuildParams {
    bins: usize,
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
        let (bins, sweep_below) = match quality {
            BuildQuality::Fast | BuildQuality::Balanced => (32, 0),
            BuildQuality::High => (32, 1024),
        };
        Self { bins, sweep_below, max_leaf, block }
    }

    /// The number of leaf tests `n` primitives cost.
    #[inline]
    pub fn blocks(&self, n: usize) -> f32 {
        let block = self.block as usize;
        // A shift for the usual powers of two (1 and 4): this runs for every bin of every node.
        let blocks = if block.is_power_of_two() {
            (n + block - 1) >> block.trailing_zeros()
        } else {
            n.div_ceil(block)
        };
        blocks as f32
    }
}

/// The SAH's relative cost of visiting a node and of testing a block of primitives.
const TRAVERSAL_COST: f32 = 1.0;
const INTERSECTION_COST: f32 = 1.0;
/// Below this binary depth the SAH splitter stops trusting the SAH and splits at the median,
/// so the tree stays shallow enough for the walks' fixed stacks whatever the input.
pub(crate) const MAX_SAH_DEPTH: u32 = 64;
const MAX_BINS: usize = 32;

/// A primitive as the builders move it around (32 bytes): its box, with the primitive's
/// index stored in the `w` lane of `lo`. The index is kept as the bits of a normal float
/// (`0x4000_0000 | index`: a value between 2 and 2^17), so the lane-wise arithmetic the
/// builders do on whole vectors never meets a denormal, which x86 handles slowly.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PrimRef {
    lo: Vec4,
    hi: Vec4,
}

const INDEX_TAG: u32 = 0x4000_0000;

impl PrimRef {
    #[inline]
    pub fn new(bounds: &Bounds, index: u32) -> Self {
        debug_assert!(index < 1 << 27);
        Self { lo: bounds.min.extend(f32::from_bits(INDEX_TAG | index)), hi: bounds.max.extend(0.0) }
    }

    /// From the three corners of a triangle.
    #[inline]
    pub fn from_points(a: Vec3A, b: Vec3A, c: Vec3A, index: u32) -> Self {
        Self::new(&Bounds { min: a.min(b).min(c), max: a.max(b).max(c) }, index)
    }

    #[inline]
    pub fn index(&self) -> u32 {
        self.lo.w.to_bits() & !INDEX_TAG
    }

    #[inline]
    pub fn bounds(&self) -> Bounds {
        Bounds { min: Vec3A::from_vec4(self.lo), max: Vec3A::from_vec4(self.hi) }
    }

    /// Twice the centroid (`min + max`; the builders bin and sort on it, which saves a
    /// multiplication and orders primitives as the centroid does).
    #[inline]
    pub fn center2(&self) -> Vec3A {
        Vec3A::from_vec4(self.lo + self.hi)
    }
}

/// The boxes of a node that a splitter needs: around the primitives, and around their
/// doubled centroids ([`PrimRef::center2`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeInfo {
    pub bounds: Bounds,
    pub centers: Bounds,
}

impl NodeInfo {
    /// Both boxes of `prims`, in one pass.
    pub fn of(prims: &[PrimRef]) -> Self {
        let (mut lo, mut hi) = (Vec4::INFINITY, Vec4::NEG_INFINITY);
        let (mut clo, mut chi) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY);
        for p in prims {
            lo = lo.min(p.lo);
            hi = hi.max(p.hi);
            let c = p.center2();
            clo = clo.min(c);
            chi = chi.max(c);
        }
        Self {
            bounds: Bounds { min: Vec3A::from_vec4(lo), max: Vec3A::from_vec4(hi) },
            centers: Bounds { min: clo, max: chi },
        }
    }
}

/// A way of splitting a node in two (see the module comment).
pub(crate) trait Splitter: Sync {
    /// Splits the node `prims` (which start at `first` in the whole build's order, `depth`
    /// binary levels below the root): reorders them so the left part comes first and returns
    /// its length (between 1 and `n - 1`) with both parts' boxes, or `None` to make the node
    /// a leaf. Must not return `None` for more than [`BuildParams::max_leaf`] primitives.
    fn split(
        &self,
        prims: &mut [PrimRef],
        first: usize,
        info: &NodeInfo,
        depth: u32,
    ) -> Option<(usize, NodeInfo, NodeInfo)>;

    /// The size by which the collapse picks the child it splits next: its surface area.
    fn area(&self, bounds: &Bounds) -> f32;
}

/// The binned SAH splitter (with an exact sweep for small nodes at `High`).
pub(crate) struct SahSplitter {
    params: BuildParams,
    /// The root box's [`Bounds::area_unit`]: every area of the build is measured in it, so
    /// the build takes the same decisions, and makes the same tree, at every scale.
    unit: f32,
}

/// A chosen split: primitives whose centroid is below the plane on `axis` go left.
struct Candidate {
    axis: usize,
    /// The SAH cost of the split, relative to the node's area.
    cost: f32,
    how: How,
}

enum How {
    /// By bin: centroid bin `< bin` goes left (with the bins' boxes of both sides).
    Bin { binning: Binning, bin: usize, left: Bounds, right: Bounds },
    /// The first `count` primitives after sorting by centroid along `axis`.
    Sorted { count: usize },
}

/// How a node's centroids map to bins: `t = clamp((c - lo) * pre * scale - 1/2, 0, bins - 1)`,
/// rounded to the nearest integer. Rounding is done by adding 2^23 (after which the low
/// bits of the float are the integer): as cheap as it gets, where `as usize` converts and
/// saturates lane by lane. The `- 1/2` makes every bin one unit of `t` wide.
///
/// `pre` is 1 on every axis but one whose centroids span less than [`TINY_SPAN`] (and
/// more than nothing), where `scale = bins / span` would overflow to infinity (below
/// `bins * 2^-128`) and every centroid would fall in the last bin. There it is `2^100`,
/// which makes `span * pre` a normal float and `scale` finite. Powers of two scale
/// exactly, so `(c - lo) * pre * scale` is then the same number, bit for bit, as
/// `(c - lo) * scale` of the same node scaled up by `2^100`, where `pre` is 1: the bins do
/// not depend on the input's scale.
#[derive(Clone, Copy)]
struct Binning {
    lo: Vec3A,
    pre: Vec3A,
    scale: Vec3A,
    max_bin: Vec3A,
    /// Whether `pre` is not 1 on some axis: binning a node's primitives skips the
    /// multiplication by `pre` when it is (it cost 5% of a `Balanced` build's time).
    prescaled: bool,
}

/// Centroid spans below this are binned after scaling by its inverse (see [`Binning`]).
const TINY_SPAN: f32 = 1.0 / (1u128 << 100) as f32;

/// 2^23: adding it to a float in `[0, 2^22]` leaves the nearest integer in the low mantissa bits.
const ROUND: f32 = 8_388_608.0;
const MANTISSA: u32 = (1 << 23) - 1;

impl Binning {
    fn new(centers: &Bounds, bins: usize) -> Self {
        let extent = centers.max - centers.min;
        let tiny = extent.cmplt(Vec3A::splat(TINY_SPAN)) & extent.cmpgt(Vec3A::ZERO);
        let pre = Vec3A::select(tiny, Vec3A::splat(1.0 / TINY_SPAN), Vec3A::ONE);
        // (An axis with no extent is never split; its scale is infinite, as before.)
        let extent = (extent * pre).max(Vec3A::splat(f32::MIN_POSITIVE));
        // Slightly below bins / extent, so the largest centroid lands in the last bin.
        let scale = Vec3A::splat(bins as f32 * (1.0 - 1e-6)) / extent;
        let max_bin = Vec3A::splat((bins - 1) as f32);
        Self { lo: centers.min, pre, scale, max_bin, prescaled: tiny.any() }
    }

    /// The bin of `c` on each axis, for a binning whose [`Binning::prescaled`] is `PRE`
    /// (without it, `pre` is 1 and multiplying by it would change nothing).
    #[inline]
    fn bins<const PRE: bool>(&self, c: Vec3A) -> [usize; 3] {
        let d = if PRE { (c - self.lo) * self.pre } else { c - self.lo };
        let t = (d * self.scale - Vec3A::splat(0.5)).min(self.max_bin).max(Vec3A::ZERO);
        (t + Vec3A::splat(ROUND)).to_array().each(|x| (x.to_bits() & MANTISSA) as usize)
    }

    /// The bin of `c` on axis `AXIS`: that lane of [`Binning::bins`], by the same operations
    /// in the same order, so the partition agrees with the binning exactly. The comparisons
    /// are those of `minps` / `maxps` (the second operand when unordered), so a NaN (from an
    /// infinite scale) becomes the last bin in both.
    #[inline]
    fn bin<const AXIS: usize>(&self, c: Vec3A) -> usize {
        let t = (c[AXIS] - self.lo[AXIS]) * self.pre[AXIS] * self.scale[AXIS] - 0.5;
        let max_bin = self.max_bin[AXIS];
        let t = if t < max_bin { t } else { max_bin };
        let t = if t > 0.0 { t } else { 0.0 };
        ((t + ROUND).to_bits() & MANTISSA) as usize
    }

    /// The smallest float `x` whose bin on `AXIS` is `bin` or more, for a `bin` that
    /// splits the node (`1 <= bin`, and the largest centroid on `AXIS`, `hi`, in `bin` or
    /// above). Every step of [`Binning::bin`] is monotone in `c`, so a centroid's bin is
    /// below `bin` exactly when `c[AXIS] < x`: one comparison per primitive in the
    /// partition instead of the whole mapping. Found by bisection over the ordered floats,
    /// first within 64 floats of where the plane should be, which nearly always holds it.
    fn threshold<const AXIS: usize>(&self, bin: usize, hi: f32) -> f32 {
        let at_or_above = |k: u32| self.bin::<AXIS>(Vec3A::splat(from_key(k))) >= bin;
        // `below` is never at or above the bin, `above` always is.
        let (lo, mut below, mut above) = (self.lo[AXIS], key(self.lo[AXIS]), key(hi));
        let guess = lo + (bin as f32 - 0.5) / self.scale[AXIS] / self.pre[AXIS];
        if guess.is_finite() {
            let g = key(guess.clamp(lo, hi));
            let (a, b) = (g.saturating_sub(64).max(below), g.saturating_add(64).min(above));
            if !at_or_above(a) {
                below = a;
            }
            if at_or_above(b) {
                above = b;
            }
        }
        while above - below > 1 {
            let mid = below + (above - below) / 2;
            if at_or_above(mid) {
                above = mid;
            } else {
                below = mid;
            }
        }
        from_key(above)
    }
}

/// A key that orders floats as they compare (`-0.0` just before `0.0`; no NaNs here).
#[inline]
fn key(x: f32) -> u32 {
    let u = x.to_bits();
    if u >> 31 == 1 { !u } else { u | 1 << 31 }
}

/// The float of a [`key`].
#[inline]
fn from_key(k: u32) -> f32 {
    f32::from_bits(if k >> 31 == 1 { k & !(1 << 31) } else { !k })
}

impl Splitter for SahSplitter {
    fn area(&self, bounds: &Bounds) -> f32 {
        bounds.half_area_in(self.unit)
    }

    fn split(
        &self,
        prims: &mut [PrimRef],
        _first: usize,
        info: &NodeInfo,
        depth: u32,
    ) -> Option<(usize, NodeInfo, NodeInfo)> {
        let p = &self.params;
        let n = prims.len();
        let fits = n <= p.max_leaf as usize;
        // A split costs at least one traversal step plus one block: never below a single block.
        if n == 1 || (fits && p.blocks(n) <= 1.0) {
            return None;
        }
        let candidate = if depth < MAX_SAH_DEPTH { self.find(prims, info) } else { None };
        let leaf_cost = INTERSECTION_COST * p.blocks(n);
        match candidate {
            Some(c) if c.cost < leaf_cost || !fits => Some(self.apply(prims, info, c)),
            _ if fits => None,
            // No usable plane (all centroids in one bin, or too deep for the SAH).
            _ => Some(median_split(prims, info)),
        }
    }
}

impl SahSplitter {
    /// The splitter of a build whose root box is `root`.
    pub fn new(params: BuildParams, root: &Bounds) -> Self {
        Self { params, unit: root.area_unit() }
    }

    fn find(&self, prims: &mut [PrimRef], info: &NodeInfo) -> Option<Candidate> {
        let n = prims.len();
        if n <= self.params.sweep_below {
            let mut best: Option<Candidate> = None;
            let area = info.bounds.half_area_in(self.unit);
            for axis in 0..3 {
                if info.centers.max[axis] > info.centers.min[axis]
                    && let Some(c) = sweep(&self.params, prims, axis, self.unit, area)
                    && best.as_ref().is_none_or(|b| c.cost < b.cost)
                {
                    best = Some(c);
                }
            }
            // The sweep sorted along the last axis it tried; the partition re-sorts.
            return best;
        }
        // Few primitives need few bins (Embree uses 4 + N/20): small nodes are most nodes.
        let bins = self.params.bins.min(4 + n / 20);
        // Bin arrays sized to the bin count: clearing 32 bins costs more than binning a small node.
        match bins {
            ..=8 => binned::<8, 1>(&self.params, prims, info, bins, self.unit),
            9..=16 => binned::<16, 2>(&self.params, prims, info, bins, self.unit),
            _ => binned::<MAX_BINS, 2>(&self.params, prims, info, bins, self.unit),
        }
    }

    fn apply(&self, prims: &mut [PrimRef], info: &NodeInfo, c: Candidate) -> (usize, NodeInfo, NodeInfo) {
        match c.how {
            How::Bin { binning, bin, left, right } => {
                let hi = info.centers.max[c.axis];
                match c.axis {
                    0 => partition_bins::<0>(prims, &binning, bin, hi, left, right),
                    1 => partition_bins::<1>(prims, &binning, bin, hi, left, right),
                    _ => partition_bins::<2>(prims, &binning, bin, hi, left, right),
                }
            }
            How::Sorted { count } => {
                sort_by_center(prims, c.axis);
                let (l, r) = prims.split_at(count);
                (count, NodeInfo::of(l), NodeInfo::of(r))
            }
        }
    }
}

/// `C_trav + C_int (A_L B_L + A_R B_R) / A` with `B` the leaf blocks of each side (for a
/// zero-area node, just `B_L + B_R`).
#[inline]
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

/// One bin of one axis: the box around the primitives whose centroid falls in it, with their
/// number in the `w` lane of `hi` (the `w` lane of `lo` is unused). Keeping the count in the
/// box's own vector makes adding a primitive two loads, two stores and three vector
/// operations, where a separate count array added a load, an add and a store per axis.
#[derive(Clone, Copy)]
struct Bin {
    lo: Vec4,
    hi: Vec4,
}

/// Added to `hi` for each primitive: one in the count lane, and `-0.0` in the others, which
/// leaves every coordinate bit for bit as it is (`x + -0.0 == x`, `-0.0` included).
const ONE_IN_W: Vec4 = Vec4::new(-0.0, -0.0, -0.0, 1.0);

/// The counts are `f32`, exact up to 2^24: nodes are binned in chunks of this many
/// primitives (each bin set sees half of a chunk), the counts moved to integers after each.
const CHUNK: usize = 1 << 24;

impl Bin {
    const EMPTY: Self = Self {
        lo: Vec4::INFINITY,
        hi: Vec4::new(f32::NEG_INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY, 0.0),
    };

    /// Adds `p`: its `hi.w` is 0, so `max` keeps the count, which the add then increments.
    #[inline(always)]
    fn add(&mut self, p: &PrimRef) {
        self.lo = self.lo.min(p.lo);
        self.hi = self.hi.max(p.hi) + ONE_IN_W;
    }

    #[inline]
    fn bounds(&self) -> Bounds {
        Bounds { min: Vec3A::from_vec4(self.lo), max: Vec3A::from_vec4(self.hi) }
    }
}

/// Holds the empty bin sets of each size as a constant.
struct EmptySets<const N: usize, const SETS: usize>;

impl<const N: usize, const SETS: usize> EmptySets<N, SETS> {
    const SETS: [[[Bin; N]; 3]; SETS] = [[[Bin::EMPTY; N]; 3]; SETS];
}

/// The half areas of three boxes in `unit`s, one per lane (`w` is 0), each computed as
/// [`Bounds::half_area_in`] computes it, so the sweep below picks the planes the scalar one did.
#[inline(always)]
fn half_areas(lo: &[Vec4; 3], hi: &[Vec4; 3], unit: Vec4) -> Vec4 {
    let [a, b, c] = [0, 1, 2].each(|k| (hi[k] - lo[k]).max(Vec4::ZERO) * unit);
    let dx = Vec4::new(a.x, b.x, c.x, 0.0);
    let dy = Vec4::new(a.y, b.y, c.y, 0.0);
    let dz = Vec4::new(a.z, b.z, c.z, 0.0);
    dx * dy + dy * dz + dz * dx
}

impl BuildParams {
    /// [`BuildParams::blocks`] of the counts in each lane.
    #[inline(always)]
    fn blocks4(&self, n: IVec4) -> Vec4 {
        let block = self.block as i32;
        if block.count_ones() == 1 {
            ((n + IVec4::splat(block - 1)) >> block.trailing_zeros()).as_vec4()
        } else {
            n.to_array().each(|k| self.blocks(k as usize)).into()
        }
    }
}

/// Bins the centroids on all three axes in one pass, then sweeps each axis's bins from both
/// ends for the cheapest plane.
///
/// Consecutive primitives (neighbours in the mesh, or in a part of one) mostly fall in the
/// same bins, so growing one bin per primitive makes each update wait for the previous
/// one to be stored and reloaded. With `SETS == 2`, even and odd primitives go to two sets
/// of bins, merged before the sweep (the usual remedy for a histogram: one copy per
/// interleaved stream), which halves those chains; small nodes, for which clearing and
/// merging a second set costs more than it saves, use one. The sweep treats the three
/// axes in the three lanes of a vector.
fn binned<const N: usize, const SETS: usize>(
    params: &BuildParams,
    prims: &[PrimRef],
    info: &NodeInfo,
    bins: usize,
    unit: f32,
) -> Option<Candidate> {
    debug_assert!(bins <= N && N.is_power_of_two() && (SETS == 1 || SETS == 2));
    let binning = Binning::new(&info.centers, bins);
    // Copied from a constant: `[[[Bin::EMPTY; N]; 3]; SETS]` made one row and then called
    // `memcpy` once per copy of it, a cost that shows on the many small nodes.
    let mut sets = EmptySets::<N, SETS>::SETS;
    // Per bin, the counts of the three axes in lanes x, y and z, moved out of the `w` lanes
    // after each chunk (and those lanes cleared if another chunk follows).
    let mut counts = [IVec4::ZERO; N];
    let drain = |sets: &mut [[[Bin; N]; 3]; SETS], counts: &mut [IVec4; N], reset: bool| {
        for (b, count) in counts.iter_mut().enumerate().take(bins) {
            let c = |axis: usize| sets.iter().map(|set| set[axis][b].hi.w).sum::<f32>();
            *count += Vec4::new(c(0), c(1), c(2), 0.0).as_ivec4();
            if reset {
                for set in sets.iter_mut() {
                    for axis in set.iter_mut() {
                        axis[b].hi.w = 0.0;
                    }
                }
            }
        }
    };
    let mut rest = prims;
    loop {
        let (chunk, tail) = rest.split_at(rest.len().min(CHUNK));
        if binning.prescaled {
            bin_into::<N, SETS, true>(&binning, chunk, &mut sets);
        } else {
            bin_into::<N, SETS, false>(&binning, chunk, &mut sets);
        }
        drain(&mut sets, &mut counts, !tail.is_empty());
        if tail.is_empty() {
            break;
        }
        rest = tail;
    }
    let (merged, others) = sets.split_at_mut(1);
    let merged = &mut merged[0];
    for other in others.iter() {
        for (axis, bins_of_axis) in merged.iter_mut().enumerate() {
            for (b, bin) in bins_of_axis.iter_mut().enumerate().take(bins) {
                bin.lo = bin.lo.min(other[axis][b].lo);
                bin.hi = bin.hi.max(other[axis][b].hi);
            }
        }
    }
    let merged = &*merged;
    let n = prims.len();
    let parent_area = info.bounds.half_area_in(unit);
    let unit = Vec4::splat(unit);
    // Right-to-left sweep: the areas of bins b.. for each b, the axes in lanes.
    let mut right_area = [Vec4::ZERO; N];
    let (mut lo, mut hi) = ([Vec4::INFINITY; 3], [Vec4::NEG_INFINITY; 3]);
    for b in (1..bins).rev() {
        for axis in 0..3 {
            lo[axis] = lo[axis].min(merged[axis][b].lo);
            hi[axis] = hi[axis].max(merged[axis][b].hi);
        }
        right_area[b] = half_areas(&lo, &hi, unit);
    }
    // Left-to-right sweep. Within a node, `C_trav + C_int W / A` orders splits as
    // `W = A_L B_L + A_R B_R` does (or as `B_L + B_R` for a node of zero area): compare `W`,
    // divide once at the end. Each lane keeps its axis's first cheapest plane; an axis whose
    // centroids are all equal has none (every split along it leaves one side empty).
    let axis_ok = info.centers.max.extend(0.0).cmpgt(info.centers.min.extend(0.0));
    let total = IVec4::splat(n as i32);
    let (mut lo, mut hi) = ([Vec4::INFINITY; 3], [Vec4::NEG_INFINITY; 3]);
    let mut left_n = IVec4::ZERO;
    let (mut best_w, mut best_bin) = (Vec4::INFINITY, Vec4::ZERO);
    let mut found = BVec4A::splat(false);
    for b in 1..bins {
        for axis in 0..3 {
            lo[axis] = lo[axis].min(merged[axis][b - 1].lo);
            hi[axis] = hi[axis].max(merged[axis][b - 1].hi);
        }
        left_n += counts[b - 1];
        let right_n = total - left_n;
        let (bl, br) = (params.blocks4(left_n), params.blocks4(right_n));
        let w =
            if parent_area > 0.0 { half_areas(&lo, &hi, unit) * bl + right_area[b] * br } else { bl + br };
        let valid = axis_ok & left_n.as_vec4().cmpgt(Vec4::ZERO) & right_n.as_vec4().cmpgt(Vec4::ZERO);
        let better = valid & (!found | w.cmplt(best_w));
        best_w = Vec4::select(better, w, best_w);
        best_bin = Vec4::select(better, Vec4::splat(b as f32), best_bin);
        found |= valid;
    }
    // The axes in order, a later one only if strictly cheaper: the plane the scalar sweep
    // over axis 0, then 1, then 2 would have kept.
    let mut best: Option<(usize, usize, f32)> = None;
    for axis in 0..3 {
        if found.test(axis) && best.is_none_or(|(_, _, c)| best_w[axis] < c) {
            best = Some((axis, best_bin[axis] as usize, best_w[axis]));
        }
    }
    let (axis, bin, w) = best?;
    let cost = TRAVERSAL_COST + INTERSECTION_COST * if parent_area > 0.0 { w / parent_area } else { w };
    let side = |r: core::ops::Range<usize>| {
        merged[axis][r].iter().fold(Bounds::EMPTY, |acc, b| acc.union(&b.bounds()))
    };
    let (left, right) = (side(0..bin), side(bin..bins));
    Some(Candidate { axis, cost, how: How::Bin { binning, bin, left, right } })
}

/// Adds each primitive of `prims` to its bin on each axis, alternating between the sets.
#[inline(always)]
fn bin_into<const N: usize, const SETS: usize, const PRE: bool>(
    binning: &Binning,
    prims: &[PrimRef],
    sets: &mut [[[Bin; N]; 3]; SETS],
) {
    // `& (N - 1)` changes nothing (bins are below N) but lets the compiler drop the bounds checks.
    let bins = |p: &PrimRef| binning.bins::<PRE>(p.center2()).each(|b| b & (N - 1));
    let mut groups = prims.chunks_exact(SETS);
    for group in &mut groups {
        for (set, p) in sets.iter_mut().zip(group) {
            let [x, y, z] = bins(p);
            set[0][x].add(p);
            set[1][y].add(p);
            set[2][z].add(p);
        }
    }
    for p in groups.remainder() {
        let [x, y, z] = bins(p);
        sets[0][0][x].add(p);
        sets[0][1][y].add(p);
        sets[0][2][z].add(p);
    }
}

/// Nodes with at least this many primitives are partitioned by [`Binning::threshold`]
/// (whose search costs about as much as mapping 20 centroids to bins).
const THRESHOLD_FROM: usize = 64;

/// Moves the primitives whose centroid bin on `AXIS` is below `bin` to the front (`hi` is
/// the largest centroid on `AXIS`), gathering each side's centroid box on the way; the
/// sides' boxes come from the bins.
fn partition_bins<const AXIS: usize>(
    prims: &mut [PrimRef],
    binning: &Binning,
    bin: usize,
    hi: f32,
    left_bounds: Bounds,
    right_bounds: Bounds,
) -> (usize, NodeInfo, NodeInfo) {
    let (k, lc, rc) = if prims.len() >= THRESHOLD_FROM {
        let x = binning.threshold::<AXIS>(bin, hi);
        partition(prims, |c| {
            debug_assert_eq!(c[AXIS] < x, binning.bin::<AXIS>(c) < bin);
            c[AXIS] < x
        })
    } else {
        partition(prims, |c| binning.bin::<AXIS>(c) < bin)
    };
    (k, NodeInfo { bounds: left_bounds, centers: lc }, NodeInfo { bounds: right_bounds, centers: rc })
}

/// Moves the primitives whose doubled centroid `goes_left` to the front (a two-ended swap
/// partition); returns their number and both sides' centroid boxes. The two primitives
/// found on the wrong sides are written from the registers they were read into, with the
/// centroids already computed (`slice::swap` went through the stack and read both again).
#[inline(always)]
fn partition(prims: &mut [PrimRef], goes_left: impl Fn(Vec3A) -> bool) -> (usize, Bounds, Bounds) {
    let (mut lc, mut rc) = (Bounds::EMPTY, Bounds::EMPTY);
    // `prims[..i]` go left, `prims[j..]` right.
    let (mut i, mut j) = (0, prims.len());
    'done: loop {
        let (a, ca) = loop {
            if i == j {
                break 'done;
            }
            let p = prims[i];
            let c = p.center2();
            if !goes_left(c) {
                break (p, c);
            }
            lc.grow_point(c);
            i += 1;
        };
        // `a` (at `i`) goes right: look for one that goes left after it.
        let (b, cb) = loop {
            j -= 1;
            if j == i {
                rc.grow_point(ca);
                break 'done;
            }
            let p = prims[j];
            let c = p.center2();
            if goes_left(c) {
                break (p, c);
            }
            rc.grow_point(c);
        };
        prims[i] = b;
        prims[j] = a;
        lc.grow_point(cb);
        rc.grow_point(ca);
        i += 1;
    }
    (i, lc, rc)
}

/// Sorts by centroid along `axis`, ties by primitive index (so the order is deterministic).
fn sort_by_center(prims: &mut [PrimRef], axis: usize) {
    prims.sort_unstable_by(|a, b| {
        a.center2()[axis].total_cmp(&b.center2()[axis]).then(a.index().cmp(&b.index()))
    });
}

/// Every split plane between consecutive centroids along `axis` (sorts `prims`), the areas
/// in `unit`s.
fn sweep(
    params: &BuildParams,
    prims: &mut [PrimRef],
    axis: usize,
    unit: f32,
    parent_area: f32,
) -> Option<Candidate> {
    let n = prims.len();
    debug_assert!(n <= 1024);
    sort_by_center(prims, axis);
    let mut right_area = [0.0f32; 1024];
    let mut acc = Bounds::EMPTY;
    for k in (1..n).rev() {
        acc.grow(&prims[k].bounds());
        right_area[k] = acc.half_area_in(unit);
    }
    let mut left = Bounds::EMPTY;
    let mut best: Option<Candidate> = None;
    for k in 1..n {
        left.grow(&prims[k - 1].bounds());
        let cost = split_cost(params, left.half_area_in(unit), k, right_area[k], n - k, parent_area);
        if best.as_ref().is_none_or(|s| cost < s.cost) {
            best = Some(Candidate { axis, cost, how: How::Sorted { count: k } });
        }
    }
    best
}

/// The axis along which `b` is widest (the first of equals).
fn widest_axis(b: &Bounds) -> usize {
    let d = b.max - b.min;
    if d.x >= d.y && d.x >= d.z {
        0
    } else if d.y >= d.z {
        1
    } else {
        2
    }
}

/// Splits at the median centroid along the widest centroid axis (in the middle of the
/// current order when the centroids are all equal).
pub(crate) fn median_split(prims: &mut [PrimRef], info: &NodeInfo) -> (usize, NodeInfo, NodeInfo) {
    let mid = prims.len() / 2;
    let d = info.centers.max - info.centers.min;
    if d.max_element() > 0.0 {
        let axis = widest_axis(&info.centers);
        prims.select_nth_unstable_by(mid, |a, b| {
            a.center2()[axis].total_cmp(&b.center2()[axis]).then(a.index().cmp(&b.index()))
        });
    }
    let (l, r) = prims.split_at(mid);
    (mid, NodeInfo::of(l), NodeInfo::of(r))
}
