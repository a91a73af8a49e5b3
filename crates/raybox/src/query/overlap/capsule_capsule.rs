//! Capsule against capsule, 2D and 3D: the core segments are within `r_a + r_b` of each
//! other (Ericson, *Real-Time Collision Detection*, 4.5.2): exactly in the plane
//! (`segment_within_2d`), in space by `segment_within_3d` (exact: at the ends, the
//! crossings and the lines' distance), when `f32` holds the radius sum; else by the
//! segment kernel of `distance/segment_segment.rs`.

//!
//! Two capsules of radius zero are two segments: the exact segment–segment test decides
//! (as in `capsule_segment.rs`).

use crate::query::distance::{ToRounded, rounded_overlaps};
use crate::{Capsule2, Capsule3, Overlaps};

/// Two 3D capsules: the cores within the summed radius, by `segment_within_3d`
/// (`capsule_segment.rs`) when `f32` holds that sum, in a fixed order (the lesser
/// `FixedOrder::key` first) so that both orders agree.
impl Overlaps<Capsule3> for Capsule3 {
    #[inline]
    fn overlaps(&self, other: &Capsule3) -> bool {
        if self.radius() == 0.0 && other.radius() == 0.0 {
            return self.segment().overlaps(&other.segment());
        }
        let Some(r) = super::capsule_segment::exact_radius_sum(self.radius(), other.radius()) else {
            return rounded_overlaps(&self.to_rounded(), &other.to_rounded());
        };
        use crate::query::contact::FixedOrder;
        let (a, b) = if other.key() < self.key() { (other, self) } else { (self, other) };
        super::capsule_segment::segment_within_3d(a.start(), a.end(), b.start(), b.end(), r)
    }
}

/// Two 2D capsules: the cores within the summed radius, exactly when `f32` holds that sum
/// (`capsule_segment.rs`, `segment_within_2d`).
impl Overlaps<Capsule2> for Capsule2 {
    #[inline]
    fn overlaps(&self, other: &Capsule2) -> bool {
        if self.radius() == 0.0 && other.radius() == 0.0 {
            return self.segment().overlaps(&other.segment());
        }
        let Some(r) = super::capsule_segment::exact_radius_sum(self.radius(), other.radius()) else {
            return rounded_overlaps(&self.to_rounded(), &other.to_rounded());
        };
        let g = other.segment();
        super::capsule_segment::segment_within_2d(
            self.start(),
            self.end(),
            r,
            &[g.start(), g.end()],
            |s| s.overlaps(&g),
            |c| c.overlaps(&g),
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Overlaps};
    use glam::Vec3;

    #[test]
    fn crossing_capsules() {
        let a = Capsule3::new(Vec3::new(-2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0), 0.5);
        let b = |z: f32| Capsule3::new(Vec3::new(0.0, -2.0, z), Vec3::new(0.0, 2.0, z), 0.5);
        assert!(a.overlaps(&b(1.0)) && !a.overlaps(&b(1.01)));
    }
}
