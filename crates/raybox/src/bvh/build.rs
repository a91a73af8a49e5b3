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

use glam::{Vec3A, Vec4};

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
    /// build, the best trees.
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
}

/// The binned SAH splitter (with an exact sweep for small nodes at `High`).
pub(crate) struct SahSplitter {
    pub params: BuildParams,
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

/// How a node's centroids map to bins: `t = clamp((c - lo) * scale - 1/2, 0, bins - 1)`,
/// rounded to the nearest integer. Rounding is done by adding 2^23 (after which the low
/// bits of the float are the integer): as cheap as it gets, where `as usize` converts and
/// saturates lane by lane. The `- 1/2` makes every bin one unit of `t` wide.
#[derive(Clone, Copy)]
struct Binning {
    lo: Vec3A,
    scale: Vec3A,
    max_bin: Vec3A,
}

/// 2^23: adding it to a float in `[0, 2^22]` leaves the nearest integer in the low mantissa bits.
const ROUND: f32 = 8_388_608.0;
const MANTISSA: u32 = (1 << 23) - 1;

impl Binning {
    fn new(centers: &Bounds, bins: usize) -> Self {
        let extent = (centers.max - centers.min).max(Vec3A::splat(f32::MIN_POSITIVE));
        // Slightly below bins / extent, so the largest centroid lands in the last bin.
        let scale = Vec3A::splat(bins as f32 * (1.0 - 1e-6)) / extent;
        Self { lo: centers.min, scale, max_bin: Vec3A::splat((bins - 1) as f32) }
    }

    /// The bin of `c` on each axis.
    #[inline]
    fn bins(&self, c: Vec3A) -> [usize; 3] {
        let t = ((c - self.lo) * self.scale - Vec3A::splat(0.5)).min(self.max_bin).max(Vec3A::ZERO);
        (t + Vec3A::splat(ROUND)).to_array().map(|x| (x.to_bits() & MANTISSA) as usize)
    }

    /// The bin of `c` on axis `AXIS`: that lane of [`Binning::bins`], by the same operations
    /// in the same order, so the partition agrees with the binning exactly. The comparisons
    /// are those of `minps` / `maxps` (the second operand when unordered), so a NaN (from an
    /// infinite scale) becomes the last bin in both.
    #[inline]
    fn bin<const AXIS: usize>(&self, c: Vec3A) -> usize {
        let t = (c[AXIS] - self.lo[AXIS]) * self.scale[AXIS] - 0.5;
        let max_bin = self.max_bin[AXIS];
        let t = if t < max_bin { t } else { max_bin };
        let t = if t > 0.0 { t } else { 0.0 };
        ((t + ROUND).to_bits() & MANTISSA) as usize
    }
}

impl Splitter for SahSplitter {
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
            Some(c) if c.cost < leaf_cost || !fits => Some(self.apply(prims, c)),
            _ if fits => None,
            // No usable plane (all centroids in one bin, or too deep for the SAH).
            _ => Some(median_split(prims, info)),
        }
    }
}

impl SahSplitter {
    fn find(&self, prims: &mut [PrimRef], info: &NodeInfo) -> Option<Candidate> {
        let n = prims.len();
        if n <= self.params.sweep_below {
            let mut best: Option<Candidate> = None;
            for axis in 0..3 {
                if info.centers.max[axis] > info.centers.min[axis]
                    && let Some(c) = sweep(&self.params, prims, axis, info.bounds.half_area())
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
            ..=8 => binned::<8>(&self.params, prims, info, bins),
            9..=16 => binned::<16>(&self.params, prims, info, bins),
            _ => binned::<MAX_BINS>(&self.params, prims, info, bins),
        }
    }

    fn apply(&self, prims: &mut [PrimRef], c: Candidate) -> (usize, NodeInfo, NodeInfo) {
        match c.how {
            How::Bin { binning, bin, left, right } => match c.axis {
                0 => partition_bins::<0>(prims, &binning, bin, left, right),
                1 => partition_bins::<1>(prims, &binning, bin, left, right),
                _ => partition_bins::<2>(prims, &binning, bin, left, right),
            },
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

/// Bins the centroids on all three axes in one pass, then sweeps each axis's bins from both
/// ends for the cheapest plane.
fn binned<const N: usize>(
    params: &BuildParams,
    prims: &[PrimRef],
    info: &NodeInfo,
    bins: usize,
) -> Option<Candidate> {
    debug_assert!(bins <= N && N.is_power_of_two());
    let binning = Binning::new(&info.centers, bins);
    let mut bin_bounds = [[Bounds::EMPTY; N]; 3];
    let mut bin_counts = [[0u32; N]; 3];
    // `& (N - 1)` changes nothing (bins are below N) but lets the compiler drop the bounds checks.
    for p in prims {
        let [x, y, z] = binning.bins(p.center2()).map(|b| b & (N - 1));
        let bounds = p.bounds();
        bin_bounds[0][x].grow(&bounds);
        bin_counts[0][x] += 1;
        bin_bounds[1][y].grow(&bounds);
        bin_counts[1][y] += 1;
        bin_bounds[2][z].grow(&bounds);
        bin_counts[2][z] += 1;
    }
    let n = prims.len();
    let parent_area = info.bounds.half_area();
    // Within a node, `C_trav + C_int W / A` orders splits as `W = A_L B_L + A_R B_R` does
    // (or as `B_L + B_R` for a node of zero area): compare `W`, divide once at the end.
    let weigh = |left_area: f32, left_n: usize, right_area: f32, right_n: usize| {
        let (bl, br) = (params.blocks(left_n), params.blocks(right_n));
        if parent_area > 0.0 { left_area * bl + right_area * br } else { bl + br }
    };
    let mut best: Option<(usize, usize, f32)> = None;
    for axis in 0..3 {
        if info.centers.max[axis] <= info.centers.min[axis] {
            continue; // every split along this axis leaves one side empty
        }
        let (bounds, counts) = (&bin_bounds[axis], &bin_counts[axis]);
        // Right-to-left sweep: the area of bins b.. for each b.
        let mut right_area = [0.0f32; N];
        let mut acc = Bounds::EMPTY;
        for b in (1..bins).rev() {
            acc.grow(&bounds[b]);
            right_area[b] = acc.half_area();
        }
        let (mut left, mut left_n) = (Bounds::EMPTY, 0usize);
        for b in 1..bins {
            left.grow(&bounds[b - 1]);
            left_n += counts[b - 1] as usize;
            let right_n = n - left_n;
            if left_n == 0 || right_n == 0 {
                continue;
            }
            let w = weigh(left.half_area(), left_n, right_area[b], right_n);
            if best.is_none_or(|(_, _, c)| w < c) {
                best = Some((axis, b, w));
            }
        }
    }
    let (axis, bin, w) = best?;
    let cost = TRAVERSAL_COST + INTERSECTION_COST * if parent_area > 0.0 { w / parent_area } else { w };
    let side =
        |r: core::ops::Range<usize>| bin_bounds[axis][r].iter().fold(Bounds::EMPTY, |acc, b| acc.union(b));
    let (left, right) = (side(0..bin), side(bin..bins));
    Some(Candidate { axis, cost, how: How::Bin { binning, bin, left, right } })
}

/// Moves the primitives whose centroid bin on `AXIS` is below `bin` to the front (a
/// two-ended swap partition), gathering each side's centroid box on the way; the sides'
/// boxes come from the bins.
fn partition_bins<const AXIS: usize>(
    prims: &mut [PrimRef],
    binning: &Binning,
    bin: usize,
    left_bounds: Bounds,
    right_bounds: Bounds,
) -> (usize, NodeInfo, NodeInfo) {
    let goes_left = |c: Vec3A| binning.bin::<AXIS>(c) < bin;
    let (mut lc, mut rc) = (Bounds::EMPTY, Bounds::EMPTY);
    let (mut i, mut j) = (0, prims.len());
    loop {
        while i < j {
            let c = prims[i].center2();
            if !goes_left(c) {
                break;
            }
            lc.grow_point(c);
            i += 1;
        }
        while i < j {
            let c = prims[j - 1].center2();
            if goes_left(c) {
                break;
            }
            rc.grow_point(c);
            j -= 1;
        }
        if i >= j {
            break;
        }
        // prims[i] goes right and prims[j - 1] left: swap them.
        prims.swap(i, j - 1);
        lc.grow_point(prims[i].center2());
        rc.grow_point(prims[j - 1].center2());
        i += 1;
        j -= 1;
    }
    (i, NodeInfo { bounds: left_bounds, centers: lc }, NodeInfo { bounds: right_bounds, centers: rc })
}

/// Sorts by centroid along `axis`, ties by primitive index (so the order is deterministic).
fn sort_by_center(prims: &mut [PrimRef], axis: usize) {
    prims.sort_unstable_by(|a, b| {
        a.center2()[axis].total_cmp(&b.center2()[axis]).then(a.index().cmp(&b.index()))
    });
}

/// Every split plane between consecutive centroids along `axis` (sorts `prims`).
fn sweep(params: &BuildParams, prims: &mut [PrimRef], axis: usize, parent_area: f32) -> Option<Candidate> {
    let n = prims.len();
    debug_assert!(n <= 1024);
    sort_by_center(prims, axis);
    let mut right_area = [0.0f32; 1024];
    let mut acc = Bounds::EMPTY;
    for k in (1..n).rev() {
        acc.grow(&prims[k].bounds());
        right_area[k] = acc.half_area();
    }
    let mut left = Bounds::EMPTY;
    let mut best: Option<Candidate> = None;
    for k in 1..n {
        left.grow(&prims[k - 1].bounds());
        let cost = split_cost(params, left.half_area(), k, right_area[k], n - k, parent_area);
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
