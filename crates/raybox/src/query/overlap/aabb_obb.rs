//! Axis-aligned box against oriented box: the AABB is an OBB with the identity rotation,
//! so this is the OBB–OBB separating-axis test (see `obb_obb.rs`).

use glam::{DVec3, Vec2};

use super::obb_obb::{SatBox3, sat_boxes3_separated};
use crate::query::reverse_overlaps;
use crate::{Aabb2, Aabb3, Obb2, Obb3, Overlaps};

impl Overlaps<Obb2> for Aabb2 {
    fn overlaps(&self, other: &Obb2) -> bool {
        // A valid Aabb2 always makes a valid Obb2 (finite centre, half extents >= 0).
        Obb2::try_from_rotation(self.center(), self.half_extents(), Vec2::X)
            .is_ok_and(|me| me.overlaps(other))
    }
}

impl Overlaps<Obb3> for Aabb3 {
    fn overlaps(&self, other: &Obb3) -> bool {
        // The box `Obb3::new(center, half_extents, Quat::IDENTITY)` would be, without building
        // it: the identity quaternion gives exactly the unit axes.
        let me = SatBox3 {
            axes: [DVec3::X, DVec3::Y, DVec3::Z],
            half: self.half_extents().as_dvec3(),
            center: self.center().as_dvec3(),
        };
        !sat_boxes3_separated(&me, &SatBox3::of_obb(other))
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
}
