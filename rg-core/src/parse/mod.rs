//! The RG parser (rg.md §1–2), built with nom over `&str` on the parser
//! support it shares with HRG ([`crate::syntax`]).
//!
//! Every AST node gets the byte span it was read from. Syntax errors become
//! [`Diagnostic`]s; after an error the parser skips to the next `;` and goes
//! on, so one run reports every broken declaration. It never panics.
//!
//! One `Parser`, its methods split by grammar area: `lexical`,
//! `declarations`, `types`, `values`, `expressions`, `edges` and `pragmas`.

mod declarations;
mod edges;
mod expressions;
mod lexical;
mod pragmas;
mod types;
mod values;

use nom::Finish;

use crate::ast::{is_ident_char, At, Game, Type};
use crate::diag::Diagnostic;
use crate::syntax::{self, error, skip_trivia, Nesting, PResult, SyntaxError};

/// Parses a whole RG description.
pub fn parse_game(source: &str) -> Result<Game, Vec<Diagnostic>> {
    let parser = Parser::new(source);
    match syntax::parse_sequence(source, |input| parser.declaration(input), after_semicolon) {
        Ok(declarations) => {
            let mut game = Game::default();
            for declaration in declarations {
                declaration.add_to(&mut game);
            }
            Ok(game)
        }
        Err(errors) => Err(errors.iter().map(|e| parser.diagnostic(e)).collect()),
    }
}

/// Where parsing resumes after an error: after the next `;`.
fn after_semicolon(input: &str) -> &str {
    input
        .find(';')
        .map_or("", |semicolon| &input[semicolon + 1..])
}

/// Parses a type expression (used by tools and tests).
pub fn parse_type(source: &str) -> Result<Type, Diagnostic> {
    let parser = Parser::new(source);
    let result = parser
        .ty(source)
        .and_then(|(rest, t)| parser.eof(rest).map(|(rest, ())| (rest, t)));
    match result.finish() {
        Ok((_, t)) => Ok(t),
        Err(e) => Err(parser.diagnostic(&e)),
    }
}

/// The source being parsed (positions are suffixes of it) and how deeply
/// the current construct is nested.
struct Parser<'s> {
    src: &'s str,
    nesting: Nesting,
}

impl<'s> Parser<'s> {
    fn new(src: &'s str) -> Self {
        Parser {
            src,
            nesting: Nesting::default(),
        }
    }

    /// The span from `start` (a suffix of the source) to `rest`.
    fn span(&self, start: &str, rest: &str) -> At {
        At::from(syntax::span(self.src, start, rest))
    }

    /// A character no token starts with is reported as such, with what was
    /// expected as its label.
    fn diagnostic(&self, e: &SyntaxError<'_>) -> Diagnostic {
        match e.input.chars().next() {
            Some(c) if !is_token_start(c) => {
                Diagnostic::error(format!("unexpected character: \"{c}\""), e.span(self.src))
                    .with_label(e.message.to_string())
            }
            _ => e.to_diagnostic(self.src),
        }
    }

    fn eof<'a>(&self, input: &'a str) -> PResult<'a, ()> {
        let input = skip_trivia(input);
        if input.is_empty() {
            Ok((input, ()))
        } else {
            error(input, "expected end of input")
        }
    }
}

/// Characters that can begin some RG token.
fn is_token_start(c: char) -> bool {
    is_ident_char(c)
        || matches!(
            c,
            ' ' | '\t'
                | '\r'
                | '\n'
                | '-'
                | '='
                | '!'
                | '$'
                | '?'
                | '{'
                | '}'
                | ','
                | ':'
                | '('
                | ')'
                | '*'
                | '['
                | ']'
                | ';'
                | '@'
                | '/'
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Expr, Label, PatternTag, PragmaKind, Value};

    fn first_error(text: &str) -> (String, usize) {
        let errors = parse_game(text).unwrap_err();
        let d = &errors[0];
        (d.message.clone(), d.span.unwrap().start)
    }

    #[test]
    fn parses_every_label_form() {
        let game = parse_game(
            "a, b: ; a, b: $ t; a, b: $$v; a, b: ? x -> y; a, b: ! x -> y;
             a, b: m[k] == T(v); a, b: x != y; a, b: x = y; a, b: x = T(*);
             a, b: x = { p, q }(*); a, b: T(x)[k] = U(y);",
        )
        .unwrap();
        let labels: Vec<_> = game.edges.iter().map(|e| e.label.clone()).collect();
        assert_eq!(labels[0], Label::Skip);
        assert_eq!(labels[1], Label::Tag("t".into()));
        assert_eq!(labels[2], Label::VarTag("v".into()));
        assert!(matches!(labels[3], Label::Reach { negated: false, .. }));
        assert!(matches!(labels[4], Label::Reach { negated: true, .. }));
        assert!(matches!(labels[5], Label::Compare { negated: false, .. }));
        assert!(matches!(labels[6], Label::Compare { negated: true, .. }));
        assert!(matches!(labels[7], Label::Assign { .. }));
        assert_eq!(
            labels[8],
            Label::AssignAny {
                lhs: Expr::name("x"),
                ty: Type::name("T")
            }
        );
        assert_eq!(
            labels[9],
            Label::AssignAny {
                lhs: Expr::name("x"),
                ty: Type::set(["p", "q"])
            }
        );
        assert_eq!(
            labels[10],
            Label::Assign {
                lhs: Expr::access(Expr::cast("T", Expr::name("x")), Expr::name("k")),
                rhs: Expr::cast("U", Expr::name("y")),
            }
        );
    }

    #[test]
    fn identifiers_may_start_with_digits_and_be_unicode() {
        let game = parse_game("17, é1: C__2_s = 0abc;").unwrap();
        assert_eq!(game.edges[0].from, "17");
        assert_eq!(game.edges[0].to, "é1");
    }

    #[test]
    fn keyword_prefixed_node_names_are_identifiers() {
        let game = parse_game("constant, end: ; types, x: ; variable, y: ;").unwrap();
        assert_eq!(game.edges.len(), 3);
        assert_eq!(game.edges[0].from, "constant");
    }

    #[test]
    fn declarations_are_grouped_by_kind_in_source_order() {
        let game = parse_game(
            "a, b: ; var v: T = x; type T = {x}; @unique a; const c: T = x; type U = T;",
        )
        .unwrap();
        assert_eq!(game.typedefs.len(), 2);
        assert_eq!(game.typedefs[1].name, "U");
        assert_eq!(game.constants.len(), 1);
        assert_eq!(game.variables.len(), 1);
        assert_eq!(game.pragmas.len(), 1);
    }

    #[test]
    fn arrow_types_are_right_associative() {
        let t = parse_type("A -> {b} -> C").unwrap();
        assert_eq!(
            t,
            Type::arrow(
                Type::name("A"),
                Type::arrow(Type::set(["b"]), Type::name("C"))
            )
        );
    }

    #[test]
    fn nested_maps_and_defaults_anywhere() {
        let game = parse_game("var m: A = { a: { b: c, :e }, :{ :e } };").unwrap();
        let Value::Map(entries, _) = &game.variables[0].value else {
            panic!("expected a map")
        };
        assert_eq!(entries[0].key.as_deref(), Some("a"));
        assert_eq!(entries[1].key, None);
        // `{ }` parses (it is invalid only for the checker).
        assert!(parse_game("var m: A = { };").is_ok());
    }

    #[test]
    fn pragmas_known_and_unknown() {
        let game = parse_game(
            "@disjoint n : a b; @disjointExhaustive n: a; @artificialTag t u;
             @repeat a b : x y; @repeat a :; @unique a b; @tagIndex a b : 3; @tagMaxIndex a : 4;
             @integer 0 : s0 s1; @iterator a b c : v; @simpleApply a b [t, x: T] v = x, player = keeper;
             @simpleApplyExhaustive a b []; @translatedFromRbg; @tagIndexMax a : 2; @ disjoint x // y
             z;",
        )
        .unwrap();
        let kinds: Vec<_> = game.pragmas.iter().map(|p| p.kind.clone()).collect();
        assert_eq!(kinds.len(), 15);
        assert_eq!(
            kinds[4],
            PragmaKind::Repeat {
                nodes: vec!["a".into()],
                variables: vec![]
            }
        );
        assert_eq!(
            kinds[7],
            PragmaKind::TagIndex {
                max: true,
                nodes: vec!["a".into()],
                index: 4
            }
        );
        let PragmaKind::SimpleApply(sa) = &kinds[10] else {
            panic!()
        };
        assert_eq!(
            sa.tags,
            vec![
                PatternTag::Symbol("t".into()),
                PatternTag::Bind("x".into(), Type::name("T"))
            ]
        );
        assert_eq!(sa.assignments.len(), 2);
        assert_eq!(kinds[13], PragmaKind::Unknown("tagIndexMax a : 2".into()));
        // Raw text keeps comments and newlines verbatim.
        assert_eq!(
            kinds[14],
            PragmaKind::Unknown(" disjoint x // y\n             z".into())
        );
    }

    #[test]
    fn unicode_arrow_is_an_unexpected_character() {
        let (message, offset) = first_error("type A = {a, b} → {c};");
        assert_eq!(message, "unexpected character: \"→\"");
        assert_eq!(offset, 16);
    }

    #[test]
    fn missing_semicolon_is_reported_where_expected() {
        let (message, offset) = first_error("type A = {a}\ntype B = {b};");
        assert_eq!(message, "expected \";\"");
        assert_eq!(offset, 13);
    }

    #[test]
    fn several_errors_are_reported_at_once() {
        let errors = parse_game("type A = {};\nvar v: A = ;\na, b: x;\nok, fine: ;").unwrap_err();
        assert_eq!(errors.len(), 3, "{errors:?}");
    }

    #[test]
    fn whitespace_rules() {
        assert!(parse_game("a, b: x [y] = z;").is_err());
        assert!(parse_game("a, b: $ $ x;").is_err());
        assert!(parse_game("a, b: x - > y;").is_err());
        assert!(parse_game("a, b: $$x;").is_ok());
        assert!(parse_game("a,b:x=T ( * );//c").is_ok());
        assert!(parse_game("a, b: x;").is_err());
        assert!(parse_game("type var = {a};").is_err());
        assert!(parse_game(";").is_err());
        assert!(parse_game("a, b: ; ;").is_err());
    }

    #[test]
    fn spans_cover_declarations() {
        let text = "  a, b: x = y;";
        let game = parse_game(text).unwrap();
        let span = game.edges[0].at.span().unwrap();
        assert_eq!(&text[span.start..span.end], "a, b: x = y;");
    }
}
