//! The cache of built reasoners: one crate directory per game (named by the
//! content hash of its generated code), built once. Each crate has a cargo
//! target directory of its own: the crates have no dependencies to share,
//! and cargo locks a target directory for the whole of a build, so a shared
//! one would make concurrent builds (tests, `rgw verify` of a library) wait
//! for each other.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rg_core::engine::Program;

use crate::{cargo_build, check_size, generate_with, write_crate, Build};

/// A built (or reused) reasoner.
pub struct BuildOutcome {
    pub binary: PathBuf,
    /// Time spent generating the crate.
    pub generate_time: Duration,
    /// Time spent in cargo (zero when the binary was cached).
    pub build_time: Duration,
    pub cached: bool,
}

/// Generates the crate for `program` under `root/crates/`, builds it into
/// `root/target/NAME/` unless that binary exists, and returns it.
pub fn cached_binary(program: &Program, root: &Path) -> Result<BuildOutcome, String> {
    cached_binary_with(program, root, Build::for_program(program))
}

/// [`cached_binary`] with the given build trade-off.
pub fn cached_binary_with(
    program: &Program,
    root: &Path,
    build: Build,
) -> Result<BuildOutcome, String> {
    check_size(program)?;
    let start = Instant::now();
    let krate = generate_with(program, build);
    let generate_time = start.elapsed();
    let target_dir = root.join("target").join(&krate.name);
    let binary =
        target_dir
            .join("release")
            .join(format!("{}{}", krate.name, std::env::consts::EXE_SUFFIX));
    if binary.exists() {
        return Ok(BuildOutcome {
            binary,
            generate_time,
            build_time: Duration::ZERO,
            cached: true,
        });
    }
    let dir = root.join("crates").join(&krate.name);
    write_crate(&krate, &dir)
        .map_err(|e| format!("cannot write the crate to {}: {e}", dir.display()))?;
    let start = Instant::now();
    let binary = cargo_build(&dir, &target_dir, &krate.name)?;
    Ok(BuildOutcome {
        binary,
        generate_time,
        build_time: start.elapsed(),
        cached: false,
    })
}
