//! BVH build time per scene and build quality, at 1 thread, with the tree's quality beside
//! it (STYLE.md §9: speed without quality is meaningless): raybox's `TriMesh::with_quality`
//! for `Fast`, `Balanced` and `High`, and parry3d's `TriMesh::new` in the same group.
//!
//! Before each group it prints, per quality, the node count, leaf count, depth and SAH
//! cost (`TriMesh::bvh_stats`), and the SAH cost of a plain median split for reference.
//! Criterion reports throughput in triangles per second; ms per Mtri is its inverse.
//! Every build runs inside a 1-thread rayon pool; the inputs are copied before timing.
//!
//! `cargo bench -p raybox-bench --bench bvh_build` (the dragon is included when
//! `scripts/fetch-dragon.sh` has cached it).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use raybox::{BuildQuality, TriMesh};
use raybox_bench::median_split::median_split_sah;
use raybox_bench::mesh_peers::{parry_inputs, parry_trimesh};
use raybox_bench::scenes::{self, Scene};

fn scenes_to_build() -> Vec<Scene> {
    let mut list = vec![scenes::bunny(), scenes::terrain(scenes::TERRAIN_CELLS)];
    match scenes::dragon(false) {
        Ok(d) => list.push(d),
        Err(e) => println!("dragon skipped: {e}"),
    }
    list
}

fn bvh_build(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a 1-thread pool");
    let qualities = [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High];
    for scene in scenes_to_build() {
        let triangles = scene.data.indices.len();
        for quality in qualities {
            let mesh =
                TriMesh::with_quality(scene.data.vertices.clone(), scene.data.indices.clone(), quality)
                    .expect("a valid mesh");
            let s = mesh.bvh_stats();
            println!(
                "stats {} {quality:?}: {triangles} triangles, {} nodes, {} leaves, depth {}, SAH {:.2}",
                scene.name, s.node_count, s.leaf_count, s.depth, s.sah_cost
            );
        }
        println!("stats {} median split (reference): SAH {:.2}", scene.name, median_split_sah(&scene.data));

        let mut g = c.benchmark_group(format!("build {}", scene.name));
        g.throughput(Throughput::Elements(triangles as u64));
        g.sample_size(10);
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(if triangles > 100_000 { 8 } else { 2 }));
        for quality in qualities {
            g.bench_function(format!("raybox {quality:?}"), |b| {
                b.iter_batched(
                    || (scene.data.vertices.clone(), scene.data.indices.clone()),
                    |(v, i)| {
                        pool.install(|| {
                            black_box(TriMesh::with_quality(v, i, quality).expect("a valid mesh"))
                        })
                    },
                    BatchSize::PerIteration,
                );
            });
        }
        g.bench_function("parry3d TriMesh::new", |b| {
            b.iter_batched(
                || parry_inputs(&scene.data),
                |inputs| pool.install(|| black_box(parry_trimesh(inputs))),
                BatchSize::PerIteration,
            );
        });
        g.finish();
    }
}

criterion_group!(benches, bvh_build);
criterion_main!(benches);
