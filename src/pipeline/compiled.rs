//! `--via compiled`: the game's RG (after the default optimizer) compiled
//! into a Rust crate by `rg-compiled`, built once into a cache keyed by the
//! generated code's content hash, and run as a subprocess that prints one
//! JSON object per line.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rg_core::engine::{Engine, EngineOptions};

use crate::cli::{ModelArgs, OptimizeArgs};
use crate::source::{CliError, Source};

/// The cache root: `$RGW_COMPILED_CACHE`, else the user's cache directory
/// (`$XDG_CACHE_HOME/rgw/compiled` or `~/.cache/rgw/compiled`).
pub fn cache_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("RGW_COMPILED_CACHE") {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("rgw").join("compiled")
}

/// The engine whose program is compiled: the file's RG, optimized with the
/// default pipeline unless `--passes` chose other passes.
pub fn engine(source: &Source, args: &ModelArgs) -> Result<Engine, CliError> {
    let game = super::translation::to_rg(source)?.game;
    let optimize = OptimizeArgs {
        optimize: true,
        passes: args.optimize.passes.clone(),
    };
    let game = super::optimizing::apply(game, &optimize)?;
    super::models::engine_for(source, &game, args)
}

/// Run-time options of the engine as the reasoner's command-line flags.
pub fn option_flags(options: &EngineOptions) -> Vec<String> {
    let mut flags = Vec::new();
    if options.expose_keeper {
        flags.push("--expose-keeper".to_string());
    }
    if options.first_keeper_walk {
        flags.push("--first-keeper-walk".to_string());
    }
    if options.lenient {
        flags.push("--lenient".to_string());
    }
    flags.push("--step-limit".to_string());
    flags.push(options.step_limit.to_string());
    flags
}

/// A built reasoner, ready to run.
pub struct Reasoner {
    pub binary: PathBuf,
    pub flags: Vec<String>,
    /// Generation plus cargo time (cargo's part is zero when cached).
    pub compile_time: Duration,
    pub cached: bool,
}

/// Generates and builds (or reuses) the reasoner of a game.
pub fn reasoner(source: &Source, args: &ModelArgs) -> Result<Reasoner, CliError> {
    let start = Instant::now();
    let engine = engine(source, args)?;
    let root = cache_root();
    let outcome = rg_compiled::cached_binary(engine.program(), &root)
        .map_err(|e| CliError::Failed(format!("error: --via compiled: {e}")))?;
    Ok(Reasoner {
        binary: outcome.binary,
        flags: option_flags(&engine_options(source, args)),
        compile_time: start.elapsed(),
        cached: outcome.cached,
    })
}

fn engine_options(source: &Source, args: &ModelArgs) -> EngineOptions {
    super::models::engine_options(source.language, args)
}

/// A reasoner counting for minutes must not outlive an rgw that was
/// killed (a timeout, a closed terminal): Linux ends it with its parent.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the child between fork and exec, where
    // only async-signal-safe calls are allowed; prctl is one and allocates
    // nothing.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_: &mut Command) {}

/// How a run of the reasoner ended.
pub enum Ended {
    Finished,
    /// The deadline passed; the reasoner was stopped.
    TimedOut,
}

/// Runs the reasoner with `args`, handing each JSON line to `on_line`;
/// an `{"error": ...}` line or a failed exit is an error.
pub fn run(
    reasoner: &Reasoner,
    args: &[String],
    deadline: Option<Instant>,
    on_line: &mut dyn FnMut(&serde_json::Value),
) -> Result<Ended, CliError> {
    let mut command = Command::new(&reasoner.binary);
    command
        .args(args)
        .args(&reasoner.flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    die_with_parent(&mut command);
    let mut child = command.spawn().map_err(|e| {
        CliError::Failed(format!(
            "error: cannot run {}: {e}",
            reasoner.binary.display()
        ))
    })?;
    let stdout = child.stdout.take().ok_or_else(|| {
        CliError::Failed("error: the compiled reasoner has no output".to_string())
    })?;
    let (send, receive) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let mut error = None;
    let mut timed_out = false;
    loop {
        let line = match deadline {
            Some(d) => match receive.recv_timeout(d.saturating_duration_since(Instant::now())) {
                Ok(line) => line,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    timed_out = true;
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            },
            None => match receive.recv() {
                Ok(line) => line,
                Err(_) => break,
            },
        };
        match serde_json::from_str::<serde_json::Value>(&line) {
            Ok(value) => {
                if let Some(message) = value.get("error").and_then(|m| m.as_str()) {
                    error = Some(message.to_string());
                } else {
                    on_line(&value);
                }
            }
            Err(_) => error = Some(format!("unexpected output: {line}")),
        }
    }
    if timed_out {
        // Ours to stop: the reasoner we spawned.
        let _ = child.kill();
    }
    let status = child.wait();
    let _ = reader.join();
    if timed_out {
        return Ok(Ended::TimedOut);
    }
    if let Some(message) = error {
        return Err(CliError::Failed(format!("error: {message}")));
    }
    match status {
        Ok(s) if s.success() => Ok(Ended::Finished),
        Ok(s) => Err(CliError::Failed(format!(
            "error: the compiled reasoner failed ({s})"
        ))),
        Err(e) => Err(CliError::Failed(format!(
            "error: the compiled reasoner failed: {e}"
        ))),
    }
}
