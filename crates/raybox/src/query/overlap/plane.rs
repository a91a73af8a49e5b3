//! Shapes against a plane: which side they are on, and whether they touch it.
//!
//! One file for the plane's pairs (plane–sphere, plane–aabb, plane–obb, plane–triangle,
//! plane–segment),
//! since they share one rule: with `s = n·c - offset` the signed (unnormalised)
//! distance of the shape's centre and `r` its projected radius `Σ hₖ |n·axisₖ|` (boxes)
//! or `radius·|n|` (balls), the shape is in front when `s > r`, behind when `s < -r`, and
//! touches or crosses the plane otherwise (Ericson, *Real-Time Collision Detection*,
//! 5.2.2–5.2.3). Everything is evaluated in `f64`; for balls the comparison is done on
//! squares, so `|n|` needs no square root. Points, boxes, triangles and segments, whose
//! corners are `f32` points, are decided exactly instead, by the exact signs of their
//! corners' values (`exact_side`).

use crate::arrays::Each;
use glam::{DVec3, Vec3};

use crate::query::distance::sum_sign;
use crate::query::{PlaneSide, reverse_overlaps};
use crate::{Aabb3, Obb3, Overlaps, Plane, Segment3, Sphere, Triangle3};

/// Where a shape lies relative to a plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// Entirely in front: `normal · x > offset` for every point.
    Front,
    /// Entirely behind: `normal · x < offset` for every point.
    Back,
    /// Touching or crossing the plane: some point has `normal · x == offset`.
    /// This is exactly when the shape [overlaps](Overlaps) the plane.
    Straddling,
}

impl Side {
    /// The side of a shape with signed centre value `s` and projected radius `r`.
    #[inline]
    fn of(s: f64, r: f64) -> Self {
        if s > r {
            Self::Front
        } else if s < -r {
            Self::Back
        } else {
            Self::Straddling
        }
    }
}

impl Plane {
    /// Which side of the plane `shape` is on (a point, a sphere, a box, a triangle).
    ///
    /// ```
    /// use raybox::{Aabb3, Plane, Side};
    /// use glam::Vec3;
    ///
    /// let ground = Plane::new(Vec3::Z, 0.0);
    /// assert_eq!(ground.side(&Vec3::new(0.0, 0.0, 3.0)), Side::Front);
    /// let crate_on_ground = Aabb3::new(Vec3::ZERO, Vec3::ONE);
    /// assert_eq!(ground.side(&crate_on_ground), Side::Straddling); // touching counts
    /// ```
    #[must_use]
    #[inline]
    pub fn side<S: PlaneSide + ?Sized>(&self, shape: &S) -> Side {
        shape.plane_side(self)
    }
}

/// The exact sign of `n·p - offset` for an `f32` point: the three products of `f32` values
/// are exact in `f64`, and `sum_sign` adds them and the offset without rounding where it
/// matters. (`Plane::eval` rounds: for `n = (1, 1, 1)` and `p = (2^60, 2^-100, -2^60)` it
/// gives 0 where the value is `2^-100`.)
#[inline]
fn exact_side(plane: &Plane, p: Vec3) -> f64 {
    let n = plane.normal().as_dvec3();
    let p = p.as_dvec3();
    sum_sign([n.x * p.x, n.y * p.y, n.z * p.z, -f64::from(plane.offset())])
}

/// The side of the points whose exact signs are `signs`: all in front, all behind, or not.
#[inline]
fn side_of_signs(signs: impl IntoIterator<Item = f64>) -> Side {
    let (mut front, mut back) = (true, true);
    for s in signs {
        front &= s > 0.0;
        back &= s < 0.0;
    }
    if front {
        Side::Front
    } else if back {
        Side::Back
    } else {
        Side::Straddling
    }
}

impl PlaneSide for Vec3 {
    /// Exact for every finite point.
    #[inline]
    fn plane_side(&self, plane: &Plane) -> Side {
        side_of_signs([exact_side(plane, *self)])
    }
}

impl PlaneSide for Sphere {
    #[inline]
    fn plane_side(&self, plane: &Plane) -> Side {
        let s = plane.eval(self.center().as_dvec3());
        let r = f64::from(self.radius());
        // |s| > r |n|, compared squared.
        if s * s > r * r * plane.normal().as_dvec3().length_squared() {
            if s > 0.0 { Side::Front } else { Side::Back }
        } else {
            Side::Straddling
        }
    }
}

/// A box seen from a plane `n·x = offset` (`n` as given, not unit), in `f64`: its centre
/// `c`, unit axes `aₖ` and half extents `hₖ`, the centre's value `s = n·c - offset`, and
/// `dn[k] = hₖ (n·aₖ)`, so that the corner `c + Σ σₖ hₖ aₖ` (`σₖ = ±1`) has the value
/// `s + Σ σₖ dn[k]` and the box spans `[s - r, s + r]` with `r = Σ |dn[k]|` (Ericson,
/// *Real-Time Collision Detection*, 5.2.3). The overlap test, the contact and the distance
/// all read these same numbers, so they agree on which boxes touch the plane.
pub(crate) struct PlaneBox {
    pub c: DVec3,
    pub axes: [DVec3; 3],
    pub h: [f64; 3],
    pub s: f64,
    pub dn: [f64; 3],
    /// The plane's normal, as given.
    pub n: DVec3,
}

impl PlaneBox {
    /// An axis-aligned box, from its corners: the centre `(min + max) / 2` and half
    /// extents `(max - min) / 2` in `f64` (`f32`'s `center()` rounds).
    #[inline]
    pub(crate) fn aabb(plane: &Plane, b: &Aabb3) -> Self {
        let (min, max) = (b.min().as_dvec3(), b.max().as_dvec3());
        let (c, h) = ((min + max) * 0.5, (max - min) * 0.5);
        let n = plane.normal().as_dvec3();
        Self {
            c,
            axes: [DVec3::X, DVec3::Y, DVec3::Z],
            h: h.to_array(),
            s: plane.eval(c),
            dn: (h * n).to_array(),
            n,
        }
    }

    /// An oriented box (`n·aₖ` rounded in `f64`).
    #[inline]
    pub(crate) fn obb(plane: &Plane, b: &Obb3) -> Self {
        let n = plane.normal().as_dvec3();
        let axes = b.axes().each(Vec3::as_dvec3);
        let h = b.half_extents().as_dvec3().to_array();
        Self {
            c: b.center().as_dvec3(),
            axes,
            h,
            s: plane.eval(b.center().as_dvec3()),
            dn: crate::arrays::from_fn(|k| h[k] * axes[k].dot(n)),
            n,
        }
    }

    /// The exact signs of `n·aₖ`: zero exactly when the box's faces across axis `k` are
    /// perpendicular to the plane. (Each `n·aₖ` is a sum of three products of `f32`
    /// values, exact in `f64`; `sum_sign` adds them without rounding where it matters.)
    #[inline]
    pub(crate) fn facing(&self) -> [f64; 3] {
        let n = self.n;
        self.axes.each(|a| sum_sign([a.x * n.x, a.y * n.y, a.z * n.z]))
    }

    /// The projected radius `r = Σ |dn[k]|`.
    #[inline]
    pub(crate) fn radius(&self) -> f64 {
        self.dn[0].abs() + self.dn[1].abs() + self.dn[2].abs()
    }

    /// The point `c + Σ σₖ hₖ aₖ` (a corner when every `σₖ = ±1`, the middle of an edge or
    /// a face when some are zero) and its value `s + Σ σₖ dn[k]`.
    #[inline]
    pub(crate) fn point(&self, sigma: [f64; 3]) -> (DVec3, f64) {
        let mut p = self.c;
        let mut value = self.s;
        for (((a, h), dn), sigma) in self.axes.iter().zip(self.h).zip(self.dn).zip(sigma) {
            p += *a * (sigma * h);
            value += sigma * dn;
        }
        (p, value)
    }
}

impl PlaneSide for Aabb3 {
    /// Exact: by the exact signs of the two corners lowest and highest along the normal.
    /// (The centre and radius of `PlaneBox` round, and once put a box spanning `z` in
    /// `[2^-149, 1]` on the plane `z = 0`.)
    #[inline]
    fn plane_side(&self, plane: &Plane) -> Side {
        let up = plane.normal().cmpge(Vec3::ZERO);
        let low = Vec3::select(up, self.min(), self.max());
        let high = Vec3::select(up, self.max(), self.min());
        side_of_signs([exact_side(plane, low), exact_side(plane, high)])
    }
}

impl PlaneSide for Obb3 {
    #[inline]
    fn plane_side(&self, plane: &Plane) -> Side {
        let b = PlaneBox::obb(plane, self);
        Side::of(b.s, b.radius())
    }
}

impl PlaneSide for Triangle3 {
    /// Exact: by the exact signs of the vertices.
    #[inline]
    fn plane_side(&self, plane: &Plane) -> Side {
        side_of_signs(self.vertices().each(|v| exact_side(plane, v)))
    }
}

impl PlaneSide for Segment3 {
    /// Like a triangle: by the signs of its two ends (one, for a zero-length segment).
    ///
    /// ```
    /// use raybox::{Overlaps, Plane, Segment3, Side};
    /// use glam::Vec3;
    ///
    /// let ground = Plane::new(Vec3::Z, 0.0);
    /// let hanging = Segment3::new(Vec3::new(0.0, 0.0, 2.0), Vec3::new(0.0, 0.0, 0.0));
    /// assert_eq!(ground.side(&hanging), Side::Straddling); // its end on the plane
    /// assert!(ground.overlaps(&hanging) && hanging.overlaps(&ground));
    /// assert_eq!(ground.side(&Segment3::new(Vec3::Z, Vec3::ONE)), Side::Front);
    /// ```
    #[inline]
    fn plane_side(&self, plane: &Plane) -> Side {
        side_of_signs([exact_side(plane, self.start()), exact_side(plane, self.end())])
    }
}

macro_rules! plane_overlaps {
    ($($S:ty),*) => {
        $(impl Overlaps<$S> for Plane {
            #[inline]
            fn overlaps(&self, other: &$S) -> bool {
                self.side(other) == Side::Straddling
            }
        })*
    };
}

plane_overlaps!(Sphere, Aabb3, Obb3, Triangle3, Segment3);
reverse_overlaps!(Plane => Sphere, Plane => Aabb3, Plane => Obb3, Plane => Triangle3, Plane => Segment3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn sides_of_each_shape() {
        let p = Plane::new(Vec3::new(0.0, 2.0, 0.0), 2.0); // y = 1
        assert_eq!(p.side(&Sphere::new(Vec3::new(0.0, 3.0, 0.0), 2.0)), Side::Straddling);
        assert_eq!(p.side(&Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.5)), Side::Front);
        assert_eq!(p.side(&Aabb3::new(Vec3::splat(-2.0), Vec3::ZERO)), Side::Back);
        assert_eq!(p.side(&Aabb3::new(Vec3::splat(-2.0), Vec3::ONE)), Side::Straddling);
        let turned = Obb3::new(
            Vec3::new(0.0, 1.0 + 0.70, 0.0),
            Vec3::splat(0.5),
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
        );
        assert_eq!(p.side(&turned), Side::Straddling); // its corner reaches 0.707 down
        let t = Triangle3::new(Vec3::new(0.0, 1.0, 0.0), Vec3::new(1.0, 2.0, 0.0), Vec3::new(0.0, 2.0, 1.0));
        assert_eq!(p.side(&t), Side::Straddling);
        assert!(p.overlaps(&t) && t.overlaps(&p));
        assert_eq!(p.side(&Vec3::new(5.0, -1.0, 2.0)), Side::Back);
    }

    #[test]
    fn segments_crossing_ending_on_lying_in_and_beside_the_plane() {
        let p = Plane::new(Vec3::new(0.0, 2.0, 0.0), 2.0); // y = 1
        let s = |a: Vec3, b: Vec3| Segment3::new(a, b);
        assert_eq!(p.side(&s(Vec3::ZERO, Vec3::new(0.0, 3.0, 0.0))), Side::Straddling);
        assert_eq!(p.side(&s(Vec3::new(4.0, 1.0, 0.0), Vec3::new(0.0, 3.0, 0.0))), Side::Straddling);
        assert_eq!(p.side(&s(Vec3::new(4.0, 1.0, 0.0), Vec3::new(-4.0, 1.0, 9.0))), Side::Straddling);
        assert_eq!(p.side(&s(Vec3::new(4.0, 1.0, 0.0), Vec3::new(4.0, 1.0, 0.0))), Side::Straddling);
        assert_eq!(p.side(&s(Vec3::new(4.0, 1.5, 0.0), Vec3::new(-4.0, 1.1, 9.0))), Side::Front);
        assert_eq!(p.side(&s(Vec3::new(4.0, 0.5, 0.0), Vec3::new(4.0, 0.5, 0.0))), Side::Back);
        let beside = s(Vec3::new(4.0, 0.999, 0.0), Vec3::new(-4.0, -7.0, 9.0));
        assert!(!p.overlaps(&beside) && !beside.overlaps(&p));
        let crossing = s(Vec3::new(4.0, 0.999, 0.0), Vec3::new(-4.0, 7.0, 9.0));
        assert!(p.overlaps(&crossing) && crossing.overlaps(&p));
    }

    /// The exact sides, where `f64` rounding of `n·p - offset` put shapes on the plane. (A
    /// helper's finding, 2026-11-24: a box spanning `z` in `[2^-149, 1]` touched `z = 0`.)
    #[test]
    fn shapes_off_the_plane_by_a_hair_are_off_it() {
        let z = Plane::new(Vec3::Z, 0.0);
        let hair = f32::from_bits(1); // 2^-149
        assert_eq!(z.side(&Aabb3::new(Vec3::new(-1.0, -1.0, hair), Vec3::ONE)), Side::Front);
        assert_eq!(z.side(&Aabb3::new(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, -hair))), Side::Back);
        assert_eq!(z.side(&Aabb3::new(Vec3::new(-1.0, -1.0, 0.0), Vec3::ONE)), Side::Straddling);
        // `f64` rounds 2^60 + 2^-100 - 2^60 to 0; the value is 2^-100.
        let tilted = Plane::new(Vec3::ONE, 0.0);
        let (big, tiny) = (2f32.powi(60), 2f32.powi(-100));
        let p = Vec3::new(big, tiny, -big);
        assert_eq!(tilted.eval(p.as_dvec3()), 0.0);
        assert_eq!(tilted.side(&p), Side::Front);
        assert_eq!(tilted.side(&Segment3::new(p, p + Vec3::Y)), Side::Front);
        assert_eq!(tilted.side(&Triangle3::new(p, p + Vec3::Y, p + Vec3::X * 2f32.powi(40))), Side::Front);
        assert!(!tilted.overlaps(&Triangle3::new(p, p + Vec3::Y, p + Vec3::X * 2f32.powi(40))));
        assert_eq!(tilted.side(&Aabb3::new(p, p + Vec3::ONE)), Side::Front);
        assert_eq!(tilted.side(&Vec3::new(big, -tiny, -big)), Side::Back);
    }
}
