//! The walks over the wide tree, written once and parameterised by a node kernel (for
//! rays) and a leaf visitor (what a "hit" means is the caller's business).
//!
//! Every ray walk is `#[inline(always)]`: it is compiled into the `#[target_feature]` entry
//! point of the kernel that calls it (see `kernels/mod.rs`).

use core::mem::MaybeUninit;

use super::kernels::{
    NodeHits, NodeKernel, OrderedStack, PacketBest, PacketKernel, PreparedRay, RayPacket, STACK_CAPACITY,
    Stack, prefetch_child, prefetch_children,
};
use super::node::{Bounds, ChildRef, WideNode};

/// The depth the builder keeps every tree within (it stops using the SAH past depth 64 and
/// splits at the median), checked by `validate`.
pub(crate) const MAX_DEPTH: usize = 128;

/// Closest hit: visits the leaves the ray may reach, nearest box first, skipping every
/// box that starts beyond the closest hit found so far.
///
/// `leaf(first, count, t_max)` tests the primitives `first..first + count` and returns the
/// parameter of a hit closer than `t_max`, if any; the walk then narrows `t_max` to it.
/// Returns the final `t_max`. Callers that compile the walk for a kernel pass `leaf` as an
/// `#[inline(always)]` closure, so that it is compiled with the kernel's features too.
/// `large`: the tree is larger than a core's L2 cache, so the walk asks for the nodes it
/// will pop before it pops them.
#[inline(always)]
pub(crate) fn closest_hit<K: NodeKernel>(
    kernel: K,
    nodes: &[WideNode],
    root: ChildRef,
    ray: &PreparedRay,
    t_max: f32,
    large: bool,
    leaf: impl FnMut(usize, usize, f32) -> Option<f32>,
) -> f32 {
    // Each ray's node step: the ordered one where the kernel has it (`NodeKernel::descend`,
    // for fused rays), else the node test and a sorted push. (Each form is its own copy of
    // the walk, compiled for its step: both in one loop spilled the ray's values.)
    if ray.fused && K::ORDERED {
        closest_loop(nodes, root, t_max, ordered_step(kernel, nodes, ray, large), leaf)
    } else if ray.fused {
        closest_loop(nodes, root, t_max, sorted_step::<K, true>(kernel, nodes, ray, push_sorted), leaf)
    } else {
        closest_loop(nodes, root, t_max, sorted_step::<K, false>(kernel, nodes, ray, push_sorted), leaf)
    }
}

/// The node step of the walks with [`NodeKernel::descend`] (fused rays).
#[inline(always)]
fn ordered_step<'a, K: NodeKernel + 'a>(
    kernel: K,
    nodes: &'a [WideNode],
    ray: &'a PreparedRay,
    large: bool,
) -> impl FnMut(&WideNode, f32, &mut OrderedStack) -> Option<ChildRef> + 'a {
    #[inline(always)]
    move |node: &WideNode, t_max: f32, stack: &mut OrderedStack| {
        kernel.descend(ray, nodes, node, t_max, stack, large)
    }
}

/// The node step of the walks without [`NodeKernel::descend`]: the node test of
/// [`NodeKernel::intersect_as`], then, when the ray enters some child, `push(stack, nodes,
/// node, hits)`, which pushes the others and returns the one to visit next (the closest-hit
/// walk sorts them by entry distance, [`push_nearest_last`]; the any-hit walk does not,
/// [`descend_any`]).
#[inline(always)]
fn sorted_step<'a, K: NodeKernel + 'a, const FUSED: bool>(
    kernel: K,
    nodes: &'a [WideNode],
    ray: &'a PreparedRay,
    push: impl Fn(&mut OrderedStack, &[WideNode], &WideNode, &NodeHits) -> ChildRef + 'a,
) -> impl FnMut(&WideNode, f32, &mut OrderedStack) -> Option<ChildRef> + 'a {
    #[inline(always)]
    move |node: &WideNode, t_max: f32, stack: &mut OrderedStack| {
        let hits = kernel.intersect_as::<FUSED>(ray, node, t_max);
        (hits.mask != 0).then(|| push(stack, nodes, node, &hits))
    }
}

/// [`push_nearest_last`] in the form [`sorted_step`] takes.
#[inline(always)]
fn push_sorted(stack: &mut OrderedStack, nodes: &[WideNode], node: &WideNode, hits: &NodeHits) -> ChildRef {
    push_nearest_last(stack, nodes, node, hits.mask, &hits.t_enter)
}

/// The closest-hit walk for any node step (`step(node, t_max, stack)`: the child to visit
/// next, the other entered ones pushed, or `None` when the ray enters none), as two nested
/// loops (Aila & Laine 2009's "while-while"): the inner one goes down through inner nodes,
/// so that the compiler gives the node test's values the registers and reloads the leaf
/// test's around it. (One loop over both, as [`ClosestWalk::step`] has for the batches'
/// interleaved walks, kept neither in registers.)
///
/// With the ordered step ([`NodeKernel::descend`]) a node costs no branch on how many
/// children the ray enters and no sort (Fuetterling et al. 2017 make a wide node's step
/// branch-free in the same spirit): the nearest entered child is found by a vector minimum
/// of the entry distances, the others are pushed in the node's order for the ray's octant
/// ([`WideNode::orders`], made at build time). That order is approximate, and pops skip
/// boxes that start beyond the closest hit, so the walk visits the nodes the sorted step
/// does give or take 1% (`versus_embree`'s scattered and camera rays on the bunny, the
/// terrain and the dragon).
#[inline(always)]
fn closest_loop(
    nodes: &[WideNode],
    root: ChildRef,
    mut t_max: f32,
    mut step: impl FnMut(&WideNode, f32, &mut OrderedStack) -> Option<ChildRef>,
    mut leaf: impl FnMut(usize, usize, f32) -> Option<f32>,
) -> f32 {
    let mut stack = OrderedStack::new();
    let mut current = root;
    loop {
        while !current.is_leaf() {
            let node = &nodes[current.index()];
            prefetch_children(node);
            current = match step(node, t_max, &mut stack) {
                Some(next) => next,
                None => match stack.pop_within(t_max) {
                    Some(next) => next,
                    None => return t_max,
                },
            };
        }
        let (first, count) = current.leaf_range();
        if let Some(t) = leaf(first, count, t_max) {
            t_max = t_max.min(t);
        }
        match stack.pop_within(t_max) {
            Some(next) => current = next,
            None => return t_max,
        }
    }
}

/// A closest-hit walk that can be advanced one step at a time, so that a batch can keep
/// several rays in flight and interleave their steps: each step's memory reads (a node, a
/// leaf) do not depend on the other rays', and the CPU overlaps their cache misses.
pub(crate) struct ClosestWalk {
    stack: OrderedStack,
    current: ChildRef,
    /// The closest hit so far (the ray's `t_max` at the start).
    pub t_max: f32,
}

impl ClosestWalk {
    #[inline(always)]
    pub fn new(root: ChildRef, t_max: f32) -> Self {
        Self { stack: OrderedStack::new(), current: root, t_max }
    }

    /// Starts over with another ray, reusing the stack.
    #[inline(always)]
    pub fn restart(&mut self, root: ChildRef, t_max: f32) {
        self.stack.clear();
        self.current = root;
        self.t_max = t_max;
    }

    /// Tests the current node or leaf and moves to the next box to visit: the nearest
    /// child hit, or the nearest pushed box that still starts before the closest hit.
    /// Returns `false` when the walk is over (`t_max` is then final).
    #[inline(always)]
    pub fn step<K: NodeKernel, const FUSED: bool>(
        &mut self,
        kernel: K,
        nodes: &[WideNode],
        ray: &PreparedRay,
        mut leaf: impl FnMut(usize, usize, f32) -> Option<f32>,
    ) -> bool {
        let current = self.current;
        if current.is_leaf() {
            let (first, count) = current.leaf_range();
            if let Some(t) = leaf(first, count, self.t_max) {
                self.t_max = self.t_max.min(t);
            }
        } else {
            let node = &nodes[current.index()];
            prefetch_children(node);
            if FUSED && K::ORDERED {
                // (The walk is over a large mesh: the kernel asks for the next node to pop.)
                if let Some(nearest) = kernel.descend(ray, nodes, node, self.t_max, &mut self.stack, true) {
                    self.current = nearest;
                    return true;
                }
            } else {
                let hits = kernel.intersect_as::<FUSED>(ray, node, self.t_max);
                if hits.mask != 0 {
                    self.current = push_nearest_last(&mut self.stack, nodes, node, hits.mask, &hits.t_enter);
                    return true;
                }
            }
        }
        match self.stack.pop_within(self.t_max) {
            Some(next) => {
                self.current = next;
                true
            }
            None => false,
        }
    }
}

/// Pushes the hit children of `node` far to near, except the nearest, which it returns.
#[inline(always)]
fn push_nearest_last(
    stack: &mut OrderedStack,
    nodes: &[WideNode],
    node: &WideNode,
    mask: u32,
    t_enter: &[f32; 8],
) -> ChildRef {
    // Most nodes a ray enters have one or two hit children (about 85% on the benchmark
    // scenes): those take no loop and no sort.
    let a = mask.trailing_zeros() as usize & 7;
    let rest = mask & (mask - 1);
    if rest == 0 {
        return node.children[a];
    }
    let b = rest.trailing_zeros() as usize & 7;
    if rest & (rest - 1) == 0 {
        let (near, far) = if t_enter[b] < t_enter[a] { (b, a) } else { (a, b) };
        push_prefetched(stack, nodes, node.children[far], t_enter[far]);
        return node.children[near];
    }
    let rest2 = rest & (rest - 1);
    let c = rest2.trailing_zeros() as usize & 7;
    if rest2 & (rest2 - 1) == 0 {
        // Three: a sorting network of three compare-exchanges (no branches on `t`).
        let (a, b) = if t_enter[b] < t_enter[a] { (b, a) } else { (a, b) };
        let (b, c) = if t_enter[c] < t_enter[b] { (c, b) } else { (b, c) };
        let (a, b) = if t_enter[b] < t_enter[a] { (b, a) } else { (a, b) };
        push_prefetched(stack, nodes, node.children[c], t_enter[c]);
        push_prefetched(stack, nodes, node.children[b], t_enter[b]);
        return node.children[a];
    }
    // Four or more: sort the hit lanes by entry distance (insertion sort), nearest first.
    // (Every index is masked with `& 7`: lanes and counts are below 8, and the mask
    // lets the compiler drop the bounds checks.)
    let mut lanes = [0usize; 8];
    let mut n = 0usize;
    let mut bits = mask;
    while bits != 0 {
        let lane = bits.trailing_zeros() as usize & 7;
        bits &= bits - 1;
        let mut j = n & 7;
        while j > 0 && t_enter[lanes[(j - 1) & 7] & 7] > t_enter[lane] {
            lanes[j & 7] = lanes[(j - 1) & 7];
            j -= 1;
        }
        lanes[j & 7] = lane;
        n += 1;
    }
    for j in (1..n).rev() {
        let lane = lanes[j & 7] & 7;
        push_prefetched(stack, nodes, node.children[lane], t_enter[lane]);
    }
    node.children[lanes[0] & 7]
}

/// Pushes `child` and prefetches its node: by the time the walk pops it, its lines are
/// likelier to be in the cache (this matters on meshes larger than the L2 cache).
#[inline(always)]
fn push_prefetched(stack: &mut OrderedStack, nodes: &[WideNode], child: ChildRef, t: f32) {
    prefetch_child(nodes, child);
    stack.push(child, t);
}

/// Closest hits of a packet of up to `N` rays that walk the tree together (bit `i` of `rays`:
/// ray `i` takes part). A node's children are tested once for the whole packet
/// (`packet_node`, conservative), visited nearest first, and a leaf is tested only by the
/// rays that may enter its box within their own reach (`rays_in_box`).
///
/// `best.t[i]` is ray `i`'s reach: its `t_max`, then its closest hit so far.
/// `leaf(first, count, who, best)` tests the rays `who` against the primitives
/// `first..first + count` and narrows their reach in `best`. Every ray ends with the closest hit it would
/// find alone: every box it enters within its reach passes the packet test.
#[inline(always)]
pub(crate) fn closest_hit_packet<K: PacketKernel<N>, const N: usize>(
    kernel: K,
    nodes: &[WideNode],
    root: ChildRef,
    packet: &RayPacket<N>,
    rays: u32,
    best: &mut PacketBest<N>,
    mut leaf: impl FnMut(usize, usize, u32, &mut PacketBest<N>),
) {
    let mut storage = [const { MaybeUninit::uninit() }; STACK_CAPACITY];
    let mut stack: Stack<'_, (ChildRef, f32, u32)> = Stack::new(&mut storage);
    let (mut current, mut active) = (root, rays);
    loop {
        if current.is_leaf() {
            let (first, count) = current.leaf_range();
            leaf(first, count, active, best);
        } else {
            let node = &nodes[current.index()];
            // The packet's reach: the farthest of its active rays'. (Computed at every node:
            // the parent's reach, kept until the next leaf or pop, is looser, and ran 1-2%
            // slower on the bunny's camera rays.)
            let hits = kernel.packet_node(packet, node, kernel.farthest(&best.t, active));
            // Push the hit children far to near, so the nearest is popped first.
            let mut order = [0usize; 8];
            let mut n = 0;
            let mut bits = hits.mask;
            while bits != 0 {
                let lane = bits.trailing_zeros() as usize & 7;
                let mut j = n;
                while j > 0 && hits.t_enter[order[j - 1] & 7] < hits.t_enter[lane] {
                    order[j] = order[j - 1];
                    j -= 1;
                }
                order[j & 7] = lane;
                n += 1;
                bits &= bits - 1;
            }
            let mut nearest = None;
            for (j, &lane) in order[..n].iter().enumerate() {
                let child = node.children[lane];
                // Before a leaf, keep only the rays that may enter its box.
                let who = if child.is_leaf() {
                    kernel.rays_in_box(packet, node, lane, &best.t) & active
                } else {
                    active
                };
                if who != 0 {
                    if j + 1 == n {
                        // The nearest is visited next: no push and pop.
                        nearest = Some((child, hits.t_enter[lane], who));
                    } else {
                        prefetch_child(nodes, child);
                        stack.push((child, hits.t_enter[lane], who));
                    }
                }
            }
            if let Some((r, t, who)) = nearest {
                let still = kernel.rays_reaching(t, &best.t, who);
                if still != 0 {
                    (current, active) = (r, still);
                    continue;
                }
            }
        }
        // The next box that some of its rays may still reach.
        loop {
            let Some((r, t, who)) = stack.pop() else { return };
            let still = kernel.rays_reaching(t, &best.t, who);
            if still != 0 {
                (current, active) = (r, still);
                break;
            }
        }
    }
}

/// Any hit: visits the leaves the ray may reach, the nearest entered child of each node
/// first (the others in the node's order for the ray's octant, or in lane order), and stops
/// at the first for which `leaf(first, count, t_max)` returns `true`. Returns whether one
/// did. Boxes whose (conservative) entry lies beyond `t_max` are skipped.
#[inline(always)]
pub(crate) fn any_hit<K: NodeKernel>(
    kernel: K,
    nodes: &[WideNode],
    root: ChildRef,
    ray: &PreparedRay,
    t_max: f32,
    large: bool,
    leaf: impl FnMut(usize, usize, f32) -> bool,
) -> bool {
    if ray.fused && K::ORDERED {
        any_loop(nodes, root, t_max, ordered_step(kernel, nodes, ray, large), leaf)
    } else if ray.fused {
        any_loop(nodes, root, t_max, sorted_step::<K, true>(kernel, nodes, ray, descend_any), leaf)
    } else {
        any_loop(nodes, root, t_max, sorted_step::<K, false>(kernel, nodes, ray, descend_any), leaf)
    }
}

/// The any-hit walk for any node step (see [`closest_loop`]), stopping at the first leaf
/// for which `leaf` returns `true`.
#[inline(always)]
fn any_loop(
    nodes: &[WideNode],
    root: ChildRef,
    t_max: f32,
    mut step: impl FnMut(&WideNode, f32, &mut OrderedStack) -> Option<ChildRef>,
    mut leaf: impl FnMut(usize, usize, f32) -> bool,
) -> bool {
    let mut stack = OrderedStack::new();
    let mut current = root;
    loop {
        while !current.is_leaf() {
            let node = &nodes[current.index()];
            prefetch_children(node);
            current = match step(node, t_max, &mut stack) {
                Some(next) => next,
                // (Every pushed box starts within `t_max`, which an any-hit walk keeps.)
                None => match stack.pop_within(t_max) {
                    Some(next) => next,
                    None => return false,
                },
            };
        }
        let (first, count) = current.leaf_range();
        if leaf(first, count, t_max) {
            return true;
        }
        match stack.pop_within(t_max) {
            Some(next) => current = next,
            None => return false,
        }
    }
}

/// The any-hit walks' choice among a node's hit children (`hits.mask != 0`): returns the
/// nearest (a blocker is likeliest there) and pushes the others unsorted.
#[inline(always)]
fn descend_any(stack: &mut OrderedStack, nodes: &[WideNode], node: &WideNode, hits: &NodeHits) -> ChildRef {
    let mut bits = hits.mask;
    let mut nearest = bits.trailing_zeros() as usize & 7;
    let mut rest = bits & (bits - 1);
    while rest != 0 {
        let lane = rest.trailing_zeros() as usize & 7;
        if hits.t_enter[lane] < hits.t_enter[nearest] {
            nearest = lane;
        }
        rest &= rest - 1;
    }
    bits &= !(1 << nearest);
    while bits != 0 {
        let lane = bits.trailing_zeros() as usize & 7;
        let child = node.children[lane];
        prefetch_child(nodes, child);
        stack.push(child, hits.t_enter[lane]);
        bits &= bits - 1;
    }
    node.children[nearest]
}

/// Where an [`AnyWalk`] is after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Going,
    /// A leaf reported a hit: the walk is over.
    Hit,
    /// Every box the ray may reach was visited, with no hit.
    Done,
}

/// An any-hit walk advanced one step at a time (see [`ClosestWalk`]).
pub(crate) struct AnyWalk {
    stack: OrderedStack,
    current: ChildRef,
}

impl AnyWalk {
    #[inline(always)]
    pub fn new(root: ChildRef) -> Self {
        Self { stack: OrderedStack::new(), current: root }
    }

    /// Starts over with another ray, reusing the stack.
    #[inline(always)]
    pub fn restart(&mut self, root: ChildRef) {
        self.stack.clear();
        self.current = root;
    }

    /// Tests the current node or leaf and moves to the next box to visit.
    #[inline(always)]
    pub fn step<K: NodeKernel, const FUSED: bool>(
        &mut self,
        kernel: K,
        nodes: &[WideNode],
        ray: &PreparedRay,
        t_max: f32,
        mut leaf: impl FnMut(usize, usize, f32) -> bool,
    ) -> Step {
        let current = self.current;
        if current.is_leaf() {
            let (first, count) = current.leaf_range();
            if leaf(first, count, t_max) {
                return Step::Hit;
            }
        } else {
            let node = &nodes[current.index()];
            prefetch_children(node);
            if FUSED && K::ORDERED {
                // (The walk is over a large mesh: the kernel asks for the next node to pop.)
                if let Some(nearest) = kernel.descend(ray, nodes, node, t_max, &mut self.stack, true) {
                    self.current = nearest;
                    return Step::Going;
                }
            } else {
                let hits = kernel.intersect_as::<FUSED>(ray, node, t_max);
                if hits.mask != 0 {
                    self.current = descend_any(&mut self.stack, nodes, node, &hits);
                    return Step::Going;
                }
            }
        }
        match self.stack.pop_within(t_max) {
            Some(r) => {
                self.current = r;
                Step::Going
            }
            None => Step::Done,
        }
    }
}

/// Visits every leaf whose box passes `test` (called on each child box; the root leaf of
/// a one-leaf tree is tested against `root_bounds`).
pub(crate) fn visit_boxes(
    nodes: &[WideNode],
    root: ChildRef,
    root_bounds: &Bounds,
    test: &mut impl FnMut(&Bounds) -> bool,
    leaf: &mut impl FnMut(usize, usize),
) {
    if root.is_leaf() {
        if test(root_bounds) {
            let (first, count) = root.leaf_range();
            leaf(first, count);
        }
        return;
    }
    let mut storage = [const { MaybeUninit::uninit() }; STACK_CAPACITY];
    let mut stack: Stack<ChildRef> = Stack::new(&mut storage);
    stack.push(root);
    while let Some(r) = stack.pop() {
        let node = &nodes[r.index()];
        for lane in 0..8 {
            let child = node.children[lane];
            if child == ChildRef::EMPTY || !test(&node.child_bounds(lane)) {
                continue;
            }
            if child.is_leaf() {
                let (first, count) = child.leaf_range();
                leaf(first, count);
            } else {
                stack.push(child);
            }
        }
    }
}

/// Best-first search for the nearest leaf primitive: `box_dist(bounds)` is a lower bound of
/// the distance to anything inside a box, `leaf(first, count, best)` returns a distance
/// below `best` if a primitive of the leaf has one. Boxes farther than `limit` are never
/// opened (so `box_dist` may answer `inf` for "nothing here").
pub(crate) fn nearest(
    nodes: &[WideNode],
    root: ChildRef,
    limit: f32,
    box_dist: &mut impl FnMut(&Bounds) -> f32,
    leaf: &mut impl FnMut(usize, usize, f32) -> Option<f32>,
) -> f32 {
    let mut best = limit;
    let mut stack = OrderedStack::new();
    let mut current = root;
    loop {
        if current.is_leaf() {
            let (first, count) = current.leaf_range();
            if let Some(d) = leaf(first, count, best) {
                best = best.min(d);
            }
        } else {
            let node = &nodes[current.index()];
            let mut t = [f32::INFINITY; 8];
            let mut mask = 0u32;
            for (lane, slot) in t.iter_mut().enumerate() {
                if node.children[lane] != ChildRef::EMPTY {
                    let d = box_dist(&node.child_bounds(lane));
                    if d <= best {
                        *slot = d;
                        mask |= 1 << lane;
                    }
                }
            }
            if mask != 0 {
                current = push_nearest_last(&mut stack, nodes, node, mask, &t);
                continue;
            }
        }
        match stack.pop_within(best) {
            Some(next) => current = next,
            None => return best,
        }
    }
}
