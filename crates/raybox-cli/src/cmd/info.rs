//! `raybox info`: what a mesh holds, and its BVH for each build quality.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use raybox::{BuildQuality, TriMesh};
use serde_json::json;

use crate::GlobalArgs;
use crate::error::CliError;
use crate::mesh_file;
use crate::output::Report;

/// Arguments of `raybox info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The mesh (OBJ, PLY, STL, glTF/GLB); the embedded Stanford bunny if omitted or `@bunny`.
    pub mesh: Option<PathBuf>,
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Runs `raybox info`.
pub fn run(args: &InfoArgs, _global: GlobalArgs) -> Result<Report, CliError> {
    let path = mesh_file::mesh_path(args.mesh.as_deref());
    let (name, data) = mesh_file::load_or_bunny(path)?;
    let mut report = Report::default();
    let mut builds = Vec::new();
    let mut first: Option<TriMesh> = None;
    for (label, quality) in
        [("fast", BuildQuality::Fast), ("balanced", BuildQuality::Balanced), ("high", BuildQuality::High)]
    {
        let start = Instant::now();
        let mesh =
            TriMesh::with_quality(data.vertices.clone(), data.indices.clone(), quality).map_err(|e| {
                match &args.mesh {
                    Some(path) => CliError::in_file(path, e),
                    None => CliError::new(e),
                }
            })?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        builds.push((label, ms, mesh.bvh_stats()));
        first.get_or_insert(mesh);
    }
    let mesh = first.expect("three builds");

    report.line(format!("mesh: {name}"));
    report.line(format!("  triangles: {}", thousands(mesh.triangle_count())));
    report.line(format!("  vertices: {}", thousands(mesh.vertices().len())));
    report.line(format!(
        "  degenerate triangles (zero area, never hit): {}",
        thousands(mesh.degenerate_count())
    ));
    let bounds = mesh.bounds();
    match bounds {
        Some(b) => {
            let v = |p: glam::Vec3| format!("({}, {}, {})", p.x, p.y, p.z);
            report.line(format!("  bounds: min {}, max {}, size {}", v(b.min()), v(b.max()), v(b.size())));
        }
        None => report.line("  bounds: none (every triangle is degenerate)"),
    }
    report.line("  BVH (8-wide):  quality   build ms   nodes   leaves  depth  SAH cost");
    for (label, ms, s) in &builds {
        report.line(format!(
            "                 {label:<9} {ms:>8.2} {:>7} {:>8} {:>6} {:>9.2}",
            thousands(s.node_count),
            thousands(s.leaf_count),
            s.depth,
            s.sah_cost
        ));
    }

    report.field("mesh", name);
    report.field("triangles", mesh.triangle_count());
    report.field("vertices", mesh.vertices().len());
    report.field("degenerate_triangles", mesh.degenerate_count());
    report.field("bounds", bounds.map(|b| json!({ "min": b.min().to_array(), "max": b.max().to_array() })));
    report.field(
        "bvh",
        builds
            .iter()
            .map(|(label, ms, s)| {
                json!({
                    "quality": label,
                    "build_ms": ms,
                    "nodes": s.node_count,
                    "leaves": s.leaf_count,
                    "depth": s.depth,
                    "sah_cost": s.sah_cost,
                })
            })
            .collect::<Vec<_>>(),
    );
    Ok(report)
}
