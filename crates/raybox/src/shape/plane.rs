//! Planes: `Plane`, the points `x` with `normal · x = offset`.

use glam::{DVec3, Vec3};

use crate::error::{ShapeError, check_finite};

/// A plane in 3D: the points `x` with `normal · x = offset`.
///
/// The normal is kept **as given** (any finite non-zero vector), not normalised: a
/// normalised copy would be rounded, and a ray lying exactly in the plane
/// `(3, -1, 0) · x = 7` could then look like one that crosses it. Queries evaluate
/// `normal · x - offset` in `f64`, where the products of `f32` values are exact.
/// [`Plane::unit_normal`] and [`Plane::normalized`] give the unit-length form.
///
/// The side `normal · x > offset` is the *front*.
///
/// A plane may lie beyond `f32::MAX` (a tiny normal with a large offset: `x = 2^149` for
/// the normal `(2^-149, 0, 0)` and the offset 1). Distances and closest-point coordinates
/// are then computed in `f64` and rounded to `f32` like every other answer, so those
/// beyond `f32::MAX` come out infinite.
///
/// ```
/// use raybox::Plane;
/// use glam::Vec3;
///
/// let floor = Plane::from_point_normal(Vec3::new(0.0, 2.0, 0.0), Vec3::Y);
/// assert_eq!(floor.signed_distance(Vec3::new(5.0, 3.5, 1.0)), 1.5);
/// assert!(Plane::try_from_points(Vec3::ZERO, Vec3::X, Vec3::X * 2.0).is_err()); // collinear
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "raw::Plane", into = "raw::Plane"))]
pub struct Plane {
    normal: Vec3,
    offset: f32,
}

impl Plane {
    /// The plane `normal · x = offset`.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for NaN or infinite values, [`ShapeError::ZeroNormal`] for a
    /// zero normal.
    ///
    /// ```
    /// use raybox::Plane;
    /// use glam::Vec3;
    /// assert!(Plane::try_new(Vec3::Z, 1.0).is_ok());
    /// assert!(Plane::try_new(Vec3::ZERO, 1.0).is_err());
    /// ```
    #[inline]
    pub fn try_new(normal: Vec3, offset: f32) -> Result<Self, ShapeError> {
        check_finite(&normal.to_array(), "Plane", "normal")?;
        check_finite(&[offset], "Plane", "offset")?;
        if normal == Vec3::ZERO {
            return Err(ShapeError::ZeroNormal { shape: "Plane" });
        }
        Ok(Self { normal, offset })
    }

    /// Like [`Self::try_new`], for values known to be valid.
    ///
    /// # Panics
    /// With `try_new`'s message, if `try_new` would fail.
    ///
    /// ```
    /// use raybox::Plane;
    /// use glam::Vec3;
    /// let p = Plane::new(Vec3::new(0.0, 0.0, 2.0), 4.0); // z = 2
    /// assert_eq!(p.signed_distance(Vec3::new(1.0, 1.0, 5.0)), 3.0);
    /// ```
    #[track_caller]
    #[must_use]
    #[inline]
    pub fn new(normal: Vec3, offset: f32) -> Self {
        Self::try_new(normal, offset).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The plane through `point` with `normal` (`offset = normal · point`, rounded once).
    ///
    /// # Errors
    /// As [`Self::try_new`], also for a non-finite `point`.
    ///
    /// ```
    /// use raybox::Plane;
    /// use glam::Vec3;
    /// let p = Plane::try_from_point_normal(Vec3::ONE, Vec3::X).unwrap();
    /// assert_eq!(p.offset(), 1.0);
    /// ```
    #[inline]
    pub fn try_from_point_normal(point: Vec3, normal: Vec3) -> Result<Self, ShapeError> {
        check_finite(&point.to_array(), "Plane", "point")?;
        let offset = normal.as_dvec3().dot(point.as_dvec3()) as f32;
        Self::try_new(normal, offset)
    }

    /// Like [`Self::try_from_point_normal`], for values known to be valid.
    ///
    /// # Panics
    /// With its message, if `try_from_point_normal` would fail.
    ///
    /// ```
    /// use raybox::Plane;
    /// use glam::Vec3;
    /// assert_eq!(Plane::from_point_normal(Vec3::ONE, Vec3::Y), Plane::new(Vec3::Y, 1.0));
    /// ```
    #[track_caller]
    #[must_use]
    #[inline]
    pub fn from_point_normal(point: Vec3, normal: Vec3) -> Self {
        Self::try_from_point_normal(point, normal).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The plane through three points, with the normal `(b - a) × (c - a)` (so the points
    /// run counter-clockwise seen from the front).
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for non-finite points, [`ShapeError::Degenerate`] if the
    /// points are collinear.
    ///
    /// ```
    /// use raybox::Plane;
    /// use glam::Vec3;
    /// let p = Plane::try_from_points(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap();
    /// assert_eq!(p.unit_normal(), Vec3::Z);
    /// ```
    #[inline]
    pub fn try_from_points(a: Vec3, b: Vec3, c: Vec3) -> Result<Self, ShapeError> {
        for p in [a, b, c] {
            check_finite(&p.to_array(), "Plane", "points")?;
        }
        // Zero exactly when the points are collinear, whatever their scales.
        let normal = crate::query::overlap::triangle_normal(a, b, c).as_vec3();
        if normal == Vec3::ZERO || !normal.is_finite() {
            return Err(ShapeError::Degenerate { shape: "Plane" });
        }
        Self::try_from_point_normal(a, normal)
    }

    /// The normal, as given (not necessarily unit length).
    ///
    /// ```
    /// use raybox::Plane;
    /// use glam::Vec3;
    /// assert_eq!(Plane::new(Vec3::new(0.0, 3.0, 4.0), 1.0).normal(), Vec3::new(0.0, 3.0, 4.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn normal(&self) -> Vec3 {
        self.normal
    }

    /// The offset: `normal · x = offset` on the plane.
    ///
    /// ```
    /// use raybox::Plane;
    /// use glam::Vec3;
    /// assert_eq!(Plane::new(Vec3::Z, -2.0).offset(), -2.0);
    /// ```
    #[inline]
    #[must_use]
    pub fn offset(&self) -> f32 {
        self.offset
    }

    /// The normal scaled to unit length.
    ///
    /// ```
    /// use raybox::Plane;
    /// use glam::Vec3;
    /// assert_eq!(Plane::new(Vec3::new(0.0, 3.0, 4.0), 1.0).unit_normal(), Vec3::new(0.0, 0.6, 0.8));
    /// ```
    #[must_use]
    #[inline]
    pub fn unit_normal(&self) -> Vec3 {
        self.normal.as_dvec3().normalize().as_vec3()
    }

    /// The same plane with a unit normal (and the offset scaled to match).
    ///
    /// ```
    /// use raybox::Plane;
    /// use glam::Vec3;
    /// assert_eq!(Plane::new(Vec3::new(0.0, 0.0, 2.0), 4.0).normalized(), Plane::new(Vec3::Z, 2.0));
    /// ```
    #[must_use]
    #[inline]
    pub fn normalized(&self) -> Self {
        let n = self.normal.as_dvec3();
        let len = n.length();
        Self { normal: (n / len).as_vec3(), offset: (f64::from(self.offset) / len) as f32 }
    }

    /// The signed distance from the plane to `point`: positive in front, negative behind.
    ///
    /// ```
    /// use raybox::Plane;
    /// use glam::Vec3;
    /// let p = Plane::new(Vec3::Z, 0.0);
    /// assert_eq!(p.signed_distance(Vec3::new(0.0, 0.0, -3.0)), -3.0);
    /// ```
    #[must_use]
    #[inline]
    pub fn signed_distance(&self, point: Vec3) -> f32 {
        let n = self.normal.as_dvec3();
        (self.eval(point.as_dvec3()) / n.length()) as f32
    }

    /// `normal · x - offset` in `f64`: zero on the plane, positive in front.
    #[inline]
    pub(crate) fn eval(&self, x: DVec3) -> f64 {
        self.normal.as_dvec3().dot(x) - f64::from(self.offset)
    }
}

#[cfg(feature = "serde")]
mod raw {
    //! A plain mirror of the plane, so that deserialising validates.
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    pub struct Plane {
        normal: glam::Vec3,
        offset: f32,
    }

    impl TryFrom<Plane> for super::Plane {
        type Error = crate::ShapeError;
        #[inline]
        fn try_from(p: Plane) -> Result<Self, Self::Error> {
            Self::try_new(p.normal, p.offset)
        }
    }
    impl From<super::Plane> for Plane {
        #[inline]
        fn from(p: super::Plane) -> Self {
            Plane { normal: p.normal(), offset: p.offset() }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn try_new_names_the_field() {
        assert_eq!(Plane::try_new(Vec3::ZERO, 1.0), Err(ShapeError::ZeroNormal { shape: "Plane" }));
        assert_eq!(
            Plane::try_new(Vec3::X, f32::NAN),
            Err(ShapeError::NotFinite { shape: "Plane", field: "offset" })
        );
    }

    #[test]
    fn from_points_orients_counter_clockwise() {
        let p = Plane::try_from_points(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap();
        assert_eq!(p.unit_normal(), Vec3::Z);
        assert_eq!(p.signed_distance(Vec3::new(3.0, 4.0, -2.0)), -2.0);
    }

    #[test]
    fn normalized_keeps_the_plane() {
        let p = Plane::new(Vec3::new(0.0, 3.0, 4.0), 10.0).normalized();
        assert_eq!(p.normal(), Vec3::new(0.0, 0.6, 0.8));
        assert_eq!(p.offset(), 2.0);
    }
}
