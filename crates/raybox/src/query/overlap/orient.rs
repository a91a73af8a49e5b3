//! Exact orientation predicates on `f32` points: the signs that the triangle and segment
//! overlap tests (`triangle_triangle.rs`, `triangle_segment.rs`) are built from.
//!
//! [`orient3d`]`(a, b, c, d)` is the sign of `det[b - a, c - a, d - a]`: positive when `d` is
//! on the side of the plane `a b c` that its normal `(b - a) × (c - a)` points to, zero when
//! the four points are coplanar. It follows Shewchuk, *Adaptive Precision Floating-Point
//! Arithmetic and Fast Robust Geometric Predicates* (1997): a floating-point estimate in
//! `f64` decides the sign when it exceeds the error bound `(7 + 56ε) ε · permanent` (his
//! `o3derrboundA`, `ε = 2⁻⁵³`; the bound covers the rounding of the coordinate differences
//! as well as of the products); otherwise the determinant is summed exactly.
//!
//! **Why the exact sum is exact for `f32` points.** The determinant, expanded, is 24
//! products of three coordinates. A product of two `f32` values has at most 48 significant
//! bits, so it is exact in `f64`; its product with the third coordinate is split by Dekker's
//! *Two-Product* into two `f64` values whose sum is exact; the 48 values are added by
//! *Grow-Expansion* (Knuth's *Two-Sum*), which is exact, into a nonoverlapping expansion
//! whose sign is that of its largest component. Nothing underflows or overflows: every `f32`
//! is a multiple of `2⁻¹⁴⁹` below `2¹²⁸`, so every product and every rounding error of a
//! product is a multiple of `2⁻⁴⁴⁷` below `2³⁸⁵`, far inside `f64`'s normal range (which the
//! error-free transformations and the estimate's bound assume). The inputs are `Vec3`, not
//! `DVec3`, so that no caller can hand in coordinates that break this argument.
//!
//! The planar predicates project onto a coordinate plane and use the exact `orient2d` of
//! `distance/segment_segment.rs` (Shewchuk's again).

use crate::arrays::Each;
use glam::{DVec3, Vec3, Vec3Swizzles};

use crate::query::distance::{grow, orient2d, sum_rounded, two_product};

/// `o3derrboundA` of Shewchuk's `predicates.c`: `(7 + 56ε) ε` with `ε = 2⁻⁵³`.
const O3D_ERR_BOUND_A: f64 = (7.0 + 56.0 * (f64::EPSILON / 2.0)) * (f64::EPSILON / 2.0);

/// The sign (`-1.0`, `0.0` or `1.0`) of `det[b - a, c - a, d - a]`, exact.
#[inline]
pub(crate) fn orient3d(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> f64 {
    if let Some(sign) = orient3d_filtered(a, b, c, d) {
        return sign;
    }
    orient3d_exact(a, b, c, d)
}

/// The floating-point stage: `Some(sign)` when the estimate clears its error bound.
///
/// Shewchuk's `orient3d` computes `det[a - d, b - d, c - d]`, which is
/// `-det[b - a, c - a, d - a]`; the sign is flipped on the way out.
#[inline]
fn orient3d_filtered(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> Option<f64> {
    let [a, b, c, d] = [a, b, c, d].each(Vec3::as_dvec3);
    det3_filtered(a - d, b - d, c - d).map(|sign| -sign)
}

/// The floating-point stage on three rows, each the rounded `f64` difference of two `f32`
/// points or an exact `f32` vector: `Some(sign of det[ad; bd; cd])` (`ad · (bd × cd)`)
/// when the estimate clears Shewchuk's bound. The bound covers one rounding in each
/// difference; a row given exactly (no rounding) only makes the true error smaller.
#[inline]
pub(crate) fn det3_filtered(ad: DVec3, bd: DVec3, cd: DVec3) -> Option<f64> {
    let (bdx_cdy, cdx_bdy) = (bd.x * cd.y, cd.x * bd.y);
    let (cdx_ady, adx_cdy) = (cd.x * ad.y, ad.x * cd.y);
    let (adx_bdy, bdx_ady) = (ad.x * bd.y, bd.x * ad.y);
    let det = ad.z * (bdx_cdy - cdx_bdy) + bd.z * (cdx_ady - adx_cdy) + cd.z * (adx_bdy - bdx_ady);
    let permanent = (bdx_cdy.abs() + cdx_bdy.abs()) * ad.z.abs()
        + (cdx_ady.abs() + adx_cdy.abs()) * bd.z.abs()
        + (adx_bdy.abs() + bdx_ady.abs()) * cd.z.abs();
    let bound = O3D_ERR_BOUND_A * permanent;
    (det > bound || -det > bound).then(|| det.signum())
}

/// The exact stage: the sign of the sum of [`orient3d_terms`], summed without rounding
/// (see the module docs).
#[cold]
#[inline(never)]
fn orient3d_exact(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> f64 {
    let mut expansion = [0.0f64; 48];
    let mut len = 0;
    for term in orient3d_terms(a, b, c, d) {
        grow(&mut expansion, &mut len, term);
    }
    expansion[..len].iter().rev().find(|&&x| x != 0.0).map_or(0.0, |x| x.signum())
}

/// `det[b - a, c - a, d - a]` as 48 exactly represented terms whose exact sum it is:
/// `D(b, c, d) - D(a, c, d) + D(a, b, d) - D(a, b, c)` with `D(u, v, w) = u · (v × w)`, six
/// products of three coordinates each, every product split by *Two-Product* into two
/// (see the module docs).
pub(crate) fn orient3d_terms(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> [f64; 48] {
    let mut terms = [0.0f64; 48];
    let mut n = 0;
    for (sign, u, v, w) in [(1.0, b, c, d), (-1.0, a, c, d), (1.0, a, b, d), (-1.0, a, b, c)] {
        let [u, v, w] = [u, v, w].each(Vec3::as_dvec3);
        let products = [
            (u.x, v.y, w.z),
            (-u.x, v.z, w.y),
            (u.y, v.z, w.x),
            (-u.y, v.x, w.z),
            (u.z, v.x, w.y),
            (-u.z, v.y, w.x),
        ];
        for (x, y, z) in products {
            // x y: two f32 values, exact in f64; then an exact two-term product.
            let (hi, lo) = two_product(sign * x * y, z);
            terms[n] = lo;
            terms[n + 1] = hi;
            n += 2;
        }
    }
    terms
}

/// The point `v` projected along axis `k` onto the coordinate plane of the other two, as
/// `(u, v, 0)` with `(u, v)` the next two axes in cyclic order: `(y, z)`, `(z, x)` or
/// `(x, y)`. The `orient2d` of three projected points is then the `k`-th component of
/// their normal `(b - a) × (c - a)`.
#[inline]
pub(crate) fn project(v: Vec3, k: usize) -> DVec3 {
    let v = v.as_dvec3();
    match k {
        0 => DVec3::new(v.y, v.z, 0.0),
        1 => DVec3::new(v.z, v.x, 0.0),
        _ => DVec3::new(v.x, v.y, 0.0),
    }
}

/// The exact signs of the three components of the normal `(b - a) × (c - a)`; all zero
/// exactly when the points are collinear (or coincide).
#[inline]
pub(crate) fn normal_signs([a, b, c]: [Vec3; 3]) -> [f64; 3] {
    crate::arrays::from_fn(|k| orient2d(project(a, k), project(b, k), project(c, k)))
}

/// The normal `(b - a) × (c - a)` in `f64`, accurate whatever the vertices' scales: **zero
/// exactly when the points are collinear** (or coincide), and otherwise within `2⁻⁴⁰` of
/// its length of the exact normal.
///
/// The plain form rounds the differences `b - a` and `c - a`, which for coordinates whose
/// exponents differ by more than about 29 can turn an exactly collinear triple into a
/// triangle with a small normal, or the reverse. Its error is bounded: each difference is
/// within `u = 2⁻⁵³` of itself, each product of two within `γ₃`, and a component
/// `l - r` within `γ₃ (|l| + |r|) + u |l - r| <= 2⁻⁵⁰ (|l| + |r|)` of the exact value
/// (computed from the rounded `l` and `r`; the bound has room for their rounding). When the
/// three bounds together are below `2⁻⁴⁰` of the largest component, that form is kept: a
/// component that clears its bound has the exact sign, so such a normal is not zero, and a
/// bound of zero means exact zero factors, so a component is then exact. Otherwise each
/// component is the expansion `a_j b_k - a_k b_j + b_j c_k - b_k c_j + c_j a_k - c_k a_j`:
/// six products of two `f32` values, each exact in `f64`, summed exactly and rounded
/// (`sum_rounded`: the exact sign, within a few units in its last place).
#[inline]
pub(crate) fn triangle_normal(a: Vec3, b: Vec3, c: Vec3) -> DVec3 {
    let (n, sure) = plain_normal(a, b, c);
    if sure { n } else { expanded_normal(a, b, c) }
}

/// Whether `a b c` is not a triangle the queries can take: collinear (decided exactly), or
/// so nearly collinear that the plain `f64` normal `(b - a) × (c - a)`, which several
/// queries divide by, is zero.
#[inline]
pub(crate) fn degenerate_triangle(a: Vec3, b: Vec3, c: Vec3) -> bool {
    let (n, sure) = plain_normal(a, b, c);
    n == DVec3::ZERO || (!sure && expanded_normal(a, b, c) == DVec3::ZERO)
}

/// The plain normal `(b - a) × (c - a)` in `f64`, and whether it is within `2⁻⁴⁰` of its
/// length of the exact normal (see [`triangle_normal`]).
#[inline]
fn plain_normal(a: Vec3, b: Vec3, c: Vec3) -> (DVec3, bool) {
    let [a, b, c] = [a, b, c].each(Vec3::as_dvec3);
    let (d1, d2) = (b - a, c - a);
    let (l, r) = (d1.yzx() * d2.zxy(), d1.zxy() * d2.yzx());
    let n = l - r;
    let bound = (l.abs() + r.abs()).element_sum() * (1.0 / (1u64 << 50) as f64);
    (n, bound <= n.abs().max_element() * (1.0 / (1u64 << 40) as f64))
}

/// Each component of the normal as the exact sum of six products, rounded.
#[cold]
fn expanded_normal(a: Vec3, b: Vec3, c: Vec3) -> DVec3 {
    let [a, b, c] = [a, b, c].each(Vec3::as_dvec3);
    let component = |j: usize, k: usize| {
        sum_rounded([a[j] * b[k], -a[k] * b[j], b[j] * c[k], -b[k] * c[j], c[j] * a[k], -c[k] * a[j]])
    };
    DVec3::new(component(1, 2), component(2, 0), component(0, 1))
}

/// Whether the closed segments `[p1, q1]` and `[p2, q2]` of the plane meet (either may be
/// a point): Cormen et al., *Introduction to Algorithms*, 33.1, with exact orientations.
#[inline]
pub(crate) fn segments_meet_2d(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> bool {
    let (o1, o2) = (orient2d(p1, q1, p2), orient2d(p1, q1, q2));
    let (o3, o4) = (orient2d(p2, q2, p1), orient2d(p2, q2, q1));
    if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
        return true; // a proper crossing
    }
    // Otherwise they meet only if an end lies on the other segment: on its line, and in
    // its bounding box.
    let within = |x: DVec3, p: DVec3, q: DVec3| {
        p.x.min(q.x) <= x.x && x.x <= p.x.max(q.x) && p.y.min(q.y) <= x.y && x.y <= p.y.max(q.y)
    };
    (o1 == 0.0 && within(p2, p1, q1))
        || (o2 == 0.0 && within(q2, p1, q1))
        || (o3 == 0.0 && within(p1, p2, q2))
        || (o4 == 0.0 && within(q1, p2, q2))
}

/// Whether the point `x` of the plane is in the closed triangle `t`, which must not be
/// degenerate: its three edge orientations are not of strictly opposite signs.
#[inline]
pub(crate) fn point_in_triangle_2d(x: DVec3, [a, b, c]: [DVec3; 3]) -> bool {
    let s = [orient2d(a, b, x), orient2d(b, c, x), orient2d(c, a, x)];
    !(s.contains(&1.0) && s.contains(&-1.0))
}

/// Whether the closed segment `[p, q]` (maybe a point) of the plane meets the closed,
/// non-degenerate triangle `t`: an end inside it, or a crossing with one of its edges.
#[inline]
pub(crate) fn segment_meets_triangle_2d(p: DVec3, q: DVec3, t: [DVec3; 3]) -> bool {
    point_in_triangle_2d(p, t)
        || point_in_triangle_2d(q, t)
        || (0..3).any(|i| segments_meet_2d(p, q, t[i], t[(i + 1) % 3]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The determinant in `i128`, for points whose coordinates are multiples of `2^-shift`.
    fn orient_i128(p: [Vec3; 4], shift: i32) -> f64 {
        let int = |x: f32| (f64::from(x) * 2f64.powi(shift)) as i128;
        let q = p.each(|v| [int(v.x), int(v.y), int(v.z)]);
        let sub = |u: [i128; 3], v: [i128; 3]| [u[0] - v[0], u[1] - v[1], u[2] - v[2]];
        let (x, y, z) = (sub(q[1], q[0]), sub(q[2], q[0]), sub(q[3], q[0]));
        let det = x[0] * (y[1] * z[2] - y[2] * z[1]) - x[1] * (y[0] * z[2] - y[2] * z[0])
            + x[2] * (y[0] * z[1] - y[1] * z[0]);
        det.signum() as f64
    }

    #[test]
    fn orientation_of_the_unit_frame() {
        let (o, x, y, z) = (Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z);
        assert_eq!(orient3d(o, x, y, z), 1.0);
        assert_eq!(orient3d(o, y, x, z), -1.0);
        assert_eq!(orient3d(o, x, y, Vec3::new(3.0, -2.0, 0.0)), 0.0);
        assert_eq!(orient3d_exact(o, x, y, z), 1.0);
        assert_eq!(orient3d_exact(o, y, x, -z * 1e-30), 1.0);
    }

    /// Points near a plane spanned by two long, nearly parallel edges: with
    /// `u = (N, N + 1, N + 2)` and `v = (N + 1, N + 2, N + 3)`, `u × v = (-1, 2, -1)`, so the
    /// determinant of `a, a + u, a + v, a + w + k u` is the small integer `(-1, 2, -1) · w`
    /// while its products are near `N³ = 2⁶⁰`: the estimate cannot decide, the exact stage
    /// does. Against an `i128` determinant (all coordinates are integers below `2²⁴`).
    #[test]
    fn near_coplanar_points_against_integers() {
        let n = (1 << 20) as f32;
        let a = Vec3::new(3_000_001.0, -2_500_003.0, 1_700_007.0);
        let (u, v) = (Vec3::new(n, n + 1.0, n + 2.0), Vec3::new(n + 1.0, n + 2.0, n + 3.0));
        let (b, c) = (a + u, a + v);
        let mut undecided = 0;
        for k in [-1.0, 0.0, 1.0] {
            for i in -2..=2_i32 {
                for j in -2..=2_i32 {
                    for l in -2..=2_i32 {
                        let d = a + Vec3::new(i as f32, j as f32, l as f32) + u * k;
                        let want = orient_i128([a, b, c, d], 0);
                        assert_eq!(want, f64::from((-i + 2 * j - l).signum()), "{d}");
                        assert_eq!(orient3d(a, b, c, d), want, "{d}");
                        assert_eq!(orient3d_exact(a, b, c, d), want, "{d}");
                        undecided += usize::from(orient3d_filtered(a, b, c, d).is_none());
                    }
                }
            }
        }
        assert!(undecided > 100, "the exact stage ran {undecided} times");
        // And points within a few f32 steps of a plane at ordinary scales, where the estimate
        // decides: the same signs from both stages (multiples of 2^-27 below 2^4).
        let (a, b, c) = (Vec3::new(0.1, 0.2, 0.3), Vec3::new(1.7, 0.9, 2.5), Vec3::new(3.3, 5.1, 7.9));
        let nudge = |x: f32, k: i32| f32::from_bits(x.to_bits().wrapping_add_signed(k));
        let base = a * 0.25 + b * 0.5 + c * 0.25;
        for i in -3..=3 {
            for j in -3..=3 {
                let d = Vec3::new(nudge(base.x, i), nudge(base.y, j), base.z);
                let want = orient_i128([a, b, c, d], 30);
                assert_eq!((orient3d(a, b, c, d), orient3d_exact(a, b, c, d)), (want, want), "{d}");
            }
        }
    }

    /// A random `f32` with a 20-bit significand (so that `3 s` is exact), a random sign and an
    /// exponent in `[lo, hi)`.
    fn wide(rng: &mut crate::mesh::scene::Pcg32, lo: i32, hi: i32) -> f32 {
        let m = (rng.next_u32() >> 12) | (1 << 20);
        let e = lo + (rng.next_u32() % (hi - lo) as u32) as i32;
        let s = if rng.next_u32() & 1 == 0 { 1.0 } else { -1.0 };
        s * m as f32 * 2f32.powi(e - 20)
    }

    /// The triple the audit of 2026-11-24 found: exactly on the line `z = -3x, y = 0`, yet
    /// the plain `f64` normal was `(0, 7.6e-6, 0)`, so `Triangle3::try_new` accepted it.
    #[test]
    fn collinear_points_at_wide_scales_have_a_zero_normal() {
        let (a, b, c) = (
            Vec3::new(0.014583454, 0.0, -0.04375036),
            Vec3::new(212.18164, 0.0, -636.5449),
            Vec3::new(-54918144.0, 0.0, 164754430.0),
        );
        let plain = (b.as_dvec3() - a.as_dvec3()).cross(c.as_dvec3() - a.as_dvec3());
        assert_ne!(plain, DVec3::ZERO, "the plain form rounds");
        assert_eq!(triangle_normal(a, b, c), DVec3::ZERO);
        // Random exactly collinear triples `s (1, -2, 3) + t (0, 0, 0)`, at scales from 2^-60
        // to 2^60 (each `s`, `2 s`, `3 s` exact), in every vertex order; then one coordinate
        // moved by one `f32` step: no longer collinear, and the signs are the exact ones.
        let mut rng = crate::mesh::scene::Pcg32::new(7);
        let nudge = |x: f32, k: i32| f32::from_bits(x.to_bits().wrapping_add_signed(k));
        let (mut plain_wrong, mut moved) = (0, 0);
        for _ in 0..20_000 {
            let s = [0; 3].each(|_| wide(&mut rng, -60, 60));
            let p = s.each(|s| Vec3::new(s, -2.0 * s, 3.0 * s));
            for [i, j, k] in [[0, 1, 2], [1, 2, 0], [2, 1, 0]] {
                assert_eq!(triangle_normal(p[i], p[j], p[k]), DVec3::ZERO, "{p:?}");
            }
            let plain = (p[1].as_dvec3() - p[0].as_dvec3()).cross(p[2].as_dvec3() - p[0].as_dvec3());
            plain_wrong += usize::from(plain != DVec3::ZERO);
            let mut q = p;
            let axis = (rng.next_u32() % 3) as usize;
            q[2][axis] = nudge(q[2][axis], 1);
            let n = triangle_normal(q[0], q[1], q[2]);
            let want = normal_signs(q);
            assert_eq!(
                [
                    n.x.signum() * f64::from(n.x != 0.0),
                    n.y.signum() * f64::from(n.y != 0.0),
                    n.z.signum() * f64::from(n.z != 0.0)
                ],
                want,
                "{q:?}"
            );
            moved += usize::from(n != DVec3::ZERO);
        }
        assert!(plain_wrong > 1000, "the plain form was wrong on only {plain_wrong}");
        assert_eq!(moved, 20_000);
    }

    /// On ordinary triangles the quick form is kept, and it is what the expansions give to
    /// within `2⁻⁴⁰` of the normal's length; at wide scales the expansions decide.
    #[test]
    fn the_quick_normal_agrees_with_the_expansions() {
        let mut rng = crate::mesh::scene::Pcg32::new(11);
        let expanded = |a: Vec3, b: Vec3, c: Vec3| {
            let [a, b, c] = [a, b, c].each(Vec3::as_dvec3);
            let comp = |j: usize, k: usize| {
                sum_rounded([a[j] * b[k], -a[k] * b[j], b[j] * c[k], -b[k] * c[j], c[j] * a[k], -c[k] * a[j]])
            };
            DVec3::new(comp(1, 2), comp(2, 0), comp(0, 1))
        };
        for lo in [-40, -5, 20] {
            for _ in 0..20_000 {
                let p = [0; 3].each(|_| {
                    Vec3::new(
                        wide(&mut rng, lo, lo + 8),
                        wide(&mut rng, lo, lo + 8),
                        wide(&mut rng, lo, lo + 8),
                    )
                });
                let (n, e) = (triangle_normal(p[0], p[1], p[2]), expanded(p[0], p[1], p[2]));
                assert!((n - e).length() <= e.length() * 2f64.powi(-39), "{p:?}: {n} against {e}");
            }
        }
    }

    /// Extreme magnitudes: tiny and huge coordinates, where only the exact stage (and no
    /// underflow) gets the sign.
    #[test]
    fn extreme_magnitudes() {
        let tiny = f32::from_bits(1); // 2^-149
        let (o, x, y) = (Vec3::ZERO, Vec3::X * tiny, Vec3::Y * tiny);
        assert_eq!(orient3d(o, x, y, Vec3::Z * tiny), 1.0);
        assert_eq!(orient3d(o, x, y, -Vec3::Z * tiny), -1.0);
        let big = f32::MAX;
        let (x, y) = (Vec3::X * big, Vec3::Y * big);
        assert_eq!(orient3d(o, x, y, Vec3::new(-big, -big, tiny)), 1.0);
        assert_eq!(orient3d(o, x, y, Vec3::new(-big, -big, 0.0)), 0.0);
        // A plane through points of very different magnitudes, and a point on it.
        let (p, q, r) = (Vec3::new(1e30, 0.0, 0.0), Vec3::new(0.0, 1e-30, 0.0), Vec3::new(0.0, 0.0, 1.0));
        assert_eq!(orient3d(p, q, r, p), 0.0);
        assert_eq!(orient3d(p, q, r, Vec3::ZERO), -orient3d(p, q, r, Vec3::splat(1e31)));
    }

    #[test]
    fn planar_segments_and_triangles() {
        let p = |x: f64, y: f64| DVec3::new(x, y, 0.0);
        // Crossing, touching at an end, collinear overlapping, collinear apart, points.
        assert!(segments_meet_2d(p(0.0, 0.0), p(2.0, 2.0), p(0.0, 2.0), p(2.0, 0.0)));
        assert!(segments_meet_2d(p(0.0, 0.0), p(2.0, 0.0), p(2.0, 0.0), p(3.0, 5.0)));
        assert!(segments_meet_2d(p(0.0, 0.0), p(4.0, 0.0), p(2.0, 0.0), p(2.0, 3.0))); // a T
        assert!(segments_meet_2d(p(0.0, 0.0), p(2.0, 0.0), p(1.0, 0.0), p(5.0, 0.0)));
        assert!(!segments_meet_2d(p(0.0, 0.0), p(2.0, 0.0), p(3.0, 0.0), p(5.0, 0.0)));
        assert!(segments_meet_2d(p(1.0, 1.0), p(1.0, 1.0), p(0.0, 0.0), p(2.0, 2.0)));
        assert!(!segments_meet_2d(p(1.0, 1.0), p(1.0, 1.0), p(0.0, 0.0), p(2.0, 2.5)));
        assert!(segments_meet_2d(p(1.0, 1.0), p(1.0, 1.0), p(1.0, 1.0), p(1.0, 1.0)));
        let t = [p(0.0, 0.0), p(4.0, 0.0), p(0.0, 4.0)];
        assert!(point_in_triangle_2d(p(2.0, 2.0), t)); // on the hypotenuse
        assert!(!point_in_triangle_2d(p(2.0, 2.1), t));
        assert!(segment_meets_triangle_2d(p(-1.0, 1.0), p(5.0, 1.0), t)); // through, no end inside
        assert!(!segment_meets_triangle_2d(p(-1.0, 5.0), p(5.0, 4.0), t));
    }
}
