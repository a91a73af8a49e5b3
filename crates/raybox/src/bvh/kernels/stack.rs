//! The walk stack: up to `N` entries inline, not zeroed when made (the walks make one per
//! ray, and clearing kilobytes per ray would cost more than many node visits), spilling to
//! the heap only past `N`, which a tree would need only if it were pathologically deep.

use core::mem::MaybeUninit;

/// A LIFO stack of `Copy` items in storage the caller owns (a local array of the walk, so
/// it is never moved), spilling to a `Vec` past its length.
///
/// ```ignore
/// let mut storage = [const { MaybeUninit::uninit() }; 256];
/// let mut stack = Stack::new(&mut storage);
/// ```
pub(crate) struct Stack<'a, T: Copy> {
    items: &'a mut [MaybeUninit<T>],
    len: usize,
    /// Entries pushed while the inline part was full; always the top of the stack.
    spill: Vec<T>,
}

impl<'a, T: Copy> Stack<'a, T> {
    #[inline(always)]
    pub fn new(items: &'a mut [MaybeUninit<T>]) -> Self {
        Self { items, len: 0, spill: Vec::new() }
    }

    #[inline(always)]
    pub fn push(&mut self, item: T) {
        if self.len < self.items.len() {
            self.items[self.len] = MaybeUninit::new(item);
            self.len += 1;
        } else {
            self.spill.push(item);
        }
    }

    #[inline(always)]
    pub fn pop(&mut self) -> Option<T> {
        if !self.spill.is_empty() {
            return self.spill.pop();
        }
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
    fn push_pop_past_the_inline_capacity() {
        let mut storage = [const { MaybeUninit::uninit() }; 2];
        let mut s: Stack<(u32, f32)> = Stack::new(&mut storage);
        for i in 0..5 {
            s.push((i, i as f32));
        }
        for i in (0..5).rev() {
            assert_eq!(s.pop(), Some((i, i as f32)));
        }
        assert_eq!(s.pop(), None);
        s.push((7, 7.0));
        assert_eq!(s.pop(), Some((7, 7.0)));
    }
}
