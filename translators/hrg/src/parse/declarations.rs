//! Declarations: domains (with generators and their bindings), variables,
//! constant functions (with their cases) and graphs.

use rg_core::syntax::{
    commit, delimited_list, error, peek_token, separated1, skip_trivia, token, PResult, WHITESPACE,
};

use super::Parser;
use crate::ast::{
    Binding, BindingValues, Case, Declaration, DomainDecl, Element, FunctionDecl, GraphDecl, Param,
    VariableDecl,
};

impl Parser<'_> {
    pub(super) fn declaration<'a>(&self, input: &'a str) -> PResult<'a, Declaration> {
        match self.peek_word(input) {
            "domain" => self.domain(input).map(|(r, d)| (r, Declaration::Domain(d))),
            "reusable" | "graph" => self.graph(input).map(|(r, g)| (r, Declaration::Graph(g))),
            "" => error(
                input,
                "expected a declaration (domain, graph, variable or function)",
            ),
            _ => self.value_declaration(input),
        }
    }

    fn domain<'a>(&self, input: &'a str) -> PResult<'a, DomainDecl> {
        let (i, ()) = self.keyword(input, "domain")?;
        commit((|| {
            let (i, name) = self.ident(i)?;
            let (i, ()) = token(i, "=")?;
            let (i, elements) = if peek_token(i, "|") || self.starts_declaration(i) {
                (i, Vec::new())
            } else {
                separated1(i, "|", |i| self.element(i))?
            };
            Ok((
                i,
                DomainDecl {
                    name,
                    elements,
                    span: self.span(skip_trivia(input), i),
                },
            ))
        })())
    }

    /// Whether the text after an empty `domain D =` is already the next
    /// declaration (an empty domain).
    fn starts_declaration(&self, input: &str) -> bool {
        let rest = skip_trivia(input);
        rest.is_empty() || matches!(self.peek_word(rest), "domain" | "graph" | "reusable") || {
            let word = self.peek_word(rest);
            !word.is_empty() && peek_token(&rest[word.len()..], ":")
        }
    }

    fn element<'a>(&self, input: &'a str) -> PResult<'a, Element> {
        let start = skip_trivia(input);
        let (i, name) = self.ident(start)?;
        if !i.starts_with('(') {
            return Ok((i, Element::Name(name)));
        }
        let (i, arguments) = delimited_list(i, "(", ")", |i| self.ident(i))?;
        let (i, ()) = self.keyword(i, "where").or_else(|_| {
            error(
                skip_trivia(i),
                "expected \"where\" after a generator (a generator needs at least one binding)",
            )
        })?;
        let (i, bindings) = self.bindings(i)?;
        Ok((
            i,
            Element::Generator {
                constructor: name,
                arguments,
                bindings,
                span: self.span(start, i),
            },
        ))
    }

    pub(super) fn bindings<'a>(&self, i: &'a str) -> PResult<'a, Vec<Binding>> {
        separated1(i, ",", |i| self.binding(i))
    }

    /// `X in lo..hi` or `X in { a, b }`.
    fn binding<'a>(&self, input: &'a str) -> PResult<'a, Binding> {
        let start = skip_trivia(input);
        let (i, variable) = self.ident(start)?;
        let (i, ()) = self.in_keyword(i)?;
        let rest = skip_trivia(i);
        if rest.starts_with('{') {
            let (i, names) = delimited_list(rest, "{", "}", |i| self.ident(i))?;
            return Ok((
                i,
                Binding {
                    variable,
                    values: BindingValues::List(names),
                    span: self.span(start, i),
                },
            ));
        }
        let (i, lo) = self.integer(rest)?;
        let Some(i) = i.strip_prefix("..") else {
            return error(i, "expected \"..\" in a range (no spaces inside \"..\")");
        };
        if i.starts_with(WHITESPACE) {
            return error(i, "expected the upper bound right after \"..\"");
        }
        let (i, hi) = self.integer(i)?;
        Ok((
            i,
            Binding {
                variable,
                values: BindingValues::Range(lo, hi),
                span: self.span(start, i),
            },
        ))
    }

    /// `name : type [= init]`, or a constant function `name : type` with its cases.
    fn value_declaration<'a>(&self, input: &'a str) -> PResult<'a, Declaration> {
        let start = skip_trivia(input);
        let (i, name) = self.ident(start)?;
        let (i, ()) = token(i, ":").or_else(|_| {
            error(
                skip_trivia(i),
                format!(
                    "expected \":\" after \"{}\" (a variable or function declaration)",
                    name.text
                ),
            )
        })?;
        commit((|| {
            let (i, ty) = self.ty(i)?;
            if self.is_case_start(i, &name.text) {
                let mut cases = Vec::new();
                let mut i = i;
                while self.is_case_start(i, &name.text) {
                    let (next, case) = self.case(i)?;
                    cases.push(case);
                    i = next;
                }
                return Ok((
                    i,
                    Declaration::Function(FunctionDecl {
                        name,
                        ty,
                        cases,
                        span: self.span(start, i),
                    }),
                ));
            }
            let (i, init) = if peek_token(i, "=") && !peek_token(i, "==") {
                let (i, ()) = token(i, "=")?;
                let (i, e) = self.expr(i)?;
                (i, Some(e))
            } else {
                (i, None)
            };
            Ok((
                i,
                Declaration::Variable(VariableDecl {
                    name,
                    ty,
                    init,
                    span: self.span(start, i),
                }),
            ))
        })())
    }

    fn is_case_start(&self, input: &str, name: &str) -> bool {
        let rest = skip_trivia(input);
        self.peek_word(rest) == name && rest[name.len()..].starts_with('(')
    }

    fn case<'a>(&self, input: &'a str) -> PResult<'a, Case> {
        let start = skip_trivia(input);
        let (i, _) = self.ident(start)?;
        let (i, patterns) = delimited_list(i, "(", ")", |i| self.pattern(i))?;
        let (i, ()) = token(i, "=")?;
        let (i, body) = self.expr(i)?;
        Ok((
            i,
            Case {
                patterns,
                body,
                span: self.span(start, i),
            },
        ))
    }

    fn graph<'a>(&self, input: &'a str) -> PResult<'a, GraphDecl> {
        let start = skip_trivia(input);
        let (i, reusable) = match self.keyword(start, "reusable") {
            Ok((i, ())) => (i, true),
            Err(_) => (start, false),
        };
        let (i, ()) = self.keyword(i, "graph")?;
        commit((|| {
            let (i, name) = self.ident(i)?;
            let (i, params) = delimited_list(i, "(", ")", |i| self.param(i))?;
            let (i, body) = self.block(i)?;
            Ok((
                i,
                GraphDecl {
                    reusable,
                    name,
                    params,
                    body,
                    span: self.span(start, i),
                },
            ))
        })())
    }

    /// `name : type` (a graph parameter).
    fn param<'a>(&self, input: &'a str) -> PResult<'a, Param> {
        let (i, name) = self.ident(input)?;
        let (i, ()) = token(i, ":")?;
        let (i, ty) = self.ty(i)?;
        Ok((i, Param { name, ty }))
    }
}
