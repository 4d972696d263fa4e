//! Deeply nested input is refused with a diagnostic instead of overflowing
//! the stack, and nesting just under the limit goes through the checker and
//! the evaluator on an ordinary test thread.

use replay::parse::MAX_NESTING;
use replay::Options;

fn run(source: &str) -> Result<(), String> {
    let options = Options {
        rounds: Some(1),
        ..Options::default()
    };
    replay::translate(source, &options)
        .map(|_| ())
        .map_err(|d| {
            d.into_iter()
                .map(|d| d.message)
                .collect::<Vec<_>>()
                .join("\n")
        })
}

const GAME: &str = "Game g = Game[2 | { (x,y) -> (1, 1) }];\n";

#[test]
fn deep_expressions_are_refused() {
    let deep = format!(
        "{GAME}int x = {}1{};",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let message = run(&deep).unwrap_err();
    assert!(message.contains("nest"), "{message}");
}

#[test]
fn deep_blocks_are_refused() {
    let deep = format!("{GAME}{}{}", "{".repeat(100_000), "}".repeat(100_000));
    let message = run(&deep).unwrap_err();
    assert!(message.contains("nest"), "{message}");
}

#[test]
fn nesting_under_the_limit_is_checked_and_evaluated() {
    let n = MAX_NESTING / 2 - 10;
    let expr = format!("int x = {}1{};\n", "-(".repeat(n), ")".repeat(n));
    let blocks = format!("{}int y = 1;{}\n", "{ ".repeat(n), " }".repeat(n));
    let ifs = format!("{}int z = 1;\n", "if (true) ".repeat(n));
    for text in [expr, blocks, ifs] {
        run(&format!("{GAME}{text}")).unwrap_or_else(|e| panic!("{e}"));
    }
}
