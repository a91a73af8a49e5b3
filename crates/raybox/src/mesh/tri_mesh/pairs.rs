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

use glam::{Affine3A, DVec3};

use super::TriMesh;
use super::shapes::triangle_bounds;
use crate::bvh::{Bounds, ChildRef, WideNode};
use crate::{Overlaps, Triangle3};

/// How much a carried box is grown, relative to the sizes of the terms that make its
/// corners: far above the rounding of `f32`'s `M v + t` (a few `2^-24`).
const GROW: f64 = 1.0 / (1u64 << 20) as f64;

/// The pose as `f64` rows, for carrying boxes.
struct Placement {
    m: [DVec3; 3],
    t: DVec3,
}

impl Placement {
    fn new(pose: &Affine3A) -> Self {
        let c = pose.matrix3.transpose();
        Self {
            m: [c.x_axis.as_dvec3(), c.y_axis.as_dvec3(), c.z_axis.as_dvec3()],
            t: pose.translation.as_dvec3(),
        }
    }

    /// A box that holds `b` carried by the pose (every vertex inside `b`, mapped in `f32`).
    fn carry(&self, b: &Bounds) -> Carried {
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
struct Carried {
    lo: DVec3,
    hi: DVec3,
}

impl Carried {
    fn meets(&self, b: &Bounds) -> bool {
        (0..3).all(|k| f64::from(b.min[k]) <= self.hi[k] && self.lo[k] <= f64::from(b.max[k]))
    }

    fn half_area(&self) -> f64 {
        let d = self.hi - self.lo;
        d.x * d.y + d.y * d.z + d.z * d.x
    }
}

/// A pair of subtrees whose boxes overlap.
#[derive(Clone, Copy)]
struct Pair {
    a: ChildRef,
    a_box: Bounds,
    b: ChildRef,
    b_box: Carried,
}

impl TriMesh {
    /// Whether any triangle of this mesh overlaps any triangle of `other` placed by `pose`
    /// (closed: touching counts). `other`'s vertices are mapped into this mesh's frame by
    /// `pose.transform_point3` (rounded to `f32`, as you would map them yourself); each
    /// pair is then decided exactly. Degenerate (zero-area) triangles are skipped, in either
    /// mesh and after the mapping; a `pose` that is not finite overlaps nothing.
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
        self.pairs(other, pose, |_, _| {
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
        self.pairs(other, pose, |mine, theirs| {
            visit(mine, theirs);
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

    /// Calls `visit(mine, theirs)` on each overlapping pair until it returns `false`.
    fn pairs(&self, other: &TriMesh, pose: &Affine3A, mut visit: impl FnMut(u32, u32) -> bool) {
        if self.tree.is_empty() || other.tree.is_empty() || !pose.is_finite() {
            return;
        }
        let place = Placement::new(pose);
        let root = Pair {
            a: self.tree.root,
            a_box: self.tree.root_bounds(),
            b: other.tree.root,
            b_box: place.carry(&other.tree.root_bounds()),
        };
        if !root.b_box.meets(&root.a_box) {
            return;
        }
        // Depth-first; a pair opens one side, pushing at most 8 pairs, so the stack holds at
        // most 7 per level of both trees.
        let mut stack = Vec::with_capacity(64);
        stack.push(root);
        let mut theirs: Vec<(u32, Triangle3)> = Vec::with_capacity(16);
        while let Some(p) = stack.pop() {
            match (p.a.is_leaf(), p.b.is_leaf()) {
                (true, true) => {
                    let (first, count) = p.b.leaf_range();
                    theirs.clear();
                    theirs.extend(other.shape_triangles(first, count).filter_map(|(id, tri)| {
                        let [a, b, c] = tri.vertices().map(|v| pose.transform_point3(v));
                        let placed = Triangle3::try_new(a, b, c).ok()?;
                        p.a_box_meets(&triangle_bounds(&placed)).then_some((id, placed))
                    }));
                    if theirs.is_empty() {
                        continue;
                    }
                    let (first, count) = p.a.leaf_range();
                    for (mine, tri) in self.shape_triangles(first, count) {
                        let bounds = triangle_bounds(&tri);
                        for (id, placed) in &theirs {
                            if boxes_meet(&bounds, &triangle_bounds(placed))
                                && tri.overlaps(placed)
                                && !visit(mine, *id)
                            {
                                return;
                            }
                        }
                    }
                }
                (a_leaf, b_leaf) => {
                    let open_a = b_leaf || (!a_leaf && p.a_box.half_area_f64() >= p.b_box.half_area());
                    if open_a {
                        let node = &self.tree.nodes[p.a.index()];
                        for (child, bounds) in children(node) {
                            if p.b_box.meets(&bounds) {
                                stack.push(Pair { a: child, a_box: bounds, ..p });
                            }
                        }
                    } else {
                        let node = &other.tree.nodes[p.b.index()];
                        for (child, bounds) in children(node) {
                            let carried = place.carry(&bounds);
                            if carried.meets(&p.a_box) {
                                stack.push(Pair { b: child, b_box: carried, ..p });
                            }
                        }
                    }
                }
            }
        }
    }
}

impl Pair {
    fn a_box_meets(&self, b: &Bounds) -> bool {
        boxes_meet(&self.a_box, b)
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
