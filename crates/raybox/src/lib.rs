//! # raybox
//!
//! Exact 2D and 3D ray casts and overlap tests on `glam` types: does this ray hit that
//! box, where does it enter and leave, do these two shapes overlap.
//!
//! ```
//! use raybox::{Aabb3, Obb3, Overlaps, Ray3, RayCast, Sphere};
//! use glam::{Quat, Vec3};
//!
//! let crate_box = Aabb3::new(Vec3::ZERO, Vec3::ONE);
//! let ray = Ray3::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::X);
//!
//! let span = crate_box.ray_span(&ray).unwrap(); // where the ray is inside
//! assert_eq!((span.t_enter, span.t_exit), (1.0, 2.0));
//! let hit = crate_box.cast_ray(&ray).unwrap(); // the first point, and the face's normal
//! assert_eq!(hit.normal, Vec3::NEG_X);
//!
//! let ball = Sphere::new(Vec3::splat(1.4), 0.5); // near a corner, but not touching it
//! assert!(!ball.overlaps(&crate_box));
//! let turned = Obb3::new(Vec3::new(1.5, 0.5, 0.5), Vec3::splat(0.5), Quat::from_rotation_z(0.5));
//! assert!(turned.overlaps(&crate_box));
//! ```
//!
//! ## Semantics
//!
//! Every query keeps this contract, and the tests check it against exact answers
//! (reference vectors computed with rational arithmetic).
//!
//! - **Rays.** A ray is `r(t) = origin + t * dir` for `t` in `[t_min, t_max]` (closed;
//!   `t_max` may be `+inf`, `t_min` may be `-inf` for a line). `dir` is never normalised:
//!   `t` is in units of `dir`. A zero or non-finite `dir` is rejected when the ray is built.
//! - **Closed shapes.** Boundaries belong to the shapes: a point on a face is inside,
//!   touching counts as a hit and as an overlap, and a ray that grazes an edge or a
//!   corner hits it (`t_enter == t_exit`).
//! - **[`RayCast::ray_span`]** is the part of `[t_min, t_max]` where the ray is inside the
//!   closed shape. When `r(t_min)` is inside, `t_enter == t_min`.
//! - **[`RayCast::cast_ray`]** is the first point of the closed shape along the ray, with
//!   the outward unit normal of the face hit. When the ray starts inside a solid (boxes,
//!   balls), the hit is at `t_min` and the normal is zero. Planes and triangles are
//!   two-sided: their normal faces the ray.
//! - **Edge cases.** Rays parallel to a box's slab (a `+0.0` or `-0.0` direction
//!   component), origins exactly on a slab plane, zero-extent boxes, zero radii, and
//!   coordinates from `2^-60` to `2^60` all give the right answer, never NaN. Triangle and
//!   mesh ray casts go further: their watertight test runs in `f32` while twice the sheared
//!   triangle's area is within `2^-100..2^100` and `t` is finite (triangles from about
//!   `2^-50` to `2^50` across), and in `f64` otherwise, so any finite coordinates below
//!   about `2^126` give the right hit (a hit whose `t` does not fit in `f32` is a miss).
//!   A crossing whose `t` lies past `f32::MAX` (a tiny direction) is not reached: boxes,
//!   balls, capsules and triangles report no hit rather than `t = inf`.
//!   Direction components so small that their reciprocal overflows (subnormal, below about
//!   `3e-39`) are handled by the box tests of the BVH and of [`BoxSoup`], for rays and for
//!   lines (`t_min < 0`): no box such a ray enters is skipped. (For lines and in `BoxSoup`,
//!   that axis only rules out boxes beside the ray's whole travel along it inside the
//!   tree's box, so a ray that crosses a scene's whole extent along such an axis visits
//!   boxes it does not enter; the answers are the same.)
//! - **Validation.** Constructors validate: `try_new` returns a [`ShapeError`] naming the
//!   field for NaN or infinite values, `min > max`, negative radii or half extents, a zero
//!   direction, a zero rotation, a zero plane normal or a degenerate triangle; `new`
//!   panics with the same message. Queries on valid shapes never panic and never return
//!   NaN.
//! - **Precision.** Inputs and outputs are `f32`. Decisions are made without absolute
//!   epsilons: slab entries and exits by correctly rounded division (so exact ties stay
//!   ties), distances on squares in `f64`, separating axes by direct projection. A
//!   boolean answer agrees with the exact answer except within a relative hair (about
//!   `1e-6` of the coordinates' scale) of the decision boundary (triangle–triangle,
//!   triangle–segment, box–segment and 3D segment–segment overlaps are exact for any finite
//!   inputs: they decide on signs of determinants computed exactly, Shewchuk's predicates;
//!   so are plane–plane, on exact products, and the 2D and 3D segment ray casts), and a
//!   reported `t` is within `1e-5` relative of the exact value (for rays that graze at a
//!   shallow angle, within the square root of that).
//! - **Contacts** ([`Contact::contact`]): `None` exactly when the shapes do not overlap;
//!   otherwise the unit `normal` points from the first shape to the second and `depth >= 0`
//!   is the minimum translation distance (moving the second shape by `normal * depth`
//!   leaves them touching; touching shapes have depth zero). Box pairs and triangle pairs
//!   give a manifold of up to 2 (2D) or 4 (3D) points by reference-face clipping, a shape
//!   against a (two-sided) plane a point for each vertex past it, up to 4; every point lies
//!   midway between the surfaces, within `depth / 2` of both shapes. A segment has no
//!   volume but its depth is still the least push: crossing segments in the plane leave
//!   each other by the nearer end, a segment through a box or a triangle by the shorter of
//!   its ends and the sides, while segments in space that meet (or a segment lying in a
//!   triangle's plane) only touch, at depth zero. The reverse pair flips the normal.
//! - **Distances** ([`Distance`]): zero when the shapes overlap (exactly when
//!   [`Overlaps`] says so, for the pairs that have it), with a closest point on each
//!   shape (one common point when they overlap); symmetric.
//! - **Sweeps** ([`Sweep::sweep`]): the moving shape is translated by `t * motion`, `t` in
//!   `[0, 1]`; the result is the first `t` at which the closed shapes touch, the point
//!   where they touch and the normal there, pointing from the static shape toward the
//!   moving one. Shapes that overlap at `t = 0` give `t = 0` and the penetration normal; a
//!   zero motion is an overlap test.
//! - Every type is `Send + Sync`, and no query allocates.
//!
//! ## What is covered
//!
//! | first shape | [`RayCast`] | [`Overlaps`] with | [`Contact`] with | [`Distance`] to | [`Sweep`] (moving) against | [`ContainsPoint`] / [`ClosestPoint`] |
//! | --- | --- | --- | --- | --- | --- | --- |
//! | [`Aabb2`] | ✓ | `Aabb2`, `Circle`, `Obb2`, `Capsule2`, `Segment2` | the same | the same | `Circle`, `Aabb2`, `Obb2`, `Capsule2`, `Segment2` | ✓ / ✓ |
//! | [`Obb2`] | ✓ | `Obb2`, `Aabb2`, `Circle`, `Capsule2`, `Segment2` | the same | the same | `Circle`, `Aabb2`, `Obb2`, `Capsule2`, `Segment2` | ✓ / ✓ |
//! | [`Circle`] | ✓ | `Circle`, `Aabb2`, `Obb2`, `Capsule2`, `Segment2` | the same | the same | `Circle`, `Aabb2`, `Obb2`, `Capsule2`, `Segment2` | ✓ / ✓ |
//! | [`Capsule2`] | ✓ | `Capsule2`, `Circle`, `Aabb2`, `Obb2`, `Segment2` | the same | the same | `Circle`, `Aabb2`, `Obb2`, `Capsule2`, `Segment2` | ✓ / ✓ |
//! | [`Segment2`] | ✓ | `Segment2`, `Circle`, `Aabb2`, `Obb2`, `Capsule2` | the same | the same | `Circle`, `Aabb2`, `Obb2`, `Capsule2`, `Segment2` | ✓ / ✓ |
//! | [`Aabb3`] | ✓ | `Aabb3`, `Sphere`, `Obb3`, `Capsule3`, `Plane`, `Triangle3`, `Segment3` | `Aabb3`, `Sphere`, `Obb3`, `Capsule3`, `Triangle3`, `Plane`, `Segment3` | the same | `Sphere`, `Aabb3`, `Obb3`, `Capsule3`, `Segment3`, `Triangle3`, `Plane` | ✓ / ✓ |
//! | [`Obb3`] | ✓ | `Obb3`, `Aabb3`, `Sphere`, `Capsule3`, `Plane`, `Triangle3`, `Segment3` | `Obb3`, `Aabb3`, `Sphere`, `Capsule3`, `Triangle3`, `Plane`, `Segment3` | the same | `Sphere`, `Aabb3`, `Obb3`, `Capsule3`, `Segment3`, `Triangle3`, `Plane` | ✓ / ✓ |
//! | [`Sphere`] | ✓ | `Sphere`, `Aabb3`, `Obb3`, `Capsule3`, `Plane`, `Triangle3`, `Segment3` | `Sphere`, `Aabb3`, `Obb3`, `Capsule3`, `Triangle3`, `Plane`, `Segment3` | the same | `Sphere`, `Aabb3`, `Obb3`, `Capsule3`, `Segment3`, `Triangle3`, `Plane` | ✓ / ✓ |
//! | [`Capsule3`] | ✓ | `Capsule3`, `Sphere`, `Aabb3`, `Obb3`, `Segment3`, `Triangle3`, `Plane` | the same | the same | `Sphere`, `Aabb3`, `Obb3`, `Capsule3`, `Segment3`, `Triangle3`, `Plane` | ✓ / ✓ |
//! | [`Segment3`] | ✓ (exact: coplanar by Shewchuk's predicates, then the 2D kernel on a projection) | `Segment3`, `Capsule3`, `Triangle3`, `Aabb3`, `Obb3`, `Sphere`, `Plane` | the same | the same | `Sphere`, `Aabb3`, `Obb3`, `Capsule3`, `Segment3`, `Triangle3`, `Plane` | ✓ / ✓ |
//! | [`Plane`] | ✓ (two-sided; [`Plane::ray_intersection`] tells parallel and coplanar rays apart) | `Aabb3`, `Obb3`, `Sphere`, `Triangle3`, `Capsule3`, `Segment3`, `Plane`; [`Plane::side`] | `Capsule3`, `Sphere`, `Aabb3`, `Obb3`, `Triangle3`, `Segment3` | the same | `Sphere`, `Aabb3`, `Obb3`, `Capsule3`, `Segment3`, `Triangle3` | ✓ / ✓ |
//! | [`Triangle3`] | ✓ (watertight; [`Triangle3::ray_intersection`] gives barycentrics) | `Aabb3`, `Obb3`, `Sphere`, `Plane`, `Capsule3`, `Triangle3`, `Segment3` | `Capsule3`, `Sphere`, `Aabb3`, `Obb3`, `Plane`, `Triangle3`, `Segment3` | `Capsule3`, `Triangle3`, `Segment3`, `Sphere`, `Aabb3`, `Obb3`, `Plane` | `Sphere`, `Aabb3`, `Obb3`, `Capsule3`, `Segment3`, `Triangle3`, `Plane` | ✓ / ✓ |
//!
//! Every pair works in both orders, but for two planes, which have no contact and no sweep:
//! planes that are not parallel meet, and no motion parts them.
//!
//! Balls also offer the surface convention ([`Sphere::cast_ray_surface`]: from inside,
//! the exit point) and the raw roots ([`Sphere::ray_roots`]).
//!
//! ## Meshes and the BVH
//!
//! [`TriMesh`] is a triangle mesh with a bounding volume hierarchy: closest-hit
//! ([`TriMesh::cast_ray`]) and any-hit ([`TriMesh::occluded`]) ray casts, their batch forms
//! on all cores, point containment for closed meshes, box overlap and point distance, and
//! queries with a ball, box, capsule, segment, triangle or plane: which triangles it
//! overlaps ([`TriMesh::overlapping_triangles`]) and where it first touches the mesh as it
//! moves ([`TriMesh::sweep`], a sphere or shape cast), and
//! which triangles of two meshes touch, the second placed by a pose
//! ([`TriMesh::overlapping_pairs`]; their contacts, [`TriMesh::for_each_contact_pair`]), and
//! how far apart they are
//! ([`TriMesh::closest_points_to_mesh`]).
//! [`Bvh`] and [`Bvh2`] index any list of boxes and call you back with the candidates of a
//! ray, box, sphere or nearest-point query. [`mesh`] holds the loaders, the embedded
//! Stanford bunny and procedural scenes.
//!
//! The walks test one ray against 8 boxes at once with AVX-512 or AVX2 when the CPU has
//! them (detected at run time; [`kernel_name`] says which), with plain Rust otherwise. Their
//! box test is **conservative** (Ize 2013): it may visit a box that a ray misses by a
//! rounding error, never skip one it enters; the answer is then decided by the exact leaf
//! test (the watertight triangle test, or your callback), so a ray never slips through a
//! mesh. This is the one place raybox trades exactness for speed, and only in what is
//! *visited*, never in what is *reported*.
//!
//! ## Layout
//!
//! `shape/` holds one file per shape; `query/` one folder per question (`ray/`,
//! `overlap/`, `closest/`, `contact/`, `distance/`, `sweep/`) with one file per shape pair,
//! named in the pair order `ray < plane < sphere < aabb < obb < triangle < capsule <
//! segment`. See `ARCHITECTURE.md`.
//!
//! ## Features
//!
//! - `serde`: `Serialize`/`Deserialize` for every shape and result (deserialising
//!   validates, as `try_new` does).
//! - `mint`: glam's `mint` conversions.
//! - `rayon` (default): parallel BVH builds and batch ray casts.
//! - `obj` (default): load Wavefront OBJ files with [`mesh::load()`], through `tobj`.
//! - `ply` (default): load PLY files, ASCII and binary (raybox's own reader).
//! - `stl` (default): load STL files, ASCII and binary (raybox's own reader).
//! - `gltf`: load glTF 2.0 files, `.gltf` and `.glb`, through `gltf`. Off by default,
//!   because its JSON parsing (serde) about doubles a clean build of the crate.

#![warn(missing_docs)]
#![deny(unsafe_code)]
// `[T; N]::map` and `core::array::from_fn` are not inlined in a build split into codegen
// units (cargo's default `release`): `arrays.rs`, and `clippy.toml` beside `Cargo.toml`.
#![deny(clippy::disallowed_methods)]

mod arrays;
mod bvh;
mod error;
pub mod mesh;
mod query;
mod shape;
#[cfg(test)]
mod test_util;

pub use bvh::{BoxSoup, BuildBvhError, BuildQuality, Bvh, Bvh2, BvhStats, kernel_name, with_each_kernel};
pub use error::ShapeError;
pub use mesh::{
    FirstHit, InstanceError, InstanceHit, InstanceSweepHit, LoadMeshError, MeshData, MeshError, MeshHit,
    MeshInstances, MeshPairDistance, MeshQuery, MeshSweepHit, TriMesh,
};
pub use query::{
    ClosestPoint, Contact, Contact2, Contact3, ContactPoints2, ContactPoints3, ContainsPoint, Distance,
    Overlaps, PlaneSide, RayCast, RayHit2, RayHit3, RayPlane, RaySpan, RayTriangle, Side, SphereRoots, Sweep,
    SweepHit2, SweepHit3, TriangleHit,
};
pub use shape::{
    Aabb2, Aabb3, Capsule2, Capsule3, Circle, Obb2, Obb3, Plane, Ray2, Ray3, Segment2, Segment3, Sphere,
    Triangle3,
};

#[cfg(all(test, feature = "serde"))]
mod serde_round_trip {
    use super::*;
    use glam::{Quat, Vec2, Vec3};

    fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + core::fmt::Debug>(x: T) {
        let json = serde_json::to_string(&x).unwrap();
        assert_eq!(serde_json::from_str::<T>(&json).unwrap(), x, "{json}");
    }

    #[test]
    fn every_shape_round_trips() {
        round_trip(Ray2::new(Vec2::ONE, Vec2::X));
        round_trip(Ray3::with_range(Vec3::ONE, Vec3::Z, -1.0, 4.0));
        round_trip(Aabb2::new(Vec2::ZERO, Vec2::ONE));
        round_trip(Aabb3::new(Vec3::ZERO, Vec3::ONE));
        round_trip(Obb2::new(Vec2::ZERO, Vec2::ONE, 0.3));
        round_trip(Obb3::new(Vec3::ZERO, Vec3::ONE, Quat::from_rotation_y(0.3)));
        round_trip(Circle::new(Vec2::ZERO, 2.0));
        round_trip(Sphere::new(Vec3::ZERO, 2.0));
        round_trip(Plane::new(Vec3::new(0.0, 3.0, 4.0), 1.0));
        round_trip(Triangle3::new(Vec3::ZERO, Vec3::X, Vec3::Y));
        round_trip(Side::Straddling);
        round_trip(Segment3::new(Vec3::ZERO, Vec3::ONE));
        round_trip(Capsule2::new(Vec2::ZERO, Vec2::ONE, 0.5));
        round_trip(
            Aabb3::new(Vec3::ZERO, Vec3::ONE).contact(&Aabb3::new(Vec3::splat(0.5), Vec3::ONE)).unwrap(),
        );
        round_trip(
            Sphere::new(Vec3::ZERO, 1.0).sweep(Vec3::X * 4.0, &Sphere::new(Vec3::X * 3.0, 1.0)).unwrap(),
        );
        let ball = std::sync::Arc::new(TriMesh::from_data(crate::mesh::scene::icosphere(1)).unwrap());
        let world = MeshInstances::new([(ball, glam::Affine3A::from_translation(Vec3::X))]).unwrap();
        round_trip(world.cast_ray(&Ray3::new(Vec3::X * 5.0, Vec3::NEG_X)).unwrap());
        round_trip(world.sweep(&Sphere::new(Vec3::X * 5.0, 0.5), Vec3::NEG_X * 4.0).unwrap());
    }

    #[test]
    fn bvh_and_mesh_round_trip_and_answer_the_same() {
        let mesh = TriMesh::from_data(crate::mesh::bunny()).unwrap();
        let json = serde_json::to_string(&mesh).unwrap();
        let back: TriMesh = serde_json::from_str(&json).unwrap();
        let boxes: Vec<Aabb3> =
            (0..50).map(|i| Aabb3::new(Vec3::splat(i as f32), Vec3::splat(i as f32 + 0.5))).collect();
        let bvh = Bvh::build(&boxes, BuildQuality::High).unwrap();
        let bvh_back: Bvh = serde_json::from_str(&serde_json::to_string(&bvh).unwrap()).unwrap();
        bvh_back.validate(&boxes).unwrap();
        for i in 0..200 {
            let a = i as f32 * 0.031;
            let ray = Ray3::new(
                Vec3::new(a.cos() * 20.0, 1.0 + (i % 9) as f32 * 0.3, a.sin() * 20.0),
                Vec3::new(-a.cos(), 0.0, -a.sin()),
            );
            assert_eq!(mesh.cast_ray(&ray), back.cast_ray(&ray));
            let diag = Ray3::new(Vec3::new(-1.0, 0.0, 0.2 * (i % 5) as f32), Vec3::ONE);
            let hit = |b: &Bvh| b.cast_ray(&diag, |j, r| boxes[j as usize].ray_span(r).map(|s| s.t_enter));
            assert_eq!(hit(&bvh), hit(&bvh_back));
        }
        // A tampered file is refused, not trusted: a child index past the last node.
        let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
        value["tree"]["nodes"][0]["children"][0] = serde_json::json!(1_000_000);
        let err = serde_json::from_value::<TriMesh>(value).unwrap_err().to_string();
        assert!(err.contains("child reference out of range"), "{err}");
    }

    /// Found by an audit: a tree whose nodes share children (accepted before, its walks then
    /// took 8^depth paths) and a root box with `min > max` (accepted, then `bounds()`
    /// panicked) are refused when read; an empty tree still round-trips.
    #[test]
    fn instances_round_trip_sharing_their_meshes_and_are_checked() {
        use glam::{Affine3A, Mat3};
        use std::sync::Arc;
        let ball = Arc::new(TriMesh::from_data(crate::mesh::scene::icosphere(2)).unwrap());
        let bunny = Arc::new(TriMesh::from_data(crate::mesh::bunny()).unwrap());
        let poses = (0..30).map(|i| {
            let turn = Mat3::from_rotation_y(i as f32)
                * Mat3::from_diagonal(Vec3::new(1.0, -1.5, 0.5 + i as f32 * 0.1));
            let mesh = if i % 3 == 0 { bunny.clone() } else { ball.clone() };
            (
                mesh,
                Affine3A::from_mat3_translation(
                    turn,
                    Vec3::new((i % 6) as f32 * 3.0, 0.0, (i / 6) as f32 * 3.0),
                ),
            )
        });
        let mut world = MeshInstances::new(poses).unwrap();
        // Moved after building: the saved tree is the refitted one.
        world.set_poses([(4, Affine3A::from_translation(Vec3::new(1.0, 7.0, 2.0)))]).unwrap();
        let json = serde_json::to_string(&world).unwrap();
        let back: MeshInstances = serde_json::from_str(&json).unwrap();
        assert_eq!(back.len(), 30);
        assert!(Arc::ptr_eq(back.mesh(1).unwrap(), back.mesh(2).unwrap()), "shared again");
        assert!(Arc::ptr_eq(back.mesh(0).unwrap(), back.mesh(3).unwrap()));
        assert!(!Arc::ptr_eq(back.mesh(0).unwrap(), back.mesh(1).unwrap()));
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["meshes"].as_array().unwrap().len(), 2, "each mesh saved once");
        for i in 0..400 {
            let a = i as f32 * 0.05;
            let ray = Ray3::new(Vec3::new(7.0, 20.0, 6.0), Vec3::new(a.cos() * 0.4, -1.0, a.sin() * 0.4));
            assert_eq!(world.cast_ray(&ray), back.cast_ray(&ray));
            let ball = Sphere::new(Vec3::new(a.cos() * 8.0 + 7.0, 0.5, a.sin() * 6.0 + 6.0), 0.7);
            assert_eq!(world.overlapping_triangles(&ball), back.overlapping_triangles(&ball));
        }
        for i in 0..30 {
            assert_eq!((world.pose(i), world.bounds_of(i)), (back.pose(i), back.bounds_of(i)));
        }
        // Tampered: a mesh number past the meshes, a singular pose, a pose the saved tree's
        // boxes do not hold.
        let refused = |edit: &dyn Fn(&mut serde_json::Value)| {
            let mut v = value.clone();
            edit(&mut v);
            serde_json::from_value::<MeshInstances>(v).unwrap_err().to_string()
        };
        let e = refused(&|v| v["instances"][5]["mesh"] = 2.into());
        assert!(e.contains("instance 5: no mesh 2 (there are 2)"), "{e}");
        let flat = serde_json::to_value(Affine3A::from_scale(Vec3::new(1.0, 0.0, 1.0))).unwrap();
        let e = refused(&|v| v["instances"][7]["pose"] = flat.clone());
        assert!(e.contains("instance 7: the pose cannot be inverted"), "{e}");
        let far = serde_json::to_value(Affine3A::from_translation(Vec3::splat(500.0))).unwrap();
        let e = refused(&|v| v["instances"][9]["pose"] = far.clone());
        assert!(e.contains("the instances' BVH"), "{e}");
    }

    #[test]
    fn tampered_trees_with_shared_children_or_no_root_box_are_refused() {
        let boxes: Vec<Aabb3> =
            (0..500).map(|i| Aabb3::new(Vec3::splat(i as f32), Vec3::splat(i as f32 + 0.5))).collect();
        let bvh = Bvh::build(&boxes, BuildQuality::Balanced).unwrap();
        let json: serde_json::Value = serde_json::to_value(&bvh).unwrap();
        let tree = if json.get("tree").is_some() { "tree" } else { "inner" };
        let nodes = json[tree]["nodes"].as_array().unwrap();
        assert!(nodes.len() >= 3, "a tree deep enough to share a child");
        // Node 0's first inner child, given to a second lane of node 0 as well.
        let children = nodes[0]["children"].as_array().unwrap().clone();
        let inner =
            children.iter().find(|c| c.as_u64().is_some_and(|c| c < u64::from(u32::MAX >> 1))).unwrap();
        let mut shared = json.clone();
        let lane = children.iter().position(|c| c != inner).unwrap();
        shared[tree]["nodes"][0]["children"][lane] = inner.clone();
        let err = serde_json::from_value::<Bvh>(shared).unwrap_err().to_string();
        assert!(err.contains("has two parents"), "{err}");

        let mut inverted = json.clone();
        inverted[tree]["root_min"] = serde_json::json!([5.0, 5.0, 5.0]);
        inverted[tree]["root_max"] = serde_json::json!([0.0, 0.0, 0.0]);
        let err = serde_json::from_value::<Bvh>(inverted).unwrap_err().to_string();
        assert!(err.contains("the root box is not a box"), "{err}");

        let empty = Bvh::build(&[], BuildQuality::Balanced).unwrap();
        let back: Bvh = serde_json::from_str(&serde_json::to_string(&empty).unwrap()).unwrap();
        assert!(back.bounds().is_none());
    }

    #[test]
    fn deserialising_validates() {
        let inverted = r#"{"min":[0.0,2.0,0.0],"max":[1.0,1.0,1.0]}"#;
        let err = serde_json::from_str::<Aabb3>(inverted).unwrap_err().to_string();
        assert!(err.contains("min.y (2) is greater than max.y (1)"), "{err}");
        assert!(serde_json::from_str::<Sphere>(r#"{"center":[0,0,0],"radius":-1}"#).is_err());
        assert!(serde_json::from_str::<Ray2>(r#"{"origin":[0,0],"dir":[0,0],"t_min":0,"t_max":1}"#).is_err());
        assert!(serde_json::from_str::<Triangle3>("[[0,0,0],[1,1,1],[2,2,2]]").is_err());
        assert!(serde_json::from_str::<Capsule3>(r#"{"start":[0,0,0],"end":[0,1,0],"radius":-1}"#).is_err());
        let five = r#"{"normal":[1,0],"depth":0,"points":[[0,0],[0,0],[0,0],[0,0],[0,0]]}"#;
        assert!(serde_json::from_str::<Contact2>(five).is_err());
    }
}

#[cfg(test)]
mod send_sync {
    use super::*;

    fn assert_send_sync<T: Send + Sync + Copy + 'static>() {}

    #[test]
    fn every_public_type_is_send_sync_copy() {
        assert_send_sync::<(Ray2, Ray3, Aabb2, Aabb3, Obb2, Obb3, Circle, Sphere)>();
        assert_send_sync::<(Plane, Triangle3, RaySpan, RayHit2, RayHit3, RayPlane, RayTriangle)>();
        assert_send_sync::<(ShapeError, Side, SphereRoots, TriangleHit)>();
        assert_send_sync::<(Capsule2, Capsule3, Segment2, Segment3, Contact2, Contact3, SweepHit2, SweepHit3)>(
        );
    }
}

/// The README's example runs as a doc test, so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
