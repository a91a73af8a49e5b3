//! Axis-aligned box against triangle: the 13-axis separating-axis test of
//! Akenine-Möller, *Fast 3D Triangle-Box Overlap Testing* (JGT 2001).
//!
//! With the box centred at the origin (half extents `h`) and the triangle moved with it,
//! the candidate axes are: the 9 cross products of a box axis and a triangle edge, the 3
//! box face normals, and the triangle normal. Closed: projections that only touch
//! overlap. Computed in `f64`; exactly zero cross products (an edge parallel to a box
//! axis) are skipped, as the face axes cover them.

use crate::arrays::Each;
use glam::DVec3;

use crate::query::reverse_overlaps;
use crate::{Aabb3, Overlaps, Triangle3};

/// Does some axis separate the box `[-h, h]` from the triangle `v` (both in the box frame)?
///
/// The 13 axes are tested in `f64` with the products a generic `l · v` would compute left to
/// right, minus the ones whose factor is an exact 0 of a unit box axis: a face axis projects a
/// vertex onto its own coordinate, and an edge axis `a × e` (`X × e = (0, -e.z, e.y)` and its
/// rotations) onto two products. Dropping `x · 0` leaves each sum's value unchanged (only
/// the sign of a zero can differ, which no comparison sees), so the answers are those of
/// [`box_triangle_separated_generic`], the plain form, bit for bit (a test compares them on
/// random and axis-aligned triangles). Half the products of the edge axes go, and the face
/// axes cost three comparisons each.
#[inline]
pub(crate) fn box_triangle_separated(h: DVec3, v: [DVec3; 3]) -> bool {
    // Closed: projections that only touch overlap. `min` and `max` by one comparison each:
    // `f64::min` also handles NaN, which costs two more instructions per call (a third of
    // the test's time, 31 -> 19.5 ns on the benchmark), and no NaN arises here: the
    // vertices are finite `f32` values moved into the box frame, whose products (up to
    // cubes of `1e39`) stay far inside `f64`'s range.
    let min = |a: f64, b: f64| if a < b { a } else { b };
    let max = |a: f64, b: f64| if a > b { a } else { b };
    let apart = |p: [f64; 3], r: f64| min(min(p[0], p[1]), p[2]) > r || max(max(p[0], p[1]), p[2]) < -r;
    // The box's face axes: the vertices' own coordinates against the half extents.
    for k in 0..3 {
        if apart([v[0][k], v[1][k], v[2][k]], h[k]) {
            return true;
        }
    }
    let edges = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    // The triangle's normal (skipped when zero: a degenerate triangle).
    let normal = edges[0].cross(edges[1]);
    if normal != DVec3::ZERO && apart(v.each(|x| x.dot(normal)), h.dot(normal.abs())) {
        return true;
    }
    // Box axis `a` crossed with each edge `e`: `X × e = (0, -e.z, e.y)`, `Y × e = (e.z, 0,
    // -e.x)`, `Z × e = (-e.y, e.x, 0)`; an exactly zero axis (an edge along `a`) is skipped,
    // the face axes cover it.
    for e in edges {
        if (e.y != 0.0 || e.z != 0.0)
            && apart(v.each(|x| x.y * -e.z + x.z * e.y), h.y * e.z.abs() + h.z * e.y.abs())
        {
            return true;
        }
        if (e.x != 0.0 || e.z != 0.0)
            && apart(v.each(|x| x.x * e.z + x.z * -e.x), h.x * e.z.abs() + h.z * e.x.abs())
        {
            return true;
        }
        if (e.x != 0.0 || e.y != 0.0)
            && apart(v.each(|x| x.x * -e.y + x.y * e.x), h.x * e.y.abs() + h.y * e.x.abs())
        {
            return true;
        }
    }
    false
}

/// [`box_triangle_separated`] in its plain form: each of the 13 axes as a vector, the
/// projections as full dot products. The reference the fast form is tested against.
#[cfg(test)]
fn box_triangle_separated_generic(h: DVec3, v: [DVec3; 3]) -> bool {
    let separates = |l: DVec3| {
        let p = v.each(|x| x.dot(l));
        let r = h.dot(l.abs());
        let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
        lo > r || hi < -r
    };
    let edges = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    let normal = edges[0].cross(edges[1]);
    let [e0, e1, e2] = edges;
    let axes = [
        DVec3::X,
        DVec3::Y,
        DVec3::Z,
        normal,
        DVec3::X.cross(e0),
        DVec3::X.cross(e1),
        DVec3::X.cross(e2),
        DVec3::Y.cross(e0),
        DVec3::Y.cross(e1),
        DVec3::Y.cross(e2),
        DVec3::Z.cross(e0),
        DVec3::Z.cross(e1),
        DVec3::Z.cross(e2),
    ];
    axes.into_iter().any(|l| l != DVec3::ZERO && separates(l))
}

impl Overlaps<Triangle3> for Aabb3 {
    #[inline]
    fn overlaps(&self, other: &Triangle3) -> bool {
        // Centre in f64 without rounding: (min + max) / 2 is exact there.
        let c = (self.min().as_dvec3() + self.max().as_dvec3()) * 0.5;
        let h = (self.max().as_dvec3() - self.min().as_dvec3()) * 0.5;
        !box_triangle_separated(h, other.vertices().each(|p| p.as_dvec3() - c))
    }
}

reverse_overlaps!(Aabb3 => Triangle3);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn triangle_through_a_box_with_no_vertex_inside() {
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let big =
            Triangle3::new(Vec3::new(-5.0, -5.0, 0.5), Vec3::new(5.0, -5.0, 0.5), Vec3::new(0.0, 10.0, 0.5));
        assert!(b.overlaps(&big) && big.overlaps(&b));
        let above =
            Triangle3::new(Vec3::new(-5.0, -5.0, 1.5), Vec3::new(5.0, -5.0, 1.5), Vec3::new(0.0, 10.0, 1.5));
        assert!(!b.overlaps(&above));
        let touching =
            Triangle3::new(Vec3::new(-5.0, -5.0, 1.0), Vec3::new(5.0, -5.0, 1.0), Vec3::new(0.0, 10.0, 1.0));
        assert!(b.overlaps(&touching));
    }

    #[test]
    fn separated_by_an_edge_axis() {
        // A slanted triangle passing near the corner (1, 1, *) of the box, cut off only by
        // the axis z × (edge along x + y direction).
        let b = Aabb3::new(Vec3::ZERO, Vec3::ONE);
        let t =
            Triangle3::new(Vec3::new(2.1, 0.0, -1.0), Vec3::new(0.0, 2.1, -1.0), Vec3::new(1.05, 1.05, 3.0));
        assert!(!b.overlaps(&t));
        let t =
            Triangle3::new(Vec3::new(1.9, 0.0, -1.0), Vec3::new(0.0, 1.9, -1.0), Vec3::new(0.95, 0.95, 3.0));
        assert!(b.overlaps(&t));
    }

    /// The fast form against the plain one on random boxes and triangles, many of them
    /// near touching, with edges along the axes and degenerate triangles among them.
    #[test]
    fn fast_form_answers_as_the_generic_one() {
        let mut rng = crate::mesh::scene::Pcg32::new(0x9e37_79b9);
        let mut unit = move || f64::from(rng.next_f32());
        let (mut overlapping, mut separated) = (0, 0);
        for i in 0..200_000 {
            let mut h = DVec3::new(unit() * 2.0, unit() * 2.0, unit() * 2.0);
            if i % 3 == 0 {
                h = (h * 4.0).round() / 4.0; // on the grid too: exact touches
            }
            let mut point = |spread: f64| {
                let p = DVec3::new(unit() - 0.5, unit() - 0.5, unit() - 0.5) * spread;
                // Snap to a coarse grid now and then, so that edges run along the axes,
                // vertices coincide and projections touch the box exactly.
                if i % 3 == 0 { (p * 4.0).round() / 4.0 } else { p }
            };
            let spread = [2.0, 6.0, 12.0][i % 3];
            let mut v = [point(spread), point(spread), point(spread)];
            if i % 17 == 0 {
                v[2] = v[0]; // degenerate
            }
            let fast = box_triangle_separated(h, v);
            assert_eq!(fast, box_triangle_separated_generic(h, v), "h {h:?}, v {v:?}");
            if fast { separated += 1 } else { overlapping += 1 }
        }
        // Both answers well represented, so the comparison means something.
        assert!(overlapping > 20_000 && separated > 20_000, "{overlapping} / {separated}");
    }
}
