//! `rgw compile FILE -o DIR`: the game's compiled reasoner as a Rust crate
//! (rg-compiled); `--build` also builds it.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use crate::cli::{ModelArgs, OptimizeArgs};
use crate::pipeline::compiled;
use crate::source::{CliError, Source};

pub fn run(
    path: &Path,
    output: &Path,
    passes: Option<String>,
    build: bool,
) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    let args = ModelArgs {
        optimize: OptimizeArgs {
            optimize: true,
            passes,
        },
        ..ModelArgs::default()
    };
    let start = Instant::now();
    let engine = compiled::engine(&source, &args)?;
    rg_compiled::check_size(engine.program())
        .map_err(|e| CliError::Failed(format!("error: {}: {e}", source.name())))?;
    let krate = rg_compiled::generate(engine.program());
    rg_compiled::write_crate(&krate, output)
        .map_err(|e| CliError::Failed(format!("error: cannot write {}: {e}", output.display())))?;
    eprintln!(
        "{}: crate {} written to {} in {:.3} s",
        source.name(),
        krate.name,
        output.display(),
        start.elapsed().as_secs_f64()
    );
    if build {
        let start = Instant::now();
        let binary = rg_compiled::cargo_build(output, &output.join("target"), &krate.name)
            .map_err(|e| CliError::Failed(format!("error: {e}")))?;
        eprintln!(
            "{}: built {} in {:.3} s",
            source.name(),
            binary.display(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}
