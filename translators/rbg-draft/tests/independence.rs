//! The native interpreter and the lowering are independent readings of the
//! draft's semantics: neither module refers to the other, and both reach
//! the rest of the crate only through the checked AST (and the limits);
//! only their unit tests (after `#[cfg(test)]`) may use the front end.
//! The differential perft check is worth something only while this holds.

use std::path::Path;

fn sources(dir: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("module directory") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("readable");
            out.push((path.display().to_string(), text));
        }
    }
    assert!(!out.is_empty(), "no sources in {}", dir.display());
    out
}

/// Every `crate::…` path a module uses, outside comments.
fn crate_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(k) = rest.find("crate::") {
            let after = &rest[k + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            paths.push(name);
            rest = after;
        }
    }
    paths
}

fn check_module(dir: &str, other: &str) {
    for (file, text) in sources(dir) {
        // Unit tests may drive the whole front end; the code may not.
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        for module in crate_paths(text) {
            assert!(
                ["ast", "limits"].contains(&module.as_str()),
                "{file} uses crate::{module}; {dir} may only use the AST and the limits"
            );
        }
        let code: String = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            !code.contains(&format!("{other}::")),
            "{file} refers to the {other} module"
        );
    }
}

#[test]
fn interpreter_does_not_use_the_lowering() {
    check_module("interpreter", "lower");
}

#[test]
fn lowering_does_not_use_the_interpreter() {
    check_module("lower", "interpreter");
}

#[test]
fn the_check_sees_crate_paths() {
    // The scanner itself must find paths, or the tests above prove nothing.
    assert_eq!(
        crate_paths("use crate::ast::Game; // crate::lower\nlet x = crate::lower::f();"),
        ["ast", "lower"]
    );
}
