//! The splitter of [`BuildQuality::Fast`](super::BuildQuality::Fast): a linear BVH.
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
//! Its cost is one radix sort (three passes of 10 bits) and, per node, a binary search and a
//! pass over its primitives for the children's boxes.

use glam::Vec3A;

use super::build::{NodeInfo, PrimRef, Splitter};
use super::node::Bounds;

/// Bits per axis of the Morton code (30 in all).
const BITS: u32 = 10;

pub(crate) struct MortonSplitter {
    /// The Morton code of each primitive, in the sorted order.
    codes: Vec<u32>,
    max_leaf: usize,
}

/// Spreads the low 10 bits of `x` to every third bit (bit `i` to bit `3 i`).
#[inline]
fn spread(x: u32) -> u32 {
    let mut x = x & 0x3ff;
    x = (x | (x << 16)) & 0x0300_00ff;
    x = (x | (x << 8)) & 0x0300_f00f;
    x = (x | (x << 4)) & 0x030c_30c3;
    (x | (x << 2)) & 0x0924_9249
}

impl MortonSplitter {
    /// Sorts `prims` along the Morton curve of their centroids (whose box is `centers2`, in
    /// the doubled coordinates of [`PrimRef::center2`]) and returns the splitter over that order.
    pub fn sort(prims: &mut Vec<PrimRef>, centers2: &Bounds, max_leaf: usize) -> Self {
        let n = prims.len();
        let centers = Bounds { min: centers2.min * 0.5, max: centers2.max * 0.5 };
        let cells = (1u32 << BITS) as f32;
        let extent = (centers.max - centers.min).max_element();
        // One scale for all axes (a cube grid); just below `cells / extent` so the largest
        // centroid lands in the last cell.
        let scale = if extent > 0.0 { cells * (1.0 - 1e-6) / extent } else { 0.0 };
        let max_cell = Vec3A::splat(cells - 1.0);
        let mut keys: Vec<u64> = prims
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let q = ((p.bounds().centroid() - centers.min) * scale).min(max_cell).max(Vec3A::ZERO);
                let code = (spread(q.x as u32) << 2) | (spread(q.y as u32) << 1) | spread(q.z as u32);
                (u64::from(code) << 32) | i as u64
            })
            .collect();
        radix_sort(&mut keys);
        let sorted: Vec<PrimRef> = keys.iter().map(|&k| prims[(k & 0xffff_ffff) as usize]).collect();
        *prims = sorted;
        let codes = keys.iter().map(|&k| (k >> 32) as u32).collect();
        debug_assert_eq!(prims.len(), n);
        Self { codes, max_leaf }
    }
}

/// Sorts by the 30 code bits above bit 32, stably (least significant digit first, three
/// passes of 10 bits), so equal codes keep their primitive order.
fn radix_sort(keys: &mut Vec<u64>) {
    const DIGIT: u32 = 10;
    const BUCKETS: usize = 1 << DIGIT;
    let mut counts = vec![[0usize; BUCKETS]; 3];
    for &k in keys.iter() {
        for (pass, c) in counts.iter_mut().enumerate() {
            c[((k >> (32 + DIGIT * pass as u32)) as usize) & (BUCKETS - 1)] += 1;
        }
    }
    let mut other = vec![0u64; keys.len()];
    for (pass, c) in counts.iter_mut().enumerate() {
        // Counts to starting offsets.
        let mut sum = 0;
        for x in c.iter_mut() {
            let here = *x;
            *x = sum;
            sum += here;
        }
        let shift = 32 + DIGIT * pass as u32;
        for &k in keys.iter() {
            let d = ((k >> shift) as usize) & (BUCKETS - 1);
            other[c[d]] = k;
            c[d] += 1;
        }
        std::mem::swap(keys, &mut other);
    }
}

/// The box of `prims` (the centroid box is not needed by this splitter and left empty).
fn bounds_only(prims: &[PrimRef]) -> NodeInfo {
    let bounds = prims.iter().fold(Bounds::EMPTY, |mut b, p| {
        b.grow(&p.bounds());
        b
    });
    NodeInfo { bounds, centers: Bounds::EMPTY }
}

impl Splitter for MortonSplitter {
    fn split(
        &self,
        prims: &mut [PrimRef],
        first: usize,
        _info: &NodeInfo,
        _depth: u32,
    ) -> Option<(usize, NodeInfo, NodeInfo)> {
        let n = prims.len();
        if n <= self.max_leaf {
            return None;
        }
        let codes = &self.codes[first..first + n];
        let (a, b) = (codes[0], codes[n - 1]);
        let k = if a == b {
            n / 2
        } else {
            // Every code of the run shares the bits above `bit`; those with `bit` clear come first.
            let bit = 1u32 << (31 - (a ^ b).leading_zeros());
            codes.partition_point(|&c| c & bit == 0)
        };
        let (l, r) = prims.split_at(k);
        Some((k, bounds_only(l), bounds_only(r)))
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
        let mut keys: Vec<u64> = (0..5000u64).map(|i| (((i * 7919) % 1013) << 32) | i).collect::<Vec<_>>();
        let mut expected = keys.clone();
        expected.sort_by_key(|k| (k >> 32, k & 0xffff_ffff));
        radix_sort(&mut keys);
        assert_eq!(keys, expected);
    }
}
