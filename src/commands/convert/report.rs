//! The conversion reports: `report.md` for people, `report.json` for tools,
//! and the summary table printed at the end of a run.

use std::fmt::Write;
use std::time::Duration;

use serde::Serialize;

use super::outcome::{GameReport, Status};
use super::snapshot::Comparison;
use super::ConvertOptions;
use crate::source::CliError;

/// Totals of a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub games: usize,
    pub verified: usize,
    pub translated: usize,
    pub failed: usize,
    pub mismatch: usize,
    pub seconds: f64,
    /// False when Ctrl-C stopped the run: `games` covers only the games
    /// done, of `games_found`.
    pub complete: bool,
    pub games_found: usize,
}

impl Summary {
    pub fn of(
        games: &[GameReport],
        _comparison: Option<&Comparison>,
        elapsed: Duration,
    ) -> Summary {
        let count = |s: Status| games.iter().filter(|g| g.status == s).count();
        Summary {
            games: games.len(),
            verified: count(Status::Verified),
            translated: count(Status::Translated),
            failed: count(Status::Failed),
            mismatch: count(Status::Mismatch),
            seconds: elapsed.as_secs_f64(),
            complete: true,
            games_found: games.len(),
        }
    }
}

#[derive(Serialize)]
struct JsonReport<'a> {
    directory: String,
    verify_depth: Option<u32>,
    time_limit_seconds: f64,
    summary: &'a Summary,
    games: &'a [GameReport],
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<&'a Comparison>,
}

/// Writes `report.md` and `report.json` into the output directory.
pub fn write(
    options: &ConvertOptions,
    games: &[GameReport],
    summary: &Summary,
    comparison: Option<&Comparison>,
) -> Result<(), CliError> {
    let json = JsonReport {
        directory: options.dir.display().to_string(),
        verify_depth: options.verify_depth,
        time_limit_seconds: options.time_limit.as_secs_f64(),
        summary,
        games,
        comparison,
    };
    let text =
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(format!("error: {e}")))?;
    let write = |name: &str, text: String| {
        let path = options.out.join(name);
        std::fs::write(&path, text)
            .map_err(|e| CliError::Failed(format!("error: cannot write {}: {e}", path.display())))
    };
    write("report.json", text + "\n")?;
    write("report.md", markdown(options, games, summary, comparison))
}

fn perft_text(g: &GameReport) -> String {
    match (g.verified_depth, g.perft.last()) {
        (Some(d), Some(count)) => format!("{count} (d{d})"),
        _ => String::new(),
    }
}

/// Escapes text for a markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn markdown(
    options: &ConvertOptions,
    games: &[GameReport],
    summary: &Summary,
    comparison: Option<&Comparison>,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Conversion report\n");
    let _ = writeln!(out, "Library: `{}`", options.dir.display());
    let verify = options
        .verify_depth
        .map_or("not verified".to_string(), |d| {
            format!("verified up to depth {d}")
        });
    let _ = writeln!(
        out,
        "\n{} games in {:.1} s ({verify}, time limit {:.0} s per game): {} verified, {} translated, {} failed, {} mismatch.\n",
        summary.games,
        summary.seconds,
        options.time_limit.as_secs_f64(),
        summary.verified,
        summary.translated,
        summary.failed,
        summary.mismatch
    );
    if !summary.complete {
        let _ = writeln!(
            out,
            "**Incomplete: interrupted (Ctrl-C) after {} of {} games**; the others were not converted.\n",
            summary.games, summary.games_found
        );
    }
    let _ = writeln!(out, "| game | language | status | translate ms | RG nodes | RG edges | verified depth | perft | error / note |");
    let _ = writeln!(out, "|---|---|---|---:|---:|---:|---:|---:|---|");
    for g in games {
        let remark = g.error.as_deref().or(g.note.as_deref()).unwrap_or("");
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.1} | {} | {} | {} | {} | {} |",
            cell(&g.file),
            g.language,
            g.status.name(),
            g.translate_ms,
            g.nodes,
            g.edges,
            g.verified_depth.map_or(String::new(), |d| d.to_string()),
            perft_text(g),
            cell(remark)
        );
    }
    if let Some(c) = comparison {
        out.push_str(&c.markdown(games));
    }
    out
}

/// Where a game's failure points: `LIBRARY/dir/game.hrg:4:9: error: ...`
/// when its error starts with a position (`4:9: ...`), which terminals and
/// editors open at that place; `LIBRARY/dir/game.hrg: failed: ...`
/// otherwise.
pub fn failure_line(library: &std::path::Path, game: &GameReport) -> String {
    let path = library.join(&game.file).display().to_string();
    let error = game.error.as_deref().unwrap_or("");
    if starts_with_position(error) {
        format!("{path}:{error}")
    } else {
        let error = error.strip_prefix("error: ").unwrap_or(error);
        format!("{path}: {}: {error}", game.status.name())
    }
}

/// `4:9: ...` (line and column, as the reports keep them).
fn starts_with_position(text: &str) -> bool {
    let mut parts = text.splitn(3, ':');
    let number =
        |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    number(parts.next()) && number(parts.next()) && parts.next().is_some()
}

/// One finished game, as printed when standard error is not a terminal:
/// `verified games/ticTacToe.hrg (depth 2)`, or the failure line.
pub fn finished_line(library: &std::path::Path, game: &GameReport) -> String {
    match game.status {
        Status::Failed | Status::Mismatch => failure_line(library, game),
        Status::Verified | Status::Translated => {
            let depth = game
                .verified_depth
                .map_or(String::new(), |d| format!(" (depth {d})"));
            let path = library.join(&game.file);
            format!("{} {}{depth}", game.status.name(), path.display())
        }
    }
}

/// The summary printed on the terminal at the end of a run.
pub fn terminal_table(
    library: &std::path::Path,
    games: &[GameReport],
    summary: &Summary,
    comparison: Option<&Comparison>,
) -> String {
    let mut out = String::new();
    let mut languages: Vec<&str> = games.iter().map(|g| g.language.as_str()).collect();
    languages.sort();
    languages.dedup();
    let _ = writeln!(
        out,
        "{:<10} {:>6} {:>9} {:>11} {:>7} {:>9}",
        "language", "games", "verified", "translated", "failed", "mismatch"
    );
    for language in languages {
        let of = |s: Status| {
            games
                .iter()
                .filter(|g| g.language == language && g.status == s)
                .count()
        };
        let total = games.iter().filter(|g| g.language == language).count();
        let _ = writeln!(
            out,
            "{:<10} {:>6} {:>9} {:>11} {:>7} {:>9}",
            language,
            total,
            of(Status::Verified),
            of(Status::Translated),
            of(Status::Failed),
            of(Status::Mismatch)
        );
    }
    let _ = writeln!(
        out,
        "{:<10} {:>6} {:>9} {:>11} {:>7} {:>9}   ({:.1} s)",
        "total",
        summary.games,
        summary.verified,
        summary.translated,
        summary.failed,
        summary.mismatch,
        summary.seconds
    );
    for g in games
        .iter()
        .filter(|g| matches!(g.status, Status::Failed | Status::Mismatch))
    {
        let _ = writeln!(out, "{}", failure_line(library, g));
    }
    if let Some(c) = comparison {
        out.push_str(&c.terminal(games));
    }
    out.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn failed(file: &str, error: &str) -> GameReport {
        GameReport::new(file.into(), "hrg").failed(error.into())
    }

    #[test]
    fn failures_with_a_position_are_path_line_column() {
        let game = failed("dir/bad.hrg", "4:9: error: Expression is not valid.");
        assert_eq!(
            failure_line(Path::new("lib"), &game),
            "lib/dir/bad.hrg:4:9: error: Expression is not valid."
        );
        let game = failed("bad.kif", "error: grounding exceeded 3 atoms");
        assert_eq!(
            failure_line(Path::new("lib"), &game),
            "lib/bad.kif: failed: grounding exceeded 3 atoms"
        );
        // A time is no position.
        let game = failed("x.rbg", "12:30 is not a position");
        assert_eq!(
            failure_line(Path::new("lib"), &game),
            "lib/x.rbg: failed: 12:30 is not a position"
        );
    }
}
