//! Ball against capsule, 2D and 3D: the centre is within `r_ball + r_capsule` of the core
//! segment (Ericson, *Real-Time Collision Detection*, 5.1.2): by the exact ball–segment
//! test when `f32` holds that sum, else by GJK on a point and a segment in `f64`.

use crate::{Capsule2, Capsule3, Circle, Sphere};

/// A ball and a 3D capsule: the centre within the summed radius of the core, exactly when
/// `f32` holds that sum (`sphere_segment.rs`, `ball_segment_3d`). GJK in `f64` read a
/// ball touching a capsule exactly as a hair apart in 2 of 1,000 touching lattice pairs,
/// and in about 1 of 20 at large coordinates (an audit, `tests/audit_3d_curved.rs`).
impl crate::Overlaps<Capsule3> for Sphere {
    #[inline]
    fn overlaps(&self, other: &Capsule3) -> bool {
        use crate::query::distance::ToRounded;
        match super::capsule_segment::exact_radius_sum(self.radius(), other.radius()) {
            Some(r) => {
                super::sphere_segment::ball_segment_3d(&other.start(), &other.end(), &self.center(), r)
            }
            None => crate::query::distance::rounded_overlaps(&self.to_rounded(), &other.to_rounded()),
        }
    }
}
crate::query::reverse_overlaps!(Sphere => Capsule3);

/// A disc and a 2D capsule: the centre within the summed radius of the core, by the exact
/// disc–segment test when `f32` holds that sum.
impl crate::Overlaps<Capsule2> for Circle {
    #[inline]
    fn overlaps(&self, other: &Capsule2) -> bool {
        use crate::query::distance::ToRounded;
        match super::capsule_segment::exact_radius_sum(self.radius(), other.radius()) {
            Some(r) => crate::Overlaps::overlaps(&Circle::new(self.center(), r), &other.segment()),
            None => crate::query::distance::rounded_overlaps(&self.to_rounded(), &other.to_rounded()),
        }
    }
}
crate::query::reverse_overlaps!(Circle => Capsule2);

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Overlaps, Sphere};
    use glam::Vec3;

    #[test]
    fn beside_the_body_and_past_the_cap() {
        let c = Capsule3::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 0.5);
        assert!(Sphere::new(Vec3::new(1.5, 1.0, 0.0), 1.0).overlaps(&c)); // touching the body
        assert!(!c.overlaps(&Sphere::new(Vec3::new(1.5, 1.0, 0.0), 0.999)));
        assert!(c.overlaps(&Sphere::new(Vec3::new(0.0, 3.0, 0.0), 0.5))); // touching the cap
    }
}
