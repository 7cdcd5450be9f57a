//! JSON Lines in and out, for the commands that take one JSON object per line (`trace`,
//! `contents`).
//!
//! Takes a path or text; gives parsed lines with their 1-based line numbers, or writes the
//! output. Guarantees: blank lines are skipped; a line that does not parse is an input error
//! naming `FILE:LINE` (exit 1); I/O failures are exit 2.

use std::io::Write as _;
use std::path::Path;

use serde::de::DeserializeOwned;

use crate::CliError;

/// Reads `path` as JSON Lines of `T`, blank lines skipped, each with its line number; `check`
/// may refuse a parsed line with a message (the error then names the line).
pub fn read_lines<T: DeserializeOwned, U>(
    path: &Path,
    check: impl Fn(T) -> Result<U, String>,
) -> Result<Vec<U>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io(path, &e))?;
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |message: String| {
            CliError::input(format!(
                "{}:{}: error: {message}",
                path.display(),
                index + 1
            ))
        };
        let value: T = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
        out.push(check(value).map_err(bad)?);
    }
    Ok(out)
}

/// Writes `text` to `output`, or to standard output without one.
pub fn write_output(output: Option<&Path>, text: &str) -> Result<(), CliError> {
    match output {
        Some(path) => std::fs::write(path, text).map_err(|e| CliError::io(path, &e)),
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| CliError::io(Path::new("<stdout>"), &e)),
    }
}
