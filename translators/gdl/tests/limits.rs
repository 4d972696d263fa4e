//! Reading prefix KIF takes time linear in the number of sentences (issue
//! #18): a long file is read quickly, and one huge sentence is refused
//! naming its limit.

use std::time::{Duration, Instant};

fn load_quickly(text: &str) -> Result<gdl::Game, Vec<rg_core::diag::Diagnostic>> {
    let start = Instant::now();
    let result = gdl::load(text);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
    result
}

#[test]
fn a_file_of_many_sentences_is_read_in_linear_time() {
    // 600 KB in 40,001 sentences took 22 s when the whole text was one
    // reader's input.
    let mut text = String::from("(role a)\n");
    for k in 0..40_000 {
        text.push_str(&format!("(f{k} x{k})\n"));
    }
    let game = load_quickly(&text).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(game.description.rules.len(), 40_001);
    // Spans stay byte ranges of the whole text.
    let last = &game.description.rules[40_000];
    assert_eq!(&text[last.span.start..last.span.end], "(f39999 x39999)");
}

#[test]
fn a_sentence_past_the_limit_is_refused_at_its_parenthesis() {
    let facts: String = (0..10_000).map(|k| format!(" (p{k})")).collect();
    let text = format!("(role a)\n(<= (q){facts})\n");
    let errors = load_quickly(&text).expect_err("refused");
    let error = &errors[0];
    assert!(
        error.message.contains("a sentence longer than 65536 bytes"),
        "{error:?}"
    );
    assert!(
        error
            .notes
            .iter()
            .any(|n| n.contains("raise MAX_SENTENCE_BYTES in translators/gdl/src/parse/parsed.rs")),
        "{error:?}"
    );
    assert_eq!(error.span.unwrap().start, text.find("(<=").unwrap());
    // Unclosed, it is reported as never closed, quickly.
    let unclosed = format!("(role a)\n(<= (q){facts}\n");
    let errors = load_quickly(&unclosed).expect_err("refused");
    assert!(errors[0].message.contains("never closed"), "{errors:?}");
    assert_eq!(errors[0].span.unwrap().start, unclosed.find("(<=").unwrap());
}
