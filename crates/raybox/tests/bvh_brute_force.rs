//! Every BVH and mesh query against brute force (testing every primitive), for every
//! build quality, before and after `refit`, on the scalar kernel and each SIMD kernel the
//! CPU has.

use glam::Vec3;
use raybox::mesh::scene::{self, Pcg32};
use raybox::{
    Aabb3, BuildQuality, Bvh, ClosestPoint, MeshData, Overlaps, Ray3, RayCast, RayTriangle, Sphere, TriMesh,
    Triangle3, with_each_kernel,
};

const QUALITIES: [BuildQuality; 3] = [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High];

fn random_boxes(n: usize, seed: u64) -> Vec<Aabb3> {
    let mut rng = Pcg32::new(seed);
    (0..n)
        .map(|_| {
            let c = Vec3::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0), rng.range(-10.0, 10.0));
            let h = Vec3::new(rng.range(0.0, 1.0), rng.range(0.0, 1.0), rng.range(0.0, 0.5));
            Aabb3::from_center_half_extents(c, h)
        })
        .collect()
}

/// Rays from a ball of radius 15 around the scene, aimed at random points inside it (so
/// many hit), some with bounded `t_max`, some axis-parallel, some starting at `t_min < 0`.
fn random_rays(n: usize, seed: u64) -> Vec<Ray3> {
    let mut rng = Pcg32::new(seed);
    (0..n)
        .map(|i| {
            let o = rng.unit_vector() * 15.0;
            let target = Vec3::new(rng.range(-8.0, 8.0), rng.range(-8.0, 8.0), rng.range(-8.0, 8.0));
            let mut d = target - o;
            if i % 7 == 0 {
                // Axis-parallel: zero out two components (some -0.0).
                let k = i % 3;
                d = Vec3::ZERO;
                d[k] = if i % 2 == 0 { 1.0 } else { -1.0 };
            }
            let t_max = if i % 3 == 0 { rng.range(0.2, 1.0) } else { f32::INFINITY };
            let t_min = if i % 11 == 0 { -5.0 } else { 0.0 };
            Ray3::with_range(o, d, t_min, t_max)
        })
        .collect()
}

fn brute_closest(boxes: &[Aabb3], ray: &Ray3) -> Option<f32> {
    boxes.iter().filter_map(|b| b.ray_span(ray).map(|s| s.t_enter)).min_by(f32::total_cmp)
}

#[test]
fn bvh_queries_match_brute_force() {
    let boxes = random_boxes(3000, 1);
    let rays = random_rays(3000, 2);
    let mut moved = boxes.clone();
    let mut rng = Pcg32::new(3);
    for b in &mut moved {
        *b = b.translated(Vec3::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)));
    }
    let mut checked = 0;
    let mut hits = 0;
    for quality in QUALITIES {
        let mut bvh = Bvh::build(&boxes, quality).unwrap();
        bvh.validate(&boxes).unwrap();
        for (stage, prims) in [("built", &boxes), ("refitted", &moved)] {
            if stage == "refitted" {
                bvh.refit(&moved).unwrap();
                bvh.validate(&moved).unwrap();
            }
            with_each_kernel(|kernel| {
                for ray in &rays {
                    let got = bvh.cast_ray(ray, |i, r| prims[i as usize].ray_span(r).map(|s| s.t_enter));
                    let want = brute_closest(prims, ray);
                    assert_eq!(
                        got.map(|g| g.1),
                        want,
                        "{quality:?} {stage} {kernel}: closest hit of {ray:?}"
                    );
                    if let Some((i, t)) = got {
                        assert_eq!(prims[i as usize].ray_span(ray).unwrap().t_enter, t);
                        hits += 1;
                    }
                    let any = bvh.any_hit(ray, |i, r| prims[i as usize].ray_span(r).is_some());
                    assert_eq!(any.is_some(), want.is_some(), "{quality:?} {stage} {kernel}: any hit");
                    checked += 1;
                }
            });
            // All hits, box and sphere overlaps, nearest: kernel-independent walks or ray walks
            // checked once.
            for ray in rays.iter().take(300) {
                let all: Vec<u32> = bvh
                    .all_hits(ray, |i, r| prims[i as usize].ray_span(r).map(|s| s.t_enter))
                    .iter()
                    .map(|h| h.0)
                    .collect();
                let mut want: Vec<(f32, u32)> = (0..prims.len() as u32)
                    .filter_map(|i| prims[i as usize].ray_span(ray).map(|s| (s.t_enter, i)))
                    .collect();
                want.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                assert_eq!(all, want.iter().map(|w| w.1).collect::<Vec<_>>());
            }
            let mut rng = Pcg32::new(4);
            for _ in 0..300 {
                let c = Vec3::new(rng.range(-12.0, 12.0), rng.range(-12.0, 12.0), rng.range(-12.0, 12.0));
                let q = Aabb3::from_center_half_extents(c, Vec3::splat(rng.range(0.0, 2.0)));
                let mut got = Vec::new();
                bvh.for_each_overlapping_aabb(&q, |i| got.push(i));
                got.sort();
                let want: Vec<u32> =
                    (0..prims.len() as u32).filter(|&i| prims[i as usize].overlaps(&q)).collect();
                assert_eq!(got, want);
                let s = Sphere::new(c, rng.range(0.0, 2.0));
                let mut got = Vec::new();
                bvh.for_each_overlapping_sphere(&s, |i| got.push(i));
                got.sort();
                let want: Vec<u32> =
                    (0..prims.len() as u32).filter(|&i| s.overlaps(&prims[i as usize])).collect();
                assert_eq!(got, want);
                let (_, d) = bvh.nearest(c, |i, _| Some(prims[i as usize].distance_to_point(c))).unwrap();
                let want = prims.iter().map(|b| b.distance_to_point(c)).fold(f32::INFINITY, f32::min);
                assert_eq!(d, want, "nearest to {c}");
            }
        }
    }
    assert!(checked >= 3 * 2 * 3000);
    assert!(hits > checked / 5, "too few hits ({hits} of {checked}) for the test to mean much");
}

#[test]
fn degenerate_bvh_inputs() {
    for quality in QUALITIES {
        // Nothing at all.
        let mut empty = Bvh::build(&[], quality).unwrap();
        assert!(empty.is_empty() && empty.bounds().is_none());
        let ray = Ray3::new(Vec3::ZERO, Vec3::X);
        assert_eq!(empty.cast_ray(&ray, |_, _| Some(0.0)), None);
        // `refit` of the empty tree read its root (`ChildRef::EMPTY`, leaf bit set) as a
        // leaf and panicked (found by an audit).
        empty.refit(&[]).unwrap();
        assert!(empty.is_empty() && empty.bounds().is_none());
        let mut empty_2d = raybox::Bvh2::build(&[], quality).unwrap();
        empty_2d.refit(&[]).unwrap();
        // One point box; many identical boxes; boxes at ±f32::MAX.
        let point = [Aabb3::new(Vec3::ONE, Vec3::ONE)];
        let same = vec![Aabb3::new(Vec3::ZERO, Vec3::ONE); 1000];
        let huge: Vec<Aabb3> = (0..10)
            .map(|i| {
                let s = if i % 2 == 0 { f32::MAX } else { -f32::MAX };
                Aabb3::new(Vec3::splat(s.min(0.0)), Vec3::splat(s.max(0.0)))
            })
            .collect();
        for boxes in [&point[..], &same[..], &huge[..]] {
            let bvh = Bvh::build(boxes, quality).unwrap();
            bvh.validate(boxes).unwrap();
            for r in random_rays(200, 9) {
                let got =
                    bvh.cast_ray(&r, |i, r| boxes[i as usize].ray_span(r).map(|s| s.t_enter)).map(|h| h.1);
                assert_eq!(got, brute_closest(boxes, &r));
            }
        }
    }
}

/// The brute-force closest hit on a mesh: every non-degenerate triangle, with the same
/// watertight test.
fn mesh_brute(data: &MeshData, ray: &Ray3) -> Option<f32> {
    data.indices
        .iter()
        .filter_map(|t| {
            let tri = Triangle3::try_new(
                data.vertices[t[0] as usize],
                data.vertices[t[1] as usize],
                data.vertices[t[2] as usize],
            )
            .ok()?;
            match tri.ray_intersection(ray) {
                RayTriangle::Hit(h) => Some(h.t),
                _ => None,
            }
        })
        .min_by(f32::total_cmp)
}

#[test]
fn mesh_ray_casts_match_brute_force() {
    let scenes = [
        ("bunny", raybox::mesh::bunny()),
        ("soup", scene::triangle_soup(2000, 0.3, 5)),
        ("terrain", scene::terrain(24, 6)),
    ];
    for (name, data) in scenes {
        let (lo, hi) =
            data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
        let (centre, radius) = ((lo + hi) * 0.5, (hi - lo).length());
        let mut rng = Pcg32::new(7);
        let rays: Vec<Ray3> = (0..1500)
            .map(|_| {
                let o = centre + rng.unit_vector() * radius;
                let target = lo + (hi - lo) * Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32());
                Ray3::new(o, target - o)
            })
            .collect();
        for quality in QUALITIES {
            let mesh = TriMesh::with_quality(data.vertices.clone(), data.indices.clone(), quality).unwrap();
            let mut hits = 0;
            with_each_kernel(|kernel| {
                for ray in &rays {
                    let got = mesh.cast_ray(ray);
                    let want = mesh_brute(&data, ray);
                    assert_eq!(got.map(|h| h.t), want, "{name} {quality:?} {kernel}: {ray:?}");
                    // The lean closest hit is the same hit, bit for bit, and its details are
                    // `cast_ray`'s.
                    let first = mesh.first_hit(ray);
                    assert_eq!(
                        first.map(|h| (h.t.to_bits(), h.triangle, h.u.to_bits(), h.v.to_bits())),
                        got.map(|h| (h.t.to_bits(), h.triangle, h.u.to_bits(), h.v.to_bits())),
                        "{name} {quality:?} {kernel}: first_hit"
                    );
                    assert_eq!(first.and_then(|h| mesh.hit_details(ray, &h)), got, "{name}: hit_details");
                    assert_eq!(mesh.occluded(ray), want.is_some(), "{name} {quality:?} {kernel}: occluded");
                    if let Some(h) = got {
                        hits += 1;
                        let [a, b, c] = data.indices[h.triangle as usize].map(|i| data.vertices[i as usize]);
                        let p = a * (1.0 - h.u - h.v) + b * h.u + c * h.v;
                        assert!(
                            (p - h.point).length() <= 1e-4 * radius,
                            "barycentrics do not give the point"
                        );
                    }
                }
            });
            assert!(hits > rays.len() / 4, "{name}: only {hits} hits");
            let batch = mesh.cast_rays(&rays);
            let one_by_one: Vec<_> = rays.iter().map(|r| mesh.cast_ray(r)).collect();
            assert_eq!(batch, one_by_one);
            let firsts: Vec<_> = rays.iter().map(|r| mesh.first_hit(r)).collect();
            assert_eq!(mesh.first_hits(&rays), firsts);
            let occl: Vec<bool> = rays.iter().map(|r| mesh.occluded(r)).collect();
            assert_eq!(mesh.occluded_rays(&rays), occl);
        }
    }
}

/// The lean batch (`first_hits`, packets on coherent rays) finds `cast_rays`' hits, bit for
/// bit, on camera rays in 4x4 tiles (which go as packets) and on scattered rays, with
/// `t_min`/`t_max` limits; and a reused output vector is overwritten whole.
#[test]
fn first_hits_are_cast_rays_without_the_details() {
    for (name, data) in [("bunny", raybox::mesh::bunny()), ("terrain", scene::terrain(60, 2))] {
        let mesh = TriMesh::from_data(data.clone()).unwrap();
        let (lo, hi) =
            data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
        let (centre, extent) = ((lo + hi) * 0.5, (hi - lo).length());
        let eye = centre + Vec3::new(0.3, 0.6, 1.0).normalize() * extent * 1.2;
        let forward = (centre - eye).normalize();
        let right = forward.cross(Vec3::Y).normalize();
        let up = right.cross(forward);
        let side = 128;
        let mut rng = Pcg32::new(3);
        let mut rays: Vec<Ray3> = (0..side * side)
            .map(|i| {
                let (tile, j) = (i / 16, i % 16);
                let (x, y) = (4 * (tile % (side / 4)) + j % 4, 4 * (tile / (side / 4)) + j / 4);
                let (x, y) = (x as f32 / side as f32 - 0.5, y as f32 / side as f32 - 0.5);
                let (t_min, t_max) = if tile % 5 == 0 {
                    (rng.range(0.0, 0.5) * extent, rng.range(0.8, 1.6) * extent)
                } else {
                    (0.0, f32::INFINITY)
                };
                Ray3::with_range(eye, forward + (right * x + up * y) * 0.8, t_min, t_max)
            })
            .collect();
        rays.extend(
            (0..2000).map(|_| Ray3::new(centre + rng.unit_vector() * extent * 0.3, rng.unit_vector())),
        );
        let full = mesh.cast_rays(&rays);
        let bits = |h: Option<raybox::FirstHit>| {
            h.map(|h| (h.t.to_bits(), h.triangle, h.u.to_bits(), h.v.to_bits()))
        };
        let want: Vec<_> = full
            .iter()
            .map(|h| h.map(|h| (h.t.to_bits(), h.triangle, h.u.to_bits(), h.v.to_bits())))
            .collect();
        let mut out = vec![Some(raybox::FirstHit { t: -1.0, triangle: 7, u: 0.0, v: 0.0 }); rays.len()];
        mesh.first_hits_into(&rays, &mut out);
        let got: Vec<_> = out.iter().map(|&h| bits(h)).collect();
        assert_eq!(got, want, "{name}: first_hits_into");
        let hits = want.iter().flatten().count();
        assert!(hits > rays.len() / 5, "{name}: only {hits} hits");
    }
}

/// `hit_details` of a hit that names no triangle of the mesh, or a zero-area one (which
/// no cast reports), is `None`, never a panic or a NaN normal.
#[test]
fn hit_details_of_a_foreign_hit_is_none() {
    let vertices = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(2.0, 0.0, 0.0)];
    // Triangle 1 has zero area (three points on the x axis).
    let mesh = TriMesh::new(vertices, vec![[0, 1, 2], [0, 1, 3]]).unwrap();
    let ray = Ray3::new(Vec3::new(0.2, 0.2, 1.0), Vec3::NEG_Z);
    let hit = mesh.first_hit(&ray).expect("the ray meets triangle 0");
    assert_eq!(hit.triangle, 0);
    let full = mesh.hit_details(&ray, &hit).expect("a triangle of the mesh");
    assert_eq!(Some(full), mesh.cast_ray(&ray));
    assert_eq!(full.normal, Vec3::Z);
    for triangle in [1, 2, u32::MAX] {
        assert_eq!(
            mesh.hit_details(&ray, &raybox::FirstHit { triangle, ..hit }),
            None,
            "triangle {triangle}"
        );
    }
}

#[test]
fn mesh_bad_input_is_an_error_or_skipped() {
    use raybox::MeshError;
    assert_eq!(TriMesh::new(vec![], vec![]).unwrap_err(), MeshError::Empty);
    let v = vec![Vec3::ZERO, Vec3::X, Vec3::Y];
    let e = TriMesh::new(v.clone(), vec![[0, 1, 3]]).unwrap_err();
    assert_eq!(e, MeshError::IndexOutOfRange { triangle: 0, index: 3, vertex_count: 3 });
    assert_eq!(e.to_string(), "triangle 0 refers to vertex 3, but there are only 3 vertices");
    let nan = vec![Vec3::ZERO, Vec3::new(f32::NAN, 0.0, 0.0), Vec3::Y];
    assert_eq!(TriMesh::new(nan, vec![[0, 1, 2]]).unwrap_err(), MeshError::NonFiniteVertex { vertex: 1 });
    // Degenerate triangles are skipped, and never hit.
    let flat = vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::Y];
    let mesh = TriMesh::new(flat, vec![[0, 1, 2], [0, 1, 3], [1, 1, 1]]).unwrap();
    assert_eq!(mesh.degenerate_count(), 2);
    let along = Ray3::new(Vec3::new(0.5, 0.0, 1.0), -Vec3::Z);
    assert_eq!(mesh.cast_ray(&along).unwrap().triangle, 1);
    let all_flat = TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0], vec![[0, 1, 2]]).unwrap();
    assert_eq!(all_flat.cast_ray(&along), None);
    assert!(all_flat.bounds().is_none());
}

#[test]
fn mesh_point_and_box_queries() {
    let sphere = TriMesh::from_data(scene::icosphere(3)).unwrap();
    assert!(sphere.contains_point(Vec3::ZERO));
    assert!(sphere.contains_point(Vec3::new(0.5, 0.3, -0.2)));
    assert!(!sphere.contains_point(Vec3::new(1.5, 0.0, 0.0)));
    assert!(sphere.overlaps_aabb(&Aabb3::new(Vec3::splat(0.5), Vec3::splat(2.0))));
    // Entirely inside the sphere: no triangle touches it.
    assert!(!sphere.overlaps_aabb(&Aabb3::new(Vec3::splat(-0.2), Vec3::splat(0.2))));
    let d = sphere.distance_to_point(Vec3::new(3.0, 0.0, 0.0)).unwrap();
    assert!((d - 2.0).abs() < 0.02, "{d}");
}

/// A mesh too large for one core's L2 cache: `cast_rays` then keeps three rays in flight per
/// thread (closest and any hit). Its answers must be the single-ray answers, ray for ray (hits, misses of the
/// whole mesh, rays that start inside its box), and the brute-force ones on a sample.
#[test]
fn interleaved_batch_casts_match_single_casts() {
    let data = scene::terrain(220, 2);
    let mesh = TriMesh::new(data.vertices.clone(), data.indices.clone()).unwrap();
    assert!(
        mesh.bvh_stats().node_count * 256 > 1 << 20,
        "the mesh must be beyond the interleaving threshold"
    );
    let (lo, hi) = data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let (centre, radius) = ((lo + hi) * 0.5, (hi - lo).length());
    let mut rng = Pcg32::new(11);
    let rays: Vec<Ray3> = (0..6000)
        .map(|i| match i % 3 {
            // From inside the box, any direction.
            0 => Ray3::new(centre + rng.unit_vector() * radius * 0.3 * rng.next_f32(), rng.unit_vector()),
            // From outside, at the mesh.
            1 => {
                let o = centre + rng.unit_vector() * radius;
                let target = lo + (hi - lo) * Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32());
                Ray3::new(o, target - o)
            }
            // From outside, away from it (misses the root box).
            _ => {
                let o = centre + rng.unit_vector() * radius * 2.0;
                Ray3::new(o, o - centre)
            }
        })
        .collect();
    let batch = mesh.cast_rays(&rays);
    let one_by_one: Vec<_> = rays.iter().map(|r| mesh.cast_ray(r)).collect();
    assert_eq!(batch, one_by_one);
    let hits = batch.iter().filter(|h| h.is_some()).count();
    assert!(hits > rays.len() / 4 && hits < rays.len(), "{hits} hits of {}", rays.len());
    let occluded = mesh.occluded_rays(&rays);
    let occluded_one_by_one: Vec<bool> = rays.iter().map(|r| mesh.occluded(r)).collect();
    assert_eq!(occluded, occluded_one_by_one);
    let hit_or_not: Vec<bool> = batch.iter().map(Option::is_some).collect();
    assert_eq!(occluded, hit_or_not);
    // A reused buffer holding another batch's answers (same length, then a different one)
    // ends up with exactly this batch's.
    let reversed: Vec<Ray3> = rays.iter().rev().copied().collect();
    let mut hits_buf = mesh.cast_rays(&reversed);
    let mut occl_buf = mesh.occluded_rays(&reversed);
    mesh.cast_rays_into(&rays, &mut hits_buf);
    mesh.occluded_rays_into(&rays, &mut occl_buf);
    assert_eq!((&hits_buf, &occl_buf), (&batch, &occluded));
    mesh.cast_rays_into(&rays[..100], &mut hits_buf);
    mesh.occluded_rays_into(&rays[..100], &mut occl_buf);
    assert_eq!((&hits_buf[..], &occl_buf[..]), (&batch[..100], &occluded[..100]));
    for (ray, got) in rays.iter().zip(&batch).step_by(40) {
        assert_eq!(got.map(|h| h.t), mesh_brute(&data, ray), "{ray:?}");
    }
}

/// `v` with its `k` coordinate multiplied by `s`.
fn squash(mut v: Vec3, k: usize, s: f32) -> Vec3 {
    v[k] *= s;
    v
}

/// Rays through a scene squashed along axis `k` by `s` (a power of two far below 1, so that
/// the rays' `k` components are subnormal, and their reciprocals overflow `f32` unless the
/// scale is mild), with `t_min` of both signs: lines from `-inf` or `-1e30`, rays from `-5`,
/// `-0`, `0` or `0.5`; some parallel to another axis, some with every component small.
fn squashed_rays(n: usize, seed: u64, centre: Vec3, radius: f32, k: usize, s: f32) -> Vec<Ray3> {
    let mut rng = Pcg32::new(seed);
    (0..n)
        .map(|i| {
            let o = squash(centre + rng.unit_vector() * radius, k, s);
            let target = squash(
                centre + Vec3::new(rng.range(-0.6, 0.6), rng.range(-0.6, 0.6), rng.range(-0.6, 0.6)) * radius,
                k,
                s,
            );
            let mut d = target - o;
            if i % 7 == 0 {
                d[(k + 1 + i % 2) % 3] = 0.0;
            }
            if i % 9 == 0 {
                d *= 2f32.powi(-100);
            }
            if d == Vec3::ZERO {
                d[k] = s;
            }
            let t_min = [f32::NEG_INFINITY, -1e30, -5.0, -0.0, 0.0, 0.5][i % 6];
            let t_max = if i % 4 == 0 {
                rng.range(0.5, 2.0) * 2f32.powi(if i % 9 == 0 { 100 } else { 0 })
            } else {
                f32::INFINITY
            };
            Ray3::with_range(o, d, t_min, t_max)
        })
        .collect()
}

/// BVH casts (closest, any and every hit) of rays with subnormal direction components,
/// from both signs of `t_min`, against brute force with `Aabb3::ray_span`, on every
/// kernel: a subnormal component's reciprocal overflows to `inf`, and the walks must still
/// find a box the ray enters far along (`tests/scale.rs` has the hand-made cases).
#[test]
fn bvh_casts_with_subnormal_direction_components_match_brute_force() {
    let mut checked = [0usize; 2];
    let mut overflowed = 0;
    for (scene, (k, e)) in [(0, -131), (1, -135), (2, -140), (1, -145)].into_iter().enumerate() {
        let s = 2f64.powi(e) as f32; // (`2f32.powi(e)` is 0 below 2^-127: its reciprocal overflows)
        let boxes: Vec<Aabb3> = random_boxes(1200, 40 + scene as u64)
            .iter()
            .map(|b| Aabb3::new(squash(b.min(), k, s), squash(b.max(), k, s)))
            .collect();
        let rays = squashed_rays(1200, 50 + scene as u64, Vec3::ZERO, 15.0, k, s);
        overflowed += rays.iter().filter(|r| r.dir()[k] != 0.0 && !(1.0 / r.dir()[k]).is_finite()).count();
        let brute: Vec<Vec<(u32, f32)>> = rays
            .iter()
            .map(|ray| {
                let mut all: Vec<(u32, f32)> = (0..boxes.len() as u32)
                    .filter_map(|i| boxes[i as usize].ray_span(ray).map(|s| (i, s.t_enter)))
                    .collect();
                all.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                all
            })
            .collect();
        for quality in [BuildQuality::Fast, BuildQuality::Balanced] {
            let bvh = Bvh::build(&boxes, quality).unwrap();
            with_each_kernel(|kernel| {
                for (ray, want) in rays.iter().zip(&brute) {
                    let what = format!("squashed {k} by 2^{e}, {quality:?} {kernel}: {ray:?}");
                    let got = bvh.cast_ray(ray, |i, r| boxes[i as usize].ray_span(r).map(|s| s.t_enter));
                    assert_eq!(got.map(|g| g.1), want.first().map(|w| w.1), "{what}: closest hit");
                    let any = bvh.any_hit(ray, |i, r| boxes[i as usize].ray_span(r).is_some());
                    assert_eq!(any.is_some(), !want.is_empty(), "{what}: any hit");
                    let all = bvh.all_hits(ray, |i, r| boxes[i as usize].ray_span(r).map(|s| s.t_enter));
                    assert_eq!(&all, want, "{what}: every hit");
                    checked[usize::from(ray.t_min() < 0.0)] += usize::from(!want.is_empty());
                }
            });
        }
    }
    // Rays that hit something, from t_min >= 0 and from t_min < 0.
    assert!(checked[0] > 5_000 && checked[1] > 5_000, "{checked:?} rays that hit");
    assert!(overflowed > 3_000, "{overflowed} rays with an overflowing reciprocal");
}

/// Mesh casts of rays with subnormal direction components (the scenes and rays of
/// `bvh_casts_with_subnormal_direction_components_match_brute_force`, on triangles) against
/// brute force with `Triangle3`, on every kernel, single casts and batches.
#[test]
fn mesh_casts_with_subnormal_direction_components_match_brute_force() {
    let mut hits = [0usize; 2];
    for (scene, (k, e)) in [(1, -133), (0, -138), (2, -144)].into_iter().enumerate() {
        let s = 2f64.powi(e) as f32; // (`2f32.powi(e)` is 0 below 2^-127: its reciprocal overflows)
        let mut data = if scene == 1 {
            scene::terrain(20, 4)
        } else {
            scene::triangle_soup(1500, 0.3, 5 + scene as u64)
        };
        for v in &mut data.vertices {
            *v = squash(*v, k, s);
        }
        let rays = squashed_rays(
            1500,
            60 + scene as u64,
            if scene == 1 { Vec3::splat(0.5) } else { Vec3::ZERO },
            1.5,
            k,
            s,
        );
        let want: Vec<Option<f32>> = rays.iter().map(|r| mesh_brute(&data, r)).collect();
        let mesh = TriMesh::with_quality(data.vertices.clone(), data.indices.clone(), BuildQuality::Balanced)
            .unwrap();
        with_each_kernel(|kernel| {
            for (ray, want) in rays.iter().zip(&want) {
                let what = format!("squashed {k} by 2^{e}, {kernel}: {ray:?}");
                assert_eq!(mesh.first_hit(ray).map(|h| h.t), *want, "{what}: first_hit");
                assert_eq!(mesh.cast_ray(ray).map(|h| h.t), *want, "{what}: cast_ray");
                assert_eq!(mesh.occluded(ray), want.is_some(), "{what}: occluded");
                hits[usize::from(ray.t_min() < 0.0)] += usize::from(want.is_some());
            }
            let batch: Vec<Option<f32>> = mesh.first_hits(&rays).iter().map(|h| h.map(|h| h.t)).collect();
            assert_eq!(batch, want, "{kernel}: first_hits");
            let occluded: Vec<bool> = want.iter().map(Option::is_some).collect();
            assert_eq!(mesh.occluded_rays(&rays), occluded, "{kernel}: occluded_rays");
        });
    }
    assert!(hits[0] > 1_000 && hits[1] > 1_000, "{hits:?} rays that hit");
}
