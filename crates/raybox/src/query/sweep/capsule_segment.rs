//! Moving capsule against a static segment, 2D and 3D: conservative advancement on the GJK
//! distance (see `mod.rs`).

use super::ca_sweep;
use crate::{Capsule2, Capsule3, Segment2, Segment3};

ca_sweep!(moving 2D: Capsule2, Segment2);
ca_sweep!(moving 3D: Capsule3, Segment3);

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
