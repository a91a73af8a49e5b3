//! Oriented box against triangle: move the triangle into the box frame (in `f64`), then
//! the 13-axis test of `aabb_triangle.rs`.

use crate::arrays::Each;
use crate::query::overlap::box_triangle_separated;
use crate::query::reverse_overlaps;
use crate::{Obb3, Overlaps, Triangle3};

impl Overlaps<Triangle3> for Obb3 {
    #[inline]
    fn overlaps(&self, other: &Triangle3) -> bool {
        let to_local = self.rotation().as_dmat3().transpose();
        let c = self.center().as_dvec3();
        let local = other.vertices().each(|p| to_local * (p.as_dvec3() - c));
        !box_triangle_separated(self.half_extents().as_dvec3(), local)
    }
}

reverse_overlaps!(Obb3 => Triangle3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    #[test]
    fn turned_box_against_a_floor_triangle() {
        // A unit cube turned 45 degrees about x reaches down to z = -sqrt(2)/2.
        let b = Obb3::new(Vec3::ZERO, Vec3::splat(0.5), Quat::from_rotation_x(std::f32::consts::FRAC_PI_4));
        let floor = |z: f32| {
            Triangle3::new(Vec3::new(-9.0, -9.0, z), Vec3::new(9.0, -9.0, z), Vec3::new(0.0, 9.0, z))
        };
        assert!(b.overlaps(&floor(-0.7)));
        assert!(!b.overlaps(&floor(-0.71)));
    }
}
