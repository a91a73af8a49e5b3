//! Moving ball against axis-aligned box, 2D and 3D, and the box moving against the ball:
//! the centre's ray against the box rounded by the radius (Ericson, *Real-Time Collision
//! Detection*, 5.5.7).
//!
//! The rounded box is the union of the box grown by `r` along one axis at a time (2 or 3
//! boxes) and the capsules of radius `r` around its edges (the 4 corner discs in 2D, the 12
//! edges in 3D). Each piece is convex, so the first contact is the earliest entry into
//! any piece: slab tests for the boxes, `ray/ray_capsule.rs` for the capsules.

use glam::{DVec3, Vec2, Vec3};

use super::{SweepHit2, SweepHit3, Toi, hit2, hit3};
use crate::query::distance::{d2, d3};
use crate::query::ray::{capsule_roots, slab_span};
use crate::{Aabb2, Aabb3, Circle, Contact, Overlaps, Sphere, Sweep};

/// The first time in `[0, 1]` the ray `o + t v` enters the box `[min, max]` rounded by `r`,
/// with the outward normal there (in the box's coordinates); the ray starts outside.
pub(crate) fn ray_rounded_box<const N: usize>(
    o: [f32; N],
    v: [f32; N],
    (min, max): ([f32; N], [f32; N]),
    r: f32,
) -> Option<(f64, [f64; N])> {
    let mut best: Option<(f64, [f64; N])> = None;
    let mut consider = |t: f64, normal: [f64; N]| {
        if (0.0..=1.0).contains(&t) && best.is_none_or(|(b, _)| t < b) {
            best = Some((t, normal));
        }
    };
    // The box grown along one axis: its entry face is a face of the rounded box.
    for axis in 0..N {
        let (mut lo, mut hi) = (min, max);
        lo[axis] -= r;
        hi[axis] += r;
        if let Some(s) = slab_span(o, v, lo, hi, (0.0, 1.0))
            && let Some(i) = s.enter_axis
        {
            let mut normal = [0.0; N];
            normal[i] = -f64::from(v[i]).signum();
            consider(f64::from(s.t_enter), normal);
        }
    }
    // The rounded edges: in 3D a capsule along each edge (between corners that differ on
    // one axis), in 2D a disc at each corner (a capsule of zero length).
    let corner = |bits: usize| -> [f32; N] {
        core::array::from_fn(|k| if bits >> k & 1 == 1 { max[k] } else { min[k] })
    };
    let mut rounded_edge = |p: [f32; N], q: [f32; N]| {
        let Some((t, _)) = capsule_roots(o, v, p, q, r) else { return };
        // The normal: from the nearest point of the edge to the centre at time t.
        let x = glam_free::at(o, v, t);
        let w = glam_free::from_segment(x, p, q);
        let len = w.iter().map(|c| c * c).sum::<f64>().sqrt();
        if len > 0.0 {
            consider(t, w.map(|c| c / len));
        }
    };
    for bits in 0..(1usize << N) {
        if N == 2 {
            rounded_edge(corner(bits), corner(bits));
            continue;
        }
        for axis in (0..N).filter(|&axis| bits >> axis & 1 == 0) {
            rounded_edge(corner(bits), corner(bits | 1 << axis)); // each edge once, from its lower end
        }
    }
    best
}

/// Small array helpers for the kernel above (it works on `[f32; N]`, like the slab test).
mod glam_free {
    /// `o + t v` in `f64`.
    pub(super) fn at<const N: usize>(o: [f32; N], v: [f32; N], t: f64) -> [f64; N] {
        core::array::from_fn(|k| f64::from(o[k]) + f64::from(v[k]) * t)
    }

    /// `x` minus its nearest point on the segment `[p, q]`.
    pub(super) fn from_segment<const N: usize>(x: [f64; N], p: [f32; N], q: [f32; N]) -> [f64; N] {
        let (p, q) = (p.map(f64::from), q.map(f64::from));
        let d: [f64; N] = core::array::from_fn(|k| q[k] - p[k]);
        let dd: f64 = d.iter().map(|c| c * c).sum();
        let s = if dd == 0.0 {
            0.0
        } else {
            ((0..N).map(|k| (x[k] - p[k]) * d[k]).sum::<f64>() / dd).clamp(0.0, 1.0)
        };
        core::array::from_fn(|k| x[k] - (p[k] + d[k] * s))
    }
}

/// The hit of a ball `(c, r)` moving by `v` against the box, in world coordinates.
fn ball_box_toi(c: DVec3, r: f64, v: DVec3, t: f64, normal: DVec3) -> Toi {
    Toi { t, point: c + v * t - normal * r, normal }
}

impl Sweep<Aabb2> for Circle {
    type Motion = Vec2;
    type Hit = SweepHit2;

    fn sweep(&self, motion: Vec2, other: &Aabb2) -> Option<SweepHit2> {
        if !motion.is_finite() {
            return None; // a non-finite motion touches nothing
        }
        if self.overlaps(other) {
            let k = self.contact(other)?;
            return Some(SweepHit2 { t: 0.0, point: k.points[0], normal: -k.normal });
        }
        let bounds = (other.min().to_array(), other.max().to_array());
        let (t, n) = ray_rounded_box(self.center().to_array(), motion.to_array(), bounds, self.radius())?;
        let normal = DVec3::new(n[0], n[1], 0.0);
        Some(hit2(ball_box_toi(d2(self.center()), f64::from(self.radius()), d2(motion), t, normal)))
    }
}

impl Sweep<Aabb3> for Sphere {
    type Motion = Vec3;
    type Hit = SweepHit3;

    fn sweep(&self, motion: Vec3, other: &Aabb3) -> Option<SweepHit3> {
        if !motion.is_finite() {
            return None; // a non-finite motion touches nothing
        }
        if self.overlaps(other) {
            let k = self.contact(other)?;
            return Some(SweepHit3 { t: 0.0, point: k.points[0], normal: -k.normal });
        }
        let bounds = (other.min().to_array(), other.max().to_array());
        let (t, n) = ray_rounded_box(self.center().to_array(), motion.to_array(), bounds, self.radius())?;
        Some(hit3(ball_box_toi(
            d3(self.center()),
            f64::from(self.radius()),
            d3(motion),
            t,
            DVec3::from_array(n),
        )))
    }
}

/// The box moving against the ball: the ball moving the other way, seen from the box.
macro_rules! box_against_ball {
    ($Box:ty, $Ball:ty, $V:ty, $Hit:ident, $d:path, $hit:path) => {
        impl Sweep<$Ball> for $Box {
            type Motion = $V;
            type Hit = $Hit;

            fn sweep(&self, motion: $V, other: &$Ball) -> Option<$Hit> {
                let h = other.sweep(-motion, self)?;
                let toi = Toi { t: f64::from(h.t), point: $d(h.point), normal: $d(h.normal) };
                Some($hit(toi.reversed($d(motion))))
            }
        }
    };
}
pub(crate) use box_against_ball;

box_against_ball!(Aabb2, Circle, Vec2, SweepHit2, d2, hit2);
box_against_ball!(Aabb3, Sphere, Vec3, SweepHit3, d3, hit3);

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
