//! The write-ups' own algorithms, written plainly as baselines.
//!
//! raybox grew out of write-ups that timed these methods in loops. They are kept here,
//! bugs included, for two reasons: `benches/seed_methods.rs` times each beside
//! raybox's query, and `src/bin/seed_report.rs` counts where each one answers
//! differently from the exact reference vectors. Each function says what the method
//! does and where it goes wrong (see `shared/EDGE-CASES.md`, entries 8, 18 and 19).
//! None of them is used by raybox.

use glam::{Vec2, Vec3};
use raybox::{Aabb3, Obb2, Obb3, Overlaps, Ray3, RayCast, Sphere};
use serde_json::Value;

use crate::vectors::{self, Tally, tally};

/// Ray–AABB by "nearest faces" (3D): for each axis, the distance to the face the ray
/// moves toward, `t_i = (near_i - o_i) / d_i`; the ray enters at the largest `t_i` and
/// leaves at the smallest far-face `t`.
///
/// **Flaw: the zero-t sentinel** (EDGE-CASES 8). An axis with `d_i == 0` contributes
/// `t_i = 0` (and a far `t` of `+inf`) instead of the condition `min_i <= o_i <= max_i`:
/// a ray parallel to a slab but outside it is never rejected (collision-rs #25), and the
/// `0` clamps the entry of a line query (`t_min < 0`) to 0.
#[must_use]
pub fn ray_aabb_nearest_faces(b: &Aabb3, ray: &Ray3) -> bool {
    let (o, d) = (ray.origin(), ray.dir());
    let (mut t_near, mut t_far) = (f32::NEG_INFINITY, f32::INFINITY);
    for i in 0..3 {
        let (near_i, far_i) = if d[i] == 0.0 {
            (0.0, f32::INFINITY) // the sentinel: "no constraint" on this axis
        } else if d[i] > 0.0 {
            ((b.min()[i] - o[i]) / d[i], (b.max()[i] - o[i]) / d[i])
        } else {
            ((b.max()[i] - o[i]) / d[i], (b.min()[i] - o[i]) / d[i])
        };
        t_near = t_near.max(near_i);
        t_far = t_far.min(far_i);
    }
    t_near.max(ray.t_min()) <= t_far.min(ray.t_max())
}

/// Ray–AABB by its 6 face planes: intersect the ray with each face's plane, recompute
/// the point `o + t d`, and keep it if it lies in the face's rectangle and `t` is in
/// `[t_min, t_max]`.
///
/// **Flaws.** A ray whose whole range lies inside the box crosses no face and is
/// reported as a miss (EDGE-CASES 9); a ray lying in a face plane (`d_i == 0`) never
/// meets that face; and the recomputed point is rounded, so a ray through an edge or a
/// corner can land a hair outside both faces that share it (EDGE-CASES 10).
#[must_use]
pub fn ray_aabb_face_planes(b: &Aabb3, ray: &Ray3) -> bool {
    let (o, d) = (ray.origin(), ray.dir());
    let (min, max) = (b.min(), b.max());
    for axis in 0..3 {
        if d[axis] == 0.0 {
            continue; // parallel to both faces of this axis
        }
        for plane in [min[axis], max[axis]] {
            let t = (plane - o[axis]) / d[axis];
            if !(ray.t_min() <= t && t <= ray.t_max()) {
                continue;
            }
            let p = o + t * d;
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            if min[u] <= p[u] && p[u] <= max[u] && min[v] <= p[v] && p[v] <= max[v] {
                return true;
            }
        }
    }
    false
}

/// Sphere–AABB by growing the box by `r`: the sphere overlaps when its centre lies in
/// `[min - r, max + r]` on every axis (in `N` dimensions, so it serves circles too).
///
/// **Flaw** (EDGE-CASES 18): the grown box has square corners and edges, the true
/// region (the box's Minkowski sum with the ball) has rounded ones, so a centre in a
/// corner or edge region, farther than `r` from the box, is reported as overlapping.
#[must_use]
pub fn sphere_aabb_grown_box<const N: usize>(center: [f32; N], r: f32, min: [f32; N], max: [f32; N]) -> bool {
    (0..N).all(|i| min[i] - r <= center[i] && center[i] <= max[i] + r)
}

/// [`sphere_aabb_grown_box`] on raybox's types.
#[must_use]
pub fn sphere_aabb3_grown_box(s: &Sphere, b: &Aabb3) -> bool {
    sphere_aabb_grown_box(s.center().to_array(), s.radius(), b.min().to_array(), b.max().to_array())
}

/// Whether `p` is in the closed OBB `b` (its local coordinates within the half extents).
fn obb3_contains(b: &Obb3, p: Vec3) -> bool {
    let local = b.point_to_local(p);
    local.abs().cmple(b.half_extents()).all()
}

/// The segment from `p` to `q` against OBB `b`: the slab test in the box frame, the
/// way the write-up cast its rays (with `1 / d`, the reciprocal, and no parallel case).
fn segment_hits_obb3(b: &Obb3, p: Vec3, q: Vec3) -> bool {
    let o = b.point_to_local(p);
    let d = b.rotation().transpose() * (q - p);
    let h = b.half_extents();
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for i in 0..3 {
        let inv = 1.0 / d[i];
        let (a, c) = ((-h[i] - o[i]) * inv, (h[i] - o[i]) * inv);
        t0 = t0.max(a.min(c));
        t1 = t1.min(a.max(c));
    }
    t0 <= t1
}

/// OBB–OBB by vertex containment plus 12 edge ray casts: the boxes overlap if a
/// corner of either box is inside the other, or if one of `a`'s 12 edges, cast as a
/// segment, hits `b`.
///
/// **Flaws.** Only `a`'s edges are cast: when `b` passes through a face of `a` with
/// none of its corners inside `a` and without touching any of `a`'s edges (a long thin
/// `b` through the middle of a big face of `a`), the overlap is missed. The edge casts
/// use the reciprocal slab test without a parallel case, so an edge lying exactly in
/// one of `b`'s face planes computes `0 * inf = NaN`, which `f32::max`/`min` then
/// silently drop (EDGE-CASES 1). It also costs 16 point transforms and 12 slab tests.
#[must_use]
pub fn obb3_obb3_vertices_edges(a: &Obb3, b: &Obb3) -> bool {
    let (ca, cb) = (a.corners(), b.corners());
    if ca.iter().any(|&p| obb3_contains(b, p)) || cb.iter().any(|&p| obb3_contains(a, p)) {
        return true;
    }
    // Corner i has bit k set when it is on the + side of axis k; an edge joins two
    // corners that differ in one bit. This relies only on `corners()` listing all eight.
    let edges = (0..8usize).flat_map(|i| (0..3).map(move |k| (i, i ^ (1 << k)))).filter(|(i, j)| i < j);
    edges.into_iter().any(|(i, j)| segment_hits_obb3(b, ca[i], ca[j]))
}

/// The 2D OBB separating-axis test with the endpoint-only interval test: on each of the
/// 4 face axes, project both boxes' corners to intervals `[a_lo, a_hi]`, `[b_lo, b_hi]`,
/// and call them overlapping when `b_lo` or `b_hi` lies in `[a_lo, a_hi]`.
///
/// **Flaw** (EDGE-CASES 19): when `b`'s interval contains `a`'s (neither endpoint of
/// `b` is inside `a`'s interval), the axis is taken as separating: a large box around a
/// small one, or a cross-shaped overlap, is reported apart.
#[must_use]
pub fn obb2_obb2_endpoint_sat(a: &Obb2, b: &Obb2) -> bool {
    let (ca, cb) = (a.corners(), b.corners());
    let interval = |corners: &[Vec2; 4], axis: Vec2| {
        corners
            .iter()
            .map(|c| c.dot(axis))
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
    };
    a.axes().into_iter().chain(b.axes()).all(|axis| {
        let (a_lo, a_hi) = interval(&ca, axis);
        let (b_lo, b_hi) = interval(&cb, axis);
        (a_lo <= b_lo && b_lo <= a_hi) || (a_lo <= b_hi && b_hi <= a_hi)
    })
}

/// One line of the comparison with the reference vectors.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// The write-up's method.
    pub method: &'static str,
    /// The reference file (`crates/raybox/tests/vectors/<file>.json`).
    pub file: &'static str,
    /// How the baseline fares on the binding cases.
    pub seed: Tally,
    /// How raybox's query fares on the same cases.
    pub raybox: Tally,
}

/// Every baseline against the exact reference vectors, beside raybox's query on the
/// same binding cases (`f32` inputs; see [`crate::vectors`] for which cases bind).
#[must_use]
pub fn compare_with_vectors() -> Vec<Row> {
    let ray = |i: &Value| Some((vectors::aabb3(&i["box"])?, vectors::ray3(i)?));
    let ball3 = |i: &Value| Some((vectors::sphere(&i["sphere"])?, vectors::aabb3(&i["box"])?));
    let ball2 = |i: &Value| Some((vectors::circle(&i["sphere"])?, vectors::aabb2(&i["box"])?));
    let obb3s = |i: &Value| Some((vectors::obb3(&i["a"])?, vectors::obb3(&i["b"])?));
    let obb2s = |i: &Value| Some((vectors::obb2(&i["a"])?, vectors::obb2(&i["b"])?));
    vec![
        Row {
            method: "ray–AABB by nearest faces (zero-t sentinel)",
            file: "ray_aabb_3d",
            seed: tally("ray_aabb_3d", "hit", ray, |(b, r)| ray_aabb_nearest_faces(b, r)),
            raybox: tally("ray_aabb_3d", "hit", ray, |(b, r)| b.ray_span(r).is_some()),
        },
        Row {
            method: "ray–AABB by its 6 face planes",
            file: "ray_aabb_3d",
            seed: tally("ray_aabb_3d", "hit", ray, |(b, r)| ray_aabb_face_planes(b, r)),
            raybox: tally("ray_aabb_3d", "hit", ray, |(b, r)| b.ray_span(r).is_some()),
        },
        Row {
            method: "sphere–AABB by growing the box by r",
            file: "sphere_aabb_3d",
            seed: tally("sphere_aabb_3d", "overlap", ball3, |(s, b)| sphere_aabb3_grown_box(s, b)),
            raybox: tally("sphere_aabb_3d", "overlap", ball3, |(s, b)| s.overlaps(b)),
        },
        Row {
            method: "circle–AABB by growing the box by r",
            file: "circle_aabb_2d",
            seed: tally("circle_aabb_2d", "overlap", ball2, |(s, b)| {
                sphere_aabb_grown_box(
                    s.center().to_array(),
                    s.radius(),
                    b.min().to_array(),
                    b.max().to_array(),
                )
            }),
            raybox: tally("circle_aabb_2d", "overlap", ball2, |(s, b)| s.overlaps(b)),
        },
        Row {
            method: "OBB–OBB by vertex containment + 12 edge casts",
            file: "obb_obb_3d",
            seed: tally("obb_obb_3d", "overlap", obb3s, |(a, b)| obb3_obb3_vertices_edges(a, b)),
            raybox: tally("obb_obb_3d", "overlap", obb3s, |(a, b)| a.overlaps(b)),
        },
        Row {
            method: "2D OBB SAT, endpoint-only interval test",
            file: "obb_obb_2d",
            seed: tally("obb_obb_2d", "overlap", obb2s, |(a, b)| obb2_obb2_endpoint_sat(a, b)),
            raybox: tally("obb_obb_2d", "overlap", obb2s, |(a, b)| a.overlaps(b)),
        },
    ]
}

/// [`compare_with_vectors`] as a markdown table.
#[must_use]
pub fn markdown_table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| write-up's method | reference file | binding cases | method wrong | of which false hits | raybox wrong |\n\
         | --- | --- | ---: | ---: | ---: | ---: |\n",
    );
    for r in rows {
        out += &format!(
            "| {} | `{}.json` | {} | {} | {} | {} |\n",
            r.method, r.file, r.seed.binding, r.seed.wrong, r.seed.false_positive, r.raybox.wrong
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn corners_follow_the_bit_order_the_edges_assume() {
        let b = Obb3::new(Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0), Quat::IDENTITY);
        for (i, c) in b.corners().iter().enumerate() {
            for k in 0..3 {
                assert_eq!(c[k] > 0.0, i & (1 << k) != 0, "corner {i} = {c}");
            }
        }
    }

    #[test]
    fn nearest_faces_reports_the_collision_rs_25_false_hit() {
        // The 2D case of collision-rs #25, lifted to 3D (z inside the box).
        let b = Aabb3::new(Vec3::new(21.0, 14.0, -1.0), Vec3::new(23.0, 16.0, 1.0));
        let ray = Ray3::new(Vec3::new(6.0, 0.0, 0.0), Vec3::Y);
        assert!(ray_aabb_nearest_faces(&b, &ray));
        assert!(b.ray_span(&ray).is_none());
    }

    #[test]
    fn face_planes_miss_a_segment_inside_the_box() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let inside = Ray3::segment(Vec3::splat(0.25), Vec3::splat(0.75));
        assert!(!ray_aabb_face_planes(&b, &inside));
        assert!(b.ray_span(&inside).is_some());
    }

    #[test]
    fn grown_box_is_wrong_near_a_corner() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let s = Sphere::new(Vec3::splat(1.4), 0.5);
        assert!(sphere_aabb3_grown_box(&s, &b) && !s.overlaps(&b));
    }

    #[test]
    fn endpoint_only_sat_misses_containment() {
        let big = Obb2::new(Vec2::ZERO, Vec2::splat(5.0), 0.3);
        let small = Obb2::new(Vec2::new(0.5, 0.0), Vec2::splat(1.0), 1.0);
        assert!(big.overlaps(&small));
        assert!(obb2_obb2_endpoint_sat(&small, &big) != obb2_obb2_endpoint_sat(&big, &small));
    }

    #[test]
    fn vertex_edge_test_misses_a_rod_through_a_face() {
        // a: a flat slab; b: a thin rod through its middle, ends well outside.
        let a = Obb3::new(Vec3::ZERO, Vec3::new(2.0, 2.0, 0.1), Quat::IDENTITY);
        let b = Obb3::new(Vec3::ZERO, Vec3::new(0.1, 0.1, 3.0), Quat::from_rotation_z(0.4));
        assert!(a.overlaps(&b));
        assert!(!obb3_obb3_vertices_edges(&a, &b));
        assert!(obb3_obb3_vertices_edges(&b, &a), "casting the rod's edges finds it");
    }
}
