//! The shared corpus: every high-level file preprocesses and agrees with its
//! low-level counterpart; every file's native perft matches perft.tsv.

use std::collections::BTreeMap;
use std::path::Path;

use rg_core::diag::Span;
use rg_core::model::{perft, Budget, ForwardModel};

/// Depths whose reference time is at most this many ms are run in the suite.
const MAX_REFERENCE_MILLIS: f64 = 400.0;

/// amazons_split3/5/5plus: the high-level `anyNeighbor` is orthogonal only,
/// the low-level files test all eight neighbours; canadianDraughts: the
/// high-level `gotoCenter` walks `upRight^4 downLeft^7`, the low-level file
/// `upRight^5 downLeft^11`.
const KNOWN_SOURCE_DIFFERENCES: &[&str] = &[
    "amazons_split3.rbg",
    "amazons_split5.rbg",
    "amazons_split5plus.rbg",
    "canadianDraughts.rbg",
];

fn load(path: &Path) -> (String, rbg::ast::Game) {
    let source = std::fs::read_to_string(path).expect("corpus file is readable");
    match rbg::parse_and_check(&source) {
        Ok(game) => (source, game),
        Err(errors) => panic!(
            "{}",
            rg_core::diag::render_all(&errors, &path.display().to_string(), &source)
        ),
    }
}

fn without_spans(mut game: rbg::ast::Game) -> rbg::ast::Game {
    game.map_spans(&mut |_| Span::default());
    game
}

fn check_perft(game: &rbg::ast::Game, name: &str, expected: &[(u32, u64)]) {
    let model = rbg::Interpreter::new(game).expect("interpreter builds");
    let initial = model.initial().expect("initial state");
    for &(depth, count) in expected {
        let got = perft(&model, &initial, depth, &mut Budget::unlimited()).expect("perft runs");
        assert_eq!(got, count, "{name}: perft({depth})");
    }
}

/// Expected values by file name (rbg-ll rows also hold for rbg/ files).
fn expected_by_name(corpus: &Path) -> BTreeMap<String, Vec<(u32, u64)>> {
    let rows = testkit::perft_table(corpus);
    let mut by_name: BTreeMap<String, Vec<(u32, u64)>> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.game.starts_with("rbg-ll/")) {
        let name = row.game.trim_start_matches("rbg-ll/").to_string();
        if row.millis <= MAX_REFERENCE_MILLIS && row.depth <= 5 {
            by_name
                .entry(name)
                .or_default()
                .push((row.depth, row.count));
        }
    }
    by_name
}

#[test]
fn low_level_files_parse_check_and_match_perft() {
    let Some(corpus) = testkit::shared_corpus("low_level_files_parse_check_and_match_perft") else {
        return;
    };
    let expected = expected_by_name(&corpus);
    let files = testkit::files_with_extension(&corpus.join("rbg-ll"), "rbg");
    assert!(files.len() >= 70, "found {} files", files.len());
    let mut with_values = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (_, game) = load(path);
        // The low-level reader alone agrees with the full pipeline.
        let source = std::fs::read_to_string(path).unwrap();
        let direct = rbg::parse::parse_ll(&source).expect("LL parser accepts corpus file");
        assert!(rbg::check::check(&direct).is_empty(), "{name}: LL check");
        // Corpus files are in canonical form (sorted pieces, variables and
        // edges), so reading them through the preprocessor changes nothing.
        assert!(
            without_spans(direct) == without_spans(game.clone()),
            "{name}: the preprocessor changed a low-level file"
        );
        if let Some(values) = expected.get(&name) {
            with_values += 1;
            check_perft(&game, &name, values);
        }
    }
    assert!(
        with_values >= 65,
        "only {with_values} files had cheap perft values"
    );
}

#[test]
fn high_level_files_preprocess_to_their_low_level_counterparts() {
    let Some(corpus) =
        testkit::shared_corpus("high_level_files_preprocess_to_their_low_level_counterparts")
    else {
        return;
    };
    let expected = expected_by_name(&corpus);
    let mut files = testkit::files_with_extension(&corpus.join("rbg"), "rbg");
    files.extend(testkit::files_with_extension(
        &corpus.join("rbg/nsplit"),
        "rbg",
    ));
    assert!(files.len() >= 60, "found {} files", files.len());
    let mut compared = 0;
    let mut differing = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (_, game) = load(path);
        let base_name = name.replace("_nsplit", "");
        let ll_path = corpus.join("rbg-ll").join(&base_name);
        if ll_path.is_file() && !name.contains("_nsplit") {
            let (_, ll_game) = load(&ll_path);
            let ours = without_spans(game.clone());
            let theirs = without_spans(ll_game);
            if ours != theirs {
                differing.push(name.clone());
            }
            compared += 1;
        }
        if let Some(values) = expected.get(&base_name) {
            check_perft(&game, &name, values);
        }
    }
    assert!(compared >= 55, "compared only {compared} files");
    // These high-level sources genuinely differ from their low-level
    // counterparts in the shared corpus (checked by hand, see docs/rbg.md);
    // every other file must preprocess to exactly its counterpart.
    assert_eq!(
        differing, KNOWN_SOURCE_DIFFERENCES,
        "files whose preprocessed form differs"
    );
}

/// Games without cheap perft.tsv rows: 15puzzle against the values of the
/// reference's game table (rbg.md §7), arimaa_fixedPosition HL against LL.
#[test]
fn games_without_perft_rows() {
    let Some(corpus) = testkit::shared_corpus("games_without_perft_rows") else {
        return;
    };
    let (_, puzzle) = load(&corpus.join("rbg/15puzzle.rbg"));
    check_perft(&puzzle, "15puzzle", &[(1, 2), (2, 6), (3, 18)]);
    let (_, high) = load(&corpus.join("rbg/arimaa_fixedPosition.rbg"));
    let (_, low) = load(&corpus.join("rbg-ll/arimaa_fixedPosition.rbg"));
    let high = rbg::Interpreter::new(&high).expect("builds");
    let low = rbg::Interpreter::new(&low).expect("builds");
    let count = |m: &rbg::Interpreter| {
        let root = m.initial().expect("initial");
        perft(m, &root, 1, &mut Budget::unlimited()).expect("perft")
    };
    assert_eq!(count(&high), count(&low));
}
