//! Capsule against segment, both moving, 2D and 3D: conservative advancement on the GJK
//! distance (see `mod.rs`) of two segment cores, the segment's of radius zero; the start is
//! the pair's `Contact` (the capsule kernel, `Some` exactly when `Overlaps` says so,
//! `decided_sweep!`). The segment moving against the capsule is the same walk with the
//! roles swapped.

use super::decided_sweep;
use crate::{Capsule2, Capsule3, Segment2, Segment3};

decided_sweep!(2D: Capsule2, Segment2);
decided_sweep!(3D: Capsule3, Segment3);

#[cfg(test)]
mod tests {
    use crate::{Capsule2, Segment2, Sweep};
    use glam::Vec2;

    #[test]
    fn capsule_onto_a_ledge() {
        let ledge = Segment2::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0));
        let c = Capsule2::new(Vec2::new(0.0, 2.0), Vec2::new(0.0, 3.0), 0.5);
        let hit = c.sweep(Vec2::new(0.0, -3.0), &ledge).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec2::Y).length() < 1e-6, "{hit:?}");
    }
}
