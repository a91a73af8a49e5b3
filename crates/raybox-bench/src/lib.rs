//! Benchmark support for raybox: seeded inputs, parry adapters, the write-ups' own
//! methods as baselines, and a reader for the reference vectors.
//!
//! Everything here is deterministic: the same seed gives the same inputs on every
//! machine, so two runs of a bench time the same work and their ratios compare.
//!
//! - [`rng`]: a small PCG32 generator and the random shapes built from it;
//! - [`inputs`]: 1,024 inputs per query, aimed so that about half of them hit;
//! - [`sets`]: the input set of every benchmarked query;
//! - [`peers`]: the same inputs as parry2d/parry3d shapes and poses;
//! - [`seeds`]: the write-ups' algorithms, each with its known flaw;
//! - [`prototypes`]: the kernels docs/BENCHMARKS.md recommends, to measure the advice;
//! - [`vectors`]: the exact reference vectors of `crates/raybox/tests/vectors`;
//! - [`scenes`]: the mesh scenes (bunny, 1M-triangle terrain, dragon) and ray sets;
//! - [`mesh_peers`]: parry3d, obvhs and bvh building and casting over the same meshes;
//! - [`median_split`]: the SAH cost of a plain median-split tree, the build's reference;
//! - [`trace`]: the agreement check run before any mesh timing, and the report header.

pub mod inputs;
pub mod median_split;
pub mod mesh_peers;
pub mod peers;
pub mod prototypes;
pub mod rng;
pub mod scenes;
pub mod seeds;
pub mod sets;
pub mod trace;
pub mod vectors;

/// How many precomputed inputs each benchmark cycles through (a power of two, so the
/// index wraps with a mask).
pub const N_INPUTS: usize = 1024;

/// The fraction of `hits` that are `true`.
#[must_use]
pub fn hit_fraction(hits: impl IntoIterator<Item = bool>) -> f64 {
    let (mut yes, mut all) = (0usize, 0usize);
    for h in hits {
        yes += usize::from(h);
        all += 1;
    }
    yes as f64 / all.max(1) as f64
}

/// Panics unless between 30% and 70% of the inputs hit: a benchmark where almost
/// everything misses (or hits) times only one branch of the query.
///
/// # Panics
/// When the fraction is outside `[0.3, 0.7]`.
pub fn assert_balanced(name: &str, hits: impl IntoIterator<Item = bool>) -> f64 {
    let f = hit_fraction(hits);
    assert!((0.3..=0.7).contains(&f), "{name}: {:.1}% of the inputs hit, outside 30-70%", 100.0 * f);
    f
}
