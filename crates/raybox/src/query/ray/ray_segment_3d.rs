//! Ray against segment, 3D: the closed segment `p q` met by the ray `o + t d`, exactly.
//!
//! The 2D kernel (`ray_segment.rs`: Cormen et al., *Introduction to Algorithms*, 33.1, and
//! Ericson, *Real-Time Collision Detection*, 5.1.9.1) lifted to space by one exact
//! predicate and a projection:
//! - **Coplanarity.** In space a line and a segment share a point only if they lie in one
//!   plane: `det[p - o, q - o, d] = 0`. Its sign is Shewchuk's `orient3d` question
//!   (*Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates*,
//!   1997) with the direction `d` as the third row: a floating-point estimate decides when
//!   it clears his error bound (skew lines, the common miss, end there); a zero is
//!   certified by exact expansion arithmetic ([`coplanar`]).
//! - **Projection.** Dropping coordinate `k` maps space onto a coordinate plane, and the
//!   ray's parameter `t` onto the same `t`: a common point of the ray and the segment is a
//!   common point of their projections, at the same `t`, for every `k`. Conversely, when
//!   the ray's line and the segment lie in a plane whose normal has a non-zero component
//!   `k`, dropping `k` maps that plane one to one onto the coordinate plane, so the
//!   projections meet exactly where the 3D shapes do. The projected coordinates are
//!   coordinates of the inputs, `f32` values, so the 2D kernel's exact decisions and its
//!   correctly computed `t` apply unchanged. `k` is the axis of the largest component of
//!   the estimated normal (`|d × (p - o)| + |d × (q - o)|`, per component), as in Möller's
//!   coplanar triangle test; the exact side tests of the 2D kernel in that projection are
//!   the signs of the `k`-th components of `d × (p - o)` and `d × (q - o)`, so when both
//!   are zero the normal's component `k` is zero (or there is no plane), and the next axis
//!   is tried. Any axis with a non-zero normal component gives the same exact answers; the
//!   largest only keeps the 2D kernel's filters clear of cancellation.
//! - **Collinear.** When `p` and `q` are both on the ray's line (all three projections
//!   say so; a zero-length segment on it too), the plane is not unique: the span is the
//!   ends' parameters clipped to `[t_min, t_max]`, measured along the largest component of
//!   `d`, exactly as the 2D kernel does for a segment along the ray.
//!
//! So a ray is reported to hit exactly when it shares a point with the closed segment:
//! through an end point, grazing along it, starting on it, for every finite `f32` input. A
//! ray one `f32` step off the segment's plane misses it. The reported `t` is the exact
//! crossing (or end parameter) rounded, as in 2D.
//!
//! **Normals** (`cast_ray`): for a crossing, the unit vector perpendicular to the segment,
//! in the plane of the ray and the segment, facing against the ray: `(d × e) × e`
//! normalised, with `e = q - p` (it is `e (e·d) - d |e|²`, whose dot product with `d` is
//! `(e·d)² - |d|²|e|² < 0` by Cauchy–Schwarz). `d × e` is computed from exact products,
//! so the normal is accurate even for a ray at a grazing angle to the segment. For a ray
//! along the segment's line (reaching an end from outside), `-d` normalised. When the ray
//! starts on the segment (`r(t_min)` on it), the hit is at `t_min` with a zero normal, as
//! for a ray starting inside a solid.

use crate::arrays::Each;
use glam::{DVec3, Vec2, Vec3};

use super::point_at;
use super::ray_segment::{
    Quick, collinear_span, crossing, den_terms, num_terms, quick, side, sum_and_magnitude,
};
use crate::query::distance::{sum_rounded, two_product, two_sum};
use crate::query::overlap::det3_filtered;
use crate::{Ray3, RayCast, RayHit3, RaySpan, Segment3};

/// How a ray meets a segment in space.
#[derive(Clone, Copy, Debug)]
enum Meet {
    /// The ray crosses the segment's line at a point of the segment: `span` is `[t, t]`.
    Crossing { span: RaySpan, starts_on: bool },
    /// The segment lies on the ray's line; `first` is the end reached first from outside
    /// it (`None` when `r(t_min)` is already on the segment).
    Along { span: RaySpan, first: Option<Vec3> },
}

impl Meet {
    #[inline]
    fn span(self) -> RaySpan {
        match self {
            Meet::Crossing { span, .. } | Meet::Along { span, .. } => span,
        }
    }
}

/// `v` with coordinate `k` dropped: the next two axes in cyclic order, `(y, z)`, `(z, x)`
/// or `(x, y)`, so that the 2D cross product of two projected vectors is the `k`-th
/// component of their 3D cross product (the convention of `overlap/orient.rs`).
#[inline]
fn project(v: Vec3, k: usize) -> Vec2 {
    match k {
        0 => Vec2::new(v.y, v.z),
        1 => Vec2::new(v.z, v.x),
        _ => Vec2::new(v.x, v.y),
    }
}

/// The ray–segment kernel; see the module docs.
#[inline]
fn ray_segment3(ray: &Ray3, p: Vec3, q: Vec3) -> Option<Meet> {
    let (o, d) = (ray.origin(), ray.dir());
    let (a, b, dd) = (p.as_dvec3() - o.as_dvec3(), q.as_dvec3() - o.as_dvec3(), d.as_dvec3());
    // det[p - o, q - o, d] clearly non-zero: the line and the segment are skew.
    if det3_filtered(a, b, dd).is_some() {
        return None;
    }
    // The plane's normal, estimated: both d × (p - o) and d × (q - o) are multiples of it.
    let m = dd.cross(a).abs() + dd.cross(b).abs();
    let first = if m.x >= m.y && m.x >= m.z {
        0
    } else if m.y >= m.z {
        1
    } else {
        2
    };
    meet_projected(ray, p, q, first)
}

/// The kernel past the skew filter, trying the projections from the one along `first`.
#[inline(always)]
fn meet_projected(ray: &Ray3, p: Vec3, q: Vec3, first: usize) -> Option<Meet> {
    let (o, d) = (ray.origin(), ray.dir());
    let range = (ray.t_min(), ray.t_max());
    // The 2D kernel's filtered fast path on the first projection; its answers are the
    // exact ones below (`ray_segment::quick`).
    match quick(project(o, first), project(d, first), range, project(p, first), project(q, first)) {
        Quick::Miss => return None,
        Quick::Crossing(span, _) => {
            return coplanar(o, d, p, q).then_some(Meet::Crossing { span, starts_on: false });
        }
        Quick::Unsure => {}
    }
    for k in [first, (first + 1) % 3, (first + 2) % 3] {
        let (o2, d2, p2, q2) = (project(o, k), project(d, k), project(p, k), project(q, k));
        // Exact: the signs of (d × (p - o))ₖ and (d × (q - o))ₖ.
        let (side_p, side_q) = (side(o2, d2, p2), side(o2, d2, q2));
        if side_p * side_q > 0.0 {
            return None; // the projections do not meet, so neither do the shapes
        }
        if side_p == 0.0 && side_q == 0.0 {
            continue; // no information along this axis: the normal has no component k
        }
        // The projections meet at t: the shapes do too when they are coplanar, as the
        // projection is then one to one on their plane (its normal's component k is a
        // non-zero multiple of side_p or side_q).
        let c = crossing(o2, d2, range, p2, q2)?;
        return coplanar(o, d, p, q).then_some(Meet::Crossing { span: c.span, starts_on: c.starts_on });
    }
    // d × (p - o) = d × (q - o) = 0: both ends on the ray's line.
    let (span, first) = collinear_span(o.to_array(), d.to_array(), range, p.to_array(), q.to_array())?;
    Some(Meet::Along { span, first: first.map(Vec3::from_array) })
}

/// Whether `det[p - o, q - o, d]` is exactly zero: the ray's line and the segment lie in
/// one plane.
///
/// The determinant is `d · ((p - o) × (q - o)) = Σₖ dₖ Nₖ`, where
/// `Nₖ = ((p - o) × (q - o))ₖ` is the 2D kernel's crossing numerator in projection `k`:
/// six products of two `f32` coordinates ([`num_terms`]), each exact in `f64`. Each
/// `dₖ` times such a product is two `f64` values by Dekker's *Two-Product*, so the
/// determinant is an exact sum of 36 values, whose sign Shewchuk's *Grow-Expansion* gives
/// ([`exact_sign`]; nothing under- or overflows, as for `orient3d`).
///
/// **Fast path.** When every `Nₖ`'s six products add up in `f64` without rounding (each
/// *Two-Sum* error is zero: small integers, dyadic grids), `Nₖ` is that one `f64` value,
/// and the determinant is the exact sum of the three pairs of `Two-Product(dₖ, Nₖ)`.
#[inline]
fn coplanar(o: Vec3, d: Vec3, p: Vec3, q: Vec3) -> bool {
    let n = [0, 1, 2].each(|k| num_terms(project(o, k), project(p, k), project(q, k)));
    let mut sums = [0.0; 3];
    let mut exact = true;
    for (sum, terms) in sums.iter_mut().zip(&n) {
        let mut s = terms[0];
        for &t in &terms[1..] {
            let (next, err) = two_sum(s, t);
            exact &= err == 0.0;
            s = next;
        }
        *sum = s;
    }
    if exact {
        let mut terms = [0.0; 6];
        for k in 0..3 {
            (terms[2 * k], terms[2 * k + 1]) = two_product(f64::from(d[k]), sums[k]);
        }
        return exact_sign(&terms) == 0.0;
    }
    det_sign(d, n) == 0.0
}

/// The exact sign of `Σₖ dₖ Nₖ`, `Nₖ` the sum of the six exact products `n[k]`: 36 exact
/// values, two per `dₖ` times a product ([`coplanar`]).
#[inline]
fn det_sign(d: Vec3, n: [[f64; 6]; 3]) -> f64 {
    let mut terms = [0.0; 36];
    for (k, products) in n.iter().enumerate() {
        for (i, &x) in products.iter().enumerate() {
            (terms[12 * k + 2 * i], terms[12 * k + 2 * i + 1]) = two_product(f64::from(d[k]), x);
        }
    }
    exact_sign(&terms)
}

/// The sign of the exact sum of `terms` (at most 36 exactly represented values): Shewchuk's
/// *Grow-Expansion* with zero elimination (his `grow_expansion_zeroelim`), which keeps the
/// expansion as short as the sum's bits need (one component for the integer sums of the
/// fast path), so a sum that cancels to zero costs little. The components stay
/// nonoverlapping and in increasing magnitude (Shewchuk 1997, Theorem 10); the sign is the
/// largest one's.
#[inline]
fn exact_sign(terms: &[f64]) -> f64 {
    let mut expansion = [0.0f64; 36];
    let mut len = 0;
    for &term in terms {
        if term == 0.0 {
            continue;
        }
        let mut q = term;
        let mut kept = 0;
        for i in 0..len {
            let (sum, err) = two_sum(q, expansion[i]);
            if err != 0.0 {
                expansion[kept] = err; // kept <= i: never overwrites a component not yet read
                kept += 1;
            }
            q = sum;
        }
        if q != 0.0 {
            expansion[kept] = q;
            kept += 1;
        }
        len = kept;
    }
    if len == 0 { 0.0 } else { expansion[len - 1].signum() }
}

/// The unit vector of `v` (non-zero), in `f64`.
#[inline]
fn unit(v: DVec3) -> Vec3 {
    (v / v.length()).as_vec3()
}

/// The normal of a crossing: `(d × e) × e` normalised, `e = q - p` (see the module docs).
///
/// `c = d × e` has the 2D crossing denominators as components (`cₖ` is [`den_terms`] in
/// projection `k`, four exact products). Their rounded sums err by at most `γ₃ Mₖ`
/// (`Mₖ` the sum of the products' magnitudes; Higham, *Accuracy and Stability of Numerical
/// Algorithms*, 4.2): when the largest sum exceeds `2⁻²¹` times the largest `Mₖ`, `c` is
/// within `2⁻³⁰` of the exact vector (relative, in the max norm); otherwise (`d` nearly
/// along `e`) each component is the exact sum, rounded ([`sum_rounded`]). `c` is
/// perpendicular to `e`, so `|c × e| = |c| |e|` and the cross product adds only a few
/// units of `f64` rounding to the direction. Every nonzero `cₖ` is at least `2⁻²⁹⁸`, `e`
/// at least `2⁻¹⁴⁹` and neither above `2²⁶⁰`: the length neither under- nor overflows.
// Out of line: inlined into `cast_ray` (once the crate's helpers became `#[inline]`, 2026-11-25)
// it took a segment's `cast_ray` from 35 to 52 ns in the primitives benchmark; 37.6 ns so.
#[inline(never)]
fn crossing_normal(d: Vec3, p: Vec3, q: Vec3) -> Vec3 {
    let terms = [0, 1, 2].each(|k| den_terms(project(d, k), project(p, k), project(q, k)));
    let [(c0, m0), (c1, m1), (c2, m2)] = terms.each(sum_and_magnitude);
    let largest = c0.abs().max(c1.abs()).max(c2.abs());
    let c = if largest > m0.max(m1).max(m2) / (1u64 << 21) as f64 {
        DVec3::new(c0, c1, c2)
    } else {
        rounded_sums(terms)
    };
    unit(c.cross(q.as_dvec3() - p.as_dvec3()))
}

/// The rare fallback of [`crossing_normal`] (components within rounding of zero), kept out
/// of line and cold so that [`sum_rounded`]'s expansions stay out of the common path.
#[cold]
#[inline(never)]
fn rounded_sums<const N: usize>(terms: [[f64; N]; 3]) -> DVec3 {
    DVec3::from_array(terms.each(sum_rounded))
}

/// A ray against a closed 3D segment: the ray hits it only where they share a point, which
/// needs the ray's line and the segment to be coplanar (decided exactly). A crossing is a
/// single point (`t_enter == t_exit`); a ray along the segment's line meets it over the
/// clipped interval between the ends' parameters; a zero-length segment is a point, hit
/// only by a ray through it.
///
/// `cast_ray`'s normal is the unit vector perpendicular to the segment, in the plane of the
/// ray and the segment, facing against the ray; `-dir` normalised when the ray runs along
/// the segment's line (it reaches an end); zero when the ray starts on the segment
/// (`r(t_min)` on it, `t = t_min`), as for a ray starting inside a solid.
///
/// **Precision.** Whether the ray meets the segment, where `t` lies against `t_min` and
/// `t_max`, and whether the ray starts on the segment are decided exactly for all finite
/// `f32` inputs (Shewchuk's predicates: an `f64` estimate with an error bound, and an exact
/// expansion sum when the bound does not settle it). A ray one `f32` step off the
/// segment's plane misses. The reported `t` is the exact value rounded to `f32`.
///
/// ```
/// use raybox::{Ray3, RayCast, Segment3};
/// use glam::Vec3;
///
/// let rod = Segment3::new(Vec3::new(2.0, -1.0, 1.0), Vec3::new(2.0, 1.0, 1.0));
/// // Through the end point (2, 1, 1) exactly, at t = 1; the normal faces the ray.
/// let ray = Ray3::new(Vec3::new(0.0, -1.0, 1.0), Vec3::new(2.0, 2.0, 0.0));
/// let hit = rod.cast_ray(&ray).unwrap();
/// assert_eq!((hit.t, hit.point, hit.normal), (1.0, Vec3::new(2.0, 1.0, 1.0), Vec3::NEG_X));
/// // One f32 step above the segment's plane: the lines are skew, no hit.
/// let above = f32::from_bits(1.0f32.to_bits() + 1);
/// assert!(rod.cast_ray(&Ray3::new(Vec3::new(0.0, -1.0, above), Vec3::new(2.0, 2.0, 0.0))).is_none());
/// // Along the segment's line: the whole segment, from y = -1 to y = 1.
/// let along = Ray3::new(Vec3::new(2.0, -3.0, 1.0), Vec3::Y);
/// let span = rod.ray_span(&along).unwrap();
/// assert_eq!((span.t_enter, span.t_exit), (2.0, 4.0));
/// assert_eq!(rod.cast_ray(&along).unwrap().normal, Vec3::NEG_Y);
/// ```
impl RayCast for Segment3 {
    type Ray = Ray3;
    type Hit = RayHit3;

    #[inline]
    fn ray_span(&self, ray: &Ray3) -> Option<RaySpan> {
        ray_segment3(ray, self.start(), self.end()).map(Meet::span)
    }

    #[inline]
    fn cast_ray(&self, ray: &Ray3) -> Option<RayHit3> {
        let (o, d) = (ray.origin(), ray.dir());
        let (p, q) = (self.start(), self.end());
        let at = |t: f32| Vec3::from_array(point_at(o.to_array(), d.to_array(), t));
        Some(match ray_segment3(ray, p, q)? {
            Meet::Crossing { span, starts_on: true } | Meet::Along { span, first: None } => {
                RayHit3 { t: span.t_enter, point: at(span.t_enter), normal: Vec3::ZERO }
            }
            Meet::Crossing { span, starts_on: false } => {
                RayHit3 { t: span.t_enter, point: at(span.t_enter), normal: crossing_normal(d, p, q) }
            }
            Meet::Along { span, first: Some(end) } => {
                RayHit3 { t: span.t_enter, point: end, normal: unit(-d.as_dvec3()) }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::distance::sum_sign;
    use crate::query::ray::ray_segment::tests::Rng;
    use crate::{ClosestPoint, Ray2, Segment2};

    fn v(x: f32, y: f32, z: f32) -> Vec3 {
        Vec3::new(x, y, z)
    }

    fn seg(p: Vec3, q: Vec3) -> Segment3 {
        Segment3::new(p, q)
    }

    fn span(s: &Segment3, ray: &Ray3) -> Option<(f32, f32)> {
        s.ray_span(ray).map(|s| (s.t_enter, s.t_exit))
    }

    /// The next `f32` away from zero (from `±0.0`, `±2⁻¹⁴⁹`).
    fn up(x: f32) -> f32 {
        f32::from_bits(x.to_bits() + 1)
    }

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() <= 1e-6 * (1.0 + b.length())
    }

    #[test]
    fn crossing_the_middle_from_either_side() {
        let s = seg(v(2.0, -1.0, 3.0), v(2.0, 1.0, 3.0));
        let ray = Ray3::new(v(0.0, 0.5, 3.0), v(4.0, 0.0, 0.0));
        let hit = s.cast_ray(&ray).unwrap();
        assert_eq!((hit.t, hit.point, hit.normal), (0.5, v(2.0, 0.5, 3.0), Vec3::NEG_X));
        assert_eq!(span(&s, &ray), Some((0.5, 0.5)));
        // From the other side the normal turns; the segment's own direction does not matter.
        let back = Ray3::new(v(5.0, 0.0, 3.0), Vec3::NEG_X);
        assert_eq!(s.cast_ray(&back).unwrap().normal, Vec3::X);
        assert_eq!(seg(s.end(), s.start()).cast_ray(&back).unwrap().normal, Vec3::X);
        // A slanted ray in a slanted plane: the normal is perpendicular to the segment, in
        // the plane of the ray and the segment, against the ray.
        let s = seg(v(0.0, 0.0, 0.0), v(4.0, 4.0, 4.0));
        let ray = Ray3::new(v(2.0, 0.0, 4.0), v(0.0, 1.0, -1.0)); // through (2, 2, 2) at t = 2
        let hit = s.cast_ray(&ray).unwrap();
        assert_eq!((hit.t, hit.point), (2.0, v(2.0, 2.0, 2.0)));
        let (e, d) = (s.end() - s.start(), ray.dir());
        assert!((hit.normal.length() - 1.0).abs() < 1e-6);
        assert!(hit.normal.dot(e).abs() < 1e-6 && hit.normal.dot(d) < 0.0);
        assert!(hit.normal.dot(e.cross(d)).abs() < 1e-6, "in the plane of the ray and the segment");
        assert!(close(hit.normal, v(0.0, -1.0, 1.0).normalize()));
        // Behind the origin, and past t_max.
        assert_eq!(span(&s, &Ray3::new(v(2.0, 0.0, 4.0), v(0.0, -1.0, 1.0))), None);
        assert_eq!(span(&s, &Ray3::with_range(v(2.0, 0.0, 4.0), v(0.0, 1.0, -1.0), 0.0, 1.5)), None);
    }

    #[test]
    fn one_step_off_the_plane_is_a_miss() {
        // The ray crosses the segment at (2, 2, 2). Every component of the plane's normal
        // (2, -1, -1) is non-zero, so one f32 step in any coordinate of the origin, the
        // direction or an end leaves the plane: the lines are then skew.
        let base = [v(2.0, 0.0, 4.0), v(0.0, 1.0, -1.0), v(0.0, 0.0, 0.0), v(4.0, 4.0, 4.0)];
        let cast = |[o, d, p, q]: [Vec3; 4]| seg(p, q).cast_ray(&Ray3::new(o, d));
        assert_eq!(cast(base).unwrap().point, v(2.0, 2.0, 2.0));
        for j in 0..4 {
            for i in 0..3 {
                let mut case = base;
                case[j][i] = up(case[j][i]);
                assert!(cast(case).is_none(), "point {j}, axis {i}: {:?}", cast(case));
            }
        }
    }

    #[test]
    fn end_points_are_hit_and_one_step_past_them_is_not() {
        let s = seg(v(2.0, -1.0, 1.0), v(2.0, 1.0, 1.0));
        for y in [1.0, -1.0] {
            let hit = s.cast_ray(&Ray3::new(v(0.0, y, 1.0), Vec3::X)).unwrap();
            assert_eq!((hit.t, hit.point, hit.normal), (2.0, v(2.0, y, 1.0), Vec3::NEG_X));
            // One step farther out, in the segment's plane (z = 1): a coplanar miss.
            assert!(s.cast_ray(&Ray3::new(v(0.0, up(y), 1.0), Vec3::X)).is_none());
        }
        // Through an end along a slanted direction: (1.25, 3.5, -2) - 3 (0.375, 0.625, 0.25)
        // + 3 (0.375, 0.625, 0.25).
        let e = v(1.25, 3.5, -2.0);
        let d = v(0.375, 0.625, 0.25);
        let s = seg(e, v(7.0, 9.0, 5.0));
        let hit = s.cast_ray(&Ray3::new(e - 3.0 * d, d)).unwrap();
        assert_eq!((hit.t, hit.point), (3.0, e));
        assert!(hit.normal.dot(d) < 0.0 && hit.normal.dot(s.end() - e).abs() < 1e-6);
    }

    #[test]
    fn collinear_overlap_touch_and_gap() {
        let s = seg(v(1.0, 2.0, 3.0), v(3.0, 6.0, 11.0)); // direction (1, 2, 4)
        let along = |k: f32, scale: f32| {
            Ray3::new(v(0.0, 0.0, -1.0) + v(1.0, 2.0, 4.0) * k, v(1.0, 2.0, 4.0) * scale)
        };
        // Overlap: enters at the near end, leaves at the far one; normal against the ray.
        let hit = s.cast_ray(&along(0.0, 0.5)).unwrap();
        assert_eq!((hit.t, hit.point), (2.0, s.start()));
        assert!(close(hit.normal, -v(1.0, 2.0, 4.0).normalize()));
        assert_eq!(span(&s, &along(0.0, 0.5)), Some((2.0, 6.0)));
        let back = along(5.0, -1.0);
        assert_eq!((span(&s, &back), s.cast_ray(&back).unwrap().point), (Some((2.0, 4.0)), s.end()));
        assert!(close(s.cast_ray(&back).unwrap().normal, v(1.0, 2.0, 4.0).normalize()));
        // Touch: the ray's interval ends exactly at the near end; a gap: it stops short.
        let o = v(0.0, 0.0, -1.0);
        assert_eq!(span(&s, &Ray3::with_range(o, v(1.0, 2.0, 4.0), 0.0, 1.0)), Some((1.0, 1.0)));
        assert_eq!(span(&s, &Ray3::with_range(o, v(1.0, 2.0, 4.0), 0.0, 0.99)), None);
        assert_eq!(span(&s, &along(4.0, 1.0)), None); // starting past the far end
        // A line (t_min = -inf) through the segment from beyond its far end.
        let line = Ray3::with_range(v(4.0, 8.0, 15.0), v(1.0, 2.0, 4.0), f32::NEG_INFINITY, f32::INFINITY);
        assert_eq!(span(&s, &line), Some((-3.0, -1.0)));
        // Parallel (so coplanar), not collinear; and one step off the segment's line: misses.
        assert!(s.cast_ray(&Ray3::new(v(0.0, 0.0, 0.0), v(1.0, 2.0, 4.0))).is_none());
        let line = Ray3::with_range(v(1.0, 2.0, up(3.0)), v(1.0, 2.0, 4.0), f32::NEG_INFINITY, f32::INFINITY);
        assert!(s.ray_span(&line).is_none());
    }

    #[test]
    fn zero_length_segment_is_a_point() {
        let p = seg(v(2.0, 3.0, -1.0), v(2.0, 3.0, -1.0));
        let d = v(1.0, 1.5, -0.5);
        let hit = p.cast_ray(&Ray3::new(Vec3::ZERO, d)).unwrap();
        assert_eq!((hit.t, hit.point), (2.0, p.start()));
        assert!(close(hit.normal, -d.normalize()));
        assert_eq!(span(&p, &Ray3::new(Vec3::ZERO, d)), Some((2.0, 2.0)));
        for i in 0..3 {
            let mut off = d;
            off[i] = up(off[i]);
            assert!(p.cast_ray(&Ray3::new(Vec3::ZERO, off)).is_none(), "{off}");
        }
        // Starting on the point; and a line through it from beyond.
        let on = p.cast_ray(&Ray3::new(p.start(), Vec3::Y)).unwrap();
        assert_eq!((on.t, on.point, on.normal), (0.0, p.start(), Vec3::ZERO));
        let line = Ray3::with_range(p.start() + d, d, f32::NEG_INFINITY, f32::INFINITY);
        assert_eq!(span(&p, &line), Some((-1.0, -1.0)));
    }

    #[test]
    fn ray_starting_on_the_segment() {
        let s = seg(v(0.0, 0.0, 0.0), v(4.0, 2.0, 6.0));
        let mid = v(2.0, 1.0, 3.0);
        // Across the segment from a point on it, in any direction: t = t_min, zero normal.
        for d in [v(1.0, -3.0, 0.0), v(0.0, 0.0, 1.0), v(-5.0, 7.0, 0.25)] {
            let hit = s.cast_ray(&Ray3::new(mid, d)).unwrap();
            assert_eq!((hit.t, hit.point, hit.normal), (0.0, mid, Vec3::ZERO));
            assert_eq!(span(&s, &Ray3::new(mid, d)), Some((0.0, 0.0)));
        }
        // Along it from a point on it: inside until the end.
        let along = Ray3::new(mid, v(2.0, 1.0, 3.0));
        assert_eq!(span(&s, &along), Some((0.0, 1.0)));
        assert_eq!(s.cast_ray(&along).unwrap().normal, Vec3::ZERO);
        // From an end, away from the segment: touching at t = 0 only.
        assert_eq!(span(&s, &Ray3::new(s.end(), v(2.0, 1.0, 3.0))), Some((0.0, 0.0)));
        // r(t_min) on the segment with t_min != 0.
        let late = Ray3::with_range(v(2.0, -2.0, 3.0), Vec3::Y, 3.0, 9.0);
        let hit = s.cast_ray(&late).unwrap();
        assert_eq!((hit.t, hit.point, hit.normal), (3.0, mid, Vec3::ZERO));
        // A line through a point of the segment: met at t = 0, not at t_min.
        let line = Ray3::with_range(mid, Vec3::Y, f32::NEG_INFINITY, f32::INFINITY);
        let hit = s.cast_ray(&line).unwrap();
        assert_eq!((hit.t, hit.point), (0.0, mid));
        assert!(hit.normal.dot(Vec3::Y) < 0.0 && hit.normal.dot(s.end()).abs() < 1e-6);
    }

    #[test]
    fn clipping_to_t_min_and_t_max() {
        let s = seg(v(1.0, 1.0, 1.0), v(5.0, 5.0, 5.0));
        let r = |t_min, t_max| Ray3::with_range(Vec3::ZERO, Vec3::ONE, t_min, t_max);
        assert_eq!(span(&s, &r(2.0, 3.0)), Some((2.0, 3.0)));
        assert_eq!(span(&s, &r(0.0, 1.0)), Some((1.0, 1.0)));
        assert_eq!(span(&s, &r(5.0, 8.0)), Some((5.0, 5.0)));
        assert_eq!(span(&s, &r(5.5, 8.0)), None);
        let crossing = seg(v(3.0, 3.0, -1.0), v(3.0, 3.0, 7.0));
        assert_eq!(span(&crossing, &r(3.0, 3.0)), Some((3.0, 3.0)));
        assert_eq!(span(&crossing, &r(0.0, f32::from_bits(3.0f32.to_bits() - 1))), None);
        assert_eq!(span(&crossing, &r(up(3.0), 9.0)), None);
        // t_min = 3 exactly at the crossing: the ray starts on the segment.
        assert_eq!(crossing.cast_ray(&r(3.0, 9.0)).unwrap().normal, Vec3::ZERO);
        assert!(close(crossing.cast_ray(&r(0.0, 9.0)).unwrap().normal, v(-1.0, -1.0, 0.0).normalize()));
    }

    #[test]
    fn negative_zero_and_axis_parallel_directions() {
        let s = seg(v(2.0, -1.0, 0.0), v(2.0, 1.0, 0.0));
        for dir in [v(1.0, -0.0, 0.0), v(1.0, 0.0, -0.0), v(1.0, -0.0, -0.0)] {
            let hit = s.cast_ray(&Ray3::new(v(0.0, 1.0, -0.0), dir)).unwrap();
            assert_eq!((hit.t, hit.point, hit.normal), (2.0, v(2.0, 1.0, 0.0), Vec3::NEG_X));
        }
        // Along the segment's line with -0.0 components: no NaN, the clipped interval.
        for dir in [v(-0.0, 1.0, 0.0), v(0.0, -1.0, -0.0), v(-0.0, -1.0, -0.0)] {
            let ray = Ray3::with_range(v(2.0, 0.0, 0.0), dir, f32::NEG_INFINITY, f32::INFINITY);
            assert_eq!(span(&s, &ray), Some((-1.0, 1.0)));
            let hit = s.cast_ray(&ray).unwrap();
            assert!(!hit.point.is_nan() && !hit.normal.is_nan());
            assert_eq!(hit.normal, -dir);
        }
        // -0.0 segment coordinates.
        let z = seg(v(-0.0, -1.0, -0.0), v(0.0, 1.0, 0.0));
        assert_eq!(span(&z, &Ray3::new(v(-1.0, -0.0, 0.0), Vec3::X)), Some((1.0, 1.0)));
    }

    #[test]
    fn tiny_directions_and_extreme_scales() {
        let s = seg(v(2.0, -1.0, 5.0), v(2.0, 1.0, 5.0));
        // Crossing at t = 2^150: beyond f32, no hit. At 2e30: a hit with a unit normal.
        let tiny = Ray3::new(v(0.0, 0.0, 5.0), v(f32::from_bits(1), 0.0, 0.0));
        assert!(s.cast_ray(&tiny).is_none());
        let small = s.cast_ray(&Ray3::new(v(0.0, 0.0, 5.0), v(1.0e-30, 0.0, 0.0))).unwrap();
        assert!((small.t - 2.0e30).abs() <= 2.0e30 * 1e-6 && small.normal == Vec3::NEG_X);
        // The same crossing and one step off it, at scales 2^-120 to 2^100.
        for scale in [2f32.powi(-120), 2f32.powi(-60), 1.0, 2f32.powi(60), 2f32.powi(100)] {
            let w = |x: f32, y: f32, z: f32| v(x, y, z) * scale;
            let s = seg(w(-3.0, 1.0, 2.0), w(5.0, 5.0, 6.0)); // through (1, 3, 4)
            let ray = Ray3::new(w(1.0, -1.0, 7.0), v(0.0, 8.0, -6.0)); // at t = scale / 2
            let hit = s.cast_ray(&ray).unwrap();
            assert_eq!((hit.t, hit.point), (scale / 2.0, w(1.0, 3.0, 4.0)), "scale {scale}");
            assert!((hit.normal.length() - 1.0).abs() < 1e-6, "scale {scale}");
            let off = Ray3::new(v(1.0, -1.0, up(7.0)) * scale, v(0.0, 8.0, -6.0));
            assert!(s.cast_ray(&off).is_none(), "scale {scale}");
        }
        // Huge coordinates: no overflow, the right answer.
        let m = f32::MAX;
        let s = seg(v(-m, -m, m), v(m, m, m));
        let hit = s.cast_ray(&Ray3::new(v(0.0, -m, m), v(0.0, 1.0, 0.0))).unwrap();
        assert_eq!((hit.t, hit.point), (m, v(0.0, 0.0, m)));
        assert!(s.cast_ray(&Ray3::new(v(0.0, -m, m.next_down()), v(0.0, 1.0, 0.0))).is_none());
    }

    #[test]
    fn grazing_angles_keep_the_normal_exact() {
        // e = (1, 2, 3) times 8; the direction is e plus a perpendicular 2^-20 (3, 0, -1):
        // the ray meets the segment at its midpoint, at t = 4, almost along it. The normal is
        // -(3, 0, -1) normalised: perpendicular to e, in the plane of e and d, against d.
        let s = seg(Vec3::ZERO, v(8.0, 16.0, 24.0));
        let eps = 2f32.powi(-20);
        let d = v(1.0 + 3.0 * eps, 2.0, 3.0 - eps);
        let o = v(4.0, 8.0, 12.0) - 4.0 * d;
        assert_eq!(o, v(-12.0 * eps, 0.0, 4.0 * eps), "exact");
        let hit = s.cast_ray(&Ray3::new(o, d)).unwrap();
        assert_eq!((hit.t, hit.point), (4.0, v(4.0, 8.0, 12.0)));
        let want = -v(3.0, 0.0, -1.0).normalize();
        assert!((hit.normal - want).length() < 1e-7, "{} vs {want}", hit.normal);
        // At the smallest angle f32 allows near (1, 1, 1): d = (1, 1, 1 + 2^-23), the
        // segment along (1, 1, 1). The normal is (1, 1, -2) normalised; the textbook
        // e (e·d) - d |e|² in f32 cancels to nothing here.
        let s = seg(Vec3::ZERO, Vec3::splat(8.0));
        let d = v(1.0, 1.0, 1.0 + f32::EPSILON);
        let o = v(2.0, 2.0, 2.0 - 2.0 * f32::EPSILON);
        assert_eq!(o + 2.0 * d, Vec3::splat(4.0), "exact");
        let hit = s.cast_ray(&Ray3::new(o, d)).unwrap();
        assert_eq!((hit.t, hit.point), (2.0, Vec3::splat(4.0)));
        let want = v(1.0, 1.0, -2.0).normalize();
        assert!((hit.normal - want).length() < 1e-7, "{} vs {want}", hit.normal);
        // The same far from the origin: the segment from 2^24 (1, 1, 1) to 16 further, the
        // origin (8, 8, 6), t = 2^24. d × e's products are near 2^28 and cancel to 2^-19:
        // rounded f64 sums would be off by 2^-8 of it; the exact sums are not.
        let s = seg(Vec3::splat(16_777_216.0), Vec3::splat(16_777_232.0));
        let hit = s.cast_ray(&Ray3::new(v(8.0, 8.0, 6.0), d)).unwrap();
        assert_eq!((hit.t, hit.point), (16_777_216.0, Vec3::splat(16_777_224.0)));
        assert!((hit.normal - want).length() < 1e-7, "{} vs {want}", hit.normal);
    }

    /// [`crossing_normal`] against the same normal from the exactly rounded `d × e`, on
    /// segments far from the origin crossed at grazing angles by directions whose
    /// components differ in magnitude: there the rounded sums of `d × e`'s products lose
    /// most of their bits, and only the filter's fallback keeps the normal right.
    #[test]
    fn crossing_normals_match_the_exact_cross_product() {
        let mut rng = Rng(0x000c_7055);
        let mut fallbacks = 0;
        for _ in 0..50_000 {
            let far = 2f32.powi(rng.below(60) as i32 - 20);
            let p = v(rng.uniform(1.0), rng.uniform(1.0), rng.uniform(1.0)) * far;
            let e = v(rng.uniform(1.0), rng.uniform(1.0), rng.uniform(1.0))
                * far
                * 2f32.powi(-(rng.below(22) as i32));
            let q = p + e;
            let e = q - p; // what the segment holds
            let skew = v(2f32.powi(rng.below(24) as i32 - 12), 1.0, 2f32.powi(rng.below(24) as i32 - 12));
            let wobble =
                v(rng.uniform(1.0), rng.uniform(1.0), rng.uniform(1.0)) * 2f32.powi(-(rng.below(30) as i32));
            let d = (e / e.abs().max_element() + wobble) * skew;
            let terms = [0, 1, 2].each(|k| den_terms(project(d, k), project(p, k), project(q, k)));
            let c = DVec3::from_array(terms.each(sum_rounded));
            if c == DVec3::ZERO || e == Vec3::ZERO {
                continue; // parallel: no crossing
            }
            let want = unit(c.cross(q.as_dvec3() - p.as_dvec3()));
            let got = crossing_normal(d, p, q);
            assert!((got - want).length() < 1e-6, "{got} vs {want}: {d} {p} {q}");
            let [(c0, m0), (c1, m1), (c2, m2)] = terms.each(sum_and_magnitude);
            fallbacks +=
                usize::from(c0.abs().max(c1.abs()).max(c2.abs()) <= m0.max(m1).max(m2) / (1u64 << 21) as f64);
        }
        assert!(fallbacks > 1000, "{fallbacks} fallbacks");
    }

    #[test]
    fn exact_sign_matches_sum_sign() {
        let mut rng = Rng(0x3d5e_9a11);
        for i in 0..20_000 {
            let n = 1 + rng.below(18) as usize;
            let mut terms = [0.0; 36];
            for j in 0..n {
                let (x, y, z) = (rng.wide(), rng.wide(), rng.wide());
                (terms[2 * j], terms[2 * j + 1]) = two_product(f64::from(x) * f64::from(y), f64::from(z));
            }
            if i % 2 == 0 {
                // Cancel some terms exactly, or all of them.
                let cut = rng.below(n as u64 + 1) as usize;
                for j in 0..cut {
                    terms[2 * (n + j) % 36] = -terms[2 * j];
                    terms[(2 * (n + j) + 1) % 36] = -terms[2 * j + 1];
                }
            }
            assert_eq!(exact_sign(&terms), sum_sign(terms), "{terms:?}");
        }
    }

    /// Random scenes on a lattice plane (`c + a u + b v`, small integers, scaled by a power
    /// of two), and the same lifted off it by `w`.
    fn lattice_scene(rng: &mut Rng) -> (Ray3, Vec3, Vec3) {
        let mut g = |n| rng.grid(n);
        let (c, u, w) = (v(g(4), g(4), g(4)), v(g(2), g(2), g(2)), v(g(2), g(2), g(2)));
        let w2 = v(g(2), g(2), g(2));
        let at = |a: f32, b: f32| c + u * a + w * b;
        let (p, q) = (at(g(3), g(3)), if g(4) == 0.0 { at(0.0, 0.0) } else { at(g(3), g(3)) });
        let o = at(g(4), g(4));
        let target = p + (q - p) * (g(5) * 0.25);
        let mut d = target - o;
        if d == Vec3::ZERO || g(3) == 0.0 {
            d = u * g(2) + w * g(2);
        }
        if d == Vec3::ZERO {
            d = Vec3::X;
        }
        let (lift_pick, scale_pick, range_pick, lo, hi) = (g(3), g(20), g(2), g(2), g(2));
        let lift = if lift_pick == 3.0 { w2 } else { Vec3::ZERO };
        let scale = 2f32.powi(scale_pick as i32);
        let (t_min, t_max) = match range_pick as i32 {
            -2 => (f32::NEG_INFINITY, f32::INFINITY),
            -1 => (lo * 0.5, f32::INFINITY),
            _ => (0.0, 1.0 + hi.abs()),
        };
        let ray = Ray3::with_range((o + lift) * scale, d * scale, t_min, t_max);
        (ray, p * scale, q * scale)
    }

    #[test]
    fn every_projection_gives_the_same_answer() {
        use crate::query::overlap::orient3d;
        let mut rng = Rng(0x7e57_0f3d);
        let (mut hits, mut along, mut cases) = (0, 0, 0);
        for _ in 0..60_000 {
            let (ray, p, q) = lattice_scene(&mut rng);
            let want = ray_segment3(&ray, p, q);
            cases += 1;
            hits += usize::from(want.is_some());
            along += usize::from(matches!(want, Some(Meet::Along { .. })));
            for first in 0..3 {
                let got = meet_projected(&ray, p, q, first);
                let key = |m: Option<Meet>| {
                    m.map(|m| match m {
                        Meet::Crossing { span, starts_on } => (0, span.t_enter, span.t_exit, starts_on, None),
                        Meet::Along { span, first } => (1, span.t_enter, span.t_exit, first.is_none(), first),
                    })
                };
                assert_eq!(key(got), key(want), "first axis {first}: {ray:?} {p} {q}");
            }
            // Coplanarity: the fast path, the full sum and orient3d (o + d is exact here).
            let (o, d) = (ray.origin(), ray.dir());
            let n = [0, 1, 2].each(|k| num_terms(project(o, k), project(p, k), project(q, k)));
            let full = det_sign(d, n) == 0.0;
            assert_eq!(coplanar(o, d, p, q), full);
            if (o + d).as_dvec3() == o.as_dvec3() + d.as_dvec3() {
                assert_eq!(orient3d(o, p, q, o + d) == 0.0, full, "{ray:?} {p} {q}");
            }
        }
        assert!(hits > cases / 5 && along > 500, "{hits} hits, {along} along, of {cases}");
    }

    /// 2D cases embedded in a coordinate plane `x_k = c` (the 2D axes on the other two, in
    /// either order): the same answers as the 2D kernel. In the plane z = c, with x and y
    /// in order, the projection is the 2D input itself and the answers agree to the bit.
    #[test]
    fn planar_cases_match_the_2d_kernel() {
        let mut rng = Rng(0x002d_3d2d);
        let (mut cases, mut hits) = (0, 0);
        for i in 0..120_000u32 {
            let (o, d, p, q) = match i % 4 {
                0 => {
                    let mut u = || Vec2::new(rng.uniform(10.0), rng.uniform(10.0));
                    (u(), u(), u(), u())
                }
                1 => {
                    let mut w = || Vec2::new(rng.wide(), rng.wide());
                    (w(), w(), w(), w())
                }
                _ => {
                    let mut g = |n| Vec2::new(rng.grid(n), rng.grid(n));
                    (g(4), g(3), g(4), g(4))
                }
            };
            if d == Vec2::ZERO {
                continue;
            }
            let (t_min, t_max) = match rng.below(3) {
                0 => (f32::NEG_INFINITY, f32::INFINITY),
                1 => (0.0, f32::INFINITY),
                _ => (rng.grid(2) * 0.5, 2.0 + rng.grid(2).abs()),
            };
            let ray2 = Ray2::with_range(o, d, t_min, t_max);
            let s2 = Segment2::new(p, q);
            let want = s2.cast_ray(&ray2);
            let want_span = s2.ray_span(&ray2);
            cases += 1;
            hits += usize::from(want.is_some());
            let c = [0.0, -0.0, 3.5, rng.wide()][rng.below(4) as usize];
            let k = rng.below(3) as usize;
            let swap = rng.below(2) == 1 && i % 7 != 0;
            let lift = |a: Vec2, c: f32| {
                let (x, y) = if swap { (a.y, a.x) } else { (a.x, a.y) };
                let mut out = [0.0; 3];
                out[k] = c;
                out[(k + 1) % 3] = x;
                out[(k + 2) % 3] = y;
                Vec3::from_array(out)
            };
            let ray3 = Ray3::with_range(lift(o, c), lift(d, 0.0), t_min, t_max);
            let s3 = Segment3::new(lift(p, c), lift(q, c));
            let got = s3.cast_ray(&ray3);
            let got_span = s3.ray_span(&ray3);
            assert_eq!(got.is_some(), want.is_some(), "{ray2:?} {s2:?} -> {ray3:?} {s3:?}");
            assert_eq!(got_span.is_some(), want_span.is_some());
            let (Some(h3), Some(h2), Some(s3span), Some(s2span)) = (got, want, got_span, want_span) else {
                continue;
            };
            let same_t = |a: f32, b: f32| a == b || (a - b).abs() <= 2.0 * f32::EPSILON * b.abs();
            if k == 2 && !swap {
                assert_eq!(
                    (s3span.t_enter.to_bits(), s3span.t_exit.to_bits()),
                    (s2span.t_enter.to_bits(), s2span.t_exit.to_bits())
                );
                assert_eq!(h3.point, lift(h2.point, c));
            } else {
                assert!(
                    same_t(s3span.t_enter, s2span.t_enter) && same_t(s3span.t_exit, s2span.t_exit),
                    "{s3span:?} {s2span:?}"
                );
            }
            assert_eq!(h3.t, s3span.t_enter);
            assert_eq!(h3.normal == Vec3::ZERO, h2.normal == Vec2::ZERO);
            assert!((h3.normal - lift(h2.normal, 0.0)).length() < 1e-6, "{} {}", h3.normal, h2.normal);
            // The hit point is on the segment (to rounding), and one step off the plane misses.
            let scale = [p, q, o, d * h3.t.abs().min(f32::MAX)]
                .each(|x| x.abs().max_element())
                .into_iter()
                .fold(0.0, f32::max);
            assert!(s3.distance_to_point(h3.point) <= 1e-5 * scale, "{h3:?} {s3:?}");
            let mut moved = ray3.origin();
            moved[k] = up(moved[k]);
            assert!(s3.cast_ray(&Ray3::with_range(moved, ray3.dir(), t_min, t_max)).is_none());
        }
        assert!(hits > cases / 5, "{hits} of {cases}");
    }
}
