//! raybox's single-ray speed against Embree's in one process, for measuring a change to the
//! walks: `cargo run --release -p raybox-bench --bin versus_embree -- [bunny|terrain|dragon]
//! [scattered|camera] [--any] [--batch] [--threads N] [--hits] [--rays N] [--rounds N]
//! [--only LIB]`.
//!
//! Each round times raybox's `first_hit` loop (`occluded` with `--any`) and Embree's
//! `rtcIntersect1` loop (`rtcOccluded1`) over the same rays, one after the other, and the
//! best of the rounds counts. With `--batch` it times the batch calls instead: raybox's
//! `first_hits_into` / `occluded_rays_into` on a 1-thread pool against Embree's 16-ray
//! packets (`rtcIntersect16` / `rtcOccluded16`, 16 consecutive rays each), the hits
//! counted after the timing; `--threads N` runs both batches on an N-thread pool (Embree's
//! packets under rayon, each writing its answers as raybox's batch does). The machine's
//! drift moves both alike, so the ratio printed last (raybox's speed over Embree's) repeats
//! to about 1% on a quiet machine where the times themselves do not: compare two builds by
//! that ratio, alternating them.
//!
//! Rays: `scattered` are `compare`'s incoherent rays (origins in the scene's ball, random
//! directions), `camera` its pinhole camera in 4x4 tiles; `--rays N` sets how many (a
//! camera of about `sqrt(N)` squared). `--hits` keeps only the rays raybox hits (the
//! cost of a hit is where the two libraries differ).
//!
//! `--only raybox` (or `embree`, or `none`) casts the rays `--rounds` times with one library and
//! prints nothing but the hit count: a fixed workload for `perf record`, or with `--rounds 1`
//! for instruction counts under callgrind: `valgrind --tool=callgrind --dump-instr=yes
//! target/release/versus_embree --only raybox --rounds 1`, minus the same with `--only none`
//! (the scene, the tree and the rays' making).

use std::time::Instant;

use embree_peer::{Embree, Quality, Ray as EmbreeRay};
use raybox::{Ray3, TriMesh};
use raybox_bench::scenes::{self, Scene, camera_rays, random_rays};
use rayon::prelude::*;

struct Options {
    scene: String,
    set: String,
    any: bool,
    batch: bool,
    threads: usize,
    hits: bool,
    rays: usize,
    rounds: usize,
    only: Option<String>,
}

fn options() -> Options {
    let mut o = Options {
        scene: "bunny".into(),
        set: "scattered".into(),
        any: false,
        batch: false,
        threads: 1,
        hits: false,
        rays: 100_000,
        rounds: 9,
        only: None,
    };
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, what: &str| -> usize {
        v.and_then(|n| n.parse().ok()).unwrap_or_else(|| usage(&format!("{what} takes a number")))
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--any" => o.any = true,
            "--batch" => o.batch = true,
            "--hits" => o.hits = true,
            "--rays" => o.rays = number(args.next(), "--rays"),
            "--threads" => o.threads = number(args.next(), "--threads").max(1),
            "--rounds" => o.rounds = number(args.next(), "--rounds").max(1),
            "--only" => o.only = args.next(),
            "bunny" | "terrain" | "dragon" => o.scene = a,
            "scattered" | "camera" => o.set = a,
            other => usage(&format!("unknown argument {other:?}")),
        }
    }
    o
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "{problem}\nusage: versus_embree [bunny|terrain|dragon] [scattered|camera] [--any] [--batch] \
         [--threads N] [--hits] [--rays N] [--rounds N] [--only raybox|embree|none]"
    );
    std::process::exit(2)
}

fn scene(name: &str) -> Scene {
    match name {
        "terrain" => scenes::terrain(scenes::TERRAIN_CELLS),
        "dragon" => scenes::dragon(true).unwrap_or_else(|e| panic!("no dragon: {e}")),
        _ => scenes::bunny(),
    }
}

fn main() {
    let o = options();
    let data = scene(&o.scene).data;
    let mesh = TriMesh::new(data.vertices.clone(), data.indices.clone()).expect("a valid mesh");
    let make = |n: usize| -> Vec<Ray3> {
        if o.set == "camera" {
            camera_rays(&data, ((n as f64).sqrt() as usize).max(4) / 4 * 4)
        } else {
            random_rays(&data, n, 1)
        }
    };
    let mut rays = make(if o.hits { o.rays * 8 } else { o.rays });
    if o.hits {
        rays.retain(|r| mesh.first_hit(r).is_some());
    }
    rays.truncate(o.rays);
    // SAFETY: Embree as `scripts/install-embree` installs it (Debian's build).
    let embree = unsafe { Embree::load() }.expect("Embree 3 (scripts/install-embree)");
    let device = embree.device("threads=1").expect("an Embree device");
    let vertices: Vec<[f32; 3]> = data.vertices.iter().map(|v| v.to_array()).collect();
    let scene = device.scene(&vertices, &data.indices, Quality::Medium).expect("an Embree scene");
    let theirs: Vec<EmbreeRay> =
        rays.iter().map(|r| EmbreeRay::new(r.origin().to_array(), r.dir().to_array())).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(o.threads).build().expect("a thread pool");
    let (mut closest, mut occluded) = (Vec::new(), Vec::new());
    let (mut their_closest, mut their_occluded) = (vec![None; theirs.len()], vec![false; theirs.len()]);
    // One pass of each library's calls: the seconds it took and the hits. The single-ray
    // loops count as they go; the batches write their hits, counted after the clock stops.
    let mut ours = || -> (f64, usize) {
        let start = Instant::now();
        let counted = match (o.batch, o.any) {
            (false, false) => Some(rays.iter().filter(|r| mesh.first_hit(r).is_some()).count()),
            (false, true) => Some(rays.iter().filter(|r| mesh.occluded(r)).count()),
            (true, false) => {
                pool.install(|| mesh.first_hits_into(&rays, &mut closest));
                None
            }
            (true, true) => {
                pool.install(|| mesh.occluded_rays_into(&rays, &mut occluded));
                None
            }
        };
        let secs = start.elapsed().as_secs_f64();
        let hits = counted.unwrap_or_else(|| match o.any {
            false => closest.iter().filter(|h| h.is_some()).count(),
            true => occluded.iter().filter(|&&h| h).count(),
        });
        (secs, hits)
    };
    let mut peer = || -> (f64, usize) {
        let start = Instant::now();
        let counted = match (o.batch, o.any) {
            (false, false) => Some(theirs.iter().filter(|r| scene.intersect(r).is_some()).count()),
            (false, true) => Some(theirs.iter().filter(|r| scene.occluded(r)).count()),
            (true, false) => {
                pool.install(|| {
                    theirs
                        .par_chunks(16)
                        .zip(their_closest.par_chunks_mut(16))
                        .for_each(|(r, h)| scene.intersect16(r, h));
                });
                None
            }
            (true, true) => {
                pool.install(|| {
                    theirs
                        .par_chunks(16)
                        .zip(their_occluded.par_chunks_mut(16))
                        .for_each(|(r, h)| scene.occluded16(r, h));
                });
                None
            }
        };
        let secs = start.elapsed().as_secs_f64();
        let hits = counted.unwrap_or_else(|| match o.any {
            false => their_closest.iter().filter(|h| h.is_some()).count(),
            true => their_occluded.iter().filter(|&&h| h).count(),
        });
        (secs, hits)
    };
    let rounds = o.rounds;
    match o.only.as_deref() {
        Some("raybox") => return println!("{} hits", (0..rounds).map(|_| ours().1).last().unwrap_or(0)),
        Some("embree") => return println!("{} hits", (0..rounds).map(|_| peer().1).last().unwrap_or(0)),
        Some(_) => return println!("{} rays", rays.len()),
        None => {}
    }
    let (mut best_ours, mut best_peer) = (f64::INFINITY, f64::INFINITY);
    let (mut hits_ours, mut hits_peer) = (0, 0);
    for _ in 0..rounds {
        let secs;
        (secs, hits_ours) = ours();
        best_ours = best_ours.min(secs);
        let secs;
        (secs, hits_peer) = peer();
        best_peer = best_peer.min(secs);
    }
    let n = rays.len() as f64;
    println!(
        "{} {} ({} rays{}{}): raybox {:.1} ns a ray ({hits_ours} hits), Embree {:.1} ns ({hits_peer} hits); raybox's speed / Embree's {:.3}",
        o.scene,
        o.set,
        rays.len(),
        if o.any { ", any hit" } else { "" },
        if o.batch {
            format!(", batches: raybox's, Embree's 16-ray packets, {} threads", o.threads)
        } else {
            String::new()
        },
        best_ours / n * 1e9,
        best_peer / n * 1e9,
        best_peer / best_ours
    );
}
