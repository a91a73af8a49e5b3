//! raybox against parry (parry2d / parry3d 0.31, dev-dependencies) on thousands of random
//! pairs: contact depth and normal, distance, and time of impact, over every ordered pair
//! of balls, boxes, axis-aligned boxes, capsules, triangles and segments in 3D.
//!
//! **Convention mapping** (parry's docs, `query::{contact, distance, cast_shapes}`):
//! - shapes: raybox `Obb3 { center, half_extents, rotation }` is parry's `Cuboid::new(h)`
//!   at `Pose::from_parts(center, q)`; `Aabb3` the same with the identity rotation;
//!   `Sphere`/`Circle` a `Ball` at its centre; `Capsule3::new(a, b, r)` parry's
//!   `Capsule::new(a, b, r)` at the identity pose; `Triangle3` and `Segment3` parry's
//!   `Triangle` and `Segment` on the same points, at the identity pose. parry 0.31 uses glam 0.33 through
//!   `glamx`, so every vector and quaternion is converted component by component.
//! - contact: raybox's `normal` (from the first shape to the second) is parry's `normal1`
//!   (outward on shape 1); raybox's `depth` is parry's `-dist` (parry's `dist < 0` when
//!   penetrating). raybox answers `None` for separated shapes; parry with `prediction = 0`
//!   answers `None` as well (or a contact with `dist > 0`, which we treat as separated).
//! - distance: the same quantity (zero when overlapping).
//! - time of impact: raybox's `a.sweep(v, &b)` (t in `[0, 1]`, `a` moving by `t v`) is
//!   parry's `cast_shapes(pos_a, v, a, pos_b, 0, b, max_time_of_impact = 1)`; raybox's
//!   `normal` (from the static shape toward the moving one) is parry's `normal2` (outward
//!   on the second, static, shape).
//!
//! **Adjudication.** parry is not exact everywhere: its capsule distances stop at a looser
//! GJK tolerance, and some of its box–box and capsule depths are too small. Where the two
//! disagree beyond the tolerances, an independent check decides: for distances with a
//! capsule, a ternary search of the distance from the other shape along the capsule's
//! core; for depths, the translations themselves (parry's normal times parry's depth must
//! separate the shapes if parry is right; raybox's must separate them in any case). Every
//! adjudicated pair is counted and printed; a disagreement the check does not settle in
//! raybox's favour fails the test. For times of impact the check is a brute force on
//! raybox's own distance and overlap tests along the motion (`sweep_right`): raybox's time
//! must be a touch, with the shapes apart a little before it, and its miss a motion along
//! which the shapes never touch.
//!
//! **Tolerances.** Where a quantity is decided on a boundary (a pair that only just
//! touches, a motion that grazes), one library may say "touching" and the other not; such
//! disagreements are accepted only when the quantity in question is within `1e-3` of the
//! boundary. Depths agree to `1e-3` (parry's EPA for capsule–box pairs is iterative),
//! distances to `1e-4`, times of impact to `1e-3`. A normal that differs from parry's is
//! accepted only when parry's normal is an equally short way out (a tie between axes):
//! moving the second shape along parry's normal by raybox's depth must also separate them.

use glam::{Quat, Vec2, Vec3};
use parry2d::math as m2;
use parry3d::math as m3;
use parry3d::query::ShapeCastOptions;
use raybox::{
    Aabb3, Capsule2, Capsule3, Circle, Contact, Contact2, Contact3, Distance, Obb2, Obb3, Overlaps, Segment3,
    Sphere, Sweep, Triangle3,
};

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32) / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
    fn v3(&mut self, s: f32) -> Vec3 {
        Vec3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }
    fn v2(&mut self, s: f32) -> Vec2 {
        Vec2::new(self.range(-s, s), self.range(-s, s))
    }
    fn quat(&mut self) -> Quat {
        loop {
            let q = Quat::from_xyzw(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            if q.length() > 0.2 {
                return q.normalize();
            }
        }
    }
}

fn p3(v: Vec3) -> m3::Vector {
    m3::Vector::new(v.x, v.y, v.z)
}
fn g3(v: m3::Vector) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}
fn p2(v: Vec2) -> m2::Vector {
    m2::Vector::new(v.x, v.y)
}
fn g2(v: m2::Vector) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// A 3D shape in both libraries.
#[derive(Clone, Copy, Debug)]
enum S3 {
    Ball(Sphere),
    Box(Obb3, Quat),
    Aabb(Aabb3),
    Capsule(Capsule3),
    Triangle(Triangle3),
    Segment(Segment3),
}

/// How many kinds [`S3::random`] draws from: ball, box, axis-aligned box, capsule,
/// triangle, segment.
const KINDS3: usize = 6;

/// A random triangle around `c`, well away from degenerate: its area is at least a
/// twentieth of its longest edge squared (every height at least a tenth of that edge), so
/// translating it (rounding its vertices) cannot make it degenerate either.
fn random_triangle(rng: &mut Rng, c: Vec3) -> Triangle3 {
    loop {
        let [p, q, r] = [c + rng.v3(1.5), c + rng.v3(1.5), c + rng.v3(1.5)];
        let longest = (q - p).length_squared().max((r - q).length_squared()).max((p - r).length_squared());
        if (q - p).cross(r - p).length() * 0.5 >= 0.05 * longest && longest > 0.01 {
            return Triangle3::new(p, q, r);
        }
    }
}

impl S3 {
    fn random(rng: &mut Rng, kind: usize) -> Self {
        let c = rng.v3(2.0);
        match kind {
            0 => S3::Ball(Sphere::new(c, rng.range(0.05, 1.5))),
            1 => {
                let q = rng.quat();
                S3::Box(
                    Obb3::new(
                        c,
                        Vec3::new(rng.range(0.05, 1.5), rng.range(0.05, 1.5), rng.range(0.05, 1.5)),
                        q,
                    ),
                    q,
                )
            }
            2 => S3::Aabb(Aabb3::from_center_half_extents(c, rng.v3(1.5).abs() + Vec3::splat(0.05))),
            3 => S3::Capsule(Capsule3::new(c, c + rng.v3(1.5), rng.range(0.05, 1.0))),
            4 => S3::Triangle(random_triangle(rng, c)),
            _ => S3::Segment(Segment3::new(c, c + rng.v3(1.5))),
        }
    }

    fn parry(&self) -> (Box<dyn parry3d::shape::Shape>, m3::Pose) {
        match *self {
            S3::Ball(s) => {
                (Box::new(parry3d::shape::Ball::new(s.radius())), m3::Pose::from_translation(p3(s.center())))
            }
            S3::Box(b, q) => (
                Box::new(parry3d::shape::Cuboid::new(p3(b.half_extents()))),
                m3::Pose::from_parts(p3(b.center()), m3::Rotation::from_xyzw(q.x, q.y, q.z, q.w)),
            ),
            S3::Aabb(b) => (
                Box::new(parry3d::shape::Cuboid::new(p3(b.half_extents()))),
                m3::Pose::from_translation(p3(b.center())),
            ),
            S3::Capsule(c) => (
                Box::new(parry3d::shape::Capsule::new(p3(c.start()), p3(c.end()), c.radius())),
                m3::Pose::IDENTITY,
            ),
            S3::Triangle(t) => {
                let [p, q, r] = t.vertices().map(p3);
                (Box::new(parry3d::shape::Triangle::new(p, q, r)), m3::Pose::IDENTITY)
            }
            S3::Segment(s) => {
                (Box::new(parry3d::shape::Segment::new(p3(s.start()), p3(s.end()))), m3::Pose::IDENTITY)
            }
        }
    }

    fn moved(&self, v: Vec3) -> Self {
        match *self {
            S3::Ball(s) => S3::Ball(Sphere::new(s.center() + v, s.radius())),
            S3::Box(b, q) => {
                S3::Box(Obb3::try_from_matrix(b.center() + v, b.half_extents(), b.rotation()).unwrap(), q)
            }
            S3::Aabb(b) => S3::Aabb(b.translated(v)),
            S3::Capsule(c) => S3::Capsule(Capsule3::new(c.start() + v, c.end() + v, c.radius())),
            S3::Triangle(t) => {
                let [p, q, r] = t.vertices().map(|x| x + v);
                S3::Triangle(Triangle3::new(p, q, r))
            }
            S3::Segment(s) => S3::Segment(Segment3::new(s.start() + v, s.end() + v)),
        }
    }
}

/// Dispatches a raybox query over both shapes' kinds (the first shape's kind, then the
/// second's: every one of the 36 pairs).
macro_rules! dispatch3 {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {
        match $a {
            S3::Ball($x) => dispatch3!(@second $b, $y, $body),
            S3::Box($x, _) => dispatch3!(@second $b, $y, $body),
            S3::Aabb($x) => dispatch3!(@second $b, $y, $body),
            S3::Capsule($x) => dispatch3!(@second $b, $y, $body),
            S3::Triangle($x) => dispatch3!(@second $b, $y, $body),
            S3::Segment($x) => dispatch3!(@second $b, $y, $body),
        }
    };
    (@second $b:expr, $y:ident, $body:expr) => {
        match $b {
            S3::Ball($y) => $body,
            S3::Box($y, _) => $body,
            S3::Aabb($y) => $body,
            S3::Capsule($y) => $body,
            S3::Triangle($y) => $body,
            S3::Segment($y) => $body,
        }
    };
}

/// The distance from a point to a 3D shape (zero inside), in raybox (exact for each kind).
fn point_distance3(s: &S3, p: Vec3) -> f32 {
    use raybox::ClosestPoint;
    match s {
        S3::Ball(x) => x.distance_to_point(p),
        S3::Box(x, _) => x.distance_to_point(p),
        S3::Aabb(x) => x.distance_to_point(p),
        S3::Capsule(x) => x.distance_to_point(p),
        S3::Triangle(x) => x.distance_to_point(p),
        S3::Segment(x) => x.distance_to_point(p),
    }
}

/// An independent oracle for a pair with a capsule: the distance from the other shape to
/// the capsule's core, minimised over the core by ternary search (the distance from a
/// convex set is convex along a segment), less the capsule's radius. `None` for pairs
/// without a capsule (their parry answers are exact, from closed forms and SAT, or, with
/// a triangle or a segment, GJK's, within the tolerance on every pair drawn).
fn capsule_oracle3(a: &S3, b: &S3) -> Option<(f32, f32)> {
    let (cap, other) = match (a, b) {
        (S3::Capsule(c), o) | (o, S3::Capsule(c)) => (c, o),
        _ => return None,
    };
    let at = |s: f32| cap.start() + (cap.end() - cap.start()) * s;
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    for _ in 0..100 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if point_distance3(other, at(m1)) <= point_distance3(other, at(m2)) { hi = m2 } else { lo = m1 }
    }
    let core_gap = point_distance3(other, at(0.5 * (lo + hi)));
    Some((core_gap, cap.radius()))
}

fn rb_contact3(a: &S3, b: &S3) -> Option<Contact3> {
    dispatch3!(a, b, |x, y| x.contact(y))
}
fn rb_overlaps3(a: &S3, b: &S3) -> bool {
    dispatch3!(a, b, |x, y| x.overlaps(y))
}
fn rb_distance3(a: &S3, b: &S3) -> f32 {
    dispatch3!(a, b, |x, y| x.distance(y))
}
fn rb_sweep3(a: &S3, v: Vec3, b: &S3) -> Option<raybox::SweepHit3> {
    dispatch3!(a, b, |x, y| x.sweep(v, y))
}

/// How far raybox's distance may be from parry's. parry's GJK on rounded shapes (balls,
/// capsules) stops at a looser tolerance than raybox's: on one pair checked by brute force
/// (capsule from (0.115, -0.549, 0.760) to (0.080, -0.861, -0.607), radius 0.876, against
/// the box (0.603, 1.546, 1.071)–(2.711, 1.911, 1.675)), raybox and a 200 001-point scan
/// of the core both give 1.298150 and parry 1.298667, 4e-4 relative.
fn distance_tolerance(d: f32) -> f32 {
    1e-3 * (1.0 + d)
}

/// Asserts that no more than `allowed` of `cases` failed, printing the failures.
fn finish(name: &str, cases: usize, compared: usize, failures: &[String], allowed: usize) {
    println!("{name}: {cases} pairs, {compared} compared numerically, {} failures", failures.len());
    assert!(compared >= cases / 5, "{name}: only {compared} of {cases} pairs compared");
    assert!(failures.len() <= allowed, "{name}: {} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn contact_depth_and_normal_3d() {
    let mut rng = Rng(0x5eed_0001);
    // Six kinds, 36 ordered pairs: about 166 cases each.
    let (mut failures, mut compared, cases) = (Vec::new(), 0, 6000);
    let mut unsupported = Vec::new();
    let mut parry_off = 0;
    for i in 0..cases {
        let (a, b) = (S3::random(&mut rng, i % KINDS3), S3::random(&mut rng, (i / KINDS3) % KINDS3));
        // Halfway toward each other: triangles and segments, flat, would otherwise overlap
        // the other shape too seldom to compare depths (a fifth of the pairs at least).
        let b = b.moved((shape_center(&a) - shape_center(&b)) * 0.5);
        let ((ga, pa), (gb, pb)) = (a.parry(), b.parry());
        let ours = rb_contact3(&a, &b);
        let Ok(theirs) = parry3d::query::contact(&pa, &*ga, &pb, &*gb, 0.0) else {
            unsupported.push(format!("{a:?} {b:?}"));
            continue;
        };
        let theirs = theirs.filter(|c| c.dist <= 0.0);
        match (ours, theirs) {
            (Some(c), Some(p)) => {
                compared += 1;
                let depth = -p.dist;
                if (c.depth - depth).abs() > 1e-3 * (1.0 + depth) {
                    // Adjudicate by translation: parry's move must fail to separate the
                    // shapes (its depth is too small) while raybox's move separates them.
                    let theirs_separates = !rb_overlaps3(&a, &b.moved(g3(p.normal1) * (depth + 1e-4)));
                    let ours_separates = !rb_overlaps3(&a, &b.moved(c.normal * (c.depth + 1e-4)));
                    if !theirs_separates && ours_separates && c.depth > depth {
                        parry_off += 1;
                        continue;
                    }
                    failures.push(format!("{a:?} {b:?}: depth {} vs parry {depth}", c.depth));
                    continue;
                }
                let n = g3(p.normal1);
                if c.normal.dot(n) < 0.999 && rb_overlaps3(&a, &b.moved(n * (c.depth + 2e-3))) {
                    failures.push(format!(
                        "{a:?} {b:?}: normal {} vs parry {n} (parry's is no way out)",
                        c.normal
                    ));
                }
            }
            (Some(c), None) if c.depth <= 1e-3 => {}
            (None, Some(p)) if -p.dist <= 1e-3 => {}
            (None, None) => {}
            (x, y) => failures.push(format!("{a:?} {b:?}: raybox {x:?} vs parry {y:?}")),
        }
    }
    println!("parry: {} pairs unsupported, e.g. {:?}", unsupported.len(), unsupported.first());
    println!("parry's depth too small (its move does not separate; raybox's does): {parry_off} pairs");
    finish("contact 3D", cases, compared, &failures, 0);
}

/// Triangle against triangle, the same comparison as [`contact_depth_and_normal_3d`] (the
/// triangles' own type in both libraries, parry's at the identity pose).
#[test]
fn triangle_triangle_contact_3d() {
    let mut rng = Rng(0x5eed_0007);
    let (mut failures, mut compared, cases) = (Vec::new(), 0, 4000);
    let moved = |t: &Triangle3, v: Vec3| {
        let [p, q, r] = t.vertices().map(|x| x + v);
        Triangle3::try_new(p, q, r).ok()
    };
    let separates = |a: &Triangle3, b: &Triangle3, v: Vec3| moved(b, v).is_none_or(|m| !a.overlaps(&m));
    for _ in 0..cases {
        let tri = |rng: &mut Rng| loop {
            let c = rng.v3(0.25);
            if let Ok(t) = Triangle3::try_new(c + rng.v3(1.5), c + rng.v3(1.5), c + rng.v3(1.5)) {
                break t;
            }
        };
        let (a, b) = (tri(&mut rng), tri(&mut rng));
        let peer = |t: &Triangle3| {
            let [p, q, r] = t.vertices().map(p3);
            parry3d::shape::Triangle::new(p, q, r)
        };
        let id = m3::Pose::IDENTITY;
        let theirs = parry3d::query::contact(&id, &peer(&a), &id, &peer(&b), 0.0)
            .expect("parry supports triangle pairs")
            .filter(|c| c.dist <= 0.0);
        match (a.contact(&b), theirs) {
            (Some(c), Some(p)) => {
                compared += 1;
                let depth = -p.dist;
                if (c.depth - depth).abs() > 1e-3 * (1.0 + depth) {
                    failures.push(format!("{a:?} {b:?}: depth {} vs parry {depth}", c.depth));
                    continue;
                }
                let n = g3(p.normal1);
                if c.normal.dot(n) < 0.999 && !separates(&a, &b, n * (c.depth + 2e-3)) {
                    failures.push(format!(
                        "{a:?} {b:?}: normal {} vs parry {n} (parry's is no way out)",
                        c.normal
                    ));
                }
            }
            (Some(c), None) if c.depth <= 1e-3 => {}
            (None, Some(p)) if -p.dist <= 1e-3 => {}
            (None, None) => {}
            (x, y) => failures.push(format!("{a:?} {b:?}: raybox {x:?} vs parry {y:?}")),
        }
    }
    finish("triangle-triangle contact", cases, compared, &failures, 0);
}

#[test]
fn distance_3d() {
    let mut rng = Rng(0x5eed_0002);
    // Six kinds, 36 ordered pairs: about 166 cases each.
    let (mut failures, mut compared, cases) = (Vec::new(), 0, 6000);
    let mut parry_off = 0;
    for i in 0..cases {
        let (a, b) = (S3::random(&mut rng, i % KINDS3), S3::random(&mut rng, (i / KINDS3) % KINDS3));
        let ((ga, pa), (gb, pb)) = (a.parry(), b.parry());
        let ours = rb_distance3(&a, &b);
        let theirs = parry3d::query::distance(&pa, &*ga, &pb, &*gb).unwrap().distance;
        compared += usize::from(ours > 0.0 || theirs > 0.0);
        if (ours - theirs).abs() > distance_tolerance(theirs) {
            match capsule_oracle3(&a, &b) {
                Some((gap, r)) if (ours - (gap - r).max(0.0)).abs() <= 1e-5 * (1.0 + ours) => parry_off += 1,
                _ => failures.push(format!("{a:?} {b:?}: distance {ours} vs parry {theirs}")),
            }
        }
    }
    println!("parry's distance off and raybox's equal to the oracle: {parry_off} pairs");
    finish("distance 3D", cases, compared, &failures, 0);
}

/// How close two shapes must come to count as touching in [`sweep_right`]'s brute force: a
/// few `f32` roundings of coordinates up to about 8.
const TOUCH: f32 = 1e-5;

/// Whether raybox's answer to `a` moving by `v` against `b` is right, by brute force on
/// raybox's distance and overlap tests (`hints`: the two libraries' times).
///
/// The distance from `b` to `a` moved by `t v` is the distance from the point `t v` to
/// the convex set `b - a`: a convex function of `t`, zero on the interval of times at which
/// the shapes overlap. Its closest approach is bracketed by the best of 65 even samples and
/// the hints (near which a short dip may hide: segment pairs touch at a single instant)
/// between that sample's neighbours, and refined by ternary search.
/// - A time `t` is right when the shapes are within `1e-3` there, do not overlap at
///   `t - 1e-3` (nor at `0` for `t > 0`: an overlap at the start is `t = 0`), and did not come
///   within [`TOUCH`] more than `1e-3` before `t` (a crossing that the overlap test at
///   `t - 1e-3` would miss, or a near miss after which `t` is on the way out).
/// - A miss is right when the shapes never come within [`TOUCH`].
fn sweep_right(a: &S3, v: Vec3, b: &S3, ours: Option<f32>, hints: &[f32]) -> bool {
    let gap = |t: f32| rb_distance3(&a.moved(v * t), b);
    let samples = (0..=64).map(|k| k as f32 / 64.0).chain(hints.iter().map(|t| t.clamp(0.0, 1.0)));
    let best = samples.min_by(|&x, &y| gap(x).total_cmp(&gap(y))).unwrap();
    let (mut lo, mut hi) = ((best - 1.0 / 64.0).max(0.0), (best + 1.0 / 64.0).min(1.0));
    for _ in 0..60 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if gap(m1) <= gap(m2) { hi = m2 } else { lo = m1 }
    }
    let closest = [lo, hi, best].into_iter().min_by(|&x, &y| gap(x).total_cmp(&gap(y))).unwrap();
    let touched = gap(closest) <= TOUCH;
    match ours {
        None => !touched,
        Some(t) => {
            gap(t) <= 1e-3
                && (t == 0.0 || !rb_overlaps3(&a.moved(v * (t - 1e-3).max(0.0)), b))
                && !(touched && closest < t - 1e-3)
        }
    }
}

#[test]
fn time_of_impact_3d() {
    let mut rng = Rng(0x5eed_0003);
    // Six kinds, 36 ordered pairs: about 166 cases each.
    let (mut failures, mut compared, cases) = (Vec::new(), 0, 6000);
    let (mut unsupported, mut adjudicated, mut hits, mut starts) = (0, 0, 0, 0);
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    for i in 0..cases {
        let (a, b) = (S3::random(&mut rng, i % KINDS3), S3::random(&mut rng, (i / KINDS3) % KINDS3));
        // Toward the other shape, give or take: flat shapes moving at random would seldom
        // meet (a third of the pairs hit after the start, a seventh overlap at it).
        let v = (shape_center(&b) - shape_center(&a)) * rng.range(0.0, 1.5) + rng.v3(2.0);
        let ((ga, pa), (gb, pb)) = (a.parry(), b.parry());
        let ours = rb_sweep3(&a, v, &b);
        hits += usize::from(ours.is_some_and(|h| h.t > 0.0));
        starts += usize::from(ours.is_some_and(|h| h.t == 0.0));
        let zero = p3(Vec3::ZERO);
        let Ok(theirs) = parry3d::query::cast_shapes(&pa, p3(v), &*ga, &pb, zero, &*gb, options) else {
            unsupported += 1;
            continue;
        };
        // Where the two disagree, the brute force of `sweep_right` decides.
        let raybox_right = |ours: Option<f32>, parry: Option<f32>| {
            let hints: Vec<f32> = [ours, parry].into_iter().flatten().collect();
            sweep_right(&a, v, &b, ours, &hints)
        };
        match (ours, theirs) {
            (Some(h), Some(p)) => {
                compared += 1;
                let t = p.time_of_impact;
                if (h.t - t).abs() > 1e-3 {
                    if raybox_right(Some(h.t), Some(t)) {
                        adjudicated += 1;
                    } else {
                        failures.push(format!("{a:?} {b:?} v {v}: t {} vs parry {t}", h.t));
                    }
                    continue;
                }
                let n = g3(p.normal2);
                if h.t > 0.0 && (h.t - t).abs() <= 1e-4 && h.normal.dot(n) < 0.99 && n.length() > 0.5 {
                    // Several features touch at once (a vertex on an edge...): both are valid if
                    // the motion runs against both.
                    if v.dot(h.normal) > 1e-3 * v.length() {
                        failures.push(format!("{a:?} {b:?} v {v}: normal {} vs parry {n}", h.normal));
                    }
                }
            }
            (None, None) => {}
            (x, y) => {
                let parry = y.map(|p| p.time_of_impact);
                if raybox_right(x.map(|h| h.t), parry) {
                    adjudicated += 1;
                } else {
                    failures.push(format!("{a:?} {b:?} v {v}: raybox {x:?}, parry {parry:?}"));
                }
            }
        }
    }
    println!("parry: {unsupported} pairs unsupported");
    println!("time of impact 3D: raybox hits {hits} (and {starts} at t = 0) of {cases}");
    println!("time of impact 3D: {adjudicated} disagreements settled for raybox by brute force");
    finish("time of impact 3D", cases, compared, &failures, 0);
}

/// A 2D shape in both libraries.
#[derive(Clone, Copy, Debug)]
enum S2 {
    Ball(Circle),
    Box(Obb2, f32),
    Capsule(Capsule2),
}

impl S2 {
    fn random(rng: &mut Rng, kind: usize) -> Self {
        let c = rng.v2(2.0);
        match kind {
            0 => S2::Ball(Circle::new(c, rng.range(0.05, 1.5))),
            1 => {
                let angle = rng.range(-3.1, 3.1);
                S2::Box(Obb2::new(c, Vec2::new(rng.range(0.05, 1.5), rng.range(0.05, 1.5)), angle), angle)
            }
            _ => S2::Capsule(Capsule2::new(c, c + rng.v2(1.5), rng.range(0.05, 1.0))),
        }
    }

    fn parry(&self) -> (Box<dyn parry2d::shape::Shape>, m2::Pose) {
        match *self {
            S2::Ball(s) => {
                (Box::new(parry2d::shape::Ball::new(s.radius())), m2::Pose::from_translation(p2(s.center())))
            }
            S2::Box(b, angle) => (
                Box::new(parry2d::shape::Cuboid::new(p2(b.half_extents()))),
                m2::Pose::new(p2(b.center()), angle),
            ),
            S2::Capsule(c) => (
                Box::new(parry2d::shape::Capsule::new(p2(c.start()), p2(c.end()), c.radius())),
                m2::Pose::IDENTITY,
            ),
        }
    }

    fn moved(&self, v: Vec2) -> Self {
        match *self {
            S2::Ball(s) => S2::Ball(Circle::new(s.center() + v, s.radius())),
            S2::Box(b, a) => {
                S2::Box(Obb2::try_from_matrix(b.center() + v, b.half_extents(), b.rotation()).unwrap(), a)
            }
            S2::Capsule(c) => S2::Capsule(Capsule2::new(c.start() + v, c.end() + v, c.radius())),
        }
    }
}

macro_rules! dispatch2 {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {
        match ($a, $b) {
            (S2::Ball($x), S2::Ball($y)) => $body,
            (S2::Ball($x), S2::Box($y, _)) => $body,
            (S2::Ball($x), S2::Capsule($y)) => $body,
            (S2::Box($x, _), S2::Ball($y)) => $body,
            (S2::Box($x, _), S2::Box($y, _)) => $body,
            (S2::Box($x, _), S2::Capsule($y)) => $body,
            (S2::Capsule($x), S2::Ball($y)) => $body,
            (S2::Capsule($x), S2::Box($y, _)) => $body,
            (S2::Capsule($x), S2::Capsule($y)) => $body,
        }
    };
}

#[test]
fn contact_distance_and_time_of_impact_2d() {
    let mut rng = Rng(0x5eed_0004);
    let (mut failures, mut compared, cases) = (Vec::new(), 0, 3000);
    let mut parry_off = 0;
    let options = parry2d::query::ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    for i in 0..cases {
        let (a, b) = (S2::random(&mut rng, i % 3), S2::random(&mut rng, (i / 3) % 3));
        let ((ga, pa), (gb, pb)) = (a.parry(), b.parry());
        // Contact.
        let ours: Option<Contact2> = dispatch2!(&a, &b, |x, y| x.contact(y));
        let theirs = parry2d::query::contact(&pa, &*ga, &pb, &*gb, 0.0).unwrap().filter(|c| c.dist <= 0.0);
        match (ours, theirs) {
            (Some(c), Some(p)) => {
                compared += 1;
                if (c.depth + p.dist).abs() > 1e-3 * (1.0 - p.dist) {
                    // Adjudicate by translation, as in 3D.
                    let theirs = b.moved(g2(p.normal1) * (1e-4 - p.dist));
                    let ours = b.moved(c.normal * (c.depth + 1e-4));
                    let theirs_separates = !dispatch2!(&a, &theirs, |x, y| x.overlaps(y));
                    let ours_separates = !dispatch2!(&a, &ours, |x, y| x.overlaps(y));
                    if !theirs_separates && ours_separates && c.depth > -p.dist {
                        parry_off += 1;
                    } else {
                        failures.push(format!("{a:?} {b:?}: depth {} vs parry {}", c.depth, -p.dist));
                    }
                }
                let n = g2(p.normal1);
                let moved = b.moved(n * (c.depth + 2e-3));
                if c.normal.dot(n) < 0.999 && dispatch2!(&a, &moved, |x, y| x.overlaps(y)) {
                    failures.push(format!("{a:?} {b:?}: normal {} vs parry {n}", c.normal));
                }
            }
            (Some(c), None) if c.depth <= 1e-3 => {}
            (None, Some(p)) if -p.dist <= 1e-3 => {}
            (None, None) => {}
            (x, y) => failures.push(format!("{a:?} {b:?}: contact {x:?} vs parry {y:?}")),
        }
        // Distance.
        let d: f32 = dispatch2!(&a, &b, |x, y| x.distance(y));
        let pd = parry2d::query::distance(&pa, &*ga, &pb, &*gb).unwrap().distance;
        if (d - pd).abs() > distance_tolerance(pd) {
            failures.push(format!("{a:?} {b:?}: distance {d} vs parry {pd}"));
        }
        // Time of impact.
        let v = rng.v2(4.0);
        let hit = dispatch2!(&a, &b, |x, y| x.sweep(v, y));
        let zero = p2(Vec2::ZERO);
        let cast = parry2d::query::cast_shapes(&pa, p2(v), &*ga, &pb, zero, &*gb, options).unwrap();
        let touches = |t: f32| dispatch2!(&a.moved(v * t), &b, |x, y| x.distance(y)) <= 1e-3;
        match (hit, cast) {
            (Some(h), Some(p)) => {
                if (h.t - p.time_of_impact).abs() > 1e-3 && !(touches(h.t) && touches(p.time_of_impact)) {
                    failures.push(format!("{a:?} {b:?} v {v}: t {} vs parry {}", h.t, p.time_of_impact));
                }
            }
            (Some(h), None) if touches(h.t) => {}
            (None, Some(p)) if !touches(p.time_of_impact) || !touches(p.time_of_impact + 1e-3) => {}
            (None, None) => {}
            (x, y) => failures.push(format!("{a:?} {b:?} v {v}: sweep {x:?} vs parry {y:?}")),
        }
    }
    println!("parry's depth too small (its move does not separate; raybox's does): {parry_off} pairs");
    finish("contact, distance, time of impact 2D", cases, compared, &failures, 0);
}

/// Shape casts against a triangle mesh (`TriMesh::sweep`) against parry3d's `cast_shapes`
/// with its `TriMesh` (a closed icosphere and a terrain patch), on balls, boxes, capsules,
/// triangles and segments moving through and past them. Where the times differ by more than
/// `1e-3`, both must be times at which the shape is within `1e-3` of the mesh (its distance
/// to the nearest triangle, by brute force), and raybox's time must be one in any case.
#[test]
fn mesh_shape_casts_3d() {
    mesh_shape_casts(&[0, 1, 2, 3, 4, 5]);
}

/// Shapes of the given [`S3::random`] kinds, in turn, cast against two meshes.
fn mesh_shape_casts(kinds: &[usize]) {
    use raybox::mesh::scene;
    let scenes = [scene::icosphere(2), scene::terrain(10, 3)];
    let mut rng = Rng(0x5eed_0007);
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    let (mut failures, mut compared, mut cases, mut hits) = (Vec::new(), 0, 0, 0);
    for data in scenes {
        // Fit the scene into [-1.5, 1.5]^3.
        let (lo, hi) = data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        let k = 1.5 / ((hi - lo) * 0.5).max_element();
        let vertices: Vec<Vec3> = data.vertices.iter().map(|&v| (v - (lo + hi) * 0.5) * k).collect();
        let ours = raybox::TriMesh::new(vertices.clone(), data.indices.clone()).unwrap();
        let theirs =
            parry3d::shape::TriMesh::new(vertices.iter().map(|&v| p3(v)).collect(), data.indices.clone())
                .unwrap();
        let tris: Vec<raybox::Triangle3> = data
            .indices
            .iter()
            .map(|t| {
                raybox::Triangle3::new(
                    vertices[t[0] as usize],
                    vertices[t[1] as usize],
                    vertices[t[2] as usize],
                )
            })
            .collect();
        for i in 0..600 {
            cases += 1;
            // Shapes outside the mesh's box, moving toward (and often past) its middle.
            let shape =
                S3::random(&mut rng, kinds[i % kinds.len()]).moved(rng.v3(1.0).normalize_or(Vec3::X) * 3.0);
            let v = -shape_center(&shape) * rng.range(0.3, 1.5) + rng.v3(3.0);
            let hit = match shape {
                S3::Ball(s) => ours.sweep(&s, v),
                S3::Box(b, _) => ours.sweep(&b, v),
                S3::Aabb(b) => ours.sweep(&b, v),
                S3::Capsule(c) => ours.sweep(&c, v),
                S3::Triangle(t) => ours.sweep(&t, v),
                S3::Segment(s) => ours.sweep(&s, v),
            };
            let (g, pose) = shape.parry();
            let Ok(theirs) = parry3d::query::cast_shapes(
                &pose,
                p3(v),
                &*g,
                &m3::Pose::IDENTITY,
                p3(Vec3::ZERO),
                &theirs,
                options,
            ) else {
                failures.push(format!("{shape:?}: parry does not support the pair"));
                continue;
            };
            // The distance from the shape moved by `t v` to the nearest triangle.
            let gap = |t: f32| {
                let moved = shape.moved(v * t);
                tris.iter().map(|tri| dispatch_tri(&moved, tri)).fold(f32::INFINITY, f32::min)
            };
            let touches = |t: f32| gap(t) <= 1e-3;
            match (hit, theirs) {
                (Some(h), Some(p)) => {
                    compared += 1;
                    hits += 1;
                    let t = p.time_of_impact;
                    if (h.t - t).abs() > 1e-3 && !(touches(h.t) && touches(t)) {
                        failures.push(format!("{shape:?} v {v}: t {} vs parry {t}", h.t));
                    }
                    if h.t > 0.0 && !touches(h.t) {
                        failures.push(format!(
                            "{shape:?} v {v}: raybox's t {} is {} from the mesh",
                            h.t,
                            gap(h.t)
                        ));
                    }
                }
                (None, None) => compared += 1,
                (Some(h), None) if touches(h.t) => {}
                (None, Some(p)) if !touches(p.time_of_impact) => {} // parry's time is apart
                (Some(h), None) => failures.push(format!("{shape:?} v {v}: raybox {h:?}, parry none")),
                (None, Some(p)) => {
                    failures.push(format!("{shape:?} v {v}: raybox none, parry t {}", p.time_of_impact))
                }
            }
        }
    }
    println!("mesh shape casts: {hits} of {cases} hit");
    finish("mesh shape casts", cases, compared, &failures, 0);
    assert!(
        hits > cases / 5 && hits < cases * 9 / 10,
        "{hits} hits of {cases}: the cases must both hit and miss"
    );
}

fn shape_center(s: &S3) -> Vec3 {
    match *s {
        S3::Ball(b) => b.center(),
        S3::Box(b, _) => b.center(),
        S3::Aabb(b) => b.center(),
        S3::Capsule(c) => (c.start() + c.end()) * 0.5,
        S3::Triangle(t) => t.centroid(),
        S3::Segment(s) => (s.start() + s.end()) * 0.5,
    }
}

fn dispatch_tri(s: &S3, tri: &raybox::Triangle3) -> f32 {
    match *s {
        S3::Ball(b) => b.distance(tri),
        S3::Box(b, _) => b.distance(tri),
        S3::Aabb(b) => b.distance(tri),
        S3::Capsule(c) => c.distance(tri),
        S3::Triangle(t) => t.distance(tri),
        S3::Segment(s) => s.distance(tri),
    }
}
