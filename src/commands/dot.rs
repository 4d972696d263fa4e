//! `rgw dot FILE`: the rules automaton as a Graphviz picture.

use std::path::Path;
use std::process::{Command, ExitCode};

use crate::cli::OptimizeArgs;
use crate::pipeline::{optimizing, translation};
use crate::source::{CliError, Source};

pub fn run(
    path: &Path,
    output: Option<&Path>,
    svg: bool,
    args: &OptimizeArgs,
) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    let game = optimizing::apply(translation::to_rg(&source)?.game, args)?;
    let text = rg_core::dot::to_dot(&game, &source.name());
    let bytes = if svg {
        render_svg(&text)?
    } else {
        text.into_bytes()
    };
    match output {
        Some(out) => std::fs::write(out, bytes)
            .map_err(|e| CliError::Failed(format!("error: cannot write {}: {e}", out.display())))?,
        None => {
            use std::io::Write;
            let _ = std::io::stdout().write_all(&bytes);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs Graphviz's `dot -Tsvg`.
fn render_svg(dot: &str) -> Result<Vec<u8>, CliError> {
    use std::io::Write;
    let child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return Err(CliError::Failed(
            "error: --svg needs Graphviz's `dot`, which is not installed; install Graphviz \
             (Debian/Ubuntu: `apt install graphviz`, macOS: `brew install graphviz`) or drop --svg \
             and render the DOT output yourself"
                .to_string(),
        ));
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(dot.as_bytes());
    }
    let out = child
        .wait_with_output()
        .map_err(|e| CliError::Failed(format!("error: running dot failed: {e}")))?;
    if !out.status.success() {
        return Err(CliError::Failed(format!(
            "error: dot failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(out.stdout)
}
