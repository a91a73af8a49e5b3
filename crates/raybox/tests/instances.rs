//! `MeshInstances`: placed meshes answer as their definition says (the world ray carried
//! into each instance's frame in `f64`, rounded once, cast on the mesh; the nearest hit,
//! ties to the lower index), as the world geometry says (the same meshes with their
//! vertices placed in the world), and the same after moving instances as when built there.

use std::sync::Arc;

use glam::{Affine3A, Mat3, Quat, Vec3};
use raybox::mesh::scene::{self, Pcg32};
use raybox::{FirstHit, MeshInstances, Ray3, TriMesh};

/// The meshes the instances share: the bunny, a closed icosphere and a terrain patch.
fn meshes() -> Vec<Arc<TriMesh>> {
    [raybox::mesh::bunny(), scene::icosphere(2), scene::terrain(12, 5)]
        .into_iter()
        .map(|m| Arc::new(TriMesh::from_data(m).unwrap()))
        .collect()
}

/// A random pose: a rotation, a scale of 0.3 to 3 per axis (uniform for a third, mirrored
/// in one axis for a quarter), a shear for a fifth, and a translation within 20.
fn pose(rng: &mut Pcg32) -> Affine3A {
    let turn = Quat::from_axis_angle(rng.unit_vector(), rng.range(0.0, 6.3));
    let mut scale = Vec3::new(rng.range(0.3, 3.0), rng.range(0.3, 3.0), rng.range(0.3, 3.0));
    if rng.next_u32().is_multiple_of(3) {
        scale = Vec3::splat(scale.x);
    }
    if rng.next_u32().is_multiple_of(4) {
        scale.y = -scale.y;
    }
    let mut linear = Mat3::from_quat(turn) * Mat3::from_diagonal(scale);
    if rng.next_u32().is_multiple_of(5) {
        linear *= Mat3::from_cols(Vec3::X, Vec3::new(rng.range(-0.5, 0.5), 1.0, 0.0), Vec3::Z);
    }
    let at = Vec3::new(rng.range(-20.0, 20.0), rng.range(-20.0, 20.0), rng.range(-20.0, 20.0));
    Affine3A::from_mat3_translation(linear, at)
}

/// The definition: every instance tested, the ray carried by the inverse pose computed in
/// `f64` and rounded once; the nearest hit, ties to the lower index.
fn brute_force(
    meshes: &[Arc<TriMesh>],
    poses: &[Affine3A],
    which: &[usize],
    ray: &Ray3,
) -> Option<(u32, FirstHit)> {
    let mut best: Option<(u32, FirstHit)> = None;
    for (i, pose) in poses.iter().enumerate() {
        let inv = pose.as_daffine3().inverse();
        let o = inv.transform_point3(ray.origin().as_dvec3()).as_vec3();
        let d = inv.transform_vector3(ray.dir().as_dvec3()).as_vec3();
        let Ok(local) = Ray3::try_with_range(o, d, ray.t_min(), ray.t_max()) else { continue };
        if let Some(hit) = meshes[which[i]].first_hit(&local)
            && best.is_none_or(|(_, b)| hit.t < b.t)
        {
            best = Some((i as u32, hit));
        }
    }
    best
}

/// 40 instances of the three meshes, and the random rays of the tests: from a ball of
/// radius 40 in random directions, and aimed at random points of the instances' boxes.
struct World {
    meshes: Vec<Arc<TriMesh>>,
    which: Vec<usize>,
    poses: Vec<Affine3A>,
    rays: Vec<Ray3>,
}

fn world(seed: u64) -> World {
    let meshes = meshes();
    let mut rng = Pcg32::new(seed);
    let which: Vec<usize> = (0..40).map(|_| rng.next_u32() as usize % meshes.len()).collect();
    let poses: Vec<Affine3A> = (0..40).map(|_| pose(&mut rng)).collect();
    let built = MeshInstances::new(which.iter().zip(&poses).map(|(&m, &p)| (meshes[m].clone(), p))).unwrap();
    let mut rays = Vec::new();
    for k in 0..6000 {
        let o = rng.unit_vector() * rng.range(0.0, 40.0);
        let dir = if k % 2 == 0 {
            rng.unit_vector()
        } else {
            let b = built.bounds_of(rng.next_u32() as usize % 40).unwrap();
            let aim =
                b.min() + (b.max() - b.min()) * Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32());
            (aim - o) * rng.range(0.2, 3.0)
        };
        if let Ok(ray) = Ray3::try_new(o, dir) {
            // A third with a finite range.
            rays.push(if k % 3 == 0 {
                ray.try_with_interval(rng.range(0.0, 5.0), rng.range(5.0, 60.0)).unwrap()
            } else {
                ray
            });
        }
    }
    World { meshes, which, poses, rays }
}

fn build(w: &World) -> MeshInstances {
    MeshInstances::new(w.which.iter().zip(&w.poses).map(|(&m, &p)| (w.meshes[m].clone(), p))).unwrap()
}

#[test]
fn every_hit_is_the_brute_force_one() {
    let w = world(11);
    let built = build(&w);
    let (mut hits, mut mirrored) = (0, 0);
    for ray in &w.rays {
        let want = brute_force(&w.meshes, &w.poses, &w.which, ray);
        let got = built.first_hit(ray);
        assert_eq!(got, want, "{ray:?}");
        assert_eq!(built.occluded(ray), want.is_some(), "{ray:?}");
        let full = built.cast_ray(ray);
        assert_eq!(
            full.map(|h| (h.instance, h.t, h.triangle, h.u, h.v)),
            want.map(|(i, h)| (i, h.t, h.triangle, h.u, h.v))
        );
        if let Some(h) = full {
            hits += 1;
            // The world normal is unit, faces as reported, and the point is on the ray.
            assert!((h.normal.length() - 1.0).abs() < 1e-5, "{h:?}");
            let facing = h.normal.dot(ray.dir()) < 0.0;
            assert!(
                facing == h.front_facing || h.normal.dot(ray.dir()).abs() < 1e-6 * ray.dir().length(),
                "{h:?}"
            );
            assert!((h.point - (ray.origin() + h.t * ray.dir())).length() <= 1e-5 * (1.0 + h.point.length()));
            mirrored += usize::from(w.poses[h.instance as usize].matrix3.determinant() < 0.0);
        }
    }
    assert!(hits > 1500 && mirrored > 100, "{hits} hits, {mirrored} on mirrored instances");
}

#[test]
fn hits_match_the_world_geometry() {
    // The same instances with their vertices placed in the world (in f64, rounded): rays
    // aimed at the middle of a random triangle of a random instance find a hit at the same
    // t up to the placements' rounding, with the world triangle's normal.
    let w = world(12);
    let built = build(&w);
    let placed: Vec<TriMesh> = w
        .which
        .iter()
        .zip(&w.poses)
        .map(|(&m, pose)| {
            let mesh = &w.meshes[m];
            let p = pose.as_daffine3();
            let vertices =
                mesh.vertices().iter().map(|v| p.transform_point3(v.as_dvec3()).as_vec3()).collect();
            TriMesh::new(vertices, mesh.indices().to_vec()).unwrap()
        })
        .collect();
    let mut rng = Pcg32::new(99);
    let mut checked = 0;
    for _ in 0..4000 {
        let i = rng.next_u32() as usize % placed.len();
        let mesh = &placed[i];
        let tri = mesh.indices()[rng.next_u32() as usize % mesh.indices().len()];
        let [a, b, c] = tri.map(|k| mesh.vertices()[k as usize]);
        let n = (b - a).cross(c - a);
        if n.length() < 1e-3 * (b - a).length().max((c - a).length()).powi(2) {
            continue; // a sliver: its middle is within rounding of its edges
        }
        let aim = (a + b + c) / 3.0;
        let o = aim + rng.unit_vector() * rng.range(1.0, 30.0);
        let ray = Ray3::new(o, aim - o);
        // The nearest hit over the placed meshes, ties to the lower index.
        let want = placed
            .iter()
            .enumerate()
            .filter_map(|(k, m)| m.cast_ray(&ray).map(|h| (k, h)))
            .min_by(|x, y| x.1.t.total_cmp(&y.1.t).then(x.0.cmp(&y.0)));
        let (Some((k, want)), Some(got)) = (want, built.cast_ray(&ray)) else {
            panic!("{ray:?}: the aimed-at triangle is on the ray")
        };
        // t is at most 1 (the aimed-at point); agree within the rounding of the placements.
        assert!((got.t - want.t).abs() <= 1e-4, "{ray:?}: {got:?} against {want:?}");
        if k == got.instance as usize && want.triangle == got.triangle {
            // A mirroring pose reverses the placed triangle's winding, so its geometric
            // normal turns inwards; the instance's normal stays the mesh's side.
            let side = w.poses[k].matrix3.determinant().signum();
            assert!(got.normal.dot(want.normal) * side > 0.9999, "{got:?} against {want:?}");
            assert_eq!(got.front_facing, want.front_facing == (side > 0.0));
            checked += 1;
        }
    }
    assert!(checked > 3000, "{checked}");
}

#[test]
fn moved_instances_answer_as_if_built_there() {
    let w = world(13);
    let mut moving = build(&w);
    let mut rng = Pcg32::new(7);
    let mut poses = w.poses.clone();
    for round in 0..3 {
        // Move a third of the instances (some far, some a little).
        let mut updates: Vec<(usize, Affine3A)> = Vec::new();
        for (i, current) in poses.iter_mut().enumerate() {
            if rng.next_u32().is_multiple_of(3) {
                let p = if round == 1 {
                    Affine3A::from_translation(rng.unit_vector()) * *current
                } else {
                    pose(&mut rng)
                };
                *current = p;
                updates.push((i, p));
            }
        }
        moving.set_poses(updates).unwrap();
        let fresh =
            MeshInstances::new(w.which.iter().zip(&poses).map(|(&m, &p)| (w.meshes[m].clone(), p))).unwrap();
        for ray in w.rays.iter().take(1500) {
            let want = brute_force(&w.meshes, &poses, &w.which, ray);
            assert_eq!(moving.first_hit(ray), want, "round {round}: {ray:?}");
            assert_eq!(fresh.first_hit(ray), want);
        }
        for (i, &p) in poses.iter().enumerate() {
            assert_eq!(moving.pose(i), Some(p));
            assert_eq!(moving.bounds_of(i), fresh.bounds_of(i));
        }
    }
}

#[test]
fn batches_answer_as_single_rays() {
    let w = world(14);
    let built = build(&w);
    let singles: Vec<_> = w.rays.iter().map(|r| built.cast_ray(r)).collect();
    assert_eq!(built.cast_rays(&w.rays), singles);
    let blocked: Vec<bool> = w.rays.iter().map(|r| built.occluded(r)).collect();
    assert_eq!(built.occluded_rays(&w.rays), blocked);
    assert_eq!(blocked, singles.iter().map(Option::is_some).collect::<Vec<_>>());
}

#[test]
fn ties_go_to_the_lower_index() {
    // Two copies of one mesh at the same place: every hit is instance 0's.
    let meshes = meshes();
    let p =
        Affine3A::from_scale_rotation_translation(Vec3::splat(2.0), Quat::from_rotation_x(0.3), Vec3::ONE);
    let twins = MeshInstances::new([(meshes[1].clone(), p), (meshes[1].clone(), p)]).unwrap();
    let mut rng = Pcg32::new(3);
    let mut hits = 0;
    for _ in 0..2000 {
        let o = rng.unit_vector() * 8.0;
        let ray = Ray3::new(o, Vec3::ONE + rng.unit_vector() * 2.0 - o);
        if let Some(h) = twins.cast_ray(&ray) {
            assert_eq!(h.instance, 0);
            hits += 1;
        }
    }
    assert!(hits > 1000, "{hits}");
}

#[test]
fn instances_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<MeshInstances>();
}
