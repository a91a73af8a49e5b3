//! [`BoxSoup`]: one ray against every box of a flat list, with the BVH's node kernels and
//! no tree. It exists to benchmark the node test alone (`raybox-bench`'s `box_floor`).

use super::bounds_of_aabb;
use super::kernels::{SoupKernel, SoupRay, with_kernel};
use super::node::{Bounds, ChildRef, WideNode};
use crate::{Aabb3, Ray3};

/// For benchmarks: a flat list of boxes packed 8 per 256-byte wide node, as the BVH's inner
/// nodes hold them, tested against one ray with the node kernel the CPU supports (the
/// kernel the BVH walks use, or `RAYBOX_KERNEL`, or one forced by
/// [`crate::with_each_kernel`]).
///
/// The test is the walks' conservative slab test (Ize, *Robust BVH Ray Traversal*, JCGT
/// 2013): a box counts as hit when the ray may enter it within `[t_min, t_max]`, widened
/// by a few ulps so that no box the ray enters is missed; a box the ray misses by less than
/// that may count as hit. Every kernel gives the scalar kernel's answers exactly. On an axis
/// where the ray's direction is so small that its reciprocal overflows (below about
/// `3e-39`), the test rules out only the boxes that lie beside the ray's whole travel
/// along that axis within the boxes' bounds (no box entered is missed; see the kernels'
/// `reach`).
///
/// Not part of the stable API.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub struct BoxSoup {
    /// The boxes, 8 per node in input order; unused lanes are empty (no ray enters them),
    /// and the count is even (the AVX-512 kernel tests two nodes per step).
    nodes: Vec<WideNode>,
    len: usize,
    /// The box around every box (empty, `+inf` to `-inf`, when there are none): where a
    /// ray with a tiny direction component can meet them ([`SoupRay`]).
    lo: [f32; 3],
    hi: [f32; 3],
}

impl BoxSoup {
    /// Packs `boxes` (box `i` goes to lane `i % 8` of node `i / 8`).
    #[must_use]
    pub fn new(boxes: &[Aabb3]) -> Self {
        let node_count = boxes.len().div_ceil(8).next_multiple_of(2);
        let mut nodes = vec![WideNode::EMPTY; node_count];
        let mut all = Bounds::EMPTY;
        for (i, b) in boxes.iter().enumerate() {
            let bounds = bounds_of_aabb(b);
            // The lane's reference is unused here; any non-empty one will do.
            nodes[i / 8].set_child(i % 8, &bounds, ChildRef::inner(0));
            all = all.union(&bounds);
        }
        Self { nodes, len: boxes.len(), lo: all.min.into(), hi: all.max.into() }
    }

    /// The number of boxes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when there are no boxes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many of the boxes the ray may enter.
    #[must_use]
    pub fn count_hits(&self, ray: &Ray3) -> usize {
        let prepared = SoupRay::new(ray, self.lo, self.hi);
        let t_max = ray.t_max();
        with_kernel!(Kernel::detect(), |k| k.soup_count(&prepared, t_max, &self.nodes))
    }

    /// Sets `hits[i]` to whether the ray may enter box `i` (the boxes [`Self::count_hits`]
    /// counts).
    ///
    /// # Panics
    /// If `hits.len()` is not [`Self::len`].
    pub fn hit_flags(&self, ray: &Ray3, hits: &mut [bool]) {
        assert_eq!(hits.len(), self.len, "hit_flags needs one flag per box");
        let prepared = SoupRay::new(ray, self.lo, self.hi);
        let t_max = ray.t_max();
        let mut write = |first: usize, mask: u32| {
            for lane in 0..16 {
                if let Some(flag) = hits.get_mut(first * 8 + lane) {
                    *flag = mask & (1 << lane) != 0;
                }
            }
        };
        with_kernel!(Kernel::detect(), |k| k.soup_pairs(&prepared, t_max, &self.nodes, &mut write));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn packs_eight_per_node_into_an_even_count_of_nodes() {
        for (n, nodes) in [(0, 0), (1, 2), (8, 2), (16, 2), (17, 4), (33, 6)] {
            let boxes = vec![Aabb3::new(Vec3::ZERO, Vec3::ONE); n];
            let soup = BoxSoup::new(&boxes);
            assert_eq!((soup.len(), soup.nodes.len()), (n, nodes), "{n} boxes");
            let filled: usize =
                soup.nodes.iter().map(|w| w.children.iter().filter(|&&c| c != ChildRef::EMPTY).count()).sum();
            assert_eq!(filled, n);
        }
    }

    #[test]
    fn empty_lanes_are_never_hit() {
        let soup = BoxSoup::new(&[Aabb3::new(Vec3::splat(-1.0), Vec3::splat(1.0))]);
        for dir in [Vec3::X, -Vec3::X, Vec3::new(1.0, -2.0, 3.0), Vec3::new(-0.0, 0.0, -1.0)] {
            let line = Ray3::with_range(Vec3::ZERO, dir, f32::NEG_INFINITY, f32::INFINITY);
            assert_eq!(soup.count_hits(&line), 1, "{dir}");
        }
    }
}
