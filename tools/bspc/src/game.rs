//! `--game`: a built-in game's name or a custom game's TOML file, and the compile options
//! it gives with `--shaders`, `--textures` and `--patch-tolerance`.
//!
//! Takes the raw `--game` and `--shaders` values; gives [`CompileOptions`]. A value ending
//! in `.toml` (any case) is a file, read and checked here: an unreadable file exits 2
//! (`FILE: error: ...`), a malformed one exits 1 (`FILE:LINE:COL: error: ...` when the TOML
//! reader says where, `FILE: error: ...` for a rule that is wrong).

use std::path::Path;

use planeshift::CompileOptions;
use planeshift::build::{CustomGame, CustomGameError};

use crate::CliError;
use crate::args::{GameArg, RulesArgs};

/// The compile options of `--shaders`, `--textures`, `--game` (a custom game's file read and checked) and
/// `--patch-tolerance`.
pub fn compile_options(
    RulesArgs {
        shaders: shader_folders,
        textures: texture_folders,
        game,
        patch_tolerance,
    }: RulesArgs,
) -> Result<CompileOptions, CliError> {
    let (game, custom_game) = match game {
        None => (None, None),
        Some(GameArg::Builtin(game)) => (Some(game), None),
        Some(GameArg::File(path)) => (None, Some(read_custom_game(&path)?)),
    };
    let defaults = CompileOptions::default();
    Ok(CompileOptions {
        shader_folders,
        texture_folders,
        game,
        custom_game,
        patch_tolerance: patch_tolerance.unwrap_or(defaults.patch_tolerance),
        ..defaults
    })
}

/// Reads and checks a custom game's TOML file.
fn read_custom_game(path: &Path) -> Result<CustomGame, CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::io(path, &e))?;
    let bad = |message: String| CliError::input(format!("{}{message}", path.display()));
    let text = String::from_utf8(bytes).map_err(|_| bad(": error: not UTF-8 text".to_owned()))?;
    CustomGame::from_toml(&text).map_err(|e| match e {
        CustomGameError::Toml(toml) => {
            let message = toml.message().trim_end().replace('\n', "; ");
            match toml.span() {
                Some(span) => {
                    let (line, column) = line_column(&text, span.start);
                    bad(format!(":{line}:{column}: error: {message}"))
                }
                None => bad(format!(": error: {message}")),
            }
        }
        other => bad(format!(": error: {other}")),
    })
}

/// The 1-based line and column (in characters) of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = text.get(..end).unwrap_or_default();
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_characters() {
        assert_eq!(line_column("a\nbc\nd", 4), (2, 3));
        assert_eq!(line_column("é\n", 1), (1, 1));
    }
}
