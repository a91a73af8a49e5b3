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
//! zero motion is that test, which runs only when the walk cannot prove the pair apart at
//! `t = 0`. The point is midway between the features that touch at the contact time: those
//! the axis entered last names, when they do, and otherwise the closest pair (an end of the
//! segment and the triangle, or the segment and an edge). The normal is the axis entered
//! last. A contact whose points do not touch (a sliver reaching to `1e15`, whose rounded
//! axes can miss a visible separation) is confirmed by a distance measured from the
//! features' nearby ends (`confirmed_time` in `mod.rs`), as for two triangles.

use crate::arrays::Each;
use glam::{DVec3, Vec3};

use super::{
    Polytope, SweepHit3, Toi, confirmed_time, contact_normal, contact_start, hit3_apart, largest_coordinate,
    needs_confirming, thin_sat_entry, touching,
};
use crate::query::closest::{
    closest_point_on_segment, closest_point_on_triangle, closest_points_segment_segment,
};
use crate::{Contact, Segment3, Sweep, Triangle3};

impl Sweep<Triangle3> for Segment3 {
    type Motion = Vec3;
    type Hit = SweepHit3;

    #[inline]
    fn sweep(&self, motion: Vec3, other: &Triangle3) -> Option<SweepHit3> {
        if !motion.is_finite() || motion == Vec3::ZERO {
            return contact_start(motion, || self.contact(other)).flatten();
        }
        // The separating-axis walk first, as for two triangles: when it proves the pair
        // apart at `t = 0`, the exact overlap test of `contact_start` could only agree.
        let walk = Walk::new(self.start(), self.end(), motion, other.vertices());
        if walk.entry.is_some_and(|(_, _, apart)| !apart)
            && let Some(done) = contact_start(motion, || self.contact(other))
        {
            return done;
        }
        walk.toi().map(hit3_apart)
    }
}

/// The first contact of the segment `[s0, s1]` moving by `t v`, `t` in `[0, 1]`, with the
/// triangle, for a segment that the exact test found apart from it at `t = 0`.
#[inline]
pub(super) fn segment_triangle_toi(s0: Vec3, s1: Vec3, v: Vec3, tri: [Vec3; 3]) -> Option<Toi> {
    Walk::new(s0, s1, v, tri).toi()
}

/// The separating-axis walk of a segment `[p, q]` moving by `t v` against the triangle `k`,
/// in `f64`, on the 8 axes of the module docs.
struct Walk {
    p: DVec3,
    q: DVec3,
    v: DVec3,
    k: [DVec3; 3],
    axes: [DVec3; 8],
    /// [`thin_sat_entry`]'s time, axis entered last, and whether that axis separates the
    /// pair at `t = 0` beyond rounding.
    entry: Option<(f64, Option<DVec3>, bool)>,
}

impl Walk {
    #[inline]
    fn new(s0: Vec3, s1: Vec3, v: Vec3, tri: [Vec3; 3]) -> Walk {
        let (p, q, v) = (s0.as_dvec3(), s1.as_dvec3(), v.as_dvec3());
        let k = tri.each(Vec3::as_dvec3);
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
        let entry = thin_sat_entry(&[p, q], v, &k, &axes);
        Walk { p, q, v, k, axes, entry }
    }

    /// The contact from the walk's time and axis, for a pair apart at `t = 0`, confirmed by
    /// a locally accurate distance when its points do not touch ([`confirmed_time`]). The point is
    /// midway between the features that touch at that time: those the axis names when
    /// they do touch ([`Walk::named_touch`]), and otherwise the closest pair.
    #[inline]
    fn toi(&self) -> Option<Toi> {
        let (t, axis, _) = self.entry?;
        let (on_a, on_b) = self.touching_at(t, axis);
        // Points that do not touch: the walk's rounded axes may have missed a separation
        // that a locally accurate distance sees ([`confirmed_time`]).
        if needs_confirming(on_a, on_b) {
            let (a, b) = ([self.p, self.q], Polytope::given(&self.k));
            let (settled, _) = confirmed_time(&Polytope::given(&a), self.v, &b, t)?;
            if settled != t {
                let (on_a, on_b) = self.touching_at(settled, None);
                let normal = contact_normal(None, on_a, on_b, self.v);
                return Some(Toi { t: settled, point: (on_a + on_b) / 2.0, normal });
            }
        }
        Some(Toi { t, point: (on_a + on_b) / 2.0, normal: contact_normal(axis, on_a, on_b, self.v) })
    }

    /// The points of the segment moved to time `t` and of the triangle that touch there:
    /// those the axis `axis` names, when they do touch ([`Walk::named_touch`]), and
    /// otherwise the closest pair.
    #[inline]
    fn touching_at(&self, t: f64, axis: Option<DVec3>) -> (DVec3, DVec3) {
        let (p, q, k) = (self.p + self.v * t, self.q + self.v * t, self.k);
        axis.and_then(|n| self.named_touch(p, q, n)).unwrap_or_else(|| {
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
            (best.1, best.2)
        })
    }

    /// The closest points of the features that the axis entered last, `n` (from the
    /// triangle toward the segment `[p, q]` at the contact time), says meet, when they are
    /// within `2⁻⁴⁰` of the largest coordinate of each other (as for two triangles,
    /// `triangle_triangle.rs`): for the face normal or an in-plane edge normal, the
    /// segment's end lowest along `n` against the triangle; for `d × e_i`, the segment and
    /// edge `i`; for the segment's in-plane normal `n × d`, the triangle's vertex highest
    /// along `n` against the segment. `None` when they do not touch (the closest pair
    /// decides).
    #[inline]
    fn named_touch(&self, p: DVec3, q: DVec3, n: DVec3) -> Option<(DVec3, DVec3)> {
        let k = self.k;
        let pair = match self.axes.iter().position(|&l| l == n || l == -n)? {
            0 | 4..7 => {
                let end = if q.dot(n) < p.dot(n) { q } else { p };
                (end, closest_point_on_triangle(end, k))
            }
            7 => {
                let pk = k.each(|x| x.dot(n));
                let j = (0..3).fold(0, |m, j| if pk[j] > pk[m] { j } else { m });
                (closest_point_on_segment(k[j], p, q), k[j])
            }
            i => closest_points_segment_segment((p, q), (k[i - 1], k[i % 3])),
        };
        touching(pair, largest_coordinate(&[p, q], &k))
    }
}

#[cfg(test)]
mod tests {
    use crate::arrays::Each;
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

    /// The sweep as it was before the walk came first: the exact start, then the walk.
    fn sweep_exact_start_first(s: &Segment3, motion: Vec3, t: &Triangle3) -> Option<crate::SweepHit3> {
        use super::{contact_start, hit3_apart, segment_triangle_toi};
        use crate::Contact;
        if let Some(done) = contact_start(motion, || s.contact(t)) {
            return done;
        }
        segment_triangle_toi(s.start(), s.end(), motion, t.vertices()).map(hit3_apart)
    }

    #[test]
    fn skipping_the_exact_start_when_the_walk_proves_it_changes_no_bit() {
        // Segments crossing the triangle, touching it (an end on its face, edge or vertex),
        // lying in its plane, apart, at several scales, with motions long and short.
        let mut next = crate::test_util::signed_units(0x5e97_1a4d);
        let (mut starts, mut hits) = (0, 0);
        for round in 0..20_000 {
            let scale = [1.0f32, 1e-5, 1e5, 3e12][round % 4];
            let mut point = || Vec3::new(next(), next(), next()) * scale;
            let k = [point(), point(), point()];
            let (mut p, mut q) = (point(), point());
            match round % 5 {
                1 => p = k[0] + (k[1] - k[0]) * next().abs() * 0.5 + (k[2] - k[0]) * next().abs() * 0.5,
                2 => q = k[1] + (k[2] - k[1]) * next().abs(),
                3 => p = k[2],
                4 => {
                    let (u, w) = (k[1] - k[0], k[2] - k[0]);
                    (p, q) =
                        (k[0] + u * (0.8 + next().abs()) + w * next(), k[0] + u * 2.0 * next() + w * next());
                }
                _ => {}
            }
            let motion = Vec3::new(next(), next(), next()) * scale * [0.1f32, 1.0, 3.0][round % 3];
            let Ok(tri) = Triangle3::try_new(k[0], k[1], k[2]) else { continue };
            let seg = Segment3::new(p, q);
            let got = seg.sweep(motion, &tri);
            let want = sweep_exact_start_first(&seg, motion, &tri);
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{seg:?} by {motion} against {tri:?}");
            // A zero-radius capsule takes the same walk (its start is its own contact's).
            let zero = Capsule3::new(p, q, 0.0).sweep(motion, &tri);
            if got.is_none_or(|h| h.t > 0.0) {
                assert_eq!(format!("{got:?}"), format!("{zero:?}"), "{seg:?} by {motion} against {tri:?}");
            }
            starts += usize::from(got.is_some_and(|h| h.t == 0.0));
            hits += usize::from(got.is_some_and(|h| h.t > 0.0));
        }
        assert!(starts > 2_000 && hits > 2_000, "{starts} at the start, {hits} later");
    }

    #[test]
    fn the_features_the_axis_names_touch_or_the_closest_pair_decides() {
        // Segments landing end first, crossing an edge, lying flat and falling onto the face
        // (the ends tie) or onto an edge (in the plane), and grazing, at several scales and
        // far from the origin: when the named features are used they touch, and every kind
        // often uses them.
        use super::Walk;
        use crate::query::closest::closest_point_on_triangle;
        let mut next = crate::test_util::signed_units(0x5e97_7a11);
        let mut kinds = [[0; 2]; 4];
        for round in 0..20_000 {
            let scale = [1.0f32, 1e-5, 1e5][round % 3];
            let offset = Vec3::splat([0.0, 1e3][round % 2] * scale);
            let mut point = || Vec3::new(next(), next(), next());
            let mut k = [point(), point(), point()];
            let n = (k[1] - k[0]).cross(k[2] - k[0]).normalize();
            let (p, q, v) = match round % 4 {
                // Flat above a face in the plane `z = 0`, over it or partly beside it, falling
                // straight down: the ends tie, and the first may be the one beside the face.
                1 => {
                    let flat = |x: Vec3| x.with_z(0.0);
                    let (p, q) = (flat(point()) + Vec3::Z, flat(point()) + Vec3::Z);
                    k = k.each(flat);
                    (p, q, Vec3::new(0.0, 0.0, -2.0))
                }
                // In the plane, beside the triangle, sliding toward it.
                2 => {
                    let (u, w) = (k[1] - k[0], k[2] - k[0]);
                    let p = k[0] + u * (1.5 + next().abs()) + w * next();
                    (p, p + u * next() + w * next(), -u * 2.0)
                }
                // Grazing: a height `h` above the face, moving along it and down by `2.2 h`.
                3 => {
                    let h = [1e-2, 1e-4, 1e-6][round / 4 % 3];
                    let along = (k[1] - k[0]) * 2.0;
                    let (p, q) = (k[0] * 0.7 + k[1] * 0.3, k[2] * 0.6 + k[0] * 0.4);
                    (p + n * h - along, q + n * h - along, along * 2.0 - n * 2.2 * h)
                }
                _ => (point() - Vec3::X * 3.0, point() - Vec3::X * 3.0, Vec3::X * 6.0 + point() * 0.5),
            };
            let f = |x: Vec3| x * scale + offset;
            let Ok(tri) = Triangle3::try_new(f(k[0]), f(k[1]), f(k[2])) else { continue };
            let walk = Walk::new(f(p), f(q), v * scale, tri.vertices());
            let Some((t, Some(axis), true)) = walk.entry else { continue };
            let (p, q, k) = (walk.p + walk.v * t, walk.q + walk.v * t, walk.k);
            let most = super::largest_coordinate(&[p, q], &k);
            match walk.named_touch(p, q, axis) {
                Some((x, y)) => {
                    let near = most / (1u64 << 40) as f64;
                    assert!(x.distance(y) <= near, "{p} {q} {k:?}");
                    let on_segment = crate::query::closest::closest_point_on_segment(x, p, q);
                    assert!(x.distance(on_segment) <= 1e-12 * most, "{p} {q} {k:?}");
                    assert!(y.distance(closest_point_on_triangle(y, k)) <= 1e-12 * most, "{p} {q} {k:?}");
                    kinds[round % 4][0] += 1;
                }
                None => kinds[round % 4][1] += 1,
            }
        }
        // Every kind often named, and the flat falls' ties often left to the closest
        // pair (so its guard is tested).
        assert!(
            kinds.iter().all(|k| k[0] > 300) && kinds[1][1] > 100,
            "{kinds:?} named, by the closest pair"
        );
    }
}
