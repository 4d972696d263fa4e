//! Input nested 10^5 deep, in both KIF syntaxes, is refused with a
//! diagnostic at the first level past the limit, not a stack overflow
//! (issue #18).

fn refused_as_too_deep(text: &str) {
    let errors = gdl::load(text).expect_err("refused");
    assert!(
        errors
            .iter()
            .any(|d| d.message.contains("nested too deeply") && d.span.is_some()),
        "{errors:?}"
    );
}

const DEPTH: usize = 100_000;

#[test]
fn prefix_kif_nested_100000_deep_is_an_error() {
    // A term, a connective chain in a rule body, and bare parentheses.
    refused_as_too_deep(&format!(
        "(role a) (p {}x{})",
        "(f ".repeat(DEPTH),
        ")".repeat(DEPTH)
    ));
    refused_as_too_deep(&format!(
        "(role a) (<= (q) {}(p){})",
        "(or ".repeat(DEPTH),
        ")".repeat(DEPTH)
    ));
    refused_as_too_deep(&"(".repeat(DEPTH));
}

#[test]
fn infix_kif_nested_100000_deep_is_an_error() {
    refused_as_too_deep(&format!(
        "role(a)\np({}x{})",
        "f(".repeat(DEPTH),
        ")".repeat(DEPTH)
    ));
    // Stacked negations are refused for what they are, without recursion.
    let negations = gdl::load(&format!("role(a)\nq :- {}p", "~".repeat(DEPTH)));
    assert!(negations.expect_err("refused")[0]
        .message
        .contains("negation applies only to an atom"));
    refused_as_too_deep(&format!("role(a)\nq :- p({}x", "g(".repeat(DEPTH)));
}
