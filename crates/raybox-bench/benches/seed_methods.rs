//! The write-ups' own methods (`src/seeds.rs`) beside raybox's query, one criterion group
//! per method (`raybox` and `seed`), on the same inputs as `primitives`.
//!
//! It first prints how often each method is wrong on the exact reference vectors (the
//! README's table, also `--bin seed_report`) and how often it disagrees with raybox on the
//! benchmark inputs: a baseline that is faster because it answers a different question is
//! not a faster answer.

#[path = "common/cycle.rs"]
mod cycle;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raybox::{Overlaps, RayCast};
use raybox_bench::{N_INPUTS, assert_balanced, seeds, sets};

/// Times raybox's `query` and the write-up's `seed` on `inputs`, after printing how often
/// they disagree there.
fn versus<I>(
    c: &mut Criterion,
    name: &str,
    inputs: &[I],
    query: impl Fn(&I) -> bool,
    seed: impl Fn(&I) -> bool,
) {
    assert_eq!(inputs.len(), N_INPUTS);
    let fraction = assert_balanced(name, inputs.iter().map(&query));
    let differ = inputs.iter().filter(|x| query(x) != seed(x)).count();
    println!(
        "check {name}: {:.1}% hit; the seed method disagrees with raybox on {differ}/{N_INPUTS}",
        100.0 * fraction
    );

    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(1));
    cycle::bench_cycling(&mut g, "raybox", inputs, |x| query(x));
    cycle::bench_cycling(&mut g, "seed", inputs, |x| seed(x));
    g.finish();
}

fn seed_methods(c: &mut Criterion) {
    println!("The write-ups' methods against the exact reference vectors:\n");
    println!("{}", seeds::markdown_table(&seeds::compare_with_vectors()));

    let rays = sets::ray_aabb3();
    versus(
        c,
        "seed ray-Aabb3 nearest faces",
        &rays,
        |(b, r)| b.intersects_ray(r),
        |(b, r)| seeds::ray_aabb_nearest_faces(b, r),
    );
    versus(
        c,
        "seed ray-Aabb3 face planes",
        &rays,
        |(b, r)| b.intersects_ray(r),
        |(b, r)| seeds::ray_aabb_face_planes(b, r),
    );
    versus(
        c,
        "seed Sphere-Aabb3 grown box",
        &sets::sphere_aabb3(),
        |(s, b)| s.overlaps(b),
        |(s, b)| seeds::sphere_aabb3_grown_box(s, b),
    );
    versus(
        c,
        "seed Obb3-Obb3 vertices + edges",
        &sets::obb3_obb3(),
        |(a, b)| a.overlaps(b),
        |(a, b)| seeds::obb3_obb3_vertices_edges(a, b),
    );
    versus(
        c,
        "seed Obb2-Obb2 endpoint SAT",
        &sets::obb2_obb2(),
        |(a, b)| a.overlaps(b),
        |(a, b)| seeds::obb2_obb2_endpoint_sat(a, b),
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = seed_methods
}
criterion_main!(benches);
