//! The HRG parser (hrg.md §1–4, appendix A), built with nom over `&str` on
//! the parser support it shares with RG ([`rg_core::syntax`]).
//!
//! Newlines carry no meaning; statements have no terminators. Syntax errors
//! are diagnostics with spans; after one, parsing resumes at the next line
//! that starts a declaration in column 1, so one run reports several.
//!
//! One `Parser`, its methods split by grammar area: `lexical`,
//! `declarations`, `types`, `statements` and `expressions`.

mod declarations;
mod expressions;
mod lexical;
mod statements;
mod types;

use rg_core::diag::{Diagnostic, Span};
use rg_core::syntax::{self, Nesting};

use crate::ast::Program;

/// Parses a whole program.
pub fn parse_program(source: &str) -> Result<Program, Vec<Diagnostic>> {
    let parser = Parser {
        src: source,
        nesting: Nesting::default(),
    };
    match syntax::parse_sequence(source, |input| parser.declaration(input), resume_point) {
        Ok(declarations) => Ok(Program { declarations }),
        Err(errors) => Err(errors.iter().map(|e| e.to_diagnostic(source)).collect()),
    }
}

/// The next line (after the failure) that starts with a letter in column 1,
/// where declarations usually begin.
fn resume_point(mut input: &str) -> &str {
    loop {
        match input.find('\n') {
            None => return "",
            Some(k) => {
                input = &input[k + 1..];
                if input.starts_with(|c: char| c.is_alphabetic()) {
                    return input;
                }
            }
        }
    }
}

/// The source being parsed (positions are suffixes of it) and how deeply
/// the current construct is nested.
struct Parser<'s> {
    src: &'s str,
    nesting: Nesting,
}

impl<'s> Parser<'s> {
    fn offset(&self, input: &str) -> usize {
        syntax::offset(self.src, input)
    }

    fn span(&self, start: &str, rest: &str) -> Span {
        syntax::span(self.src, start, rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::*;

    fn program(text: &str) -> Program {
        parse_program(text).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn first_error(text: &str) -> String {
        parse_program(text).unwrap_err()[0].message.clone()
    }

    #[test]
    fn declarations_of_every_kind() {
        let p = program(
            "domain Player = x | o\ndomain Pos = null | P(I, J) where I in 0..2, J in { a, 10 }\n\
             board : Pos -> Player = { :x; P(I, I) = o where I in 0..2 }\nme : Player = x\n\
             op : Player -> Player\nop(x) = o\nop(_) = x\nreusable graph g(a: Player, b: Pos -> Player) { }\n",
        );
        assert_eq!(p.domains().count(), 2);
        assert_eq!(p.variables().count(), 2);
        let f = p.functions().next().unwrap();
        assert_eq!(f.cases.len(), 2);
        let g = p.graphs().next().unwrap();
        assert!(g.reusable);
        assert_eq!(g.params.len(), 2);
    }

    #[test]
    fn statements_of_every_kind() {
        let p = program(
            "graph rules() {\n  x = y  $ t\n  board[p][q] = me\n  pos = Position(*)\n  v = { a, b }(*)\n\
             branch { check(a == b) } or { return() } or { }\n  branch d in Dir { $_d }\n\
             if a == b && c != d { end() } else if e == f { break() } else { continue() }\n\
             loop { turn(x) }\n  repeat 3 { $(a b c) }\n  repeat d in { up, down } { $_(x y) }\n\
             while x != y { x = f(x)(y)[z] }\n  $$ pos\n}\n",
        );
        let g = p.graphs().next().unwrap();
        let kinds: Vec<&str> = g
            .body
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Assign { .. } => "assign",
                StmtKind::AssignAny { .. } => "any",
                StmtKind::Branch(_) => "branch",
                StmtKind::BranchIn { .. } => "branch-in",
                StmtKind::If { .. } => "if",
                StmtKind::Loop(_) => "loop",
                StmtKind::Repeat { .. } => "repeat",
                StmtKind::RepeatIn { .. } => "repeat-in",
                StmtKind::While { .. } => "while",
                StmtKind::VarTag(_) => "$$",
                StmtKind::Tag { .. } => "$",
                StmtKind::Call { .. } => "call",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "assign",
                "$",
                "assign",
                "any",
                "any",
                "branch",
                "branch-in",
                "if",
                "loop",
                "repeat",
                "repeat-in",
                "while",
                "$$"
            ]
        );
        match &g.body[1].kind {
            StmtKind::Tag {
                artificial,
                symbols,
            } => {
                assert!(!artificial);
                assert_eq!(symbols[0].text, "t");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn precedence_of_operators() {
        let p = program("f : A -> A\nf(X) = if X + 1 % 3 == 2 || a && b then X else Y\n");
        let body = &p.functions().next().unwrap().cases[0].body;
        let ExprKind::If(c, _, _) = &body.kind else {
            panic!()
        };
        // `||` at the top; `(X + 1) % 3 == 2` on its left.
        let ExprKind::Binary(BinaryOp::Or, lhs, rhs) = &c.kind else {
            panic!("{c:?}")
        };
        assert!(matches!(rhs.kind, ExprKind::Binary(BinaryOp::And, _, _)));
        let ExprKind::Binary(BinaryOp::Eq, arith, _) = &lhs.kind else {
            panic!()
        };
        let ExprKind::Binary(BinaryOp::Mod, sum, _) = &arith.kind else {
            panic!("{arith:?}")
        };
        assert!(matches!(sum.kind, ExprKind::Binary(BinaryOp::Add, _, _)));
    }

    #[test]
    fn artificial_tag_spacing() {
        let p = program("graph rules() { $_x $_ y $ _z }");
        let tags: Vec<(bool, String)> = p
            .graphs()
            .next()
            .unwrap()
            .body
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Tag {
                    artificial,
                    symbols,
                } => (*artificial, symbols[0].text.clone()),
                _ => panic!(),
            })
            .collect();
        assert_eq!(
            tags,
            [(true, "x".into()), (true, "y".into()), (false, "_z".into())]
        );
    }

    #[test]
    fn syntax_errors() {
        assert!(first_error("graph rules() { if (a == b) { end() } }")
            .contains("must not start with \"(\""));
        assert!(first_error("domain D = C(X) \n").contains("where"));
        assert!(first_error("domain D = C(X) where X in 0 .. 2\n").contains(".."));
        assert!(first_error("graph rules() { x = }").contains("expected an expression"));
        assert!(first_error("graph rules() { x = y").contains("}"));
        assert!(first_error("var x : A\n").contains("reserved"));
        // Several errors, one per broken declaration.
        let errors =
            parse_program("graph a() { x = }\ngraph b() { y = }\ndomain D = a\n").unwrap_err();
        assert_eq!(errors.len(), 2);
    }
}
