//! Bad input never crashes the front end: random token soups and random
//! mutations of the corpus games either translate or give diagnostics
//! (never an internal error, which is how a panic in the evaluator thread
//! would surface).

use proptest::prelude::*;
use replay::Options;

const TOKENS: [&str; 64] = [
    "int",
    "bool",
    "float",
    "string",
    "void",
    "Game",
    "Strategy",
    "Player",
    "if",
    "else",
    "for",
    "in",
    "return",
    "true",
    "false",
    "strat",
    "rand",
    "x",
    "y",
    "g",
    "s",
    "p",
    "C",
    "D",
    "_",
    "0",
    "1",
    "2",
    "-1",
    "0.5",
    "\"t\"",
    "+",
    "-",
    "*",
    "/",
    "==",
    "<",
    "&&",
    "!",
    "=",
    "->",
    "%",
    "#",
    "~",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    ";",
    ",",
    ".",
    "|",
    "len",
    "size",
    "change",
    "payoff",
    "strategy",
    "print",
    "toint",
    "[0:2]",
    "Game[2 | { (a,b) -> (a,b) }]",
];

fn assert_no_internal_error(text: &str) {
    let options = Options {
        rounds: Some(1),
        ..Options::default()
    };
    if let Err(diagnostics) = replay::translate(text, &options) {
        for d in diagnostics {
            assert!(
                !d.message.contains("internal error"),
                "{}\n--- in ---\n{text}",
                d.message
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn token_soup(tokens in prop::collection::vec(prop::sample::select(&TOKENS[..]), 0..40)) {
        assert_no_internal_error(&tokens.join(" "));
    }

    #[test]
    fn mutated_corpus_games(file in 0usize..11, at in any::<prop::sample::Index>(), cut in 0usize..8, insert in prop::sample::select(&TOKENS[..])) {
        let dir = testkit::team_corpus().join("replay");
        let files = testkit::files_with_extension(&dir, "replay");
        let text = std::fs::read_to_string(&files[file % files.len()]).unwrap();
        let mut at = at.index(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + cut).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let mutated = format!("{} {insert} {}", &text[..at], &text[end..]);
        assert_no_internal_error(&mutated);
    }
}
