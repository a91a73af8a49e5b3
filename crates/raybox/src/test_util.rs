//! Helpers for the unit tests.

/// A deterministic stream of `f32` values uniform in `[-1, 1)` (Marsaglia's xorshift32,
/// the top 24 bits), for unit tests that sweep thousands of random cases without a
/// dependency: the same seed gives the same cases on every machine.
pub(crate) fn signed_units(seed: u32) -> impl FnMut() -> f32 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
    }
}
