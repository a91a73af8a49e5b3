//! `MeshInstances`: placed meshes answer as their definition says (the world ray carried
//! into each instance's frame in `f64`, rounded once, cast on the mesh; the nearest hit,
//! ties to the lower index), as the world geometry says (the same meshes with their
//! vertices placed in the world), and the same after moving instances as when built there.
//! Shape queries (overlaps, contacts, sweeps) answer as testing every placed triangle of
//! every instance (each vertex mapped in `f64`, rounded once).

mod common;

use common::shapes3d::{Shape, with_shape};
use std::sync::Arc;

use glam::{Affine3A, Mat3, Quat, Vec3};
use raybox::mesh::scene::{self, Pcg32};
use raybox::{
    Aabb3, Capsule3, ClosestPoint, Contact, Contact3, FirstHit, MeshInstances, MeshQuery, Obb3, Overlaps,
    Plane, Ray3, Segment3, Sphere, Sweep, SweepHit3, TriMesh, Triangle3,
};

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
    let firsts: Vec<_> = w.rays.iter().map(|r| built.first_hit(r)).collect();
    assert_eq!(built.first_hits(&w.rays), firsts);
    assert_eq!(
        firsts.iter().map(|h| h.map(|(i, h)| (i, h.t, h.triangle))).collect::<Vec<_>>(),
        singles.iter().map(|h| h.map(|h| (h.instance, h.t, h.triangle))).collect::<Vec<_>>()
    );
    assert!(singles.iter().filter(|h| h.is_some()).count() > w.rays.len() / 4, "too few hits to tell");

    // Into vectors the caller keeps: one answer per ray afterwards, whatever they held
    // (longer, shorter, or as long and full of stale answers: the other rays' in reverse).
    let stale_hit = singles.iter().flatten().next().copied();
    for held in [0, 3, w.rays.len(), w.rays.len() + 5000] {
        let mut hits = vec![stale_hit; held];
        let mut stale: Vec<_> = singles.iter().rev().copied().collect();
        stale.resize(held, stale_hit);
        if held == w.rays.len() {
            hits = stale;
        }
        built.cast_rays_into(&w.rays, &mut hits);
        assert_eq!(hits, singles, "{held} held");
        let mut any = vec![true; held];
        built.occluded_rays_into(&w.rays, &mut any);
        assert_eq!(any, blocked, "{held} held");
        let mut first = vec![firsts.iter().flatten().next().copied(); held];
        built.first_hits_into(&w.rays, &mut first);
        assert_eq!(first, firsts, "{held} held");
    }
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
    let mut rays = Vec::new();
    for _ in 0..2000 {
        let o = rng.unit_vector() * 8.0;
        let ray = Ray3::new(o, Vec3::ONE + rng.unit_vector() * 2.0 - o);
        if let Some(h) = twins.cast_ray(&ray) {
            assert_eq!(h.instance, 0);
            hits += 1;
        }
        rays.push(ray);
    }
    assert!(hits > 1000, "{hits}");
    // Batches too (their groups meet the two in either order), and coherent ones (packets).
    let coherent: Vec<Ray3> = (0..1024)
        .map(|k| {
            Ray3::new(
                Vec3::new(1.0, 1.0, 9.0),
                Vec3::new((k % 32) as f32 * 0.01 - 0.16, (k / 32) as f32 * 0.01 - 0.16, -1.0),
            )
        })
        .collect();
    for rays in [rays, coherent] {
        let batch = twins.cast_rays(&rays);
        assert!(batch.iter().flatten().count() > rays.len() / 2);
        assert!(batch.iter().flatten().all(|h| h.instance == 0));
        assert_eq!(batch, rays.iter().map(|r| twins.cast_ray(r)).collect::<Vec<_>>());
    }
}

#[test]
fn instances_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<MeshInstances>();
}

// ---------------------------------------------------------------------------------------
// Shape queries.

/// The world's instances under `poses`, their triangles placed as the docs say
/// ([`common::placed::placed_triangles`]).
fn placed_triangles(w: &World, poses: &[Affine3A]) -> Vec<(u32, u32, Triangle3)> {
    common::placed::placed_triangles(w.which.iter().map(|&m| &*w.meshes[m]).zip(poses))
}

/// A random point of a random placed triangle.
fn point_on_some(rng: &mut Pcg32, placed: &[(u32, u32, Triangle3)]) -> Vec3 {
    let [a, b, c] = placed[rng.next_u32() as usize % placed.len()].2.vertices();
    let (u, v) = (rng.next_f32(), rng.next_f32());
    let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
    a + (b - a) * u + (c - a) * v
}

/// A random query shape near a random placed triangle (or anywhere around the world for
/// one in eight), sized 0.02 to 3.
fn shape_near(rng: &mut Pcg32, placed: &[(u32, u32, Triangle3)], kind: u32) -> Shape {
    let near = if rng.next_u32().is_multiple_of(8) {
        rng.unit_vector() * rng.range(0.0, 40.0)
    } else {
        point_on_some(rng, placed)
    };
    let size = rng.range(0.02, 3.0);
    let at = near + rng.unit_vector() * size * rng.range(0.0, 1.5);
    let half = Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * size + Vec3::splat(0.01);
    let turn = Quat::from_axis_angle(rng.unit_vector(), rng.range(0.0, 6.3));
    match kind % 7 {
        0 => Shape::Sphere(Sphere::new(at, size)),
        1 => Shape::Aabb(Aabb3::new(at - half, at + half)),
        2 => Shape::Obb(Obb3::new(at, half, turn)),
        3 => Shape::Capsule(Capsule3::new(at - half, at + half, size * 0.3)),
        4 => Shape::Segment(Segment3::new(at - half * 2.0, at + half * 2.0)),
        5 => {
            Shape::Triangle(Triangle3::new(at, at + rng.unit_vector() * size, at + rng.unit_vector() * size))
        }
        _ => Shape::Plane(Plane::from_point_normal(at, rng.unit_vector())),
    }
}

/// The overlap queries against testing every placed triangle; returns how many overlap.
fn check_overlaps<S>(built: &MeshInstances, placed: &[(u32, u32, Triangle3)], shape: &S) -> usize
where
    S: MeshQuery + Overlaps<Triangle3> + core::fmt::Debug,
    Triangle3: Contact<S, Output = Contact3>,
{
    let want = common::placed::overlapping_as_defined(built, placed, shape);
    let mut contacts = Vec::new();
    built.for_each_contact(shape, |i, t, c| contacts.push((i, t, c)));
    contacts.sort_by_key(|c| (c.0, c.1));
    let want_contacts: Vec<(u32, u32, Contact3)> = placed
        .iter()
        .filter(|p| shape.overlaps(&p.2))
        .map(|p| (p.0, p.1, Contact::contact(&p.2, shape).unwrap()))
        .collect();
    assert_eq!(contacts, want_contacts, "{shape:?}");
    want.len()
}

/// The sweep against sweeping into every placed triangle (the least `t`, ties to the lower
/// instance, then triangle); returns whether it hit.
fn check_sweep<S>(built: &MeshInstances, placed: &[(u32, u32, Triangle3)], shape: &S, motion: Vec3) -> bool
where
    S: MeshQuery + Sweep<Triangle3, Motion = Vec3, Hit = SweepHit3> + core::fmt::Debug,
{
    let mut want: Option<(u32, u32, SweepHit3)> = None;
    for &(i, k, tri) in placed {
        if let Some(h) = shape.sweep(motion, &tri)
            && want.is_none_or(|(_, _, b)| h.t < b.t)
        {
            want = Some((i, k, h));
        }
    }
    let got = built.sweep(shape, motion);
    match (got, want) {
        (None, None) => false,
        (Some(g), Some((i, k, h))) => {
            assert_eq!((g.instance, g.triangle, g.t), (i, k, h.t), "{shape:?} by {motion}");
            assert_eq!((g.point, g.normal), (h.point, h.normal), "{shape:?} by {motion}");
            true
        }
        (g, w) => panic!("{shape:?} by {motion}: got {g:?}, want {w:?}"),
    }
}

#[test]
fn shape_queries_answer_as_every_placed_triangle() {
    let w = world(21);
    let built = build(&w);
    let placed = placed_triangles(&w, &w.poses);
    let mut rng = Pcg32::new(5);
    let (mut overlapping, mut hits) = ([0usize; 7], [0usize; 7]);
    let rounds = if cfg!(debug_assertions) { 280 } else { 700 };
    for n in 0..rounds {
        let kind = n % 7;
        let shape = shape_near(&mut rng, &placed, kind);
        let motion = rng.unit_vector() * rng.range(0.0, 8.0);
        with_shape!(shape, |s| {
            overlapping[kind as usize] += usize::from(check_overlaps(&built, &placed, &s) > 0);
            hits[kind as usize] += usize::from(check_sweep(&built, &placed, &s, motion));
        });
    }
    // Each shape kind overlaps and hits often enough for the checks to mean something, and
    // the shapes miss too (planes aside, which cut some instance wherever they are).
    let each = rounds as usize / 7;
    for kind in 0..7 {
        assert!(overlapping[kind] > each / 5, "kind {kind}: {overlapping:?}");
        assert!(hits[kind] > each / 5, "kind {kind}: {hits:?}");
    }
    let solid: usize = overlapping[..6].iter().sum();
    assert!(solid < 6 * each * 9 / 10, "{overlapping:?}");
}

#[test]
fn moved_instances_answer_shape_queries_where_they_are() {
    let w = world(22);
    let mut moving = build(&w);
    let mut rng = Pcg32::new(9);
    let mut poses = w.poses.clone();
    for round in 0..2 {
        let mut updates = Vec::new();
        for (i, current) in poses.iter_mut().enumerate() {
            if rng.next_u32().is_multiple_of(2) {
                *current = pose(&mut rng);
                updates.push((i, *current));
            }
        }
        moving.set_poses(updates).unwrap();
        let placed = placed_triangles(&w, &poses);
        let mut found = 0;
        for n in 0..70 {
            let shape = shape_near(&mut rng, &placed, n);
            with_shape!(shape, |s| {
                found += check_overlaps(&moving, &placed, &s);
                check_sweep(&moving, &placed, &s, rng.unit_vector() * 4.0);
            });
        }
        assert!(found > 0, "round {round}");
    }
}

#[test]
fn shape_queries_on_empty_worlds_and_bad_motions() {
    let ball = Sphere::new(Vec3::ZERO, 1.0);
    let empty = MeshInstances::new(Vec::new()).unwrap();
    assert!(!empty.overlaps(&ball) && empty.overlapping_triangles(&ball).is_empty());
    assert!(empty.sweep(&ball, Vec3::X).is_none());
    let one = MeshInstances::new([(meshes()[1].clone(), Affine3A::IDENTITY)]).unwrap();
    assert!(one.overlaps(&ball)); // the unit icosphere's vertices lie on the unit ball
    assert!(one.sweep(&ball, Vec3::new(f32::NAN, 0.0, 0.0)).is_none());
    assert!(one.sweep(&ball, Vec3::new(f32::INFINITY, 0.0, 0.0)).is_none());
    let hit = one.sweep(&Sphere::new(Vec3::X * 5.0, 1.0), Vec3::X * -8.0).unwrap();
    assert!(hit.instance == 0 && hit.t > 0.3 && hit.t < 0.4 && hit.normal.x > 0.9, "{hit:?}");
}

#[test]
fn far_and_exactly_touching_shapes_are_not_culled() {
    // The world moved 3e5 away (f32 steps of 1/32 there), and shapes that touch a placed
    // triangle only at one of its vertices: a box with a corner there, a segment and a
    // capsule of radius 0 ending there, a zero-radius ball on it. The walks must not cull
    // a single one (each is found by the exact test on that triangle). Half the instances
    // are only scaled and moved, so that the carried node boxes are tight: a placed vertex
    // at a leaf box's face rounds outside its exact image's box half the time.
    let mut w = world(23);
    let far = Affine3A::from_translation(Vec3::new(3.0e5, -2.0e5, 1.0e5));
    let mut rng = Pcg32::new(12);
    for (i, p) in w.poses.iter_mut().enumerate() {
        *p = if i % 2 == 0 {
            far * *p
        } else {
            let scale = Vec3::new(rng.range(0.3, 3.0), rng.range(0.3, 3.0), rng.range(0.3, 3.0));
            Affine3A::from_scale_rotation_translation(
                scale,
                Quat::IDENTITY,
                Vec3::from(far.translation) + rng.unit_vector() * 20.0,
            )
        };
    }
    let built = build(&w);
    let placed = placed_triangles(&w, &w.poses);
    let rounds = if cfg!(debug_assertions) { 150 } else { 1500 };
    for n in 0..rounds {
        let (i, k, tri) = placed[rng.next_u32() as usize % placed.len()];
        let v = tri.vertices()[n % 3];
        let out = rng.unit_vector() * rng.range(0.05, 2.0);
        let shape = match n % 4 {
            0 => Shape::Aabb(Aabb3::new(v, v + out.abs())),
            1 => Shape::Segment(Segment3::new(v, v + out)),
            2 => Shape::Capsule(Capsule3::new(v, v + out, 0.0)),
            _ => Shape::Sphere(Sphere::new(v, 0.0)),
        };
        with_shape!(shape, |s| {
            check_overlaps(&built, &placed, &s);
            assert!(built.overlapping_triangles(&s).contains(&(i, k)), "{s:?}");
            // Moving away from the vertex along the outward offset, it starts touching.
            let hit = built.sweep(&s, out).unwrap();
            assert_eq!(hit.t, 0.0, "{s:?}");
        });
    }
}

#[test]
fn shape_ties_go_to_the_lower_instance() {
    // Two copies of one mesh at the same place: both overlap, every sweep meets instance 0.
    let m = meshes()[1].clone();
    let p =
        Affine3A::from_scale_rotation_translation(Vec3::splat(2.0), Quat::from_rotation_x(0.3), Vec3::ONE);
    let twins = MeshInstances::new([(m.clone(), p), (m, p)]).unwrap();
    let mut rng = Pcg32::new(4);
    for _ in 0..200 {
        let from = Vec3::ONE + rng.unit_vector() * 6.0;
        let ball = Sphere::new(from, 0.5);
        let hit = twins.sweep(&ball, (Vec3::ONE - from) * 1.2).unwrap();
        assert_eq!(hit.instance, 0, "{hit:?}");
        // Where it stopped, a hair larger than the rounding of that point.
        let at = Sphere::new(from + (Vec3::ONE - from) * 1.2 * hit.t, 0.501);
        assert_eq!(twins.overlapping_instances(&at), [0, 1]);
    }
}

#[test]
fn badly_conditioned_poses_answer_shape_queries_too() {
    // Poses stretched 1e4 one way and squashed 1e-4 another (condition number 1e8, past
    // the 2^24 up to which the queries carry their box into the mesh's frame: these walk
    // with the node boxes carried into the world instead), beside ordinary ones.
    let mut w = world(24);
    let mut rng = Pcg32::new(13);
    for (i, p) in w.poses.iter_mut().enumerate() {
        if i % 2 == 0 {
            let turn = Quat::from_axis_angle(rng.unit_vector(), rng.range(0.0, 6.3));
            let at = Vec3::from(p.translation);
            *p = Affine3A::from_scale_rotation_translation(Vec3::new(1.0e4, 1.0e-4, 1.0), turn, at);
        }
    }
    let built = build(&w);
    let placed = placed_triangles(&w, &w.poses);
    let mut found = 0;
    let rounds = if cfg!(debug_assertions) { 70 } else { 350 };
    for n in 0..rounds {
        let shape = shape_near(&mut rng, &placed, n);
        with_shape!(shape, |s| {
            found += check_overlaps(&built, &placed, &s);
            check_sweep(&built, &placed, &s, rng.unit_vector() * 4.0);
        });
    }
    assert!(found > rounds as usize, "{found}");
}

#[test]
fn distances_to_points_are_those_of_the_nearest_placed_triangle() {
    // Points near random placed triangles and anywhere around the world, on ordinary,
    // stretched and far poses.
    let mut w = world(25);
    let mut rng = Pcg32::new(14);
    for (i, p) in w.poses.iter_mut().enumerate() {
        if i % 3 == 1 {
            *p = Affine3A::from_scale(Vec3::new(1.0e3, 1.0, 1.0e-3)) * *p;
        } else if i % 3 == 2 {
            *p = Affine3A::from_translation(Vec3::splat(-4.0e5)) * *p;
        }
    }
    let built = build(&w);
    let placed = placed_triangles(&w, &w.poses);
    let rounds = if cfg!(debug_assertions) { 60 } else { 400 };
    for n in 0..rounds {
        let p = if n % 4 == 0 {
            rng.unit_vector() * rng.range(0.0, 60.0)
        } else {
            point_on_some(&mut rng, &placed) + rng.unit_vector() * rng.range(0.0, 2.0)
        };
        let want = placed.iter().map(|t| t.2.distance_to_point(p)).fold(f32::INFINITY, f32::min);
        assert_eq!(built.distance_to_point(p), Some(want), "{p}");
    }
    assert_eq!(MeshInstances::new(Vec::new()).unwrap().distance_to_point(Vec3::ZERO), None);
}
