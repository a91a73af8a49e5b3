//! BVH build times alone (compare's build table without the ray casts), for quick runs:
//! `cargo run --release -p raybox-bench --bin build_times [-- --rounds N] [-- bunny terrain dragon]`.
//!
//! Each round builds raybox's `TriMesh::with_quality` at `Fast`, `Balanced` and `High` and
//! parry3d's `TriMesh::new`, interleaved, inside a 1-thread rayon pool, each from its own
//! copy of the mesh made before the clock starts (the method of `compare`'s build table).
//! Prints each builder's best and median milliseconds, the ratio of bests to parry3d's,
//! and the SAH cost of each tree beside the median split's.

use std::time::Instant;

use raybox::{BuildQuality, TriMesh};
use raybox_bench::median_split::median_split_sah;
use raybox_bench::mesh_peers::{parry_inputs, parry_trimesh};
use raybox_bench::scenes::{self, Scene};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut rounds = 5;
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--rounds" {
            rounds = args.next().and_then(|r| r.parse().ok()).expect("--rounds N");
        } else if a == "--profile" {
            // One build of one quality on a terrain of the given cells, nothing else (for callgrind).
            let which = args.next().unwrap_or_default();
            let quality = match which.as_str() {
                "fast" => BuildQuality::Fast,
                "high" => BuildQuality::High,
                _ => BuildQuality::Balanced,
            };
            let cells = args.next().and_then(|c| c.parse().ok()).unwrap_or(scenes::TERRAIN_CELLS);
            let data = scenes::terrain(cells).data;
            let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a 1-thread pool");
            if which == "parry" {
                let inputs = parry_inputs(&data);
                let t0 = Instant::now();
                let built = pool.install(|| std::hint::black_box(parry_trimesh(inputs)));
                println!("parry3d: {:.1} ms", t0.elapsed().as_secs_f64() * 1e3);
                drop(built);
                return;
            }
            let t0 = Instant::now();
            let mesh =
                pool.install(|| TriMesh::with_quality(data.vertices, data.indices, quality)).expect("valid");
            println!("{quality:?}: {:.1} ms, {:?}", t0.elapsed().as_secs_f64() * 1e3, mesh.bvh_stats());
            return;
        } else {
            names.push(a);
        }
    }
    if names.is_empty() {
        names = vec!["bunny".into(), "terrain".into(), "dragon".into()];
    }
    let mut scene_list: Vec<Scene> = Vec::new();
    for n in &names {
        match n.as_str() {
            "bunny" => scene_list.push(scenes::bunny()),
            "terrain" => scene_list.push(scenes::terrain(scenes::TERRAIN_CELLS)),
            "dragon" => match scenes::dragon(false) {
                Ok(d) => scene_list.push(d),
                Err(e) => println!("dragon skipped: {e}"),
            },
            other => panic!("unknown scene {other}"),
        }
    }
    println!(
        "- command: `cargo run --release -p raybox-bench --bin build_times -- --rounds {rounds} {}`",
        names.join(" ")
    );
    println!("- 1-thread rayon pool, {rounds} interleaved rounds, best (median) ms\n");
    println!(
        "| scene | triangles | builder | best ms | median ms | best / parry3d's | nodes | leaves | depth | SAH |"
    );
    println!("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a 1-thread pool");
    let qualities = [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High];
    for scene in &scene_list {
        let mut times: [Vec<f64>; 4] = Default::default();
        let mut stats = [None; 3];
        pool.install(|| {
            for _ in 0..rounds {
                for (q, quality) in qualities.iter().enumerate() {
                    let (v, i) = (scene.data.vertices.clone(), scene.data.indices.clone());
                    let t0 = Instant::now();
                    let mesh = TriMesh::with_quality(v, i, *quality).expect("a valid mesh");
                    times[q].push(t0.elapsed().as_secs_f64() * 1e3);
                    stats[q] = Some(mesh.bvh_stats());
                }
                let inputs = parry_inputs(&scene.data);
                let t0 = Instant::now();
                let built = std::hint::black_box(parry_trimesh(inputs));
                times[3].push(t0.elapsed().as_secs_f64() * 1e3);
                drop(built);
            }
        });
        let best: Vec<f64> = times.iter().map(|t| t.iter().copied().fold(f64::MAX, f64::min)).collect();
        let tris = scene.data.indices.len();
        for (q, quality) in qualities.iter().enumerate() {
            let s = stats[q].expect("built");
            println!(
                "| {} | {tris} | raybox {quality:?} | {:.1} | {:.1} | {:.2}x | {} | {} | {} | {:.2} |",
                scene.name,
                best[q],
                median(&mut times[q]),
                best[q] / best[3],
                s.node_count,
                s.leaf_count,
                s.depth,
                s.sah_cost
            );
        }
        println!(
            "| {} | {tris} | parry3d `TriMesh::new` | {:.1} | {:.1} | 1.00x | | | | |",
            scene.name,
            best[3],
            median(&mut times[3])
        );
        println!(
            "| {} | {tris} | median split (reference) | | | | | | | {:.2} |",
            scene.name,
            median_split_sah(&scene.data)
        );
    }
}
