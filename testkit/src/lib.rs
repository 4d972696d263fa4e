//! Test support shared by every crate of the workspace (a dev-dependency
//! only): where the shared corpus is, and its expected perft table.
//!
//! The corpus path comes from `RGW_CORPUS` (default `../shared/corpus`
//! relative to the workspace root). When it is missing, corpus-wide tests
//! print that they are skipped — except under CI (`CI=true`), where a
//! missing corpus is a failure.

pub mod rg_games;

use std::path::{Path, PathBuf};

/// The workspace root (the directory holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testkit lives one level below the workspace root")
        .to_path_buf()
}

/// The team's own corpus (`corpus/` in the workspace), always present.
pub fn team_corpus() -> PathBuf {
    workspace_root().join("corpus")
}

/// The shared corpus directory, or `None` (after printing a skip notice)
/// when it is absent outside CI. Panics under CI when it is absent.
pub fn shared_corpus(test_name: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os("RGW_CORPUS") {
        Some(path) => PathBuf::from(path),
        None => workspace_root().join("../shared/corpus"),
    };
    if dir.join("perft.tsv").is_file() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "{test_name}: shared corpus not found at {} (set RGW_CORPUS); required under CI",
            dir.display()
        );
    }
    eprintln!(
        "{test_name}: skipped, shared corpus not found at {} (set RGW_CORPUS)",
        dir.display()
    );
    None
}

/// One row of `perft.tsv`.
#[derive(Clone, Debug, PartialEq)]
pub struct PerftRow {
    /// Path relative to the corpus root, e.g. `rbg-ll/chess.rbg`.
    pub game: String,
    pub depth: u32,
    pub count: u64,
    /// The independent implementation's time, a rough cost guide.
    pub millis: f64,
}

/// Parses `perft.tsv` (comment lines start with `#`).
pub fn perft_table(corpus: &Path) -> Vec<PerftRow> {
    let text = std::fs::read_to_string(corpus.join("perft.tsv")).expect("perft.tsv is readable");
    parse_perft_table(&text)
}

pub fn parse_perft_table(text: &str) -> Vec<PerftRow> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert!(fields.len() >= 3, "malformed perft.tsv line: {line}");
            PerftRow {
                game: fields[0].to_string(),
                depth: fields[1].parse().expect("depth"),
                count: fields[2].parse().expect("count"),
                millis: fields.get(3).and_then(|m| m.parse().ok()).unwrap_or(0.0),
            }
        })
        .collect()
}

/// The expected counts of one game, indexed by depth (`None` where the
/// table lists no value), keeping only depths whose listed time is at most
/// `max_millis`.
pub fn expected_perft(rows: &[PerftRow], game: &str, max_millis: f64) -> Vec<(u32, u64)> {
    let mut out: Vec<(u32, u64)> = rows
        .iter()
        .filter(|r| r.game == game && r.millis <= max_millis)
        .map(|r| (r.depth, r.count))
        .collect();
    out.sort();
    out
}

/// Files with the given extension directly inside `dir`, sorted.
pub fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == extension))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Runs `check` on the shared corpus's `folder/*.extension` games whose
/// index is `part` modulo `parts` (so that several tests split a sweep
/// across threads), and fails with every game's error. Skips (or, under
/// CI, fails) like [`shared_corpus`] when the corpus is absent.
pub fn check_corpus_part(
    test_name: &str,
    folder: &str,
    extension: &str,
    (part, parts): (usize, usize),
    check: impl Fn(&Path, &[PerftRow]) -> Result<(), String>,
) {
    let Some(corpus) = shared_corpus(test_name) else {
        return;
    };
    let table = perft_table(&corpus);
    let failures: Vec<String> = files_with_extension(&corpus.join(folder), extension)
        .iter()
        .enumerate()
        .filter(|(i, _)| i % parts == part)
        .filter_map(|(_, file)| check(file, &table).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rows_and_filters_by_cost() {
        let rows = parse_perft_table(
            "# comment\nrg/a.rg\t0\t1\t0.0\nrg/a.rg\t2\t40\t900.5\nrg/a.rg\t1\t7\t3\n",
        );
        assert_eq!(rows.len(), 3);
        assert_eq!(
            expected_perft(&rows, "rg/a.rg", 100.0),
            vec![(0, 1), (1, 7)]
        );
        assert_eq!(expected_perft(&rows, "rg/a.rg", 1e9).len(), 3);
    }
}
