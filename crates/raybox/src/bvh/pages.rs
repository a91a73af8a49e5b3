//! Large BVH arrays on 2 MiB pages.
//!
//! A ray walk through a large mesh reads nodes and triangle blocks scattered over tens of
//! megabytes (a 1M-triangle terrain: 22 MB of nodes, 43 MB of blocks). With 4 KiB pages that
//! is more pages than the TLB holds, so most reads of an incoherent ray also miss the TLB, and
//! under a hypervisor each miss walks two page tables. Linux backs memory with 2 MiB
//! "transparent huge pages" where the process asks for them (`madvise(MADV_HUGEPAGE)`), which
//! is the only mode many systems enable (`/sys/kernel/mm/transparent_hugepage/enabled` set
//! to `madvise`). Asked, the kernel maps each aligned 2 MiB stretch of the array with one
//! TLB entry when it is first written. Measured on a 1M-triangle terrain with 2^17 random
//! rays, one thread (`examples/mesh_speed`): 1.30–1.41 → 1.48–1.57 Mrays/s closest hit,
//! 1.36–1.45 → 1.63–1.74 any hit.
//!
//! The advice only applies to pages not yet written, so an array is advised right after it
//! is allocated, or moved to a fresh, advised allocation once it is complete (a copy of a
//! few milliseconds for the largest meshes). Elsewhere than Linux, and for arrays too small
//! to hold an aligned 2 MiB page, both functions do nothing. Where the system disables huge
//! pages (`never`), the advice is ignored and nothing changes.

/// The size of a transparent huge page on x86-64 and most aarch64 Linux systems.
const HUGE_PAGE: usize = 2 << 20;

/// Arrays smaller than this are left alone: they fit the TLB's reach anyway, and rounding
/// up to whole huge pages would waste up to half of their memory.
const WORTH_IT: usize = 4 * HUGE_PAGE;

/// The whole huge pages inside the `bytes` bytes at address `start`: the first aligned
/// address and the length, or `None` if the range is below [`WORTH_IT`].
fn aligned_inside(start: usize, bytes: usize) -> Option<(usize, usize)> {
    if bytes < WORTH_IT {
        return None;
    }
    let first = start.checked_add(HUGE_PAGE - 1)? & !(HUGE_PAGE - 1);
    let end = start.checked_add(bytes)? & !(HUGE_PAGE - 1);
    (end > first).then(|| (first, end - first))
}

/// Asks for huge pages under the capacity of `v` (written or not; only the pages written
/// after this call are affected).
pub(crate) fn advise_huge_pages<T>(v: &Vec<T>) {
    let bytes = v.capacity().saturating_mul(core::mem::size_of::<T>());
    let Some((start, len)) = aligned_inside(v.as_ptr() as usize, bytes) else { return };
    advise(start, len);
}

/// `v` on huge pages: large arrays are copied into a fresh allocation advised before the
/// copy writes it; small ones are returned as they are.
pub(crate) fn on_huge_pages<T: Copy>(v: Vec<T>) -> Vec<T> {
    if v.len().saturating_mul(core::mem::size_of::<T>()) < WORTH_IT || !cfg!(target_os = "linux") {
        return v;
    }
    let mut moved = Vec::with_capacity(v.len());
    advise_huge_pages(&moved);
    moved.extend_from_slice(&v);
    moved
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)] // one system call on memory this process owns
fn advise(start: usize, len: usize) {
    // SAFETY: `start..start + len` lies inside a live allocation of the caller's vector
    // (`aligned_inside` only shrinks the range), and `MADV_HUGEPAGE` is advice about how
    // to back those pages: it changes neither their contents nor their validity. A failure
    // (an old kernel, huge pages not compiled in) leaves the pages as they were, so the
    // result is ignored.
    unsafe {
        libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_start: usize, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_aligned_pages_inside_the_array_are_advised() {
        let mb = 1 << 20;
        // Too small to be worth it, wherever it starts.
        assert_eq!(aligned_inside(0, WORTH_IT - 1), None);
        // Aligned start: every whole page.
        assert_eq!(aligned_inside(64 * mb, 9 * mb), Some((64 * mb, 8 * mb)));
        // Unaligned start and end: the pages strictly inside.
        assert_eq!(aligned_inside(64 * mb + 4096, 9 * mb), Some((66 * mb, 6 * mb)));
        // Near the top of the address space: no overflow, no range.
        assert_eq!(aligned_inside(usize::MAX - 3 * mb, 9 * mb), None);
        for (start, bytes) in [(12_345_usize, 10 * mb), (3 * mb - 1, 8 * mb + 7), (2 * mb, 8 * mb)] {
            let (s, len) = aligned_inside(start, bytes).unwrap();
            assert!(s >= start && s + len <= start + bytes, "{start} {bytes}: {s} {len}");
            assert_eq!((s % HUGE_PAGE, len % HUGE_PAGE), (0, 0));
        }
    }

    #[test]
    fn moving_to_huge_pages_keeps_every_element() {
        for n in [0usize, 1000, WORTH_IT / 16 + 3, 3 * WORTH_IT / 16] {
            let v: Vec<[u32; 4]> = (0..n as u32).map(|i| [i, i ^ 0x55, i.wrapping_mul(7), !i]).collect();
            let moved = on_huge_pages(v.clone());
            assert_eq!(moved, v);
        }
    }
}
