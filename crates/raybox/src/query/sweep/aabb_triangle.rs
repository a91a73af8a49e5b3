//! Moving box (axis-aligned here, and oriented in `obb_triangle.rs`, which shares these
//! functions) against a static triangle (3D): the separating-axis test over time
//! (`sat_sweep` in `mod.rs`: the 13 axes of a box and a triangle, exact up to `f64`
//! rounding), with the start decided by the exact overlap test (`overlap/aabb_triangle.rs`,
//! `overlap/obb_triangle.rs`): a box that already overlaps the triangle gives `t = 0` and
//! the penetration normal (`overlapping_toi` in `mod.rs`), and a zero motion nothing more.
//! Against a triangle whose coordinates reach far beyond the box's (a sliver to `1e15`,
//! whose rounded axes can miss a visible gap), the walk's contact is confirmed by a
//! distance measured from the features' nearby ends (`sat_entry`, `confirmed_time` in
//! `mod.rs`), in [`sweep_time`] as in the sweep, so that the two agree.

use glam::Vec3;

use super::{Start, SweepHit3, apart_time, hit3, hit3_apart, overlapping_toi, sat_entry, sat_sweep};
use crate::query::distance::ToRounded;
use crate::{Aabb3, Overlaps, Sweep, Triangle3};

impl Sweep<Triangle3> for Aabb3 {
    type Motion = Vec3;
    type Hit = SweepHit3;

    #[inline]
    fn sweep(&self, motion: Vec3, other: &Triangle3) -> Option<SweepHit3> {
        box_triangle_sweep(self, motion, other)
    }
}

/// [`Sweep::sweep`] of a box (`Aabb3` or `Obb3`) against a triangle.
#[inline]
pub(crate) fn box_triangle_sweep<B>(shape: &B, motion: Vec3, other: &Triangle3) -> Option<SweepHit3>
where
    B: ToRounded + Overlaps<Triangle3>,
{
    if !motion.is_finite() {
        return None;
    }
    let (a, b) = (shape.to_rounded(), other.to_rounded());
    if shape.overlaps(other) {
        return Some(hit3(overlapping_toi(&a, &b)));
    }
    if motion == Vec3::ZERO {
        return None;
    }
    sat_sweep(&a.core, motion.as_dvec3(), &b.core, false, Start::Exact).map(hit3_apart)
}

/// The `t` of [`box_triangle_sweep`], without its point and normal (which cost a GJK run):
/// the same value, for a walk that tests many triangles and finishes only the first. A `t`
/// past `limit` may be `None` instead (found sooner).
#[inline]
pub(crate) fn sweep_time<B>(shape: &B, motion: Vec3, other: &Triangle3, limit: f32) -> Option<f32>
where
    B: ToRounded + Overlaps<Triangle3>,
{
    if !motion.is_finite() {
        return None;
    }
    if shape.overlaps(other) {
        return Some(0.0);
    }
    if motion == Vec3::ZERO {
        return None;
    }
    let (a, b) = (shape.to_rounded(), other.to_rounded());
    // Any `f64` time that rounds to at most `limit` is below the next `f32` up.
    let horizon = f64::from(limit.next_up()).min(1.0);
    sat_entry(&a.core, motion.as_dvec3(), &b.core, false, horizon, Start::Exact).map(|(t, _)| apart_time(t))
}

#[cfg(test)]
mod tests {
    use crate::{Aabb3, Sweep, Triangle3};
    use glam::Vec3;

    #[test]
    fn box_onto_a_triangle() {
        let t =
            Triangle3::new(Vec3::new(-4.0, 0.0, -4.0), Vec3::new(4.0, 0.0, -4.0), Vec3::new(0.0, 0.0, 4.0));
        let b = Aabb3::new(Vec3::new(-0.5, 2.0, -0.5), Vec3::new(0.5, 3.0, 0.5));
        let hit = b.sweep(Vec3::new(0.0, -4.0, 0.0), &t).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec3::Y).length() < 1e-6, "{hit:?}");
    }
}
