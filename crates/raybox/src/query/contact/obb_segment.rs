//! Oriented box against segment, 2D and 3D: a box core and a segment core (a segment is a
//! capsule of radius zero), by the kernel of `rounded.rs`, gated by the overlap tests of
//! `overlap/obb_segment.rs` (`gated_contact!`). Why the kernel's answer is the segment's
//! minimum translation: see `aabb_segment.rs`, whose argument does not depend on the box's
//! axes.

use super::gated_contact;
use crate::{Obb2, Obb3, Segment2, Segment3};

gated_contact!(2D: Obb2, Segment2);
gated_contact!(3D: Obb3, Segment3);

#[cfg(test)]
mod tests {
    use crate::{Contact, Obb2, Obb3, Segment2, Segment3};
    use glam::{Quat, Vec2, Vec3};

    #[test]
    fn segment_into_a_diamond_and_a_turned_box() {
        // A diamond (a unit square turned 45 degrees): its top corner at (0, sqrt 2).
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let s = Segment2::new(Vec2::new(-3.0, 1.25), Vec2::new(3.0, 1.25));
        let k = diamond.contact(&s).unwrap();
        assert!((k.normal - Vec2::Y).length() < 1e-6, "{k:?}");
        assert!((k.depth - (2f32.sqrt() - 1.25)).abs() < 1e-6, "{k:?}");
        assert_eq!(s.contact(&diamond).unwrap().normal, -k.normal);
        // A box turned about z, the segment through it along z, nearer its +x' face.
        let o = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::from_rotation_z(0.5));
        let x = o.axes()[0];
        let s = Segment3::new(x * 0.75 - Vec3::Z * 3.0, x * 0.75 + Vec3::Z * 3.0);
        let k = o.contact(&s).unwrap();
        assert!((k.normal - x).length() < 1e-6 && (k.depth - 0.25).abs() < 1e-6, "{k:?}");
    }
}
