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
    pub fn clear(&mut self) {
        self.len = 0;
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
}
