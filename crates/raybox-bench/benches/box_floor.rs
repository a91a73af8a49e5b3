//! One ray against 1,024 boxes: raybox's node kernels (`BoxSoup::count_hits`, the boxes
//! packed 8 per 256-byte wide node as the BVH holds them) against the floor, a plain
//! AVX-512 loop written here over structure-of-arrays planes, 16 boxes per iteration.
//!
//! Both do the same conservative slab test (Ize, *Robust BVH Ray Traversal*, JCGT 2013):
//! `t = (plane - o) * (1 / d)` (subtract, then multiply), NaN (`0 * inf`) dropped by the
//! operand order of max/min, both ends widened by the same `SLAB_PAD` (a multiply, then a
//! subtract or add), `t_enter <= t_exit` into a mask, hits counted. Before timing, the
//! floor's count is checked to equal raybox's on every ray. Issue 3's target: raybox
//! within 1.25x of the floor's time per ray.
//!
//! `cargo bench -p raybox-bench --bench box_floor`

#[path = "common/cycle.rs"]
mod cycle;

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec3;
use raybox::{Aabb3, BoxSoup, Ray3, with_each_kernel};
use raybox_bench::rng::Pcg32;

/// Boxes per ray, and rays cycled through (a power of two, for `bench_cycling`).
const N_BOXES: usize = 1024;
const N_RAYS: usize = 1024;

/// The widening raybox uses (`2 γ(3)`, Ize 2013), written as the library writes it.
const SLAB_PAD: f32 = 2.0 * (3.0 * f32::EPSILON / 2.0) / (1.0 - 3.0 * f32::EPSILON / 2.0);

/// Boxes centred in the cube `[-1, 1]^3` (half extents 0.3 to 0.8 on each axis, so they
/// overlap and fill it loosely), and rays from a sphere of radius 3 around it aimed at
/// random points inside it: every ray crosses the cube, and about a third (32%) of the
/// ray–box pairs hit.
fn inputs() -> (Vec<Aabb3>, Vec<Ray3>) {
    let mut rng = Pcg32::new(0xb0c5);
    let boxes = (0..N_BOXES)
        .map(|_| {
            let c = rng.signed3();
            let h = Vec3::new(rng.range(0.3, 0.8), rng.range(0.3, 0.8), rng.range(0.3, 0.8));
            Aabb3::from_center_half_extents(c, h)
        })
        .collect();
    let rays = (0..N_RAYS)
        .map(|_| {
            let o = rng.unit3() * 3.0;
            Ray3::new(o, rng.signed3() - o)
        })
        .collect();
    (boxes, rays)
}

/// 16 floats on one cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Block([f32; 16]);

/// The floor's layout: each of the six planes (`min_x, min_y, min_z, max_x, max_y, max_z`)
/// as its own array, 16 boxes per block; lanes past the last box are empty (`min = +inf`,
/// `max = -inf`), which no ray enters.
struct Planes {
    rows: [Vec<Block>; 6],
}

impl Planes {
    fn new(boxes: &[Aabb3]) -> Self {
        let blocks = boxes.len().div_ceil(16);
        let rows = core::array::from_fn(|row| {
            let empty = if row < 3 { f32::INFINITY } else { f32::NEG_INFINITY };
            let mut v = vec![Block([empty; 16]); blocks];
            for (i, b) in boxes.iter().enumerate() {
                v[i / 16].0[i % 16] = if row < 3 { b.min()[row] } else { b.max()[row - 3] };
            }
            v
        });
        Self { rows }
    }
}

/// The floor: the conservative slab test of `ray` against every box of `planes`, 16 at a
/// time with 512-bit vectors; returns how many the ray may enter.
///
/// `SHORTCUT` gives it the one shortcut raybox's AVX-512 path takes: for rays with
/// `t_min >= 0`, `t_enter` is never negative and the absolute values in the padding can go
/// (the same decisions; see `pairs_512` in raybox's `kernels/soup.rs`). The plain floor,
/// `SHORTCUT = false`, is the target's reference.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
fn floor_count<const SHORTCUT: bool>(planes: &Planes, ray: &Ray3) -> usize {
    use core::arch::x86_64::*;
    let (o, d) = (ray.origin().to_array(), ray.dir().to_array());
    let mut near = [planes.rows[0].as_ptr(); 3];
    let mut far = near;
    let mut ov = [_mm512_setzero_ps(); 3];
    let mut rv = ov;
    for k in 0..3 {
        let r = 1.0 / d[k];
        // Moving down the axis, the ray meets the max plane first.
        let down = usize::from(r.is_sign_negative());
        near[k] = planes.rows[k + 3 * down].as_ptr();
        far[k] = planes.rows[k + 3 * (1 - down)].as_ptr();
        ov[k] = _mm512_set1_ps(o[k]);
        rv[k] = _mm512_set1_ps(r);
    }
    let (t_min, t_max) = (_mm512_set1_ps(ray.t_min()), _mm512_set1_ps(ray.t_max()));
    let pad = _mm512_set1_ps(SLAB_PAD);
    if SHORTCUT && ray.t_min() >= 0.0 {
        let mut count = 0;
        for i in 0..planes.rows[0].len() {
            let mut t_enter = t_min;
            let mut t_exit = t_max;
            for k in 0..3 {
                // SAFETY: as below.
                let (n, f) =
                    unsafe { (_mm512_load_ps(near[k].add(i).cast()), _mm512_load_ps(far[k].add(i).cast())) };
                t_enter = _mm512_max_ps(_mm512_mul_ps(_mm512_sub_ps(n, ov[k]), rv[k]), t_enter);
                t_exit = _mm512_min_ps(_mm512_mul_ps(_mm512_sub_ps(f, ov[k]), rv[k]), t_exit);
            }
            let t_enter = _mm512_sub_ps(t_enter, _mm512_mul_ps(t_enter, pad));
            let t_exit = _mm512_add_ps(t_exit, _mm512_mul_ps(t_exit, pad));
            count += _mm512_cmp_ps_mask::<_CMP_LE_OQ>(t_enter, t_exit).count_ones() as usize;
        }
        return count;
    }
    let mut count = 0;
    for i in 0..planes.rows[0].len() {
        let mut t_enter = t_min;
        let mut t_exit = t_max;
        for k in 0..3 {
            // SAFETY: `i` is below the length of every row; blocks are 64-byte aligned.
            let (n, f) =
                unsafe { (_mm512_load_ps(near[k].add(i).cast()), _mm512_load_ps(far[k].add(i).cast())) };
            let t_near = _mm512_mul_ps(_mm512_sub_ps(n, ov[k]), rv[k]);
            let t_far = _mm512_mul_ps(_mm512_sub_ps(f, ov[k]), rv[k]);
            // maxps/minps return their second operand when either is NaN.
            t_enter = _mm512_max_ps(t_near, t_enter);
            t_exit = _mm512_min_ps(t_far, t_exit);
        }
        let t_enter = _mm512_sub_ps(t_enter, _mm512_mul_ps(_mm512_abs_ps(t_enter), pad));
        let t_exit = _mm512_add_ps(t_exit, _mm512_mul_ps(_mm512_abs_ps(t_exit), pad));
        count += _mm512_cmp_ps_mask::<_CMP_LE_OQ>(t_enter, t_exit).count_ones() as usize;
    }
    count
}

/// Whether this CPU can run [`floor_count`].
fn floor_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Times `a` and `b` over all of `rays` in alternation, `rounds` times (which goes first
/// alternates too), and prints each one's best time per ray and the median of the
/// per-round ratios `a / b`: on a machine shared with other work, a pair of rounds a
/// millisecond apart sees nearly the same load, which criterion's runs, seconds apart, do
/// not.
fn interleaved(
    name: &str,
    rays: &[Ray3],
    rounds: usize,
    a: impl Fn(&Ray3) -> usize,
    b: impl Fn(&Ray3) -> usize,
) -> f64 {
    let time = |f: &dyn Fn(&Ray3) -> usize| {
        let start = Instant::now();
        let n: usize = rays.iter().map(|r| f(black_box(r))).sum();
        black_box(n);
        start.elapsed().as_secs_f64() * 1e9 / rays.len() as f64
    };
    let (mut best_a, mut best_b) = (f64::INFINITY, f64::INFINITY);
    let mut ratios = Vec::with_capacity(rounds);
    for round in 0..rounds {
        let (ta, tb) = if round % 2 == 0 {
            let ta = time(&a);
            (ta, time(&b))
        } else {
            let tb = time(&b);
            (time(&a), tb)
        };
        best_a = best_a.min(ta);
        best_b = best_b.min(tb);
        ratios.push(ta / tb);
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios[rounds / 2];
    println!(
        "interleaved box_floor, raybox against {name} ({rounds} rounds): raybox best {best_a:.1} ns/ray, \
         floor best {best_b:.1} ns/ray; raybox / floor: median of rounds {median:.3}, of best times {:.3}",
        best_a / best_b
    );
    median
}

fn box_floor(c: &mut Criterion) {
    let (boxes, rays) = inputs();
    let soup = BoxSoup::new(&boxes);
    let counts: Vec<usize> = rays.iter().map(|r| soup.count_hits(r)).collect();
    let hits: usize = counts.iter().sum();
    let fraction = hits as f64 / (N_BOXES * N_RAYS) as f64;
    println!(
        "check box_floor: {N_BOXES} boxes x {N_RAYS} rays, {:.1}% of the pairs hit (raybox kernel {})",
        100.0 * fraction,
        raybox::kernel_name()
    );
    assert!((0.1..0.9).contains(&fraction), "box_floor: {:.1}% of the pairs hit", 100.0 * fraction);
    with_each_kernel(|kernel| {
        let same = rays.iter().zip(&counts).filter(|&(r, &n)| soup.count_hits(r) == n).count();
        println!("check box_floor: raybox kernel {kernel} agrees on {same}/{N_RAYS} rays");
        assert_eq!(same, N_RAYS, "box_floor: kernel {kernel} disagrees");
    });

    let planes = Planes::new(&boxes);
    let floor = floor_available();
    // `cargo bench` passes `--bench`; `cargo test --benches` (CI) runs each group once to
    // check it, and a few interleaved rounds are enough there.
    let rounds = if std::env::args().any(|a| a == "--bench") { 400 } else { 4 };
    if floor {
        #[cfg(target_arch = "x86_64")]
        {
            for (name, floor) in [
                ("the AVX-512 floor", floor_count::<false> as unsafe fn(&Planes, &Ray3) -> usize),
                ("the AVX-512 floor with raybox's shortcut", floor_count::<true>),
            ] {
                // SAFETY: `floor_available` found AVX-512F and POPCNT.
                let same =
                    rays.iter().zip(&counts).filter(|&(r, &n)| unsafe { floor(&planes, r) } == n).count();
                println!("check box_floor: {name} agrees with raybox on {same}/{N_RAYS} rays");
                assert_eq!(same, N_RAYS, "box_floor: {name} disagrees with raybox");
                // SAFETY: as above.
                interleaved(name, &rays, rounds, |r| soup.count_hits(r), |r| unsafe { floor(&planes, r) });
            }
        }
    } else {
        println!("check box_floor: no AVX-512F on this CPU: the floor is unavailable, not timed");
    }

    let mut g = c.benchmark_group(format!("box_floor {N_BOXES} boxes"));
    g.throughput(Throughput::Elements(1));
    // Each kernel raybox has here, forced in turn (the first, `scalar`, is the reference),
    // and the kernel the CPU gets by default, as a user calls it.
    with_each_kernel(|kernel| {
        cycle::bench_cycling(&mut g, &format!("raybox {kernel}"), &rays, |r| soup.count_hits(r));
    });
    cycle::bench_cycling(&mut g, "raybox", &rays, |r| soup.count_hits(r));
    #[cfg(target_arch = "x86_64")]
    if floor {
        // SAFETY: `floor_available` found AVX-512F and POPCNT.
        cycle::bench_cycling(&mut g, "floor avx512", &rays, |r| unsafe { floor_count::<false>(&planes, r) });
        // SAFETY: as above.
        cycle::bench_cycling(&mut g, "floor avx512 with the shortcut", &rays, |r| unsafe {
            floor_count::<true>(&planes, r)
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = box_floor
}
criterion_main!(benches);
