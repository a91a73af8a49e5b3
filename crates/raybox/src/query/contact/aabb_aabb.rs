//! Box against box (axis-aligned), 2D and 3D: the minimum translation along one axis.
//!
//! For closed boxes, B separates from A by moving `a.max[i] - b.min[i]` along `+eᵢ` or
//! `b.max[i] - a.min[i]` along `-eᵢ`; the depth is the smallest of these `2N` values (the
//! separating-axis theorem with the face axes, which are all the axes two AABBs have).
//! This is the reference vectors' `penetration_depth`; it differs from the overlap length
//! when one interval contains the other. Ties go to the lowest axis, `+` before `-`.
//! The differences are exact in `f64`.
//!
//! The manifold is the face of the intersection box across the normal, placed midway
//! between the two touching faces (clamped into the intersection box): 2 points in 2D,
//! 4 in 3D, fewer when the intersection is flat.

use glam::{DVec2, DVec3, Vec2, Vec3};

use super::in_fixed_order;
use crate::{Aabb2, Aabb3, Contact, Contact2, Contact3, ContactPoints2, ContactPoints3};

/// The axis, direction (`±1`), depth and intersection box of two overlapping boxes.
pub(crate) struct BoxBox<const N: usize> {
    pub axis: usize,
    pub sign: f64,
    pub depth: f64,
    /// The intersection box, with its coordinate along `axis` set to the contact plane.
    pub lo: [f64; N],
    pub hi: [f64; N],
}

/// The contact of the boxes `[a_min, a_max]` and `[b_min, b_max]`, or `None` when apart.
#[inline]
pub(crate) fn aabb_aabb_contact<const N: usize>(
    (a_min, a_max): ([f32; N], [f32; N]),
    (b_min, b_max): ([f32; N], [f32; N]),
) -> Option<BoxBox<N>> {
    if (0..N).any(|i| a_min[i] > b_max[i] || b_min[i] > a_max[i]) {
        return None;
    }
    let (mut axis, mut sign, mut depth) = (0, 1.0, f64::INFINITY);
    for i in 0..N {
        let up = f64::from(a_max[i]) - f64::from(b_min[i]); // move B along +eᵢ
        let down = f64::from(b_max[i]) - f64::from(a_min[i]); // move B along -eᵢ
        if up < depth {
            (axis, sign, depth) = (i, 1.0, up);
        }
        if down < depth {
            (axis, sign, depth) = (i, -1.0, down);
        }
    }
    let mut lo: [f64; N] = crate::arrays::from_fn(|i| f64::from(a_min[i].max(b_min[i])));
    let mut hi: [f64; N] = crate::arrays::from_fn(|i| f64::from(a_max[i].min(b_max[i])));
    // The plane midway between A's face and B's face across the normal.
    let (fa, fb) = if sign > 0.0 { (a_max[axis], b_min[axis]) } else { (a_min[axis], b_max[axis]) };
    let mid = ((f64::from(fa) + f64::from(fb)) / 2.0).clamp(lo[axis], hi[axis]);
    (lo[axis], hi[axis]) = (mid, mid);
    Some(BoxBox { axis, sign, depth, lo, hi })
}

impl Contact<Aabb2> for Aabb2 {
    type Output = Contact2;

    #[inline]
    fn contact(&self, other: &Aabb2) -> Option<Contact2> {
        in_fixed_order(self, other, aabb2_contact, Contact2::flipped)
    }
}

/// `Contact<Aabb2> for Aabb2` in the order given.
#[inline]
fn aabb2_contact(a: &Aabb2, b: &Aabb2) -> Option<Contact2> {
    let k = aabb_aabb_contact(
        (a.min().to_array(), a.max().to_array()),
        (b.min().to_array(), b.max().to_array()),
    )?;
    let mut normal = Vec2::ZERO;
    normal[k.axis] = k.sign as f32;
    let mut points = ContactPoints2::EMPTY;
    let (lo, hi) = (DVec2::from_array(k.lo), DVec2::from_array(k.hi));
    points.push(lo.as_vec2());
    if hi != lo {
        points.push(hi.as_vec2());
    }
    Some(Contact2 { normal, depth: k.depth as f32, points })
}

impl Contact<Aabb3> for Aabb3 {
    type Output = Contact3;

    #[inline]
    fn contact(&self, other: &Aabb3) -> Option<Contact3> {
        in_fixed_order(self, other, aabb3_contact, Contact3::flipped)
    }
}

/// `Contact<Aabb3> for Aabb3` in the order given.
#[inline]
fn aabb3_contact(a: &Aabb3, b: &Aabb3) -> Option<Contact3> {
    let k = aabb_aabb_contact(
        (a.min().to_array(), a.max().to_array()),
        (b.min().to_array(), b.max().to_array()),
    )?;
    let mut normal = Vec3::ZERO;
    normal[k.axis] = k.sign as f32;
    // The face of the intersection box across the normal: its corners in the other
    // two axes (u, v), counter-clockwise, skipping the repeats of a flat face.
    let (u, v) = ((k.axis + 1) % 3, (k.axis + 2) % 3);
    let mut points = ContactPoints3::EMPTY;
    let mut corner = |su: bool, sv: bool| {
        let mut p = DVec3::from_array(k.lo);
        p[u] = if su { k.hi[u] } else { k.lo[u] };
        p[v] = if sv { k.hi[v] } else { k.lo[v] };
        let p = p.as_vec3();
        if !points.contains(&p) {
            points.push(p);
        }
    };
    corner(false, false);
    corner(true, false);
    corner(true, true);
    corner(false, true);
    Some(Contact3 { normal, depth: k.depth as f32, points })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrays::Each;

    #[test]
    fn resting_box_gives_its_bottom_face() {
        let floor = Aabb3::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0));
        let b = Aabb3::new(Vec3::new(0.0, -0.5, 0.0), Vec3::new(1.0, 0.5, 2.0));
        let c = floor.contact(&b).unwrap();
        assert_eq!((c.normal, c.depth), (Vec3::Y, 0.5));
        let expected = [(0.0, 0.0), (0.0, 2.0), (1.0, 2.0), (1.0, 0.0)].each(|(x, z)| Vec3::new(x, -0.25, z));
        assert_eq!(c.points.len(), 4);
        for p in expected {
            assert!(c.points.contains(&p), "{p} not in {:?}", c.points);
        }
        let r = b.contact(&floor).unwrap();
        assert_eq!((r.normal, r.depth), (Vec3::NEG_Y, 0.5));
    }

    #[test]
    fn containment_takes_the_shorter_way_out() {
        // A = [0, 10] contains B = [1, 3] on x: B leaves by -x (3 - 0 = 3), not +x (10 - 1 = 9).
        let a = Aabb2::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0));
        let b = Aabb2::new(Vec2::new(1.0, 4.0), Vec2::new(3.0, 6.0));
        let c = a.contact(&b).unwrap();
        assert_eq!((c.normal, c.depth), (Vec2::NEG_X, 3.0));
        // The contact plane x = (0 + 3) / 2 = 1.5, across B's extent in y.
        assert_eq!(c.points.as_slice(), &[Vec2::new(1.5, 4.0), Vec2::new(1.5, 6.0)]);
    }

    #[test]
    fn touching_edge_gives_depth_zero_and_one_point_per_distinct_corner() {
        let a = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let b = Aabb3::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(2.0, 2.0, 1.0)); // shares the edge x=y=1
        let c = a.contact(&b).unwrap();
        assert_eq!((c.normal, c.depth), (Vec3::X, 0.0));
        assert_eq!(c.points.as_slice(), &[Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, 1.0, 1.0)]);
        assert!(a.contact(&b.translated(Vec3::new(1e-6, 0.0, 0.0))).is_none());
    }
}
