//! The native interpreter must stay independent of the translation it is
//! used to check (hrg.md §4.14): none of its source files may mention the
//! lowering, its static evaluator and tables, or the RG game builder.

use std::path::Path;

const FORBIDDEN: [&str; 5] = [
    "crate::lower",
    "lower::",
    "Evaluator",
    "tabulate",
    "rg_core::build",
];

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
        }
    }
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}
