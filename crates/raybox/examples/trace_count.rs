//! A fixed ray workload for instruction counting under `valgrind --tool=callgrind`
//! (deterministic, unlike wall-clock time on a shared machine):
//! `trace_count raybox|first|batch|firsts|parry|none bunny|terrain primary|tiled|random|away [closest|any]`
//! (`tiled`: the `primary` camera's rays in 4x4 pixel tiles, as the benchmarks emit them).

use glam::Vec3;
use parry3d::query::RayCast as _;
use raybox::mesh::scene::{self, Pcg32};
use raybox::{MeshData, Ray3, TriMesh};

fn rays(data: &MeshData, set: &str, n: usize) -> Vec<Ray3> {
    let (lo, hi) = data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let (centre, extent) = ((lo + hi) * 0.5, (hi - lo).length());
    let mut rng = Pcg32::new(1);
    if set == "away" {
        // Rays that miss the whole scene: the fixed cost of a query.
        let eye = centre + Vec3::new(0.3, 0.6, 1.0).normalize() * extent * 1.2;
        (0..n).map(|_| Ray3::new(eye, (eye - centre) + rng.unit_vector() * 0.1)).collect()
    } else if set == "primary" || set == "tiled" {
        let eye = centre + Vec3::new(0.3, 0.6, 1.0).normalize() * extent * 1.2;
        let forward = (centre - eye).normalize();
        let right = forward.cross(Vec3::Y).normalize();
        let up = right.cross(forward);
        let side = (n as f32).sqrt() as usize;
        let pixel = |x: usize, y: usize| {
            let (x, y) = (x as f32 / side as f32 - 0.5, y as f32 / side as f32 - 0.5);
            Ray3::new(eye, forward + (right * x + up * y) * 0.8)
        };
        if set == "primary" {
            (0..side * side).map(|i| pixel(i % side, i / side)).collect()
        } else {
            // 4x4 tiles, row by row within a tile (`side` a multiple of 4).
            let side = side / 4 * 4;
            (0..side * side)
                .map(|i| {
                    let (tile, j) = (i / 16, i % 16);
                    let (tx, ty) = (tile % (side / 4), tile / (side / 4));
                    pixel(4 * tx + j % 4, 4 * ty + j / 4)
                })
                .collect()
        }
    } else {
        (0..n)
            .map(|_| Ray3::new(centre + rng.unit_vector() * extent * 0.5 * rng.next_f32(), rng.unit_vector()))
            .collect()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (lib, scene_name, set) = (args[1].as_str(), args[2].as_str(), args[3].as_str());
    let any = args.get(4).is_some_and(|a| a == "any");
    let data = if scene_name == "bunny" { raybox::mesh::bunny() } else { scene::terrain(200, 1) };
    let n = std::env::var("RAYS").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let rays = rays(&data, set, n);
    let mut hits = 0usize;
    if lib == "none" {
        // The cost of making the rays alone, to subtract from the others.
        hits = rays.iter().filter(|r| r.dir().x > 0.0).count();
    } else if lib == "batch" {
        // The batch API (run with RAYON_NUM_THREADS=1 for a count on one thread).
        let mesh = TriMesh::new(data.vertices, data.indices).unwrap();
        hits = if any {
            mesh.occluded_rays(&rays).iter().filter(|&&h| h).count()
        } else {
            mesh.cast_rays(&rays).iter().filter(|h| h.is_some()).count()
        };
    } else if lib == "firsts" {
        // The lean batch (`first_hits`).
        let mesh = TriMesh::new(data.vertices, data.indices).unwrap();
        hits = mesh.first_hits(&rays).iter().filter(|h| h.is_some()).count();
    } else if lib == "first" {
        // The lean closest hit (`first_hit`: no normal, facing or point).
        let mesh = TriMesh::new(data.vertices, data.indices).unwrap();
        hits = rays.iter().filter(|r| mesh.first_hit(r).is_some()).count();
    } else if lib == "raybox" {
        let mesh = TriMesh::new(data.vertices, data.indices).unwrap();
        for r in &rays {
            hits += if any { mesh.occluded(r) } else { mesh.cast_ray(r).is_some() } as usize;
        }
    } else {
        let verts = data.vertices.iter().map(|v| parry3d::math::Vector::new(v.x, v.y, v.z)).collect();
        let mesh = parry3d::shape::TriMesh::new(verts, data.indices).unwrap();
        for r in &rays {
            let (o, d) = (r.origin(), r.dir());
            let pr = parry3d::query::Ray::new(
                parry3d::math::Vector::new(o.x, o.y, o.z),
                parry3d::math::Vector::new(d.x, d.y, d.z),
            );
            hits += mesh.cast_local_ray(&pr, f32::MAX, true).is_some() as usize;
        }
    }
    println!("{hits}");
}
