//! Degenerate but valid shapes (zero radii, zero extents, zero-length cores, coincident
//! shapes) through every new query: answers that make sense, never NaN, never a panic.

use glam::{Quat, Vec2, Vec3};
use raybox::{
    Aabb3, Capsule3, ClosestPoint, Contact, Contact3, Distance, Obb3, Overlaps, Plane, Segment3, Sphere,
    Sweep, SweepHit3, Triangle3,
};

fn finite_contact(c: &Contact3) -> bool {
    c.normal.is_finite()
        && (c.normal.length() - 1.0).abs() < 1e-5
        && c.depth.is_finite()
        && c.depth >= 0.0
        && !c.points.is_empty()
        && c.points.iter().all(|p| p.is_finite())
}

fn finite_hit(h: &SweepHit3) -> bool {
    h.t.is_finite()
        && (0.0..=1.0).contains(&h.t)
        && h.point.is_finite()
        && (h.normal.length() - 1.0).abs() < 1e-5
}

/// A point-like and a flat version of each kind, at `at`.
struct Shapes {
    ball: Sphere,
    aabb: Aabb3,
    obb: Obb3,
    capsule: Capsule3,
    flat_obb: Obb3,
    stick: Capsule3,
}

fn shapes(at: Vec3) -> Shapes {
    Shapes {
        ball: Sphere::new(at, 0.0),
        aabb: Aabb3::new(at, at),
        obb: Obb3::new(at, Vec3::ZERO, Quat::from_rotation_y(0.3)),
        capsule: Capsule3::new(at, at, 0.0),
        flat_obb: Obb3::new(at, Vec3::new(1.0, 0.0, 1.0), Quat::from_rotation_x(0.7)),
        stick: Capsule3::new(at - Vec3::X, at + Vec3::X, 0.0),
    }
}

macro_rules! all_pairs {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:block) => {{
        let (a, b) = (&$a, &$b);
        {
            let ($x, $y) = (&a.ball, &b.ball);
            $body
        }
        {
            let ($x, $y) = (&a.ball, &b.aabb);
            $body
        }
        {
            let ($x, $y) = (&a.ball, &b.obb);
            $body
        }
        {
            let ($x, $y) = (&a.ball, &b.capsule);
            $body
        }
        {
            let ($x, $y) = (&a.aabb, &b.aabb);
            $body
        }
        {
            let ($x, $y) = (&a.aabb, &b.obb);
            $body
        }
        {
            let ($x, $y) = (&a.aabb, &b.stick);
            $body
        }
        {
            let ($x, $y) = (&a.obb, &b.obb);
            $body
        }
        {
            let ($x, $y) = (&a.flat_obb, &b.flat_obb);
            $body
        }
        {
            let ($x, $y) = (&a.flat_obb, &b.stick);
            $body
        }
        {
            let ($x, $y) = (&a.obb, &b.capsule);
            $body
        }
        {
            let ($x, $y) = (&a.capsule, &b.capsule);
            $body
        }
        {
            let ($x, $y) = (&a.stick, &b.stick);
            $body
        }
        {
            let ($x, $y) = (&a.stick, &b.ball);
            $body
        }
    }};
}

#[test]
fn coincident_degenerate_shapes_touch_with_finite_answers() {
    let (a, b) = (shapes(Vec3::splat(1.5)), shapes(Vec3::splat(1.5)));
    all_pairs!(a, b, |x, y| {
        assert!(x.overlaps(y), "{x:?} {y:?}");
        let c = x.contact(y).unwrap_or_else(|| panic!("{x:?} {y:?}: no contact"));
        assert!(finite_contact(&c), "{x:?} {y:?}: {c:?}");
        assert_eq!(x.distance(y), 0.0, "{x:?} {y:?}");
        let (p, q) = x.closest_points(y);
        assert!(
            p.is_finite() && q.is_finite() && x.distance_to_point(p) < 1e-5 && y.distance_to_point(q) < 1e-5
        );
        for v in [Vec3::ZERO, Vec3::X, Vec3::new(0.0, -3.0, 0.5)] {
            let h = x.sweep(v, y).unwrap_or_else(|| panic!("{x:?} {y:?}: no sweep hit"));
            assert!(finite_hit(&h) && h.t == 0.0, "{x:?} {y:?}: {h:?}");
        }
    });
}

#[test]
fn separated_degenerate_shapes_meet_when_moved_together() {
    let (a, b) = (shapes(Vec3::ZERO), shapes(Vec3::new(0.0, 4.0, 0.0)));
    all_pairs!(a, b, |x, y| {
        assert!(!x.overlaps(y) && x.contact(y).is_none(), "{x:?} {y:?}");
        let d = x.distance(y);
        assert!(d.is_finite() && d > 0.0, "{x:?} {y:?}: {d}");
        let h = x.sweep(Vec3::new(0.0, 8.0, 0.0), y).unwrap_or_else(|| panic!("{x:?} {y:?}: missed"));
        // Moving 8 units along y, they cannot meet before covering their distance, and
        // they meet on the static shape.
        assert!(finite_hit(&h) && h.t * 8.0 >= d - 1e-4, "{x:?} {y:?}: distance {d}, {h:?}");
        assert!(y.distance_to_point(h.point) < 1e-4, "{x:?} {y:?}: {h:?}");
        assert!(x.sweep(Vec3::new(0.0, -8.0, 0.0), y).is_none());
    });
}

#[test]
fn degenerate_capsules_against_planes_and_triangles() {
    let floor = Plane::new(Vec3::Y, 0.0);
    let tri = Triangle3::new(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0));
    for c in [Capsule3::new(Vec3::ZERO, Vec3::ZERO, 0.0), Capsule3::new(Vec3::Y, Vec3::Y, 0.0)] {
        let touching = c.start().y == 0.0;
        assert_eq!(floor.overlaps(&c), touching);
        assert_eq!(tri.overlaps(&c), touching);
        assert_eq!(floor.contact(&c).is_some(), touching);
        assert_eq!(tri.contact(&c).is_some(), touching);
        for k in [floor.contact(&c), tri.contact(&c)].into_iter().flatten() {
            assert!(finite_contact(&k), "{k:?}");
        }
        assert_eq!(floor.distance(&c), c.start().y);
        assert!((tri.distance(&c) - c.start().y).abs() < 1e-6);
        let h = c.sweep(Vec3::new(0.0, -2.0, 0.0), &floor).unwrap();
        assert!(finite_hit(&h) && h.t == c.start().y / 2.0, "{h:?}");
        let h = c.sweep(Vec3::new(0.0, -2.0, 0.0), &tri).unwrap();
        assert!(finite_hit(&h) && (h.t - c.start().y / 2.0).abs() < 1e-6, "{h:?}");
    }
    let s = Segment3::new(Vec3::ONE, Vec3::ONE);
    assert_eq!(s.distance(&Segment3::new(Vec3::ONE, Vec3::ONE)), 0.0);
    assert!((s.distance(&Segment3::new(Vec3::ZERO, Vec3::ZERO)) - 3f32.sqrt()).abs() < 1e-6);
}

/// Found by an audit: a tiny direction makes every slab's quotients overflow to infinity,
/// and disjoint slab intervals (`[1e40, 2e40]` and `[2e39, 4e39]` here) then looked like
/// the span `[inf, inf]`: a hit at `t = inf`. An entry no `f32` can hold is no hit.
#[test]
fn slabs_that_all_overflow_are_no_hit() {
    let b = raybox::Aabb3::new(Vec3::new(1e10, 2e10, -1.0), Vec3::new(2e10, 4e10, 1.0));
    let ray = raybox::Ray3::new(Vec3::ZERO, Vec3::new(1e-30, 1e-29, 0.0));
    assert_eq!(raybox::RayCast::ray_span(&b, &ray), None);
    assert_eq!(raybox::RayCast::cast_ray(&b, &ray), None);
    let tiny = raybox::Ray3::new(Vec3::ZERO, Vec3::new(f32::from_bits(1), f32::from_bits(100), 0.0));
    let unit = raybox::Aabb3::new(Vec3::new(1.0, 1.0, -1.0), Vec3::new(2.0, 2.0, 1.0));
    assert_eq!(raybox::RayCast::ray_span(&unit, &tiny), None);
    // A ray that does enter, with the same tiny direction's scale, still hits.
    let near = raybox::Ray3::new(Vec3::new(1.5, 1.5, 0.0), Vec3::new(1e-30, 1e-29, 0.0));
    assert!(raybox::RayCast::ray_span(&unit, &near).is_some_and(|s| s.t_enter == 0.0));
}

/// Found by an audit: oriented boxes and points `2 f32::MAX` apart. The `f32` move into the
/// box frame overflowed (`-MAX - MAX = -inf`), and the rotation then made `0 · inf` or
/// `inf - inf`: NaN closest points and distances. The answers are exact in `f64` and
/// finite here (the boxes reach to 0; a valid box may extend past `f32::MAX`).
#[test]
fn oriented_box_point_queries_near_f32_max() {
    use raybox::{ContainsPoint, Obb2};
    let m = f32::MAX;
    // x in [0, 2 MAX], |y|, |z| <= 1; and the same box turned a quarter about z, so that its
    // long axis is the world y axis (a turn by an exact integer quaternion).
    let along_x = Obb3::new(Vec3::new(m, 0.0, 0.0), Vec3::new(m, 1.0, 1.0), Quat::IDENTITY);
    let p = Vec3::new(-m, 0.5, -0.25);
    assert_eq!(along_x.point_to_local(p), Vec3::new(f32::NEG_INFINITY, 0.5, -0.25));
    assert_eq!(along_x.closest_point(p), Vec3::new(0.0, 0.5, -0.25));
    assert_eq!(along_x.distance_to_point(p), m);
    assert!(!along_x.contains_point(p));
    let along_y =
        Obb3::new(Vec3::new(0.0, m, 0.0), Vec3::new(m, 1.0, 1.0), Quat::from_xyzw(0.0, 0.0, 1.0, 1.0));
    let q = Vec3::new(0.5, -m, 2.0);
    assert_eq!(along_y.closest_point(q), Vec3::new(0.5, 0.0, 1.0));
    assert_eq!(along_y.distance_to_point(q), m); // sqrt(MAX² + 1) rounds to MAX
    assert!(!along_y.contains_point(q) && along_y.contains_point(Vec3::new(0.5, 0.0, 1.0)));
    // A point 2 MAX · √2 away: the distance is beyond f32, +inf (not NaN).
    let corner = Obb3::new(Vec3::splat(m), Vec3::ONE, Quat::from_rotation_z(0.5));
    assert_eq!(corner.distance_to_point(Vec3::new(-m, -m, m)), f32::INFINITY);
    assert!(corner.closest_point(Vec3::new(-m, -m, m)).is_finite());
    // 2D.
    let wall = Obb2::new(Vec2::new(m, 0.0), Vec2::new(m, 1.0), 0.0);
    let p2 = Vec2::new(-m, 0.5);
    assert_eq!((wall.closest_point(p2), wall.distance_to_point(p2)), (Vec2::new(0.0, 0.5), m));
    assert!(!wall.contains_point(p2));
}

/// Found by an audit: a capsule cast whose hit lies on the core (a zero radius) took its
/// normal from `-dir.normalize()` in `f32`, where `|dir|²` of a direction near `1e-20` is
/// subnormal (a normal of length 1.0000026) and below `1e-23` zero (inf, NaN); a direction
/// so tiny that the entry `t` overflows put the hit point at infinity, and the normal
/// (from that point) was NaN too. Normals are now unit for every non-zero direction.
#[test]
fn capsule_casts_with_tiny_directions_have_unit_normals() {
    use raybox::{Capsule2, Ray2, Ray3, RayCast};
    let unit = |n: f32| (n - 1.0).abs() <= 1e-6; // normalised in f64, rounded once to f32
    for s in [1e-20f32, 1e-25, 1e-30, 1e-37] {
        // Zero radius: the entry is on the core, the normal faces the ray.
        let stick = Capsule2::new(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), 0.0);
        let hit = stick.cast_ray(&Ray2::new(Vec2::new(-5.0, 0.3), Vec2::new(s, 0.0))).expect("hit");
        assert!(unit(hit.normal.length()) && hit.normal == Vec2::NEG_X, "{s}: {hit:?}");
        let stick3 = Capsule3::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0), 0.0);
        let dir = Vec3::new(s, 0.0, -s);
        let hit = stick3.cast_ray(&Ray3::new(Vec3::new(-5.0, 0.3, 5.0), dir)).expect("hit");
        let want = Vec3::new(-1.0, 0.0, 1.0) / 2f32.sqrt();
        assert!(unit(hit.normal.length()) && (hit.normal - want).length() < 1e-6, "{s}: {hit:?}");
        // Radius 1: the entry is on the body, 0.1 off the ray's plane through the axis.
        let body = Capsule3::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0), 1.0);
        let hit = body.cast_ray(&Ray3::new(Vec3::new(-5.0, 0.3, 0.1), Vec3::new(s, 0.0, 0.0))).expect("hit");
        let want = Vec3::new(-(0.99f32.sqrt()), 0.0, 0.1);
        assert!(unit(hit.normal.length()) && (hit.normal - want).length() < 1e-6, "{s}: {hit:?}");
        if s >= 1e-30 {
            assert!((f64::from(hit.t) * f64::from(s) - (5.0 - 0.99f64.sqrt())).abs() < 1e-5, "{s}: {hit:?}");
        }
    }
}

#[test]
fn balls_and_capsules_are_not_hit_past_f32_max() {
    use raybox::{Capsule2, Circle, Ray2, Ray3, RayCast};
    // The entry is 4 / s away: past f32::MAX (3.4e38) for these directions, so no hit (as
    // for boxes); until the fix, a hit at t = inf with a NaN or made-up normal.
    for s in [1e-38f32, 1e-40, f32::from_bits(1)] {
        let ray3 = Ray3::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(s, 0.0, 0.0));
        let ray2 = Ray2::new(Vec2::new(-5.0, 0.0), Vec2::new(s, 0.0));
        let sphere = Sphere::new(Vec3::ZERO, 1.0);
        assert_eq!(sphere.cast_ray(&ray3), None, "{s}: sphere");
        assert_eq!(sphere.ray_span(&ray3), None, "{s}: sphere span");
        assert_eq!(sphere.cast_ray_surface(&ray3), None, "{s}: sphere surface");
        let circle = Circle::new(Vec2::ZERO, 1.0);
        assert_eq!(circle.cast_ray(&ray2), None, "{s}: circle");
        let capsule = Capsule3::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0), 1.0);
        assert_eq!(capsule.cast_ray(&ray3), None, "{s}: capsule");
        assert_eq!(capsule.ray_span(&ray3), None, "{s}: capsule span");
        let stick = Capsule2::new(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), 0.0);
        assert_eq!(stick.cast_ray(&ray2), None, "{s}: stick");
    }
    // 1e-37: the entry, 4e37, fits; the hit and its normal are right.
    let s = 1e-37f32;
    let hit =
        Sphere::new(Vec3::ZERO, 1.0).cast_ray(&Ray3::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(s, 0.0, 0.0)));
    let hit = hit.expect("a hit at 4e37");
    assert!((f64::from(hit.t) * f64::from(s) - 4.0).abs() < 1e-5 && hit.normal == Vec3::NEG_X, "{hit:?}");
    // From inside, the surface is the exit at 1.5 / s, past f32::MAX for s = 1e-39.
    let inside = Ray3::new(Vec3::new(-0.5, 0.0, 0.0), Vec3::new(1e-39, 0.0, 0.0));
    assert_eq!(Sphere::new(Vec3::ZERO, 1.0).cast_ray_surface(&inside), None);
}

/// Three points exactly on the line `z = -3x, y = 0` whose coordinates range from 0.015 to
/// 1.6e8 (an audit's case, 2026-11-24). The plain `f64` normal `(b - a) × (c - a)` rounds
/// the differences and was `(0, 7.6e-6, 0)`, so this was accepted as a triangle, and a ball
/// that touches the segment through the points was then said to miss "the triangle".
/// Collinearity is now decided exactly: no triangle, no plane, and a mesh skips it.
#[test]
fn exactly_collinear_points_at_wide_scales_are_degenerate() {
    let (a, b, c) = (
        Vec3::new(0.014583454, 0.0, -0.04375036),
        Vec3::new(212.18164, 0.0, -636.5449),
        Vec3::new(-54918144.0, 0.0, 164754430.0),
    );
    for [p, q, r] in [[a, b, c], [b, c, a], [c, a, b], [a, c, b]] {
        assert_eq!(Triangle3::try_new(p, q, r), Err(raybox::ShapeError::Degenerate { shape: "Triangle3" }));
        assert_eq!(Plane::try_from_points(p, q, r), Err(raybox::ShapeError::Degenerate { shape: "Plane" }));
    }
    let mesh = raybox::TriMesh::new(vec![a, b, c], vec![[0, 1, 2]]).unwrap();
    assert_eq!(mesh.degenerate_count(), 1);
    // `c` moved by one `f32` step in `x`: off the line but still in the plane `y = 0`, so a
    // valid triangle whose unit normal is `±y`.
    let c1 = Vec3::new(f32::from_bits(c.x.to_bits() + 1), c.y, c.z);
    let t = Triangle3::try_new(a, b, c1).expect("one step off the line: a triangle");
    let n = t.unit_normal();
    assert!(n.is_finite() && (n.length() - 1.0).abs() < 1e-6, "{n}");
    assert!(n.y.abs() > 0.999_999, "the triangle lies in y = 0: {n}");
    let mesh = raybox::TriMesh::new(vec![a, b, c1], vec![[0, 1, 2]]).unwrap();
    assert_eq!(mesh.degenerate_count(), 0);
}

/// A capsule of radius zero is its core segment, and answers as the segment does: the
/// exact segment test decides overlaps, contacts and the zero of distances (an audit of
/// 2026-11-24 found 3,252 of 1M integer pairs where the `f64` kernel read two crossing
/// segments as 2e-16 apart).
#[test]
fn zero_radius_capsules_answer_as_their_segments() {
    let s1 = Segment3::new(Vec3::new(1.0, 1.0, 1.0), Vec3::new(2.0, -1.0, 2.0));
    let s2 = Segment3::new(Vec3::new(1.0, 1.0, 2.0), Vec3::new(2.0, -1.0, 0.0)); // cross at (4/3, 1/3, 4/3)
    let c2 = Capsule3::new(s2.start(), s2.end(), 0.0);
    let c1 = Capsule3::new(s1.start(), s1.end(), 0.0);
    assert!(s1.overlaps(&s2));
    assert!(s1.overlaps(&c2) && c2.overlaps(&s1) && c1.overlaps(&c2));
    assert_eq!((s1.distance(&c2), c2.distance(&s1), c1.distance(&c2)), (0.0, 0.0, 0.0));
    assert!(s1.contact(&c2).is_some() && c1.contact(&c2).is_some());
    // Random small-integer pairs: the segment and the zero-radius capsule agree.
    let mut state = 12345u64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) % 7) as f32 - 3.0
    };
    let (mut meet, mut disagreed) = (0, 0);
    for _ in 0..200_000 {
        let mut p = || Vec3::new(next(), next(), next());
        let (a, b, c, d) = (p(), p(), p(), p());
        let (s, t) = (Segment3::new(a, b), Segment3::new(c, d));
        let (cs, ct) = (Capsule3::new(a, b, 0.0), Capsule3::new(c, d, 0.0));
        let want = s.overlaps(&t);
        meet += usize::from(want);
        let got = [
            cs.overlaps(&t),
            t.overlaps(&cs),
            cs.overlaps(&ct),
            cs.contact(&t).is_some(),
            t.contact(&cs).is_some(),
            cs.contact(&ct).is_some(),
            cs.distance(&t) == 0.0,
            cs.distance(&ct) == 0.0,
        ];
        disagreed += usize::from(got.iter().any(|&g| g != want));
        let (s2, t2) = (
            raybox::Segment2::new(a.truncate(), b.truncate()),
            raybox::Segment2::new(c.truncate(), d.truncate()),
        );
        let (cs2, ct2) = (
            raybox::Capsule2::new(a.truncate(), b.truncate(), 0.0),
            raybox::Capsule2::new(c.truncate(), d.truncate(), 0.0),
        );
        let want2 = s2.overlaps(&t2);
        disagreed += usize::from(cs2.overlaps(&t2) != want2 || cs2.overlaps(&ct2) != want2);
        disagreed += usize::from(cs2.contact(&ct2).is_some() != want2 || (cs2.distance(&t2) == 0.0) != want2);
    }
    assert_eq!(disagreed, 0);
    assert!(meet > 1000, "only {meet} pairs meet");
}

/// A point (a zero-length segment) well inside a turned box far from the origin: GJK can
/// read it as a hair outside, and the contact then came back as touching (depth 0) along
/// its rounding (a review of 2026-11-24). It is 1 from the centre, 1.502 from the nearest
/// face: the contact is that face's push, as for a ball of radius zero.
#[test]
fn a_point_deep_inside_a_far_turned_box_has_its_depth() {
    let m = glam::Mat3::from_cols(
        Vec3::new(-0.4979069, 0.74860585, -0.43781045),
        Vec3::new(-0.020923777, -0.51506037, -0.8568985),
        Vec3::new(-0.86697805, -0.417495, 0.27211577),
    );
    let o = Obb3::try_from_matrix(Vec3::new(4098.0, -8192.0, 1026.0), Vec3::new(2.0, 2.0, 3.0), m).unwrap();
    let p = Vec3::new(4097.0, -8192.0, 1026.0);
    let ball = o.contact(&Sphere::new(p, 0.0)).unwrap();
    let point = o.contact(&Segment3::new(p, p)).unwrap();
    assert!((ball.depth - 1.502).abs() < 1e-3, "{ball:?}");
    assert!(
        (point.depth - ball.depth).abs() < 1e-3 && point.normal.dot(ball.normal) > 0.999,
        "{point:?} vs {ball:?}"
    );
}
