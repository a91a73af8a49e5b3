//! A [`TriMesh`] queried with a shape instead of a ray: which triangles a ball, a box or a
//! capsule overlaps, and where a shape moving in a straight line first touches the mesh
//! (a "sphere cast" or "shape cast").
//!
//! Both walk the mesh's BVH with the shape's bounding box (grown by a relative `2^-20`, so
//! that no rounding of the box can cull a triangle the exact test would keep; a plane,
//! which has no box, culls the node boxes it does not cross) and run the exact pair test
//! of `query/overlap` or `query/sweep` on each triangle of the leaves they reach: the
//! answers are those of testing every triangle, triangle by triangle.

use crate::arrays::Each;
use glam::{DVec3, Vec3};

use super::TriMesh;
use crate::bvh::{Bounds, traverse};
use crate::{Aabb3, Capsule3, Obb3, Overlaps, Plane, Segment3, Sphere, Sweep, SweepHit3, Triangle3};

mod sealed {
    pub trait Sealed {}
}

/// A shape that a [`TriMesh`] can be queried with ([`TriMesh::overlaps`],
/// [`TriMesh::for_each_overlapping`], [`TriMesh::for_each_contact`], [`TriMesh::sweep`]):
/// [`Sphere`], [`Aabb3`], [`Obb3`], [`Capsule3`], [`Triangle3`], [`Segment3`] and [`Plane`],
/// for each pair test with [`Triangle3`] that the shape has (all of them).
///
/// Sealed: the walk needs bounds it can trust.
pub trait MeshQuery: sealed::Sealed {
    /// Which node boxes the walk must open for the shape.
    #[doc(hidden)]
    fn reach(&self) -> Reach;

    /// The `t` of the shape's [`Sweep`] against `tri`, bit for bit, where it comes cheaper
    /// without the point and normal; a `t` past `limit` may be `None` instead (`None` for
    /// shapes that do not sweep).
    #[doc(hidden)]
    fn sweep_time(&self, motion: Vec3, tri: &Triangle3, limit: f32) -> Option<f32>;
}

impl sealed::Sealed for Sphere {}
impl MeshQuery for Sphere {
    fn reach(&self) -> Reach {
        let (c, r) = (self.center().as_dvec3(), f64::from(self.radius()));
        Reach::around(c - r, c + r)
    }
    fn sweep_time(&self, motion: Vec3, tri: &Triangle3, _: f32) -> Option<f32> {
        crate::query::sweep::sphere_triangle_time(self, motion, tri)
    }
}

impl sealed::Sealed for Capsule3 {}
impl MeshQuery for Capsule3 {
    fn reach(&self) -> Reach {
        let (a, b, r) = (self.start().as_dvec3(), self.end().as_dvec3(), f64::from(self.radius()));
        Reach::around(a.min(b) - r, a.max(b) + r)
    }
    fn sweep_time(&self, motion: Vec3, tri: &Triangle3, _: f32) -> Option<f32> {
        crate::query::sweep::capsule_triangle_time(self, motion, tri)
    }
}

impl sealed::Sealed for Aabb3 {}
impl MeshQuery for Aabb3 {
    fn reach(&self) -> Reach {
        Reach::around(self.min().as_dvec3(), self.max().as_dvec3())
    }
    fn sweep_time(&self, motion: Vec3, tri: &Triangle3, limit: f32) -> Option<f32> {
        crate::query::sweep::box_triangle_time(self, motion, tri, limit)
    }
}

impl sealed::Sealed for Obb3 {}
impl MeshQuery for Obb3 {
    fn reach(&self) -> Reach {
        // `|R| h` about the centre (Arvo 1990), in `f64`.
        let (r, h) = (self.rotation(), self.half_extents().as_dvec3());
        let reach = r.x_axis.abs().as_dvec3() * h.x
            + r.y_axis.abs().as_dvec3() * h.y
            + r.z_axis.abs().as_dvec3() * h.z;
        let c = self.center().as_dvec3();
        Reach::around(c - reach, c + reach)
    }
    fn sweep_time(&self, motion: Vec3, tri: &Triangle3, limit: f32) -> Option<f32> {
        crate::query::sweep::box_triangle_time(self, motion, tri, limit)
    }
}

impl sealed::Sealed for Triangle3 {}
impl MeshQuery for Triangle3 {
    fn reach(&self) -> Reach {
        let [a, b, c] = self.vertices().each(Vec3::as_dvec3);
        Reach::around(a.min(b).min(c), a.max(b).max(c))
    }
    fn sweep_time(&self, motion: Vec3, tri: &Triangle3, _: f32) -> Option<f32> {
        self.sweep(motion, tri).map(|h| h.t)
    }
}

impl sealed::Sealed for Plane {}
impl MeshQuery for Plane {
    fn reach(&self) -> Reach {
        Reach::Plane(*self)
    }
    fn sweep_time(&self, motion: Vec3, tri: &Triangle3, _: f32) -> Option<f32> {
        self.sweep(motion, tri).map(|h| h.t)
    }
}

impl sealed::Sealed for Segment3 {}
impl MeshQuery for Segment3 {
    fn reach(&self) -> Reach {
        let (a, b) = (self.start().as_dvec3(), self.end().as_dvec3());
        Reach::around(a.min(b), a.max(b))
    }
    fn sweep_time(&self, motion: Vec3, tri: &Triangle3, _: f32) -> Option<f32> {
        self.sweep(motion, tri).map(|h| h.t)
    }
}

/// Where and when a shape moving against a [`TriMesh`] first touches it
/// ([`TriMesh::sweep`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeshSweepHit {
    /// The fraction of the motion at the first contact, in `[0, 1]`.
    pub t: f32,
    /// Where the shape touches the mesh at time `t`.
    pub point: Vec3,
    /// Unit normal at the contact, from the mesh toward the moving shape (for a shape that
    /// overlaps the mesh at `t = 0`, the direction that separates it from `triangle`).
    pub normal: Vec3,
    /// The index of the triangle touched (the lowest index of those touched at `t`).
    pub triangle: u32,
}

/// How much the walk grows a query box, relative to its coordinates: far above the rounding
/// of an `Obb3`'s `f32` rotation against its exact one (a few `2^-24`) and of the `f64` box
/// tests (`2^-52`), and far below anything that costs visits.
const GROW: f64 = 1.0 / (1u64 << 20) as f64;

/// The shape's box `[lo, hi]`, grown so that it holds the exact shape (see [`GROW`]).
fn grown(lo: DVec3, hi: DVec3) -> (DVec3, DVec3) {
    let slack = (lo.abs() + hi.abs()) * GROW + f64::from(f32::MIN_POSITIVE);
    (lo - slack, hi + slack)
}

/// Where a query shape can reach: the node boxes a walk must open for it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Reach {
    /// Inside a box, as `[lo, hi]` in `f64`, grown so that it holds the exact shape.
    Box(DVec3, DVec3),
    /// On a plane, which has no box.
    Plane(Plane),
}

impl Reach {
    /// The box `[lo, hi]`, computed in `f64` from the shape (not through `to_aabb`, which
    /// panics where a shape's box reaches past `f32::MAX`), grown.
    fn around(lo: DVec3, hi: DVec3) -> Self {
        let (lo, hi) = grown(lo, hi);
        Self::Box(lo, hi)
    }

    /// Whether a triangle inside `b` may touch the shape.
    #[inline]
    pub(crate) fn touches(&self, b: &Bounds) -> bool {
        self.touches_box(b.min.as_dvec3(), b.max.as_dvec3())
    }

    /// Whether a triangle inside the box `[min, max]` may touch the shape.
    #[inline]
    pub(crate) fn touches_box(&self, min: DVec3, max: DVec3) -> bool {
        match self {
            Self::Box(lo, hi) => (0..3).all(|k| min[k] <= hi[k] && lo[k] <= max[k]),
            Self::Plane(plane) => {
                let (low, high) = plane_span(min, max, plane);
                low <= 0.0 && high >= 0.0
            }
        }
    }

    /// The earliest `t` in `[0, 1]` at which the shape moved by `t m` can meet a triangle
    /// inside the box `[min, max]`, rounded down to `f32`; `inf` when it never does.
    pub(crate) fn entry(&self, min: DVec3, max: DVec3, m: DVec3) -> f32 {
        match self {
            Self::Box(lo, hi) => box_entry(min, max, *lo, *hi, m),
            Self::Plane(plane) => plane_entry(min, max, plane, m),
        }
    }
}

/// The span of `n·x - offset` over the box `[min, max]`, widened by `2^-40` of the terms'
/// size: the box's corners least and farthest along the normal. A vertex inside the box
/// evaluates between them, in `f64` up to a few roundings of the terms' size, far below
/// the slack.
fn plane_span(min: DVec3, max: DVec3, plane: &Plane) -> (f64, f64) {
    let n = plane.normal().as_dvec3();
    let low = DVec3::select(n.cmpge(DVec3::ZERO), min, max);
    let high = DVec3::select(n.cmpge(DVec3::ZERO), max, min);
    let size = n.abs().dot(min.abs().max(max.abs())) + f64::from(plane.offset()).abs();
    let slack = size * (1.0 / (1u64 << 40) as f64);
    (plane.eval(low) - slack, plane.eval(high) + slack)
}

impl TriMesh {
    /// Whether any triangle of the mesh overlaps `shape` (closed: touching counts).
    /// Degenerate (zero-area) triangles are skipped, as for ray casts.
    ///
    /// ```
    /// use raybox::{Capsule3, Sphere, TriMesh, mesh};
    /// use glam::Vec3;
    ///
    /// let bunny = TriMesh::from_data(mesh::bunny()).unwrap();
    /// let b = bunny.bounds().unwrap();
    /// assert!(bunny.overlaps(&Sphere::new(b.center(), 0.5 * b.half_extents().max_element())));
    /// assert!(!bunny.overlaps(&Sphere::new(b.max() + Vec3::ONE, 0.5)));
    /// let pole = Capsule3::new(b.min() - Vec3::ONE, b.max() + Vec3::ONE, 0.1);
    /// assert!(bunny.overlaps(&pole));
    /// ```
    #[must_use]
    pub fn overlaps<S: MeshQuery + Overlaps<Triangle3>>(&self, shape: &S) -> bool {
        let mut found = false;
        self.overlapping(shape, |_, _| {
            found = true;
            false
        });
        found
    }

    /// Calls `visit(triangle)` for every triangle that overlaps `shape` (closed), in no
    /// particular order. Degenerate (zero-area) triangles are skipped.
    ///
    /// ```
    /// use raybox::{Sphere, TriMesh};
    /// use glam::Vec3;
    ///
    /// let floor = TriMesh::new(
    ///     vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z],
    ///     vec![[0, 2, 1], [0, 3, 2]],
    /// )
    /// .unwrap();
    /// let mut touched = Vec::new();
    /// floor.for_each_overlapping(&Sphere::new(Vec3::new(0.9, 0.5, 0.2), 0.5), |t| touched.push(t));
    /// assert_eq!(touched, [0]); // resting on the first triangle only
    /// ```
    pub fn for_each_overlapping<S: MeshQuery + Overlaps<Triangle3>>(
        &self,
        shape: &S,
        mut visit: impl FnMut(u32),
    ) {
        self.overlapping(shape, |id, _| {
            visit(id);
            true
        });
    }

    /// The triangles that overlap `shape` (closed), in increasing order.
    ///
    /// ```
    /// use raybox::{Aabb3, TriMesh, mesh};
    /// use glam::Vec3;
    ///
    /// let bunny = TriMesh::from_data(mesh::bunny()).unwrap();
    /// let all = bunny.bounds().unwrap();
    /// let found = bunny.overlapping_triangles(&all);
    /// assert_eq!(found.len(), bunny.triangle_count() - bunny.degenerate_count());
    /// ```
    #[must_use]
    pub fn overlapping_triangles<S: MeshQuery + Overlaps<Triangle3>>(&self, shape: &S) -> Vec<u32> {
        let mut found = Vec::new();
        self.for_each_overlapping(shape, |id| found.push(id));
        found.sort_unstable();
        found
    }

    /// Calls `visit(triangle, contact)` for every triangle that overlaps `shape` (closed),
    /// in no particular order, with the triangle's [`Contact`](crate::Contact) with the
    /// shape: its `normal` points from the triangle toward the shape, and moving the shape
    /// by `normal * depth` leaves it only touching that triangle. (Resolving a shape that
    /// overlaps several triangles takes their contacts together, as a character
    /// controller does; each is exact on its own.) Degenerate triangles are skipped.
    ///
    /// ```
    /// use raybox::{Sphere, TriMesh, Triangle3};
    /// use glam::Vec3;
    ///
    /// let floor = TriMesh::new(
    ///     vec![Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(0.0, 0.0, 5.0)],
    ///     vec![[0, 2, 1]],
    /// )
    /// .unwrap();
    /// let mut pushes = Vec::new();
    /// floor.for_each_contact(&Sphere::new(Vec3::new(0.0, 0.75, 0.0), 1.0), |t, c| pushes.push((t, c.normal * c.depth)));
    /// assert_eq!(pushes, [(0, Vec3::new(0.0, 0.25, 0.0))]); // up by 0.25 to rest on it
    ///
    /// // A triangle (another mesh's face, say) poking 0.5 through the floor: up by 0.5.
    /// let blade = Triangle3::new(Vec3::new(0.0, -0.5, 0.0), Vec3::new(1.0, 2.0, 0.0), Vec3::new(-1.0, 2.0, 0.0));
    /// pushes.clear();
    /// floor.for_each_contact(&blade, |t, c| pushes.push((t, c.normal * c.depth)));
    /// assert_eq!(pushes, [(0, Vec3::new(0.0, 0.5, 0.0))]);
    /// ```
    pub fn for_each_contact<S>(&self, shape: &S, mut visit: impl FnMut(u32, crate::Contact3))
    where
        S: MeshQuery + Overlaps<Triangle3>,
        Triangle3: crate::Contact<S, Output = crate::Contact3>,
    {
        // `overlapping` runs the exact overlap test; the contact is `Some` exactly then.
        self.overlapping(shape, |id, tri| {
            if let Some(c) = crate::Contact::contact(tri, shape) {
                visit(id, c);
            }
            true
        });
    }

    /// The first contact of `shape`, moved by `t * motion` for `t` in `[0, 1]`, with the
    /// mesh: a sphere cast, box cast or capsule cast. `None` when it touches no triangle
    /// (or `motion` is not finite). A shape that already overlaps the mesh gives `t = 0`
    /// and the normal that separates it from the lowest-indexed triangle it overlaps.
    /// Degenerate (zero-area) triangles are skipped.
    ///
    /// Each triangle's contact is [`Sweep`]'s for the pair (`Sphere`, `Aabb3`, `Obb3`,
    /// `Capsule3`, `Segment3` or `Triangle3` against [`Triangle3`]); of triangles touched at
    /// the same `t`, the lowest index wins. A moving [`Plane`] first touches the mesh where
    /// its nearest vertex ahead is.
    ///
    /// ```
    /// use raybox::{Sphere, TriMesh};
    /// use glam::Vec3;
    ///
    /// let floor = TriMesh::new(
    ///     vec![Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(0.0, 0.0, 5.0)],
    ///     vec![[0, 2, 1]],
    /// )
    /// .unwrap();
    /// let ball = Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.0);
    /// let hit = floor.sweep(&ball, Vec3::new(0.0, -4.0, 0.0)).unwrap();
    /// assert_eq!((hit.t, hit.point, hit.normal, hit.triangle), (0.5, Vec3::ZERO, Vec3::Y, 0));
    /// assert!(floor.sweep(&ball, Vec3::new(0.0, 1.0, 0.0)).is_none()); // moving away
    /// ```
    #[doc(alias = "sphere_cast")]
    #[doc(alias = "shape_cast")]
    #[must_use]
    pub fn sweep<S>(&self, shape: &S, motion: Vec3) -> Option<MeshSweepHit>
    where
        S: MeshQuery + Sweep<Triangle3, Motion = Vec3, Hit = SweepHit3>,
    {
        if self.tree.is_empty() || !motion.is_finite() {
            return None;
        }
        let m = motion.as_dvec3();
        let reach = shape.reach();
        // The earliest time the shape can meet a box (a node's, or a triangle's).
        let entry = |b: &Bounds| reach.entry(b.min.as_dvec3(), b.max.as_dvec3(), m);
        // The first triangle by time alone; its point and normal once the walk is done.
        let mut best: Option<(f32, u32, Triangle3)> = None;
        let mut enter = |b: &Bounds| entry(b);
        let mut leaf = |first: usize, count: usize, bound: f32| {
            let mut found = None;
            for (id, tri) in self.shape_triangles(first, count) {
                // The triangle's own box first: the pair sweeps iterate in `f64`.
                let limit = best.map_or(bound, |b| b.0.min(bound));
                if entry(&triangle_bounds(&tri)) > limit {
                    continue;
                }
                let Some(t) = shape.sweep_time(motion, &tri, limit) else { continue };
                let wins = best.is_none_or(|(bt, bid, _)| t < bt || (t == bt && id < bid));
                if wins && t <= bound {
                    best = Some((t, id, tri));
                    found = Some(t);
                }
            }
            found
        };
        self.walk_nearest(1.0, &mut enter, &mut leaf);
        let (t, triangle, tri) = best?;
        let hit = shape.sweep(motion, &tri)?;
        debug_assert_eq!(hit.t, t, "sweep_time and sweep disagree");
        Some(MeshSweepHit { t: hit.t, point: hit.point, normal: hit.normal, triangle })
    }

    /// Calls `visit(index, triangle)` on each triangle that overlaps `shape` until it
    /// returns `false`.
    fn overlapping<S: MeshQuery + Overlaps<Triangle3>>(
        &self,
        shape: &S,
        mut visit: impl FnMut(u32, &Triangle3) -> bool,
    ) {
        let reach = shape.reach();
        self.walk_boxes(
            |b| reach.touches(b),
            |id, tri| {
                if shape.overlaps(tri) {
                    return visit(id, tri);
                }
                true
            },
        );
    }

    /// Calls `visit(index, triangle)` on each (non-degenerate) triangle whose own box, and
    /// every node box above it, pass `test`, until `visit` returns `false`. (The triangle's
    /// box is tested before it is made a [`Triangle3`], whose check for zero area costs more.)
    pub(crate) fn walk_boxes(
        &self,
        test: impl Fn(&Bounds) -> bool,
        mut visit: impl FnMut(u32, &Triangle3) -> bool,
    ) {
        if self.tree.is_empty() {
            return;
        }
        let going = core::cell::Cell::new(true);
        let mut node_test = |b: &Bounds| going.get() && test(b);
        let mut leaf = |first: usize, count: usize| {
            for (id, [a, b, c]) in self.leaf_vertices(first, count) {
                if !going.get() || !test(&vertex_bounds([a, b, c])) {
                    continue;
                }
                if let Ok(tri) = Triangle3::try_new(a, b, c) {
                    going.set(visit(id, &tri));
                }
            }
        };
        traverse::visit_boxes(
            &self.tree.nodes,
            self.tree.root,
            &self.tree.root_bounds(),
            &mut node_test,
            &mut leaf,
        );
    }

    /// Best first over the leaves (`traverse::nearest`): `enter` bounds from below the time
    /// at which anything inside a box can be met, `leaf(first, count, best)` returns a time
    /// at most `best` if a triangle of the leaf has one. `None` for a mesh with no triangle.
    pub(crate) fn walk_nearest(
        &self,
        limit: f32,
        enter: &mut impl FnMut(&Bounds) -> f32,
        leaf: &mut impl FnMut(usize, usize, f32) -> Option<f32>,
    ) -> Option<f32> {
        if self.tree.is_empty() {
            return None;
        }
        Some(traverse::nearest(&self.tree.nodes, self.tree.root, limit, enter, leaf))
    }

    /// The triangles of a leaf's blocks, with their indices, as vertices.
    pub(crate) fn leaf_vertices(
        &self,
        first: usize,
        count: usize,
    ) -> impl Iterator<Item = (u32, [Vec3; 3])> + '_ {
        self.blocks[first..first + count]
            .iter()
            .flat_map(|block| block.lanes().map(|lane| (block.ids[lane], block.triangle(lane))))
    }

    /// The triangles of a leaf's blocks, with their indices, as [`Triangle3`] values.
    pub(crate) fn shape_triangles(
        &self,
        first: usize,
        count: usize,
    ) -> impl Iterator<Item = (u32, Triangle3)> + '_ {
        self.blocks[first..first + count].iter().flat_map(|block| {
            block.lanes().filter_map(|lane| {
                let [a, b, c] = block.triangle(lane);
                Triangle3::try_new(a, b, c).ok().map(|tri| (block.ids[lane], tri))
            })
        })
    }
}

/// A triangle's box (exact: its vertices' least and greatest coordinates).
pub(crate) fn triangle_bounds(tri: &Triangle3) -> Bounds {
    vertex_bounds(tri.vertices())
}

/// The box of three vertices (exact).
pub(crate) fn vertex_bounds([a, b, c]: [Vec3; 3]) -> Bounds {
    Bounds::from_arrays(a.min(b).min(c).to_array(), a.max(b).max(c).to_array())
}

/// The earliest `t` in `[0, 1]` at which the plane moved by `t m` can meet the node box
/// `[min, max]`, rounded down to `f32`; `inf` when it never does. The box spans `[lo, hi]`
/// in `n·x - offset` ([`plane_span`]); the moved plane is `n·x - offset = t (n·m)`, which
/// meets it for `t (n·m)` in that span.
fn plane_entry(min: DVec3, max: DVec3, plane: &Plane, m: DVec3) -> f32 {
    let (lo, hi) = plane_span(min, max, plane);
    let speed = plane.normal().as_dvec3().dot(m);
    let (enter, exit) = if speed == 0.0 {
        if lo > 0.0 || hi < 0.0 {
            return f32::INFINITY;
        }
        (0.0, 1.0)
    } else {
        let (a, c) = (lo / speed, hi / speed);
        let (a, c) = if speed > 0.0 { (a, c) } else { (c, a) };
        (a.max(0.0), c.min(1.0))
    };
    if enter > exit {
        return f32::INFINITY;
    }
    let t = enter as f32;
    if f64::from(t) > enter { t.next_down() } else { t }
}

/// The earliest `t` in `[0, 1]` at which the grown box `[lo, hi]` moved by `t m` can meet
/// the node box `[min, max]`, rounded down to `f32`; `inf` when it never does. Each axis
/// bounds `t m_k` to `[min - hi, max - lo]`, widened by `2^-40` of the node's coordinates
/// (the `f64` subtraction and division round by less), so the result is at most the time
/// of any contact with a triangle inside the node box.
fn box_entry(min: DVec3, max: DVec3, lo: DVec3, hi: DVec3, m: DVec3) -> f32 {
    const NODE_SLACK: f64 = 1.0 / (1u64 << 40) as f64;
    let (mut enter, mut exit) = (0.0f64, 1.0f64);
    for k in 0..3 {
        let (b_min, b_max) = (min[k], max[k]);
        let slack = (b_min.abs() + b_max.abs()) * NODE_SLACK;
        let (near, far) = (b_min - hi[k] - slack, b_max - lo[k] + slack);
        if m[k] == 0.0 {
            if near > 0.0 || far < 0.0 {
                return f32::INFINITY;
            }
            continue;
        }
        let (a, c) = (near / m[k], far / m[k]);
        let (a, c) = if m[k] > 0.0 { (a, c) } else { (c, a) };
        enter = enter.max(a);
        exit = exit.min(c);
    }
    if enter > exit {
        return f32::INFINITY;
    }
    let t = enter as f32;
    if f64::from(t) > enter { t.next_down() } else { t }
}
