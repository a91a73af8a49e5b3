//! An audit of the `TriMesh` shape and pair queries and of the `Bvh` queries against brute
//! force (each triangle, pair or box tested alone with the single-shape query), on meshes
//! and box sets with awkward structure: duplicate and coincident triangles, degenerate
//! triangles mixed in, huge and tiny triangles together, meshes far from the origin, flat
//! meshes, a single triangle; shapes on a lattice, so that many of them exactly touch a
//! triangle, an edge two triangles share or a vertex; every build quality; scales from
//! `2^-60` to `2^60` (powers of two, so that the inputs stay exact).

use glam::{Affine3A, Quat, Vec3};
use raybox::mesh::{MeshQuery, MeshSweepHit};
use raybox::{
    Aabb3, BoxSoup, BuildQuality, Bvh, Capsule3, ClosestPoint, Contact, Contact3, Distance, Obb3, Overlaps,
    Plane, Ray3, RayCast, RayTriangle, Segment3, Sphere, Sweep, SweepHit3, TriMesh, Triangle3,
};

const QUALITIES: [BuildQuality; 3] = [BuildQuality::Fast, BuildQuality::Balanced, BuildQuality::High];

/// The scales every case runs at (powers of two: scaling keeps the inputs exact).
const SCALES: [i32; 5] = [-60, -20, 0, 20, 60];

/// Marsaglia's xorshift64, as the crate's `test_util`: the same cases on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// An integer in `[lo, hi]`.
    fn int(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % (hi - lo + 1) as u64) as i32
    }
    /// A multiple of `1 / den` in `[lo, hi]`.
    fn grid(&mut self, lo: i32, hi: i32, den: i32) -> f32 {
        self.int(lo * den, hi * den) as f32 / den as f32
    }
    fn point(&mut self, lo: i32, hi: i32, den: i32) -> Vec3 {
        Vec3::new(self.grid(lo, hi, den), self.grid(lo, hi, den), self.grid(lo, hi, den))
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

fn pow2(k: i32) -> f32 {
    2f32.powi(k)
}

/// A mesh as vertices and indices (before the build).
#[derive(Clone)]
struct Soup {
    name: &'static str,
    vertices: Vec<Vec3>,
    indices: Vec<[u32; 3]>,
}

impl Soup {
    fn scaled(&self, s: f32) -> Soup {
        Soup {
            name: self.name,
            vertices: self.vertices.iter().map(|&v| v * s).collect(),
            indices: self.indices.clone(),
        }
    }
    fn add(&mut self, a: Vec3, b: Vec3, c: Vec3) {
        let n = self.vertices.len() as u32;
        self.vertices.extend([a, b, c]);
        self.indices.push([n, n + 1, n + 2]);
    }
}

/// Triangles on the lattice of halves in `[-3, 3]^3`, with duplicates (the same indices,
/// the same points under other indices, the reversed winding) and degenerate triangles
/// (a repeated vertex, three collinear lattice points) mixed in.
fn duplicates(rng: &mut Rng) -> Soup {
    let mut s = Soup { name: "duplicates", vertices: Vec::new(), indices: Vec::new() };
    for _ in 0..14 {
        let (a, b, c) = (rng.point(-3, 3, 2), rng.point(-3, 3, 2), rng.point(-3, 3, 2));
        s.add(a, b, c);
        let last = *s.indices.last().unwrap();
        s.indices.push(last);
        s.indices.push([last[2], last[1], last[0]]);
        s.add(b, c, a);
        // A degenerate one beside it: a repeated vertex, or the midpoint of an edge.
        if rng.below(2) == 0 {
            s.add(a, a, c);
        } else {
            s.add(a, (a + b) * 0.5, b);
        }
    }
    // Triangles sharing edges: a fan about one lattice point.
    let hub = rng.point(-2, 2, 1);
    let ring: Vec<Vec3> = (0..6).map(|_| hub + rng.point(-2, 2, 1)).collect();
    for i in 0..ring.len() {
        s.add(hub, ring[i], ring[(i + 1) % ring.len()]);
    }
    s
}

/// A flat mesh: a grid of squares at `z = 0` split into two triangles each (shared edges and
/// vertices everywhere), a few squares doubled.
fn flat(rng: &mut Rng) -> Soup {
    let mut s = Soup { name: "flat", vertices: Vec::new(), indices: Vec::new() };
    let n = 5;
    for j in 0..=n {
        for i in 0..=n {
            s.vertices.push(Vec3::new(i as f32 - 2.5, j as f32 - 2.5, 0.0));
        }
    }
    let at = |i: u32, j: u32| j * (n + 1) + i;
    for j in 0..n {
        for i in 0..n {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            if (i + j) % 2 == 0 {
                s.indices.extend([[a, b, c], [a, c, d]]);
            } else {
                s.indices.extend([[a, b, d], [b, c, d]]);
            }
            if rng.below(6) == 0 {
                s.indices.push([a, b, c]);
            }
        }
    }
    s
}

/// Huge triangles (about 2^10 across) and tiny ones (2^-12) in one mesh.
fn huge_and_tiny(rng: &mut Rng) -> Soup {
    let mut s = Soup { name: "huge and tiny", vertices: Vec::new(), indices: Vec::new() };
    for _ in 0..4 {
        let c = rng.point(-2, 2, 1);
        s.add(c + rng.point(-1024, 1024, 1), c + rng.point(-1024, 1024, 1), c + rng.point(-1024, 1024, 1));
    }
    for _ in 0..30 {
        let c = rng.point(-3, 3, 2);
        let k = pow2(-12);
        s.add(c, c + rng.point(-2, 2, 1) * k, c + rng.point(-2, 2, 1) * k);
    }
    s
}

/// Small features far from the origin: the lattice of quarters near `(2^20, -2^20, 2^20)`
/// (where `f32`'s step is `2^-3`).
fn far(rng: &mut Rng) -> Soup {
    let mut s = duplicates(rng);
    s.name = "far";
    let offset = Vec3::new(1048576.0, -1048576.0, 1048576.0);
    for v in &mut s.vertices {
        *v = *v * 0.5 + offset;
    }
    s
}

fn single(rng: &mut Rng) -> Soup {
    let mut s = Soup { name: "single", vertices: Vec::new(), indices: Vec::new() };
    loop {
        let (a, b, c) = (rng.point(-2, 2, 1), rng.point(-2, 2, 1), rng.point(-2, 2, 1));
        if Triangle3::try_new(a, b, c).is_ok() {
            s.add(a, b, c);
            return s;
        }
    }
}

fn soups(seed: u64) -> Vec<Soup> {
    let mut rng = Rng::new(seed);
    vec![duplicates(&mut rng), flat(&mut rng), huge_and_tiny(&mut rng), far(&mut rng), single(&mut rng)]
}

/// Calls `f(mesh, triangles, rng, unit, label)` for each awkward mesh of `soups(seed)`,
/// scaled by `2^k` for each `k` of `scales` and built at each quality: `unit` is the mesh's
/// lattice step at that scale (0.5 for the far mesh, whose features lie on a finer lattice), `rng`
/// a generator seeded `rng_seed` plus the mesh's place in the list, `label` names the mesh,
/// the scale and the quality.
fn each_mesh(
    seed: u64,
    scales: &[i32],
    rng_seed: u64,
    mut f: impl FnMut(&TriMesh, &[(u32, Triangle3)], &mut Rng, f32, &str),
) {
    for (round, soup) in soups(seed).into_iter().enumerate() {
        let unit = if soup.name == "far" { 0.5 } else { 1.0 };
        for &k in scales {
            let s = pow2(k);
            let scaled = soup.scaled(s);
            for quality in QUALITIES {
                let mesh =
                    TriMesh::with_quality(scaled.vertices.clone(), scaled.indices.clone(), quality).unwrap();
                let tris = triangles(&mesh);
                let mut rng = Rng::new(rng_seed + round as u64);
                f(&mesh, &tris, &mut rng, unit * s, &format!("{} 2^{k} {quality:?}", soup.name));
            }
        }
    }
}

/// The triangles of the mesh that are triangles (the degenerate ones have no test).
fn triangles(mesh: &TriMesh) -> Vec<(u32, Triangle3)> {
    mesh.indices()
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let v = t.map(|k| mesh.vertices()[k as usize]);
            Triangle3::try_new(v[0], v[1], v[2]).ok().map(|tri| (i as u32, tri))
        })
        .collect()
}

fn brute_sweep<S: Sweep<Triangle3, Motion = Vec3, Hit = SweepHit3>>(
    tris: &[(u32, Triangle3)],
    shape: &S,
    motion: Vec3,
) -> Option<MeshSweepHit> {
    let mut best: Option<MeshSweepHit> = None;
    for &(i, tri) in tris {
        if let Some(h) = shape.sweep(motion, &tri)
            && best.is_none_or(|b| h.t < b.t)
        {
            best = Some(MeshSweepHit { t: h.t, point: h.point, normal: h.normal, triangle: i });
        }
    }
    best
}

/// A point of the mesh's region: a vertex, an edge midpoint, or a lattice point near one.
fn near_point(rng: &mut Rng, mesh: &TriMesh, unit: f32) -> Vec3 {
    let v = mesh.vertices();
    let a = v[rng.below(v.len())];
    let b = v[rng.below(v.len())];
    match rng.below(3) {
        0 => a,
        1 => (a + b) * 0.5,
        _ => a + rng.point(-2, 2, 2) * unit,
    }
}

/// A lattice vector of length at most about `2 unit`, sometimes zero.
fn motion(rng: &mut Rng, unit: f32) -> Vec3 {
    if rng.below(10) == 0 { Vec3::ZERO } else { rng.point(-2, 2, 2) * unit }
}

/// Counts of what a property's cases met, so that a test can check that both outcomes occur.
#[derive(Default)]
struct Seen {
    cases: usize,
    overlapping: usize,
    hits: usize,
}

/// Every shape query of `shape` on `mesh` against brute force over `tris`.
fn check_shape<S>(
    mesh: &TriMesh,
    tris: &[(u32, Triangle3)],
    shape: &S,
    motion: Vec3,
    what: &str,
    seen: &mut Seen,
) where
    S: MeshQuery + Overlaps<Triangle3> + Sweep<Triangle3, Motion = Vec3, Hit = SweepHit3> + std::fmt::Debug,
    Triangle3: Contact<S, Output = Contact3>,
{
    let want: Vec<u32> = tris.iter().filter(|(_, t)| shape.overlaps(t)).map(|&(i, _)| i).collect();
    let got = mesh.overlapping_triangles(shape);
    assert_eq!(got, want, "{what}: overlapping triangles of {shape:?}");
    assert_eq!(mesh.overlaps(shape), !want.is_empty(), "{what}: overlaps {shape:?}");
    let mut contacts = Vec::new();
    mesh.for_each_contact(shape, |id, c| contacts.push((id, c)));
    contacts.sort_by_key(|c| c.0);
    let brute: Vec<(u32, Contact3)> =
        tris.iter().filter_map(|&(i, t)| t.contact(shape).map(|c| (i, c))).collect();
    assert_eq!(contacts, brute, "{what}: contacts of {shape:?}");
    for (_, c) in &contacts {
        assert!(c.depth.is_finite() && c.normal.is_finite(), "{what}: contact {c:?} of {shape:?}");
    }
    let hit = mesh.sweep(shape, motion);
    assert_eq!(hit, brute_sweep(tris, shape, motion), "{what}: sweep of {shape:?} by {motion}");
    if let Some(h) = hit {
        assert!(h.t.is_finite() && h.point.is_finite() && h.normal.is_finite(), "{what}: {h:?}");
        assert!((0.0..=1.0).contains(&h.t), "{what}: {h:?}");
    }
    seen.cases += 1;
    seen.overlapping += usize::from(!want.is_empty());
    seen.hits += usize::from(hit.is_some_and(|h| h.t > 0.0));
}

/// A mesh, its triangles and the place shapes start from, for [`check_every_shape`].
struct Case<'a> {
    mesh: &'a TriMesh,
    tris: &'a [(u32, Triangle3)],
    unit: f32,
    away: Vec3,
    what: &'a str,
}

/// [`check_shape`] for each of the seven shapes made from the points `p`, `q` (a ball, a
/// box, an oriented box, a capsule, a segment, a triangle, a plane), moved by `m`; `seen`
/// counts per shape.
fn check_every_shape(rng: &mut Rng, case: &Case, (p, q): (Vec3, Vec3), m: Vec3, seen: &mut [Seen; 7]) {
    let (mesh, tris, u, what) = (case.mesh, case.tris, case.unit, case.what);
    let r = rng.grid(0, 4, 4) * u;
    check_shape(mesh, tris, &Sphere::new(p, r), m, what, &mut seen[0]);
    let b = Aabb3::new(p.min(q), p.max(q) + rng.point(0, 2, 2) * u);
    check_shape(mesh, tris, &b, m, what, &mut seen[1]);
    let o = Obb3::new(p, rng.point(0, 2, 4) * u, random_quat(rng));
    check_shape(mesh, tris, &o, m, what, &mut seen[2]);
    check_shape(mesh, tris, &Capsule3::new(p, q, r), m, what, &mut seen[3]);
    check_shape(mesh, tris, &Segment3::new(p, q), m, what, &mut seen[4]);
    let c = near_point(rng, mesh, u) + case.away;
    if let Ok(t) = Triangle3::try_new(p, q, c) {
        check_shape(mesh, tris, &t, m, what, &mut seen[5]);
    }
    let plane = Plane::from_point_normal(p, lattice_normal(rng));
    check_shape(mesh, tris, &plane, m, what, &mut seen[6]);
}

fn random_quat(rng: &mut Rng) -> Quat {
    let q = Quat::from_xyzw(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() + 0.1);
    q.normalize()
}

/// A lattice normal (an axis, a face diagonal or a general direction).
fn lattice_normal(rng: &mut Rng) -> Vec3 {
    loop {
        let n = rng.point(-2, 2, 1);
        if n != Vec3::ZERO {
            return n;
        }
    }
}

#[test]
fn shape_queries_on_awkward_meshes_agree_with_brute_force() {
    let mut seen = [(); 7].map(|_| Seen::default());
    each_mesh(1, &SCALES, 100, |mesh, tris, rng, u, label| {
        for case in 0..120 {
            let what = format!("{label} case {case}");
            // Half the shapes start away from the mesh's points and move back by
            // a lattice fraction of the way (often to touch exactly).
            let away = if case % 2 == 0 { Vec3::ZERO } else { rng.point(-3, 3, 1) * u };
            let p = near_point(rng, mesh, u) + away;
            let q = near_point(rng, mesh, u) + away;
            let m = if case % 2 == 0 { motion(rng, u) } else { -away * rng.grid(1, 3, 2) };
            let case = Case { mesh, tris, unit: u, away, what: &what };
            check_every_shape(rng, &case, (p, q), m, &mut seen);
        }
    });
    for (i, s) in seen.iter().enumerate() {
        assert!(
            s.overlapping > s.cases / 10 && s.overlapping < s.cases * 9 / 10,
            "shape {i}: {} of {}",
            s.overlapping,
            s.cases
        );
        assert!(s.hits > s.cases / 20, "shape {i}: {} sweeps hit after t = 0 of {}", s.hits, s.cases);
    }
}

#[test]
fn distances_to_points_on_awkward_meshes_agree_with_brute_force() {
    let mut checked = 0;
    each_mesh(2, &SCALES, 200, |mesh, tris, rng, u, label| {
        for case in 0..200 {
            let p = near_point(rng, mesh, u);
            let want = tris.iter().map(|(_, t)| t.distance_to_point(p)).fold(f32::INFINITY, f32::min);
            let got = mesh.distance_to_point(p);
            assert_eq!(got, Some(want), "{label} case {case}: distance to {p}");
            checked += 1;
        }
    });
    assert!(checked > 10_000);
}

/// Every non-degenerate triangle of `mesh` with its vertices mapped by `pose` (and still a
/// triangle after the mapping).
fn placed(mesh: &TriMesh, pose: &Affine3A) -> Vec<(u32, Triangle3)> {
    triangles(mesh)
        .into_iter()
        .filter_map(|(i, t)| {
            let w = t.vertices().map(|p| pose.transform_point3(p));
            Some((i, Triangle3::try_new(w[0], w[1], w[2]).ok()?))
        })
        .collect()
}

/// Poses made of lattice translations and quarter turns (exact), or general turns.
fn pose(rng: &mut Rng, unit: f32, centre: Vec3) -> Affine3A {
    let shift = rng.point(-2, 2, 2) * unit;
    let turn = match rng.below(3) {
        0 => Quat::IDENTITY,
        1 => Quat::from_rotation_arc(Vec3::X, [Vec3::Y, Vec3::Z, Vec3::NEG_X, Vec3::NEG_Y][rng.below(4)]),
        _ => random_quat(rng),
    };
    // About `centre`, then shifted.
    let m = glam::Mat3::from_quat(turn);
    let exact = |x: f32| if (x - x.round()).abs() < 1e-6 { x.round() } else { x };
    let m = glam::Mat3::from_cols_array(&m.to_cols_array().map(exact));
    Affine3A::from_mat3_translation(m, centre - m * centre + shift)
}

#[test]
fn mesh_pairs_on_awkward_meshes_agree_with_brute_force() {
    let (mut checked, mut touching, mut apart) = (0, 0, 0);
    let all = soups(3);
    for k in SCALES {
        let s = pow2(k);
        for (round, a) in all.iter().enumerate() {
            let b = &all[(round + 1 + round % 2) % all.len()];
            // The far mesh meets only itself.
            let b = if a.name == "far" {
                a
            } else if b.name == "far" {
                &all[0]
            } else {
                b
            };
            let unit = if a.name == "far" { 0.5 } else { 1.0 } * s;
            for quality in QUALITIES {
                let ma = TriMesh::with_quality(a.scaled(s).vertices, a.indices.clone(), quality).unwrap();
                let mb = TriMesh::with_quality(b.scaled(s).vertices, b.indices.clone(), quality).unwrap();
                let mine = placed(&ma, &Affine3A::IDENTITY);
                let mut rng = Rng::new(300 + round as u64);
                for case in 0..12 {
                    let what = format!("{} with {} 2^{k} {quality:?} case {case}", a.name, b.name);
                    let centre = ma.vertices()[rng.below(ma.vertices().len())];
                    let pose = pose(&mut rng, unit, centre);
                    let theirs = placed(&mb, &pose);
                    let mut want = Vec::new();
                    let mut contacts = Vec::new();
                    let mut best: Option<(f32, (u32, u32))> = None;
                    for (i, t) in &mine {
                        for (j, u) in &theirs {
                            if t.overlaps(u) {
                                want.push((*i, *j));
                                contacts.push((*i, *j, t.contact(u).unwrap()));
                            }
                            let d = t.distance(u);
                            if best.is_none_or(|(bd, _)| d < bd) {
                                best = Some((d, (*i, *j)));
                            }
                        }
                    }
                    assert_eq!(ma.overlapping_pairs(&mb, &pose), want, "{what}: pairs");
                    assert_eq!(ma.overlaps_mesh(&mb, &pose), !want.is_empty(), "{what}: overlap");
                    let mut got = Vec::new();
                    ma.for_each_contact_pair(&mb, &pose, |i, j, c| got.push((i, j, c)));
                    got.sort_by_key(|c| (c.0, c.1));
                    assert_eq!(got, contacts, "{what}: contacts");
                    let c = ma.closest_points_to_mesh(&mb, &pose, f32::INFINITY);
                    assert_eq!(c.map(|c| c.distance), best.map(|b| b.0), "{what}: distance");
                    assert_eq!(ma.distance_to_mesh(&mb, &pose), best.map(|b| b.0), "{what}: distance");
                    if let (Some(c), Some((d, pair))) = (c, best) {
                        assert!(c.point_mine.is_finite() && c.point_theirs.is_finite(), "{what}: {c:?}");
                        if d > 0.0 {
                            assert_eq!((c.mine, c.theirs), pair, "{what}: ties go to the lowest pair");
                            assert_eq!(ma.closest_points_to_mesh(&mb, &pose, d.next_down()), None, "{what}");
                            apart += 1;
                        } else {
                            touching += 1;
                        }
                        assert_eq!(ma.closest_points_to_mesh(&mb, &pose, d), Some(c), "{what}: bound at d");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked > 800 && touching > checked / 10 && apart > checked / 10,
        "{checked}: {touching} touching, {apart} apart"
    );
}

/// The closest hit of the ray on the triangles, each tested alone (ties to the lowest index).
fn brute_ray(tris: &[(u32, Triangle3)], ray: &Ray3) -> Option<(f32, u32)> {
    let mut best: Option<(f32, u32)> = None;
    for &(i, t) in tris {
        if let RayTriangle::Hit(h) = t.ray_intersection(ray)
            && best.is_none_or(|(bt, _)| h.t < bt)
        {
            best = Some((h.t, i));
        }
    }
    best
}

#[test]
fn rays_on_awkward_meshes_agree_with_brute_force_and_occluded_with_cast_ray() {
    let (mut checked, mut hits, mut coplanar) = (0, 0, 0);
    each_mesh(4, &SCALES, 400, |mesh, tris, rng, u, label| {
        let mut rays = Vec::new();
        for case in 0..300 {
            // From a lattice point toward a vertex, an edge's midpoint or a lattice
            // point near them (through shared edges and vertices).
            let target = near_point(rng, mesh, u);
            let origin = target + rng.point(-3, 3, 1) * u;
            let Ok(mut ray) = Ray3::try_new(origin, target - origin) else { continue };
            match case % 4 {
                0 => {}
                1 => ray = Ray3::with_range(origin, target - origin, f32::NEG_INFINITY, f32::INFINITY),
                2 => ray = Ray3::with_range(origin, target - origin, 0.0, 1.0), // ends on the target
                _ => {
                    // Ends exactly at the closest hit, or just before it.
                    if let Some((t, _)) = brute_ray(tris, &ray) {
                        let end = if case % 8 == 3 { t } else { t.next_down() };
                        if end >= 0.0 {
                            ray = Ray3::with_range(origin, target - origin, 0.0, end);
                        }
                    }
                }
            }
            let what = format!("{label} case {case}: {ray:?}");
            let want = brute_ray(tris, &ray);
            let got = mesh.cast_ray(&ray);
            assert_eq!(mesh.occluded(&ray), got.is_some(), "{what}: occluded against cast_ray");
            // A ray in a triangle's plane is the watertight kernel's to decide (its
            // sheared edge functions may or may not vanish): left out, and counted.
            let edge_on = tris.iter().any(|(_, t)| {
                matches!(t.ray_intersection(&ray), RayTriangle::Coplanar { span: Some(s) }
                    if want.is_none_or(|w| s.t_enter <= w.0))
            });
            if edge_on {
                coplanar += 1;
                continue;
            }
            assert_eq!(got.map(|h| (h.t, h.triangle)), want, "{what}: cast_ray");
            assert_eq!(mesh.first_hit(&ray).map(|h| (h.t, h.triangle)), want, "{what}: first_hit");
            assert_eq!(mesh.occluded(&ray), want.is_some(), "{what}: occluded");
            if let Some(h) = got {
                assert!(h.point.is_finite() && h.normal.is_finite(), "{what}: {h:?}");
            }
            hits += usize::from(want.is_some());
            checked += 1;
            rays.push(ray);
        }
        let singles: Vec<bool> = rays.iter().map(|r| mesh.occluded(r)).collect();
        assert_eq!(mesh.occluded_rays(&rays), singles, "{label}: batch");
    });
    assert!(hits > checked / 4 && hits < checked * 9 / 10, "{hits} of {checked}");
    assert!(coplanar < checked / 10, "{coplanar} rays in a triangle's plane, of {checked}");
}

/// A closed box `[lo, lo + n]^3` whose faces are grids of unit squares split in two
/// (shared edges and vertices everywhere, both diagonals), wound outward.
fn gridded_cube(n: i32, lo: Vec3) -> Soup {
    let mut s = Soup { name: "cube", vertices: Vec::new(), indices: Vec::new() };
    for axis in 0..3 {
        for side in [0, n] {
            for j in 0..n {
                for i in 0..n {
                    let at = |di: i32, dj: i32| {
                        let mut v = Vec3::ZERO;
                        v[axis] = side as f32;
                        v[(axis + 1) % 3] = (i + di) as f32;
                        v[(axis + 2) % 3] = (j + dj) as f32;
                        lo + v
                    };
                    let (a, b, c, d) = (at(0, 0), at(1, 0), at(1, 1), at(0, 1));
                    let (a, b, c, d) = if side == 0 { (a, d, c, b) } else { (a, b, c, d) };
                    if (i + j) % 2 == 0 {
                        s.add(a, b, c);
                        s.add(a, c, d);
                    } else {
                        s.add(a, b, d);
                        s.add(b, c, d);
                    }
                }
            }
        }
    }
    s
}

#[test]
fn contains_point_on_a_gridded_cube_is_exact() {
    let (mut inside, mut boundary, mut checked) = (0, 0, 0);
    for (lo, name) in
        [(Vec3::splat(-2.0), "at the origin"), (Vec3::new(1048576.0, -1048576.0, 524288.0), "far")]
    {
        let cube = gridded_cube(4, lo);
        for k in SCALES {
            let s = pow2(k);
            for quality in QUALITIES {
                let mesh =
                    TriMesh::with_quality(cube.scaled(s).vertices, cube.indices.clone(), quality).unwrap();
                let mut rng = Rng::new(500);
                for case in 0..400 {
                    // Halves from one outside to one past the far side: on faces, edges, vertices.
                    let off = rng.point(-1, 5, 2);
                    let p = (lo + off) * s;
                    let want = off.cmpge(Vec3::ZERO).all() && off.cmple(Vec3::splat(4.0)).all();
                    let on = want && (off.min_element() == 0.0 || off.max_element() == 4.0);
                    assert_eq!(mesh.contains_point(p), want, "{name} 2^{k} {quality:?} case {case}: {off}");
                    inside += usize::from(want);
                    boundary += usize::from(on);
                    checked += 1;
                }
            }
        }
    }
    assert!(
        inside > checked / 5 && boundary > checked / 10,
        "{inside} inside, {boundary} on the surface, of {checked}"
    );
}

/// Awkward box sets: many identical boxes, points and flat boxes, huge and tiny boxes
/// together, small boxes far from the origin, a single box.
fn box_sets(rng: &mut Rng) -> Vec<(&'static str, Vec<Aabb3>)> {
    let lattice_box = |rng: &mut Rng, lo: i32, hi: i32, den: i32, size: f32| {
        let p = rng.point(lo, hi, den);
        // Some boxes are points or flat along an axis.
        let mut h = rng.point(0, 2, 2) * size;
        if rng.below(3) == 0 {
            h[rng.below(3)] = 0.0;
        }
        Aabb3::new(p, p + h)
    };
    let mut identical = vec![Aabb3::new(Vec3::splat(-0.5), Vec3::splat(0.5)); 200];
    identical.extend((0..40).map(|_| lattice_box(rng, -3, 3, 2, 1.0)));
    let duplicates: Vec<Aabb3> = (0..60)
        .flat_map(|_| {
            let b = lattice_box(rng, -4, 4, 2, 1.0);
            vec![b; 1 + rng.below(4)]
        })
        .collect();
    let mut mixed: Vec<Aabb3> = (0..150).map(|_| lattice_box(rng, -4, 4, 4, pow2(-12))).collect();
    mixed.extend((0..6).map(|_| lattice_box(rng, -4, 4, 1, 512.0)));
    let offset = Vec3::new(1048576.0, -1048576.0, 1048576.0);
    let far: Vec<Aabb3> = (0..150)
        .map(|_| {
            let b = lattice_box(rng, -4, 4, 4, 0.5);
            Aabb3::new(b.min() + offset, b.max() + offset)
        })
        .collect();
    let points: Vec<Aabb3> = (0..150).map(|_| lattice_box(rng, -3, 3, 1, 0.0)).collect();
    vec![
        ("identical", identical),
        ("duplicates", duplicates),
        ("huge and tiny", mixed),
        ("far", far),
        ("points", points),
        ("single", vec![lattice_box(rng, -2, 2, 1, 1.0)]),
    ]
}

fn scale_box(b: &Aabb3, s: f32) -> Aabb3 {
    Aabb3::new(b.min() * s, b.max() * s)
}

/// Every `Bvh` query on `bvh` over `boxes` against the linear scan.
fn check_bvh(
    bvh: &Bvh,
    boxes: &[Aabb3],
    rng: &mut Rng,
    unit: f32,
    centre: Vec3,
    what: &str,
) -> (usize, usize) {
    let (mut hits, mut overlaps) = (0, 0);
    let near = |rng: &mut Rng| {
        let b = &boxes[rng.below(boxes.len())];
        match rng.below(3) {
            0 => b.min(),
            1 => b.max(),
            _ => centre + rng.point(-5, 5, 2) * unit,
        }
    };
    for case in 0..60 {
        let what = format!("{what} case {case}");
        // Rays from a lattice point at a box's corner or a lattice point: grazing faces,
        // edges and corners, some axis-parallel, some lines, some ending on the target.
        let target = near(rng);
        let mut d = rng.point(-3, 3, 1) * unit;
        if case % 5 == 0 {
            d = Vec3::ZERO;
            d[rng.below(3)] = unit;
        }
        if d == Vec3::ZERO {
            d = Vec3::X * unit;
        }
        let origin = target - d * rng.grid(1, 4, 2);
        let ray = match case % 3 {
            0 => Ray3::new(origin, d),
            1 => Ray3::with_range(origin, d, f32::NEG_INFINITY, f32::INFINITY),
            _ => Ray3::with_range(origin, d, 0.0, rng.grid(0, 4, 2)),
        };
        let span = |i: u32, r: &Ray3| boxes[i as usize].ray_span(r).map(|s| s.t_enter);
        let want: Option<f32> = (0..boxes.len() as u32).filter_map(|i| span(i, &ray)).min_by(f32::total_cmp);
        let got = bvh.cast_ray(&ray, |i, r| span(i, r));
        assert_eq!(got.map(|g| g.1), want, "{what}: closest hit of {ray:?}");
        if let Some((i, t)) = got {
            assert_eq!(span(i, &ray), Some(t), "{what}: the primitive reported");
        }
        let any = bvh.any_hit(&ray, |i, r| span(i, r).is_some());
        assert_eq!(any.is_some(), want.is_some(), "{what}: any hit of {ray:?}");
        if let Some(i) = any {
            assert!(span(i, &ray).is_some(), "{what}: any hit {i}");
        }
        let mut all_want: Vec<(u32, f32)> =
            (0..boxes.len() as u32).filter_map(|i| span(i, &ray).map(|t| (i, t))).collect();
        all_want.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        assert_eq!(bvh.all_hits(&ray, |i, r| span(i, r)), all_want, "{what}: all hits of {ray:?}");
        hits += usize::from(want.is_some());

        // Boxes and balls touching boxes exactly (lattice corners and faces).
        let p = near(rng);
        let q = Aabb3::new(p, p + rng.point(0, 3, 2) * unit);
        let mut got = Vec::new();
        bvh.for_each_overlapping_aabb(&q, |i| got.push(i));
        got.sort_unstable();
        let want: Vec<u32> = (0..boxes.len() as u32).filter(|&i| boxes[i as usize].overlaps(&q)).collect();
        assert_eq!(got, want, "{what}: boxes overlapping {q:?}");
        overlaps += usize::from(!want.is_empty());
        let ball = Sphere::new(p, rng.grid(0, 6, 2) * unit);
        let mut got = Vec::new();
        bvh.for_each_overlapping_sphere(&ball, |i| got.push(i));
        got.sort_unstable();
        let want: Vec<u32> = (0..boxes.len() as u32).filter(|&i| ball.overlaps(&boxes[i as usize])).collect();
        assert_eq!(got, want, "{what}: boxes overlapping {ball:?}");

        let dist = |i: u32| boxes[i as usize].distance_to_point(p);
        let want = (0..boxes.len() as u32).map(dist).fold(f32::INFINITY, f32::min);
        let got = bvh.nearest(p, |i, _| Some(dist(i)));
        assert_eq!(got.map(|g| g.1), Some(want), "{what}: nearest to {p}");
        if let Some((i, d)) = got {
            assert_eq!(dist(i), d, "{what}: the nearest primitive reported");
        }
    }
    (hits, overlaps)
}

#[test]
fn bvh_queries_on_awkward_boxes_agree_with_a_linear_scan() {
    let (mut hits, mut overlaps, mut checked) = (0, 0, 0);
    let mut rng = Rng::new(600);
    for (name, base) in box_sets(&mut rng) {
        let unit = if name == "far" { 0.5 } else { 1.0 };
        let centre = if name == "far" { Vec3::new(1048576.0, -1048576.0, 1048576.0) } else { Vec3::ZERO };
        for k in SCALES {
            let s = pow2(k);
            let boxes: Vec<Aabb3> = base.iter().map(|b| scale_box(b, s)).collect();
            // The boxes moved by lattice steps, for the refit (some collapse onto others).
            let moved: Vec<Aabb3> = boxes
                .iter()
                .map(|b| {
                    let v = rng.point(-1, 1, 2) * unit * s;
                    Aabb3::new(b.min() + v, b.max() + v)
                })
                .collect();
            for quality in QUALITIES {
                let what = format!("{name} 2^{k} {quality:?}");
                let mut bvh = Bvh::build(&boxes, quality).unwrap();
                bvh.validate(&boxes).unwrap();
                let (h, o) = check_bvh(&bvh, &boxes, &mut rng, unit * s, centre * s, &what);
                bvh.refit(&moved).unwrap();
                bvh.validate(&moved).unwrap();
                let (h2, o2) =
                    check_bvh(&bvh, &moved, &mut rng, unit * s, centre * s, &format!("{what} refitted"));
                // Refitted back: the same answers as the fresh build.
                bvh.refit(&boxes).unwrap();
                bvh.validate(&boxes).unwrap();
                let (h3, o3) =
                    check_bvh(&bvh, &boxes, &mut rng, unit * s, centre * s, &format!("{what} back"));
                (hits, overlaps, checked) = (hits + h + h2 + h3, overlaps + o + o2 + o3, checked + 180);
            }
        }
    }
    assert!(hits > checked / 5 && overlaps > checked / 5, "{hits} hits, {overlaps} overlaps of {checked}");
}

/// A saved and loaded `Bvh` (and `TriMesh`) answers as the original, before and after refit.
#[cfg(feature = "serde")]
#[test]
fn saved_and_loaded_bvhs_answer_the_same() {
    let mut rng = Rng::new(700);
    for (name, boxes) in box_sets(&mut rng) {
        let moved: Vec<Aabb3> = boxes.iter().map(|b| b.translated(rng.point(-1, 1, 2))).collect();
        for quality in QUALITIES {
            let mut bvh = Bvh::build(&boxes, quality).unwrap();
            for (stage, prims) in [("built", &boxes), ("refitted", &moved)] {
                if stage == "refitted" {
                    bvh.refit(&moved).unwrap();
                }
                let json = serde_json::to_string(&bvh).unwrap();
                let back: Bvh =
                    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name} {quality:?} {stage}: {e}"));
                back.validate(prims).unwrap();
                assert_eq!(back.stats(), bvh.stats());
                let centre =
                    if name == "far" { Vec3::new(1048576.0, -1048576.0, 1048576.0) } else { Vec3::ZERO };
                let seed = rng.next();
                let a = check_bvh(&bvh, prims, &mut Rng(seed), 1.0, centre, name);
                let b = check_bvh(&back, prims, &mut Rng(seed), 1.0, centre, name);
                assert_eq!(a, b);
            }
        }
    }
    // The empty BVH, as built and refitted.
    let mut empty = Bvh::build(&[], BuildQuality::Balanced).unwrap();
    for stage in ["built", "refitted"] {
        if stage == "refitted" {
            empty.refit(&[]).unwrap();
        }
        let json = serde_json::to_string(&empty).unwrap();
        let back: Bvh =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("empty, {stage}: {e} in {json}"));
        assert!(back.is_empty() && back.bounds().is_none(), "empty, {stage}");
        assert_eq!(back.cast_ray(&Ray3::new(Vec3::ZERO, Vec3::X), |_, _| Some(0.0)), None);
    }
}

#[test]
fn box_soups_flag_every_box_a_ray_enters() {
    let mut rng = Rng::new(800);
    let mut entered = 0;
    for (name, base) in box_sets(&mut rng) {
        for k in SCALES {
            let s = pow2(k);
            let boxes: Vec<Aabb3> = base.iter().map(|b| scale_box(b, s)).collect();
            let soup = BoxSoup::new(&boxes);
            let mut flags = vec![false; boxes.len()];
            for case in 0..100 {
                let b = &boxes[rng.below(boxes.len())];
                let target = if case % 2 == 0 { b.min() } else { b.max() };
                let d = rng.point(-3, 3, 1) * s;
                let Ok(ray) = Ray3::try_with_range(
                    target - d,
                    d,
                    if case % 3 == 0 { f32::NEG_INFINITY } else { 0.0 },
                    1.0,
                ) else {
                    continue;
                };
                soup.hit_flags(&ray, &mut flags);
                assert_eq!(
                    soup.count_hits(&ray),
                    flags.iter().filter(|&&f| f).count(),
                    "{name} 2^{k}: {ray:?}"
                );
                for (i, b) in boxes.iter().enumerate() {
                    if b.ray_span(&ray).is_some() {
                        assert!(flags[i], "{name} 2^{k}: box {i} {b:?} entered by {ray:?} not flagged");
                        entered += 1;
                    }
                }
            }
        }
    }
    assert!(entered > 1000, "{entered}");
}

/// Meshes whose triangles are all degenerate (no tree) save and load, with every quality.
#[cfg(feature = "serde")]
#[test]
fn saved_and_loaded_meshes_of_degenerate_triangles_load() {
    for quality in QUALITIES {
        let mesh = TriMesh::with_quality(
            vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0],
            vec![[0, 1, 2], [0, 0, 1]],
            quality,
        )
        .unwrap();
        let json = serde_json::to_string(&mesh).unwrap();
        let back: TriMesh =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{quality:?}: {e} in {json}"));
        assert_eq!(back.bvh_stats(), mesh.bvh_stats(), "{quality:?}");
        assert_eq!((back.bounds(), back.degenerate_count()), (None, 2), "{quality:?}");
        assert_eq!(back.distance_to_point(Vec3::ONE), None);
        assert!(!back.overlaps(&Sphere::new(Vec3::ZERO, 1.0)));
    }
}

/// Shapes that start far away (`2^8` to `2^24` of the mesh's lattice step) and move a long way
/// onto the mesh, where the pair sweeps' tolerances (relative to the motion) are largest
/// against the walk's culling of node boxes (relative to the coordinates).
#[test]
fn long_sweeps_on_awkward_meshes_agree_with_brute_force() {
    let mut seen = [(); 7].map(|_| Seen::default());
    each_mesh(9, &[-40, 0, 40], 900, |mesh, tris, rng, u, label| {
        for case in 0..60 {
            let what = format!("{label} case {case}");
            let far = pow2(8 + 8 * (case % 3));
            let mut dir = rng.point(-2, 2, 1);
            if dir == Vec3::ZERO {
                dir = Vec3::Z;
            }
            let away = dir * far * u;
            let p = near_point(rng, mesh, u) + away;
            let q = near_point(rng, mesh, u) + away;
            let m = -away * rng.grid(2, 4, 2) * 0.5;
            let case = Case { mesh, tris, unit: u, away, what: &what };
            check_every_shape(rng, &case, (p, q), m, &mut seen);
        }
    });
    for (i, s) in seen.iter().enumerate() {
        assert!(s.hits > s.cases / 10, "shape {i}: {} sweeps hit after t = 0 of {}", s.hits, s.cases);
    }
}

/// Refitting the empty BVH leaves it as built: no leaf in its counts, no box.
#[test]
fn refitting_an_empty_bvh_leaves_it_as_built() {
    for quality in QUALITIES {
        let built = Bvh::build(&[], quality).unwrap();
        let mut refitted = built.clone();
        refitted.refit(&[]).unwrap();
        assert_eq!(refitted.stats(), built.stats(), "{quality:?}");
        assert_eq!(refitted.stats().leaf_count, 0, "{quality:?}");
        assert!(refitted.is_empty() && refitted.bounds().is_none() && refitted.validate(&[]).is_ok());
        assert_eq!(refitted.nearest(Vec3::ZERO, |_, _| Some(0.0)), None);
    }
}

/// Balls, capsules and oriented boxes whose boxes reach past `f32::MAX` (valid shapes: only
/// their `to_aabb` would overflow) against meshes near the top of the `f32` range: every
/// query answers as brute force does, and none panics.
#[test]
fn shapes_reaching_past_f32_max_agree_with_brute_force() {
    let mut seen = Seen::default();
    for (round, soup) in soups(10).into_iter().enumerate() {
        if soup.name == "far" || soup.name == "huge and tiny" {
            continue; // (their coordinates would overflow at this scale)
        }
        let s = pow2(125);
        let soup = soup.scaled(s);
        for quality in QUALITIES {
            let mesh = TriMesh::with_quality(soup.vertices.clone(), soup.indices.clone(), quality).unwrap();
            let tris = triangles(&mesh);
            let mut rng = Rng::new(1000 + round as u64);
            for case in 0..40 {
                let what = format!("{} 2^125 {quality:?} case {case}", soup.name);
                let p = near_point(&mut rng, &mesh, s) * 0.5;
                let q = near_point(&mut rng, &mesh, s) * 0.5;
                let m = rng.point(-1, 1, 2) * s;
                let r = rng.grid(2, 7, 1) * s;
                check_shape(&mesh, &tris, &Sphere::new(p, r), m, &what, &mut seen);
                check_shape(&mesh, &tris, &Capsule3::new(p, q, r), m, &what, &mut seen);
                let o = Obb3::new(p, rng.point(2, 6, 1) * s, random_quat(&mut rng));
                check_shape(&mesh, &tris, &o, m, &what, &mut seen);
            }
        }
    }
    assert!(seen.overlapping > seen.cases / 4, "{} of {}", seen.overlapping, seen.cases);
}

/// A point whose distance to the mesh is past `f32::MAX` gets `inf`, as from each triangle,
/// not `None` (which means "no triangle").
#[test]
fn distances_past_f32_max_are_infinite_not_none() {
    let big = 3.0e38f32;
    for quality in QUALITIES {
        let v = vec![Vec3::new(big, 0.0, 0.0), Vec3::new(big, 1e38, 0.0), Vec3::new(big, 0.0, 1e38)];
        let tri = Triangle3::new(v[0], v[1], v[2]);
        let mesh = TriMesh::with_quality(v, vec![[0, 1, 2], [0, 2, 1]], quality).unwrap();
        for p in [Vec3::new(-big, 0.0, 0.0), Vec3::new(-big, -big, 0.0), Vec3::new(0.0, -big, -big)] {
            let want = tri.distance_to_point(p);
            assert_eq!(mesh.distance_to_point(p), Some(want), "{quality:?}: {p}");
        }
        assert_eq!(mesh.distance_to_point(Vec3::ZERO), Some(tri.distance_to_point(Vec3::ZERO)));
    }
}

/// The octahedron `|x| + |y| + |z| <= n` about `c`, each face cut into `n^2` lattice triangles
/// (slanted faces: a point on them is not on a coordinate plane).
fn octa(n: i32, c: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut v = vec![];
    let mut ix = vec![];
    for sx in [-1.0f32, 1.0] {
        for sy in [-1.0f32, 1.0] {
            for sz in [-1.0f32, 1.0] {
                // face with corners n*X*sx, n*Y*sy, n*Z*sz; barycentric lattice (i, j, n-i-j)
                let p = |i: i32, j: i32| c + Vec3::new(sx * i as f32, sy * j as f32, sz * (n - i - j) as f32);
                let flip = sx * sy * sz < 0.0;
                let mut add = |a: Vec3, b: Vec3, d: Vec3| {
                    let k = v.len() as u32;
                    v.extend([a, b, d]);
                    ix.push(if flip { [k, k + 2, k + 1] } else { [k, k + 1, k + 2] });
                };
                for i in 0..n {
                    for j in 0..(n - i) {
                        add(p(i, j), p(i + 1, j), p(i, j + 1));
                        if i + j + 1 < n {
                            add(p(i + 1, j), p(i + 1, j + 1), p(i, j + 1));
                        }
                    }
                }
            }
        }
    }
    (v, ix)
}

#[test]
fn contains_point_on_a_gridded_octahedron_is_exact() {
    let (mut inside, mut boundary, mut checked) = (0, 0, 0);
    for (c, name) in [(Vec3::ZERO, "at the origin"), (Vec3::new(1048576.0, 524288.0, -262144.0), "far")] {
        let n = 4;
        let (v, ix) = octa(n, c);
        for k in SCALES {
            let s = pow2(k);
            for quality in QUALITIES {
                let mesh =
                    TriMesh::with_quality(v.iter().map(|&x| x * s).collect(), ix.clone(), quality).unwrap();
                // Every half-lattice point of [-5, 5]^3: inside, outside, on faces, edges, vertices.
                for x in -10..=10 {
                    for y in -10..=10 {
                        for z in (-10..=10).step_by(3) {
                            let off = Vec3::new(x as f32, y as f32, z as f32) * 0.5;
                            let l1 = off.x.abs() + off.y.abs() + off.z.abs();
                            let want = l1 <= n as f32;
                            let got = mesh.contains_point((c + off) * s);
                            assert_eq!(got, want, "{name} 2^{k} {quality:?}: {off}");
                            inside += usize::from(want);
                            boundary += usize::from(l1 == n as f32);
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(
        inside > checked / 20 && boundary > checked / 50,
        "{inside} inside, {boundary} on the surface, of {checked}"
    );
}

/// A saved and loaded `TriMesh` answers the shape and ray queries as the original.
#[cfg(feature = "serde")]
#[test]
fn saved_and_loaded_meshes_answer_the_same() {
    for soup in soups(11) {
        for quality in QUALITIES {
            let mesh = TriMesh::with_quality(soup.vertices.clone(), soup.indices.clone(), quality).unwrap();
            let back: TriMesh = serde_json::from_str(&serde_json::to_string(&mesh).unwrap()).unwrap();
            assert_eq!(back.bvh_stats(), mesh.bvh_stats());
            let mut rng = Rng::new(1100);
            let unit = if soup.name == "far" { 0.5 } else { 1.0 };
            for _ in 0..100 {
                let p = near_point(&mut rng, &mesh, unit);
                let d = rng.point(-3, 3, 1) * unit;
                let ball = Sphere::new(p + d, rng.grid(0, 4, 4) * unit);
                assert_eq!(
                    back.overlapping_triangles(&ball),
                    mesh.overlapping_triangles(&ball),
                    "{}",
                    soup.name
                );
                assert_eq!(back.sweep(&ball, -d), mesh.sweep(&ball, -d), "{}", soup.name);
                assert_eq!(back.distance_to_point(p + d), mesh.distance_to_point(p + d), "{}", soup.name);
                if let Ok(ray) = Ray3::try_new(p + d, -d) {
                    assert_eq!(back.cast_ray(&ray), mesh.cast_ray(&ray), "{}", soup.name);
                }
            }
        }
    }
}
