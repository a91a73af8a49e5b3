//! What the mesh benchmarks share: the check that a peer's closest hits agree with
//! raybox's before either is timed, and the machine line of a report.

use raybox::{Ray3, TriMesh};

use crate::mesh_peers::MeshPeer;

/// Relative tolerance on a closest hit's `t`.
pub const T_RTOL: f32 = 1e-4;
/// About how many rays of a set the check samples.
pub const SAMPLE: usize = 4096;

/// How a peer's closest hits compare with raybox's on a sample of rays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Rays checked.
    pub sample: usize,
    /// Of those, rays raybox hits.
    pub hits: usize,
    /// Rays one library hits and the other misses.
    pub hit_miss: usize,
    /// Rays both hit, at `t` values further apart than [`T_RTOL`] relative.
    pub far_t: usize,
}

impl Agreement {
    /// The disagreements accepted: 0.1% of the sample (at least 2), the rays that pass
    /// within rounding of a silhouette or a shared edge, where a non-watertight triangle
    /// test may miss the near triangle and report the one behind it.
    #[must_use]
    pub fn allowed(&self) -> usize {
        (self.sample / 1000).max(2)
    }

    /// Whether the peer agrees with raybox closely enough to be timed beside it.
    #[must_use]
    pub fn agrees(&self) -> bool {
        self.hit_miss + self.far_t <= self.allowed()
    }

    /// One line for a report: `4096 rays (2210 hits): 0 hit/miss, 0 t beyond 1e-4`.
    #[must_use]
    pub fn summary(&self) -> String {
        format!(
            "{} rays ({} hits): {} hit/miss, {} t beyond {T_RTOL:e} (accepted: {})",
            self.sample,
            self.hits,
            self.hit_miss,
            self.far_t,
            self.allowed()
        )
    }
}

/// Whether two closest-hit answers agree: both miss, or both hit within [`T_RTOL`].
#[must_use]
pub fn same_hit(ours: Option<f32>, theirs: Option<f32>) -> bool {
    match (ours, theirs) {
        (None, None) => true,
        (Some(a), Some(b)) => (a - b).abs() <= T_RTOL * a.abs().max(b.abs()),
        _ => false,
    }
}

/// Checks `peer` against `mesh` on about [`SAMPLE`] rays spread evenly over `rays`
/// (`peer_rays[i]` is `rays[i]` in the peer's type).
///
/// # Panics
/// If the two ray lists differ in length.
pub fn check_peer<P: MeshPeer>(mesh: &TriMesh, peer: &P, rays: &[Ray3], peer_rays: &[P::Ray]) -> Agreement {
    assert_eq!(rays.len(), peer_rays.len());
    let step = (rays.len() / SAMPLE).max(1);
    let mut a = Agreement::default();
    for i in (0..rays.len()).step_by(step) {
        let ours = mesh.cast_ray(&rays[i]).map(|h| h.t);
        let theirs = peer.cast(&peer_rays[i]);
        a.sample += 1;
        a.hits += usize::from(ours.is_some());
        if ours.is_some() != theirs.is_some() {
            a.hit_miss += 1;
        } else if !same_hit(ours, theirs) {
            a.far_t += 1;
        }
    }
    a
}

/// The CPU's `model name` from `/proc/cpuinfo`, and the number of logical CPUs.
#[must_use]
pub fn cpu_line() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map_or("unknown", |m| m.trim_start_matches([' ', '\t', ':']));
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    format!("{model} ({cpus} logical CPUs)")
}

/// The short commit of the working tree (with `-dirty` when it has changes), if git is there.
#[must_use]
pub fn git_commit() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let Some(commit) = git(&["rev-parse", "--short", "HEAD"]) else { return "unknown".to_owned() };
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    if dirty { format!("{commit}-dirty") } else { commit }
}

/// Today's date and time in UTC, `YYYY-MM-DD HH:MM UTC`.
#[must_use]
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", rest / 3600, rest % 3600 / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_agree_within_the_relative_tolerance() {
        assert!(same_hit(None, None));
        assert!(same_hit(Some(100.0), Some(100.005)));
        assert!(!same_hit(Some(100.0), Some(100.02)));
        assert!(!same_hit(Some(1.0), None));
    }

    #[test]
    fn a_tenth_of_a_percent_may_disagree() {
        let a = Agreement { sample: 4096, hits: 2000, hit_miss: 3, far_t: 1 };
        assert!(a.agrees());
        assert!(!Agreement { far_t: 2, ..a }.agrees());
    }

    #[test]
    fn the_date_looks_like_a_date() {
        let d = utc_now();
        assert_eq!(d.len(), "2026-11-22 03:05 UTC".len(), "{d}");
        assert!(d.starts_with("20") && d.ends_with(" UTC"), "{d}");
    }
}
