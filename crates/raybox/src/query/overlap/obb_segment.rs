//! Oriented box against segment (3D): move the segment into the box frame (in `f64`), then
//! the 13-axis test of `aabb_triangle.rs` on the segment as a degenerate triangle
//! `(p, q, q)`: its zero normal and zero edge are skipped, which leaves the box's three face
//! normals and the three cross products of its axes with the segment (Ericson, *Real-Time
//! Collision Detection*, 5.3.3), as for `obb_triangle.rs`.

use crate::query::overlap::box_triangle_separated;
use crate::query::reverse_overlaps;
use crate::{Obb3, Overlaps, Segment3};

impl Overlaps<Segment3> for Obb3 {
    /// Closed, in `f64` in the box frame.
    ///
    /// ```
    /// use raybox::{Obb3, Overlaps, Segment3};
    /// use glam::{Quat, Vec3};
    ///
    /// // A unit cube turned 45 degrees about z reaches out to x = sqrt(2) / 2 = 0.7071.
    /// let b = Obb3::new(Vec3::ZERO, Vec3::splat(0.5), Quat::from_rotation_z(std::f32::consts::FRAC_PI_4));
    /// let post = |x: f32| Segment3::new(Vec3::new(x, 0.0, -3.0), Vec3::new(x, 0.0, 3.0));
    /// assert!(b.overlaps(&post(0.7)) && post(0.7).overlaps(&b));
    /// assert!(!b.overlaps(&post(0.71)));
    /// ```
    fn overlaps(&self, other: &Segment3) -> bool {
        let to_local = self.rotation().as_dmat3().transpose();
        let c = self.center().as_dvec3();
        let [p, q] = [other.start(), other.end()].map(|x| to_local * (x.as_dvec3() - c));
        !box_triangle_separated(self.half_extents().as_dvec3(), [p, q, q])
    }
}

reverse_overlaps!(Obb3 => Segment3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    #[test]
    fn turned_box_edge_axes_and_points() {
        let b = Obb3::new(Vec3::new(1.0, 0.0, 0.0), Vec3::new(1.0, 0.5, 0.5), Quat::IDENTITY);
        // With an identity rotation the frame change is exact: touching counts.
        let s = |p: Vec3, q: Vec3| Segment3::new(p, q);
        assert!(b.overlaps(&s(Vec3::new(2.0, 0.5, 0.5), Vec3::new(3.0, 3.0, 3.0)))); // a corner
        assert!(!b.overlaps(&s(Vec3::new(2.01, 0.5, 0.5), Vec3::new(3.0, 3.0, 3.0))));
        // Past the edge x = 2, y = 0.5 diagonally: x + y = 2.5 touches.
        assert!(b.overlaps(&s(Vec3::new(2.5, 0.0, 0.0), Vec3::new(1.5, 1.0, 0.0))));
        assert!(!b.overlaps(&s(Vec3::new(2.6, 0.0, 0.0), Vec3::new(1.6, 1.0, 0.0))));
        // Inside, and a point inside and outside.
        assert!(s(Vec3::new(0.5, 0.0, 0.0), Vec3::new(1.5, 0.1, 0.1)).overlaps(&b));
        assert!(b.overlaps(&s(Vec3::ONE * 0.25, Vec3::ONE * 0.25)));
        assert!(!b.overlaps(&s(Vec3::ONE, Vec3::ONE)));
        // Turned a quarter about x: half extents y and z trade places.
        let turned = Obb3::new(
            Vec3::ZERO,
            Vec3::new(1.0, 2.0, 0.25),
            Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        );
        assert!(turned.overlaps(&s(Vec3::new(0.0, 0.2, -1.9), Vec3::new(0.0, 0.2, 1.9))));
        assert!(!turned.overlaps(&s(Vec3::new(0.0, 0.3, -1.9), Vec3::new(0.0, 0.3, 1.9))));
    }
}
