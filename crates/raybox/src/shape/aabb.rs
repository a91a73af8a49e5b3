//! Axis-aligned boxes: `Aabb2` and `Aabb3`.

use glam::{Vec2, Vec3};

use crate::error::{ShapeError, check_finite, check_non_negative};

macro_rules! aabb_type {
    ($Aabb:ident, $V:ident, $name:literal, $dim:literal, $example:literal, $raw:literal) => {
        #[doc = concat!("A closed ", $dim, " axis-aligned box: every point `p` with `min <= p <= max` on each axis.")]
        ///
        /// Zero extents are valid (a point, a segment, a flat box). The fields are private:
        /// the constructors established that they are finite and that `min <= max`.
        ///
        /// ```
        #[doc = $example]
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(try_from = $raw, into = $raw))]
        pub struct $Aabb {
            min: $V,
            max: $V,
        }

        impl $Aabb {
            /// The box with corners `min` and `max`.
            ///
            /// # Errors
            /// [`ShapeError::NotFinite`] for a NaN or infinite coordinate,
            /// [`ShapeError::MinGreaterThanMax`] if `min > max` on some axis.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// assert!(B::try_new(V::ZERO, V::ONE).is_ok());
            /// assert!(B::try_new(V::ONE, V::ZERO).is_err()); // min > max
            /// assert!(B::try_new(V::ZERO, V::splat(f32::NAN)).is_err());
            /// ```
            #[inline]
            pub fn try_new(min: $V, max: $V) -> Result<Self, ShapeError> {
                check_finite(&min.to_array(), $name, "min")?;
                check_finite(&max.to_array(), $name, "max")?;
                for (axis, (lo, hi)) in min.to_array().into_iter().zip(max.to_array()).enumerate() {
                    if lo > hi {
                        return Err(ShapeError::MinGreaterThanMax { shape: $name, axis, min: lo, max: hi });
                    }
                }
                Ok(Self { min, max })
            }

            /// Like [`Self::try_new`], for values known to be valid.
            ///
            /// # Panics
            /// With `try_new`'s message, if `try_new` would fail.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// let b = B::new(-V::ONE, V::ONE);
            /// assert_eq!(b.size(), V::splat(2.0));
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn new(min: $V, max: $V) -> Self {
                Self::try_new(min, max).unwrap_or_else(|e| panic!("{e}"))
            }

            /// The box `center ± half_extents`.
            ///
            /// # Errors
            /// [`ShapeError::NotFinite`] for NaN or infinite values (including a
            /// `center ± half_extents` that overflows), [`ShapeError::Negative`] for a
            /// negative half extent.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// let b = B::try_from_center_half_extents(V::ONE, V::splat(0.5)).unwrap();
            /// assert_eq!(b.min(), V::splat(0.5));
            /// assert!(B::try_from_center_half_extents(V::ONE, V::splat(-0.5)).is_err());
            /// ```
            #[inline]
            pub fn try_from_center_half_extents(center: $V, half_extents: $V) -> Result<Self, ShapeError> {
                check_finite(&center.to_array(), $name, "center")?;
                check_non_negative(&half_extents.to_array(), $name, "half_extents")?;
                Self::try_new(center - half_extents, center + half_extents)
            }

            /// Like [`Self::try_from_center_half_extents`], for values known to be valid.
            ///
            /// # Panics
            /// With its message, if `try_from_center_half_extents` would fail.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// assert_eq!(B::from_center_half_extents(V::ZERO, V::ONE), B::new(-V::ONE, V::ONE));
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn from_center_half_extents(center: $V, half_extents: $V) -> Self {
                Self::try_from_center_half_extents(center, half_extents).unwrap_or_else(|e| panic!("{e}"))
            }

            /// The smallest box holding every point, or `None` when `points` is empty
            /// or holds a NaN or infinite coordinate.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// let b = B::from_points(&[V::ONE, -V::ONE, V::ZERO]).unwrap();
            /// assert_eq!(b, B::new(-V::ONE, V::ONE));
            /// assert_eq!(B::from_points(&[]), None);
            /// ```
            #[must_use]
            #[inline]
            pub fn from_points(points: &[$V]) -> Option<Self> {
                let (first, rest) = points.split_first()?;
                let (min, max) = rest.iter().fold((*first, *first), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
                Self::try_new(min, max).ok().filter(|_| points.iter().all(|p| p.is_finite()))
            }

            /// The lower corner.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// assert_eq!(B::new(V::ZERO, V::ONE).min(), V::ZERO);
            /// ```
            #[inline]
            #[must_use]
            pub fn min(&self) -> $V {
                self.min
            }

            /// The upper corner.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// assert_eq!(B::new(V::ZERO, V::ONE).max(), V::ONE);
            /// ```
            #[inline]
            #[must_use]
            pub fn max(&self) -> $V {
                self.max
            }

            /// The centre, `(min + max) / 2` (computed so that it cannot overflow).
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// assert_eq!(B::new(V::ZERO, V::splat(4.0)).center(), V::splat(2.0));
            /// ```
            #[inline]
            #[must_use]
            pub fn center(&self) -> $V {
                self.min * 0.5 + self.max * 0.5
            }

            /// Half the size on each axis.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// assert_eq!(B::new(V::ZERO, V::splat(4.0)).half_extents(), V::splat(2.0));
            /// ```
            #[inline]
            #[must_use]
            pub fn half_extents(&self) -> $V {
                self.max * 0.5 - self.min * 0.5
            }

            /// The size on each axis, `max - min`.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// assert_eq!(B::new(V::ONE, V::splat(4.0)).size(), V::splat(3.0));
            /// ```
            #[inline]
            #[must_use]
            pub fn size(&self) -> $V {
                self.max - self.min
            }

            /// The smallest box holding both boxes.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// let a = B::new(V::ZERO, V::ONE);
            /// let b = B::new(V::splat(2.0), V::splat(3.0));
            /// assert_eq!(a.union(&b), B::new(V::ZERO, V::splat(3.0)));
            /// ```
            #[inline]
            #[must_use]
            pub fn union(&self, other: &Self) -> Self {
                Self { min: self.min.min(other.min), max: self.max.max(other.max) }
            }

            /// The smallest box holding this box and `point`, or `None` if `point` is not finite.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// let a = B::new(V::ZERO, V::ONE);
            /// assert_eq!(a.union_point(V::splat(-1.0)), Some(B::new(-V::ONE, V::ONE)));
            /// assert_eq!(a.union_point(V::splat(f32::NAN)), None);
            /// ```
            #[must_use]
            #[inline]
            pub fn union_point(&self, point: $V) -> Option<Self> {
                point.is_finite().then(|| Self { min: self.min.min(point), max: self.max.max(point) })
            }

            /// The box moved outwards by `margin` on every side; a negative margin shrinks it,
            /// never past its centre on any axis.
            ///
            /// # Panics
            /// If `margin` is NaN, or the result has an infinite coordinate.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// let b = B::new(V::ZERO, V::splat(2.0));
            /// assert_eq!(b.grow(1.0), B::new(-V::ONE, V::splat(3.0)));
            /// assert_eq!(b.grow(-5.0), B::new(V::ONE, V::ONE)); // shrinks onto the centre, no further
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn grow(&self, margin: f32) -> Self {
                assert!(!margin.is_nan(), concat!($name, "::grow: margin is NaN"));
                let c = self.center();
                let min = (self.min - $V::splat(margin)).min(c);
                let max = (self.max + $V::splat(margin)).max(c);
                Self::new(min, max)
            }

            /// The box moved by `offset`.
            ///
            /// # Panics
            /// If the result has a NaN or infinite coordinate.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type B = raybox::", stringify!($Aabb), ";")]
            /// assert_eq!(B::new(V::ZERO, V::ONE).translated(V::ONE), B::new(V::ONE, V::splat(2.0)));
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn translated(&self, offset: $V) -> Self {
                Self::new(self.min + offset, self.max + offset)
            }
        }
    };
}

aabb_type!(
    Aabb2,
    Vec2,
    "Aabb2",
    "2D",
    "use raybox::Aabb2;\nuse glam::Vec2;\n\nlet b = Aabb2::new(Vec2::ZERO, Vec2::new(4.0, 2.0));\nassert_eq!(b.center(), Vec2::new(2.0, 1.0));\nassert_eq!(b.perimeter(), 12.0);",
    "raw::Aabb<glam::Vec2>"
);
aabb_type!(
    Aabb3,
    Vec3,
    "Aabb3",
    "3D",
    "use raybox::Aabb3;\nuse glam::Vec3;\n\nlet b = Aabb3::from_center_half_extents(Vec3::ZERO, Vec3::ONE);\nassert_eq!(b.min(), Vec3::splat(-1.0));\nassert_eq!(b.surface_area(), 24.0);",
    "raw::Aabb<glam::Vec3>"
);

impl Aabb2 {
    /// The length of the boundary, `2 (w + h)`.
    ///
    /// ```
    /// use raybox::Aabb2;
    /// use glam::Vec2;
    /// assert_eq!(Aabb2::new(Vec2::ZERO, Vec2::new(3.0, 1.0)).perimeter(), 8.0);
    /// ```
    #[must_use]
    #[inline]
    pub fn perimeter(&self) -> f32 {
        let s = self.size();
        2.0 * (s.x + s.y)
    }

    /// The area, `w h`.
    ///
    /// ```
    /// use raybox::Aabb2;
    /// use glam::Vec2;
    /// assert_eq!(Aabb2::new(Vec2::ZERO, Vec2::new(3.0, 2.0)).area(), 6.0);
    /// ```
    #[must_use]
    #[inline]
    pub fn area(&self) -> f32 {
        let s = self.size();
        s.x * s.y
    }

    /// The four corners, counter-clockwise from `min`.
    ///
    /// ```
    /// use raybox::Aabb2;
    /// use glam::Vec2;
    /// let c = Aabb2::new(Vec2::ZERO, Vec2::ONE).corners();
    /// assert_eq!(c, [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y]);
    /// ```
    #[must_use]
    #[inline]
    pub fn corners(&self) -> [Vec2; 4] {
        let (a, b) = (self.min, self.max);
        [a, Vec2::new(b.x, a.y), b, Vec2::new(a.x, b.y)]
    }
}

impl Aabb3 {
    /// The area of the six faces, `2 (wh + hd + dw)`: the cost measure of the surface area heuristic.
    ///
    /// ```
    /// use raybox::Aabb3;
    /// use glam::Vec3;
    /// assert_eq!(Aabb3::new(Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0)).surface_area(), 22.0);
    /// ```
    #[must_use]
    #[inline]
    pub fn surface_area(&self) -> f32 {
        let s = self.size();
        2.0 * (s.x * s.y + s.y * s.z + s.z * s.x)
    }

    /// The volume, `w h d`.
    ///
    /// ```
    /// use raybox::Aabb3;
    /// use glam::Vec3;
    /// assert_eq!(Aabb3::new(Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0)).volume(), 6.0);
    /// ```
    #[must_use]
    #[inline]
    pub fn volume(&self) -> f32 {
        let s = self.size();
        s.x * s.y * s.z
    }

    /// The eight corners; corner `i` takes `max` on axis `k` when bit `k` of `i` is set.
    ///
    /// ```
    /// use raybox::Aabb3;
    /// use glam::Vec3;
    /// let c = Aabb3::new(Vec3::ZERO, Vec3::ONE).corners();
    /// assert_eq!((c[0], c[1], c[6], c[7]), (Vec3::ZERO, Vec3::X, Vec3::new(0.0, 1.0, 1.0), Vec3::ONE));
    /// ```
    #[must_use]
    #[inline]
    pub fn corners(&self) -> [Vec3; 8] {
        crate::arrays::from_fn(|i| {
            Vec3::select(glam::BVec3::new(i & 1 != 0, i & 2 != 0, i & 4 != 0), self.max, self.min)
        })
    }
}

#[cfg(feature = "serde")]
mod raw {
    //! Plain mirrors of the box types, so that deserialising validates.
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    pub struct Aabb<V> {
        min: V,
        max: V,
    }

    macro_rules! convert {
        ($Aabb:ident, $V:ty) => {
            impl TryFrom<Aabb<$V>> for super::$Aabb {
                type Error = crate::ShapeError;
                #[inline]
                fn try_from(b: Aabb<$V>) -> Result<Self, Self::Error> {
                    Self::try_new(b.min, b.max)
                }
            }
            impl From<super::$Aabb> for Aabb<$V> {
                #[inline]
                fn from(b: super::$Aabb) -> Self {
                    Aabb { min: b.min(), max: b.max() }
                }
            }
        };
    }
    convert!(Aabb2, glam::Vec2);
    convert!(Aabb3, glam::Vec3);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn try_new_names_the_field() {
        let e = Aabb3::try_new(Vec3::ZERO, Vec3::new(1.0, f32::NAN, 1.0)).unwrap_err();
        assert_eq!(e, ShapeError::NotFinite { shape: "Aabb3", field: "max" });
        let e = Aabb2::try_new(Vec2::new(2.0, 0.0), Vec2::ONE).unwrap_err();
        assert_eq!(e.to_string(), "Aabb2: min.x (2) is greater than max.x (1)");
        assert!(Aabb3::try_from_center_half_extents(Vec3::ZERO, Vec3::new(1.0, -1.0, 1.0)).is_err());
    }

    #[test]
    fn zero_extent_boxes_are_valid() {
        let p = Aabb3::new(Vec3::ONE, Vec3::ONE);
        assert_eq!(p.size(), Vec3::ZERO);
        assert_eq!(p.surface_area(), 0.0);
    }

    #[test]
    fn from_points_and_union() {
        assert_eq!(Aabb2::from_points(&[]), None);
        assert_eq!(Aabb2::from_points(&[Vec2::ZERO, Vec2::new(f32::NAN, 0.0)]), None);
        let b = Aabb2::from_points(&[Vec2::new(1.0, -1.0), Vec2::new(-2.0, 3.0)]).unwrap();
        assert_eq!(b, Aabb2::new(Vec2::new(-2.0, -1.0), Vec2::new(1.0, 3.0)));
        let u = b.union(&Aabb2::new(Vec2::splat(5.0), Vec2::splat(6.0)));
        assert_eq!(u, Aabb2::new(Vec2::new(-2.0, -1.0), Vec2::splat(6.0)));
        assert_eq!(b.union_point(Vec2::new(0.0, 9.0)).unwrap().max(), Vec2::new(1.0, 9.0));
    }

    #[test]
    fn grow_and_shrink() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::new(4.0, 2.0, 2.0));
        assert_eq!(b.grow(1.0), Aabb3::new(Vec3::splat(-1.0), Vec3::new(5.0, 3.0, 3.0)));
        // Shrinking by 1.5 collapses y and z onto the centre but leaves x one unit wide.
        let s = b.grow(-1.5);
        assert_eq!(s, Aabb3::new(Vec3::new(1.5, 1.0, 1.0), Vec3::new(2.5, 1.0, 1.0)));
    }

    #[test]
    fn corners_and_measures() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(b.volume(), 6.0);
        assert_eq!(b.corners()[0], Vec3::ZERO);
        assert_eq!(b.corners()[7], Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(b.corners()[2], Vec3::new(0.0, 2.0, 0.0));
        let huge = Aabb2::new(Vec2::splat(-3.0e38), Vec2::splat(3.0e38));
        assert_eq!(huge.center(), Vec2::ZERO);
    }
}
