//! Inputs found by the fuzz targets (`fuzz/`, docs/reliability.md),
//! replayed by the stable test suite: each once broke a property the
//! targets check.

use rg_core::diag::render_all;

/// Every error span lies inside the text on character boundaries, and the
/// errors render.
fn spans_are_sound(text: &str) {
    let errors = gdl::load(text).expect_err("refused");
    for d in &errors {
        let span = d.span.expect("a span");
        assert!(span.start <= span.end && span.end <= text.len(), "{d:?}");
        assert!(
            text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
            "{d:?} splits a character"
        );
    }
    render_all(&errors, "fuzz.kif", text);
}

#[test]
fn kif_prefix_syntax_error_on_a_multibyte_character() {
    // kif_prefix crash-406709474c55919c22801193ac533c50d514929d, reduced:
    // lexpr's byte column lands on `ȫ`, and the error's one-byte span split
    // it.
    spans_are_sound("(role a)\n(succ 8 \u{22b}\u{1f}&\0\0\0\09)\n");
    spans_are_sound("(succ \u{22b}\u{22b}\u{1f}&)");
}
