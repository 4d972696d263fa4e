//! The prover is the native model that checks grounding, the propnet and
//! the lowering, so it must not use them (gdl.md §3.2): its sources may
//! use the KIF AST, the parser (in tests), rg-core's model traits and
//! built-in names, and the standard library — nothing else of this crate
//! or of `propnet`.

use std::path::Path;

/// Paths a prover source may not name.
const FORBIDDEN: [&str; 10] = [
    "propnet",
    "crate::lower",
    "crate::to_datalog",
    "crate::normalize",
    "crate::strata",
    "crate::deps",
    "crate::validate",
    "crate::display",
    "rg_core::build",
    "super::super",
];

/// What a `crate::` path in a prover source may start with.
const ALLOWED_FROM_CRATE: [&str; 2] = ["crate::ast", "crate::parse"];

fn violations(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        // Comments may name what the code must not use.
        let line = line.split("//").next().unwrap_or_default();
        for word in FORBIDDEN {
            if line.contains(word) {
                found.push(format!("line {}: {word}: {line}", number + 1));
            }
        }
        for (at, _) in line.match_indices("crate::") {
            let rest = &line[at..];
            let preceded_by_word = line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            if !preceded_by_word && !ALLOWED_FROM_CRATE.iter().any(|a| rest.starts_with(a)) {
                found.push(format!("line {}: {line}", number + 1));
            }
        }
    }
    found
}

#[test]
fn violations_are_recognized() {
    assert!(violations("use crate::ast::{Atom, Term};").is_empty());
    assert!(violations("use rg_core::model::ForwardModel;").is_empty());
    assert_eq!(violations("use crate::normalize::NormalRule;").len(), 2);
    assert_eq!(violations("use propnet::naming::rg_name;").len(), 1);
    assert_eq!(violations("let x = crate::lower::lower(g);").len(), 2);
    assert_eq!(violations("use crate::Game;").len(), 1);
    assert!(violations("//! unlike propnet").is_empty());
}

#[test]
fn prover_sources_use_nothing_of_grounding_or_the_lowering() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/prover");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "the prover's sources: {files:?}");
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for v in violations(&text) {
            problems.push(format!("{}: {v}", file.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
