//! `rgw fmt`: prints by default, rewrites only with --write, never loses a
//! comment.

mod common;

use common::{rgw, TempDir};

const MESSY: &str =
    "// players\ntype Player={x};type Score={0};// one score\nbegin,end:player=keeper;\n";
const CANONICAL: &str = "\
// players
type Player = { x };
type Score = { 0 }; // one score
begin, end: player = keeper;
";

#[test]
fn fmt_prints_the_canonical_form_and_leaves_the_file_alone() {
    let dir = TempDir::new("fmt-print");
    let file = dir.write("g.rg", MESSY);
    let out = rgw(&["fmt", &file]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, CANONICAL);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), MESSY);
}

#[test]
fn fmt_write_rewrites_in_place_keeping_comments() {
    let dir = TempDir::new("fmt-write");
    let file = dir.write("g.rg", MESSY);
    let out = rgw(&["fmt", "--write", &file]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("g.rg: formatted"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), CANONICAL);
    let again = rgw(&["fmt", "--write", &file]);
    assert!(
        again.stderr.contains("already canonical"),
        "{}",
        again.stderr
    );
}

#[test]
fn fmt_check_reports_without_writing() {
    let dir = TempDir::new("fmt-check");
    let file = dir.write("g.rg", MESSY);
    let out = rgw(&["fmt", "--check", &file]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.contains("would be reformatted"),
        "{}",
        out.stdout
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), MESSY);
    let canonical = dir.write("c.rg", CANONICAL);
    let out = rgw(&["fmt", "--check", &canonical]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(out.stdout.contains("already canonical"), "{}", out.stdout);
}

#[test]
fn fmt_refuses_bad_input_and_conflicting_options() {
    let dir = TempDir::new("fmt-errors");
    let broken = dir.write("broken.rg", "type A = {a}\n");
    let out = rgw(&["fmt", "--write", &broken]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("broken.rg:2:1"), "{}", out.stderr);
    assert!(out.stderr.contains("expected \";\""), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), "type A = {a}\n");

    let file = dir.write("g.rg", MESSY);
    let out = rgw(&["fmt", "--check", "--write", &file]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("cannot be used with"), "{}", out.stderr);

    let kif = dir.write("g.kif", "(role x)");
    let out = rgw(&["fmt", &kif]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("formats RG files"), "{}", out.stderr);
}
