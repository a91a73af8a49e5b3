//! Moving segment against a static segment, 2D and 3D: conservative advancement on the
//! distance of the two segment cores (see `mod.rs`; the capsule–capsule sweep with both
//! radii zero), with the start decided by the pair's `Contact`, `Some` exactly when the
//! exact overlap test of `overlap/segment_segment.rs` says so (`decided_sweep!`).
//!
//! The distance comes from the exact segment kernel of `distance/segment_segment.rs`, not
//! GJK. In the plane it is exact to rounding and decides touching exactly; in space the
//! moving segment sweeps a parallelogram, which a second segment generically crosses at
//! one point, so segments in space do meet at a time of impact, and the walk steps to it
//! from one side in one or two Newton steps (the distance is then linear in `t`: the
//! separation along the common perpendicular). The reported `t` is where that distance
//! reaches `f64` rounding of the coordinates; at the `f32` time (a rounding of it), the
//! exact overlap test usually finds the segments a hair apart on one side or the other,
//! as for any two segments in space that are not built to meet exactly.

use super::decided_sweep;
use crate::{Segment2, Segment3};

decided_sweep!(same: Segment2, Segment3);

#[cfg(test)]
mod tests {
    use crate::{Segment2, Segment3, Sweep};
    use glam::{Vec2, Vec3};

    #[test]
    fn a_stick_falls_onto_a_ledge_and_across_a_bar() {
        let ledge = Segment2::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0));
        // Tilted: its lower end (1, 2) comes down first, at t = 0.5.
        let stick = Segment2::new(Vec2::new(1.0, 2.0), Vec2::new(2.0, 3.0));
        let hit = stick.sweep(Vec2::new(0.0, -4.0), &ledge).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && hit.normal == Vec2::Y, "{hit:?}");
        assert!((hit.point - Vec2::new(1.0, 0.0)).length() < 1e-6, "{hit:?}");
        // Past the ledge's end: nothing; already touching: t = 0 with zero motion too.
        assert!(stick.sweep(Vec2::new(9.0, -4.0), &ledge).is_none());
        let on = Segment2::new(Vec2::new(5.0, 0.0), Vec2::new(6.0, 1.0));
        assert_eq!(on.sweep(Vec2::ZERO, &ledge).map(|h| h.t), Some(0.0));
        // In space: a bar along x at z = 0, a stick along y at z = 2 falling across it.
        let bar = Segment3::new(Vec3::new(-2.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0));
        let stick = Segment3::new(Vec3::new(0.5, -1.0, 2.0), Vec3::new(0.5, 1.0, 2.0));
        let hit = stick.sweep(Vec3::new(0.0, 0.0, -4.0), &bar).unwrap();
        assert!((hit.t - 0.5).abs() < 1e-6 && (hit.normal - Vec3::Z).length() < 1e-6, "{hit:?}");
        assert!((hit.point - Vec3::new(0.5, 0.0, 0.0)).length() < 1e-6, "{hit:?}");
        let back = bar.sweep(Vec3::new(0.0, 0.0, 4.0), &stick).unwrap();
        assert!((back.t - 0.5).abs() < 1e-6 && (back.normal + hit.normal).length() < 1e-6, "{back:?}");
        // Falling beside the bar's end: nothing.
        let beside = Segment3::new(Vec3::new(2.5, -1.0, 2.0), Vec3::new(2.5, 1.0, 2.0));
        assert!(beside.sweep(Vec3::new(0.0, 0.0, -4.0), &bar).is_none());
    }

    /// Found by `tests/segments2d.rs`: a point that the segment reaches exactly as its
    /// motion ends. The last step of conservative advancement landed a rounding past
    /// `t = 1`, and the sweep reported a miss.
    #[test]
    fn touching_exactly_as_the_motion_ends() {
        let s = Segment2::new(Vec2::new(-0.5, 0.5), Vec2::new(0.5, -1.0));
        let point = Segment2::new(Vec2::new(1.0, -0.25), Vec2::new(1.0, -0.25));
        assert_eq!(s.sweep(Vec2::X, &point).map(|h| h.t), Some(1.0));
        assert_eq!(point.sweep(Vec2::NEG_X, &s).map(|h| h.t), Some(1.0));
        assert!(s.sweep(Vec2::X * 0.999, &point).is_none());
    }
}
