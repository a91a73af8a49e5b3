//! Every ray and overlap query of raybox's core beside parry's equivalent (segments and
//! triangle pairs included), and the triangle–triangle contact and sweep, one criterion
//! group per query (`raybox` and `parry` in the same group, so one run gives the ratio).
//!
//! Before timing, each group checks its inputs: between 30% and 70% must hit, and parry's
//! boolean answers must agree with raybox's except for a handful of near-boundary cases
//! (both counts are printed). The timing loop cycles through the 1,024 precomputed inputs,
//! so neither the generator nor allocation is measured.
//!
//! `cargo run --release -p raybox-bench --bin ratios` turns the run into the README's table.
//!
//! **Like with like.** `parry` calls parry's dispatching entry points with a pose
//! (`cast_ray(&pose, …)`), as a parry user holding a collider does: parry first moves the
//! ray into the shape's frame (a quaternion rotation of the origin and of the direction,
//! even for the identity rotation), which raybox's unrotated shapes (boxes, balls,
//! planes, triangles) never need. So each of those groups also times `parry-local`:
//! parry's kernel on the shape in world coordinates, the ray moved by the shape's
//! translation only (the subtraction raybox also does), with no rotation: parry's `Aabb`
//! (the bounding volume) for the boxes, `Ball`, `HalfSpace` and `Triangle` through
//! `cast_local_ray` / `cast_local_ray_and_get_normal`. The OBB groups have no local peer:
//! both sides rotate the ray there. Two differences remain, both in parry's favour:
//! raybox's `ray_span` returns the exit `t` too (parry's `cast_ray` the entry only), and its
//! `cast_ray` returns the hit point too (parry's `RayIntersection` has none).

#[path = "common/cycle.rs"]
mod cycle;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parry2d::bounding_volume::BoundingVolume as _;
use parry3d::bounding_volume::BoundingVolume as _;
use raybox::{Capsule2, Capsule3, ClosestPoint, Contact, Overlaps, RayCast, Sweep};
use raybox_bench::peers::{self, PeerRay, Placed2, Placed3, ToParry};
use raybox_bench::{N_INPUTS, assert_balanced, sets};

/// A query's answer, reduced to "did it hit / overlap".
trait Answer {
    fn hit(&self) -> bool;
}

impl Answer for bool {
    fn hit(&self) -> bool {
        *self
    }
}

impl<T> Answer for Option<T> {
    fn hit(&self) -> bool {
        self.is_some()
    }
}

/// The most disagreements with parry a group accepts (out of 1,024), for inputs that fall
/// within rounding of a boundary: raybox decides some of them in `f64`, parry in `f32`.
const MAX_DISAGREEMENTS: usize = 4;

/// Checks, then times raybox's `query` and parry's `peer` on the same inputs.
fn duel<I, P, A: Answer, B: Answer>(
    c: &mut Criterion,
    name: &str,
    inputs: &[I],
    query: impl Fn(&I) -> A,
    peer_inputs: &[P],
    peer: impl Fn(&P) -> B,
) {
    assert_eq!((inputs.len(), peer_inputs.len()), (N_INPUTS, N_INPUTS));
    let ours: Vec<bool> = inputs.iter().map(|x| query(x).hit()).collect();
    let fraction = assert_balanced(name, ours.iter().copied());
    let agree = ours.iter().zip(peer_inputs).filter(|&(&h, p)| h == peer(p).hit()).count();
    println!("check {name}: {:.1}% hit; parry agrees on {agree}/{N_INPUTS}", 100.0 * fraction);
    assert!(N_INPUTS - agree <= MAX_DISAGREEMENTS, "{name}: parry disagrees on {} inputs", N_INPUTS - agree);

    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(1));
    cycle::bench_cycling(&mut g, "raybox", inputs, |x| query(x));
    cycle::bench_cycling(&mut g, "parry", peer_inputs, |x| peer(x));
    g.finish();
}

fn peer_inputs<T: ToParry>(inputs: &[T]) -> Vec<T::Peer> {
    inputs.iter().map(ToParry::to_parry).collect()
}

/// Times parry's local kernel (`local`, on `local_inputs`) in group `name`, after
/// checking that it answers as the pose-based `peer` on every input.
fn local_peer<P, L, A: Answer, B: Answer>(
    c: &mut Criterion,
    name: &str,
    (peer_inputs, peer): (&[P], impl Fn(&P) -> A),
    local_inputs: &[L],
    local: impl Fn(&L) -> B,
) {
    let agree =
        peer_inputs.iter().zip(local_inputs).filter(|&(p, l)| peer(p).hit() == local(l).hit()).count();
    assert!(
        N_INPUTS - agree <= MAX_DISAGREEMENTS,
        "{name}: parry-local disagrees with parry on {} inputs",
        N_INPUTS - agree
    );
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(1));
    cycle::bench_cycling(&mut g, "parry-local", local_inputs, |x| local(x));
    g.finish();
}

/// `ray_span` and `cast_ray` of one shape type against parry's `cast_ray` and
/// `cast_ray_and_get_normal`; with `local`, also against parry's local kernels on the
/// shapes `local` makes (see the module docs), the ray moved by `shift`.
macro_rules! ray_duels {
    ($c:expr, $shape:literal, $inputs:expr, $toi:path, $hit:path) => {{
        let inputs = $inputs;
        let peer = peer_inputs(&inputs);
        duel($c, concat!("ray_span ", $shape), &inputs, |(s, r)| s.ray_span(r), &peer, |(s, r)| $toi(s, r));
        duel($c, concat!("cast_ray ", $shape), &inputs, |(s, r)| s.cast_ray(r), &peer, |(s, r)| $hit(s, r));
        (inputs, peer)
    }};
    ($c:expr, $shape:literal, $inputs:expr, $toi:path, $hit:path, local: $local:expr, shift: $shift:expr) => {{
        let (_, peer) = ray_duels!($c, $shape, $inputs, $toi, $hit);
        let local: Vec<_> = peer.iter().map($local).collect();
        local_peer($c, concat!("ray_span ", $shape), (&peer, |(s, r)| $toi(s, r)), &local, |(s, r, at)| {
            s.cast_local_ray(&$shift(r, *at), r.max_toi, true)
        });
        local_peer($c, concat!("cast_ray ", $shape), (&peer, |(s, r)| $hit(s, r)), &local, |(s, r, at)| {
            s.cast_local_ray_and_get_normal(&$shift(r, *at), r.max_toi, true)
        });
    }};
}

/// The ray in the frame of a shape translated to `at` (a subtraction, no rotation).
fn shift2(r: &PeerRay<parry2d::query::Ray>, at: parry2d::math::Vector) -> parry2d::query::Ray {
    parry2d::query::Ray::new(r.ray.origin - at, r.ray.dir)
}

/// The 3D [`shift2`].
fn shift3(r: &PeerRay<parry3d::query::Ray>, at: parry3d::math::Vector) -> parry3d::query::Ray {
    parry3d::query::Ray::new(r.ray.origin - at, r.ray.dir)
}

/// The world ray itself (for shapes given in world coordinates).
fn same2(r: &PeerRay<parry2d::query::Ray>, _: ()) -> parry2d::query::Ray {
    r.ray
}

/// The 3D [`same2`].
fn same3(r: &PeerRay<parry3d::query::Ray>, _: ()) -> parry3d::query::Ray {
    r.ray
}

fn rays(c: &mut Criterion) {
    use parry2d::query::RayCast as _;
    use parry3d::query::RayCast as _;
    // parry's bounding-volume Aabb in world coordinates: a Cuboid's half extents around its pose's centre.
    let aabb2 = |(s, r): &(Placed2<parry2d::shape::Cuboid>, PeerRay<parry2d::query::Ray>)| {
        let c = s.pose.translation;
        (parry2d::bounding_volume::Aabb::new(c - s.shape.half_extents, c + s.shape.half_extents), *r, ())
    };
    let aabb3 = |(s, r): &(Placed3<parry3d::shape::Cuboid>, PeerRay<parry3d::query::Ray>)| {
        let c = s.pose.translation;
        (parry3d::bounding_volume::Aabb::new(c - s.shape.half_extents, c + s.shape.half_extents), *r, ())
    };
    ray_duels!(c, "Aabb2", sets::ray_aabb2(), peers::toi2, peers::hit2, local: aabb2, shift: same2);
    ray_duels!(c, "Obb2", sets::ray_obb2(), peers::toi2, peers::hit2);
    ray_duels!(c, "Circle", sets::ray_circle(), peers::toi2, peers::hit2,
        local: |(s, r): &(Placed2<_>, _)| (s.shape, *r, s.pose.translation), shift: shift2);
    ray_duels!(c, "Aabb3", sets::ray_aabb3(), peers::toi3, peers::hit3, local: aabb3, shift: same3);
    ray_duels!(c, "Obb3", sets::ray_obb3(), peers::toi3, peers::hit3);
    ray_duels!(c, "Sphere", sets::ray_sphere(), peers::toi3, peers::hit3,
        local: |(s, r): &(Placed3<_>, _)| (s.shape, *r, s.pose.translation), shift: shift3);
    ray_duels!(c, "Plane", sets::ray_plane(), peers::toi3, peers::hit3,
        local: |(s, r): &(Placed3<_>, _)| (s.shape, *r, s.pose.translation), shift: shift3);
    ray_duels!(c, "Triangle3", sets::ray_triangle(), peers::toi3, peers::hit3,
        local: |(s, r): &(Placed3<_>, _)| (s.shape, *r, ()), shift: same3);
    ray_duels!(c, "Segment2", sets::ray_segment2(), peers::toi2, peers::hit2,
        local: |(s, r): &(Placed2<_>, _)| (s.shape, *r, ()), shift: same2);
    ray_duels!(c, "Segment3", sets::ray_segment3(), peers::toi3, peers::hit3,
        local: |(s, r): &(Placed3<_>, _)| (s.shape, *r, ()), shift: same3);
}

/// `overlaps` of one pair against parry's `intersection_test`.
macro_rules! overlap_duel {
    ($c:expr, $name:literal, $inputs:expr, $peer:path) => {{
        let inputs = $inputs;
        let peer = peer_inputs(&inputs);
        duel($c, concat!("overlaps ", $name), &inputs, |(a, b)| a.overlaps(b), &peer, |(a, b)| $peer(a, b));
    }};
}

fn overlaps_2d(c: &mut Criterion) {
    let boxes = sets::aabb2_aabb2();
    let peer: Vec<_> =
        boxes.iter().map(|(a, b)| (peers::bounding_aabb2(a), peers::bounding_aabb2(b))).collect();
    duel(c, "overlaps Aabb2-Aabb2", &boxes, |(a, b)| a.overlaps(b), &peer, |(a, b)| a.intersects(b));
    overlap_duel!(c, "Circle-Aabb2", sets::circle_aabb2(), peers::overlap2);
    overlap_duel!(c, "Aabb2-Obb2", sets::aabb2_obb2(), peers::overlap2);
    overlap_duel!(c, "Obb2-Obb2", sets::obb2_obb2(), peers::overlap2);
    overlap_duel!(c, "Circle-Obb2", sets::circle_obb2(), peers::overlap2);
    overlap_duel!(c, "Circle-Circle", sets::circle_circle(), peers::overlap2);
    overlap_duel!(c, "Segment2-Segment2", sets::segment2_segment2(), peers::overlap2);
    overlap_duel!(c, "Aabb2-Segment2", sets::aabb2_segment2(), peers::overlap2);
    overlap_duel!(c, "Obb2-Segment2", sets::obb2_segment2(), peers::overlap2);
    overlap_duel!(c, "Circle-Segment2", sets::circle_segment2(), peers::overlap2);
}

fn overlaps_3d(c: &mut Criterion) {
    let boxes = sets::aabb3_aabb3();
    let peer: Vec<_> =
        boxes.iter().map(|(a, b)| (peers::bounding_aabb3(a), peers::bounding_aabb3(b))).collect();
    duel(c, "overlaps Aabb3-Aabb3", &boxes, |(a, b)| a.overlaps(b), &peer, |(a, b)| a.intersects(b));
    overlap_duel!(c, "Sphere-Aabb3", sets::sphere_aabb3(), peers::overlap3);
    overlap_duel!(c, "Aabb3-Obb3", sets::aabb3_obb3(), peers::overlap3);
    overlap_duel!(c, "Obb3-Obb3", sets::obb3_obb3(), peers::overlap3);
    overlap_duel!(c, "Sphere-Obb3", sets::sphere_obb3(), peers::overlap3);
    overlap_duel!(c, "Sphere-Sphere", sets::sphere_sphere(), peers::overlap3);
    overlap_duel!(c, "Plane-Sphere", sets::plane_sphere(), peers::overlap3);
    overlap_duel!(c, "Plane-Aabb3", sets::plane_aabb3(), peers::overlap3);
    overlap_duel!(c, "Plane-Obb3", sets::plane_obb3(), peers::overlap3);
    overlap_duel!(c, "Plane-Triangle3", sets::plane_triangle(), peers::overlap3);
    overlap_duel!(c, "Aabb3-Triangle3", sets::aabb3_triangle(), peers::overlap3);
    overlap_duel!(c, "Obb3-Triangle3", sets::obb3_triangle(), peers::overlap3);
    overlap_duel!(c, "Sphere-Triangle3", sets::sphere_triangle(), peers::overlap3);
    overlap_duel!(c, "Triangle3-Triangle3", sets::triangle_triangle(), peers::overlap3);
    overlap_duel!(c, "Triangle3-Segment3", sets::triangle_segment3(), peers::overlap3);
    overlap_duel!(c, "Aabb3-Segment3", sets::aabb3_segment3(), peers::overlap3);
    overlap_duel!(c, "Obb3-Segment3", sets::obb3_segment3(), peers::overlap3);
    overlap_duel!(c, "Sphere-Segment3", sets::sphere_segment3(), peers::overlap3);

    // OBB–OBB against parry's kernel itself (no shape dispatch): the stricter peer.
    let obbs = sets::obb3_obb3();
    let peer = peer_inputs(&obbs);
    duel(
        c,
        "overlaps Obb3-Obb3 (parry kernel)",
        &obbs,
        |(a, b)| a.overlaps(b),
        &peer,
        |(a, b)| {
            let pos12 = a.pose.inv_mul(&b.pose);
            parry3d::query::details::intersection_test_cuboid_cuboid(&pos12, &a.shape, &b.shape)
        },
    );
}

/// Contacts: raybox's `contact` against parry's `query::contact` (prediction 0). Besides
/// the checks of [`duel`], the depths must agree where both find a contact.
fn contacts_3d(c: &mut Criterion) {
    let name = "contact Triangle3-Triangle3";
    let inputs = sets::triangle_triangle();
    let peer = peer_inputs(&inputs);
    let theirs = |(a, b): &(Placed3<parry3d::shape::Triangle>, Placed3<parry3d::shape::Triangle>)| {
        parry3d::query::contact(&a.pose, &a.shape, &b.pose, &b.shape, 0.0).expect("supported pair")
    };
    let depths_agree = inputs
        .iter()
        .zip(&peer)
        .filter(|&((a, b), p)| match (a.contact(b), theirs(p)) {
            (Some(k), Some(t)) => (k.depth + t.dist).abs() <= 1e-4 * (1.0 + k.depth),
            (k, t) => k.is_none() && t.is_none(),
        })
        .count();
    println!("check {name}: parry's depth agrees on {depths_agree}/{N_INPUTS}");
    assert!(N_INPUTS - depths_agree <= MAX_DISAGREEMENTS, "{name}: parry's depth disagrees");
    duel(c, name, &inputs, |(a, b)| a.contact(b), &peer, theirs);
}

/// Sweeps: raybox's `sweep` against parry's `cast_shapes` (see [`peers::cast3`]), on
/// shapes that start apart. Besides the checks of [`duel`], the times must agree where both
/// find a contact.
fn sweeps_3d(c: &mut Criterion) {
    sweep_group(c, "sweep Triangle3-Triangle3", &sets::sweep_triangle_triangle());
    sweep_group(c, "sweep Segment3-Triangle3", &sets::sweep_segment_triangle());
}

/// One sweep group: (moving, motion, static) inputs and their parry equivalents.
fn sweep_group<A, B, SA, SB>(c: &mut Criterion, name: &str, inputs: &[(A, glam::Vec3, B)])
where
    A: Sweep<B, Motion = glam::Vec3, Hit = raybox::SweepHit3> + ToParry<Peer = Placed3<SA>>,
    B: ToParry<Peer = Placed3<SB>>,
    SA: parry3d::shape::Shape,
    SB: parry3d::shape::Shape,
{
    let peer = peer_inputs(inputs);
    let times_agree = inputs
        .iter()
        .zip(&peer)
        .filter(|&((a, v, b), (pa, pv, pb))| match (a.sweep(*v, b), peers::cast3(pa, pv, pb)) {
            (Some(h), Some(p)) => (h.t - p.time_of_impact).abs() <= 1e-4,
            (h, p) => h.is_none() && p.is_none(),
        })
        .count();
    println!("check {name}: parry's time agrees on {times_agree}/{N_INPUTS}");
    assert!(N_INPUTS - times_agree <= MAX_DISAGREEMENTS, "{name}: parry's time disagrees");
    duel(c, name, inputs, |(a, v, b)| a.sweep(*v, b), &peer, |(a, v, b)| peers::cast3(a, v, b));
}

/// Points against segments and capsules: `closest_point` and `distance_to_point`, raybox
/// only (no peer: parry's point projection takes a pose and answers a different question).
/// The points are the centres of the circle and ball sets' shapes, near the segments; each
/// capsule is the segment with the ball's radius.
fn points(c: &mut Criterion) {
    fn group<I, A, B>(
        c: &mut Criterion,
        shape: &str,
        inputs: &[I],
        closest: impl Fn(&I) -> A,
        dist: impl Fn(&I) -> B,
    ) {
        let mut g = c.benchmark_group(format!("closest_point {shape}"));
        g.throughput(Throughput::Elements(1));
        cycle::bench_cycling(&mut g, "raybox", inputs, closest);
        g.finish();
        let mut g = c.benchmark_group(format!("distance {shape}"));
        g.throughput(Throughput::Elements(1));
        cycle::bench_cycling(&mut g, "raybox", inputs, dist);
        g.finish();
    }
    let in2: Vec<_> = sets::circle_segment2().into_iter().map(|(b, s)| (s, b.center(), b.radius())).collect();
    let in3: Vec<_> = sets::sphere_segment3().into_iter().map(|(b, s)| (s, b.center(), b.radius())).collect();
    group(c, "Segment2", &in2, |(s, x, _)| s.closest_point(*x), |(s, x, _)| s.distance_to_point(*x));
    group(c, "Segment3", &in3, |(s, x, _)| s.closest_point(*x), |(s, x, _)| s.distance_to_point(*x));
    let caps2: Vec<_> = in2.iter().map(|&(s, x, r)| (Capsule2::new(s.start(), s.end(), r), x)).collect();
    let caps3: Vec<_> = in3.iter().map(|&(s, x, r)| (Capsule3::new(s.start(), s.end(), r), x)).collect();
    group(c, "Capsule2", &caps2, |(k, x)| k.closest_point(*x), |(k, x)| k.distance_to_point(*x));
    group(c, "Capsule3", &caps3, |(k, x)| k.closest_point(*x), |(k, x)| k.distance_to_point(*x));
}

fn config() -> Criterion {
    Criterion::default().sample_size(30)
}

criterion_group! {
    name = primitives;
    config = config();
    targets = rays, overlaps_2d, overlaps_3d, contacts_3d, sweeps_3d, points
}
criterion_main!(primitives);
