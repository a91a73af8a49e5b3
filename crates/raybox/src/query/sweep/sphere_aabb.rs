//! Moving ball against axis-aligned box, 2D and 3D, and the box moving against the ball:
//! the centre's ray against the box rounded by the radius (Ericson, *Real-Time Collision
//! Detection*, 5.5.7).
//!
//! The rounded box is the union of the box grown by `r` along one axis at a time (2 or 3
//! boxes), the cylinders of radius `r` around its 12 edges (3D only), and the balls of
//! radius `r` at its corners (4 discs in 2D, 8 balls in 3D). Each piece is convex, so the
//! first contact is the earliest entry into any piece: slab tests for the boxes, a disc in
//! the plane across the edge for each cylinder, a ball for each corner.
//!
//! **Precision.** The kernel runs in `f64` on inputs that are exact (box bounds, radius,
//! centre and motion as given) or within `f64` rounding of exact (the box-frame centre and
//! motion of an oriented box). A motion that grazes a face has a tiny closing speed `v·n`,
//! and the time of impact is the gap over it: an input error `δ` in the gap moves `t` by
//! `δ / (v·n)`. Working in `f32` (bounds grown by `r`, the box-frame transform) made `δ` an
//! `f32` ulp, which on a closing speed of 3e-4 is 1e-4 in `t`; in `f64` it is below 1e-12.

use crate::arrays::Each;
use glam::{DVec3, Vec2, Vec3};

use super::{SweepHit2, SweepHit3, Toi, ball_entry, hit2, hit3, reversed_sweep, slab_entry};
use crate::query::distance::{d2, d3};
use crate::{Aabb2, Aabb3, Circle, Contact, Overlaps, Sphere, Sweep};

/// The first time in `[0, 1]` the point `o + t v` is within `r` of the box `[min, max]`,
/// with the outward unit normal of the rounded box there (in the box's coordinates).
///
/// The caller has found the ball and the box apart at `t = 0` (its overlap test), so a zero
/// `v` gives `None`; a start that `f64` finds within `r` all the same (the caller's test
/// ran in `f32`, within a hair of touching) gives `t = 0`.
#[inline]
pub(crate) fn ray_rounded_box<const N: usize>(
    o: [f64; N],
    v: [f64; N],
    (min, max): ([f64; N], [f64; N]),
    r: f64,
) -> Option<(f64, [f64; N])> {
    if v.iter().all(|&c| c == 0.0) {
        return None;
    }
    let unit = |w: [f64; N]| {
        let len = w.iter().map(|c| c * c).sum::<f64>().sqrt();
        (len > 0.0).then(|| w.each(|c| c / len))
    };
    // Already touching (by f64's reckoning): from the box's nearest point to the centre.
    let out: [f64; N] = crate::arrays::from_fn(|k| o[k] - o[k].clamp(min[k], max[k]));
    if out.iter().map(|c| c * c).sum::<f64>() <= r * r {
        return Some((0.0, unit(out).or_else(|| unit(v.each(|c| -c)))?));
    }
    let mut best: Option<(f64, [f64; N])> = None;
    let mut consider = |t: f64, normal: Option<[f64; N]>| {
        if let Some(normal) = normal
            && (0.0..=1.0).contains(&t)
            && best.is_none_or(|(b, _)| t < b)
        {
            best = Some((t, normal));
        }
    };
    let at = |t: f64| -> [f64; N] { crate::arrays::from_fn(|k| o[k] + v[k] * t) };
    // The box grown along one axis: a face of it across the grown axis is a face of the
    // rounded box. Its other faces lie inside other pieces (the box grown along their own
    // axis, the corner discs, the edge cylinders), entered no later; at the same time only
    // on their edges, where they meet a grown face: when the centre is on a grown face's
    // plane at the entry (the two slabs' times tie, or the centre slides in that plane).
    // `slab_entry` then names the other axis, but the rounded box's normal there is the
    // grown axis's (the disc's or cylinder's at its extreme point): a circle of radius 2 at
    // (1, 0) moving by (2, 8) reaches the box [2, 4] x [6, 9] below its corner (2, 6),
    // normal -y, not -x; one of radius 1 at (5, 0) moving by (-5, 0) touches the box
    // [4, 4] x [-4, -1] on top of its corner (4, -1), normal +y.
    for axis in 0..N {
        let (mut lo, mut hi) = (min, max);
        lo[axis] -= r; // exact in f64 for f32 bounds and radius (of any sizes within 2^29)
        hi[axis] += r;
        if let Some((t, Some(i))) = slab_entry(o, v, lo, hi) {
            // The grown axis's plane the centre enters by, or slides in, at `t` (the times
            // as `slab_entry` computes them). (Leaving by the other plane at `t`, it was
            // inside a corner piece before; with a zero radius, at a corner of the box
            // itself, where the entered face's normal is as good as any.)
            let near = if v[axis] > 0.0 {
                Some((lo[axis], -1.0))
            } else if v[axis] < 0.0 {
                Some((hi[axis], 1.0))
            } else {
                None
            };
            let side = match near {
                Some((plane, sign)) => ((plane - o[axis]) / v[axis] == t).then_some(sign),
                None if o[axis] == lo[axis] => Some(-1.0),
                None if o[axis] == hi[axis] => Some(1.0),
                None => None,
            };
            let mut normal = [0.0; N];
            match side {
                Some(sign) if i != axis && r > 0.0 => normal[axis] = sign,
                _ => normal[i] = -v[i].signum(),
            }
            consider(t, Some(normal));
        }
    }
    let corner = |bits: usize| -> [f64; N] {
        crate::arrays::from_fn(|k| if bits >> k & 1 == 1 { max[k] } else { min[k] })
    };
    // The edge cylinders (3D): the edge along axis k through the corner's other two
    // coordinates is a disc in the plane of those two; its side is part of the rounded box
    // where the centre's k coordinate is along the edge (past the ends, the corner balls).
    if N == 3 {
        for k in 0..3 {
            let (i, j) = ((k + 1) % 3, (k + 2) % 3);
            for bits in (0..8usize).filter(|b| b >> k & 1 == 0) {
                let c = corner(bits);
                let Some((t, _)) = ball_entry([o[i] - c[i], o[j] - c[j]], [v[i], v[j]], r) else { continue };
                let x = at(t);
                if (min[k]..=max[k]).contains(&x[k]) {
                    let mut w = [0.0; N];
                    (w[i], w[j]) = (x[i] - c[i], x[j] - c[j]);
                    consider(t, unit(w));
                }
            }
        }
    }
    // The corner balls (discs in 2D).
    for bits in 0..(1usize << N) {
        let c = corner(bits);
        let Some((t, _)) = ball_entry(crate::arrays::from_fn(|k| o[k] - c[k]), v, r) else { continue };
        let x = at(t);
        consider(t, unit(crate::arrays::from_fn(|k| x[k] - c[k])));
    }
    best
}

/// The hit of a ball `(c, r)` moving by `v` against the box, in world coordinates.
#[inline]
fn ball_box_toi(c: DVec3, r: f64, v: DVec3, t: f64, normal: DVec3) -> Toi {
    Toi { t, point: c + v * t - normal * r, normal }
}

impl Sweep<Aabb2> for Circle {
    type Motion = Vec2;
    type Hit = SweepHit2;

    #[inline]
    fn sweep(&self, motion: Vec2, other: &Aabb2) -> Option<SweepHit2> {
        if !motion.is_finite() {
            return None; // a non-finite motion touches nothing
        }
        if self.overlaps(other) {
            let k = self.contact(other)?;
            return Some(SweepHit2 { t: 0.0, point: k.points[0], normal: -k.normal });
        }
        let bounds = (other.min().as_dvec2().to_array(), other.max().as_dvec2().to_array());
        let (o, v) = (self.center().as_dvec2().to_array(), motion.as_dvec2().to_array());
        let (t, n) = ray_rounded_box(o, v, bounds, f64::from(self.radius()))?;
        let normal = DVec3::new(n[0], n[1], 0.0);
        Some(hit2(ball_box_toi(d2(self.center()), f64::from(self.radius()), d2(motion), t, normal)))
    }
}

impl Sweep<Aabb3> for Sphere {
    type Motion = Vec3;
    type Hit = SweepHit3;

    #[inline]
    fn sweep(&self, motion: Vec3, other: &Aabb3) -> Option<SweepHit3> {
        if !motion.is_finite() {
            return None; // a non-finite motion touches nothing
        }
        if self.overlaps(other) {
            let k = self.contact(other)?;
            return Some(SweepHit3 { t: 0.0, point: k.points[0], normal: -k.normal });
        }
        let bounds = (d3(other.min()).to_array(), d3(other.max()).to_array());
        let (t, n) = ray_rounded_box(
            d3(self.center()).to_array(),
            d3(motion).to_array(),
            bounds,
            f64::from(self.radius()),
        )?;
        Some(hit3(ball_box_toi(
            d3(self.center()),
            f64::from(self.radius()),
            d3(motion),
            t,
            DVec3::from_array(n),
        )))
    }
}

reversed_sweep!(2D: Aabb2 => Circle);
reversed_sweep!(3D: Aabb3 => Sphere);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn face_edge_and_corner_hits() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        // Face: from the left, the centre stops at x = -0.5.
        let face = Sphere::new(Vec3::new(-3.0, 0.5, 0.5), 0.5).sweep(Vec3::new(5.0, 0.0, 0.0), &b).unwrap();
        assert_eq!((face.t, face.normal, face.point), (0.5, Vec3::NEG_X, Vec3::new(0.0, 0.5, 0.5)));
        // Corner: along the diagonal toward (0, 0, 0), touching it at distance r.
        let dir = Vec3::ONE / 3f32.sqrt();
        let corner = Sphere::new(-dir * 3.0, 1.0).sweep(dir * 4.0, &b).unwrap();
        assert!((corner.t - 0.5).abs() < 1e-6 && (corner.normal + dir).length() < 1e-6, "{corner:?}");
        assert!(corner.point.length() < 1e-6);
        // Past an edge, through the box grown by r (which would report a hit): 0.57 away.
        let by = Sphere::new(Vec3::new(-0.4, -0.4, -3.0), 0.5).sweep(Vec3::new(0.0, 0.0, 6.0), &b);
        assert!(by.is_none(), "{by:?}");
        // The box moving into the ball: same time, normal reversed.
        let s = Sphere::new(Vec3::new(3.0, 0.5, 0.5), 0.5);
        let h = b.sweep(Vec3::new(3.0, 0.0, 0.0), &s).unwrap();
        assert!(
            (h.t - 0.5).abs() < 1e-6
                && h.normal == Vec3::NEG_X
                && (h.point - Vec3::new(2.5, 0.5, 0.5)).length() < 1e-6,
            "{h:?}"
        );
    }

    #[test]
    fn circle_into_a_corner_disc() {
        let b = Aabb2::new(Vec2::ZERO, Vec2::ONE);
        let hit = Circle::new(Vec2::new(4.0, 5.0), 1.0).sweep(Vec2::new(-6.0, -8.0), &b).unwrap();
        // Along (3, 4) toward the corner (1, 1): touches when the centre is 1 away from it.
        assert!((hit.t - 0.4).abs() < 1e-6 && (hit.normal - Vec2::new(0.6, 0.8)).length() < 1e-6, "{hit:?}");
        assert!((hit.point - Vec2::ONE).length() < 1e-6);
        assert!(Circle::new(Vec2::new(3.0, 3.0), 0.5).sweep(Vec2::ZERO, &b).is_none());
    }
}
