//! Capsules: `Capsule2` (a stadium) and `Capsule3`, every point within `radius` of a
//! segment (its *core*).

use glam::{Vec2, Vec3};

use crate::error::{ShapeError, check_finite, check_non_negative};

macro_rules! capsule_type {
    ($Capsule:ident, $Segment:ident, $V:ident, $name:literal, $what:literal, $Aabb:ident, $raw:literal) => {
        #[doc = concat!("A closed ", $what, ": every point within `radius` of the segment from `start` to `end`.")]
        ///
        /// A zero-length core is a ball; a zero radius is a segment. Both are valid.
        ///
        /// ```
        #[doc = concat!("use raybox::{", stringify!($Capsule), ", ContainsPoint};")]
        #[doc = concat!("use glam::", stringify!($V), " as V;")]
        ///
        /// // A character collider: 2 units tall, radius 0.5.
        #[doc = concat!("let c = raybox::", stringify!($Capsule), "::new(V::ZERO, V::Y, 0.5);")]
        /// assert!(c.contains_point(V::Y * 1.5)); // the top of the upper cap
        /// assert!(!c.contains_point(V::Y * 1.6));
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(try_from = $raw, into = $raw))]
        pub struct $Capsule {
            start: $V,
            end: $V,
            radius: f32,
        }

        impl $Capsule {
            /// The capsule of `radius` around the segment from `start` to `end`.
            ///
            /// # Errors
            /// [`ShapeError::NotFinite`] for NaN or infinite values, [`ShapeError::Negative`]
            /// for a negative radius.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type C = raybox::", stringify!($Capsule), ";")]
            /// assert!(C::try_new(V::ZERO, V::ONE, 0.5).is_ok());
            /// assert!(C::try_new(V::ZERO, V::ONE, -0.5).is_err());
            /// ```
            #[inline]
            pub fn try_new(start: $V, end: $V, radius: f32) -> Result<Self, ShapeError> {
                check_finite(&start.to_array(), $name, "start")?;
                check_finite(&end.to_array(), $name, "end")?;
                check_non_negative(&[radius], $name, "radius")?;
                Ok(Self { start, end, radius })
            }

            /// Like [`Self::try_new`], for values known to be valid.
            ///
            /// # Panics
            /// With `try_new`'s message, if `try_new` would fail.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type C = raybox::", stringify!($Capsule), ";")]
            /// assert_eq!(C::new(V::ZERO, V::ONE, 0.5).radius(), 0.5);
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn new(start: $V, end: $V, radius: f32) -> Self {
                Self::try_new(start, end, radius).unwrap_or_else(|e| panic!("{e}"))
            }

            /// One end of the core segment.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type C = raybox::", stringify!($Capsule), ";")]
            /// assert_eq!(C::new(V::ZERO, V::ONE, 0.5).start(), V::ZERO);
            /// ```
            #[inline]
            #[must_use]
            pub fn start(&self) -> $V {
                self.start
            }

            /// The other end of the core segment.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type C = raybox::", stringify!($Capsule), ";")]
            /// assert_eq!(C::new(V::ZERO, V::ONE, 0.5).end(), V::ONE);
            /// ```
            #[inline]
            #[must_use]
            pub fn end(&self) -> $V {
                self.end
            }

            /// The radius (zero or more).
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type C = raybox::", stringify!($Capsule), ";")]
            /// assert_eq!(C::new(V::ZERO, V::ONE, 0.5).radius(), 0.5);
            /// ```
            #[inline]
            #[must_use]
            pub fn radius(&self) -> f32 {
                self.radius
            }

            /// The core segment.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type C = raybox::", stringify!($Capsule), ";")]
            /// assert_eq!(C::new(V::ZERO, V::ONE, 0.5).segment().end(), V::ONE);
            /// ```
            #[inline]
            #[must_use]
            pub fn segment(&self) -> crate::$Segment {
                crate::$Segment::new(self.start, self.end)
            }

            /// The smallest axis-aligned box holding the capsule.
            ///
            /// # Panics
            /// If the bounds overflow to infinity.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type C = raybox::", stringify!($Capsule), ";")]
            /// let b = C::new(V::ZERO, V::ONE, 0.5).to_aabb();
            /// assert_eq!((b.min(), b.max()), (V::splat(-0.5), V::splat(1.5)));
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn to_aabb(&self) -> crate::$Aabb {
                let r = $V::splat(self.radius);
                crate::$Aabb::new(self.start.min(self.end) - r, self.start.max(self.end) + r)
            }
        }
    };
}

capsule_type!(
    Capsule2,
    Segment2,
    Vec2,
    "Capsule2",
    "2D capsule (a stadium)",
    Aabb2,
    "raw::Capsule<glam::Vec2>"
);
capsule_type!(Capsule3, Segment3, Vec3, "Capsule3", "3D capsule", Aabb3, "raw::Capsule<glam::Vec3>");

#[cfg(feature = "serde")]
mod raw {
    //! Plain mirrors of the capsule types, so that deserialising validates.
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    pub struct Capsule<V> {
        start: V,
        end: V,
        radius: f32,
    }

    macro_rules! convert {
        ($Capsule:ident, $V:ty) => {
            impl TryFrom<Capsule<$V>> for super::$Capsule {
                type Error = crate::ShapeError;
                #[inline]
                fn try_from(c: Capsule<$V>) -> Result<Self, Self::Error> {
                    Self::try_new(c.start, c.end, c.radius)
                }
            }
            impl From<super::$Capsule> for Capsule<$V> {
                #[inline]
                fn from(c: super::$Capsule) -> Self {
                    Capsule { start: c.start(), end: c.end(), radius: c.radius() }
                }
            }
        };
    }
    convert!(Capsule2, glam::Vec2);
    convert!(Capsule3, glam::Vec3);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn try_new_names_the_field() {
        let e = Capsule3::try_new(Vec3::ZERO, Vec3::ONE, -1.0).unwrap_err();
        assert_eq!(e, ShapeError::Negative { shape: "Capsule3", field: "radius" });
        let e = Capsule2::try_new(Vec2::new(f32::NAN, 0.0), Vec2::ONE, 1.0).unwrap_err();
        assert_eq!(e, ShapeError::NotFinite { shape: "Capsule2", field: "start" });
        assert!(Capsule3::try_new(Vec3::ONE, Vec3::ONE, 0.0).is_ok());
    }
}
