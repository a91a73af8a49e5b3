//! Three kernels written the way docs/BENCHMARKS.md ("Why, from profiles") recommends for
//! `crates/raybox/src`, so that the recommendations come with numbers. They are not
//! used by raybox; `benches/prototypes.rs` times each beside raybox's query, after
//! checking that it gives raybox's answer on the benchmark inputs and on the
//! reference vectors.

use glam::{DVec3, Vec3A};
use raybox::{Aabb3, Obb3, Ray3, Sphere};

/// The slab test with two correctly rounded vector divisions instead of six scalar ones,
/// and no branch per axis: `(min - o) / d` and `(max - o) / d` on `Vec3A`. Lanes with
/// `d == 0` (parallel to the slab) are replaced by `(-inf, inf)` when the origin is in
/// the slab and `(inf, -inf)` when it is not, so their `0 / 0 = NaN` never counts.
#[must_use]
pub fn ray_aabb3_span(b: &Aabb3, ray: &Ray3) -> Option<(f32, f32)> {
    let (min, max) = (Vec3A::from(b.min()), Vec3A::from(b.max()));
    let (o, d) = (Vec3A::from(ray.origin()), Vec3A::from(ray.dir()));
    let (t0, t1) = ((min - o) / d, (max - o) / d);
    let parallel = d.cmpeq(Vec3A::ZERO);
    let in_slab = o.cmpge(min) & o.cmple(max);
    let (inf, neg_inf) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY);
    let near = Vec3A::select(parallel, Vec3A::select(in_slab, neg_inf, inf), t0.min(t1));
    let far = Vec3A::select(parallel, Vec3A::select(in_slab, inf, neg_inf), t0.max(t1));
    let t_enter = near.max_element().max(ray.t_min());
    let t_exit = far.min_element().min(ray.t_max());
    (t_enter <= t_exit).then_some((t_enter, t_exit))
}

/// Ray–ball with the hit decided before any division: with `f = o - c`, the line meets
/// the ball when `|f × d|² <= r² |d|²` (the squared distance from the centre to the line,
/// times `|d|²`), in `f64`. Only then the two roots `(-f·d ± √(r²|d|² - |f × d|²)) / |d|²`
/// (one square root, one division), clipped to `[t_min, t_max]`.
#[must_use]
pub fn ray_sphere_span(s: &Sphere, ray: &Ray3) -> Option<(f32, f32)> {
    let f = ray.origin().as_dvec3() - s.center().as_dvec3();
    let d = ray.dir().as_dvec3();
    let r = f64::from(s.radius());
    let a = d.length_squared();
    let disc = r * r * a - f.cross(d).length_squared();
    if disc < 0.0 {
        return None;
    }
    let b = f.dot(d);
    let root = disc.sqrt();
    // The stable pair: q = -(b + sign(b) √disc), t = q / a and c / q (Haines et al. 2019).
    let q = -(b + b.signum() * root);
    let (t1, t2) = if q == 0.0 {
        (-b / a, -b / a)
    } else {
        let c = f.length_squared() - r * r;
        let (x, y) = (c / q, q / a);
        if x <= y { (x, y) } else { (y, x) }
    };
    let t_enter = t1.max(f64::from(ray.t_min()));
    let t_exit = t2.min(f64::from(ray.t_max()));
    (t_enter <= t_exit).then_some((t_enter as f32, t_exit as f32))
}

/// `h · |axes · l|`: the radius of a box's projection on `l` (not normalised).
#[inline(always)]
fn radius(axes: &[DVec3; 3], h: DVec3, l: DVec3) -> f64 {
    h.x * axes[0].dot(l).abs() + h.y * axes[1].dot(l).abs() + h.z * axes[2].dot(l).abs()
}

/// OBB–OBB by the 15-axis separating-axis test in straight-line `f64` code: the same
/// direct projections as raybox's `obb3_obb3_separated` (exactly-zero cross products
/// skipped, no epsilon), without the `flat_map`/`filter`/`any` chain that the profile shows
/// out of line.
#[must_use]
pub fn obb3_obb3_overlap(a: &Obb3, b: &Obb3) -> bool {
    let (axes_a, axes_b) = (a.axes().map(|v| v.as_dvec3()), b.axes().map(|v| v.as_dvec3()));
    let (ha, hb) = (a.half_extents().as_dvec3(), b.half_extents().as_dvec3());
    let t = b.center().as_dvec3() - a.center().as_dvec3();
    let separates = |l: DVec3| t.dot(l).abs() > radius(&axes_a, ha, l) + radius(&axes_b, hb, l);
    for l in axes_a.iter().chain(&axes_b) {
        if separates(*l) {
            return false;
        }
    }
    for u in &axes_a {
        for v in &axes_b {
            let l = u.cross(*v);
            if l != DVec3::ZERO && separates(l) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{sets, vectors};
    use raybox::{Overlaps, RayCast};

    #[test]
    fn prototypes_give_raybox_answers_on_the_benchmark_inputs() {
        for (b, r) in sets::ray_aabb3() {
            let want = b.ray_span(&r).map(|s| (s.t_enter, s.t_exit));
            assert_eq!(ray_aabb3_span(&b, &r), want, "{b:?} {r:?}");
        }
        let spheres = sets::ray_sphere();
        let same = spheres
            .iter()
            .filter(|(s, r)| ray_sphere_span(s, r).is_some() == s.ray_span(r).is_some())
            .count();
        assert_eq!(same, spheres.len());
        for (a, b) in sets::obb3_obb3() {
            assert_eq!(obb3_obb3_overlap(&a, &b), a.overlaps(&b));
        }
    }

    #[test]
    fn prototypes_are_exact_on_the_reference_vectors() {
        let ray = |i: &serde_json::Value| Some((vectors::aabb3(&i["box"])?, vectors::ray3(i)?));
        assert_eq!(
            vectors::tally("ray_aabb_3d", "hit", ray, |(b, r)| ray_aabb3_span(b, r).is_some()).wrong,
            0
        );
        let ball = |i: &serde_json::Value| Some((vectors::sphere(&i["sphere"])?, vectors::ray3(i)?));
        assert_eq!(
            vectors::tally("ray_sphere_3d", "hit", ball, |(s, r)| ray_sphere_span(s, r).is_some()).wrong,
            0
        );
        let obbs = |i: &serde_json::Value| Some((vectors::obb3(&i["a"])?, vectors::obb3(&i["b"])?));
        assert_eq!(vectors::tally("obb_obb_3d", "overlap", obbs, |(a, b)| obb3_obb3_overlap(a, b)).wrong, 0);
    }
}
