//! Capsule against segment, 2D and 3D: the segment is within the radius of the core
//! (the segment kernel of `distance/segment_segment.rs`: exact in the plane, in `f64`).
//! A capsule of radius zero is its core, a segment: then the exact segment–segment test
//! decides (the `f64` kernel reads two segments that cross off the coordinate planes as a
//! hair apart), so a zero-radius capsule answers as the segment does.

use crate::query::distance::{ToRounded, rounded_overlaps};
use glam::Vec2;

use crate::{Capsule2, Capsule3, Overlaps, Segment2, Segment3};

macro_rules! capsule_segment_overlaps {
    ($($Capsule:ty, $Segment:ty);*) => {
        $(impl Overlaps<$Segment> for $Capsule {
            fn overlaps(&self, other: &$Segment) -> bool {
                if self.radius() == 0.0 {
                    return self.segment().overlaps(other);
                }
                rounded_overlaps(&self.to_rounded(), &other.to_rounded())
            }
        }
        crate::query::reverse_overlaps!($Capsule => $Segment);)*
    };
}

capsule_segment_overlaps!(Capsule3, Segment3);

/// The sum of two radii when `f32` holds it exactly (it then decides touching exactly).
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
