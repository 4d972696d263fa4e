//! `rgw preprocess FILE.rbg`: the low-level RBG a (high-level) RBG file
//! expands to.

use std::path::Path;
use std::process::ExitCode;

use crate::source::{CliError, Language, Source};

/// `rgw preprocess FILE`: the low-level RBG of a high-level file.
pub fn run(path: &Path) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    if source.language != Language::Rbg {
        return Err(CliError::Usage(format!(
            "rgw preprocess expands RBG files; {} is a .{} file",
            source.name(),
            source.language.name()
        )));
    }
    let preprocessed = rbg::preprocess(&source.text).map_err(|d| source.invalid(&d))?;
    print!("{}", preprocessed.text);
    if !preprocessed.text.ends_with('\n') {
        println!();
    }
    Ok(ExitCode::SUCCESS)
}
