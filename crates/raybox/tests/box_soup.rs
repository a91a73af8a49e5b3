//! `BoxSoup` (one ray against a flat list of boxes, for the `box_floor` benchmark) on every
//! kernel the CPU has, against the conservative slab test written out plainly below: the
//! same answer for every box, on random rays and boxes, on boxes touched exactly at a face,
//! an edge or a corner, on axis-parallel rays (`±0` components) and on rays that start
//! inside boxes. The test is also checked to be conservative: every box the exact
//! `ray_span` enters is counted.

use glam::Vec3;
use raybox::mesh::scene::Pcg32;
use raybox::{Aabb3, BoxSoup, Ray3, RayCast, with_each_kernel};

/// `2 γ(3)`, the relative widening of the slab bounds (Ize, *Robust BVH Ray Traversal*,
/// JCGT 2013), as the library defines it.
const SLAB_PAD: f32 = 2.0 * (3.0 * f32::EPSILON / 2.0) / (1.0 - 3.0 * f32::EPSILON / 2.0);

/// The scalar node kernel's test for one box, one axis at a time.
fn reference_hit(b: &Aabb3, ray: &Ray3) -> bool {
    let (o, d) = (ray.origin().to_array(), ray.dir().to_array());
    let (lo, hi) = (b.min().to_array(), b.max().to_array());
    let mut t_enter = ray.t_min();
    let mut t_exit = ray.t_max();
    for k in 0..3 {
        let r = 1.0 / d[k];
        let (near, far) = if r.is_sign_negative() { (hi[k], lo[k]) } else { (lo[k], hi[k]) };
        // f32::max/min drop the NaN of 0 * inf (a ray in the plane of a face).
        t_enter = t_enter.max((near - o[k]) * r);
        t_exit = t_exit.min((far - o[k]) * r);
    }
    t_enter - t_enter.abs() * SLAB_PAD <= t_exit + t_exit.abs() * SLAB_PAD
}

/// Checks `BoxSoup` on `rays` against `boxes` with every kernel; returns the hit count
/// summed over rays (to check that a case set is not all misses).
fn check(boxes: &[Aabb3], rays: &[Ray3], what: &str) -> usize {
    let soup = BoxSoup::new(boxes);
    let expected: Vec<Vec<bool>> =
        rays.iter().map(|r| boxes.iter().map(|b| reference_hit(b, r)).collect()).collect();
    for (ray, hits) in rays.iter().zip(&expected) {
        for (b, &hit) in boxes.iter().zip(hits) {
            if b.ray_span(ray).is_some() {
                assert!(hit, "{what}: the padded test misses {b:?}, which {ray:?} enters");
            }
        }
    }
    let mut kernels = Vec::new();
    with_each_kernel(|kernel| {
        kernels.push(kernel);
        let mut flags = vec![false; boxes.len()];
        for (ray, hits) in rays.iter().zip(&expected) {
            soup.hit_flags(ray, &mut flags);
            if let Some(i) = (0..boxes.len()).find(|&i| flags[i] != hits[i]) {
                panic!(
                    "{what}, kernel {kernel}: box {i} {:?}, ray {ray:?}: {} vs reference {}",
                    boxes[i], flags[i], hits[i]
                );
            }
            let count = hits.iter().filter(|&&h| h).count();
            assert_eq!(soup.count_hits(ray), count, "{what}, kernel {kernel}: count for {ray:?}");
        }
    });
    assert_eq!(kernels[0], "scalar");
    expected.iter().flatten().filter(|&&h| h).count()
}

/// `n` boxes centred in `[-spread, spread]³`, with half extents drawn per axis from `half`.
fn random_boxes(rng: &mut Pcg32, n: usize, spread: f32, half: [(f32, f32); 3]) -> Vec<Aabb3> {
    (0..n)
        .map(|_| {
            let c =
                Vec3::new(rng.range(-spread, spread), rng.range(-spread, spread), rng.range(-spread, spread));
            let h = Vec3::new(
                rng.range(half[0].0, half[0].1),
                rng.range(half[1].0, half[1].1),
                rng.range(half[2].0, half[2].1),
            );
            Aabb3::from_center_half_extents(c, h)
        })
        .collect()
}

#[test]
fn random_rays_and_boxes() {
    let mut rng = Pcg32::new(7);
    let boxes = random_boxes(&mut rng, 2003, 10.0, [(0.0, 3.0), (0.0, 3.0), (0.0, 2.0)]);
    let rays: Vec<Ray3> = (0..3000)
        .map(|i| {
            // From a ball around the boxes towards a point among them, some from inside
            // the cube, some axis-parallel, some with a bounded interval, or one starting at
            // -inf, -0, -2 or 0.1.
            let o = if i % 5 == 0 {
                Vec3::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0), rng.range(-10.0, 10.0))
            } else {
                rng.unit_vector() * 20.0
            };
            let target = Vec3::new(rng.range(-9.0, 9.0), rng.range(-9.0, 9.0), rng.range(-9.0, 9.0));
            let mut d = target - o;
            if i % 7 == 0 {
                let k = i % 3;
                d = Vec3::splat(if i % 2 == 0 { 0.0 } else { -0.0 });
                d[k] = if i % 4 < 2 { 1.0 } else { -1.0 };
            }
            let t_max = if i % 3 == 0 { rng.range(0.2, 1.0) } else { f32::INFINITY };
            let t_min = match i % 13 {
                0 => f32::NEG_INFINITY,
                1 => -0.0,
                2 => -2.0,
                3 => 0.1,
                _ => 0.0,
            };
            Ray3::with_range(o, d, t_min, t_max)
        })
        .collect();
    let hits = check(&boxes, &rays, "random");
    let fraction = hits as f64 / (boxes.len() * rays.len()) as f64;
    assert!(fraction > 0.01, "too few hits to mean much: {fraction}");
}

/// Unit cubes on a grid, sharing faces, edges and corners, and rays along those faces and
/// edges, through the corners, grazing an edge diagonally, and from inside.
#[test]
fn boxes_touched_at_faces_edges_and_corners() {
    let mut boxes = Vec::new();
    for x in -2..2 {
        for y in -2..2 {
            for z in -2..2 {
                let min = Vec3::new(x as f32, y as f32, z as f32);
                boxes.push(Aabb3::new(min, min + Vec3::ONE));
            }
        }
    }
    // A point, a flat square and a segment-like box on the grid's planes.
    boxes.push(Aabb3::new(Vec3::splat(1.0), Vec3::splat(1.0)));
    boxes.push(Aabb3::new(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, 1.0)));
    boxes.push(Aabb3::new(Vec3::new(0.0, 1.0, -2.0), Vec3::new(0.0, 1.0, 2.0)));

    let mut rays = Vec::new();
    let axes = [Vec3::X, Vec3::Y, Vec3::Z];
    let coords = [-3.0, -2.0, -1.5, -1.0, -0.0, 0.0, 0.5, 1.0, 2.0, 2.5];
    for (k, &axis) in axes.iter().enumerate() {
        for &a in &coords {
            for &b in &coords {
                // Origin off the grid along `axis`, on grid planes (faces, edges) across it.
                let mut o = Vec3::splat(a);
                o[(k + 2) % 3] = b;
                o[k] = -5.0;
                for sign in [1.0, -1.0] {
                    let mut d = Vec3::splat(if sign > 0.0 { 0.0 } else { -0.0 });
                    d[k] = sign;
                    rays.push(Ray3::new(o, axis * sign));
                    rays.push(Ray3::new(o, d));
                    let mut inside = o;
                    inside[k] = 0.5;
                    rays.push(Ray3::new(inside, d));
                    rays.push(Ray3::with_range(inside, d, f32::NEG_INFINITY, 0.25));
                }
            }
        }
    }
    // Diagonals through grid corners, and rays grazing an edge at 45 degrees.
    for &o in &[Vec3::splat(-3.0), Vec3::new(-3.0, 3.0, -3.0), Vec3::new(0.5, 0.5, 0.5)] {
        rays.push(Ray3::new(o, -o.signum()));
        rays.push(Ray3::new(o, o.signum()));
    }
    for &(o, d) in &[
        (Vec3::new(0.0, 2.0, 0.5), Vec3::new(1.0, -1.0, 0.0)),
        (Vec3::new(-1.0, 3.0, 0.0), Vec3::new(1.0, -1.0, 0.0)),
        (Vec3::new(2.0, 0.5, -1.0), Vec3::new(-1.0, 0.0, 1.0)),
        (Vec3::new(1.0, 1.0, 1.0), Vec3::new(1.0, 1.0, 1.0)),
        (Vec3::new(1.0, 1.0, 1.0), Vec3::new(-1.0, 0.0, 0.0)),
    ] {
        rays.push(Ray3::new(o, d));
        rays.push(Ray3::with_range(o, d, 0.0, 1.0));
        rays.push(Ray3::with_range(o, d, -1.0, 0.0));
    }
    let hits = check(&boxes, &rays, "touching");
    assert!(hits > 0);
}

/// Every box count from 0 to 40 (part-filled nodes and pairs), rays from inside.
#[test]
fn any_number_of_boxes() {
    let mut rng = Pcg32::new(11);
    let all: Vec<Aabb3> = (0..40)
        .map(|_| {
            let c = Vec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
            Aabb3::from_center_half_extents(c, Vec3::splat(rng.range(0.0, 1.5)))
        })
        .collect();
    let rays: Vec<Ray3> = (0..64)
        .map(|_| Ray3::new(Vec3::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0), 0.0), rng.unit_vector()))
        .collect();
    for n in 0..=all.len() {
        check(&all[..n], &rays, &format!("{n} boxes"));
    }
}

/// A near miss from the `box_floor` benchmark's seeded inputs: the exact test misses the
/// box, the padded test too, and the scalar node kernel's own test for `t_min >= 0` (scaled
/// reciprocals, no padding) keeps it. Every kernel of `BoxSoup` must give the padded
/// test's answer, the scalar one included.
#[test]
fn a_near_miss_is_counted_alike_by_every_kernel() {
    let v = |bits: [u32; 3]| Vec3::from_array(bits.map(f32::from_bits));
    let ray = Ray3::new(v([3215385084, 3209697282, 1076160717]), v([1067913242, 1071059390, 3219435576]));
    let b = Aabb3::new(v([1041782204, 3175399584, 3205603100]), v([1065325121, 1065831887, 1064890212]));
    assert!(b.ray_span(&ray).is_none());
    assert!(!reference_hit(&b, &ray));
    assert_eq!(check(&[b], &[ray], "near miss"), 0);
}

/// Rays aimed just outside and just inside the edges and corners of boxes, by a few units
/// in the last place: the band where the padded test keeps boxes the exact test misses, and
/// where two conservative tests of different make part (the scalar node kernel's scaled
/// reciprocals kept one such box that the padded test does not). Every kernel must give
/// the padded test's answer there too.
#[test]
fn rays_grazing_edges_and_corners_by_a_few_ulps() {
    let mut rng = Pcg32::new(23);
    let boxes = random_boxes(&mut rng, 64, 4.0, [(0.1, 2.0); 3]);
    let mut rays = Vec::new();
    for b in &boxes {
        let (lo, hi) = (b.min(), b.max());
        for _ in 0..24 {
            // A point on an edge (two coordinates at a face, one free) or at a corner.
            let mut p = Vec3::new(rng.range(lo.x, hi.x), rng.range(lo.y, hi.y), rng.range(lo.z, hi.z));
            let free = (rng.next_u32() % 4) as usize; // 3: a corner
            for k in (0..3).filter(|&k| k != free) {
                let at = if rng.next_u32().is_multiple_of(2) { lo[k] } else { hi[k] };
                // Out or in by 0 to 8 ulps of the box's scale.
                let ulps = (rng.next_u32() % 9) as f32 - 4.0;
                let away = if at == lo[k] { -1.0 } else { 1.0 };
                p[k] = at + away * ulps * f32::EPSILON * (hi - lo).max_element();
            }
            let o = p + rng.unit_vector() * rng.range(2.0, 30.0);
            let t_min = if rng.next_u32().is_multiple_of(4) { -1.0 } else { 0.0 };
            rays.push(Ray3::with_range(o, p - o, t_min, f32::INFINITY));
        }
    }
    let kept_near_misses = rays
        .iter()
        .flat_map(|r| boxes.iter().map(move |b| (r, b)))
        .filter(|&(r, b)| reference_hit(b, r) && b.ray_span(r).is_none())
        .count();
    assert!(kept_near_misses >= 20, "too few rays in the padding band to mean much: {kept_near_misses}");
    check(&boxes, &rays, "grazing");
}

/// `v` with its `k` coordinate multiplied by `s`.
fn squash(mut v: Vec3, k: usize, s: f32) -> Vec3 {
    v[k] *= s;
    v
}

/// Checks `BoxSoup` on rays its `reference_hit` does not model (a direction component
/// whose reciprocal overflows): on every kernel, every box `ray_span` enters is counted,
/// and every kernel counts the scalar kernel's boxes. Returns the boxes entered and those
/// counted (by the scalar kernel), summed over the rays.
fn check_conservative(boxes: &[Aabb3], rays: &[Ray3], what: &str) -> (usize, usize) {
    let soup = BoxSoup::new(boxes);
    let mut flags = vec![false; boxes.len()];
    let (mut entered, mut counted) = (0, 0);
    for ray in rays {
        let exact: Vec<bool> = boxes.iter().map(|b| b.ray_span(ray).is_some()).collect();
        entered += exact.iter().filter(|&&h| h).count();
        let mut scalar: Option<Vec<bool>> = None;
        with_each_kernel(|kernel| {
            soup.hit_flags(ray, &mut flags);
            if let Some(i) = (0..boxes.len()).find(|&i| exact[i] && !flags[i]) {
                panic!("{what}, kernel {kernel}: box {i} {:?} entered by {ray:?}, not counted", boxes[i]);
            }
            let count = flags.iter().filter(|&&h| h).count();
            assert_eq!(soup.count_hits(ray), count, "{what}, kernel {kernel}: count for {ray:?}");
            match &scalar {
                None => {
                    assert_eq!(kernel, "scalar");
                    scalar = Some(flags.clone());
                    counted += count;
                }
                Some(want) => {
                    assert!(&flags == want, "{what}, kernel {kernel}: not the scalar kernel's boxes, {ray:?}")
                }
            }
        });
    }
    (entered, counted)
}

/// Whether `1 / d` overflows for a component `d` that is not zero.
fn overflows(d: f32) -> bool {
    d != 0.0 && !(1.0 / d).is_finite()
}

/// The `t_min` of ray `i`: both signs, lines from `-inf` and `-1e30`.
fn t_min_of(i: usize) -> f32 {
    [f32::NEG_INFINITY, -1e30, -3.0, -0.0, 0.0, 0.25][i % 6]
}

/// Rays with subnormal direction components in scenes squashed along one axis by `2^-131`
/// to `2^-146` (so that the rays' components on it are subnormal and their reciprocals
/// overflow), from `t_min` of both signs and from inside the scene (boxes behind the
/// origin): no kernel misses a box that `ray_span` enters, and every kernel counts the
/// scalar kernel's boxes. (The padded test of `reference_hit` takes such a ray for one
/// parallel to the axis, and misses the boxes it enters far along.) Here the rays cross
/// the whole scene along the squashed axis, the worst case for the soup's test, which
/// learns from that axis only whether a box lies beside the ray's whole travel
/// (`reach` in the kernels): it counts boxes that the other two axes alone would let in.
#[test]
fn rays_with_subnormal_direction_components_in_a_squashed_scene() {
    let (mut entered, mut counted, mut overflowed, mut behind) = (0, 0, 0, 0);
    for (scene, (k, e)) in [(0, -131), (1, -136), (2, -141), (1, -146)].into_iter().enumerate() {
        let s = 2f64.powi(e) as f32; // (`2f32.powi(e)` is 0 below 2^-127: its reciprocal overflows)
        let mut rng = Pcg32::new(90 + scene as u64);
        let boxes: Vec<Aabb3> = random_boxes(&mut rng, 1001, 10.0, [(0.0, 3.0), (0.0, 3.0), (0.0, 2.0)])
            .iter()
            .map(|b| Aabb3::new(squash(b.min(), k, s), squash(b.max(), k, s)))
            .collect();
        let rays: Vec<Ray3> = (0..1000)
            .map(|i| {
                // From a ball around the boxes, or from among them.
                let o = if i % 3 == 0 {
                    Vec3::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0), rng.range(-10.0, 10.0))
                } else {
                    rng.unit_vector() * 20.0
                };
                let o = squash(o, k, s);
                let target =
                    squash(Vec3::new(rng.range(-9.0, 9.0), rng.range(-9.0, 9.0), rng.range(-9.0, 9.0)), k, s);
                let mut d = target - o;
                if i % 7 == 0 {
                    d[(k + 1 + i % 2) % 3] = 0.0;
                }
                let t_max = if i % 5 == 0 { rng.range(0.3, 1.0) } else { f32::INFINITY };
                Ray3::with_range(o, d, t_min_of(i), t_max)
            })
            .collect();
        overflowed += rays.iter().filter(|r| overflows(r.dir()[k])).count();
        behind += rays
            .iter()
            .map(|r| boxes.iter().filter(|b| b.ray_span(r).is_some_and(|s| s.t_exit < 0.0)).count())
            .sum::<usize>();
        let (n, c) = check_conservative(&boxes, &rays, &format!("squashed {k} by 2^{e}"));
        (entered, counted) = (entered + n, counted + c);
    }
    assert!(overflowed > 2_000, "{overflowed} rays with an overflowing reciprocal");
    assert!(entered > 20_000 && behind > 1_000, "{entered} boxes entered, {behind} behind the origin");
    eprintln!("squashed scenes: {counted} boxes counted, {entered} entered");
    // (3.4 times as many: the price of a ray whose reciprocal `f32` cannot hold.)
    assert!(counted < 4 * entered, "{counted} boxes counted, {entered} entered");
}

/// Rays with a subnormal direction component in scenes of ordinary scale: from origins whose
/// coordinate on that axis is ordinary, zero or tiny, towards boxes half of which have a
/// face on `0` or at a tiny coordinate there (where the ray's travel along the axis crosses
/// representable planes). No box entered is missed and the kernels agree. From an ordinary
/// origin coordinate the travel stays within one `f32` step and the count is exact; from 0,
/// a box with a face on 0 counts whether it lies on the side the ray moves to or not (as
/// the parallel test did), about 10% more boxes there; from a tiny coordinate, under 1%.
#[test]
fn rays_with_a_subnormal_direction_component_in_an_ordinary_scene() {
    let (mut entered, mut counted, mut overflowed) = (0, 0, 0);
    for k in 0..3 {
        let mut rng = Pcg32::new(120 + k as u64);
        let tiny = |rng: &mut Pcg32| rng.range(-1.0, 1.0) * 2f64.powi(-135) as f32;
        let mut boxes = random_boxes(&mut rng, 999, 10.0, [(0.0, 3.0), (0.0, 3.0), (0.0, 2.0)]);
        for (i, b) in boxes.iter_mut().enumerate() {
            let (mut min, mut max) = (b.min(), b.max());
            match i % 4 {
                0 => min[k] = [0.0, tiny(&mut rng)][i % 8 / 4],
                1 => max[k] = [0.0, tiny(&mut rng)][i % 8 / 4],
                _ => {}
            }
            *b = Aabb3::new(min.min(max), max.max(min));
        }
        let rays: Vec<Ray3> = (0..1000)
            .map(|i| {
                let mut o = rng.unit_vector() * 20.0;
                o[k] = [o[k], 0.0, tiny(&mut rng)][i % 3];
                let target = Vec3::new(rng.range(-9.0, 9.0), rng.range(-9.0, 9.0), rng.range(-9.0, 9.0));
                let mut d = target - o;
                d[k] = rng.range(-1.0, 1.0) * 2f64.powi(-140) as f32;
                Ray3::with_range(o, d, t_min_of(i), f32::INFINITY)
            })
            .collect();
        overflowed += rays.iter().filter(|r| overflows(r.dir()[k])).count();
        let (n, c) = check_conservative(&boxes, &rays, &format!("subnormal along {k}"));
        (entered, counted) = (entered + n, counted + c);
    }
    assert!(overflowed > 2_500 && entered > 20_000, "{overflowed} rays overflowing, {entered} boxes entered");
    eprintln!("ordinary scenes: {counted} boxes counted, {entered} entered");
    assert!(counted as f64 <= entered as f64 * 1.06, "{counted} boxes counted, {entered} entered");
}
