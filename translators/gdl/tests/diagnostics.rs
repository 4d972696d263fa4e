//! Snapshots of rendered diagnostics for malformed or invalid GDL.

use rg_core::diag::render_all;

/// Renders every diagnostic of loading `source`, or of its warnings if it loads.
fn rendered(source: &str) -> String {
    let diagnostics = match gdl::load(source) {
        Ok(game) => game.warnings,
        Err(diagnostics) => diagnostics,
    };
    assert!(!diagnostics.is_empty(), "expected diagnostics for {source}");
    render_all(&diagnostics, "game.kif", source)
}

macro_rules! snapshot {
    ($name:ident, $source:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), rendered($source));
        }
    };
}

const GAME: &str = "(role a)\n(init s)\n(<= (legal a x) (true s))\n(<= (next s) (does a x))\n(<= terminal (not (true s)))\n(goal a 100)\n";

snapshot!(
    syntax_unbalanced_parenthesis,
    "(role a)\n(<= (legal a x)\n    (true s)\n"
);
snapshot!(syntax_extra_closing_parenthesis, "(role a))\n");
snapshot!(syntax_string_token, "(role \"alice\")\n");
snapshot!(syntax_dotted_pair, "(role a)\n(succ 1 . 2)\n");
snapshot!(syntax_empty_list, "(role a)\n(<= p ())\n");
snapshot!(
    syntax_negated_disjunction,
    "(role a)\n(<= p (not (or q r)))\n"
);
snapshot!(syntax_variable_as_literal, "(role a)\n(<= p ?x)\n");
snapshot!(syntax_invalid_token, "(role a)\n(cell 3pieces)\n");
snapshot!(
    structure_invalid_head,
    "(role a)\n(<= (distinct a b) (q))\n"
);
snapshot!(structure_true_defined, "(role a)\n(<= (true s) (q))\n");
snapshot!(structure_wrong_arity, "(role a)\n(<= (legal a) (true s))\n");
snapshot!(structure_next_in_body, "(role a)\n(<= p (next s))\n");
snapshot!(
    structure_role_rule,
    "(role a)\n(<= (role ?r) (player ?r))\n(player b)\n"
);
snapshot!(
    safety_head_variable,
    "(role a)\n(<= (legal a (mark ?x ?y)) (cell ?x))\n(cell 1)\n"
);
snapshot!(
    safety_negative_literal,
    "(role a)\n(<= (p ?x) (q ?x) (not (r ?x ?y)))\n(q 1)\n"
);
snapshot!(
    safety_distinct,
    "(role a)\n(<= (p ?x) (q ?x) (distinct ?x ?z))\n(q 1)\n"
);
snapshot!(
    safety_or_alternative,
    "(role a)\n(<= (p ?x) (or (q ?x) (r 1)))\n(q 1)\n(r 1)\n"
);
snapshot!(safety_non_ground_fact, "(role a)\n(cell ?x 1)\n");
snapshot!(
    stratification_negative_cycle,
    "(role a)\n(<= (p ?x) (q ?x) (not (s ?x)))\n(<= (s ?x) (q ?x) (p ?x))\n(q 1)\n"
);
snapshot!(
    recursion_restriction,
    "(role a)\n(<= (count (s ?n)) (count ?n))\n(count 0)\n"
);
snapshot!(
    legal_depends_on_does,
    "(role a)\n(init s)\n(<= (legal a x) (true s) (moved))\n(<= moved (does a x))\n"
);
snapshot!(init_depends_on_state, "(role a)\n(<= (init s) (true s))\n");
snapshot!(missing_role, "(init s)\n(<= terminal (true s))\n");
snapshot!(
    warnings_arity_and_undefined,
    "(role a)\n(role a)\n(<= (p ?x) (q ?x))\n(<= r (p 1 2))\n(q 1)\n"
);
snapshot!(infix_syntax_error, "role(a)\nlegal(a, x) :- true(s) & \n");

#[test]
fn a_valid_game_has_no_errors() {
    assert!(gdl::load(GAME).is_ok());
}
