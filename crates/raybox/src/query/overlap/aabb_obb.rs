//! Axis-aligned box against oriented box: the AABB is an OBB with the identity rotation,
//! so this is the OBB–OBB separating-axis test (see `obb_obb.rs`).

use glam::{DVec3, Mat3A, Vec2, Vec3A};

use super::obb_obb::{SatBox3, sat_boxes3_separated, sat2_filter_f32, sat3_filter_f32};
use crate::query::reverse_overlaps;
use crate::{Aabb2, Aabb3, Obb2, Obb3, Overlaps};

impl Overlaps<Obb2> for Aabb2 {
    fn overlaps(&self, other: &Obb2) -> bool {
        // The f32 filter first, with A's axes the unit vectors: R is B's rotation.
        let rot_b = other.rotation();
        let t = other.center() - self.center();
        if let Some(separated) =
            sat2_filter_f32(rot_b, t, t, rot_b.transpose() * t, self.half_extents(), other.half_extents())
        {
            return !separated;
        }
        // A valid Aabb2 always makes a valid Obb2 (finite centre, half extents >= 0).
        Obb2::try_from_rotation(self.center(), self.half_extents(), Vec2::X)
            .is_ok_and(|me| me.overlaps(other))
    }
}

impl Overlaps<Obb3> for Aabb3 {
    fn overlaps(&self, other: &Obb3) -> bool {
        // The box `Obb3::new(center, half_extents, Quat::IDENTITY)` would be, without building
        // it: the identity quaternion gives exactly the unit axes.
        // The f32 filter first: A's axes are the unit vectors, so R = B's rotation and
        // T is already in A's frame.
        let rot_b = Mat3A::from(other.rotation());
        let t = Vec3A::from(other.center()) - Vec3A::from(self.center());
        let (ha, hb) = (self.half_extents().into(), other.half_extents().into());
        if let Some(separated) = sat3_filter_f32(rot_b, t, t, rot_b.transpose() * t, ha, hb) {
            return !separated;
        }
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
        let exact = |a: &Aabb3, o: &Obb3| {
            let me = SatBox3 {
                axes: [DVec3::X, DVec3::Y, DVec3::Z],
                half: a.half_extents().as_dvec3(),
                center: a.center().as_dvec3(),
            };
            !sat_boxes3_separated(&me, &SatBox3::of_obb(o))
        };
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
