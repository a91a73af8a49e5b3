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

use glam::{DVec2, DVec3};

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
            axes: o.axes().map(|v| v.as_dvec3()),
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

/// The 2D test: the two face axes of each box.
pub(crate) fn obb2_obb2_separated(a: &Obb2, b: &Obb2) -> bool {
    let axes_a = a.axes().map(|v| v.as_dvec2());
    let axes_b = b.axes().map(|v| v.as_dvec2());
    let t = b.center().as_dvec2() - a.center().as_dvec2();
    let (ha, hb) = (a.half_extents().as_dvec2(), b.half_extents().as_dvec2());
    let radius = |[u, v]: [DVec2; 2], h: DVec2, l: DVec2| h.x * u.dot(l).abs() + h.y * v.dot(l).abs();
    let separates = |l: DVec2| t.dot(l).abs() > radius(axes_a, ha, l) + radius(axes_b, hb, l);
    separates(axes_a[0]) || separates(axes_a[1]) || separates(axes_b[0]) || separates(axes_b[1])
}

/// The 3D test: 3 + 3 face axes, then the 9 edge–edge axes (skipping exact zeros), in
/// straight-line code (the loops have constant bounds and unroll).
pub(crate) fn obb3_obb3_separated(a: &Obb3, b: &Obb3) -> bool {
    sat_boxes3_separated(&SatBox3::of_obb(a), &SatBox3::of_obb(b))
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
    fn overlaps(&self, other: &Obb2) -> bool {
        !obb2_obb2_separated(self, other)
    }
}

impl Overlaps<Obb3> for Obb3 {
    fn overlaps(&self, other: &Obb3) -> bool {
        !obb3_obb3_separated(self, other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec2, Vec3};

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
}
