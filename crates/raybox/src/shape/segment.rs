//! Line segments: `Segment2` and `Segment3`.

use glam::{Vec2, Vec3};

use crate::error::{ShapeError, check_finite};

macro_rules! segment_type {
    ($Segment:ident, $V:ident, $as_dvec:ident, $name:literal, $dim:literal, $Aabb:ident, $raw:literal) => {
        #[doc = concat!("A closed ", $dim, " line segment: every point `start + t (end - start)` with `t` in `[0, 1]`.")]
        ///
        /// A zero-length segment is valid (a point).
        ///
        /// ```
        #[doc = concat!("use raybox::{", stringify!($Segment), ", ClosestPoint};")]
        #[doc = concat!("use glam::", stringify!($V), " as V;")]
        ///
        /// let s = S::new(V::ZERO, V::X * 2.0);
        /// assert_eq!(s.closest_point(V::X * 5.0), V::X * 2.0);
        #[doc = concat!("# type S = ", stringify!($Segment), ";")]
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(try_from = $raw, into = $raw))]
        pub struct $Segment {
            start: $V,
            end: $V,
        }

        impl $Segment {
            /// The segment from `start` to `end`.
            ///
            /// # Errors
            /// [`ShapeError::NotFinite`] for NaN or infinite coordinates.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Segment), ";")]
            /// assert!(S::try_new(V::ZERO, V::ONE).is_ok());
            /// assert!(S::try_new(V::ZERO, V::splat(f32::NAN)).is_err());
            /// ```
            #[inline]
            pub fn try_new(start: $V, end: $V) -> Result<Self, ShapeError> {
                check_finite(&start.to_array(), $name, "start")?;
                check_finite(&end.to_array(), $name, "end")?;
                Ok(Self { start, end })
            }

            /// Like [`Self::try_new`], for values known to be valid.
            ///
            /// # Panics
            /// With `try_new`'s message, if `try_new` would fail.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Segment), ";")]
            /// assert_eq!(S::new(V::ZERO, V::ONE).end(), V::ONE);
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn new(start: $V, end: $V) -> Self {
                Self::try_new(start, end).unwrap_or_else(|e| panic!("{e}"))
            }

            /// The first end point (`t = 0`).
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Segment), ";")]
            /// assert_eq!(S::new(V::ZERO, V::ONE).start(), V::ZERO);
            /// ```
            #[inline]
            #[must_use]
            pub fn start(&self) -> $V {
                self.start
            }

            /// The second end point (`t = 1`).
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Segment), ";")]
            /// assert_eq!(S::new(V::ZERO, V::ONE).end(), V::ONE);
            /// ```
            #[inline]
            #[must_use]
            pub fn end(&self) -> $V {
                self.end
            }

            /// The end points where they are stored, for kernels that read them there
            /// rather than from copies (see `ball_segment_3d`).
            #[inline]
            #[allow(dead_code, reason = "read by the 3D kernels only")]
            pub(crate) fn ends_in_place(&self) -> (&$V, &$V) {
                (&self.start, &self.end)
            }

            /// The point at parameter `t` (`start` at 0, `end` at 1).
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Segment), ";")]
            /// assert_eq!(S::new(V::ZERO, V::splat(2.0)).at(0.5), V::ONE);
            /// ```
            #[inline]
            #[must_use]
            pub fn at(&self, t: f32) -> $V {
                self.start + (self.end - self.start) * t
            }

            /// The length, `|end - start|`.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Segment), ";")]
            /// assert_eq!(S::new(V::ZERO, V::X * 3.0).length(), 3.0);
            /// ```
            #[must_use]
            #[inline]
            pub fn length(&self) -> f32 {
                self.start.$as_dvec().distance(self.end.$as_dvec()) as f32
            }

            /// The smallest axis-aligned box holding the segment.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type S = raybox::", stringify!($Segment), ";")]
            /// let b = S::new(V::ONE, V::ZERO).to_aabb();
            /// assert_eq!((b.min(), b.max()), (V::ZERO, V::ONE));
            /// ```
            #[must_use]
            #[inline]
            pub fn to_aabb(&self) -> crate::$Aabb {
                crate::$Aabb::new(self.start.min(self.end), self.start.max(self.end))
            }
        }
    };
}

segment_type!(Segment2, Vec2, as_dvec2, "Segment2", "2D", Aabb2, "raw::Segment<glam::Vec2>");
segment_type!(Segment3, Vec3, as_dvec3, "Segment3", "3D", Aabb3, "raw::Segment<glam::Vec3>");

#[cfg(feature = "serde")]
mod raw {
    //! Plain mirrors of the segment types, so that deserialising validates.
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    pub struct Segment<V> {
        start: V,
        end: V,
    }

    macro_rules! convert {
        ($Segment:ident, $V:ty) => {
            impl TryFrom<Segment<$V>> for super::$Segment {
                type Error = crate::ShapeError;
                #[inline]
                fn try_from(s: Segment<$V>) -> Result<Self, Self::Error> {
                    Self::try_new(s.start, s.end)
                }
            }
            impl From<super::$Segment> for Segment<$V> {
                #[inline]
                fn from(s: super::$Segment) -> Self {
                    Segment { start: s.start(), end: s.end() }
                }
            }
        };
    }
    convert!(Segment2, glam::Vec2);
    convert!(Segment3, glam::Vec3);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn try_new_names_the_field() {
        let e = Segment3::try_new(Vec3::ZERO, Vec3::new(1.0, f32::INFINITY, 0.0)).unwrap_err();
        assert_eq!(e, ShapeError::NotFinite { shape: "Segment3", field: "end" });
        assert!(Segment2::try_new(Vec2::ONE, Vec2::ONE).is_ok()); // a point
        assert_eq!(Segment2::new(Vec2::ZERO, Vec2::new(3.0, 4.0)).length(), 5.0);
    }
}
