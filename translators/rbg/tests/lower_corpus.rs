//! The RBG → RG lowering on the whole corpus: every shared file (rbg/,
//! rbg/nsplit/, rbg-ll/) and every team game translates, passes the RG
//! checker, and gives the same perft natively (`rbg::Interpreter`) and
//! through the translation (`rg_core::engine::Engine`), matching perft.tsv.
//!
//! The suite runs cheap depths; `sweep` (ignored) runs each game as deep as
//! a time budget allows and prints a table:
//! `cargo test --release -p rbg --test lower_corpus -- --ignored --nocapture`
//! (`RBG_SWEEP_SECONDS`, default 10, is the budget per depth and model; a
//! depth whose time extrapolated from the previous one exceeds twice the
//! budget is not tried;
//! `RBG_SWEEP_FILTER` keeps the files whose name contains it).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel, LimitError};
use rg_core::verify::{verify, Verdict};

/// Depths whose reference time (perft.tsv) is at most this many ms run in
/// the suite.
const SUITE_REFERENCE_MILLIS: f64 = 60.0;
const SUITE_MAX_DEPTH: u32 = 3;

struct Game {
    /// `rbg/x.rbg`, `rbg/nsplit/x.rbg`, `rbg-ll/x.rbg` or `team/x.rbg`.
    label: String,
    path: PathBuf,
    /// perft.tsv rows: (depth, count, reference ms).
    expected: Vec<(u32, u64, f64)>,
}

/// Every corpus file with its expected perft values.
fn corpus_games(shared: Option<&Path>) -> Vec<Game> {
    let mut games = Vec::new();
    let team = testkit::team_corpus();
    let team_rows = testkit::perft_table(&team.join("rbg"));
    for path in testkit::files_with_extension(&team.join("rbg"), "rbg") {
        let name = file_name(&path);
        let expected = team_rows
            .iter()
            .filter(|r| r.game == format!("rbg/{name}"))
            .map(|r| (r.depth, r.count, r.millis))
            .collect();
        games.push(Game {
            label: format!("team/{name}"),
            path,
            expected,
        });
    }
    let Some(shared) = shared else {
        return games;
    };
    let rows = testkit::perft_table(shared);
    let mut by_name: BTreeMap<String, Vec<(u32, u64, f64)>> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.game.starts_with("rbg-ll/")) {
        by_name
            .entry(row.game.trim_start_matches("rbg-ll/").to_string())
            .or_default()
            .push((row.depth, row.count, row.millis));
    }
    for (dir, label) in [
        ("rbg-ll", "rbg-ll"),
        ("rbg", "rbg"),
        ("rbg/nsplit", "rbg/nsplit"),
    ] {
        for path in testkit::files_with_extension(&shared.join(dir), "rbg") {
            let name = file_name(&path);
            let base = name.replace("_nsplit", "");
            // High-level sources that differ from their low-level namesake
            // (docs/rbg.md) have no rows of their own.
            let differs = dir == "rbg"
                && [
                    "amazons_split3.rbg",
                    "amazons_split5.rbg",
                    "amazons_split5plus.rbg",
                    "canadianDraughts.rbg",
                ]
                .contains(&name.as_str());
            let expected = if differs {
                Vec::new()
            } else {
                by_name.get(&base).cloned().unwrap_or_default()
            };
            games.push(Game {
                label: format!("{label}/{name}"),
                path,
                expected,
            });
        }
    }
    games
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
}

struct Loaded {
    native: rbg::Interpreter,
    engine: Engine,
    translation: rbg::Translation,
    translation_time: Duration,
}

fn load(game: &Game) -> Loaded {
    let source = std::fs::read_to_string(&game.path).expect("corpus file is readable");
    let checked = rbg::parse_and_check(&source).unwrap_or_else(|errors| {
        panic!(
            "{}",
            rg_core::diag::render_all(&errors, &game.label, &source)
        )
    });
    let start = Instant::now();
    let translation = rbg::translate(&source).unwrap_or_else(|errors| {
        panic!(
            "{}: translation failed:\n{}",
            game.label,
            rg_core::diag::render_all(&errors, &game.label, &source)
        )
    });
    let translation_time = start.elapsed();
    let engine = Engine::new(&translation.game, EngineOptions::default())
        .unwrap_or_else(|errors| panic!("{}: engine refused the game: {errors:?}", game.label));
    Loaded {
        native: rbg::Interpreter::new(&checked).expect("interpreter builds"),
        engine,
        translation,
        translation_time,
    }
}

#[test]
fn every_translation_is_checked_and_agrees_at_cheap_depths() {
    let shared = testkit::shared_corpus("every_translation_is_checked_and_agrees_at_cheap_depths");
    let games = corpus_games(shared.as_deref());
    if shared.is_some() {
        assert!(games.len() >= 135, "found only {} files", games.len());
    }
    let mut failures = Vec::new();
    for game in &games {
        let loaded = load(game);
        assert!(
            loaded.translation.warnings.is_empty(),
            "{}: checker warnings {:?}",
            game.label,
            loaded.translation.warnings
        );
        let cheap: Vec<(u32, u64)> = game
            .expected
            .iter()
            .filter(|(d, _, ms)| *d <= SUITE_MAX_DEPTH && *ms <= SUITE_REFERENCE_MILLIS)
            .map(|(d, c, _)| (*d, *c))
            .collect();
        // Games without cheap rows (15puzzle, arimaa_fixedPosition, the
        // high-level files that differ from their namesakes) still run
        // depth 1.
        let depth = cheap.iter().map(|(d, _)| *d).max().unwrap_or(1);
        let verdict = verify(
            &loaded.native,
            &loaded.engine,
            depth,
            &mut Budget::with_time_limit(Duration::from_secs(60)),
        );
        match &verdict {
            Verdict::Agree {
                perft,
                stopped: None,
            } => {
                for (d, count) in cheap {
                    if perft.get(d as usize) != Some(&count) {
                        failures.push(format!(
                            "{}: perft({d}) = {:?}, perft.tsv says {count}",
                            game.label,
                            perft.get(d as usize)
                        ));
                    }
                }
            }
            other => failures.push(format!("{}: {other}", game.label)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn chess_agrees_to_depth_three() {
    let Some(shared) = testkit::shared_corpus("chess_agrees_to_depth_three") else {
        return;
    };
    for dir in ["rbg", "rbg-ll"] {
        let game = Game {
            label: format!("{dir}/chess.rbg"),
            path: shared.join(dir).join("chess.rbg"),
            expected: Vec::new(),
        };
        let loaded = load(&game);
        let verdict = verify(
            &loaded.native,
            &loaded.engine,
            3,
            &mut Budget::with_time_limit(Duration::from_secs(60)),
        );
        assert_eq!(verdict.agreed(), &[1, 20, 400, 8902], "{verdict}");
    }
}

#[test]
fn translating_the_whole_corpus_takes_seconds() {
    let shared = testkit::shared_corpus("translating_the_whole_corpus_takes_seconds");
    let games = corpus_games(shared.as_deref());
    let start = Instant::now();
    for game in &games {
        let source = std::fs::read_to_string(&game.path).expect("readable");
        let game = rbg::parse_and_check(&source).expect("valid");
        rbg::lower(&game).expect("translates");
    }
    let elapsed = start.elapsed();
    assert!(
        elapsed < Duration::from_secs(30),
        "translating {} files took {elapsed:?}",
        games.len()
    );
}

/// Perft of one model at one depth within `limit`; `None` when it ran out.
fn timed_perft<M: ForwardModel>(
    model: &M,
    root: &M::State,
    depth: u32,
    limit: Duration,
) -> Result<Option<(u64, Duration)>, String> {
    let start = Instant::now();
    match perft(model, root, depth, &mut Budget::with_time_limit(limit)) {
        Ok(count) => Ok(Some((count, start.elapsed()))),
        Err(LimitError::Model(e)) => Err(e.message),
        Err(_) => Ok(None),
    }
}

fn rate(count: u64, time: Duration) -> String {
    let seconds = time.as_secs_f64();
    if seconds < 1e-3 {
        "–".to_string()
    } else {
        format!("{:.0}", count as f64 / seconds)
    }
}

/// Every game as deep as the budget allows: a Markdown table on stdout.
#[test]
#[ignore]
fn sweep() {
    let shared = testkit::shared_corpus("sweep");
    let seconds: u64 = std::env::var("RBG_SWEEP_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let filter = std::env::var("RBG_SWEEP_FILTER").unwrap_or_default();
    let limit = Duration::from_secs(seconds);
    println!(
        "| game | translation ms | RG nodes | RG edges | deepest agreed depth | perft | native time | RG time | native leaves/s | RG leaves/s | perft.tsv |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut problems = Vec::new();
    for game in corpus_games(shared.as_deref()) {
        if !game.label.contains(&filter) {
            continue;
        }
        let loaded = load(&game);
        let nodes = {
            let mut names = std::collections::HashSet::new();
            for e in &loaded.translation.game.edges {
                names.insert(e.from.as_str());
                names.insert(e.to.as_str());
            }
            names.len()
        };
        let native_root = loaded.native.initial().expect("native initial state");
        let rg_root = loaded.engine.initial().expect("RG initial state");
        let mut deepest: Option<(u32, u64, Duration, Duration)> = None;
        let mut previous_count = 1u64;
        for depth in 0..=20 {
            // Skip a depth whose extrapolated time (last time × branching)
            // is well past the budget: it would only time out.
            if let Some((_, count, native, _)) = deepest {
                let branching = count as f64 / previous_count.max(1) as f64;
                if native.as_secs_f64() * branching > 2.0 * limit.as_secs_f64() {
                    break;
                }
            }
            let native = timed_perft(&loaded.native, &native_root, depth, limit);
            if let Ok(None) = native {
                break;
            }
            let rg = timed_perft(&loaded.engine, &rg_root, depth, limit);
            match (native, rg) {
                (Ok(Some(n)), Ok(Some(r))) => {
                    if n.0 != r.0 {
                        problems.push(format!(
                            "{}: depth {depth}: native {} vs RG {}",
                            game.label, n.0, r.0
                        ));
                        break;
                    }
                    if let Some((_, c, _)) = game.expected.iter().find(|(d, _, _)| *d == depth) {
                        if *c != n.0 {
                            problems.push(format!(
                                "{}: depth {depth}: {} but perft.tsv says {c}",
                                game.label, n.0
                            ));
                        }
                    }
                    if let Some((_, count, ..)) = deepest {
                        previous_count = count;
                    }
                    deepest = Some((depth, n.0, n.1, r.1));
                    if n.0 == 0 {
                        break;
                    }
                }
                (Err(e), _) | (_, Err(e)) => {
                    problems.push(format!("{}: depth {depth}: {e}", game.label));
                    break;
                }
                _ => break,
            }
        }
        let tsv: Vec<String> = game
            .expected
            .iter()
            .filter(|(d, _, _)| *d > 0 && deepest.is_some_and(|(deep, ..)| *d <= deep))
            .map(|(d, _, _)| d.to_string())
            .collect();
        match deepest {
            Some((depth, count, native, rg)) => println!(
                "| {} | {:.1} | {} | {} | {} | {} | {:.2?} | {:.2?} | {} | {} | {} |",
                game.label,
                loaded.translation_time.as_secs_f64() * 1000.0,
                nodes,
                loaded.translation.game.edges.len(),
                depth,
                count,
                native,
                rg,
                rate(count, native),
                rate(count, rg),
                if tsv.is_empty() {
                    "–".to_string()
                } else {
                    tsv.join(",")
                }
            ),
            None => println!("| {} | – | – | – | – | – | – | – | – | – | – |", game.label),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
