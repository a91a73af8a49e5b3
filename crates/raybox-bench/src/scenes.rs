//! The mesh scenes and ray sets of the BVH benchmarks (`bvh_build`, `bvh_trace` and the
//! `compare` binary), as issue 3 describes them.
//!
//! Scenes: the embedded Stanford bunny (3,674 triangles), the procedural terrain of
//! 1,002,528 triangles (`terrain(708, 1)`), and the Stanford dragon (871,414 triangles),
//! read from the cache that `scripts/fetch-dragon.sh` fills. Ray sets: a pinhole camera
//! looking at the scene (coherent primary rays, generated in 4x4 screen tiles) and rays
//! with random origins in the ball around the scene and random directions (incoherent).
//! Every direction has unit length, so `t` is a distance for every library, including
//! `bvh`, which normalises directions itself.

use std::path::{Path, PathBuf};

use glam::Vec3;
use raybox::mesh::scene;
use raybox::{MeshData, Ray3};

use crate::rng::Pcg32;

/// Cells per side of the benchmark terrain: `2 * 708^2 = 1,002,528` triangles.
pub const TERRAIN_CELLS: usize = 708;
/// The terrain's seed (its noise).
pub const TERRAIN_SEED: u64 = 1;
/// The seed of the incoherent rays.
pub const RAY_SEED: u64 = 20;

/// A named mesh.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Short name used in tables (`bunny`, `terrain`, `dragon`).
    pub name: &'static str,
    /// Vertices and triangles.
    pub data: MeshData,
}

/// The embedded bunny.
#[must_use]
pub fn bunny() -> Scene {
    Scene { name: "bunny", data: raybox::mesh::bunny() }
}

/// The 1M-triangle terrain (or a smaller one, for tests).
#[must_use]
pub fn terrain(cells: usize) -> Scene {
    Scene { name: "terrain", data: scene::terrain(cells, TERRAIN_SEED) }
}

/// The workspace root (two levels above this crate).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where `scripts/fetch-dragon.sh` puts the dragon: `$RAYBOX_SCENES/dragon.ply`, by
/// default `target/scenes/dragon.ply` under the workspace root.
#[must_use]
pub fn dragon_path() -> PathBuf {
    let dir = std::env::var_os("RAYBOX_SCENES")
        .map_or_else(|| workspace_root().join("target/scenes"), PathBuf::from);
    dir.join("dragon.ply")
}

/// The Stanford dragon from the cache. When it is missing and `fetch` is set, runs
/// `scripts/fetch-dragon.sh` first (it needs `npm`). The error says why there is no dragon.
///
/// # Errors
/// A message naming the missing file, the failed script or the unreadable mesh.
pub fn dragon(fetch: bool) -> Result<Scene, String> {
    let path = dragon_path();
    if !path.exists() && fetch {
        let script = workspace_root().join("scripts/fetch-dragon.sh");
        eprintln!("{} is missing: running {}", path.display(), script.display());
        let status = std::process::Command::new("bash")
            .arg(&script)
            .status()
            .map_err(|e| format!("could not run {}: {e}", script.display()))?;
        if !status.success() {
            return Err(format!("{} failed ({status}); is npm installed?", script.display()));
        }
    }
    if !path.exists() {
        return Err(format!("{} is missing (run scripts/fetch-dragon.sh)", path.display()));
    }
    let data = raybox::mesh::load(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Scene { name: "dragon", data })
}

/// The box around the vertices: `(min, max)`.
#[must_use]
pub fn bounds(data: &MeshData) -> (Vec3, Vec3) {
    data.vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)))
}

/// How many rays each set has: `size x size` camera rays and `random` incoherent rays.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    /// Camera resolution (square).
    pub camera: usize,
    /// Number of incoherent rays.
    pub random: usize,
}

impl Sizes {
    /// The sizes: 1024x1024 primary rays and 2^20 incoherent rays.
    pub const FULL: Self = Self { camera: 1024, random: 1 << 20 };
    /// For quick runs: 256x256 and 2^16.
    pub const QUICK: Self = Self { camera: 256, random: 1 << 16 };
}

/// A named list of rays.
#[derive(Clone, Debug)]
pub struct RaySet {
    /// `primary` or `incoherent`.
    pub name: &'static str,
    /// The rays, each with a unit direction and `t` in `[0, inf]`.
    pub rays: Vec<Ray3>,
}

/// Both ray sets for a scene.
#[must_use]
pub fn ray_sets(data: &MeshData, sizes: Sizes) -> [RaySet; 2] {
    [
        RaySet { name: "primary", rays: camera_rays(data, sizes.camera) },
        RaySet { name: "incoherent", rays: random_rays(data, sizes.random, RAY_SEED) },
    ]
}

/// A `size x size` pinhole camera looking at the centre of the scene's box from above and
/// in front (a 45-degree field of view, the scene filling most of the picture), rays
/// emitted in 4x4 pixel tiles, row by row, as a renderer would.
#[must_use]
pub fn camera_rays(data: &MeshData, size: usize) -> Vec<Ray3> {
    let (lo, hi) = bounds(data);
    let centre = (lo + hi) * 0.5;
    let extent = (hi - lo).length();
    let eye = centre + Vec3::new(0.3, 0.6, 1.0).normalize() * extent * 1.2;
    let forward = (centre - eye).normalize();
    let right = forward.cross(Vec3::Y).normalize();
    let up = right.cross(forward);
    let half = (22.5f32).to_radians().tan();
    let pixel = |x: usize, y: usize| {
        let sx = ((x as f32 + 0.5) / size as f32 * 2.0 - 1.0) * half;
        let sy = (1.0 - (y as f32 + 0.5) / size as f32 * 2.0) * half;
        Ray3::new(eye, (forward + right * sx + up * sy).normalize())
    };
    const TILE: usize = 4;
    let mut rays = Vec::with_capacity(size * size);
    for ty in (0..size).step_by(TILE) {
        for tx in (0..size).step_by(TILE) {
            for y in ty..(ty + TILE).min(size) {
                for x in tx..(tx + TILE).min(size) {
                    rays.push(pixel(x, y));
                }
            }
        }
    }
    rays
}

/// `n` rays with origins uniform in the ball around the scene's box (centre, half
/// diagonal) and uniformly random directions.
#[must_use]
pub fn random_rays(data: &MeshData, n: usize, seed: u64) -> Vec<Ray3> {
    let (lo, hi) = bounds(data);
    let (centre, radius) = ((lo + hi) * 0.5, (hi - lo).length() * 0.5);
    let mut rng = Pcg32::new(seed);
    (0..n).map(|_| Ray3::new(centre + rng.in_ball() * radius, rng.unit3())).collect()
}
