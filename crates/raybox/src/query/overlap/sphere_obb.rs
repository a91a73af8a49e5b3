//! Ball against oriented box, 2D and 3D: the distance from the centre to the box,
//! measured in the box frame (Ericson, *Real-Time Collision Detection*, 5.2.5).
//!
//! **Precision.** The centre goes to the box frame in `f32` ([`Obb3::point_to_local`]),
//! whose rounding grows with the centre's distance from the box centre `|p - c|`: on a box
//! spanning `[0, 2^21]` a ball 0.03 from its face would read as touching. So the `f32`
//! answer is only taken when the distance is farther from the radius than that rounding
//! can reach, and the frame change is redone in `f64` otherwise (also when `f32`
//! overflows, near `f32::MAX`). The bound: each local coordinate is a 3-term dot product
//! of the rounded difference `fl(p - c)` with a column of `R` (`|R_ij| <= 1 + 1e-4`),
//! within `(γ₃ + u)(1 + 1e-4) |p - c|₁ < 4.1 u |fl(p - c)|₁` of the exact `Rᵀ (p - c)`
//! (`u = 2⁻²⁴`, Higham's `γ₃ = 3u / (1 - 3u)`), and the distance to a box moves by at most
//! the Euclidean size of that error, below `√3 · 4.1 u |fl(p - c)|₁ < 2⁻²¹ |fl(p - c)|₁`.

use glam::{DVec2, DVec3, Vec2, Vec3};

use crate::query::closest::{aabb_distance_squared, aabb_distance_squared_f64};
use crate::query::reverse_overlaps;
use crate::{Circle, Obb2, Obb3, Overlaps, Sphere};

/// How far (relative to `|fl(p - c)|₁`) the distance from the `f32` local centre may be
/// from the exact one (see the module docs).
const LOCAL_ERROR: f64 = 1.0 / (1u32 << 21) as f64;

/// Whether the distance `√d2` (from the `f32` local centre) decides `<= r` as the exact
/// distance would: it is more than `e` from `r`.
#[inline(always)]
fn certain(d2: f64, r: f64, e: f64) -> bool {
    // The `1e-12` covers the f64 rounding of `d2` and of the squares here.
    let (above, below) = ((r + e) * (1.0 + 1e-12), (r - e) * (1.0 - 1e-12));
    d2 > above * above || (below >= 0.0 && d2 <= below * below)
}

macro_rules! ball_obb_local {
    ($name:ident, $Obb:ident, $V:ident, $DV:ident, $as_d:ident) => {
        /// The ball's centre in the box frame, as the overlap test and the contact both take
        /// it: from `f32` when that decides the overlap as the exact values would, else
        /// from `f64`; with its squared distance to the box `[-h, h]`.
        pub(crate) fn $name(obb: &$Obb, centre: $V, radius: f32) -> ($DV, f64) {
            let h = obb.half_extents();
            let local = obb.point_to_local(centre);
            if local.is_finite() {
                let d2 = aabb_distance_squared(local.to_array(), (-h).to_array(), h.to_array());
                let e = LOCAL_ERROR * f64::from((centre - obb.center()).abs().element_sum());
                if certain(d2, f64::from(radius), e) {
                    return (local.$as_d(), d2);
                }
            }
            let (local, h) = (obb.point_to_local_f64(centre), h.$as_d());
            (local, aabb_distance_squared_f64(local.to_array(), (-h).to_array(), h.to_array()))
        }
    };
}

ball_obb_local!(ball_in_obb2_frame, Obb2, Vec2, DVec2, as_dvec2);
ball_obb_local!(ball_in_obb3_frame, Obb3, Vec3, DVec3, as_dvec3);

impl Overlaps<Obb2> for Circle {
    #[inline]
    fn overlaps(&self, other: &Obb2) -> bool {
        let (_, d2) = ball_in_obb2_frame(other, self.center(), self.radius());
        d2 <= f64::from(self.radius()).powi(2)
    }
}

impl Overlaps<Obb3> for Sphere {
    #[inline]
    fn overlaps(&self, other: &Obb3) -> bool {
        let (_, d2) = ball_in_obb3_frame(other, self.center(), self.radius());
        d2 <= f64::from(self.radius()).powi(2)
    }
}

reverse_overlaps!(Circle => Obb2, Sphere => Obb3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn circle_beside_a_diamond() {
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        // The diamond's corner is at (sqrt 2, 0).
        assert!(Circle::new(Vec2::new(2.0, 0.0), 0.6).overlaps(&diamond));
        assert!(!diamond.overlaps(&Circle::new(Vec2::new(2.0, 0.0), 0.5)));
    }
}
