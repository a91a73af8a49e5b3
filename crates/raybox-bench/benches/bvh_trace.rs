//! Closest-hit and any-hit ray casts at 1 thread, raybox beside parry3d, obvhs, bvh and
//! (where `scripts/install-embree` installed it) Embree's `rtcIntersect1`, one criterion
//! group per scene and ray set (throughput in rays per second).
//!
//! Ray sets: primary rays of a 256x256 pinhole camera in 4x4 tiles (coherent) and 2^16
//! rays from random origins in random directions (incoherent): the `--quick` sets of the
//! `compare` binary, which times the full sets and all threads. Each iteration casts the
//! next 1,024 rays of the set, on the calling thread, one call per ray. Before timing, each
//! peer's closest hits are checked against raybox's on a sample; a peer that disagrees is
//! printed as such and left out of the group. "raybox closest hit" is `first_hit` (`t`,
//! triangle, barycentrics: the peers' calls return the distance, at most with the
//! primitive); "with normal and point" is `cast_ray`.
//!
//! `cargo bench -p raybox-bench --bench bvh_trace` (the dragon is included when
//! `scripts/fetch-dragon.sh` has cached it).

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use raybox::{Ray3, TriMesh};
use raybox_bench::mesh_peers::{BvhMesh, Embree, EmbreeMesh, EmbreeQuality, MeshPeer, ObvhsMesh, ParryMesh};
use raybox_bench::scenes::{self, Sizes};
use raybox_bench::trace;

/// Rays cast per timed iteration.
const CHUNK: usize = 1024;

/// Times `cast` over the next `CHUNK` rays of `rays` per iteration.
fn bench_rays<R>(g: &mut BenchmarkGroup<'_, WallTime>, name: &str, rays: &[R], cast: impl Fn(&R) -> bool) {
    let chunks = rays.len() / CHUNK;
    assert!(chunks > 0, "fewer than {CHUNK} rays");
    g.bench_function(name, |b| {
        let mut next = 0;
        b.iter(|| {
            let chunk = &rays[next * CHUNK..(next + 1) * CHUNK];
            next = (next + 1) % chunks;
            black_box(chunk.iter().filter(|r| cast(black_box(r))).count())
        });
    });
}

/// Checks `peer` on `rays`, and times it if it agrees with raybox.
fn bench_peer<P: MeshPeer>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    label: &str,
    mesh: &TriMesh,
    peer: &P,
    rays: &[Ray3],
) {
    let peer_rays: Vec<P::Ray> = rays.iter().map(P::ray).collect();
    let a = trace::check_peer(mesh, peer, rays, &peer_rays);
    if a.agrees() {
        println!("check {label}: {} agrees: {}", P::NAME, a.summary());
        bench_rays(g, P::NAME, &peer_rays, |r| peer.cast(r).is_some());
    } else {
        println!("check {label}: {} DISAGREES, not timed: {}", P::NAME, a.summary());
    }
}

fn bvh_trace(c: &mut Criterion) {
    let mut list = vec![scenes::bunny(), scenes::terrain(scenes::TERRAIN_CELLS)];
    match scenes::dragon(false) {
        Ok(d) => list.push(d),
        Err(e) => println!("dragon skipped: {e}"),
    }
    println!("raybox kernel: {}", raybox::kernel_name());
    // SAFETY: Embree as `scripts/install-embree` installs it (Debian's build, default layout).
    let embree = match unsafe { Embree::load() }.and_then(|e| e.device("")) {
        Ok(device) => Some(device),
        Err(e) => {
            println!("Embree not timed: {e}");
            None
        }
    };
    for scene in list {
        let mesh = TriMesh::from_data(scene.data.clone()).expect("a valid mesh");
        let parry = ParryMesh::build(&scene.data);
        let obvhs = ObvhsMesh::build(&scene.data);
        let bvh = BvhMesh::build(&scene.data);
        let embree_mesh = embree
            .as_ref()
            .map(|d| EmbreeMesh::new(d, &scene.data, EmbreeQuality::Medium).expect("Embree builds the mesh"));
        for set in scenes::ray_sets(&scene.data, Sizes::QUICK) {
            let label = format!("{} {}", scene.name, set.name);
            let mut g = c.benchmark_group(format!("trace {label}"));
            g.throughput(Throughput::Elements(CHUNK as u64));
            g.warm_up_time(Duration::from_millis(500));
            g.measurement_time(Duration::from_secs(2));
            bench_rays(&mut g, "raybox closest hit", &set.rays, |r| mesh.first_hit(r).is_some());
            bench_rays(&mut g, "raybox closest hit with normal and point", &set.rays, |r| {
                mesh.cast_ray(r).is_some()
            });
            bench_rays(&mut g, "raybox any hit", &set.rays, |r| mesh.occluded(r));
            bench_peer(&mut g, &label, &mesh, &parry, &set.rays);
            bench_peer(&mut g, &label, &mesh, &obvhs, &set.rays);
            bench_peer(&mut g, &label, &mesh, &bvh, &set.rays);
            if let Some(e) = &embree_mesh {
                bench_peer(&mut g, &label, &mesh, e, &set.rays);
            }
            g.finish();
        }
    }
}

criterion_group!(benches, bvh_trace);
criterion_main!(benches);
