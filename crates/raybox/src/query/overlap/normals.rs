//! Exact predicates on normals, cross products of two differences of `f32` points: the sign
//! of the dot product of two of them ([`cross_dot_sign`], degree 4 in the coordinates), and
//! whether a determinant is at most `r` times the length of one of them
//! ([`volume_within`]: `det² <= r² |n|²`, degree 6). They decide, exactly, where two
//! segments' lines come nearest and whether they come within `r` there
//! (`capsule_segment.rs`), and whether a ball's centre is over a triangle's face and within
//! `r` of its plane (`triangle_capsule.rs`).
//!
//! **The pattern** is Shewchuk's (*Adaptive Precision Floating-Point Arithmetic and Fast
//! Robust Geometric Predicates*, 1997): an estimate in `f64` decides when it clears an
//! error bound, and otherwise the polynomial is summed exactly as a nonoverlapping
//! expansion, whose sign is that of its largest component.
//!
//! **The bounds.** Each estimate starts from the rounded `f64` differences of the `f32`
//! inputs (one rounding each: `1e30 - 1e-30` is not exact) and uses only `+`, `-`, `×`;
//! expanded into monomials of the exact differences, each monomial of the computed value is
//! the exact one times at most `k` factors `(1 + δ)`, `|δ| <= u = 2⁻⁵³`, `k` the depth of
//! the computation (a difference, then the operations above it). So the error is at most
//! `γₖ P`, `γₖ = k u / (1 - k u)`, `P` the *permanent*: the same computation on the
//! magnitudes of the products, with `+` for `-` (Higham, *Accuracy and Stability of
//! Numerical Algorithms*, 3.1 and 4.2). The computed permanent is at least `(1 - γₖ)` times
//! `P` (it rounds at most as often), so twice `k u` times it bounds the error with room to
//! spare; the multiplication by a power of two is exact. No step underflows: a nonzero
//! difference of two `f32` values is a multiple of `2⁻¹⁴⁹`, so every nonzero intermediate
//! of degree `j` is a multiple of `2⁻¹⁴⁹ʲ`, at least `2⁻⁸⁹⁴` for the degree 6 here (a sum
//! of multiples of `2⁻ᵐ` is zero or a multiple of `2⁻ᵐ`, and rounding keeps that), inside
//! `f64`'s normal range; nor does any overflow (`f32` values are below `2¹²⁸`).
//!
//! **The expansions.** A component of a cross product of differences, `(a - b) × (c - d)`,
//! is eight products of two `f32` coordinates, each exact in `f64` (48 bits); a
//! determinant of three differences is 24 products of three, each split by *Two-Product*
//! into two ([`orient3d_terms`]). These are summed by *Grow-Expansion* with zero
//! elimination ([`Expansion`]) into a few components, whose pairwise products (again
//! *Two-Product*) give the products of the polynomials, summed the same way. The same
//! granularity argument keeps *Two-Product* exact (its partial products are multiples of
//! `2⁻⁸⁹⁴` at least).

use crate::arrays::Each;
use glam::{DVec3, Vec3, Vec3Swizzles};

use super::orient::orient3d_terms;
use crate::query::distance::{two_product, two_sum};

/// `u`, the unit roundoff of `f64` (`2⁻⁵³`).
const U: f64 = f64::EPSILON / 2.0;

/// An exact sum held as a nonoverlapping expansion (Shewchuk 1997, section 2): at most `N`
/// nonzero components, in increasing magnitude, none overlapping the next, so that the sum's
/// sign is that of the last.
#[derive(Clone, Copy)]
pub(crate) struct Expansion<const N: usize> {
    parts: [f64; N],
    len: usize,
}

impl<const N: usize> Expansion<N> {
    /// Zero (no components).
    pub(crate) fn zero() -> Self {
        Expansion { parts: [0.0; N], len: 0 }
    }

    /// The exact sum of `terms` (at most `N` of them), each an exactly represented value.
    pub(crate) fn of(terms: &[f64]) -> Self {
        let mut e = Self::zero();
        for &t in terms {
            e.add(t);
        }
        e
    }

    /// The nonzero components, smallest first.
    pub(crate) fn parts(&self) -> &[f64] {
        &self.parts[..self.len]
    }

    /// Adds `term` exactly: Shewchuk's *Grow-Expansion* with zero elimination (his
    /// Theorem 10 and section 2.6): `term` is carried up through the components by
    /// *Two-Sum*, each step leaving its (nonzero) rounding error behind. The result has at
    /// most one component more.
    pub(crate) fn add(&mut self, term: f64) {
        let mut carry = term;
        let mut kept = 0;
        for i in 0..self.len {
            let (sum, error) = two_sum(carry, self.parts[i]);
            if error != 0.0 {
                self.parts[kept] = error; // kept <= i: the component read is not yet overwritten
                kept += 1;
            }
            carry = sum;
        }
        if carry != 0.0 {
            self.parts[kept] = carry;
            kept += 1;
        }
        self.len = kept;
    }

    /// Adds `x y` exactly for every `x` of `a` and `y` of `b` (`2 |a| |b|` terms, by
    /// *Two-Product*).
    pub(crate) fn add_products(&mut self, a: &[f64], b: &[f64]) {
        for &x in a {
            for &y in b {
                let (hi, lo) = two_product(x, y);
                self.add(lo);
                self.add(hi);
            }
        }
    }

    /// Adds the square of the sum of `a`'s components exactly: each `x²`, and `2 x y` once
    /// per pair (`|a| (|a| + 1)` terms).
    pub(crate) fn add_square(&mut self, a: &[f64]) {
        for (i, &x) in a.iter().enumerate() {
            self.add_products(&[x], &[x]);
            self.add_products(&[2.0 * x], &a[i + 1..]); // doubling is exact
        }
    }

    /// The same sum in (usually far) fewer components: Shewchuk's *Compress* (1997,
    /// section 2.8): a sweep down from the largest component keeps each rounded partial sum
    /// that left an error behind and carries the error on; a sweep up through those adds
    /// them again, keeping the nonzero errors. Every step is a *Two-Sum*, so the sum is
    /// unchanged whatever the components; Shewchuk's Theorem 23 makes the result
    /// nonoverlapping with its largest component holding nearly all of it. This code relies
    /// only on the sum: compressed expansions are only multiplied, and every sign is read
    /// from an expansion built by [`Self::add`] (*Grow-Expansion* gives a nonoverlapping
    /// result whatever terms it is given).
    pub(crate) fn compressed(&self) -> Self {
        let mut out = Self::zero();
        let Some((&largest, rest)) = self.parts().split_last() else { return out };
        let mut kept = [0.0; N];
        let mut bottom = self.len;
        let mut carry = largest;
        for &x in rest.iter().rev() {
            let (sum, error) = two_sum(carry, x);
            if error != 0.0 {
                bottom -= 1;
                kept[bottom] = sum;
                carry = error;
            } else {
                carry = sum;
            }
        }
        // Up: the last carry, then the kept sums from the smallest.
        for &x in &kept[bottom..self.len] {
            let (sum, error) = two_sum(x, carry);
            if error != 0.0 {
                out.parts[out.len] = error;
                out.len += 1;
            }
            carry = sum;
        }
        if carry != 0.0 {
            out.parts[out.len] = carry;
            out.len += 1;
        }
        out
    }

    /// The sign of the sum: `-1.0`, `0.0` or `1.0`.
    pub(crate) fn sign(&self) -> f64 {
        self.parts().last().map_or(0.0, |x| x.signum())
    }
}

/// `(x0 - x1) × (x2 - x3)` in `f64` from the rounded differences (depth 3: a difference, a
/// product, a difference), and its permanent (the products' magnitudes added).
#[inline]
fn cross_estimate([x0, x1, x2, x3]: [Vec3; 4]) -> (DVec3, DVec3) {
    let (x, y) = (x0.as_dvec3() - x1.as_dvec3(), x2.as_dvec3() - x3.as_dvec3());
    let (l, r) = (x.yzx() * y.zxy(), x.zxy() * y.yzx());
    (l - r, l.abs() + r.abs())
}

/// The components of `(x0 - x1) × (x2 - x3)`, each as 8 exact products of two coordinates:
/// `(a - b) × (c - d) = a × c - a × d - b × c + b × d` (component `k` of `u × v` is
/// `u_i v_j - u_j v_i`, `i = k + 1`, `j = k + 2`; with `b = d` the `b × b` pair cancels).
fn cross_terms([x0, x1, x2, x3]: [Vec3; 4]) -> [[f64; 8]; 3] {
    let [a, b, c, d] = [x0, x1, x2, x3].each(Vec3::as_dvec3);
    crate::arrays::from_fn(|k| {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let uv = |u: DVec3, v: DVec3| (u[i] * v[j], u[j] * v[i]);
        let [(ac, ca), (ad, da), (bc, cb), (bd, db)] = [uv(a, c), uv(a, d), uv(b, c), uv(b, d)];
        [ac, -ca, -ad, da, -bc, cb, bd, -db]
    })
}

/// Each component of `(x0 - x1) × (x2 - x3)` as an expansion.
fn cross_expansions(x: [Vec3; 4]) -> [Expansion<8>; 3] {
    cross_terms(x).each(|terms| Expansion::of(&terms).compressed())
}

/// The sign (`-1.0`, `0.0` or `1.0`) of `((x0 - x1) × (x2 - x3)) · ((y0 - y1) × (y2 - y3))`,
/// exact. The estimate has depth 6 (a cross product, a product, two sums), so `8u` of its
/// permanent bounds its error (module docs).
pub(crate) fn cross_dot_sign(x: [Vec3; 4], y: [Vec3; 4]) -> f64 {
    let ((a, pa), (b, pb)) = (cross_estimate(x), cross_estimate(y));
    let estimate = a.dot(b);
    let bound = 8.0 * U * pa.dot(pb);
    if estimate > bound || -estimate > bound {
        return estimate.signum();
    }
    cross_dot_exact(x, y)
}

/// [`cross_dot_sign`] on expansions: each component of each cross product (at most 8
/// components), then the three products (at most `3 × 2 × 8 × 8` terms).
#[cold]
#[inline(never)]
fn cross_dot_exact(x: [Vec3; 4], y: [Vec3; 4]) -> f64 {
    let (a, b) = (cross_expansions(x), cross_expansions(y));
    let mut sum = Expansion::<384>::zero();
    for (a, b) in a.iter().zip(&b) {
        sum.add_products(a.parts(), b.parts());
    }
    sum.sign()
}

/// Whether `det[v1 - v0, v2 - v0, v3 - v0]² <= r² |(n0 - n1) × (n2 - n3)|²`, exact: when
/// `n` is normal to two of the differences, whether `v` is within `r` of the plane (or the
/// line) those span. The estimate has depth 8 on both sides (the determinant 6, its square
/// 7; `|n|²` 6, times `r²`, exact from `f32`, 7; the difference 8), so `16u` of its
/// permanent bounds its error (module docs).
pub(crate) fn volume_within(v: [Vec3; 4], n: [Vec3; 4], r: f32) -> bool {
    let [v0, v1, v2, v3] = v.each(Vec3::as_dvec3);
    let (e, f, g) = (v1 - v0, v2 - v0, v3 - v0);
    let (l, rt) = (f.yzx() * g.zxy(), f.zxy() * g.yzx());
    let (det, det_permanent) = (e.dot(l - rt), e.abs().dot(l.abs() + rt.abs()));
    let (nv, n_permanent) = cross_estimate(n);
    let rr = f64::from(r) * f64::from(r);
    let estimate = det * det - rr * nv.length_squared();
    let bound = 16.0 * U * (det_permanent * det_permanent + rr * n_permanent.length_squared());
    if estimate > bound || -estimate > bound {
        return estimate < 0.0;
    }
    volume_within_exact(v, n, r)
}

/// [`volume_within`] on expansions: the determinant from its 48 terms (at most 48
/// components `m`, so its square is at most `m (m + 1) <= 2,352` terms), each component of
/// `n` from its 8 (its square at most 72 terms; 216 for `|n|²`), and `r² |n|²` at most 432
/// terms. The sum is held in an expansion sized for the terms at hand: a small one for the
/// usual few components (zeroing the largest, 22 KB, took most of a microsecond).
#[cold]
#[inline(never)]
fn volume_within_exact([v0, v1, v2, v3]: [Vec3; 4], n: [Vec3; 4], r: f32) -> bool {
    let det = Expansion::<48>::of(&orient3d_terms(v0, v1, v2, v3)).compressed();
    let mut nn = Expansion::<216>::zero();
    for c in cross_expansions(n) {
        nn.add_square(c.parts());
    }
    let nn = nn.compressed();
    let rr = f64::from(r) * f64::from(r); // exact: two f32 values
    let (det, nn) = (det.parts(), nn.parts());
    let terms = det.len() * (det.len() + 1) + 2 * nn.len();
    if terms <= 128 {
        square_minus::<128>(det, rr, nn) <= 0.0
    } else {
        square_minus::<{ 2_352 + 432 }>(det, rr, nn) <= 0.0
    }
}

/// The sign of `(Σ det)² - rr Σ nn`, exact, in an expansion of capacity `N` (at least
/// `|det| (|det| + 1) + 2 |nn|`).
fn square_minus<const N: usize>(det: &[f64], rr: f64, nn: &[f64]) -> f64 {
    let mut sum = Expansion::<N>::zero();
    sum.add_square(det);
    sum.add_products(&[-rr], nn);
    sum.sign()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact integer values of the two polynomials, for points with small integer
    /// coordinates.
    fn cross_i(x: [Vec3; 4]) -> [i128; 3] {
        let d = |a: Vec3, b: Vec3| (a - b).to_array().each(|c| c as i128);
        let (u, v) = (d(x[0], x[1]), d(x[2], x[3]));
        [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    }

    #[test]
    fn expansions_sum_and_multiply_exactly() {
        // 2^60 + 1 - 2^60 is 1, which f64 summation loses.
        let e = Expansion::<4>::of(&[2f64.powi(60), 1.0, -(2f64.powi(60))]);
        assert_eq!(e.parts(), &[1.0]);
        // (2^30 + 1)² - 2^60 - 2^31 = 1.
        let mut s = Expansion::<16>::zero();
        s.add_square(&[1.0, 2f64.powi(30)]);
        s.add(-(2f64.powi(60)));
        s.add(-(2f64.powi(31)));
        assert_eq!(s.parts(), &[1.0]);
        assert_eq!(Expansion::<2>::of(&[3.0, -3.0]).sign(), 0.0);
        // Compressing keeps the sum: 2^-60 + 3 + 2^60 + 2^70 - its compressed form is zero.
        let e = Expansion::<8>::of(&[2f64.powi(-60), 3.0, 2f64.powi(60), 2f64.powi(70)]);
        let c = e.compressed();
        let mut difference = e;
        for &x in c.parts() {
            difference.add(-x);
        }
        assert_eq!(difference.sign(), 0.0);
        assert!(c.parts().len() <= e.parts().len() && c.sign() == 1.0);
    }

    /// Random lattice points against `i128` arithmetic: small lattices (many zeros and
    /// ties), and large ones where the estimates' products outgrow `f64`.
    #[test]
    fn agree_with_integer_arithmetic() {
        let mut next = crate::test_util::signed_units(0x5eed_1234_u32);
        let (mut signs, mut within) = ([0usize; 3], [0usize; 2]);
        for i in 0..40_000 {
            let k = [3.0, 4_000_000.0, 4_000.0][i % 3];
            let mut p = || (Vec3::new(next(), next(), next()) * k).round();
            let (x, y) = ([p(), p(), p(), p()], [p(), p(), p(), p()]);
            let (cx, cy) = (cross_i(x), cross_i(y));
            let dot: i128 = (0..3).map(|j| cx[j] * cy[j]).sum();
            assert_eq!(cross_dot_sign(x, y), dot.signum() as f64, "{x:?} {y:?}");
            signs[(dot.signum() + 1) as usize] += 1;
            // det[v1 - v0, v2 - v0, v3 - v0] against |n| times a radius near their ratio.
            let v = [x[0], x[1], x[2], y[0]];
            let e = cross_i([v[1], v[0], v[2], v[0]]);
            let det: i128 = (0..3).map(|j| e[j] * (v[3] - v[0])[j] as i128).sum();
            let nn: i128 = cy.iter().map(|c| c * c).sum();
            let ratio = ((det as f64).abs() / (nn as f64).sqrt()) as f32;
            for r in [0.0, ratio.next_down(), ratio, ratio.next_up(), (ratio + 0.5).floor()] {
                if let Some(want) = exact_within(det, nn, r.max(0.0)) {
                    assert_eq!(volume_within(v, y, r.max(0.0)), want, "{v:?} {y:?} {r}");
                    within[usize::from(want)] += 1;
                }
            }
        }
        assert!(signs.iter().all(|&c| c > 300), "{signs:?}");
        assert!(within.iter().all(|&c| c > 10_000), "{within:?}");
    }

    /// `det² <= r² nn` for an `f32` radius `r`, exactly, when the scaled integers fit in
    /// `i128`: `r = m / 2^s` with an integer `m`.
    fn exact_within(det: i128, nn: i128, r: f32) -> Option<bool> {
        if !r.is_finite() {
            return None;
        }
        let (mut m, mut s) = (f64::from(r), 0u32);
        while m.fract() != 0.0 {
            m *= 2.0;
            s += 1;
        }
        let m = m as i128;
        let lhs = det.checked_mul(det)?.checked_mul(1i128.checked_shl(2 * s).filter(|&x| x > 0)?)?;
        let rhs = m.checked_mul(m)?.checked_mul(nn)?;
        Some(lhs <= rhs)
    }
}
