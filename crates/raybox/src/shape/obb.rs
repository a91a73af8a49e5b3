//! Oriented boxes: `Obb2` and `Obb3`.
//!
//! An oriented box is a box `[-half_extents, half_extents]` in its own frame, placed in
//! the world by a rotation and a translation: `world = center + rotation * local`. The
//! columns of the rotation matrix are the box axes in world coordinates.

use crate::arrays::Each;
use glam::{DMat3, DQuat, DVec2, DVec3, Mat2, Mat3, Quat, Vec2, Vec3};

use crate::error::{ShapeError, check_finite, check_non_negative};
use crate::{Aabb2, Aabb3};

/// How far `RᵀR` may be from the identity, per entry, for a matrix accepted as a rotation.
///
/// Large enough for a matrix rounded to `f32` entry by entry (errors near 1e-7), small
/// enough that the box stays a box to the eye.
const ORTHONORMAL_TOLERANCE: f32 = 1e-4;

/// A closed 2D oriented box (a rotated rectangle).
///
/// ```
/// use raybox::{Obb2, ContainsPoint};
/// use glam::Vec2;
/// use std::f32::consts::FRAC_PI_4;
///
/// // A 2x2 square turned by 45 degrees: its corners lie on the axes, at distance sqrt 2.
/// let diamond = Obb2::new(Vec2::ZERO, Vec2::ONE, FRAC_PI_4);
/// assert!(diamond.contains_point(Vec2::new(1.4, 0.0)));
/// assert!(!diamond.contains_point(Vec2::new(0.9, 0.9)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "raw::Obb2", into = "raw::Obb2"))]
pub struct Obb2 {
    center: Vec2,
    half_extents: Vec2,
    /// Columns: the box's x and y axes in world coordinates.
    rotation: Mat2,
}

impl Obb2 {
    /// The box `center ± half_extents` turned counter-clockwise by `angle` radians.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for NaN or infinite values,
    /// [`ShapeError::Negative`] for a negative half extent.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// assert!(Obb2::try_new(Vec2::ZERO, Vec2::ONE, 0.5).is_ok());
    /// assert!(Obb2::try_new(Vec2::ZERO, Vec2::ONE, f32::NAN).is_err());
    /// ```
    #[inline]
    pub fn try_new(center: Vec2, half_extents: Vec2, angle: f32) -> Result<Self, ShapeError> {
        check_finite(&[angle], "Obb2", "angle")?;
        let (sin, cos) = angle.sin_cos();
        Self::try_from_rotation(center, half_extents, Vec2::new(cos, sin))
    }

    /// Like [`Self::try_new`], for values known to be valid.
    ///
    /// # Panics
    /// With `try_new`'s message, if `try_new` would fail.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// let b = Obb2::new(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.0);
    /// assert_eq!(b.corners()[2], Vec2::new(2.0, 1.0));
    /// ```
    #[track_caller]
    #[must_use]
    #[inline]
    pub fn new(center: Vec2, half_extents: Vec2, angle: f32) -> Self {
        Self::try_new(center, half_extents, angle).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The box whose x axis points along `cos_sin` (normalised here, so `(3, 4)` means
    /// `cos = 0.6, sin = 0.8`; the division is done in `f64`, so that an exact
    /// Pythagorean direction gives the correctly rounded cosine and sine).
    ///
    /// # Errors
    /// As [`Self::try_new`]; [`ShapeError::ZeroRotation`] if `cos_sin` is zero or not finite.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// let b = Obb2::try_from_rotation(Vec2::ZERO, Vec2::ONE, Vec2::new(3.0, 4.0)).unwrap();
    /// assert_eq!(b.axes()[0], Vec2::new(0.6, 0.8));
    /// assert!(Obb2::try_from_rotation(Vec2::ZERO, Vec2::ONE, Vec2::ZERO).is_err());
    /// ```
    #[inline]
    pub fn try_from_rotation(center: Vec2, half_extents: Vec2, cos_sin: Vec2) -> Result<Self, ShapeError> {
        check_finite(&center.to_array(), "Obb2", "center")?;
        check_non_negative(&half_extents.to_array(), "Obb2", "half_extents")?;
        let d = cos_sin.as_dvec2();
        let len = d.length();
        if !(len.is_finite() && len > 0.0) {
            return Err(ShapeError::ZeroRotation { shape: "Obb2" });
        }
        let x_axis = (d / len).as_vec2();
        let rotation = Mat2::from_cols(x_axis, x_axis.perp());
        Ok(Self { center, half_extents, rotation })
    }

    /// The box with the rotation matrix `rotation`, whose columns are the box axes.
    ///
    /// Only the first column is used (the second is its perpendicular), after checking
    /// that the matrix is a rotation to within 1e-4 per entry of `RᵀR - I`, with a
    /// positive determinant.
    ///
    /// # Errors
    /// As [`Self::try_new`]; [`ShapeError::NotARotation`] for a matrix that is not a rotation.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// let quarter = Mat2::from_cols(Vec2::Y, -Vec2::X);
    /// assert!(Obb2::try_from_matrix(Vec2::ZERO, Vec2::ONE, quarter).is_ok());
    /// assert!(Obb2::try_from_matrix(Vec2::ZERO, Vec2::ONE, Mat2::from_diagonal(Vec2::new(1.0, -1.0))).is_err());
    /// ```
    #[inline]
    pub fn try_from_matrix(center: Vec2, half_extents: Vec2, rotation: Mat2) -> Result<Self, ShapeError> {
        check_finite(&rotation.to_cols_array(), "Obb2", "rotation")?;
        let gram = (rotation.transpose() * rotation - Mat2::IDENTITY).to_cols_array();
        if !gram.iter().all(|e| e.abs() <= ORTHONORMAL_TOLERANCE) || rotation.determinant() <= 0.0 {
            return Err(ShapeError::NotARotation { shape: "Obb2" });
        }
        Self::try_from_rotation(center, half_extents, rotation.x_axis)
    }

    /// The counter-clockwise angle of the box's x axis, in radians, in `[-π, π]`.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// assert_eq!(Obb2::new(Vec2::ZERO, Vec2::ONE, 0.25).angle(), 0.25);
    /// ```
    #[must_use]
    #[inline]
    pub fn angle(&self) -> f32 {
        self.rotation.x_axis.to_angle()
    }

    /// The box `aabb`, rotated by `angle` radians about the origin and then moved by
    /// `translation`.
    ///
    /// # Errors
    /// As [`Self::try_new`], for a non-finite angle, translation or result.
    ///
    /// ```
    /// use raybox::{Aabb2, Obb2};
    /// use glam::Vec2;
    /// let local = Aabb2::new(Vec2::new(1.0, -1.0), Vec2::new(3.0, 1.0));
    /// let b = Obb2::try_from_aabb_and_transform(&local, 0.0, Vec2::Y).unwrap();
    /// assert_eq!(b.center(), Vec2::new(2.0, 1.0));
    /// ```
    #[inline]
    pub fn try_from_aabb_and_transform(
        aabb: &Aabb2,
        angle: f32,
        translation: Vec2,
    ) -> Result<Self, ShapeError> {
        let unrotated = Self::try_new(Vec2::ZERO, aabb.half_extents(), angle)?;
        let center = unrotated.rotation * aabb.center() + translation;
        Self::try_from_rotation(center, aabb.half_extents(), unrotated.rotation.x_axis)
    }

    /// The centre.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// assert_eq!(Obb2::new(Vec2::ONE, Vec2::ONE, 0.3).center(), Vec2::ONE);
    /// ```
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// Half the size along each of the box's own axes.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// assert_eq!(Obb2::new(Vec2::ONE, Vec2::X, 0.3).half_extents(), Vec2::X);
    /// ```
    #[inline]
    #[must_use]
    pub fn half_extents(&self) -> Vec2 {
        self.half_extents
    }

    /// The rotation; its columns are the box axes in world coordinates.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// assert_eq!(Obb2::new(Vec2::ZERO, Vec2::ONE, 0.0).rotation(), Mat2::IDENTITY);
    /// ```
    #[inline]
    #[must_use]
    pub fn rotation(&self) -> Mat2 {
        self.rotation
    }

    /// The box axes in world coordinates (unit vectors).
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// let [x, y] = Obb2::new(Vec2::ZERO, Vec2::ONE, 0.3).axes();
    /// assert!(x.dot(y).abs() < 1e-7 && (x.length() - 1.0).abs() < 1e-6);
    /// ```
    #[inline]
    #[must_use]
    pub fn axes(&self) -> [Vec2; 2] {
        [self.rotation.x_axis, self.rotation.y_axis]
    }

    /// A world point in the box's frame (where the box is `[-half_extents, half_extents]`).
    ///
    /// In `f32`; when that overflows (coordinates near `f32::MAX`, whose differences
    /// exceed it), in `f64`, rounded to `f32`: a local coordinate beyond `f32`'s range is
    /// then `±inf`, never NaN.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// let b = Obb2::try_from_rotation(Vec2::new(1.0, 0.0), Vec2::ONE, Vec2::Y).unwrap(); // turned 90 degrees
    /// assert_eq!(b.point_to_local(Vec2::new(1.0, 2.0)), Vec2::new(2.0, 0.0));
    /// let far = Obb2::new(Vec2::splat(f32::MAX), Vec2::ONE, 0.0);
    /// assert_eq!(far.point_to_local(Vec2::new(-f32::MAX, f32::MAX)), Vec2::new(f32::NEG_INFINITY, 0.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn point_to_local(&self, point: Vec2) -> Vec2 {
        let local = self.rotation.transpose() * (point - self.center);
        if local.is_finite() { local } else { self.point_to_local_f64(point).as_vec2() }
    }

    /// [`Self::point_to_local`] in `f64` (no overflow for any `f32` inputs).
    #[cold]
    #[inline(never)]
    pub(crate) fn point_to_local_f64(&self, point: Vec2) -> DVec2 {
        self.rotation.as_dmat2().transpose() * (point.as_dvec2() - self.center.as_dvec2())
    }

    /// [`Self::point_to_world`] in `f64`.
    #[inline]
    pub(crate) fn point_to_world_f64(&self, local: DVec2) -> DVec2 {
        self.center.as_dvec2() + self.rotation.as_dmat2() * local
    }

    /// A point of the box's frame in world coordinates.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// let b = Obb2::try_from_rotation(Vec2::new(1.0, 0.0), Vec2::ONE, Vec2::Y).unwrap();
    /// assert_eq!(b.point_to_world(Vec2::new(2.0, 0.0)), Vec2::new(1.0, 2.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn point_to_world(&self, local: Vec2) -> Vec2 {
        self.center + self.rotation * local
    }

    /// The four corners, counter-clockwise in the box frame from `(-h.x, -h.y)`.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// let c = Obb2::new(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.0).corners();
    /// assert_eq!(c[0], Vec2::new(-2.0, -1.0));
    /// ```
    #[must_use]
    #[inline]
    pub fn corners(&self) -> [Vec2; 4] {
        let h = self.half_extents;
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .each(|(sx, sy)| self.point_to_world(Vec2::new(sx * h.x, sy * h.y)))
    }

    /// The smallest axis-aligned box holding this box.
    ///
    /// # Panics
    /// If the bounds overflow to infinity.
    ///
    /// ```
    /// use raybox::Obb2;
    /// use glam::{Mat2, Vec2};
    /// let diamond = Obb2::try_from_rotation(Vec2::ZERO, Vec2::ONE, Vec2::ONE).unwrap();
    /// assert!((diamond.to_aabb().max().x - 2f32.sqrt()).abs() < 1e-6);
    /// ```
    #[track_caller]
    #[must_use]
    #[inline]
    pub fn to_aabb(&self) -> Aabb2 {
        let abs = Mat2::from_cols(self.rotation.x_axis.abs(), self.rotation.y_axis.abs());
        Aabb2::from_center_half_extents(self.center, abs * self.half_extents)
    }
}

/// A closed 3D oriented box.
///
/// ```
/// use raybox::{Obb3, ContainsPoint};
/// use glam::{Quat, Vec3};
///
/// // A unit cube turned 45 degrees about z.
/// let b = Obb3::new(Vec3::ZERO, Vec3::splat(0.5), Quat::from_rotation_z(std::f32::consts::FRAC_PI_4));
/// assert!(b.contains_point(Vec3::new(0.7, 0.0, 0.0)));   // past the old face, inside the corner
/// assert!(!b.contains_point(Vec3::new(0.45, 0.45, 0.0))); // the old corner is now outside
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "raw::Obb3", into = "raw::Obb3"))]
pub struct Obb3 {
    center: Vec3,
    half_extents: Vec3,
    /// Columns: the box's x, y and z axes in world coordinates.
    rotation: Mat3,
}

impl Obb3 {
    /// The box `center ± half_extents` rotated by `rotation`.
    ///
    /// `rotation` need not be normalised: any finite non-zero quaternion `q` stands for
    /// the rotation `M(q) / |q|²`, evaluated in `f64`, so that an integer quaternion gives
    /// the correctly rounded rotation matrix (exact where the matrix is representable).
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for NaN or infinite values, [`ShapeError::Negative`] for a
    /// negative half extent, [`ShapeError::ZeroRotation`] for a zero or non-finite quaternion.
    ///
    /// ```
    /// use raybox::Obb3;
    /// use glam::{Mat3, Quat, Vec3};
    /// // Any non-zero quaternion: (1, 1, 0, 0) is 90 degrees about x, exactly.
    /// let b = Obb3::try_new(Vec3::ZERO, Vec3::ONE, Quat::from_xyzw(1.0, 0.0, 0.0, 1.0)).unwrap();
    /// assert_eq!(b.axes()[1], Vec3::Z);
    /// assert!(Obb3::try_new(Vec3::ZERO, Vec3::ONE, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)).is_err());
    /// ```
    #[inline]
    pub fn try_new(center: Vec3, half_extents: Vec3, rotation: Quat) -> Result<Self, ShapeError> {
        check_finite(&center.to_array(), "Obb3", "center")?;
        check_non_negative(&half_extents.to_array(), "Obb3", "half_extents")?;
        let q = rotation.as_dquat();
        let n = q.length_squared();
        if !(n.is_finite() && n > 0.0) {
            return Err(ShapeError::ZeroRotation { shape: "Obb3" });
        }
        Ok(Self { center, half_extents, rotation: rotation_matrix(q, n).as_mat3() })
    }

    /// Like [`Self::try_new`], for values known to be valid.
    ///
    /// # Panics
    /// With `try_new`'s message, if `try_new` would fail.
    ///
    /// ```
    /// use raybox::Obb3;
    /// use glam::{Mat3, Quat, Vec3};
    /// let b = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::IDENTITY);
    /// assert_eq!(b.rotation(), Mat3::IDENTITY);
    /// ```
    #[track_caller]
    #[must_use]
    #[inline]
    pub fn new(center: Vec3, half_extents: Vec3, rotation: Quat) -> Self {
        Self::try_new(center, half_extents, rotation).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The box with the rotation matrix `rotation`, whose columns are the box axes.
    ///
    /// The matrix is kept as given; it must be a rotation to within 1e-4 per entry of
    /// `RᵀR - I`, with a positive determinant.
    ///
    /// # Errors
    /// As [`Self::try_new`]; [`ShapeError::NotARotation`] for a matrix that is not a rotation.
    ///
    /// ```
    /// use raybox::Obb3;
    /// use glam::{Mat3, Quat, Vec3};
    /// let quarter = Mat3::from_cols(Vec3::Y, -Vec3::X, Vec3::Z);
    /// assert!(Obb3::try_from_matrix(Vec3::ZERO, Vec3::ONE, quarter).is_ok());
    /// let mirror = Mat3::from_diagonal(Vec3::new(1.0, 1.0, -1.0));
    /// assert!(Obb3::try_from_matrix(Vec3::ZERO, Vec3::ONE, mirror).is_err());
    /// ```
    #[inline]
    pub fn try_from_matrix(center: Vec3, half_extents: Vec3, rotation: Mat3) -> Result<Self, ShapeError> {
        check_finite(&center.to_array(), "Obb3", "center")?;
        check_non_negative(&half_extents.to_array(), "Obb3", "half_extents")?;
        check_finite(&rotation.to_cols_array(), "Obb3", "rotation")?;
        let gram = (rotation.transpose() * rotation - Mat3::IDENTITY).to_cols_array();
        let orthonormal = gram.iter().all(|e| e.abs() <= ORTHONORMAL_TOLERANCE);
        if !orthonormal || rotation.determinant() <= 0.0 {
            return Err(ShapeError::NotARotation { shape: "Obb3" });
        }
        Ok(Self { center, half_extents, rotation })
    }

    /// The box `aabb`, rotated by `rotation` about the origin and then moved by `translation`.
    ///
    /// # Errors
    /// As [`Self::try_new`].
    ///
    /// ```
    /// use raybox::{Aabb3, Obb3};
    /// use glam::{Quat, Vec3};
    /// let local = Aabb3::new(Vec3::new(1.0, -1.0, -1.0), Vec3::new(3.0, 1.0, 1.0));
    /// let b = Obb3::try_from_aabb_and_transform(&local, Quat::IDENTITY, Vec3::Z).unwrap();
    /// assert_eq!(b.center(), Vec3::new(2.0, 0.0, 1.0));
    /// ```
    #[inline]
    pub fn try_from_aabb_and_transform(
        aabb: &Aabb3,
        rotation: Quat,
        translation: Vec3,
    ) -> Result<Self, ShapeError> {
        check_finite(&translation.to_array(), "Obb3", "translation")?;
        let unrotated = Self::try_new(Vec3::ZERO, aabb.half_extents(), rotation)?;
        let center = unrotated.rotation * aabb.center() + translation;
        Self::try_from_matrix(center, aabb.half_extents(), unrotated.rotation)
    }

    /// The centre.
    ///
    /// ```
    /// use raybox::Obb3;
    /// use glam::{Mat3, Quat, Vec3};
    /// assert_eq!(Obb3::new(Vec3::ONE, Vec3::ONE, Quat::IDENTITY).center(), Vec3::ONE);
    /// ```
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec3 {
        self.center
    }

    /// Half the size along each of the box's own axes.
    ///
    /// ```
    /// use raybox::Obb3;
    /// use glam::{Mat3, Quat, Vec3};
    /// assert_eq!(Obb3::new(Vec3::ONE, Vec3::X, Quat::IDENTITY).half_extents(), Vec3::X);
    /// ```
    #[inline]
    #[must_use]
    pub fn half_extents(&self) -> Vec3 {
        self.half_extents
    }

    /// The rotation matrix; its columns are the box axes in world coordinates.
    ///
    /// ```
    /// use raybox::Obb3;
    /// use glam::{Mat3, Quat, Vec3};
    /// let b = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::from_xyzw(0.0, 0.0, 1.0, 1.0));
    /// assert_eq!(b.rotation().x_axis, Vec3::Y);
    /// ```
    #[inline]
    #[must_use]
    pub fn rotation(&self) -> Mat3 {
        self.rotation
    }

    /// The box axes in world coordinates (unit vectors).
    ///
    /// ```
    /// use raybox::Obb3;
    /// use glam::{Mat3, Quat, Vec3};
    /// let b = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::from_xyzw(0.0, 0.0, 1.0, 1.0));
    /// assert_eq!(b.axes(), [Vec3::Y, -Vec3::X, Vec3::Z]);
    /// ```
    #[inline]
    #[must_use]
    pub fn axes(&self) -> [Vec3; 3] {
        [self.rotation.x_axis, self.rotation.y_axis, self.rotation.z_axis]
    }

    /// A world point in the box's frame (where the box is `[-half_extents, half_extents]`).
    ///
    /// In `f32`; when that overflows (coordinates near `f32::MAX`, whose differences
    /// exceed it), in `f64`, rounded to `f32`: a local coordinate beyond `f32`'s range is
    /// then `±inf`, never NaN.
    ///
    /// ```
    /// use raybox::Obb3;
    /// use glam::{Mat3, Quat, Vec3};
    /// let b = Obb3::new(Vec3::X, Vec3::ONE, Quat::from_xyzw(0.0, 0.0, 1.0, 1.0));
    /// assert_eq!(b.point_to_local(Vec3::new(1.0, 2.0, 0.0)), Vec3::new(2.0, 0.0, 0.0));
    /// let far = Obb3::new(Vec3::splat(f32::MAX), Vec3::ONE, Quat::IDENTITY);
    /// let local = far.point_to_local(Vec3::new(-f32::MAX, f32::MAX, f32::MAX));
    /// assert_eq!(local, Vec3::new(f32::NEG_INFINITY, 0.0, 0.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn point_to_local(&self, point: Vec3) -> Vec3 {
        let local = self.rotation.transpose() * (point - self.center);
        if local.is_finite() { local } else { self.point_to_local_f64(point).as_vec3() }
    }

    /// [`Self::point_to_local`] in `f64` (no overflow for any `f32` inputs).
    #[cold]
    #[inline(never)]
    pub(crate) fn point_to_local_f64(&self, point: Vec3) -> DVec3 {
        self.rotation.as_dmat3().transpose() * (point.as_dvec3() - self.center.as_dvec3())
    }

    /// [`Self::point_to_world`] in `f64`.
    #[inline]
    pub(crate) fn point_to_world_f64(&self, local: DVec3) -> DVec3 {
        self.center.as_dvec3() + self.rotation.as_dmat3() * local
    }

    /// A point of the box's frame in world coordinates.
    ///
    /// ```
    /// use raybox::Obb3;
    /// use glam::{Mat3, Quat, Vec3};
    /// let b = Obb3::new(Vec3::X, Vec3::ONE, Quat::from_xyzw(0.0, 0.0, 1.0, 1.0));
    /// assert_eq!(b.point_to_world(Vec3::new(2.0, 0.0, 0.0)), Vec3::new(1.0, 2.0, 0.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn point_to_world(&self, local: Vec3) -> Vec3 {
        self.center + self.rotation * local
    }

    /// The eight corners; corner `i` takes `+half_extents` on local axis `k` when bit `k`
    /// of `i` is set.
    ///
    /// ```
    /// use raybox::Obb3;
    /// use glam::{Mat3, Quat, Vec3};
    /// let c = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::IDENTITY).corners();
    /// assert_eq!((c[0], c[7]), (-Vec3::ONE, Vec3::ONE));
    /// ```
    #[must_use]
    #[inline]
    pub fn corners(&self) -> [Vec3; 8] {
        let h = self.half_extents;
        crate::arrays::from_fn(|i| {
            let s = |bit: usize| if i & bit != 0 { 1.0 } else { -1.0 };
            self.point_to_world(Vec3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z))
        })
    }

    /// The smallest axis-aligned box holding this box.
    ///
    /// # Panics
    /// If the bounds overflow to infinity.
    ///
    /// ```
    /// use raybox::Obb3;
    /// use glam::{Mat3, Quat, Vec3};
    /// let b = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::from_xyzw(0.0, 0.0, 1.0, 1.0)).to_aabb();
    /// assert_eq!((b.min(), b.max()), (-Vec3::ONE, Vec3::ONE));
    /// ```
    #[track_caller]
    #[must_use]
    #[inline]
    pub fn to_aabb(&self) -> Aabb3 {
        let r = self.rotation;
        let abs = Mat3::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs());
        Aabb3::from_center_half_extents(self.center, abs * self.half_extents)
    }
}

/// `M(q) / |q|²` for a quaternion of any non-zero length `|q|² = n`: the rotation it stands for.
#[inline]
fn rotation_matrix(q: DQuat, n: f64) -> DMat3 {
    let (w, x, y, z) = (q.w, q.x, q.y, q.z);
    DMat3::from_cols_array(&[
        // column 0
        (w * w + x * x - y * y - z * z) / n,
        2.0 * (x * y + w * z) / n,
        2.0 * (x * z - w * y) / n,
        // column 1
        2.0 * (x * y - w * z) / n,
        (w * w - x * x + y * y - z * z) / n,
        2.0 * (y * z + w * x) / n,
        // column 2
        2.0 * (x * z + w * y) / n,
        2.0 * (y * z - w * x) / n,
        (w * w - x * x - y * y + z * z) / n,
    ])
}

#[cfg(feature = "serde")]
mod raw {
    //! Plain mirrors of the oriented box types, so that deserialising validates.
    use glam::{Mat2, Mat3, Vec2, Vec3};
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    pub struct Obb2 {
        center: Vec2,
        half_extents: Vec2,
        rotation: Mat2,
    }

    #[derive(Serialize, Deserialize)]
    pub struct Obb3 {
        center: Vec3,
        half_extents: Vec3,
        rotation: Mat3,
    }

    impl TryFrom<Obb2> for super::Obb2 {
        type Error = crate::ShapeError;
        #[inline]
        fn try_from(b: Obb2) -> Result<Self, Self::Error> {
            Self::try_from_rotation(b.center, b.half_extents, b.rotation.x_axis)
        }
    }
    impl From<super::Obb2> for Obb2 {
        #[inline]
        fn from(b: super::Obb2) -> Self {
            Obb2 { center: b.center(), half_extents: b.half_extents(), rotation: b.rotation() }
        }
    }
    impl TryFrom<Obb3> for super::Obb3 {
        type Error = crate::ShapeError;
        #[inline]
        fn try_from(b: Obb3) -> Result<Self, Self::Error> {
            Self::try_from_matrix(b.center, b.half_extents, b.rotation)
        }
    }
    impl From<super::Obb3> for Obb3 {
        #[inline]
        fn from(b: super::Obb3) -> Self {
            Obb3 { center: b.center(), half_extents: b.half_extents(), rotation: b.rotation() }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_quaternions_give_exact_matrices() {
        // (1, 1, 0, 0): 90 degrees about x, |q|² = 2.
        let b = Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::from_xyzw(1.0, 0.0, 0.0, 1.0));
        assert_eq!(b.rotation(), Mat3::from_cols(Vec3::X, Vec3::Z, -Vec3::Y));
        assert_eq!(b.point_to_world(Vec3::Y), Vec3::Z);
    }

    #[test]
    fn pythagorean_rotation_is_correctly_rounded() {
        let b = Obb2::try_from_rotation(Vec2::ZERO, Vec2::ONE, Vec2::new(3.0, 4.0)).unwrap();
        assert_eq!(b.axes(), [Vec2::new(0.6, 0.8), Vec2::new(-0.8, 0.6)]);
    }

    #[test]
    fn bad_rotations_are_rejected() {
        let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        assert_eq!(
            Obb3::try_new(Vec3::ZERO, Vec3::ONE, zero),
            Err(ShapeError::ZeroRotation { shape: "Obb3" })
        );
        assert!(Obb2::try_from_rotation(Vec2::ZERO, Vec2::ONE, Vec2::ZERO).is_err());
        let skew = Mat3::from_cols(Vec3::X, Vec3::new(0.1, 1.0, 0.0), Vec3::Z);
        assert_eq!(
            Obb3::try_from_matrix(Vec3::ZERO, Vec3::ONE, skew),
            Err(ShapeError::NotARotation { shape: "Obb3" })
        );
        let mirror = Mat3::from_diagonal(Vec3::new(1.0, 1.0, -1.0));
        assert!(Obb3::try_from_matrix(Vec3::ZERO, Vec3::ONE, mirror).is_err());
        assert!(Obb3::try_new(Vec3::ZERO, Vec3::new(1.0, -1.0, 1.0), Quat::IDENTITY).is_err());
        let shear2 = Mat2::from_cols(Vec2::X, Vec2::new(0.5, 1.0));
        assert!(Obb2::try_from_matrix(Vec2::ZERO, Vec2::ONE, shear2).is_err());
        let quarter =
            Obb2::try_from_matrix(Vec2::ZERO, Vec2::ONE, Mat2::from_cols(Vec2::Y, -Vec2::X)).unwrap();
        assert_eq!(quarter.angle(), std::f32::consts::FRAC_PI_2);
    }

    #[test]
    fn local_and_world_round_trip() {
        let b = Obb3::new(Vec3::new(1.0, 2.0, 3.0), Vec3::ONE, Quat::from_rotation_y(0.7));
        let p = Vec3::new(-0.3, 4.0, 0.25);
        assert!((b.point_to_world(b.point_to_local(p)) - p).length() < 1e-5);
        let aabb = b.to_aabb();
        for c in b.corners() {
            assert!(c.cmpge(aabb.min() - 1e-5).all() && c.cmple(aabb.max() + 1e-5).all());
        }
    }

    #[test]
    fn from_aabb_and_transform_moves_the_centre() {
        let aabb = Aabb3::new(Vec3::new(1.0, 0.0, 0.0), Vec3::new(3.0, 2.0, 2.0));
        let q = Quat::from_xyzw(0.0, 0.0, 1.0, 1.0); // 90 degrees about z
        let b = Obb3::try_from_aabb_and_transform(&aabb, q, Vec3::new(0.0, 0.0, 5.0)).unwrap();
        assert_eq!(b.center(), Vec3::new(-1.0, 2.0, 6.0));
        let b2 = Obb2::try_from_aabb_and_transform(
            &Aabb2::new(Vec2::new(1.0, 0.0), Vec2::new(3.0, 2.0)),
            std::f32::consts::FRAC_PI_2,
            Vec2::ZERO,
        )
        .unwrap();
        assert!((b2.center() - Vec2::new(-1.0, 2.0)).length() < 1e-6);
    }
}
