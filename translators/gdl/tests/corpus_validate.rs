//! Every shared corpus file parses and validates, or is rejected with the
//! specific diagnostic listed here (with the reason it is really invalid).

use rg_core::diag::Diagnostic;

/// Files that are rejected, with the expected first error message.
const REJECTED: &[(&str, &str)] = &[];

fn read(path: &std::path::Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).expect("readable corpus file")).into_owned()
}

#[test]
fn every_corpus_file_validates_or_is_rejected_as_documented() {
    let Some(corpus) = testkit::shared_corpus("every_corpus_file_validates") else {
        return;
    };
    let files = testkit::files_with_extension(&corpus.join("kif"), "kif");
    assert!(files.len() >= 50, "expected the 56 corpus games");
    let mut failures = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let source = read(file);
        let expected = REJECTED.iter().find(|(f, _)| *f == name).map(|(_, m)| *m);
        match (gdl::load(&source), expected) {
            (Ok(_), None) => {}
            (Ok(_), Some(message)) => {
                failures.push(format!("{name}: accepted, expected `{message}`"));
            }
            (Err(diagnostics), expected) => {
                let first = diagnostics
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| d.message.clone())
                    .unwrap_or_default();
                if expected != Some(first.as_str()) {
                    let rendered: Vec<String> = diagnostics
                        .iter()
                        .filter(|d| d.is_error())
                        .take(3)
                        .map(|d: &Diagnostic| d.one_line(&name, &source))
                        .collect();
                    failures.push(rendered.join("\n"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
