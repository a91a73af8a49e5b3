//! Moving segment against a static triangle (3D): the closed form of `triangle_capsule.rs`
//! with a zero radius (a segment is a capsule of radius zero), whose cases then read: an end
//! of the segment reaching the triangle (a ray against the triangle), a vertex of the
//! triangle reaching the segment, or the segment crossing an edge (the two lines' common
//! normal separation reaching zero). The start is decided by the pair's `Contact`, `Some`
//! exactly when the exact overlap test of `overlap/triangle_segment.rs` says so: `t = 0`,
//! its point and its normal reversed; a zero motion is that test.

use glam::Vec3;

use super::triangle_capsule::capsule_triangle_toi;
use super::{SweepHit3, contact_start, hit3};
use crate::{Contact, Segment3, Sweep, Triangle3};

impl Sweep<Triangle3> for Segment3 {
    type Motion = Vec3;
    type Hit = SweepHit3;

    fn sweep(&self, motion: Vec3, other: &Triangle3) -> Option<SweepHit3> {
        if let Some(done) = contact_start(motion, || self.contact(other)) {
            return done;
        }
        capsule_triangle_toi(self.start(), self.end(), 0.0, motion, other.vertices()).map(hit3)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Segment3, Sweep, Triangle3};
    use glam::Vec3;

    #[test]
    fn a_post_falls_onto_and_a_rod_slides_into_a_triangle() {
        let floor = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
        // Standing 2 above the floor, falling 4: its lower end lands at t = 0.5.
        let post = Segment3::new(Vec3::new(1.0, 1.0, 2.0), Vec3::new(1.0, 1.0, 5.0));
        let hit = post.sweep(Vec3::new(0.0, 0.0, -4.0), &floor).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::Z, Vec3::new(1.0, 1.0, 0.0)));
        // An upright rod at x = 1, 2 in front of the edge y = 0, moving +y by 4: its body
        // meets the edge at t = 0.5.
        let rod = Segment3::new(Vec3::new(1.0, -2.0, -1.0), Vec3::new(1.0, -2.0, 1.0));
        let hit = rod.sweep(Vec3::new(0.0, 4.0, 0.0), &floor).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec3::NEG_Y).length() < 1e-6, "{hit:?}");
        assert!((hit.point - Vec3::new(1.0, 0.0, 0.0)).length() < 1e-6, "{hit:?}");
        // The same as a capsule of radius zero; lying on the floor: t = 0.
        let same = Capsule3::new(rod.start(), rod.end(), 0.0).sweep(Vec3::new(0.0, 4.0, 0.0), &floor);
        assert_eq!(same.map(|h| h.t), Some(hit.t));
        let lying = Segment3::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(9.0, 1.0, 0.0));
        assert_eq!(lying.sweep(Vec3::ZERO, &floor).map(|h| (h.t, h.normal)), Some((0.0, Vec3::Z)));
        assert!(post.sweep(Vec3::new(0.0, 0.0, 1.0), &floor).is_none());
    }

    /// Found by `tests/sweeps.rs`: the end lands on the face a rounding (~1e-17) off it,
    /// and the direction from the face's nearest point was that rounding's, along the face
    /// (a normal the motion ran along); the face normal is the answer, as for a capsule.
    #[test]
    fn an_end_landing_on_a_face_takes_the_face_normal() {
        let s = Segment3::new(Vec3::new(0.90489244, -0.8838054, -0.9795174), Vec3::ZERO);
        let v = Vec3::new(2.2222576, -3.429755, 0.15212598);
        let [a, b, c] = [
            Vec3::new(1.1485649, -0.9808901, -1.2839895),
            Vec3::new(-0.65668255, -0.48181802, 1.4817649),
            Vec3::new(0.5791684, -0.52456707, -1.4014179),
        ];
        let hit = s.sweep(v, &Triangle3::new(a, b, c)).unwrap();
        let n = (b - a).cross(c - a).normalize();
        assert!((hit.t - 0.005_127_05).abs() < 1e-6 && hit.normal.dot(n).abs() > 1.0 - 1e-6, "{hit:?}");
        assert!(v.dot(hit.normal) < 0.0);
    }
}
