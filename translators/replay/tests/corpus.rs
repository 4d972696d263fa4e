//! Every replay game of the team corpus loads, lowers to a checked RG game,
//! and has the perft of corpus/replay/perft.tsv in both the native model
//! and the RG engine; their censuses (terminal goal vectors) and exact
//! expected goals agree, and match replay.md §8 where it lists them.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{census, engine, expected_goals, instance, native, parse_census};
use replay::ratio::Ratio;
use replay::Options;
use rg_core::model::{perft, Budget, ForwardModel};
use testkit::{expected_perft, files_with_extension, perft_table, team_corpus};

fn check_perft<M: ForwardModel>(model: &M, name: &str, via: &str, expected: &[(u32, u64)]) {
    let initial = model.initial().unwrap();
    for &(depth, count) in expected {
        let start = Instant::now();
        let got = perft(
            model,
            &initial,
            depth,
            &mut Budget::with_time_limit(Duration::from_secs(10)),
        )
        .unwrap_or_else(|e| panic!("{name} perft({depth}) via {via}: {e}"));
        assert_eq!(got, count, "{name} perft({depth}) via {via}");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{name} depth {depth} too slow"
        );
    }
}

#[test]
fn team_corpus_verifies() {
    let dir = team_corpus().join("replay");
    let table = perft_table(&dir);
    let files = files_with_extension(&dir, "replay");
    assert!(files.len() >= 10, "found {} replay games", files.len());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let source = std::fs::read_to_string(&path).unwrap();
        let inst = instance(&name, &source, &Options::default());
        let expected = expected_perft(&table, &name, f64::INFINITY);
        assert!(!expected.is_empty(), "{name}: no perft.tsv rows");
        let n = native(&inst);
        let e = engine(&inst);
        check_perft(&n, &name, "native", &expected);
        check_perft(&e, &name, "rg", &expected);
        assert_eq!(census(&n), census(&e), "{name}: censuses differ");
        assert_eq!(
            expected_goals(&n),
            expected_goals(&e),
            "{name}: expected goals differ"
        );
    }
}

/// replay.md §8: census and expected goals of each test game.
const SECTION_8: [(&str, &str, &str); 9] = [
    ("prisonersDilemma.replay", "(0,10)×1 (2,7)×2 (4,4)×1 (4,9)×2 (5,5)×2 (6,6)×2 (7,2)×2 (8,8)×1 (9,4)×2 (10,0)×1", "11/2 11/2"),
    ("prisonersDilemma3.replay", "(0,15)×1 (2,12)×3 (4,9)×3 (4,14)×3 (5,10)×3 (6,6)×1 (6,11)×6 (7,7)×6 (8,8)×3 (8,13)×3 (9,4)×3 (9,9)×6 (10,5)×3 (10,10)×3 (11,6)×6 (12,2)×3 (12,12)×1 (13,8)×3 (14,4)×3 (15,0)×1", "33/4 33/4"),
    ("matchingPennies.replay", "(0,6)×8 (2,4)×24 (4,2)×24 (6,0)×8", "3 3"),
    ("rockPaperScissors.replay", "(0,4)×9 (1,3)×18 (2,2)×27 (3,1)×18 (4,0)×9", "2 2"),
    ("functional.replay", "(0,2)×25 (1,3)×10 (2,4)×21 (3,5)×4 (4,6)×14 (5,7)×2 (6,8)×4 (8,10)×1", "2 4"),
    ("minority.replay", "(0,0,0)×4 (0,0,1)×8 (0,0,2)×4 (0,1,0)×8 (0,1,1)×8 (0,2,0)×4 (1,0,0)×8 (1,0,1)×8 (1,1,0)×8 (2,0,0)×4", "1/2 1/2 1/2"),
    ("grimVsFree.replay", "(4,9)×1 (6,11)×1 (7,7)×2 (8,13)×1 (9,9)×1 (10,5)×1 (12,12)×1", "63/8 73/8"),
    ("noisyGrim.replay", "(0,10)×8 (2,7)×8 (4,9)×8 (5,5)×8 (8,9)×8 (10,6)×8 (12,8)×8 (13,4)×8", "27/4 29/4"),
    ("tftVsGrim.replay", "(9,9)×2 (11,6)×2 (12,12)×2 (13,8)×2", "185/16 165/16"),
];

fn ratio(text: &str) -> Ratio {
    match text.split_once('/') {
        Some((n, d)) => Ratio::new(n.parse().unwrap(), d.parse().unwrap()).unwrap(),
        None => Ratio::int(text.parse().unwrap()),
    }
}

#[test]
fn censuses_and_expected_goals_match_the_reference() {
    let dir = team_corpus().join("replay");
    for (file, expected_census, expected_goals_text) in SECTION_8 {
        let source = std::fs::read_to_string(Path::new(&dir).join(file)).unwrap();
        let inst = instance(file, &source, &Options::default());
        let n = native(&inst);
        assert_eq!(census(&n), parse_census(expected_census), "{file}: census");
        let goals: Vec<Ratio> = expected_goals_text.split(' ').map(ratio).collect();
        assert_eq!(expected_goals(&n), goals, "{file}: expected goals");
        let e = engine(&inst);
        assert_eq!(
            census(&e),
            parse_census(expected_census),
            "{file}: RG census"
        );
    }
}

/// Game 9: rounded discounting (δ = 0.9 needs scale 1000 > 100).
#[test]
fn rounded_discount_matches_the_reference() {
    let source = std::fs::read_to_string(team_corpus().join("replay/patientGrim.replay")).unwrap();
    let inst = instance("patientGrim.replay", &source, &Options::default());
    let n = native(&inst);
    let c = census(&n);
    assert_eq!(c.len(), 16, "16 distinct goal vectors");
    assert_eq!(c.get(&vec![1376, 16]), Some(&1), "all C");
    assert_eq!(c.get(&vec![488, 11]), Some(&1), "all D");
    assert_eq!(n.payoffs().scale(0), 100);
    assert_eq!(n.payoffs().offset(0), -1720);
    assert_eq!(n.payoffs().offset(1), -20);
    assert_eq!(expected_goals(&n), vec![ratio("15079/16"), ratio("169/16")]);
    assert_eq!(census(&engine(&inst)), c);
}

/// The RG optimizer keeps every corpus translation's perft and goals.
#[test]
fn optimized_translations_keep_perft_and_goals() {
    use rg_core::engine::{Engine, EngineOptions};
    use rg_core::opt::{default_pipeline, optimize};
    let dir = team_corpus().join("replay");
    let table = perft_table(&dir);
    for path in files_with_extension(&dir, "replay") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let source = std::fs::read_to_string(&path).unwrap();
        let inst = instance(&name, &source, &Options::default());
        let game = replay::lower::lower(&inst).unwrap().game;
        let optimized = optimize(&game, &default_pipeline(), &mut |_| {});
        let e = Engine::new(&optimized, EngineOptions::default()).unwrap();
        check_perft(
            &e,
            &name,
            "optimized rg",
            &expected_perft(&table, &name, f64::INFINITY),
        );
        assert_eq!(
            census(&e),
            census(&native(&inst)),
            "{name}: optimized census"
        );
    }
}
