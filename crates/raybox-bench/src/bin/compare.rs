//! Mesh ray casting, raybox beside parry3d, obvhs, bvh and Embree 3, in one process:
//! `cargo run --release -p raybox-bench --bin compare [-- --quick]`.
//!
//! For each scene (bunny, 1M-triangle terrain, Stanford dragon) and ray set (1024x1024
//! primary rays, 2^20 incoherent rays; `--quick`: 256x256 and 2^16), it first checks every
//! peer's closest hits against raybox's on a sample (a peer that disagrees is reported as
//! such and not timed), then times, in interleaved rounds keeping each library's best:
//!
//! - 1 thread: a loop of single-ray calls on the calling thread (`TriMesh::first_hit`,
//!   `cast_ray` and `occluded` for raybox, each peer's closest-hit call);
//! - all threads: raybox's batch API (`first_hits_into`, `cast_rays_into`,
//!   `occluded_rays_into`, into buffers kept across rounds) and, for the peers, the same
//!   single-ray call under rayon's `par_iter` on the same global pool.
//!
//! Embree is timed where the system has it (`libembree3.so.3`; see `embree-peer`), else its
//! column says so. Its batch figure is the faster of its two calls under rayon:
//! `rtcIntersect1` per ray and `rtcIntersect16` per run of 16 rays (its packet path, which
//! the camera's 4x4 tiles suit); its any-hit figure is `rtcOccluded1`, and in the batch the
//! faster of that and `rtcOccluded16`.
//!
//! The peers' calls return the distance alone (parry3d's `cast_local_ray`) or with the
//! primitive (obvhs, bvh); raybox's `first_hit` returns the distance, the triangle and the
//! barycentrics, and is the closest-hit figure the ratios use. `cast_ray` also makes the
//! unit normal (in `f64`), the facing and the point: its row shows what they cost.
//!
//! Then the builds, each inside a 1-thread rayon pool: raybox's three qualities against
//! parry3d's `TriMesh::new`, with the SAH cost of each tree and of a plain median split.
//! Last, issue 4's targets, each marked met or not.

use std::time::Instant;

use raybox::{BuildQuality, MeshData, Ray3, TriMesh};
use raybox_bench::median_split::median_split_sah;
use raybox_bench::mesh_peers::{
    BvhMesh, Embree, EmbreeMesh, EmbreeQuality, MeshPeer, ObvhsMesh, ParryMesh, parry_inputs, parry_trimesh,
};
use raybox_bench::scenes::{self, Scene, Sizes};
use raybox_bench::trace::{self, Agreement};
use rayon::prelude::*;

/// Peers in table order.
const PEERS: [&str; 4] = [ParryMesh::NAME, ObvhsMesh::NAME, BvhMesh::NAME, EmbreeMesh::NAME];

/// A peer's figure in one row.
#[derive(Clone, Copy, Debug)]
enum Cell {
    /// Best seconds.
    Time(f64),
    /// Its closest hits disagree with raybox's: not timed.
    Disagrees,
    /// The library is not on this machine (Embree).
    Absent,
}

impl Cell {
    fn time(self) -> Option<f64> {
        match self {
            Cell::Time(t) => Some(t),
            _ => None,
        }
    }
}

/// One timed configuration: a scene, a ray set, a thread count.
struct Row {
    scene: &'static str,
    set: &'static str,
    threads: usize,
    rays: usize,
    /// Best seconds: raybox closest hit (`first_hit`), the same with the hit's details
    /// (`cast_ray`), any hit.
    closest: f64,
    full: f64,
    any: f64,
    /// Each peer's closest hits.
    peers: [Cell; 4],
    /// Embree's any hit (`rtcOccluded1`; on all threads the faster of it and `rtcOccluded16`).
    embree_any: Cell,
    /// Embree's batch calls apart (all-threads rows): `rtcIntersect1`, `rtcIntersect16`,
    /// `rtcOccluded1`, `rtcOccluded16`.
    embree_batch: Option<[f64; 4]>,
}

impl Row {
    fn mrays(&self, secs: f64) -> f64 {
        self.rays as f64 / secs / 1e6
    }
}

/// A peer with its rays, ready to time.
struct Prepared<P: MeshPeer> {
    peer: P,
    rays: Vec<P::Ray>,
    agreement: Agreement,
}

fn prepare<P: MeshPeer>(peer: P, mesh: &TriMesh, rays: &[Ray3]) -> Prepared<P> {
    let peer_rays: Vec<P::Ray> = rays.iter().map(P::ray).collect();
    let agreement = trace::check_peer(mesh, &peer, rays, &peer_rays);
    Prepared { peer, rays: peer_rays, agreement }
}

/// Seconds `f` takes, and what it returns.
fn seconds(f: impl FnOnce() -> usize) -> (f64, usize) {
    let t0 = Instant::now();
    let hits = std::hint::black_box(f());
    (t0.elapsed().as_secs_f64(), hits)
}

/// Seconds `f` takes (a batch call, whose results the caller reads afterwards).
fn seconds_of(f: impl FnOnce()) -> f64 {
    let t0 = Instant::now();
    f();
    t0.elapsed().as_secs_f64()
}

fn peer_pass<P: MeshPeer>(p: &Prepared<P>, parallel: bool) -> (f64, usize) {
    if parallel {
        seconds(|| p.rays.par_iter().filter(|r| p.peer.cast(r).is_some()).count())
    } else {
        seconds(|| p.rays.iter().filter(|r| p.peer.cast(r).is_some()).count())
    }
}

fn keep_best(best: &mut Option<f64>, secs: f64) {
    *best = Some(best.map_or(secs, |b: f64| b.min(secs)));
}

/// Validates the peers on one scene and ray set, then times everything in `rounds`
/// interleaved rounds; returns the 1-thread row and the all-threads row.
fn run_set(
    scene: &'static str,
    set: &scenes::RaySet,
    mesh: &TriMesh,
    peers: (&ParryMesh, &ObvhsMesh, &BvhMesh, Option<&EmbreeMesh>),
    rounds: usize,
) -> [Row; 2] {
    let rays = &set.rays;
    // The peers are borrowed: `Prepared` holds them by reference through this wrapper.
    let parry = prepare(Ref(peers.0), mesh, rays);
    let obvhs = prepare(Ref(peers.1), mesh, rays);
    let bvh = prepare(Ref(peers.2), mesh, rays);
    let embree = peers.3.map(|e| prepare(Ref(e), mesh, rays));
    let agreements = [parry.agreement, obvhs.agreement, bvh.agreement];
    for (name, a) in
        PEERS.iter().zip(agreements.iter().map(Some).chain([embree.as_ref().map(|e| &e.agreement)]))
    {
        match a {
            Some(a) => {
                let verdict = if a.agrees() { "agrees" } else { "DISAGREES (not timed)" };
                println!("check {scene}/{}: {name} {verdict}: {}", set.name, a.summary());
            }
            None => println!("check {scene}/{}: {name} not installed (not timed)", set.name),
        }
    }
    let embree = embree.filter(|e| e.agreement.agrees());
    let threads = rayon::current_num_threads();
    let mut best: [[Option<f64>; 6]; 2] = [[None; 6]; 2];
    // Embree per thread setting: rtcIntersect1, rtcIntersect16 (all threads only),
    // rtcOccluded1, rtcOccluded16 (all threads only).
    let mut embree_best: [[Option<f64>; 4]; 2] = [[None; 4]; 2];
    let mut ray_hits = None;
    // The batch calls write into buffers kept across rounds, as a renderer keeps its frame
    // buffer (`cast_rays` would also time the first writes to 48 MB of fresh pages).
    let (mut first_buf, mut hit_buf, mut occl_buf) = (Vec::new(), Vec::new(), Vec::new());
    mesh.first_hits_into(rays, &mut first_buf);
    mesh.cast_rays_into(rays, &mut hit_buf);
    mesh.occluded_rays_into(rays, &mut occl_buf);
    for _ in 0..rounds {
        for (t, parallel) in [(0, false), (1, true)] {
            // The batch rows time the call alone and count the hits afterwards: a serial
            // pass over the results (20-48 MB for a million rays, 1-2 ms) is the harness's
            // work, not the library's; the peers count inside their own parallel loops.
            let (secs, hits) = if parallel {
                let secs = seconds_of(|| mesh.first_hits_into(rays, &mut first_buf));
                (secs, first_buf.iter().filter(|h| h.is_some()).count())
            } else {
                seconds(|| rays.iter().filter(|r| mesh.first_hit(r).is_some()).count())
            };
            keep_best(&mut best[t][0], secs);
            assert_eq!(*ray_hits.get_or_insert(hits), hits, "raybox's hit count changed between passes");
            let (secs, full_hits) = if parallel {
                let secs = seconds_of(|| mesh.cast_rays_into(rays, &mut hit_buf));
                (secs, hit_buf.iter().filter(|h| h.is_some()).count())
            } else {
                seconds(|| rays.iter().filter(|r| mesh.cast_ray(r).is_some()).count())
            };
            keep_best(&mut best[t][5], secs);
            assert_eq!(full_hits, hits, "{scene}/{}: cast_ray disagrees with first_hit", set.name);
            let (secs, occluded) = if parallel {
                let secs = seconds_of(|| mesh.occluded_rays_into(rays, &mut occl_buf));
                (secs, occl_buf.iter().filter(|&&o| o).count())
            } else {
                seconds(|| rays.iter().filter(|r| mesh.occluded(r)).count())
            };
            keep_best(&mut best[t][1], secs);
            assert_eq!(occluded, hits, "{scene}/{}: occluded disagrees with cast_ray", set.name);
            if agreements[0].agrees() {
                keep_best(&mut best[t][2], peer_pass(&parry, parallel).0);
            }
            if agreements[1].agrees() {
                keep_best(&mut best[t][3], peer_pass(&obvhs, parallel).0);
            }
            if agreements[2].agrees() {
                keep_best(&mut best[t][4], peer_pass(&bvh, parallel).0);
            }
            if let Some(e) = &embree {
                // Embree's counts may differ from raybox's by a few grazing rays (its triangle
                // test is not watertight), within the sample check's 0.1%.
                let near = |h: usize, what: &str| {
                    assert!(
                        h.abs_diff(hits) <= rays.len() / 1000,
                        "{scene}/{}: Embree's {what} count {h} against raybox's {hits}",
                        set.name
                    );
                };
                // One timed pass of an Embree call into slot `k` of this thread setting.
                let mut pass = |k: usize, what: &str, (secs, h): (f64, usize)| {
                    keep_best(&mut embree_best[t][k], secs);
                    near(h, what);
                };
                let mesh = e.peer.0;
                pass(0, "rtcIntersect1 hit", peer_pass(e, parallel));
                if parallel {
                    pass(1, "rtcIntersect16 hit", seconds(|| mesh.cast16_par(&e.rays)));
                    pass(
                        2,
                        "rtcOccluded1",
                        seconds(|| e.rays.par_iter().filter(|r| mesh.occluded(r)).count()),
                    );
                    pass(3, "rtcOccluded16", seconds(|| mesh.occluded16_par(&e.rays)));
                } else {
                    pass(2, "rtcOccluded1", seconds(|| e.rays.iter().filter(|r| mesh.occluded(r)).count()));
                }
            }
        }
    }
    let cell = |secs: Option<f64>| secs.map_or(Cell::Disagrees, Cell::Time);
    let embree_cell = |secs: Option<f64>| match peers.3 {
        None => Cell::Absent,
        Some(_) => cell(secs),
    };
    let row = |t: usize, threads: usize| {
        let e = embree_best[t];
        let faster = |a: Option<f64>, b: Option<f64>| a.into_iter().chain(b).reduce(f64::min);
        Row {
            scene,
            set: set.name,
            threads,
            rays: rays.len(),
            closest: best[t][0].expect("timed"),
            full: best[t][5].expect("timed"),
            any: best[t][1].expect("timed"),
            peers: [cell(best[t][2]), cell(best[t][3]), cell(best[t][4]), embree_cell(faster(e[0], e[1]))],
            embree_any: embree_cell(faster(e[2], e[3])),
            embree_batch: e[0].zip(e[1]).zip(e[2].zip(e[3])).map(|((a, b), (c, d))| [a, b, c, d]),
        }
    };
    let hits = ray_hits.unwrap_or(0);
    println!(
        "  {scene}/{}: {} rays, {hits} hits ({:.1}%)",
        set.name,
        rays.len(),
        100.0 * hits as f64 / rays.len() as f64
    );
    [row(0, 1), row(1, threads)]
}

/// A borrowed peer that is itself a peer (so one build serves both ray sets).
struct Ref<'a, P>(&'a P);

impl<P: MeshPeer> MeshPeer for Ref<'_, P> {
    type Ray = P::Ray;
    const NAME: &'static str = P::NAME;

    fn build(_: &MeshData) -> Self {
        unreachable!("a Ref is made from a built peer")
    }

    fn ray(ray: &Ray3) -> Self::Ray {
        P::ray(ray)
    }

    #[inline]
    fn cast(&self, ray: &Self::Ray) -> Option<f32> {
        self.0.cast(ray)
    }
}

/// One scene's builds at 1 thread: best milliseconds and the tree's stats.
struct BuildRow {
    scene: &'static str,
    triangles: usize,
    /// raybox Fast, Balanced, High: (ms, stats).
    raybox: Vec<(BuildQuality, f64, raybox::BvhStats)>,
    parry_ms: f64,
    /// Embree's Low, Medium and High builds on a 1-thread device (ms), where installed.
    embree_ms: Option<[f64; 3]>,
    median_sah: f32,
}

const EMBREE_QUALITIES: [EmbreeQuality; 3] = [EmbreeQuality::Low, EmbreeQuality::Medium, EmbreeQuality::High];

fn run_builds(scene: &Scene, rounds: usize, embree: Option<&Embree>) -> BuildRow {
    let embree_device = embree.map(|e| e.device("threads=1").expect("a 1-thread Embree device"));
    let mut embree_ms = embree_device.as_ref().map(|_| [f64::MAX; 3]);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a 1-thread pool");
    let qualities = [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High];
    let mut best = [f64::MAX; 4];
    let mut stats = [None; 3];
    pool.install(|| {
        for _ in 0..rounds {
            for (q, quality) in qualities.iter().enumerate() {
                let (v, i) = (scene.data.vertices.clone(), scene.data.indices.clone());
                let t0 = Instant::now();
                let mesh = TriMesh::with_quality(v, i, *quality).expect("a valid mesh");
                best[q] = best[q].min(t0.elapsed().as_secs_f64() * 1e3);
                stats[q] = Some(mesh.bvh_stats());
            }
            // Both builders get their own copy of the mesh, made before the clock starts.
            let inputs = parry_inputs(&scene.data);
            let t0 = Instant::now();
            let built = std::hint::black_box(parry_trimesh(inputs));
            best[3] = best[3].min(t0.elapsed().as_secs_f64() * 1e3);
            drop(built);
            if let (Some(device), Some(ms)) = (&embree_device, &mut embree_ms) {
                for (q, quality) in EMBREE_QUALITIES.iter().enumerate() {
                    // Its arrays made before the clock starts, as the others' inputs are; the copy
                    // into Embree's own buffers is part of its build.
                    let vertices = EmbreeMesh::vertices(&scene.data);
                    let t0 = Instant::now();
                    let built = EmbreeMesh::from_arrays(device, &vertices, &scene.data.indices, *quality)
                        .expect("Embree builds the mesh");
                    ms[q] = ms[q].min(t0.elapsed().as_secs_f64() * 1e3);
                    drop(built);
                }
            }
        }
    });
    BuildRow {
        scene: scene.name,
        triangles: scene.data.indices.len(),
        raybox: qualities
            .iter()
            .enumerate()
            .map(|(q, quality)| (*quality, best[q], stats[q].expect("built")))
            .collect(),
        parry_ms: best[3],
        embree_ms,
        median_sah: median_split_sah(&scene.data),
    }
}

fn fmt_mrays(row: &Row, cell: Cell) -> String {
    match cell {
        Cell::Time(s) => format!("{:.2}", row.mrays(s)),
        Cell::Disagrees => "disagrees".to_owned(),
        Cell::Absent => "not installed".to_owned(),
    }
}

fn fmt_ratio(ours: f64, theirs: Cell) -> String {
    theirs.time().map_or_else(|| "—".to_owned(), |t| format!("{:.2}x", t / ours))
}

fn print_trace_table(rows: &[Row]) {
    println!(
        "\n### Ray casts (Mrays/s; ratio = raybox's throughput / the peer's, same rays, same thread count)\n"
    );
    println!(
        "| scene | rays | threads | query | raybox | {} | {} | {} | {} | vs {} | vs {} | vs {} | vs {} |",
        PEERS[0], PEERS[1], PEERS[2], PEERS[3], PEERS[0], PEERS[1], PEERS[2], PEERS[3]
    );
    println!("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for r in rows {
        let api = if r.threads == 1 { "`first_hit` loop" } else { "batch (`first_hits_into`)" };
        let [p0, p1, p2, p3] = r.peers.map(|c| fmt_mrays(r, c));
        let [q0, q1, q2, q3] = r.peers.map(|c| fmt_ratio(r.closest, c));
        println!(
            "| {} | {} | {} | closest hit, {api} | {:.2} | {p0} | {p1} | {p2} | {p3} | {q0} | {q1} | {q2} | {q3} |",
            r.scene,
            r.set,
            r.threads,
            r.mrays(r.closest),
        );
        let api = if r.threads == 1 { "`cast_ray` loop" } else { "`cast_rays_into`" };
        let [q0, q1, q2, q3] = r.peers.map(|c| fmt_ratio(r.full, c));
        println!(
            "| {} | {} | {} | closest hit with normal and point, {api} | {:.2} | | | | | {q0} | {q1} | {q2} | {q3} |",
            r.scene,
            r.set,
            r.threads,
            r.mrays(r.full),
        );
        let api = if r.threads == 1 { "`occluded` loop" } else { "`occluded_rays_into`" };
        println!(
            "| {} | {} | {} | any hit, {api} (any/closest {:.2}x) | {:.2} | | | | {} | | | | {} |",
            r.scene,
            r.set,
            r.threads,
            r.closest / r.any,
            r.mrays(r.any),
            fmt_mrays(r, r.embree_any),
            fmt_ratio(r.any, r.embree_any),
        );
    }
    let batches: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            r.embree_batch.map(|[one, sixteen, any_one, any_sixteen]| {
                format!(
                    "{}/{} `rtcIntersect1` {:.2}, `rtcIntersect16` {:.2}, `rtcOccluded1` {:.2}, `rtcOccluded16` {:.2}",
                    r.scene,
                    r.set,
                    r.mrays(one),
                    r.mrays(sixteen),
                    r.mrays(any_one),
                    r.mrays(any_sixteen)
                )
            })
        })
        .collect();
    if !batches.is_empty() {
        println!(
            "\nEmbree's batch rows take the faster of its two calls on all threads (Mrays/s): {}.",
            batches.join("; ")
        );
    }
}

fn print_build_table(builds: &[BuildRow]) {
    println!("\n### BVH builds (1 thread; SAH cost as raybox's `BvhStats::sah_cost`, lower is better)\n");
    println!(
        "| scene | triangles | builder | ms | ms / Mtri | time / parry3d's | nodes | leaves | depth | SAH |"
    );
    println!("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for b in builds {
        let mtri = b.triangles as f64 / 1e6;
        for (quality, ms, s) in &b.raybox {
            println!(
                "| {} | {} | raybox {quality:?} | {ms:.1} | {:.0} | {:.2}x | {} | {} | {} | {:.2} |",
                b.scene,
                b.triangles,
                ms / mtri,
                ms / b.parry_ms,
                s.node_count,
                s.leaf_count,
                s.depth,
                s.sah_cost
            );
        }
        println!(
            "| {} | {} | parry3d `TriMesh::new` | {:.1} | {:.0} | 1.00x | | | | |",
            b.scene,
            b.triangles,
            b.parry_ms,
            b.parry_ms / mtri
        );
        if let Some(ms) = b.embree_ms {
            for (quality, ms) in EMBREE_QUALITIES.iter().zip(ms) {
                println!(
                    "| {} | {} | Embree {quality:?} (1-thread device) | {ms:.1} | {:.0} | {:.2}x | | | | |",
                    b.scene,
                    b.triangles,
                    ms / mtri,
                    ms / b.parry_ms
                );
            }
        }
        println!(
            "| {} | {} | median split (reference, not timed) | | | | | | | {:.2} |",
            b.scene, b.triangles, b.median_sah
        );
    }
}

/// Issue 4's targets, each with the figures that decide it.
fn print_targets(rows: &[Row], builds: &[BuildRow]) {
    println!("\n### Issue 4's targets\n");
    let mark = |ok: bool| if ok { "met" } else { "**not met**" };
    let one: Vec<&Row> = rows.iter().filter(|r| r.threads == 1).collect();
    let all: Vec<&Row> = rows.iter().filter(|r| r.threads > 1).collect();
    let parry_ratio = |r: &Row| r.peers[0].time().map(|p| p / r.closest);
    let list = |rs: &[&Row], f: &dyn Fn(&Row) -> Option<f64>| {
        rs.iter()
            .map(|r| {
                format!(
                    "{}/{} {}",
                    r.scene,
                    r.set,
                    f(r).map_or_else(|| "—".to_owned(), |x| format!("{x:.2}x"))
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all_at_least = |rs: &[&Row], f: &dyn Fn(&Row) -> Option<f64>, t: f64| {
        rs.iter().all(|r| f(r).is_some_and(|x| x >= t))
    };

    let full_ratio = |r: &Row| r.peers[0].time().map(|p| p / r.full);
    let ok = all_at_least(&one, &parry_ratio, 3.5);
    println!(
        "- single-ray closest hit (`first_hit`), 1 thread, >= 3.5x parry3d everywhere: {} ({}; with normal and point, `cast_ray`: {})",
        mark(ok),
        list(&one, &parry_ratio),
        list(&one, &full_ratio)
    );

    let scaling =
        |r: &Row| one.iter().find(|o| o.scene == r.scene && o.set == r.set).map(|o| o.closest / r.closest);
    let ok = all_at_least(&all, &scaling, 1.9);
    println!(
        "- {} threads >= 1.9x raybox's 1 thread (batch closest hit): {} ({})",
        all.first().map_or(0, |r| r.threads),
        mark(ok),
        list(&all, &scaling)
    );

    let (bp, others): (Vec<&Row>, Vec<&Row>) =
        all.iter().copied().partition(|r| r.scene == "bunny" && r.set == "primary");
    let ok1 = all_at_least(&bp, &parry_ratio, 7.0);
    let ok2 = all_at_least(&others, &parry_ratio, 3.5);
    println!(
        "- batch >= 7x parry3d on bunny primary (parry3d under rayon on the same threads): {} ({})",
        mark(ok1),
        list(&bp, &parry_ratio)
    );
    println!("- batch >= 3.5x parry3d on the others: {} ({})", mark(ok2), list(&others, &parry_ratio));
    println!("  (batch with normal and point, `cast_rays_into`: {})", list(&all, &full_ratio));

    let any_ratio = |r: &Row| Some(r.closest / r.any);
    let rs: Vec<&Row> = rows.iter().collect();
    let ok = all_at_least(&rs, &any_ratio, 1.0);
    println!(
        "- any hit at least as fast as closest hit (any-hit throughput / closest-hit): {} ({})",
        mark(ok),
        rs.iter()
            .map(|r| format!("{}/{}/{}t {:.2}x", r.scene, r.set, r.threads, r.closest / r.any))
            .collect::<Vec<_>>()
            .join(", ")
    );

    let embree_ratio = |r: &Row| r.peers[3].time().map(|p| p / r.closest);
    if rows.iter().any(|r| r.peers[3].time().is_some()) {
        println!(
            "- (beside the targets) raybox against Embree's closest hit: 1 thread ({}); all threads ({})",
            list(&one, &embree_ratio),
            list(&all, &embree_ratio)
        );
    }

    if let Some(t) = builds.iter().find(|b| b.scene == "terrain") {
        for (quality, limit) in [(BuildQuality::Balanced, 0.7), (BuildQuality::Fast, 0.35)] {
            if let Some((_, ms, s)) = t.raybox.iter().find(|(q, _, _)| *q == quality) {
                let ratio = ms / t.parry_ms;
                let ok = ratio <= limit && s.sah_cost < t.median_sah;
                println!(
                    "- terrain build, 1 thread, {quality:?} <= {limit}x parry3d's TriMesh::new with SAH below the median split's: {} ({ms:.0} ms vs {:.0} ms = {ratio:.2}x; SAH {:.2} vs {:.2})",
                    mark(ok),
                    t.parry_ms,
                    s.sah_cost,
                    t.median_sah
                );
            }
        }
    }
}

fn main() {
    let quick = std::env::args().skip(1).any(|a| a == "--quick");
    if let Some(bad) = std::env::args().skip(1).find(|a| a != "--quick") {
        eprintln!("unknown argument {bad:?}; usage: compare [--quick]");
        std::process::exit(2);
    }
    // Five rounds: with three, a batch row of the bunny (15 ms a pass) still swung by 20%
    // between runs on this shared machine.
    let (sizes, rounds) = if quick { (Sizes::QUICK, 2) } else { (Sizes::FULL, 5) };
    let command = format!(
        "cargo run --release -p raybox-bench --bin compare{}",
        if quick { " -- --quick" } else { "" }
    );
    // SAFETY: Embree as `scripts/install-embree` installs it (Debian's build, default layout).
    let embree = match unsafe { Embree::load() } {
        Ok(e) => Some(e),
        Err(e) => {
            println!("Embree not timed: {e} (Debian: `apt-get install libembree3-3`)\n");
            None
        }
    };
    println!("## raybox vs parry3d, obvhs, bvh, Embree: mesh ray casts\n");
    println!("- command: `{command}`");
    println!("- date: {}", trace::utc_now());
    println!("- machine: {}", trace::cpu_line());
    println!("- raybox kernel: {}", raybox::kernel_name());
    if let Some(device) = embree.as_ref().and_then(|e| e.device("").ok()) {
        let native = if device.native_packets16() { "yes" } else { "no" };
        println!("- Embree: {} (16-ray packets native: {native})", device.version());
    }
    println!("- commit: {}", trace::git_commit());
    println!(
        "- rays: {0}x{0} primary (pinhole camera, 4x4 tiles), {1} incoherent (origins in the scene's ball, random directions); best of {rounds} interleaved rounds; all threads = {2}\n",
        sizes.camera,
        sizes.random,
        rayon::current_num_threads()
    );

    let mut scene_list = vec![scenes::bunny(), scenes::terrain(scenes::TERRAIN_CELLS)];
    match scenes::dragon(true) {
        Ok(d) => scene_list.push(d),
        Err(e) => println!("dragon skipped: {e}"),
    }

    let mut rows = Vec::new();
    let mut builds = Vec::new();
    for scene in &scene_list {
        let t0 = Instant::now();
        let mesh = TriMesh::from_data(scene.data.clone()).expect("a valid mesh");
        let ours = t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let parry = ParryMesh::build(&scene.data);
        let obvhs = ObvhsMesh::build(&scene.data);
        let bvh = BvhMesh::build(&scene.data);
        let embree_mesh = embree.as_ref().map(|e| {
            let device = e.device("").expect("an Embree device");
            EmbreeMesh::new(&device, &scene.data, EmbreeQuality::Medium).expect("Embree builds the mesh")
        });
        println!(
            "{}: {} triangles ({} degenerate); raybox built in {:.0} ms ({:?}), the peers in {:.0} ms",
            scene.name,
            scene.data.indices.len(),
            mesh.degenerate_count(),
            ours * 1e3,
            mesh.bvh_stats(),
            t0.elapsed().as_secs_f64() * 1e3
        );
        for set in scenes::ray_sets(&scene.data, sizes) {
            rows.extend(run_set(
                scene.name,
                &set,
                &mesh,
                (&parry, &obvhs, &bvh, embree_mesh.as_ref()),
                rounds,
            ));
        }
        drop((mesh, parry, obvhs, bvh, embree_mesh));
        builds.push(run_builds(scene, rounds, embree.as_ref()));
    }
    print_trace_table(&rows);
    print_build_table(&builds);
    print_targets(&rows, &builds);
}
