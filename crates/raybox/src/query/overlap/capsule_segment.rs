//! Capsule against segment, 2D and 3D: the segment is within the radius of the core
//! (exactly in the plane, `segment_within_2d`; in space by `segment_within_3d`).
//! A capsule of radius zero is its core, a segment: then the exact segment–segment test
//! decides (the `f64` kernel reads two segments that cross off the coordinate planes as a
//! hair apart), so a zero-radius capsule answers as the segment does.

use glam::{Vec2, Vec3};

use crate::{Capsule2, Capsule3, Overlaps, Segment2, Segment3};

/// A 3D capsule and a segment: the segment within the radius of the core, by
/// [`segment_within_3d`].
impl Overlaps<Segment3> for Capsule3 {
    #[inline]
    fn overlaps(&self, other: &Segment3) -> bool {
        if self.radius() == 0.0 {
            return self.segment().overlaps(other);
        }
        segment_within_3d(self.start(), self.end(), other.start(), other.end(), self.radius())
    }
}
crate::query::reverse_overlaps!(Capsule3 => Segment3);

/// Whether the segments `p q` and `a b` come within `r` of each other (3D), exactly: two
/// segments are nearest at an end of one (the exact ball–segment test of
/// `sphere_segment.rs` on each of the four ends), or where they meet (the exact
/// segment–segment test), or else at a point inside both, where the distance is that of
/// their lines, `|w · n| / |n|` with `n = d₁ × d₂` (Ericson, *Real-Time Collision
/// Detection*, 5.1.9); that last test, and which pairs reach it, by the exact predicates of
/// `normals.rs`. GJK in `f64` first decides every pair whose distance is not within `2⁻²⁰`
/// of `r` (relative to the coordinates).
///
/// GJK alone read segments exactly `r` from a capsule's core as a hair apart, about 1 in
/// 100 touching lattice pairs, and a capsule touching another about 1 in 300 (an audit,
/// `tests/audit_3d_curved.rs`). The last test in plain `f64` was exact only while its
/// products fit: cores touching at a point inside both, at lattice coordinates near `2^21`
/// and about `2^20` long, were read as apart in 2,388 of 8,000 capsule pairs and 2,440 of
/// 8,000 capsule–segment pairs (`cores_touching_inside_at_large_coordinates`).
#[inline]
pub(crate) fn segment_within_3d(p: Vec3, q: Vec3, a: Vec3, b: Vec3, r: f32) -> bool {
    use crate::query::distance::{Core, core_closest};
    let (pd, qd, ad, bd) = (p.as_dvec3(), q.as_dvec3(), a.as_dvec3(), b.as_dvec3());
    let rd = f64::from(r);
    let gap = core_closest(&Core::Segment(pd, qd), &Core::Segment(ad, bd)).distance - rd;
    let size = [pd, qd, ad, bd].iter().fold(rd, |m, v| m.max(v.abs().max_element()));
    if gap.abs() > size / f64::from(1u32 << 20) {
        return gap <= 0.0;
    }
    segment_within_3d_exact(p, q, a, b, r)
}

/// `Overlaps<Capsule3>` for a 3D box type (`Aabb3`, `Obb3`) and its reverse: the capsule's
/// core within the radius of the box, by [`segment_within_box`] (exact at touching where
/// its parts are).
macro_rules! box_capsule_overlaps {
    ($Box:ty) => {
        impl crate::Overlaps<crate::Capsule3> for $Box {
            #[inline]
            fn overlaps(&self, other: &crate::Capsule3) -> bool {
                use crate::query::distance::ToRounded;
                let b = *self;
                crate::query::overlap::capsule_segment::segment_within_box(
                    (other.start(), other.end(), other.radius()),
                    &b.to_rounded().core,
                    || b.corners(),
                    |s| s.overlaps(&b),
                    |c| c.overlaps(&b),
                )
            }
        }
        crate::query::reverse_overlaps!($Box => crate::Capsule3);
    };
}
pub(crate) use box_capsule_overlaps;

/// Whether the segment `p q` comes within `r` of the box `bx` (a box core) with the given
/// `corners` (bit `k` of a corner's index set: the box's far side along its axis `k`),
/// exactly where the parts are exact: a segment apart from a box is nearest at one of its
/// ends (`near_end`, a ball of radius `r` there against the box) or at a point of one of
/// the box's 12 edges (from a point inside a face, it can slide along the face, parallel
/// to the segment, to an edge or an end), so it is within `r` when it meets the box
/// (`meets`, exact), an end is within `r` of it, or an edge within `r` of it
/// ([`segment_within_3d`]'s decomposition). GJK in `f64` first decides every pair not
/// within `2⁻²⁰` of touching.
///
/// GJK alone read a capsule exactly touching a box as a hair apart in about 1 of 700
/// touching lattice pairs, 1 of 300 for a turned box (an audit, `tests/audit_3d_curved.rs`).
#[inline]
pub(crate) fn segment_within_box(
    (p, q, r): (Vec3, Vec3, f32),
    bx: &crate::query::distance::Core,
    corners: impl Fn() -> [Vec3; 8],
    meets: impl Fn(&Segment3) -> bool,
    near_end: impl Fn(&crate::Sphere) -> bool,
) -> bool {
    use crate::query::distance::{Core, core_closest};
    let (pd, qd, rd) = (p.as_dvec3(), q.as_dvec3(), f64::from(r));
    let c = core_closest(bx, &Core::Segment(pd, qd));
    let gap = c.distance - rd;
    // The scale of GJK's rounding: the coordinates where the two come nearest, within
    // the distance of the segment's ends.
    let size = pd.abs().max(qd.abs()).max_element() + c.distance + rd;
    if gap.abs() > size / f64::from(1u32 << 20) {
        return gap <= 0.0;
    }
    segment_within_box_exact((p, q, r), corners, meets, near_end)
}

/// The decomposition of [`segment_within_box`], without its GJK filter.
#[cold]
#[inline(never)]
fn segment_within_box_exact(
    (p, q, r): (Vec3, Vec3, f32),
    corners: impl Fn() -> [Vec3; 8],
    meets: impl Fn(&Segment3) -> bool,
    near_end: impl Fn(&crate::Sphere) -> bool,
) -> bool {
    let corners = corners();
    let core = Segment3::new(p, q);
    meets(&core)
        || near_end(&crate::Sphere::new(p, r))
        || near_end(&crate::Sphere::new(q, r))
        || (0..8).any(|i| {
            [1, 2, 4]
                .iter()
                .any(|&bit| i & bit == 0 && segment_within_3d_exact(p, q, corners[i], corners[i | bit], r))
        })
}

/// The decomposition of [`segment_within_3d`], without its GJK filter.
#[cold]
#[inline(never)]
pub(crate) fn segment_within_3d_exact(p: Vec3, q: Vec3, a: Vec3, b: Vec3, r: f32) -> bool {
    use super::normals::{cross_dot_sign, volume_within};
    use super::sphere_segment::ball_segment_3d;
    if Segment3::new(p, q).overlaps(&Segment3::new(a, b))
        || ball_segment_3d(&a, &b, &p, r)
        || ball_segment_3d(&a, &b, &q, r)
        || ball_segment_3d(&p, &q, &a, r)
        || ball_segment_3d(&p, &q, &b, r)
    {
        return true;
    }
    // Nearest inside both: the lines' closest parameters `s = s_num / den` and `t = t_num
    // / den` strictly between 0 and 1 (Ericson 5.1.9: `den = |n|²`, `n = d₁ × d₂`,
    // `d₁ = q - p`, `d₂ = b - a`, `w = p - a`), and the lines' distance `|w · n| / |n|` at
    // most `r`. By Lagrange's identity `(A × B) · (C × D) = (A · C)(B · D) - (A · D)(B · C)`
    // each of the four parameter signs is `n` dotted with a cross product of two point
    // differences: `s_num = n · (d₂ × w)`, `den - s_num = n · ((q - a) × d₂)`,
    // `t_num = n · (d₁ × w)`, `den - t_num = n · (d₁ × (b - p))`; and `w · n` is the
    // determinant `det[b - a, p - a, q - a]`. All exact (`normals.rs`); parallel cores have
    // `n = 0`, so every sign is zero and this case does not apply.
    let n = [q, p, b, a];
    let inside =
        [[b, a, p, a], [q, a, b, a], [a, p, q, p], [q, p, b, p]].iter().all(|&m| cross_dot_sign(n, m) > 0.0);
    inside && volume_within([a, b, p, q], n, r)
}

/// The sum of two radii when `f32` holds it exactly (it then decides touching exactly).
#[inline]
pub(crate) fn exact_radius_sum(a: f32, b: f32) -> Option<f32> {
    let s = a + b;
    (f64::from(s) == f64::from(a) + f64::from(b)).then_some(s)
}

/// Whether the segment `p q` comes within `r` of the 2D convex shape with the given
/// `corners` (its vertices), exactly where the parts are exact: two disjoint convex
/// polygons are nearest at a vertex of one and an edge of the other, so the segment is
/// within `r` exactly when it meets the shape (`meets`), an end of it is within `r` of the
/// shape (`near_end`, a disc of radius `r` at the end), or a corner is within `r` of it (a
/// disc at the corner against the segment: the exact kernel of `sphere_segment.rs`).
///
/// Capsules used GJK in `f64`, which reads shapes that touch exactly as `1e-16` apart
/// about once in 40,000 lattice pairs (a box corner on the capsule's rim, say).
#[inline]
pub(crate) fn segment_within_2d(
    p: Vec2,
    q: Vec2,
    r: f32,
    corners: &[Vec2],
    meets: impl Fn(&Segment2) -> bool,
    near_end: impl Fn(&crate::Circle) -> bool,
) -> bool {
    let core = Segment2::new(p, q);
    meets(&core)
        || near_end(&crate::Circle::new(p, r))
        || near_end(&crate::Circle::new(q, r))
        || corners.iter().any(|&c| crate::Circle::new(c, r).overlaps(&core))
}

impl Overlaps<Segment2> for Capsule2 {
    #[inline]
    fn overlaps(&self, other: &Segment2) -> bool {
        if self.radius() == 0.0 {
            return self.segment().overlaps(other);
        }
        let (g, r) = (*other, self.radius());
        segment_within_2d(
            self.start(),
            self.end(),
            r,
            &[g.start(), g.end()],
            |s| s.overlaps(&g),
            |c| c.overlaps(&g),
        )
    }
}

crate::query::reverse_overlaps!(Capsule2 => Segment2);

#[cfg(test)]
mod tests {
    use crate::{Capsule2, Overlaps, Segment2};
    use glam::Vec2;

    #[test]
    fn segment_touching_the_cap() {
        let c = Capsule2::new(Vec2::ZERO, Vec2::new(2.0, 0.0), 1.0);
        assert!(c.overlaps(&Segment2::new(Vec2::new(3.0, -1.0), Vec2::new(3.0, 1.0))));
        assert!(!Segment2::new(Vec2::new(3.01, -1.0), Vec2::new(3.01, 1.0)).overlaps(&c));
    }
}
