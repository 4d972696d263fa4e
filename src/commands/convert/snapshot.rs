//! Snapshot testing of a library's translations: `--against PREVIOUS`
//! compares every translation with the one stored by a previous run, and
//! `--bless` makes this run's output the new snapshot.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::outcome::{Change, ChangeKind, GameReport};
use crate::source::CliError;

/// Lines of diff kept per changed game in the report.
const MAX_DIFF_LINES: usize = 60;

/// The comparison of a whole run with the snapshot.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Comparison {
    pub previous: String,
    pub unchanged: usize,
    pub changed: usize,
    pub new: usize,
    /// Games of the snapshot that this run did not produce.
    pub removed: Vec<String>,
}

impl Comparison {
    pub fn changed_anything(&self) -> bool {
        self.changed + self.new + self.removed.len() > 0
    }

    pub fn markdown(&self, games: &[GameReport]) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\n## Against `{}`\n\n{} unchanged, {} changed, {} new, {} removed.\n",
            self.previous,
            self.unchanged,
            self.changed,
            self.new,
            self.removed.len()
        );
        for g in games {
            let Some(change) = &g.change else { continue };
            match change.kind {
                ChangeKind::Unchanged => {}
                ChangeKind::New => {
                    let _ = writeln!(out, "- **new**: `{}`", g.file);
                }
                ChangeKind::Removed => {}
                ChangeKind::Changed => {
                    let perft = |p: Option<(u32, u64)>| {
                        p.map_or("-".to_string(), |(d, c)| format!("{c} (d{d})"))
                    };
                    let _ = writeln!(out, "### changed: `{}`\n", g.file);
                    for what in &change.outcome {
                        let _ = writeln!(out, "- {what}");
                    }
                    let _ = writeln!(
                        out,
                        "\nperft before {}, after {}\n",
                        perft(change.perft_before),
                        perft(change.perft_after),
                    );
                    if let Some(diff) = &change.diff {
                        let _ = writeln!(out, "```diff\n{diff}```\n");
                    }
                }
            }
        }
        for file in &self.removed {
            let _ = writeln!(out, "- **removed**: `{file}`");
        }
        out
    }

    /// The summary line, then every changed, new and removed game by path.
    pub fn terminal(&self, games: &[GameReport]) -> String {
        let mut out = format!(
            "\nagainst {}: {} unchanged, {} changed, {} new, {} removed\n",
            self.previous,
            self.unchanged,
            self.changed,
            self.new,
            self.removed.len()
        );
        for g in games {
            let Some(change) = &g.change else { continue };
            match change.kind {
                ChangeKind::Changed => {
                    let what = if change.outcome.is_empty() {
                        "translation".to_string()
                    } else {
                        change.outcome.join("; ")
                    };
                    let _ = writeln!(out, "changed {}: {what}", g.file);
                }
                ChangeKind::New => {
                    let _ = writeln!(out, "new {}", g.file);
                }
                ChangeKind::Unchanged | ChangeKind::Removed => {}
            }
        }
        for file in &self.removed {
            let _ = writeln!(out, "removed {file}");
        }
        out
    }
}

#[derive(Deserialize)]
struct PreviousReport {
    games: Vec<GameReport>,
}

fn perft_at(g: &GameReport) -> Option<(u32, u64)> {
    Some((g.verified_depth?, *g.perft.last()?))
}

/// An interrupted run's output holds only some games: as a snapshot, every
/// other game would look new. It is refused before anything is converted.
pub fn refuse_incomplete(previous: &Path) -> Result<(), CliError> {
    let report = std::fs::read_to_string(previous.join("report.json")).unwrap_or_default();
    let complete = serde_json::from_str::<serde_json::Value>(&report)
        .ok()
        .and_then(|r| r["summary"]["complete"].as_bool())
        .unwrap_or(true);
    if complete {
        Ok(())
    } else {
        Err(CliError::Usage(format!(
            "{} holds an interrupted run (its report is incomplete), not a snapshot; \
             convert the whole library into it first",
            previous.display()
        )))
    }
}

/// Compares this run's output (in `out`) with the snapshot in `previous`,
/// recording the change of every game.
pub fn compare(
    previous: &Path,
    out: &Path,
    games: &mut [GameReport],
) -> Result<Comparison, CliError> {
    let report_path = previous.join("report.json");
    let text = std::fs::read_to_string(&report_path).map_err(|e| {
        CliError::Usage(format!(
            "{} is not the output of an earlier rgw convert (cannot read {}: {e})",
            previous.display(),
            report_path.display()
        ))
    })?;
    let old: PreviousReport = serde_json::from_str(&text).map_err(|e| {
        CliError::Failed(format!(
            "error: {} is not a valid report: {e}",
            report_path.display()
        ))
    })?;
    let old: HashMap<String, GameReport> =
        old.games.into_iter().map(|g| (g.file.clone(), g)).collect();
    let mut comparison = Comparison {
        previous: previous.display().to_string(),
        ..Comparison::default()
    };
    for g in games.iter_mut() {
        let before = old.get(&g.file);
        let old_text = before
            .and_then(|b| b.output.as_ref())
            .and_then(|o| std::fs::read_to_string(previous.join(o)).ok());
        let new_text = g
            .output
            .as_ref()
            .and_then(|o| std::fs::read_to_string(out.join(o)).ok());
        let outcome = before.map(|b| outcome_changes(b, g)).unwrap_or_default();
        let kind = match (&before, &old_text, &new_text) {
            (None, _, _) => ChangeKind::New,
            _ if !outcome.is_empty() => ChangeKind::Changed,
            (Some(_), Some(a), Some(b)) if a == b => ChangeKind::Unchanged,
            (Some(_), None, None) => ChangeKind::Unchanged,
            _ => ChangeKind::Changed,
        };
        let diff = (kind == ChangeKind::Changed && old_text != new_text).then(|| {
            let a = old_text.as_deref().unwrap_or("");
            let b = new_text.as_deref().unwrap_or("");
            short_diff(a, b, &g.file)
        });
        match kind {
            ChangeKind::Unchanged => comparison.unchanged += 1,
            ChangeKind::Changed => comparison.changed += 1,
            ChangeKind::New => comparison.new += 1,
            ChangeKind::Removed => {}
        }
        g.change = Some(Change {
            kind,
            diff,
            perft_before: before.and_then(perft_at),
            perft_after: perft_at(g),
            outcome,
        });
    }
    let current: std::collections::HashSet<&str> = games.iter().map(|g| g.file.as_str()).collect();
    let mut removed: Vec<String> = old
        .keys()
        .filter(|f| !current.contains(f.as_str()))
        .cloned()
        .collect();
    removed.sort();
    comparison.removed = removed;
    Ok(comparison)
}

/// How a game's outcome changed since the snapshot: its status, how deep it
/// was verified (less deep, or no longer verified, also when verification
/// was not asked this time), its perft at the depths both runs counted, and
/// its error.
fn outcome_changes(before: &GameReport, now: &GameReport) -> Vec<String> {
    let mut changes = Vec::new();
    if before.status != now.status {
        changes.push(format!(
            "status {} → {}",
            before.status.name(),
            now.status.name()
        ));
    }
    let depth = |d: Option<u32>| d.map_or("none".to_string(), |d| d.to_string());
    if now.verified_depth < before.verified_depth {
        changes.push(format!(
            "verified depth {} → {}",
            depth(before.verified_depth),
            depth(now.verified_depth)
        ));
    }
    if let Some((d, (a, b))) = before
        .perft
        .iter()
        .zip(&now.perft)
        .enumerate()
        .find(|(_, (a, b))| a != b)
    {
        changes.push(format!("perft at depth {d} {a} → {b}"));
    }
    if before.error != now.error {
        let error = |e: &Option<String>| e.clone().unwrap_or_else(|| "none".to_string());
        changes.push(format!(
            "error {} → {}",
            error(&before.error),
            error(&now.error)
        ));
    }
    changes
}

/// A unified diff of two translations, cut to [`MAX_DIFF_LINES`].
fn short_diff(old: &str, new: &str, name: &str) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let text = diff
        .unified_diff()
        .context_radius(2)
        .header(&format!("previous/{name}"), &format!("current/{name}"))
        .to_string();
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= MAX_DIFF_LINES {
        return text;
    }
    let mut cut: String = lines[..MAX_DIFF_LINES].join("\n");
    let _ = writeln!(cut, "\n... ({} more lines)", lines.len() - MAX_DIFF_LINES);
    cut
}

/// Replaces the snapshot in `previous` with this run's output.
pub fn bless(out: &Path, previous: &Path) -> Result<(), CliError> {
    let fail = |e: std::io::Error| {
        CliError::Failed(format!("error: cannot update {}: {e}", previous.display()))
    };
    if previous.exists() {
        std::fs::remove_dir_all(previous).map_err(fail)?;
    }
    copy_tree(out, previous).map_err(fail)
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
