//! Axis-aligned box against capsule: the core segment is within the radius of the box; in 3D
//! by `segment_within_box` (exact but for the line distance to an edge, in `f64`), in 2D
//! exactly (`segment_within_2d`).

use crate::{Aabb2, Aabb3, Capsule2};

super::capsule_segment::box_capsule_overlaps!(Aabb3);

/// A box and a 2D capsule: the core within the radius of the box, exactly
/// (`capsule_segment.rs`, `segment_within_2d`).
impl crate::Overlaps<Capsule2> for Aabb2 {
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
crate::query::reverse_overlaps!(Aabb2 => Capsule2);

#[cfg(test)]
mod tests {
    use crate::{Aabb2, Capsule2, Overlaps};
    use glam::Vec2;

    #[test]
    fn capsule_near_a_corner() {
        let b = Aabb2::new(Vec2::ZERO, Vec2::ONE);
        // A capsule whose core ends 5 from the corner (1, 1) along (3, 4).
        let c = |r: f32| Capsule2::new(Vec2::new(4.0, 5.0), Vec2::new(9.0, 5.0), r);
        assert!(b.overlaps(&c(5.0)) && c(5.0).overlaps(&b));
        assert!(!b.overlaps(&c(4.99)));
    }
}
