//! The native model and the lowering must stay independent (replay.md
//! §5.3, §6): each derives its schedule, move names, noise weights, scales
//! and goal increments from the instance on its own. Their sources may
//! share only the instance, the values and exact rationals.

use std::path::Path;

/// Words that would mean one side uses the other.
const NATIVE_MUST_NOT_MENTION: [&str; 6] = [
    "crate::lower",
    "lower::",
    "rg_core::build",
    "GameBuilder",
    "draw_counts",
    "Tables",
];
const LOWERING_MUST_NOT_MENTION: [&str; 4] =
    ["crate::native", "native::", "Payoffs", "NativeState"];

/// The only crate modules either side may import.
const SHARED: [&str; 3] = ["crate::instance", "crate::ratio", "crate::value"];

fn sources(dir: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

fn offences(files: &[(String, String)], forbidden: &[&str], own: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (path, text) in files {
        for (n, line) in text.lines().enumerate() {
            for word in forbidden {
                if line.contains(word) {
                    found.push(format!("{path}:{}: mentions {word}", n + 1));
                }
            }
            for (at, _) in line.match_indices("crate::") {
                let rest = &line[at..];
                let shared = SHARED.iter().any(|s| rest.starts_with(s));
                let own_module = rest.starts_with(&format!("crate::{own}"));
                if !shared && !own_module {
                    found.push(format!(
                        "{path}:{}: uses {}",
                        n + 1,
                        &rest[..rest.len().min(30)]
                    ));
                }
            }
        }
    }
    found
}

#[test]
fn offences_are_recognized() {
    let files = vec![(
        "x.rs".to_string(),
        "use crate::lower::tables;\nuse crate::ratio::Ratio;\nuse crate::eval::Globals;\n"
            .to_string(),
    )];
    // crate::lower twice (two forbidden words), not shared once; crate::eval not shared.
    assert_eq!(
        offences(&files, &NATIVE_MUST_NOT_MENTION, "native").len(),
        4
    );
}

#[test]
fn native_model_does_not_use_the_lowering() {
    let files = sources("native");
    assert!(files.len() >= 2, "native sources not found");
    let found = offences(&files, &NATIVE_MUST_NOT_MENTION, "native");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn lowering_does_not_use_the_native_model() {
    let files = sources("lower");
    assert!(files.len() >= 2, "lowering sources not found");
    let found = offences(&files, &LOWERING_MUST_NOT_MENTION, "lower");
    assert!(found.is_empty(), "{}", found.join("\n"));
}
