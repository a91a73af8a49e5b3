//! Ray against triangle: the watertight test of Woop, Benthin & Wald,
//! *Watertight Ray/Triangle Intersection*, JCGT 2(1), 2013.
//!
//! Translate the vertices so the ray starts at the origin, shear and scale them so the
//! ray runs along `+z` (choosing the largest direction component as `z`), and evaluate
//! the three 2D edge functions `U, V, W` of the projected triangle at the origin. An
//! edge shared by two triangles is evaluated by the *same* expression from the *same*
//! transformed vertices in both, so a ray through the edge (or a shared vertex) cannot
//! slip between them: it hits one or both, never neither. When an edge function is
//! exactly zero in `f32`, the three are recomputed in `f64` (where the products are
//! exact), as the paper does, so that the sign of the tie is decided right; so are the
//! hits whose `det` or `t` is out of the `f32` path's range (`sheared_hit`), which makes
//! the test right for any finite coordinates.
//!
//! The triangle is closed (edges and vertices are hit) and two-sided. Barycentrics follow
//! Möller–Trumbore: `P = w v0 + u v1 + v v2` with `w = 1 - u - v`.
//!
//! A ray parallel to the triangle's plane is told apart in `f64`
//! ([`RayTriangle::Parallel`], [`RayTriangle::Coplanar`]); a coplanar ray gets its exact
//! in-plane span by clipping it against the three edges in 2D, so through [`RayCast`] a
//! coplanar ray that crosses the triangle hits it over an interval.

use crate::arrays::Each;
use glam::{DVec2, DVec3, Vec3, Vec3A, Vec3Swizzles};

use super::point_at;
use crate::{Ray3, RayCast, RayHit3, RaySpan, Triangle3};

/// A ray hit on a triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriangleHit {
    /// The ray parameter of the hit.
    pub t: f32,
    /// The barycentric weight of `v1`.
    pub u: f32,
    /// The barycentric weight of `v2`.
    pub v: f32,
    /// `true` when the ray arrives from the front: `dir · ((v1 - v0) × (v2 - v0)) < 0`.
    pub front_facing: bool,
}

impl TriangleHit {
    /// The barycentric weight of `v0`, `1 - u - v`.
    ///
    /// ```
    /// use raybox::TriangleHit;
    /// let hit = TriangleHit { t: 1.0, u: 0.25, v: 0.5, front_facing: true };
    /// assert_eq!(hit.w(), 0.25);
    /// ```
    #[must_use]
    #[inline]
    pub fn w(&self) -> f32 {
        1.0 - self.u - self.v
    }
}

/// How a ray meets a triangle; see [`Triangle3::ray_intersection`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RayTriangle {
    /// The ray crosses the triangle inside `[t_min, t_max]`.
    Hit(TriangleHit),
    /// The ray crosses the triangle's plane outside the triangle or outside `[t_min, t_max]`.
    Miss,
    /// The ray is parallel to the triangle's plane and off it.
    Parallel,
    /// The ray lies in the triangle's plane; `span` is where it is on the closed
    /// triangle (`None` when it passes beside it).
    Coplanar {
        /// The in-plane interval, clipped to `[t_min, t_max]`.
        span: Option<RaySpan>,
    },
}

/// A ray prepared for the watertight test: the axis permutation and the shear, computed
/// once per ray and reused for every triangle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WoopRay {
    origin: Vec3,
    /// `kx, ky, kz`: `kz` is the largest component of `|dir|`; `kx, ky` follow it and are
    /// swapped when `dir[kz] < 0`, to keep the winding.
    k: [usize; 3],
    /// `(dir[kx] / dir[kz], dir[ky] / dir[kz], 1 / dir[kz])`.
    shear: Vec3,
    /// `dir[kz]`, for the `f64` path's `1 / dir[kz]` (which overflows `f32` when the
    /// direction is below about `2⁻¹²⁸`).
    dz: f32,
}

impl WoopRay {
    #[inline]
    pub(crate) fn new(origin: Vec3, dir: Vec3) -> Self {
        // `[kx, ky, kz]` for each `kz` and sign of `dir[kz]` (a table, not swaps: a mesh
        // cast makes one of these per ray).
        const AXES: [[usize; 3]; 6] = [[1, 2, 0], [2, 0, 1], [0, 1, 2], [2, 1, 0], [0, 2, 1], [1, 0, 2]];
        let d = dir.to_array();
        // `kz`: the largest `|dir[k]|`, the first of equals.
        let a = dir.abs();
        let mut kz = usize::from(a.y > a.x);
        if a.z > a.x.max(a.y) {
            kz = 2;
        }
        let k = AXES[kz + 3 * usize::from(d[kz] < 0.0)];
        // One vector division, lane by lane the same correctly rounded quotients.
        let shear = Vec3::from(Vec3A::new(d[k[0]], d[k[1]], 1.0) / d[kz]);
        Self { origin, k, shear, dz: d[kz] }
    }

    /// The origin, the axis permutation `[kx, ky, kz]` and the shear (the SIMD kernels'
    /// tests check theirs against these).
    #[cfg(test)]
    pub(crate) fn parts(&self) -> ([f32; 3], [usize; 3], Vec3) {
        (self.origin.to_array(), self.k, self.shear)
    }
}

/// The watertight ray–triangle test. Returns `(t, u, v)` for a hit with `t` in
/// `[t_min, t_max]`; `None` for a miss and for a ray parallel to the plane (`det == 0`).
#[inline]
pub(crate) fn ray_triangle_watertight(
    ray: &WoopRay,
    tri: [Vec3; 3],
    t_min: f32,
    t_max: f32,
) -> Option<(f32, f32, f32)> {
    ray_triangle_watertight_edges(ray, tri, t_min, t_max).map(|(t, u, v, _)| (t, u, v))
}

/// [`ray_triangle_watertight`], and whether the ray meets the triangle exactly on an edge
/// or a vertex (an edge function exactly 0: a point a neighbouring triangle also holds, so
/// a crossing count there sees it twice).
#[inline]
pub(crate) fn ray_triangle_watertight_edges(
    ray: &WoopRay,
    [v0, v1, v2]: [Vec3; 3],
    t_min: f32,
    t_max: f32,
) -> Option<(f32, f32, f32, bool)> {
    let [kx, ky, kz] = ray.k;
    let s = ray.shear;
    let (a, b, c) = (v0 - ray.origin, v1 - ray.origin, v2 - ray.origin);
    // Shear the vertices so the ray runs along +z from the origin.
    let (ax, ay) = (a[kx] - s.x * a[kz], a[ky] - s.y * a[kz]);
    let (bx, by) = (b[kx] - s.x * b[kz], b[ky] - s.y * b[kz]);
    let (cx, cy) = (c[kx] - s.x * c[kz], c[ky] - s.y * c[kz]);
    sheared_hit([ax, ay, bx, by, cx, cy], [a[kz], b[kz], c[kz]], (s.z, ray.dz), t_min, t_max)
}

/// The least `|det|` (twice the sheared triangle's area, in squared units of the
/// coordinates) that the `f32` path of the watertight test takes, `2⁻¹⁰⁰`: every kernel
/// sends a lane below it to [`sheared_hit_f64`].
pub(crate) const DET_MIN: f32 = 1.0 / (1u128 << 100) as f32;

/// The greatest `|det|` the `f32` path takes, `2¹⁰⁰` (see [`DET_MIN`]).
pub(crate) const DET_MAX: f32 = (1u128 << 100) as f32;

/// The second half of the watertight test, shared by both forms of the first: the edge
/// functions of the sheared vertices `[ax, ay, bx, by, cx, cy]` at the origin, and the hit
/// distance from their unscaled `z` (`a[kz]`, …) and the scale `sz = 1 / dir[kz]`.
///
/// **The `f32` path** (every kernel's, lane for lane the same operations): the edge
/// functions `u, v, w`; a miss when two have strictly opposite signs; `det = u + v + w`,
/// `r = 1 / det`, the barycentrics `u r, v r, w r`, and `t` as their weighted sum of the
/// scaled `z`. Interpolating `t` from the barycentrics (not `(u az + v bz + w cz) / det`,
/// which is cubic in the coordinates) keeps every product within the range of the edge
/// functions, so the path is right whenever `DET_MIN <= |det| <= DET_MAX` and `t` is
/// finite: triangles from about `2⁻⁵⁰` to `2⁵⁰` across, wherever they are.
///
/// **The `f64` path** ([`sheared_hit_f64`]) takes the rest: an edge function exactly 0 or
/// NaN (a tie, or an overflowing product), `|det|` out of that range, or an infinite `t`.
/// A non-zero, non-NaN `f32` edge function has the exact value's sign (both products
/// round monotonically), and the `f64` path computes the exact sign from the same sheared
/// vertices, so the two paths decide every edge alike, and neighbouring triangles, which
/// share their sheared vertices, see a shared edge from both sides with opposite signs
/// (Woop et al. 2013): no ray slips between them whichever path each takes.
#[inline(always)]
fn sheared_hit(
    xy: [f32; 6],
    z: [f32; 3],
    (sz, dz): (f32, f32),
    t_min: f32,
    t_max: f32,
) -> Option<(f32, f32, f32, bool)> {
    let [ax, ay, bx, by, cx, cy] = xy;
    let [a_z, b_z, c_z] = z;
    // Edge functions: twice the signed areas of the sub-triangles at the origin.
    let u = cx * by - cy * bx;
    let v = ax * cy - ay * cx;
    let w = bx * ay - by * ax;
    // (`!(x != 0)`: true for 0 and for NaN.)
    #[allow(clippy::nonminimal_bool)]
    if !(u != 0.0) || !(v != 0.0) || !(w != 0.0) {
        return sheared_hit_f64(xy, z, dz, t_min, t_max);
    }
    if (u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0) {
        return None;
    }
    let det = u + v + w;
    let r = 1.0 / det;
    let (bu, bv, bw) = (u * r, v * r, w * r);
    // Scaled z of the vertices, and the hit distance interpolated from them.
    let t = bu * (sz * a_z) + bv * (sz * b_z) + bw * (sz * c_z);
    if !(DET_MIN <= det.abs() && det.abs() <= DET_MAX && t.abs() <= f32::MAX) {
        return sheared_hit_f64(xy, z, dz, t_min, t_max);
    }
    (t_min <= t && t <= t_max).then_some((t, bv, bw, false))
}

/// [`sheared_hit`] in `f64`, for the lanes its `f32` path does not take: the products of
/// two `f32` values are exact in `f64`, so the edge functions' signs and zeros are exact
/// (each is one rounding of an exact difference), and the cubic `t = (u az + v bz + w cz)
/// / (det dz)` (`dz = dir[kz]`, divided in `f64`, where `1 / dz` cannot overflow) neither
/// overflows nor underflows for any finite `f32` input. A hit whose `t` does not fit in
/// `f32` is a miss. Returns whether an edge function is exactly 0 (the ray
/// meets an edge or a vertex).
#[cold]
#[inline(never)]
pub(crate) fn sheared_hit_f64(
    [ax, ay, bx, by, cx, cy]: [f32; 6],
    [a_z, b_z, c_z]: [f32; 3],
    dz: f32,
    t_min: f32,
    t_max: f32,
) -> Option<(f32, f32, f32, bool)> {
    let d = |p: f32, q: f32, r: f32, s: f32| f64::from(p) * f64::from(q) - f64::from(r) * f64::from(s);
    let u = d(cx, by, cy, bx);
    let v = d(ax, cy, ay, cx);
    let w = d(bx, ay, by, ax);
    // NaN: a sheared coordinate overflowed (coordinates near `f32::MAX`).
    if u.is_nan() || v.is_nan() || w.is_nan() {
        return None;
    }
    if (u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0) {
        return None;
    }
    let det = u + v + w;
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let sz = 1.0 / f64::from(dz);
    let num = u * (sz * f64::from(a_z)) + v * (sz * f64::from(b_z)) + w * (sz * f64::from(c_z));
    let t = (num / det) as f32;
    let on_edge = u == 0.0 || v == 0.0 || w == 0.0;
    (t.is_finite() && t_min <= t && t <= t_max).then(|| (t, (v / det) as f32, (w / det) as f32, on_edge))
}

/// `ray_triangle_watertight(&WoopRay::new(origin, dir), …)` for one triangle, with the
/// axis permutation as constants: the same operations on the same values in the same
/// order, so the same bits, but the shear and the permutation need no run-time indexes
/// (which spill the vectors to the stack when a ray meets one triangle only).
#[inline(always)]
fn ray_triangle_watertight_once(
    origin: Vec3,
    dir: Vec3,
    v: [Vec3; 3],
    t_min: f32,
    t_max: f32,
) -> Option<(f32, f32, f32)> {
    // WoopRay::new: kz is the largest |dir| component (the first of equal ones, as
    // `max_position`); kx, ky follow it and are swapped when dir[kz] < 0.
    let kz = dir.abs().max_position();
    match (kz, dir[kz] < 0.0) {
        (0, false) => woop_fixed::<1, 2, 0>(origin, dir, v, t_min, t_max),
        (0, true) => woop_fixed::<2, 1, 0>(origin, dir, v, t_min, t_max),
        (1, false) => woop_fixed::<2, 0, 1>(origin, dir, v, t_min, t_max),
        (1, true) => woop_fixed::<0, 2, 1>(origin, dir, v, t_min, t_max),
        (_, false) => woop_fixed::<0, 1, 2>(origin, dir, v, t_min, t_max),
        (_, true) => woop_fixed::<1, 0, 2>(origin, dir, v, t_min, t_max),
    }
}

/// The body of `ray_triangle_watertight` for the permutation `[KX, KY, KZ]`.
#[inline(always)]
fn woop_fixed<const KX: usize, const KY: usize, const KZ: usize>(
    origin: Vec3,
    dir: Vec3,
    [v0, v1, v2]: [Vec3; 3],
    t_min: f32,
    t_max: f32,
) -> Option<(f32, f32, f32)> {
    let (o, d) = (origin.to_array(), dir.to_array());
    let s = [d[KX] / d[KZ], d[KY] / d[KZ], 1.0 / d[KZ]];
    let rel = |p: Vec3| {
        let p = p.to_array();
        [p[0] - o[0], p[1] - o[1], p[2] - o[2]]
    };
    let (a, b, c) = (rel(v0), rel(v1), rel(v2));
    // Shear the vertices so the ray runs along +z from the origin.
    let (ax, ay) = (a[KX] - s[0] * a[KZ], a[KY] - s[1] * a[KZ]);
    let (bx, by) = (b[KX] - s[0] * b[KZ], b[KY] - s[1] * b[KZ]);
    let (cx, cy) = (c[KX] - s[0] * c[KZ], c[KY] - s[1] * c[KZ]);
    sheared_hit([ax, ay, bx, by, cx, cy], [a[KZ], b[KZ], c[KZ]], (s[2], d[KZ]), t_min, t_max)
        .map(|(t, u, v, _)| (t, u, v))
}

impl Triangle3 {
    /// How the ray meets the triangle: a hit with barycentrics, a miss, or the parallel
    /// and coplanar cases told apart.
    ///
    /// ```
    /// use raybox::{Ray3, RayTriangle, Triangle3};
    /// use glam::Vec3;
    ///
    /// let tri = Triangle3::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0));
    /// let ray = Ray3::new(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.0, 0.0, -1.0));
    /// let RayTriangle::Hit(hit) = tri.ray_intersection(&ray) else { panic!() };
    /// assert_eq!((hit.t, hit.u, hit.v, hit.w()), (3.0, 0.25, 0.5, 0.25));
    /// assert!(hit.front_facing);
    /// ```
    #[must_use]
    #[inline(always)]
    pub fn ray_intersection(&self, ray: &Ray3) -> RayTriangle {
        // The usual case: an f32 evaluation proves n·d != 0 and gives its sign, so the ray
        // is neither parallel nor coplanar and only the watertight test remains.
        let Some(n_dot_d_negative) = self.normal_dot_sign_f32(ray.dir()) else {
            return self.ray_intersection_f64(ray);
        };
        match ray_triangle_watertight_once(ray.origin(), ray.dir(), self.vertices(), ray.t_min(), ray.t_max())
        {
            Some((t, u, v)) => RayTriangle::Hit(TriangleHit { t, u, v, front_facing: n_dot_d_negative }),
            None => RayTriangle::Miss,
        }
    }

    /// `Some(n · dir < 0)` when an `f32` evaluation of `n · dir`, with
    /// `n = (v1 - v0) × (v2 - v0)`, is larger in magnitude than its error bound; `None`
    /// when it is too close to zero to tell (the caller then decides in `f64`).
    ///
    /// **Exactness.** Write `M = Σ_i |dir_i| (|e1_j e2_k| + |e1_k e2_j|)` for the cyclic
    /// `(i, j, k)` and `e1 = v1 - v0`, `e2 = v2 - v0`. Evaluated in any order (with or without
    /// FMA), the rounded `n · dir` is within `γ₇ M` of the exact value when nothing
    /// underflows (seven roundings along any path, `γ₇ < 2⁻²¹`; the rounded `e1`, `e2` count
    /// among them), and the `f64` evaluation in `ray_intersection_f64` is within `γ₇ M` for
    /// `u = 2⁻⁵³`. Gradual underflow adds at most `2⁻¹⁵⁰` per operation, amplified by
    /// `|dir|`: at most `(3 Σ|dir_i| + 5) 2⁻¹⁵⁰`. Rather than add that term (a subnormal
    /// product, which costs a microcode assist of a hundred cycles or more on x86 at every
    /// call: this is what made an earlier version of this filter 3x slower), the filter
    /// declines to decide when `|n · dir| <= 2⁻¹⁰⁰ (Σ|dir_i| + 1)`, which is at least
    /// `2⁻¹⁰⁰` (normal) and far above the underflow term. So when `|n · dir|` in `f32` is
    /// above `2⁻²⁰ M` and above that floor, the exact value and the `f64` value are both
    /// non-zero with the same sign: `ray_intersection_f64` would also not report
    /// `Parallel`/`Coplanar`, would run the same watertight test (bit for bit: see
    /// `ray_triangle_watertight_once`), and would set `front_facing` to the same value.
    /// Overflow gives an infinite `M` or a NaN, and a comparison with NaN or with an infinite
    /// bound is `false`: the `f64` path decides.
    #[inline(always)]
    fn normal_dot_sign_f32(&self, dir: Vec3) -> Option<bool> {
        let [a, b, c] = self.vertices().each(Vec3A::from);
        let (e1, e2, d) = (b - a, c - a, Vec3A::from(dir));
        let n_dot_d = e1.cross(e2).dot(d);
        // M = |d| · (|e1|.yzx |e2|.zxy + |e1|.zxy |e2|.yzx): the absolute terms of n · d.
        let (p, q) = (e1.abs(), e2.abs());
        let m = d.abs().dot(p.yzx() * q.zxy() + p.zxy() * q.yzx());
        let rel = 1.0 / (1u32 << 20) as f32;
        let floor = (d.abs().element_sum() + 1.0) * (1.0 / (1u128 << 100) as f32);
        (n_dot_d.abs() > m * rel && n_dot_d.abs() > floor).then_some(n_dot_d < 0.0)
    }

    /// The classification with `n · dir` in `f64`, for the rare rays that the `f32` filter
    /// of `ray_intersection` cannot decide.
    #[inline(never)]
    fn ray_intersection_f64(&self, ray: &Ray3) -> RayTriangle {
        let n = self.normal_f64();
        let n_dot_d = n.dot(ray.dir().as_dvec3());
        if n_dot_d == 0.0 {
            let gap = n.dot(ray.origin().as_dvec3() - self.vertices()[0].as_dvec3());
            return if gap == 0.0 {
                RayTriangle::Coplanar { span: self.coplanar_span(ray, n) }
            } else {
                RayTriangle::Parallel
            };
        }
        let woop = WoopRay::new(ray.origin(), ray.dir());
        match ray_triangle_watertight(&woop, self.vertices(), ray.t_min(), ray.t_max()) {
            Some((t, u, v)) => RayTriangle::Hit(TriangleHit { t, u, v, front_facing: n_dot_d < 0.0 }),
            None => RayTriangle::Miss,
        }
    }

    /// `(v1 - v0) × (v2 - v0)` in `f64` (`triangle_normal`: accurate at any scales).
    #[inline]
    fn normal_f64(&self) -> DVec3 {
        let [a, b, c] = self.vertices();
        crate::query::overlap::triangle_normal(a, b, c)
    }

    /// The span of a ray lying in the triangle's plane: drop the normal's largest axis and
    /// clip the 2D ray against the three edge half-planes (Cyrus–Beck), in `f64`.
    #[inline]
    fn coplanar_span(&self, ray: &Ray3, n: DVec3) -> Option<RaySpan> {
        let drop = n.abs().max_position();
        let flat = |p: DVec3| match drop {
            0 => DVec2::new(p.y, p.z),
            1 => DVec2::new(p.z, p.x),
            _ => DVec2::new(p.x, p.y),
        };
        let [a, b, c] = self.vertices().each(|p| flat(p.as_dvec3()));
        let (o, d) = (flat(ray.origin().as_dvec3()), flat(ray.dir().as_dvec3()));
        // The inside of each edge is where the 2D cross product has the triangle's orientation.
        let orient = (b - a).perp_dot(c - a).signum();
        let (mut lo, mut hi) = (f64::from(ray.t_min()), f64::from(ray.t_max()));
        for (p, q) in [(a, b), (b, c), (c, a)] {
            let e = q - p;
            // g(t) = orient * e × (o + t d - p) = c0 + t c1 >= 0
            let c0 = orient * e.perp_dot(o - p);
            let c1 = orient * e.perp_dot(d);
            if c1 == 0.0 {
                if c0 < 0.0 {
                    return None;
                }
            } else if c1 > 0.0 {
                lo = lo.max(-c0 / c1);
            } else {
                hi = hi.min(-c0 / c1);
            }
        }
        (lo <= hi).then_some(RaySpan { t_enter: lo as f32, t_exit: hi as f32 })
    }
}

impl RayCast for Triangle3 {
    type Ray = Ray3;
    type Hit = RayHit3;

    #[inline]
    fn ray_span(&self, ray: &Ray3) -> Option<RaySpan> {
        match self.ray_intersection(ray) {
            RayTriangle::Hit(h) => Some(RaySpan { t_enter: h.t, t_exit: h.t }),
            RayTriangle::Coplanar { span } => span,
            RayTriangle::Miss | RayTriangle::Parallel => None,
        }
    }

    #[inline]
    fn cast_ray(&self, ray: &Ray3) -> Option<RayHit3> {
        let (t, normal) = match self.ray_intersection(ray) {
            RayTriangle::Hit(h) => {
                let n = self.unit_normal();
                (h.t, if h.front_facing { n } else { -n })
            }
            // In the plane: no face of the triangle faces the ray.
            RayTriangle::Coplanar { span: Some(s) } => (s.t_enter, Vec3::ZERO),
            _ => return None,
        };
        let point = point_at(ray.origin().to_array(), ray.dir().to_array(), t);
        Some(RayHit3 { t, point: Vec3::from_array(point), normal })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri() -> Triangle3 {
        Triangle3::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0))
    }

    #[test]
    fn edges_and_vertices_are_hit() {
        let down = |x, y| Ray3::new(Vec3::new(x, y, 1.0), -Vec3::Z);
        for (x, y) in [(1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0), (2.0, 0.0), (0.0, 2.0)] {
            assert!(matches!(tri().ray_intersection(&down(x, y)), RayTriangle::Hit(_)), "{x} {y}");
        }
        assert_eq!(tri().ray_intersection(&down(1.0, 1.0 + f32::EPSILON)), RayTriangle::Miss);
    }

    #[test]
    fn shared_edge_is_watertight() {
        // Two triangles sharing the diagonal of a square; rays along a generic direction
        // through points of the diagonal must hit at least one.
        let (p, q, r, s) =
            (Vec3::ZERO, Vec3::new(1.0, 0.0, 0.1), Vec3::new(1.0, 1.0, 0.3), Vec3::new(0.0, 1.0, 0.2));
        let (t1, t2) = (Triangle3::new(p, q, r), Triangle3::new(p, r, s));
        let dir = Vec3::new(0.013, -0.021, -1.0);
        for i in 1..1000 {
            let on_edge = p + (r - p) * (i as f32 / 1000.0);
            let ray = Ray3::new(on_edge - 5.0 * dir, dir);
            let hits = [t1, t2].iter().filter(|t| t.ray_span(&ray).is_some()).count();
            assert!(hits >= 1, "ray {i} slipped through the shared edge");
        }
    }

    #[test]
    fn parallel_and_coplanar_are_told_apart() {
        let along = Ray3::new(Vec3::new(-1.0, 0.5, 0.0), Vec3::X);
        let RayTriangle::Coplanar { span: Some(span) } = tri().ray_intersection(&along) else {
            panic!("expected a coplanar span")
        };
        assert_eq!((span.t_enter, span.t_exit), (1.0, 2.5));
        let above = Ray3::new(Vec3::new(-1.0, 0.5, 1.0), Vec3::X);
        assert_eq!(tri().ray_intersection(&above), RayTriangle::Parallel);
        let beside = Ray3::new(Vec3::new(-1.0, 3.0, 0.0), Vec3::X);
        assert_eq!(tri().ray_intersection(&beside), RayTriangle::Coplanar { span: None });
    }

    #[test]
    fn back_faces_are_hit_with_the_normal_facing_the_ray() {
        let up = Ray3::new(Vec3::new(0.5, 0.5, -1.0), Vec3::Z);
        let hit = tri().cast_ray(&up).unwrap();
        assert_eq!((hit.t, hit.normal), (1.0, -Vec3::Z));
    }

    #[test]
    fn the_f32_filter_and_the_fixed_permutation_give_the_f64_path_answer() {
        // Rays exactly in the plane's direction, nearly so, and generic, at several scales
        // and in every octant: the fast path must report exactly (bit for bit) what the f64
        // classification followed by the `WoopRay` kernel reports.
        let mut next = crate::test_util::signed_units(0x2545_f491_u32);
        let mut fast_hits = 0;
        for scale in [1.0e-30_f32, 1.0e-3, 1.0, 1.0e6, 1.0e30] {
            for _ in 0..4000 {
                let mut v = || Vec3::new(next(), next(), next()) * scale;
                let (a, b, c, o) = (v(), v(), v(), v());
                let Ok(t) = Triangle3::try_new(a, b, c) else { continue };
                let n = (b - a).cross(c - a);
                let toward = (a + b + c) / 3.0 - o;
                let d = [(b - a), (b - a) + n * 1.0e-7, Vec3::new(next(), next(), next()), toward];
                for d in d {
                    let Ok(ray) = Ray3::try_new(o, d) else { continue };
                    let fast = t.ray_intersection(&ray);
                    assert_eq!(fast, t.ray_intersection_f64(&ray), "{t:?} {ray:?}");
                    fast_hits += usize::from(matches!(fast, RayTriangle::Hit(_)));
                }
                // A ray lying in the plane through a vertex.
                if let Ok(ray) = Ray3::try_new(a, c - b) {
                    assert_eq!(t.ray_intersection(&ray), t.ray_intersection_f64(&ray), "{t:?} {ray:?}");
                }
            }
        }
        assert!(fast_hits > 1000, "{fast_hits}");
    }
}
