//! `rgw fmt FILE [--check]`: canonical formatting of RG files.

use std::path::Path;
use std::process::ExitCode;

use crate::source::{CliError, Language, Source};

pub fn run(path: &Path, check_only: bool) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    if source.language != Language::Rg {
        return Err(CliError::Usage(format!(
            "rgw fmt formats RG files; {} is a .{} file",
            source.name(),
            source.language.name()
        )));
    }
    let game = rg_core::parse::parse_game(&source.text).map_err(|d| source.invalid(&d))?;
    let formatted = rg_core::print::print_game(&game);
    if formatted == source.text {
        if check_only {
            println!("{}: already canonical", source.name());
        }
        return Ok(ExitCode::SUCCESS);
    }
    if check_only {
        println!("{}: would be reformatted", source.name());
        return Ok(ExitCode::from(1));
    }
    std::fs::write(path, formatted)
        .map_err(|e| CliError::Failed(format!("error: cannot write {}: {e}", source.name())))?;
    println!("{}: formatted", source.name());
    Ok(ExitCode::SUCCESS)
}
