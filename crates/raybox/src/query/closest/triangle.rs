//! Points against triangles: Ericson, *Real-Time Collision Detection*, 5.1.5
//! (closest point by Voronoi regions of the vertices, edges and face).

use glam::{DVec3, Vec3};

use crate::{ClosestPoint, ContainsPoint, Triangle3};

/// The point of the closed triangle `a, b, c` nearest to `p`, in `f64`.
pub(crate) fn closest_point_on_triangle(p: DVec3, [a, b, c]: [DVec3; 3]) -> DVec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a; // vertex region a
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b; // vertex region b
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3)); // edge region ab
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c; // vertex region c
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6)); // edge region ac
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))); // edge region bc
    }
    // Face region: barycentric (1 - v - w, v, w).
    let denom = va + vb + vc;
    a + ab * (vb / denom) + ac * (vc / denom)
}

impl ContainsPoint for Triangle3 {
    type Point = Vec3;

    /// `true` when `point` lies in the triangle's plane and inside or on its edges,
    /// decided in `f64`.
    fn contains_point(&self, point: Vec3) -> bool {
        let [a, b, c] = self.vertices().map(Vec3::as_dvec3);
        let p = point.as_dvec3();
        let n = (b - a).cross(c - a);
        n.dot(p - a) == 0.0
            && [(a, b), (b, c), (c, a)].iter().all(|&(u, v)| (v - u).cross(p - u).dot(n) >= 0.0)
    }
}

impl ClosestPoint for Triangle3 {
    type Point = Vec3;

    fn closest_point(&self, point: Vec3) -> Vec3 {
        closest_point_on_triangle(point.as_dvec3(), self.vertices().map(Vec3::as_dvec3)).as_vec3()
    }

    fn distance_to_point(&self, point: Vec3) -> f32 {
        let p = point.as_dvec3();
        p.distance(closest_point_on_triangle(p, self.vertices().map(Vec3::as_dvec3))) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_voronoi_region() {
        let t = Triangle3::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0));
        let cases = [
            (Vec3::new(-1.0, -1.0, 0.0), Vec3::ZERO),              // vertex a
            (Vec3::new(3.0, -1.0, 1.0), Vec3::new(2.0, 0.0, 0.0)), // vertex b
            (Vec3::new(-0.5, 3.0, 0.0), Vec3::new(0.0, 2.0, 0.0)), // vertex c
            (Vec3::new(1.0, -3.0, 0.0), Vec3::new(1.0, 0.0, 0.0)), // edge ab
            (Vec3::new(-2.0, 1.0, 5.0), Vec3::new(0.0, 1.0, 0.0)), // edge ac
            (Vec3::new(2.0, 2.0, 0.0), Vec3::new(1.0, 1.0, 0.0)),  // edge bc
            (Vec3::new(0.5, 0.5, -4.0), Vec3::new(0.5, 0.5, 0.0)), // face
        ];
        for (p, expected) in cases {
            assert_eq!(t.closest_point(p), expected, "{p}");
        }
        assert_eq!(t.distance_to_point(Vec3::new(0.5, 0.5, -4.0)), 4.0);
        assert!(t.contains_point(Vec3::new(1.0, 1.0, 0.0)));
        assert!(!t.contains_point(Vec3::new(1.0, 1.0, 0.5)));
    }
}
