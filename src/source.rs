//! Reading input files and telling their language by extension.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rg_core::diag::{render_all, Diagnostic};

/// The input languages, chosen by file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Rg,
    Rbg,
    Gdl,
    Hrg,
    /// The early RBG draft (rbg-draft.md).
    RbgDraft,
    Replay,
}

impl Language {
    pub fn from_path(path: &Path) -> Option<Language> {
        match path.extension()?.to_str()? {
            "rg" => Some(Language::Rg),
            "rbg" => Some(Language::Rbg),
            "kif" | "gdl" => Some(Language::Gdl),
            "hrg" => Some(Language::Hrg),
            "rbgd" => Some(Language::RbgDraft),
            "replay" => Some(Language::Replay),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Language::Rg => "rg",
            Language::Rbg => "rbg",
            Language::Gdl => "gdl",
            Language::Hrg => "hrg",
            Language::RbgDraft => "rbgd",
            Language::Replay => "replay",
        }
    }
}

/// Every game file below `dir` (sorted), skipping the directory `skip` (an
/// output directory inside the library); RG files only with `include_rg`.
pub fn game_files(dir: &Path, skip: Option<&Path>, include_rg: bool) -> Vec<PathBuf> {
    let skip = skip.and_then(|s| s.canonicalize().ok());
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        if skip
            .as_ref()
            .is_some_and(|s| d.canonicalize().ok().as_ref() == Some(s))
        {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if matches!(Language::from_path(&path), Some(l) if include_rg || l != Language::Rg)
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A file's text, with the name used in diagnostics.
pub struct Source {
    pub path: PathBuf,
    pub language: Language,
    pub text: String,
}

impl Source {
    pub fn read(path: &Path) -> Result<Source, CliError> {
        let language = Language::from_path(path).ok_or_else(|| {
            CliError::Usage(format!(
                "cannot tell the language of {}: expected a .rg, .rbg, .rbgd, .kif, .gdl, .hrg or .replay file",
                path.display()
            ))
        })?;
        if language != Language::Replay {
            if let Some(option) = crate::pipeline::translation::replay_option_given() {
                return Err(CliError::Usage(format!(
                    "{option} applies to .replay files only, not to {}",
                    path.display()
                )));
            }
        }
        let bytes = std::fs::read(path)
            .map_err(|e| CliError::Failed(format!("error: cannot read {}: {e}", path.display())))?;
        // KIF comments may hold invalid UTF-8; everything else must be UTF-8.
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) if language == Language::Gdl => {
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
            Err(e) => {
                return Err(CliError::Failed(format!(
                    "error: {} is not valid UTF-8 (byte {})",
                    path.display(),
                    e.utf8_error().valid_up_to()
                )))
            }
        };
        Ok(Source {
            path: path.to_path_buf(),
            language,
            text,
        })
    }

    pub fn name(&self) -> String {
        self.path.display().to_string()
    }

    /// Renders diagnostics against this file.
    pub fn render(&self, diagnostics: &[Diagnostic]) -> String {
        render_all(diagnostics, &self.name(), &self.text)
    }

    /// A failure carrying these diagnostics, rendered.
    pub fn invalid(&self, diagnostics: &[Diagnostic]) -> CliError {
        CliError::Invalid(self.render(diagnostics))
    }
}

/// Why a command failed, and so which exit code it gives.
#[derive(Debug)]
pub enum CliError {
    /// Exit 2: the command line itself is wrong.
    Usage(String),
    /// Exit 1: the input is invalid; the text is the rendered diagnostics.
    Invalid(String),
    /// Exit 1: something else went wrong (I/O, a runtime error, a limit).
    Failed(String),
}

impl CliError {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Usage(_) => ExitCode::from(2),
            CliError::Invalid(_) | CliError::Failed(_) => ExitCode::from(1),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) => write!(f, "error: {message}"),
            CliError::Invalid(text) | CliError::Failed(text) => f.write_str(text.trim_end()),
        }
    }
}
