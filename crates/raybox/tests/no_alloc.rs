//! Ray queries allocate nothing: a counting global allocator watches the single-ray calls
//! of `TriMesh`, `MeshInstances` and `Bvh` over thousands of rays, and the shape queries of
//! the mesh and the instances (sweeps, overlap tests, contacts; with a plane; with a second
//! mesh).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::Vec3;
use raybox::mesh::scene::{self, Pcg32};
use raybox::{Aabb3, BuildQuality, Bvh, Ray3, RayCast, Sphere, TriMesh};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations count: only the thread running the queries. (The
    /// builds' rayon workers, and the test harness, may allocate at any time; counted, they
    /// once made this test fail under load.)
    static WATCHED: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if WATCHED.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn ray_queries_do_not_allocate() {
    let mesh = TriMesh::from_data(scene::terrain(64, 3)).unwrap();
    let boxes: Vec<Aabb3> = (0..2000)
        .map(|i| {
            let c = Vec3::new((i % 40) as f32, (i / 40) as f32, (i % 7) as f32);
            Aabb3::from_center_half_extents(c, Vec3::splat(0.4))
        })
        .collect();
    let bvh = Bvh::build(&boxes, BuildQuality::Balanced).unwrap();
    let mut rng = Pcg32::new(5);
    let rays: Vec<Ray3> = (0..5000)
        .map(|_| {
            let o = Vec3::new(rng.range(-1.0, 2.0), rng.range(0.5, 2.0), rng.range(-1.0, 2.0));
            Ray3::new(o, rng.unit_vector())
        })
        .collect();
    let bvh_rays: Vec<Ray3> = (0..5000)
        .map(|_| {
            let o = Vec3::new(rng.range(-5.0, 45.0), rng.range(-5.0, 55.0), -10.0);
            Ray3::new(o, Vec3::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3), 1.0))
        })
        .collect();
    let cube = TriMesh::from_data(scene::closed_terrain(4, 9)).unwrap();
    // The terrain placed four times (instances), turned and scaled.
    let shared = std::sync::Arc::new(TriMesh::from_data(scene::terrain(16, 4)).unwrap());
    let instances = raybox::MeshInstances::new((0..4).map(|i| {
        let turn = glam::Quat::from_rotation_y(i as f32);
        let at = Vec3::new(0.5 * i as f32, 0.0, 0.0);
        (
            shared.clone(),
            glam::Affine3A::from_scale_rotation_translation(Vec3::splat(0.5 + 0.3 * i as f32), turn, at),
        )
    }))
    .unwrap();
    // Warm up: the first query detects the CPU's kernel once.
    let _ = mesh.cast_ray(&rays[0]);

    WATCHED.with(|w| w.set(true));
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let mut hits = 0usize;
    for r in &rays {
        hits += usize::from(mesh.cast_ray(r).is_some());
        hits += usize::from(mesh.first_hit(r).is_some());
        hits += usize::from(mesh.occluded(r));
    }
    for r in &rays {
        hits += usize::from(instances.cast_ray(r).is_some());
        hits += usize::from(instances.occluded(r));
    }
    for r in &bvh_rays {
        let closest = bvh.cast_ray(r, |i, r| boxes[i as usize].ray_span(r).map(|s| s.t_enter));
        hits += usize::from(closest.is_some());
        hits += usize::from(bvh.any_hit(r, |i, r| boxes[i as usize].ray_span(r).is_some()).is_some());
    }
    // Shape queries against the mesh: sweeps, overlap tests and contacts.
    for r in rays.iter().take(500) {
        let ball = Sphere::new(r.origin(), 0.05);
        let motion = r.dir() * 2.0;
        hits += usize::from(mesh.sweep(&ball, motion).is_some());
        hits += usize::from(mesh.overlaps(&ball));
        mesh.for_each_contact(&ball, |_, c| hits += usize::from(c.depth >= 0.0));
        // The same among the instances.
        hits += usize::from(instances.sweep(&ball, motion).is_some());
        hits += usize::from(instances.overlaps(&ball));
        instances.for_each_contact(&ball, |_, _, c| hits += usize::from(c.depth >= 0.0));
    }
    // A plane, and a second mesh placed by a pose: overlaps, pairs and distances.
    let mut met = 0;
    for (i, r) in rays.iter().take(200).enumerate() {
        let plane = raybox::Plane::from_point_normal(r.origin(), r.dir());
        hits += usize::from(mesh.overlaps(&plane));
        mesh.for_each_overlapping(&plane, |_| hits += 1);
        let turn = glam::Quat::from_axis_angle(r.dir(), i as f32);
        let pose = glam::Affine3A::from_rotation_translation(turn, r.origin() - Vec3::splat(0.5));
        met += usize::from(mesh.overlaps_mesh(&cube, &pose));
        mesh.for_each_overlapping_pair(&cube, &pose, |_, _| hits += 1);
        mesh.for_each_contact_pair(&cube, &pose, |_, _, c| hits += usize::from(c.depth >= 0.0));
        hits += usize::from(mesh.distance_to_mesh(&cube, &pose).is_some_and(|d| d >= 0.0));
    }
    let allocated = ALLOCATIONS.load(Ordering::Relaxed) - before;
    WATCHED.with(|w| w.set(false));
    assert_eq!(allocated, 0, "{allocated} allocations during 35,000 ray queries");
    assert!(hits > 2000, "only {hits} hits: the test would not exercise the walks");
    assert!(met > 20 && met < 180, "the second mesh met the first {met} times in 200");
}
