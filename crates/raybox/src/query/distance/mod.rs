//! Distances between shapes, and a closest point on each: one file per shape pair, named in
//! the pair order of `query/mod.rs`.
//!
//! Every pair runs the GJK distance algorithm of `gjk.rs` on the shapes' convex cores (a
//! ball is a point core with a radius, a capsule a segment core with a radius), in `f64`;
//! two segment cores go to the exact segment kernel of `segment_segment.rs` instead, and
//! planes (`plane.rs`, `plane_capsule.rs`) have closed forms: the shape's least signed
//! distance to the plane.
//!
//! **Conventions.** Shapes are solid: overlapping shapes are at distance zero, and their
//! two "closest points" are then one common point. For the pairs that have an exact
//! [`crate::Overlaps`] test, `distance` is zero **exactly** when `overlaps` is true (the
//! overlap test decides, and a separated pair never reports zero). The distance and the
//! points agree with the exact ones to about `1e-6` relative of the coordinates.

use crate::arrays::Each;
mod aabb_aabb;
mod aabb_capsule;
mod aabb_obb;
mod aabb_segment;
mod capsule_capsule;
mod capsule_segment;
mod gjk;
mod obb_capsule;
mod obb_obb;
mod obb_segment;
mod plane;
mod plane_capsule;
mod segment_segment;
mod sphere_aabb;
mod sphere_capsule;
mod sphere_obb;
mod sphere_segment;
mod sphere_sphere;
mod triangle;
mod triangle_capsule;
mod triangle_segment;
mod triangle_triangle;

pub(crate) use gjk::{
    Closest, Core, Rounded, core_closest, core_closest_precise, d2, d3, f2, f3, rounded_closest,
    rounded_overlaps, swap_rounded,
};
pub(crate) use segment_segment::{
    Seg, grow, orient2d, planar_common_point, segment_order, segment_segment_closest, sum_rounded, sum_sign,
    two_product, two_sum,
};

use crate::{Aabb2, Aabb3, Capsule2, Capsule3, Circle, Obb2, Obb3, Segment2, Segment3, Sphere, Triangle3};

/// The distance between two shapes, and a closest point on each.
///
/// Implemented for both orders of every supported pair. See the module docs of
/// `query/distance` and the crate *Semantics*.
///
/// ```
/// use raybox::{Aabb3, Distance, Sphere};
/// use glam::Vec3;
///
/// let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
/// let s = Sphere::new(Vec3::new(4.0, 5.0, 0.5), 1.0); // 3-4-5 from the edge x = y = 1
/// assert!((s.distance(&b) - 4.0).abs() < 1e-6);
/// let (on_b, on_s) = b.closest_points(&s);
/// assert!((on_b - Vec3::new(1.0, 1.0, 0.5)).length() < 1e-6);
/// assert!((b.distance(&s) - (on_s - on_b).length()).abs() < 1e-6);
/// ```
///
/// Triangles, and triangles and segments, where an exact overlap test decides the zero:
///
/// ```
/// use raybox::{Distance, Segment3, Triangle3};
/// use glam::Vec3;
///
/// let floor = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
/// let roof = Triangle3::new(Vec3::new(1.0, 1.0, 2.0), Vec3::new(5.0, 1.0, 2.0), Vec3::new(1.0, 5.0, 2.0));
/// assert!((floor.distance(&roof) - 2.0).abs() < 1e-6);
/// let post = Segment3::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, 1.0, 2.0)); // touching both
/// assert_eq!((floor.distance(&post), post.distance(&roof)), (0.0, 0.0));
/// ```
#[doc(alias = "closest_points")]
pub trait Distance<T: ?Sized> {
    /// `Vec2` for 2D shapes, `Vec3` for 3D shapes.
    type Point;

    /// The Euclidean distance between the shapes; zero when they overlap.
    fn distance(&self, other: &T) -> f32;

    /// A point of `self` and a point of `other` at [`Self::distance`] from each other
    /// (one common point, twice, when the shapes overlap).
    fn closest_points(&self, other: &T) -> (Self::Point, Self::Point);
}

/// A shape as a convex core swept by a ball.
pub(crate) trait ToRounded {
    /// The core and radius.
    fn to_rounded(&self) -> Rounded;
}

macro_rules! to_rounded {
    ($($T:ty => |$s:ident| $core:expr, $radius:expr);* $(;)?) => {
        $(impl ToRounded for $T {
            #[inline]
            fn to_rounded(&self) -> Rounded {
                let $s = self;
                Rounded { core: $core, radius: $radius }
            }
        })*
    };
}

to_rounded! {
    Circle => |s| Core::Point(d2(s.center())), f64::from(s.radius());
    Sphere => |s| Core::Point(d3(s.center())), f64::from(s.radius());
    Segment2 => |s| Core::Segment(d2(s.start()), d2(s.end())), 0.0;
    Segment3 => |s| Core::Segment(d3(s.start()), d3(s.end())), 0.0;
    Capsule2 => |s| Core::Segment(d2(s.start()), d2(s.end())), f64::from(s.radius());
    Capsule3 => |s| Core::Segment(d3(s.start()), d3(s.end())), f64::from(s.radius());
    Aabb2 => |s| aabb_core(d2(s.min()), d2(s.max())), 0.0;
    Aabb3 => |s| aabb_core(d3(s.min()), d3(s.max())), 0.0;
    Obb2 => |s| Core::Box(d2(s.center()), [d2(s.axes()[0]), d2(s.axes()[1]), glam::DVec3::Z],
        [f64::from(s.half_extents().x), f64::from(s.half_extents().y), 0.0]), 0.0;
    Obb3 => |s| Core::Box(d3(s.center()), s.axes().each(d3), s.half_extents().as_dvec3().into()), 0.0;
    Triangle3 => |s| Core::Triangle(s.vertices().each(d3)), 0.0;
}

/// The box core of an axis-aligned box, its centre and half extents computed in `f64` from
/// the corners: `f32`'s `center()` and `half_extents()` round, by up to half an `f32` ulp
/// of the larger coordinate, and for a box spanning `[1, 1e10]` that moves its near face
/// from 1 to 0 (a 2D box has a zero third half extent).
#[inline]
fn aabb_core(min: glam::DVec3, max: glam::DVec3) -> Core {
    let (c, h) = ((min + max) * 0.5, (max - min) * 0.5);
    Core::Box(c, [glam::DVec3::X, glam::DVec3::Y, glam::DVec3::Z], h.into())
}

/// The distance of a pair whose exact overlap test decides the zero: GJK's distance when
/// apart, kept positive.
#[inline]
pub(crate) fn decided_distance(overlaps: bool, a: &impl ToRounded, b: &impl ToRounded) -> f32 {
    if overlaps {
        return 0.0;
    }
    (rounded_closest(&a.to_rounded(), &b.to_rounded()).distance as f32).max(f32::MIN_POSITIVE)
}

/// `Distance` for `$A` against `$B` (and the reverse when the types differ) through GJK;
/// `exact` pairs let their `Overlaps` test decide the zero.
/// Implements `Distance<$A> for $B` by calling `Distance<$B> for $A`, so that the pair is
/// symmetric to the bit (points of type `$V`).
macro_rules! reverse_distance {
    ($V:ty; $($A:ty => $B:ty),* $(,)?) => {
        $(impl crate::Distance<$A> for $B {
            type Point = $V;
            #[inline]
            fn distance(&self, other: &$A) -> f32 {
                crate::Distance::<$B>::distance(other, self)
            }
            #[inline]
            fn closest_points(&self, other: &$A) -> ($V, $V) {
                let (p, q) = crate::Distance::<$B>::closest_points(other, self);
                (q, p)
            }
        })*
    };
}

pub(crate) use reverse_distance;

macro_rules! gjk_distance {
    (@one $A:ty, $B:ty, $V:ty, $f:path, $exact:tt) => {
        impl crate::Distance<$B> for $A {
            type Point = $V;
            #[inline]
            fn distance(&self, other: &$B) -> f32 {
                gjk_distance!(@dist self, other, $B, $exact)
            }
            #[inline]
            fn closest_points(&self, other: &$B) -> ($V, $V) {
                use crate::query::distance::ToRounded;
                let c = crate::query::distance::rounded_closest(&self.to_rounded(), &other.to_rounded());
                ($f(c.on_a), $f(c.on_b))
            }
        }
    };
    (@dist $s:ident, $o:ident, $B:ty, exact) => {
        crate::query::distance::decided_distance(crate::Overlaps::<$B>::overlaps($s, $o), $s, $o)
    };
    (@dist $s:ident, $o:ident, $B:ty, plain) => {{
        use crate::query::distance::ToRounded;
        let d = crate::query::distance::rounded_closest(&$s.to_rounded(), &$o.to_rounded()).distance;
        // Zero exactly when the shapes overlap (a positive gap below `f32`'s range stays positive).
        if d > 0.0 { (d as f32).max(f32::MIN_POSITIVE) } else { 0.0 }
    }};
    ($($A:ty, $B:ty => $V:ty, $f:path, $exact:tt);* $(;)?) => {
        $(gjk_distance!(@one $A, $B, $V, $f, $exact);
          // The reverse order calls the forward one, so that it is symmetric to the bit.
          crate::query::distance::reverse_distance!($V; $A => $B);)*
    };
    // Two shapes of one type: GJK runs with the two in a fixed order (the lesser
    // `FixedOrder::key` first), so that `b.distance(&a)` is `a.distance(&b)` to the bit
    // and the closest points swap (in either order, GJK's rounding differs: two oriented
    // boxes 1.8 apart came out 1.8 one way and 1.8000001 the other).
    (same: $($A:ty => $V:ty, $f:path, $exact:tt);* $(;)?) => {
        $(impl crate::Distance<$A> for $A {
            type Point = $V;
            #[inline]
            fn distance(&self, other: &$A) -> f32 {
                use crate::query::contact::FixedOrder;
                let (a, b) = if other.key() < self.key() { (other, self) } else { (self, other) };
                gjk_distance!(@dist a, b, $A, $exact)
            }
            #[inline]
            fn closest_points(&self, other: &$A) -> ($V, $V) {
                use crate::query::contact::FixedOrder;
                use crate::query::distance::ToRounded;
                let swap = other.key() < self.key();
                let (a, b) = if swap { (other, self) } else { (self, other) };
                let c = crate::query::distance::rounded_closest(&a.to_rounded(), &b.to_rounded());
                let (p, q) = ($f(c.on_a), $f(c.on_b));
                if swap { (q, p) } else { (p, q) }
            }
        })*
    };
}
pub(crate) use gjk_distance;
