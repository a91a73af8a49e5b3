//! Ray casts over many placed meshes: raybox's `MeshInstances` (a BVH over the instances,
//! each ray carried into the candidates' frames) beside raybox's own `TriMesh` of all the
//! instances' triangles placed in the world (one level: what a user without instances
//! would build, with 125 times the memory), 1 thread, closest hit. parry3d 0.31 has no
//! peer: its `Compound` refuses a `TriMesh` among its parts ("nested composite shapes are
//! not allowed").
//!
//! The scene: the bunny at 125 poses on a 5x5x5 grid two bunny sizes apart, each turned
//! at random. 4,096 rays from random points of a ball around the grid in random
//! directions (scattered), and 4,096 aimed at random instances (most hit). Before timing,
//! the flattened mesh's `t` is checked against `MeshInstances`' on every ray (within
//! `1e-4` of the scene's size, hit or miss alike, but for a handful of rays grazing an edge).
//!
//! Then shape queries among the same instances: balls overlapping and swept (sphere casts),
//! against the same flattened mesh.
//!
//! `cargo bench -p raybox-bench --bench instances`

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Affine3A, Quat, Vec3};
use raybox::{MeshInstances, Ray3, TriMesh, mesh};
use raybox_bench::rng::Pcg32;

fn instances(c: &mut Criterion) {
    let data = mesh::bunny();
    let bunny = Arc::new(TriMesh::from_data(data.clone()).unwrap());
    let b = bunny.bounds().unwrap();
    let size = (b.max() - b.min()).max_element();
    let mut rng = Pcg32::new(31);
    let poses: Vec<Affine3A> = (0..125)
        .map(|i| {
            let cell = Vec3::new((i % 5) as f32, (i / 5 % 5) as f32, (i / 25) as f32);
            let turn = Quat::from_axis_angle(rng.unit3(), rng.range(0.0, 6.3));
            // Turn about the bunny's centre, then place it in its cell.
            Affine3A::from_rotation_translation(turn, cell * 2.0 * size - turn * b.center())
        })
        .collect();
    let world = MeshInstances::new(poses.iter().map(|&p| (bunny.clone(), p))).unwrap();

    // One TriMesh of every instance's triangles, placed.
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for p in &poses {
        let base = vertices.len() as u32;
        vertices.extend(data.vertices.iter().map(|&v| p.transform_point3(v)));
        indices.extend(data.indices.iter().map(|t| t.map(|k| k + base)));
    }
    let flat = TriMesh::new(vertices, indices).unwrap();

    let bounds = world.bounds().unwrap();
    let (centre, radius) = (bounds.center(), (bounds.max() - bounds.min()).length() * 0.6);
    let scattered: Vec<Ray3> = (0..4096)
        .map(|_| Ray3::new(centre + rng.unit3() * radius * rng.range(0.0, 1.0), rng.unit3()))
        .collect();
    let aimed: Vec<Ray3> = (0..4096)
        .map(|_| {
            let target = world.bounds_of(rng.next_u32() as usize % 125).unwrap().center();
            let o = centre + rng.unit3() * radius;
            Ray3::new(o, target - o)
        })
        .collect();

    for (name, rays) in [("scattered", &scattered), ("aimed", &aimed)] {
        let ours: Vec<Option<f32>> = rays.iter().map(|r| world.first_hit(r).map(|h| h.1.t)).collect();
        let tol = 1e-4 * radius;
        let far = |t: Option<f32>, r: &Ray3| t.map(|t| t * r.dir().length());
        let mut flat_off = 0;
        for (r, &t) in rays.iter().zip(&ours) {
            let (want, f) = (far(t, r), far(flat.first_hit(r).map(|h| h.t), r));
            let close = match (want, f) {
                (None, None) => true,
                (Some(a), Some(b)) => (a - b).abs() <= tol,
                _ => false,
            };
            flat_off += usize::from(!close);
        }
        let hits = ours.iter().filter(|t| t.is_some()).count();
        println!("check {name}: {hits}/4096 hit; the flattened mesh differs on {flat_off}");
        assert!(flat_off <= 4, "{name}: the flattened mesh disagrees on {flat_off} rays");

        let mut g = c.benchmark_group(format!("instances {name}"));
        g.throughput(Throughput::Elements(rays.len() as u64));
        g.bench_function("raybox MeshInstances", |bench| {
            bench.iter(|| rays.iter().filter(|r| black_box(world.first_hit(r)).is_some()).count())
        });
        g.bench_function("raybox flattened TriMesh", |bench| {
            bench.iter(|| rays.iter().filter(|r| black_box(flat.first_hit(r)).is_some()).count())
        });
        g.finish();
    }

    // A camera's rays (128 x 128, in 4 x 8 tiles) from outside the world toward its centre:
    // the batch (each ray alone, on all cores with `rayon`) against the same rays one by
    // one on one thread, and against the flattened mesh's batch (coherent runs as packets
    // through one tree, on all cores). Answers checked equal first. (Rays sent through the
    // instances in groups of 32, as packets through each mesh, ran at 0.64x the per-ray
    // batch here, the fifteenth session: few rays of a group meet each bunny.)
    let eye = centre + Vec3::new(0.3, 0.4, 1.0).normalize() * radius * 1.2;
    let (fwd, side) = ((centre - eye).normalize(), Vec3::Y.cross(centre - eye).normalize());
    let up = fwd.cross(side);
    let mut camera = Vec::new();
    for tile in 0..(128 * 128 / 32) {
        let (tx, ty) = (tile % 32, tile / 32);
        for k in 0..32 {
            let (x, y) = (tx * 4 + k % 4, ty * 8 + k / 4);
            let (u, v) = ((x as f32 + 0.5) / 64.0 - 1.0, (y as f32 + 0.5) / 64.0 - 1.0);
            camera.push(Ray3::new(eye, fwd + (side * u + up * v) * 0.5));
        }
    }
    let batch = world.first_hits(&camera);
    let singles: Vec<_> = camera.iter().map(|r| world.first_hit(r)).collect();
    assert_eq!(batch, singles, "camera batch against single rays");
    let hits = batch.iter().flatten().count();
    println!("check camera: {hits}/{} hit; batches and single rays agree", camera.len());
    let mut g = c.benchmark_group("instances camera");
    g.throughput(Throughput::Elements(camera.len() as u64));
    let mut out = Vec::new();
    g.bench_function("raybox MeshInstances first_hits_into", |bench| {
        bench.iter(|| {
            world.first_hits_into(&camera, &mut out);
            black_box(&out);
        })
    });
    g.bench_function("raybox MeshInstances first_hit each", |bench| {
        bench.iter(|| camera.iter().filter(|r| black_box(world.first_hit(r)).is_some()).count())
    });
    let mut flat_out = Vec::new();
    g.bench_function("raybox flattened TriMesh first_hits_into", |bench| {
        bench.iter(|| {
            flat.first_hits_into(&camera, &mut flat_out);
            black_box(&flat_out);
        })
    });
    g.finish();

    // Shape queries: balls a tenth of a bunny across at random points of the instances'
    // boxes, swept half a bunny in a random direction. Both answer for the same triangles
    // placed in `f32` or `f64`, so a ball may touch a triangle in one and not in the other
    // only within rounding: a handful of disagreements are allowed, not more.
    let balls: Vec<(raybox::Sphere, Vec3)> = (0..4096)
        .map(|_| {
            let b = world.bounds_of(rng.next_u32() as usize % 125).unwrap();
            let at = b.min()
                + (b.max() - b.min())
                    * Vec3::new(rng.range(0.0, 1.0), rng.range(0.0, 1.0), rng.range(0.0, 1.0));
            (raybox::Sphere::new(at, 0.05 * size), rng.unit3() * 0.5 * size)
        })
        .collect();
    let (mut overlaps, mut sweeps, mut differ) = (0, 0, 0);
    for (ball, motion) in &balls {
        let (a, b) = (world.overlaps(ball), flat.overlaps(ball));
        let (s, f) = (world.sweep(ball, *motion).map(|h| h.t), flat.sweep(ball, *motion).map(|h| h.t));
        overlaps += usize::from(a);
        sweeps += usize::from(s.is_some());
        differ += usize::from(a != b);
        differ += usize::from(match (s, f) {
            (None, None) => false,
            (Some(s), Some(f)) => (s - f).abs() > 1e-3,
            _ => true,
        });
    }
    println!(
        "check balls: {overlaps}/4096 overlap, {sweeps}/4096 sweeps hit; the flattened mesh differs on {differ}"
    );
    assert!(differ <= 4, "the flattened mesh disagrees on {differ} balls");
    let mut g = c.benchmark_group("instances balls");
    g.throughput(Throughput::Elements(balls.len() as u64));
    g.bench_function("raybox MeshInstances overlaps", |bench| {
        bench.iter(|| balls.iter().filter(|(b, _)| black_box(world.overlaps(b))).count())
    });
    g.bench_function("raybox flattened TriMesh overlaps", |bench| {
        bench.iter(|| balls.iter().filter(|(b, _)| black_box(flat.overlaps(b))).count())
    });
    g.bench_function("raybox MeshInstances sweep", |bench| {
        bench.iter(|| balls.iter().filter(|(b, m)| black_box(world.sweep(b, *m)).is_some()).count())
    });
    g.bench_function("raybox flattened TriMesh sweep", |bench| {
        bench.iter(|| balls.iter().filter(|(b, m)| black_box(flat.sweep(b, *m)).is_some()).count())
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3)).sample_size(20);
    targets = instances
}
criterion_main!(benches);
