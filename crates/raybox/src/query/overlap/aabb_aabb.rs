//! Box against box (axis-aligned), 2D and 3D.
//!
//! Two closed intervals overlap when each starts before the other ends:
//! `a.min <= b.max && b.min <= a.max`. This covers containment either way and touching;
//! the common "is an endpoint of one inside the other" test misses a box that contains
//! the other (and, in 2D, cross-shaped overlaps with no corner inside).

use glam::Vec3A;

use crate::{Aabb2, Aabb3, Overlaps};

impl Overlaps<Aabb2> for Aabb2 {
    #[inline]
    fn overlaps(&self, other: &Aabb2) -> bool {
        // Both conditions are evaluated and combined with `&` (no branch to mispredict).
        self.min().cmple(other.max()).all() & other.min().cmple(self.max()).all()
    }
}

impl Overlaps<Aabb3> for Aabb3 {
    #[inline]
    fn overlaps(&self, other: &Aabb3) -> bool {
        // a.min <= b.max && b.min <= a.max on every axis, as one SIMD mask (no branch).
        let (a_min, a_max) = (Vec3A::from(self.min()), Vec3A::from(self.max()));
        let (b_min, b_max) = (Vec3A::from(other.min()), Vec3A::from(other.max()));
        (a_min.cmple(b_max) & b_min.cmple(a_max)).all()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn cross_shaped_overlap_with_no_corner_inside() {
        let wide = Aabb2::new(Vec2::new(-3.0, -1.0), Vec2::new(3.0, 1.0));
        let tall = Aabb2::new(Vec2::new(-1.0, -3.0), Vec2::new(1.0, 3.0));
        assert!(wide.overlaps(&tall) && tall.overlaps(&wide));
    }

    #[test]
    fn containment_and_touching() {
        let big = Aabb2::new(Vec2::splat(-5.0), Vec2::splat(5.0));
        let small = Aabb2::new(Vec2::splat(-1.0), Vec2::splat(1.0));
        assert!(big.overlaps(&small) && small.overlaps(&big));
        let beside = Aabb2::new(Vec2::new(5.0, 0.0), Vec2::new(6.0, 1.0));
        assert!(big.overlaps(&beside));
        let apart = Aabb2::new(Vec2::new(5.5, 0.0), Vec2::new(6.0, 1.0));
        assert!(!big.overlaps(&apart));
    }
}
