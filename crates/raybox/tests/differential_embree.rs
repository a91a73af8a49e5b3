//! raybox's mesh casts against Embree 3 (`rtcIntersect1`, `rtcOccluded1`), the ray casting
//! peer raybox measures its speed against, on the same meshes and rays.
//!
//! Embree is opened at run time (`embree-peer`); where it is not installed this test says
//! so and checks nothing, unless `RAYBOX_REQUIRE_EMBREE` is set (CI sets it once it has
//! installed the library), which turns its absence into a failure.
//!
//! **Adjudication.** Embree's default triangle test is not watertight, so near a shared
//! edge it may miss the near triangle (and report the one behind it, or nothing), and its
//! `t` is less exact than raybox's (on a thin triangle of the soup, off by `2e-4` relative
//! where raybox's was within `1.3e-5`). So Embree is not the judge; exact checks in `f64`
//! are, with distances measured in space, not in barycentric terms, so that grazing rays
//! (where a rounding of the vertices moves the hit far along the ray) are judged fairly:
//! - every hit raybox reports must lie within `1e-5` of the scene's size of the triangle it
//!   names (raybox never reports a hit that is not there, nor the wrong triangle);
//! - on every ray where the two disagree beyond `1e-4` relative in `t` (plus `1e-5` of the
//!   scene's size), every triangle of the mesh is tested: none that the ray's line passes
//!   through at least that far from each of its edges may lie before raybox's answer
//!   (otherwise raybox missed a triangle it should have hit, and the test fails).
//!
//! Disagreements must also stay rare: at most 0.1% of the rays of each scene.

use embree_peer::{Embree, Quality, Ray};
use glam::{DVec3, Vec3};
use raybox::mesh::scene::{self, Pcg32};
use raybox::{MeshData, Ray3, TriMesh};

/// Embree, or `None` (with a note) when it is not installed and not required.
fn embree() -> Option<Embree> {
    // SAFETY: Embree as `scripts/install-embree` installs it (Debian's build, default layout).
    match unsafe { Embree::load() } {
        Ok(e) => Some(e),
        Err(e) if std::env::var_os("RAYBOX_REQUIRE_EMBREE").is_some() => {
            panic!("RAYBOX_REQUIRE_EMBREE is set but {e}")
        }
        Err(e) => {
            eprintln!("differential_embree: skipped, {e}");
            None
        }
    }
}

/// Whether the line of `ray` passes through triangle `[a, b, c]` at least `delta` away
/// from each of its edges' lines (so no rounding of the ray or the vertices by less than
/// that can make it miss), and if so the exact `t` where it crosses. In `f64`: with
/// `w = v - o` for each vertex and `e` the edge from it, `s = w · (d × e)` has the same
/// sign for the three edges when the line passes inside, and `|s| / |d × e|` is the
/// distance between the ray's line and the edge's line.
fn crosses_clearly(ray: &Ray3, tri: [Vec3; 3], delta: f64) -> Option<f64> {
    let (o, d) = (ray.origin().as_dvec3(), ray.dir().as_dvec3());
    let v = tri.map(Vec3::as_dvec3);
    let mut signs: i32 = 0;
    for i in 0..3 {
        let (w, e) = (v[i] - o, v[(i + 1) % 3] - v[i]);
        let de = d.cross(e);
        let s = w.dot(de);
        if s.abs() <= delta * de.length() {
            return None;
        }
        signs += if s > 0.0 { 1 } else { -1 };
    }
    if signs.abs() != 3 {
        return None;
    }
    let n = (v[1] - v[0]).cross(v[2] - v[0]);
    let t = (v[0] - o).dot(n) / d.dot(n);
    (t * d.length() > delta).then_some(t)
}

/// The distance from `p` to triangle `[a, b, c]` (Ericson, *Real-Time Collision Detection*,
/// 5.1.5, closest point on a triangle), in `f64`.
fn distance_to_triangle(p: DVec3, [a, b, c]: [DVec3; 3]) -> f64 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return p.distance(a);
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return p.distance(b);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return p.distance(a + ab * (d1 / (d1 - d3)));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return p.distance(c);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return p.distance(a + ac * (d2 / (d2 - d6)));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return p.distance(b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))));
    }
    let denom = 1.0 / (va + vb + vc);
    p.distance(a + ab * (vb * denom) + ac * (vc * denom))
}

fn triangle(data: &MeshData, i: u32) -> [Vec3; 3] {
    data.indices[i as usize].map(|k| data.vertices[k as usize])
}

/// Rays from a ball around the mesh in random directions, and rays aimed at random points
/// of random triangles (most of which hit), half and half.
fn rays(data: &MeshData, n: usize, seed: u64) -> Vec<Ray3> {
    let (lo, hi) = data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let (centre, radius) = ((lo + hi) * 0.5, (hi - lo).length() * 0.5);
    let mut rng = Pcg32::new(seed);
    (0..n)
        .map(|i| {
            let origin = centre + rng.unit_vector() * radius * 1.5 * rng.next_f32().cbrt();
            if i % 2 == 0 {
                return Ray3::new(origin, rng.unit_vector());
            }
            let t = (rng.next_u32() as usize % data.indices.len()) as u32;
            let [a, b, c] = triangle(data, t);
            let (mut u, mut v) = (rng.next_f32(), rng.next_f32());
            if u + v > 1.0 {
                (u, v) = (1.0 - u, 1.0 - v);
            }
            let target = a + (b - a) * u + (c - a) * v;
            let dir = target - origin;
            if dir.length_squared() > 0.0 { Ray3::new(origin, dir) } else { Ray3::new(origin, Vec3::X) }
        })
        .collect()
}

fn embree_ray(r: &Ray3) -> Ray {
    Ray { origin: r.origin().to_array(), dir: r.dir().to_array(), t_min: r.t_min(), t_max: r.t_max() }
}

/// Whether two `t` agree: within `1e-4` relative, or within `1e-5` of the scene's size
/// along the ray (a hit near the origin is rounded relative to the coordinates, not to `t`).
fn close(a: f64, b: f64, slack: f64) -> bool {
    (a - b).abs() <= 1e-4 * a.abs().max(b.abs()) + slack
}

/// Compares closest hits and occlusion on `data` and returns how many rays disagreed.
fn compare(embree: &Embree, name: &str, data: &MeshData, n: usize) -> usize {
    let mesh = TriMesh::new(data.vertices.clone(), data.indices.clone()).expect("a valid mesh");
    let vertices: Vec<[f32; 3]> = data.vertices.iter().map(|v| v.to_array()).collect();
    let device = embree.device("").expect("a device");
    let scene = device.scene(&vertices, &data.indices, Quality::Medium).expect("Embree builds the mesh");
    let (lo, hi) = data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let size = f64::from((hi - lo).length());
    let (mut hits, mut disagreements, mut occlusion_disagreements) = (0, 0, 0);
    for ray in rays(data, n, 7) {
        let ours = mesh.first_hit(&ray);
        let theirs = scene.intersect(&embree_ray(&ray));
        hits += usize::from(ours.is_some());
        // Distances of `delta` and `t` differences of `slack`: 1e-5 of the scene's size.
        let delta = 1e-5 * size;
        let slack = delta / f64::from(ray.dir().length());
        if let Some(o) = ours {
            // Every hit raybox reports lies on the triangle it names (to within `delta`).
            let p = ray.origin().as_dvec3() + ray.dir().as_dvec3() * f64::from(o.t);
            let off = distance_to_triangle(p, triangle(data, o.triangle).map(Vec3::as_dvec3));
            assert!(
                off <= delta,
                "{name}: raybox reports triangle {} at t = {} for {ray:?}, {off} away from it",
                o.triangle,
                o.t
            );
        }
        let agree = match (ours, theirs) {
            (None, None) => true,
            (Some(o), Some(e)) => close(f64::from(o.t), f64::from(e.t), slack),
            _ => false,
        };
        if !agree {
            disagreements += 1;
            // Every triangle, exactly: none that the ray clearly crosses may lie before
            // raybox's answer (or at all, when raybox reports no hit).
            for i in 0..data.indices.len() as u32 {
                if let Some(t) = crosses_clearly(&ray, triangle(data, i), delta) {
                    assert!(
                        ours.is_some_and(|o| f64::from(o.t) <= t || close(t, f64::from(o.t), slack)),
                        "{name}: the ray crosses triangle {i} at t = {t} for {ray:?}; raybox answers {:?}, \
                         Embree {:?}: raybox missed it",
                        ours.map(|o| (o.triangle, o.t)),
                        theirs.map(|e| (e.primitive, e.t))
                    );
                }
            }
        }
        // Occlusion within a random reach around the closest hit: raybox's answer follows
        // from its closest hit exactly; Embree's must agree but where its closest hit did not.
        let reach = ours.map(|o| o.t).or(theirs.map(|e| e.t));
        let t_max = reach.map_or(1e3, |t| t * if hits % 2 == 0 { 0.99 } else { 1.01 });
        let limited = Ray3::with_range(ray.origin(), ray.dir(), 0.0, t_max);
        let ours_occluded = mesh.occluded(&limited);
        assert_eq!(ours_occluded, ours.is_some_and(|o| o.t <= t_max), "{name}: occluded against first_hit");
        if ours_occluded != scene.occluded(&embree_ray(&limited)) {
            occlusion_disagreements += 1;
        }
    }
    eprintln!(
        "{name}: {n} rays, {hits} hits; {disagreements} closest-hit disagreements with Embree (each checked \
         against every triangle exactly) and {occlusion_disagreements} occlusion disagreements (counted)"
    );
    assert!(hits > n / 3, "{name}: only {hits} hits: the rays do not test much");
    assert!(disagreements <= n / 1000, "{name}: {disagreements} closest-hit disagreements in {n} rays");
    assert!(occlusion_disagreements <= n / 1000, "{name}: {occlusion_disagreements} occlusion disagreements");
    disagreements
}

#[test]
fn closest_hits_and_occlusion_agree_with_embree() {
    let Some(embree) = embree() else { return };
    let n = 20_000;
    compare(&embree, "bunny", &raybox::mesh::bunny(), n);
    compare(&embree, "icosphere", &scene::icosphere(4), n);
    compare(&embree, "closed terrain", &scene::closed_terrain(48, 3), n);
    compare(&embree, "triangle soup", &scene::triangle_soup(3000, 0.05, 5), n);
}

#[test]
fn packets_give_the_single_rays_hits() {
    let Some(embree) = embree() else { return };
    // Not raybox's code: this checks the binding of `rtcIntersect16` that the benchmark
    // times, against `rtcIntersect1`.
    let data = raybox::mesh::bunny();
    let vertices: Vec<[f32; 3]> = data.vertices.iter().map(|v| v.to_array()).collect();
    let scene = embree.device("").unwrap().scene(&vertices, &data.indices, Quality::Medium).unwrap();
    let rays: Vec<Ray> = rays(&data, 4096, 11).iter().map(embree_ray).collect();
    let mut hits = 0;
    for chunk in rays.chunks(13) {
        // Runs of 13: the last 3 lanes of each packet stay invalid.
        let (mut out, mut blocked) = ([None; 16], [false; 16]);
        scene.intersect16(chunk, &mut out);
        scene.occluded16(chunk, &mut blocked);
        for ((r, o), b) in chunk.iter().zip(out).zip(blocked) {
            let single = scene.intersect(r);
            assert_eq!(o.map(|h| (h.primitive, h.t)), single.map(|h| (h.primitive, h.t)));
            assert_eq!(b, scene.occluded(r));
            hits += usize::from(o.is_some());
        }
    }
    assert!(hits > 1000, "{hits}");
}

/// A mesh Embree is given with a bad index, or no triangles, is refused with an error, not a crash.
#[test]
fn bad_indices_are_refused() {
    let Some(embree) = embree() else { return };
    let device = embree.device("").unwrap();
    let err = device.scene(&[[0.0; 3]; 3], &[[0, 1, 3]], Quality::Medium).unwrap_err();
    assert!(matches!(err, embree_peer::Error::Input(_)), "{err}");
    let err = device.scene(&[[0.0; 3]; 3], &[], Quality::Medium).unwrap_err();
    assert_eq!(err, embree_peer::Error::Input("no triangles".into()));
}
