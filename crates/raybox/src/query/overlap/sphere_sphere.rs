//! Ball against ball: `|c₁ - c₂|² <= (r₁ + r₂)²`, in `f64`.

use crate::{Circle, Overlaps, Sphere};

impl Overlaps<Circle> for Circle {
    #[inline]
    fn overlaps(&self, other: &Circle) -> bool {
        let d2 = (self.center().as_dvec2() - other.center().as_dvec2()).length_squared();
        let r = f64::from(self.radius()) + f64::from(other.radius());
        d2 <= r * r
    }
}

impl Overlaps<Sphere> for Sphere {
    #[inline]
    fn overlaps(&self, other: &Sphere) -> bool {
        let d2 = (self.center().as_dvec3() - other.center().as_dvec3()).length_squared();
        let r = f64::from(self.radius()) + f64::from(other.radius());
        d2 <= r * r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn touching_spheres_overlap() {
        // 3-4-5: centres 5 apart, radii 2 and 3.
        let a = Sphere::new(Vec3::ZERO, 2.0);
        let b = Sphere::new(Vec3::new(3.0, 4.0, 0.0), 3.0);
        assert!(a.overlaps(&b));
        assert!(!a.overlaps(&Sphere::new(Vec3::new(3.0, 4.0, 0.0), 2.999_999)));
    }
}
