//! `raybox cast`: rays from a file against a mesh, hits to a file.
//!
//! Formats (`--format`, the same for the rays and the hits):
//!
//! - **csv** rays: one ray a line, `ox,oy,oz,dx,dy,dz[,tmax]` (`tmax` may be `inf`, which
//!   is also the default). Blank lines and lines starting with `#` are skipped, and so is
//!   a first line whose first field is not a number (a header such as `ox,oy,…`).
//!   Hits: a header `t,triangle,u,v,nx,ny,nz`, then one line per ray, in order. A miss is
//!   a line of empty fields (`,,,,,,`), so the line count always matches and no value is
//!   NaN. With `--occluded`: a header `occluded`, then `1` (blocked) or `0` per ray.
//! - **bin** rays: records of 7 little-endian `f32`: `ox oy oz dx dy dz tmax` (28 bytes;
//!   `tmax = +inf` for an unbounded ray).
//!   Hits: records of 28 bytes, little-endian: `t: f32, triangle: u32, u, v, nx, ny, nz: f32`.
//!   A miss is `t = +inf`, `triangle = 0xFFFFFFFF` and zeros (no NaN). With `--occluded`:
//!   one byte per ray, 1 or 0.
//!
//! `u` and `v` are the barycentric weights of the triangle's second and third vertices;
//! `(nx, ny, nz)` is its unit geometric normal (`(v1 - v0) × (v2 - v0)`, not flipped
//! towards the ray). Rays are read and cast in batches (`--batch`), each batch on all
//! cores, so files larger than memory stream through. With `-o FILE` the hits go to a
//! temporary file renamed into place at the end; on stdout they are streamed, so an error
//! part-way (a malformed ray) leaves the earlier batches' hits written.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use glam::Vec3;
use raybox::{MeshHit, Ray3, TriMesh};

use crate::GlobalArgs;
use crate::cmd::info::thousands;
use crate::cmd::render::{Quality, thread_pool};
use crate::error::CliError;
use crate::mesh_file;
use crate::output::{Report, progress_bar, write_atomically};

/// The format of the ray and hit files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Text, one ray or hit a line.
    Csv,
    /// Little-endian 32-bit records.
    Bin,
}

/// Arguments of `raybox cast`.
#[derive(Args, Debug)]
pub struct CastArgs {
    /// The mesh (OBJ, PLY, STL, glTF/GLB), or `@bunny` for the embedded Stanford bunny.
    pub mesh: PathBuf,
    /// The rays (see --format); `-` for stdin.
    pub rays: PathBuf,
    /// Where to write the hits; stdout if omitted or `-`.
    ///
    /// A file is written whole or not at all (through a temporary file, deleted on an error
    /// or Ctrl-C). Stdout is streamed batch by batch: a bad ray part-way through leaves the
    /// hits of the batches before it on stdout; only the exit status (2) and the error line
    /// tell. Use -o for all-or-nothing output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Format of the rays and the hits [default: bin when RAYS ends in .bin, else csv].
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Any-hit queries: write whether each ray is blocked, not its closest hit.
    #[arg(long)]
    pub occluded: bool,
    /// Rays read and cast per batch.
    #[arg(long, default_value_t = 65_536, value_parser = clap::value_parser!(u64).range(1..=16_777_216))]
    pub batch: u64,
    /// BVH build quality.
    #[arg(long, value_enum, default_value_t = Quality::Balanced)]
    pub quality: Quality,
    /// Worker threads [default: one per core].
    #[arg(long)]
    pub threads: Option<usize>,
}

/// The bytes of one binary ray record.
const RAY_RECORD: usize = 28;

/// Reads rays a batch at a time.
struct RayReader<'a> {
    name: &'a Path,
    input: Box<dyn BufRead + 'a>,
    format: Format,
    /// Rays read so far (the next ray's index).
    count: usize,
    /// CSV: the current line number.
    line_no: usize,
    /// CSV: whether a data line or a header has been seen (a header may come only first).
    past_header: bool,
    line: String,
    record: Vec<u8>,
}

impl RayReader<'_> {
    /// Appends up to `max` rays to `rays`; returns `false` at the end of the input.
    fn next_batch(&mut self, max: usize, rays: &mut Vec<Ray3>) -> Result<bool, CliError> {
        rays.clear();
        while rays.len() < max {
            let ray = match self.format {
                Format::Csv => self.csv_ray()?,
                Format::Bin => self.bin_ray()?,
            };
            match ray {
                Some(ray) => rays.push(ray),
                None => return Ok(false),
            }
            self.count += 1;
        }
        Ok(true)
    }

    fn csv_ray(&mut self) -> Result<Option<Ray3>, CliError> {
        loop {
            self.line.clear();
            let read = self.input.read_line(&mut self.line).map_err(|e| CliError::reading(self.name, &e))?;
            if read == 0 {
                return Ok(None);
            }
            self.line_no += 1;
            let line = self.line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            // A header's first field is not a number (`nan` and `inf` are numbers: a first
            // ray with one is read, and refused, not skipped).
            let header = line.split(',').next().is_some_and(|first| first.trim().parse::<f32>().is_err());
            if !self.past_header {
                self.past_header = true;
                if header {
                    continue; // a header such as `ox,oy,oz,dx,dy,dz,tmax`
                }
            }
            let at =
                |what: String| CliError::new(format!("{}:{}: {what}", self.name.display(), self.line_no));
            let numbers: Vec<f32> = line
                .split(',')
                .map(|field| {
                    field.trim().parse::<f32>().map_err(|_| at(format!("`{}` is not a number", field.trim())))
                })
                .collect::<Result<_, _>>()?;
            if numbers.len() != 6 && numbers.len() != 7 {
                return Err(at(format!(
                    "expected 6 or 7 numbers (ox,oy,oz,dx,dy,dz[,tmax]), found {}",
                    numbers.len()
                )));
            }
            let t_max = numbers.get(6).copied().unwrap_or(f32::INFINITY);
            let origin = Vec3::new(numbers[0], numbers[1], numbers[2]);
            let dir = Vec3::new(numbers[3], numbers[4], numbers[5]);
            let ray = Ray3::try_with_range(origin, dir, 0.0, t_max)
                .map_err(|e| at(format!("ray {}: {e}", self.count)))?;
            return Ok(Some(ray));
        }
    }

    fn bin_ray(&mut self) -> Result<Option<Ray3>, CliError> {
        self.record.resize(RAY_RECORD, 0);
        let mut filled = 0;
        while filled < RAY_RECORD {
            let n =
                self.input.read(&mut self.record[filled..]).map_err(|e| CliError::reading(self.name, &e))?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        match filled {
            0 => return Ok(None),
            RAY_RECORD => {}
            partial => {
                return Err(CliError::in_file(
                    self.name,
                    format!(
                        "ends with {partial} bytes after ray {}: not a whole 28-byte ray \
                         (7 little-endian f32: ox oy oz dx dy dz tmax)",
                        self.count
                    ),
                ));
            }
        }
        let f = |k: usize| {
            f32::from_le_bytes([
                self.record[4 * k],
                self.record[4 * k + 1],
                self.record[4 * k + 2],
                self.record[4 * k + 3],
            ])
        };
        let origin = Vec3::new(f(0), f(1), f(2));
        let dir = Vec3::new(f(3), f(4), f(5));
        let ray = Ray3::try_with_range(origin, dir, 0.0, f(6)).map_err(|e| {
            CliError::in_file(
                self.name,
                format!("ray {} (byte {}): {e}", self.count, self.count * RAY_RECORD),
            )
        })?;
        Ok(Some(ray))
    }
}

/// What the run did.
#[derive(Default)]
struct Totals {
    rays: usize,
    hits: usize,
    trace_time: Duration,
}

fn write_hits(out: &mut dyn Write, format: Format, hits: &[Option<MeshHit>]) -> std::io::Result<()> {
    match format {
        Format::Csv => {
            for hit in hits {
                match hit {
                    Some(h) => writeln!(
                        out,
                        "{},{},{},{},{},{},{}",
                        h.t, h.triangle, h.u, h.v, h.normal.x, h.normal.y, h.normal.z
                    )?,
                    None => writeln!(out, ",,,,,,")?,
                }
            }
        }
        Format::Bin => {
            let mut buf = Vec::with_capacity(hits.len() * 28);
            for hit in hits {
                let (t, triangle, rest) = match hit {
                    Some(h) => (h.t, h.triangle, [h.u, h.v, h.normal.x, h.normal.y, h.normal.z]),
                    None => (f32::INFINITY, u32::MAX, [0.0; 5]),
                };
                buf.extend(t.to_le_bytes());
                buf.extend(triangle.to_le_bytes());
                for x in rest {
                    buf.extend(x.to_le_bytes());
                }
            }
            out.write_all(&buf)?;
        }
    }
    Ok(())
}

fn write_occluded(out: &mut dyn Write, format: Format, blocked: &[bool]) -> std::io::Result<()> {
    match format {
        Format::Csv => {
            for &b in blocked {
                out.write_all(if b { b"1\n" } else { b"0\n" })?;
            }
        }
        Format::Bin => {
            let bytes: Vec<u8> = blocked.iter().map(|&b| u8::from(b)).collect();
            out.write_all(&bytes)?;
        }
    }
    Ok(())
}

/// Reads every batch, casts it on all cores of the current pool, writes the answers.
fn stream(
    args: &CastArgs,
    pool: &rayon::ThreadPool,
    mesh: &TriMesh,
    reader: &mut RayReader<'_>,
    out: &mut dyn Write,
    out_name: &Path,
) -> Result<Totals, CliError> {
    let format = reader.format;
    let io = |e: std::io::Error| CliError::writing(out_name, &e);
    if format == Format::Csv {
        let header = if args.occluded { "occluded" } else { "t,triangle,u,v,nx,ny,nz" };
        writeln!(out, "{header}").map_err(io)?;
    }
    let mut totals = Totals::default();
    let mut rays = Vec::new();
    // Refilled batch after batch (fresh pages for each batch's answers would cost about as
    // much as the casts on a small mesh).
    let (mut hits, mut blocked) = (Vec::new(), Vec::new());
    let batch = usize::try_from(args.batch).unwrap_or(usize::MAX);
    loop {
        let more = reader.next_batch(batch, &mut rays)?;
        let start = Instant::now();
        if args.occluded {
            pool.install(|| mesh.occluded_rays_into(&rays, &mut blocked));
            totals.trace_time += start.elapsed();
            totals.hits += blocked.iter().filter(|&&b| b).count();
            write_occluded(out, format, &blocked).map_err(io)?;
        } else {
            pool.install(|| mesh.cast_rays_into(&rays, &mut hits));
            totals.trace_time += start.elapsed();
            totals.hits += hits.iter().flatten().count();
            write_hits(out, format, &hits).map_err(io)?;
        }
        totals.rays += rays.len();
        if !more {
            break;
        }
    }
    out.flush().map_err(io)?;
    Ok(totals)
}

/// Runs `raybox cast`.
pub fn run(args: &CastArgs, global: GlobalArgs) -> Result<Report, CliError> {
    let pool = thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    let mesh_path = mesh_file::mesh_path(Some(&args.mesh));
    let loaded = pool.install(|| mesh_file::load_and_build(mesh_path, args.quality.build_quality()))?;
    let format = args.format.unwrap_or_else(|| {
        let bin = args.rays.extension().is_some_and(|e| e.eq_ignore_ascii_case("bin"));
        if bin { Format::Bin } else { Format::Csv }
    });

    let from_stdin = args.rays.as_os_str() == "-";
    let (input, size): (Box<dyn Read>, Option<u64>) = if from_stdin {
        (Box::new(std::io::stdin().lock()), None)
    } else {
        let file = File::open(&args.rays).map_err(|e| CliError::reading(&args.rays, &e))?;
        let size = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(CliError::in_file(&args.rays, "cannot read: is a directory"));
        }
        (Box::new(file), size)
    };
    let bar = match size {
        Some(size) => progress_bar(size, "casting", global),
        None => indicatif::ProgressBar::hidden(),
    };
    let mut reader = RayReader {
        name: &args.rays,
        input: Box::new(BufReader::with_capacity(1 << 20, bar.wrap_read(input))),
        format,
        count: 0,
        line_no: 0,
        past_header: false,
        line: String::new(),
        record: Vec::new(),
    };

    let to_stdout = args.output.as_ref().is_none_or(|p| p.as_os_str() == "-");
    let wall = Instant::now();
    let totals = if to_stdout {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
        stream(args, &pool, &loaded.mesh, &mut reader, &mut out, Path::new("stdout"))?
    } else {
        let path = args.output.as_deref().expect("not stdout");
        write_atomically(path, |out| stream(args, &pool, &loaded.mesh, &mut reader, out, path))?
    };
    bar.finish_and_clear();
    let wall = wall.elapsed();

    let secs = totals.trace_time.as_secs_f64().max(1e-9);
    let mrays = totals.rays as f64 / secs / 1e6;
    let what = if args.occluded { "blocked" } else { "hit" };
    let output_name = if to_stdout {
        "stdout".to_owned()
    } else {
        args.output.as_ref().expect("a file").display().to_string()
    };
    let mut report = Report::default();
    if to_stdout {
        report.use_stderr();
    }
    report.line(format!(
        "mesh: {} ({} triangles); BVH built in {:.2} ms",
        loaded.name,
        thousands(loaded.mesh.triangle_count()),
        loaded.build_time.as_secs_f64() * 1e3
    ));
    report.line(format!(
        "rays: {} from {}, {} {what}; tracing {:.1} ms: {mrays:.2} Mrays/s on {threads} thread{} ({:.1} ms with reading and writing)",
        thousands(totals.rays),
        args.rays.display(),
        thousands(totals.hits),
        secs * 1e3,
        if threads == 1 { "" } else { "s" },
        wall.as_secs_f64() * 1e3
    ));
    report.line(format!("wrote {output_name} ({})", if format == Format::Csv { "csv" } else { "bin" }));
    report.field("mesh", loaded.name.clone());
    report.field("triangles", loaded.mesh.triangle_count());
    report.field("rays", totals.rays);
    report.field(if args.occluded { "blocked" } else { "hits" }, totals.hits);
    report.field("trace_ms", secs * 1e3);
    report.field("mrays_per_s", mrays);
    report.field("threads", threads);
    report.field("output", output_name);
    report.field("format", if format == Format::Csv { "csv" } else { "bin" });
    Ok(report)
}
