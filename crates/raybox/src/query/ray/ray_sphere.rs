//! Ray against ball: `Circle` (2D) and `Sphere` (3D).
//!
//! Solve `|f + t d|² = r²` with `f = origin - center`: a quadratic in `t`. The textbook
//! roots `(-b ± √(b² - 4ac)) / 2a` lose every digit when the ball is small and far away;
//! this file uses the two reformulations of Haines, Günther & Akenine-Möller,
//! *Precision Improvements for Ray/Sphere Intersection* (Ray Tracing Gems, 2019):
//! the discriminant from the perpendicular distance `l = f - (f·d / d·d) d` of the centre
//! to the line (`r² - |l|²`, no cancellation), and the stable pair of roots
//! `q = -(b + sign(b) √Δ)`, `t₁ = c / q`, `t₂ = q / a`.
//!
//! Two more choices keep the answers exact where they can be:
//! - everything is computed in `f64`, where products of `f32` inputs are exact;
//! - the direction is first divided by its largest component magnitude `m`, so a ray
//!   along an axis has the direction `(0, 0, ±1)` exactly and its tangent cases have an
//!   exactly zero discriminant; the roots are divided by `m` at the end. This also keeps
//!   huge and tiny directions from overflowing or underflowing.
//!
//! Conventions: [`RayCast`] treats the ball as **solid** (a ray starting inside hits at
//! `t_min` with a zero normal). [`Sphere::cast_ray_surface`] gives the **surface** hit
//! instead (the first root in `[t_min, t_max]`, the exit root from inside), and
//! [`Sphere::ray_roots`] the two unclipped roots.

use crate::arrays::Each;
use glam::{Vec2, Vec3, Vec3A};

use super::{point_at, unit_f32};
use crate::{Circle, Ray2, Ray3, RayCast, RayHit2, RayHit3, RaySpan, Sphere};

/// The two parameters where a ray's line meets a sphere's surface, `near <= far`
/// (equal for a tangent line), unclipped by the ray's `[t_min, t_max]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SphereRoots {
    /// The smaller root.
    pub near: f32,
    /// The larger root.
    pub far: f32,
}

#[inline]
fn dot<const N: usize>(a: [f64; N], b: [f64; N]) -> f64 {
    (0..N).map(|i| a[i] * b[i]).sum()
}

/// A quick, division-free `f64` test that the line through the ray misses the ball, by
/// a margin larger than its rounding error. `false` means "may hit": decide with the full
/// computation.
///
/// With `f = origin - center`, the squared distance from the centre to the line is
/// `|f × d|² / |d|²` (Lagrange: `|f × d|² = Σ_{i<j} (f_i d_j - f_j d_i)²`, in 2D and 3D),
/// so the line misses exactly when `D = r² |d|² - |f × d|² < 0`.
///
/// **Exactness.** All inputs are `f32`, so in `f64` (unit roundoff `u = 2⁻⁵³`): `f_i` is
/// within `u |f_i|` of the exact difference, `d_i d_j` and `r²` are exact, and no product of
/// up to four `f32`-sized factors can overflow or underflow (`2⁻⁵⁹⁶ ..= 2⁵¹²`). A standard
/// error analysis then bounds the computed `D` within
/// `3u r²|d|² + 9u Σ_{i<j} (|f_i d_j| + |f_j d_i|)² <= 3u r²|d|² + 18u |f|²|d|²` of the exact
/// `D` (`γ₃` per cross component, squared, summed). The bound used here,
/// `2⁻⁴⁵ (r² + |f|²) |d|²` (= `256u`, computed from rounded values, a factor > 10 to spare),
/// covers it, so `D < -bound` proves the exact `D < 0`: a miss for the exact geometry. In
/// every other case the caller runs the full computation, so the answer differs from the
/// full computation alone only where that one was wrong.
#[inline(always)]
fn line_surely_misses_ball<const N: usize>(f: [f64; N], d: [f64; N], r: f64) -> bool {
    let mut cross2 = 0.0;
    for i in 0..N {
        for j in i + 1..N {
            let c = f[i] * d[j] - f[j] * d[i];
            cross2 += c * c;
        }
    }
    let (dd, ff) = (dot(d, d), dot(f, f));
    let disc = r * r * dd - cross2;
    disc < -(r * r + ff) * dd / (1u64 << 45) as f64
}

/// The roots `t₁ <= t₂` of `|origin + t dir - center|² = r²` in `f64`, or `None` if the line misses.
#[inline]
pub(crate) fn ball_roots<const N: usize>(
    origin: [f32; N],
    dir: [f32; N],
    center: [f32; N],
    radius: f32,
) -> Option<(f64, f64)> {
    // Most misses are decided here, before any division or square root.
    let f: [f64; N] = crate::arrays::from_fn(|i| f64::from(origin[i]) - f64::from(center[i]));
    if line_surely_misses_ball(f, dir.each(f64::from), f64::from(radius)) {
        return None;
    }
    // Scale the direction so its largest component is ±1 (exact for axis-aligned rays).
    let m = dir.iter().fold(0.0f64, |m, &c| m.max(f64::from(c).abs()));
    let d: [f64; N] = crate::arrays::from_fn(|i| f64::from(dir[i]) / m);
    let r = f64::from(radius);
    let a = dot(d, d);
    let b = dot(f, d); // half of the textbook b
    // Perpendicular offset of the centre from the line, and the discriminant from it.
    let k = b / a;
    let l: [f64; N] = crate::arrays::from_fn(|i| if d[i] == 0.0 { f[i] } else { f[i] - k * d[i] });
    let disc = r * r - dot(l, l);
    if disc < 0.0 {
        return None;
    }
    let c = dot(f, f) - r * r;
    let q = -(b + b.signum() * (a * disc).sqrt());
    let (t1, t2) = if q == 0.0 {
        // b = 0 and a tangent line: the double root is at the foot of the perpendicular.
        (-k, -k)
    } else {
        let (x, y) = (c / q, q / a);
        if x <= y { (x, y) } else { (y, x) }
    };
    Some((t1 / m, t2 / m))
}

/// What the quick pass of `ball_roots_quick` found.
enum Quick {
    /// The line surely misses the ball.
    Miss,
    /// The roots, with an absolute error below `2⁻³⁰ τ` (see `ball_roots_quick`), with
    /// `τ² = (r² + |f|²) / |d|²` (the square of the scale of `t` for this ray and ball)
    /// given as its numerator and denominator.
    Roots { t1: f64, t2: f64, rr_ff: f64, dd: f64 },
    /// Too near a tangent to trust: run `ball_roots`.
    Unsure,
}

/// The roots of `|f + t d|² = r²` (`f = origin - center`) with one square root and two
/// divisions, when the line is clearly not tangent.
///
/// With `D = r² |d|² - |f × d|²` (the discriminant times `|d|²`: `|f × d|² = |f|²|d|² - (f·d)²`,
/// Lagrange, computed without cancellation as in `line_surely_misses_ball`) and `b = f·d`,
/// the roots are `(-b ± √D) / |d|²`, taken in the stable form `q = -(b + sign(b) √D)`,
/// `t = c / q` and `q / |d|²`, `c = |f|² - r²` (Haines et al., as in `ball_roots`).
///
/// **Error bound.** `D` is within `E = 2⁻⁴⁵ (r² + |f|²)|d|²` of its exact value (see
/// `line_surely_misses_ball`). This pass answers only when `D > 2⁻¹⁵ (r² + |f|²)|d|²`,
/// so `D`'s relative error is below `2⁻³⁰` and `√D`'s below `2⁻³¹ + u` (`u = 2⁻⁵³`). The
/// computed `b` is within `4.1u |f||d|`, and `|q| = |b| + √D >= √D >= 2⁻⁷·⁵ |f||d|`, so `q`
/// is within relative `2⁻³⁰·⁹`; `|d|²` (exact products) within `3u`: `t₂ = q / |d|²` is within
/// `2⁻³⁰·⁸ |t₂|`. `c` is within `4.1u (r² + |f|²)`, so `t₁ = c / q` is within
/// `2⁻³⁰·⁸ |t₁| + 4.1u · 2⁷·⁵ √(r² + |f|²) / |d|`. A root has `|t| |d| <= |f| + r`, so
/// `|t| <= √2 τ` with `τ = √(r² + |f|²) / |d|`, and both errors are below `2⁻³⁰ τ`.
/// `ball_roots` is more accurate still on these inputs (its discriminant `r² - |l|²` is
/// then within relative `2⁻³⁸` or so), so the two computations give roots within
/// `2⁻²⁹ τ` of each other and of the exact roots.
/// No overflow or underflow: every product has at most four `f32`-sized factors.
#[inline(always)]
fn ball_roots_quick<const N: usize>(f: [f64; N], d: [f64; N], r: f64) -> Quick {
    let mut cross2 = 0.0;
    for i in 0..N {
        for j in i + 1..N {
            let c = f[i] * d[j] - f[j] * d[i];
            cross2 += c * c;
        }
    }
    let (dd, ff, b) = (dot(d, d), dot(f, f), dot(f, d));
    let rr = r * r;
    let disc = rr * dd - cross2;
    let scale = (rr + ff) * dd;
    if disc < -scale / (1u64 << 45) as f64 {
        return Quick::Miss;
    }
    if disc <= scale / (1u64 << 15) as f64 {
        return Quick::Unsure;
    }
    let q = -(b + b.signum() * disc.sqrt());
    let (x, y) = ((ff - rr) / q, q / dd);
    let (t1, t2) = if x <= y { (x, y) } else { (y, x) };
    Quick::Roots { t1, t2, rr_ff: rr + ff, dd }
}

/// `true` when `t` (a root from `ball_roots_quick`) is farther than `2⁻²⁸ τ` from `x`, so
/// that the exact root and the one `ball_roots` computes are on the same side of `x`
/// (both within `2⁻²⁹ τ` of `t`): `gap² |d|² > 2⁻⁵⁶ (r² + |f|²)`, with no division. An
/// infinite `x` is always far.
#[inline(always)]
fn far_from(t: f64, x: f32, (rr_ff, dd): (f64, f64)) -> bool {
    let gap = t - f64::from(x);
    gap * gap * dd > rr_ff / (1u64 << 56) as f64
}

/// The solid span and whether the ray starts inside (`t₁ < t_min`), through the quick
/// pass when it is sure of every comparison the answer depends on, else through
/// `ball_roots`. The comparisons that decide are `t₁ <= t_max`, `t₂ >= t_min` and
/// `t₁ < t_min`; `t₂` against `t_max` only picks a value.
#[inline(always)]
fn ball_solid_span<const N: usize>(
    origin: [f32; N],
    dir: [f32; N],
    center: [f32; N],
    radius: f32,
    (t_min, t_max): (f32, f32),
) -> Option<(RaySpan, bool)> {
    let f: [f64; N] = crate::arrays::from_fn(|i| f64::from(origin[i]) - f64::from(center[i]));
    let roots = match ball_roots_quick(f, dir.each(f64::from), f64::from(radius)) {
        Quick::Miss => return None,
        Quick::Roots { t1, t2, rr_ff, dd }
            if far_from(t1, t_min, (rr_ff, dd))
                && far_from(t1, t_max, (rr_ff, dd))
                && far_from(t2, t_min, (rr_ff, dd)) =>
        {
            (t1, t2)
        }
        _ => ball_roots(origin, dir, center, radius)?,
    };
    let span = solid_span(roots, t_min, t_max)?;
    Some((span, roots.0 < f64::from(t_min)))
}

/// The solid span `[max(t₁, t_min), min(t₂, t_max)]`, if not empty and reachable in
/// `f32` ([`super::f32_span`]).
#[inline]
fn solid_span(roots: (f64, f64), t_min: f32, t_max: f32) -> Option<RaySpan> {
    let t_enter = roots.0.max(f64::from(t_min));
    let t_exit = roots.1.min(f64::from(t_max));
    super::f32_span(t_enter, t_exit)
}

/// The first root inside `[t_min, t_max]` (the surface convention) that is finite in
/// `f32` (a root past `f32::MAX`, from a tiny direction, is not reached).
#[inline]
fn surface_root(roots: (f64, f64), t_min: f32, t_max: f32) -> Option<f32> {
    let inside = |t: f64| f64::from(t_min) <= t && t <= f64::from(t_max) && (t as f32).is_finite();
    [roots.0, roots.1].into_iter().find(|&t| inside(t)).map(|t| t as f32)
}

/// The outward unit normal at `point`; for a zero radius (a point), the direction back
/// along the ray. In `f32` (see `unit_f32`) unless `point - center` is zero, tiny or huge.
#[inline(always)]
fn outward_normal<const N: usize>(point: [f32; N], center: [f32; N], dir: [f32; N]) -> [f32; N] {
    // N is 2 or 3: the vectors fill the first N lanes, 0 in the others.
    let lanes = |a: [f32; N]| Vec3A::from_array(crate::arrays::from_fn(|i| if i < N { a[i] } else { 0.0 }));
    match unit_f32(lanes(point) - lanes(center)) {
        Some(n) => {
            let n = n.to_array();
            crate::arrays::from_fn(|i| n[i])
        }
        None => outward_normal_f64(point, center, dir),
    }
}

/// Whether the `f32` hit `point` is too coarse to give the normal of a ball or capsule of
/// this `radius`: its coordinates are rounded by about an `f32` step of the larger of the
/// ray origin's and its own, so the direction from the centre (or core) to it is off by
/// that over the radius. Below `1/256` of those coordinates that is more than `1e-4`, and
/// for a radius far below an `f32` step the direction is noise, which pointed into the
/// shape or along the ray (a ball of radius `1e-3` at `1e6` came out with the normal `-dir`
/// for every ray, one of radius `0.2` off by 0.1; an audit, `tests/audit_3d_curved.rs`).
/// The normal then comes from the `f64` entry root ([`normal_at_root`], and the capsule's
/// `outward_normal_f64`).
#[inline(always)]
pub(crate) fn coarse_point<const N: usize>(origin: [f32; N], point: [f32; N], radius: f32) -> bool {
    // N is 2 or 3: the vectors fill the first N lanes, 0 in the others.
    let lanes = |a: [f32; N]| Vec3A::from_array(crate::arrays::from_fn(|i| if i < N { a[i] } else { 0.0 }));
    radius * 256.0 < lanes(origin).abs().max(lanes(point).abs()).max_element()
}

/// The outward unit normal of the ball at the entry root, all in `f64`: `(o - c) + t d`
/// over its length, or back along the ray when that is rounding noise (a radius below
/// `2⁻⁴⁰` of the coordinates, a point).
#[cold]
#[inline(never)]
fn normal_at_root<const N: usize>(o: [f32; N], d: [f32; N], c: [f32; N], radius: f32) -> [f32; N] {
    let t = ball_roots(o, d, c, radius).map_or(0.0, |roots| roots.0);
    let f: [f64; N] = crate::arrays::from_fn(|i| f64::from(o[i]) - f64::from(c[i]));
    let v: [f64; N] = crate::arrays::from_fn(|i| f[i] + f64::from(d[i]) * t);
    let size = (0..N).fold(0.0f64, |m, i| m.max(f[i].abs() + (f64::from(d[i]) * t).abs()));
    let len = dot(v, v).sqrt();
    if len > size / (1u64 << 40) as f64 && len.is_finite() {
        crate::arrays::from_fn(|i| (v[i] / len) as f32)
    } else {
        let back: [f64; N] = crate::arrays::from_fn(|i| -f64::from(d[i]));
        let len = dot(back, back).sqrt();
        crate::arrays::from_fn(|i| (back[i] / len) as f32)
    }
}

/// `outward_normal` in `f64`.
#[cold]
#[inline(never)]
fn outward_normal_f64<const N: usize>(point: [f32; N], center: [f32; N], dir: [f32; N]) -> [f32; N] {
    let v: [f64; N] = crate::arrays::from_fn(|i| f64::from(point[i]) - f64::from(center[i]));
    let (v, len) = if dot(v, v) > 0.0 {
        (v, dot(v, v).sqrt())
    } else {
        let back: [f64; N] = crate::arrays::from_fn(|i| -f64::from(dir[i]));
        (back, dot(back, back).sqrt())
    };
    crate::arrays::from_fn(|i| (v[i] / len) as f32)
}

macro_rules! ball_ray_impls {
    ($Ball:ident, $Ray:ident, $Hit:ident, $V:ident) => {
        impl RayCast for $Ball {
            type Ray = $Ray;
            type Hit = $Hit;

            #[inline]
            fn ray_span(&self, ray: &$Ray) -> Option<RaySpan> {
                Some(self.solid_span(ray)?.0)
            }

            #[inline]
            fn cast_ray(&self, ray: &$Ray) -> Option<$Hit> {
                let (span, inside) = self.solid_span(ray)?;
                let (o, d) = (ray.origin().to_array(), ray.dir().to_array());
                let point = point_at(o, d, span.t_enter);
                // Started inside (the entry was clipped to t_min): zero normal.
                let normal = if inside {
                    $V::ZERO
                } else if coarse_point(o, point, self.radius()) {
                    $V::from_array(normal_at_root(o, d, self.center().to_array(), self.radius()))
                } else {
                    $V::from_array(outward_normal(point, self.center().to_array(), d))
                };
                Some($Hit { t: span.t_enter, point: $V::from_array(point), normal })
            }
        }

        impl $Ball {
            /// The two unclipped roots of `|r(t) - center|² = radius²`, or `None` when the
            /// ray's line misses the ball.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Ball), "; type R = raybox::", stringify!($Ray), ";")]
            /// let s = S::new(V::ZERO, 1.0);
            /// let r = s.ray_roots(&R::new(V::X * -3.0, V::X)).unwrap();
            /// assert_eq!((r.near, r.far), (2.0, 4.0)); // unclipped: both roots, whatever t_min
            /// ```
            #[must_use]
            #[inline]
            pub fn ray_roots(&self, ray: &$Ray) -> Option<SphereRoots> {
                self.roots_f64(ray).map(|(a, b)| SphereRoots { near: a as f32, far: b as f32 })
            }

            /// The first point of the **surface** along the ray: the smaller root in
            /// `[t_min, t_max]`, or the exit root when the ray starts inside. The normal
            /// points out of the ball in both cases.
            ///
            /// See also [`RayCast::cast_ray`], which treats the ball as solid.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Ball), "; type R = raybox::", stringify!($Ray), ";")]
            /// let s = S::new(V::ZERO, 1.0);
            /// let from_inside = s.cast_ray_surface(&R::new(V::ZERO, V::X)).unwrap();
            /// assert_eq!((from_inside.t, from_inside.normal), (1.0, V::X)); // the exit point
            /// ```
            #[must_use]
            #[inline]
            pub fn cast_ray_surface(&self, ray: &$Ray) -> Option<$Hit> {
                let t = surface_root(self.roots_f64(ray)?, ray.t_min(), ray.t_max())?;
                let (o, d) = (ray.origin().to_array(), ray.dir().to_array());
                let point = point_at(o, d, t);
                let normal = $V::from_array(outward_normal(point, self.center().to_array(), d));
                Some($Hit { t, point: $V::from_array(point), normal })
            }

            #[inline(always)]
            fn solid_span(&self, ray: &$Ray) -> Option<(RaySpan, bool)> {
                let (o, d) = (ray.origin().to_array(), ray.dir().to_array());
                let range = (ray.t_min(), ray.t_max());
                ball_solid_span(o, d, self.center().to_array(), self.radius(), range)
            }

            #[inline]
            fn roots_f64(&self, ray: &$Ray) -> Option<(f64, f64)> {
                let (o, d) = (ray.origin().to_array(), ray.dir().to_array());
                ball_roots(o, d, self.center().to_array(), self.radius())
            }
        }
    };
}

ball_ray_impls!(Circle, Ray2, RayHit2, Vec2);
ball_ray_impls!(Sphere, Ray3, RayHit3, Vec3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn through_the_centre() {
        let s = Sphere::new(Vec3::new(5.0, 0.0, 0.0), 2.0);
        let ray = Ray3::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0));
        let span = s.ray_span(&ray).unwrap();
        assert_eq!((span.t_enter, span.t_exit), (1.5, 3.5));
        let hit = s.cast_ray(&ray).unwrap();
        assert_eq!((hit.point, hit.normal), (Vec3::new(3.0, 0.0, 0.0), -Vec3::X));
    }

    #[test]
    fn origin_inside_solid_versus_surface() {
        let c = Circle::new(Vec2::ZERO, 1.0);
        let ray = Ray2::new(Vec2::ZERO, Vec2::Y);
        let solid = c.cast_ray(&ray).unwrap();
        assert_eq!((solid.t, solid.normal), (0.0, Vec2::ZERO));
        let surface = c.cast_ray_surface(&ray).unwrap();
        assert_eq!((surface.t, surface.normal), (1.0, Vec2::Y));
    }

    #[test]
    fn tangent_rays_hit_exactly() {
        // Along z with a direction of length 3, touching the sphere at (1, 0, 0).
        let s = Sphere::new(Vec3::ZERO, 1.0);
        let ray = Ray3::new(Vec3::new(1.0, 0.0, -6.0), Vec3::new(0.0, 0.0, 3.0));
        let span = s.ray_span(&ray).unwrap();
        assert_eq!((span.t_enter, span.t_exit), (2.0, 2.0));
        let miss = Ray3::new(Vec3::new(1.0 + f32::EPSILON, 0.0, -6.0), Vec3::Z);
        assert_eq!(s.ray_span(&miss), None);
    }

    #[test]
    fn far_small_sphere_keeps_its_digits() {
        // 2^20 away, radius 1/8: the textbook b² - 4ac cancels to nothing in f32.
        let s = Sphere::new(Vec3::new(0.0, 0.0, 1_048_576.0), 0.125);
        let hit = s.cast_ray(&Ray3::new(Vec3::new(0.0, 0.0625, 0.0), Vec3::Z)).unwrap();
        let exact = 1_048_576.0 - (0.125f64 * 0.125 - 0.0625 * 0.0625).sqrt();
        assert_eq!(hit.t, exact as f32);
    }

    #[test]
    fn zero_radius_is_a_point() {
        let p = Sphere::new(Vec3::new(2.0, 0.0, 0.0), 0.0);
        let hit = p.cast_ray(&Ray3::new(Vec3::ZERO, Vec3::X)).unwrap();
        assert_eq!((hit.t, hit.normal), (2.0, -Vec3::X));
        assert_eq!(p.ray_span(&Ray3::new(Vec3::Y, Vec3::X)), None);
    }

    #[test]
    fn huge_direction_does_not_overflow() {
        let s = Sphere::new(Vec3::new(10.0, 0.0, 0.0), 1.0);
        let ray = Ray3::new(Vec3::ZERO, Vec3::new(3.0e38, 3.0e38, 0.0));
        assert_eq!(s.ray_span(&ray), None);
        let ray = Ray3::new(Vec3::ZERO, Vec3::new(3.0e38, 0.0, 0.0));
        let span = s.ray_span(&ray).unwrap();
        assert!((span.t_enter - 3.0e-38).abs() < 1.0e-43);
    }

    #[test]
    fn the_quick_miss_test_only_rejects_misses() {
        // Near-tangent lines at several scales: whenever the quick test says "miss", the
        // exact discriminant (computed here with exact f64 products on dyadic inputs) is < 0.
        let mut state = 0x9e37_79b9_u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 20) as f32 / 4096.0 - 0.5
        };
        for scale in [1.0 / 1024.0, 1.0, 1024.0] {
            for _ in 0..20_000 {
                // 12-bit coordinates: every product below is exact in f64.
                let (f, d) = ([next() * scale, next() * scale], [next(), next()]);
                let r = next().abs() * scale;
                let (f64f, f64d) = (f.each(f64::from), d.each(f64::from));
                let cross = f64f[0] * f64d[1] - f64f[1] * f64d[0];
                let exact = f64::from(r) * f64::from(r) * dot(f64d, f64d) - cross * cross;
                if line_surely_misses_ball(f64f, f64d, f64::from(r)) {
                    assert!(exact < 0.0, "{f:?} {d:?} {r}");
                }
                if exact < 0.0 {
                    assert_eq!(ball_roots(f, d, [0.0, 0.0], r), None);
                }
            }
        }
    }

    #[test]
    fn the_quick_roots_give_the_full_answer() {
        // Rays aimed near the silhouette (near-tangent), through the ball, from on the
        // surface, and with t_min / t_max at or next to a root: the solid span through the
        // quick pass equals the one from `ball_roots` alone, up to the last bit of t
        // (both are within a few f64 ulps of the exact roots), and hit, miss and
        // "starts inside" agree exactly.
        let mut next = crate::test_util::signed_units(0x5eed_1234_u32);
        let full = |o: [f32; 3], d: [f32; 3], c: [f32; 3], r: f32, range: (f32, f32)| {
            let roots = ball_roots(o, d, c, r)?;
            Some((solid_span(roots, range.0, range.1)?, roots.0 < f64::from(range.0)))
        };
        let mut quick_answers = 0;
        for scale in [1.0e-20_f32, 1.0, 1.0e20] {
            for _ in 0..20_000 {
                let c = [next(), next(), next()].each(|x| x * scale);
                let r = next().abs() * scale;
                let o = [next(), next(), next()].each(|x| 3.0 * x * scale);
                // Aim at a point near the sphere's silhouette, or at a random point.
                let k = 1.0 + next() * [1.0e-6, 1.0e-3, 1.0][(next().abs() * 2.99) as usize];
                let aim = [c[0] + k * r, c[1], c[2] + next() * r];
                let d = [0, 1, 2].each(|i| aim[i] - o[i]);
                if d == [0.0; 3] {
                    continue;
                }
                let roots = ball_roots(o, d, c, r);
                let mut ranges = vec![(0.0, f32::INFINITY), (f32::NEG_INFINITY, 1.0)];
                if let Some((t1, t2)) = roots {
                    for t in [t1 as f32, t2 as f32] {
                        ranges.extend([
                            (t, f32::INFINITY),
                            (0.0, t),
                            (t.next_up(), 1.0e30),
                            (-1.0e30, t.next_down()),
                        ]);
                    }
                }
                for range in ranges {
                    let got = ball_solid_span(o, d, c, r, range);
                    let want = full(o, d, c, r, range);
                    quick_answers += usize::from(got.is_some());
                    match (got, want) {
                        (None, None) => {}
                        (Some((g, gi)), Some((w, wi))) => {
                            assert_eq!(gi, wi, "{o:?} {d:?} {c:?} {r} {range:?}");
                            let close = |x: f32, y: f32| {
                                x == y || (x - y).abs() <= 2.0 * f32::EPSILON * x.abs().max(y.abs())
                            };
                            assert!(close(g.t_enter, w.t_enter) && close(g.t_exit, w.t_exit), "{g:?} {w:?}");
                        }
                        _ => panic!("{o:?} {d:?} {c:?} {r} {range:?}: {got:?} against {want:?}"),
                    }
                }
            }
        }
        assert!(quick_answers > 10_000, "{quick_answers}");
    }

    #[test]
    fn the_f32_normal_is_the_f64_one() {
        // Points near balls at several scales, and a zero radius: within 4e-6 of the f64 normal.
        let mut next = crate::test_util::signed_units(0x7777_1234_u32);
        for scale in [1.0e-30_f32, 1.0e-10, 1.0, 1.0e10, 1.0e30] {
            for _ in 0..5000 {
                let c = [next(), next(), next()].each(|x| x * scale);
                let p = [next(), next(), next()].each(|x| x * scale);
                let d = [next(), next(), 1.0];
                let (fast, exact) = (outward_normal(p, c, d), outward_normal_f64(p, c, d));
                let err = Vec3::from_array(fast) - Vec3::from_array(exact);
                assert!(err.length() <= 4.0e-6, "{p:?} {c:?}: {fast:?} vs {exact:?}");
            }
        }
        assert_eq!(outward_normal([1.0, 2.0], [1.0, 2.0], [0.0, -3.0]), [0.0, 1.0]);
    }
}
