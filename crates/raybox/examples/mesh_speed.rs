//! A quick single-thread speed reading of mesh ray casts, raybox beside parry3d, in one
//! process: `cargo run --release -p raybox --example mesh_speed [terrain cells]`. The batch
//! (`cast_rays_into`) uses all threads; `RAYON_NUM_THREADS=1` compares it on one.
//! (The full comparison with more peers lives in `crates/raybox-bench`.)
//!
//! With `CLASSES` set (and `NO_PEER` not) it also splits each ray set by what the ray does
//! (misses the mesh's box, enters it and hits nothing, hits) and times `first_hit` and
//! parry3d's cast on each class apart: where `first_hit`'s ratio to parry3d is won or lost.
//! Where Embree 3 is installed (`scripts/install-embree`), its `rtcIntersect1` is timed on
//! each class too.

use std::time::Instant;

use glam::Vec3;
use parry3d::query::RayCast as _;
use raybox::mesh::scene::{self, Pcg32};
use raybox::{MeshData, Ray3, RayCast as _, TriMesh};

/// A pinhole camera's rays at the mesh, `size` x `size` pixels: row after row (row-major,
/// as most callers make them) or, with `tile`, in `tile` x `tile` pixel tiles (as
/// `raybox-bench`'s `compare` makes them: neighbours in the batch are neighbours in the
/// image both ways).
fn camera_rays(data: &MeshData, size: usize, tile: usize) -> Vec<Ray3> {
    let (lo, hi) = data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let centre = (lo + hi) * 0.5;
    let extent = (hi - lo).length();
    let eye = centre + Vec3::new(0.3, 0.6, 1.0).normalize() * extent * 1.2;
    let forward = (centre - eye).normalize();
    let right = forward.cross(Vec3::Y).normalize();
    let up = right.cross(forward);
    let per_row = size / tile;
    (0..size * size)
        .map(|i| {
            // Pixel `i` of tile `i / tile²`, the tiles row after row.
            let (t, j) = (i / (tile * tile), i % (tile * tile));
            let (px, py) = ((t % per_row) * tile + j % tile, (t / per_row) * tile + j / tile);
            let (x, y) = (px as f32 / size as f32 - 0.5, py as f32 / size as f32 - 0.5);
            Ray3::new(eye, forward + (right * x + up * y) * 0.8)
        })
        .collect()
}

fn random_rays(data: &MeshData, n: usize) -> Vec<Ray3> {
    let (lo, hi) = data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let (centre, radius) = ((lo + hi) * 0.5, (hi - lo).length() * 0.5);
    let mut rng = Pcg32::new(1);
    (0..n)
        .map(|_| Ray3::new(centre + rng.unit_vector() * radius * rng.next_f32(), rng.unit_vector()))
        .collect()
}

fn main() {
    let cells: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(708);
    println!("kernel: {}", raybox::kernel_name());
    for (name, data) in [("bunny", raybox::mesh::bunny()), ("terrain", scene::terrain(cells, 1))] {
        let t0 = Instant::now();
        let mesh = TriMesh::new(data.vertices.clone(), data.indices.clone()).unwrap();
        let build = t0.elapsed();
        let verts: Vec<parry3d::math::Vector> =
            data.vertices.iter().map(|v| parry3d::math::Vector::new(v.x, v.y, v.z)).collect();
        let t0 = Instant::now();
        let peer = parry3d::shape::TriMesh::new(verts, data.indices.clone()).unwrap();
        let peer_build = t0.elapsed();
        println!(
            "{name}: {} triangles; build raybox {:.1} ms, parry3d {:.1} ms; {:?}",
            data.indices.len(),
            build.as_secs_f64() * 1e3,
            peer_build.as_secs_f64() * 1e3,
            mesh.bvh_stats()
        );
        if std::env::var_os("BUILD_ONLY").is_some() {
            continue;
        }
        let embree_scene = std::env::var_os("CLASSES").and_then(|_| embree_scene(&data));
        let sets = [
            ("primary", camera_rays(&data, 512, 1)),
            ("tiles", camera_rays(&data, 1024, 4)),
            ("random", random_rays(&data, 1 << 17)),
        ];
        for (set, rays) in sets {
            let peer_rays: Vec<parry3d::query::Ray> = rays
                .iter()
                .map(|r| {
                    let (o, d) = (r.origin(), r.dir());
                    parry3d::query::Ray::new(
                        parry3d::math::Vector::new(o.x, o.y, o.z),
                        parry3d::math::Vector::new(d.x, d.y, d.z),
                    )
                })
                .collect();
            // Rounds alternate the libraries; each library's best round counts, so a burst
            // of load from other processes on the shared machine does not decide the ratio.
            let (mut ours, mut ours_any, mut theirs, mut batch) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
            let (mut firsts, mut firsts_batch, mut any_batch) = (f64::MAX, f64::MAX, f64::MAX);
            let mut buf = Vec::new();
            mesh.cast_rays_into(&rays, &mut buf);
            let mut lean = Vec::new();
            mesh.first_hits_into(&rays, &mut lean);
            let mut blocked = Vec::new();
            mesh.occluded_rays_into(&rays, &mut blocked);
            let (mut hits, mut peer_hits) = (0, 0);
            for _ in 0..5 {
                // The loops of single casts write their answers as the batch calls do.
                let t0 = Instant::now();
                for (r, o) in rays.iter().zip(&mut buf) {
                    *o = mesh.cast_ray(r);
                }
                ours = ours.min(t0.elapsed().as_secs_f64());
                hits = std::hint::black_box(&buf).iter().flatten().count();
                let t0 = Instant::now();
                mesh.cast_rays_into(&rays, &mut buf);
                batch = batch.min(t0.elapsed().as_secs_f64());
                std::hint::black_box(&buf);
                let t0 = Instant::now();
                for (r, o) in rays.iter().zip(&mut lean) {
                    *o = mesh.first_hit(r);
                }
                firsts = firsts.min(t0.elapsed().as_secs_f64());
                std::hint::black_box(&lean);
                let t0 = Instant::now();
                mesh.first_hits_into(&rays, &mut lean);
                firsts_batch = firsts_batch.min(t0.elapsed().as_secs_f64());
                std::hint::black_box(&lean);
                let t0 = Instant::now();
                for (r, o) in rays.iter().zip(&mut blocked) {
                    *o = mesh.occluded(r);
                }
                ours_any = ours_any.min(t0.elapsed().as_secs_f64());
                std::hint::black_box(&blocked);
                let t0 = Instant::now();
                mesh.occluded_rays_into(&rays, &mut blocked);
                any_batch = any_batch.min(t0.elapsed().as_secs_f64());
                std::hint::black_box(&blocked);
                if std::env::var_os("NO_PEER").is_none() {
                    let t0 = Instant::now();
                    peer_hits =
                        peer_rays.iter().filter(|r| peer.cast_local_ray(r, f32::MAX, true).is_some()).count();
                    theirs = theirs.min(t0.elapsed().as_secs_f64());
                }
            }
            let mut disagree = 0;
            for (r, pr) in rays.iter().zip(&peer_rays).step_by(61) {
                match (mesh.cast_ray(r).map(|h| h.t), peer.cast_local_ray(pr, f32::MAX, true)) {
                    (Some(a), Some(b)) if (a - b).abs() <= 1e-4 * a.abs().max(1.0) => {}
                    (None, None) => {}
                    _ => disagree += 1,
                }
            }
            let mrays = |secs: f64| rays.len() as f64 / secs / 1e6;
            println!(
                "  {set:8} raybox {:6.2} Mrays/s (batch {:6.2}; first-hit {:6.2}, batch {:6.2}; any-hit {:6.2}, batch {:6.2}), parry3d {:6.2}: ratio {:.2}x; hits {hits}/{peer_hits}; sampled disagreements {disagree}",
                mrays(ours),
                mrays(batch),
                mrays(firsts),
                mrays(firsts_batch),
                mrays(ours_any),
                mrays(any_batch),
                mrays(theirs),
                theirs / ours,
            );
            if std::env::var_os("CLASSES").is_some() && std::env::var_os("NO_PEER").is_none() {
                by_class(&mesh, &peer, embree_scene.as_ref(), &rays, &peer_rays);
            }
        }
    }
}

/// Embree's scene over `data`, or `None` (with a note) when Embree is not installed.
fn embree_scene(data: &MeshData) -> Option<embree_peer::Scene> {
    let vertices: Vec<[f32; 3]> = data.vertices.iter().map(|v| v.to_array()).collect();
    // SAFETY: Embree as `scripts/install-embree` installs it (Debian's build, default layout).
    let scene = unsafe { embree_peer::Embree::load() }
        .and_then(|e| e.device(""))
        .and_then(|d| d.scene(&vertices, &data.indices, embree_peer::Quality::Medium));
    scene.map_err(|e| println!("  (no Embree column: {e})")).ok()
}

/// `first_hit`, parry3d's cast and Embree's `rtcIntersect1` (if given) timed apart on three
/// classes of rays: those that miss the mesh's box, those that enter it and hit nothing,
/// and those that hit (best of 5 rounds).
fn by_class(
    mesh: &TriMesh,
    peer: &parry3d::shape::TriMesh,
    embree: Option<&embree_peer::Scene>,
    rays: &[Ray3],
    peer_rays: &[parry3d::query::Ray],
) {
    let Some(bounds) = mesh.bounds() else { return };
    let mut classes: [(Vec<Ray3>, Vec<parry3d::query::Ray>); 3] = Default::default();
    for (r, p) in rays.iter().zip(peer_rays) {
        let class = match (bounds.cast_ray(r).is_some(), mesh.first_hit(r).is_some()) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        };
        classes[class].0.push(*r);
        classes[class].1.push(*p);
    }
    let total: f64 = rays.len() as f64;
    let mut times = [(0.0, 0.0); 3];
    let mut embree_times = [0.0; 3];
    for (((ours, theirs), time), embree_time) in classes.iter().zip(&mut times).zip(&mut embree_times) {
        if ours.is_empty() {
            continue;
        }
        let embree_rays: Vec<embree_peer::Ray> =
            ours.iter().map(|r| embree_peer::Ray::new(r.origin().to_array(), r.dir().to_array())).collect();
        let (mut a, mut b, mut e) = (f64::MAX, f64::MAX, f64::MAX);
        for _ in 0..5 {
            if let Some(scene) = embree {
                let t0 = Instant::now();
                std::hint::black_box(embree_rays.iter().filter(|r| scene.intersect(r).is_some()).count());
                e = e.min(t0.elapsed().as_secs_f64());
            }
            let t0 = Instant::now();
            std::hint::black_box(ours.iter().filter(|r| mesh.first_hit(r).is_some()).count());
            a = a.min(t0.elapsed().as_secs_f64());
            let t0 = Instant::now();
            std::hint::black_box(
                theirs.iter().filter(|r| peer.cast_local_ray(r, f32::MAX, true).is_some()).count(),
            );
            b = b.min(t0.elapsed().as_secs_f64());
        }
        *time = (a * 1e9 / ours.len() as f64, b * 1e9 / ours.len() as f64);
        *embree_time = e * 1e9 / ours.len() as f64;
    }
    let mean = |k: usize| -> f64 {
        classes
            .iter()
            .zip(&times)
            .map(|((c, _), t)| if k == 0 { t.0 } else { t.1 } * c.len() as f64)
            .sum::<f64>()
            / total
    };
    let embree_note = |e: f64, a: f64| {
        if embree.is_some() { format!(", Embree {e:7.1} ns ({:.2}x)", e / a) } else { String::new() }
    };
    for (label, ((c, _), ((a, b), e))) in ["misses the box", "enters, no hit", "hits"]
        .iter()
        .zip(classes.iter().zip(times.into_iter().zip(embree_times)))
    {
        if c.is_empty() {
            continue;
        }
        println!(
            "    {label:15} {:5.1}% of rays: first_hit {a:7.1} ns, parry3d {b:7.1} ns ({:.2}x){}; {:3.0}% of first_hit's time",
            100.0 * c.len() as f64 / total,
            b / a,
            embree_note(e, a),
            100.0 * a * c.len() as f64 / total / mean(0),
        );
    }
    let embree_mean =
        classes.iter().zip(&embree_times).map(|((c, _), e)| e * c.len() as f64).sum::<f64>() / total;
    println!(
        "    all: first_hit {:.1} ns, parry3d {:.1} ns ({:.2}x){}",
        mean(0),
        mean(1),
        mean(1) / mean(0),
        embree_note(embree_mean, mean(0))
    );
}
