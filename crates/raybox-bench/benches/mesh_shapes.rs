//! A `TriMesh` queried with shapes, raybox beside parry3d 0.31 on the same mesh (the
//! bunny, 3,674 triangles, about 0.16 across): sphere, capsule and oriented box casts
//! (`TriMesh::sweep` against parry's `cast_shapes` with a `Ball`, `Capsule` or `Cuboid`
//! moving against its `TriMesh`) and overlap tests (`TriMesh::overlaps` against
//! `intersection_test`), 1 thread.
//!
//! The 1,024 queries of each group are drawn from a seeded generator: shapes of radius
//! 1%–10% of the bunny's size around it, moving across it (most casts hit; a third to a
//! half of the overlap tests are true; both counts are printed). Before timing, parry's answers are checked against
//! raybox's: overlaps must agree, and times of impact agree within `1e-3` or both are
//! times at which the shape is within `1e-3` of the mesh's size from a triangle.
//!
//! `cargo bench -p raybox-bench --bench mesh_shapes`

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Quat, Vec3};
use parry3d::math::{Pose, Vector};
use parry3d::query::ShapeCastOptions;
use raybox::{Capsule3, ClosestPoint, Distance, Obb3, Sphere, TriMesh, Triangle3};
use raybox_bench::rng::Pcg32;

const N: usize = 1024;

fn p3(v: Vec3) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

/// A query shape: a ball, a capsule or an oriented box, in both libraries.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Ball(Sphere),
    Capsule(Capsule3),
    Box(Obb3),
}

impl Shape {
    fn parry(&self) -> (Box<dyn parry3d::shape::Shape>, Pose) {
        match *self {
            Shape::Ball(s) => {
                (Box::new(parry3d::shape::Ball::new(s.radius())), Pose::from_translation(p3(s.center())))
            }
            Shape::Capsule(c) => (
                Box::new(parry3d::shape::Capsule::new(p3(c.start()), p3(c.end()), c.radius())),
                Pose::IDENTITY,
            ),
            Shape::Box(o) => {
                let q = Quat::from_mat3(&o.rotation()).normalize();
                let rotation = parry3d::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w);
                (
                    Box::new(parry3d::shape::Cuboid::new(p3(o.half_extents()))),
                    Pose::from_parts(p3(o.center()), rotation),
                )
            }
        }
    }
    fn moved(&self, v: Vec3) -> Self {
        match *self {
            Shape::Ball(s) => Shape::Ball(Sphere::new(s.center() + v, s.radius())),
            Shape::Capsule(c) => Shape::Capsule(Capsule3::new(c.start() + v, c.end() + v, c.radius())),
            Shape::Box(o) => {
                Shape::Box(Obb3::try_from_matrix(o.center() + v, o.half_extents(), o.rotation()).unwrap())
            }
        }
    }
    fn distance(&self, tri: &Triangle3) -> f32 {
        match self {
            Shape::Ball(s) => s.distance(tri),
            Shape::Capsule(c) => c.distance(tri),
            Shape::Box(o) => o.distance(tri),
        }
    }
}

/// `N` shapes of `kind` (0: balls, 1: capsules, 2: oriented boxes) around the mesh, and
/// motions across it.
fn queries(centre: Vec3, size: f32, kind: usize, seed: u64) -> Vec<(Shape, Vec3)> {
    let mut rng = Pcg32::new(seed);
    (0..N)
        .map(|_| {
            let c = centre + rng.in_ball() * size;
            let r = size * rng.range(0.01, 0.1);
            let shape = match kind {
                0 => Shape::Ball(Sphere::new(c, r)),
                1 => Shape::Capsule(Capsule3::new(c, c + rng.unit3() * size * 0.2, r)),
                _ => {
                    let q = Quat::from_axis_angle(rng.unit3(), rng.range(0.0, 3.0));
                    Shape::Box(Obb3::new(c, Vec3::new(r, r * 0.5, r * 1.5), q))
                }
            };
            let target = centre + rng.in_ball() * size * 0.5;
            (shape, (target - c) * 2.0)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let data = raybox::mesh::bunny();
    let mesh = TriMesh::new(data.vertices.clone(), data.indices.clone()).unwrap();
    let parry_mesh =
        parry3d::shape::TriMesh::new(data.vertices.iter().map(|&v| p3(v)).collect(), data.indices.clone())
            .unwrap();
    let tris: Vec<Triangle3> = data
        .indices
        .iter()
        .filter_map(|t| {
            let [a, b, c] = t.map(|k| data.vertices[k as usize]);
            Triangle3::try_new(a, b, c).ok()
        })
        .collect();
    let bounds = mesh.bounds().unwrap();
    let (centre, size) = (bounds.center(), bounds.half_extents().max_element() * 2.0);
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };

    for (label, kind, seed) in [("sphere", 0, 31), ("capsule", 1, 32), ("box", 2, 33)] {
        let qs = queries(centre, size, kind, seed);
        let ours = |&(s, v): &(Shape, Vec3)| match s {
            Shape::Ball(b) => mesh.sweep(&b, v).map(|h| h.t),
            Shape::Capsule(c) => mesh.sweep(&c, v).map(|h| h.t),
            Shape::Box(o) => mesh.sweep(&o, v).map(|h| h.t),
        };
        let parry_qs: Vec<_> = qs.iter().map(|(s, v)| (s.parry(), p3(*v))).collect();
        let theirs = |((g, pose), v): &((Box<dyn parry3d::shape::Shape>, Pose), Vector)| {
            parry3d::query::cast_shapes(pose, *v, &**g, &Pose::IDENTITY, p3(Vec3::ZERO), &parry_mesh, options)
                .expect("parry supports the pair")
                .map(|h| h.time_of_impact)
        };
        // Check before timing.
        let (mut hits, mut agree) = (0, 0);
        for (q, pq) in qs.iter().zip(&parry_qs) {
            let (a, b) = (ours(q), theirs(pq));
            let touches = |t: f32| {
                let moved = q.0.moved(q.1 * t);
                tris.iter().map(|tri| moved.distance(tri)).fold(f32::INFINITY, f32::min) <= 1e-3 * size
            };
            let ok = match (a, b) {
                (Some(x), Some(y)) => (x - y).abs() <= 1e-3 || (touches(x) && touches(y)),
                (None, None) => true,
                (Some(x), None) => touches(x),
                (None, Some(y)) => !touches(y),
            };
            hits += usize::from(a.is_some());
            agree += usize::from(ok);
        }
        println!("check {label} casts: {hits} of {N} hit; parry agrees on {agree}");
        assert_eq!(agree, N, "parry3d disagrees with raybox on {label} casts");

        let mut g = c.benchmark_group(format!("mesh_shapes/{label} cast, bunny"));
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function("raybox", |b| b.iter(|| qs.iter().filter(|q| ours(black_box(q)).is_some()).count()));
        g.bench_function("parry3d", |b| {
            b.iter(|| parry_qs.iter().filter(|q| theirs(black_box(q)).is_some()).count())
        });
        g.finish();

        // Overlap tests: the same shapes where they start.
        let ours = |s: &Shape| match s {
            Shape::Ball(b) => mesh.overlaps(b),
            Shape::Capsule(c) => mesh.overlaps(c),
            Shape::Box(o) => mesh.overlaps(o),
        };
        let theirs = |(g, pose): &(Box<dyn parry3d::shape::Shape>, Pose)| {
            parry3d::query::intersection_test(pose, &**g, &Pose::IDENTITY, &parry_mesh)
                .expect("parry supports the pair")
                .intersecting
        };
        let shapes: Vec<Shape> = qs.iter().map(|(s, v)| s.moved(*v * 0.5)).collect();
        let parry_shapes: Vec<_> = shapes.iter().map(Shape::parry).collect();
        let overlapping = shapes.iter().filter(|s| ours(s)).count();
        let agree = shapes.iter().zip(&parry_shapes).filter(|(s, p)| ours(s) == theirs(p)).count();
        println!("check {label} overlaps: {overlapping} of {N} overlap; parry agrees on {agree}");
        assert!(agree >= N - 2, "parry3d disagrees with raybox on {} {label} overlaps", N - agree);

        let mut g = c.benchmark_group(format!("mesh_shapes/{label} overlaps, bunny"));
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function("raybox", |b| b.iter(|| shapes.iter().filter(|s| ours(black_box(s))).count()));
        g.bench_function("parry3d", |b| {
            b.iter(|| parry_shapes.iter().filter(|s| theirs(black_box(s))).count())
        });
        g.finish();
    }
}

/// The bunny against a second bunny, turned and moved by up to its size (about half of the
/// poses overlap): `TriMesh::overlaps_mesh` against parry3d's `intersection_test` of two
/// `TriMesh`es. Both decide the same placed meshes (raybox maps the second mesh's vertices
/// by the pose, parry3d by its own `Pose`), so near-touching poses may part: at most 2 of
/// the 256 may disagree.
fn mesh_against_mesh(c: &mut Criterion) {
    const POSES: usize = 256;
    let data = raybox::mesh::bunny();
    let mesh = TriMesh::new(data.vertices.clone(), data.indices.clone()).unwrap();
    let parry_mesh =
        parry3d::shape::TriMesh::new(data.vertices.iter().map(|&v| p3(v)).collect(), data.indices.clone())
            .unwrap();
    let size = mesh.bounds().unwrap().half_extents().max_element() * 2.0;
    let mut rng = Pcg32::new(41);
    let poses: Vec<(glam::Affine3A, Pose)> = (0..POSES)
        .map(|_| {
            let q = Quat::from_axis_angle(rng.unit3(), rng.range(0.0, std::f32::consts::TAU));
            let t = rng.in_ball() * size;
            let rotation = parry3d::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w);
            (glam::Affine3A::from_rotation_translation(q, t), Pose::from_parts(p3(t), rotation))
        })
        .collect();
    let ours = |pose: &glam::Affine3A| mesh.overlaps_mesh(&mesh, pose);
    let theirs = |pose: &Pose| {
        parry3d::query::intersection_test(&Pose::IDENTITY, &parry_mesh, pose, &parry_mesh)
            .expect("parry supports the pair")
            .intersecting
    };
    let overlapping = poses.iter().filter(|(a, _)| ours(a)).count();
    let agree = poses.iter().filter(|(a, p)| ours(a) == theirs(p)).count();
    println!("check bunny/bunny overlaps: {overlapping} of {POSES} overlap; parry agrees on {agree}");
    assert!(agree >= POSES - 2, "parry3d disagrees with raybox on {} bunny/bunny overlaps", POSES - agree);
    let pairs: usize = poses.iter().map(|(a, _)| mesh.overlapping_pairs(&mesh, a).len()).sum();
    println!("check bunny/bunny pairs: {pairs} overlapping triangle pairs over {POSES} poses");

    let mut g = c.benchmark_group("mesh_shapes/bunny overlaps bunny");
    g.throughput(Throughput::Elements(POSES as u64));
    g.bench_function("raybox", |b| b.iter(|| poses.iter().filter(|(a, _)| ours(black_box(a))).count()));
    g.bench_function("parry3d", |b| b.iter(|| poses.iter().filter(|(_, p)| theirs(black_box(p))).count()));
    g.finish();
    // Distances: the second bunny moved 1 to 2 sizes away, so that most are apart.
    let far: Vec<(glam::Affine3A, Pose)> = (0..POSES)
        .map(|_| {
            let q = Quat::from_axis_angle(rng.unit3(), rng.range(0.0, std::f32::consts::TAU));
            let t = rng.unit3() * size * rng.range(1.0, 2.0);
            let rotation = parry3d::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w);
            (glam::Affine3A::from_rotation_translation(q, t), Pose::from_parts(p3(t), rotation))
        })
        .collect();
    let ours = |pose: &glam::Affine3A| mesh.distance_to_mesh(&mesh, pose).unwrap();
    let theirs = |pose: &Pose| {
        parry3d::query::distance(&Pose::IDENTITY, &parry_mesh, pose, &parry_mesh)
            .expect("parry supports the pair")
            .distance
    };
    // Where the two differ, raybox's closest points say who is right: two points on the
    // meshes (checked) as far apart as raybox's distance prove the meshes no farther apart.
    let tri = |i: u32, pose: &glam::Affine3A| {
        let [a, b, c] = data.indices[i as usize].map(|k| pose.transform_point3(data.vertices[k as usize]));
        Triangle3::new(a, b, c)
    };
    let (mut apart, mut agree, mut parry_far) = (0, 0, 0);
    for (a, p) in &far {
        let (x, y) = (ours(a), theirs(p));
        apart += usize::from(x > 0.0);
        if (x - y).abs() <= 1e-5 * size {
            agree += 1;
            continue;
        }
        let k = mesh.closest_points_to_mesh(&mesh, a, f32::INFINITY).unwrap();
        let on_meshes = tri(k.mine, &glam::Affine3A::IDENTITY).distance_to_point(k.point_mine) <= 1e-5 * size
            && tri(k.theirs, a).distance_to_point(k.point_theirs) <= 1e-5 * size;
        let gap = (k.point_theirs - k.point_mine).length();
        if on_meshes && x < y && (gap - x).abs() <= 1e-5 * size {
            parry_far += 1;
        }
    }
    println!(
        "check bunny/bunny distances: {apart} of {POSES} apart; parry agrees on {agree}; \
         on {parry_far} more parry's distance is larger than that of two points on the meshes"
    );
    assert_eq!(agree + parry_far, POSES, "parry3d disagrees with raybox on bunny/bunny distances");
    let mut g = c.benchmark_group("mesh_shapes/bunny distance to bunny");
    // parry3d takes about 4 s for the 256 poses: 10 samples.
    g.sample_size(10);
    g.throughput(Throughput::Elements(POSES as u64));
    g.bench_function("raybox", |b| b.iter(|| far.iter().map(|(a, _)| ours(black_box(a))).sum::<f32>()));
    g.bench_function("parry3d", |b| b.iter(|| far.iter().map(|(_, p)| theirs(black_box(p))).sum::<f32>()));
    g.finish();

    let mut g = c.benchmark_group("mesh_shapes/bunny pairs with bunny");
    g.throughput(Throughput::Elements(POSES as u64));
    g.bench_function("raybox", |b| {
        b.iter(|| poses.iter().map(|(a, _)| mesh.overlapping_pairs(&mesh, black_box(a)).len()).sum::<usize>())
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = bench, mesh_against_mesh
}
criterion_main!(benches);
