//! Running the built `raybox` binary in a scratch directory.

#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What one run of the binary did.
pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `raybox args…` in `dir`, with stdin closed.
pub fn raybox(dir: &Path, args: &[&str]) -> Run {
    let Output { status, stdout, stderr } = Command::new(env!("CARGO_BIN_EXE_raybox"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the raybox binary runs");
    Run {
        status: status.code().expect("raybox exited, not killed"),
        stdout: String::from_utf8(stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
    }
}

impl Run {
    /// Asserts exit status 2 and exactly one line on stderr containing `expected`.
    pub fn assert_fails_with(&self, expected: &str) {
        assert_eq!(self.status, 2, "exit status; stderr: {}", self.stderr);
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "one error line, got: {:?}", self.stderr);
        assert!(lines[0].contains(expected), "expected {expected:?} in {:?}", lines[0]);
    }

    /// Asserts exit status 0, showing stderr otherwise.
    pub fn assert_ok(&self) {
        assert_eq!(self.status, 0, "raybox failed: {}", self.stderr);
    }

    /// The `--json` line of stdout, parsed.
    pub fn json(&self) -> serde_json::Value {
        let lines: Vec<&str> = self.stdout.lines().collect();
        assert_eq!(lines.len(), 1, "one JSON line on stdout, got: {:?}", self.stdout);
        serde_json::from_str(lines[0]).expect("stdout is JSON")
    }
}

/// The names of the files in `dir` (to check that a failed run left nothing behind).
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("readable dir")
        .map(|e| e.expect("dir entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
