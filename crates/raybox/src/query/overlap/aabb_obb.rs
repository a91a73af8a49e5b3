//! Axis-aligned box against oriented box: the AABB is an OBB with the identity rotation,
//! so this is the OBB–OBB separating-axis test (see `obb_obb.rs`).
//!
//! **The AABB as it is.** An AABB stores its corners; its `f32` centre and half extents
//! are rounded (by half an `f32` ulp of the larger coordinate: for a box spanning
//! `[1, 1e10]`, the near face moves from 1 to 0). The exact test therefore takes them in
//! `f64` from the corners ([`aabb_sat_box3`]: exact, or within `f64` rounding). The `f32`
//! filter still works on the rounded values, with its bound widened by what the rounding
//! can change in a row: each of the centre's and the half extents' components is within
//! `u |x| (1 + u)` of the exact value (`u = 2⁻²⁴`; one rounding in `min/2 ± max/2`, the
//! halvings being exact above `f32`'s subnormals, whose `2⁻¹⁵⁰` the filter's `2u S` of
//! slack covers), and a row's axis has length at most `1 + 4e-4`, so a row moves by less
//! than `1.001 u (1 + u) (|c|₁ + |h|₁) < 2⁻²² (|c|₁ + |h|₁)`, the `slack` passed (the
//! `f32` sum and product that compute it round by less than the factor 4 left).

use crate::arrays::Each;
use glam::{DVec2, DVec3, Mat3A, Vec2, Vec3A};

use super::obb_obb::{
    SatBox3, sat_boxes2_separated, sat_boxes3_separated, sat2_filter_f32_slack, sat3_filter_f32_slack,
};
use crate::query::reverse_overlaps;
use crate::{Aabb2, Aabb3, Obb2, Obb3, Overlaps};

/// The factor of `|c|₁ + |h|₁` that bounds the change of a filter row by the rounding of an
/// AABB's `f32` centre and half extents (see the module docs).
const AABB_ROUNDING: f32 = 1.0 / (1u32 << 22) as f32;

/// An AABB's centre and half extents in `f64`, from its corners.
#[inline]
pub(crate) fn aabb_centre_half2(b: &Aabb2) -> (DVec2, DVec2) {
    let (lo, hi) = (b.min().as_dvec2(), b.max().as_dvec2());
    ((lo + hi) * 0.5, (hi - lo) * 0.5)
}

/// An AABB's centre and half extents in `f64`, from its corners.
#[inline]
pub(crate) fn aabb_centre_half3(b: &Aabb3) -> (DVec3, DVec3) {
    let (lo, hi) = (b.min().as_dvec3(), b.max().as_dvec3());
    ((lo + hi) * 0.5, (hi - lo) * 0.5)
}

/// The AABB as the exact separating-axis test takes it (an OBB with the identity rotation).
#[inline]
pub(crate) fn aabb_sat_box3(b: &Aabb3) -> SatBox3 {
    let (center, half) = aabb_centre_half3(b);
    SatBox3 { axes: [DVec3::X, DVec3::Y, DVec3::Z], half, center }
}

impl Overlaps<Obb2> for Aabb2 {
    #[inline]
    fn overlaps(&self, other: &Obb2) -> bool {
        // The f32 filter first, with A's axes the unit vectors: R is B's rotation.
        let rot_b = other.rotation();
        let (ca, ha) = (self.center(), self.half_extents());
        let t = other.center() - ca;
        let slack = (ca.abs() + ha).element_sum() * AABB_ROUNDING;
        if let Some(separated) =
            sat2_filter_f32_slack(rot_b, t, t, rot_b.transpose() * t, ha, other.half_extents(), slack)
        {
            return !separated;
        }
        let (c, h) = aabb_centre_half2(self);
        let b =
            (other.center().as_dvec2(), other.axes().each(Vec2::as_dvec2), other.half_extents().as_dvec2());
        !sat_boxes2_separated((c, [DVec2::X, DVec2::Y], h), b)
    }
}

impl Overlaps<Obb3> for Aabb3 {
    #[inline]
    fn overlaps(&self, other: &Obb3) -> bool {
        // The f32 filter first: A's axes are the unit vectors, so R = B's rotation and
        // T is already in A's frame.
        let rot_b = Mat3A::from(other.rotation());
        let (ca, ha) = (Vec3A::from(self.center()), Vec3A::from(self.half_extents()));
        let t = Vec3A::from(other.center()) - ca;
        let slack = (ca.abs() + ha).element_sum() * AABB_ROUNDING;
        let hb = other.half_extents().into();
        if let Some(separated) = sat3_filter_f32_slack(rot_b, t, t, rot_b.transpose() * t, ha, hb, slack) {
            return !separated;
        }
        !sat_boxes3_separated(&aabb_sat_box3(self), &SatBox3::of_obb(other))
    }
}

reverse_overlaps!(Aabb2 => Obb2, Aabb3 => Obb3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aabb_against_a_diamond() {
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        // The box [1, 2] x [-0.1, 0.1] reaches in past x = 1, where the diamond is still
        // 0.41 wide: they overlap, although no corner of either is inside the other's
        // axis-aligned bounds test alone.
        let b = Aabb2::new(Vec2::new(1.0, -0.1), Vec2::new(2.0, 0.1));
        assert!(b.overlaps(&diamond) && diamond.overlaps(&b));
        let far = Aabb2::new(Vec2::new(1.0, 0.5), Vec2::new(2.0, 1.0));
        assert!(!far.overlaps(&diamond));
    }

    #[test]
    fn the_f32_filter_gives_the_f64_answer() {
        // Boxes around a rotated box at random offsets, and slid to a hair from touching
        // (bisection on the f64 test): the filtered test answers as the f64 test alone.
        use glam::{Quat, Vec3};
        let mut state = 0x0bad_f00d_u32;
        let mut r = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        };
        let exact = |a: &Aabb3, o: &Obb3| !sat_boxes3_separated(&aabb_sat_box3(a), &SatBox3::of_obb(o));
        for _ in 0..3000 {
            let q = Quat::from_xyzw(r(), r(), r(), r() + 0.5).normalize();
            let o = Obb3::new(Vec3::new(r(), r(), r()), Vec3::new(r().abs(), r().abs(), r().abs()), q);
            let h = Vec3::new(r().abs(), r().abs(), r().abs());
            let dir = Vec3::new(r(), r(), r());
            let at = |s: f32| Aabb3::from_center_half_extents(dir * s, h);
            let (mut lo, mut hi) = (0.0, 8.0);
            if exact(&at(hi), &o) {
                continue;
            }
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if exact(&at(mid), &o) { lo = mid } else { hi = mid }
            }
            for s in [lo, hi, 0.5 * lo, 2.0 * hi, r() * 4.0] {
                let a = at(s);
                assert_eq!(a.overlaps(&o), exact(&a, &o), "{a:?} {o:?}");
            }
        }
    }
}
