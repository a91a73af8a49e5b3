//! Seeded benchmark inputs: 1,024 per query, aimed so that about half of them hit.
//!
//! Shapes sit near the origin with sizes between 0.25 and 1.5; rays start 2 to 4
//! bounding radii away and aim at a random point of a ball around the shape whose size
//! (`AIM_*`) sets the hit fraction; pairs of shapes are placed at a random distance up to
//! `SPREAD_*` times the sum of their bounding radii; swept shapes start apart and move
//! toward the static one the way rays do. The benches measure the hit
//! fraction and refuse to time anything outside 30–70%.

use glam::{Vec2, Vec3};
use raybox::{Aabb2, Aabb3, Circle, Obb2, Obb3, Plane, Ray2, Ray3, Segment2, Segment3, Sphere, Triangle3};

use crate::N_INPUTS;
use crate::rng::Pcg32;

/// A shape and its bounding radius about its centre (what the aiming uses).
pub trait Bounded {
    /// The centre the rays aim at and the pairs are placed around.
    fn center_point(&self) -> Vec3;
    /// A radius around [`Self::center_point`] that holds the whole shape.
    fn bounding_radius(&self) -> f32;
}

macro_rules! bounded {
    ($($T:ty: |$s:ident| ($c:expr, $r:expr)),* $(,)?) => {
        $(impl Bounded for $T {
            fn center_point(&self) -> Vec3 {
                let $s = self;
                $c
            }
            fn bounding_radius(&self) -> f32 {
                let $s = self;
                $r
            }
        })*
    };
}

bounded! {
    Aabb2: |s| (s.center().extend(0.0), s.half_extents().length()),
    Obb2: |s| (s.center().extend(0.0), s.half_extents().length()),
    Circle: |s| (s.center().extend(0.0), s.radius()),
    Aabb3: |s| (s.center(), s.half_extents().length()),
    Obb3: |s| (s.center(), s.half_extents().length()),
    Sphere: |s| (s.center(), s.radius()),
    Triangle3: |s| (s.centroid(), s.vertices().iter().map(|v| v.distance(s.centroid())).fold(0.0, f32::max)),
    Segment2: |s| (((s.start() + s.end()) * 0.5).extend(0.0), (s.end() - s.start()).length() * 0.5),
    Segment3: |s| ((s.start() + s.end()) * 0.5, (s.end() - s.start()).length() * 0.5),
}

fn half2(rng: &mut Pcg32) -> Vec2 {
    Vec2::new(rng.range(0.25, 1.5), rng.range(0.25, 1.5))
}

fn half3(rng: &mut Pcg32) -> Vec3 {
    Vec3::new(rng.range(0.25, 1.5), rng.range(0.25, 1.5), rng.range(0.25, 1.5))
}

/// A random axis-aligned rectangle centred at `c`.
pub fn aabb2_at(rng: &mut Pcg32, c: Vec2) -> Aabb2 {
    Aabb2::from_center_half_extents(c, half2(rng))
}

/// A random oriented rectangle centred at `c`.
pub fn obb2_at(rng: &mut Pcg32, c: Vec2) -> Obb2 {
    let h = half2(rng);
    Obb2::new(c, h, rng.angle())
}

/// A random circle centred at `c`.
pub fn circle_at(rng: &mut Pcg32, c: Vec2) -> Circle {
    Circle::new(c, rng.range(0.5, 1.5))
}

/// A random axis-aligned box centred at `c`.
pub fn aabb3_at(rng: &mut Pcg32, c: Vec3) -> Aabb3 {
    Aabb3::from_center_half_extents(c, half3(rng))
}

/// A random oriented box centred at `c`.
pub fn obb3_at(rng: &mut Pcg32, c: Vec3) -> Obb3 {
    let h = half3(rng);
    Obb3::new(c, h, rng.rotation())
}

/// A random ball centred at `c`.
pub fn sphere_at(rng: &mut Pcg32, c: Vec3) -> Sphere {
    Sphere::new(c, rng.range(0.5, 1.5))
}

/// A random, well-shaped triangle around `c` (vertices within 1.5 of it).
pub fn triangle_at(rng: &mut Pcg32, c: Vec3) -> Triangle3 {
    loop {
        let v = [0; 3].map(|_| c + 1.5 * rng.in_ball());
        if let Ok(t) = Triangle3::try_new(v[0], v[1], v[2])
            && t.area() > 0.3
        {
            return t;
        }
    }
}

/// A random 2D segment centred at `c`, of half-length 0.25 to 1.5.
pub fn segment2_at(rng: &mut Pcg32, c: Vec2) -> Segment2 {
    let h = rng.unit2() * rng.range(0.25, 1.5);
    Segment2::new(c - h, c + h)
}

/// A random 3D segment centred at `c`, of half-length 0.25 to 1.5.
pub fn segment3_at(rng: &mut Pcg32, c: Vec3) -> Segment3 {
    let h = rng.unit3() * rng.range(0.25, 1.5);
    Segment3::new(c - h, c + h)
}

/// A plane with a random unit normal and offset in `[-2, 2)`.
pub fn plane(rng: &mut Pcg32) -> Plane {
    let n = rng.unit3();
    Plane::new(n, rng.range(-2.0, 2.0))
}

/// A ray starting 2 to 4 radii from `center`, aimed at a random point of the ball of
/// radius `aim * radius` around it, with a direction of random length (0.5 to 2 times
/// the distance: `t` is not a distance).
pub fn ray3_toward(rng: &mut Pcg32, center: Vec3, radius: f32, aim: f32) -> Ray3 {
    let origin = center + rng.unit3() * radius * rng.range(2.0, 4.0);
    let target = center + rng.in_ball() * radius * aim;
    Ray3::new(origin, (target - origin) * rng.range(0.5, 2.0))
}

/// The 2D [`ray3_toward`].
pub fn ray2_toward(rng: &mut Pcg32, center: Vec2, radius: f32, aim: f32) -> Ray2 {
    let origin = center + rng.unit2() * radius * rng.range(2.0, 4.0);
    let target = center + rng.in_disc() * radius * aim;
    Ray2::new(origin, (target - origin) * rng.range(0.5, 2.0))
}

/// [`N_INPUTS`] values from `f`, with a generator seeded by `seed`.
pub fn many<T>(seed: u64, mut f: impl FnMut(&mut Pcg32) -> T) -> Vec<T> {
    let mut rng = Pcg32::new(seed);
    (0..N_INPUTS).map(|_| f(&mut rng)).collect()
}

/// A random centre near the origin (the shapes are not all at one place).
pub fn center2(rng: &mut Pcg32) -> Vec2 {
    2.0 * rng.signed2()
}

/// A random centre near the origin.
pub fn center3(rng: &mut Pcg32) -> Vec3 {
    2.0 * rng.signed3()
}

/// Shapes made by `make` and 2D rays aimed at them with the aim factor `aim`.
pub fn rays2<S: Bounded>(seed: u64, aim: f32, make: fn(&mut Pcg32, Vec2) -> S) -> Vec<(S, Ray2)> {
    many(seed, |rng| {
        let c = center2(rng);
        let s = make(rng, c);
        let ray = ray2_toward(rng, s.center_point().truncate(), s.bounding_radius(), aim);
        (s, ray)
    })
}

/// Shapes made by `make` and 3D rays aimed at them with the aim factor `aim`.
pub fn rays3<S: Bounded>(seed: u64, aim: f32, make: fn(&mut Pcg32, Vec3) -> S) -> Vec<(S, Ray3)> {
    many(seed, |rng| {
        let c = center3(rng);
        let s = make(rng, c);
        let ray = ray3_toward(rng, s.center_point(), s.bounding_radius(), aim);
        (s, ray)
    })
}

/// Planes and rays starting in front of them (`n·o > offset`): a two-sided plane and a
/// solid half-space then agree (the ray hits iff it heads for the plane in range).
pub fn rays_plane(seed: u64) -> Vec<(Plane, Ray3)> {
    many(seed, |rng| {
        let p = plane(rng);
        let n = p.normal();
        let on_plane = n * p.offset() + in_plane(rng, n);
        let origin = on_plane + n * rng.range(0.5, 4.0);
        let ray = Ray3::with_range(origin, rng.unit3() * rng.range(0.5, 2.0), 0.0, 20.0);
        (p, ray)
    })
}

/// Pairs of 2D shapes, `b` at a random distance of up to `spread` times the sum of the
/// bounding radii from `a`.
pub fn pairs2<A: Bounded, B: Bounded>(
    seed: u64,
    spread: f32,
    make_a: fn(&mut Pcg32, Vec2) -> A,
    make_b: fn(&mut Pcg32, Vec2) -> B,
) -> Vec<(A, B)> {
    many(seed, |rng| {
        let ca = center2(rng);
        let a = make_a(rng, ca);
        // b is made twice from one sub-seed: at the origin to learn its size, then in place.
        let sub = u64::from(rng.next_u32());
        let reach = a.bounding_radius() + make_b(&mut Pcg32::new(sub), Vec2::ZERO).bounding_radius();
        let c = a.center_point().truncate() + rng.unit2() * reach * rng.range(0.0, spread);
        (a, make_b(&mut Pcg32::new(sub), c))
    })
}

/// Pairs of 3D shapes, as [`pairs2`].
pub fn pairs3<A: Bounded, B: Bounded>(
    seed: u64,
    spread: f32,
    make_a: fn(&mut Pcg32, Vec3) -> A,
    make_b: fn(&mut Pcg32, Vec3) -> B,
) -> Vec<(A, B)> {
    many(seed, |rng| {
        let ca = center3(rng);
        let a = make_a(rng, ca);
        let sub = u64::from(rng.next_u32());
        let reach = a.bounding_radius() + make_b(&mut Pcg32::new(sub), Vec3::ZERO).bounding_radius();
        let c = a.center_point() + rng.unit3() * reach * rng.range(0.0, spread);
        (a, make_b(&mut Pcg32::new(sub), c))
    })
}

/// Sweeps of 3D shapes: `a` (made by `make_a`) moving by a motion against a static `b`
/// (made by `make_b`), apart at the start. `a`'s centre starts 1.2 to 3 times the sum of
/// the two bounding radii from `b`'s, and the motion heads for a random point of the ball of
/// `aim` times that sum around `b`'s centre, 0.5 to 2 times as long as the way there (`t`
/// runs over `[0, 1]`): `aim` sets the hit fraction.
pub fn sweeps3<A: Bounded, B: Bounded>(
    seed: u64,
    aim: f32,
    make_a: fn(&mut Pcg32, Vec3) -> A,
    make_b: fn(&mut Pcg32, Vec3) -> B,
) -> Vec<(A, Vec3, B)> {
    many(seed, |rng| {
        let cb = center3(rng);
        let b = make_b(rng, cb);
        // a is made twice from one sub-seed, as in `pairs3`: at the origin to learn its
        // size and where its centre point sits, then in place.
        let sub = u64::from(rng.next_u32());
        let probe = make_a(&mut Pcg32::new(sub), Vec3::ZERO);
        let reach = b.bounding_radius() + probe.bounding_radius();
        let start = b.center_point() + rng.unit3() * reach * rng.range(1.2, 3.0);
        let a = make_a(&mut Pcg32::new(sub), start - probe.center_point());
        let target = b.center_point() + rng.in_ball() * reach * aim;
        let motion = (target - a.center_point()) * rng.range(0.5, 2.0);
        (a, motion, b)
    })
}

/// Planes and shapes on their front side or straddling them: the shape's centre point is
/// at a signed distance in `[0, spread * radius)`, so no shape lies wholly behind the
/// plane (where a solid half-space and a two-sided plane disagree).
pub fn plane_pairs<S: Bounded>(seed: u64, spread: f32, make: fn(&mut Pcg32, Vec3) -> S) -> Vec<(Plane, S)> {
    many(seed, |rng| {
        let p = plane(rng);
        let n = p.normal();
        let sub = u64::from(rng.next_u32());
        // Made at the origin first: its size, and where its centre point sits (a
        // triangle's centroid is not the point it was made around).
        let probe = make(&mut Pcg32::new(sub), Vec3::ZERO);
        let foot = n * p.offset() + in_plane(rng, n);
        let c = foot + n * probe.bounding_radius() * rng.range(0.0, spread) - probe.center_point();
        let s = make(&mut Pcg32::new(sub), c);
        (p, s)
    })
}

/// A random point within 2 of the origin in the plane through it with unit normal `n`.
fn in_plane(rng: &mut Pcg32, n: Vec3) -> Vec3 {
    let v = 2.0 * rng.signed3();
    v - v.dot(n) * n
}

/// Triangles and rays aimed at a uniform point of the triangle scaled by 1.4 about its
/// centroid: the aim point is in the triangle's plane, so about `1 / 1.4²` (51%) hit.
pub fn rays_triangle(seed: u64) -> Vec<(Triangle3, Ray3)> {
    many(seed, |rng| {
        let c = center3(rng);
        let t = triangle_at(rng, c);
        let [a, b, v] = t.vertices();
        let (mut u, mut w) = (rng.unit(), rng.unit());
        if u + w > 1.0 {
            (u, w) = (1.0 - u, 1.0 - w);
        }
        let g = t.centroid();
        let target = g + 1.4 * (a + u * (b - a) + w * (v - a) - g);
        let r = t.bounding_radius();
        let origin = g + rng.unit3() * r * rng.range(2.0, 4.0);
        (t, Ray3::new(origin, (target - origin) * rng.range(0.5, 2.0)))
    })
}

/// An integer in `[lo, hi]`.
fn int_in(rng: &mut Pcg32, lo: i32, hi: i32) -> i32 {
    lo + (rng.next_u32() % (hi - lo + 1) as u32) as i32
}

/// A vector of integers in `[-n, n]`.
fn int3(rng: &mut Pcg32, n: i32) -> Vec3 {
    Vec3::new(int_in(rng, -n, n) as f32, int_in(rng, -n, n) as f32, int_in(rng, -n, n) as f32)
}

/// 3D segments and rays in one plane, so that rays can hit them at all: a random ray
/// meets a segment in space with probability zero. Everything is on a small-integer
/// lattice, exact in `f32`, so the coplanarity is exact: the plane through an integer
/// centre spanned by two integer vectors; the segment's ends and the ray's origin are
/// lattice points of it (the origin off the segment's line); the ray aims at the point
/// `s = (2j + 1) / 8` of the segment's line, `j` in `-1..=4`, never at an end (4 of the 6
/// inside), with a direction of length 1/2, 1 or 2 times the distance. One ray in five is
/// then lifted off the plane by an integer vector (a skew miss).
pub fn rays_segment3(seed: u64) -> Vec<(Segment3, Ray3)> {
    many(seed, |rng| {
        loop {
            let c = int3(rng, 4);
            let (u, v) = (int3(rng, 2), int3(rng, 2));
            let normal = u.cross(v);
            if normal == Vec3::ZERO {
                continue;
            }
            let at =
                |rng: &mut Pcg32, n: i32| c + u * int_in(rng, -n, n) as f32 + v * int_in(rng, -n, n) as f32;
            let (p, q, mut origin) = (at(rng, 3), at(rng, 3), at(rng, 4));
            if p == q || (q - p).cross(origin - p) == Vec3::ZERO {
                continue;
            }
            let s = (2 * int_in(rng, -1, 4) + 1) as f32 / 8.0;
            let target = p + (q - p) * s;
            let dir = (target - origin) * [0.5, 1.0, 2.0][int_in(rng, 0, 2) as usize];
            if int_in(rng, 0, 4) == 0 {
                let lift = int3(rng, 2);
                if lift.dot(normal) == 0.0 {
                    continue;
                }
                origin += lift;
            }
            return (Segment3::new(p, q), Ray3::new(origin, dir));
        }
    })
}
