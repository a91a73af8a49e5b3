//! Two triangle meshes against each other: which triangles of one overlap which of the
//! other, the second placed in the first's frame by an affine map (its pose).
//!
//! Both BVHs are walked together (a "simultaneous descent", Ericson, *Real-Time Collision
//! Detection*, 6.5): a pair of nodes whose boxes overlap is split on the side with the larger
//! box, until two leaves meet and their triangles are tested pair by pair with the exact
//! triangle–triangle test (`query/overlap/triangle_triangle.rs`). The second mesh's boxes are
//! carried into the first's frame as the boxes of the mapped boxes (`|M| h` about `M c + t`,
//! Arvo's method, in `f64`) and grown by a relative `2^-20` of the terms that make them, so
//! that they hold every vertex as `f32` arithmetic maps it: no pair the exact test would keep
//! is culled, and the answers are those of testing every pair of triangles.
//!
//! The distance walks the same pairs depth first, the nearer child pairs first, and leaves a
//! pair whose boxes are farther apart than the best distance so far. No walk allocates: the
//! pairs wait on a stack kept inline for any tree the builders make (`PairStack`).

use crate::arrays::Each;
use glam::{Affine3A, DVec3, Vec3};
use smallvec::SmallVec;

use super::TriMesh;
use super::shapes::triangle_bounds;
use crate::bvh::{Bounds, ChildRef, WideNode};
use crate::{Distance, Overlaps, Triangle3};

/// How much a carried box is grown, relative to the sizes of the terms that make its
/// corners: far above the rounding of `f32`'s `M v + t` (a few `2^-24`).
const GROW: f64 = 1.0 / (1u64 << 20) as f64;

/// The pose as `f64` rows, for carrying boxes.
pub(crate) struct PoseBoxes {
    m: [DVec3; 3],
    t: DVec3,
}

impl PoseBoxes {
    pub(crate) fn new(pose: &Affine3A) -> Self {
        let c = pose.matrix3.transpose();
        Self {
            m: [c.x_axis.as_dvec3(), c.y_axis.as_dvec3(), c.z_axis.as_dvec3()],
            t: pose.translation.as_dvec3(),
        }
    }

    /// A box that holds `b` carried by the pose (every vertex inside `b`, mapped in `f32`).
    pub(crate) fn carry(&self, b: &Bounds) -> Carried {
        let (min, max) = (b.min.as_dvec3(), b.max.as_dvec3());
        let (c, h) = ((min + max) * 0.5, (max - min) * 0.5);
        let reach = c.abs() + h;
        let mut lo = DVec3::ZERO;
        let mut hi = DVec3::ZERO;
        for k in 0..3 {
            let row = self.m[k];
            let center = row.dot(c) + self.t[k];
            let half = row.abs().dot(h);
            let slack = (row.abs().dot(reach) + self.t[k].abs()) * GROW + f64::from(f32::MIN_POSITIVE);
            lo[k] = center - half - slack;
            hi[k] = center + half + slack;
        }
        Carried { lo, hi }
    }
}

/// A box of the second mesh, carried into the first's frame.
#[derive(Clone, Copy)]
pub(crate) struct Carried {
    pub(crate) lo: DVec3,
    pub(crate) hi: DVec3,
}

impl Carried {
    /// A lower bound of the distance between anything in `self` and anything in `b`.
    fn distance(&self, b: &Bounds) -> f64 {
        let (min, max) = (b.min.as_dvec3(), b.max.as_dvec3());
        let gap = (self.lo - max).max(min - self.hi).max(DVec3::ZERO);
        gap.length()
    }

    fn meets(&self, b: &Bounds) -> bool {
        (0..3).all(|k| f64::from(b.min[k]) <= self.hi[k] && self.lo[k] <= f64::from(b.max[k]))
    }

    fn half_area(&self) -> f64 {
        let d = self.hi - self.lo;
        d.x * d.y + d.y * d.z + d.z * d.x
    }
}

/// A pair of subtrees whose boxes overlap (or, for the distance, might be near enough).
#[derive(Clone, Copy)]
struct Pair {
    a: ChildRef,
    b: ChildRef,
    a_box: Bounds,
    b_box: Carried,
    /// The distance between the boxes (a lower bound; the distance walk's order; the
    /// overlap walk leaves it unset).
    gap: f64,
}

/// Pairs waiting to be opened. A pair opens one side, pushing at most 8 pairs, so the stack
/// holds at most `7 (depth_a + depth_b) + 1`: 256 covers two trees of depth 18, deeper than
/// the builders make for any mesh they accept (the bunny's is 4, a 1M-triangle terrain's
/// 8); deeper trees spill to the heap.
type PairStack = SmallVec<[Pair; 256]>;

/// A leaf of the second mesh, its triangles mapped by the pose, with their boxes (inline for
/// the builders' leaves of up to 2 blocks; larger ones, which only hand-made data can hold,
/// spill to the heap).
type PlacedLeaf = SmallVec<[(u32, Triangle3, Bounds); 16]>;

/// The two meshes, the pose, and the walk's steps shared by the overlap and distance walks.
struct Walk<'m> {
    mine: &'m TriMesh,
    other: &'m TriMesh,
    pose: &'m Affine3A,
    place: PoseBoxes,
}

impl<'m> Walk<'m> {
    /// `None` when a mesh has no tree or the pose is not finite.
    fn new(mine: &'m TriMesh, other: &'m TriMesh, pose: &'m Affine3A) -> Option<Self> {
        if mine.tree.is_empty() || other.tree.is_empty() || !pose.is_finite() {
            return None;
        }
        Some(Self { mine, other, pose, place: PoseBoxes::new(pose) })
    }

    fn root(&self) -> Pair {
        let a_box = self.mine.tree.root_bounds();
        let b_box = self.place.carry(&self.other.tree.root_bounds());
        Pair { a: self.mine.tree.root, b: self.other.tree.root, a_box, b_box, gap: b_box.distance(&a_box) }
    }

    /// Calls `push` with each child pair of `p` (neither side a leaf, or one), its `gap`
    /// not yet computed: the side with the larger box opens (compared in `f64`: `f32` areas
    /// overflow past `1e19`).
    fn open(&self, p: &Pair, mut push: impl FnMut(Pair)) {
        let open_a = p.b.is_leaf() || (!p.a.is_leaf() && p.a_box.half_area_f64() >= p.b_box.half_area());
        if open_a {
            for (a, a_box) in children(&self.mine.tree.nodes[p.a.index()]) {
                push(Pair { a, a_box, ..*p });
            }
        } else {
            for (b, bounds) in children(&self.other.tree.nodes[p.b.index()]) {
                push(Pair { b, b_box: self.place.carry(&bounds), ..*p });
            }
        }
    }

    /// Fills `out` with the triangles of the second mesh's leaf `b` mapped by the pose
    /// (those still triangles), each with its box, keeping those whose box passes `keep`.
    fn place_leaf(&self, b: ChildRef, keep: impl Fn(&Bounds) -> bool, out: &mut PlacedLeaf) {
        let (first, count) = b.leaf_range();
        out.clear();
        out.extend(self.other.shape_triangles(first, count).filter_map(|(id, tri)| {
            let [a, b, c] = tri.vertices().each(|v| self.pose.transform_point3(v));
            let placed = Triangle3::try_new(a, b, c).ok()?;
            let bounds = triangle_bounds(&placed);
            keep(&bounds).then_some((id, placed, bounds))
        }));
    }
}

/// The closest triangles of two meshes ([`TriMesh::closest_points_to_mesh`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeshPairDistance {
    /// The distance between the meshes (0 when they touch).
    pub distance: f32,
    /// The index of the closest triangle of the mesh queried.
    pub mine: u32,
    /// The index of the closest triangle of the other mesh.
    pub theirs: u32,
    /// The closest point on `mine`.
    pub point_mine: Vec3,
    /// The closest point on `theirs`, placed by the pose: in the queried mesh's frame.
    pub point_theirs: Vec3,
}

impl TriMesh {
    /// Whether any triangle of this mesh overlaps any triangle of `other` placed by `pose`
    /// (closed: touching counts). `other`'s vertices are mapped into this mesh's frame by
    /// `pose.transform_point3` (rounded to `f32`); each pair is then decided exactly.
    ///
    /// Skipped: triangles that are degenerate (zero-area) in either mesh as built, and
    /// triangles of `other` that the mapping makes degenerate or not finite (a vertex past
    /// `f32::MAX`). A `pose` that is not finite overlaps nothing. (So a triangle of `other`
    /// that is degenerate before the mapping is skipped even where the mapping, rounded,
    /// would give it an area: it is not in `other`'s BVH.)
    ///
    /// ```
    /// use raybox::{TriMesh, mesh};
    /// use glam::{Affine3A, Vec3};
    ///
    /// let bunny = TriMesh::from_data(mesh::bunny()).unwrap();
    /// let size = bunny.bounds().unwrap().half_extents().max_element();
    /// let shifted = |x: f32| Affine3A::from_translation(Vec3::new(x * size, 0.0, 0.0));
    /// assert!(bunny.overlaps_mesh(&bunny, &shifted(0.5))); // two bunnies, half a size apart
    /// assert!(!bunny.overlaps_mesh(&bunny, &shifted(3.0)));
    /// ```
    #[must_use]
    pub fn overlaps_mesh(&self, other: &TriMesh, pose: &Affine3A) -> bool {
        let mut found = false;
        self.pairs(other, pose, |_, _, _, _| {
            found = true;
            false
        });
        found
    }

    /// Calls `visit(mine, theirs)` for every pair of a triangle of this mesh and a triangle
    /// of `other` (placed by `pose`, as in [`Self::overlaps_mesh`]) that overlap, in no
    /// particular order: the triangles' indices in each mesh.
    ///
    /// ```
    /// use raybox::TriMesh;
    /// use glam::{Affine3A, Quat, Vec3};
    ///
    /// // A unit square on the floor (triangle 0 where x >= z, 1 where x <= z), and the same
    /// // square stood up across it, along z = 0.25 (its triangle 0 where x >= 0.5 on the floor).
    /// let square =
    ///     TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z], vec![[0, 2, 1], [0, 3, 2]])
    ///         .unwrap();
    /// let stood = Affine3A::from_rotation_translation(
    ///     Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
    ///     Vec3::new(0.0, -0.5, 0.25),
    /// );
    /// let mut pairs = Vec::new();
    /// square.for_each_overlapping_pair(&square, &stood, |mine, theirs| pairs.push((mine, theirs)));
    /// pairs.sort();
    /// assert_eq!(pairs, [(0, 0), (0, 1), (1, 1)]); // not (1, 0): x <= 0.25 meets x >= 0.5 nowhere
    /// ```
    pub fn for_each_overlapping_pair(
        &self,
        other: &TriMesh,
        pose: &Affine3A,
        mut visit: impl FnMut(u32, u32),
    ) {
        self.pairs(other, pose, |mine, theirs, _, _| {
            visit(mine, theirs);
            true
        });
    }

    /// Calls `visit(mine, theirs, contact)` for every pair of overlapping triangles of this
    /// mesh and of `other` placed by `pose` (as in [`Self::overlaps_mesh`]), in no particular
    /// order, with the pair's [`Contact`](crate::Contact) (`Triangle3` against `Triangle3`):
    /// its `normal` points from `mine` toward `theirs`, and moving `theirs` by
    /// `normal * depth` leaves the two only touching. Each pair's contact is exact on its own;
    /// resolving two meshes takes the pairs' contacts together, as a physics step does.
    ///
    /// ```
    /// use raybox::TriMesh;
    /// use glam::{Affine3A, Vec3};
    ///
    /// // A floor triangle, and the same triangle tilted up by 45 degrees about its edge on
    /// // the x axis, then lowered by 0.25: it pokes through the floor.
    /// let floor = TriMesh::new(vec![Vec3::ZERO, Vec3::X * 4.0, Vec3::Z * 4.0], vec![[0, 2, 1]]).unwrap();
    /// let tilted = Affine3A::from_translation(Vec3::new(0.0, -0.25, 1.0))
    ///     * Affine3A::from_rotation_x(-std::f32::consts::FRAC_PI_4);
    /// let mut contacts = Vec::new();
    /// floor.for_each_contact_pair(&floor, &tilted, |mine, theirs, c| contacts.push((mine, theirs, c)));
    /// let (_, _, c) = contacts[0];
    /// assert_eq!(contacts.len(), 1);
    /// assert!(c.normal.y > 0.9 && (c.depth - 0.25).abs() < 1e-6); // pushed up out of the floor
    /// ```
    pub fn for_each_contact_pair(
        &self,
        other: &TriMesh,
        pose: &Affine3A,
        mut visit: impl FnMut(u32, u32, crate::Contact3),
    ) {
        self.pairs(other, pose, |mine, theirs, tri, placed| {
            // `pairs` runs the exact overlap test; the contact is `Some` exactly then.
            if let Some(c) = crate::Contact::contact(tri, placed) {
                visit(mine, theirs, c);
            }
            true
        });
    }

    /// The pairs `(mine, theirs)` of overlapping triangles of this mesh and of `other`
    /// placed by `pose` (as in [`Self::overlaps_mesh`]), sorted.
    ///
    /// ```
    /// use raybox::{TriMesh, mesh};
    /// use glam::{Affine3A, Quat, Vec3};
    ///
    /// let bunny = TriMesh::from_data(mesh::bunny()).unwrap();
    /// let turned = Affine3A::from_rotation_translation(Quat::from_rotation_y(0.5), Vec3::new(0.01, 0.0, 0.0));
    /// let pairs = bunny.overlapping_pairs(&bunny, &turned);
    /// assert!(!pairs.is_empty());
    /// assert!(pairs.windows(2).all(|w| w[0] < w[1]));
    /// ```
    #[must_use]
    pub fn overlapping_pairs(&self, other: &TriMesh, pose: &Affine3A) -> Vec<(u32, u32)> {
        let mut found = Vec::new();
        self.for_each_overlapping_pair(other, pose, |mine, theirs| found.push((mine, theirs)));
        found.sort_unstable();
        found
    }

    /// The distance between this mesh and `other` placed by `pose` (as in
    /// [`Self::overlaps_mesh`]): the least distance of a triangle of one to a triangle of the
    /// other, 0 when they touch. `None` when either mesh has no triangle (or `pose` is not
    /// finite).
    ///
    /// ```
    /// use raybox::{TriMesh, mesh};
    /// use glam::{Affine3A, Vec3};
    ///
    /// let bunny = TriMesh::from_data(mesh::bunny()).unwrap();
    /// let b = bunny.bounds().unwrap();
    /// let beside = Affine3A::from_translation(Vec3::new(b.max().x - b.min().x + 0.25, 0.0, 0.0));
    /// let d = bunny.distance_to_mesh(&bunny, &beside).unwrap();
    /// assert!(d >= 0.25); // at least the gap between their boxes (about 1.15 here)
    /// assert_eq!(bunny.distance_to_mesh(&bunny, &Affine3A::IDENTITY), Some(0.0));
    /// ```
    #[must_use]
    pub fn distance_to_mesh(&self, other: &TriMesh, pose: &Affine3A) -> Option<f32> {
        self.closest_points_to_mesh(other, pose, f32::INFINITY).map(|c| c.distance)
    }

    /// The closest pair of triangles of this mesh and of `other` placed by `pose` (as in
    /// [`Self::overlaps_mesh`]), with their closest points, if the meshes are at most
    /// `max_distance` apart (`f32::INFINITY` for any distance): `None` otherwise, or when
    /// either mesh has no triangle or `pose` is not finite.
    ///
    /// Each pair's distance is [`Distance`]'s for two [`Triangle3`]s (GJK in `f64`, zero
    /// exactly when the triangles overlap). Of pairs equally close, the lowest `(mine,
    /// theirs)` wins, except at distance 0, where the first touching pair found ends the
    /// search.
    ///
    /// ```
    /// use raybox::TriMesh;
    /// use glam::{Affine3A, Vec3};
    ///
    /// let floor = TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Z], vec![[0, 2, 1]]).unwrap();
    /// let above = Affine3A::from_translation(Vec3::new(0.0, 2.0, 0.0));
    /// let c = floor.closest_points_to_mesh(&floor, &above, f32::INFINITY).unwrap();
    /// assert_eq!((c.distance, c.mine, c.theirs), (2.0, 0, 0));
    /// assert_eq!(c.point_theirs - c.point_mine, Vec3::new(0.0, 2.0, 0.0));
    /// assert!(floor.closest_points_to_mesh(&floor, &above, 1.5).is_none()); // farther than 1.5
    /// ```
    #[must_use]
    pub fn closest_points_to_mesh(
        &self,
        other: &TriMesh,
        pose: &Affine3A,
        max_distance: f32,
    ) -> Option<MeshPairDistance> {
        if max_distance.is_nan() {
            return None;
        }
        let walk = Walk::new(self, other, pose)?;
        // The boxes' distances are lower bounds of the exact distances, which GJK gives to
        // within `f32` rounding and its own tolerance, either way: a pair of boxes is left
        // only when its bound is past the best distance by more than that.
        let past = |gap: f64, limit: f32| gap > f64::from(limit) * (1.0 + 1.0 / f64::from(1u32 << 16));
        // The best pair so far: its distance, its indices and its two triangles.
        let mut best: Option<(f32, (u32, u32), Triangle3, Triangle3)> = None;
        let mut limit = max_distance;
        let mut stack = PairStack::new();
        stack.push(walk.root());
        let mut theirs = PlacedLeaf::new();
        while let Some(p) = stack.pop() {
            if past(p.gap, limit) {
                continue;
            }
            if !(p.a.is_leaf() && p.b.is_leaf()) {
                // The nearer pairs are pushed last, to be opened first.
                let mut near: SmallVec<[Pair; 8]> = SmallVec::new();
                walk.open(&p, |mut q| {
                    q.gap = q.b_box.distance(&q.a_box);
                    if !past(q.gap, limit) {
                        near.push(q);
                    }
                });
                near.sort_unstable_by(|x, y| y.gap.total_cmp(&x.gap));
                stack.extend(near);
                continue;
            }
            walk.place_leaf(p.b, |_| true, &mut theirs);
            let (first, count) = p.a.leaf_range();
            for (mine, tri) in self.shape_triangles(first, count) {
                let bounds = triangle_bounds(&tri);
                for &(id, placed, placed_box) in &theirs {
                    if past(exact(&placed_box).distance(&bounds), limit) {
                        continue;
                    }
                    let d = tri.distance(&placed);
                    let wins = match best {
                        None => d <= limit,
                        Some((bd, ids, ..)) => d < bd || (d == bd && (mine, id) < ids),
                    };
                    if wins {
                        best = Some((d, (mine, id), tri, placed));
                        limit = d;
                        if d == 0.0 {
                            stack.clear();
                        }
                    }
                }
            }
        }
        let (distance, (mine, theirs), tri, placed) = best?;
        let (point_mine, point_theirs) = tri.closest_points(&placed);
        Some(MeshPairDistance { distance, mine, theirs, point_mine, point_theirs })
    }

    /// Calls `visit(mine, theirs, mine's triangle, theirs placed)` on each overlapping pair
    /// until it returns `false`.
    fn pairs(
        &self,
        other: &TriMesh,
        pose: &Affine3A,
        mut visit: impl FnMut(u32, u32, &Triangle3, &Triangle3) -> bool,
    ) {
        let Some(walk) = Walk::new(self, other, pose) else { return };
        let root = walk.root();
        if !root.b_box.meets(&root.a_box) {
            return;
        }
        let mut stack = PairStack::new();
        stack.push(root);
        let mut theirs = PlacedLeaf::new();
        while let Some(p) = stack.pop() {
            if !(p.a.is_leaf() && p.b.is_leaf()) {
                walk.open(&p, |q| {
                    if q.b_box.meets(&q.a_box) {
                        stack.push(q);
                    }
                });
                continue;
            }
            walk.place_leaf(p.b, |b| boxes_meet(&p.a_box, b), &mut theirs);
            if theirs.is_empty() {
                continue;
            }
            let (first, count) = p.a.leaf_range();
            for (mine, tri) in self.shape_triangles(first, count) {
                let bounds = triangle_bounds(&tri);
                for (id, placed, placed_box) in &theirs {
                    if boxes_meet(&bounds, placed_box)
                        && tri.overlaps(placed)
                        && !visit(mine, *id, &tri, placed)
                    {
                        return;
                    }
                }
            }
        }
    }
}

/// The children of a wide node, with their boxes.
fn children(node: &WideNode) -> impl Iterator<Item = (ChildRef, Bounds)> + '_ {
    (0..8)
        .filter(|&lane| node.children[lane] != ChildRef::EMPTY)
        .map(|lane| (node.children[lane], node.child_bounds(lane)))
}

fn boxes_meet(a: &Bounds, b: &Bounds) -> bool {
    a.min.cmple(b.max).all() && b.min.cmple(a.max).all()
}

/// A box of the first mesh's frame as a carried one (exact).
fn exact(b: &Bounds) -> Carried {
    Carried { lo: b.min.as_dvec3(), hi: b.max.as_dvec3() }
}
