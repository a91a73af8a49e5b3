//! The one error type of the command: a single line naming the file and what is wrong.

use std::fmt;
use std::path::Path;

/// A failure to report to the user: one line, no trailing period, no backtrace.
///
/// Build it with [`CliError::in_file`] whenever a file is involved, so that the message
/// starts with the file's name.
#[derive(Debug)]
pub struct CliError(String);

impl CliError {
    /// A message about no file in particular.
    pub fn new(message: impl fmt::Display) -> Self {
        Self(one_line(&message.to_string()))
    }

    /// `"{path}: {message}"`.
    pub fn in_file(path: &Path, message: impl fmt::Display) -> Self {
        Self(one_line(&format!("{}: {message}", path.display())))
    }

    /// An I/O failure while reading `path`, in words ("cannot read: no such file").
    pub fn reading(path: &Path, err: &std::io::Error) -> Self {
        Self::in_file(path, format!("cannot read: {}", io_reason(err)))
    }

    /// An I/O failure while writing `path`.
    pub fn writing(path: &Path, err: &std::io::Error) -> Self {
        Self::in_file(path, format!("cannot write: {}", io_reason(err)))
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The reason of an I/O error in plain words, without the "(os error 2)" suffix.
pub fn io_reason(err: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match err.kind() {
        ErrorKind::NotFound => "no such file or directory".to_owned(),
        ErrorKind::PermissionDenied => "permission denied".to_owned(),
        ErrorKind::IsADirectory => "is a directory".to_owned(),
        ErrorKind::NotADirectory => "a parent is not a directory".to_owned(),
        ErrorKind::InvalidData => "not valid UTF-8 text".to_owned(),
        _ => {
            let text = err.to_string();
            match text.find(" (os error") {
                Some(i) => text[..i].to_owned(),
                None => text,
            }
        }
    }
}

/// Joins the lines of a multi-line message (some parsers' errors have several) into one.
fn one_line(message: &str) -> String {
    message.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}
