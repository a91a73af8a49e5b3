//! [`MeshInstances`] queried with a shape: which placed triangles a ball, a box, a capsule,
//! a segment, a triangle or a plane overlaps, their contacts, and where a shape moving in a
//! straight line first touches an instance.
//!
//! **Placed triangles.** Each triangle of an instance's mesh is placed in the world by the
//! instance's pose: every vertex mapped in `f64` and rounded to `f32` once, so within half
//! an `f32` ulp of its exact image. The queries answer for those triangles, each tested
//! with the exact pair test of `query/overlap`, `query/contact` or `query/sweep`, as
//! [`TriMesh`]'s shape queries do: the answers are those of placing every triangle of
//! every instance and testing each. A triangle whose placed vertices round to a zero-area
//! triangle, or overflow `f32`, is skipped, as the meshes skip their own degenerate ones.
//!
//! **The walk.** The top-level BVH is walked with the shape's box (grown, as
//! [`TriMesh`]'s walks grow it); every placed vertex lies in its instance's world box (grown
//! by far more than its rounding, see the module docs of `instances.rs`). For an instance it
//! reaches, the mesh's own BVH is walked in one of two frames ([`Frame`]):
//! - *the mesh's*, for a box reach and a pose whose condition number is below `2²⁴`: the
//!   shape's box, grown by the placed vertices' rounding (`2⁻²³` of the instance box's
//!   largest coordinate), is carried into the mesh's frame once (Arvo's box of the mapped
//!   box, `|A⁻¹| h` about `A⁻¹ (c - t)`, in `f64`, grown by a relative `2⁻²⁰` of the terms,
//!   far above the error of the `f64` inverse at that condition), and the node boxes are
//!   compared as they are, as fast as the mesh's own walk;
//! - *the world's*, for planes and for worse-conditioned poses: each node box is carried
//!   into the world (`|A| h` about `A c + t`, grown by a relative `2⁻²⁰`:
//!   `mesh/tri_mesh/pairs.rs`, which places a second mesh the same way). Every placed vertex
//!   lies in the carried box of any node above it.
//!
//! Either way no walk culls a triangle the pair test would keep. Sweeps carry the motion
//! too (`A⁻¹ m`, its error covered by growing the carried box by `2⁻²⁰` of `|A⁻¹| |m|`).

use crate::arrays::Each;
use glam::{DAffine3, DVec3, Vec3};

use super::{MeshInstances, Placement};
use crate::bvh::Bounds;
use crate::mesh::tri_mesh::{PoseBoxes, Reach, vertex_bounds};
use crate::query::closest::closest_point_on_triangle;
use crate::{Aabb3, Contact3, MeshQuery, Overlaps, Sweep, SweepHit3, Triangle3};

/// How a walk of an instance's mesh tests its node boxes (see the module docs).
enum Frame<'r> {
    /// The query's box in the mesh's frame, and the motion carried there.
    Mesh { reach: Reach, motion: DVec3 },
    /// Each node box carried into the world.
    World { boxes: PoseBoxes, reach: &'r Reach, motion: DVec3 },
}

impl<'r> Frame<'r> {
    /// The frame for walking instance `placement` (whose world box is `world_box`) with
    /// `reach` moving by `motion` (zero for an overlap).
    fn new(placement: &Placement, world_box: &Aabb3, reach: &'r Reach, motion: DVec3) -> Self {
        let world = Self::World { boxes: PoseBoxes::new(&placement.pose), reach, motion };
        let Reach::Box(lo, hi) = *reach else { return world };
        if !placement.well_conditioned {
            return world;
        }
        // The placed vertices' rounding: half an f32 ulp of the largest coordinate.
        let p = world_box.min().abs().max(world_box.max().abs()).max_element();
        let rounding = f64::from(p) / f64::from(1u32 << 23) + f64::from(f32::MIN_POSITIVE);
        let (c, h) = ((lo + hi) * 0.5, (hi - lo) * 0.5 + rounding);
        let inverse = placement.to_local;
        let t = placement.pose.translation.as_dvec3();
        let centre = inverse.transform_point3(c);
        let rows = inverse.matrix3.transpose();
        let terms = c.abs() + h + t.abs() + motion.abs();
        let mut reach_lo = DVec3::ZERO;
        let mut reach_hi = DVec3::ZERO;
        for (k, row) in [rows.x_axis, rows.y_axis, rows.z_axis].into_iter().enumerate() {
            let half = row.abs().dot(h);
            let slack = row.abs().dot(terms) / f64::from(1u32 << 20) + f64::from(f32::MIN_POSITIVE);
            reach_lo[k] = centre[k] - half - slack;
            reach_hi[k] = centre[k] + half + slack;
        }
        if !(reach_lo.is_finite() && reach_hi.is_finite()) {
            return world;
        }
        Self::Mesh { reach: Reach::Box(reach_lo, reach_hi), motion: inverse.transform_vector3(motion) }
    }

    /// Whether a triangle inside the node box `b` (in the mesh's frame) may, placed, touch
    /// the query.
    fn touches(&self, b: &Bounds) -> bool {
        match self {
            Self::Mesh { reach, .. } => reach.touches(b),
            Self::World { boxes, reach, .. } => {
                let c = boxes.carry(b);
                reach.touches_box(c.lo, c.hi)
            }
        }
    }

    /// The earliest time at which the moving query may touch a placed triangle inside the
    /// node box `b` (in the mesh's frame); `inf` when it never does.
    fn entry(&self, b: &Bounds) -> f32 {
        match self {
            Self::Mesh { reach, motion } => reach.entry(b.min.as_dvec3(), b.max.as_dvec3(), *motion),
            Self::World { boxes, reach, motion } => {
                let c = boxes.carry(b);
                reach.entry(c.lo, c.hi, *motion)
            }
        }
    }
}

/// Where and when a shape moving among [`MeshInstances`] first touches one
/// ([`MeshInstances::sweep`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InstanceSweepHit {
    /// The fraction of the motion at the first contact, in `[0, 1]`.
    pub t: f32,
    /// Where the shape touches the placed triangle at time `t`, in the world.
    pub point: Vec3,
    /// Unit normal at the contact, from the placed triangle toward the moving shape (for a
    /// shape that overlaps an instance at `t = 0`, the direction that separates it from
    /// that triangle).
    pub normal: Vec3,
    /// The instance touched (of those touched at `t`, the lowest index).
    pub instance: u32,
    /// The triangle touched, in the instance's mesh (of that instance's triangles touched
    /// at `t`, the lowest index).
    pub triangle: u32,
}

/// What an overlap walk does after a triangle it reports.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Go on to the next triangle.
    Triangle,
    /// Leave this instance's mesh, go on to the next instance.
    Instance,
    /// Stop the walk.
    Stop,
}

/// The triangle `vertices` placed by `pose`: each vertex mapped in `f64` and rounded once;
/// `None` when its box fails `keep`, or the rounded vertices are no triangle (zero area, or
/// a coordinate past `f32::MAX`). The box is tested first: it costs less than the check for
/// zero area.
fn place(pose: &DAffine3, vertices: [Vec3; 3], keep: impl FnOnce(&Bounds) -> bool) -> Option<Triangle3> {
    let [a, b, c] = vertices.each(|v| pose.transform_point3(v.as_dvec3()).as_vec3());
    if !keep(&vertex_bounds([a, b, c])) {
        return None;
    }
    Triangle3::try_new(a, b, c).ok()
}

impl MeshInstances {
    /// Whether any instance's placed triangle overlaps `shape` (closed: touching counts).
    /// See the module docs for how triangles are placed.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use glam::{Affine3A, Vec3};
    /// use raybox::{Aabb3, MeshInstances, Sphere, TriMesh, mesh};
    ///
    /// // A unit ball (an icosphere) placed twice: at the origin and at x = 10, doubled.
    /// let ball = Arc::new(TriMesh::from_data(mesh::scene::icosphere(3)).unwrap());
    /// let world = MeshInstances::new([
    ///     (ball.clone(), Affine3A::IDENTITY),
    ///     (ball, Affine3A::from_scale_rotation_translation(Vec3::splat(2.0), Default::default(), Vec3::X * 10.0)),
    /// ])
    /// .unwrap();
    /// assert!(world.overlaps(&Sphere::new(Vec3::new(7.5, 0.0, 0.0), 0.6))); // reaches x = 8.1
    /// assert!(!world.overlaps(&Sphere::new(Vec3::new(7.5, 0.0, 0.0), 0.4)));
    /// // Inside the first ball but touching no triangle: the meshes are surfaces.
    /// assert!(!world.overlaps(&Aabb3::new(Vec3::splat(-0.1), Vec3::splat(0.1))));
    /// ```
    #[must_use]
    pub fn overlaps<S: MeshQuery + Overlaps<Triangle3>>(&self, shape: &S) -> bool {
        let mut found = false;
        self.overlapping(shape, |_, _, _| {
            found = true;
            Next::Stop
        });
        found
    }

    /// Calls `visit(instance, triangle)` for every placed triangle that overlaps `shape`
    /// (closed), in no particular order.
    pub fn for_each_overlapping<S: MeshQuery + Overlaps<Triangle3>>(
        &self,
        shape: &S,
        mut visit: impl FnMut(u32, u32),
    ) {
        self.overlapping(shape, |instance, triangle, _| {
            visit(instance, triangle);
            Next::Triangle
        });
    }

    /// The `(instance, triangle)` pairs whose placed triangle overlaps `shape` (closed), in
    /// increasing order.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use glam::{Affine3A, Vec3};
    /// use raybox::{Aabb3, MeshInstances, TriMesh};
    ///
    /// // One floor tile (two triangles), laid three times along x.
    /// let tile = Arc::new(
    ///     TriMesh::new(
    ///         vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z],
    ///         vec![[0, 2, 1], [0, 3, 2]],
    ///     )
    ///     .unwrap(),
    /// );
    /// let world = MeshInstances::new((0..3).map(|i| (tile.clone(), Affine3A::from_translation(Vec3::X * i as f32)))).unwrap();
    /// // A box resting on the floor across the seam between tiles 1 and 2, near z = 0.
    /// let crate_box = Aabb3::new(Vec3::new(1.8, 0.0, 0.1), Vec3::new(2.2, 1.0, 0.2));
    /// assert_eq!(world.overlapping_triangles(&crate_box), [(1, 0), (2, 0), (2, 1)]);
    /// assert_eq!(world.overlapping_instances(&crate_box), [1, 2]);
    /// ```
    #[must_use]
    pub fn overlapping_triangles<S: MeshQuery + Overlaps<Triangle3>>(&self, shape: &S) -> Vec<(u32, u32)> {
        let mut found = Vec::new();
        self.for_each_overlapping(shape, |i, t| found.push((i, t)));
        found.sort_unstable();
        found
    }

    /// The instances with a placed triangle that overlaps `shape` (closed), in increasing
    /// order: "which objects touch this box". Each instance's walk stops at its first such
    /// triangle.
    #[must_use]
    pub fn overlapping_instances<S: MeshQuery + Overlaps<Triangle3>>(&self, shape: &S) -> Vec<u32> {
        let mut found = Vec::new();
        self.overlapping(shape, |i, _, _| {
            found.push(i);
            Next::Instance
        });
        found.sort_unstable();
        found
    }

    /// Calls `visit(instance, triangle, contact)` for every placed triangle that overlaps
    /// `shape` (closed), in no particular order, with the triangle's
    /// [`Contact`](crate::Contact) with the shape: its `normal` points from the triangle
    /// toward the shape, and moving the shape by `normal * depth` leaves it only touching
    /// that triangle (as [`TriMesh::for_each_contact`](crate::TriMesh::for_each_contact)).
    pub fn for_each_contact<S>(&self, shape: &S, mut visit: impl FnMut(u32, u32, Contact3))
    where
        S: MeshQuery + Overlaps<Triangle3>,
        Triangle3: crate::Contact<S, Output = Contact3>,
    {
        // `overlapping` runs the exact overlap test; the contact is `Some` exactly then.
        self.overlapping(shape, |instance, triangle, placed| {
            if let Some(c) = crate::Contact::contact(placed, shape) {
                visit(instance, triangle, c);
            }
            Next::Triangle
        });
    }

    /// The first contact of `shape`, moved by `t * motion` for `t` in `[0, 1]`, with any
    /// instance's placed triangle: a sphere, box or capsule cast among the instances.
    /// `None` when it touches none (or `motion` is not finite). A shape that already
    /// overlaps an instance gives `t = 0`. Each triangle's contact is [`Sweep`]'s for the
    /// pair, as in [`TriMesh::sweep`](crate::TriMesh::sweep); of triangles touched at the
    /// same `t`, the lowest instance, then the lowest triangle, wins.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use glam::{Affine3A, Mat3, Vec3};
    /// use raybox::{MeshInstances, Sphere, TriMesh};
    ///
    /// // A floor triangle, and a copy of it turned a quarter about z (x to y, y to -x): a
    /// // wall facing -x at x = 5.
    /// let floor = Arc::new(
    ///     TriMesh::new(
    ///         vec![Vec3::new(-5.0, 0.0, -5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(0.0, 0.0, 5.0)],
    ///         vec![[0, 2, 1]],
    ///     )
    ///     .unwrap(),
    /// );
    /// let wall = Affine3A::from_mat3_translation(Mat3::from_cols(Vec3::Y, Vec3::NEG_X, Vec3::Z), Vec3::X * 5.0);
    /// let world = MeshInstances::new([(floor.clone(), Affine3A::IDENTITY), (floor, wall)]).unwrap();
    ///
    /// let ball = Sphere::new(Vec3::new(0.0, 2.0, 0.0), 1.0);
    /// let hit = world.sweep(&ball, Vec3::new(8.0, 0.0, 0.0)).unwrap();
    /// assert_eq!((hit.instance, hit.t, hit.normal), (1, 0.5, Vec3::NEG_X)); // at x = 4
    /// let hit = world.sweep(&ball, Vec3::new(0.0, -4.0, 0.0)).unwrap();
    /// assert_eq!((hit.instance, hit.t, hit.point), (0, 0.25, Vec3::ZERO));
    /// ```
    #[doc(alias = "sphere_cast")]
    #[doc(alias = "shape_cast")]
    #[must_use]
    pub fn sweep<S>(&self, shape: &S, motion: Vec3) -> Option<InstanceSweepHit>
    where
        S: MeshQuery + Sweep<Triangle3, Motion = Vec3, Hit = SweepHit3>,
    {
        if !motion.is_finite() {
            return None;
        }
        let m = motion.as_dvec3();
        let reach = shape.reach();
        let bounds_entry = |b: &Bounds| reach.entry(b.min.as_dvec3(), b.max.as_dvec3(), m);
        // The first placed triangle by time alone (ties to the lower instance, then
        // triangle); its point and normal once the walk is done.
        let mut best: Option<(f32, u32, u32, Triangle3)> = None;
        let mut instance = |i: u32, bound: f32| {
            let (mesh, placement) = (&self.meshes[i as usize], &self.placements[i as usize]);
            let frame = Frame::new(placement, &self.boxes[i as usize], &reach, m);
            let world = placement.pose.as_daffine3();
            let mut found = None;
            let mut enter = |b: &Bounds| frame.entry(b);
            let mut leaf = |first: usize, count: usize, bound: f32| {
                let mut in_leaf = None;
                for (id, vertices) in mesh.leaf_vertices(first, count) {
                    let limit = best.map_or(bound, |b| b.0.min(bound));
                    if frame.entry(&vertex_bounds(vertices)) > limit {
                        continue;
                    }
                    // The triangles the mesh skips (zero area in its own frame) are skipped.
                    if Triangle3::try_new(vertices[0], vertices[1], vertices[2]).is_err() {
                        continue;
                    }
                    let Some(placed) = place(&world, vertices, |b| bounds_entry(b) <= limit) else {
                        continue;
                    };
                    let Some(t) = shape.sweep_time(motion, &placed, limit) else { continue };
                    let wins = best.is_none_or(|(bt, bi, bid, _)| t < bt || (t == bt && (i, id) < (bi, bid)));
                    if wins && t <= bound {
                        best = Some((t, i, id, placed));
                        in_leaf = Some(t);
                    }
                }
                if in_leaf.is_some() {
                    found = in_leaf;
                }
                in_leaf
            };
            mesh.walk_nearest(bound, &mut enter, &mut leaf);
            found
        };
        self.bvh.best_first(1.0, &mut |b| bounds_entry(b), &mut instance);
        let (t, instance, triangle, placed) = best?;
        let hit = shape.sweep(motion, &placed)?;
        debug_assert_eq!(hit.t, t, "sweep_time and sweep disagree");
        Some(InstanceSweepHit { t: hit.t, point: hit.point, normal: hit.normal, instance, triangle })
    }

    /// The distance from `point` to the nearest placed triangle of any instance (0 on the
    /// surface; the meshes are surfaces, so a point inside a closed mesh is at the distance
    /// of its nearest triangle). `None` when there is no triangle.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use glam::{Affine3A, Vec3};
    /// use raybox::{MeshInstances, TriMesh};
    ///
    /// let tile = Arc::new(TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Z], vec![[0, 2, 1]]).unwrap());
    /// // The tile, and a copy stretched 10x along x and raised to y = 3.
    /// let raised = Affine3A::from_scale_rotation_translation(Vec3::new(10.0, 1.0, 1.0), Default::default(), Vec3::Y * 3.0);
    /// let world = MeshInstances::new([(tile.clone(), Affine3A::IDENTITY), (tile, raised)]).unwrap();
    /// assert_eq!(world.distance_to_point(Vec3::new(0.2, -2.0, 0.2)), Some(2.0));
    /// assert_eq!(world.distance_to_point(Vec3::new(6.0, 4.0, 0.0)), Some(1.0)); // above the copy
    /// ```
    #[must_use]
    pub fn distance_to_point(&self, point: Vec3) -> Option<f32> {
        let p = point.as_dvec3();
        let box_distance = |lo: DVec3, hi: DVec3| (lo - p).max(p - hi).max(DVec3::ZERO).length() as f32;
        // Whether a triangle was reached (a distance past `f32::MAX` rounds to `inf`).
        let mut reached = false;
        let mut instance = |i: u32, bound: f32| {
            let (mesh, placement) = (&self.meshes[i as usize], &self.placements[i as usize]);
            let (world, boxes) = (placement.pose.as_daffine3(), PoseBoxes::new(&placement.pose));
            // Distances do not survive a non-uniform scale: the node boxes are carried into
            // the world, where each holds its placed triangles.
            let mut enter = |b: &Bounds| {
                let c = boxes.carry(b);
                box_distance(c.lo, c.hi)
            };
            let mut nearest: Option<f32> = None;
            let mut leaf = |first: usize, count: usize, best: f32| {
                let mut found: Option<f32> = None;
                for (_, vertices) in mesh.leaf_vertices(first, count) {
                    let Some(placed) = place(&world, vertices, |_| true) else { continue };
                    reached = true;
                    let q = closest_point_on_triangle(p, placed.vertices().each(Vec3::as_dvec3));
                    let d = p.distance(q) as f32;
                    if d <= found.unwrap_or(best) {
                        found = Some(d);
                    }
                }
                if found.is_some() {
                    nearest = found;
                }
                found
            };
            mesh.walk_nearest(bound, &mut enter, &mut leaf);
            nearest
        };
        let d = self.bvh.best_first(
            f32::INFINITY,
            &mut |b| box_distance(b.min.as_dvec3(), b.max.as_dvec3()),
            &mut instance,
        );
        reached.then_some(d)
    }

    /// Calls `visit(instance, triangle, placed)` on each placed triangle that overlaps
    /// `shape`, going on as `visit` says.
    fn overlapping<S: MeshQuery + Overlaps<Triangle3>>(
        &self,
        shape: &S,
        mut visit: impl FnMut(u32, u32, &Triangle3) -> Next,
    ) {
        let reach: Reach = shape.reach();
        let stopped = core::cell::Cell::new(false);
        let mut instance = |i: u32| {
            if stopped.get() {
                return;
            }
            let (mesh, placement) = (&self.meshes[i as usize], &self.placements[i as usize]);
            let frame = Frame::new(placement, &self.boxes[i as usize], &reach, DVec3::ZERO);
            let world = placement.pose.as_daffine3();
            mesh.walk_boxes(
                |b| frame.touches(b),
                |id, tri| {
                    let Some(placed) = place(&world, tri.vertices(), |b| reach.touches(b)) else {
                        return true;
                    };
                    if !shape.overlaps(&placed) {
                        return true;
                    }
                    match visit(i, id, &placed) {
                        Next::Triangle => true,
                        Next::Instance => false,
                        Next::Stop => {
                            stopped.set(true);
                            false
                        }
                    }
                },
            );
        };
        self.bvh.visit(&mut |b| !stopped.get() && reach.touches(b), &mut instance);
    }
}
