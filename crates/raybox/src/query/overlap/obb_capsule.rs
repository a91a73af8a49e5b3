//! Oriented box against capsule: the core segment is within the radius of the box; in 3D
//! by `segment_within_box` (exact where its parts are, as for quarter turns), in 2D
//! exactly (`segment_within_2d`).

use crate::{Capsule2, Obb2, Obb3};

super::capsule_segment::box_capsule_overlaps!(Obb3);

/// An oriented box and a 2D capsule: the core within the radius of the box
/// (`capsule_segment.rs`, `segment_within_2d`; exact where the
/// box's corners are, as for a quarter turn).
impl crate::Overlaps<Capsule2> for Obb2 {
    #[inline]
    fn overlaps(&self, other: &Capsule2) -> bool {
        let b = *self;
        super::capsule_segment::segment_within_2d(
            other.start(),
            other.end(),
            other.radius(),
            &b.corners(),
            |s| s.overlaps(&b),
            |c| c.overlaps(&b),
        )
    }
}
crate::query::reverse_overlaps!(Obb2 => Capsule2);

#[cfg(test)]
mod tests {
    use crate::{Capsule2, Obb2, Overlaps};
    use glam::Vec2;

    #[test]
    fn capsule_above_a_diamond() {
        let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let c = |r: f32| Capsule2::new(Vec2::new(-3.0, 2.0), Vec2::new(3.0, 2.0), r);
        assert!(diamond.overlaps(&c(0.6)) && !diamond.overlaps(&c(0.58)));
    }
}
