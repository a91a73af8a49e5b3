//! `raybox render`: a mesh to a PNG, one primary ray per pixel (plus ambient-occlusion
//! rays with `--shade ao`), and how fast the rays went.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use std::sync::Arc;

use glam::{Affine3A, Quat, Vec3};
use image::{ImageEncoder, RgbImage};
use raybox::{Aabb3, BuildQuality, MeshHit, MeshInstances, Ray3, TriMesh};

use super::FAR_LIMIT;
use crate::GlobalArgs;
use crate::error::CliError;
use crate::mesh_file::{self, LoadedMesh};
use crate::output::{Report, progress_bar, write_atomically};

/// How a pixel whose ray hit the mesh is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Shade {
    /// The surface normal (facing the camera) as a colour: x red, y green, z blue.
    Normal,
    /// Distance along the ray: near is bright, far is dark.
    Depth,
    /// Ambient occlusion: the share of short rays from the hit point that escape.
    Ao,
}

/// The BVH build quality, as a command-line word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Quality {
    /// Quickest build.
    Fast,
    /// The default.
    Balanced,
    /// Best tree, slowest build.
    High,
}

impl Quality {
    /// The library's value.
    pub fn build_quality(self) -> BuildQuality {
        match self {
            Self::Fast => BuildQuality::Fast,
            Self::Balanced => BuildQuality::Balanced,
            Self::High => BuildQuality::High,
        }
    }
}

/// Arguments of `raybox render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The mesh to render (OBJ, PLY, STL, glTF/GLB); the embedded Stanford bunny if omitted or `@bunny`.
    pub mesh: Option<PathBuf>,
    /// Where to write the PNG.
    #[arg(short, long, default_value = "raybox.png")]
    pub output: PathBuf,
    /// Image size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "800x600", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Camera position X,Y,Z [default: in front of the mesh, slightly above and to the right, framing it].
    #[arg(long, value_parser = parse_vec3, allow_hyphen_values = true)]
    pub camera: Option<Vec3>,
    /// The point the camera looks at, X,Y,Z [default: the centre of the mesh's bounds].
    #[arg(long, value_parser = parse_vec3, allow_hyphen_values = true)]
    pub target: Option<Vec3>,
    /// The direction that is up in the picture, X,Y,Z.
    #[arg(long, default_value = "0,1,0", value_parser = parse_vec3, allow_hyphen_values = true)]
    pub up: Vec3,
    /// Vertical field of view in degrees.
    #[arg(long, default_value_t = 40.0)]
    pub fov: f32,
    /// How to colour the hits.
    #[arg(long, value_enum, default_value_t = Shade::Normal)]
    pub shade: Shade,
    /// Ambient-occlusion rays per pixel (with --shade ao).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub ao_samples: u32,
    /// BVH build quality.
    #[arg(long, value_enum, default_value_t = Quality::Balanced)]
    pub quality: Quality,
    /// Worker threads [default: one per core].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Render N×N×N copies of the mesh, each turned its own way, on a grid (one shared mesh
    /// placed by poses: raybox's `MeshInstances`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub copies: u32,
}

/// What the rays are cast at: the mesh, or copies of it placed by poses.
enum Target<'m> {
    Mesh(&'m TriMesh),
    Copies(MeshInstances),
}

impl<'m> Target<'m> {
    /// The mesh itself for `n == 1`; else `n³` copies on a grid 1.6 mesh sizes apart, each
    /// turned about its centre by a rotation from a fixed sequence (the same picture on
    /// every run).
    fn new(mesh: &'m TriMesh, n: u32) -> Result<Self, CliError> {
        if n == 1 {
            return Ok(Self::Mesh(mesh));
        }
        let bounds = mesh.bounds().ok_or_else(|| CliError::new("every triangle is degenerate"))?;
        let shared = Arc::new(mesh.clone());
        let step = 1.6 * bounds.size().max_element();
        let poses = (0..n * n * n).map(|i| {
            let cell = Vec3::new((i % n) as f32, (i / n % n) as f32, (i / (n * n)) as f32);
            let (a, b) = (hash(i) as f32 / u32::MAX as f32, hash(i ^ 0x5bd1_e995) as f32 / u32::MAX as f32);
            let axis = Vec3::new(a - 0.5, 1.0, b - 0.5).normalize();
            let turn = Quat::from_axis_angle(axis, std::f32::consts::TAU * a);
            // Turned about the mesh's centre, then moved to its cell.
            let pose = Affine3A::from_rotation_translation(
                turn,
                bounds.center() + cell * step - turn * bounds.center(),
            );
            (shared.clone(), pose)
        });
        let copies =
            MeshInstances::new(poses).map_err(|e| CliError::new(format!("placing the copies: {e}")))?;
        Ok(Self::Copies(copies))
    }

    fn bounds(&self) -> Option<Aabb3> {
        match self {
            Self::Mesh(mesh) => mesh.bounds(),
            Self::Copies(copies) => copies.bounds(),
        }
    }

    fn cast_rays_into(&self, rays: &[Ray3], hits: &mut Vec<Option<MeshHit>>) {
        match self {
            Self::Mesh(mesh) => mesh.cast_rays_into(rays, hits),
            Self::Copies(copies) => {
                hits.clear();
                hits.extend(copies.cast_rays(rays).into_iter().map(|hit| {
                    hit.map(|h| MeshHit {
                        t: h.t,
                        triangle: h.triangle,
                        u: h.u,
                        v: h.v,
                        normal: h.normal,
                        front_facing: h.front_facing,
                        point: h.point,
                    })
                }));
            }
        }
    }

    fn occluded_rays_into(&self, rays: &[Ray3], blocked: &mut Vec<bool>) {
        match self {
            Self::Mesh(mesh) => mesh.occluded_rays_into(rays, blocked),
            Self::Copies(copies) => *blocked = copies.occluded_rays(rays),
        }
    }
}

/// `800x600` as `(800, 600)`.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text.split_once(['x', 'X']).ok_or("expected WIDTHxHEIGHT, like 800x600")?;
    let parse = |s: &str| s.trim().parse::<u32>().ok().filter(|&n| (1..=16384).contains(&n));
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err("expected WIDTHxHEIGHT with each between 1 and 16384, like 800x600".to_owned()),
    }
}

/// `1,2.5,-3` as a `Vec3`.
pub fn parse_vec3(text: &str) -> Result<Vec3, String> {
    let parts: Vec<f32> = text
        .split(',')
        .map(|p| p.trim().parse::<f32>().map_err(|_| format!("`{p}` is not a number")))
        .collect::<Result<_, _>>()?;
    match parts.as_slice() {
        [x, y, z] if parts.iter().all(|c| c.is_finite()) => Ok(Vec3::new(*x, *y, *z)),
        [_, _, _] => Err("the coordinates must be finite".to_owned()),
        _ => Err(format!("expected X,Y,Z (3 numbers), found {}", parts.len())),
    }
}

/// A rayon pool with `threads` workers (all cores when `None`).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    if threads == Some(0) {
        return Err(CliError::new("--threads must be at least 1"));
    }
    if let Some(n) = threads.filter(|&n| n > MAX_THREADS) {
        return Err(CliError::new(format!("--threads must be at most {MAX_THREADS}, not {n}")));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::new(format!("cannot start worker threads: {e}")))
}

/// The most worker threads `--threads` may ask for (each holds a stack; more than the
/// machine's cores only shares them).
const MAX_THREADS: usize = 1024;

/// The colour of a pixel whose primary ray missed.
pub const BACKGROUND: [u8; 3] = [28, 30, 38];

/// A pinhole camera.
struct Camera {
    eye: Vec3,
    forward: Vec3,
    right: Vec3,
    up: Vec3,
    /// `tan(fov / 2)`.
    half_height: f32,
    aspect: f32,
}

impl Camera {
    fn new(args: &RenderArgs, mesh: &LoadedMesh, target_shape: &Target) -> Result<Self, CliError> {
        if !(args.fov > 1.0 && args.fov < 170.0) {
            return Err(CliError::new(format!("--fov must be between 1 and 170 degrees, not {}", args.fov)));
        }
        let bounds = target_shape
            .bounds()
            .ok_or_else(|| CliError::new(format!("{}: every triangle is degenerate", mesh.name)))?;
        // The camera's arithmetic (the scene's size, the eye's distance, the occlusion rays'
        // offsets and reach) must stay finite in `f32`.
        if let Some(extent) = super::too_far(&bounds) {
            return Err(CliError::new(format!(
                "{}: the mesh reaches {extent:e} from the origin: too far to render (at most {FAR_LIMIT:e} on every axis)",
                mesh.name
            )));
        }
        for (option, point) in [("--camera", args.camera), ("--target", args.target)] {
            if let Some(p) = point.filter(|p| p.abs().max_element() > FAR_LIMIT) {
                return Err(CliError::new(format!(
                    "{option} {p} is too far from the origin (at most {FAR_LIMIT:e} on every axis)"
                )));
            }
        }
        let center = bounds.center();
        let radius = (bounds.size().length() / 2.0).max(1e-6);
        let half_height = (args.fov.to_radians() / 2.0).tan();
        let target = args.target.unwrap_or(center);
        let eye = args.camera.unwrap_or_else(|| {
            // The distance at which the bounding sphere would just fit the vertical field
            // of view, less a fifth: a mesh rarely fills its bounding box's sphere (a grid of
            // copies fills more of it: nine tenths).
            let direction = Vec3::new(0.35, 0.3, 1.0).normalize();
            let fill = if matches!(target_shape, Target::Copies(_)) { 0.9 } else { 0.8 };
            target + direction * (radius / (args.fov.to_radians() / 2.0).sin()) * fill
        });
        let forward = (target - eye)
            .try_normalize()
            .ok_or_else(|| CliError::new("--camera and --target are the same point"))?;
        let right = forward
            .cross(args.up)
            .try_normalize()
            .ok_or_else(|| CliError::new("--up is parallel to the viewing direction"))?;
        let up = right.cross(forward);
        let aspect = args.size.0 as f32 / args.size.1 as f32;
        Ok(Self { eye, forward, right, up, half_height, aspect })
    }

    /// The primary ray through the centre of pixel `(x, y)` of a `w × h` image.
    fn ray(&self, x: u32, y: u32, w: u32, h: u32) -> Ray3 {
        let sx = (2.0 * (x as f32 + 0.5) / w as f32 - 1.0) * self.half_height * self.aspect;
        let sy = (1.0 - 2.0 * (y as f32 + 0.5) / h as f32) * self.half_height;
        let dir = (self.forward + self.right * sx + self.up * sy).normalize();
        Ray3::new(self.eye, dir)
    }
}

/// The side of the square pixel tiles the primary rays are cast in.
const TILE: u32 = 4;

/// The pixels of rows `y0..y1` of a `w`-wide image in 4x4 tiles, left to right, each
/// tile row by row (the tiles at the right and bottom edges may be narrower or shorter).
/// A tile's 16 rays are nearly parallel, so the batch casts trace each tile as one packet
/// (16 rays on AVX-512, two of 8 on AVX2), where the rays of a 16-pixel strip of one row
/// spread 4x wider across and often do not make a packet.
fn tile_order(w: u32, y0: u32, y1: u32) -> Vec<(u32, u32)> {
    let mut pixels = Vec::with_capacity(((y1 - y0) * w) as usize);
    for ty in (y0..y1).step_by(TILE as usize) {
        for tx in (0..w).step_by(TILE as usize) {
            for y in ty..(ty + TILE).min(y1) {
                pixels.extend((tx..(tx + TILE).min(w)).map(|x| (x, y)));
            }
        }
    }
    pixels
}

/// A small hash, good enough to spread ambient-occlusion samples (PCG output step).
fn hash(mut x: u32) -> u32 {
    x = x.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    let word = ((x >> ((x >> 28) + 4)) ^ x).wrapping_mul(277_803_737);
    (word >> 22) ^ word
}

/// The hit triangle's normal, turned to face the ray (triangles are two-sided).
fn facing(hit: &MeshHit, ray: &Ray3) -> Vec3 {
    if hit.normal.dot(ray.dir()) > 0.0 { -hit.normal } else { hit.normal }
}

/// A direction on the hemisphere around `n`, cosine-weighted, from two numbers in [0, 1).
fn cosine_direction(n: Vec3, u1: f32, u2: f32) -> Vec3 {
    let r = u1.sqrt();
    let phi = std::f32::consts::TAU * u2;
    let (a, b) = n.any_orthonormal_pair();
    (a * (r * phi.cos()) + b * (r * phi.sin()) + n * (1.0 - u1).max(0.0).sqrt()).normalize()
}

/// Runs `raybox render`.
pub fn run(args: &RenderArgs, global: GlobalArgs) -> Result<Report, CliError> {
    let pool = thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    let loaded = pool.install(|| {
        mesh_file::load_and_build(mesh_file::mesh_path(args.mesh.as_deref()), args.quality.build_quality())
    })?;
    let mesh = &loaded.mesh;
    if mesh.bounds().is_none() {
        return Err(CliError::new(format!("{}: every triangle is degenerate", loaded.name)));
    }
    // The mesh's own size is checked before copies multiply it.
    if let Some(extent) = mesh.bounds().as_ref().and_then(super::too_far) {
        return Err(CliError::new(format!(
            "{}: the mesh reaches {extent:e} from the origin: too far to render (at most {FAR_LIMIT:e} on every axis)",
            loaded.name
        )));
    }
    let start = Instant::now();
    let target = Target::new(mesh, args.copies)?;
    let place_time = start.elapsed();
    let camera = Camera::new(args, &loaded, &target)?;
    let (w, h) = args.size;
    let bounds = target.bounds().expect("checked by Camera::new");
    // The occlusion rays' reach and offset follow one mesh's size (with copies, not the
    // whole grid's: that would darken every copy by its neighbours).
    let scale = mesh.bounds().expect("checked above").size().length().max(1e-6);

    let mut image = RgbImage::from_pixel(w, h, image::Rgb(BACKGROUND));
    let bar = progress_bar(u64::from(h), "rendering", global);
    let mut trace_time = Duration::ZERO;
    let mut primary_rays = 0usize;
    let mut ao_rays = 0usize;
    let mut hits_total = 0usize;
    // Whole 4-pixel rows of tiles per chunk (see `tile_order`), about 64k rays.
    let rows_per_chunk = ((65_536 / w).max(TILE) / TILE * TILE).min(h);
    // Depth shading spans a fixed range around the mesh's centre (half its bounding
    // radius either way: where the visible surface mostly is), so that every batch of rows
    // is coloured on its own and memory stays one batch, whatever the picture's size.
    let center_distance = bounds.center().distance(camera.eye);
    let half_radius = 0.25 * bounds.size().length();
    let (t_near, t_far) = ((center_distance - half_radius).max(0.0), center_distance + half_radius);
    // Kept across chunks: the batch casts refill them (fresh pages for every chunk's
    // results cost about as much as casting rays at a small mesh).
    let (mut hits, mut blocked) = (Vec::new(), Vec::new());
    pool.install(|| {
        for y0 in (0..h).step_by(rows_per_chunk as usize) {
            let y1 = (y0 + rows_per_chunk).min(h);
            let pixels = tile_order(w, y0, y1);
            let rays: Vec<Ray3> = pixels.iter().map(|&(x, y)| camera.ray(x, y, w, h)).collect();
            let start = Instant::now();
            target.cast_rays_into(&rays, &mut hits);
            trace_time += start.elapsed();
            primary_rays += rays.len();
            hits_total += hits.iter().flatten().count();

            // Ambient occlusion: the share of short cosine-weighted rays that escape.
            let mut open = vec![1.0f32; hits.len()];
            if args.shade == Shade::Ao {
                let k = args.ao_samples;
                let mut ao: Vec<Ray3> = Vec::new();
                let mut owners = Vec::new();
                for (i, (hit, ray)) in hits.iter().zip(&rays).enumerate() {
                    let Some(hit) = hit else { continue };
                    let n = facing(hit, ray);
                    let origin = hit.point + n * (1e-4 * scale);
                    let (x, y) = pixels[i];
                    let pixel = (y * w + x) as usize;
                    for s in 0..k {
                        let seed = hash(pixel as u32 ^ hash(s.wrapping_mul(0x9e37_79b9)));
                        let (u1, u2) =
                            ((seed >> 8) as f32 / 16_777_216.0, (hash(seed) >> 8) as f32 / 16_777_216.0);
                        ao.push(Ray3::with_range(origin, cosine_direction(n, u1, u2), 0.0, 0.25 * scale));
                    }
                    owners.push(i);
                }
                let start = Instant::now();
                target.occluded_rays_into(&ao, &mut blocked);
                trace_time += start.elapsed();
                ao_rays += ao.len();
                for (&i, samples) in owners.iter().zip(blocked.chunks(k as usize)) {
                    open[i] = 1.0 - samples.iter().filter(|&&b| b).count() as f32 / k as f32;
                }
            }

            for (i, (hit, ray)) in hits.iter().zip(&rays).enumerate() {
                let Some(hit) = hit else { continue };
                let n = facing(hit, ray);
                let rgb = match args.shade {
                    Shade::Normal => (n * 0.5 + 0.5).to_array(),
                    Shade::Depth => {
                        let near =
                            if t_far > t_near { 1.0 - (hit.t - t_near) / (t_far - t_near) } else { 1.0 };
                        // Squared, for contrast where the surface is.
                        [0.1 + 0.9 * near.clamp(0.0, 1.0).powi(2); 3]
                    }
                    Shade::Ao => [open[i] * (0.55 + 0.45 * n.dot(-ray.dir()).max(0.0)); 3],
                };
                let (x, y) = pixels[i];
                image.put_pixel(x, y, image::Rgb(rgb.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8)));
            }
            bar.set_position(u64::from(y1));
        }
    });
    bar.finish_and_clear();

    write_atomically(&args.output, |out| {
        image::codecs::png::PngEncoder::new(out)
            .write_image(image.as_raw(), w, h, image::ExtendedColorType::Rgb8)
            .map_err(|e| CliError::in_file(&args.output, format!("cannot write the PNG: {e}")))
    })?;

    let total_rays = primary_rays + ao_rays;
    let secs = trace_time.as_secs_f64().max(1e-9);
    let mrays = total_rays as f64 / secs / 1e6;
    let shade = format!("{:?}", args.shade).to_lowercase();
    let quality = format!("{:?}", args.quality).to_lowercase();
    let mut report = Report::default();
    report.line(format!(
        "mesh: {} ({} triangles); BVH built in {:.2} ms ({quality})",
        loaded.name,
        crate::cmd::info::thousands(mesh.triangle_count()),
        loaded.build_time.as_secs_f64() * 1e3
    ));
    let copies = args.copies.pow(3) as usize;
    if copies > 1 {
        report.line(format!(
            "copies: {} placed by poses ({} triangles in all) in {:.2} ms",
            crate::cmd::info::thousands(copies),
            crate::cmd::info::thousands(copies * mesh.triangle_count()),
            place_time.as_secs_f64() * 1e3
        ));
    }
    report.line(format!(
        "rays: {} primary + {} ambient occlusion = {} in {:.1} ms: {mrays:.2} Mrays/s on {threads} thread{}",
        crate::cmd::info::thousands(primary_rays),
        crate::cmd::info::thousands(ao_rays),
        crate::cmd::info::thousands(total_rays),
        secs * 1e3,
        if threads == 1 { "" } else { "s" }
    ));
    report.line(format!(
        "wrote {} ({w}x{h}, {shade} shading, {} of {} pixels hit)",
        args.output.display(),
        hits_total,
        w * h
    ));
    report.field("mesh", loaded.name.clone());
    report.field("triangles", mesh.triangle_count());
    report.field("copies", copies);
    report.field("build_ms", loaded.build_time.as_secs_f64() * 1e3);
    report.field("output", args.output.display().to_string());
    report.field("width", w);
    report.field("height", h);
    report.field("shade", shade);
    report.field("primary_rays", primary_rays);
    report.field("ao_rays", ao_rays);
    report.field("pixels_hit", hits_total);
    report.field("trace_ms", secs * 1e3);
    report.field("mrays_per_s", mrays);
    report.field("threads", threads);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_cover_every_pixel_once_in_4x4_groups() {
        for (w, y0, y1) in [(8, 0, 8), (10, 4, 11), (1, 0, 3), (5, 2, 3)] {
            let pixels = tile_order(w, y0, y1);
            let mut seen = std::collections::HashSet::new();
            assert!(pixels.iter().all(|&p| seen.insert(p)), "a pixel twice: {w} {y0}..{y1}");
            assert_eq!(seen.len() as u32, w * (y1 - y0));
            assert!(pixels.iter().all(|&(x, y)| x < w && (y0..y1).contains(&y)));
            // Each run of 16 in a full tile lies in one 4x4 square, row by row.
            if w % TILE == 0 && (y1 - y0) % TILE == 0 {
                for tile in pixels.chunks(16) {
                    let (x0, ty) = (tile[0].0, tile[0].1);
                    let square = (0..16u32).map(|j| (x0 + j % TILE, ty + j / TILE));
                    assert!(tile.iter().copied().eq(square), "{tile:?}");
                }
            }
        }
        assert_eq!(tile_order(3, 0, 2), [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]);
    }
}
