//! One game's outcome in a conversion: its status, sizes, verified perft,
//! and how it changed against a snapshot. The reports and the snapshot
//! comparison both read it.

use serde::{Deserialize, Serialize};

/// How a game fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Translated, and the native model agrees with the translation.
    Verified,
    /// Translated (not verified: not asked, or no native model).
    Translated,
    /// Not translated, or a model failed at run time.
    Failed,
    /// The native model and the translation disagree.
    Mismatch,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::Translated => "translated",
            Status::Failed => "failed",
            Status::Mismatch => "mismatch",
        }
    }
}

/// One game's line in the reports.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameReport {
    /// Path relative to the converted directory.
    pub file: String,
    pub language: String,
    pub status: Status,
    pub translate_ms: f64,
    pub nodes: usize,
    pub edges: usize,
    /// The deepest depth at which perft was computed (and, when verified,
    /// agreed).
    pub verified_depth: Option<u32>,
    /// Perft at depths 0..=verified_depth.
    pub perft: Vec<u64>,
    pub error: Option<String>,
    /// The RG file written, relative to the output directory.
    pub output: Option<String>,
    /// Remarks: a time limit reached, no native model, ...
    pub note: Option<String>,
    /// With `--against`: how the translation changed.
    pub change: Option<Change>,
}

impl GameReport {
    pub fn new(file: String, language: &str) -> GameReport {
        GameReport {
            file,
            language: language.to_string(),
            status: Status::Failed,
            translate_ms: 0.0,
            nodes: 0,
            edges: 0,
            verified_depth: None,
            perft: Vec::new(),
            error: None,
            output: None,
            note: None,
            change: None,
        }
    }

    pub fn failed(mut self, error: String) -> GameReport {
        self.status = Status::Failed;
        self.error = Some(error);
        self
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Unchanged,
    Changed,
    New,
    Removed,
}

/// How one game's translation compares with the snapshot.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Change {
    pub kind: ChangeKind,
    /// A short unified diff of the RG (changed games).
    pub diff: Option<String>,
    /// Perft at the verified depth before and after, as (depth, count).
    pub perft_before: Option<(u32, u64)>,
    pub perft_after: Option<(u32, u64)>,
    /// How the outcome changed (status, verified depth, perft, error),
    /// even when the RG text did not.
    #[serde(default)]
    pub outcome: Vec<String>,
}
