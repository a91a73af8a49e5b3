//! The walk stack: a fixed number of entries in storage the walk owns, not zeroed when
//! made (the walks make one per ray, and clearing kilobytes per ray would cost more than
//! many node visits).
//!
//! The capacity is enough for any tree the crate accepts: a walk holds at most the 8
//! children of one node per level of its current path, and every tree is at most
//! [`MAX_DEPTH`] levels deep: the builder stays within it (`Tree::validate` checks, in the
//! tests) and a loaded tree is checked against it (`Tree::check_structure`). So a push never finds the stack full, and there is no
//! overflow path (nor a heap spill) on the hot loop.

use core::mem::MaybeUninit;

use crate::bvh::node::ChildRef;
use crate::bvh::traverse::MAX_DEPTH;

/// Entries a walk can need: 8 per level, and one more node's worth.
pub(crate) const STACK_CAPACITY: usize = 8 * MAX_DEPTH + 8;

/// The storage of a [`Stack`]: a local array of the walk, so it is never moved.
pub(crate) type StackStorage<T> = [MaybeUninit<T>; STACK_CAPACITY];

/// A LIFO stack of `Copy` items in storage the caller owns.
///
/// ```ignore
/// let mut storage = [const { MaybeUninit::uninit() }; STACK_CAPACITY];
/// let mut stack = Stack::new(&mut storage);
/// ```
pub(crate) struct Stack<'a, T: Copy> {
    items: &'a mut StackStorage<T>,
    len: usize,
}

impl<'a, T: Copy> Stack<'a, T> {
    #[inline(always)]
    pub fn new(items: &'a mut StackStorage<T>) -> Self {
        Self { items, len: 0 }
    }

    /// Pushes `item`. The bounds check cannot fail for a checked tree (see the module
    /// notes); it stays as a safety net.
    #[inline(always)]
    pub fn push(&mut self, item: T) {
        self.items[self.len] = MaybeUninit::new(item);
        self.len += 1;
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: every slot below `len` was written by `push`, and `len` only grows there.
        Some(unsafe { self.items[self.len].assume_init() })
    }
}

/// The entries of an [`OrderedStack`]: [`STACK_CAPACITY`], and room past them for one
/// node's 8 written at once (the SIMD kernels store all 8 lanes and count the pushed ones).
const ORDERED_CAPACITY: usize = STACK_CAPACITY + 8;

/// The stack of the single-ray walks (closest and any hit, one step at a time or not, and
/// the nearest-point walk): child references and entry distances in two arrays, so that a
/// SIMD kernel pushes all of a node's entered children with one vector store to each
/// ([`OrderedStack::slots`], then [`OrderedStack::grow`]; `NodeKernel::descend`). A push
/// past the capacity panics (a bounds check), as with [`Stack`]; no checked tree gets there
/// (at most 7 entries a level are pushed, 128 levels).
pub(crate) struct OrderedStack {
    refs: [MaybeUninit<u32>; ORDERED_CAPACITY],
    ts: [MaybeUninit<f32>; ORDERED_CAPACITY],
    len: usize,
}

impl OrderedStack {
    #[inline(always)]
    pub fn new() -> Self {
        Self {
            refs: [const { MaybeUninit::uninit() }; ORDERED_CAPACITY],
            ts: [const { MaybeUninit::uninit() }; ORDERED_CAPACITY],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub fn push(&mut self, child: ChildRef, t: f32) {
        self.refs[self.len] = MaybeUninit::new(child.0);
        self.ts[self.len] = MaybeUninit::new(t);
        self.len += 1;
    }

    /// The 8 slots above the top, for references and distances: a kernel writes up to 8
    /// entries there, then counts the ones it meant with [`OrderedStack::grow`].
    #[inline(always)]
    pub fn slots(&mut self) -> (&mut [MaybeUninit<u32>; 8], &mut [MaybeUninit<f32>; 8]) {
        let at = self.len;
        let refs = (&mut self.refs[at..at + 8]).try_into().expect("8 slots");
        let ts = (&mut self.ts[at..at + 8]).try_into().expect("8 slots");
        (refs, ts)
    }

    /// Counts as pushed the first `n` (at most 8) of the slots written through
    /// [`OrderedStack::slots`].
    #[inline(always)]
    pub fn grow(&mut self, n: usize) {
        debug_assert!(n <= 8);
        self.len += n.min(8);
    }

    /// The child on top, if any.
    #[inline(always)]
    pub fn top(&self) -> Option<ChildRef> {
        // SAFETY: every slot below `len` was written by `push` or through `slots`.
        self.len.checked_sub(1).map(|i| ChildRef(unsafe { self.refs[i].assume_init() }))
    }

    /// The entries, bottom first.
    #[cfg(test)]
    pub fn entries(&self) -> Vec<(ChildRef, f32)> {
        // SAFETY: every slot below `len` was written by `push` or through `slots`.
        (0..self.len)
            .map(|i| unsafe { (ChildRef(self.refs[i].assume_init()), self.ts[i].assume_init()) })
            .collect()
    }

    /// Pops to the nearest pushed box that starts no later than `t_max` (the others cannot
    /// hold a closer hit); `None` when there is none left.
    #[inline(always)]
    pub fn pop_within(&mut self, t_max: f32) -> Option<ChildRef> {
        while self.len > 0 {
            self.len -= 1;
            // SAFETY: every slot below `len` was written by `push` or through `slots`.
            let (r, t) = unsafe { (self.refs[self.len].assume_init(), self.ts[self.len].assume_init()) };
            if t <= t_max {
                return Some(ChildRef(r));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_pop_to_capacity() {
        let mut storage = [const { MaybeUninit::uninit() }; STACK_CAPACITY];
        let mut s: Stack<(u32, f32)> = Stack::new(&mut storage);
        for i in 0..STACK_CAPACITY as u32 {
            s.push((i, i as f32));
        }
        for i in (0..STACK_CAPACITY as u32).rev() {
            assert_eq!(s.pop(), Some((i, i as f32)));
        }
        assert_eq!(s.pop(), None);
        s.push((7, 7.0));
        assert_eq!(s.pop(), Some((7, 7.0)));
    }

    #[test]
    fn ordered_stack_pushes_counts_and_pops_within_reach() {
        let mut s = OrderedStack::new();
        s.push(ChildRef(1), 1.0);
        // Eight slots written, three counted.
        let (refs, ts) = s.slots();
        for i in 0..8 {
            refs[i] = MaybeUninit::new(10 + i as u32);
            ts[i] = MaybeUninit::new(i as f32);
        }
        s.grow(3);
        assert_eq!(
            s.entries(),
            vec![(ChildRef(1), 1.0), (ChildRef(10), 0.0), (ChildRef(11), 1.0), (ChildRef(12), 2.0)]
        );
        assert_eq!(s.top(), Some(ChildRef(12)));
        // Entries that start beyond the reach are dropped on the way down.
        assert_eq!(s.pop_within(1.5), Some(ChildRef(11)));
        assert_eq!(s.pop_within(0.5), Some(ChildRef(10)));
        assert_eq!(s.pop_within(0.5), None);
        assert_eq!(s.top(), None);
        // Filled to capacity through `slots`, as the deepest walk could.
        for _ in 0..STACK_CAPACITY / 8 {
            let (refs, ts) = s.slots();
            refs.fill(MaybeUninit::new(5));
            ts.fill(MaybeUninit::new(0.0));
            s.grow(8);
        }
        assert_eq!(s.entries().len(), STACK_CAPACITY);
    }
}
