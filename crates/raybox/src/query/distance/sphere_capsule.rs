//! Ball against capsule, 2D and 3D: the distance from the centre to the core segment, less
//! both radii (GJK on a point and a segment, in `f64`).

use super::{f2, f3, gjk_distance};
use crate::{Capsule2, Capsule3, Circle, Sphere};
use glam::{Vec2, Vec3};

gjk_distance!(Circle, Capsule2 => Vec2, f2, exact; Sphere, Capsule3 => Vec3, f3, exact);

#[cfg(test)]
mod tests {
    use crate::{Capsule3, Distance, Sphere};
    use glam::Vec3;

    #[test]
    fn ball_beside_a_capsule() {
        let c = Capsule3::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 0.5);
        let s = Sphere::new(Vec3::new(2.0, 1.0, 0.0), 1.0);
        assert_eq!(s.distance(&c), 0.5);
        assert_eq!(c.closest_points(&s), (Vec3::new(0.5, 1.0, 0.0), Vec3::new(1.0, 1.0, 0.0)));
    }
}
