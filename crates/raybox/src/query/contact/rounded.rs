//! The contact of two rounded convex cores (balls, capsules, and the polytopes: segments,
//! boxes, triangles, with radius zero): the kernel behind every capsule pair.
//!
//! A shape here is a core `C` swept by a ball of radius `r`. Two such shapes overlap when
//! their cores are at most `r_a + r_b` apart (`core_closest` in `distance/gjk.rs`: GJK, or
//! the exact kernel for two segments, computed in a fixed order). Then:
//! - **cores apart** (distance `d > 0`, beyond the rounding of the coordinates): the normal
//!   runs from core A's closest point to core B's, and `depth = r_a + r_b - d` (the rounded
//!   shapes' exact minimum translation);
//! - **cores intersecting** (or touching, within that rounding): the minimum translation of
//!   the cores, by the separating-axis test on the cores (Gottschalk; Ericson, *Real-Time
//!   Collision Detection*, 4.4 and 5.5; the candidate axes of two polytopes are their face
//!   normals and, in 3D, the cross products of their edges), plus `r_a + r_b`: for a convex
//!   core containing the origin of the Minkowski difference, rounding by `r` moves its
//!   boundary out by exactly `r`.
//!
//! The point is a common point of the two shapes: on the core-to-core segment within both
//! radii, or a common point of the intersecting cores.

use glam::DVec3;

use crate::query::distance::{Closest, Core, Rounded, core_closest, swap_rounded};

/// Cores closer than this fraction of their largest coordinate are touching, for the
/// contact: a few hundred `f64` ulps, the rounding of a closest-point computation on those
/// coordinates, far below what `f32` outputs resolve (about `1e-7` of them).
const CORE_NOISE: f64 = 256.0 * f64::EPSILON;

/// The same for a point against a point or a segment, computed directly: the foot
/// `p + d ((x - p)·d / d·d)` is within a few ulps of the coordinates.
const POINT_NOISE: f64 = 16.0 * f64::EPSILON;

/// A contact in `f64`: unit normal (A to B), depth, point.
pub(crate) struct RoundedContact {
    pub normal: DVec3,
    pub depth: f64,
    pub point: DVec3,
}

/// The face normals (3D) of a core. A box's faces are spanned by two of its axes: their
/// cross product is the normal even when the stored axes are orthogonal only to `f32`
/// rounding (the box is then a parallelepiped, and an axis is ~1e-7 off its face normal).
#[inline]
fn faces(c: &Core) -> ([DVec3; 3], usize) {
    match *c {
        Core::Box(_, [x, y, z], _) => ([y.cross(z), z.cross(x), x.cross(y)], 3),
        Core::Triangle([a, b, c]) => ([(b - a).cross(c - a), DVec3::ZERO, DVec3::ZERO], 1),
        Core::Point(_) | Core::Segment(..) => ([DVec3::ZERO; 3], 0),
    }
}

/// The edge directions of a core; `planar` boxes (2D, embedded at z = 0) have two.
#[inline]
fn edges(c: &Core, planar: bool) -> ([DVec3; 3], usize) {
    match *c {
        Core::Box(_, axes, _) => (axes, if planar { 2 } else { 3 }),
        Core::Triangle([a, b, c]) => ([b - a, c - b, a - c], 3),
        Core::Segment(p, q) => ([q - p, DVec3::ZERO, DVec3::ZERO], 1),
        Core::Point(_) => ([DVec3::ZERO; 3], 0),
    }
}

/// The projection interval of a core on `l`.
#[inline]
pub(crate) fn project(c: &Core, l: DVec3) -> (f64, f64) {
    let (v, n) = c.vertices();
    v[..n].iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x.dot(l)), hi.max(x.dot(l))))
}

/// The minimum translation of two intersecting cores, `(unit normal A to B, depth)`.
/// `planar`: the cores are 2D (in the plane z = 0), and so is the translation.
#[inline]
pub(crate) fn core_penetration(a: &Core, b: &Core, planar: bool) -> (DVec3, f64) {
    let (axes, count) = sat_axes(a, b, planar);
    let mut best: Option<(DVec3, f64)> = None;
    for &l in &axes[..count] {
        let len = l.length();
        if len == 0.0 {
            continue; // parallel edges, or a degenerate feature
        }
        let l = l / len;
        let ((a_lo, a_hi), (b_lo, b_hi)) = (project(a, l), project(b, l));
        // Move B along +l until b_lo = a_hi, or along -l until b_hi = a_lo.
        let (up, down) = ((a_hi - b_lo).max(0.0), (b_hi - a_lo).max(0.0));
        let (n, depth) = if up <= down { (l, up) } else { (-l, down) };
        if best.is_none_or(|(_, d)| depth < d) {
            best = Some((n, depth));
        }
    }
    // No axis at all: point against point, or (in 3D) a point on a segment or parallel
    // segments in a line. The cores then only touch: any direction across them will do.
    best.unwrap_or_else(|| (fallback_normal(a, b, planar), 0.0))
}

/// The candidate separating axes of two cores (not normalised; some may be zero): the
/// face normals of both and, in 3D, the cross products of their edge directions; in 2D
/// the normals of both polygons' edges. For a box against a box, a triangle, a segment or a
/// point the set is complete: the cores are disjoint exactly when one of these axes
/// separates them (Gottschalk; Ericson, *Real-Time Collision Detection*, 4.4 and 5.2.9).
#[inline]
pub(crate) fn sat_axes(a: &Core, b: &Core, planar: bool) -> ([DVec3; 15], usize) {
    // At most 3 + 3 face normals and 3 x 3 edge cross products (no allocation).
    let mut axes = [DVec3::ZERO; 15];
    let mut count = 0;
    let mut add = |l: DVec3| {
        axes[count] = l;
        count += 1;
    };
    let (ea, na) = edges(a, planar);
    let (eb, nb) = edges(b, planar);
    if planar {
        // The edge normals of both polygons.
        ea[..na].iter().chain(&eb[..nb]).for_each(|e| add(DVec3::new(-e.y, e.x, 0.0)));
    } else {
        let (fa, ma) = faces(a);
        let (fb, mb) = faces(b);
        fa[..ma].iter().chain(&fb[..mb]).for_each(|&f| add(f));
        ea[..na].iter().for_each(|&u| eb[..nb].iter().for_each(|&v| add(u.cross(v))));
    }
    (axes, count)
}

#[inline]
fn fallback_normal(a: &Core, b: &Core, planar: bool) -> DVec3 {
    let dir = [a, b].iter().find_map(|c| match **c {
        Core::Segment(p, q) if p != q => Some((q - p).normalize()),
        _ => None,
    });
    match dir {
        Some(d) if planar => DVec3::new(-d.y, d.x, 0.0),
        Some(d) => d.any_orthonormal_vector(),
        None => DVec3::X,
    }
}

/// Below this distance, cores are touching for the contact (see [`CORE_NOISE`]): that
/// fraction of the magnitude of the coordinates their closest-point computation rounds.
/// For two segments (the exact kernel, on the whole segments) their ends'; for GJK, which
/// works on the parts of the cores near the closest points (`near_parts` in `gjk.rs`: a box
/// `2^41` wide is cut down near a capsule beside it), the closest points'. A point against a
/// point or a segment is computed directly, to a few ulps of its coordinates: its noise is
/// [`POINT_NOISE`] of them, so that a ball `1e-8` from a segment at `1e6` (thousands of ulps
/// of `f64` there) keeps the direction from the segment to its centre.
#[inline]
fn core_noise(a: &Core, b: &Core, c: &Closest) -> f64 {
    let largest = |v: &[DVec3]| v.iter().fold(0.0f64, |m, x| m.max(x.abs().max_element()));
    match (*a, *b) {
        (Core::Segment(p, q), Core::Segment(r, s)) => CORE_NOISE * largest(&[p, q, r, s]),
        (Core::Point(x), Core::Segment(p, q)) | (Core::Segment(p, q), Core::Point(x)) => {
            POINT_NOISE * largest(&[x, p, q])
        }
        (Core::Point(x), Core::Point(y)) => POINT_NOISE * largest(&[x, y]),
        _ => CORE_NOISE * largest(&[c.on_a, c.on_b]),
    }
}

/// A closest point of a segment core this far (as a fraction of its length) from both ends
/// is in its interior, for [`apart_normal`]: far above the rounding of its parameter.
const INTERIOR: f64 = 1e-9;

/// The direction of a segment whose interior holds `x`, a closest point of `core`, for
/// [`apart_normal`]: a segment core's own, or a triangle core's edge through `x` (to
/// [`CORE_NOISE`] of the coordinates off its line; the closest points of a segment and a
/// triangle are computed on that line, within a few ulps of it).
#[inline]
fn interior_segment(core: &Core, x: DVec3) -> Option<DVec3> {
    let inside = |p: DVec3, q: DVec3| {
        let d = q - p;
        let dd = d.length_squared();
        let t = if dd > 0.0 { (x - p).dot(d) / dd } else { 0.0 };
        (INTERIOR..=1.0 - INTERIOR).contains(&t).then_some((d, t))
    };
    match *core {
        Core::Segment(p, q) => inside(p, q).map(|(d, _)| d),
        Core::Triangle(v) => {
            let scale = v.iter().fold(x.abs().max_element(), |m, y| m.max(y.abs().max_element()));
            [(v[0], v[1]), (v[1], v[2]), (v[2], v[0])].into_iter().find_map(|(p, q)| {
                let (d, t) = inside(p, q)?;
                ((x - p - d * t).length() <= CORE_NOISE * scale).then_some(d)
            })
        }
        _ => None,
    }
}

/// The unit normal of cores apart by `c.distance` (beyond their noise): the direction
/// between their closest points, without its components along a segment (a segment core,
/// or a triangle core's edge) whose interior holds its closest point. Those components are
/// zero (the segment from one closest point to the other is perpendicular to every edge it
/// leaves from the inside), and all that is there is the rounding of the points'
/// coordinates, about `ε M` for coordinates of magnitude `M`: over a distance `δ` it tilts
/// the normal by `ε M / δ` off the face of `A - B` the segment spans, which costs the
/// pair's size times that in the depth the normal achieves. (A ball centred `6e-13` from a
/// capsule's axis at `0.6`: `3e-4` rad, and a push along the normal by the depth left the
/// pair `1.1e-4` deep.) Two such segments in 3D give their common perpendicular: for a
/// capsule's axis `4.6e-13` from a triangle's edge (coordinates about `0.7`) the closest
/// points, right to an ulp, were `1e-3` rad off it, and the triangle reached `1.2e-3` back
/// into the capsule along them. (In 3D what remains of the rounding turns the normal about
/// the segment; against a point or a parallel segment that costs at most the distance,
/// against a face it can cost more.)
#[inline]
fn apart_normal(a: &Core, b: &Core, c: &Closest, planar: bool) -> DVec3 {
    let n = (c.on_b - c.on_a) / c.distance;
    let without = |n: DVec3, d: DVec3| n - d * (n.dot(d) / d.length_squared());
    let refined = match (interior_segment(a, c.on_a), interior_segment(b, c.on_b)) {
        (Some(u), Some(v)) if !planar => {
            // Nearly parallel segments have no well-defined common perpendicular; the part
            // of the normal across the first is then across the second to that sine.
            let m = u.cross(v);
            if m.length_squared() > 1e-12 * u.length_squared() * v.length_squared() {
                m * m.dot(n).signum()
            } else {
                without(n, u)
            }
        }
        (Some(u), _) | (None, Some(u)) => without(n, u),
        (None, None) => return n,
    };
    // The part across the segment is the distance, far above the rounding removed.
    refined.try_normalize().unwrap_or(n)
}

/// The contact of two rounded cores, or `None` when they are apart.
#[inline]
pub(crate) fn rounded_contact(a: &Rounded, b: &Rounded, planar: bool) -> Option<RoundedContact> {
    if swap_rounded(a, b) {
        // Computed in the kernel's fixed order, so that the reverse pair is the same
        // contact with the normal flipped, to the bit.
        let k = rounded_contact(b, a, planar)?;
        return Some(RoundedContact { normal: -k.normal, ..k });
    }
    let c = core_closest(&a.core, &b.core);
    let reach = a.radius + b.radius;
    if c.distance > reach {
        return None;
    }
    // Cores apart by no more than the rounding of their coordinates are touching: the
    // direction between such closest points is rounding noise (GJK on a point and a long
    // segment through it reads them ~1e-17 apart, in a direction of no meaning), while the
    // separating-axis branch below gives touching cores their contact (a face normal, a
    // common perpendicular). So are cores reported apart with coincident points.
    let noise = core_noise(&a.core, &b.core, &c);
    if c.distance > noise && c.on_a != c.on_b {
        let n = apart_normal(&a.core, &b.core, &c, planar);
        // The common points on the core-to-core segment lie at [d - r_b, r_a] ∩ [0, d] from on_a.
        let (lo, hi) = ((c.distance - b.radius).max(0.0), a.radius.min(c.distance));
        let point = c.on_a + n * ((lo + hi) / 2.0);
        return Some(RoundedContact { normal: n, depth: (reach - c.distance).max(0.0), point });
    }
    let (normal, depth) = core_penetration(&a.core, &b.core, planar);
    Some(RoundedContact { normal, depth: depth + reach, point: (c.on_a + c.on_b) / 2.0 })
}

/// The contact of two rounded shapes that a pair's own overlap test (exact, or otherwise
/// not GJK's) found overlapping: the kernel's, or, where `f64` GJK reads the pair as a hair
/// apart, a touching contact (depth zero) along the direction between the closest points,
/// midway between the surfaces. Pairs whose `Overlaps` is not [`rounded_overlaps`] gate on
/// it and call this, so that their contact is `Some` exactly when `Overlaps` says so.
///
/// [`rounded_overlaps`]: crate::query::distance::rounded_overlaps
#[inline]
pub(crate) fn overlapping_rounded_contact(a: &Rounded, b: &Rounded, planar: bool) -> RoundedContact {
    if let Some(k) = rounded_contact(a, b, planar) {
        return k;
    }
    // Apart by rounding: the cores are farther than `reach`, so normally not coincident.
    let c = core_closest(&a.core, &b.core);
    // Cores within the rounding of their coordinates, which the exact test found meeting
    // (a point deep inside a turned box far from the origin, which GJK can read as a hair
    // outside): they intersect, and the penetration axis is their contact, not the
    // direction of GJK's rounding.
    if c.distance <= core_noise(&a.core, &b.core, &c) {
        let (normal, depth) = core_penetration(&a.core, &b.core, planar);
        let reach = a.radius + b.radius;
        return RoundedContact { normal, depth: (depth + reach).max(0.0), point: (c.on_a + c.on_b) / 2.0 };
    }
    let gap = c.on_b - c.on_a;
    let normal = if gap.length() > 0.0 {
        gap.normalize()
    } else {
        // (Closest points that coincide although GJK's distance is positive: the
        // penetration axis, rather than a zero vector that would normalise to NaN.)
        core_penetration(&a.core, &b.core, planar).0
    };
    let (on_a, on_b) = (c.on_a + normal * a.radius, c.on_b - normal * b.radius);
    RoundedContact { normal, depth: 0.0, point: (on_a + on_b) / 2.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_through_a_box_leaves_by_the_shortest_way() {
        // A vertical segment through a unit box, 0.25 from its +x face.
        let b = Core::Box(DVec3::ZERO, [DVec3::X, DVec3::Y, DVec3::Z], [1.0; 3]);
        let s = Core::Segment(DVec3::new(0.75, 0.0, -3.0), DVec3::new(0.75, 0.0, 3.0));
        let (n, depth) = core_penetration(&b, &s, false);
        assert_eq!((n, depth), (DVec3::X, 0.25));
        let c = rounded_contact(&Rounded { core: b, radius: 0.0 }, &Rounded { core: s, radius: 0.5 }, false)
            .unwrap();
        assert_eq!((c.normal, c.depth), (DVec3::X, 0.75));
    }

    #[test]
    fn ball_centred_on_a_long_segment_leaves_across_it() {
        // GJK reads the centre ~2e-17 off the core, in a direction of no meaning; the
        // cores touch, and the ball (or the segment) leaves across the segment by r.
        let s = Core::Segment(DVec3::new(0.25, 0.5, -1.5), DVec3::new(-2.0, -4.0, 3.0));
        let ball = Rounded { core: Core::Point(DVec3::new(0.0, 0.0, -1.0)), radius: 3.0 };
        for radius in [0.0, 0.5] {
            let c = rounded_contact(&ball, &Rounded { core: s, radius }, false).unwrap();
            assert!(c.normal.dot(DVec3::new(-1.0, -2.0, 2.0)).abs() < 1e-12, "{:?}", c.normal);
            assert_eq!(c.depth, 3.0 + radius);
        }
    }

    #[test]
    fn crossing_segments_in_2d_and_3d() {
        let x = Core::Segment(DVec3::new(-2.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0));
        let y = Core::Segment(DVec3::new(0.5, -1.0, 0.0), DVec3::new(0.5, 3.0, 0.0));
        let (n, depth) = core_penetration(&x, &y, true);
        // 2D: y leaves x by moving up 1 (its lower end onto x) rather than right 1.5.
        assert_eq!((n, depth), (DVec3::Y, 1.0));
        // 3D: crossing segments only touch; the normal is their common perpendicular.
        let (n, depth) = core_penetration(&x, &y, false);
        assert_eq!((n.abs(), depth), (DVec3::Z, 0.0));
    }
}
