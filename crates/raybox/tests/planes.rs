//! Planes against balls, boxes, triangles, segments and planes: contacts, distances and
//! overlaps against independent `f64` and integer references.
//!
//! - **Contacts** (`Contact` of `Plane` with `Sphere`, `Aabb3`, `Obb3`, `Triangle3`): `Some`
//!   exactly when `overlaps`; the normal is the plane's unit normal or its opposite; the
//!   depth is the shorter way out of the two-sided plane, `min(-lo, hi)` with `[lo, hi]`
//!   the shape's extent in signed distance, computed here from the shape's vertices (or a
//!   ball's centre and radius) in `f64`; moving the shape by `normal * depth * (1 + 1e-4)`
//!   plus a rounding allowance separates it, by `normal * depth * (1 - 1e-3)` does not; the
//!   points lie within `depth / 2` of both shapes; the reverse pair flips the normal.
//! - **Distances** (those four and `Segment3`): zero exactly when `overlaps`; otherwise the
//!   least `|signed distance|` of the shape's vertices (`|d| - r` for a ball) within `1e-5`
//!   of the coordinates' scale; the closest points lie on their shapes and are `distance`
//!   apart; the reverse pair gives the same distance, to the bit, and swapped points.
//! - **Plane against plane**: an exact integer reference on small integer planes, and on
//!   random `f32` planes scaled by powers of two (the same plane), their offset moved by
//!   one `f32` step (parallel and apart) or a normal component moved by one step (no
//!   longer parallel, so they meet).

mod common;

use common::strategies::*;
use glam::{DVec3, Vec3};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use raybox::{
    Aabb3, ClosestPoint, Contact, Contact3, Distance, Obb3, Overlaps, Plane, Segment3, Sphere, Triangle3,
};

/// The coordinates' scale (centres within ±2, sizes up to 2, rotated boxes up to about 5.5).
const SCALE: f64 = 8.0;
/// Tolerance of depths, distances and points: `f32` rounding of results at `SCALE`.
const TOL: f64 = 1e-5 * SCALE;
/// What moving an `f32` shape by a vector can add to its signed distance: each moved
/// coordinate rounds by half an `f32` step at `SCALE` (`2⁻²¹`), times `|n̂ₖ|`, and the
/// plane's `f32` offset by as much again.
const MOVE_SLACK: f32 = 4e-6;

// ---------------------------------------------------------------------------------------
// The f64 reference: a shape's extent in signed distance from the plane.

/// `(n·x - offset) / |n|` in `f64`.
fn signed(plane: &Plane, x: DVec3) -> f64 {
    let n = plane.normal().as_dvec3();
    (n.dot(x) - f64::from(plane.offset())) / n.length()
}

/// A shape's extent `[lo, hi]` in signed distance, by brute force over its vertices.
trait Extent {
    fn extent(&self, plane: &Plane) -> (f64, f64);
}

fn over(plane: &Plane, vertices: &[DVec3]) -> (f64, f64) {
    let s = vertices.iter().map(|&v| signed(plane, v));
    (s.clone().fold(f64::INFINITY, f64::min), s.fold(f64::NEG_INFINITY, f64::max))
}

impl Extent for Sphere {
    fn extent(&self, plane: &Plane) -> (f64, f64) {
        let (d, r) = (signed(plane, self.center().as_dvec3()), f64::from(self.radius()));
        (d - r, d + r)
    }
}
impl Extent for Aabb3 {
    fn extent(&self, plane: &Plane) -> (f64, f64) {
        let (lo, hi) = (self.min().as_dvec3(), self.max().as_dvec3());
        let corners: Vec<DVec3> = (0..8)
            .map(|i| {
                DVec3::new(
                    if i & 1 != 0 { hi.x } else { lo.x },
                    if i & 2 != 0 { hi.y } else { lo.y },
                    if i & 4 != 0 { hi.z } else { lo.z },
                )
            })
            .collect();
        over(plane, &corners)
    }
}
impl Extent for Obb3 {
    fn extent(&self, plane: &Plane) -> (f64, f64) {
        let (c, h, a) =
            (self.center().as_dvec3(), self.half_extents().as_dvec3(), self.axes().map(Vec3::as_dvec3));
        let corners: Vec<DVec3> = (0..8)
            .map(|i| {
                let s = |bit: usize| if i & bit != 0 { 1.0 } else { -1.0 };
                c + a[0] * (s(1) * h.x) + a[1] * (s(2) * h.y) + a[2] * (s(4) * h.z)
            })
            .collect();
        over(plane, &corners)
    }
}
impl Extent for Triangle3 {
    fn extent(&self, plane: &Plane) -> (f64, f64) {
        over(plane, &self.vertices().map(Vec3::as_dvec3))
    }
}
impl Extent for Segment3 {
    fn extent(&self, plane: &Plane) -> (f64, f64) {
        over(plane, &[self.start().as_dvec3(), self.end().as_dvec3()])
    }
}

/// The reference's overlap answer where it is clear: `Some(true)` when the shape reaches
/// past the plane on both sides by more than the tolerance, `Some(false)` when it stays
/// farther than that on one side, `None` near touching.
fn clear_overlap((lo, hi): (f64, f64)) -> Option<bool> {
    if lo < -TOL && hi > TOL {
        Some(true)
    } else if lo > TOL || hi < -TOL {
        Some(false)
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------
// Contacts

fn check_contact<S>(plane: &Plane, shape: &S) -> Result<(), TestCaseError>
where
    Plane: Contact<S, Output = Contact3> + Overlaps<S>,
    S: Contact<Plane, Output = Contact3>
        + Extent
        + ClosestPoint<Point = Vec3>
        + Translate<Vec3>
        + core::fmt::Debug,
{
    let contact = plane.contact(shape);
    let overlapping = plane.overlaps(shape);
    prop_assert_eq!(contact.is_some(), overlapping, "contact must be Some exactly when overlapping");
    let extent = shape.extent(plane);
    if let Some(want) = clear_overlap(extent) {
        prop_assert_eq!(overlapping, want, "overlap against the reference extent {:?}", extent);
    }
    let Some(c) = contact else { return Ok(()) };
    prop_assert_eq!(shape.contact(plane), Some(c.flipped()), "the reverse contact flips the normal");
    let unit = plane.unit_normal();
    prop_assert!((c.normal.length() - 1.0).abs() < 1e-6, "normal not unit: {:?}", c);
    prop_assert!((c.normal - unit).length() < 1e-6 || (c.normal + unit).length() < 1e-6, "normal {:?}", c);
    prop_assert!(c.depth >= 0.0);
    // The depth: the shorter way out, from the reference extent.
    let (lo, hi) = extent;
    let want = (-lo).min(hi).max(0.0);
    prop_assert!((f64::from(c.depth) - want).abs() <= TOL, "depth {} against {} ({:?})", c.depth, want, c);
    // Out by the depth (and a little): apart; by a little less than the depth: not yet.
    let out = shape.moved(c.normal * (c.depth * (1.0 + 1e-4) + MOVE_SLACK));
    prop_assert!(!plane.overlaps(&out), "moving by the depth must separate: {:?} {:?}", c, out);
    if c.depth > 1e-3 {
        let short = shape.moved(c.normal * (c.depth * (1.0 - 1e-3)));
        prop_assert!(plane.overlaps(&short), "moving by less than the depth must not separate: {:?}", c);
    }
    prop_assert!((1..=4).contains(&c.points.len()), "{:?}", c);
    for p in &c.points {
        let tol = f64::from(c.depth) / 2.0 + TOL;
        let (dp, ds) = (f64::from(plane.distance_to_point(*p)), f64::from(shape.distance_to_point(*p)));
        prop_assert!(
            dp <= tol && ds <= tol,
            "point {} is {} from the plane and {} from the shape: {:?}",
            p,
            dp,
            ds,
            c
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Distances

fn check_distance<S>(plane: &Plane, shape: &S) -> Result<(), TestCaseError>
where
    Plane: Distance<S, Point = Vec3> + Overlaps<S>,
    S: Distance<Plane, Point = Vec3> + Extent + ClosestPoint<Point = Vec3> + core::fmt::Debug,
{
    let d = plane.distance(shape);
    prop_assert_eq!(d.to_bits(), shape.distance(plane).to_bits(), "asymmetric distance");
    prop_assert_eq!(d == 0.0, plane.overlaps(shape), "distance {} against overlaps", d);
    let (lo, hi) = shape.extent(plane);
    let want = if lo > 0.0 {
        lo
    } else if hi < 0.0 {
        -hi
    } else {
        0.0
    };
    prop_assert!((f64::from(d) - want).abs() <= TOL, "distance {} against the reference {}", d, want);
    let (on_plane, on_shape) = plane.closest_points(shape);
    prop_assert_eq!(shape.closest_points(plane), (on_shape, on_plane), "the reverse swaps the points");
    let gap = f64::from((on_shape - on_plane).length());
    prop_assert!(
        (gap - f64::from(d)).abs() <= TOL,
        "points {} and {} are {} apart, distance {}",
        on_plane,
        on_shape,
        gap,
        d
    );
    prop_assert!(f64::from(plane.distance_to_point(on_plane)) <= TOL, "{} is off the plane", on_plane);
    prop_assert!(f64::from(shape.distance_to_point(on_shape)) <= TOL, "{} is off the shape", on_shape);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn plane_contacts(p in plane3s(), s in sphere(), b in aabb3s(), o in obb3s(), t in triangle3s()) {
        check_contact(&p, &s)?;
        check_contact(&p, &b)?;
        check_contact(&p, &o)?;
        check_contact(&p, &t)?;
    }

    #[test]
    fn plane_distances(p in plane3s(), s in sphere(), b in aabb3s(), o in obb3s(), t in triangle3s(), g in segment3s()) {
        check_distance(&p, &s)?;
        check_distance(&p, &b)?;
        check_distance(&p, &o)?;
        check_distance(&p, &t)?;
        check_distance(&p, &g)?;
    }

    /// A box with a face parallel to an axis-aligned plane, sunk into it: a contact with
    /// four points, all at the same depth below the plane (half the contact's depth).
    #[test]
    fn a_sunk_face_gives_four_points(b in aabb3s(), k in 0..3usize, sink in 0.0f32..1.0, scale in prop::sample::select(vec![0.5f32, 1.0, -2.0])) {
        let mut n = Vec3::ZERO;
        n[k] = scale;
        let near_face = if scale > 0.0 { b.min()[k] } else { b.max()[k] };
        // The plane through the face nearer to it than the far one, moved into the box.
        let sink = sink.min(b.half_extents()[k]);
        let plane = Plane::new(n, scale * (near_face + sink.copysign(scale)));
        let c = plane.contact(&b).expect("a sunk box overlaps");
        prop_assert_eq!(c.points.len(), 4, "{:?} {:?}", plane, c);
        let level = c.points[0][k];
        prop_assert!(c.points.iter().all(|p| p[k] == level), "{:?}", c);
    }
}

/// The strategies give both overlapping and separated pairs, and both ways out.
#[test]
fn strategies_mix_overlapping_and_separated_pairs() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut hits, mut up, n) = (0, 0, 1000);
    for _ in 0..n {
        let p = plane3s().new_tree(&mut runner).unwrap().current();
        let b = obb3s().new_tree(&mut runner).unwrap().current();
        if let Some(c) = p.contact(&b) {
            hits += 1;
            up += usize::from(c.normal.dot(p.normal()) > 0.0);
        }
    }
    assert!((300..=800).contains(&hits), "{hits} of {n} pairs overlap");
    assert!((hits / 4..=hits * 3 / 4).contains(&up), "{up} of {hits} contacts push along the normal");
}

// ---------------------------------------------------------------------------------------
// Plane against plane

type I3 = [i64; 3];

/// The exact answer for integer planes: not parallel (a non-zero cross product), or the
/// same plane (`o₂ n₁ = o₁ n₂`).
fn planes_meet_reference(n1: I3, o1: i64, n2: I3, o2: i64) -> bool {
    let cross = [n1[1] * n2[2] - n1[2] * n2[1], n1[2] * n2[0] - n1[0] * n2[2], n1[0] * n2[1] - n1[1] * n2[0]];
    cross != [0; 3] || (0..3).all(|k| o2 * n1[k] == o1 * n2[k])
}

fn int_plane() -> impl Strategy<Value = (I3, i64)> {
    ([-3i64..=3, -3..=3, -3..=3], -6i64..=6).prop_filter("a normal", |(n, _)| *n != [0; 3])
}

fn plane_of((n, o): (I3, i64)) -> Plane {
    Plane::new(Vec3::new(n[0] as f32, n[1] as f32, n[2] as f32), o as f32)
}

fn one_step(x: f32) -> f32 {
    // The next f32 away from zero (at zero: the least positive f32).
    f32::from_bits(x.to_bits() + 1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Small integer planes, a third of them parallel to the first (a multiple of its
    /// normal, with its offset times the same multiple, or another offset).
    #[test]
    fn plane_plane_matches_the_integer_reference(a in int_plane(), b in int_plane(), mode in 0..3, k in prop::sample::select(vec![-2i64, -1, 1, 3])) {
        let b = match mode {
            0 => b,
            1 => (a.0.map(|x| x * k), a.1 * k),
            _ => (a.0.map(|x| x * k), b.1),
        };
        let want = planes_meet_reference(a.0, a.1, b.0, b.1);
        let (pa, pb) = (plane_of(a), plane_of(b));
        prop_assert_eq!(pa.overlaps(&pb), want, "{:?} {:?}", pa, pb);
        prop_assert_eq!(pb.overlaps(&pa), want, "{:?} {:?}", pb, pa);
    }

    /// Random `f32` planes: scaled by a power of two they are the same plane; with the
    /// offset one `f32` step away they are parallel and apart; with a normal component one
    /// step away they are no longer parallel and meet.
    #[test]
    fn plane_plane_one_step_from_parallel(p in plane3s(), e in -40i32..40, flip in any::<bool>(), k in 0..3usize) {
        let s = if flip { -(2f32.powi(e)) } else { 2f32.powi(e) };
        let (n, o) = (p.normal(), p.offset());
        let same = Plane::new(n * s, o * s);
        prop_assert!(p.overlaps(&same) && same.overlaps(&p), "{:?} {:?}", p, same);
        let apart = Plane::new(n * s, one_step(o * s));
        prop_assert!(!p.overlaps(&apart) && !apart.overlaps(&p), "{:?} {:?}", p, apart);
        // Tilting needs another non-zero component (tilting the only one keeps it parallel).
        if n.to_array().iter().filter(|&&x| x != 0.0).count() >= 2 && n[k] != 0.0 {
            let mut m = n * s;
            m[k] = one_step(m[k]);
            let tilted = Plane::new(m, one_step(o * s) * 3.0);
            prop_assert!(p.overlaps(&tilted) && tilted.overlaps(&p), "{:?} {:?}", p, tilted);
        }
    }
}
