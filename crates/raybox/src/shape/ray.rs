//! Rays: `r(t) = origin + t * dir` for `t` in `[t_min, t_max]`, in 2D and 3D.

use glam::{Vec2, Vec3};

use crate::error::{ShapeError, check_finite};

/// Checks a parameter interval: no NaN, `t_min <= t_max`, `t_min < +inf`, `t_max > -inf`.
#[inline]
fn check_interval(t_min: f32, t_max: f32, shape: &'static str) -> Result<(), ShapeError> {
    let ok = t_min <= t_max && t_min != f32::INFINITY && t_max != f32::NEG_INFINITY;
    if ok { Ok(()) } else { Err(ShapeError::BadInterval { shape, t_min, t_max }) }
}

macro_rules! ray_type {
    ($Ray:ident, $V:ident, $name:literal, $dim:literal, $example:literal, $raw:literal) => {
        #[doc = concat!("A ", $dim, " ray or segment: the points `origin + t * dir` for `t` in `[t_min, t_max]`.")]
        ///
        /// `dir` is used as given, never normalised: `t` is measured in units of `dir`.
        /// `t_max` may be `f32::INFINITY` (a ray) and `t_min` may be `f32::NEG_INFINITY`
        /// (a line). The constructors reject a zero or non-finite `dir`, a non-finite
        /// `origin` and an empty or NaN interval, so every query on a ray can trust it.
        ///
        /// ```
        #[doc = $example]
        /// ```
        ///
        /// Laid out as `origin`, `dir`, `t_min`, `t_max` (`#[repr(C)]`, no padding): the
        /// batch casts read 8 rays at once as a block of floats.
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(try_from = $raw, into = $raw))]
        #[repr(C)]
        pub struct $Ray {
            origin: $V,
            dir: $V,
            t_min: f32,
            t_max: f32,
        }

        impl $Ray {
            /// A ray from `origin` along `dir`, for `t` in `[0, +inf)`.
            ///
            /// # Errors
            /// [`ShapeError::NotFinite`] if `origin` or `dir` has a NaN or infinite component,
            /// [`ShapeError::ZeroDirection`] if `dir` is zero.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// let r = R::try_new(V::ZERO, V::X).unwrap();
            /// assert_eq!((r.t_min(), r.t_max()), (0.0, f32::INFINITY));
            /// assert!(R::try_new(V::ZERO, V::ZERO).is_err());
            /// ```
            #[inline]
            pub fn try_new(origin: $V, dir: $V) -> Result<Self, ShapeError> {
                Self::try_with_range(origin, dir, 0.0, f32::INFINITY)
            }

            /// Like [`Self::try_new`], for values known to be valid.
            ///
            /// # Panics
            /// With `try_new`'s message, if `try_new` would fail.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// let r = R::new(V::ONE, V::X * 2.0);
            /// assert_eq!(r.at(0.5), V::ONE + V::X);
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn new(origin: $V, dir: $V) -> Self {
                Self::try_new(origin, dir).unwrap_or_else(|e| panic!("{e}"))
            }

            /// A ray for `t` in `[t_min, t_max]`.
            ///
            /// # Errors
            /// As [`Self::try_new`], and [`ShapeError::BadInterval`] if `t_min > t_max`,
            /// either bound is NaN, `t_min` is `+inf` or `t_max` is `-inf`.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// let line = R::try_with_range(V::ZERO, V::X, f32::NEG_INFINITY, f32::INFINITY).unwrap();
            /// assert_eq!(line.t_min(), f32::NEG_INFINITY);
            /// assert!(R::try_with_range(V::ZERO, V::X, 2.0, 1.0).is_err());
            /// ```
            #[inline]
            pub fn try_with_range(
                origin: $V,
                dir: $V,
                t_min: f32,
                t_max: f32,
            ) -> Result<Self, ShapeError> {
                check_finite(&origin.to_array(), $name, "origin")?;
                check_finite(&dir.to_array(), $name, "dir")?;
                if dir.to_array().iter().all(|&c| c == 0.0) {
                    return Err(ShapeError::ZeroDirection { shape: $name });
                }
                check_interval(t_min, t_max, $name)?;
                Ok(Self { origin, dir, t_min, t_max })
            }

            /// Like [`Self::try_with_range`], for values known to be valid.
            ///
            /// # Panics
            /// With `try_with_range`'s message, if it would fail.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// let r = R::with_range(V::ZERO, V::X, 1.0, 3.0);
            /// assert_eq!((r.t_min(), r.t_max()), (1.0, 3.0));
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn with_range(origin: $V, dir: $V, t_min: f32, t_max: f32) -> Self {
                Self::try_with_range(origin, dir, t_min, t_max).unwrap_or_else(|e| panic!("{e}"))
            }

            /// The segment from `from` (`t = 0`) to `to` (`t = 1`).
            ///
            /// # Errors
            /// As [`Self::try_new`]; [`ShapeError::ZeroDirection`] if `from == to`.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// assert!(R::try_segment(V::ONE, V::ONE).is_err()); // zero length
            /// ```
            #[inline]
            pub fn try_segment(from: $V, to: $V) -> Result<Self, ShapeError> {
                check_finite(&to.to_array(), $name, "to")?;
                Self::try_with_range(from, to - from, 0.0, 1.0)
            }

            /// Like [`Self::try_segment`], for values known to be valid.
            ///
            /// # Panics
            /// With `try_segment`'s message, if it would fail.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// let s = R::segment(V::ZERO, V::splat(2.0));
            /// assert_eq!((s.dir(), s.t_max()), (V::splat(2.0), 1.0));
            /// ```
            #[track_caller]
            #[must_use]
            #[inline]
            pub fn segment(from: $V, to: $V) -> Self {
                Self::try_segment(from, to).unwrap_or_else(|e| panic!("{e}"))
            }

            /// The same ray with the parameter interval `[t_min, t_max]`.
            ///
            /// # Errors
            /// [`ShapeError::BadInterval`], as in [`Self::try_with_range`].
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// let r = R::new(V::ZERO, V::X).try_with_interval(0.5, 2.0).unwrap();
            /// assert_eq!(r.t_max(), 2.0);
            /// ```
            #[inline]
            pub fn try_with_interval(self, t_min: f32, t_max: f32) -> Result<Self, ShapeError> {
                check_interval(t_min, t_max, $name)?;
                Ok(Self { t_min, t_max, ..self })
            }

            /// The point `origin + t * dir`.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// assert_eq!(R::new(V::ZERO, V::X).at(-2.0), V::X * -2.0);
            /// ```
            #[inline]
            #[must_use]
            pub fn at(&self, t: f32) -> $V {
                self.origin + t * self.dir
            }

            /// Where the ray starts at `t = 0` (not necessarily at `t_min`).
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// assert_eq!(R::new(V::ONE, V::X).origin(), V::ONE);
            /// ```
            #[inline]
            #[must_use]
            pub fn origin(&self) -> $V {
                self.origin
            }

            /// The direction, as given (not normalised).
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// assert_eq!(R::new(V::ONE, V::X * 3.0).dir(), V::X * 3.0); // not normalised
            /// ```
            #[inline]
            #[must_use]
            pub fn dir(&self) -> $V {
                self.dir
            }

            /// The lower end of the parameter interval.
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// assert_eq!(R::with_range(V::ONE, V::X, -1.0, 1.0).t_min(), -1.0);
            /// ```
            #[inline]
            #[must_use]
            pub fn t_min(&self) -> f32 {
                self.t_min
            }

            /// The upper end of the parameter interval (may be `f32::INFINITY`).
            ///
            /// ```
            #[doc = concat!("# type V = glam::", stringify!($V), "; type R = raybox::", stringify!($Ray), ";")]
            /// assert_eq!(R::new(V::ONE, V::X).t_max(), f32::INFINITY);
            /// ```
            #[inline]
            #[must_use]
            pub fn t_max(&self) -> f32 {
                self.t_max
            }
        }
    };
}

ray_type!(
    Ray2,
    Vec2,
    "Ray2",
    "2D",
    "use raybox::Ray2;\nuse glam::Vec2;\n\nlet ray = Ray2::new(Vec2::ZERO, Vec2::new(2.0, 0.0));\nassert_eq!(ray.at(1.5), Vec2::new(3.0, 0.0));\nassert!(Ray2::try_new(Vec2::ZERO, Vec2::ZERO).is_err());",
    "raw::Ray<glam::Vec2>"
);
const _: () = assert!(core::mem::size_of::<Ray2>() == 6 * 4 && core::mem::align_of::<Ray2>() == 4);

ray_type!(
    Ray3,
    Vec3,
    "Ray3",
    "3D",
    "use raybox::Ray3;\nuse glam::Vec3;\n\nlet seg = Ray3::segment(Vec3::ZERO, Vec3::new(0.0, 0.0, 4.0));\nassert_eq!((seg.t_min(), seg.t_max()), (0.0, 1.0));\nassert_eq!(seg.at(0.5), Vec3::new(0.0, 0.0, 2.0));",
    "raw::Ray<glam::Vec3>"
);

// Eight floats, no padding (`TriMesh`'s packets read rays as such).
const _: () = assert!(core::mem::size_of::<Ray3>() == 8 * 4 && core::mem::align_of::<Ray3>() == 4);

#[cfg(feature = "serde")]
mod raw {
    //! Plain mirrors of the ray types, so that deserialising validates.
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    pub struct Ray<V> {
        origin: V,
        dir: V,
        t_min: Bound,
        t_max: Bound,
    }

    /// A parameter bound: a number, or `"inf"` / `"-inf"` (JSON has no infinities).
    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    pub enum Bound {
        Finite(f32),
        Named(String),
    }

    impl From<f32> for Bound {
        #[inline]
        fn from(t: f32) -> Self {
            match t {
                f32::INFINITY => Bound::Named("inf".into()),
                f32::NEG_INFINITY => Bound::Named("-inf".into()),
                t => Bound::Finite(t),
            }
        }
    }

    impl Bound {
        /// The value; an unknown name becomes NaN, which the ray constructor rejects.
        #[inline]
        fn value(&self) -> f32 {
            match self {
                Bound::Finite(t) => *t,
                Bound::Named(name) => name.parse().unwrap_or(f32::NAN),
            }
        }
    }

    macro_rules! convert {
        ($Ray:ident, $V:ty) => {
            impl TryFrom<Ray<$V>> for super::$Ray {
                type Error = crate::ShapeError;
                #[inline]
                fn try_from(r: Ray<$V>) -> Result<Self, Self::Error> {
                    Self::try_with_range(r.origin, r.dir, r.t_min.value(), r.t_max.value())
                }
            }
            impl From<super::$Ray> for Ray<$V> {
                #[inline]
                fn from(r: super::$Ray) -> Self {
                    Ray { origin: r.origin(), dir: r.dir(), t_min: r.t_min().into(), t_max: r.t_max().into() }
                }
            }
        };
    }
    convert!(Ray2, glam::Vec2);
    convert!(Ray3, glam::Vec3);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn try_new_names_the_field() {
        let e = Ray3::try_new(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::X).unwrap_err();
        assert_eq!(e, ShapeError::NotFinite { shape: "Ray3", field: "origin" });
        let e = Ray3::try_new(Vec3::ZERO, Vec3::new(0.0, f32::INFINITY, 0.0)).unwrap_err();
        assert_eq!(e, ShapeError::NotFinite { shape: "Ray3", field: "dir" });
        let e = Ray2::try_new(Vec2::ZERO, Vec2::new(-0.0, 0.0)).unwrap_err();
        assert_eq!(e, ShapeError::ZeroDirection { shape: "Ray2" });
    }

    #[test]
    fn intervals_are_validated() {
        let bad = [(1.0, 0.0), (f32::NAN, 1.0), (0.0, f32::NAN), (f32::INFINITY, f32::INFINITY)];
        for (a, b) in bad {
            assert!(Ray3::try_with_range(Vec3::ZERO, Vec3::X, a, b).is_err(), "{a} {b}");
        }
        let line = Ray3::with_range(Vec3::ZERO, Vec3::X, f32::NEG_INFINITY, f32::INFINITY);
        assert_eq!(line.t_min(), f32::NEG_INFINITY);
        assert!(Ray3::try_with_range(Vec3::ZERO, Vec3::X, 2.0, 2.0).is_ok());
    }

    #[test]
    #[should_panic(expected = "Ray3: dir must not be the zero vector")]
    fn new_panics_with_the_message() {
        let _ = Ray3::new(Vec3::ONE, Vec3::ZERO);
    }
}
