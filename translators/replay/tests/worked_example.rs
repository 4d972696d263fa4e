//! replay.md §7.7: the Prisoner's Dilemma for two rounds translates to
//! exactly the RG text printed in the reference, and the translations of
//! the corpus games are pinned by snapshots.

use replay::Options;
use rg_core::print::print_game;

const SOURCE: &str = "/*@rgw game=pd rounds=2 */
strat {C, D};
Game pd = Game[2 | { (C,C) -> (-1,-1)
                   | (C,D) -> (-5,0)
                   | (D,C) -> (0,-5)
                   | (D,D) -> (-3,-3); }];
";

/// The reference's output, copied from replay.md §7.7.
const EXPECTED: &str = include_str!("data/pd2.rg");

fn translate(source: &str) -> String {
    let (_, t) = replay::translate(source, &Options::default()).unwrap();
    print_game(&t.game)
}

#[test]
fn prisoners_dilemma_matches_the_reference_text() {
    let printed = translate(SOURCE);
    assert_eq!(printed, EXPECTED);
    // Canonical: parsing and printing again changes nothing.
    let reparsed = rg_core::parse::parse_game(&printed).unwrap();
    assert_eq!(print_game(&reparsed), printed);
}

#[test]
fn corpus_translations_are_pinned() {
    let dir = testkit::team_corpus().join("replay");
    for name in ["grimVsFree", "noisyGrim", "tftVsGrim", "minority"] {
        let source = std::fs::read_to_string(dir.join(format!("{name}.replay"))).unwrap();
        insta::assert_snapshot!(format!("{name}_rg"), translate(&source));
    }
}
