//! Game files are untrusted: names reach the generated code only as escaped
//! string literals, never as code. A game whose every symbol, node and
//! variable name is hostile (quotes, braces, comment ends, Rust keywords,
//! backslashes, newlines, non-ASCII) compiles, agrees with the engine, and
//! prints its names back unchanged.

mod common;

use std::process::Command;

use rg_core::engine::EngineOptions;
use rg_core::model::ForwardModel;

fn hostile(k: usize) -> String {
    const PARTS: [&str; 8] = [
        "\"); std::process::exit(7); (\"",
        "*/ fn main() {} /*",
        "}}{{\\",
        "r#fn",
        "self\ncrate",
        "é\u{202e}ß\u{0}",
        "'static",
        "{x}",
    ];
    format!("{}{k}", PARTS[k % PARTS.len()])
}

#[test]
fn hostile_names_stay_data() {
    let source = std::fs::read_to_string(testkit::team_corpus().join("rg/ticTacToe.rg"))
        .expect("corpus file");
    let engine = common::engine(&source, EngineOptions::default());
    let mut program = engine.program().clone();
    for (k, s) in program.symbols.iter_mut().enumerate() {
        *s = hostile(k);
    }
    for (k, n) in program.nodes.iter_mut().enumerate() {
        *n = hostile(k + 1000);
    }
    for (k, v) in program.variables.iter_mut().enumerate() {
        v.0 = hostile(k + 2000);
    }
    let outcome = rg_compiled::cached_binary(&program, &common::cache_root())
        .unwrap_or_else(|e| panic!("{e}"));
    let counts = common::compiled_perft(&outcome.binary, 3, &[]).expect("perft runs");
    assert_eq!(counts, common::engine_perft(&engine, 3));

    // The moves come back with the hostile names, in the engine's order.
    let output = Command::new(&outcome.binary)
        .arg("moves")
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let initial = engine.initial().expect("initial");
    let mut moves = Vec::new();
    engine.legal_moves(&initial, &mut moves).expect("moves");
    assert_eq!(moves.len(), 9);
    for mv in &moves {
        let name: Vec<String> = mv.tags.iter().map(|&t| hostile(t as usize)).collect();
        let escaped = json_escape(&name.join(" "));
        assert!(text.contains(&escaped), "{escaped} not in {text}");
    }
}

fn json_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[test]
fn unicode_and_keyword_identifiers_from_source() {
    // RG identifiers may be Rust keywords, start with digits, be non-ASCII.
    let source = "type Player = { fn, self };\ntype Score = { 0, 1 };\n\
        type Cell = { crate, é, 0x, loop };\n\
        var goals: Goals = { :0 };\nvar impl: Cell = crate;\nvar me: Player = fn;\n\
        const other: Player -> Player = { fn: self, :fn };\n\
        begin, 0fn: player = PlayerOrSystem(me);\n\
        0fn, struct: impl = Cell(*);\n\
        struct, ü: $$ impl;\n\
        ü, m1: impl != loop;\n\
        m1, match: me = other[me];\n\
        match, begin: player = keeper;\n\
        ü, fin: impl == loop;\n\
        fin, end: player = keeper;\n";
    let engine = common::engine(source, EngineOptions::default());
    common::assert_agrees("keywords", &engine, 4, &[]);
}
