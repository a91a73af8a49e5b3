//! Moving oriented box against a static triangle (3D): the functions of
//! `aabb_triangle.rs` (the separating-axis test over time, the start decided by the exact
//! overlap test of `overlap/obb_triangle.rs`).

use glam::Vec3;

use super::SweepHit3;
use super::aabb_triangle::box_triangle_sweep;
use crate::{Obb3, Sweep, Triangle3};

impl Sweep<Triangle3> for Obb3 {
    type Motion = Vec3;
    type Hit = SweepHit3;

    #[inline]
    fn sweep(&self, motion: Vec3, other: &Triangle3) -> Option<SweepHit3> {
        box_triangle_sweep(self, motion, other)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Obb3, Sweep, Triangle3};
    use glam::{Quat, Vec3};

    #[test]
    fn cube_on_its_corner_onto_a_triangle() {
        let t =
            Triangle3::new(Vec3::new(-4.0, -4.0, 0.0), Vec3::new(4.0, -4.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
        let q = Quat::from_rotation_arc(Vec3::ONE.normalize(), Vec3::Z);
        let cube = Obb3::new(Vec3::new(0.0, 0.0, 5.0), Vec3::ONE, q);
        let hit = cube.sweep(Vec3::new(0.0, 0.0, -5.0), &t).unwrap();
        assert!((hit.t - (5.0 - 3f32.sqrt()) / 5.0).abs() < 1e-5, "{hit:?}");
    }
}
