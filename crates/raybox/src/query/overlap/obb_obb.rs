//! Oriented box against oriented box: the separating-axis test (Gottschalk et al. 1996;
//! Ericson, *Real-Time Collision Detection*, 4.4.1), 2D and 3D.
//!
//! Two convex shapes are disjoint exactly when some axis `L` separates their
//! projections: `|T·L| > r_a + r_b` with `T` the vector between the centres and
//! `r = Σ hₖ |axisₖ · L|` a box's projected radius. For boxes the candidate axes are the
//! face normals (2 + 2 in 2D; 3 + 3 in 3D) and, in 3D, the 9 cross products of an edge of
//! each box. 2D has no edge–edge axes (see `obb2_obb2_separated`).
//!
//! **Robustness.** Ericson's optimised form rewrites every projection through the
//! relative rotation `R = Aᵀ B` and orthonormality identities; with a rounded `R`, the
//! near-zero entries of a near-parallel edge pair are independent noise and a deeply
//! overlapping pair can be called separated (RTCD 4.4.2 adds an epsilon, which biases
//! the test instead). Here every projection is computed **directly** on the axis
//! `L = aᵢ × bⱼ`, in `f64`: whatever direction `L` is, even a tiny one made of rounding
//! noise, the test on it is a valid separating-axis test of the boxes as stored, and its
//! terms all scale with `|L|`. Only an exactly zero cross product (parallel edges, for
//! which the face axes suffice) is skipped. No epsilon.

use crate::arrays::Each;
use glam::{DVec2, DVec3, Mat2, Mat3A, Vec2, Vec3A, Vec3Swizzles};

use crate::{Obb2, Obb3, Overlaps};

/// A box for the separating-axis test: its axes and half extents in `f64`, its centre.
#[derive(Clone, Copy)]
pub(crate) struct SatBox3 {
    pub axes: [DVec3; 3],
    pub half: DVec3,
    pub center: DVec3,
}

impl SatBox3 {
    #[inline(always)]
    pub(crate) fn of_obb(o: &Obb3) -> Self {
        Self {
            axes: o.axes().each(|v| v.as_dvec3()),
            half: o.half_extents().as_dvec3(),
            center: o.center().as_dvec3(),
        }
    }

    /// `Σ h_k |axis_k · L|`: the radius of the box's projection on `L` (not normalised).
    /// The terms are added in the order `k = 0, 1, 2`, as `Iterator::sum` did before.
    #[inline(always)]
    fn radius(&self, l: DVec3) -> f64 {
        let [u, v, w] = self.axes;
        self.half.x * u.dot(l).abs() + self.half.y * v.dot(l).abs() + self.half.z * w.dot(l).abs()
    }
}

/// `|T·L| > Σ ha_k |a_k·L| + Σ hb_k |b_k·L|`: does axis `L` separate the boxes?
#[inline(always)]
fn separates3(l: DVec3, t: DVec3, a: &SatBox3, b: &SatBox3) -> bool {
    t.dot(l).abs() > a.radius(l) + b.radius(l)
}

/// The 2D test: a filtered `f32` pass (`sat2_filter_f32`), then, only when it cannot
/// decide, the direct-projection `f64` test on the two face axes of each box.
#[inline]
pub(crate) fn obb2_obb2_separated(a: &Obb2, b: &Obb2) -> bool {
    let (rot_a, rot_b) = (a.rotation(), b.rotation());
    let t = b.center() - a.center();
    let r = rot_a.transpose() * rot_b;
    let (ta, tb) = (rot_a.transpose() * t, rot_b.transpose() * t);
    match sat2_filter_f32(r, t, ta, tb, a.half_extents(), b.half_extents()) {
        Some(separated) => separated,
        None => obb2_obb2_separated_f64(a, b),
    }
}

/// How far an `Obb2` axis may be from an orthonormal frame: its x axis is a unit vector
/// computed in `f64` and rounded to `f32` (within `√2 · 2⁻²⁴` of the exact unit vector),
/// and its y axis is the exact perpendicular of the x axis.
const ROTATION_SLACK_2D: f32 = 1.0 / (1u32 << 22) as f32;

/// The 2D counterpart of `sat3_filter_f32` (the four face axes only; 2D has no edge–edge
/// axes), with the same bound `E = (10ε + 32u) S` and the same argument: each row has
/// fewer terms than a 3D edge row, so its error is below the 3D one, and `ε` is
/// `ROTATION_SLACK_2D`. `r` has columns `Aᵀ b_j`; `ha`, `hb` the half extents.
#[inline(always)]
pub(crate) fn sat2_filter_f32(
    r: Mat2,
    t: Vec2,
    t_in_a: Vec2,
    t_in_b: Vec2,
    ha: Vec2,
    hb: Vec2,
) -> Option<bool> {
    sat2_filter_f32_slack(r, t, t_in_a, t_in_b, ha, hb, 0.0)
}

/// [`sat2_filter_f32`] with its bound widened by `slack` (see [`sat3_filter_f32_slack`]).
#[inline(always)]
pub(crate) fn sat2_filter_f32_slack(
    r: Mat2,
    t: Vec2,
    t_in_a: Vec2,
    t_in_b: Vec2,
    ha: Vec2,
    hb: Vec2,
    slack: f32,
) -> Option<bool> {
    let scale = t.abs().element_sum() + ha.element_sum() + hb.element_sum();
    if !((1.0 / (1u128 << 100) as f32..=(1u128 << 100) as f32).contains(&scale)) {
        return None;
    }
    let bound = scale * (10.0 * ROTATION_SLACK_2D + 1.0 / (1u32 << 19) as f32) + slack;
    let abs_r = Mat2::from_cols(r.x_axis.abs(), r.y_axis.abs());
    let face_a = t_in_a.abs() - (ha + abs_r * hb);
    let face_b = t_in_b.abs() - (hb + abs_r.transpose() * ha);
    let max = face_a.max(face_b).max_element();
    // One branch, on "decided" (nearly always taken), and the answer as a flag: a branch
    // on the answer itself mispredicts on half of random inputs (NaN: not decided).
    if max.abs() > bound { Some(max > bound) } else { None }
}

/// The exact 2D test: the two face axes of each box, projections in `f64`.
#[inline]
pub(crate) fn obb2_obb2_separated_f64(a: &Obb2, b: &Obb2) -> bool {
    let axes_a = a.axes().each(|v| v.as_dvec2());
    let axes_b = b.axes().each(|v| v.as_dvec2());
    let (ha, hb) = (a.half_extents().as_dvec2(), b.half_extents().as_dvec2());
    sat_boxes2_separated((a.center().as_dvec2(), axes_a, ha), (b.center().as_dvec2(), axes_b, hb))
}

/// The 2D separating-axis test on two boxes already in `f64` (centre, unit axes, half
/// extents): the two face axes of each.
#[inline]
pub(crate) fn sat_boxes2_separated(
    (ca, axes_a, ha): (DVec2, [DVec2; 2], DVec2),
    (cb, axes_b, hb): (DVec2, [DVec2; 2], DVec2),
) -> bool {
    let t = cb - ca;
    let radius = |[u, v]: [DVec2; 2], h: DVec2, l: DVec2| h.x * u.dot(l).abs() + h.y * v.dot(l).abs();
    let separates = |l: DVec2| t.dot(l).abs() > radius(axes_a, ha, l) + radius(axes_b, hb, l);
    separates(axes_a[0]) || separates(axes_a[1]) || separates(axes_b[0]) || separates(axes_b[1])
}

/// The 3D test: a filtered `f32` pass on `R = AᵀB` (see `sat3_filter_f32`), and, only when
/// that pass cannot decide, the direct-projection `f64` test of `sat_boxes3_separated`.
#[inline]
pub(crate) fn obb3_obb3_separated(a: &Obb3, b: &Obb3) -> bool {
    let (rot_a, rot_b) = (Mat3A::from(a.rotation()), Mat3A::from(b.rotation()));
    let t = Vec3A::from(b.center()) - Vec3A::from(a.center());
    // R[i][j] = a_i · b_j (column j of R is b_j in A's frame); T in A's and in B's frame.
    let r = rot_a.transpose() * rot_b;
    let t_in_a = rot_a.transpose() * t;
    let t_in_b = rot_b.transpose() * t;
    let (ha, hb) = (a.half_extents().into(), b.half_extents().into());
    match sat3_filter_f32(r, t, t_in_a, t_in_b, ha, hb) {
        Some(separated) => separated,
        None => sat_boxes3_separated(&SatBox3::of_obb(a), &SatBox3::of_obb(b)),
    }
}

/// A bound on how far a stored box axis may be from an orthonormal frame: each column of
/// an `Obb3` rotation is within `ROTATION_SLACK` (Euclidean) of the matching column of
/// some orthogonal matrix `Q`.
///
/// `Obb3::try_new` rounds an exact rotation to `f32` (each column within `√3 · 2⁻²⁴` of
/// it). `Obb3::try_from_matrix` accepts `|RᵀR - I| <= 1e-4` per entry (computed in `f32`,
/// so at most `1.01e-4` exactly): then `|RᵀR - I|₂ <= 3.03e-4`, and with the polar
/// decomposition `R = Q P`, `P = (RᵀR)^½`, every column moves by at most
/// `|R - Q|₂ = |P - I|₂ <= max |√(1 + λ) - 1| <= |λ| <= 3.03e-4`.
const ROTATION_SLACK: f32 = 4.0e-4;

/// Ericson, *Real-Time Collision Detection*, 4.4.1 (after Gottschalk's OBBTree), in `f32`,
/// as a **filter**: `Some(true)` when some axis certainly separates the boxes, `Some(false)`
/// when no axis can, `None` when an axis is too close to its boundary to tell (the caller
/// then runs the exact `f64` test).
///
/// `r[j][i]` (column `j`, row `i`) is `a_i · b_j`, `t_in_a[i] = a_i · T`,
/// `t_in_b[j] = b_j · T`, `T` the centre of B minus that of A. Per axis `L` the value
/// `s(L) = |T·L| - r_A(L) - r_B(L)` is positive exactly when `L` separates.
///
/// **Why the answer is the `f64` test's.** Write `u = 2⁻²⁴`, `ε = ROTATION_SLACK`, and
/// `S = |T|₁ + Σ ha + Σ hb`. The rows below use the orthonormal identities
/// (`a_k · (a_i × b_j) = ±R[m][j]`, …), which hold for the orthogonal frames `A*`, `B*` within
/// `ε` of the stored ones; for those frames, in exact arithmetic, they give exactly the
/// direct projections `s*(L*)` on `L* ∈ {a*_i, b*_j, a*_i × b*_j}`.
/// - Rounding: `|t_i|, |R_ij| <= 1.001 |T|₁, 1.001`; a computed `t_i` is within
///   `(ε + 4.1u)|T|₁` of `a*_i · T` (the subtraction `T`, then a 3-term dot), a computed
///   `R_ij` within `2.01ε + 3.1u` of `a*_i · b*_j`. The edge-axis row
///   `|t_{i2} R_{i1 j} - t_{i1} R_{i2 j}| - (four h·|R| terms)` is then within
///   `(6.1ε + 18.7u)|T|₁ + (2.01ε + 7.2u)(Σha + Σhb) + 2.1u S <= (6.1ε + 28u) S` of `s*(L*)`;
///   the face rows, with fewer terms, within less.
/// - The stored boxes: `L = a_i × b_j` (or `a_i`, `b_j`) is within `2.01ε` of `L*`, and each
///   stored `a_k` within `ε` of `a*_k`, so `s(L)` (the direct projection the `f64` test
///   computes on the stored axes) is within `2.01ε|T|₁ + 3.02ε(Σha + Σhb) <= 3.02ε S` of `s*(L*)`.
/// - The `f64` test's own rounding (relative `2⁻⁵⁰` or so) and gradual underflow (at most
///   `2⁻¹⁴⁵` in all, below `2⁻⁴⁵ S` because `S >= 2⁻¹⁰⁰` is required) are far below `2u S`.
///
/// So `|computed row - s(L)|` in the `f64` test is below `E = (10ε + 32u) S`: an axis with a
/// computed value above `E` separates there too, and when every value is below `-E` no
/// axis of the `f64` test separates (an exactly zero cross product it skips only makes that
/// more so). `S` outside `[2⁻¹⁰⁰, 2¹⁰⁰]` (huge, tiny, or NaN from overflow) gives `None`.
#[inline(always)]
pub(crate) fn sat3_filter_f32(
    r: Mat3A,
    t: Vec3A,
    t_in_a: Vec3A,
    t_in_b: Vec3A,
    ha: Vec3A,
    hb: Vec3A,
) -> Option<bool> {
    sat3_filter_f32_slack(r, t, t_in_a, t_in_b, ha, hb, 0.0)
}

/// [`sat3_filter_f32`] with its bound widened by `slack`: for a caller whose `f32` inputs
/// describe a box only to within some error, `slack` bounding the change that error makes
/// to any row (each row's axis has length at most about 1), so that the answer is the
/// exact test's on the box as it is (the AABB–OBB test: an AABB's `f32` centre and half
/// extents are rounded, see `aabb_obb.rs`).
#[inline(always)]
pub(crate) fn sat3_filter_f32_slack(
    r: Mat3A,
    t: Vec3A,
    t_in_a: Vec3A,
    t_in_b: Vec3A,
    ha: Vec3A,
    hb: Vec3A,
    slack: f32,
) -> Option<bool> {
    // S with one horizontal sum: lane-wise |T_k| + ha_k + hb_k, then the three lanes. Any
    // order of these additions gives S within 5u of its exact value, which the slack of E
    // (0.88ε + 2u over the sum of the terms below) absorbs many times over.
    let scale = (t.abs() + ha + hb).element_sum();
    if !((1.0 / (1u128 << 100) as f32..=(1u128 << 100) as f32).contains(&scale)) {
        return None;
    }
    let bound = scale * (10.0 * ROTATION_SLACK + 1.0 / (1u32 << 19) as f32) + slack;
    let abs_r = Mat3A::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs());
    // A's face axes a_i: |t_i| - (ha_i + Σ_j hb_j |R_ij|).
    let face_a = t_in_a.abs() - (ha + abs_r * hb);
    // B's face axes b_j: |t_b_j| - (hb_j + Σ_i ha_i |R_ij|).
    let face_b = t_in_b.abs() - (hb + abs_r.transpose() * ha);
    // Most separated pairs are separated by a face axis: answer before the edge rows.
    if face_a.max(face_b).max_element() > bound {
        return Some(true);
    }
    // Edge axes a_i × b_j, one column j at a time, lanes i:
    // |t_{i2} R_{i1 j} - t_{i1} R_{i2 j}| - (ha_{i1}|R_{i2 j}| + ha_{i2}|R_{i1 j}|
    //                                       + hb_{j1}|R_{i j2}| + hb_{j2}|R_{i j1}|),
    // with i1 = i + 1, i2 = i + 2 (mod 3): the lanes `yzx` and `zxy`.
    let (ta1, ta2) = (t_in_a.yzx(), t_in_a.zxy());
    let (ha1, ha2) = (ha.yzx(), ha.zxy());
    let edge = |c: Vec3A, c_abs: Vec3A, hb1: f32, c2_abs: Vec3A, hb2: f32, c1_abs: Vec3A| {
        (ta2 * c.yzx() - ta1 * c.zxy()).abs()
            - (ha1 * c_abs.zxy() + ha2 * c_abs.yzx() + hb1 * c2_abs + hb2 * c1_abs)
    };
    let [c0, c1, c2] = [r.x_axis, r.y_axis, r.z_axis];
    let [k0, k1, k2] = [abs_r.x_axis, abs_r.y_axis, abs_r.z_axis];
    let edge0 = edge(c0, k0, hb.y, k2, hb.z, k1);
    let edge1 = edge(c1, k1, hb.z, k0, hb.x, k2);
    let edge2 = edge(c2, k2, hb.x, k1, hb.y, k0);
    let most = face_a.max(face_b).max(edge0.max(edge1).max(edge2));
    let max = most.max_element();
    if max > bound {
        Some(true)
    } else if max < -bound {
        Some(false)
    } else {
        None
    }
}

/// The separating-axis test on two boxes already in `f64` (the AABB–OBB test builds an
/// identity-axes box without going through `Obb3::try_new`).
#[inline(always)]
pub(crate) fn sat_boxes3_separated(a: &SatBox3, b: &SatBox3) -> bool {
    let t = b.center - a.center;
    for l in a.axes.into_iter().chain(b.axes) {
        if separates3(l, t, a, b) {
            return true;
        }
    }
    for u in a.axes {
        for v in b.axes {
            let l = u.cross(v);
            if l != DVec3::ZERO && separates3(l, t, a, b) {
                return true;
            }
        }
    }
    false
}

impl Overlaps<Obb2> for Obb2 {
    #[inline]
    fn overlaps(&self, other: &Obb2) -> bool {
        !obb2_obb2_separated(self, other)
    }
}

impl Overlaps<Obb3> for Obb3 {
    #[inline]
    fn overlaps(&self, other: &Obb3) -> bool {
        !obb3_obb3_separated(self, other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Mat3, Quat, Vec2, Vec3};

    #[test]
    fn rotated_rects_touching_corner_to_edge() {
        // A 2x2 square, and a 2x2 diamond to its right whose left corner is at
        // x = cx - sqrt 2: a hair apart, then a hair overlapping.
        let square = Obb2::new(Vec2::ZERO, Vec2::ONE, 0.0);
        let diamond_at = |cx: f32| Obb2::try_from_rotation(Vec2::new(cx, 0.3), Vec2::ONE, Vec2::ONE).unwrap();
        let touch = 1.0 + std::f32::consts::SQRT_2;
        assert!(!square.overlaps(&diamond_at(touch + 1e-3)));
        assert!(square.overlaps(&diamond_at(touch - 1e-3)));
        assert!(diamond_at(touch - 1e-3).overlaps(&square));
    }

    #[test]
    fn one_box_containing_another() {
        let big = Obb3::new(Vec3::ZERO, Vec3::splat(10.0), Quat::from_rotation_z(0.3));
        let small = Obb3::new(Vec3::new(1.0, 2.0, 3.0), Vec3::splat(0.5), Quat::from_rotation_x(1.1));
        assert!(big.overlaps(&small) && small.overlaps(&big));
    }

    /// The face-axes-only test, to show what the edge–edge axes add.
    fn face_axes_separate(a: &Obb3, b: &Obb3) -> bool {
        let radius = |o: &Obb3, l: Vec3| -> f32 {
            o.axes().iter().zip(o.half_extents().to_array()).map(|(u, h)| h * u.dot(l).abs()).sum()
        };
        a.axes()
            .into_iter()
            .chain(b.axes())
            .any(|l| (b.center() - a.center()).dot(l).abs() > radius(a, l) + radius(b, l))
    }

    #[test]
    fn separated_only_by_an_edge_edge_axis() {
        // A cube turned 45 degrees about z has a vertical edge at x = sqrt(2)/2; a cube
        // turned 45 degrees about y, to its right, has an edge along y at x = cx - sqrt(2)/2.
        // Only the axis z × y = -x separates them; every face axis overlaps.
        use std::f32::consts::{FRAC_PI_4, SQRT_2};
        let a = Obb3::new(Vec3::ZERO, Vec3::splat(0.5), Quat::from_rotation_z(FRAC_PI_4));
        let b_at =
            |cx: f32| Obb3::new(Vec3::new(cx, 0.0, 0.0), Vec3::splat(0.5), Quat::from_rotation_y(FRAC_PI_4));
        let apart = b_at(SQRT_2 + 0.01);
        assert!(!face_axes_separate(&a, &apart), "the face axes alone cannot see the gap");
        assert!(!a.overlaps(&apart) && !apart.overlaps(&a));
        assert!(a.overlaps(&b_at(SQRT_2 - 0.01)));
    }

    #[test]
    fn parallel_edges_do_not_break_the_test() {
        // Same rotation: every cross product of a pair of equal axes is exactly zero.
        let q = Quat::from_rotation_y(0.4);
        let a = Obb3::new(Vec3::ZERO, Vec3::ONE, q);
        let b = Obb3::new(Vec3::new(0.5, 0.5, 0.5), Vec3::ONE, q);
        assert!(a.overlaps(&b));
        let c = Obb3::new(a.point_to_world(Vec3::new(2.5, 0.0, 0.0)), Vec3::ONE, q);
        assert!(!a.overlaps(&c));
    }

    /// A small xorshift generator for the filter tests: uniform in `[-1, 1)`.
    fn uniform(state: &mut u32) -> f32 {
        *state ^= *state << 13;
        *state ^= *state >> 17;
        *state ^= *state << 5;
        (*state >> 8) as f32 / (1u32 << 23) as f32 - 1.0
    }

    #[test]
    fn the_f32_filter_gives_the_f64_answer() {
        // Random pairs, pairs pushed to within a hair of touching along a random direction
        // (by bisection on the f64 test), and matrices as far from orthonormal as
        // `try_from_matrix` accepts: whenever the filter answers, it is the f64 test's answer.
        let mut state = 0x1234_5678_u32;
        let (mut decided, mut total) = (0, 0);
        for scale in [1.0e-20_f32, 1.0e-3, 1.0, 1.0e3, 1.0e20] {
            for k in 0..3000 {
                let mut r = || uniform(&mut state);
                let q = |r: &mut dyn FnMut() -> f32| Quat::from_xyzw(r(), r(), r(), r() + 0.1 * r().signum());
                let mut boxes = [0; 2].each(|_| {
                    let c = Vec3::new(r(), r(), r()) * scale;
                    let h = Vec3::new(r().abs(), r().abs(), r().abs()) * scale;
                    let mut m = Mat3::from_quat(q(&mut r).normalize());
                    if k % 3 == 0 {
                        // Skewed by up to 3e-5 per entry: RᵀR - I stays within 1e-4.
                        m += Mat3::from_cols_array(&[0.0; 9].each(|_| 3.0e-5 * r()));
                    }
                    Obb3::try_from_matrix(c, h, m).ok()
                });
                let (Some(a), Some(b)) = (boxes[0].take(), boxes[1].take()) else { continue };
                let exact =
                    |a: &Obb3, b: &Obb3| sat_boxes3_separated(&SatBox3::of_obb(a), &SatBox3::of_obb(b));
                // Move b along a random direction to the touching distance, then a hair off.
                let dir = Vec3::new(r(), r(), r());
                let at =
                    |s: f32| Obb3::try_from_matrix(b.center() + dir * s, b.half_extents(), b.rotation()).ok();
                let (mut lo, mut hi) = (-8.0 * scale, 8.0 * scale);
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    match at(mid) {
                        Some(m) if exact(&a, &m) == exact(&a, &at(lo).unwrap()) => lo = mid,
                        _ => hi = mid,
                    }
                }
                for b in [Some(b), at(lo), at(hi), at(lo * (1.0 - 1.0e-3)), at(hi * (1.0 + 1.0e-3))]
                    .into_iter()
                    .flatten()
                {
                    total += 1;
                    let r = Mat3A::from(a.rotation()).transpose() * Mat3A::from(b.rotation());
                    let t = Vec3A::from(b.center()) - Vec3A::from(a.center());
                    let (ta, tb) = (
                        Mat3A::from(a.rotation()).transpose() * t,
                        Mat3A::from(b.rotation()).transpose() * t,
                    );
                    let quick =
                        sat3_filter_f32(r, t, ta, tb, a.half_extents().into(), b.half_extents().into());
                    if let Some(separated) = quick {
                        decided += 1;
                        assert_eq!(separated, exact(&a, &b), "{a:?} {b:?}");
                    }
                    assert_eq!(obb3_obb3_separated(&a, &b), exact(&a, &b), "{a:?} {b:?}");
                }
            }
        }
        // The filter must also be useful: it decides most of these (many are near-touching).
        assert!(decided * 2 > total, "decided {decided} of {total}");
    }

    #[test]
    fn the_2d_f32_filter_gives_the_f64_answer() {
        // Random rectangles slid to a hair from touching (bisection on the f64 test).
        let mut state = 0x4242_4242_u32;
        let mut decided = 0;
        for scale in [1.0e-20_f32, 1.0, 1.0e20] {
            for _ in 0..5000 {
                let mut r = || uniform(&mut state);
                let a = Obb2::new(
                    Vec2::new(r(), r()) * scale,
                    Vec2::new(r().abs(), r().abs()) * scale,
                    3.0 * r(),
                );
                let (h, angle, dir) =
                    (Vec2::new(r().abs(), r().abs()) * scale, 3.0 * r(), Vec2::new(r(), r()));
                let at = |s: f32| Obb2::new(a.center() + dir * s, h, angle);
                let (mut lo, mut hi) = (0.0, 8.0 * scale);
                if !obb2_obb2_separated_f64(&a, &at(hi)) {
                    continue;
                }
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    if obb2_obb2_separated_f64(&a, &at(mid)) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                for b in [at(lo), at(hi), at(0.5 * lo), at(2.0 * hi)] {
                    let r = a.rotation().transpose() * b.rotation();
                    let t = b.center() - a.center();
                    let (ta, tb) = (a.rotation().transpose() * t, b.rotation().transpose() * t);
                    if let Some(sep) = sat2_filter_f32(r, t, ta, tb, a.half_extents(), b.half_extents()) {
                        decided += 1;
                        assert_eq!(sep, obb2_obb2_separated_f64(&a, &b), "{a:?} {b:?}");
                    }
                    assert_eq!(obb2_obb2_separated(&a, &b), obb2_obb2_separated_f64(&a, &b));
                }
            }
        }
        assert!(decided > 5000, "{decided}");
    }
}
