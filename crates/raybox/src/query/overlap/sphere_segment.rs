//! Ball against segment, 2D: the centre is within the radius of the closed segment
//! (Ericson, *Real-Time Collision Detection*, 5.1.2: the squared distance to the segment,
//! by the region the centre projects to), decided exactly.
//!
//! With `e = q - p` and `w = c - p`: when `w·e <= 0` the nearest point is `p`, when
//! `(q - c)·e <= 0` it is `q`, and the test is `|c - p|² <= r²` or `|c - q|² <= r²`;
//! otherwise it is `cross(e, w)² <= r² |e|²` (the squared distance to the line times
//! `|e|²`). A zero-length segment is the point `p`.
//!
//! **Exact.** Each of these is the sign of a polynomial in the `f32` inputs: the region
//! and end tests are sums of products of two inputs, each exact in `f64`, whose sign
//! `sum_sign` gives exactly. The body test has degree 4: it is first estimated in `f64`
//! from `C = cross(e, w)` and `E = |e|²`, each summed from its exact products (6 each),
//! with an error bound (below); only when the estimate is within the bound of zero is the
//! polynomial expanded into exact terms (the 36 products `Cᵢ Cⱼ` and the 6 products
//! `r² Eᵢ`, each split by *Two-Product*) and summed exactly. So touching counts, and a
//! centre one `f32` step too far does not, at any scale.
//!
//! **The bound.** `Ĉ` and `Ê` are sums of 6 exact terms: `|Ĉ - C| <= γ₅ M_C` and
//! `|Ê - E| <= γ₅ M_E`, `M` the sums of the terms' magnitudes, `γ₅ = 5u / (1 - 5u)`,
//! `u = 2⁻⁵³` (Higham 4.2). Then `|Ĉ² - C²| <= γ₅ M_C (2 M_C + γ₅ M_C)` and
//! `|r² Ê - r² E| <= γ₅ r² M_E`; the three roundings of `Ĉ Ĉ - r² Ê` add at most
//! `3u (1 + γ₅)(M_C² + r² M_E)`. In all, under `14u (M_C² + r² M_E)`; the test uses `32u`
//! of the computed `M_C² + r² M_E`, which covers the rounding of that bound itself.
//!
//! Ball against segment (3D): the squared distance from the centre to the segment against
//! the squared radius (Ericson, *Real-Time Collision Detection*, 5.1.2 and 5.3.2), decided
//! exactly as in 2D (`ball_segment_3d`: an `f64` filter, then expansions).
//!
//! With `d = q - p` and `m = c - p`: the nearest point is `p` when `m · d <= 0`, `q` when
//! `m · d >= d · d`, and otherwise the foot of the perpendicular, at squared distance
//! `|m × d|² / |d|²`; the ball overlaps when that is at most `r²`, compared without the
//! division (`|m × d|² <= r² |d|²`). A zero-length segment is its point (`m · d = 0`). The
//! two formulas agree where the regions meet, so a rounding that puts a centre in the
//! neighbouring region moves the answer by no more than the rounding of the distances.

use crate::arrays::Each;
use glam::Vec2;

use crate::query::distance::{sum_sign, two_product};
use crate::query::reverse_overlaps;
use crate::{Circle, Overlaps, Segment2};

/// `|a - b|² - r²` as 7 exact terms.
#[inline]
fn end_terms(a: Vec2, b: Vec2, r: f32) -> [f64; 7] {
    let (ax, ay, bx, by, r) = (a.x as f64, a.y as f64, b.x as f64, b.y as f64, r as f64);
    [ax * ax, -2.0 * (ax * bx), bx * bx, ay * ay, -2.0 * (ay * by), by * by, -(r * r)]
}

/// `(a - b)·(q - p)` as 8 exact terms.
#[inline]
fn dot_terms(a: Vec2, b: Vec2, p: Vec2, q: Vec2) -> [f64; 8] {
    let f = |v: Vec2| (v.x as f64, v.y as f64);
    let ((ax, ay), (bx, by), (px, py), (qx, qy)) = (f(a), f(b), f(p), f(q));
    [ax * qx, -(ax * px), -(bx * qx), bx * px, ay * qy, -(ay * py), -(by * qy), by * py]
}

/// The sign of `cross(q - p, c - p)² - r² |q - p|²`, exact.
#[inline]
fn body_sign(p: Vec2, q: Vec2, c: Vec2, r: f32) -> f64 {
    let f = |v: Vec2| (v.x as f64, v.y as f64);
    let ((px, py), (qx, qy), (cx, cy)) = (f(p), f(q), f(c));
    // cross(e, w) = e.x w.y - e.y w.x, expanded (the p.x p.y products cancel).
    let cross = [qx * cy, -(qx * py), -(px * cy), -(qy * cx), qy * px, py * cx];
    // |e|² = q.x² - 2 q.x p.x + p.x² + (the same in y).
    let len2 = [qx * qx, -2.0 * (qx * px), px * px, qy * qy, -2.0 * (qy * py), py * py];
    let r2 = f64::from(r) * f64::from(r);
    let (c_hat, m_c) = cross.iter().fold((0.0, 0.0), |(s, m), &t| (s + t, m + t.abs()));
    let (e_hat, m_e) = len2.iter().fold((0.0, 0.0), |(s, m), &t| (s + t, m + t.abs()));
    let estimate = c_hat * c_hat - r2 * e_hat;
    let bound = 32.0 * (f64::EPSILON / 2.0) * (m_c * m_c + r2 * m_e);
    if estimate > bound || -estimate > bound {
        return estimate.signum();
    }
    let mut terms = [0.0; 84];
    for (i, &a) in cross.iter().enumerate() {
        for (j, &b) in cross.iter().enumerate() {
            let (hi, lo) = two_product(a, b);
            terms[2 * (6 * i + j)] = hi;
            terms[2 * (6 * i + j) + 1] = lo;
        }
    }
    for (i, &e) in len2.iter().enumerate() {
        let (hi, lo) = two_product(r2, e);
        terms[72 + 2 * i] = -hi;
        terms[73 + 2 * i] = -lo;
    }
    sum_sign(terms)
}

/// The same three tests from the differences `e = q - p`, `w = c - p` and `z = q - c` in
/// `f64`, each answered only when it clears its rounding: `Some(answer)` is the exact
/// answer, `None` sends the pair to the expansions above. A difference of two `f32` values
/// is within `u` of exact (`u = 2⁻⁵³`), so a dot product of two of them, `Σ xᵢ yᵢ`, is
/// within `γ₄ Σ|xᵢ yᵢ|` (two differences, a product, a sum) and a squared length minus `r²`
/// within `γ₅ (|w|² + r²)`; the tests ask for `8u` of those sums, which covers both and the
/// rounding of the sums themselves. The body test is the estimate of `body_sign` with its
/// `32u` bound (there from 6 exact terms, `γ₅`; here from 2 rounded products, `γ₄`).
#[inline(always)]
fn quick_circle_segment(p: Vec2, q: Vec2, c: Vec2, r: f32) -> Option<bool> {
    const U: f64 = f64::EPSILON / 2.0;
    let diff = |a: Vec2, b: Vec2| (f64::from(a.x) - f64::from(b.x), f64::from(a.y) - f64::from(b.y));
    let ((ex, ey), (wx, wy), (zx, zy)) = (diff(q, p), diff(c, p), diff(q, c));
    let rr = f64::from(r) * f64::from(r); // exact
    let sure = |x: f64, size: f64| x.abs() > 8.0 * U * size;
    let inside = |(x, y): (f64, f64)| {
        let g = x * x + y * y - rr;
        sure(g, x * x + y * y + rr).then_some(g <= 0.0)
    };
    if p == q {
        return None;
    }
    let start = wx * ex + wy * ey; // (c - p)·e: at most 0, nearest to p
    if !sure(start, (wx * ex).abs() + (wy * ey).abs()) {
        return None;
    }
    if start < 0.0 {
        return inside((wx, wy));
    }
    let end = zx * ex + zy * ey; // (q - c)·e: at most 0, nearest to q
    if !sure(end, (zx * ex).abs() + (zy * ey).abs()) {
        return None;
    }
    if end < 0.0 {
        return inside((zx, zy));
    }
    let (a, b) = (ex * wy, ey * wx);
    let (cross, len2) = (a - b, ex * ex + ey * ey);
    let estimate = cross * cross - rr * len2;
    let m_c = a.abs() + b.abs();
    let bound = 32.0 * U * (m_c * m_c + rr * len2);
    (estimate.abs() > bound).then_some(estimate <= 0.0)
}

/// The closed disc and the closed segment share a point; exact.
///
/// ```
/// use raybox::{Circle, Overlaps, Segment2};
/// use glam::Vec2;
///
/// let s = Segment2::new(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0));
/// assert!(Circle::new(Vec2::new(0.5, 1.0), 1.0).overlaps(&s)); // touching the body
/// assert!(s.overlaps(&Circle::new(Vec2::new(5.0, 4.0), 5.0))); // touching the end (2, 0)
/// assert!(!Circle::new(Vec2::new(5.0, 4.0), 4.999_999_5).overlaps(&s));
/// ```
impl Overlaps<Segment2> for Circle {
    #[inline]
    fn overlaps(&self, other: &Segment2) -> bool {
        let (p, q, c, r) = (other.start(), other.end(), self.center(), self.radius());
        quick_circle_segment(p, q, c, r).unwrap_or_else(|| exact_circle_segment(p, q, c, r))
    }
}

/// The three tests on exact expansions (see the module docs).
#[cold]
#[inline(never)]
fn exact_circle_segment(p: Vec2, q: Vec2, c: Vec2, r: f32) -> bool {
    if p == q || sum_sign(dot_terms(c, p, p, q)) <= 0.0 {
        return sum_sign(end_terms(c, p, r)) <= 0.0; // nearest to the start
    }
    if sum_sign(dot_terms(q, c, p, q)) <= 0.0 {
        return sum_sign(end_terms(c, q, r)) <= 0.0; // nearest to the end
    }
    body_sign(p, q, c, r) <= 0.0
}

reverse_overlaps!(Circle => Segment2);

#[cfg(test)]
mod tests_2d {
    use super::*;

    fn seg(a: (f32, f32), b: (f32, f32)) -> Segment2 {
        Segment2::new(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1))
    }

    fn both(c: Circle, s: Segment2) -> bool {
        let (cs, sc) = (c.overlaps(&s), s.overlaps(&c));
        assert_eq!(cs, sc, "{c:?} {s:?}");
        cs
    }

    fn next_up(x: f32) -> f32 {
        f32::from_bits(x.to_bits() + 1)
    }

    #[test]
    fn body_and_ends_touching_and_one_step_apart() {
        let s = seg((0.0, 0.0), (8.0, 6.0)); // direction (4, 3) / 5
        // Centre (1, 7): 5 from the line (cross((8, 6), (1, 7)) = 50, |e| = 10), over the body.
        assert!(both(Circle::new(Vec2::new(1.0, 7.0), 5.0), s));
        assert!(!both(Circle::new(Vec2::new(1.0, next_up(7.0)), 5.0), s));
        // Past the end (8, 6): the 3-4-5 offset (11, 10) touches it; the grown-line test
        // would also accept (12, 10), which is 5.66 from the end.
        assert!(both(Circle::new(Vec2::new(11.0, 10.0), 5.0), s));
        assert!(!both(Circle::new(Vec2::new(12.0, 10.0), 5.0), s));
        assert!(both(Circle::new(Vec2::new(-3.0, -4.0), 5.0), s)); // touching the start
        assert!(!both(Circle::new(Vec2::new(-3.0, next_up(-4.0)), 5.0), s)); // -4 - 2^-21
        // Over the middle, far from the line: not by the end tests.
        assert!(!both(Circle::new(Vec2::new(4.0, 3.0) + Vec2::new(-3.0, 4.0) * 2.0, 9.99), s));
    }

    #[test]
    fn zero_radius_zero_length_and_containment() {
        let s = seg((0.0, 0.0), (8.0, 6.0));
        assert!(both(Circle::new(Vec2::new(4.0, 3.0), 0.0), s)); // a point on the segment
        assert!(!both(Circle::new(Vec2::new(4.0, next_up(3.0)), 0.0), s));
        assert!(both(Circle::new(Vec2::new(4.0, 3.0), 100.0), s)); // segment inside the disc
        let point = seg((2.0, 2.0), (2.0, 2.0));
        assert!(both(Circle::new(Vec2::new(5.0, 6.0), 5.0), point));
        assert!(!both(Circle::new(Vec2::new(5.0, 6.0), 4.999_999_5), point));
    }

    #[test]
    fn exact_where_the_f64_estimate_is_not() {
        // Large coordinates and a touching centre: the estimate is within its error bound
        // of zero, and the exact sum decides. The centre is exactly r from the line.
        let (p, q) = (Vec2::new(1.0e7, 3.0), Vec2::new(1.0e7 + 8.0, 9.0));
        let s = Segment2::new(p, q);
        let on = Circle::new(Vec2::new(1.0e7 + 4.0 - 3.0, 6.0 + 4.0), 5.0);
        assert!(both(on, s));
        let off = Circle::new(Vec2::new(1.0e7 + 1.0, next_up(10.0)), 5.0);
        assert!(!both(off, s));
        assert_eq!(body_sign(p, q, on.center(), 5.0), 0.0);
    }
}

use glam::Vec3;

use crate::{Segment3, Sphere};

/// `|a - b|² - r²` as 10 exact terms (3D).
fn end_terms_3d(a: Vec3, b: Vec3, r: f32) -> [f64; 10] {
    let (a, b, r) = (a.as_dvec3(), b.as_dvec3(), f64::from(r));
    let t = |x: f64, y: f64| [x * x, -2.0 * (x * y), y * y];
    let [x, y, z] = [t(a.x, b.x), t(a.y, b.y), t(a.z, b.z)];
    [x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2], -(r * r)]
}

/// `(a - b)·(q - p)` as 12 exact terms (3D).
fn dot_terms_3d(a: Vec3, b: Vec3, p: Vec3, q: Vec3) -> [f64; 12] {
    let (a, b, p, q) = (a.as_dvec3(), b.as_dvec3(), p.as_dvec3(), q.as_dvec3());
    let t = |a: f64, b: f64, p: f64, q: f64| [a * q, -(a * p), -(b * q), b * p];
    let [x, y, z] = [t(a.x, b.x, p.x, q.x), t(a.y, b.y, p.y, q.y), t(a.z, b.z, p.z, q.z)];
    [x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3], z[0], z[1], z[2], z[3]]
}

/// The sign of `|(q - p) × (c - p)|² - r² |q - p|²`, exact: the 2D `body_sign` with three
/// components of the cross product instead of one (each 6 exact products, expanded as
/// `q × c - q × p - p × c`), the same estimate first with the same `32u` bound: the three
/// squares' errors add as the one's did, over the sum of their `M²`, and `|e|²` of 9 terms
/// is within `γ₈ M_E`, with two more roundings of the running sum, all under `16u`.
fn body_sign_3d(p: Vec3, q: Vec3, c: Vec3, r: f32) -> f64 {
    let (p, q, c) = (p.as_dvec3(), q.as_dvec3(), c.as_dvec3());
    // Component k of a × b, from the components i = k + 1 and j = k + 2.
    let comp = |k: usize| {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        [q[i] * c[j], -(q[j] * c[i]), -(q[i] * p[j]), q[j] * p[i], -(p[i] * c[j]), p[j] * c[i]]
    };
    let cross = [comp(0), comp(1), comp(2)];
    let len2 = [0, 1, 2].each(|k| [q[k] * q[k], -2.0 * (q[k] * p[k]), p[k] * p[k]]);
    let r2 = f64::from(r) * f64::from(r);
    let mut estimate = 0.0;
    let mut size = 0.0;
    for terms in &cross {
        let (c_hat, m_c) = terms.iter().fold((0.0, 0.0), |(s, m), &t| (s + t, m + t.abs()));
        estimate += c_hat * c_hat;
        size += m_c * m_c;
    }
    let (e_hat, m_e) = len2.iter().flatten().fold((0.0, 0.0), |(s, m), &t: &f64| (s + t, m + t.abs()));
    estimate -= r2 * e_hat;
    let bound = 32.0 * (f64::EPSILON / 2.0) * (size + r2 * m_e);
    if estimate > bound || -estimate > bound {
        return estimate.signum();
    }
    let mut terms = [0.0; 234];
    let mut n = 0;
    for comp in &cross {
        for &a in comp {
            for &b in comp {
                let (hi, lo) = two_product(a, b);
                terms[n] = hi;
                terms[n + 1] = lo;
                n += 2;
            }
        }
    }
    for &e in len2.iter().flatten() {
        let (hi, lo) = two_product(r2, e);
        terms[n] = -hi;
        terms[n + 1] = -lo;
        n += 2;
    }
    sum_sign(terms)
}

/// The three tests of the 3D ball against the segment in `f64` from the differences
/// `d = q - p` and `m = c - p`, each answered only when it clears its rounding (as
/// `quick_circle_segment`, with cheaper bounds: `Σ|mᵢ dᵢ| <= (|m|² + |d|²) / 2`, and the
/// body's `Σ (|dᵢ mⱼ| + |dⱼ mᵢ|)² <= 2 |m|² |d|²`): a difference of two `f32` values is
/// within `u` of exact, so `m · d` is within `γ₅ Σ|mᵢ dᵢ|`, `d · d - m · d` (that is
/// `(q - c) · d`) within `γ₆ (d · d + Σ|mᵢ dᵢ|)` and a squared length minus `r²` within
/// `γ₆ (|v|² + r²)`, all under the `8u` asked; the body test is `body_sign_3d`'s estimate
/// and `32u` bound (there from 6 exact terms per component, here from 2 rounded
/// products). A zero-length segment (`m · d = 0`) goes to the expansions.
#[inline(always)]
fn quick_ball_segment(p: &Vec3, q: &Vec3, c: &Vec3, r: f32) -> Option<bool> {
    const U: f64 = f64::EPSILON / 2.0;
    let (pd, cd) = (p.as_dvec3(), c.as_dvec3());
    let (d, m) = (q.as_dvec3() - pd, cd - pd);
    let rr = f64::from(r) * f64::from(r); // exact
    let inside = |l: f64| {
        let g = l - rr;
        (g.abs() > 8.0 * U * (l + rr)).then_some(g <= 0.0)
    };
    let (mm, dd, md) = (m.length_squared(), d.length_squared(), m.dot(d));
    let md_size = 0.5 * (mm + dd);
    if md.abs() <= 8.0 * U * md_size {
        return None;
    }
    if md < 0.0 {
        return inside(mm); // nearest to p
    }
    let end = dd - md;
    if end.abs() <= 8.0 * U * (dd + md_size) {
        return None;
    }
    if end < 0.0 {
        return inside((cd - q.as_dvec3()).length_squared()); // nearest to q
    }
    let estimate = m.cross(d).length_squared() - rr * dd;
    let bound = 32.0 * U * (2.0 * mm + rr) * dd;
    (estimate.abs() > bound).then_some(estimate <= 0.0)
}

/// The three tests on exact expansions (3D).
#[cold]
#[inline(never)]
fn exact_ball_segment(p: Vec3, q: Vec3, c: Vec3, r: f32) -> bool {
    if p == q || sum_sign(dot_terms_3d(c, p, p, q)) <= 0.0 {
        return sum_sign(end_terms_3d(c, p, r)) <= 0.0; // nearest to the start
    }
    if sum_sign(dot_terms_3d(q, c, p, q)) <= 0.0 {
        return sum_sign(end_terms_3d(c, q, r)) <= 0.0; // nearest to the end
    }
    body_sign_3d(p, q, c, r) <= 0.0
}

/// Whether the closed ball `(c, r)` and the closed segment `p q` share a point; exact.
///
/// **The points by reference**, read where the caller keeps them. A `Vec3` (12 bytes)
/// passed by value goes by pointer to a copy that the caller writes as 8 + 4 bytes, and the
/// filter's first step reads `(y, z)` as one 8-byte load across those two stores, which
/// the CPU cannot forward from its store buffer: the load waits for both stores to retire.
/// In cargo's default release build (the copy is not elided across codegen units) that
/// made `Sphere`–`Segment3` 15 ns against 5; inlined (with `#[inline]`), the workspace's
/// build made the same copy and took 23 ns.
pub(crate) fn ball_segment_3d(p: &Vec3, q: &Vec3, c: &Vec3, r: f32) -> bool {
    quick_ball_segment(p, q, c, r).unwrap_or_else(|| exact_ball_segment(*p, *q, *c, r))
}

impl Overlaps<Segment3> for Sphere {
    /// Closed: a segment touching the sphere, or ending on it, overlaps. Exact, as the 2D
    /// test (Ericson, *Real-Time Collision Detection*, 5.1.2: the nearest point of the
    /// segment by the region the centre projects to, `|m × d|² <= r² |d|²` over the body):
    /// an `f64` estimate with its error bound, then exact expansions. The plain `f64` test
    /// (the estimate alone) was right on small lattices but read touching centres as apart
    /// or one `f32` step away as touching once the products outgrew `f64` (an audit,
    /// `tests/audit_3d_curved.rs`).
    ///
    /// ```
    /// use raybox::{Overlaps, Segment3, Sphere};
    /// use glam::Vec3;
    ///
    /// let ball = Sphere::new(Vec3::ZERO, 5.0);
    /// // A tangent line segment at distance 5, and a point on the sphere.
    /// assert!(ball.overlaps(&Segment3::new(Vec3::new(-9.0, 5.0, 0.0), Vec3::new(9.0, 5.0, 0.0))));
    /// assert!(Segment3::new(Vec3::new(3.0, 4.0, 0.0), Vec3::new(3.0, 4.0, 0.0)).overlaps(&ball));
    /// // Past the end: the nearest point is the end (6, 8, 0), 10 away.
    /// assert!(!ball.overlaps(&Segment3::new(Vec3::new(6.0, 8.0, 0.0), Vec3::new(12.0, 16.0, 0.0))));
    /// ```
    #[inline]
    fn overlaps(&self, other: &Segment3) -> bool {
        let (p, q) = other.ends_in_place();
        ball_segment_3d(p, q, self.center_in_place(), self.radius())
    }
}

reverse_overlaps!(Sphere => Segment3);

#[cfg(test)]
mod tests_3d {
    use super::*;
    use glam::Vec3;

    #[test]
    fn beside_the_middle_past_the_ends_and_inside() {
        let ball = Sphere::new(Vec3::new(1.0, 2.0, 2.0), 3.0); // 3 from the origin
        let s = |a: Vec3, b: Vec3| Segment3::new(a, b);
        // Tangent in the middle: the x axis passes at distance sqrt(8) < 3; the line
        // x = t, y = 0, z = -1 passes at distance sqrt(4 + 9) > 3; y = 2, z = -1 at exactly 3.
        assert!(ball.overlaps(&s(Vec3::new(-9.0, 0.0, 0.0), Vec3::new(9.0, 0.0, 0.0))));
        assert!(!ball.overlaps(&s(Vec3::new(-9.0, 0.0, -1.0), Vec3::new(9.0, 0.0, -1.0))));
        assert!(ball.overlaps(&s(Vec3::new(-9.0, 2.0, -1.0), Vec3::new(9.0, 2.0, -1.0))));
        assert!(!ball.overlaps(&s(Vec3::new(-9.0, 2.0, -1.001), Vec3::new(9.0, 2.0, -1.001))));
        // Ending exactly on the sphere (at the origin), and a hair short of it.
        assert!(ball.overlaps(&s(Vec3::new(-4.0, -8.0, -8.0), Vec3::ZERO)));
        assert!(!ball.overlaps(&s(Vec3::new(-4.0, -8.0, -8.0), Vec3::new(-1e-3, -2e-3, -2e-3))));
        // Wholly inside; a point inside, on, and outside.
        assert!(ball.overlaps(&s(Vec3::new(1.0, 2.0, 1.0), Vec3::new(1.0, 2.0, 3.0))));
        for (point, inside) in [(Vec3::new(1.0, 2.0, 2.0), true), (Vec3::new(4.0, 2.0, 2.0), true)] {
            assert_eq!(ball.overlaps(&s(point, point)), inside);
        }
        let out = Vec3::new(4.0, 2.0, 2.0 + 1e-5);
        assert!(!s(out, out).overlaps(&ball));
    }

    #[test]
    fn the_quick_tests_give_the_exact_answer() {
        // Circles around random segments at scales from 1e-20 to 1e20, with the radius set to
        // the f64 distance and one f32 step either side, and centres on the end regions'
        // borders: where the quick tests answer, they agree with the expansions.
        let mut next = crate::test_util::signed_units(0x5e65_0d11);
        let mut answered = 0;
        for scale in [1e-20f32, 1e-3, 1.0, 1e3, 1e20] {
            for i in 0..20_000 {
                let mut v = || Vec2::new(next(), next()) * scale;
                let (p, q) = (v(), v());
                let c = match i % 4 {
                    0 => p + Vec2::new(q.y - p.y, p.x - q.x) * next(), // on the border at p
                    1 => v() + (q - p) * 8.0 * next(),
                    _ => v() * 2.0,
                };
                let s = Segment2::new(p, q);
                let dist = crate::ClosestPoint::distance_to_point(&s, c);
                for r in [dist, dist.next_up(), dist.next_down().max(0.0), next().abs() * scale] {
                    let exact = exact_circle_segment(p, q, c, r);
                    if let Some(quick) = quick_circle_segment(p, q, c, r) {
                        answered += 1;
                        assert_eq!(quick, exact, "{p} {q} {c} {r}");
                    }
                    assert_eq!(Circle::new(c, r).overlaps(&s), exact);
                }
            }
        }
        assert!(answered > 200_000, "{answered}");
        // Exact touching on slanted segments: direction (3, 4) k, the centre (-4, 3) m off the
        // line over an inside point, at distance exactly 5 m (integers below 2^22, exact in
        // f32, and the products too many bits for f64 to keep): touching overlaps, one f32
        // step less does not.
        let mut int = |bits: u32| ((next() * 0.5 + 0.5) * (1u32 << bits) as f32).floor().max(1.0);
        for _ in 0..20_000 {
            let (k, m) = (int(20), int(20));
            let j = (int(20) % k).max(1.0);
            let p = Vec2::new(int(21) - 1048576.0, int(21) - 1048576.0);
            let q = p + Vec2::new(3.0, 4.0) * k;
            let c = p + Vec2::new(3.0, 4.0) * j + Vec2::new(-4.0, 3.0) * m;
            let r = 5.0 * m;
            for (r, expected) in [(r, true), (r.next_down(), false)] {
                let exact = exact_circle_segment(p, q, c, r);
                assert_eq!(exact, expected, "{p} {q} {c} {r}");
                if let Some(quick) = quick_circle_segment(p, q, c, r) {
                    assert_eq!(quick, exact, "{p} {q} {c} {r}");
                }
            }
        }
    }
}
