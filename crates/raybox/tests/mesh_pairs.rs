//! `TriMesh` against `TriMesh` (`overlaps_mesh`, `for_each_overlapping_pair`,
//! `overlapping_pairs`) against brute force: the exact triangle–triangle test on every pair
//! of triangles, the second mesh's vertices mapped by the pose as the documentation says.

use std::sync::LazyLock;

use glam::{Affine3A, Mat3, Quat, Vec3};
use raybox::mesh::scene::{self, Pcg32};
use raybox::{BuildQuality, MeshData, Overlaps, TriMesh, Triangle3};

const QUALITIES: [BuildQuality; 3] = [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High];

/// `data` moved so that its box is centred on the origin and fits in `[-s, s]^3`.
fn fitted(data: MeshData, s: f32) -> MeshData {
    let (lo, hi) = data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let (c, k) = ((lo + hi) * 0.5, s / ((hi - lo) * 0.5).max_element());
    MeshData { vertices: data.vertices.iter().map(|&v| (v - c) * k).collect(), indices: data.indices }
}

fn build(data: &MeshData, quality: BuildQuality) -> TriMesh {
    TriMesh::with_quality(data.vertices.clone(), data.indices.clone(), quality).unwrap()
}

/// Small meshes (a few hundred triangles), so that brute force stays quick.
static SMALL: LazyLock<Vec<(&'static str, MeshData)>> = LazyLock::new(|| {
    vec![
        ("icosphere", fitted(scene::icosphere(2), 1.0)),
        ("terrain", fitted(scene::terrain(10, 7), 1.2)),
        ("soup", fitted(scene::triangle_soup(200, 3.0, 11), 1.0)),
    ]
});

/// The triangles brute force sees: every non-degenerate triangle of `mesh`, its vertices
/// mapped by `pose` (and still a triangle after the mapping).
fn placed(mesh: &TriMesh, pose: &Affine3A) -> Vec<(u32, Triangle3)> {
    mesh.indices()
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let v = t.map(|k| mesh.vertices()[k as usize]);
            Triangle3::try_new(v[0], v[1], v[2]).ok()?;
            let w = v.map(|p| pose.transform_point3(p));
            Some((i as u32, Triangle3::try_new(w[0], w[1], w[2]).ok()?))
        })
        .collect()
}

fn bounds(t: &Triangle3) -> (Vec3, Vec3) {
    let [a, b, c] = t.vertices();
    (a.min(b).min(c), a.max(b).max(c))
}

fn brute_pairs(a: &TriMesh, b: &TriMesh, pose: &Affine3A) -> Vec<(u32, u32)> {
    let mine = placed(a, &Affine3A::IDENTITY);
    let theirs = placed(b, pose);
    let mut pairs = Vec::new();
    for (i, s) in &mine {
        let (lo, hi) = bounds(s);
        for (j, t) in &theirs {
            let (l, h) = bounds(t);
            // The boxes first (exact, and implied by any common point), then the exact test.
            if lo.cmple(h).all() && l.cmple(hi).all() && s.overlaps(t) {
                pairs.push((*i, *j));
            }
        }
    }
    pairs
}

/// Every query agrees with brute force; returns the number of pairs.
fn check(a: &TriMesh, b: &TriMesh, pose: &Affine3A, what: &str) -> usize {
    let want = brute_pairs(a, b, pose);
    assert_eq!(a.overlapping_pairs(b, pose), want, "{what}");
    assert_eq!(a.overlaps_mesh(b, pose), !want.is_empty(), "{what}");
    let mut count = 0;
    a.for_each_overlapping_pair(b, pose, |_, _| count += 1);
    assert_eq!(count, want.len(), "{what}: each pair once");
    want.len()
}

fn random_pose(rng: &mut Pcg32, reach: f32) -> Affine3A {
    let axis = rng.unit_vector();
    let rotation = Quat::from_axis_angle(axis, rng.range(0.0, std::f32::consts::TAU));
    let shift = rng.unit_vector() * rng.range(0.0, reach);
    match rng.next_u32() % 4 {
        // Rigid, most of the time.
        0 | 1 => Affine3A::from_rotation_translation(rotation, shift),
        // Scaled unevenly.
        2 => {
            let scale = Vec3::new(rng.range(0.3, 2.0), rng.range(0.3, 2.0), rng.range(0.3, 2.0));
            Affine3A::from_scale_rotation_translation(scale, rotation, shift)
        }
        // Sheared.
        _ => {
            let m =
                Mat3::from_quat(rotation) + Mat3::from_cols(Vec3::ZERO, rng.unit_vector() * 0.5, Vec3::ZERO);
            Affine3A::from_mat3_translation(m, shift)
        }
    }
}

/// Random poses of every pair of small meshes, every build quality of the first: some
/// overlap, some do not, and the pairs are brute force's.
#[test]
fn random_poses_agree_with_brute_force() {
    let mut rng = Pcg32::new(3);
    let (mut overlapping, mut total, mut pairs) = (0, 0, 0);
    for (name_a, data_a) in SMALL.iter() {
        for quality in QUALITIES {
            let a = build(data_a, quality);
            for (name_b, data_b) in SMALL.iter() {
                let b = build(data_b, BuildQuality::Balanced);
                for i in 0..12 {
                    let pose = random_pose(&mut rng, 3.0);
                    let n = check(
                        &a,
                        &b,
                        &pose,
                        &format!("{name_a} ({quality:?}) / {name_b}, case {i}: {pose:?}"),
                    );
                    overlapping += usize::from(n > 0);
                    pairs += n;
                    total += 1;
                }
            }
        }
    }
    assert!(overlapping > total / 5 && overlapping < total * 4 / 5, "{overlapping} of {total}");
    assert!(pairs > 1000, "only {pairs} pairs in all");
}

/// The bunny (3,674 triangles) against the small meshes and against itself, both orders.
#[test]
fn the_bunny_agrees_with_brute_force() {
    let bunny = build(&fitted(raybox::mesh::bunny(), 1.0), BuildQuality::Balanced);
    let mut rng = Pcg32::new(9);
    let mut found = 0;
    for (name, data) in SMALL.iter() {
        let small = build(data, BuildQuality::Balanced);
        for i in 0..6 {
            let pose = random_pose(&mut rng, 1.5);
            found += check(&bunny, &small, &pose, &format!("bunny / {name}, case {i}"));
            found += check(&small, &bunny, &pose, &format!("{name} / bunny, case {i}"));
        }
    }
    let pose = Affine3A::from_rotation_translation(Quat::from_rotation_y(0.3), Vec3::new(0.05, 0.0, 0.0));
    found += check(&bunny, &bunny, &pose, "bunny / bunny");
    assert!(found > 100, "{found}");
}

/// A mesh against itself, unmoved: every triangle overlaps itself and the triangles it
/// shares a vertex with (touching counts).
#[test]
fn a_mesh_overlaps_itself_along_every_shared_vertex() {
    for (name, data) in SMALL.iter().take(2) {
        let mesh = build(data, BuildQuality::Balanced);
        let pairs = mesh.overlapping_pairs(&mesh, &Affine3A::IDENTITY);
        assert_eq!(pairs, brute_pairs(&mesh, &mesh, &Affine3A::IDENTITY), "{name}");
        let n = mesh.triangle_count() as u32;
        assert!((0..n).all(|i| pairs.binary_search(&(i, i)).is_ok()), "{name}: each triangle with itself");
        for (i, t) in mesh.indices().iter().enumerate() {
            for (j, u) in mesh.indices().iter().enumerate() {
                if t.iter().any(|v| u.contains(v)) {
                    assert!(
                        pairs.binary_search(&(i as u32, j as u32)).is_ok(),
                        "{name}: {i} and {j} share a vertex"
                    );
                }
            }
        }
    }
}

/// Unit cubes, the second moved by exactly 1 along each axis (sharing a face), by a little
/// more (apart), and diagonally by exactly (1, 1, 1) (sharing one corner): touching counts,
/// and one `f32` step more parts them.
#[test]
fn cubes_sharing_a_face_an_edge_or_a_corner_touch() {
    // The box [0, 1.5]^3 (a size whose steps are exact) in 12 outward-facing triangles.
    let vertices = (0..8)
        .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32) * 1.5)
        .collect();
    let indices = vec![
        [0, 2, 3],
        [0, 3, 1],
        [4, 5, 7],
        [4, 7, 6], // z = 0, z = 1.5
        [0, 1, 5],
        [0, 5, 4],
        [2, 6, 7],
        [2, 7, 3], // y = 0, y = 1.5
        [0, 4, 6],
        [0, 6, 2],
        [1, 3, 7],
        [1, 7, 5], // x = 0, x = 1.5
    ];
    let size = Vec3::splat(1.5);
    let mesh = TriMesh::new(vertices, indices).unwrap();
    for axis in [Vec3::X, Vec3::Y, Vec3::Z, Vec3::ONE, Vec3::new(1.0, 1.0, 0.0)] {
        let shift = axis * size;
        let touching = Affine3A::from_translation(shift);
        let n = check(&mesh, &mesh, &touching, &format!("touching along {axis}"));
        assert!(n > 0, "shifted by {shift}: the cubes touch");
        let apart =
            Affine3A::from_translation(Vec3::select(axis.cmpgt(Vec3::ZERO), shift.map(f32::next_up), shift));
        assert_eq!(check(&mesh, &mesh, &apart, &format!("apart along {axis}")), 0, "shifted past {shift}");
    }
}

/// Far from the origin and at extreme scales the carried boxes stay conservative.
#[test]
fn large_and_small_scales_agree_with_brute_force() {
    let (data_a, data_b) = (&SMALL[0].1, &SMALL[1].1);
    let mut rng = Pcg32::new(17);
    for (scale, offset) in [(1e-30f32, 0.0f32), (1e-3, 1e3), (1.0, 1e6), (1e30, 0.0)] {
        let moved = |d: &MeshData| MeshData {
            vertices: d.vertices.iter().map(|&v| v * scale + Vec3::splat(offset)).collect(),
            indices: d.indices.clone(),
        };
        let a = build(&moved(data_a), BuildQuality::Balanced);
        let b = build(&moved(data_b), BuildQuality::Balanced);
        let mut found = 0;
        for i in 0..8 {
            // Rotate `b` about its own centre (at `offset`) and shift it by up to its size.
            let r = Quat::from_axis_angle(rng.unit_vector(), rng.range(0.0, 6.0));
            let c = Vec3::splat(offset);
            let pose = Affine3A::from_translation(c + rng.unit_vector() * rng.range(0.0, 2.0) * scale)
                * Affine3A::from_quat(r)
                * Affine3A::from_translation(-c);
            found += check(&a, &b, &pose, &format!("scale {scale}, case {i}"));
        }
        assert!(found > 0, "scale {scale}: no pair, the test proves nothing");
    }
}

/// Empty meshes, degenerate triangles, poses that flatten or are not finite.
#[test]
fn bad_poses_and_empty_meshes_give_no_pairs() {
    let mesh = build(&SMALL[0].1, BuildQuality::Balanced);
    for bad in [f32::NAN, f32::INFINITY] {
        let pose = Affine3A::from_translation(Vec3::new(bad, 0.0, 0.0));
        assert!(!mesh.overlaps_mesh(&mesh, &pose));
        assert!(mesh.overlapping_pairs(&mesh, &pose).is_empty());
    }
    // Flattened onto the plane z = 0: triangles seen edge-on become segments and are
    // skipped; the others still overlap the sphere's equator.
    let flat = Affine3A::from_scale(Vec3::new(1.0, 1.0, 0.0));
    let n = check(&mesh, &mesh, &flat, "flattened");
    assert!(n > 0);
    let line = TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0], vec![[0, 1, 2]]).unwrap();
    assert!(!line.overlaps_mesh(&line, &Affine3A::IDENTITY));
    assert!(
        !mesh.overlaps_mesh(&line, &Affine3A::IDENTITY) && !line.overlaps_mesh(&mesh, &Affine3A::IDENTITY)
    );
}
