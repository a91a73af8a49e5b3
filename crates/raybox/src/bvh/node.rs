//! Node layouts: the binary node the builder writes, and the 8-wide node the walks read.

use glam::Vec3A;

/// An axis-aligned box as the builder accumulates it: may be empty (`min = +inf`,
/// `max = -inf`), which a public [`crate::Aabb3`] may not. Never escapes the crate.
/// Kept in `Vec3A` so that growing it is two SIMD instructions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bounds {
    pub min: Vec3A,
    pub max: Vec3A,
}

impl Bounds {
    pub const EMPTY: Self = Self { min: Vec3A::INFINITY, max: Vec3A::NEG_INFINITY };

    #[inline]
    pub fn from_arrays(min: [f32; 3], max: [f32; 3]) -> Self {
        Self { min: Vec3A::from(min), max: Vec3A::from(max) }
    }

    #[inline]
    pub fn grow(&mut self, other: &Bounds) {
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    #[inline]
    pub fn grow_point(&mut self, p: Vec3A) {
        self.min = self.min.min(p);
        self.max = self.max.max(p);
    }

    #[inline]
    pub fn union(mut self, other: &Bounds) -> Bounds {
        self.grow(other);
        self
    }

    /// Half the surface area of the box measured in `unit`s (the SAH's cost measure; the
    /// factor 2 cancels): each extent is multiplied by `unit`, the builder's
    /// [`Bounds::area_unit`] of its root box, before the products. Zero when empty.
    ///
    /// In plain `f32` a box wider than about `2^64` has an infinite area and one narrower
    /// than about `2^-63` a subnormal or zero area, so at such scales every split of a node cost the same
    /// (`inf`, `NaN` or 0) and the SAH built deep, poor trees. Measured in the root's unit,
    /// the root's largest extent is in `[1, 2)`, and because `unit` is a power of two the
    /// product is exact: a box's area in units is the same number, bit for bit, whatever
    /// power of two the whole input is scaled by, and so is every decision the SAH takes.
    #[inline]
    pub fn half_area_in(&self, unit: f32) -> f32 {
        let d = (self.max - self.min).max(Vec3A::ZERO) * unit;
        d.x * d.y + d.y * d.z + d.z * d.x
    }

    /// The power of two `unit` that brings this box's largest extent into `[1, 2)` for
    /// [`Bounds::half_area_in`] (kept between `2^-126` and `2^126`, so that it is a normal
    /// float: a box wider than `2^127` then measures up to 4 units, one narrower than
    /// `2^-126` less than one; an empty box or a point gets `2^126`, which is harmless).
    pub fn area_unit(&self) -> f32 {
        let extent = (self.max - self.min).max_element();
        // `e`, the biased exponent of the extent (0 for an empty box, whose extent is
        // negative): `unit = 2^(127 - e)`, whose own biased exponent is `254 - e`.
        let e = extent.max(0.0).to_bits() >> 23;
        f32::from_bits((254 - e.clamp(1, 253)) << 23)
    }

    /// Half the surface area in `f64`, for the SAH cost a build reports: the extents and
    /// products of `f32` boxes never overflow or underflow there, and scaling the box by a
    /// power of two scales the result exactly by its square. Zero when empty.
    #[inline]
    pub fn half_area_f64(&self) -> f64 {
        let d = |k: usize| (f64::from(self.max[k]) - f64::from(self.min[k])).max(0.0);
        let (x, y, z) = (d(0), d(1), d(2));
        x * y + y * z + z * x
    }

    #[inline]
    pub fn centroid(&self) -> Vec3A {
        self.min * 0.5 + self.max * 0.5
    }

    #[inline]
    pub fn contains(&self, other: &Bounds) -> bool {
        self.min.cmple(other.min).all() && other.max.cmple(self.max).all()
    }
}

/// A node of the binary tree the builder makes (32 bytes). Leaves hold the primitives
/// `order[first..first + count]`; inner nodes the indices of their two children.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BinaryNode {
    pub bounds: Bounds,
    /// Inner: left child index. Leaf: first primitive (index into the build order).
    pub a: u32,
    /// Inner: right child index. Leaf: `LEAF_BIT | count`.
    pub b: u32,
}

pub(crate) const LEAF_BIT: u32 = 1 << 31;

impl BinaryNode {
    pub const UNUSED: Self = Self { bounds: Bounds::EMPTY, a: 0, b: 0 };

    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.b & LEAF_BIT != 0
    }

    #[inline]
    pub fn leaf_range(&self) -> (u32, u32) {
        (self.a, self.b & !LEAF_BIT)
    }
}

/// A reference to a child of a wide node: an inner node index, or a leaf's primitive range.
///
/// Bit 31 marks a leaf; a leaf keeps its first primitive in bits 0–26 (up to 134 million
/// primitives) and `count - 1` in bits 27–30 (1 to 16 primitives). [`ChildRef::EMPTY`] marks
/// an unused slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct ChildRef(pub u32);

/// Most primitives a leaf can hold (the 4 count bits of [`ChildRef`]).
pub(crate) const MAX_LEAF_SIZE: u32 = 16;
/// Most primitives a wide BVH can index (the 27 first-primitive bits of [`ChildRef`]).
pub(crate) const MAX_PRIMITIVES: usize = 1 << 27;

impl ChildRef {
    pub const EMPTY: Self = Self(u32::MAX);

    #[inline]
    pub fn inner(index: u32) -> Self {
        debug_assert!(index < LEAF_BIT);
        Self(index)
    }

    #[inline]
    pub fn leaf(first: u32, count: u32) -> Self {
        debug_assert!((1..=MAX_LEAF_SIZE).contains(&count) && (first as usize) < MAX_PRIMITIVES);
        Self(LEAF_BIT | ((count - 1) << 27) | first)
    }

    #[inline]
    pub fn is_leaf(self) -> bool {
        self.0 & LEAF_BIT != 0
    }

    /// `(first, count)` of a leaf.
    #[inline]
    pub fn leaf_range(self) -> (usize, usize) {
        ((self.0 & ((1 << 27) - 1)) as usize, (((self.0 >> 27) & 0xF) + 1) as usize)
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The width of the wide nodes.
pub(crate) const WIDTH: usize = 8;

/// An 8-wide node (256 bytes, one per 4 cache lines, 64-byte aligned): the boxes of its
/// children in structure-of-arrays form, so one SIMD instruction tests a plane of all 8.
///
/// | bytes | field |
/// | --- | --- |
/// | 0–191 | `planes`: `[min_x, min_y, min_z, max_x, max_y, max_z]`, 8 lanes of `f32` each |
/// | 192–223 | `children`: 8 × [`ChildRef`] (`u32`) |
/// | 224–255 | `orders`: for each octant of ray directions, the lanes far to near |
///
/// Unused lanes have `min = +inf`, `max = -inf` (no ray can enter them) and [`ChildRef::EMPTY`].
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C, align(64))]
pub(crate) struct WideNode {
    #[cfg_attr(feature = "serde", serde(with = "planes_serde"))]
    pub planes: [[f32; WIDTH]; 6],
    pub children: [ChildRef; WIDTH],
    /// `orders[o]`: the lanes in the order a ray of octant `o` (bit `k` set: the ray runs
    /// down axis `k`) should meet them, far to near, 4 bits a position, the farthest in bits
    /// 0–3 (see [`WideNode::fill_orders`]). Always a permutation of the 8 lanes, whatever the
    /// boxes: the walk that reads it relies on that. Not stored; made again on loading.
    #[cfg_attr(feature = "serde", serde(skip, default = "identity_orders"))]
    pub orders: [u32; WIDTH],
}

/// Lane `7 - j` at position `j` (the nibbles of `0x0123_4567`, read from the lowest): a
/// valid order for every octant, until [`WideNode::fill_orders`] makes better ones.
const IDENTITY_ORDER: u32 = 0x0123_4567;

#[cfg(feature = "serde")]
fn identity_orders() -> [u32; WIDTH] {
    [IDENTITY_ORDER; WIDTH]
}

/// The planes with the infinities of empty lanes written as `None` (JSON has no
/// infinity) and restored on loading: `+inf` in the min rows, `-inf` in the max rows.
#[cfg(feature = "serde")]
mod planes_serde {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::WIDTH;
    use crate::arrays::Each;

    pub fn serialize<S: Serializer>(planes: &[[f32; WIDTH]; 6], s: S) -> Result<S::Ok, S::Error> {
        let rows: [[Option<f32>; WIDTH]; 6] = planes.each(|row| row.each(|x| x.is_finite().then_some(x)));
        rows.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[[f32; WIDTH]; 6], D::Error> {
        let rows = <[[Option<f32>; WIDTH]; 6]>::deserialize(d)?;
        let mut planes = [[0.0; WIDTH]; 6];
        for (r, row) in rows.iter().enumerate() {
            let empty = if r < 3 { f32::INFINITY } else { f32::NEG_INFINITY };
            for (lane, x) in row.iter().enumerate() {
                planes[r][lane] = x.unwrap_or(empty);
            }
        }
        Ok(planes)
    }
}

/// The 8 nibbles of `x` in reverse order.
fn reverse_nibbles(x: u32) -> u32 {
    (0..8).fold(0, |acc, j| acc | (((x >> (4 * j)) & 0xF) << (4 * (7 - j))))
}

const _: () = assert!(core::mem::size_of::<WideNode>() == 256);
const _: () = assert!(core::mem::align_of::<WideNode>() == 64);

impl WideNode {
    pub const EMPTY: Self = Self {
        planes: [
            [f32::INFINITY; WIDTH],
            [f32::INFINITY; WIDTH],
            [f32::INFINITY; WIDTH],
            [f32::NEG_INFINITY; WIDTH],
            [f32::NEG_INFINITY; WIDTH],
            [f32::NEG_INFINITY; WIDTH],
        ],
        children: [ChildRef::EMPTY; WIDTH],
        orders: [IDENTITY_ORDER; WIDTH],
    };

    #[inline]
    pub fn set_child(&mut self, lane: usize, bounds: &Bounds, child: ChildRef) {
        for k in 0..3 {
            self.planes[k][lane] = bounds.min[k];
            self.planes[k + 3][lane] = bounds.max[k];
        }
        self.children[lane] = child;
    }

    /// Fills [`WideNode::orders`]: for each octant of ray directions, the lanes sorted far to
    /// near by their boxes' centres along the octant's diagonal (`(±1, ±1, ±1)`, minus where
    /// the ray runs down the axis), ties in lane order (reversed in the opposite octants,
    /// which take the reversed order), unused lanes (which no ray enters) at one end. The
    /// single-ray walks push a node's entered children in this order, with no sort at run
    /// time (Ylitie, Karras & Laine 2017 order a wide node's children by the
    /// ray's octant in the same spirit); it still visits the nearest first, found by `t`.
    pub fn fill_orders(&mut self) {
        let centres: [Vec3A; WIDTH] = crate::arrays::from_fn(|lane| self.child_bounds(lane).centroid());
        // The opposite octant (all signs flipped) gets the reversed order, so only the four
        // octants with `z` up are sorted.
        for o in 0..WIDTH / 2 {
            let diagonal =
                Vec3A::new(if o & 1 != 0 { -1.0 } else { 1.0 }, if o & 2 != 0 { -1.0 } else { 1.0 }, 1.0);
            // Farther along the diagonal first; unused lanes first of all.
            let key = |lane: usize| {
                if self.children[lane] == ChildRef::EMPTY {
                    f32::INFINITY
                } else {
                    centres[lane].dot(diagonal)
                }
            };
            let keys: [f32; WIDTH] = crate::arrays::from_fn(key);
            let mut order = 0u32;
            for (lane, k) in keys.iter().enumerate() {
                // The lane's position: how many lanes come before it (a strict total order:
                // `total_cmp`, then the lane), so the positions are a permutation.
                let position =
                    (0..WIDTH).filter(|&j| keys[j].total_cmp(k).then(lane.cmp(&j)).is_gt()).count();
                order |= (lane as u32) << (4 * position);
            }
            self.orders[o] = order;
            self.orders[WIDTH - 1 - o] = reverse_nibbles(order);
        }
    }

    #[inline]
    pub fn child_bounds(&self, lane: usize) -> Bounds {
        Bounds {
            min: Vec3A::new(self.planes[0][lane], self.planes[1][lane], self.planes[2][lane]),
            max: Vec3A::new(self.planes[3][lane], self.planes[4][lane], self.planes[5][lane]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::scene::Pcg32;

    /// The lanes of an order, position 0 (the farthest) first.
    fn lanes(order: u32) -> Vec<usize> {
        (0..8).map(|j| ((order >> (4 * j)) & 0xF) as usize).collect()
    }

    #[test]
    fn orders_run_far_to_near_along_each_octants_diagonal() {
        // Child `i` centred at `(i, 2i, -i)`.
        let mut node = WideNode::EMPTY;
        for i in 0..8 {
            let c = Vec3A::new(i as f32, 2.0 * i as f32, -(i as f32));
            node.set_child(i, &Bounds { min: c - 0.25, max: c + 0.25 }, ChildRef::inner(i as u32));
        }
        node.fill_orders();
        // Octant 0 (up every axis): the key is `i + 2i - i = 2i`, so child 7 is the farthest.
        assert_eq!(lanes(node.orders[0]), [7, 6, 5, 4, 3, 2, 1, 0]);
        // Octant 7 (down every axis): the reverse.
        assert_eq!(lanes(node.orders[7]), [0, 1, 2, 3, 4, 5, 6, 7]);
        // Octant 2 (down y only): `i - 2i - i = -2i`, child 0 the farthest.
        assert_eq!(lanes(node.orders[2]), [0, 1, 2, 3, 4, 5, 6, 7]);
        // Octant 4 (down z only): `i + 2i + i = 4i`.
        assert_eq!(lanes(node.orders[4]), [7, 6, 5, 4, 3, 2, 1, 0]);
    }

    #[test]
    fn orders_are_permutations_of_the_lanes_whatever_the_boxes() {
        let mut rng = Pcg32::new(8);
        for round in 0..2_000 {
            let mut node = WideNode::EMPTY;
            let used = 1 + round % 8;
            for lane in 0..used {
                // Coarse coordinates, so that keys tie often.
                let c = Vec3A::new(
                    (rng.range(-2.0, 2.0)).round(),
                    (rng.range(-2.0, 2.0)).round(),
                    (rng.range(-2.0, 2.0)).round(),
                );
                let h = if round % 3 == 0 { 0.0 } else { rng.range(0.0, 1.0) };
                node.set_child(lane, &Bounds { min: c - h, max: c + h }, ChildRef::inner(lane as u32));
            }
            node.fill_orders();
            for (o, &order) in node.orders.iter().enumerate() {
                let mut seen = lanes(order);
                // The unused lanes (which no ray enters) at one end: first in the octants
                // that are sorted, last in their opposites, which take the reverse order.
                let unused = if o < 4 { &seen[..8 - used] } else { &seen[used..] };
                assert!(unused.iter().all(|&l| l >= used), "octant {o}: {seen:?}");
                seen.sort_unstable();
                assert_eq!(seen, [0, 1, 2, 3, 4, 5, 6, 7], "octant {o}");
            }
        }
    }
}
