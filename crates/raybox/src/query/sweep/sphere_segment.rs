//! Ball against segment, both moving, 2D and 3D: conservative advancement on the GJK
//! distance (see `mod.rs`), with the start decided by the pair's `Contact`, `Some` exactly
//! when the overlap test of `overlap/sphere_segment.rs` says so (`decided_sweep!`). The
//! segment moving against the ball is the same walk with the roles swapped.

use super::decided_sweep;
use crate::{Circle, Segment2, Segment3, Sphere};

decided_sweep!(2D: Circle, Segment2);
decided_sweep!(3D: Sphere, Segment3);

#[cfg(test)]
mod tests {
    use crate::{Circle, Segment2, Sweep};
    use glam::Vec2;

    #[test]
    fn ball_onto_an_end_point() {
        let s = Segment2::new(Vec2::new(-4.0, 0.0), Vec2::ZERO);
        let hit = Circle::new(Vec2::new(3.0, 4.0), 1.0).sweep(Vec2::new(-6.0, -8.0), &s).unwrap();
        assert!((hit.t - 0.4).abs() < 1e-6 && (hit.normal - Vec2::new(0.6, 0.8)).length() < 1e-6, "{hit:?}");
    }
}
