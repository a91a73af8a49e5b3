//! Moving segment against a static triangle (3D): the separating-axis test over time
//! (`thin_sat_entry` in `mod.rs`) on the 8 axes that are complete for a segment `d` and a
//! triangle (normal `n`, edges `e_i`). The two meet when the motion lies in their Minkowski
//! difference, a prism (the triangle drawn along `d`) whose facets are normal to `n` and to
//! `d × e_i`, or, when `d` lies in the triangle's plane and the prism is flat, a polygon in
//! that plane whose edges are normal to `n × e_i` and `n × d`. A zero-radius `Capsule3`
//! takes the same path (`triangle_capsule.rs`), so the two agree to the bit.
//!
//! (The capsule's closed form with a zero radius, the method before this one, skips the
//! edge case for lines within `1e-4` rad of parallel, where its closest points are
//! ill-conditioned; with no radius a segment landing across a sliver, meeting only such
//! edges, was then missed.)
//!
//! The start is decided by the pair's `Contact`, `Some` exactly when the exact overlap test
//! of `overlap/triangle_segment.rs` says so: `t = 0`, its point and its normal reversed; a
//! zero motion is that test. The point is the midpoint of the closest pair at the contact
//! time (an end of the segment and the triangle, or the segment and an edge), the normal
//! the axis entered last.

use glam::{DVec3, Vec3};

use super::{SweepHit3, Toi, contact_normal, contact_start, hit3_apart, thin_sat_entry};
use crate::query::closest::{closest_point_on_triangle, closest_points_segment_segment};
use crate::{Contact, Segment3, Sweep, Triangle3};

impl Sweep<Triangle3> for Segment3 {
    type Motion = Vec3;
    type Hit = SweepHit3;

    fn sweep(&self, motion: Vec3, other: &Triangle3) -> Option<SweepHit3> {
        if let Some(done) = contact_start(motion, || self.contact(other)) {
            return done;
        }
        segment_triangle_toi(self.start(), self.end(), motion, other.vertices()).map(hit3_apart)
    }
}

/// The first contact of the segment `[s0, s1]` moving by `t v`, `t` in `[0, 1]`, with the
/// triangle, for a segment that the exact test found apart from it at `t = 0`.
pub(super) fn segment_triangle_toi(s0: Vec3, s1: Vec3, v: Vec3, tri: [Vec3; 3]) -> Option<Toi> {
    let (p, q, v) = (s0.as_dvec3(), s1.as_dvec3(), v.as_dvec3());
    let k = tri.map(Vec3::as_dvec3);
    let (d, e) = (q - p, [k[1] - k[0], k[2] - k[1], k[0] - k[2]]);
    let n = e[0].cross(k[2] - k[0]);
    let axes = [
        n,
        d.cross(e[0]),
        d.cross(e[1]),
        d.cross(e[2]),
        n.cross(e[0]),
        n.cross(e[1]),
        n.cross(e[2]),
        n.cross(d),
    ];
    let (t, axis, _) = thin_sat_entry(&[p, q], v, &k, &axes)?;
    let (p, q) = (p + v * t, q + v * t);
    // The closest pair: an end and the triangle, or the segment and an edge.
    let mut best = (f64::INFINITY, p, k[0]);
    let mut consider = |x: DVec3, y: DVec3| {
        let gap = x.distance_squared(y);
        if gap < best.0 {
            best = (gap, x, y);
        }
    };
    consider(p, closest_point_on_triangle(p, k));
    consider(q, closest_point_on_triangle(q, k));
    for i in 0..3 {
        let (x, y) = closest_points_segment_segment((p, q), (k[i], k[(i + 1) % 3]));
        consider(x, y);
    }
    let (_, on_a, on_b) = best;
    Some(Toi { t, point: (on_a + on_b) / 2.0, normal: contact_normal(axis, on_a, on_b, v) })
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
