//! `rgw fmt FILE [--check | --write]`: the canonical form of an RG file,
//! with its comments kept (`rg_core::print::print_game_with_comments`).

use std::path::Path;
use std::process::ExitCode;

use crate::source::{CliError, Language, Source};

/// What `fmt` does with the canonical text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Print it to stdout (the default: the file is never touched).
    Print,
    /// Only say whether the file is canonical (exit 1 if not).
    Check,
    /// Rewrite the file in place when it differs.
    Write,
}

impl Mode {
    pub fn new(check: bool, write: bool) -> Self {
        match (check, write) {
            (true, _) => Mode::Check,
            (false, true) => Mode::Write,
            (false, false) => Mode::Print,
        }
    }
}

pub fn run(path: &Path, mode: Mode) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    if source.language != Language::Rg {
        return Err(CliError::Usage(format!(
            "rgw fmt formats RG files; {} is a .{} file",
            source.name(),
            source.language.name()
        )));
    }
    let game = rg_core::parse::parse_game(&source.text).map_err(|d| source.invalid(&d))?;
    let formatted = rg_core::print::print_game_with_comments(&game, &source.text);
    let canonical = formatted == source.text;
    match mode {
        Mode::Print => print!("{formatted}"),
        Mode::Check if canonical => println!("{}: already canonical", source.name()),
        Mode::Check => {
            println!("{}: would be reformatted", source.name());
            return Ok(ExitCode::from(1));
        }
        Mode::Write if canonical => eprintln!("{}: already canonical", source.name()),
        Mode::Write => {
            std::fs::write(path, formatted).map_err(|e| {
                CliError::Failed(format!("error: cannot write {}: {e}", source.name()))
            })?;
            eprintln!("{}: formatted", source.name());
        }
    }
    Ok(ExitCode::SUCCESS)
}
