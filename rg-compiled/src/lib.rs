//! Compiled RG reasoners (issue #19): generates a self-contained Rust crate
//! with a game's forward model specialized, from the engine's [`Program`].
//!
//! The generated crate has no dependencies and no build script. Its fixed
//! part (`template/runtime.rs`: search state, move completion, keeper
//! completion, perft, playouts) mirrors `rg_core::engine::search`; the
//! generated part (`game.rs`) holds the game's tables and one function per
//! automaton node for move searches (`m<id>`) and one for reachability
//! searches (`r<id>`), each edge compiled to straight-line code. User names
//! (symbols, nodes) appear only as escaped string literals in tables;
//! identifiers are made from numeric ids, so a game file cannot inject code.

use std::path::{Path, PathBuf};
use std::process::Command;

use rg_core::engine::program::Program;

mod analysis;
mod cache;
mod gen;
mod invariants;
mod renumber;
#[cfg(test)]
mod test_games;
pub use cache::{cached_binary, cached_binary_with, BuildOutcome};
pub use gen::{Build, LARGE_GAME_EDGES};

const RUNTIME: &str = include_str!("template/runtime.rs");
const MAIN: &str = include_str!("template/main.rs");
const LIB: &str = include_str!("template/lib.rs");

/// A generated crate: file paths (relative to the crate root) and contents.
pub struct GeneratedCrate {
    /// The package and binary name (`rgc_<hash>`).
    pub name: String,
    pub files: Vec<(String, String)>,
}

/// A stable 64-bit content hash (FNV-1a followed by a mix), in hex.
pub fn content_hash(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part.as_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        // Separator so that ("ab", "c") and ("a", "bc") differ.
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut x = h;
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    format!("{:016x}", x ^ (x >> 31))
}

/// Most automaton edges (after optimization) a game may have to be
/// compiled: the generated code grows with the edges, and rustc needs
/// roughly a second per hundred of them (chess: 1,537 edges, 15 s; arimaa:
/// 10,273, minutes). The environment variable `RGW_COMPILED_MAX_EDGES`
/// sets another limit.
pub const DEFAULT_MAX_EDGES: usize = 20_000;

/// Refuses a game too large to compile (see [`DEFAULT_MAX_EDGES`]).
pub fn check_size(program: &Program) -> Result<(), String> {
    let limit = std::env::var("RGW_COMPILED_MAX_EDGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_MAX_EDGES);
    let edges = program.edges.len();
    if edges > limit {
        return Err(format!(
            "the game is too large to compile: {edges} automaton edges after optimization, \
             more than the limit of {limit} (building takes roughly a second per hundred \
             edges); set RGW_COMPILED_MAX_EDGES to raise it, or use --via rg"
        ));
    }
    Ok(())
}

/// Generates the crate for a compiled program (built for speed, or for
/// build time when the game is large: [`Build::for_program`]).
pub fn generate(program: &Program) -> GeneratedCrate {
    generate_with(program, Build::for_program(program))
}

/// Generates the crate for a compiled program with the given trade-off.
pub fn generate_with(program: &Program, build: Build) -> GeneratedCrate {
    let program = renumber::renumber(program);
    let game = gen::Generator::new(&program, build).game();
    let profile = release_profile(build);
    // The profile is hashed too: a binary cached under other settings is
    // not reused.
    let hash = content_hash(&[&game, RUNTIME, MAIN, LIB, &profile, CARGO_CONFIG]);
    let name = format!("rgc_{hash}");
    let cargo = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\nname = \"{name}\"\npath = \"src/lib.rs\"\n\n\
         [[bin]]\nname = \"{name}\"\npath = \"src/main.rs\"\n\n\
         {profile}\n\
         # A crate of its own, outside any enclosing workspace.\n[workspace]\n"
    );
    // The library is named after the game too: crates built into one
    // target directory (a user's `CARGO_TARGET_DIR`) would otherwise
    // overwrite each other's library.
    let main = MAIN.replace(
        "// @extern-crate",
        &format!("extern crate {name} as rgc_game;"),
    );
    GeneratedCrate {
        name,
        files: vec![
            ("Cargo.toml".into(), cargo),
            (".cargo/config.toml".into(), CARGO_CONFIG.into()),
            ("src/lib.rs".into(), LIB.into()),
            ("src/runtime.rs".into(), RUNTIME.into()),
            ("src/main.rs".into(), main),
            ("src/game.rs".into(), game),
        ],
    }
}

/// The crate's cargo configuration (read when cargo runs in the crate's
/// directory, as `cargo_build` does). Loops are aligned to 64 bytes: the
/// hot loops of the node functions were fast or 15% slower depending on
/// where unrelated changes put them (breakthrough perft), and aligned
/// they stay fast; hex_9x9 perft is 9% faster, the other games unchanged.
const CARGO_CONFIG: &str = "[build]\nrustflags = [\"-C\", \"llvm-args=-align-loops=64\"]\n";

/// The crate's `[profile.release]` section for a build trade-off.
fn release_profile(build: Build) -> String {
    // LLVM's optimization is most of the build. No LTO, not even rustc's
    // thin local LTO between codegen units: it took half of chess's build
    // (8 of 16 s), and the functions worth inlining across units are
    // marked `#[inline]`.
    format!(
        "[profile.release]\nopt-level = {}\ncodegen-units = {}\nlto = \"off\"\npanic = \"abort\"\ndebug = false\n",
        build.opt_level(),
        build.codegen_units()
    )
}

/// Writes a generated crate under `dir` (created if missing).
pub fn write_crate(krate: &GeneratedCrate, dir: &Path) -> std::io::Result<()> {
    for (path, text) in &krate.files {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        // Unchanged files keep their mtime, so cargo has nothing to redo.
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, text)?;
        }
    }
    Ok(())
}

/// Keeps rustc's freed memory mapped for the build's lifetime (jemalloc's
/// `MALLOC_CONF`; other programs ignore it).
pub const RUSTC_MALLOC_CONF: &str = "dirty_decay_ms:-1,muzzy_decay_ms:-1";

/// Runs `cargo build --release` on a crate directory with the given target
/// directory; returns the binary's path.
pub fn cargo_build(dir: &Path, target_dir: &Path, name: &str) -> Result<PathBuf, String> {
    // Absolute, since cargo runs in `dir`.
    let absolute = |p: &Path| std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()));
    let (dir, target_dir) = (absolute(dir)?, absolute(target_dir)?);
    let (dir, target_dir) = (dir.as_path(), target_dir.as_path());
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    if std::env::var_os("MALLOC_CONF").is_none() {
        // rustc's allocator (jemalloc) otherwise hands freed memory back to
        // the system as it goes and faults it in again: building arimaa's
        // crate made 61 million page faults, and on a virtual machine where
        // a fault is slow (4 µs here) the build took 167 s instead of 68 s.
        command.env("MALLOC_CONF", RUSTC_MALLOC_CONF);
    }
    let output = command
        // In the crate's directory, so that its `.cargo/config.toml` counts.
        .current_dir(dir)
        .arg("build")
        .arg("--release")
        .arg("--quiet")
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target_dir)
        // The enclosing build's settings must not leak into the game's.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo build of the compiled reasoner failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let binary = target_dir
        .join("release")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if binary.exists() {
        Ok(binary)
    } else {
        Err(format!("cargo built no binary at {}", binary.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::program;

    fn file<'a>(krate: &'a GeneratedCrate, path: &str) -> Option<&'a str> {
        krate
            .files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, text)| text.as_str())
    }

    fn manifest(krate: &GeneratedCrate) -> &str {
        file(krate, "Cargo.toml").expect("manifest")
    }

    /// Speed builds are one codegen unit at level 2, quick builds 16 at
    /// level 1; the settings are part of the crate's name, so a binary
    /// built under the other ones is never taken from the cache.
    #[test]
    fn the_build_trade_off_is_in_the_manifest_and_the_name() {
        let p = program(
            "type Player = { one };\ntype Score = { 0 };\nbegin, n: player = one;\nn, end: player = keeper;\n",
        );
        let speed = generate_with(&p, Build::Speed);
        let quick = generate_with(&p, Build::Quick);
        assert!(manifest(&speed).contains("opt-level = 2\ncodegen-units = 1\n"));
        assert!(manifest(&quick).contains("opt-level = 1\ncodegen-units = 16\n"));
        assert_ne!(speed.name, quick.name);
        assert_eq!(speed.name, generate_with(&p, Build::Speed).name);
        assert_eq!(file(&speed, ".cargo/config.toml"), Some(CARGO_CONFIG));
    }
}
