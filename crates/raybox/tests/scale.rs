//! Triangle and mesh ray casts at every scale (EDGE-CASES entry 8: results are invariant
//! under scaling by powers of two where nothing overflows or underflows).
//!
//! Scaling the vertices and the rays' origins by `2^k` scales every hit's `t` by `2^k` and
//! leaves its triangle and barycentrics alone; scaling the directions by `2^j` scales `t`
//! by `2^-j`. Within the watertight test's `f32` path (twice a sheared triangle's area from
//! `2^-100` to `2^100`) the products scale exactly, so `t` does too, bit for bit; beyond it
//! the `f64` path answers, to within a few `f32` ulps. Checked on every kernel, for single
//! casts, any-hit casts and batches (16- or 8-ray packets on the camera rays).
//!
//! The BVH builders too make the same tree at every power-of-two scale (their surface areas
//! are measured in a unit taken from the root box), checked here by the trees' stats and by
//! ray casts against brute force, and node by node by the unit tests beside `Tree`.

use glam::Vec3;
use raybox::mesh::scene::{self, Pcg32};
use raybox::{Aabb3, BuildQuality, FirstHit, Ray3, RayTriangle, TriMesh, Triangle3, with_each_kernel};

/// A closed icosphere (320 triangles) and a terrain patch beside it, off the origin.
fn scene_data() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let sphere = scene::icosphere(2);
    let terrain = scene::terrain(6, 3);
    let mut vertices: Vec<Vec3> = sphere.vertices.iter().map(|&v| v + Vec3::new(0.3, -0.2, 0.1)).collect();
    let base = vertices.len() as u32;
    vertices.extend(terrain.vertices.iter().map(|&v| v * 2.0 + Vec3::new(-1.0, -1.3, -1.0)));
    let mut indices = sphere.indices.clone();
    indices.extend(terrain.indices.iter().map(|t| t.map(|i| i + base)));
    (vertices, indices)
}

/// 4,096 rays: 64x64 camera rays in 4x4 tiles (coherent, so the batches trace packets),
/// then 1,024 from random points around the scene towards random points inside it.
fn rays() -> Vec<(Vec3, Vec3)> {
    let mut rays = Vec::new();
    let eye = Vec3::new(0.2, 0.4, -4.0);
    for tile in 0..256 {
        let (tx, ty) = (tile % 16, tile / 16);
        for i in 0..16 {
            let (x, y) = (tx * 4 + i % 4, ty * 4 + i / 4);
            let px = (x as f32 + 0.5) / 64.0 * 2.4 - 1.2;
            let py = (y as f32 + 0.5) / 64.0 * 2.4 - 1.2;
            rays.push((eye, Vec3::new(px, py, 1.6)));
        }
    }
    let mut rng = Pcg32::new(77);
    for _ in 0..1024 {
        let from = rng.unit_vector() * rng.range(2.5, 3.5);
        let to = rng.unit_vector() * rng.range(0.0, 1.2);
        rays.push((from, to - from));
    }
    rays
}

fn scaled_mesh(vertices: &[Vec3], indices: &[[u32; 3]], scale: f32) -> TriMesh {
    TriMesh::new(vertices.iter().map(|&v| v * scale).collect(), indices.to_vec()).unwrap()
}

/// Whether `got` is `want` with `t` times `factor`: bit for bit when `exact`, else `t`, `u`
/// and `v` within a few ulps (relative `4e-7` for `t`, `2e-7` absolute for the weights).
fn same_hit(got: Option<FirstHit>, want: Option<FirstHit>, factor: f32, exact: bool) -> bool {
    match (got, want) {
        (None, None) => true,
        (Some(g), Some(w)) => {
            let t = w.t * factor;
            g.triangle == w.triangle
                && if exact {
                    g.t == t && g.u == w.u && g.v == w.v
                } else {
                    (g.t - t).abs() <= 4e-7 * t.abs()
                        && (g.u - w.u).abs() <= 2e-7
                        && (g.v - w.v).abs() <= 2e-7
                }
        }
        _ => false,
    }
}

#[test]
fn mesh_casts_scale_with_the_scene_on_every_kernel() {
    let (vertices, indices) = scene_data();
    let base = scaled_mesh(&vertices, &indices, 1.0);
    let rays = rays();
    let base_rays: Vec<Ray3> = rays.iter().map(|&(o, d)| Ray3::new(o, d)).collect();
    with_each_kernel(|kernel| {
        let want: Vec<Option<FirstHit>> = base_rays.iter().map(|r| base.first_hit(r)).collect();
        let hits = want.iter().filter(|h| h.is_some()).count();
        assert!(hits > 1000 && hits < 3900, "{kernel}: {hits} of 4,096 rays hit at scale 1");
        for k in (-120..=120).step_by(5) {
            let scale = 2f32.powi(k);
            let mesh = scaled_mesh(&vertices, &indices, scale);
            let scaled: Vec<Ray3> = rays.iter().map(|&(o, d)| Ray3::new(o * scale, d)).collect();
            // Twice a triangle's area scales by 4^k: the f32 path holds all of them for
            // |k| <= 20 here (the smallest is ~1e-4 at k = 0, grazing rays aside).
            let exact = k.abs() <= 20;
            let batch = mesh.first_hits(&scaled);
            let occluded = mesh.occluded_rays(&scaled);
            for (i, ray) in scaled.iter().enumerate() {
                let single = mesh.first_hit(ray);
                assert!(
                    same_hit(single, want[i], scale, exact),
                    "{kernel} 2^{k}: ray {i} {:?}: {single:?}, want {:?} scaled",
                    rays[i],
                    want[i]
                );
                assert_eq!(batch[i], single, "{kernel} 2^{k}: batch against single cast, ray {i}");
                assert_eq!(mesh.occluded(ray), want[i].is_some(), "{kernel} 2^{k}: occluded, ray {i}");
                assert_eq!(occluded[i], want[i].is_some(), "{kernel} 2^{k}: occluded_rays, ray {i}");
            }
        }
    });
}

#[test]
fn mesh_casts_scale_with_the_direction_on_every_kernel() {
    let (vertices, indices) = scene_data();
    let mesh = scaled_mesh(&vertices, &indices, 1.0);
    let rays = rays();
    with_each_kernel(|kernel| {
        let want: Vec<Option<FirstHit>> =
            rays.iter().map(|&(o, d)| mesh.first_hit(&Ray3::new(o, d))).collect();
        for j in (-100..=100).step_by(10) {
            let scale = 2f32.powi(j);
            let scaled: Vec<Ray3> = rays.iter().map(|&(o, d)| Ray3::new(o, d * scale)).collect();
            let batch = mesh.first_hits(&scaled);
            for (i, ray) in scaled.iter().enumerate() {
                let single = mesh.first_hit(ray);
                // The sheared vertices do not change; `t` is the same sum times 2^-j.
                assert!(
                    same_hit(single, want[i], 1.0 / scale, true),
                    "{kernel} dir 2^{j}: ray {i}: {single:?}, want {:?} scaled",
                    want[i]
                );
                assert_eq!(batch[i], single, "{kernel} dir 2^{j}: batch against single cast, ray {i}");
            }
        }
    });
}

#[test]
fn a_triangle_is_hit_at_every_scale() {
    let tri = [Vec3::new(0.25, -0.5, 1.0), Vec3::new(1.5, 0.75, 1.25), Vec3::new(-0.75, 1.0, 0.75)];
    let mut rng = Pcg32::new(5);
    let mut hits = 0;
    for _ in 0..200 {
        // A point of the triangle (or just beside it) and an origin in front of it.
        let (a, b) = (rng.range(-0.1, 1.0), rng.range(-0.1, 1.0));
        let target = tri[0] + (tri[1] - tri[0]) * a * 0.6 + (tri[2] - tri[0]) * b * 0.6;
        let origin = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-3.0, -1.0));
        let want =
            Triangle3::new(tri[0], tri[1], tri[2]).ray_intersection(&Ray3::new(origin, target - origin));
        hits += usize::from(matches!(want, RayTriangle::Hit(_)));
        for k in (-124..=124).step_by(4) {
            let s = 2f32.powi(k);
            let scaled = Triangle3::new(tri[0] * s, tri[1] * s, tri[2] * s);
            let got = scaled.ray_intersection(&Ray3::new(origin * s, target - origin));
            match (got, want) {
                (RayTriangle::Hit(g), RayTriangle::Hit(w)) => {
                    let t = w.t * s;
                    assert!((g.t - t).abs() <= 4e-7 * t, "2^{k}: t {} against {t}", g.t);
                    assert!(
                        (g.u - w.u).abs() <= 2e-7 && (g.v - w.v).abs() <= 2e-7,
                        "2^{k}: {g:?} against {w:?}"
                    );
                    assert_eq!(g.front_facing, w.front_facing);
                    if k.abs() <= 40 {
                        assert_eq!((g.t, g.u, g.v), (t, w.u, w.v), "2^{k}: not exactly scaled");
                    }
                }
                (g, w) => assert_eq!(g, w, "2^{k}: ray from {origin} to {target}"),
            }
        }
    }
    assert!(hits > 100 && hits < 200, "{hits} of 200 rays hit at scale 1");
}

/// A ray along `+x` with a subnormal `y` component, `2^-140`, whose reciprocal overflows
/// `f32`, and a target whose lower side sits at `y = 2^-138`, which the ray reaches at
/// `x = 4` and crosses by `x = 10` (where `y = 10 * 2^-140`).
fn subnormal_ray() -> Ray3 {
    Ray3::new(Vec3::ZERO, Vec3::new(1.0, 2f32.powi(-140), 0.0))
}

#[test]
fn a_ray_with_a_subnormal_direction_component_finds_a_mesh_on_every_kernel() {
    let low = 2f32.powi(-138);
    // The target triangle (index 0) at x = 10, and an icosphere above it, so that the tree
    // has nodes to walk.
    let mut vertices = vec![Vec3::new(10.0, low, -1.0), Vec3::new(10.0, low, 1.0), Vec3::new(10.0, 1.0, 0.0)];
    let mut indices = vec![[0, 1, 2]];
    let sphere = scene::icosphere(2);
    indices.extend(sphere.indices.iter().map(|t| t.map(|i| i + 3)));
    vertices.extend(sphere.vertices.iter().map(|&v| v + Vec3::new(3.0, 5.0, 0.0)));
    let mesh = TriMesh::new(vertices, indices).unwrap();
    let ray = subnormal_ray();
    let lower = Ray3::new(Vec3::new(0.0, -2f32.powi(-130), 0.0), ray.dir());
    with_each_kernel(|kernel| {
        let hit = mesh.first_hit(&ray);
        assert_eq!(hit.map(|h| (h.triangle, h.t)), Some((0, 10.0)), "{kernel}: first_hit");
        assert_eq!(mesh.cast_ray(&ray).map(|h| h.t), Some(10.0), "{kernel}: cast_ray");
        assert!(mesh.occluded(&ray), "{kernel}: occluded");
        // Batches (the interleaved walks test the root box first).
        let rays = vec![ray; 40];
        assert!(mesh.first_hits(&rays).iter().all(|h| h.map(|h| h.t) == Some(10.0)), "{kernel}: first_hits");
        assert!(mesh.occluded_rays(&rays).iter().all(|&o| o), "{kernel}: occluded_rays");
        // Started 2^-130 lower, the ray is still below the triangle at x = 10: a miss.
        assert_eq!(mesh.first_hit(&lower), None, "{kernel}: the lower ray");
    });
}

#[test]
fn a_ray_with_a_subnormal_direction_component_finds_a_box_in_a_bvh() {
    use raybox::{Aabb3, BuildQuality, Bvh, RayCast};
    let low = 2f32.powi(-138);
    let mut boxes = vec![Aabb3::new(Vec3::new(10.0, low, -1.0), Vec3::new(11.0, 1.0, 1.0))];
    let mut rng = Pcg32::new(3);
    for _ in 0..200 {
        let c = Vec3::new(rng.range(-20.0, 20.0), rng.range(2.0, 20.0), rng.range(-20.0, 20.0));
        boxes.push(Aabb3::new(c, c + Vec3::splat(0.5)));
    }
    let ray = subnormal_ray();
    for quality in [BuildQuality::Fast, BuildQuality::Balanced] {
        let bvh = Bvh::build(&boxes, quality).unwrap();
        with_each_kernel(|kernel| {
            let hit = bvh.cast_ray(&ray, |i, r| boxes[i as usize].cast_ray(r).map(|h| h.t));
            // The entry is at x = 10 (y reached the box at t = 2^-138 / 2^-140 = 4).
            assert_eq!(hit, Some((0, 10.0)), "{quality:?} {kernel}: cast_ray");
            let any = bvh.any_hit(&ray, |i, r| boxes[i as usize].cast_ray(r).is_some());
            assert_eq!(any, Some(0), "{quality:?} {kernel}: any_hit");
        });
    }
}

/// `2^e` for `e` down to `-149` (`2f32.powi(e)` may compute `1 / 2^-e`, which is 0 below
/// `-127`).
fn pow2(e: i32) -> f32 {
    2f64.powi(e) as f32
}

/// Lines (`t_min < 0`) along `subnormal_ray`'s direction: a target ahead, at `x = 10`, whose
/// lower side `y = 2^-138` the line crosses at `t = 4` (a near plane the origin is below),
/// and one behind, at `x = -10`, whose upper side `y = -2^-138` the line crossed at `t = -4`
/// (a far plane the origin is above). With `1 / 2^-140` overflowing to `inf`, each side's
/// slab `t` was `±inf` where the exact one is `±4`: the walks took the line for one
/// parallel to `y = 0` and skipped both.
fn targets_ahead_and_behind() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let low = pow2(-138);
    let mut vertices = vec![
        Vec3::new(10.0, low, -1.0),
        Vec3::new(10.0, low, 1.0),
        Vec3::new(10.0, 1.0, 0.0),
        Vec3::new(-10.0, -low, -1.0),
        Vec3::new(-10.0, -low, 1.0),
        Vec3::new(-10.0, -1.0, 0.0),
    ];
    let mut indices = vec![[0, 1, 2], [3, 4, 5]];
    // Icospheres above and below, so that the tree has nodes to walk.
    let sphere = scene::icosphere(2);
    for offset in [Vec3::new(3.0, 5.0, 0.0), Vec3::new(-4.0, -6.0, 1.0)] {
        let base = vertices.len() as u32;
        indices.extend(sphere.indices.iter().map(|t| t.map(|i| i + base)));
        vertices.extend(sphere.vertices.iter().map(|&v| v + offset));
    }
    (vertices, indices)
}

#[test]
fn a_line_with_a_subnormal_direction_component_finds_a_mesh_ahead_and_behind_on_every_kernel() {
    let (vertices, indices) = targets_ahead_and_behind();
    let mesh = TriMesh::new(vertices.clone(), indices).unwrap();
    let (o, d) = (Vec3::ZERO, subnormal_ray().dir());
    // (ray, the expected first hit): from -inf and from -1e30 the one behind comes first;
    // from -5 only the one ahead is in range; up to 0 only the one behind.
    let cases = [
        (Ray3::with_range(o, d, f32::NEG_INFINITY, f32::INFINITY), Some((1, -10.0))),
        (Ray3::with_range(o, d, -1e30, f32::INFINITY), Some((1, -10.0))),
        (Ray3::with_range(o, d, -5.0, f32::INFINITY), Some((0, 10.0))),
        (Ray3::with_range(o, d, -5.0, 20.0), Some((0, 10.0))),
        (Ray3::with_range(o, d, f32::NEG_INFINITY, 0.0), Some((1, -10.0))),
        (Ray3::with_range(o, d, -9.0, 9.0), None),
        // Started 2^-128 lower, the line passes below the target ahead (a miss there) and
        // still through the one behind.
        (Ray3::with_range(Vec3::new(0.0, -pow2(-128), 0.0), d, -5.0, f32::INFINITY), None),
        (Ray3::with_range(Vec3::new(0.0, -pow2(-128), 0.0), d, -20.0, f32::INFINITY), Some((1, -10.0))),
    ];
    for (ray, want) in cases {
        // The brute force agrees (every triangle, the exact watertight test).
        let brute = (0..2)
            .filter_map(|i| {
                let tri = Triangle3::new(vertices[3 * i], vertices[3 * i + 1], vertices[3 * i + 2]);
                match tri.ray_intersection(&ray) {
                    RayTriangle::Hit(h) => Some((i as u32, h.t)),
                    _ => None,
                }
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        assert_eq!(brute, want, "brute force, {ray:?}");
        with_each_kernel(|kernel| {
            let hit = mesh.first_hit(&ray).map(|h| (h.triangle, h.t));
            assert_eq!(hit, want, "{kernel}: first_hit of {ray:?}");
            assert_eq!(mesh.cast_ray(&ray).map(|h| (h.triangle, h.t)), want, "{kernel}: cast_ray of {ray:?}");
            assert_eq!(mesh.occluded(&ray), want.is_some(), "{kernel}: occluded by {ray:?}");
            // Batches (the interleaved walks test the root box first).
            let rays = vec![ray; 40];
            let firsts = mesh.first_hits(&rays);
            assert!(
                firsts.iter().all(|h| h.map(|h| (h.triangle, h.t)) == want),
                "{kernel}: first_hits {ray:?}"
            );
            assert!(
                mesh.occluded_rays(&rays).iter().all(|&o| o == want.is_some()),
                "{kernel}: occluded_rays"
            );
        });
    }
}

#[test]
fn a_line_with_a_subnormal_direction_component_finds_boxes_ahead_and_behind_in_a_bvh() {
    use raybox::{Bvh, RayCast};
    let low = pow2(-138);
    let mut boxes = vec![
        Aabb3::new(Vec3::new(10.0, low, -1.0), Vec3::new(11.0, 1.0, 1.0)),
        Aabb3::new(Vec3::new(-11.0, -1.0, -1.0), Vec3::new(-10.0, -low, 1.0)),
    ];
    let mut rng = Pcg32::new(3);
    for _ in 0..200 {
        let side = if rng.next_u32().is_multiple_of(2) { 1.0 } else { -1.0 };
        let c = Vec3::new(rng.range(-20.0, 20.0), side * rng.range(2.0, 20.0), rng.range(-20.0, 20.0));
        boxes.push(Aabb3::new(c, c + Vec3::splat(0.5)));
    }
    let d = subnormal_ray().dir();
    let cases = [
        (Ray3::with_range(Vec3::ZERO, d, f32::NEG_INFINITY, f32::INFINITY), Some((1, -11.0))),
        (Ray3::with_range(Vec3::ZERO, d, -1e30, 1e30), Some((1, -11.0))),
        (Ray3::with_range(Vec3::ZERO, d, -5.0, f32::INFINITY), Some((0, 10.0))),
        (Ray3::with_range(Vec3::ZERO, d, -9.0, 9.0), None),
    ];
    for (ray, want) in cases {
        let brute = (0..boxes.len())
            .filter_map(|i| boxes[i].ray_span(&ray).map(|s| (i as u32, s.t_enter)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        assert_eq!(brute, want, "brute force, {ray:?}");
        for quality in [BuildQuality::Fast, BuildQuality::Balanced] {
            let bvh = Bvh::build(&boxes, quality).unwrap();
            with_each_kernel(|kernel| {
                let hit = bvh.cast_ray(&ray, |i, r| boxes[i as usize].ray_span(r).map(|s| s.t_enter));
                assert_eq!(hit, want, "{quality:?} {kernel}: cast_ray of {ray:?}");
                let any = bvh.any_hit(&ray, |i, r| boxes[i as usize].ray_span(r).is_some());
                assert_eq!(any.is_some(), want.is_some(), "{quality:?} {kernel}: any_hit of {ray:?}");
                let all: Vec<u32> = bvh
                    .all_hits(&ray, |i, r| boxes[i as usize].ray_span(r).map(|s| s.t_enter))
                    .iter()
                    .map(|h| h.0)
                    .collect();
                let mut brute_all: Vec<u32> =
                    (0..boxes.len() as u32).filter(|&i| boxes[i as usize].ray_span(&ray).is_some()).collect();
                brute_all.sort_by(|&a, &b| {
                    let t = |i: u32| boxes[i as usize].ray_span(&ray).unwrap().t_enter;
                    t(a).total_cmp(&t(b)).then(a.cmp(&b))
                });
                assert_eq!(all, brute_all, "{quality:?} {kernel}: all_hits of {ray:?}");
            });
        }
    }
}

#[test]
fn a_ray_whose_direction_is_all_below_2_to_the_minus_128_hits_at_2_to_the_120() {
    // `1 / dir[kz]` overflows f32 here; the exact hit, 2^-20 / 2^-140 = 2^120, does not.
    let x = 2f32.powi(-20);
    let tri = [Vec3::new(x, -1.0, -1.0), Vec3::new(x, 1.0, -1.0), Vec3::new(x, 0.0, 1.0)];
    let ray = Ray3::new(Vec3::ZERO, Vec3::new(2f32.powi(-140), 0.0, 0.0));
    let want = 2f32.powi(120);
    let RayTriangle::Hit(hit) = Triangle3::new(tri[0], tri[1], tri[2]).ray_intersection(&ray) else {
        panic!("Triangle3: no hit")
    };
    assert_eq!(hit.t, want, "Triangle3: {hit:?}");
    assert!((hit.u - 0.25).abs() < 1e-6 && (hit.v - 0.5).abs() < 1e-6, "Triangle3: {hit:?}");
    // In a mesh, beside an icosphere, so that the walk tests boxes first.
    let sphere = scene::icosphere(1);
    let mut vertices = tri.to_vec();
    vertices.extend(sphere.vertices.iter().map(|&v| v + Vec3::new(3.0, 4.0, 0.0)));
    let mut indices = vec![[0, 1, 2]];
    indices.extend(sphere.indices.iter().map(|t| t.map(|i| i + 3)));
    let mesh = TriMesh::new(vertices, indices).unwrap();
    with_each_kernel(|kernel| {
        assert_eq!(mesh.first_hit(&ray).map(|h| (h.triangle, h.t)), Some((0, want)), "{kernel}: first_hit");
        assert!(mesh.occluded(&ray), "{kernel}: occluded");
        let batch = mesh.first_hits(&vec![ray; 20]);
        assert!(batch.iter().all(|h| h.map(|h| h.t) == Some(want)), "{kernel}: first_hits");
    });
}

/// The builders at every scale: powers of two from where the bunny's smallest coordinate is
/// about to become subnormal (`2^-112`) to where its largest box is about to overflow.
const TREE_SCALES: [i32; 7] = [-112, -100, -60, 0, 60, 100, 120];
const QUALITIES: [BuildQuality; 3] = [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High];

/// The bunny's triangles' boxes.
fn bunny_boxes(vertices: &[Vec3], indices: &[[u32; 3]]) -> Vec<Aabb3> {
    indices.iter().map(|t| Aabb3::from_points(&t.map(|i| vertices[i as usize])).unwrap()).collect()
}

/// 400 rays from a sphere around the bunny at random points of its box (most hit), scaled.
fn bunny_rays(vertices: &[Vec3], scale: f32) -> Vec<Ray3> {
    let (lo, hi) = vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let (centre, radius) = ((lo + hi) * 0.5, (hi - lo).length());
    let mut rng = Pcg32::new(19);
    (0..400)
        .map(|_| {
            let o = centre + rng.unit_vector() * radius;
            let target = lo + (hi - lo) * Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32());
            Ray3::new(o * scale, (target - o) * scale)
        })
        .collect()
}

/// Found by a review: the SAH measured surface areas in plain `f32`, which overflow beyond
/// extents of about `2^64` and vanish below `2^-63`, so every split cost the same there:
/// the bunny's `Balanced` tree was 52 levels deep with a `NaN` SAH cost at `1e25` (4 at
/// scale 1), and 21 deep with a cost of 0 at `1e-25`. Now every build's stats (the SAH cost
/// a ratio to the root's area) are those of scale 1, bit for bit: for a mesh, a `Bvh` over
/// boxes (also after a refit) and a `Bvh2`; the unit tests beside `Tree` and `TriMesh`
/// compare the trees node by node.
#[test]
fn trees_and_their_stats_do_not_depend_on_the_scale() {
    use raybox::{Aabb2, Bvh, Bvh2};
    let data = raybox::mesh::bunny();
    let flat = |b: &Aabb3| Aabb2::new(b.min().truncate(), b.max().truncate());
    for quality in QUALITIES {
        let mesh = TriMesh::with_quality(data.vertices.clone(), data.indices.clone(), quality).unwrap();
        let boxes = bunny_boxes(&data.vertices, &data.indices);
        let bvh = Bvh::build(&boxes, quality).unwrap();
        let moved: Vec<Aabb3> =
            boxes.iter().enumerate().map(|(i, b)| b.translated(Vec3::X * (i % 5) as f32)).collect();
        let mut refitted = bvh.clone();
        refitted.refit(&moved).unwrap();
        let bvh2 = Bvh2::build(&boxes.iter().map(flat).collect::<Vec<_>>(), quality).unwrap();
        let want = [mesh.bvh_stats(), bvh.stats(), refitted.stats(), bvh2.stats()];
        for s in want {
            assert!(s.sah_cost.is_finite() && s.sah_cost > 1.0, "{quality:?}: {s:?}");
        }
        assert!(mesh.bvh_stats().depth <= 5 && bvh.stats().depth <= 6, "{quality:?}: {want:?}");
        for k in TREE_SCALES {
            let s = 2f32.powi(k);
            let vertices: Vec<Vec3> = data.vertices.iter().map(|&v| v * s).collect();
            let mesh = TriMesh::with_quality(vertices.clone(), data.indices.clone(), quality).unwrap();
            let boxes = bunny_boxes(&vertices, &data.indices);
            let mut bvh = Bvh::build(&boxes, quality).unwrap();
            bvh.validate(&boxes).unwrap();
            let built = bvh.stats();
            let moved: Vec<Aabb3> =
                boxes.iter().enumerate().map(|(i, b)| b.translated(Vec3::X * ((i % 5) as f32 * s))).collect();
            bvh.refit(&moved).unwrap();
            bvh.validate(&moved).unwrap();
            let bvh2 = Bvh2::build(&boxes.iter().map(flat).collect::<Vec<_>>(), quality).unwrap();
            let got = [mesh.bvh_stats(), built, bvh.stats(), bvh2.stats()];
            assert_eq!(got, want, "{quality:?} 2^{k}: mesh, Bvh, refitted Bvh, Bvh2");
        }
    }
}

/// The scaled bunny's trees answer ray casts as brute force does, at every scale and
/// quality, on every kernel: the mesh's closest hit and occlusion against every triangle's
/// watertight test, and a `Bvh` over the triangles' boxes against every box's slab test.
#[test]
fn scaled_trees_agree_with_brute_force() {
    use raybox::{Bvh, RayCast};
    let data = raybox::mesh::bunny();
    for k in TREE_SCALES {
        let s = 2f32.powi(k);
        let vertices: Vec<Vec3> = data.vertices.iter().map(|&v| v * s).collect();
        let triangles: Vec<Triangle3> = data
            .indices
            .iter()
            .filter_map(|t| {
                Triangle3::try_new(vertices[t[0] as usize], vertices[t[1] as usize], vertices[t[2] as usize])
                    .ok()
            })
            .collect();
        let boxes = bunny_boxes(&vertices, &data.indices);
        let rays = bunny_rays(&data.vertices, s);
        let mesh_want: Vec<Option<f32>> = rays
            .iter()
            .map(|r| {
                triangles
                    .iter()
                    .filter_map(|t| match t.ray_intersection(r) {
                        RayTriangle::Hit(h) => Some(h.t),
                        _ => None,
                    })
                    .min_by(f32::total_cmp)
            })
            .collect();
        let box_want: Vec<Option<f32>> = rays
            .iter()
            .map(|r| boxes.iter().filter_map(|b| b.ray_span(r).map(|s| s.t_enter)).min_by(f32::total_cmp))
            .collect();
        let hits = mesh_want.iter().filter(|h| h.is_some()).count();
        assert!(hits > 100 && hits < 390, "2^{k}: {hits} of 400 rays hit");
        for quality in QUALITIES {
            let mesh = TriMesh::with_quality(vertices.clone(), data.indices.clone(), quality).unwrap();
            let bvh = Bvh::build(&boxes, quality).unwrap();
            with_each_kernel(|kernel| {
                for (i, ray) in rays.iter().enumerate() {
                    let what = format!("2^{k} {quality:?} {kernel}: ray {i}");
                    assert_eq!(mesh.first_hit(ray).map(|h| h.t), mesh_want[i], "{what}: mesh");
                    assert_eq!(mesh.occluded(ray), mesh_want[i].is_some(), "{what}: occluded");
                    let got = bvh.cast_ray(ray, |j, r| boxes[j as usize].ray_span(r).map(|s| s.t_enter));
                    assert_eq!(got.map(|g| g.1), box_want[i], "{what}: Bvh");
                }
                let batch: Vec<Option<f32>> = mesh.first_hits(&rays).iter().map(|h| h.map(|h| h.t)).collect();
                assert_eq!(batch, mesh_want, "2^{k} {quality:?} {kernel}: first_hits");
            });
        }
    }
}
