//! Triangle against segment (3D), exact: the answer of `triangles_overlap` for the
//! degenerate triangle `(s, e, e)`, through `triangle_segment_overlap` of
//! `triangle_triangle.rs` (the same bounding boxes, and the triangle's span), which sends it
//! here.
//!
//! For a non-degenerate triangle `a b c` and a segment `p q` (maybe a point), with
//! `[a, b, c, d]` the exact sign of `det[b - a, c - a, d - a]` (`orient.rs`):
//!
//! - `p` and `q` strictly on one side of the triangle's plane: apart.
//! - Both on the plane: the test is planar, in the coordinate plane along whose axis the
//!   triangle's exact normal is not zero (a one-to-one projection of its plane): an end
//!   inside the triangle, or a crossing with an edge.
//! - Otherwise the segment meets the plane in one point `x`, which is in the closed triangle
//!   exactly when `[p, q, a, b]`, `[p, q, b, c]` and `[p, q, c, a]` are not of strictly
//!   opposite signs. (Each equals `(q - p) · ((a - x) × (b - x))`: the same non-zero factor
//!   `(q - p) · n` times the orientation of `x` against that edge in the plane. Segura &
//!   Feito, *Algorithms to test ray-triangle intersection*, 2001, use these signs for a
//!   segment; Ericson, *Real-Time Collision Detection*, 5.3.4, for a line.)

use crate::arrays::Each;
use glam::Vec3;

use super::orient::{orient3d, project, segment_meets_triangle_2d};
use super::triangle_triangle::triangle_segment_overlap;
use crate::query::reverse_overlaps;
use crate::{Overlaps, Segment3, Triangle3};

/// Whether the closed segment `[p, q]` meets the closed triangle `t`, which is not
/// degenerate: `n` holds the exact signs of its normal's components, not all zero.
#[inline]
pub(crate) fn triangle_segment_meet(t: [Vec3; 3], n: [f64; 3], p: Vec3, q: Vec3) -> bool {
    let (sp, sq) = (orient3d(t[0], t[1], t[2], p), orient3d(t[0], t[1], t[2], q));
    if sp * sq > 0.0 {
        return false;
    }
    if sp == 0.0 && sq == 0.0 {
        let k = n.iter().position(|&x| x != 0.0).unwrap_or(2);
        return segment_meets_triangle_2d(project(p, k), project(q, k), t.each(|v| project(v, k)));
    }
    let s = [orient3d(p, q, t[0], t[1]), orient3d(p, q, t[1], t[2]), orient3d(p, q, t[2], t[0])];
    let (mut plus, mut minus) = (false, false);
    for x in s {
        plus |= x == 1.0;
        minus |= x == -1.0;
    }
    !(plus && minus)
}

impl Overlaps<Segment3> for Triangle3 {
    /// Exact, like triangle against triangle (the segment is a triangle with a repeated
    /// vertex): a segment lying in the triangle's plane, ending on its face or edge, or a
    /// zero-length one on it, overlaps.
    ///
    /// ```
    /// use raybox::{Overlaps, Segment3, Triangle3};
    /// use glam::Vec3;
    ///
    /// let t = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
    /// assert!(t.overlaps(&Segment3::new(Vec3::new(1.0, 1.0, -1.0), Vec3::new(1.0, 1.0, 1.0))));
    /// // In the plane, from outside to a point of the hypotenuse x + y = 4.
    /// let in_plane = Segment3::new(Vec3::new(5.0, 5.0, 0.0), Vec3::new(2.0, 2.0, 0.0));
    /// assert!(in_plane.overlaps(&t));
    /// assert!(!Segment3::new(Vec3::new(5.0, 5.0, 0.0), Vec3::new(2.5, 2.0, 0.0)).overlaps(&t));
    /// ```
    #[inline]
    fn overlaps(&self, other: &Segment3) -> bool {
        triangle_segment_overlap(self.vertices(), other.start(), other.end())
    }
}

reverse_overlaps!(Triangle3 => Segment3);

#[cfg(test)]
mod tests {
    use super::*;

    const FLOOR: [Vec3; 3] = [Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0)];

    fn v(x: f32, y: f32, z: f32) -> Vec3 {
        Vec3::new(x, y, z)
    }

    /// The kernel's answer, checked in both segment directions, every vertex order and both
    /// argument orders of the public impls.
    fn meets(p: Vec3, q: Vec3) -> bool {
        let t = Triangle3::new(FLOOR[0], FLOOR[1], FLOOR[2]);
        let want = t.overlaps(&Segment3::new(p, q));
        for [i, j, k] in [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]] {
            let t = Triangle3::new(FLOOR[i], FLOOR[j], FLOOR[k]);
            for s in [Segment3::new(p, q), Segment3::new(q, p)] {
                assert_eq!(t.overlaps(&s), want, "{t:?} {s:?}");
                assert_eq!(s.overlaps(&t), want, "{s:?} {t:?}");
            }
        }
        want
    }

    #[test]
    fn crossing_ending_on_and_missing_the_face() {
        assert!(meets(v(1.0, 1.0, -1.0), v(1.0, 1.0, 1.0)));
        assert!(meets(v(1.0, 1.0, 0.0), v(1.0, 1.0, 1.0))); // ends on the face
        assert!(meets(v(2.0, 2.0, -3.0), v(2.0, 2.0, 3.0))); // through the hypotenuse
        assert!(meets(v(0.0, 0.0, -3.0), v(0.0, 0.0, 3.0))); // through a vertex
        assert!(!meets(v(2.0, 2.01, -3.0), v(2.0, 2.01, 3.0)));
        assert!(!meets(v(1.0, 1.0, f32::from_bits(1)), v(1.0, 1.0, 1.0))); // a hair above
        assert!(!meets(v(1.0, 1.0, -1.0), v(1.0, 1.0, -f32::from_bits(1))));
        // Slanted, crossing the plane at (3, 0.5, 0): inside; at (3, 1.5, 0): outside.
        assert!(meets(v(2.0, 0.0, -1.0), v(4.0, 1.0, 1.0)));
        assert!(!meets(v(2.0, 1.0, -1.0), v(4.0, 2.0, 1.0)));
    }

    #[test]
    fn segments_in_the_plane_and_points() {
        assert!(meets(v(1.0, 1.0, 0.0), v(2.0, 1.0, 0.0))); // inside
        assert!(meets(v(-1.0, 1.0, 0.0), v(9.0, 1.0, 0.0))); // across, no end inside
        assert!(meets(v(4.0, 0.0, 0.0), v(6.0, 0.0, 0.0))); // along an edge's line, from a vertex
        assert!(!meets(v(4.5, 0.0, 0.0), v(6.0, 0.0, 0.0)));
        assert!(!meets(v(0.0, 5.0, 0.0), v(5.0, 0.0, 0.0))); // parallel to the hypotenuse, outside
        assert!(meets(v(0.0, 4.0, 0.0), v(4.0, 0.0, 0.0))); // on the hypotenuse
        // Zero-length segments: on a vertex, on an edge, inside, off the plane, beside.
        assert!(meets(v(4.0, 0.0, 0.0), v(4.0, 0.0, 0.0)));
        assert!(meets(v(2.0, 0.0, 0.0), v(2.0, 0.0, 0.0)));
        assert!(meets(v(1.0, 1.0, 0.0), v(1.0, 1.0, 0.0)));
        assert!(!meets(v(1.0, 1.0, 1e-30), v(1.0, 1.0, 1e-30)));
        assert!(!meets(v(3.0, 3.0, 0.0), v(3.0, 3.0, 0.0)));
    }
}
