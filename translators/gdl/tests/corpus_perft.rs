//! The native reasoner and the propnet model agree on perft for the corpus
//! games at every depth up to one full round of all roles, and equal
//! perft.tsv (cheap rows only, to keep CI fast; the full sweep is the
//! ignored `propnet_sweep` test).

use std::time::Duration;

use gdl::Prover;
use propnet::{GroundingLimits, PropnetModel};
use rg_core::model::{perft, Budget, ForwardModel};

/// Games whose grounding exceeds the default limits: they must fail with a
/// clear limit message (see docs/gdl.md for why). None since sudoku's
/// large relations are evaluated at run time.
const GROUNDING_LIMITED: &[&str] = &[];
/// Games that ground only within the default limits (more than this test's
/// smaller ones): alexChess has about a million ground rules.
const DEFAULT_LIMITS: &[&str] = &["alexChess.kif", "sudoku.kif"];
/// Games the reasoner cannot set up within its limits.
const REASONER_LIMITED: &[&str] = &[];
/// perft.tsv rows whose reference time is at most this are checked.
const MAX_REFERENCE_MILLIS: f64 = 1500.0;

fn load(path: &std::path::Path) -> gdl::Game {
    let source = String::from_utf8_lossy(&std::fs::read(path).expect("readable")).into_owned();
    gdl::load(&source).unwrap_or_else(|e| panic!("{}: {}", path.display(), e[0].message))
}

fn limits() -> GroundingLimits {
    GroundingLimits {
        max_atoms: 1_000_000,
        max_rules: 1_000_000,
        max_time: Some(Duration::from_secs(10)),
    }
}

fn budget() -> Budget {
    Budget::with_time_limit(Duration::from_secs(30))
}

fn check_game(file: &std::path::Path, table: &[testkit::PerftRow]) -> Result<(), String> {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let game = load(file);
    let expected = testkit::expected_perft(table, &format!("kif/{name}"), MAX_REFERENCE_MILLIS);
    let reasoner = match Prover::new(&game.description) {
        Ok(r) => Some(r),
        Err(e) if REASONER_LIMITED.contains(&name.as_str()) => {
            if !e.message.contains("limit") {
                return Err(format!(
                    "{name}: reasoner failed without a limit message: {e}"
                ));
            }
            None
        }
        Err(e) => return Err(format!("{name}: reasoner: {e}")),
    };
    if let Some(reasoner) = &reasoner {
        let initial = reasoner.initial().map_err(|e| e.to_string())?;
        for &(depth, count) in &expected {
            let got = perft(reasoner, &initial, depth, &mut budget())
                .map_err(|e| format!("{name}: {e}"))?;
            if got != count {
                return Err(format!(
                    "{name}: reasoner perft({depth}) = {got}, perft.tsv says {count}"
                ));
            }
        }
    }
    let program = gdl::to_datalog(&game);
    if GROUNDING_LIMITED.contains(&name.as_str()) {
        let small = GroundingLimits {
            max_atoms: 200_000,
            max_rules: 200_000,
            max_time: Some(Duration::from_secs(2)),
        };
        return match PropnetModel::new(&program, &small) {
            Ok(_) => Err(format!("{name}: expected grounding to exceed the limits")),
            Err(e) if e.to_string().contains("exceeded") => Ok(()),
            Err(e) => Err(format!("{name}: unclear grounding failure: {e}")),
        };
    }
    let limits = if DEFAULT_LIMITS.contains(&name.as_str()) {
        GroundingLimits::default()
    } else {
        limits()
    };
    let model = PropnetModel::new(&program, &limits).map_err(|e| format!("{name}: {e}"))?;
    let initial = model.initial().map_err(|e| e.to_string())?;
    for &(depth, count) in &expected {
        let got =
            perft(&model, &initial, depth, &mut budget()).map_err(|e| format!("{name}: {e}"))?;
        if got != count {
            return Err(format!(
                "{name}: propnet perft({depth}) = {got}, perft.tsv says {count}"
            ));
        }
    }
    let Some(reasoner) = reasoner else {
        return Ok(());
    };
    if model.player_names() != reasoner.player_names() {
        return Err(format!("{name}: player orders differ"));
    }
    let rinitial = reasoner.initial().map_err(|e| e.to_string())?;
    let round = reasoner.player_names().len() as u32;
    for depth in 0..=round {
        let a = perft(&reasoner, &rinitial, depth, &mut budget())
            .map_err(|e| format!("{name}: {e}"))?;
        let b =
            perft(&model, &initial, depth, &mut budget()).map_err(|e| format!("{name}: {e}"))?;
        if a != b {
            return Err(format!("{name}: depth {depth}: reasoner {a}, propnet {b}"));
        }
    }
    // The moves print the same in both models.
    let mut reasoner_moves: Vec<String> = Vec::new();
    let mut moves = Vec::new();
    reasoner
        .legal_moves(&rinitial, &mut moves)
        .map_err(|e| e.to_string())?;
    reasoner_moves.extend(moves.iter().map(|m| reasoner.format_move(m)));
    let mut model_moves = Vec::new();
    model
        .legal_moves(&initial, &mut model_moves)
        .map_err(|e| e.to_string())?;
    let mut propnet_moves: Vec<String> = model_moves.iter().map(|m| model.format_move(m)).collect();
    reasoner_moves.sort();
    propnet_moves.sort();
    if reasoner_moves != propnet_moves {
        return Err(format!(
            "{name}: moves differ: {reasoner_moves:?} vs {propnet_moves:?}"
        ));
    }
    Ok(())
}

/// Checks the games whose index is `part` modulo `parts` (tests run in parallel).
fn check_part(part: usize, parts: usize) {
    testkit::check_corpus_part("corpus_perft", "kif", "kif", (part, parts), check_game);
}

#[test]
fn corpus_perft_part_0() {
    check_part(0, 3);
}

#[test]
fn corpus_perft_part_1() {
    check_part(1, 3);
}

#[test]
fn corpus_perft_part_2() {
    check_part(2, 3);
}

fn shared_game(name: &str) -> Option<gdl::Game> {
    let corpus = testkit::shared_corpus(name)?;
    Some(load(&corpus.join("kif").join(name)))
}

fn sequential_vector<M: ForwardModel>(model: &M, max_depth: u32) -> Vec<u64> {
    let initial = model.initial().unwrap();
    (0..=max_depth)
        .map(|d| perft(model, &initial, d, &mut budget()).unwrap())
        .collect()
}

/// RG perft vectors of gdl.md §4.3 (roles in sorted order, one move per role).
#[test]
fn rg_order_vectors_of_the_specification() {
    let vectors: &[(&str, &[u64])] = &[
        ("blocksWorld.kif", &[1, 2, 7]),
        ("blocksWorldParallel.kif", &[1, 4, 49]),
        ("buttons.kif", &[1, 3, 9]),
        ("factoringMutuallyAssuredDestruction.kif", &[1, 20, 400]),
        ("survival.kif", &[1, 6, 1]),
        ("breakthroughSmallHoles.kif", &[1, 1, 10, 100, 100]),
        ("connect4.kif", &[1, 1, 7, 49, 49]),
        ("connectFourSimultaneous.kif", &[1, 8, 64, 512, 4096]),
        ("copolymer_4.kif", &[1, 1, 37, 1332, 1332]),
        ("doubletoetictac.kif", &[1, 9, 81, 648, 5184]),
        ("gomoku_15x15.kif", &[1, 225, 225, 225, 50400]),
        ("minichess.kif", &[1, 1, 7, 15, 15]),
        ("numbertictactoe.kif", &[1, 1, 45, 1440, 1440]),
        ("ticTacToe.kif", &[1, 1, 9, 72, 72]),
        ("tictactoe.kif", &[1, 1, 9, 72, 72]),
        ("ticTacToeSerial.kif", &[1, 1, 9, 72, 72]),
        ("montyHall.kif", &[1, 3, 9, 9, 12]),
    ];
    for (name, expected) in vectors {
        let Some(game) = shared_game(name) else {
            return;
        };
        let depth = expected.len() as u32 - 1;
        let reasoner = Prover::new(&game.description).unwrap();
        assert_eq!(
            sequential_vector(&reasoner, depth),
            *expected,
            "{name} (reasoner)"
        );
        let model = PropnetModel::new(&gdl::to_datalog(&game), &limits()).unwrap();
        assert_eq!(
            sequential_vector(&model, depth),
            *expected,
            "{name} (propnet)"
        );
    }
}

/// The full RG vector of `ticTacToe` (gdl.md §4.3): terminal states cut the
/// intermediate depths.
#[test]
fn tic_tac_toe_full_rg_vector() {
    let Some(game) = shared_game("ticTacToe.kif") else {
        return;
    };
    let expected: Vec<u64> = vec![
        1, 1, 9, 72, 72, 72, 504, 3024, 3024, 3024, 15120, 54720, 54720, 49392, 148176, 200448,
        200448, 127872, 127872,
    ];
    let model = PropnetModel::new(&gdl::to_datalog(&game), &limits()).unwrap();
    assert_eq!(sequential_vector(&model, 18), expected);
    let reasoner = Prover::new(&game.description).unwrap();
    assert_eq!(sequential_vector(&reasoner, 10), expected[..=10]);
}

/// Deeper joint perft of gdl.md §4.3, with both joint-move implementations.
#[test]
fn joint_perft_vectors() {
    let cases: &[(&str, &[u64])] = &[
        (
            "ticTacToe.kif",
            &[1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872],
        ),
        ("connect4.kif", &[1, 7, 49, 343, 2401, 16807]),
        ("blocksWorld.kif", &[1, 2, 7, 14, 0]),
        // gdl.md §8.3 regressions.
        ("circlesolitaire.kif", &[1, 5, 25]),
        ("beatMania.kif", &[1, 9, 81]),
        ("troublemaker01.kif", &[1, 2, 4]),
        ("montyHall.kif", &[1, 9, 12, 24, 0]),
    ];
    for (name, expected) in cases {
        let Some(game) = shared_game(name) else {
            return;
        };
        let model = PropnetModel::new(&gdl::to_datalog(&game), &limits()).unwrap();
        let reasoner = Prover::new(&game.description).unwrap();
        for (depth, &count) in expected.iter().enumerate() {
            let depth = depth as u32;
            assert_eq!(
                rg_core::joint::joint_perft(&model, depth, &mut budget()).unwrap(),
                count,
                "{name} propnet d{depth}"
            );
            if depth <= 6 {
                assert_eq!(
                    rg_core::joint::joint_perft(&reasoner, depth, &mut budget()).unwrap(),
                    count,
                    "{name} reasoner d{depth}"
                );
            }
        }
    }
}

/// The team's own games against corpus/kif/perft.tsv.
#[test]
fn team_corpus_matches_its_perft_table() {
    let dir = testkit::team_corpus().join("kif");
    let table = testkit::perft_table(&dir);
    let files = testkit::files_with_extension(&dir, "kif");
    assert!(files.len() >= 3);
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let game = load(&file);
        let rows = testkit::expected_perft(&table, &name, f64::INFINITY);
        assert!(!rows.is_empty(), "{name} has no perft rows");
        let model = PropnetModel::new(&gdl::to_datalog(&game), &limits()).unwrap();
        let reasoner = Prover::new(&game.description).unwrap();
        let roles = reasoner.player_names().len() as u32;
        for (depth, count) in rows {
            if count <= 2_000_000 {
                assert_eq!(
                    rg_core::joint::joint_perft(&model, depth, &mut budget()).unwrap(),
                    count,
                    "{name} propnet d{depth}"
                );
            }
            if count <= 20_000 {
                assert_eq!(
                    rg_core::joint::joint_perft(&reasoner, depth, &mut budget()).unwrap(),
                    count,
                    "{name} reasoner d{depth}"
                );
                let initial = reasoner.initial().unwrap();
                let sequential = perft(&reasoner, &initial, depth * roles, &mut budget()).unwrap();
                assert_eq!(sequential, count, "{name} sequential reasoner d{depth}");
            }
        }
    }
}
