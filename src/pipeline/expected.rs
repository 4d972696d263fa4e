//! `--expected TABLE`: perft counts checked against a table in the corpus
//! format (`perft.tsv`: game, depth, count and optional extra columns,
//! tab-separated; `#` starts a comment line), as game libraries ship them.
//!
//! A table row names its game by a path relative to the table's folder. A
//! file matches the rows naming it exactly; a file elsewhere (a copy, a
//! translation written to another folder) matches the rows whose path is
//! the longest suffix of its own.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Component, Path, PathBuf};

use crate::source::CliError;

/// A parsed table.
#[derive(Debug)]
pub struct ExpectedTable {
    path: PathBuf,
    rows: Vec<Row>,
}

#[derive(Debug)]
struct Row {
    game: PathBuf,
    depth: u32,
    count: u64,
}

/// Where computed counts disagree with the table, and which depths it
/// confirmed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    pub confirmed: Vec<u32>,
    pub mismatches: Vec<Mismatch>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub depth: u32,
    pub count: u64,
    pub expected: u64,
}

impl ExpectedTable {
    /// Reads and parses `path`, reporting malformed lines as
    /// `path:line:column: message`.
    pub fn read(path: &Path) -> Result<Self, CliError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::Failed(format!("error: cannot read {}: {e}", path.display())))?;
        Self::parse(path, &text)
    }

    fn parse(path: &Path, text: &str) -> Result<Self, CliError> {
        let mut rows: Vec<Row> = Vec::new();
        let mut seen: BTreeMap<(PathBuf, u32), (u64, usize)> = BTreeMap::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let fail = |column: usize, message: String| {
                CliError::Failed(format!(
                    "error: {}:{number}:{column}: {message}",
                    path.display()
                ))
            };
            let fields: Vec<&str> = line.split('\t').collect();
            if fields.len() < 3 {
                return Err(fail(
                    1,
                    format!(
                        "expected at least 3 tab-separated fields (game, depth, count), found {}",
                        fields.len()
                    ),
                ));
            }
            let column =
                |field: usize| 1 + fields[..field].iter().map(|f| f.len() + 1).sum::<usize>();
            let depth = fields[1].trim().parse().map_err(|_| {
                fail(
                    column(1),
                    format!("the depth \"{}\" is not a number", fields[1]),
                )
            })?;
            let count = fields[2].trim().parse().map_err(|_| {
                fail(
                    column(2),
                    format!("the count \"{}\" is not a number", fields[2]),
                )
            })?;
            let game = PathBuf::from(fields[0].trim());
            if let Some(&(previous, line)) = seen.get(&(game.clone(), depth)) {
                if previous != count {
                    return Err(fail(
                        column(2),
                        format!(
                            "{} at depth {depth} is {count} here but {previous} on line {line}",
                            game.display()
                        ),
                    ));
                }
            }
            seen.insert((game.clone(), depth), (count, number));
            rows.push(Row { game, depth, count });
        }
        Ok(ExpectedTable {
            path: path.to_path_buf(),
            rows,
        })
    }

    /// The table's path as the user gave it.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The expected count at each depth for `file`; empty when the table
    /// has no row for it.
    pub fn counts_for(&self, file: &Path) -> BTreeMap<u32, u64> {
        let folder = self.path.parent().unwrap_or(Path::new("."));
        let file_identity = std::fs::canonicalize(file).ok();
        let exact: BTreeMap<u32, u64> = self
            .rows
            .iter()
            .filter(|row| {
                file_identity.is_some()
                    && std::fs::canonicalize(folder.join(&row.game)).ok() == file_identity
            })
            .map(|row| (row.depth, row.count))
            .collect();
        if !exact.is_empty() {
            return exact;
        }
        let file_parts = normal_components(file);
        let suffix_length = |row: &Row| {
            let game_parts = normal_components(&row.game);
            file_parts
                .ends_with(&game_parts)
                .then_some(game_parts.len())
        };
        let Some(longest) = self.rows.iter().filter_map(suffix_length).max() else {
            return BTreeMap::new();
        };
        self.rows
            .iter()
            .filter(|row| suffix_length(row) == Some(longest))
            .map(|row| (row.depth, row.count))
            .collect()
    }
}

/// A path's named components (without `.`, roots and prefixes).
fn normal_components(path: &Path) -> Vec<&std::ffi::OsStr> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part),
            _ => None,
        })
        .collect()
}

/// Compares `perft` (the count at each depth from 0) with `expected`.
pub fn compare(expected: &BTreeMap<u32, u64>, perft: &[u64]) -> Comparison {
    let mut comparison = Comparison::default();
    for (depth, &count) in (0u32..).zip(perft) {
        match expected.get(&depth) {
            Some(&want) if want == count => comparison.confirmed.push(depth),
            Some(&want) => comparison.mismatches.push(Mismatch {
                depth,
                count,
                expected: want,
            }),
            None => {}
        }
    }
    comparison
}

impl Comparison {
    pub fn agrees(&self) -> bool {
        self.mismatches.is_empty() && !self.confirmed.is_empty()
    }

    /// For `--json` outputs.
    pub fn to_json(&self, table: &Path) -> serde_json::Value {
        serde_json::json!({
            "table": table.display().to_string(),
            "agrees": self.agrees(),
            "confirmed": self.confirmed,
            "mismatches": self.mismatches.iter().map(|m| serde_json::json!({
                "depth": m.depth, "count": m.count, "expected": m.expected,
            })).collect::<Vec<_>>(),
        })
    }
}

impl fmt::Display for Comparison {
    /// `agrees at depths 0-4` or the first mismatches.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(first) = self.mismatches.first() {
            write!(
                f,
                "differs at depth {}: {}, expected {}",
                first.depth, first.count, first.expected
            )?;
            if self.mismatches.len() > 1 {
                write!(f, " (and at {} deeper depths)", self.mismatches.len() - 1)?;
            }
            return Ok(());
        }
        match (self.confirmed.first(), self.confirmed.last()) {
            (Some(first), Some(last)) if first == last => write!(f, "agrees at depth {first}"),
            (Some(first), Some(last)) => write!(f, "agrees at depths {first}-{last}"),
            _ => f.write_str("no expected count at the depths computed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Result<ExpectedTable, String> {
        ExpectedTable::parse(Path::new("lib/perft.tsv"), text).map_err(|e| e.to_string())
    }

    #[test]
    fn rows_are_read_with_comments_and_extra_columns() {
        let t = table("# comment\nrg/a.rg\t0\t1\t0.5\nrg/a.rg\t1\t9\n\nhrg/a.hrg\t1\t7\n").unwrap();
        let counts = t.counts_for(Path::new("/elsewhere/rg/a.rg"));
        assert_eq!(counts, BTreeMap::from([(0, 1), (1, 9)]));
        assert!(t.counts_for(Path::new("/elsewhere/b.rg")).is_empty());
    }

    #[test]
    fn the_longest_path_suffix_wins() {
        let t = table("a.rg\t1\t5\nx/a.rg\t1\t6\n").unwrap();
        assert_eq!(
            t.counts_for(Path::new("/p/x/a.rg")),
            BTreeMap::from([(1, 6)])
        );
        assert_eq!(
            t.counts_for(Path::new("/p/y/a.rg")),
            BTreeMap::from([(1, 5)])
        );
    }

    #[test]
    fn malformed_lines_are_reported_at_their_position() {
        let error = table("a.rg\t0\t1\na.rg\tone\t9\n").unwrap_err();
        assert!(
            error.contains("lib/perft.tsv:2:6: the depth \"one\" is not a number"),
            "{error}"
        );
        let error = table("a.rg 0 1\n").unwrap_err();
        assert!(
            error.contains("lib/perft.tsv:1:1: expected at least 3"),
            "{error}"
        );
        let error = table("a.rg\t1\tx\n").unwrap_err();
        assert!(error.contains(":1:8: the count \"x\""), "{error}");
        let error = table("a.rg\t1\t9\na.rg\t1\t8\n").unwrap_err();
        assert!(
            error.contains(":2:8: a.rg at depth 1 is 8 here but 9 on line 1"),
            "{error}"
        );
    }

    #[test]
    fn comparison_confirms_and_reports_mismatches() {
        let expected = BTreeMap::from([(0, 1), (1, 9), (2, 72), (5, 100)]);
        let good = compare(&expected, &[1, 9, 72]);
        assert!(good.agrees());
        assert_eq!(good.to_string(), "agrees at depths 0-2");
        let bad = compare(&expected, &[1, 9, 70]);
        assert!(!bad.agrees());
        assert_eq!(bad.to_string(), "differs at depth 2: 70, expected 72");
        let nothing = compare(&BTreeMap::from([(7, 1)]), &[1]);
        assert!(!nothing.agrees());
        assert_eq!(
            nothing.to_string(),
            "no expected count at the depths computed"
        );
    }
}
