//! Moving triangle against a static triangle (3D), and a triangle moving against the other
//! shapes (each the other shape moving the other way, `reversed_sweep!`).
//!
//! **The separating-axis test over time, on a complete set of axes.** `A + t v` meets `B`
//! exactly when `t v` lies in the Minkowski difference `M = B - A`, a convex polytope (flat
//! when the triangles' planes are parallel), and a point lies outside a convex polytope
//! exactly when one of its facets' normals separates them. The facets of `M` come from a
//! face of one triangle (normal `n_A` or `n_B`) or from an edge of each (`e_i × f_j`); when
//! `M` is flat, its edges are parallel to edges of `A` or `B`, and the in-plane normals of
//! those are `n_A × e_i` and `n_B × f_j`. These 17 axes are therefore complete for every
//! pair, coplanar and parallel ones included: along each, the projections of `A + t v` and
//! `B` overlap for `t` in an interval, and the first contact is the latest interval start,
//! if it comes before the earliest end (Ericson, *Real-Time Collision Detection*, 5.5.8).
//!
//! (The least of the six edges' segment sweeps, the method before this one, is right in
//! exact arithmetic but lost contacts in `f64`: between triangles in one plane sliding in
//! it, where the face normal's rounding makes the motion seem to leave the plane, and when
//! parallel triangles land on each other where only nearly parallel edges cross, which the
//! segment sweep's edge case skips.)
//!
//! **Rounding.** Axes are not normalised: a time does not depend on the axis's length, and
//! a zero axis (parallel edges) bounds nothing. Each projection is off by a few ulps of its
//! vertex's largest coordinate times `|l|₁`, which pads the comparisons of that end (a touch
//! within rounding is a touch, not a miss); an axis along which the whole motion moves the shapes by no more
//! than that rounding (a face normal of two triangles sliding in their common plane, whose
//! `v · n` is rounding) bounds no time, only whether they can meet. A rounded axis is still
//! an axis: its test is a necessary condition of the exact overlap, so rounding can only make
//! a contact come early by about the rounding over the closing speed, never lose it. The
//! converse fails on slivers reaching to `1e15`, whose rounded axes can leave shapes a
//! visible distance apart unseparated: a contact whose points do not touch is confirmed by
//! a distance measured from the features' nearby ends (`confirmed_time` in `mod.rs`).
//!
//! The start is decided by the pair's `Contact`, `Some` exactly when the exact overlap test
//! of `overlap/triangle_triangle.rs` says so: `t = 0`, its point and its normal reversed; a
//! zero motion is that test. Triangles apart at `t = 0` that touch within rounding of the
//! start are given the least positive `f32` time, so that `t = 0` is left to the exact test.
//! The point is midway between the features that touch at the contact time: those the axis
//! entered last names (a vertex and the other triangle's face, or two edges) when they are
//! within `2⁻⁴⁰` of the coordinates of each other, and otherwise the closest pair of the
//! triangles (a vertex and the other triangle, or two edges, the nearest of 15). The normal
//! is the axis entered last.

use crate::arrays::Each;
use glam::{DVec3, Vec3};

use super::{
    Polytope, SweepHit3, Toi, confirmed_time, contact_normal, contact_start, hit3_apart, largest_coordinate,
    needs_confirming, reversed_sweep, thin_sat_entry, touching,
};
use crate::query::closest::{
    closest_point_on_triangle, closest_points_segment_segment, closest_points_triangle_triangle,
};
use crate::{Aabb3, Capsule3, Contact, Obb3, Segment3, Sphere, Sweep, Triangle3};

impl Sweep<Triangle3> for Triangle3 {
    type Motion = Vec3;
    type Hit = SweepHit3;

    /// The first contact of this triangle moving by `motion` with `other`, by the
    /// separating-axis test over time (see `query/sweep/triangle_triangle.rs`).
    ///
    /// ```
    /// use raybox::{Sweep, Triangle3};
    /// use glam::Vec3;
    ///
    /// let floor = Triangle3::new(Vec3::new(-4.0, -4.0, 0.0), Vec3::new(4.0, -4.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
    /// // A vertical triangle, its lowest corner 2 above the floor, falling 4: lands at t = 0.5.
    /// let fin = Triangle3::new(Vec3::new(0.0, 0.0, 2.0), Vec3::new(1.0, 0.0, 3.0), Vec3::new(-1.0, 0.0, 3.0));
    /// let hit = fin.sweep(Vec3::new(0.0, 0.0, -4.0), &floor).unwrap();
    /// assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::Z, Vec3::ZERO));
    /// ```
    #[inline]
    fn sweep(&self, motion: Vec3, other: &Triangle3) -> Option<SweepHit3> {
        let (a, b) = (self.vertices().each(Vec3::as_dvec3), other.vertices().each(Vec3::as_dvec3));
        if !motion.is_finite() || motion == Vec3::ZERO {
            return contact_start(motion, || self.contact(other)).flatten();
        }
        // The separating-axis walk first: when it proves the triangles apart at `t = 0` (no
        // contact at all, or the axis entered last separating them at the start), the
        // exact overlap test of `contact_start` could only agree, and is skipped.
        let axes = axes(a, b);
        let entry = thin_sat_entry(&a, motion.as_dvec3(), &b, &axes);
        if entry.is_some_and(|(_, _, apart)| !apart)
            && let Some(done) = contact_start(motion, || self.contact(other))
        {
            return done;
        }
        triangles_toi(a, motion.as_dvec3(), b, entry?, &axes).map(hit3_apart)
    }
}

/// The 17 axes of the module docs: both face normals, the nine edge cross products and the
/// six in-plane edge normals (unnormalised; some may be zero).
#[inline]
fn axes(a: [DVec3; 3], b: [DVec3; 3]) -> [DVec3; 17] {
    let ea = [a[1] - a[0], a[2] - a[1], a[0] - a[2]];
    let eb = [b[1] - b[0], b[2] - b[1], b[0] - b[2]];
    let (na, nb) = (ea[0].cross(a[2] - a[0]), eb[0].cross(b[2] - b[0]));
    let mut out = [DVec3::ZERO; 17];
    out[0] = na;
    out[1] = nb;
    for i in 0..3 {
        for j in 0..3 {
            out[2 + 3 * i + j] = ea[i].cross(eb[j]);
        }
        out[11 + i] = na.cross(ea[i]);
        out[14 + i] = nb.cross(eb[i]);
    }
    out
}

/// The first contact of the triangle `a` moving by `t v`, `t` in `[0, 1]`, with `b`, for
/// triangles found apart at `t = 0` (by the exact test, or by the walk beyond rounding) and
/// a finite, non-zero `v`, from the walk's time and axis (one of `axes`, or none for a
/// touch within rounding of the start). When the points found there do not touch, the
/// time is confirmed by a locally accurate distance, which the rounded axes of a huge
/// sliver can miss ([`confirmed_time`]): `None` when that distance keeps them apart.
///
/// The point is midway between the features that touch at that time: those the axis names
/// when they do touch ([`named_touch`]), and otherwise the triangles' closest pair.
#[inline]
fn triangles_toi(
    a: [DVec3; 3],
    v: DVec3,
    b: [DVec3; 3],
    (t, normal, _): (f64, Option<DVec3>, bool),
    axes: &[DVec3; 17],
) -> Option<Toi> {
    let touching_at = |t: f64, normal: Option<DVec3>| {
        let a = a.each(|x| x + v * t);
        let touch = normal.and_then(|n| named_touch(a, b, n, axes));
        touch.unwrap_or_else(|| closest_points_triangle_triangle(a, b))
    };
    let (on_a, on_b) = touching_at(t, normal);
    if needs_confirming(on_a, on_b) {
        let (settled, _) = confirmed_time(&Polytope::given(&a), v, &Polytope::given(&b), t)?;
        if settled != t {
            let (on_a, on_b) = touching_at(settled, None);
            let normal = contact_normal(None, on_a, on_b, v);
            return Some(Toi { t: settled, point: (on_a + on_b) / 2.0, normal });
        }
    }
    Some(Toi { t, point: (on_a + on_b) / 2.0, normal: contact_normal(normal, on_a, on_b, v) })
}

/// The closest points of the features that the walk's last axis `n` (pointing from `b`
/// toward `a`, `±` one of `axes`) says meet at the contact, when they are within `2⁻⁴⁰` of
/// the largest coordinate of each other (touching, to the rounding of the contact time):
/// for `a`'s face normal or an in-plane normal of one of its edges, `b`'s vertex highest
/// along `n` against `a`; for `b`'s, `a`'s lowest vertex against `b`; for an edge cross
/// product, the two edges. Any touching pair is a contact point, so this saves the
/// closest pair's other 14 candidates; when the named features do not touch (a tie, or a
/// grazing motion whose time is less accurate), `None`, and the closest pair decides.
#[inline]
fn named_touch(a: [DVec3; 3], b: [DVec3; 3], n: DVec3, axes: &[DVec3; 17]) -> Option<(DVec3, DVec3)> {
    let k = axes.iter().position(|&l| l == n || l == -n)?;
    let (pa, pb) = (a.each(|x| x.dot(n)), b.each(|x| x.dot(n)));
    let pair = match k {
        0 | 11..14 => {
            let j = (0..3).fold(0, |m, j| if pb[j] > pb[m] { j } else { m });
            (closest_point_on_triangle(b[j], a), b[j])
        }
        1 | 14..17 => {
            let i = (0..3).fold(0, |m, i| if pa[i] < pa[m] { i } else { m });
            (a[i], closest_point_on_triangle(a[i], b))
        }
        _ => {
            let (i, j) = ((k - 2) / 3, (k - 2) % 3);
            closest_points_segment_segment((a[i], a[(i + 1) % 3]), (b[j], b[(j + 1) % 3]))
        }
    };
    touching(pair, largest_coordinate(&a, &b))
}

reversed_sweep!(3D: Triangle3 => Sphere, Triangle3 => Aabb3, Triangle3 => Obb3, Triangle3 => Capsule3, Triangle3 => Segment3);

#[cfg(test)]
mod tests {
    use crate::arrays::Each;
    use crate::{Aabb3, Sphere, Sweep, Triangle3};
    use glam::Vec3;

    fn floor() -> Triangle3 {
        Triangle3::new(Vec3::new(-4.0, -4.0, 0.0), Vec3::new(4.0, -4.0, 0.0), Vec3::new(0.0, 4.0, 0.0))
    }

    #[test]
    fn a_vertex_lands_an_edge_crosses_an_edge_and_a_face_meets_a_vertex() {
        // A vertex of the moving triangle landing on the floor's face.
        let fin =
            Triangle3::new(Vec3::new(0.0, 0.0, 2.0), Vec3::new(1.0, 0.0, 3.0), Vec3::new(-1.0, 0.0, 3.0));
        let hit = fin.sweep(Vec3::new(0.0, 0.0, -4.0), &floor()).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::Z, Vec3::ZERO));
        // The floor moving up into the fin: the same time, the normal reversed, the point
        // where the fin's vertex is (it stays still).
        let up = floor().sweep(Vec3::new(0.0, 0.0, 4.0), &fin).unwrap();
        assert_eq!((up.t, up.normal, up.point), (0.5, Vec3::NEG_Z, Vec3::new(0.0, 0.0, 2.0)));
        // In one plane: a triangle below the floor's edge y = -4, its top edge y = -6
        // (parallel to it), sliding +y by 4, meets that edge at t = 0.5.
        let below =
            Triangle3::new(Vec3::new(-1.0, -6.0, 0.0), Vec3::new(1.0, -6.0, 0.0), Vec3::new(0.0, -9.0, 0.0));
        let slide = below.sweep(Vec3::new(0.0, 4.0, 0.0), &floor()).unwrap();
        assert!((slide.t - 0.5).abs() < 1e-6 && (slide.normal - Vec3::NEG_Y).length() < 1e-6, "{slide:?}");
        // An edge across an edge: an upright triangle in the plane x = 0 whose vertical edge
        // (y = -6, z from -1 to 1) moves +y by 4 and crosses the floor's edge y = -4 at
        // t = 0.5, at the origin's x; the normal is the edges' common perpendicular.
        let wall =
            Triangle3::new(Vec3::new(0.0, -6.0, -1.0), Vec3::new(0.0, -6.0, 1.0), Vec3::new(0.0, -8.0, 0.0));
        let hit = wall.sweep(Vec3::new(0.0, 4.0, 0.0), &floor()).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec3::NEG_Y).length() < 1e-6, "{hit:?}");
        assert!((hit.point - Vec3::new(0.0, -4.0, 0.0)).length() < 1e-6, "{hit:?}");
        // Passing beside; already touching (the wall's edge through the slid triangle).
        assert!(fin.sweep(Vec3::new(9.0, 0.0, 0.0), &floor()).is_none());
        let through =
            Triangle3::new(Vec3::new(0.0, -7.0, -1.0), Vec3::new(0.0, -7.0, 1.0), Vec3::new(0.0, -8.0, 0.0));
        assert_eq!(through.sweep(Vec3::new(5.0, 0.0, 0.0), &below).map(|h| h.t), Some(0.0));
    }

    #[test]
    fn a_triangle_moving_against_a_ball_and_a_box() {
        // A floor rising 4 toward a ball 3 above it (radius 1): touches at t = 0.5.
        let ball = Sphere::new(Vec3::new(0.0, 0.0, 3.0), 1.0);
        let hit = floor().sweep(Vec3::new(0.0, 0.0, 4.0), &ball).unwrap();
        assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::NEG_Z, Vec3::new(0.0, 0.0, 2.0)));
        let b = Aabb3::new(Vec3::new(-1.0, -1.0, 2.0), Vec3::new(1.0, 1.0, 3.0));
        let hit = floor().sweep(Vec3::new(0.0, 0.0, 4.0), &b).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && hit.normal == Vec3::NEG_Z, "{hit:?}");
    }

    /// The sweep as it was before the separating-axis walk came first: the exact start,
    /// then the walk.
    fn sweep_exact_start_first(a: &Triangle3, motion: Vec3, b: &Triangle3) -> Option<crate::SweepHit3> {
        use super::{axes, contact_start, hit3_apart, thin_sat_entry, triangles_toi};
        use crate::Contact;
        if let Some(done) = contact_start(motion, || a.contact(b)) {
            return done;
        }
        let (da, db) = (a.vertices().each(Vec3::as_dvec3), b.vertices().each(Vec3::as_dvec3));
        let axes = axes(da, db);
        let entry = thin_sat_entry(&da, motion.as_dvec3(), &db, &axes)?;
        triangles_toi(da, motion.as_dvec3(), db, entry, &axes).map(hit3_apart)
    }

    #[test]
    fn skipping_the_exact_start_when_the_walk_proves_it_changes_no_bit() {
        // Pairs overlapping, touching (a vertex of one put on the other, or the pair
        // coplanar), apart, at several scales, with motions long and short.
        let mut next = crate::test_util::signed_units(0x51ed_270b);
        let (mut starts, mut hits) = (0, 0);
        for round in 0..20_000 {
            let scale = [1.0f32, 1e-5, 1e5, 3e12][round % 4];
            let mut point = || Vec3::new(next(), next(), next()) * scale;
            let a = [point(), point(), point()];
            let mut b = [point(), point(), point()];
            match round % 4 {
                1 => b[0] = a[0] + (a[1] - a[0]) * next().abs() * 0.5 + (a[2] - a[0]) * next().abs() * 0.5,
                2 => b[1] = a[2],
                3 => {
                    let (u, v) = (a[1] - a[0], a[2] - a[0]);
                    b = [0.0, 1.0, 2.0].each(|k| a[0] + u * (0.8 + k * next().abs()) + v * next());
                }
                _ => {}
            }
            let motion = Vec3::new(next(), next(), next()) * scale * [0.1f32, 1.0, 3.0][round % 3];
            let (Ok(ta), Ok(tb)) =
                (Triangle3::try_new(a[0], a[1], a[2]), Triangle3::try_new(b[0], b[1], b[2]))
            else {
                continue;
            };
            let got = ta.sweep(motion, &tb);
            let want = sweep_exact_start_first(&ta, motion, &tb);
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{ta:?} by {motion} against {tb:?}");
            starts += usize::from(got.is_some_and(|h| h.t == 0.0));
            hits += usize::from(got.is_some_and(|h| h.t > 0.0));
        }
        assert!(starts > 2_000 && hits > 2_000, "{starts} at the start, {hits} later");
    }

    #[test]
    fn the_features_the_axis_names_touch_or_the_closest_pair_decides() {
        // Hits of every kind: generic ones (a vertex on a face, crossing edges), triangles
        // falling flat onto parallel ones (the lowest vertices tie, and the first of them
        // may land beside the other triangle), coplanar ones sliding into each other, and
        // grazing motions, at several scales and far from the origin.
        use super::{axes, named_touch, thin_sat_entry};
        use crate::query::closest::{closest_point_on_triangle, closest_points_triangle_triangle};
        use glam::DVec3;
        let mut next = crate::test_util::signed_units(0x7a11_5eed);
        let mut kinds = [[0; 2]; 4];
        for round in 0..20_000 {
            let scale = [1.0f64, 1e-5, 1e5][round % 3];
            let offset = DVec3::splat([0.0, 1e3][round % 2] * scale);
            let mut point = || DVec3::new(next().into(), next().into(), next().into());
            let a0 = [point(), point(), point()];
            let b0 = [point(), point(), point()];
            let (a, v, b) = match round % 4 {
                // `a` a copy of `b` above its plane and shifted sideways, falling flat.
                1 => {
                    let n = (b0[1] - b0[0]).cross(b0[2] - b0[0]).normalize();
                    let side = DVec3::new(next().into(), next().into(), next().into()) * 0.7;
                    (b0.each(|x| x + n + side - side.dot(n) * n), -2.0 * n, b0)
                }
                // Coplanar: `a` in `b`'s plane, beside it, sliding toward it.
                2 => {
                    let (u, w) = (b0[1] - b0[0], b0[2] - b0[0]);
                    let a = [0.0, 1.0, 2.0]
                        .each(|k| b0[0] + u * (1.5 + k * f64::from(next().abs())) + w * f64::from(next()));
                    (a, -u * 2.0, b0)
                }
                // Grazing: flat, a height `h` above `b`'s plane, moving along it and down by
                // `2.2 h` (a slope of `h` over the motion's length, down to `1e-6`).
                3 => {
                    let n = (b0[1] - b0[0]).cross(b0[2] - b0[0]).normalize();
                    let h = [1e-2, 1e-4, 1e-6][round / 4 % 3];
                    let along = (b0[1] - b0[0]) * 2.0;
                    let a = b0.each(|x| x + n * h - along + 0.3 * (x - b0[0]));
                    (a, along * 2.0 - n * 2.2 * h, b0)
                }
                _ => (a0.each(|x| x - DVec3::X * 3.0), DVec3::X * 6.0 + a0[0] - b0[0], b0),
            };
            // Rounded to `f32` as a sweep's inputs are.
            let f = |x: DVec3| (x * scale + offset).as_vec3().as_dvec3();
            let (a, v, b) = (a.each(f), (v * scale).as_vec3().as_dvec3(), b.each(f));
            let axes = axes(a, b);
            let Some((t, Some(n), true)) = thin_sat_entry(&a, v, &b, &axes) else { continue };
            let moved = a.each(|x| x + v * t);
            let most = super::largest_coordinate(&moved, &b);
            let (p, q) = closest_points_triangle_triangle(moved, b);
            match named_touch(moved, b, n, &axes) {
                Some((x, y)) => {
                    // Touching, on their triangles, and no farther apart than the closest
                    // pair by more than the `2⁻⁴⁰` of the test.
                    let near = most / (1u64 << 40) as f64;
                    assert!(x.distance(y) <= near, "{a:?} by {v} against {b:?}");
                    // (The check's own foot is good to about `1e-13` of the coordinates.)
                    assert!(
                        x.distance(closest_point_on_triangle(x, moved)) <= 1e-12 * most,
                        "{a:?} {v} {b:?}"
                    );
                    assert!(y.distance(closest_point_on_triangle(y, b)) <= 1e-12 * most, "{a:?} {v} {b:?}");
                    assert!(p.distance(q) <= near, "the closest pair is {} apart", p.distance(q));
                    kinds[round % 4][0] += 1;
                }
                None => {
                    kinds[round % 4][1] += 1;
                }
            }
        }
        // Every kind mostly named (so the saving is real), and the flat falls' ties often
        // left to the closest pair (so its guard is tested).
        assert!(
            kinds.iter().all(|k| k[0] > 1_000) && kinds[1][1] > 200,
            "{kinds:?} named, by the closest pair"
        );
    }
}
