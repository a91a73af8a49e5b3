//! What every subcommand shares on the way out: the report (text or one line of JSON),
//! files written all at once or not at all, and progress bars only on a terminal.

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Map, Value};

use crate::GlobalArgs;
use crate::error::CliError;

/// The summary of a successful run: lines for people, fields for `--json`.
#[derive(Debug, Default)]
pub struct Report {
    lines: Vec<String>,
    fields: Map<String, Value>,
    /// Print on stderr, because stdout carries the command's data (`cast -o -`).
    on_stderr: bool,
}

impl Report {
    /// Adds a line of the text report.
    pub fn line(&mut self, text: impl Into<String>) {
        self.lines.push(text.into());
    }

    /// Adds a field of the JSON summary.
    pub fn field(&mut self, key: &str, value: impl Into<Value>) {
        self.fields.insert(key.to_owned(), value.into());
    }

    /// Sends the report to stderr (the data went to stdout).
    pub fn use_stderr(&mut self) {
        self.on_stderr = true;
    }

    /// Prints the report: one JSON line with `--json`, nothing with `--quiet`, else the text.
    pub fn print(self, command: &str, global: GlobalArgs) {
        let text = if global.json {
            let mut object = Map::new();
            object.insert("command".to_owned(), command.into());
            object.insert("ok".to_owned(), true.into());
            object.extend(self.fields);
            Value::Object(object).to_string()
        } else if global.quiet || self.lines.is_empty() {
            return;
        } else {
            self.lines.join("\n")
        };
        // A closed pipe (`raybox info | head -2`) is not an error worth a panic.
        let _ = if self.on_stderr {
            writeln!(std::io::stderr().lock(), "{text}")
        } else {
            writeln!(std::io::stdout().lock(), "{text}")
        };
    }
}

/// Writes `path` through `write`, all at once or not at all.
///
/// The data goes to a temporary file in the same directory, which is renamed over `path`
/// only when `write` succeeds; on failure the temporary file is deleted and `path` is left
/// as it was. A symbolic link is written through: the file it names is replaced, the link
/// kept. A path that holds something other than a file (a FIFO, a device such as
/// `/dev/null`) is written to directly, as it is: a rename would replace it (it did, until
/// an audit found `-o /dev/full` turned into a PNG file when run as root).
pub fn write_atomically<T>(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> Result<T, CliError>,
) -> Result<T, CliError> {
    let shown = path;
    // Follow links (relative ones from their own folder) to the path they name, which
    // need not exist yet.
    let mut target = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to = std::fs::read_link(&target).map_err(|e| CliError::writing(shown, &e))?;
                target = target.parent().map_or(to.clone(), |folder| folder.join(&to));
            }
            _ => break,
        }
    }
    if std::fs::symlink_metadata(&target).is_ok_and(|meta| meta.file_type().is_symlink()) {
        return Err(CliError::in_file(shown, "cannot write: too many levels of links"));
    }
    let path = target.as_path();
    if path.is_dir() {
        return Err(CliError::in_file(shown, "cannot write: is a directory"));
    }
    if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file()) {
        let file =
            std::fs::OpenOptions::new().write(true).open(path).map_err(|e| CliError::writing(shown, &e))?;
        let mut out = BufWriter::new(file);
        let value = write(&mut out)?;
        out.flush().map_err(|e| CliError::writing(shown, &e))?;
        return Ok(value);
    }
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(CliError::in_file(shown, "cannot write: the directory does not exist"));
    }
    let mut builder = tempfile::Builder::new();
    builder.prefix(".raybox-").suffix(".part");
    // A temporary file is private (0600); the output is an ordinary file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    let temp = builder.tempfile_in(dir).map_err(|e| CliError::writing(shown, &e))?;
    let (file, temp_path) = temp.into_parts();
    // On an error the `TempPath` deletes the file when dropped; on Ctrl-C no destructor
    // runs, so the interrupt handler deletes the files listed here.
    let _pending = PendingFile::new(temp_path.to_path_buf());
    let mut out = BufWriter::new(file);
    let value = write(&mut out)?;
    out.flush().map_err(|e| CliError::writing(shown, &e))?;
    drop(out);
    temp_path.persist(path).map_err(|e| CliError::writing(shown, &e.error))?;
    Ok(value)
}

/// The temporary files being written, for the Ctrl-C handler to delete.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Lists a temporary file in [`PENDING`] for as long as it lives.
struct PendingFile(PathBuf);

impl PendingFile {
    fn new(path: PathBuf) -> Self {
        PENDING.lock().unwrap_or_else(|e| e.into_inner()).push(path.clone());
        Self(path)
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        PENDING.lock().unwrap_or_else(|e| e.into_inner()).retain(|p| *p != self.0);
    }
}

/// Makes Ctrl-C (SIGINT; SIGTERM and SIGHUP too on Unix) delete the temporary files being
/// written and exit with status 130, so that an interrupted run leaves no `.raybox-*.part`
/// file behind. Without it the process would die at once, with no destructor run.
///
/// A file already renamed into place is not touched (its temporary name no longer exists).
pub fn clean_up_on_interrupt() {
    let result = ctrlc::set_handler(|| {
        for path in PENDING.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let _ = std::fs::remove_file(path);
        }
        eprintln!("raybox: interrupted");
        std::process::exit(130);
    });
    // Without a handler (another one installed, or no signal support) Ctrl-C still stops
    // the command; it may then leave a `.raybox-*.part` file.
    let _ = result;
}

/// A progress bar on stderr when stderr is a terminal and the user wants a report; a
/// hidden one otherwise (pipes, files, `--quiet`, `--json`).
pub fn progress_bar(len: u64, what: &str, global: GlobalArgs) -> ProgressBar {
    if global.quiet || global.json || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let style =
        ProgressStyle::with_template("{msg:>10} [{bar:40}] {percent:>3}% {elapsed_precise} (eta {eta})")
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(what.to_owned());
    bar
}
