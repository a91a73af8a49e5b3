//! Timing a query over precomputed inputs, cycled inside criterion's loop, so that neither
//! generating inputs nor allocating is measured (shared by the benches that include it).

use criterion::BenchmarkGroup;
use criterion::measurement::WallTime;
use std::hint::black_box;

/// Times `query` on `inputs[1], inputs[2], …`, wrapping around (`inputs.len()` must be a
/// power of two), as the benchmark `id` of group `g`.
pub fn bench_cycling<T, R>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    inputs: &[T],
    query: impl Fn(&T) -> R,
) {
    assert!(inputs.len().is_power_of_two(), "{id}: the input count must be a power of two");
    let mask = inputs.len() - 1;
    g.bench_function(id, |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) & mask;
            black_box(query(black_box(&inputs[i])))
        });
    });
}
