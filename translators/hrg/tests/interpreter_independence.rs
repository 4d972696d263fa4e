//! The native interpreter must stay independent of the translation it is
//! used to check (hrg.md §4.14): none of its source files may mention the
//! lowering, its static evaluator, pattern matcher and tables, or the RG
//! game builder; of `crate::eval` it may use only the evaluated `Domains`.

use std::path::Path;

const FORBIDDEN: [&str; 7] = [
    "crate::lower",
    "lower::",
    "Evaluator",
    "tabulate",
    "match_pattern",
    "eval::Bindings",
    "rg_core::build",
];

/// The one item of `crate::eval` the interpreter may use.
const ALLOWED_FROM_EVAL: &str = "Domains";

/// Uses of `crate::eval` on a line other than `crate::eval::Domains`
/// (a whole-module import, a group import, any other item).
fn eval_uses(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in line.match_indices("crate::eval") {
        let rest = &line[at + "crate::eval".len()..];
        let item = rest.strip_prefix("::").unwrap_or("");
        let name: String = item
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name != ALLOWED_FROM_EVAL {
            let shown: String = rest.chars().take(30).collect();
            found.push(format!("crate::eval{shown}"));
        }
    }
    found
}

#[test]
fn eval_uses_are_recognized() {
    assert!(eval_uses("use crate::eval::Domains;").is_empty());
    assert!(eval_uses("let d: crate::eval::Domains = x;").is_empty());
    assert_eq!(eval_uses("use crate::eval::Bindings;").len(), 1);
    assert_eq!(eval_uses("use crate::eval::{Domains, Bindings};").len(), 1);
    assert_eq!(eval_uses("use crate::eval;").len(), 1);
    assert_eq!(eval_uses("use crate::eval::DomainsExt;").len(), 1);
    assert_eq!(eval_uses("crate::eval::match_pattern(p, v, b)").len(), 1);
}

#[test]
fn interpreter_sources_do_not_use_the_lowering() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/interpreter");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "interpreter sources not found in {}",
        dir.display()
    );
    let mut offences = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate() {
            for word in FORBIDDEN {
                if line.contains(word) {
                    offences.push(format!("{}:{}: mentions {word}", path.display(), n + 1));
                }
            }
            for used in eval_uses(line) {
                offences.push(format!("{}:{}: uses {used}", path.display(), n + 1));
            }
        }
    }
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}
