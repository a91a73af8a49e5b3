//! No ray escapes a closed mesh: from points strictly inside, rays in random directions
//! must all hit the surface (the watertight triangle test plus the conservative box test).
//! 1,048,576 rays in all, counted, none allowed to escape.

use glam::Vec3;
use raybox::mesh::scene::{self, Pcg32};
use raybox::{Ray3, TriMesh, with_each_kernel};

/// Casts `rays` rays from random inside points of `mesh` (accepted by `inside`) and
/// returns how many escaped.
fn escapes(mesh: &TriMesh, rays: usize, seed: u64, inside: impl Fn(&mut Pcg32) -> Vec3) -> usize {
    let mut rng = Pcg32::new(seed);
    let rays: Vec<Ray3> = (0..rays).map(|_| Ray3::new(inside(&mut rng), rng.unit_vector())).collect();
    mesh.cast_rays(&rays).iter().filter(|h| h.is_none()).count()
}

#[test]
fn no_ray_escapes_a_closed_icosphere() {
    // 5 subdivisions: 20,480 triangles, 30,720 shared edges.
    let mesh = TriMesh::from_data(scene::icosphere(5)).unwrap();
    // The icosphere is inscribed in the unit sphere; its faces are at least 0.99 from the centre.
    let inside = |rng: &mut Pcg32| rng.unit_vector() * rng.range(0.0, 0.98);
    let escaped = escapes(&mesh, 1 << 19, 11, inside);
    assert_eq!(escaped, 0, "{escaped} of {} rays escaped the icosphere", 1 << 19);
}

#[test]
fn no_ray_escapes_a_closed_terrain_block() {
    // The terrain over [0,1]² with walls and a floor at y = -1: 20,000 top triangles.
    let mesh = TriMesh::from_data(scene::closed_terrain(100, 3)).unwrap();
    // Below the lowest terrain point (heights stay above -0.152) and inside the walls.
    let inside = |rng: &mut Pcg32| {
        Vec3::new(rng.range(0.001, 0.999), rng.range(-0.999, -0.16), rng.range(0.001, 0.999))
    };
    let escaped = escapes(&mesh, 1 << 19, 12, inside);
    assert_eq!(escaped, 0, "{escaped} of {} rays escaped the terrain block", 1 << 19);
}

#[test]
fn rays_through_shared_vertices_and_edges_hit_with_every_kernel() {
    // Aim exactly at vertices and edge midpoints of the icosphere, from inside, with each kernel.
    let data = scene::icosphere(3);
    let mesh = TriMesh::from_data(data.clone()).unwrap();
    let mut targets: Vec<Vec3> = data.vertices.clone();
    for t in &data.indices {
        let [a, b, c] = t.map(|i| data.vertices[i as usize]);
        targets.extend([(a + b) * 0.5, (b + c) * 0.5, (c + a) * 0.5]);
    }
    let origins = [Vec3::ZERO, Vec3::new(0.1, -0.2, 0.05), Vec3::new(-0.3, 0.1, 0.2)];
    with_each_kernel(|kernel| {
        let mut count = 0;
        for o in origins {
            for &t in &targets {
                let ray = Ray3::new(o, t - o);
                assert!(mesh.cast_ray(&ray).is_some(), "{kernel}: ray from {o} through {t} escaped");
                count += 1;
            }
        }
        assert!(count > 3000);
    });
}
