//! Axis-aligned box against triangle: the 13-axis separating-axis test of
//! Akenine-Möller, *Fast 3D Triangle-Box Overlap Testing* (JGT 2001).
//!
//! With the box centred at the origin (half extents `h`) and the triangle moved with it,
//! the candidate axes are: the 9 cross products of a box axis and a triangle edge, the 3
//! box face normals, and the triangle normal. Closed: projections that only touch
//! overlap. Computed in `f64`; exactly zero cross products (an edge parallel to a box
//! axis) are skipped, as the face axes cover them.

use glam::DVec3;

use crate::query::reverse_overlaps;
use crate::{Aabb3, Overlaps, Triangle3};

/// Does some axis separate the box `[-h, h]` from the triangle `v` (both in the box frame)?
pub(crate) fn box_triangle_separated(h: DVec3, v: [DVec3; 3]) -> bool {
    let separates = |l: DVec3| {
        let p = v.map(|x| x.dot(l));
        let r = h.dot(l.abs());
        let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
        lo > r || hi < -r
    };
    let edges = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    let normal = edges[0].cross(edges[1]);
    // The 13 axes as a constant-size array and a loop with a constant bound (it unrolls):
    // an iterator chain of `flat_map` + `filter` + `any` here was not inlined.
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
    for l in axes {
        if l != DVec3::ZERO && separates(l) {
            return true;
        }
    }
    false
}

impl Overlaps<Triangle3> for Aabb3 {
    fn overlaps(&self, other: &Triangle3) -> bool {
        // Centre in f64 without rounding: (min + max) / 2 is exact there.
        let c = (self.min().as_dvec3() + self.max().as_dvec3()) * 0.5;
        let h = (self.max().as_dvec3() - self.min().as_dvec3()) * 0.5;
        !box_triangle_separated(h, other.vertices().map(|p| p.as_dvec3() - c))
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
}
