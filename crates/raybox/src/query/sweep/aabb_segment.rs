//! Axis-aligned box against segment, both moving, 2D and 3D: the separating-axis test over
//! time (`sat_sweep` in `mod.rs`: a box and a segment have a complete axis set), with the
//! start decided by the pair's `Contact`, `Some` exactly when the exact overlap test of
//! `overlap/aabb_segment.rs` says so (`decided_sweep!`). The segment moving against the
//! box is the same test with the roles swapped, not a reversed call.

use super::decided_sweep;
use crate::{Aabb2, Aabb3, Segment2, Segment3};

decided_sweep!(2D: Aabb2, Segment2);
decided_sweep!(3D: Aabb3, Segment3);

#[cfg(test)]
mod tests {
    use crate::{Aabb2, Segment2, Sweep};
    use glam::Vec2;

    #[test]
    fn box_onto_a_ledge() {
        let ledge = Segment2::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0));
        let b = Aabb2::new(Vec2::new(0.0, 2.0), Vec2::new(1.0, 3.0));
        let hit = b.sweep(Vec2::new(0.0, -4.0), &ledge).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec2::Y).length() < 1e-6, "{hit:?}");
    }
}
