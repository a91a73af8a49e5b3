//! The frame shared by the exact-reference audits (`audit_2d.rs`, `audit_3d_curved.rs`):
//! every shape is the convex hull of a few vertices grown by a radius (a [`Ref`]), so two
//! shapes overlap exactly when the origin is within `r1 + r2` of the convex hull of their
//! vertex differences (their Minkowski difference).
//!
//! A [`Dim`] is a dimension's vectors and query results; an [`Audit`] adds what its file
//! decides for that dimension (the exact lattice test in `i128`, the hull in `f64`, how many
//! search steps); an [`Audited`] shape answers the queries under test. The `check_*`
//! functions hold those answers to the reference.

use std::fmt::{Debug, Display};
use std::marker::PhantomData;
use std::ops::{Add, Mul, Neg, Sub};

use glam::{DVec2, DVec3, Vec2, Vec3};
use raybox::{Contact2, Contact3, Ray2, Ray3, RayHit2, RayHit3, RaySpan, SweepHit2, SweepHit3};

// ---------------------------------------------------------------------------------------
// Deterministic generator (xorshift64*).

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    /// A lattice point with coordinates in `-n..=n` (drawn `x` first).
    pub fn vec2(&mut self, n: i64) -> Vec2 {
        Vec2::new(self.int(-n, n) as f32, self.int(-n, n) as f32)
    }
    /// A lattice point with coordinates in `-n..=n` (drawn `x` first).
    pub fn vec3(&mut self, n: i64) -> Vec3 {
        Vec3::new(self.int(-n, n) as f32, self.int(-n, n) as f32, self.int(-n, n) as f32)
    }
}

// ---------------------------------------------------------------------------------------
// Dimensions.

/// What the checks do with an `f64` vector (`DVec2`, `DVec3`): glam's own methods.
pub trait Vector:
    Copy
    + PartialEq
    + Debug
    + Display
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<f64, Output = Self>
    + Neg<Output = Self>
{
    const ZERO: Self;
    fn dot(self, o: Self) -> f64;
    fn length(self) -> f64;
    fn distance(self, o: Self) -> f64;
    /// The largest coordinate magnitude.
    fn max_abs(self) -> f64;
    /// The largest coordinate of `|self| + |d| k`: how far a ray from `self` along `d`
    /// reaches by `t = ±k`, at most.
    fn reach(self, d: Self, k: f64) -> f64;
}

/// A hit of a ray or a sweep (`RayHit2`, `SweepHit3`, ...): its `t`, point and normal.
pub trait Hit<V>: Copy + Debug {
    fn t(&self) -> f32;
    fn point(&self) -> V;
    fn normal(&self) -> V;
    fn set(&mut self, point: V, normal: V);
}

/// A contact (`Contact2`, `Contact3`).
pub trait ContactOf<V>: Copy + Debug {
    fn normal(&self) -> V;
    fn depth(&self) -> f32;
    fn points(&self) -> &[V];
}

/// A dimension: its `f32` and `f64` vectors, its ray, and what its queries answer.
pub trait Dim: Copy + Debug + 'static {
    /// `Vec2` or `Vec3`.
    type V: Copy
        + PartialEq
        + Debug
        + Display
        + Add<Output = Self::V>
        + Mul<f32, Output = Self::V>
        + Neg<Output = Self::V>;
    /// `DVec2` or `DVec3`.
    type D: Vector;
    type Ray: Debug;
    type Contact: ContactOf<Self::V>;
    type SweepHit: Hit<Self::V>;
    type RayHit: Hit<Self::V>;
    /// The zero `f32` vector.
    const ORIGIN: Self::V;
    fn dv(v: Self::V) -> Self::D;
    /// Origin, direction, `t_min` and `t_max`.
    fn ray_parts(ray: &Self::Ray) -> (Self::V, Self::V, f32, f32);
}

macro_rules! dim {
    ($Dim:ident, $V:ident, $D:ident, $as_d:ident, $Ray:ident, $Contact:ident, $Sweep:ident, $RayHit:ident) => {
        /// The dimension of
        #[doc = concat!("`", stringify!($V), "`.")]
        #[derive(Clone, Copy, Debug)]
        pub struct $Dim;

        impl Dim for $Dim {
            type V = $V;
            type D = $D;
            type Ray = $Ray;
            type Contact = $Contact;
            type SweepHit = $Sweep;
            type RayHit = $RayHit;
            const ORIGIN: $V = $V::ZERO;
            fn dv(v: $V) -> $D {
                v.$as_d()
            }
            fn ray_parts(ray: &$Ray) -> ($V, $V, f32, f32) {
                (ray.origin(), ray.dir(), ray.t_min(), ray.t_max())
            }
        }

        impl Vector for $D {
            const ZERO: Self = $D::ZERO;
            fn dot(self, o: Self) -> f64 {
                $D::dot(self, o)
            }
            fn length(self) -> f64 {
                $D::length(self)
            }
            fn distance(self, o: Self) -> f64 {
                $D::distance(self, o)
            }
            fn max_abs(self) -> f64 {
                self.abs().max_element()
            }
            fn reach(self, d: Self, k: f64) -> f64 {
                (self.abs() + d.abs() * k).max_element()
            }
        }

        impl ContactOf<$V> for $Contact {
            fn normal(&self) -> $V {
                self.normal
            }
            fn depth(&self) -> f32 {
                self.depth
            }
            fn points(&self) -> &[$V] {
                &self.points
            }
        }

        dim!(@hit $V, $Sweep);
        dim!(@hit $V, $RayHit);
    };
    (@hit $V:ident, $Hit:ident) => {
        impl Hit<$V> for $Hit {
            fn t(&self) -> f32 {
                self.t
            }
            fn point(&self) -> $V {
                self.point
            }
            fn normal(&self) -> $V {
                self.normal
            }
            fn set(&mut self, point: $V, normal: $V) {
                (self.point, self.normal) = (point, normal);
            }
        }
    };
}

dim!(D2, Vec2, DVec2, as_dvec2, Ray2, Contact2, SweepHit2, RayHit2);
dim!(D3, Vec3, DVec3, as_dvec3, Ray3, Contact3, SweepHit3, RayHit3);

/// What an audit file gives of its dimension: the exact decisions on lattice points and
/// the hull of points in `f64`.
pub trait Audit: Dim {
    /// A lattice point (`i128` coordinates).
    type P;
    /// The convex hull of points in `f64`, ready for signed distances.
    type Hull;
    /// The environment variable with how many failures a check prints (12 when unset).
    const SHOW: &'static str;
    /// Golden-section steps of the sweep reference.
    const SWEEP_STEPS: usize;
    /// Golden-section steps of the ray reference.
    const RAY_STEPS: usize;
    /// `v / unit` as a lattice point, when it is one (and not too large).
    fn lattice(v: Self::D, unit: f64) -> Option<Self::P>;
    /// The exact overlap of two reference shapes whose vertices and radii are multiples of
    /// `unit` (`None` when they are not).
    fn exact_overlap(a: &Ref<Self>, b: &Ref<Self>, unit: f64) -> Option<bool>;
    fn hull(pts: &[Self::D]) -> Self::Hull;
    /// Signed distance from `q` to the hull (negative inside).
    fn hull_sd(h: &Self::Hull, q: Self::D) -> f64;
}

// ---------------------------------------------------------------------------------------
// The reference form of a shape.

/// A convex hull of vertices (possibly repeated, collinear or coplanar) grown by `r`.
#[derive(Clone, Debug)]
pub struct Ref<A: Dim> {
    pub v: Vec<A::D>,
    pub r: f64,
}

/// A hull grown by a radius.
pub struct Rounded<A: Audit> {
    pub hull: A::Hull,
    pub r: f64,
}

impl<A: Audit> Rounded<A> {
    /// Signed distance of `q` to the rounded hull (negative inside).
    pub fn sd(&self, q: A::D) -> f64 {
        A::hull_sd(&self.hull, q) - self.r
    }
}

impl<A: Audit> Ref<A> {
    /// The Minkowski difference `self - b`.
    pub fn minus(&self, b: &Ref<A>) -> Rounded<A> {
        let mut pts = Vec::new();
        for &p in &self.v {
            for &q in &b.v {
                pts.push(p - q);
            }
        }
        Rounded { hull: A::hull(&pts), r: self.r + b.r }
    }

    /// The vertex differences `self - b` in lattice units (`None` off the lattice).
    pub fn lattice_minus(&self, b: &Ref<A>, unit: f64) -> Option<Vec<A::P>> {
        let mut pts = Vec::new();
        for &p in &self.v {
            for &q in &b.v {
                pts.push(A::lattice(p - q, unit)?);
            }
        }
        Some(pts)
    }

    pub fn point_distance(&self, p: A::D) -> f64 {
        Rounded::<A> { hull: A::hull(&self.v), r: self.r }.sd(p).max(0.0)
    }

    /// The support function: the greatest `x · n` over the shape (`n` unit).
    pub fn support(&self, n: A::D) -> f64 {
        self.v.iter().map(|v| v.dot(n)).fold(f64::NEG_INFINITY, f64::max) + self.r
    }

    /// The shape moved by `d`.
    pub fn moved(&self, d: A::D) -> Ref<A> {
        Ref { v: self.v.iter().map(|&p| p + d).collect(), r: self.r }
    }
}

/// The size of the scene: the largest coordinate magnitude and radius.
pub fn magnitude<A: Dim>(shapes: &[&Ref<A>]) -> f64 {
    shapes.iter().flat_map(|s| s.v.iter().map(|v| v.max_abs()).chain([s.r])).fold(0.0, f64::max)
}

/// The minimum of a convex `f` on `[lo, hi]` by `steps` of golden-section search: where the
/// bracket's low end ends up.
pub fn golden_min(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64, steps: usize) -> f64 {
    for _ in 0..steps {
        let m1 = lo + (hi - lo) * 0.381_966;
        let m2 = lo + (hi - lo) * 0.618_034;
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    lo
}

// ---------------------------------------------------------------------------------------
// The shapes under test.

/// A shape of an audit: its reference form and the queries under test, asked of the pair
/// `(self, other)` or, when `swap`, of `(other, self)`.
pub trait Audited: Copy + Debug {
    type A: Audit;
    fn reference(&self) -> Ref<Self::A>;
    fn name(&self) -> &'static str;
    /// The shape mapped by `x -> x * k + o`.
    fn mapped(&self, k: f32, o: <Self::A as Dim>::V) -> Self;
    fn overlaps(&self, other: &Self, swap: bool) -> bool;
    fn contact(&self, other: &Self, swap: bool) -> Option<<Self::A as Dim>::Contact>;
    fn distance(&self, other: &Self, swap: bool) -> f32;
    fn closest_points(&self, other: &Self, swap: bool) -> (<Self::A as Dim>::V, <Self::A as Dim>::V);
    /// The first of the pair moved by `v` against the second.
    fn sweep(&self, v: <Self::A as Dim>::V, other: &Self, swap: bool) -> Option<<Self::A as Dim>::SweepHit>;
    fn ray(&self, ray: &<Self::A as Dim>::Ray) -> (Option<RaySpan>, Option<<Self::A as Dim>::RayHit>);
    /// Whether overlap answers that disagree with the exact one on this pair are within
    /// the contract (a hair of the boundary: touching pairs that are counted elsewhere).
    fn tolerated(_a: &Self, _b: &Self, _ra: &Ref<Self::A>, _rb: &Ref<Self::A>, _unit: f64) -> bool {
        false
    }
}

// ---------------------------------------------------------------------------------------
// Checks.

/// Scales from `2^-60` to `2^60`, which keep the lattice exact.
pub const SCALES: [i32; 7] = [-60, -30, -8, 0, 8, 30, 60];

pub fn scale(k: i32) -> f32 {
    2f32.powi(k)
}

/// Calls `f(rng, a, b, s)` on `count` pairs `pair(rng, i)`, scaled together by `s`, a power
/// of two from [`SCALES`] in turn; `rng` (seeded `seed`) is the one that made them.
pub fn scaled_pairs<S: Audited>(
    seed: u64,
    count: u64,
    mut pair: impl FnMut(&mut Rng, u64) -> (S, S),
    mut f: impl FnMut(&mut Rng, &S, &S, f32),
) {
    let mut rng = Rng::new(seed);
    for i in 0..count {
        let (a, b) = pair(&mut rng, i);
        let s = scale(SCALES[(i % 7) as usize]);
        f(&mut rng, &a.mapped(s, S::A::ORIGIN), &b.mapped(s, S::A::ORIGIN), s);
    }
}

/// Failures of one test, and how many checks it made.
pub struct Report<A: Audit> {
    pub fails: Vec<String>,
    pub count: usize,
    dim: PhantomData<A>,
}

impl<A: Audit> Report<A> {
    pub fn new() -> Self {
        Report { fails: Vec::new(), count: 0, dim: PhantomData }
    }
    pub fn fail(&mut self, s: String) {
        self.fails.push(s);
    }
    pub fn finish(self, what: &str) {
        let n = self.fails.len();
        let show = std::env::var(A::SHOW).ok().and_then(|v| v.parse().ok()).unwrap_or(12);
        for f in self.fails.iter().take(show) {
            eprintln!("{what}: {f}");
        }
        assert!(n == 0, "{what}: {n} failures of {} checks", self.count);
        assert!(self.count > 0, "{what}: nothing checked");
    }
}

/// Overlap in both orders against the exact answer; contact `Some` exactly then, with the
/// reverse normal; distance zero exactly then. Returns the first disagreement's query name,
/// if any.
pub fn check_overlap_family<S: Audited>(
    rep: &mut Report<S::A>,
    a: &S,
    b: &S,
    unit: f64,
) -> Option<&'static str> {
    let (ra, rb) = (a.reference(), b.reference());
    let exact = S::A::exact_overlap(&ra, &rb, unit)?;
    rep.count += 1;
    let (ab, ba) = (a.overlaps(b, false), a.overlaps(b, true));
    if (ab != exact || ba != exact) && S::tolerated(a, b, &ra, &rb, unit) {
        return Some("overlaps at touching");
    }
    if ab != exact || ba != exact {
        rep.fail(format!("overlaps {} {}: {ab}/{ba}, exact {exact}: {a:?} {b:?}", a.name(), b.name()));
        return Some("overlaps");
    }
    let (cab, cba) = (a.contact(b, false), a.contact(b, true));
    if cab.is_some() != exact || cba.is_some() != exact {
        rep.fail(format!("contact {} {}: {cab:?} / {cba:?}, exact {exact}: {a:?} {b:?}", a.name(), b.name()));
        return Some("contact");
    }
    let (dab, dba) = (a.distance(b, false), a.distance(b, true));
    if (dab == 0.0) != exact || (dba == 0.0) != exact || dab.is_nan() || dba.is_nan() {
        rep.fail(format!(
            "distance {} {}: {dab} / {dba}, exact overlap {exact}: {a:?} {b:?}",
            a.name(),
            b.name()
        ));
        return Some("distance");
    }
    None
}

/// Contact depth, normal and points against the reference.
pub fn check_contact<S: Audited>(rep: &mut Report<S::A>, a: &S, b: &S) {
    let (ra, rb) = (a.reference(), b.reference());
    let tol = 2e-5 * magnitude(&[&ra, &rb]).max(f64::MIN_POSITIVE);
    let Some(c) = a.contact(b, false) else { return };
    rep.count += 1;
    let m = ra.minus(&rb);
    let want = (-m.sd(<<S::A as Dim>::D as Vector>::ZERO)).max(0.0);
    let n = S::A::dv(c.normal());
    let d = f64::from(c.depth());
    let mut bad = Vec::new();
    if !(d.is_finite() && d >= 0.0) || (d - want).abs() > tol {
        bad.push(format!("depth {d} want {want}"));
    }
    if (n.length() - 1.0).abs() > 1e-5 {
        bad.push(format!("normal {n} not unit"));
    } else {
        // Moving `b` by `normal * depth` leaves the two touching: the origin on the boundary
        // of (a - b - n d) grown by r, i.e. `n d` on the boundary of the difference.
        let s = m.sd(n * d);
        if s.abs() > tol {
            bad.push(format!("after moving b by n*depth the signed gap is {s}"));
        }
    }
    for &p in c.points() {
        let (pa, pb) = (ra.point_distance(S::A::dv(p)), rb.point_distance(S::A::dv(p)));
        if pa > d / 2.0 + tol || pb > d / 2.0 + tol {
            bad.push(format!("point {p} is {pa} from a and {pb} from b"));
        }
    }
    if c.points().is_empty() {
        bad.push("no points".into());
    }
    let back = a.contact(b, true).unwrap();
    // (Two equal shapes: the two orders are one call.)
    let same = format!("{a:?}") == format!("{b:?}");
    if (back.normal() != -c.normal() && !same) || back.depth() != c.depth() {
        bad.push(format!("reverse contact {back:?}"));
    }
    if !bad.is_empty() {
        rep.fail(format!("contact {} {} {c:?}: {}: {a:?} {b:?}", a.name(), b.name(), bad.join("; ")));
    }
}

/// Distance and closest points against the reference.
pub fn check_distance<S: Audited>(rep: &mut Report<S::A>, a: &S, b: &S) {
    let (ra, rb) = (a.reference(), b.reference());
    let tol = 2e-5 * magnitude(&[&ra, &rb]).max(f64::MIN_POSITIVE);
    rep.count += 1;
    let want = ra.minus(&rb).sd(<<S::A as Dim>::D as Vector>::ZERO).max(0.0);
    let (d, (p, q)) = (a.distance(b, false), a.closest_points(b, false));
    let (d2, (q2, p2)) = (a.distance(b, true), a.closest_points(b, true));
    let d = f64::from(d);
    let mut bad = Vec::new();
    if !d.is_finite() || (d - want).abs() > tol {
        bad.push(format!("distance {d} want {want}"));
    }
    if f64::from(d2) != d {
        bad.push(format!("reverse distance {d2}"));
    }
    for (p, q) in [(p, q), (p2, q2)] {
        let (pd, qd) = (S::A::dv(p), S::A::dv(q));
        let (pa, qb) = (ra.point_distance(pd), rb.point_distance(qd));
        if pa > tol || qb > tol {
            bad.push(format!("closest points {p} {q}: {pa} off a, {qb} off b"));
        }
        if (pd.distance(qd) - want).abs() > tol {
            bad.push(format!("closest points {p} {q} are {} apart", pd.distance(qd)));
        }
    }
    if !bad.is_empty() {
        rep.fail(format!("distance {} {}: {}: {a:?} {b:?}", a.name(), b.name(), bad.join("; ")));
    }
}

/// Sweep of `a` by `v` against `b` (`reverse`: `b` by `-v` against `a`, the same contact):
/// against the first root of the convex function `f(t) = sd(-t v)` (signed distance to the
/// rounded Minkowski difference).
pub fn check_sweep<S: Audited>(
    rep: &mut Report<S::A>,
    a: &S,
    v: <S::A as Dim>::V,
    b: &S,
    unit: f64,
    reverse: bool,
) {
    let (ra, rb) = (a.reference(), b.reference());
    let vd = S::A::dv(v);
    let mag = magnitude(&[&ra, &rb]) + vd.max_abs();
    let tol = 2e-5 * mag.max(f64::MIN_POSITIVE);
    let m = ra.minus(&rb);
    let f = |t: f64| m.sd(-vd * t);
    // Minimum of f on [0, 1] by golden-section search, then the first root by bisection.
    let lo = golden_min(f, 0.0, 1.0, S::A::SWEEP_STEPS);
    let tm = [0.0, 1.0, lo].into_iter().min_by(|x, y| f(*x).total_cmp(&f(*y))).unwrap();
    let fmin = f(tm);
    let start = S::A::exact_overlap(&ra, &rb, unit);
    let got = if reverse {
        a.sweep(-v, b, true).map(|mut h| {
            // Seen from `a` moving by `v`: the same touching time and the normal reversed,
            // the point moved back with `b`.
            h.set(h.point() + v * h.t(), -h.normal());
            h
        })
    } else {
        a.sweep(v, b, false)
    };
    rep.count += 1;
    let mut bad = Vec::new();
    match got {
        None => {
            if fmin < -tol || start == Some(true) {
                bad.push(format!("no hit; the reference reaches depth {}", -fmin));
            }
        }
        Some(hit) => {
            let t = f64::from(hit.t());
            if !(0.0..=1.0).contains(&t) {
                bad.push(format!("t = {t}"));
            }
            if fmin > tol {
                bad.push(format!("hit at t = {t} but the shapes stay {fmin} apart"));
            }
            if start == Some(true) && t != 0.0 {
                bad.push(format!("overlapping at the start but t = {t}"));
            }
            if start == Some(false) && t == 0.0 {
                bad.push("apart at the start but t = 0".to_string());
            }
            let ft = f(t);
            if ft.abs() > tol && !(t == 0.0 && ft <= 0.0) {
                bad.push(format!("at t = {t} the signed gap is {ft}"));
            }
            // The point lies on both shapes at time t.
            let at = ra.moved(vd * t);
            let p = S::A::dv(hit.point());
            let (pa, pb) = (at.point_distance(p), rb.point_distance(p));
            if t > 0.0 && (pa > tol || pb > tol) {
                bad.push(format!(
                    "point {} is {pa} off the moved shape, {pb} off the still one",
                    hit.point()
                ));
            }
            let n = S::A::dv(hit.normal());
            if (n.length() - 1.0).abs() > 1e-5 {
                bad.push(format!("normal {n} not unit"));
            } else if t > 0.0 && n.dot(vd) > 1e-3 * vd.length() {
                bad.push(format!("normal {n} points along the motion"));
            } else if t > 0.0 && fmin < -tol {
                // The normal separates the two at the contact: the still shape's outward
                // normal at the point, the moved shape's inward one.
                let (sb, sa) = (rb.support(n), at.support(-n));
                if (sb - p.dot(n)).abs() > tol || (sa + p.dot(n)).abs() > tol {
                    bad.push(format!("normal {n} is no common normal: supports {sb}, {sa} at {}", p.dot(n)));
                }
            }
        }
    }
    if !bad.is_empty() {
        let who = if reverse { "reversed " } else { "" };
        rep.fail(format!(
            "{who}sweep {} by {v} against {}: {got:?}: {}: {a:?} {b:?}",
            a.name(),
            b.name(),
            bad.join("; ")
        ));
    }
}

/// Ray span and cast against the reference: `f(t)`, the signed distance of `r(t)` to the
/// shape, is convex; the span is where it is `<= 0`.
pub fn check_ray<S: Audited>(rep: &mut Report<S::A>, a: &S, ray: &<S::A as Dim>::Ray) {
    let ra = a.reference();
    let (o, d, t0, t1) = S::A::ray_parts(ray);
    let (o, d) = (S::A::dv(o), S::A::dv(d));
    let (t0, t1) = (f64::from(t0), f64::from(t1));
    let mag = magnitude(&[&ra]) + o.reach(d, t0.abs().max(t1.abs()));
    let tol = 2e-5 * mag.max(f64::MIN_POSITIVE);
    let m = Rounded::<S::A> { hull: S::A::hull(&ra.v), r: ra.r };
    let f = |t: f64| m.sd(o + d * t);
    let lo = golden_min(f, t0, t1, S::A::RAY_STEPS);
    let fmin = [t0, t1, lo].into_iter().map(f).fold(f64::INFINITY, f64::min);
    let (span, hit) = a.ray(ray);
    rep.count += 1;
    let mut bad = Vec::new();
    match (span, hit) {
        (None, None) => {
            if fmin < -tol {
                bad.push(format!("miss; the ray goes {} deep", -fmin));
            }
        }
        (Some(sp), Some(ht)) => {
            let (te, tx) = (f64::from(sp.t_enter), f64::from(sp.t_exit));
            if fmin > tol {
                bad.push(format!("hit but {fmin} apart"));
            }
            if !(t0 <= te && te <= tx && tx <= t1) {
                bad.push(format!("span {te}..{tx} out of order or range"));
            }
            for (t, end) in [(te, t0), (tx, t1)] {
                let ft = f(t);
                if ft.abs() > tol && !(t == end && ft <= 0.0) {
                    bad.push(format!("at t = {t} the ray is {ft} from the boundary"));
                }
            }
            if f64::from(ht.t()) != te {
                bad.push(format!("cast t {} is not the span's entry", ht.t()));
            }
            let n = S::A::dv(ht.normal());
            let zero = <<S::A as Dim>::D as Vector>::ZERO;
            if te == t0 && f(t0) < -tol {
                if n != zero {
                    bad.push(format!("starts inside but normal {n}"));
                }
            } else if n != zero || f(t0) > tol {
                let p = o + d * te;
                if (n.length() - 1.0).abs() > 1e-5 || (ra.support(n) - p.dot(n)).abs() > tol {
                    bad.push(format!("normal {n} is no outward normal at {p}"));
                }
                if (S::A::dv(ht.point()) - p).length() > tol {
                    bad.push(format!("point {} is not r(t)", ht.point()));
                }
            }
        }
        _ => bad.push(format!("ray_span {span:?} but cast_ray {hit:?}")),
    }
    if !bad.is_empty() {
        rep.fail(format!("ray {ray:?} against {}: {span:?} {hit:?}: {}: {a:?}", a.name(), bad.join("; ")));
    }
}
