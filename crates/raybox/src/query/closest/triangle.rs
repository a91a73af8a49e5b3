//! Points against triangles. The closest point is the foot of the perpendicular on the
//! plane when that foot falls inside the triangle, and otherwise the nearest of the three
//! edges' closest points (Ericson, *Real-Time Collision Detection*, 5.1.5, describes both
//! this and the Voronoi-region walk; the walk's region tests multiply dot products that
//! cancel badly on long thin triangles, so raybox takes the form without products of
//! products).

use crate::arrays::Each;
use glam::{DVec3, Vec3};

use crate::query::closest::{
    closest_point_on_segment, closest_points_segment_segment, closest_points_segment_segment_by_cross,
};
use crate::{ClosestPoint, ContainsPoint, Triangle3};

/// The point of the closed triangle `a, b, c` nearest to `p`, in `f64`.
///
/// Inside the prism over the triangle (each edge's `(v - u) × (p - u)` on the side of the
/// normal `n`), the answer is the foot of `p` on the plane; outside it (or for a
/// degenerate triangle, `n = 0`), the nearest point of the closed triangle lies on its
/// boundary, so it is the nearest of the three edges' closest points. Each sign is one
/// cross and one dot product of differences of the inputs, taken from the edge's end
/// nearer `p` ([`edge_side`]), so its rounding is relative to the triangle's own size and
/// `p`'s distance from that end: a wrong sign can only come from a foot within rounding of
/// that edge, where both answers agree. (Taken from a fixed end, a point 3,700 behind the
/// near vertex of a sliver reaching to `1e15` read as over the face, at 8,500.)
///
/// The three products are also the foot's barycentric weights (each is `|n|²` times the
/// area of the sub-triangle opposite its vertex, over the whole), so the foot is
/// `a + (b - a) w_b / Σw + (c - a) w_c / Σw`: a triangle in an axis plane (`z = z₀`) gets
/// its foot at exactly `z₀`, which `p - n (n · (p - a)) / |n|²` would round off by an ulp of
/// `p`'s height. Any rounding of the weights moves the foot along the plane, which changes
/// its distance from `p` only to second order.
#[inline]
pub(crate) fn closest_point_on_triangle(p: DVec3, [a, b, c]: [DVec3; 3]) -> DVec3 {
    if let Some(foot) = face_foot(p, [a, b, c]) {
        return foot;
    }
    let edges = [
        closest_point_on_segment(p, a, b),
        closest_point_on_segment(p, b, c),
        closest_point_on_segment(p, c, a),
    ];
    let mut best = edges[0];
    for q in &edges[1..] {
        if p.distance_squared(*q) < p.distance_squared(best) {
            best = *q;
        }
    }
    best
}

/// The foot of `p` on the plane of the triangle `a, b, c`, when it falls inside the closed
/// triangle (the face region of [`closest_point_on_triangle`], whose docs say how it is
/// computed); `None` outside, or for a degenerate triangle.
#[inline]
fn face_foot(p: DVec3, [a, b, c]: [DVec3; 3]) -> Option<DVec3> {
    let n = (b - a).cross(c - a);
    // `edge_side` with the three differences computed once.
    let (pa, pb, pc) = (p - a, p - b, p - c);
    let (ma, mb, mc) = (pa.abs().max_element(), pb.abs().max_element(), pc.abs().max_element());
    let near = |x: DVec3, mx: f64, y: DVec3, my: f64| if mx <= my { x } else { y };
    let (wa, wb, wc) = (
        (c - b).cross(near(pb, mb, pc, mc)).dot(n),
        (a - c).cross(near(pc, mc, pa, ma)).dot(n),
        (b - a).cross(near(pa, ma, pb, mb)).dot(n),
    );
    let sum = wa + wb + wc; // |n|², but for rounding; zero for a degenerate triangle
    (wa >= 0.0 && wb >= 0.0 && wc >= 0.0 && sum > 0.0)
        .then(|| a + (b - a) * (wb / sum) + (c - a) * (wc / sum))
}

/// Which side of the edge `p -> q` the point `x` lies on, seen along the normal `n`:
/// `((q - p) × (x - s)) · n` (positive inside a counter-clockwise triangle), with `s` the
/// end of the edge nearer `x` (either end gives the same exact value, since
/// `(q - p) × (q - p) = 0`). `x - s` is then accurate to the rounding of the nearby
/// coordinates, not of the far end: for a sliver with vertices near `1e15` and one near
/// 500, a point 0.02 off the line through the near vertex and a far one, measured from the
/// far one (rounded by 0.03 there), came out inside, and a ball 8,000 from the triangle
/// swept into it (an audit, `tests/audit_instance_shapes.rs`).
#[inline]
pub(crate) fn edge_side(p: DVec3, q: DVec3, x: DVec3, n: DVec3) -> f64 {
    let s = if (x - p).abs().max_element() <= (x - q).abs().max_element() { p } else { q };
    (q - p).cross(x - s).dot(n)
}

/// A closest pair of points of two triangles that do not intersect, `(on a, on b)`: for
/// such triangles a closest pair joins a vertex of one to the other triangle, or an edge of
/// each (Ericson, *Real-Time Collision Detection*, 5.1.9 and 5.2.7), so it is the nearest
/// of those 15 candidates, each computed directly in `f64`. Unlike GJK, whose simplex
/// solves lose the gap between slivers far from the origin (`0.0154` for a gap of `5.6e-7`
/// between slivers `1e7` long), each candidate is accurate to a few ulps of its own
/// coordinates. Computed with the triangles in a fixed order (by their bits), so that
/// swapping them swaps the points and nothing else. (For intersecting triangles the
/// candidates miss an edge through a face: callers decide overlap first.)
#[inline]
pub(crate) fn closest_points_triangle_triangle(a: [DVec3; 3], b: [DVec3; 3]) -> (DVec3, DVec3) {
    let key = |t: &[DVec3; 3]| t.each(|x| x.to_array().each(f64::to_bits));
    if key(&a) > key(&b) {
        let (q, p) = closest_pair(b, a);
        return (p, q);
    }
    closest_pair(a, b)
}

#[inline]
fn closest_pair(a: [DVec3; 3], b: [DVec3; 3]) -> (DVec3, DVec3) {
    // A candidate is skipped when a lower bound on its distance (the gap between the boxes
    // of the two features) shows that it cannot come out strictly nearer than the best so
    // far, so the answer is the one of trying all 15 in this order, bit for bit.
    //
    // Why the bound holds for the *computed* distance: each candidate point is `u + (v - u) s`
    // with `s` in `[0, 1]` (or a face foot, the vertices weighted by `w / Σw`), within a
    // few ulps of the largest coordinate `M` of its feature's box; so each coordinate
    // difference of a pair is at least the boxes' gap less `slack = 2⁻⁴⁰ M` (about 2¹²
    // times those ulps), and the squared distance, rounded, at least the sum of the squared
    // reduced gaps times `1 - 2⁻⁴⁰`.
    // `min` and `max` lane by lane with one comparison: `DVec3::min` also handles NaN, at
    // two more instructions a lane, and no NaN arises from finite triangles.
    let min = |x: DVec3, y: DVec3| DVec3::select(x.cmplt(y), x, y);
    let max = |x: DVec3, y: DVec3| DVec3::select(x.cmpgt(y), x, y);
    let boxes = |t: [DVec3; 3]| [0, 1, 2].each(|i| (min(t[i], t[(i + 1) % 3]), max(t[i], t[(i + 1) % 3])));
    let (edges_a, edges_b) = (boxes(a), boxes(b));
    let whole = |e: [(DVec3, DVec3); 3]| (min(e[0].0, e[1].0), max(e[0].1, e[1].1));
    let (box_a, box_b) = (whole(edges_a), whole(edges_b));
    let most = crate::query::largest_coordinate(&a, &b);
    let slack = most / (1u64 << 40) as f64;
    let gap2 = |(lo1, hi1): (DVec3, DVec3), (lo2, hi2): (DVec3, DVec3)| {
        let gap = max(max(lo2 - hi1, lo1 - hi2) - DVec3::splat(slack), DVec3::ZERO);
        gap.length_squared() * (1.0 - 1.0 / (1u64 << 40) as f64)
    };
    let mut best = (f64::INFINITY, a[0], b[0]);
    let consider = |best: &mut (f64, DVec3, DVec3), (x, y): (DVec3, DVec3)| {
        let d = x.distance_squared(y);
        if d < best.0 {
            *best = (d, x, y);
        }
    };
    for i in 0..3 {
        if gap2((a[i], a[i]), box_b) < best.0 {
            consider(&mut best, (a[i], closest_point_on_triangle(a[i], b)));
        }
        if gap2(box_a, (b[i], b[i])) < best.0 {
            consider(&mut best, (closest_point_on_triangle(b[i], a), b[i]));
        }
        for j in 0..3 {
            if gap2(edges_a[i], edges_b[j]) < best.0 {
                let pair = closest_points_segment_segment((a[i], a[(i + 1) % 3]), (b[j], b[(j + 1) % 3]));
                consider(&mut best, pair);
            }
        }
    }
    (best.1, best.2)
}

/// A closest pair of a triangle and a segment, `(on the triangle, on the segment)`; a
/// common point, twice, when the segment passes through the face.
///
/// Apart, a closest pair joins an end of the segment to the triangle, or the segment to an
/// edge (Ericson, *Real-Time Collision Detection*, 5.1.10: a pair inside both the
/// segment and the face has the segment parallel to the face, and sliding along it reaches
/// an end or an edge at the same distance); an end's pair with an edge is also one of the
/// segment's with that edge, so the candidates are the two ends' feet on the face (when
/// inside it) and the three segment–edge pairs, the nearest taken. Each is computed
/// directly, to the rounding of its own coordinates: a candidate's distance can come out
/// above its exact value, never below it by more than that rounding, so the nearest is a
/// pair of the shapes as close as the closest one up to that rounding.
///
/// GJK, used before, reads the Minkowski difference of a segment and an edge it nearly runs
/// along as a sliver face, whose plane it cannot place: for a capsule `3.4e-10` from a
/// triangle's corner, along an edge at a slant of `1.3e-7`, it took that face, `3.418e-10`
/// from the origin (points `7.6e-12` off both shapes), where the nearest pair is the
/// segment and the other edge at the corner, `3.427e-10` apart across the face: a normal
/// 8° off, along which the triangle reached `0.13` back into the capsule. The segment–edge
/// pairs come from [`closest_points_segment_segment_by_cross`], which keeps a nearly
/// parallel pair on the lines' common perpendicular.
///
/// Through the face: the ends strictly on either side of the plane, and the point where
/// the segment crosses it inside the triangle (both in `f64`; a wrong answer needs a
/// crossing within rounding of an edge or an end within rounding of the plane, where the
/// candidates are that close too).
#[inline]
pub(crate) fn closest_points_triangle_segment(
    [a, b, c]: [DVec3; 3],
    (p, q): (DVec3, DVec3),
) -> (DVec3, DVec3) {
    let n = (b - a).cross(c - a);
    let (hp, hq) = (n.dot(p - a), n.dot(q - a));
    if (hp < 0.0 && hq > 0.0) || (hp > 0.0 && hq < 0.0) {
        let x = p + (q - p) * (hp / (hp - hq));
        if [(a, b), (b, c), (c, a)].iter().all(|&(u, v)| edge_side(u, v, x, n) >= 0.0) {
            return (x, x);
        }
    }
    let mut best = (f64::INFINITY, a, p);
    let mut consider = |(x, y): (DVec3, DVec3)| {
        let d = x.distance_squared(y);
        if d < best.0 {
            best = (d, x, y);
        }
    };
    for end in [p, q] {
        if let Some(foot) = face_foot(end, [a, b, c]) {
            consider((foot, end));
        }
    }
    for (u, v) in [(a, b), (b, c), (c, a)] {
        let (on_segment, on_edge) = closest_points_segment_segment_by_cross((p, q), (u, v));
        consider((on_edge, on_segment));
    }
    (best.1, best.2)
}

impl ContainsPoint for Triangle3 {
    type Point = Vec3;

    /// `true` when `point` lies in the triangle's plane and inside or on its edges,
    /// decided in `f64`.
    #[inline]
    fn contains_point(&self, point: Vec3) -> bool {
        let [a, b, c] = self.vertices().each(Vec3::as_dvec3);
        let p = point.as_dvec3();
        let n = (b - a).cross(c - a);
        n.dot(p - a) == 0.0 && [(a, b), (b, c), (c, a)].iter().all(|&(u, v)| edge_side(u, v, p, n) >= 0.0)
    }
}

impl ClosestPoint for Triangle3 {
    type Point = Vec3;

    #[inline]
    fn closest_point(&self, point: Vec3) -> Vec3 {
        closest_point_on_triangle(point.as_dvec3(), self.vertices().each(Vec3::as_dvec3)).as_vec3()
    }

    #[inline]
    fn distance_to_point(&self, point: Vec3) -> f32 {
        let p = point.as_dvec3();
        p.distance(closest_point_on_triangle(p, self.vertices().each(Vec3::as_dvec3))) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_voronoi_region() {
        let t = Triangle3::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0));
        let cases = [
            (Vec3::new(-1.0, -1.0, 0.0), Vec3::ZERO),              // vertex a
            (Vec3::new(3.0, -1.0, 1.0), Vec3::new(2.0, 0.0, 0.0)), // vertex b
            (Vec3::new(-0.5, 3.0, 0.0), Vec3::new(0.0, 2.0, 0.0)), // vertex c
            (Vec3::new(1.0, -3.0, 0.0), Vec3::new(1.0, 0.0, 0.0)), // edge ab
            (Vec3::new(-2.0, 1.0, 5.0), Vec3::new(0.0, 1.0, 0.0)), // edge ac
            (Vec3::new(2.0, 2.0, 0.0), Vec3::new(1.0, 1.0, 0.0)),  // edge bc
            (Vec3::new(0.5, 0.5, -4.0), Vec3::new(0.5, 0.5, 0.0)), // face
        ];
        for (p, expected) in cases {
            assert_eq!(t.closest_point(p), expected, "{p}");
        }
        assert_eq!(t.distance_to_point(Vec3::new(0.5, 0.5, -4.0)), 4.0);
        assert!(t.contains_point(Vec3::new(1.0, 1.0, 0.0)));
        assert!(!t.contains_point(Vec3::new(1.0, 1.0, 0.5)));
    }

    #[test]
    fn long_thin_triangles() {
        // Slivers as long as 4 and as thin as 1e-7, needles and obtuse caps, with points near
        // them and far (the Voronoi-region walk put the closest point as much as 3.5 away
        // from the true one for a point 2e-7 from such a triangle). The answer must be a
        // point of the triangle (on its plane, on the inner side of each edge line), no
        // farther from `p` than any edge's closest point, and the plane projection when
        // that projection is clearly inside.
        let mut next = crate::test_util::signed_units(0x2545_f491_u32);
        let mut tested = 0;
        for _ in 0..50_000 {
            let v = [(); 4].each(|()| Vec3::new(next(), next(), next()));
            let (a, along) = (v[0], v[1].normalize_or_zero() * 4.0);
            let width = 10f32.powf(-7.0 + 6.0 * next().abs()); // 1e-7 ..= 1e-1
            let c = a + along * (next() * 1.5 + 0.5) + v[2].normalize_or_zero() * width;
            let Ok(t) = Triangle3::try_new(a, a + along, c) else { continue };
            let (u, w) = (next().abs(), next().abs());
            let (u, w) = if u + w > 1.0 { (1.0 - u, 1.0 - w) } else { (u, w) };
            let [ta, tb, tc] = t.vertices();
            let on = ta + (tb - ta) * u + (tc - ta) * w;
            let p = if tested % 2 == 0 { v[3] * 3.0 } else { on + v[3] * 10f32.powf(-8.0 * next().abs()) };
            let [a, b, c] = t.vertices().each(Vec3::as_dvec3);
            let pd = p.as_dvec3();
            let q = closest_point_on_triangle(pd, [a, b, c]);
            let n = (b - a).cross(c - a).normalize();
            let eps = 1e-9;
            assert!(n.dot(q - a).abs() <= eps, "off the plane: {t:?} {p}");
            for (u, v) in [(a, b), (b, c), (c, a)] {
                let inward = n.cross(v - u).normalize();
                assert!(inward.dot(q - u) >= -eps, "outside an edge: {t:?} {p} {q}");
            }
            let edge_best = [(a, b), (b, c), (c, a)]
                .each(|(u, v)| pd.distance(closest_point_on_segment(pd, u, v)))
                .into_iter()
                .fold(f64::INFINITY, f64::min);
            assert!(pd.distance(q) <= edge_best + eps, "farther than an edge: {t:?} {p} {q}");
            let projected = pd - n * n.dot(pd - a);
            let margin =
                [(a, b), (b, c), (c, a)].each(|(u, v)| n.cross(v - u).normalize().dot(projected - u));
            if margin.iter().all(|&m| m > 1e-6) {
                assert!(q.distance(projected) <= eps, "not the projection: {t:?} {p} {q}");
            }
            tested += 1;
        }
        assert!(tested > 40_000, "{tested}");
    }

    /// A sliver from near 500 out to about `1e15`, and points a few thousand behind its
    /// near vertex, within 0.02 of the line through it and a far vertex: the nearest point is
    /// that vertex. Measured from the far vertex (rounded by 0.03 at `1e15`), one edge test
    /// read the first point as over the face, 8,504 away instead of 3,697; nor is it in the
    /// triangle, and a ball there sweeping by a few units does not reach it.
    #[test]
    fn points_behind_the_near_vertex_of_a_huge_sliver() {
        use crate::{Sphere, Sweep};
        let a = Vec3::new(-500.45828, -879.7624, 77.35397);
        let t = Triangle3::new(
            a,
            Vec3::new(867808400000000.0, 1528891200000000.0, -134577155000000.0),
            Vec3::new(199337770000000.0, 351191100000000.0, -30912106000000.0),
        );
        let motion = Vec3::new(-1.350616, -0.5572579, -5.853492);
        for p in [
            Vec3::new(-2319.9067, -4085.2363, 359.51184),
            Vec3::new(-2319.9067, -4085.2363, 359.51184) + motion * 3e-4,
        ] {
            let want = p.as_dvec3().distance(a.as_dvec3());
            let got = t.distance_to_point(p);
            assert!((f64::from(got) / want - 1.0).abs() < 1e-6, "{p:?}: {got}, want {want}");
            assert_eq!(t.closest_point(p), a, "{p:?}");
            assert!(!t.contains_point(p));
            for r in [0.0, 1e-3, 1.0] {
                assert_eq!(Sphere::new(p, r).sweep(motion, &t), None, "{p:?} radius {r}");
            }
        }
    }

    /// The 15 candidates of `closest_pair`, all tried, in its order.
    fn closest_pair_unpruned(a: [DVec3; 3], b: [DVec3; 3]) -> (DVec3, DVec3) {
        let mut best = (f64::INFINITY, a[0], b[0]);
        let mut consider = |x: DVec3, y: DVec3| {
            let d = x.distance_squared(y);
            if d < best.0 {
                best = (d, x, y);
            }
        };
        for i in 0..3 {
            consider(a[i], closest_point_on_triangle(a[i], b));
            consider(closest_point_on_triangle(b[i], a), b[i]);
            for j in 0..3 {
                let (x, y) = closest_points_segment_segment((a[i], a[(i + 1) % 3]), (b[j], b[(j + 1) % 3]));
                consider(x, y);
            }
        }
        (best.1, best.2)
    }

    #[test]
    fn pruning_the_candidates_changes_no_bit() {
        // Pairs apart, touching (a vertex or an edge moved onto the other triangle), sharing
        // vertices, coplanar, slivers, and far from the origin: the pruned search must return
        // exactly the points of trying every candidate.
        let mut next = crate::test_util::signed_units(0x9e37_79b9);
        let mut apart = 0usize;
        for round in 0..40_000 {
            let scale = [1.0f32, 1e-6, 1e6, 1e30][round % 4];
            let offset = [0.0f32, 1e4, -3e7][round % 3];
            let mut point =
                || Vec3::new(next(), next(), next()) * scale + Vec3::splat(offset * scale.min(1.0));
            let a = [point(), point(), point()];
            let mut b = [point(), point(), point()];
            match round % 5 {
                // b's first vertex on a's face, edge or vertex (touching within rounding).
                1 => b[0] = a[0] + (a[1] - a[0]) * next().abs() * 0.5 + (a[2] - a[0]) * next().abs() * 0.5,
                2 => b[0] = a[1] + (a[2] - a[1]) * next().abs(),
                3 => b[0] = a[2],
                // Coplanar with a, beside it.
                4 => {
                    let (u, v) = (a[1] - a[0], a[2] - a[0]);
                    b = [0.0, 1.0, 2.0].each(|k| a[0] + u * (1.5 + k * next().abs()) + v * next());
                }
                _ => {}
            }
            let (a, b) = (a.each(Vec3::as_dvec3), b.each(Vec3::as_dvec3));
            let (x, y) = closest_pair(a, b);
            let (ex, ey) = closest_pair_unpruned(a, b);
            assert!(x.to_array().each(f64::to_bits) == ex.to_array().each(f64::to_bits), "{a:?} {b:?}");
            assert!(y.to_array().each(f64::to_bits) == ey.to_array().each(f64::to_bits), "{a:?} {b:?}");
            apart += usize::from(x.distance_squared(y) > 0.0);
        }
        assert!(apart > 10_000, "too few pairs apart to test the pruning: {apart}");
    }
}
