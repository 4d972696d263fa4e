//! Declarations: the dispatch on the first word, and type definitions,
//! constants and variables.

use nom::bytes::complete::tag;

use super::Parser;
use crate::ast::{At, Constant, Edge, Game, Ident, Pragma, Type, TypeDef, Value, Variable};
use crate::syntax::{commit, split_word, token, PResult};

/// A declaration of any kind, before it is grouped into the [`Game`].
pub(super) enum Declaration {
    Pragma(Pragma),
    TypeDef(TypeDef),
    Constant(Constant),
    Variable(Variable),
    Edge(Edge),
}

impl Declaration {
    pub(super) fn add_to(self, game: &mut Game) {
        match self {
            Declaration::Pragma(p) => game.pragmas.push(p),
            Declaration::TypeDef(t) => game.typedefs.push(t),
            Declaration::Constant(c) => game.constants.push(c),
            Declaration::Variable(v) => game.variables.push(v),
            Declaration::Edge(e) => game.edges.push(e),
        }
    }
}

impl Parser<'_> {
    pub(super) fn declaration<'a>(&self, input: &'a str) -> PResult<'a, Declaration> {
        if input.starts_with('@') {
            let (rest, p) = self.pragma(input)?;
            return Ok((rest, Declaration::Pragma(p)));
        }
        match split_word(input).0 {
            "type" => self
                .typedef(input)
                .map(|(r, d)| (r, Declaration::TypeDef(d))),
            "const" => self
                .constant(input)
                .map(|(r, d)| (r, Declaration::Constant(d))),
            "var" => self
                .variable(input)
                .map(|(r, d)| (r, Declaration::Variable(d))),
            _ => self.edge(input).map(|(r, d)| (r, Declaration::Edge(d))),
        }
    }

    fn typedef<'a>(&self, input: &'a str) -> PResult<'a, TypeDef> {
        let (i, _) = tag("type")(input)?;
        commit((|| {
            let (i, name) = self.name(i)?;
            let (i, ()) = token(i, "=")?;
            let (i, ty) = self.ty(i)?;
            let (rest, ()) = token(i, ";")?;
            let at = self.span(input, rest);
            Ok((rest, TypeDef { name, ty, at }))
        })())
    }

    fn constant<'a>(&self, input: &'a str) -> PResult<'a, Constant> {
        self.declared_value(input, "const", |name, ty, value, at| Constant {
            name,
            ty,
            value,
            at,
        })
    }

    fn variable<'a>(&self, input: &'a str) -> PResult<'a, Variable> {
        self.declared_value(input, "var", |name, ty, value, at| Variable {
            name,
            ty,
            value,
            at,
        })
    }

    /// `keyword name: T = value;` (constants and variables).
    fn declared_value<'a, T>(
        &self,
        input: &'a str,
        keyword: &'static str,
        build: impl FnOnce(Ident, Type, Value, At) -> T,
    ) -> PResult<'a, T> {
        let (i, _) = tag(keyword)(input)?;
        commit((|| {
            let (i, name) = self.name(i)?;
            let (i, ()) = token(i, ":")?;
            let (i, ty) = self.ty(i)?;
            let (i, ()) = token(i, "=")?;
            let (i, value) = self.value(i)?;
            let (rest, ()) = token(i, ";")?;
            let at = self.span(input, rest);
            Ok((rest, build(name, ty, value, at)))
        })())
    }
}
