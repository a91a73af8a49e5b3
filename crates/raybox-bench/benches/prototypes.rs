//! raybox's kernels beside the rewrites the README recommends (`src/prototypes.rs`), one
//! criterion group each (`raybox` and `prototype`), on the `primitives` inputs. The
//! prototypes' answers are checked against raybox's before timing.

#[path = "common/cycle.rs"]
mod cycle;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raybox::{Overlaps, RayCast};
use raybox_bench::{N_INPUTS, prototypes, sets};

fn versus<I, A, B>(
    c: &mut Criterion,
    name: &str,
    inputs: &[I],
    query: impl Fn(&I) -> A,
    proto: impl Fn(&I) -> B,
) where
    A: PartialEq<B>,
{
    assert_eq!(inputs.len(), N_INPUTS);
    let same = inputs.iter().filter(|x| query(x) == proto(x)).count();
    println!("check {name}: the prototype agrees with raybox on {same}/{N_INPUTS}");
    assert_eq!(same, N_INPUTS, "{name}");
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(1));
    cycle::bench_cycling(&mut g, "raybox", inputs, |x| query(x));
    cycle::bench_cycling(&mut g, "prototype", inputs, |x| proto(x));
    g.finish();
}

fn prototypes(c: &mut Criterion) {
    versus(
        c,
        "proto ray_span Aabb3",
        &sets::ray_aabb3(),
        |(b, r)| b.ray_span(r).map(|s| (s.t_enter, s.t_exit)),
        |(b, r)| prototypes::ray_aabb3_span(b, r),
    );
    versus(
        c,
        "proto ray_span Sphere",
        &sets::ray_sphere(),
        |(s, r)| s.ray_span(r).is_some(),
        |(s, r)| prototypes::ray_sphere_span(s, r).is_some(),
    );
    // The timed prototype returns the span, not only the boolean.
    let spheres = sets::ray_sphere();
    let mut g = c.benchmark_group("proto ray_span Sphere (span)");
    g.throughput(Throughput::Elements(1));
    g.bench_function("raybox", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) & (N_INPUTS - 1);
            let (s, r) = black_box(&spheres[i]);
            black_box(s.ray_span(r))
        });
    });
    g.bench_function("prototype", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) & (N_INPUTS - 1);
            let (s, r) = black_box(&spheres[i]);
            black_box(prototypes::ray_sphere_span(s, r))
        });
    });
    g.finish();
    versus(
        c,
        "proto overlaps Obb3-Obb3",
        &sets::obb3_obb3(),
        |(a, b)| a.overlaps(b),
        |(a, b)| prototypes::obb3_obb3_overlap(a, b),
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = prototypes
}
criterion_main!(benches);
