//! Sweeps: a shape moving in a straight line, and the first time it touches a static
//! shape. One file per shape pair, named in the pair order of `query/mod.rs`.
//!
//! **Conventions** (the same for every pair):
//! - The moving shape is `self`, translated by `t * motion` for `t` in `[0, 1]`.
//! - `t` is the first time the two closed shapes touch; `point` is where they touch at
//!   that time; `normal` is the unit normal there, pointing from the static shape toward
//!   the moving one (the static surface's outward normal, as a ray hit's).
//! - Shapes that already overlap at `t = 0` give `t = 0`, the contact point, and the
//!   penetration normal (the reverse of [`crate::Contact`]'s `normal`). Pairs with an exact
//!   overlap test of their own (the triangle pairs, every segment pair, and in 2D the
//!   oriented-box pairs and every capsule pair) let it decide the start, through their
//!   contact, so that `t = 0` exactly when `Overlaps` says so: a contact of shapes apart at
//!   the start but sooner than `f32` can tell (a gap of `1e-10` closed by a motion of
//!   `1e36`) comes at the least positive `f32` time.
//! - A zero `motion` is a plain overlap test; a motion with a NaN or infinite component
//!   touches nothing (`None`).
//! - `None` when they do not touch for any `t` in `[0, 1]`.
//!
//! **Methods.** Closed forms where they exist: ball against ball is a ray against a ball of
//! the summed radius; ball against box a ray against the box rounded by the radius (the
//! union of three face-expanded boxes and twelve edge capsules, Ericson, *Real-Time
//! Collision Detection*, 5.5.7); ball against triangle a ray against the triangle's prism
//! and edge capsules (`sphere_triangle.rs`); capsule against triangle the least of its end
//! balls' ball–triangle times, the triangle's vertices as rays against the capsule, and its
//! body against each edge along their common normal (`triangle_capsule.rs`, which argues
//! that these cases hold every first contact); box against box (axis-aligned) the slab test
//! on the Minkowski sum; anything against a plane the support distances along the normal.
//! A box against a box, a segment or a triangle (no radius), either one moving: the
//! separating-axis test over time, exact up to `f64` rounding (against a triangle or a
//! segment reaching far beyond the box, a `1e15` sliver, and for a box reaching far
//! beyond the other shape, its contact is confirmed by a distance measured locally:
//! `sat_entry`, `locally_confirmed`). A segment (or a capsule of
//! radius zero) against a triangle, and a triangle against a triangle, are the
//! separating-axis test over time on the 8 and 17 axes complete for those pairs, coplanar
//! ones included (`thin_sat_entry`; `triangle_segment.rs`, `triangle_triangle.rs`). A
//! shape moving against one whose own sweep against it is written (a triangle or a plane
//! moving, a box against a ball) is that one moving the other way (`reversed_sweep!`).
//! Every other pair (the other rounded
//! ones: capsules against boxes, capsules and segments, balls against capsules and
//! segments, and segments against segments, a capsule pair with both radii zero) uses
//! conservative advancement on the GJK distance
//! (Mirtich 1996; van den Bergen 2004): advance by the separation along the direction
//! between the closest points over the closing speed along it, which never passes the
//! first contact, until the separation is within `f64` rounding of zero.
//!
//! On a grazing motion the shapes close at a tiny speed `v·n`, and an error `δ` in a
//! distance moves the time of impact by `δ / (v·n)`: every step is therefore in `f64` and
//! converged to its rounding, not to a tolerance (tested down to `v·n` of 1e-7 of the
//! motion in `tests/sweeps.rs`). Known limit: a rounded shape whose radius is far below
//! its coordinates (a capsule of radius 0.002 at coordinates near 1, say) on such a motion
//! can end a few 1e-6 off in `t`; the capsule tests draw radii from 0.01 up.

use crate::arrays::Each;
use glam::{DVec3, Vec2, Vec3};

use crate::query::contact::rounded::{rounded_contact, sat_axes};
use crate::query::distance::{
    Core, Rounded, core_closest, core_closest_precise, rounded_overlaps, sum_rounded, two_product,
};

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
mod segment_segment;
mod sphere_aabb;
mod sphere_capsule;
mod sphere_obb;
mod sphere_segment;
mod sphere_sphere;
mod sphere_triangle;
mod triangle_capsule;
mod triangle_segment;
mod triangle_triangle;

pub(crate) use aabb_triangle::sweep_time as box_triangle_time;
pub(crate) use sphere_triangle::sweep_time as sphere_triangle_time;
pub(crate) use triangle_capsule::sweep_time as capsule_triangle_time;

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
/// Implemented for moving balls, boxes, oriented boxes, capsules and segments against
/// every shape they have contacts with (and, in 3D, planes and triangles), except a plane
/// or a triangle moving. See the module docs of `query/sweep` for the conventions.
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

/// The sweep of the rounded core `a` moving by `v` against `b`: the separating-axis test
/// over time for two polytopes with a complete axis set, conservative advancement otherwise.
#[inline]
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
    // Apart by GJK, not by an exact test: the walk's contact is not confirmed.
    if a.radius == 0.0 && b.radius == 0.0 && sat_complete(&a.core, &b.core) {
        return sat_sweep(&a.core, v, &b.core, planar, Start::Gjk);
    }
    advance(a, v, b, planar)
}

/// [`sweep_rounded`] for shapes that a pair's own test found apart at `t = 0`, moving by a
/// finite, non-zero `v`: the separating-axis test over time or conservative advancement.
/// (Shapes within the rounding of touching may still come out at `t = 0`.)
#[inline]
pub(crate) fn sweep_apart(a: &Rounded, v: DVec3, b: &Rounded, planar: bool) -> Option<Toi> {
    if a.radius == 0.0 && b.radius == 0.0 && sat_complete(&a.core, &b.core) {
        return sat_sweep(&a.core, v, &b.core, planar, Start::Exact);
    }
    advance(a, v, b, planar)
}

/// The `t = 0` contact of two shapes that an exact overlap test found overlapping: the
/// contact kernel's (its normal reversed, so that it points from `b` toward the moving `a`),
/// or, where `f64` GJK reads the pair as a hair apart, the direction between the closest
/// points and the point midway between the surfaces. Unlike [`sweep_rounded`], the start is
/// decided by the pair's `Overlaps` test, so a sweep says `t = 0` exactly when it does.
#[inline]
pub(crate) fn overlapping_toi(a: &Rounded, b: &Rounded) -> Toi {
    if let Some(c) = rounded_contact(a, b, false) {
        return Toi { t: 0.0, point: c.point, normal: -c.normal };
    }
    // Apart by rounding only: the cores are farther than the radii, so not coincident.
    let c = core_closest(&a.core, &b.core);
    let n = (c.on_a - c.on_b) / c.distance;
    let point = (c.on_a - n * a.radius + c.on_b + n * b.radius) / 2.0;
    Toi { t: 0.0, point, normal: n }
}

/// Whether [`sat_axes`] is complete for the pair: a box against a box, a triangle, a
/// segment or a point. (For two flat or thin cores, a segment against a triangle say, the
/// face normals and edge cross products can all miss the separating plane.)
#[inline]
fn sat_complete(a: &Core, b: &Core) -> bool {
    matches!(a, Core::Box(..)) || matches!(b, Core::Box(..))
}

/// The first contact of two polytope cores by the separating-axis test over time (the
/// moving-box test of Ericson, *Real-Time Collision Detection*, 5.5.8, on every candidate
/// axis): along each axis `l` the projections of `a + t v` and `b` overlap for `t` in an
/// interval, the cores overlap exactly when every axis's projections do, so the first
/// contact is the latest interval start, if it comes before the earliest end. Each bound
/// is a difference of projections over `v · l`, in `f64`: unlike a distance iterated to a
/// tolerance, it stays exact on grazing motions (tiny `v · l`). Axes are not normalised:
/// the times do not depend on their length, and a zero axis (parallel edges) bounds nothing.
#[inline]
/// For shapes an exact test found apart (`start`), a box's contact with a triangle or a
/// segment far larger than it is confirmed by a local distance ([`sat_entry`]).
pub(crate) fn sat_sweep(a: &Core, v: DVec3, b: &Core, planar: bool, start: Start) -> Option<Toi> {
    let (enter, normal) = sat_entry(a, v, b, planar, 1.0, start)?;
    let moved = Rounded { core: *a, radius: 0.0 }.translated(v * enter);
    let c = core_closest(&moved.core, b);
    let normal = match normal {
        Some(n) => n.normalize(),
        // Touching at `t = 0` by this test although GJK found them a hair apart: GJK's
        // direction (B to A), or against the motion.
        None if c.distance > 0.0 && c.on_a != c.on_b => (c.on_a - c.on_b) / c.distance,
        None => -v.normalize(),
    };
    Some(Toi { t: enter, point: (c.on_a + c.on_b) / 2.0, normal })
}

/// [`sat_sweep`]'s time and the axis entered last (unnormalised; `None` when touching at
/// `t = 0`), without the contact point (a GJK run): what a walk over many candidates needs
/// before it knows which one comes first. Contacts after `horizon` (at most 1) are `None`,
/// found as soon as an axis puts the entry past it; a contact at or before it is the same
/// `(t, axis)` as with a horizon of 1 (the entry only grows from axis to axis, and an early
/// exit needs it past the horizon; the confirmation below starts from that same time).
///
/// **Confirmed for slivers.** A box against a triangle or a segment whose coordinates
/// reach [`SPREAD`] times beyond the box's own ([`box_needs_confirming`]), for shapes an
/// exact test found apart (`Start::Exact`), has its contact confirmed by a distance
/// measured from the features' nearby ends ([`confirmed_time`]): the walk's axes, crosses
/// of a `1e15` sliver's edges, are rounded enough to move its far vertices' projections by
/// 0.1 and more, and a box 0.6 beside its near vertex, moving a hair, was reported touching
/// it at `t = 1e-45` (`tests/sweeps.rs`,
/// `a_box_beside_a_huge_sliver_moving_a_hair_does_not_touch_it`). A time the distance
/// moves later comes with the direction of the distance measured last for its axis.
///
/// **Confirmed for huge boxes.** A box whose size is [`SPREAD`] times that of the
/// other shape (a box, a triangle or a segment), whatever decided the start, has its
/// contact confirmed by a distance measured from the small shape ([`locally_confirmed`]):
/// a small box 0.6 beyond the near end of a box reaching to `1e15`, moving a hair, was
/// reported touching it at `t = 1e-45`.
#[inline]
pub(crate) fn sat_entry(
    a: &Core,
    v: DVec3,
    b: &Core,
    planar: bool,
    horizon: f64,
    start: Start,
) -> Option<(f64, Option<DVec3>)> {
    let (axes, count) = sat_axes(a, b, planar);
    // Each core's vertices once (`project` would make a box's eight corners per axis).
    let ((va, na), (vb, nb)) = (a.vertices(), b.vertices());
    let (ma, mb) = (vertex_sizes(a, &va), vertex_sizes(b, &vb));
    let (t, axis, _) =
        sat_window((&va[..na], &ma[..na]), v, (&vb[..nb], &mb[..nb]), &axes[..count], horizon)?;
    let spread = box_needs_confirming((a, &ma[..na]), (b, &mb[..nb]));
    // A box far larger than the other shape, whatever decided the start: measured locally,
    // the start proved apart first ([`locally_confirmed`]).
    if spread == Some(Spread::LargeBox)
        && let Some(confirmed) = locally_confirmed(a, v, b, t)
    {
        return confirmed.map(|(settled, toward_a)| match toward_a {
            Some(n) if settled != t => (settled, Some(n)),
            _ => (t, axis),
        });
    }
    if start == Start::Exact && spread == Some(Spread::SmallBox) {
        let (pa, pb) = (Polytope::of_core(a, &va, &ma, na), Polytope::of_core(b, &vb, &mb, nb));
        // Touching at the walk's time, to the local distance's allowance (as the named
        // points of the triangle sweeps touch, [`needs_confirming`]): its time stands, for
        // one distance instead of the steps (which took 0.4 ms on average in the instance
        // audit, most of them ending at the walk's time).
        if gap_floor(&pa, &pb, v * t).floor > 0.0 {
            let (settled, toward_a) = confirmed_time(&pa, v, &pb, t)?;
            if settled != t {
                return Some((settled, Some(toward_a)));
            }
        }
    }
    Some((t, axis))
}

/// How a separating-axis sweep's caller decided that the shapes are apart at `t = 0`:
/// by the pair's exact test (a box against a triangle, a segment or a zero-radius capsule),
/// after which a contact may be confirmed by conservative advancement from `t = 0`
/// ([`confirmed_time`]), or by GJK (two 3D boxes), after which it is not unless the
/// shapes are first proved apart ([`locally_confirmed`], for a box far larger than the
/// other): the candidates of [`gap_floor`] bound the distance of shapes that do not
/// intersect only.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Start {
    Exact,
    Gjk,
}

/// How far a triangle's or a segment's coordinates may reach beyond a box's own size
/// (`|c|∞ + h₀ + h₁ + h₂`) before the box's separating-axis contact with it is confirmed
/// ([`box_needs_confirming`]): `2^16`. Below it, the walk's rounding, `16ε` of each
/// vertex's largest coordinate per unit of axis, is within `2^-31` of the box's size
/// along any axis, under an `f32` ulp of its coordinates; the confirmation, some eighty
/// feature pairs per step, is then left to slivers.
const SPREAD: f64 = (1u64 << 16) as f64;

/// Which confirmation a box's separating-axis contact needs ([`box_needs_confirming`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Spread {
    /// A box against a triangle or a segment reaching [`SPREAD`] times beyond it: the
    /// other's vertices are exact as given ([`Polytope::of_core`]).
    SmallBox,
    /// A box reaching [`SPREAD`] times beyond the other shape (a box, a triangle or a
    /// segment): its corners, `1e15` away, are rounded by far more than the gap, and are
    /// measured from the other shape instead ([`locally_confirmed`]).
    LargeBox,
}

/// Whether a separating-axis contact of a box (either one moving), given each core with
/// its vertices' sizes ([`vertex_sizes`]), needs confirming, and how: against a triangle
/// or a segment whose largest coordinate is more than [`SPREAD`] times the box's size
/// ([`Spread::SmallBox`], [`confirmed_time`]), or when the box's size is more than
/// [`SPREAD`] times the other shape's, a box (the smaller one's), a triangle or a segment
/// ([`Spread::LargeBox`], [`locally_confirmed`]). (A few comparisons: every ordinary box
/// sweep passes.)
#[inline]
fn box_needs_confirming((a, ma): (&Core, &[f64]), (b, mb): (&Core, &[f64])) -> Option<Spread> {
    let largest = |sizes: &[f64]| sizes.iter().fold(0.0f64, |m, &x| m.max(x));
    // The box's size against the other's largest coordinate: more than `SPREAD` times
    // below it, or above it.
    let compare = |boxed: f64, other: f64| {
        if other > SPREAD * boxed {
            Some(Spread::SmallBox)
        } else if boxed > SPREAD * other {
            Some(Spread::LargeBox)
        } else {
            None
        }
    };
    match (a, b) {
        (Core::Box(..), Core::Box(..)) => {
            let (sa, sb) = (ma[0], mb[0]);
            (sa > SPREAD * sb || sb > SPREAD * sa).then_some(Spread::LargeBox)
        }
        (Core::Box(..), Core::Triangle(..) | Core::Segment(..)) => compare(ma[0], largest(mb)),
        (Core::Triangle(..) | Core::Segment(..), Core::Box(..)) => compare(mb[0], largest(ma)),
        _ => None,
    }
}

/// A core's vertices measured from a nearby origin ([`locally_confirmed`]): a box's
/// corners `c + Σ ±hₖaₖ - o` each summed exactly and rounded once (every term, a product
/// of an `f32` half extent and axis component, is exact as a [`two_product`]), so that a
/// corner of a `1e15` box beside `o` is rounded relative to its distance from `o`, not to
/// the box's size; a triangle's or a segment's vertices `x - o`. With, for a box, its axes
/// and half extents (its faces are measured as parallelograms, [`point_quad_gap`]).
struct Local {
    vertices: [DVec3; 8],
    count: usize,
    frame: Option<([DVec3; 3], [f64; 3])>,
    /// How far a vertex may be from the exact one, beyond the rounding relative to its own
    /// distance from `o` that [`LOCAL`] allows for ([`Local::of`]).
    rounding: f64,
}

impl Local {
    /// `core` measured from `o`, with `scale` the reach from `o` of the shape `o` belongs
    /// to. A box's corners are within a few ulps of their distance from `o` (the exact sum,
    /// [`sum_rounded`], rounded once), and a vertex `x - o` within half of one; `16ε` of the
    /// scale covers both for vertices near `o`, and [`LOCAL`] the rest. An axis-aligned box
    /// core (`aabb_core`: its centre and half extents `(max ± min) / 2` in `f64`, each
    /// within `u` of its own size of the exact one) adds that rounding: a corner within
    /// `u (|c|∞ + |h|∞)` of the exact one in each coordinate, within `√3` times that in
    /// length, and `ε (|c|∞ + |h|∞)` bounds both (0.2 for a box reaching `1e15`).
    fn of(core: &Core, o: DVec3, scale: f64) -> Local {
        let (mut vertices, count) = core.vertices();
        let mut rounding = 16.0 * f64::EPSILON * scale;
        let frame = match *core {
            Core::Box(c, axes, h) => {
                for (i, x) in vertices.iter_mut().enumerate() {
                    let signed = |k: usize| if i & (1 << k) != 0 { h[k] } else { -h[k] };
                    let coordinate = |j: usize| {
                        let (p0, e0) = two_product(signed(0), axes[0][j]);
                        let (p1, e1) = two_product(signed(1), axes[1][j]);
                        let (p2, e2) = two_product(signed(2), axes[2][j]);
                        sum_rounded([c[j], -o[j], p0, e0, p1, e1, p2, e2])
                    };
                    *x = DVec3::new(coordinate(0), coordinate(1), coordinate(2));
                }
                if axes == [DVec3::X, DVec3::Y, DVec3::Z] {
                    let h_max = h[0].max(h[1]).max(h[2]);
                    rounding += f64::EPSILON * (c.abs().max_element() + h_max);
                }
                Some((axes, h))
            }
            _ => {
                for x in &mut vertices[..count] {
                    *x -= o;
                }
                None
            }
        };
        Local { vertices, count, frame, rounding }
    }

    /// The shape as [`gap_floor`] reads it.
    fn polytope(&self) -> Polytope<'_> {
        match self.frame {
            Some(frame) => Polytope {
                vertices: &self.vertices,
                edges: &BOX_EDGES,
                faces: &BOX_FACES,
                rounding: self.rounding,
                frame: Some(frame),
            },
            None => Polytope { rounding: self.rounding, ..Polytope::given(&self.vertices[..self.count]) },
        }
    }

    /// The span of the shape's projection on `w`, widened by its rounding: every point of
    /// the exact shape projects inside it. A box is its corner nearest `o` plus its three
    /// edges from there, `±2hₖaₖ`, each projected as `2hₖ (aₖ · w)` with the dot product
    /// summed exactly ([`sum_rounded`]): a `1e15` edge nearly across `w` then moves the span
    /// by its exact share, not by the `0.1` that rounding `aₖ · w` would give it.
    fn span(&self, w: DVec3) -> (f64, f64) {
        let w1 = w.abs().element_sum();
        let size = |x: DVec3| x.abs().max_element();
        let Some((axes, h)) = self.frame else {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for &x in &self.vertices[..self.count] {
                let pad = (self.rounding + 16.0 * f64::EPSILON * size(x)) * w1;
                (lo, hi) = (lo.min(x.dot(w) - pad), hi.max(x.dot(w) + pad));
            }
            return (lo, hi);
        };
        let near = (0..8).fold(0, |m, i| if size(self.vertices[i]) < size(self.vertices[m]) { i } else { m });
        let x0 = self.vertices[near];
        let base = x0.dot(w);
        let (mut down, mut up, mut magnitude_down, mut magnitude_up) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        for k in 0..3 {
            let (p0, e0) = two_product(axes[k].x, w.x);
            let (p1, e1) = two_product(axes[k].y, w.y);
            let (p2, e2) = two_product(axes[k].z, w.z);
            let along = sum_rounded([p0, e0, p1, e1, p2, e2]);
            // From the corner the edge runs up axis `k` (its bit clear) or down it.
            let edge = if near & (1 << k) != 0 { -2.0 * h[k] } else { 2.0 * h[k] } * along;
            if edge < 0.0 {
                (down, magnitude_down) = (down + edge, magnitude_down - edge);
            } else {
                (up, magnitude_up) = (up + edge, magnitude_up + edge);
            }
        }
        let pad = |magnitude: f64| {
            self.rounding * w1 + 16.0 * f64::EPSILON * (size(x0) * w1 + base.abs() + magnitude)
        };
        (base + down - pad(magnitude_down), base + up + pad(magnitude_up))
    }
}

/// Whether some axis separates the spans of `a` and `b` ([`Local::span`], exact shapes
/// inside): `w` (the least distance's direction, from `b` toward `a`), then the
/// separating-axis test's: each box's face normals, and the crosses of an edge direction
/// of each (a box's axes; a segment's or a triangle's edges, and a triangle's normal).
/// The shapes' own axes matter: the least distance's direction, computed from points
/// along a `1e15` edge, is off by `1e-13` rad, which moves the far end's projection by
/// 100, while a cross with the edge's exact axis is square to it to `1e-16`.
fn proved_apart(a: &Local, b: &Local, w: DVec3) -> bool {
    let separates = |l: DVec3| {
        if l == DVec3::ZERO {
            return false;
        }
        let ((a_lo, a_hi), (b_lo, b_hi)) = (a.span(l), b.span(l));
        a_lo > b_hi || b_lo > a_hi
    };
    if separates(w) {
        return true;
    }
    // Each shape's edge directions, and its face normals.
    let directions = |s: &Local| -> ([DVec3; 3], usize, [DVec3; 3], usize) {
        if let Some((axes, _)) = s.frame {
            let faces = [axes[1].cross(axes[2]), axes[2].cross(axes[0]), axes[0].cross(axes[1])];
            return (axes, 3, faces, 3);
        }
        let x = &s.vertices;
        match s.count {
            2 => ([x[1] - x[0], DVec3::ZERO, DVec3::ZERO], 1, [DVec3::ZERO; 3], 0),
            3 => {
                let edges = [x[1] - x[0], x[2] - x[1], x[0] - x[2]];
                (edges, 3, [edges[0].cross(edges[1]), DVec3::ZERO, DVec3::ZERO], 1)
            }
            _ => ([DVec3::ZERO; 3], 0, [DVec3::ZERO; 3], 0),
        }
    };
    let ((ea, na, fa, ma), (eb, nb, fb, mb)) = (directions(a), directions(b));
    fa[..ma].iter().chain(&fb[..mb]).any(|&l| separates(l))
        || ea[..na].iter().any(|&e| eb[..nb].iter().any(|&f| separates(e.cross(f))))
}

/// The contact of `a` moving by `t v` with `b`, one of them a box [`SPREAD`] times larger
/// than the other ([`Spread::LargeBox`]), confirmed from the separating-axis walk's `t_walk`
/// by a distance measured locally: `None` when it cannot be (the walk's answer then
/// stands), else the confirmed answer, `None` for apart throughout, or the time and, for
/// a time moved later, the direction from `b` toward `a` ([`confirmed_time`]).
///
/// **Why.** A box's corners are computed as `c ± h₀a₀ ± h₁a₁ ± h₂a₂`, rounded by an ulp of
/// its size: 0.1 for a box reaching `1e15`, and the walk pads every corner's projection by
/// several times that, so a small box 0.6 beyond the near end of an `Obb3` half
/// `(5.6e14, 1e-3, 1e-3)`, moving a hair, was reported touching it at `t = 1e-45`
/// (`tests/sweeps.rs`, `a_box_beside_a_huge_box_moving_a_hair_does_not_touch_it`). Here both
/// shapes are measured from the small one's centre or first vertex `o` ([`Local`]): a
/// corner near `o` is then exact to the rounding of its distance from `o`.
///
/// **The start.** Two boxes are found apart at `t = 0` by GJK, and a small shape beside a
/// huge box is rounded by GJK's distance to it, neither exact; [`gap_floor`]'s candidates
/// bound the distance of shapes that do not intersect only. So the shapes must first be
/// proved apart: some axis must separate the two shapes' projections ([`proved_apart`],
/// [`Local::span`]). Shapes that overlap have no such axis, and shapes a hair apart,
/// closer than the spans' rounding, are left to the walk.
#[cold]
#[inline(never)]
fn locally_confirmed(a: &Core, v: DVec3, b: &Core, t_walk: f64) -> Option<Option<(f64, Option<DVec3>)>> {
    // The origin: the small shape's centre, or its first vertex (the shape that is not a
    // box, or of two boxes the smaller, by its centre's size plus its half extents).
    let size = |c: &Core| match *c {
        Core::Box(c, _, h) => c.abs().max_element() + h[0] + h[1] + h[2],
        _ => 0.0,
    };
    let small = match (a, b) {
        (Core::Box(..), Core::Box(..)) => {
            if size(a) <= size(b) {
                a
            } else {
                b
            }
        }
        (Core::Box(..), _) => b,
        _ => a,
    };
    let o = match *small {
        Core::Box(c, ..) => c,
        _ => small.vertices().0[0],
    };
    let near = Local::of(small, o, 0.0);
    let scale = near.vertices[..near.count].iter().fold(0.0f64, |m, x| m.max(x.abs().max_element()));
    let (la, lb) = (Local::of(a, o, scale), Local::of(b, o, scale));
    let (pa, pb) = (la.polytope(), lb.polytope());
    let start = gap_floor(&pa, &pb, DVec3::ZERO);
    if start.floor <= 0.0 || !proved_apart(&la, &lb, start.toward_a) {
        return None;
    }
    // Touching at the walk's time, to the local distance's allowance: it stands.
    if gap_floor(&pa, &pb, v * t_walk).floor <= 0.0 {
        return None;
    }
    Some(confirmed_time(&pa, v, &pb, t_walk).map(|(t, toward_a)| (t, Some(toward_a))))
}

/// For each vertex of a core, a bound on the magnitude its rounding is relative to: its
/// largest coordinate for given points (a point, a segment's ends, a triangle's corners),
/// and for a box's corners, computed as `c ± h₀a₀ ± h₁a₁ ± h₂a₂`, the box's
/// `|c|∞ + h₀ + h₁ + h₂` (a corner near the origin of a box far from it is rounded like
/// the centre).
#[inline]
fn vertex_sizes(core: &Core, vertices: &[DVec3; 8]) -> [f64; 8] {
    match *core {
        Core::Box(c, _, h) => [c.abs().max_element() + h[0] + h[1] + h[2]; 8],
        _ => vertices.each(|x| x.abs().max_element()),
    }
}

/// The first contact time of two flat or thin polytopes (a triangle, or a segment, against
/// a triangle) given by their vertices, `a` moving by `t v`, by the separating-axis test
/// over time on `axes`, which must be complete for the pair (every disjoint placement
/// separated along one of them), and the axis entered last (unnormalised, pointing from `b`
/// toward `a`; `None` when they touch within rounding of the start). For shapes that the
/// exact test found apart at `t = 0`, with a finite, non-zero `v`.
///
/// Along each axis the projections of `a + t v` and `b` overlap for `t` in an interval, and
/// the first contact is the latest interval start, if it comes before the earliest end
/// (Ericson, *Real-Time Collision Detection*, 5.5.8). Axes are not normalised: a time does
/// not depend on the axis's length, and a zero axis (parallel edges) bounds nothing. Each
/// projection is off by a few ulps of its vertex's largest coordinate times `|l|₁`, which
/// pads the comparisons of that end (a touch within rounding is a touch, not a miss); an axis along which
/// the whole motion moves the shapes by no more than that rounding (a face normal of two
/// triangles sliding in their common plane, whose `v · n` is rounding) bounds no time, only
/// whether they can meet. A rounded axis is still an axis: its test is a necessary
/// condition of the exact overlap, so rounding can only make a contact come early by about
/// the rounding over the closing speed, never lose it. A touch within rounding of the start
/// comes at the least positive `f32` time, since `t = 0` is left to the exact test. (The
/// set stays complete only for separations above the axes' own rounding times the shapes'
/// extent: its callers confirm a contact whose points do not touch with a distance
/// measured locally, [`confirmed_time`].)
///
/// The third value is `true` when the axis entered last separates the shapes at `t = 0`
/// beyond rounding: they are then apart at the start whatever the exact test would say, so
/// a caller need not run it. (`None` also proves them apart at the start: some axis keeps
/// them apart beyond rounding at every time of the window, `t = 0` included.) The time and
/// the axis do not depend on whether the shapes start apart, so for shapes the exact test
/// finds apart they are this function's answer either way.
#[inline]
pub(crate) fn thin_sat_entry<const A: usize, const B: usize>(
    a: &[DVec3; A],
    v: DVec3,
    b: &[DVec3; B],
    axes: &[DVec3],
) -> Option<(f64, Option<DVec3>, bool)> {
    let size = |x: &DVec3| x.abs().max_element();
    sat_window((a, &a.each(|x| size(&x))), v, (b, &b.each(|x| size(&x))), axes, 1.0)
}

/// The separating-axis test over time shared by [`sat_entry`] and [`thin_sat_entry`], on
/// the shapes' vertices (each with the magnitude its rounding is relative to) and a
/// complete axis set; contacts after `horizon` (at most 1) are found apart as soon as an
/// axis puts the entry past it. Also whether the axis entered last separates the shapes at
/// `t = 0` beyond rounding ([`thin_sat_entry`]).
///
/// **Rounding.** A projection `x · l` is within `3u |x|∞ |l|₁` of its exact value (more for
/// a box corner, within `3u` of its box's size: [`vertex_sizes`]), so an interval's end
/// lies between the least and greatest of the vertices' projections moved by their own
/// pads, `16ε m |l|₁` (about ten times the rounding). Each bound pads by the widths of the
/// two ends it compares, not by the rounding of the largest coordinate of either shape:
/// beside the near end of a sliver reaching to `1e15`, the far vertices' rounding (0.1)
/// had made a point 0.02 away along every axis touch it at `t = 1e-45`.
///
/// Always inlined, so that each caller's vertex counts are constants and its loops unroll:
/// called from more than one place (a program that sweeps segments and triangles both),
/// the shared copy took the triangle sweep from 130 to 260 ns.
#[inline(always)]
fn sat_window(
    (a, size_a): (&[DVec3], &[f64]),
    v: DVec3,
    (b, size_b): (&[DVec3], &[f64]),
    axes: &[DVec3],
    horizon: f64,
) -> Option<(f64, Option<DVec3>, bool)> {
    let speed = v.abs().max_element();
    // Each end of a shape's projection, and the width of the window its exact value is in.
    let span = |vs: &[DVec3], sizes: &[f64], l: DVec3, unit: f64| {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut lo_down, mut lo_up, mut hi_down, mut hi_up) = (lo, lo, hi, hi);
        // An index loop, not `zip`: in a build split into codegen units `Zip::new` is a
        // call of its own (`arrays.rs`), and the loop then does not unroll.
        #[allow(clippy::needless_range_loop)]
        for i in 0..vs.len().min(sizes.len()) {
            let (x, m) = (vs[i], sizes[i]);
            let (p, pad) = (x.dot(l), m * unit);
            (lo, hi) = (lo.min(p), hi.max(p));
            (lo_down, lo_up) = (lo_down.min(p - pad), lo_up.min(p + pad));
            (hi_down, hi_up) = (hi_down.max(p - pad), hi_up.max(p + pad));
        }
        (lo, hi, lo_up - lo_down, hi_up - hi_down)
    };
    let (mut enter, mut exit, mut normal) = (0.0f64, horizon, None);
    let (mut enter_slack, mut exit_slack) = (0.0f64, 0.0f64);
    for &l in axes {
        let l1 = l.x.abs() + l.y.abs() + l.z.abs();
        if l1 == 0.0 {
            continue;
        }
        let unit = 16.0 * f64::EPSILON * l1;
        let (a_lo, a_hi, a_lo_w, a_hi_w) = span(a, size_a, l, unit);
        let (b_lo, b_hi, b_lo_w, b_hi_w) = span(b, size_b, l, unit);
        // The rounding of the gaps `b_lo - a_hi` (a below b) and `a_lo - b_hi` (a above),
        // and of the motion's projection.
        let (pad_below, pad_above) = (a_hi_w + b_lo_w, a_lo_w + b_hi_w);
        let s_noise = 64.0 * f64::EPSILON * speed * l1;
        let s = v.dot(l);
        if s.abs() <= pad_below.max(pad_above) + s_noise {
            // The motion moves the shapes along `l` by no more than rounding: this axis
            // bounds no time, only whether they can meet at all.
            let (lo, hi) = (a_lo + s.min(0.0), a_hi + s.max(0.0));
            if hi + pad_below < b_lo || b_hi + pad_above < lo {
                return None;
            }
            continue;
        }
        // `a` moves up `l` (s > 0): it meets `b` from below, the contact normal (static to
        // moving) is `-l`; moving down, from above.
        let ((t_in, pad_in), (t_out, pad_out), n) = if s > 0.0 {
            (((b_lo - a_hi) / s, pad_below), ((b_hi - a_lo) / s, pad_above), -l)
        } else {
            (((b_hi - a_lo) / s, pad_above), ((b_lo - a_hi) / s, pad_below), l)
        };
        // A bound `t = gap / s` is off by the gap's rounding over `s` plus `t` times the
        // relative rounding of `s`: the motion's rounding moves the shape by `t s_noise` at
        // time `t`, not by all of `s_noise` (which, for a motion `1e20` times the gap, put
        // every bound within rounding of `t = 0`, and shapes moving apart met at `1e-45`).
        let slack = |t: f64, pad: f64| (pad + t.abs() * s_noise) / s.abs();
        if t_in > enter {
            (enter, enter_slack, normal) = (t_in, slack(t_in, pad_in), Some(n));
        }
        if t_out < exit {
            (exit, exit_slack) = (t_out, slack(t_out, pad_out));
        }
        // Apart unless some time in [0, 1] has every entry and exit within its rounding.
        if (enter - enter_slack).max(0.0) > exit + exit_slack {
            return None;
        }
    }
    // A touch within the roundings reports a time inside the window; one within rounding of
    // the start, the least positive `f32` time.
    let tiny = f64::from(f32::from_bits(1));
    Some((enter.min(exit + exit_slack).clamp(tiny, 1.0), normal, enter - enter_slack > 0.0))
}

/// The unit contact normal of a separating-axis sweep (static toward moving): the axis
/// entered last, or for a touch within rounding of the start, the direction between the
/// closest points `on_a` (moving) and `on_b`, or against the motion when they coincide.
#[inline]
pub(crate) fn contact_normal(axis: Option<DVec3>, on_a: DVec3, on_b: DVec3, v: DVec3) -> DVec3 {
    match axis {
        Some(n) => n.normalize(),
        None if on_a != on_b => (on_a - on_b).normalize(),
        None => -v.normalize(),
    }
}

/// Whether the contact a separating-axis walk ([`thin_sat_entry`]) reports at some time,
/// with `on_a` and `on_b` the closest points it names there, needs [`confirmed_time`]: when
/// they are farther apart than [`LOCAL`] of their own coordinates. Touching points (the
/// walk's time exact to its rounding, every ordinary contact) pass with six comparisons.
#[inline]
pub(crate) fn needs_confirming(on_a: DVec3, on_b: DVec3) -> bool {
    touching((on_a, on_b), on_a.abs().max_element().max(on_b.abs().max_element())).is_none()
}

pub(crate) use crate::query::largest_coordinate;

/// `pair` when its two points are within [`LOCAL`] of `size` (a largest coordinate) of each
/// other: touching, to the rounding of a separating-axis walk's contact time.
#[inline]
pub(crate) fn touching(pair: (DVec3, DVec3), size: f64) -> Option<(DVec3, DVec3)> {
    let near = LOCAL * size;
    (pair.0.distance_squared(pair.1) <= near * near).then_some(pair)
}

/// The time of the first contact of the polytope `a` (a segment, a triangle or a box) moving
/// by `t v` with the polytope `b` (a triangle, or for a box `a` a segment; a segment or a
/// triangle `a` against a box `b`), for shapes that the exact test found apart at `t = 0`,
/// given the time `t_walk` that the separating-axis walk found but cannot vouch for (its
/// named points do not touch, [`needs_confirming`], or for a box the pair spans far more
/// than the box, [`box_needs_confirming`]): `t_walk` unless a locally accurate distance proves
/// the contact later, then that later time by conservative advancement on the distance,
/// or `None` when it proves them apart for the whole motion. With the time, the direction
/// from `b` toward `a` of the last gap measured well above its rounding (a normal for a
/// time moved later), or, if none was, of the first (against the motion when the first
/// step touches, the walk's time then standing).
///
/// **Why.** The walk's axes are crosses of the shapes' edges, rounded to a few ulps of
/// their length: an in-plane edge normal of a sliver reaching to `1e15` turns by about
/// `1e-16` rad, which moves its far vertices' projections by 0.1 or more, so beside the
/// near vertex no axis kept apart a point 0.7 away (nor one 82,000 away, nearly in the
/// sliver's plane), and the walk reported a touch at `t = 1e-45` (`tests/sweeps.rs`,
/// `a_point_beside_a_huge_sliver_moving_a_hair_does_not_touch_it`). No `f64` axis can do
/// better there: the projection of a vertex `1e15` away is itself rounded by 0.1. The
/// distance [`gap_floor`] measures every candidate pair of features from their ends nearest
/// each other, so its rounding is that of the nearby coordinates.
///
/// **Never a lost contact.** The distance `D(t)` between translating convex shapes is
/// convex in `t`, with slope `-v · n` (`n` the unit direction from `a`'s closest point to
/// `b`'s), so `D(t') >= D(t) - (t' - t) v · n`: Newton's step on `D = 0` from below (the
/// conservative advancement of Mirtich 1996) never passes the first contact, taken with a
/// lower bound on `D` ([`gap_floor`]) and an upper bound on `v · n`. The computed
/// direction `w` is within the allowance `δ` of a point of the shapes' Minkowski
/// difference, every point of which lies at least `D` along `n`, and `|w| - δ <= D`, so
/// `1 - cos ∠(w, n) <= 2δ / |w|` and the angle is below `π √(δ / |w|)`: the bound adds
/// `4 √(δ / |w|) |v|` to `v · w / |w|`, and never exceeds `|v|`. It starts at `t = 0`, where the exact test proved the
/// shapes apart, so every step lands where they are apart or touching, where the
/// candidates of [`gap_floor`] hold a closest pair. It ends touching when the lower bound
/// reaches zero, apart when a step passes `t = 1` or the bound on the closing speed is
/// not positive (the distance can only grow from there), and when the steps run out (a
/// grazing motion), at the time reached: early rather than lost, as [`advance`] does.
///
/// **Nothing else changes.** The walk's time stands unless the steps pass it, which they
/// can only do where it is earlier than the first contact by more than the local
/// rounding; and this runs only when the walk's named points do not touch (none of the
/// triangle pairs of the sweep benchmark, nor of the audits, except such slivers), or for
/// a box, when the other shape's coordinates reach [`SPREAD`] times beyond the box's.
///
/// **Known limit.** The bound on the closing speed grows with `√(δ / |w|)`, so on a motion
/// that grazes such a sliver, passing it at a distance far below its coordinates'
/// rounding, the steps can run out before the distance is seen to grow again: a point
/// passing 0.01 from a `1e15` sliver, almost along it, is reported touching it at the time
/// the steps reached (later than the walk's own answer, which was far earlier).
pub(crate) fn confirmed_time(a: &Polytope, v: DVec3, b: &Polytope, t_walk: f64) -> Option<(f64, DVec3)> {
    let length = v.length();
    let (mut t, mut toward_a) = (0.0, -v);
    for _ in 0..SWEEP_MAX_STEPS {
        let gap = gap_floor(a, b, v * t);
        if gap.floor <= 0.0 {
            return Some((t.max(t_walk), toward_a));
        }
        let distance = gap.toward_a.length();
        // The direction of the last gap well above its allowance (within `π √(δ / |w|)`,
        // 3e-4 rad, of the true one by the argument above), or of the first.
        if distance > 1e8 * gap.allowance || t == 0.0 {
            toward_a = gap.toward_a;
        }
        let slant = 4.0 * (gap.allowance / distance).sqrt();
        let closing = (-v.dot(gap.toward_a) / distance + length * slant).min(length) * (1.0 + LOCAL);
        if closing <= 0.0 {
            return None; // not closing: the distance only grows from here
        }
        t += gap.floor / closing;
        if t > 1.0 {
            return None;
        }
    }
    Some((t.max(t_walk), toward_a))
}

/// The relative rounding allowed for a distance measured from nearby ends ([`gap_floor`]):
/// about 4,000 ulps of the differences it is measured in, as the closest-pair and
/// named-feature tests of the triangle sweeps allow (`2⁻⁴⁰`).
const LOCAL: f64 = 1.0 / (1u64 << 40) as f64;

/// A lower bound on the distance between two shapes, with the vector it was measured
/// along: [`gap_floor`].
#[derive(Clone, Copy)]
struct Gap {
    /// The distance less its allowance: at most the exact distance.
    floor: f64,
    /// The computed vector between the nearest candidate's points, from `b` toward `a`.
    toward_a: DVec3,
    /// The rounding allowed for that candidate.
    allowance: f64,
}

impl Gap {
    #[inline]
    fn new(toward_a: DVec3, allowance: f64) -> Gap {
        Gap { floor: toward_a.length() - allowance, toward_a, allowance }
    }

    #[inline]
    fn least(self, other: Gap) -> Gap {
        if other.floor < self.floor { other } else { self }
    }
}

/// A convex polytope as [`gap_floor`] reads it: its vertices, its edges and its faces (as
/// triangles), by vertex index, and how far its computed vertices may be from the exact
/// shape's.
#[derive(Clone, Copy)]
pub(crate) struct Polytope<'a> {
    vertices: &'a [DVec3],
    edges: &'static [[usize; 2]],
    faces: &'static [[usize; 3]],
    /// Zero for given points (a segment's ends, a triangle's corners, exact `f64` copies of
    /// `f32` inputs); for a box, the rounding of its corners ([`Polytope::of_core`]).
    rounding: f64,
    /// For a box measured locally ([`Local`]), its axes and half extents: its faces are
    /// then measured as parallelograms ([`point_quad_gap`]), not as `faces`.
    frame: Option<([DVec3; 3], [f64; 3])>,
}

impl<'a> Polytope<'a> {
    /// A point, a segment (two ends) or a triangle (three corners), exact as given.
    pub(crate) fn given(vertices: &'a [DVec3]) -> Polytope<'a> {
        let (edges, faces): (&[[usize; 2]], &[[usize; 3]]) = match vertices.len() {
            2 => (&[[0, 1]], &[]),
            3 => (&[[0, 1], [1, 2], [2, 0]], &[[0, 1, 2]]),
            _ => (&[], &[]),
        };
        Polytope { vertices, edges, faces, rounding: 0.0, frame: None }
    }

    /// A core given its vertices (`Core::vertices`, the first `count`) and their sizes
    /// ([`vertex_sizes`]). A box's corners are `c ± h₀a₀ ± h₁a₁ ± h₂a₂` in `f64`: each
    /// coordinate within `4u` of the box's `|c|∞ + h₀ + h₁ + h₂` (its vertex size) of the
    /// exact corner, and each triangle or segment of its corners within that distance, `√3`
    /// times it, of the exact one; the rounding allowed is `16ε` of the size, above that.
    /// Its 12 edges join corners one bit apart (corner `i` takes `+hₖ` when bit `k` of `i`
    /// is set), and each of its 6 faces, the four corners sharing a bit's value, is two
    /// triangles. (A 2D box, of zero third half extent, has each corner twice: its faces
    /// across the plane are the rectangle, the others flat, with no face of their own.)
    pub(crate) fn of_core(
        core: &Core,
        vertices: &'a [DVec3; 8],
        sizes: &[f64; 8],
        count: usize,
    ) -> Polytope<'a> {
        match core {
            Core::Box(..) => Polytope {
                vertices,
                edges: &BOX_EDGES,
                faces: &BOX_FACES,
                rounding: 16.0 * f64::EPSILON * sizes[0],
                frame: None,
            },
            _ => Polytope::given(&vertices[..count]),
        }
    }
}

/// A box's 12 edges, as pairs of corner indices one bit apart ([`Polytope::of_core`]):
/// four along each axis in turn.
const BOX_EDGES: [[usize; 2]; 12] =
    [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]];

/// A box's 6 faces as 12 triangles ([`Polytope::of_core`]): for each axis `k`, with `p`
/// and `q` the other two bits, the face of the corners whose bit `k` is `s` (clear, then
/// set) has the corners `s`, `s|p`, `s|p|q`, `s|q` in cyclic order, split along the
/// diagonal from `s`.
const BOX_FACES: [[usize; 3]; 12] = {
    let mut faces = [[0; 3]; 12];
    let mut k = 0;
    while k < 3 {
        let (bit, p, q) = (1 << k, 1 << ((k + 1) % 3), 1 << ((k + 2) % 3));
        let mut side = 0;
        while side < 2 {
            let s = side * bit;
            faces[4 * k + 2 * side] = [s, s | p, s | p | q];
            faces[4 * k + 2 * side + 1] = [s, s | p | q, s | q];
            side += 1;
        }
        k += 1;
    }
    faces
};

/// A lower bound on the distance between the polytope `a` shifted by `shift` and the
/// polytope `b`, for shapes that do not intersect: the least, less its rounding, of the
/// candidates that hold a closest pair of such shapes (each vertex of one against each
/// face of the other, and each edge of one against each edge of the other; Ericson,
/// *Real-Time Collision Detection*, 5.1.9 and 5.2.7). A vertex against a shape with no
/// faces (a segment) needs no candidate of its own: it ends edges of its own shape (a box's
/// corner, a segment's end), which the edge pairs hold. Every candidate is a distance
/// between parts of the two shapes, so none is below the distance.
///
/// Every candidate is computed from differences taken at the features' ends nearest each
/// other (`shift` added to each difference, never to a coordinate), so its rounding is
/// relative to those differences and the shift, not to the coordinates: a vertex `1e15` away rounds only
/// the direction of its edge, by `1e-16`, which moves the nearby distances by `1e-16` of
/// their own size. Each candidate's allowance is [`LOCAL`] times the size of the terms it
/// sums (for a face, also times `|e₁| |e₂| / |n|`, `1 / sin θ`, the rounding of a thin
/// triangle's normal), far above their rounding, so no candidate comes out above its exact
/// value plus its allowance; the least exact candidate is the distance. A box's corners
/// add their own rounding ([`Polytope::of_core`]).
fn gap_floor(a: &Polytope, b: &Polytope, shift: DVec3) -> Gap {
    let mut best = Gap { floor: f64::INFINITY, toward_a: DVec3::ZERO, allowance: 0.0 };
    // `a`'s vertices against `b`'s faces, and `b`'s vertices against `a`'s (the vector then
    // from `a` toward `b`, reversed).
    for &x in a.vertices.iter().filter(|_| !b.faces.is_empty()) {
        best = best.least(point_faces_gap(|y| (x - y) + shift, b));
    }
    for &y in b.vertices.iter().filter(|_| !a.faces.is_empty()) {
        let g = point_faces_gap(|x| (y - x) - shift, a);
        best = best.least(Gap { toward_a: -g.toward_a, ..g });
    }
    for &[i, j] in a.edges {
        for &[k, l] in b.edges {
            let (ea, eb) = ((a.vertices[i], a.vertices[j]), (b.vertices[k], b.vertices[l]));
            best = best.least(segment_segment_gap(ea, eb, shift));
        }
    }
    // Each difference `(x - y) + shift` is rounded relative to its two terms, which may
    // nearly cancel (a shape moved up to another from afar): `|x - y| <= |w| + |shift|`.
    let moved = 2.0 * LOCAL * shift.length() + a.rounding + b.rounding;
    Gap { floor: best.floor - moved, allowance: best.allowance + moved, ..best }
}

/// The least [`point_triangle_gap`] of a point, given as its differences `from(y)`, over
/// the faces of `p`.
fn point_faces_gap(from: impl Fn(DVec3) -> DVec3, p: &Polytope) -> Gap {
    let mut best = Gap { floor: f64::INFINITY, toward_a: DVec3::ZERO, allowance: 0.0 };
    if let Some((axes, _)) = p.frame {
        for (k, quad) in BOX_QUADS.iter().enumerate() {
            let (i, j) = ((k / 2 + 1) % 3, (k / 2 + 2) % 3);
            let corners = quad.each(|c| p.vertices[c]);
            best = best.least(point_quad_gap(&from, &corners, (axes[i], axes[j])));
        }
        return best;
    }
    for f in p.faces {
        best = best.least(point_triangle_gap(&from, &f.each(|i| p.vertices[i])));
    }
    best
}

/// A box's 6 faces as parallelograms ([`point_quad_gap`]): for each axis `k` in turn, the
/// corners whose bit `k` is clear, then set, as `s`, `s|p`, `s|p|q`, `s|q` with `p` and `q`
/// the bits of the axes `k + 1` and `k + 2` (mod 3), the quadrilaterals [`BOX_FACES`] splits.
const BOX_QUADS: [[usize; 4]; 6] = {
    let mut quads = [[0; 4]; 6];
    let mut k = 0;
    while k < 6 {
        let (bit, p, q) = (1 << (k / 2), 1 << ((k / 2 + 1) % 3), 1 << ((k / 2 + 2) % 3));
        let s = (k % 2) * bit;
        quads[k] = [s, s | p, s | p | q, s | q];
        k += 1;
    }
    quads
};

/// The distance from a point, given as its differences `from(y)` from points `y`, to a
/// box's face, the parallelogram of `corners` (in cyclic order, as [`BOX_QUADS`]) with
/// sides along `aₚ` (from the first corner to the second) and `a_q` (from the first to
/// the last), when the point's foot is inside it: the distance along the face's normal
/// `aₚ × a_q`, from the corner nearest the point (`None` otherwise: the closest pair is
/// then an edge's, which the edge pairs of [`gap_floor`] hold). The sides and the normal
/// come from the box's axes, not from its corners: split into triangles, a face of a
/// `1e15` sliver `2e-3` wide has one as thin as `2e-18` rad, whose normal's rounding
/// ([`point_triangle_gap`]'s `1 / sin θ`) dwarfs any gap, and the short sides at its far
/// end, differences of corners `1e15` away, are rounding.
fn point_quad_gap(from: &impl Fn(DVec3) -> DVec3, corners: &[DVec3; 4], (ap, aq): (DVec3, DVec3)) -> Gap {
    let none = Gap { floor: f64::INFINITY, toward_a: DVec3::ZERO, allowance: 0.0 };
    let n = ap.cross(aq);
    let n_len = n.length();
    if n_len == 0.0 {
        return none;
    }
    let d = corners.each(from);
    let size = |x: DVec3| x.abs().max_element();
    // The sides in cyclic order: up `aₚ`, up `a_q`, down `aₚ`, down `a_q` (a side of zero
    // length still bounds the face by its line).
    let sides = [ap, aq, -ap, -aq];
    let inside = (0..4).all(|i| {
        let end = if size(d[i]) <= size(d[(i + 1) % 4]) { d[i] } else { d[(i + 1) % 4] };
        sides[i].cross(end).dot(n) >= 0.0
    });
    if !inside {
        return none;
    }
    let k = (0..4).fold(0, |m, k| if size(d[k]) < size(d[m]) { k } else { m });
    let (w, unit) = (d[k], n / n_len);
    let thin = ap.length() * aq.length() / n_len;
    Gap::new(unit * w.dot(unit), LOCAL * w.length() * (thin + 1.0))
}

/// The distance from a point to the triangle `t` as a [`Gap`] (the vector from `t` toward
/// the point), given the point as its differences `from(y)` from points `y` (so the point
/// itself is never rounded): the face's plane distance when the foot is inside (each
/// edge's side measured from its end nearer the point), and the three edges' distances.
fn point_triangle_gap(from: &impl Fn(DVec3) -> DVec3, t: &[DVec3; 3]) -> Gap {
    let d = [from(t[0]), from(t[1]), from(t[2])];
    let size = |x: DVec3| x.abs().max_element();
    // From the edge's end nearer the point: (its difference, the edge from there).
    let edge =
        |i: usize, j: usize| if size(d[i]) <= size(d[j]) { (d[i], t[j] - t[i]) } else { (d[j], t[i] - t[j]) };
    let mut best = Gap { floor: f64::INFINITY, toward_a: DVec3::ZERO, allowance: 0.0 };
    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        let (w, e) = edge(i, j);
        let s = if e == DVec3::ZERO { 0.0 } else { (w.dot(e) / e.length_squared()).clamp(0.0, 1.0) };
        best = best.least(Gap::new(w - e * s, LOCAL * (w.length() + (e * s).length())));
    }
    // The face, measured from the vertex nearest the point.
    let k = (0..3).fold(0, |m, k| if size(d[k]) < size(d[m]) { k } else { m });
    let (e1, e2) = (t[(k + 1) % 3] - t[k], t[(k + 2) % 3] - t[k]);
    let n = e1.cross(e2);
    let n_len = n.length();
    // Inside the prism: the point on the inner side of each directed edge `u -> v`,
    // `((v - u) × (x - end)) · n >= 0` with `end` the edge's end nearer the point.
    let inside =
        [(0, 1), (1, 2), (2, 0)].iter().all(|&(i, j)| (t[j] - t[i]).cross(edge(i, j).0).dot(n) >= 0.0);
    if inside && n_len > 0.0 {
        let (w, unit) = (d[k], n / n_len);
        let thin = e1.length() * e2.length() / n_len;
        best = best.least(Gap::new(unit * w.dot(unit), LOCAL * w.length() * (thin + 1.0)));
    }
    best
}

/// The distance between the segment `[p1, q1]` shifted by `shift` and the segment
/// `[p2, q2]` as a [`Gap`] (the vector from the second toward the first), each measured
/// from its end nearer the other.
#[inline]
fn segment_segment_gap((p1, q1): (DVec3, DVec3), (p2, q2): (DVec3, DVec3), shift: DVec3) -> Gap {
    let size = |x: DVec3| x.abs().max_element();
    let ends = [(p1, q1, p2, q2), (p1, q1, q2, p2), (q1, p1, p2, q2), (q1, p1, q2, p2)];
    let (s1, o1, s2, o2) = ends
        .into_iter()
        .fold(ends[0], |m, e| if size((e.0 - e.2) + shift) < size((m.0 - m.2) + shift) { e } else { m });
    // In the frame of `s2`: the first segment from `r`, along `d1`; the second from zero.
    let (r, d1, d2) = ((s1 - s2) + shift, o1 - s1, o2 - s2);
    let (x, y) =
        crate::query::closest::closest_points_segment_segment_by_cross((r, r + d1), (DVec3::ZERO, d2));
    Gap::new(x - y, LOCAL * 2.0 * (r.length() + x.length() + y.length()))
}

/// Conservative advancement (Mirtich 1996; van den Bergen 2004): from the closest points
/// of the cores at time `t`, their distance `D(t)` and the direction `n` between them;
/// advance by the gap `D(t) - reach` over the closing speed `v · n`. That is Newton's step
/// on `D(t) = reach` (`D'(t) = -v · n`), and since the distance between translating convex
/// shapes is convex in `t`, it never passes the first contact. GJK runs to `f64` rounding
/// here: on a grazing motion (tiny `v · n`) an error `δ` in `D` moves the time by
/// `δ / (v · n)`, so the walk ends within rounding over `v · n` of the contact rather
/// than within a tolerance over it. (The distance is accurate even where the direction is
/// not, when the cores nearly touch: a separation measured along `n` would stall there.)
#[inline]
fn advance(a: &Rounded, v: DVec3, b: &Rounded, planar: bool) -> Option<Toi> {
    // Both tolerances are relative to the inputs' magnitude, with no absolute part, so
    // that a sweep at `2^-60` of the size gives the same `t` as at the size itself.
    let size = a.scale() + b.scale();
    // The rounding of a distance or a separation computed from the coordinates at time `t`
    // (the moving shape's reach `|v| t` further out: counting all of `|v|` at `t = 0` made a
    // capsule one unit above a box, moving away from it by `1e15`, touch it at once).
    let noise_at = |t: f64| 16.0 * f64::EPSILON * (size + v.length() * t);
    let reach = a.radius + b.radius;
    // Below this core distance, GJK's direction is rounding noise (see `gjk.rs`): its
    // closest points are within about `noise` of exact, so above `1e5 * noise` the
    // direction is within about 1e-5 rad. (It was `1e-7 * size`, which far from the origin
    // is a visible gap: a point 0.2 from a segment at coordinates near 1e6 had no reliable
    // direction, and touched it with the noise of coincident points for a normal, as often
    // pointing along the motion as against it.)
    let mut t = 0.0;
    let mut last_direction = None;
    for step in 0..=SWEEP_MAX_STEPS {
        let (noise, moved) = (noise_at(t), a.translated(v * t));
        let reliable = 1e5 * noise;
        // The cores' distance and direction; the rounded shapes are `reach` closer.
        let c = core_closest_precise(&moved.core, &b.core);
        // (No direction from coincident points, which rounding can leave a hair apart.)
        let direction = (c.distance > 0.0 && c.on_a != c.on_b).then(|| (c.on_b - c.on_a) / c.distance);
        let gap = c.distance - reach;
        // Cores within a few ulps of their coordinates touch: GJK's distance between cores
        // that meet is rounding, not a gap (two segments crossing as a step lands on their
        // contact read `1e-14` apart at unit size), and the direction between such points
        // is noise whose closing speed can have either sign.
        let cores_touch = c.distance <= 4.0 * noise;
        if direction.is_none() || gap <= noise || cores_touch || step == SWEEP_MAX_STEPS {
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
        let next = t + gap / closing;
        if next > 1.0 {
            // Past the end of the motion: apart throughout, unless the step overshot, by
            // rounding, a contact at the very end (shapes that touch exactly as the motion
            // ends, an exact grid case): a step landing within `END_SLACK` past it is
            // checked at `t = 1`, once.
            if t == 1.0 || next - 1.0 > END_SLACK {
                return None;
            }
            t = 1.0;
        } else {
            t = next;
        }
    }
    None
}

/// How far past `t = 1` a step of conservative advancement may land and still be checked
/// at `t = 1` (one more distance): far above the rounding of a step near a contact, far
/// below the gap at `t = 1` of shapes that miss by a visible margin.
const END_SLACK: f64 = 1e-6;

/// The entry of the ray `o + t v`, `t` in `[0, 1]`, into the box `[lo, hi]` (the slab test,
/// Kay and Kajiya 1986; Ericson, *Real-Time Collision Detection*, 5.3.3), in `f64`: the entry
/// time and the axis whose slab was entered last (`None` when the ray starts in the box).
///
/// The sweeps that reduce to a slab test feed it differences of `f32` inputs (the Minkowski
/// sum's bounds minus the moving origin), which are exact in `f64`: on a grazing motion the
/// entry time `(lo - o) / v` divides a small gap by a small closing speed, so rounding the gap
/// to `f32` first (as `ray::slab_span` would) moves `t` by `ulp / v`, far more than `t`'s own ulp.
#[inline]
pub(crate) fn slab_entry<const N: usize>(
    o: [f64; N],
    v: [f64; N],
    lo: [f64; N],
    hi: [f64; N],
) -> Option<(f64, Option<usize>)> {
    let (mut enter, mut exit, mut axis) = (0.0, 1.0, None);
    for i in 0..N {
        if v[i] == 0.0 {
            // Parallel to this slab (either sign of zero): in it for every t, or for none.
            if o[i] < lo[i] || o[i] > hi[i] {
                return None;
            }
            continue;
        }
        let (t0, t1) = ((lo[i] - o[i]) / v[i], (hi[i] - o[i]) / v[i]);
        let (near, far) = if v[i] > 0.0 { (t0, t1) } else { (t1, t0) };
        if near > enter {
            (enter, axis) = (near, Some(i));
        }
        exit = f64::min(exit, far);
    }
    (enter <= exit).then_some((enter, axis))
}

/// The roots `t₁ <= t₂` of `|f + t v|² = r²` (a point starting at offset `f` from a ball's
/// centre, moving by `v`), or `None` if the line misses the ball or `v` is zero.
///
/// The stable form of Haines, Günther and Akenine-Möller, "Precision Improvements for
/// Ray/Sphere Intersection" (*Ray Tracing Gems*, 2019, ch. 7): the discriminant from the
/// centre's perpendicular offset `l = f - (f·v / v·v) v` (no cancellation of `b² - ac`),
/// and the near root as `c / q` (no cancellation of `-b + √…`). Inputs are `f64` (offsets in
/// a box's frame, or differences of `f32` coordinates, exact in `f64`).
#[inline]
pub(crate) fn ball_entry<const N: usize>(f: [f64; N], v: [f64; N], r: f64) -> Option<(f64, f64)> {
    let dot = |a: [f64; N], b: [f64; N]| (0..N).map(|i| a[i] * b[i]).sum::<f64>();
    let a = dot(v, v);
    if a == 0.0 {
        return None; // not moving across this ball's axes: it has no entry time
    }
    let b = dot(f, v); // half the textbook b
    let k = b / a;
    let l: [f64; N] = crate::arrays::from_fn(|i| f[i] - k * v[i]);
    let disc = r * r - dot(l, l);
    if disc < 0.0 {
        return None;
    }
    let q = -(b + b.signum() * (a * disc).sqrt());
    if q == 0.0 {
        return Some((-k, -k)); // b = 0 on a tangent line: the double root at the foot
    }
    let (x, y) = ((dot(f, f) - r * r) / q, q / a);
    Some(if x <= y { (x, y) } else { (y, x) })
}

#[inline]
pub(crate) fn hit2(h: Toi) -> SweepHit2 {
    SweepHit2 {
        t: h.t as f32,
        point: Vec2::new(h.point.x as f32, h.point.y as f32),
        normal: glam::DVec2::new(h.normal.x, h.normal.y).normalize_or_zero().as_vec2(),
    }
}

#[inline]
pub(crate) fn hit3(h: Toi) -> SweepHit3 {
    SweepHit3 { t: h.t as f32, point: h.point.as_vec3(), normal: h.normal.normalize_or_zero().as_vec3() }
}

/// The `f32` time of a contact found by a walk that runs only when the pair's exact test
/// found the shapes apart at `t = 0`: at least the least positive `f32`, so that `t = 0`
/// stays the exact test's answer alone. (A time below half of that rounds to zero, or to
/// `-0.0` from a root computed as `-0.0`: a capsule `3e-11` from a triangle, moving by
/// `5e34`, came out at `t = -0.0`.)
#[inline]
pub(crate) fn apart_time(t: f64) -> f32 {
    (t as f32).max(f32::from_bits(1))
}

/// [`hit2`] for a contact of shapes found apart at `t = 0` ([`apart_time`]).
#[inline]
pub(crate) fn hit2_apart(h: Toi) -> SweepHit2 {
    SweepHit2 { t: apart_time(h.t), ..hit2(h) }
}

/// [`hit3`] for a contact of shapes found apart at `t = 0` ([`apart_time`]).
#[inline]
pub(crate) fn hit3_apart(h: Toi) -> SweepHit3 {
    SweepHit3 { t: apart_time(h.t), ..hit3(h) }
}

/// The start every sweep decided by its pair's contact shares: `Some(answer)` when the
/// sweep ends before any walk (a non-finite motion touches nothing; shapes in contact at
/// `t = 0` give that contact, its normal turned toward the moving shape; a zero motion
/// touches nothing more), `None` when the walk must run.
#[inline]
pub(crate) fn contact_start(
    motion: Vec3,
    contact: impl FnOnce() -> Option<crate::Contact3>,
) -> Option<Option<SweepHit3>> {
    if !motion.is_finite() {
        return Some(None);
    }
    if let Some(k) = contact() {
        return Some(Some(SweepHit3 { t: 0.0, point: k.points[0], normal: -k.normal }));
    }
    (motion == Vec3::ZERO).then_some(None)
}

/// `Sweep<$B> for $A` and `Sweep<$A> for $B` by conservative advancement on the rounded cores.
macro_rules! ca_sweep {
    (@one $A:ty, $B:ty, $M:ty, $Hit:ty, $d:path, $hit:path, $planar:expr) => {
        impl crate::Sweep<$B> for $A {
            type Motion = $M;
            type Hit = $Hit;
            #[inline]
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

/// `Sweep<$B> for $A` and `Sweep<$A> for $B` (`same` types: one impl) for a pair whose
/// [`crate::Contact`] is `Some` exactly when its own [`crate::Overlaps`] test says so (the
/// segment pairs): that contact decides the start (`t = 0`, its first point, its normal
/// reversed), so that a sweep gives `t = 0` exactly when `Overlaps` says the shapes
/// overlap and a zero motion is that test; shapes apart go to [`sweep_apart`].
macro_rules! decided_sweep {
    (@one $A:ty, $B:ty, $M:ty, $Hit:ident, $d:path, $hit:path, $planar:expr) => {
        impl crate::Sweep<$B> for $A {
            type Motion = $M;
            type Hit = crate::$Hit;
            #[inline]
            fn sweep(&self, motion: $M, other: &$B) -> Option<crate::$Hit> {
                use crate::query::distance::ToRounded;
                if !motion.is_finite() {
                    return None; // a non-finite motion touches nothing
                }
                if let Some(k) = crate::Contact::<$B>::contact(self, other) {
                    return Some(crate::$Hit { t: 0.0, point: k.points[0], normal: -k.normal });
                }
                if motion == <$M>::ZERO {
                    return None;
                }
                let (a, b) = (self.to_rounded(), other.to_rounded());
                crate::query::sweep::sweep_apart(&a, $d(motion), &b, $planar).map($hit)
            }
        }
    };
    (@2D $A:ty, $B:ty) => {
        decided_sweep!(@one $A, $B, glam::Vec2, SweepHit2, crate::query::distance::d2, crate::query::sweep::hit2_apart, true);
    };
    (@3D $A:ty, $B:ty) => {
        decided_sweep!(@one $A, $B, glam::Vec3, SweepHit3, crate::query::distance::d3, crate::query::sweep::hit3_apart, false);
    };
    (2D: $($A:ty, $B:ty);* $(;)?) => {
        $(decided_sweep!(@2D $A, $B); decided_sweep!(@2D $B, $A);)*
    };
    (3D: $($A:ty, $B:ty);* $(;)?) => {
        $(decided_sweep!(@3D $A, $B); decided_sweep!(@3D $B, $A);)*
    };
    (same: $A2:ty, $A3:ty) => {
        decided_sweep!(@2D $A2, $A2);
        decided_sweep!(@3D $A3, $A3);
    };
}
pub(crate) use decided_sweep;

/// `Sweep<$B> for $A` from `Sweep<$A> for $B`: `a` moving by `v` against a still `b` is `b`
/// moving by `-v` against a still `a`, seen from the other side: the same time, the normal
/// reversed (negated, so that at `t = 0` it is the pair's contact normal to the bit), the
/// point moved by `v t` into the frame where `a` moved.
macro_rules! reversed_sweep {
    (@one $A:ty => $B:ty, $M:ty, $Hit:ident) => {
        impl crate::Sweep<$B> for $A {
            type Motion = $M;
            type Hit = crate::$Hit;

            #[inline]
            fn sweep(&self, motion: $M, other: &$B) -> Option<crate::$Hit> {
                let h = crate::Sweep::<$A>::sweep(other, -motion, self)?;
                Some(crate::$Hit { t: h.t, point: h.point + motion * h.t, normal: -h.normal })
            }
        }
    };
    (2D: $($A:ty => $B:ty),* $(,)?) => {
        $(reversed_sweep!(@one $A => $B, glam::Vec2, SweepHit2);)*
    };
    (3D: $($A:ty => $B:ty),* $(,)?) => {
        $(reversed_sweep!(@one $A => $B, glam::Vec3, SweepHit3);)*
    };
}
pub(crate) use reversed_sweep;

#[cfg(test)]
mod tests {
    use super::{Polytope, gap_floor, vertex_sizes};
    use crate::arrays::Each;
    use crate::query::distance::{Core, Rounded, core_closest_precise};
    use glam::{DQuat, DVec3};

    /// Seeded numbers for the cases below (a linear congruential generator, Knuth's MMIX
    /// constants).
    struct Lcg(u64);

    impl Lcg {
        fn unit(&mut self) -> f64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * self.unit()
        }
        fn point(&mut self, r: f64) -> DVec3 {
            DVec3::new(self.range(-r, r), self.range(-r, r), self.range(-r, r))
        }
    }

    /// The box tables of `Polytope::of_core`, on the box `[-1, 1]³`: twelve distinct edges,
    /// each of length 2 along one axis, four along each; twelve triangles, two on each of
    /// the six faces (all three corners sharing one coordinate's value), covering it (their
    /// areas sum to the face's, 4, and they use its four corners).
    #[test]
    fn box_edges_and_faces_are_the_boxs() {
        let core = Core::Box(DVec3::ZERO, [DVec3::X, DVec3::Y, DVec3::Z], [1.0; 3]);
        let (v, _) = core.vertices();
        let mut along = [0; 3];
        for (n, &[i, j]) in super::BOX_EDGES.iter().enumerate() {
            let d = (v[j] - v[i]).abs();
            let k = (0..3).find(|&k| d[k] == 2.0).expect("an edge along an axis");
            assert_eq!(d.element_sum(), 2.0, "edge {n}");
            along[k] += 1;
            assert!(super::BOX_EDGES[..n].iter().all(|e| *e != [i, j] && *e != [j, i]), "edge {n}");
        }
        assert_eq!(along, [4; 3]);
        let (mut area, mut corners) = ([[0.0; 2]; 3], [[0u32; 2]; 3]);
        for (n, f) in super::BOX_FACES.iter().enumerate() {
            let [x, y, z] = f.each(|i| v[i]);
            let k = (0..3).find(|&k| x[k] == y[k] && y[k] == z[k]).expect("a triangle on a face");
            let side = usize::from(x[k] > 0.0);
            area[k][side] += (y - x).cross(z - x).length() / 2.0;
            corners[k][side] |= f.iter().fold(0, |m, &i| m | 1 << i);
            assert!(x != y && y != z && z != x, "face triangle {n}");
        }
        assert_eq!(area, [[4.0; 2]; 3]);
        // Each face's two triangles use its four corners.
        assert!(corners.as_flattened().iter().all(|m| m.count_ones() == 4), "{corners:?}");
    }

    /// `gap_floor` of a turned box and a triangle, or a segment, apart (the box moving by
    /// `shift`, and the other moving by `-shift` against it) against GJK's distance run to
    /// rounding, on seeded cases: never above it (a missing candidate, a face say, would
    /// be), nor below it by more than its allowances (a candidate off the shapes would be).
    #[test]
    fn box_gap_floor_is_the_distance() {
        let mut rng = Lcg(7);
        let mut checked = 0;
        for n in 0..4000 {
            let turn = DQuat::from_axis_angle(rng.point(1.0).normalize(), rng.range(0.0, 3.0));
            let axes = [turn * DVec3::X, turn * DVec3::Y, turn * DVec3::Z];
            let h = [rng.range(0.05, 2.0), rng.range(0.05, 2.0), rng.range(0.05, 2.0)];
            let boxed = Core::Box(rng.point(1.0), axes, h);
            let tri = [rng.point(4.0), rng.point(4.0), rng.point(4.0)];
            let shift = rng.point(1.0);
            let moved = Rounded { core: boxed, radius: 0.0 }.translated(shift).core;
            let (v, count) = boxed.vertices();
            let sizes = vertex_sizes(&boxed, &v);
            let cube = Polytope::of_core(&boxed, &v, &sizes, count);
            for other in [&tri[..], &tri[..2]] {
                let core = match *other {
                    [p, q] => Core::Segment(p, q),
                    [p, q, r] => Core::Triangle([p, q, r]),
                    _ => unreachable!(),
                };
                let exact = core_closest_precise(&moved, &core).distance;
                if exact < 1e-3 {
                    continue; // (the candidates hold a closest pair of shapes apart only)
                }
                checked += 1;
                let shape = Polytope::given(other);
                for (floor, order) in [
                    (gap_floor(&cube, &shape, shift).floor, "box moving"),
                    (gap_floor(&shape, &cube, -shift).floor, "other moving"),
                ] {
                    assert!(
                        floor <= exact + 1e-12 && floor >= exact - 1e-6,
                        "case {n}, {order}: {floor} for {exact}"
                    );
                }
            }
        }
        assert!(checked > 4000, "{checked}");
    }
}
