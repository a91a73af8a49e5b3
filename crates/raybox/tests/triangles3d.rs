//! Triangle–triangle and segment overlaps in 3D (`Triangle3` against `Triangle3`, and
//! `Segment3` against `Segment3`, `Triangle3`, `Aabb3`, `Obb3`, `Sphere` and `Plane`), and
//! the triangle–triangle distance, against independent references.
//!
//! - **Exact reference, on a small integer grid.** Vertices, box corners, centres, radii
//!   and plane coefficients are small integers, so touching, coplanar and degenerate
//!   configurations come up all the time (a third of the triangle pairs are drawn in one
//!   common plane) and an `i128` computation is exact. Two convex polytopes meet exactly
//!   when the origin is in the convex hull of the differences of their vertices (their
//!   Minkowski difference), and by Carathéodory's theorem then in the hull of at most four
//!   affinely independent differences: a point, a segment, a triangle or a tetrahedron,
//!   each tested with integer determinants. For the ball, the segment's squared distance
//!   function `|p + t d - c|² - r²` is minimised over `t ∈ [0, 1]` by its discriminant; for
//!   the plane, the signs of the ends.
//! - **Segment against segment**: the grid reference (with collinear pairs on purpose,
//!   and zero-length segments); segments built to cross at an integer point, at scales
//!   `2^±100`, and the same with one coordinate moved by one `f32` step, against the exact
//!   reference on the coordinates times `2^23`; random segments against an `f64` distance
//!   and, for exactly coplanar ones (in `z = c` or `x = y`), against `f64` orientations
//!   where they are clear. The distance is zero exactly when they overlap.
//! - **Symmetry and vertex order**: both argument orders, every vertex order, both
//!   segment directions give the same answer.
//! - **parry3d 0.31** (`query::intersection_test`) on random `f32` shapes, restricted to
//!   pairs with a clear margin: the answer must not change when every shape is scaled by
//!   `1 ± 2%` about its centre, and separated pairs must be at least `1e-2` apart. parry
//!   decides by GJK with tolerances, so it is not exact on touching or nearly touching
//!   pairs; those are skipped, not compared. (Its `intersection_test` calls segments and
//!   triangles of size 4 "intersecting" up to `1.6e-3` apart: the worst of 3 million random
//!   pairs of each kind; a `1e-3` margin failed CI once on a segment pair `1.05e-3` apart.)
//! - **Distance**: on pairs with a clear margin, the closest points GJK reports are
//!   `distance` apart and the distance is zero exactly when the shapes overlap; for
//!   separated triangles it matches a brute-force `f64` reference (the least of the
//!   vertex–face and edge–edge distances, Ericson, *Real-Time Collision Detection*,
//!   5.1.5 and 5.1.9, written out here).

use glam::{DVec3, Quat, Vec3};
use parry3d::math as m3;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use raybox::{Aabb3, Distance, Obb3, Overlaps, Plane, Segment3, Sphere, Triangle3};

// ---------------------------------------------------------------------------------------
// The exact reference.

type P = [i128; 3];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: P, b: P) -> i128 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: P, b: P) -> P {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
/// `det[q - p, r - p, s - p]`.
fn vol(p: P, q: P, r: P, s: P) -> i128 {
    dot(cross(sub(q, p), sub(r, p)), sub(s, p))
}

/// Whether the origin is in the convex hull of `s` (Carathéodory: in the hull of an
/// affinely independent subset of at most four points).
fn origin_in_hull(s: &[P]) -> bool {
    const O: P = [0; 3];
    let n = s.len();
    if s.contains(&O) {
        return true;
    }
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (s[i], s[j]);
            // On the segment: collinear with the origin, which lies between them.
            if a != b && cross(a, b) == O && dot(a, b) <= 0 {
                return true;
            }
            for k in j + 1..n {
                let c = s[k];
                let nrm = cross(sub(b, a), sub(c, a));
                // In the triangle: in its plane, and every barycentric weight >= 0.
                if nrm != O
                    && dot(nrm, a) == 0
                    && dot(nrm, cross(a, b)) >= 0
                    && dot(nrm, cross(b, c)) >= 0
                    && dot(nrm, cross(c, a)) >= 0
                {
                    return true;
                }
                for &d in &s[k + 1..] {
                    let total = vol(a, b, c, d);
                    if total == 0 {
                        continue;
                    }
                    let w = [vol(O, b, c, d), vol(a, O, c, d), vol(a, b, O, d), vol(a, b, c, O)];
                    if w.iter().all(|&x| x == 0 || (x > 0) == (total > 0)) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Whether the convex hulls of two point sets meet, exactly.
fn hulls_meet(a: &[P], b: &[P]) -> bool {
    let diff: Vec<P> = a.iter().flat_map(|&x| b.iter().map(move |&y| sub(x, y))).collect();
    origin_in_hull(&diff)
}

fn int(v: Vec3) -> P {
    let i = |x: f32| {
        assert_eq!(x, x.round(), "grid coordinates are integers");
        x as i128
    };
    [i(v.x), i(v.y), i(v.z)]
}

/// The segment `[p, q]` against the closed ball `(c, r)`: `f(t) = dd t² - 2 md t + mm - rr`
/// is at most zero somewhere in `[0, 1]`.
fn segment_ball_meet(p: P, q: P, c: P, r: i128) -> bool {
    let (d, m) = (sub(q, p), sub(c, p));
    let (dd, md, mm, rr) = (dot(d, d), dot(m, d), dot(m, m), r * r);
    let f0 = mm - rr;
    let f1 = dd - 2 * md + mm - rr;
    if f0 <= 0 || f1 <= 0 {
        return true;
    }
    // The minimum at t* = md / dd inside (0, 1): f(t*) = (dd (mm - rr) - md²) / dd.
    dd > 0 && md > 0 && md < dd && dd * (mm - rr) - md * md <= 0
}

// ---------------------------------------------------------------------------------------
// Strategies on the grid.

fn grid_point(r: i32) -> impl Strategy<Value = Vec3> {
    (-r..=r, -r..=r, -r..=r).prop_map(|(x, y, z)| Vec3::new(x as f32, y as f32, z as f32))
}

/// Two triangles' vertices (maybe collinear), a third of the time in the plane z = 0 and a
/// third in the plane x + y + z = 1.
fn grid_triangle_pair() -> impl Strategy<Value = ([Vec3; 3], [Vec3; 3])> {
    (prop::array::uniform6(grid_point(2)), 0..3).prop_map(|(v, mode)| {
        let flat = |p: Vec3| match mode {
            1 => Vec3::new(p.x, p.y, 0.0),
            2 => Vec3::new(p.x, p.y, 1.0 - p.x - p.y),
            _ => p,
        };
        let v = v.map(flat);
        ([v[0], v[1], v[2]], [v[3], v[4], v[5]])
    })
}

const ORDERS: [[usize; 3]; 6] = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]];

fn triangle(v: [Vec3; 3]) -> Option<Triangle3> {
    Triangle3::try_new(v[0], v[1], v[2]).ok()
}

fn box_corners(b: &Aabb3) -> Vec<P> {
    let (lo, hi) = (b.min(), b.max());
    (0..8)
        .map(|i| {
            let pick = |bit: usize, l: f32, h: f32| if i & bit != 0 { h } else { l };
            int(Vec3::new(pick(1, lo.x, hi.x), pick(2, lo.y, hi.y), pick(4, lo.z, hi.z)))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Triangle against triangle: the exact reference, in every order.
    #[test]
    fn triangle_triangle_matches_the_exact_reference((a, b) in grid_triangle_pair()) {
        let (Some(ta), Some(tb)) = (triangle(a), triangle(b)) else {
            return Ok(()); // collinear on the grid: not a Triangle3 (segments are tested below)
        };
        let want = hulls_meet(&a.map(int), &b.map(int));
        for i in ORDERS {
            for j in ORDERS {
                let (x, y) = (triangle(i.map(|k| a[k])).unwrap(), triangle(j.map(|k| b[k])).unwrap());
                prop_assert_eq!(x.overlaps(&y), want, "{:?} {:?}", x, y);
                prop_assert_eq!(y.overlaps(&x), want, "{:?} {:?}", y, x);
            }
        }
        // Overlapping exactly when the distance is zero (the exact test decides the zero).
        prop_assert_eq!(ta.distance(&tb) == 0.0, want);
    }

    /// Triangle against segment (including zero-length segments and segments in the
    /// triangle's plane): the exact reference, in every order and direction.
    #[test]
    fn triangle_segment_matches_the_exact_reference((a, b) in grid_triangle_pair(), point in any::<bool>()) {
        let Some(t) = triangle(a) else { return Ok(()) };
        let (p, q) = (b[0], if point { b[0] } else { b[1] });
        let want = hulls_meet(&a.map(int), &[int(p), int(q)]);
        for i in ORDERS {
            let t = triangle(i.map(|k| a[k])).unwrap();
            for s in [Segment3::new(p, q), Segment3::new(q, p)] {
                prop_assert_eq!(t.overlaps(&s), want, "{:?} {:?}", t, s);
                prop_assert_eq!(s.overlaps(&t), want, "{:?} {:?}", s, t);
            }
        }
        prop_assert_eq!(t.distance(&Segment3::new(p, q)) == 0.0, want);
    }

    /// Segment against box (flat boxes included), and against an `Obb3` with the identity
    /// rotation (whose frame change is exact on the grid): the exact reference.
    #[test]
    fn segment_box_matches_the_exact_reference(
        c in grid_point(2), h in (0..=2, 0..=2, 0..=2), p in grid_point(3), q in grid_point(3), point in any::<bool>(),
    ) {
        let q = if point { p } else { q };
        let h = Vec3::new(h.0 as f32, h.1 as f32, h.2 as f32);
        let b = Aabb3::new(c - h, c + h);
        let want = hulls_meet(&box_corners(&b), &[int(p), int(q)]);
        let o = Obb3::new(c, h, Quat::IDENTITY);
        for s in [Segment3::new(p, q), Segment3::new(q, p)] {
            prop_assert_eq!(b.overlaps(&s), want, "{:?} {:?}", b, s);
            prop_assert_eq!(s.overlaps(&b), want, "{:?} {:?}", s, b);
            prop_assert_eq!(o.overlaps(&s), want, "{:?} {:?}", o, s);
            prop_assert_eq!(s.overlaps(&o), want, "{:?} {:?}", s, o);
            prop_assert_eq!(b.distance(&s) == 0.0, want);
        }
    }

    /// Segment against ball: the exact reference (integer centre and radius).
    #[test]
    fn segment_sphere_matches_the_exact_reference(
        c in grid_point(3), r in 0..=3, p in grid_point(3), q in grid_point(3), point in any::<bool>(),
    ) {
        let q = if point { p } else { q };
        let ball = Sphere::new(c, r as f32);
        let want = segment_ball_meet(int(p), int(q), int(c), i128::from(r));
        for s in [Segment3::new(p, q), Segment3::new(q, p)] {
            prop_assert_eq!(ball.overlaps(&s), want, "{:?} {:?}", ball, s);
            prop_assert_eq!(s.overlaps(&ball), want, "{:?} {:?}", s, ball);
            prop_assert_eq!(ball.distance(&s) == 0.0, want);
        }
    }

    /// Segment against plane: the signs of the ends, in integers.
    #[test]
    fn segment_plane_matches_the_exact_reference(
        n in grid_point(2), offset in -4..=4, p in grid_point(3), q in grid_point(3), point in any::<bool>(),
    ) {
        prop_assume!(n != Vec3::ZERO);
        let q = if point { p } else { q };
        let plane = Plane::new(n, offset as f32);
        let eval = |x: Vec3| dot(int(n), int(x)) - i128::from(offset);
        let (sp, sq) = (eval(p), eval(q));
        let want = !(sp > 0 && sq > 0 || sp < 0 && sq < 0);
        for s in [Segment3::new(p, q), Segment3::new(q, p)] {
            prop_assert_eq!(plane.overlaps(&s), want, "{:?} {:?}", plane, s);
            prop_assert_eq!(s.overlaps(&plane), want, "{:?} {:?}", s, plane);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Segment against segment.

/// The segments' ends: from a grid pair (a third of them in one plane), or on one line
/// (ends at integer multiples of a direction from a point: collinear pairs that overlap,
/// touch end to end or leave a gap), with zero-length segments now and then.
fn grid_segment_pair() -> impl Strategy<Value = [Vec3; 4]> {
    let general = grid_triangle_pair().prop_map(|(a, b)| [a[0], a[1], b[0], b[1]]);
    let collinear = (grid_point(2), grid_point(1), prop::array::uniform4(-3i32..=3))
        .prop_map(|(p, d, k)| k.map(|k| p + d * k as f32));
    let points = prop_oneof![6 => Just(0), 1 => Just(1), 1 => Just(2), 1 => Just(3)];
    (prop_oneof![2 => general, 1 => collinear], points).prop_map(|(mut e, points)| {
        if points & 1 != 0 {
            e[1] = e[0];
        }
        if points & 2 != 0 {
            e[3] = e[2];
        }
        e
    })
}

/// Both orders and both directions of each segment give `want`, and the distance is zero
/// exactly then.
fn check_segments(e: [Vec3; 4], want: bool) -> Result<(), TestCaseError> {
    let (a, b) = (Segment3::new(e[0], e[1]), Segment3::new(e[2], e[3]));
    let flip = |s: Segment3| Segment3::new(s.end(), s.start());
    for (x, y) in [(a, b), (flip(a), b), (a, flip(b)), (flip(a), flip(b))] {
        prop_assert_eq!(x.overlaps(&y), want, "{:?} {:?}", x, y);
        prop_assert_eq!(y.overlaps(&x), want, "{:?} {:?}", y, x);
        prop_assert_eq!(x.distance(&y) == 0.0, want, "distance {} for {:?} {:?}", x.distance(&y), x, y);
    }
    Ok(())
}

/// A coordinate as an integer after scaling by `2^shift` (exactly: the tests only scale
/// values that are multiples of `2^-shift`).
fn int_scaled(v: Vec3, shift: i32) -> P {
    let i = |x: f32| {
        let y = f64::from(x) * 2f64.powi(shift);
        assert_eq!(y, y.round(), "{x} is not a multiple of 2^-{shift}");
        y as i128
    };
    [i(v.x), i(v.y), i(v.z)]
}

/// One `f32` step up from `x`, but at least `2^-23` (so that the result is a multiple of
/// `2^-23` for `|x| < 2^5`): `x + ulp(x)` away from zero, `2^-23` at zero.
fn step(x: f32, up: bool) -> f32 {
    let ulp = if x == 0.0 { 2f32.powi(-23) } else { f32::from_bits(x.abs().to_bits() + 1) - x.abs() };
    if up { x + ulp.max(2f32.powi(-23)) } else { x - ulp.max(2f32.powi(-23)) }
}

/// Segments through a common integer point `x`: `[x - i u, x + j u]` and `[x - k v, x + l v]`
/// for integer directions `u`, `v` (maybe parallel: then the segments are collinear) and
/// multipliers `0..=3`, so they meet at `x` (maybe at an end, or as points).
fn crossing_pair() -> impl Strategy<Value = [Vec3; 4]> {
    (grid_point(8), grid_point(3), grid_point(3), prop::array::uniform4(0i32..=3)).prop_map(|(x, u, v, m)| {
        let m = m.map(|k| k as f32);
        [x - u * m[0], x + u * m[1], x - v * m[2], x + v * m[3]]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Segment against segment on the grid: the exact reference (the hull of the four
    /// differences holds the origin), in both orders and directions.
    #[test]
    fn segment_segment_matches_the_exact_reference(e in grid_segment_pair()) {
        let want = hulls_meet(&[int(e[0]), int(e[1])], &[int(e[2]), int(e[3])]);
        check_segments(e, want)?;
    }

    /// Segments built to meet at an integer point meet, at every power-of-two scale;
    /// with one coordinate of one end moved by one `f32` step (at least `2^-23`), the
    /// answer is the exact one (on the coordinates times `2^23`, integers below `2^28`).
    #[test]
    fn constructed_crossings_and_one_step_off(
        e in crossing_pair(), scale in prop::sample::select(vec![-100i32, -60, -20, 0, 20, 60, 100]),
        end in 0..4usize, axis in 0..3usize, up in any::<bool>(),
    ) {
        let s = 2f32.powi(scale);
        check_segments(e.map(|v| v * s), true)?;
        let mut off = e;
        off[end][axis] = step(off[end][axis], up);
        let ints = off.map(|v| int_scaled(v, 23));
        let want = hulls_meet(&ints[..2], &ints[2..]);
        check_segments(off, want)?;
        check_segments(off.map(|v| v * s), want)?;
    }

    /// Random `f32` segments against an `f64` reference, where it is clear: in general
    /// position (a distance computed in `f64`), and exactly coplanar, in the plane `z = c`
    /// or `x = y` (where the projection along `z` flattens them onto a line), by the signs
    /// of the four orientations when none is within rounding of zero.
    #[test]
    fn segment_segment_against_an_f64_reference(e in prop::array::uniform4(point()), c in coord(), mode in 0..3) {
        let e = match mode {
            0 => e,
            1 => e.map(|v| Vec3::new(v.x, v.y, c)),
            _ => e.map(|v| Vec3::new(v.x, v.x, v.z)),
        };
        let (a, b) = (Segment3::new(e[0], e[1]), Segment3::new(e[2], e[3]));
        let d = e.map(Vec3::as_dvec3);
        let want_distance = segment_distance(d[0], d[1], d[2], d[3]);
        let got = a.overlaps(&b);
        prop_assert!(!got || want_distance < 1e-6, "overlapping, yet {} apart", want_distance);
        if want_distance > 1e-6 {
            prop_assert!(!got);
            prop_assert!((f64::from(a.distance(&b)) - want_distance).abs() <= 1e-6, "{} against {}", a.distance(&b), want_distance);
        }
        if mode != 0 {
            // In-plane coordinates: (x, y) for z = c, (x, z) for x = y.
            let q = d.map(|v| if mode == 1 { (v.x, v.y) } else { (v.x, v.z) });
            let orient = |a: (f64, f64), b: (f64, f64), c: (f64, f64)| (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
            let o = [orient(q[0], q[1], q[2]), orient(q[0], q[1], q[3]), orient(q[2], q[3], q[0]), orient(q[2], q[3], q[1])];
            if o.iter().all(|x| x.abs() > 1e-9) {
                let want = o[0] * o[1] < 0.0 && o[2] * o[3] < 0.0;
                prop_assert_eq!(got, want, "{:?} {:?} {:?}", a, b, o);
                prop_assert_eq!(a.distance(&b) == 0.0, want);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Against parry3d, with a clear margin.

fn p3(v: Vec3) -> m3::Vector {
    m3::Vector::new(v.x, v.y, v.z)
}

/// A shape of this file, as raybox has it and as parry does.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Tri([Vec3; 3]),
    Seg(Vec3, Vec3),
    Box(Aabb3),
    /// The box and the rotation it was built with (for parry).
    Turned(Obb3, Quat),
    Ball(Sphere),
}

impl Shape {
    /// The shape scaled by `f` about its centre.
    fn scaled(&self, f: f32) -> Shape {
        let about = |c: Vec3, v: Vec3| c + (v - c) * f;
        match *self {
            Shape::Tri(v) => {
                let c = (v[0] + v[1] + v[2]) / 3.0;
                Shape::Tri(v.map(|x| about(c, x)))
            }
            Shape::Seg(p, q) => {
                let c = (p + q) * 0.5;
                Shape::Seg(about(c, p), about(c, q))
            }
            Shape::Box(b) => Shape::Box(Aabb3::from_center_half_extents(b.center(), b.half_extents() * f)),
            Shape::Turned(o, q) => Shape::Turned(Obb3::new(o.center(), o.half_extents() * f, q), q),
            Shape::Ball(s) => Shape::Ball(Sphere::new(s.center(), s.radius() * f)),
        }
    }

    fn parry(&self) -> (Box<dyn parry3d::shape::Shape>, m3::Pose) {
        use parry3d::shape as ps;
        match *self {
            Shape::Tri([a, b, c]) => (Box::new(ps::Triangle::new(p3(a), p3(b), p3(c))), m3::Pose::IDENTITY),
            Shape::Seg(p, q) => (Box::new(ps::Segment::new(p3(p), p3(q))), m3::Pose::IDENTITY),
            Shape::Box(b) => {
                (Box::new(ps::Cuboid::new(p3(b.half_extents()))), m3::Pose::from_translation(p3(b.center())))
            }
            Shape::Turned(o, q) => {
                let pose = m3::Pose::from_parts(p3(o.center()), m3::Rotation::from_xyzw(q.x, q.y, q.z, q.w));
                (Box::new(ps::Cuboid::new(p3(o.half_extents()))), pose)
            }
            Shape::Ball(s) => {
                (Box::new(ps::Ball::new(s.radius())), m3::Pose::from_translation(p3(s.center())))
            }
        }
    }
}

/// raybox's overlap test and distance for the pairs of this file (the first shape a
/// triangle or a segment); `None` for pairs raybox does not have.
fn raybox_pair(a: &Shape, b: &Shape) -> Option<(bool, f32)> {
    let seg = |p: Vec3, q: Vec3| Segment3::new(p, q);
    Some(match (*a, *b) {
        (Shape::Tri(x), Shape::Tri(y)) => {
            let (x, y) = (triangle(x)?, triangle(y)?);
            (x.overlaps(&y), x.distance(&y))
        }
        (Shape::Tri(x), Shape::Seg(p, q)) => {
            let x = triangle(x)?;
            (x.overlaps(&seg(p, q)), x.distance(&seg(p, q)))
        }
        (Shape::Seg(p, q), Shape::Seg(r, t)) => {
            (seg(p, q).overlaps(&seg(r, t)), seg(p, q).distance(&seg(r, t)))
        }
        (Shape::Seg(p, q), Shape::Box(b)) => (seg(p, q).overlaps(&b), seg(p, q).distance(&b)),
        (Shape::Seg(p, q), Shape::Turned(o, _)) => (seg(p, q).overlaps(&o), seg(p, q).distance(&o)),
        (Shape::Seg(p, q), Shape::Ball(s)) => (seg(p, q).overlaps(&s), seg(p, q).distance(&s)),
        _ => return None,
    })
}

fn coord() -> impl Strategy<Value = f32> {
    -2.0f32..2.0
}
fn point() -> impl Strategy<Value = Vec3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}
fn tri() -> impl Strategy<Value = Shape> {
    prop::array::uniform3(point()).prop_map(Shape::Tri)
}
fn seg() -> impl Strategy<Value = Shape> {
    (point(), point()).prop_map(|(p, q)| Shape::Seg(p, q))
}
fn solid() -> impl Strategy<Value = Shape> {
    let half = (0.05f32..1.5, 0.05f32..1.5, 0.05f32..1.5).prop_map(|(x, y, z)| Vec3::new(x, y, z));
    let quat = (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, 0.1f32..1.0)
        .prop_map(|(x, y, z, w)| Quat::from_xyzw(x, y, z, w).normalize());
    prop_oneof![
        (point(), half.clone()).prop_map(|(c, h)| Shape::Box(Aabb3::from_center_half_extents(c, h))),
        (point(), half, quat).prop_map(|(c, h, q)| Shape::Turned(Obb3::new(c, h, q), q)),
        (point(), 0.0f32..1.5).prop_map(|(c, r)| Shape::Ball(Sphere::new(c, r))),
    ]
}
fn pair() -> impl Strategy<Value = (Shape, Shape)> {
    prop_oneof![(tri(), tri()), (tri(), seg()), (seg(), solid()), (seg(), seg())]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// raybox and parry agree wherever the answer is clear: unchanged under scaling every
    /// shape by 2% either way, and at least `1e-2` apart when apart (see the file's head).
    #[test]
    fn agrees_with_parry_with_a_clear_margin((a, b) in pair()) {
        let Some((overlaps, distance)) = raybox_pair(&a, &b) else { return Ok(()) };
        let stable = [0.98, 1.02].iter().all(|&f| {
            raybox_pair(&a.scaled(f), &b.scaled(f)).is_some_and(|(o, _)| o == overlaps)
        });
        prop_assume!(stable && (overlaps || distance > 1e-2));
        let ((sa, pa), (sb, pb)) = (a.parry(), b.parry());
        let theirs = parry3d::query::intersection_test(&pa, &*sa, &pb, &*sb).unwrap().intersecting;
        prop_assert_eq!(overlaps, theirs, "{:?} {:?} (raybox distance {})", a, b, distance);
        // The distance is zero exactly when the shapes overlap. (Its value is checked against
        // brute force below, not against parry: parry's GJK stops early, e.g. 3.08696 for a
        // segment 3.08601 from a box, 1e-3 off.)
        prop_assert_eq!(distance == 0.0, overlaps);
    }
}

// ---------------------------------------------------------------------------------------
// Distance against brute force.

/// The point of the triangle `abc` nearest to `p` (Ericson, *Real-Time Collision
/// Detection*, 5.1.5), in `f64`.
fn nearest_on_triangle(p: DVec3, [a, b, c]: [DVec3; 3]) -> DVec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// The distance between the segments `[p1, q1]` and `[p2, q2]` (Ericson 5.1.9), in `f64`.
fn segment_distance(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> f64 {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    let (s, t) = if a == 0.0 && e == 0.0 {
        (0.0, 0.0)
    } else if a == 0.0 {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e == 0.0 {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s = if denom > 0.0 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    (p1 + d1 * s).distance(p2 + d2 * t)
}

/// The distance between two disjoint triangles: the least vertex–face and edge–edge distance.
fn brute_triangle_distance(a: [DVec3; 3], b: [DVec3; 3]) -> f64 {
    let mut best = f64::INFINITY;
    for i in 0..3 {
        best = best.min(a[i].distance(nearest_on_triangle(a[i], b)));
        best = best.min(b[i].distance(nearest_on_triangle(b[i], a)));
        for j in 0..3 {
            best = best.min(segment_distance(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3]));
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Separated triangles (and a triangle and a segment, as a triangle with a repeated
    /// vertex): the distance is the brute-force one, and the closest points lie on their
    /// shapes at that distance. Overlapping ones: zero, with one common point.
    #[test]
    fn triangle_distance_matches_brute_force(x in prop::array::uniform3(point()), y in prop::array::uniform3(point()), as_segment in any::<bool>()) {
        let Some(t) = triangle(x) else { return Ok(()) };
        let (distance, (on_t, on_other), yv) = if as_segment {
            let s = Segment3::new(y[0], y[1]);
            (t.distance(&s), t.closest_points(&s), [y[0], y[1], y[1]])
        } else {
            let Some(u) = triangle(y) else { return Ok(()) };
            (t.distance(&u), t.closest_points(&u), y)
        };
        let (xd, yd) = (x.map(Vec3::as_dvec3), yv.map(Vec3::as_dvec3));
        if distance == 0.0 {
            prop_assert!(on_t.distance(on_other) < 1e-5, "{on_t} {on_other}");
            return Ok(());
        }
        let want = brute_triangle_distance(xd, yd);
        prop_assert!((f64::from(distance) - want).abs() <= 1e-5 * (1.0 + want), "{x:?} {yv:?}: {distance} against {want}");
        prop_assert!((on_t.distance(on_other) - distance).abs() <= 1e-5);
        // Each closest point is on its shape: its distance to the shape is (almost) zero.
        let near = |p: Vec3, v: [DVec3; 3]| {
            let p = p.as_dvec3();
            if v[1] == v[2] { segment_distance(p, p, v[0], v[1]) } else { p.distance(nearest_on_triangle(p, v)) }
        };
        prop_assert!(near(on_t, xd) < 1e-5 && near(on_other, yd) < 1e-5, "{on_t} {on_other}");
    }
}

/// The grid strategies produce what they are for: touching pairs (overlapping, but apart
/// once one triangle is moved by a tiny step), coplanar pairs and both answers.
#[test]
fn the_grid_has_touching_and_coplanar_cases() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut touching, mut coplanar_overlapping, mut apart) = (0, 0, 0);
    for _ in 0..3000 {
        let (a, b) = grid_triangle_pair().new_tree(&mut runner).unwrap().current();
        let (Some(ta), Some(_)) = (triangle(a), triangle(b)) else { continue };
        let want = hulls_meet(&a.map(int), &b.map(int));
        if !want {
            apart += 1;
            continue;
        }
        let n = ta.normal();
        let coplanar = b.iter().all(|&v| n.dot(v - a[0]) == 0.0);
        coplanar_overlapping += usize::from(coplanar);
        // Moved off by 1e-3 along some axis, they no longer meet: they only touched.
        let moved = [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X, -Vec3::Y, -Vec3::Z]
            .iter()
            .any(|&d| !triangle(b.map(|v| v + d * 1e-3)).unwrap().overlaps(&ta));
        touching += usize::from(moved && !coplanar);
    }
    assert!(
        touching > 100 && coplanar_overlapping > 100 && apart > 300,
        "{touching} {coplanar_overlapping} {apart}"
    );
}

/// The segment strategies produce what they are for: meeting and apart pairs, collinear
/// pairs of both kinds, and one-step-off pairs of both answers.
#[test]
fn the_segment_strategies_have_both_answers() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut meet, mut collinear_meet, mut collinear_apart, mut apart) = (0, 0, 0, 0);
    for _ in 0..3000 {
        let e = grid_segment_pair().new_tree(&mut runner).unwrap().current();
        let want = hulls_meet(&[int(e[0]), int(e[1])], &[int(e[2]), int(e[3])]);
        let (u, v, w) = (e[1] - e[0], e[2] - e[0], e[3] - e[0]);
        let collinear = u != Vec3::ZERO && u.cross(v) == Vec3::ZERO && u.cross(w) == Vec3::ZERO;
        match (want, collinear) {
            (true, true) => collinear_meet += 1,
            (true, false) => meet += 1,
            (false, true) => collinear_apart += 1,
            (false, false) => apart += 1,
        }
    }
    assert!(
        meet > 300 && collinear_meet > 300 && collinear_apart > 100 && apart > 1000,
        "{meet} {collinear_meet} {collinear_apart} {apart}"
    );
    let (mut still, mut off) = (0, 0);
    for i in 0..2000 {
        let e = crossing_pair().new_tree(&mut runner).unwrap().current();
        let (end, axis, up) = (i % 4, (i / 4) % 3, (i / 12) % 2 == 0);
        let mut moved = e;
        moved[end][axis] = step(moved[end][axis], up);
        let ints = moved.map(|v| int_scaled(v, 23));
        if hulls_meet(&ints[..2], &ints[2..]) { still += 1 } else { off += 1 }
    }
    assert!(still > 300 && off > 1000, "{still} still meet, {off} apart");
}
