//! Audit of `MeshInstances`: cases the first tests did not reach (a mesh far from its own
//! origin placed back near the world's, exactly singular poses, lines and finite ranges).

use std::sync::Arc;

use glam::{Affine3A, Mat3, Vec3};
use raybox::mesh::scene::{self, Pcg32};
use raybox::{FirstHit, InstanceError, MeshInstances, Ray3, TriMesh};

/// The definition the module docs give: every instance, the ray carried by the inverse
/// pose in `f64` and rounded once; the nearest hit, ties to the lower index.
fn by_definition(meshes: &[Arc<TriMesh>], poses: &[Affine3A], ray: &Ray3) -> Option<(u32, FirstHit)> {
    let mut best: Option<(u32, FirstHit)> = None;
    for (i, (mesh, pose)) in meshes.iter().zip(poses).enumerate() {
        let inv = pose.as_daffine3().inverse();
        let o = inv.transform_point3(ray.origin().as_dvec3()).as_vec3();
        let d = inv.transform_vector3(ray.dir().as_dvec3()).as_vec3();
        let Ok(local) = Ray3::try_with_range(o, d, ray.t_min(), ray.t_max()) else { continue };
        if let Some(hit) = mesh.first_hit(&local)
            && best.is_none_or(|(_, b)| hit.t < b.t)
        {
            best = Some((i as u32, hit));
        }
    }
    best
}

fn place(meshes: &[Arc<TriMesh>], poses: &[Affine3A]) -> MeshInstances {
    MeshInstances::new(meshes.iter().cloned().zip(poses.iter().copied())).unwrap()
}

#[test]
fn a_mesh_far_from_its_own_origin_placed_back_is_not_culled() {
    // A unit triangle modelled at x = 2^20 (f32 steps of 1/16 just below, 1/8 above) and
    // placed back at the world's origin: a ray 5 units above it, its origin carried to
    // x ≈ 2^20 - 0.01, rounds onto the triangle's edge x = 2^20, and the carried ray hits
    // (the definition). A box grown by 2⁻¹² of the world box's size and position alone
    // (5e-4) culled it. A second instance, so that the walk tests boxes.
    let far = 1_048_576.0;
    let tri = TriMesh::new(
        vec![Vec3::new(far, 0.0, 0.0), Vec3::new(far + 1.0, 0.0, 0.0), Vec3::new(far, 1.0, 0.0)],
        vec![[0, 1, 2]],
    )
    .unwrap();
    let tri = Arc::new(tri);
    let meshes = vec![tri.clone(), tri];
    let poses =
        [Vec3::new(-far, 0.0, 0.0), Vec3::new(-far, 9.0, 0.0)].map(Affine3A::from_translation).to_vec();
    let world = place(&meshes, &poses);
    let mut carried_hits = 0;
    for k in 0..64 {
        // Origins from 0.03 left of the edge to 0.03 right of it, above either instance.
        let x = -0.03 + k as f32 * 0.001;
        for y in [0.25, 9.5] {
            let ray = Ray3::new(Vec3::new(x, y, 5.0), Vec3::NEG_Z);
            let want = by_definition(&meshes, &poses, &ray);
            assert_eq!(world.first_hit(&ray), want, "{ray:?}");
            assert_eq!(world.occluded(&ray), want.is_some(), "{ray:?}");
            carried_hits += usize::from(want.is_some() && x < 0.0);
        }
    }
    // Rays left of the world triangle that the carried ray says hit it.
    assert!(carried_hits >= 10, "{carried_hits}");
}

#[test]
fn far_modelled_meshes_answer_as_the_definition() {
    // Icospheres and terrain modelled around a random point up to 2^22 from their origin
    // and posed back near the world's origin (rotated, scaled, some mirrored): rays aimed
    // at the instances' boxes, and grazing them, answer as the carried rays do.
    let mut rng = Pcg32::new(21);
    let base = [scene::icosphere(2), scene::terrain(8, 3)];
    let (mut meshes, mut poses) = (Vec::new(), Vec::new());
    for i in 0..24 {
        let shift = rng.unit_vector() * 2f32.powi(10 + (i % 13));
        let data = &base[i as usize % 2];
        let vertices = data.vertices.iter().map(|&v| v + shift).collect();
        meshes.push(Arc::new(TriMesh::new(vertices, data.indices.clone()).unwrap()));
        let mut scale = Vec3::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0), rng.range(0.5, 2.0));
        if i % 3 == 0 {
            scale.x = -scale.x;
        }
        let linear = Mat3::from_quat(glam::Quat::from_axis_angle(rng.unit_vector(), rng.range(0.0, 6.3)))
            * Mat3::from_diagonal(scale);
        let at = Vec3::new(rng.range(-20.0, 20.0), rng.range(-20.0, 20.0), rng.range(-20.0, 20.0));
        // Place the shifted model's centre at `at`.
        poses.push(Affine3A::from_mat3_translation(linear, at - linear * shift));
    }
    let world = place(&meshes, &poses);
    let (mut hits, mut disagreements) = (0, 0);
    for k in 0..6000 {
        let o = rng.unit_vector() * rng.range(10.0, 40.0);
        let i = rng.next_u32() as usize % meshes.len();
        let aim = if k % 2 == 0 {
            let b = world.bounds_of(i).unwrap();
            b.min() + (b.max() - b.min()) * Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32())
        } else {
            // A vertex, placed in f64: rays through the silhouette graze it.
            let v = meshes[i].vertices()[rng.next_u32() as usize % meshes[i].vertices().len()];
            poses[i].as_daffine3().transform_point3(v.as_dvec3()).as_vec3()
        };
        let ray = if k % 4 == 0 {
            Ray3::with_range(o, aim - o, f32::NEG_INFINITY, rng.range(0.5, 2.0))
        } else {
            Ray3::new(o, aim - o)
        };
        let want = by_definition(&meshes, &poses, &ray);
        disagreements += usize::from(world.first_hit(&ray) != want);
        disagreements += usize::from(world.occluded(&ray) != want.is_some());
        hits += usize::from(want.is_some());
    }
    assert!(disagreements == 0 && hits > 1000, "{disagreements} disagreements, {hits} hits");
}

/// Random poses whose third column is the sum of the first two, exactly in `f32`: singular.
fn singular_poses(rng: &mut Pcg32, count: usize) -> Vec<Affine3A> {
    let mut out = Vec::new();
    while out.len() < count {
        let mut v = || Vec3::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
        let (a, b) = (v(), v());
        if (a + b).as_dvec3() != a.as_dvec3() + b.as_dvec3() {
            continue; // the sum rounded: not singular
        }
        out.push(Affine3A::from_mat3_translation(Mat3::from_cols(a, b, a + b), v()));
    }
    out
}

#[test]
fn exactly_singular_poses_are_refused() {
    let ball = Arc::new(TriMesh::from_data(scene::icosphere(1)).unwrap());
    let poses = singular_poses(&mut Pcg32::new(1), 500);
    // The f64 determinant of most of them is rounded away from zero.
    let rounded = poses.iter().filter(|p| p.as_daffine3().matrix3.determinant() != 0.0).count();
    assert!(rounded > 100, "{rounded}");
    let mut world = MeshInstances::new([(ball.clone(), Affine3A::IDENTITY)]).unwrap();
    for pose in poses {
        assert_eq!(
            MeshInstances::new([(ball.clone(), Affine3A::IDENTITY), (ball.clone(), pose)]).unwrap_err(),
            InstanceError::SingularPose { instance: 1 },
            "{pose:?}"
        );
        let moved = Affine3A::from_translation(Vec3::X * 7.0);
        assert_eq!(
            world.set_poses([(0, moved), (0, pose)]).unwrap_err(),
            InstanceError::SingularPose { instance: 0 }
        );
        assert_eq!(world.pose(0), Some(Affine3A::IDENTITY));
    }
    // Nearly singular but invertible: accepted.
    let thin = Affine3A::from_scale(Vec3::new(1.0, 1e-30, 1.0));
    assert!(MeshInstances::new([(ball, thin)]).is_ok());
}

#[test]
fn ties_on_shared_edges_answer_as_the_definition() {
    // Copies of one mesh at one place (every hit a tie between instances), and rays through
    // the mesh's vertices and edge midpoints (ties between triangles within a mesh): the
    // hit, triangle and barycentrics are the definition's, whichever instance the walk
    // meets first.
    let ball = Arc::new(TriMesh::from_data(scene::icosphere(2)).unwrap());
    let pose = Affine3A::from_scale_rotation_translation(Vec3::splat(2.0), glam::Quat::IDENTITY, Vec3::ONE);
    let meshes = vec![ball.clone(), ball.clone(), ball.clone(), ball.clone()];
    let poses = vec![pose; 4];
    let world = place(&meshes, &poses);
    let mut rng = Pcg32::new(8);
    let (vertices, indices) = (ball.vertices(), ball.indices());
    let mut hits = 0;
    for k in 0..3000 {
        let [a, b, _] = indices[rng.next_u32() as usize % indices.len()].map(|i| vertices[i as usize]);
        let local = if k % 2 == 0 { a } else { (a + b) * 0.5 };
        let aim = pose.transform_point3(local);
        let o = Vec3::ONE + rng.unit_vector() * 8.0;
        let ray = Ray3::new(o, aim - o);
        let want = by_definition(&meshes, &poses, &ray);
        assert_eq!(world.first_hit(&ray), want, "{ray:?}");
        hits += usize::from(want.is_some());
    }
    assert!(hits > 2000, "{hits}");
}
