//! Oriented box against oriented box, 2D and 3D: GJK on the two boxes, in `f64`; zero
//! exactly when the separating-axis test says they overlap (a separated pair that GJK
//! rounds to zero reports the smallest positive `f32`).

use super::{f2, f3, gjk_distance};
use crate::{Obb2, Obb3};
use glam::{Vec2, Vec3};

gjk_distance!(same: Obb2 => Vec2, f2, exact; Obb3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Distance, Obb3, Overlaps};
    use glam::{Quat, Vec3};
    use std::f32::consts::{FRAC_PI_4, SQRT_2};

    #[test]
    fn edge_to_edge_and_overlapping() {
        // The edge–edge pair of the overlap tests, 0.01 apart along x.
        let a = Obb3::new(Vec3::ZERO, Vec3::splat(0.5), Quat::from_rotation_z(FRAC_PI_4));
        let b =
            Obb3::new(Vec3::new(SQRT_2 + 0.01, 0.0, 0.0), Vec3::splat(0.5), Quat::from_rotation_y(FRAC_PI_4));
        assert!((a.distance(&b) - 0.01).abs() < 1e-6, "{}", a.distance(&b));
        let (p, q) = a.closest_points(&b);
        assert!((p - Vec3::new(SQRT_2 / 2.0, 0.0, 0.0)).length() < 1e-5, "{p}");
        assert!((q - p - Vec3::new(0.01, 0.0, 0.0)).length() < 1e-6, "{q}");
        let c = Obb3::new(Vec3::new(0.5, 0.2, 0.0), Vec3::ONE, Quat::from_rotation_x(0.3));
        assert!(a.overlaps(&c) && a.distance(&c) == 0.0);
    }
}
