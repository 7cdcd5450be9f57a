//! `bspc`: the planeshift map compiler's command line, a thin shell over the library.
//!
//! Takes argv, reads and writes files, prints. Exit status: 0 when the input was read
//! (diagnostics or not), 1 on a syntax error in the input (`FILE:LINE:COL: error: ...`) or a
//! corrupt compiled file,
//! 2 on usage or I/O errors. Never panics on user input.

mod args;
mod check;
mod compile;
mod contents;
mod game;
mod jsonl;
mod trace;

use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

use args::{Args, Command};
use planeshift::CompileOptions;

/// A failure that ends the command, with its exit status.
#[derive(Debug)]
pub struct CliError {
    message: String,
    status: u8,
}

impl CliError {
    fn io(path: &Path, error: &std::io::Error) -> Self {
        CliError {
            message: format!("{}: error: {error}", path.display()),
            status: 2,
        }
    }

    fn syntax(path: &Path, error: &planeshift::map::ParseError) -> Self {
        CliError {
            message: format!("{}:{}: error: {}", path.display(), error.loc, error.kind),
            status: 1,
        }
    }

    fn corrupt(path: &Path, error: &planeshift::LoadError) -> Self {
        CliError {
            message: format!("{}: error: {}", path.display(), with_sources(error)),
            status: 1,
        }
    }

    fn input(message: String) -> Self {
        CliError { message, status: 1 }
    }

    fn usage(message: String) -> Self {
        CliError {
            message: format!("error: {message}"),
            status: 2,
        }
    }

    fn internal(error: impl std::error::Error) -> Self {
        CliError {
            message: format!("error: {}", with_sources(&error)),
            status: 2,
        }
    }
}

/// An error and its chain of sources, joined by `: `.
fn with_sources(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", e.message);
            ExitCode::from(e.status)
        }
    }
}

fn run(args: Args) -> Result<(), CliError> {
    match args.command {
        Command::Check {
            map,
            rules,
            mesh,
            pointfile,
            json,
        } => check::run(
            &map,
            json,
            (rules, mesh.options_for(&map)),
            pointfile.as_deref(),
        ),
        Command::Compile {
            map,
            output,
            json,
            rules,
            mesh,
            fill_outside,
            pointfile,
        } => compile::compile(
            &map,
            output,
            json,
            (
                CompileOptions {
                    fill_outside,
                    ..game::compile_options(rules)?
                },
                mesh.options_for(&map),
            ),
            pointfile.as_deref(),
        ),
        Command::Info { file, json } => compile::info(&file, json),
        Command::Trace {
            file,
            queries,
            output,
            shape,
            from,
            to,
            mask,
            bodies,
            rules,
            mesh,
        } => trace::trace(
            &file,
            queries.as_deref(),
            output.as_deref(),
            (shape, from, to),
            mask.as_deref(),
            bodies.as_deref(),
            (&game::compile_options(rules)?, &mesh.options_for(&file)),
        ),
        Command::Contents {
            world,
            points,
            output,
            rules,
            mesh,
        } => contents::contents(
            &world,
            &points,
            output.as_deref(),
            (&game::compile_options(rules)?, &mesh.options_for(&world)),
        ),
        Command::Bench {
            file,
            queries,
            reps,
            threads,
        } => trace::bench(&file, &queries, reps, usize::from(threads)),
    }
}
