//! Many meshes placed in one world: [`MeshInstances`], instances of shared [`TriMesh`]es,
//! each with a pose.
//!
//! A two-level hierarchy, as in Embree's instancing: a [`Bvh`] over the instances' boxes in
//! the world, and below each instance its mesh's own BVH, in the mesh's frame. A ray that
//! may enter an instance's box is carried into the mesh's frame by the inverse of the pose
//! and cast there. An affine map keeps the ray's parameter: the point `o + t d` maps to
//! `A⁻¹(o) + t A⁻¹(d)`, so the `t` the mesh reports is the world ray's `t`, whatever the
//! rotation, scale or shear.
//!
//! **Precision.** The inverse pose is computed in `f64` from the `f32` pose, and the carried
//! origin and direction are rounded to `f32` once: the mesh is cast with a ray within
//! half an `f32` ulp of the exact carried ray, so a hit is what the mesh's own exact,
//! watertight test says for that ray. Against the world geometry (the mesh's vertices
//! mapped exactly by the pose), that is a relative error of about `2⁻²⁴` times the pose's
//! condition number, in the coordinates and along the distance travelled: a ray that
//! grazes an instance within that may be found or not, and `t` carries that error. An
//! instance's box is its mesh's box mapped by the pose in `f64` and grown by
//! `2⁻¹² (s + P) + 2⁻²⁰ ‖A‖ m` (`s` the box's size, `P` its largest coordinate magnitude,
//! `A` the pose's linear part, `‖A‖` its ∞-norm, `m` the largest coordinate magnitude of
//! the mesh's own box), so that the walk does not cull an instance the carried ray hits.
//! At a hit's `t` the carried ray's point is in the mesh's box, so its origin is within
//! `m + |t d'|` of the mesh's frame's origin, and the rounding of the carried origin and
//! direction (`2⁻²⁴` each, relative) moves the world point by at most about
//! `2⁻²⁴ (‖A‖ m + 2 κ |t d|)` (`κ` the pose's condition number): the margin covers the
//! first term (a mesh modelled far from its own origin, placed back near the world's)
//! sixteen times over, and the second for hits within `2¹¹ (s + P) / κ` of the ray's
//! origin (two hundred box sizes for `κ` up to 10). Farther out, a hit grazing the box
//! within that much may be missed.
//! Normals are carried back by the inverse transpose of the pose's linear part (in `f64`),
//! so a mirroring pose keeps an outward normal outward, and `front_facing` is the same in
//! both frames.
//!
//! Shape queries (overlaps, contacts, sweeps) place the triangles in the world instead of
//! carrying the shape (a ball under a non-uniform scale is no ball): see `instances/shapes.rs`.

use crate::arrays::Each;
use std::sync::Arc;

use glam::{Affine3A, DAffine3, DMat3, DVec3, Vec3};

use crate::mesh::tri_mesh::in_chunks;
use crate::query::overlap::orient3d;
use crate::query::ray::point_at;
use crate::{Aabb3, BuildBvhError, BuildQuality, Bvh, FirstHit, Ray3, TriMesh};

#[cfg(feature = "serde")]
mod saved;
mod shapes;
pub use shapes::InstanceSweepHit;

/// The closest hit of a ray on [`MeshInstances`], in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InstanceHit {
    /// The instance hit (its index in the list the set was built from).
    pub instance: u32,
    /// The ray parameter of the hit (the world ray's: poses keep it).
    pub t: f32,
    /// The index of the triangle hit, in the instance's mesh.
    pub triangle: u32,
    /// Barycentric weight of the triangle's second vertex (`P = w v0 + u v1 + v v2`).
    pub u: f32,
    /// Barycentric weight of the triangle's third vertex.
    pub v: f32,
    /// The triangle's unit normal in the world: the mesh's geometric normal carried by the
    /// inverse transpose of the pose, so it stays on the mesh's front side (outward for a
    /// closed, outward-wound mesh) whatever the pose. A mirroring pose reverses the
    /// winding of the placed triangle, whose own right-hand normal is then the opposite.
    pub normal: Vec3,
    /// `true` when the ray arrives from the front (`dir · normal < 0`).
    pub front_facing: bool,
    /// The point hit, on the world ray.
    pub point: Vec3,
}

/// Why a [`MeshInstances`] cannot be built or moved.
#[derive(Clone, Debug, PartialEq)]
pub enum InstanceError {
    /// A pose with a NaN or infinite entry.
    NonFinitePose {
        /// The instance's index.
        instance: usize,
    },
    /// A pose whose linear part is singular (a zero scale, a flattening shear: decided
    /// exactly, by the determinant's sign computed without rounding), or so nearly that its
    /// inverse, computed in `f64`, is not finite.
    SingularPose {
        /// The instance's index.
        instance: usize,
    },
    /// `set_poses` named an instance that does not exist.
    NoSuchInstance {
        /// The index given.
        instance: usize,
        /// How many instances there are.
        count: usize,
    },
    /// The top-level BVH could not be built (too many instances).
    Build(BuildBvhError),
}

impl core::fmt::Display for InstanceError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::NonFinitePose { instance } => {
                write!(f, "instance {instance}: the pose has a NaN or infinite entry")
            }
            Self::SingularPose { instance } => {
                write!(
                    f,
                    "instance {instance}: the pose cannot be inverted (a zero scale or a flattening shear)"
                )
            }
            Self::NoSuchInstance { instance, count } => {
                write!(f, "no instance {instance}: there are {count}")
            }
            Self::Build(e) => write!(f, "building the instances' BVH: {e}"),
        }
    }
}

impl std::error::Error for InstanceError {}

/// One instance's pose, its inverse, and its box in the world.
#[derive(Clone, Debug)]
struct Placement {
    pose: Affine3A,
    /// The inverse pose, in `f64`.
    to_local: DAffine3,
    /// The inverse transpose of the pose's linear part: carries normals to the world.
    normal_to_world: DMat3,
    /// Whether the pose's condition number (`‖A‖∞ ‖A⁻¹‖∞`) is below `2²⁴`, so that
    /// `to_local` maps points within `2⁻²⁶` of `‖A⁻¹‖∞` times their size of their exact
    /// images (the shape queries then carry their box into the mesh's frame).
    well_conditioned: bool,
}

impl Placement {
    fn new(instance: usize, pose: Affine3A) -> Result<Self, InstanceError> {
        if !pose.is_finite() {
            return Err(InstanceError::NonFinitePose { instance });
        }
        // Singular exactly: the f64 determinant of f32 entries is rounded (its 72-bit
        // products are not exact), and a singular matrix's can come out non-zero.
        let m = pose.matrix3;
        let columns = [m.x_axis, m.y_axis, m.z_axis].each(Vec3::from);
        if orient3d(Vec3::ZERO, columns[0], columns[1], columns[2]) == 0.0 {
            return Err(InstanceError::SingularPose { instance });
        }
        let to_local = pose.as_daffine3().inverse();
        if !to_local.is_finite() {
            return Err(InstanceError::SingularPose { instance });
        }
        let norm = |m: DMat3| (0..3).map(|i| m.row(i).abs().element_sum()).fold(0.0, f64::max);
        let condition = norm(pose.matrix3.as_dmat3()) * norm(to_local.matrix3);
        let well_conditioned = condition < f64::from(1u32 << 24);
        Ok(Self { pose, to_local, normal_to_world: to_local.matrix3.transpose(), well_conditioned })
    }

    /// The ray in the mesh's frame, rounded to `f32`; `None` when that overflows or the
    /// direction rounds to zero (the mesh is then out of the ray's reach in `f32`).
    #[inline]
    fn carry(&self, ray: &Ray3) -> Option<Ray3> {
        let o = self.to_local.transform_point3(ray.origin().as_dvec3()).as_vec3();
        let d = self.to_local.transform_vector3(ray.dir().as_dvec3()).as_vec3();
        Ray3::try_with_range(o, d, ray.t_min(), ray.t_max()).ok()
    }

    /// The world box of `mesh` placed by this pose (see the module docs); a point at the
    /// pose's origin for a mesh with no triangle (no ray reaches it through the mesh).
    fn world_box(&self, mesh: &TriMesh) -> Aabb3 {
        let Some(local) = mesh.bounds() else {
            let at = Vec3::from(self.pose.translation);
            return Aabb3::new(at, at);
        };
        let pose = self.pose.as_daffine3();
        let (lo, hi) = (local.min().as_dvec3(), local.max().as_dvec3());
        let (mut min, mut max) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
        for corner in 0..8 {
            let pick = |axis: usize| if corner >> axis & 1 == 0 { lo[axis] } else { hi[axis] };
            let p = pose.transform_point3(DVec3::new(pick(0), pick(1), pick(2)));
            (min, max) = (min.min(p), max.max(p));
        }
        // The carried origin's rounding is relative to its size in the mesh's frame, which
        // the box's own coordinates bound there (see the module docs): 2⁻²⁰ ‖A‖∞ m.
        let norm = (0..3).map(|i| pose.matrix3.row(i).abs().element_sum()).fold(0.0, f64::max);
        let local_size = lo.abs().max(hi.abs()).max_element();
        let margin = ((max - min).max_element() + min.abs().max(max.abs()).max_element())
            / f64::from(1u32 << 12)
            + norm * local_size / f64::from(1u32 << 20);
        let (min, max) = (min - margin, max + margin);
        // Rounded outwards to f32, and kept finite.
        let down = |x: f64| {
            let r = (x as f32).max(f32::MIN);
            if f64::from(r) > x { r.next_down().max(f32::MIN) } else { r }
        };
        let up = |x: f64| {
            let r = (x as f32).min(f32::MAX);
            if f64::from(r) < x { r.next_up().min(f32::MAX) } else { r }
        };
        Aabb3::new(Vec3::from_array(min.to_array().each(down)), Vec3::from_array(max.to_array().each(up)))
    }
}

/// Meshes placed in one world by poses: instances of shared [`TriMesh`]es (a level's
/// rocks, a warehouse's shelves, a robot's links), with ray casts and shape queries over
/// all of them through a two-level hierarchy (see the module docs for the precision).
///
/// Poses are any invertible affine maps (rotation, translation, uniform or non-uniform
/// scale, shear, mirror). The ray's `t` is the world ray's; hits report the instance, the
/// mesh's triangle and barycentrics, and the normal and point in the world. Of instances
/// hit at exactly the same `t`, the one with the lowest index.
///
/// Shapes ([`Sphere`](crate::Sphere), [`Aabb3`], [`Obb3`](crate::Obb3),
/// [`Capsule3`](crate::Capsule3), [`Segment3`](crate::Segment3),
/// [`Triangle3`](crate::Triangle3), [`Plane`](crate::Plane)) are tested against each
/// instance's triangles placed in the world (each vertex mapped in `f64` and rounded once):
/// [`overlaps`](Self::overlaps), [`overlapping_triangles`](Self::overlapping_triangles),
/// [`overlapping_instances`](Self::overlapping_instances) ("which objects touch this
/// box"), [`for_each_contact`](Self::for_each_contact), [`sweep`](Self::sweep) (sphere,
/// box and capsule casts) and [`distance_to_point`](Self::distance_to_point).
///
/// ```
/// use std::sync::Arc;
/// use glam::{Affine3A, Quat, Vec3};
/// use raybox::{MeshInstances, Ray3, TriMesh, mesh};
///
/// let bunny = Arc::new(TriMesh::from_data(mesh::bunny()).unwrap());
/// // Three bunnies in a row along x, the last one twice as large and turned.
/// let poses = [
///     Affine3A::from_translation(Vec3::new(0.0, 0.0, 0.0)),
///     Affine3A::from_translation(Vec3::new(10.0, 0.0, 0.0)),
///     Affine3A::from_scale_rotation_translation(Vec3::splat(2.0), Quat::from_rotation_y(1.0), Vec3::new(20.0, 0.0, 0.0)),
/// ];
/// let mut world = MeshInstances::new(poses.map(|p| (bunny.clone(), p))).unwrap();
///
/// // A ray down onto the middle bunny's centre.
/// let centre = world.bounds_of(1).unwrap().center();
/// let ray = Ray3::new(centre + Vec3::new(0.0, 50.0, 0.0), Vec3::NEG_Y);
/// let hit = world.cast_ray(&ray).unwrap();
/// assert_eq!(hit.instance, 1);
/// assert!(hit.normal.y > 0.0 && hit.front_facing);
///
/// // Move it away: the same ray now misses.
/// world.set_poses([(1, Affine3A::from_translation(Vec3::new(10.0, 0.0, 100.0)))]).unwrap();
/// assert!(world.cast_ray(&ray).is_none());
/// ```
#[derive(Clone, Debug)]
pub struct MeshInstances {
    meshes: Vec<Arc<TriMesh>>,
    placements: Vec<Placement>,
    boxes: Vec<Aabb3>,
    bvh: Bvh,
}

impl MeshInstances {
    /// Places each mesh by its pose, with a [`BuildQuality::Balanced`] top-level BVH.
    ///
    /// # Errors
    /// [`InstanceError::NonFinitePose`] or [`InstanceError::SingularPose`] for a pose that
    /// cannot be inverted, naming the first such instance; [`InstanceError::Build`] past
    /// 2^27 instances.
    pub fn new(instances: impl IntoIterator<Item = (Arc<TriMesh>, Affine3A)>) -> Result<Self, InstanceError> {
        Self::with_quality(instances, BuildQuality::Balanced)
    }

    /// [`MeshInstances::new`] with the top-level BVH's build quality.
    ///
    /// # Errors
    /// As [`MeshInstances::new`].
    pub fn with_quality(
        instances: impl IntoIterator<Item = (Arc<TriMesh>, Affine3A)>,
        quality: BuildQuality,
    ) -> Result<Self, InstanceError> {
        let (mut meshes, mut placements) = (Vec::new(), Vec::new());
        for (i, (mesh, pose)) in instances.into_iter().enumerate() {
            placements.push(Placement::new(i, pose)?);
            meshes.push(mesh);
        }
        let boxes: Vec<Aabb3> = placements.iter().zip(&meshes).map(|(p, m)| p.world_box(m)).collect();
        let bvh = Bvh::build(&boxes, quality).map_err(InstanceError::Build)?;
        Ok(Self { meshes, placements, boxes, bvh })
    }

    /// The number of instances.
    #[must_use]
    pub fn len(&self) -> usize {
        self.meshes.len()
    }

    /// `true` when there is no instance.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.meshes.is_empty()
    }

    /// Instance `i`'s mesh.
    #[must_use]
    pub fn mesh(&self, i: usize) -> Option<&Arc<TriMesh>> {
        self.meshes.get(i)
    }

    /// Instance `i`'s pose.
    #[must_use]
    pub fn pose(&self, i: usize) -> Option<Affine3A> {
        self.placements.get(i).map(|p| p.pose)
    }

    /// Instance `i`'s box in the world (its mesh's box carried by the pose, grown by
    /// `2⁻¹²` of its size and position and `2⁻²⁰` of the mesh's own extent from its origin
    /// carried by the pose, see the module docs; a point at the pose's origin for a mesh
    /// with no triangle).
    #[must_use]
    pub fn bounds_of(&self, i: usize) -> Option<Aabb3> {
        self.boxes.get(i).copied()
    }

    /// The box around every instance, or `None` when there is none.
    #[must_use]
    pub fn bounds(&self) -> Option<Aabb3> {
        self.bvh.bounds()
    }

    /// Moves instances: each `(i, pose)` gives instance `i` a new pose, then the top-level
    /// BVH is refitted once (its structure kept: rebuild with [`MeshInstances::new`] when
    /// the instances have moved far from where they were built, for speed).
    ///
    /// # Errors
    /// [`InstanceError::NoSuchInstance`], [`InstanceError::NonFinitePose`] or
    /// [`InstanceError::SingularPose`] for the first bad update; then nothing is moved.
    pub fn set_poses(
        &mut self,
        updates: impl IntoIterator<Item = (usize, Affine3A)>,
    ) -> Result<(), InstanceError> {
        let count = self.len();
        let mut checked = Vec::new();
        for (i, pose) in updates {
            if i >= count {
                return Err(InstanceError::NoSuchInstance { instance: i, count });
            }
            checked.push((i, Placement::new(i, pose)?));
        }
        for (i, placement) in checked {
            self.boxes[i] = placement.world_box(&self.meshes[i]);
            self.placements[i] = placement;
        }
        self.bvh.refit(&self.boxes).map_err(InstanceError::Build)
    }

    /// The closest hit along the ray within `[t_min, t_max]`: the instance and its mesh's
    /// [`FirstHit`] (`t`, triangle, barycentrics), without the normal and point.
    #[must_use]
    pub fn first_hit(&self, ray: &Ray3) -> Option<(u32, FirstHit)> {
        let mut last: Option<(u32, FirstHit)> = None;
        let (winner, t) = self.bvh.cast_ray(ray, |i, narrowed| {
            let hit = self.meshes[i as usize].first_hit(&self.placements[i as usize].carry(narrowed)?)?;
            // Ties at the narrowed t_max (the best so far) go to the lower index.
            if let Some((j, best)) = last
                && hit.t == best.t
                && j < i
            {
                return None;
            }
            last = Some((i, hit));
            Some(hit.t)
        })?;
        // The walk accepts every t returned (each lies in the narrowed range), so the
        // last one recorded is the winner.
        last.filter(|&(i, h)| i == winner && h.t == t)
    }

    /// The closest hit along the ray within `[t_min, t_max]`, with the world normal,
    /// facing and point.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray3) -> Option<InstanceHit> {
        let (instance, hit) = self.first_hit(ray)?;
        let placement = &self.placements[instance as usize];
        let local = placement.carry(ray)?;
        let details = self.meshes[instance as usize].hit_details(&local, &hit)?;
        let normal = (placement.normal_to_world * details.normal.as_dvec3()).normalize().as_vec3();
        let point = Vec3::from_array(point_at(ray.origin().to_array(), ray.dir().to_array(), hit.t));
        Some(InstanceHit {
            instance,
            t: hit.t,
            triangle: hit.triangle,
            u: hit.u,
            v: hit.v,
            normal,
            front_facing: details.front_facing,
            point,
        })
    }

    /// Whether any instance's triangle lies on the ray within `[t_min, t_max]` (stops at
    /// the first found).
    #[must_use]
    pub fn occluded(&self, ray: &Ray3) -> bool {
        self.bvh
            .any_hit(ray, |i, ray| {
                self.placements[i as usize]
                    .carry(ray)
                    .is_some_and(|local| self.meshes[i as usize].occluded(&local))
            })
            .is_some()
    }

    /// [`MeshInstances::cast_ray`] for many rays, on all cores (with the `rayon` feature),
    /// each ray alone (no packets: the rays' instances differ). To cast batch after batch
    /// without allocating, use [`MeshInstances::cast_rays_into`].
    #[must_use]
    pub fn cast_rays(&self, rays: &[Ray3]) -> Vec<Option<InstanceHit>> {
        let mut out = Vec::new();
        self.cast_rays_into(rays, &mut out);
        out
    }

    /// [`MeshInstances::cast_rays`] into a vector the caller keeps: afterwards `out` holds
    /// ray `i`'s hit at index `i` (and nothing else), as [`TriMesh::cast_rays_into`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use raybox::{MeshInstances, Ray3, TriMesh, mesh};
    /// use glam::{Affine3A, Vec3};
    ///
    /// let bunny = Arc::new(TriMesh::from_data(mesh::bunny()).unwrap());
    /// let two = MeshInstances::new([
    ///     (bunny.clone(), Affine3A::from_translation(Vec3::new(-1.0, 0.0, 0.0))),
    ///     (bunny, Affine3A::from_translation(Vec3::new(1.0, 0.0, 0.0))),
    /// ])
    /// .unwrap();
    /// let rays: Vec<Ray3> =
    ///     (0..32).map(|i| Ray3::new(Vec3::new(i as f32 * 0.1 - 1.6, 0.1, 20.0), Vec3::NEG_Z)).collect();
    /// let mut hits = Vec::new();
    /// for _frame in 0..2 {
    ///     two.cast_rays_into(&rays, &mut hits);
    ///     assert_eq!(hits.len(), rays.len());
    /// }
    /// assert!(hits.iter().flatten().any(|h| h.instance == 0) && hits.iter().flatten().any(|h| h.instance == 1));
    /// ```
    pub fn cast_rays_into(&self, rays: &[Ray3], out: &mut Vec<Option<InstanceHit>>) {
        in_chunks(rays, None, out, |rays: &[Ray3], out: &mut [Option<InstanceHit>]| {
            rays.iter().zip(out).for_each(|(r, o)| *o = self.cast_ray(r));
        });
    }

    /// [`MeshInstances::first_hit`] for many rays, on all cores (with the `rayon` feature):
    /// the same hits as [`MeshInstances::cast_rays`] without the normal, facing and point.
    #[must_use]
    pub fn first_hits(&self, rays: &[Ray3]) -> Vec<Option<(u32, FirstHit)>> {
        let mut out = Vec::new();
        self.first_hits_into(rays, &mut out);
        out
    }

    /// [`MeshInstances::first_hits`] into a vector the caller keeps (see
    /// [`MeshInstances::cast_rays_into`]).
    pub fn first_hits_into(&self, rays: &[Ray3], out: &mut Vec<Option<(u32, FirstHit)>>) {
        in_chunks(rays, None, out, |rays: &[Ray3], out: &mut [Option<(u32, FirstHit)>]| {
            rays.iter().zip(out).for_each(|(r, o)| *o = self.first_hit(r));
        });
    }

    /// [`MeshInstances::occluded`] for many rays, on all cores (with the `rayon` feature).
    #[must_use]
    pub fn occluded_rays(&self, rays: &[Ray3]) -> Vec<bool> {
        let mut out = Vec::new();
        self.occluded_rays_into(rays, &mut out);
        out
    }

    /// [`MeshInstances::occluded_rays`] into a vector the caller keeps (afterwards one
    /// answer per ray, in order), as [`MeshInstances::cast_rays_into`].
    pub fn occluded_rays_into(&self, rays: &[Ray3], out: &mut Vec<bool>) {
        in_chunks(rays, false, out, |rays: &[Ray3], out: &mut [bool]| {
            rays.iter().zip(out).for_each(|(r, o)| *o = self.occluded(r));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn ball() -> Arc<TriMesh> {
        Arc::new(TriMesh::from_data(crate::mesh::scene::icosphere(1)).unwrap())
    }

    #[test]
    fn bad_poses_are_refused_and_nothing_moves() {
        let m = ball();
        let nan = Affine3A::from_translation(Vec3::new(f32::NAN, 0.0, 0.0));
        assert_eq!(
            MeshInstances::new([(m.clone(), Affine3A::IDENTITY), (m.clone(), nan)]).unwrap_err(),
            InstanceError::NonFinitePose { instance: 1 }
        );
        let flat = Affine3A::from_scale(Vec3::new(1.0, 0.0, 1.0));
        assert_eq!(
            MeshInstances::new([(m.clone(), flat)]).unwrap_err(),
            InstanceError::SingularPose { instance: 0 }
        );
        let mut world = MeshInstances::new([(m.clone(), Affine3A::IDENTITY)]).unwrap();
        let moved = Affine3A::from_translation(Vec3::X * 5.0);
        assert_eq!(
            world.set_poses([(0, moved), (3, moved)]).unwrap_err(),
            InstanceError::NoSuchInstance { instance: 3, count: 1 }
        );
        assert_eq!(world.pose(0), Some(Affine3A::IDENTITY)); // the first update was not applied
        assert!(world.cast_ray(&Ray3::new(Vec3::Z * 5.0, Vec3::NEG_Z)).is_some());
    }

    #[test]
    fn empty_sets_and_empty_meshes_answer_no_hit() {
        let world = MeshInstances::new(Vec::new()).unwrap();
        assert!(world.is_empty() && world.bounds().is_none());
        let ray = Ray3::new(Vec3::Z * 5.0, Vec3::NEG_Z);
        assert!(world.cast_ray(&ray).is_none() && !world.occluded(&ray));
        // A mesh whose only triangle has no area: no box, nothing to hit.
        let flat = Arc::new(TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0], vec![[0, 1, 2]]).unwrap());
        assert!(flat.bounds().is_none());
        let world = MeshInstances::new([(flat, Affine3A::IDENTITY)]).unwrap();
        assert!(world.cast_ray(&ray).is_none() && !world.occluded(&ray));
    }

    #[test]
    fn a_mirrored_scaled_instance_keeps_outward_normals() {
        // An icosphere (closed, outward winding) mirrored in x and stretched: rays from
        // outside toward its centre hit its front, with a world normal facing the ray.
        let pose = Affine3A::from_scale_rotation_translation(
            Vec3::new(-2.0, 0.5, 3.0),
            Quat::from_rotation_z(0.4),
            Vec3::new(1.0, 2.0, 3.0),
        );
        let world = MeshInstances::new([(ball(), pose)]).unwrap();
        let centre = Vec3::new(1.0, 2.0, 3.0);
        for dir in [Vec3::X, Vec3::NEG_Y, Vec3::Z, Vec3::new(1.0, 1.0, -1.0)] {
            let ray = Ray3::new(centre - dir * 20.0, dir);
            let hit = world.cast_ray(&ray).unwrap();
            assert!(hit.front_facing && hit.normal.dot(dir) < 0.0, "{dir}: {hit:?}");
            assert!((hit.normal.length() - 1.0).abs() < 1e-6);
        }
    }
}
