//! Binary tree to 8-wide tree: each wide node adopts, greedily, the grandchildren of its
//! largest inner children until it has 8 children or only leaves are left (the collapse
//! of Ernst & Greiner 2008 and tinybvh's `MBVH::ConvertFrom`, written for this layout).

use super::node::{BinaryNode, Bounds, ChildRef, WIDTH, WideNode};

pub(crate) struct WideTree {
    pub nodes: Vec<WideNode>,
    /// The root: an inner node (index 0) or, for a tree of one leaf, that leaf.
    pub root: ChildRef,
    pub root_bounds: Bounds,
    /// Wide levels from the root to the deepest leaf (a lone leaf has depth 0).
    pub depth: usize,
}

pub(crate) fn collapse(binary: &[BinaryNode]) -> WideTree {
    let root = &binary[0];
    if root.is_leaf() {
        let (first, count) = root.leaf_range();
        return WideTree {
            nodes: Vec::new(),
            root: ChildRef::leaf(first, count),
            root_bounds: root.bounds,
            depth: 0,
        };
    }
    let mut nodes = Vec::with_capacity(binary.len() / 4 + 1);
    let depth = collapse_into(binary, 0, &mut nodes);
    WideTree { nodes, root: ChildRef::inner(0), root_bounds: root.bounds, depth }
}

/// Writes the wide node for binary inner node `b` (and, after it, its subtrees); returns
/// the depth of the subtree.
fn collapse_into(binary: &[BinaryNode], b: usize, nodes: &mut Vec<WideNode>) -> usize {
    let mut children: Vec<usize> = vec![binary[b].a as usize, binary[b].b as usize];
    while children.len() < WIDTH {
        // Open the inner child with the largest area: it is the most likely to be visited.
        let widest =
            children.iter().enumerate().filter(|(_, c)| !binary[**c].is_leaf()).max_by(|(_, x), (_, y)| {
                binary[**x].bounds.half_area().total_cmp(&binary[**y].bounds.half_area())
            });
        let Some((slot, &c)) = widest else { break };
        children[slot] = binary[c].a as usize;
        children.push(binary[c].b as usize);
    }
    let index = nodes.len();
    nodes.push(WideNode::EMPTY);
    let mut depth = 1;
    for (lane, &c) in children.iter().enumerate() {
        let child = &binary[c];
        let r = if child.is_leaf() {
            let (first, count) = child.leaf_range();
            ChildRef::leaf(first, count)
        } else {
            let child_index = nodes.len() as u32;
            depth = depth.max(1 + collapse_into(binary, c, nodes));
            ChildRef::inner(child_index)
        };
        nodes[index].set_child(lane, &child.bounds, r);
    }
    depth
}
