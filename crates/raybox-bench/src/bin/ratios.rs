//! Reads criterion's last run (`<target>/criterion`) and prints the README's tables:
//! for each group, raybox's median time per query beside its peer's (`parry` in
//! `primitives`, and `parry-local` for the groups where parry's kernel can run without a
//! pose; `seed` in `seed_methods`), and the throughput ratio.
//!
//! `cargo run --release -p raybox-bench --bin ratios [criterion-dir]`
//!
//! Both times come from the same run, so the ratio holds on a noisy machine where the
//! absolute times drift.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The throughput ratio each primitive should reach against parry (issue 3).
fn target(group: &str) -> f64 {
    if group.starts_with("overlaps Obb3-Obb3") { 6.0 } else { 3.0 }
}

fn criterion_dir() -> PathBuf {
    if let Some(arg) = std::env::args().nth(1) {
        return PathBuf::from(arg);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"), PathBuf::from);
    target.join("criterion")
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// Every `(group, function) -> median ns` below `dir`.
fn medians(dir: &Path) -> BTreeMap<String, BTreeMap<String, f64>> {
    let mut out: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "benchmark.json")
                && p.parent().is_some_and(|q| q.ends_with("new"))
            {
                let (Some(b), Some(est)) = (read_json(&p), read_json(&p.with_file_name("estimates.json")))
                else {
                    continue;
                };
                let (Some(g), Some(f), Some(ns)) = (
                    b["group_id"].as_str(),
                    b["function_id"].as_str(),
                    est["median"]["point_estimate"].as_f64(),
                ) else {
                    continue;
                };
                out.entry(g.to_owned()).or_default().insert(f.to_owned(), ns);
            }
        }
    }
    out
}

fn main() {
    let dir = criterion_dir();
    let all = medians(&dir);
    if all.is_empty() {
        eprintln!("no criterion results under {}: run `cargo bench -p raybox-bench` first", dir.display());
        std::process::exit(1);
    }
    let order = |g: &str| {
        (
            ["ray_span", "cast_ray", "overlaps", "contact", "sweep", "seed", "proto"]
                .iter()
                .position(|k| g.starts_with(k)),
            g.to_owned(),
        )
    };
    let mut groups: Vec<&String> = all.keys().collect();
    groups.sort_by_key(|g| order(g));

    for (peer, title, with_target) in [
        ("parry", "raybox against parry", true),
        ("parry-local", "raybox against parry's local kernels (no pose; see benches/primitives.rs)", true),
        ("seed", "raybox against the write-ups' methods", false),
        ("prototype", "raybox against the recommended kernels (src/prototypes.rs)", false),
    ] {
        let rows: Vec<_> =
            groups.iter().filter_map(|g| Some((g, all[*g].get("raybox")?, all[*g].get(peer)?))).collect();
        if rows.is_empty() {
            continue;
        }
        println!("\n{title} (median ns per query; ratio = raybox throughput / {peer} throughput)\n");
        if with_target {
            println!(
                "| query | raybox ns | {peer} ns | ratio | target | |\n| --- | ---: | ---: | ---: | ---: | --- |"
            );
        } else {
            println!("| method | raybox ns | {peer} ns | ratio |\n| --- | ---: | ---: | ---: |");
        }
        for (g, ours, theirs) in rows {
            let ratio = theirs / ours;
            if with_target {
                let t = target(g);
                let mark = if ratio >= t { "met" } else { "**below**" };
                println!("| {g} | {ours:.2} | {theirs:.2} | {ratio:.2}x | {t}x | {mark} |");
            } else {
                println!("| {g} | {ours:.2} | {theirs:.2} | {ratio:.2}x |");
            }
        }
    }
}
