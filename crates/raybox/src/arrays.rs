//! Array helpers that the optimiser inlines: the crate's replacements for `[T; N]::map`
//! and `core::array::from_fn`.
//!
//! **Why.** Those two are not marked `#[inline]` in the standard library, and their bodies
//! (built for panic safety on types with destructors) are large before optimisation. In a
//! build split into codegen units, which is cargo's default for `release` (16 units, no
//! link-time optimisation, what a crate that depends on raybox gets), rustc places each of
//! their instances in one unit and every other unit calls it: a call per array, with the
//! array spilled to the stack and each element's closure called through a pointer. On
//! 2026-11-25 that made raybox's queries 2x–12x slower in such a build than in the
//! workspace's own (thin LTO, one unit) (`overlaps Triangle3-Triangle3` 443 against 55 ns,
//! `cast_ray Triangle3` 121 against 20; `perf` put `try_map`, `Drain::call_mut` and
//! `Wrapped::call_mut` at the top). The forms here need the elements to be `Copy` (every
//! array the queries map is of numbers, vectors or masks), which makes a plain loop over an
//! array filled with the first element enough: no uninitialised memory, nothing to drop.
//! `crates/raybox/clippy.toml` forbids the two originals in this crate.

/// `self.map(f)` that inlines: `f` applied to each element in order.
pub(crate) trait Each<T, const N: usize> {
    /// The array of `f(x)` for each element `x`, calling `f` on the elements in order.
    fn each<U: Copy>(self, f: impl FnMut(T) -> U) -> [U; N];
}

impl<T: Copy, const N: usize> Each<T, N> for [T; N] {
    #[inline(always)]
    fn each<U: Copy>(self, mut f: impl FnMut(T) -> U) -> [U; N] {
        const { assert!(N > 0, "an empty array has no first element to fill with") };
        let mut out = [f(self[0]); N];
        // An index loop: `Range::next` is `#[inline]`, where `zip` and `skip` were calls
        // of their own in such a build.
        #[allow(clippy::needless_range_loop)]
        for i in 1..N {
            out[i] = f(self[i]);
        }
        out
    }
}

/// `core::array::from_fn(f)` that inlines: `[f(0), f(1), …, f(N - 1)]`, called in that
/// order.
#[inline(always)]
pub(crate) fn from_fn<U: Copy, const N: usize>(mut f: impl FnMut(usize) -> U) -> [U; N] {
    const { assert!(N > 0, "an empty array has no first element to fill with") };
    let mut out = [f(0); N];
    for (i, o) in out.iter_mut().enumerate() {
        if i > 0 {
            *o = f(i);
        }
    }
    out
}

/// `s == [v; N]` that inlines: whether every element equals `v` (as `==` on `f64`: `-0.0`
/// equals `0.0`, `NaN` equals nothing). The array `==` of the standard library compares
/// slices through `SlicePartialEq::equal_same_length`, which such a build called out of
/// line (24 calls in `triangles_overlap` and its helpers).
#[inline(always)]
pub(crate) fn all_equal<const N: usize>(s: [f64; N], v: f64) -> bool {
    let mut all = true;
    #[allow(clippy::needless_range_loop)]
    for i in 0..N {
        all &= s[i] == v;
    }
    all
}

/// `x.clamp(lo, hi)` that inlines, for `lo <= hi`: `lo` below, `hi` above, `x` otherwise
/// (a `NaN` stays `NaN`, as with `f64::clamp`). `f64::clamp` asserts `lo <= hi` and was a
/// call of its own in such a build (`ray_segment2`, `ray_segment3`).
#[inline(always)]
pub(crate) fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    debug_assert!(lo <= hi);
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::{Each, from_fn};

    #[test]
    fn each_and_from_fn_give_what_the_originals_give_in_the_same_order() {
        let mut calls = Vec::new();
        let got = [3.0f64, -1.5, 7.25].each(|x| {
            calls.push(x);
            x * 2.0
        });
        assert_eq!(got, [6.0, -3.0, 14.5]);
        assert_eq!(calls, [3.0, -1.5, 7.25]);
        let mut order = Vec::new();
        let built: [usize; 4] = from_fn(|i| {
            order.push(i);
            i * i
        });
        assert_eq!(built, [0, 1, 4, 9]);
        assert_eq!(order, [0, 1, 2, 3]);
        assert_eq!([true].each(|b| !b), [false]);
    }

    #[test]
    fn all_equal_and_clamp_give_what_the_originals_give() {
        let values = [0.0, -0.0, 1.0, -1.0, 0.5, f64::NAN, f64::INFINITY];
        for &a in &values {
            for &b in &values {
                for &c in &values {
                    for v in [0.0, 1.0, -1.0, f64::NAN] {
                        assert_eq!(super::all_equal([a, b, c], v), [a, b, c] == [v; 3]);
                    }
                }
            }
            for (lo, hi) in [(0.0, 1.0), (-1.0, -0.0), (0.5, 0.5), (-0.0, 0.0)] {
                let (ours, std) = (super::clamp(a, lo, hi), a.clamp(lo, hi));
                assert!(
                    ours.to_bits() == std.to_bits() || (ours.is_nan() && std.is_nan()),
                    "{a} in [{lo}, {hi}]"
                );
            }
        }
    }
}
