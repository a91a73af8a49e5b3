//! The error returned when a shape cannot be built from the values given.

use core::fmt;

/// Why a shape constructor (`try_new` and friends) refused its input.
///
/// Every variant names the offending field, so that the message points at the
/// value to fix: `"Aabb3: min.y (2) is greater than max.y (1)"`.
///
/// ```
/// use raybox::{Aabb3, ShapeError};
/// use glam::Vec3;
///
/// let err = Aabb3::try_new(Vec3::new(0.0, 2.0, 0.0), Vec3::ONE).unwrap_err();
/// assert!(matches!(err, ShapeError::MinGreaterThanMax { axis: 1, .. }));
/// assert_eq!(err.to_string(), "Aabb3: min.y (2) is greater than max.y (1)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ShapeError {
    /// A coordinate or scalar is NaN or infinite where a finite value is required.
    NotFinite {
        /// The shape being built, e.g. `"Ray3"`.
        shape: &'static str,
        /// The field, e.g. `"origin"`.
        field: &'static str,
    },
    /// A box has `min > max` on some axis.
    MinGreaterThanMax {
        /// The shape being built.
        shape: &'static str,
        /// The axis, 0 for x, 1 for y, 2 for z.
        axis: usize,
        /// The value of `min` on that axis.
        min: f32,
        /// The value of `max` on that axis.
        max: f32,
    },
    /// A length that must be zero or more (a radius, a half extent, a margin) is negative.
    Negative {
        /// The shape being built.
        shape: &'static str,
        /// The field, e.g. `"radius"` or `"half_extents"`.
        field: &'static str,
    },
    /// A ray direction is the zero vector (every component `+0.0` or `-0.0`).
    ZeroDirection {
        /// The shape being built.
        shape: &'static str,
    },
    /// A ray's parameter interval is empty or not a range of finite starts:
    /// `t_min > t_max`, a NaN bound, `t_min == +inf` or `t_max == -inf`.
    BadInterval {
        /// The shape being built.
        shape: &'static str,
        /// The lower bound given.
        t_min: f32,
        /// The upper bound given.
        t_max: f32,
    },
    /// A rotation is the zero quaternion, the zero `(cos, sin)` vector, or not finite.
    ZeroRotation {
        /// The shape being built.
        shape: &'static str,
    },
    /// A rotation matrix is not orthonormal with determinant +1 (within 1e-4 per entry).
    NotARotation {
        /// The shape being built.
        shape: &'static str,
    },
    /// A plane normal is the zero vector.
    ZeroNormal {
        /// The shape being built.
        shape: &'static str,
    },
    /// Three points that should span a plane or a triangle are collinear (zero area).
    Degenerate {
        /// The shape being built.
        shape: &'static str,
    },
}

const AXES: [char; 3] = ['x', 'y', 'z'];

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::NotFinite { shape, field } => {
                write!(f, "{shape}: {field} must be finite (it has a NaN or infinite value)")
            }
            Self::MinGreaterThanMax { shape, axis, min, max } => {
                let a = AXES.get(axis).copied().unwrap_or('?');
                write!(f, "{shape}: min.{a} ({min}) is greater than max.{a} ({max})")
            }
            Self::Negative { shape, field } => write!(f, "{shape}: {field} must not be negative"),
            Self::ZeroDirection { shape } => write!(f, "{shape}: dir must not be the zero vector"),
            Self::BadInterval { shape, t_min, t_max } => write!(
                f,
                "{shape}: [t_min, t_max] = [{t_min}, {t_max}] is not a valid interval \
                 (needs t_min <= t_max, no NaN, t_min < +inf, t_max > -inf)"
            ),
            Self::ZeroRotation { shape } => {
                write!(f, "{shape}: rotation must be finite and not zero")
            }
            Self::NotARotation { shape } => {
                write!(f, "{shape}: rotation matrix must be orthonormal with determinant +1")
            }
            Self::ZeroNormal { shape } => write!(f, "{shape}: normal must not be the zero vector"),
            Self::Degenerate { shape } => {
                write!(f, "{shape}: points are collinear (the shape has zero area)")
            }
        }
    }
}

impl std::error::Error for ShapeError {}

/// Checks that every component is finite; the error names `shape` and `field`.
#[inline]
pub(crate) fn check_finite(
    values: &[f32],
    shape: &'static str,
    field: &'static str,
) -> Result<(), ShapeError> {
    if values.iter().all(|v| v.is_finite()) { Ok(()) } else { Err(ShapeError::NotFinite { shape, field }) }
}

/// Checks that every component is finite and not negative (`-0.0` is allowed).
#[inline]
pub(crate) fn check_non_negative(
    values: &[f32],
    shape: &'static str,
    field: &'static str,
) -> Result<(), ShapeError> {
    check_finite(values, shape, field)?;
    if values.iter().all(|&v| v >= 0.0) { Ok(()) } else { Err(ShapeError::Negative { shape, field }) }
}
