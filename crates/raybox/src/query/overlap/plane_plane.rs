//! Plane against plane (3D): two planes share a point unless they are parallel and
//! distinct (Ericson, *Real-Time Collision Detection*, 5.4.4: planes that are not parallel
//! meet in a line).
//!
//! Decided exactly for any finite inputs, on the normals and offsets as stored
//! (`n₁·x = o₁`, `n₂·x = o₂`, neither normal zero):
//!
//! - **Parallel** exactly when `n₁ × n₂ = 0`. Each component is a difference `a b - c d`
//!   of two products of `f32` values; such a product has at most 48 significant bits and
//!   an exponent within `2⁻²⁹⁸..2²⁵⁶`, so it is exact in `f64`, and the rounded
//!   difference of two finite `f64` values is zero exactly when they are equal (IEEE 754
//!   subtraction with gradual underflow never rounds a non-zero difference to zero). So
//!   the component is zero exactly when `a b = c d`, which is compared without rounding.
//! - **Parallel planes coincide** exactly when `o₂ n₁ = o₁ n₂`. With `n₂ = λ n₁` (`λ ≠ 0`,
//!   as both normals are non-zero), pick `k` with `n₁ₖ ≠ 0`: `o₂ n₁ₖ = o₁ λ n₁ₖ` holds
//!   exactly when `o₂ = λ o₁`, which is when the two equations describe the same points;
//!   the other components then hold too (`n₁ⱼ = 0` implies `n₂ⱼ = 0`). Each side is a
//!   product of two `f32` values, exact in `f64`, so the comparisons are exact.
//!
//! So `x = 7` and `2x = 14` are one plane (they overlap), `x = 7` and `2x = 14.000001`
//! are apart, and any tilt at all, however slight, makes two planes meet.

use crate::{Overlaps, Plane};

/// Whether the planes `n₁·x = o₁` and `n₂·x = o₂` share a point, exactly.
#[inline]
pub(crate) fn planes_meet(a: &Plane, b: &Plane) -> bool {
    let (n1, n2) = (a.normal().as_dvec3(), b.normal().as_dvec3());
    // Exact products, compared for equality: `n1 × n2 == 0` (see the module docs).
    let parallel = n1.y * n2.z == n1.z * n2.y && n1.z * n2.x == n1.x * n2.z && n1.x * n2.y == n1.y * n2.x;
    if !parallel {
        return true;
    }
    let (o1, o2) = (f64::from(a.offset()), f64::from(b.offset()));
    n1.x * o2 == n2.x * o1 && n1.y * o2 == n2.y * o1 && n1.z * o2 == n2.z * o1
}

impl Overlaps<Plane> for Plane {
    /// Two planes overlap unless they are parallel and distinct; exact for the stored
    /// normals and offsets (the normals need not be unit length, and may point opposite
    /// ways: `x = 1` and `-x = -1` are the same plane).
    ///
    /// ```
    /// use raybox::{Overlaps, Plane};
    /// use glam::Vec3;
    ///
    /// let floor = Plane::new(Vec3::Z, 0.0);
    /// assert!(!floor.overlaps(&Plane::new(Vec3::Z, 1.0))); // parallel, one unit apart
    /// assert!(floor.overlaps(&Plane::new(Vec3::new(0.0, 0.0, -3.0), 0.0))); // the same plane
    /// assert!(floor.overlaps(&Plane::new(Vec3::new(1e-6, 0.0, 1.0), 1.0))); // tilted: they meet
    /// ```
    #[inline]
    fn overlaps(&self, other: &Plane) -> bool {
        planes_meet(self, other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn both(a: Plane, b: Plane) -> bool {
        let (ab, ba) = (a.overlaps(&b), b.overlaps(&a));
        assert_eq!(ab, ba, "{a:?} {b:?}");
        ab
    }

    #[test]
    fn parallel_planes_meet_only_when_they_coincide() {
        let x7 = Plane::new(Vec3::X, 7.0);
        assert!(both(x7, x7));
        assert!(both(x7, Plane::new(Vec3::new(2.0, 0.0, 0.0), 14.0))); // scaled
        assert!(both(x7, Plane::new(Vec3::new(-0.5, 0.0, 0.0), -3.5))); // flipped and scaled
        assert!(!both(x7, Plane::new(Vec3::new(-0.5, 0.0, 0.0), 3.5))); // x = -7
        assert!(!both(x7, Plane::new(Vec3::new(2.0, 0.0, 0.0), 14.000001)));
        let next = f32::from_bits(7.0f32.to_bits() + 1);
        assert!(!both(x7, Plane::new(Vec3::X, next)));
        // Through the origin: any two parallel planes with zero offsets are the same plane.
        let (n, m) = (Vec3::new(3.0, -4.0, 12.0), Vec3::new(-6.0, 8.0, -24.0));
        assert!(both(Plane::new(n, 0.0), Plane::new(m, 0.0)));
        assert!(!both(Plane::new(n, 0.0), Plane::new(m, f32::from_bits(1))));
        assert!(both(Plane::new(n, 13.0), Plane::new(m, -26.0)));
        assert!(!both(Plane::new(n, 13.0), Plane::new(m, 26.0)));
    }

    #[test]
    fn any_tilt_makes_planes_meet() {
        let floor = Plane::new(Vec3::Z, 0.0);
        assert!(both(floor, Plane::new(Vec3::X, 5.0))); // perpendicular
        // Tilted by one f32 step of one normal component: no longer parallel.
        let tiny = f32::from_bits(1);
        assert!(both(floor, Plane::new(Vec3::new(tiny, 0.0, 1.0), 1e30)));
        let n = Vec3::new(3.0, -4.0, 12.0);
        let nudged = Vec3::new(3.0, -4.0, f32::from_bits(12.0f32.to_bits() + 1));
        assert!(both(Plane::new(n, 0.0), Plane::new(nudged, 1.0)));
        // Nearly parallel normals whose cross product rounds in f32 (products of 24-bit
        // values need 48 bits): parallel in f32 arithmetic, not in exact arithmetic.
        let a = Vec3::new(16_777_215.0, 16_777_213.0, 0.0);
        let b = Vec3::new(16_777_213.0, 16_777_211.0, 0.0);
        assert_eq!(a.x * b.y, a.y * b.x, "the f32 cross product is zero");
        assert!(both(Plane::new(a, 0.0), Plane::new(b, 5.0)));
    }

    #[test]
    fn extreme_magnitudes_are_exact() {
        let (tiny, big) = (f32::from_bits(1), f32::MAX);
        // tiny x = tiny and big x = big: both x = 1.
        assert!(both(Plane::new(Vec3::X * tiny, tiny), Plane::new(Vec3::X * big, big)));
        assert!(!both(Plane::new(Vec3::X * tiny, tiny), Plane::new(Vec3::X * big, -big)));
        // Parallel normals of very different sizes: (1, 2, 0) * 2^-140 against (1, 2, 0) * 2^120.
        let (s, t) = (2f32.powi(-140), 2f32.powi(120));
        let (n, m) = (Vec3::new(s, 2.0 * s, 0.0), Vec3::new(t, 2.0 * t, 0.0));
        assert!(both(Plane::new(n, 3.0 * s), Plane::new(m, 3.0 * t)));
        assert!(!both(Plane::new(n, 3.0 * s), Plane::new(m, 5.0 * t)));
    }
}
