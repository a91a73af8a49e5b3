//! A fixed-capacity stack that is not zeroed when made: the walks make one per ray, and
//! clearing a few kilobytes for every ray would cost more than many node visits.

use core::mem::MaybeUninit;

/// A stack of at most `N` items on the call stack.
pub(crate) struct Stack<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Stack<T, N> {
    #[inline(always)]
    pub fn new() -> Self {
        Self { items: [const { MaybeUninit::uninit() }; N], len: 0 }
    }

    /// Pushes `item`; returns `false` (and drops it) when full. The walks size their stacks
    /// from the tree's depth bound, so this does not happen.
    #[inline(always)]
    pub fn push(&mut self, item: T) -> bool {
        if self.len == N {
            return false;
        }
        self.items[self.len] = MaybeUninit::new(item);
        self.len += 1;
        true
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
    fn push_pop_and_full() {
        let mut s: Stack<(u32, f32), 2> = Stack::new();
        assert!(s.push((1, 1.0)) && s.push((2, 2.0)));
        assert!(!s.push((3, 3.0)));
        assert_eq!(s.pop(), Some((2, 2.0)));
        assert_eq!(s.pop(), Some((1, 1.0)));
        assert_eq!(s.pop(), None);
    }
}
