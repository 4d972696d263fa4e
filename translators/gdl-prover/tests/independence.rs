//! The prover is the native model that checks grounding, the propnet and
//! the lowering, so it must not be able to use them (gdl.md §3.2). This is
//! a compile-time fact: its crate depends on the KIF AST and rg-core only
//! (the GDL front end is a dev-dependency, for parsing in tests), and the
//! AST crate on rg-core only. This test keeps those lists from growing.

use std::collections::BTreeSet;
use std::path::Path;

/// The names under `[dependencies]` of a Cargo manifest.
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap_or_default().trim();
            names.insert(name.to_string());
        }
    }
    names
}

fn manifest(crate_dir: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(crate_dir)
        .join("Cargo.toml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn dependency_lists_are_read() {
    let names = dependencies("[package]\nname = \"x\"\n[dependencies]\na.workspace = true\nb = { path = \"b\" }\n# c\n[dev-dependencies]\nd = \"1\"\n");
    assert_eq!(names, BTreeSet::from(["a".to_string(), "b".to_string()]));
}

#[test]
fn the_prover_depends_on_the_ast_and_rg_core_only() {
    let expected = BTreeSet::from(["gdl-ast".to_string(), "rg-core".to_string()]);
    assert_eq!(dependencies(&manifest("gdl-prover")), expected);
    assert_eq!(
        dependencies(&manifest("gdl-ast")),
        BTreeSet::from(["rg-core".to_string()])
    );
}
