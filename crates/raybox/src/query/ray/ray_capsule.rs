//! Ray against capsule, 2D and 3D: the capsule is the union of its two end balls and its
//! body (the points within `r` of the core's line whose projection falls between the
//! ends), so along a line its span is the hull of the three pieces' spans (the capsule is
//! convex, so that union is one interval). Ericson, *Real-Time Collision Detection*,
//! 5.3.7 (segment against cylinder) and 5.3.2 (against sphere).
//!
//! The balls use the stable roots of `ray_sphere.rs`. The body, with `d = end - start`,
//! `m = origin - start` and `dir`, is the slab `0 <= (m + t dir)·d <= d·d` intersected with
//! the quadratic `|m⊥ + t dir⊥|² <= r²` (`⊥`: the part perpendicular to `d`), solved in
//! `f64` with the same stable form. The normal is the direction from the nearest core
//! point to the hit point; zero when the ray starts inside (the crate *Semantics*).
//!
//! A capsule of radius zero is its core segment, and is cast as one (the exact segment
//! kernels of `ray_segment.rs` and `ray_segment_3d.rs`): for a line crossing the core the
//! body's discriminant is exactly zero, so its rounding missed crossings (215 of 20,000
//! lattice rays in `tests/audit_2d.rs`), and the direction from the core to the hit point,
//! rounding noise, gave the normal.

use crate::arrays::Each;
use glam::{DVec3, Vec2, Vec3};

use super::point_at;
use super::ray_sphere::{ball_roots, coarse_point};
use crate::query::closest::closest_point_on_segment;
use crate::query::distance::{d2, d3, f2, f3};
use crate::{Capsule2, Capsule3, ClosestPoint, Ray2, Ray3, RayCast, RayHit2, RayHit3, RaySpan};

#[inline]
fn dot<const N: usize>(a: [f64; N], b: [f64; N]) -> f64 {
    (0..N).map(|i| a[i] * b[i]).sum()
}

/// The unclipped parameter interval of the line `origin + t dir` inside the body.
#[inline]
fn body_roots<const N: usize>(
    o: [f32; N],
    dir: [f32; N],
    p: [f32; N],
    q: [f32; N],
    r: f32,
) -> Option<(f64, f64)> {
    let d: [f64; N] = crate::arrays::from_fn(|i| f64::from(q[i]) - f64::from(p[i]));
    let dd = dot(d, d);
    if dd == 0.0 {
        return None; // a ball: its end balls cover it
    }
    let m: [f64; N] = crate::arrays::from_fn(|i| f64::from(o[i]) - f64::from(p[i]));
    let n: [f64; N] = dir.each(f64::from);
    let (md, nd) = (dot(m, d), dot(n, d));
    // Between the end planes: 0 <= md + t nd <= dd.
    let (mut lo, mut hi) = if nd == 0.0 {
        if !(0.0..=dd).contains(&md) {
            return None; // parallel to the end planes, outside them
        }
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        let (t0, t1) = (-md / nd, (dd - md) / nd);
        (t0.min(t1), t0.max(t1))
    };
    // Within r of the axis: |m⊥ + t n⊥|² <= r².
    let mp: [f64; N] = crate::arrays::from_fn(|i| m[i] - d[i] * (md / dd));
    let np: [f64; N] = crate::arrays::from_fn(|i| n[i] - d[i] * (nd / dd));
    let (a, b, c) = (dot(np, np), dot(mp, np), dot(mp, mp) - f64::from(r) * f64::from(r));
    if a == 0.0 {
        if c > 0.0 {
            return None; // along the axis, outside the radius
        }
    } else {
        let disc = b * b - a * c;
        if disc < 0.0 {
            return None;
        }
        let q = -(b + b.signum() * disc.sqrt());
        let (t1, t2) = if q == 0.0 { (0.0, 0.0) } else { (c / q, q / a) };
        lo = lo.max(t1.min(t2));
        hi = hi.min(t1.max(t2));
    }
    (lo <= hi).then_some((lo, hi))
}

/// The unclipped interval of the line inside the capsule: the hull of the three pieces.
#[inline]
pub(crate) fn capsule_roots<const N: usize>(
    o: [f32; N],
    dir: [f32; N],
    p: [f32; N],
    q: [f32; N],
    r: f32,
) -> Option<(f64, f64)> {
    [ball_roots(o, dir, p, r), ball_roots(o, dir, q, r), body_roots(o, dir, p, q, r)]
        .into_iter()
        .flatten()
        .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
}

/// The outward unit normal at the entry `o + t d` (`t` the unrounded entry root), all in
/// `f64`: away from the nearest core point, or against the direction when the entry is on
/// the core (rounding, or a hit point out of `f32` range). `f64` holds the entry point even when its `f32` rounding
/// overflows, and `|d|²` of any non-zero `f32` direction without underflow (the smallest,
/// `1e-45`, squares to `2e-90`), so the result has unit length where `f32`'s
/// `dir.normalize()` did not (`|d|²` of a direction near `1e-20` is subnormal in `f32`,
/// and zero below `1e-23`).
#[cold]
#[inline(never)]
fn outward_normal_f64(o: DVec3, d: DVec3, t: f64, (p, q): (DVec3, DVec3)) -> DVec3 {
    let x = o + d * t;
    let out = x - closest_point_on_segment(x, p, q);
    let len = out.length();
    if len > 0.0 && len.is_finite() { out / len } else { -d / d.length() }
}

macro_rules! capsule_ray_impls {
    ($Capsule:ident, $Ray:ident, $Hit:ident, $V:ident, $d:path, $f:path) => {
        impl RayCast for $Capsule {
            type Ray = $Ray;
            type Hit = $Hit;

            #[inline]
            fn ray_span(&self, ray: &$Ray) -> Option<RaySpan> {
                if self.radius() == 0.0 {
                    return self.segment().ray_span(ray);
                }
                let (a, b) = self.roots(ray)?;
                let t_enter = a.max(f64::from(ray.t_min()));
                let t_exit = b.min(f64::from(ray.t_max()));
                super::f32_span(t_enter, t_exit)
            }

            #[inline]
            fn cast_ray(&self, ray: &$Ray) -> Option<$Hit> {
                if self.radius() == 0.0 {
                    return self.segment().cast_ray(ray);
                }
                let (a, _) = self.roots(ray)?;
                let span = self.ray_span(ray)?;
                let point =
                    $V::from_array(point_at(ray.origin().to_array(), ray.dir().to_array(), span.t_enter));
                let normal = if a < f64::from(ray.t_min()) {
                    $V::ZERO // started inside
                } else {
                    let core = self.segment().closest_point(point);
                    let out = ($d(point) - $d(core)).normalize_or_zero();
                    // Zero when rounding puts the hit on the core, zero or NaN when
                    // the f32 point overflowed (a tiny direction, `t` past f32::MAX);
                    // rounding noise when the radius is far below the coordinates
                    // (`coarse_point`).
                    let coarse = coarse_point(ray.origin().to_array(), point.to_array(), self.radius());
                    if out.is_finite() && out != glam::DVec3::ZERO && !coarse {
                        $f(out)
                    } else {
                        $f(outward_normal_f64(
                            $d(ray.origin()),
                            $d(ray.dir()),
                            a,
                            ($d(self.start()), $d(self.end())),
                        ))
                    }
                };
                Some($Hit { t: span.t_enter, point, normal })
            }
        }

        impl $Capsule {
            #[inline]
            fn roots(&self, ray: &$Ray) -> Option<(f64, f64)> {
                let (o, d) = (ray.origin().to_array(), ray.dir().to_array());
                capsule_roots(o, d, self.start().to_array(), self.end().to_array(), self.radius())
            }
        }
    };
}

capsule_ray_impls!(Capsule2, Ray2, RayHit2, Vec2, d2, f2);
capsule_ray_impls!(Capsule3, Ray3, RayHit3, Vec3, d3, f3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn through_the_body_and_the_caps() {
        // A vertical capsule: core (0,0,0)-(0,2,0), radius 1.
        let c = Capsule3::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 1.0);
        let side = c.cast_ray(&Ray3::new(Vec3::new(-5.0, 1.0, 0.0), Vec3::X)).unwrap();
        assert_eq!((side.t, side.normal), (4.0, Vec3::NEG_X));
        let span = c.ray_span(&Ray3::new(Vec3::new(0.0, -5.0, 0.0), Vec3::Y)).unwrap();
        assert_eq!((span.t_enter, span.t_exit), (4.0, 8.0)); // cap to cap
        let top = c.cast_ray(&Ray3::new(Vec3::new(0.0, 9.0, 0.0), Vec3::NEG_Y)).unwrap();
        assert_eq!((top.t, top.normal), (6.0, Vec3::Y));
        // Grazing the body (tangent), and missing it by a hair.
        assert!(c.cast_ray(&Ray3::new(Vec3::new(-5.0, 1.0, 1.0), Vec3::X)).is_some());
        assert!(c.cast_ray(&Ray3::new(Vec3::new(-5.0, 1.0, 1.000_001), Vec3::X)).is_none());
    }

    #[test]
    fn origin_inside_gives_zero_normal_and_2d_stadium() {
        let c = Capsule2::new(Vec2::ZERO, Vec2::new(4.0, 0.0), 1.0);
        let inside = c.cast_ray(&Ray2::new(Vec2::new(2.0, 0.0), Vec2::Y)).unwrap();
        assert_eq!((inside.t, inside.normal), (0.0, Vec2::ZERO));
        // Into the right cap along the diagonal: hits at distance 1 from (4, 0).
        let cap = c.cast_ray(&Ray2::new(Vec2::new(10.0, 6.0), Vec2::new(-1.0, -1.0))).unwrap();
        let expected = Vec2::new(4.0, 0.0) + Vec2::ONE.normalize();
        assert!(
            (cap.point - expected).length() < 1e-5 && (cap.normal - Vec2::ONE.normalize()).length() < 1e-5
        );
        assert!(c.cast_ray(&Ray2::new(Vec2::new(-3.0, 1.5), Vec2::X)).is_none());
    }
}
