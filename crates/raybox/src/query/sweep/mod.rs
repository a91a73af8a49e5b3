//! Sweeps: a shape moving in a straight line, and the first time it touches a static
//! shape. One file per shape pair, named in the pair order of `query/mod.rs`.
//!
//! **Conventions** (the same for every pair):
//! - The moving shape is `self`, translated by `t * motion` for `t` in `[0, 1]`.
//! - `t` is the first time the two closed shapes touch; `point` is where they touch at
//!   that time; `normal` is the unit normal there, pointing from the static shape toward
//!   the moving one (the static surface's outward normal, as a ray hit's).
//! - Shapes that already overlap at `t = 0` give `t = 0`, the contact point, and the
//!   penetration normal (the reverse of [`crate::Contact`]'s `normal`).
//! - A zero `motion` is a plain overlap test; a motion with a NaN or infinite component
//!   touches nothing (`None`).
//! - `None` when they do not touch for any `t` in `[0, 1]`.
//!
//! **Methods.** Closed forms where they exist: ball against ball is a ray against a ball of
//! the summed radius; ball against box a ray against the box rounded by the radius (the
//! union of three face-expanded boxes and twelve edge capsules, Ericson, *Real-Time
//! Collision Detection*, 5.5.7); box against box (axis-aligned) the slab test on the
//! Minkowski sum; anything against a plane the support distances along the normal.
//! Every other pair uses conservative advancement on the GJK distance (Mirtich 1996; van
//! den Bergen 2004): advance by `distance / closing speed`, which never passes the first
//! contact because the distance between translating convex shapes is convex in `t`,
//! until the distance is below [`SWEEP_TOLERANCE`] of the shapes' scale.

use glam::{DVec3, Vec2, Vec3};

use crate::query::contact::rounded::rounded_contact;
use crate::query::distance::{Rounded, core_closest, rounded_overlaps};

mod aabb_aabb;
mod aabb_capsule;
mod aabb_obb;
mod aabb_segment;
mod aabb_triangle;
mod capsule_capsule;
mod capsule_segment;
mod obb_capsule;
mod obb_obb;
mod obb_segment;
mod obb_triangle;
mod plane;
mod sphere_aabb;
mod sphere_capsule;
mod sphere_obb;
mod sphere_segment;
mod sphere_sphere;
mod sphere_triangle;
mod triangle_capsule;

/// Conservative advancement stops when the shapes are closer than this fraction of their
/// coordinates' scale (plus the motion): the time found is then within about that
/// fraction (over the closing speed) before the exact first contact.
pub(crate) const SWEEP_TOLERANCE: f64 = 1e-9;
/// More steps than conservative advancement takes on non-grazing motions (it converges
/// like Newton's method from one side); a grazing motion that runs out reports the time
/// reached, a conservative bound within a hair of the contact.
pub(crate) const SWEEP_MAX_STEPS: usize = 100;

/// Where and when a moving 2D shape first touches a static one.
///
/// ```
/// use raybox::{Circle, Aabb2, Sweep};
/// use glam::Vec2;
///
/// let wall = Aabb2::new(Vec2::new(4.0, -5.0), Vec2::new(5.0, 5.0));
/// let hit = Circle::new(Vec2::ZERO, 1.0).sweep(Vec2::new(6.0, 0.0), &wall).unwrap();
/// assert_eq!((hit.t, hit.normal), (0.5, Vec2::NEG_X)); // the centre stops at x = 3
/// assert_eq!(hit.point, Vec2::new(4.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SweepHit2 {
    /// The fraction of the motion at the first contact, in `[0, 1]`.
    pub t: f32,
    /// Where the shapes touch at time `t`.
    pub point: Vec2,
    /// Unit normal at the contact, from the static shape toward the moving one.
    pub normal: Vec2,
}

/// Where and when a moving 3D shape first touches a static one.
///
/// ```
/// use raybox::{Aabb3, Sphere, Sweep};
/// use glam::Vec3;
///
/// let floor = Aabb3::new(Vec3::new(-9.0, -1.0, -9.0), Vec3::new(9.0, 0.0, 9.0));
/// let hit = Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.0).sweep(Vec3::new(0.0, -4.0, 0.0), &floor).unwrap();
/// assert_eq!((hit.t, hit.normal, hit.point), (0.5, Vec3::Y, Vec3::ZERO));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SweepHit3 {
    /// The fraction of the motion at the first contact, in `[0, 1]`.
    pub t: f32,
    /// Where the shapes touch at time `t`.
    pub point: Vec3,
    /// Unit normal at the contact, from the static shape toward the moving one.
    pub normal: Vec3,
}

/// A shape moving along a vector against a static shape: the first time of impact.
///
/// Implemented for moving balls, boxes, oriented boxes and capsules against every shape
/// they have contacts with (and, in 3D, planes and triangles). See the module docs of
/// `query/sweep` for the conventions.
///
/// ```
/// use raybox::{Capsule3, Obb3, Sweep};
/// use glam::{Quat, Vec3};
///
/// let character = Capsule3::new(Vec3::ZERO, Vec3::new(0.0, 1.0, 0.0), 0.5);
/// let crate_box = Obb3::new(Vec3::new(3.0, 0.5, 0.0), Vec3::splat(0.5), Quat::IDENTITY);
/// let hit = character.sweep(Vec3::new(4.0, 0.0, 0.0), &crate_box).unwrap();
/// assert!((hit.t - 0.5).abs() < 1e-5); // the body's side reaches x = 2.5 after 2 units
/// assert!((hit.normal - Vec3::NEG_X).length() < 1e-5);
/// assert!(character.sweep(Vec3::new(0.0, 0.0, 4.0), &crate_box).is_none());
/// ```
#[doc(alias = "cast_shape")]
#[doc(alias = "shape_cast")]
#[doc(alias = "time_of_impact")]
pub trait Sweep<T: ?Sized> {
    /// `Vec2` for 2D shapes, `Vec3` for 3D shapes.
    type Motion;
    /// [`SweepHit2`] or [`SweepHit3`].
    type Hit;

    /// The first contact of `self` moved by `t * motion`, `t` in `[0, 1]`, with `other`.
    fn sweep(&self, motion: Self::Motion, other: &T) -> Option<Self::Hit>;
}

/// A sweep result in `f64`: time, point, normal (static to moving).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Toi {
    pub t: f64,
    pub point: DVec3,
    pub normal: DVec3,
}

impl Toi {
    /// The same contact seen with the roles swapped: `other` moving by `-motion` against
    /// `self`, brought back to the frame where `self` moved by `motion`.
    pub(crate) fn reversed(self, motion: DVec3) -> Self {
        Self { t: self.t, point: self.point + motion * self.t, normal: -self.normal }
    }
}

/// The sweep of the rounded core `a` moving by `v` against `b`, by conservative advancement.
pub(crate) fn sweep_rounded(a: &Rounded, v: DVec3, b: &Rounded, planar: bool) -> Option<Toi> {
    if !v.is_finite() {
        return None;
    }
    if rounded_overlaps(a, b) {
        let c = rounded_contact(a, b, planar)?;
        return Some(Toi { t: 0.0, point: c.point, normal: -c.normal });
    }
    if v == DVec3::ZERO {
        return None;
    }
    let tolerance = SWEEP_TOLERANCE * (1.0 + a.scale() + b.scale() + v.length());
    let reach = a.radius + b.radius;
    // Below this core distance, GJK's direction is rounding noise (see `gjk.rs`).
    let reliable = 1e-7 * (1.0 + a.scale() + b.scale());
    let mut t = 0.0;
    let mut last_direction = None;
    for step in 0..=SWEEP_MAX_STEPS {
        let moved = a.translated(v * t);
        // The cores' distance and direction; the rounded shapes are `reach` closer.
        let c = core_closest(&moved.core, &b.core);
        let gap = c.distance - reach;
        // (No direction from coincident points, which rounding can leave a hair apart.)
        let direction = (c.distance > 0.0 && c.on_a != c.on_b).then(|| (c.on_b - c.on_a) / c.distance);
        if gap <= tolerance || step == SWEEP_MAX_STEPS {
            // Touching (or, after many steps of a grazing motion, as close as reached).
            // The normal from the last step with a reliable direction, if this one is not.
            let n = match (direction, last_direction) {
                (Some(n), _) if c.distance > reliable => n,
                (_, Some(n)) => n,
                (Some(n), None) => n,
                (None, None) => {
                    // The cores touch at t = 0 by rounding: the penetration normal.
                    let k = rounded_contact(&moved, b, planar)?;
                    return Some(Toi { t, point: k.point, normal: -k.normal });
                }
            };
            let point = (c.on_a + c.on_b) / 2.0 + n * ((a.radius - b.radius) / 2.0);
            return Some(Toi { t, point, normal: -n });
        }
        let n = direction.expect("apart cores have a direction");
        let closing = v.dot(n);
        if closing <= 0.0 {
            return None; // moving apart (or sideways): the distance only grows from here
        }
        if c.distance > reliable {
            last_direction = Some(n);
        }
        t += gap / closing;
        if t > 1.0 {
            return None;
        }
    }
    None
}

pub(crate) fn hit2(h: Toi) -> SweepHit2 {
    SweepHit2 {
        t: h.t as f32,
        point: Vec2::new(h.point.x as f32, h.point.y as f32),
        normal: glam::DVec2::new(h.normal.x, h.normal.y).normalize_or_zero().as_vec2(),
    }
}

pub(crate) fn hit3(h: Toi) -> SweepHit3 {
    SweepHit3 { t: h.t as f32, point: h.point.as_vec3(), normal: h.normal.normalize_or_zero().as_vec3() }
}

/// `Sweep<$B> for $A` and `Sweep<$A> for $B` by conservative advancement on the rounded cores.
macro_rules! ca_sweep {
    (@one $A:ty, $B:ty, $M:ty, $Hit:ty, $d:path, $hit:path, $planar:expr) => {
        impl crate::Sweep<$B> for $A {
            type Motion = $M;
            type Hit = $Hit;
            fn sweep(&self, motion: $M, other: &$B) -> Option<$Hit> {
                use crate::query::distance::ToRounded;
                let a = self.to_rounded();
                crate::query::sweep::sweep_rounded(&a, $d(motion), &other.to_rounded(), $planar).map($hit)
            }
        }
    };
    (2D: $($A:ty, $B:ty);* $(;)?) => {
        $(ca_sweep!(@one $A, $B, glam::Vec2, crate::SweepHit2, crate::query::distance::d2, crate::query::sweep::hit2, true);
          ca_sweep!(@one $B, $A, glam::Vec2, crate::SweepHit2, crate::query::distance::d2, crate::query::sweep::hit2, true);)*
    };
    (3D: $($A:ty, $B:ty);* $(;)?) => {
        $(ca_sweep!(@one $A, $B, glam::Vec3, crate::SweepHit3, crate::query::distance::d3, crate::query::sweep::hit3, false);
          ca_sweep!(@one $B, $A, glam::Vec3, crate::SweepHit3, crate::query::distance::d3, crate::query::sweep::hit3, false);)*
    };
    (moving 2D: $($A:ty, $B:ty);* $(;)?) => {
        $(ca_sweep!(@one $A, $B, glam::Vec2, crate::SweepHit2, crate::query::distance::d2, crate::query::sweep::hit2, true);)*
    };
    (moving 3D: $($A:ty, $B:ty);* $(;)?) => {
        $(ca_sweep!(@one $A, $B, glam::Vec3, crate::SweepHit3, crate::query::distance::d3, crate::query::sweep::hit3, false);)*
    };
}
pub(crate) use ca_sweep;
