//! Named scenes with answers derived by hand, one rule per test (in the style of Box2D's
//! named test cases). Every input is exact in `f32`, and so is every expected value unless
//! the comment says otherwise.

use glam::{Mat3, Quat, Vec2, Vec3};
use raybox::{
    Aabb2, Aabb3, Circle, ContainsPoint, Obb2, Obb3, Overlaps, Plane, Ray2, Ray3, RayCast, RayPlane, RaySpan,
    RayTriangle, Sphere, Triangle3,
};

fn span(s: Option<RaySpan>) -> Option<(f32, f32)> {
    s.map(|s| (s.t_enter, s.t_exit))
}

// ---------------------------------------------------------------------------------------
// 2D rays against rectangles.

/// ```text
///  y
///  3 |        +---------------+
///    |        |           far *  (5, 2.5)
///  2 |        |        __/    |
///    |   near * ___/          |
///  1 *__/-----+---------------+
///    | (-1,1)  (1, 1.5)
///    +---------1---------------5---- x
/// ```
/// Ray `(-1, 1) + t (4, 1)` against `[1, 5] x [1, 3]`: the x slab gives `t` in
/// `[0.5, 1.5]`, the y slab `[0, 2]`; the ray enters through the left face.
#[test]
fn ray_from_outside_enters_at_the_near_face_and_leaves_at_the_far_face() {
    let rect = Aabb2::new(Vec2::new(1.0, 1.0), Vec2::new(5.0, 3.0));
    let ray = Ray2::new(Vec2::new(-1.0, 1.0), Vec2::new(4.0, 1.0));
    assert_eq!(span(rect.ray_span(&ray)), Some((0.5, 1.5)));
    assert_eq!(ray.at(0.5), Vec2::new(1.0, 1.5));
    assert_eq!(ray.at(1.5), Vec2::new(5.0, 2.5));
    let hit = rect.cast_ray(&ray).unwrap();
    assert_eq!((hit.t, hit.point, hit.normal), (0.5, Vec2::new(1.0, 1.5), Vec2::NEG_X));
}

/// ```text
///  2 +-------------* far (3, 2): leaves through the top at t = 2
///    |   o ___/    |
///  1 |   (1,1)     |
///    |             |
///  0 +-------------+ 4
/// ```
/// From `(1, 1)` along `(1, 0.5)` inside `[0, 4] x [0, 2]`: the top is reached at `t = 2`,
/// before the right side (`t = 3`). The hit is the start, with no face and no normal.
#[test]
fn ray_starting_inside_hits_at_t_min_with_a_zero_normal() {
    let rect = Aabb2::new(Vec2::ZERO, Vec2::new(4.0, 2.0));
    let ray = Ray2::new(Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.5));
    assert_eq!(span(rect.ray_span(&ray)), Some((0.0, 2.0)));
    assert_eq!(ray.at(2.0), Vec2::new(3.0, 2.0));
    let hit = rect.cast_ray(&ray).unwrap();
    assert_eq!((hit.t, hit.point, hit.normal), (0.0, Vec2::new(1.0, 1.0), Vec2::ZERO));

    // With the interval starting at 0.5, "the start" is t_min = 0.5.
    let late = Ray2::with_range(Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.5), 0.5, f32::INFINITY);
    let hit = rect.cast_ray(&late).unwrap();
    assert_eq!((hit.t, hit.point, hit.normal), (0.5, Vec2::new(1.5, 1.25), Vec2::ZERO));
    assert_eq!(span(rect.ray_span(&late)), Some((0.5, 2.0)));
}

/// ```text
///        ^ (2, t - 3)
///  2 +---*---+ 4        far  (2, 2) at t = 5
///    |   |   |
///  0 +---*---+          near (2, 0) at t = 3
///        |
///        o (2, -3)
/// ```
/// A vertical ray is parallel to the x slab: it adds no bound on `t`, only `0 <= 2 <= 4`.
#[test]
fn vertical_ray_is_bounded_by_the_y_slab_only() {
    let rect = Aabb2::new(Vec2::ZERO, Vec2::new(4.0, 2.0));
    let ray = Ray2::new(Vec2::new(2.0, -3.0), Vec2::Y);
    assert_eq!(span(rect.ray_span(&ray)), Some((3.0, 5.0)));
    let hit = rect.cast_ray(&ray).unwrap();
    assert_eq!((hit.point, hit.normal), (Vec2::new(2.0, 0.0), Vec2::NEG_Y));
}

/// ```text
///  o-------*=============*------>   y = 2, exactly on the top edge
///  (-2,2)  +-------------+
///          |             |
///          +-------------+
///          0             4
/// ```
/// A ray along an edge's line is in the closed box for the whole edge; one ulp above it
/// is outside. The same holds for a vertical ray down the right edge `x = 4`.
#[test]
fn ray_along_an_edge_line_is_inside_the_closed_box() {
    let rect = Aabb2::new(Vec2::ZERO, Vec2::new(4.0, 2.0));
    let on_top = Ray2::new(Vec2::new(-2.0, 2.0), Vec2::X);
    assert_eq!(span(rect.ray_span(&on_top)), Some((2.0, 6.0)));
    let hit = rect.cast_ray(&on_top).unwrap();
    assert_eq!((hit.point, hit.normal), (Vec2::new(0.0, 2.0), Vec2::NEG_X));

    let above = Ray2::new(Vec2::new(-2.0, 2.0f32.next_up()), Vec2::X);
    assert_eq!(rect.ray_span(&above), None);

    let down_right_edge = Ray2::new(Vec2::new(4.0, 5.0), Vec2::NEG_Y);
    assert_eq!(span(rect.ray_span(&down_right_edge)), Some((3.0, 5.0)));
    assert_eq!(rect.cast_ray(&down_right_edge).unwrap().normal, Vec2::Y);
}

/// ```text
///          o (2, 5), dir (-0.0, -1)
///          |
///  2 +-----*-----+      enters the top at t = 3, leaves the bottom at t = 5
///    |     |     |
///  0 +-----*-----+
///    0           4
/// ```
/// `-0.0` is a zero component like `+0.0`: no `1 / -0.0 = -inf` slab, no NaN, the same
/// answers, on the edge line too and outside it.
#[test]
fn negative_zero_direction_components_act_like_positive_zero() {
    let rect = Aabb2::new(Vec2::ZERO, Vec2::new(4.0, 2.0));
    for x in [2.0, 0.0, 4.0] {
        let neg = Ray2::new(Vec2::new(x, 5.0), Vec2::new(-0.0, -1.0));
        let pos = Ray2::new(Vec2::new(x, 5.0), Vec2::new(0.0, -1.0));
        assert_eq!(span(rect.ray_span(&neg)), Some((3.0, 5.0)), "x = {x}");
        let hit = rect.cast_ray(&neg).unwrap();
        assert_eq!((hit.t, hit.point, hit.normal), (3.0, Vec2::new(x, 2.0), Vec2::Y), "x = {x}");
        assert_eq!(rect.cast_ray(&neg), rect.cast_ray(&pos));
    }
    for x in [-0.5, 4.0f32.next_up()] {
        let outside = Ray2::new(Vec2::new(x, 5.0), Vec2::new(-0.0, -1.0));
        assert_eq!(rect.ray_span(&outside), None, "x = {x}");
    }
    // Along the bottom edge, leftwards, with a -0.0 y component.
    let along = Ray2::new(Vec2::new(6.0, 0.0), Vec2::new(-2.0, -0.0));
    assert_eq!(span(rect.ray_span(&along)), Some((1.0, 3.0)));
}

/// ```text
///  o (-1, 1 + ulp) --------------------->   misses: above the top edge
///  o (-1, 1) ---------*=========*------->   touches the whole top edge
///                     +---------+ 1
///                     |         |
///                     +---------+
///                     0         1
///
///  o (0, 2)                          o (0, 2 + ulp)
///     \                                 \
///      \  grazes the corner (1, 1)       \  passes it by a hair
///       *                                 .
/// ```
/// Touching is a hit; one `f32` ulp away is a miss. The corner graze is the same `t` on
/// both axes (`t = 1`), found equal because each slab bound is one correctly rounded division.
#[test]
fn ray_missing_a_rect_by_one_ulp_misses() {
    let unit = Aabb2::new(Vec2::ZERO, Vec2::ONE);
    let touching = Ray2::new(Vec2::new(-1.0, 1.0), Vec2::X);
    assert_eq!(span(unit.ray_span(&touching)), Some((1.0, 2.0)));
    let hair_above = Ray2::new(Vec2::new(-1.0, 1.0f32.next_up()), Vec2::X);
    assert_eq!(unit.ray_span(&hair_above), None);

    let corner = Ray2::new(Vec2::new(0.0, 2.0), Vec2::new(1.0, -1.0));
    assert_eq!(span(unit.ray_span(&corner)), Some((1.0, 1.0)));
    assert_eq!(unit.cast_ray(&corner).unwrap().point, Vec2::ONE);
    let past_corner = Ray2::new(Vec2::new(0.0, 2.0f32.next_up()), Vec2::new(1.0, -1.0));
    assert_eq!(unit.ray_span(&past_corner), None);

    // A steep graze: (-2, 22) + t (1, -7) reaches the corner at t = 3, where it enters the
    // y slab ((1 - 22) / -7 = 3 exactly) just as it leaves the x slab ((1 + 2) / 1 = 3).
    // Through a rounded reciprocal, -21 * f32(-1/7) = 3.0000002 and the touch would be lost.
    let steep = Ray2::new(Vec2::new(-2.0, 22.0), Vec2::new(1.0, -7.0));
    assert_eq!(span(unit.ray_span(&steep)), Some((3.0, 3.0)));
    assert_eq!(unit.cast_ray(&steep).unwrap().point, Vec2::ONE);
    let steep_past = Ray2::new(Vec2::new(-2.0, 22.0f32.next_up()), Vec2::new(1.0, -7.0));
    assert_eq!(unit.ray_span(&steep_past), None);
}

// ---------------------------------------------------------------------------------------
// 2D overlaps.

/// ```text
///              /\
///  +-----+    /  \
///  |     |   /    \        the diamond (a 2x2 square turned 45 degrees) has its
///  |   0 |  *  cx  \       left corner at (cx - 2s, 0.25), s = f32(1/sqrt 2);
///  |     |  .\    /        with cx = 0.5 + 2s it lies on the square's right edge x = 0.5
///  +-----+     \/
///     0.5
/// ```
/// Corner on edge is touching, and touching overlaps; one ulp of `cx` to the right
/// separates them (the x axis of the square is a separating axis), one ulp to the left
/// overlaps. The diamond's axes are `(s, s)` and `(-s, s)` as stored, so its left corner is
/// exactly `c + (-2s, 0)`.
#[test]
fn rotated_rects_touching_corner_to_edge_overlap_and_a_hair_apart_do_not() {
    let square = Obb2::new(Vec2::ZERO, Vec2::splat(0.5), 0.0);
    let diamond_at = |cx: f32| Obb2::try_from_rotation(Vec2::new(cx, 0.25), Vec2::ONE, Vec2::ONE).unwrap();
    let s = diamond_at(0.0).axes()[0].x;
    assert_eq!(diamond_at(0.0).axes(), [Vec2::new(s, s), Vec2::new(-s, s)]);
    let touch = 0.5 + 2.0 * s;
    assert_eq!(f64::from(touch), 0.5 + 2.0 * f64::from(s), "the touching position is exact in f32");
    assert_eq!(diamond_at(touch).corners()[3], Vec2::new(0.5, 0.25), "left corner on the edge");

    let as_aabb = Aabb2::new(Vec2::splat(-0.5), Vec2::splat(0.5));
    for (cx, expected) in [(touch, true), (touch.next_up(), false), (touch.next_down(), true)] {
        let diamond = diamond_at(cx);
        assert_eq!(square.overlaps(&diamond), expected, "cx = {cx}");
        assert_eq!(diamond.overlaps(&square), expected, "cx = {cx}");
        assert_eq!(as_aabb.overlaps(&diamond), expected, "Aabb2, cx = {cx}");
        assert_eq!(diamond.overlaps(&as_aabb), expected, "Aabb2, cx = {cx}");
    }
}

/// ```text
///  +-----------------+
///  |                 |
///  |    +-----+      |      no edge of the big box meets the small one, and no
///  |    |small|      |      corner of the big box is inside it: only "a corner of
///  |    +-----+      |      the small box is inside the big one" sees the overlap
///  |            big  |
///  +-----------------+
/// ```
/// Containment is overlap, whichever box is asked, axis-aligned or turned.
#[test]
fn one_rect_containing_another_overlaps_both_ways() {
    let big_aabb = Aabb2::new(Vec2::splat(-5.0), Vec2::splat(5.0));
    let small_aabb = Aabb2::new(Vec2::new(-1.0, -2.0), Vec2::new(1.0, 2.0));
    let big_obb = Obb2::new(Vec2::new(0.5, 0.0), Vec2::new(5.0, 4.0), 0.3);
    let small_obb = Obb2::new(Vec2::new(1.0, 0.5), Vec2::new(0.5, 0.25), 1.2);

    // Each small box is wholly inside each big one (all four corners are).
    let small_corners = [small_aabb.corners(), small_obb.corners()].concat();
    assert!(small_corners.iter().all(|&c| big_obb.contains_point(c) && big_aabb.contains_point(c)));

    assert!(big_aabb.overlaps(&small_aabb) && small_aabb.overlaps(&big_aabb));
    assert!(big_obb.overlaps(&small_obb) && small_obb.overlaps(&big_obb));
    assert!(big_aabb.overlaps(&small_obb) && small_obb.overlaps(&big_aabb));
    assert!(big_obb.overlaps(&small_aabb) && small_aabb.overlaps(&big_obb));
}

/// ```text
///  +-----------+ . . . . +           grown box: every point within r of a face PLANE
///  |           |         .
///  |   box     |    o    .  <- the centre (1.4, 1.4) is in the grown box,
///  |           |         .     but sqrt(0.4² + 0.4²) = 0.566 > r = 0.5 from the corner
///  +-----------+ . . . . +
/// ```
/// The "grow the box by r and test the centre" shortcut is wrong in the corner regions:
/// it says yes, the exact distance test says no. In 3D the gap is `0.4 sqrt 3 = 0.693`.
#[test]
fn ball_near_a_box_corner_does_not_overlap_although_the_grown_box_test_says_it_does() {
    let square = Aabb2::new(Vec2::ZERO, Vec2::ONE);
    let circle = Circle::new(Vec2::splat(1.4), 0.5);
    assert!(square.grow(0.5).contains_point(circle.center()), "the shortcut says yes");
    assert!(!circle.overlaps(&square) && !square.overlaps(&circle));

    let cube = Aabb3::new(Vec3::ZERO, Vec3::ONE);
    let ball = Sphere::new(Vec3::splat(1.4), 0.5);
    assert!(cube.grow(0.5).contains_point(ball.center()), "the shortcut says yes");
    assert!(!ball.overlaps(&cube) && !cube.overlaps(&ball));

    // Exactly at the corner distance it touches: (4, 5) is 3-4-5 from the corner (1, 1).
    let touching = Circle::new(Vec2::new(4.0, 5.0), 5.0);
    assert!(touching.overlaps(&square));
    assert!(!Circle::new(Vec2::new(4.0, 5.0), 5.0f32.next_down()).overlaps(&square));
}

// ---------------------------------------------------------------------------------------
// 3D.

/// ```text
///        z
///        |   +-----------+      box [1, 3] x [0, 2] x [-1, 1]
///        |  /|    far * /|      ray (0, 0.5, 0) + t (2, 0.5, 0.25)
///  o-----|-*-|-------/  |      near (1, 0.75, 0.125) at t = 0.5, through x = 1
///        |/  +------/---+      far  (3, 1.25, 0.375) at t = 1.5, through x = 3
///        +-----------+
/// ```
#[test]
fn ray_through_an_aabb_enters_and_leaves_at_exact_points() {
    let b = Aabb3::new(Vec3::new(1.0, 0.0, -1.0), Vec3::new(3.0, 2.0, 1.0));
    let ray = Ray3::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(2.0, 0.5, 0.25));
    assert_eq!(span(b.ray_span(&ray)), Some((0.5, 1.5)));
    assert_eq!(ray.at(1.5), Vec3::new(3.0, 1.25, 0.375));
    let hit = b.cast_ray(&ray).unwrap();
    assert_eq!((hit.point, hit.normal), (Vec3::new(1.0, 0.75, 0.125), Vec3::NEG_X));
}

/// ```text
///   local frame                      world (turned 90 degrees about z, centre (2, 0, 0))
///   +------------------+ 0.5            y
///   |        ^ local   |                |  +--+  x in [1.5, 2.5]
///   |        | dir     |                o--*--*-->  y in [-1, 1]
///   +--------|---------+ -0.5           |  +--+
///  -1        o (0.25, 2)    1
/// ```
/// The integer quaternion `(0, 0, 1, 1)` gives the exact matrix with columns `y, -x, z`.
/// In the box frame the ray is `(0.25, 2, 0.125) + t (0, -2, 0)` against
/// `[-1, 1] x [-0.5, 0.5] x [-0.25, 0.25]`: `t` in `[0.75, 1.25]`, entering the local `+y`
/// face, whose world normal is `-x`.
#[test]
fn ray_against_an_obb_is_the_ray_in_its_frame_against_an_aabb() {
    let obb =
        Obb3::new(Vec3::new(2.0, 0.0, 0.0), Vec3::new(1.0, 0.5, 0.25), Quat::from_xyzw(0.0, 0.0, 1.0, 1.0));
    assert_eq!(obb.rotation(), Mat3::from_cols(Vec3::Y, Vec3::NEG_X, Vec3::Z));
    let ray = Ray3::new(Vec3::new(0.0, 0.25, 0.125), Vec3::new(2.0, 0.0, 0.0));

    let local = Ray3::new(obb.point_to_local(ray.origin()), obb.rotation().transpose() * ray.dir());
    assert_eq!((local.origin(), local.dir()), (Vec3::new(0.25, 2.0, 0.125), Vec3::new(0.0, -2.0, 0.0)));
    let local_box = Aabb3::new(-obb.half_extents(), obb.half_extents());
    assert_eq!(span(local_box.ray_span(&local)), Some((0.75, 1.25)));
    assert_eq!(local_box.cast_ray(&local).unwrap().normal, Vec3::Y);

    assert_eq!(span(obb.ray_span(&ray)), Some((0.75, 1.25)));
    let hit = obb.cast_ray(&ray).unwrap();
    assert_eq!((hit.point, hit.normal), (Vec3::new(1.5, 0.25, 0.125), Vec3::NEG_X));
    assert_eq!(ray.at(1.25), Vec3::new(2.5, 0.25, 0.125));
}

/// ```text
///        o (0, 0, 5)          the plane x + y = 4 (normal (1, 1, 0), not unit)
///         \                   ray (0, 0, 5) + t (1, 1, -1): n·d = 2, t = 4 / 2 = 2,
///          \   |              crossing at (2, 2, 3), arriving from behind
///           *  |  plane       (n·d > 0), so the reported normal is -n / |n|
///            \ |
/// ```
/// Also the two non-crossings, told apart: parallel off the plane, and lying in it.
#[test]
fn ray_against_a_plane_crosses_at_the_solution_of_n_dot_r_equals_offset() {
    let plane = Plane::new(Vec3::new(1.0, 1.0, 0.0), 4.0);
    let ray = Ray3::new(Vec3::new(0.0, 0.0, 5.0), Vec3::new(1.0, 1.0, -1.0));
    assert_eq!(plane.ray_intersection(&ray), RayPlane::Hit { t: 2.0, front_facing: false });
    let hit = plane.cast_ray(&ray).unwrap();
    assert_eq!((hit.t, hit.point), (2.0, Vec3::new(2.0, 2.0, 3.0)));
    assert_eq!(hit.normal, -plane.unit_normal());
    assert!((hit.normal - Vec3::new(-1.0, -1.0, 0.0) / 2f32.sqrt()).length() < 1e-7);

    let parallel = Ray3::new(Vec3::ZERO, Vec3::new(1.0, -1.0, 0.0));
    assert_eq!(plane.ray_intersection(&parallel), RayPlane::Parallel);
    assert_eq!(plane.cast_ray(&parallel), None);

    let inside = Ray3::new(Vec3::new(4.0, 0.0, 0.0), Vec3::new(1.0, -1.0, 7.0));
    assert_eq!(plane.ray_intersection(&inside), RayPlane::Coplanar);
    assert_eq!(span(plane.ray_span(&inside)), Some((0.0, f32::INFINITY)));
    let hit = plane.cast_ray(&inside).unwrap();
    assert_eq!((hit.t, hit.normal), (0.0, Vec3::ZERO));

    let behind = Ray3::new(Vec3::new(0.0, 0.0, 5.0), Vec3::new(-1.0, -1.0, 0.0));
    assert_eq!(plane.ray_intersection(&behind), RayPlane::Miss { t: -2.0 });
}

/// ```text
///             y
///        _____|_____         sphere |x| = 5; ray (-13, 3, 0) + t (2, 0, 0)
///  o----*-----+-----*---->   meets x = -4 and x = 4 (3-4-5), at t = 4.5 and 8.5
///      /(-4,3)|     (4,3)
///     |       +-------- x    normal at the entry (-4, 3, 0) / 5
/// ```
/// `t` is in units of the direction as given (here of length 2).
#[test]
fn ray_against_a_sphere_meets_it_at_the_3_4_5_points() {
    let ball = Sphere::new(Vec3::ZERO, 5.0);
    let ray = Ray3::new(Vec3::new(-13.0, 3.0, 0.0), Vec3::new(2.0, 0.0, 0.0));
    assert_eq!(span(ball.ray_span(&ray)), Some((4.5, 8.5)));
    let hit = ball.cast_ray(&ray).unwrap();
    assert_eq!((hit.t, hit.point), (4.5, Vec3::new(-4.0, 3.0, 0.0)));
    assert_eq!(hit.normal, Vec3::new(-0.8, 0.6, 0.0)); // the f32 nearest to -4/5 and 3/5
    let roots = ball.ray_roots(&ray).unwrap();
    assert_eq!((roots.near, roots.far), (4.5, 8.5));

    // From inside: the solid hit is the start; the surface hit is the way out.
    let from_inside = Ray3::new(Vec3::new(0.0, 3.0, 0.0), Vec3::X);
    let solid = ball.cast_ray(&from_inside).unwrap();
    assert_eq!((solid.t, solid.normal), (0.0, Vec3::ZERO));
    let surface = ball.cast_ray_surface(&from_inside).unwrap();
    assert_eq!(
        (surface.t, surface.point, surface.normal),
        (4.0, Vec3::new(4.0, 3.0, 0.0), Vec3::new(0.8, 0.6, 0.0))
    );
}

/// ```text
///            z
///       (0,0,4) v2               triangle v0 = (1,0,0), v1 = (0,2,0), v2 = (0,0,4):
///            |\   o (0.5,0.5,3)  the plane x + y/2 + z/4 = 1
///            | \  |              ray straight down with dir (0, 0, -2) meets it at
///            |  * |              z = 1, t = 1: the point (0.5, 0.5, 1)
///            | / \               = 0.5 v0 + 0.25 v1 + 0.25 v2
///   (1,0,0) v0----v1 (0,2,0)
/// ```
/// Barycentrics `(w, u, v) = (0.5, 0.25, 0.25)`; `n = (v1 - v0) × (v2 - v0) = (8, 4, 2)`
/// and `n·d = -4 < 0`: the ray arrives from the front, the normal is `(4, 2, 1) / sqrt 21`.
#[test]
fn ray_against_a_triangle_reports_t_and_barycentrics() {
    let tri = Triangle3::new(Vec3::X, Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.0, 0.0, 4.0));
    assert_eq!(tri.normal(), Vec3::new(8.0, 4.0, 2.0));
    let ray = Ray3::new(Vec3::new(0.5, 0.5, 3.0), Vec3::new(0.0, 0.0, -2.0));
    let RayTriangle::Hit(hit) = tri.ray_intersection(&ray) else { panic!("expected a hit") };
    assert_eq!((hit.t, hit.u, hit.v, hit.w()), (1.0, 0.25, 0.25, 0.5));
    assert!(hit.front_facing);
    let cast = tri.cast_ray(&ray).unwrap();
    assert_eq!((cast.t, cast.point), (1.0, Vec3::new(0.5, 0.5, 1.0)));
    assert_eq!(cast.normal, tri.unit_normal());
    assert!((cast.normal - Vec3::new(4.0, 2.0, 1.0) / 21f32.sqrt()).length() < 1e-6);

    // Through the vertex v1 from below: hit (closed), at the back face.
    let up = Ray3::new(Vec3::new(0.0, 2.0, -1.0), Vec3::Z);
    let RayTriangle::Hit(at_vertex) = tri.ray_intersection(&up) else { panic!("expected a vertex hit") };
    assert_eq!((at_vertex.t, at_vertex.u, at_vertex.v), (1.0, 1.0, 0.0));
    assert!(!at_vertex.front_facing);
}

/// ```text
///           y
///   +-------|-------+          A: half extents (1, 2, 3) turned 90 degrees about x:
///   |       |       +----+     world [-1, 1] x [-3, 3] x [-2, 2]
///   |   A   |       | B  |     B: a 2-cube turned about x by atan(4/3) (cos 3/5, sin 4/5),
///   |       +-------|----|-x   centred at (cx, 0.5, -0.5); its x axis stays exactly x
///   +---------------+----+
///                  x = 1
/// ```
/// With `cx = 2`, B's face `x = cx - 1` lies on A's face `x = 1`: touching, overlap.
/// One ulp further they are separated by the x axis.
#[test]
fn obbs_touching_face_to_face_overlap_and_a_hair_apart_do_not() {
    let a = Obb3::new(Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0), Quat::from_xyzw(1.0, 0.0, 0.0, 1.0));
    assert_eq!(a.rotation(), Mat3::from_cols(Vec3::X, Vec3::Z, Vec3::NEG_Y));
    let b_at = |cx: f32| Obb3::new(Vec3::new(cx, 0.5, -0.5), Vec3::ONE, Quat::from_xyzw(1.0, 0.0, 0.0, 2.0));
    assert_eq!(b_at(2.0).axes()[0], Vec3::X);

    let touching = b_at(2.0);
    assert!(a.overlaps(&touching) && touching.overlaps(&a));
    let apart = b_at(2.0f32.next_up());
    assert!(!a.overlaps(&apart) && !apart.overlaps(&a));
    let sunk = b_at(2.0f32.next_down());
    assert!(a.overlaps(&sunk) && sunk.overlaps(&a));

    // Far along y, beside A's y extent of 3: separated whatever the x position.
    let beside = Obb3::new(Vec3::new(0.0, 4.5, 0.0), Vec3::ONE, Quat::from_xyzw(1.0, 0.0, 0.0, 2.0));
    assert!(!a.overlaps(&beside) && !beside.overlaps(&a));
}
