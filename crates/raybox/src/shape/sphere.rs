//! Balls: `Circle` (2D disc) and `Sphere` (3D ball).

use glam::{Vec2, Vec3};

use crate::error::{ShapeError, check_finite, check_non_negative};

macro_rules! ball_type {
    ($Ball:ident, $V:ident, $name:literal, $what:literal, $Aabb:ident, $example:literal, $raw:literal) => {
        #[doc = concat!("A closed ", $what, ": every point within `radius` of `center`.")]
        ///
        /// A zero radius is valid (a point).
        ///
        /// ```
        #[doc = $example]
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(try_from = $raw, into = $raw))]
        pub struct $Ball {
            center: $V,
            radius: f32,
        }

        impl $Ball {
            #[doc = concat!("The ", $what, " around `center` with `radius`.")]
            ///
            /// # Errors
            /// [`ShapeError::NotFinite`] for NaN or infinite values,
            /// [`ShapeError::Negative`] for a negative radius.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Ball), ";")]
            /// assert!(S::try_new(V::ZERO, 0.0).is_ok()); // a point
            /// assert!(S::try_new(V::ZERO, -1.0).is_err());
            /// ```
            #[inline]
            pub fn try_new(center: $V, radius: f32) -> Result<Self, ShapeError> {
                check_finite(&center.to_array(), $name, "center")?;
                check_non_negative(&[radius], $name, "radius")?;
                Ok(Self { center, radius })
            }

            /// Like [`Self::try_new`], for values known to be valid.
            ///
            /// # Panics
            /// With `try_new`'s message, if `try_new` would fail.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Ball), ";")]
            /// assert_eq!(S::new(V::ONE, 2.0).radius(), 2.0);
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn new(center: $V, radius: f32) -> Self {
                Self::try_new(center, radius).unwrap_or_else(|e| panic!("{e}"))
            }

            /// The centre.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Ball), ";")]
            /// assert_eq!(S::new(V::ONE, 2.0).center(), V::ONE);
            /// ```
            #[inline]
            #[must_use]
            pub fn center(&self) -> $V {
                self.center
            }

            /// The centre where it is stored (see `Segment3::ends_in_place`).
            #[inline]
            #[allow(dead_code, reason = "read by the 3D kernels only")]
            pub(crate) fn center_in_place(&self) -> &$V {
                &self.center
            }

            /// The radius (zero or more).
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Ball), ";")]
            /// assert_eq!(S::new(V::ONE, 2.0).radius(), 2.0);
            /// ```
            #[inline]
            #[must_use]
            pub fn radius(&self) -> f32 {
                self.radius
            }

            /// The smallest axis-aligned box holding the ball.
            ///
            /// # Panics
            /// If `center ± radius` overflows to infinity.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Ball), ";")]
            /// let b = S::new(V::ONE, 1.0).to_aabb();
            /// assert_eq!((b.min(), b.max()), (V::ZERO, V::splat(2.0)));
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn to_aabb(&self) -> crate::$Aabb {
                crate::$Aabb::from_center_half_extents(self.center, $V::splat(self.radius))
            }
        }
    };
}

ball_type!(
    Circle,
    Vec2,
    "Circle",
    "disc",
    Aabb2,
    "use raybox::{Circle, ContainsPoint};\nuse glam::Vec2;\n\nlet c = Circle::new(Vec2::ZERO, 2.0);\nassert!(c.contains_point(Vec2::new(0.0, 2.0))); // closed: the boundary is inside",
    "raw::Ball<glam::Vec2>"
);
ball_type!(
    Sphere,
    Vec3,
    "Sphere",
    "ball",
    Aabb3,
    "use raybox::{Sphere, Aabb3};\nuse glam::Vec3;\n\nlet s = Sphere::new(Vec3::ONE, 0.5);\nassert_eq!(s.to_aabb(), Aabb3::new(Vec3::splat(0.5), Vec3::splat(1.5)));",
    "raw::Ball<glam::Vec3>"
);

#[cfg(feature = "serde")]
mod raw {
    //! Plain mirrors of the ball types, so that deserialising validates.
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    pub struct Ball<V> {
        center: V,
        radius: f32,
    }

    macro_rules! convert {
        ($Ball:ident, $V:ty) => {
            impl TryFrom<Ball<$V>> for super::$Ball {
                type Error = crate::ShapeError;
                #[inline]
                fn try_from(b: Ball<$V>) -> Result<Self, Self::Error> {
                    Self::try_new(b.center, b.radius)
                }
            }
            impl From<super::$Ball> for Ball<$V> {
                #[inline]
                fn from(b: super::$Ball) -> Self {
                    Ball { center: b.center(), radius: b.radius() }
                }
            }
        };
    }
    convert!(Circle, glam::Vec2);
    convert!(Sphere, glam::Vec3);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn try_new_names_the_field() {
        assert_eq!(
            Sphere::try_new(Vec3::ZERO, -1.0),
            Err(ShapeError::Negative { shape: "Sphere", field: "radius" })
        );
        assert_eq!(
            Circle::try_new(Vec2::ZERO, f32::NAN),
            Err(ShapeError::NotFinite { shape: "Circle", field: "radius" })
        );
        assert!(Sphere::try_new(Vec3::ZERO, f32::INFINITY).is_err());
        assert!(Sphere::try_new(Vec3::ZERO, 0.0).is_ok());
    }
}
