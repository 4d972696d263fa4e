//! Helpers for the integration tests: running the `rgw` binary and
//! scratch directories.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What a run of `rgw` produced.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `rgw` with `args` from the workspace root.
pub fn rgw(args: &[&str]) -> Output {
    rgw_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

pub fn rgw_in(dir: &Path, args: &[&str]) -> Output {
    run(Command::new(env!("CARGO_BIN_EXE_rgw"))
        .args(args)
        .current_dir(dir))
}

/// Runs `rgw` with `args` and these environment variables.
pub fn rgw_with_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rgw"));
    command
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .envs(env.iter().copied());
    run(&mut command)
}

fn run(command: &mut Command) -> Output {
    let out = command.output().expect("rgw runs");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A path of the team corpus, relative to the workspace root.
pub fn team(path: &str) -> String {
    format!("corpus/{path}")
}

/// A fresh scratch directory, removed when dropped.
pub struct TempDir {
    pub path: PathBuf,
}

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let path =
            std::env::temp_dir().join(format!("rgw-test-{label}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir { path }
    }

    /// Writes a file (creating parent folders); returns its path as text.
    pub fn write(&self, name: &str, text: &str) -> String {
        let file = self.path.join(name);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&file, text).unwrap();
        file.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
