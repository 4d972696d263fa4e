//! Pragmas: the known ones with their arguments, and unknown ones kept as
//! raw text.

use super::Parser;
use crate::ast::{Ident, PatternTag, Pragma, PragmaKind, SimpleApply};
use crate::syntax::{
    commit, delimited_list, failure, separated0_until, split_word, token, PResult,
};

impl Parser<'_> {
    pub(super) fn pragma<'a>(&self, input: &'a str) -> PResult<'a, Pragma> {
        let body = &input[1..];
        let (name, i) = split_word(body);
        let kind = match name {
            "disjoint" | "disjointExhaustive" => {
                commit(self.disjoint(i, name == "disjointExhaustive"))?
            }
            "artificialTag" => commit(
                self.idents1(i)
                    .map(|(i, v)| (i, PragmaKind::ArtificialTag(v))),
            )?,
            "repeat" => commit((|| {
                let (i, nodes) = self.idents1(i)?;
                let (i, ()) = token(i, ":")?;
                let (i, variables) = self.idents0(i)?;
                Ok((i, PragmaKind::Repeat { nodes, variables }))
            })())?,
            "unique" => commit(self.idents1(i).map(|(i, v)| (i, PragmaKind::Unique(v))))?,
            "tagIndex" | "tagMaxIndex" => commit((|| {
                let (i, nodes) = self.idents1(i)?;
                let (i, ()) = token(i, ":")?;
                let (i, index) = self.digits(i)?;
                let max = name == "tagMaxIndex";
                Ok((i, PragmaKind::TagIndex { max, nodes, index }))
            })())?,
            "integer" => commit((|| {
                let (i, start) = self.digits(i)?;
                let (i, ()) = token(i, ":")?;
                let (i, symbols) = self.idents1(i)?;
                Ok((i, PragmaKind::Integer { start, symbols }))
            })())?,
            "iterator" => commit((|| {
                let (i, a) = self.name(i)?;
                let (i, b) = self.name(i)?;
                let (i, c) = self.name(i)?;
                let (i, ()) = token(i, ":")?;
                let (i, variable) = self.name(i)?;
                Ok((
                    i,
                    PragmaKind::Iterator {
                        nodes: [a, b, c],
                        variable,
                    },
                ))
            })())?,
            "simpleApply" | "simpleApplyExhaustive" => {
                commit(self.simple_apply(i, name == "simpleApplyExhaustive"))?
            }
            "translatedFromRbg" => (i, PragmaKind::TranslatedFromRbg),
            _ => {
                let Some(end) = body.find(';') else {
                    return failure(input, "unterminated pragma: expected \";\"");
                };
                let rest = &body[end..];
                (rest, PragmaKind::Unknown(body[..end].to_string()))
            }
        };
        let (rest, ()) = commit(token(kind.0, ";"))?;
        Ok((
            rest,
            Pragma {
                kind: kind.1,
                at: self.span(input, rest),
            },
        ))
    }

    fn disjoint<'a>(&self, i: &'a str, exhaustive: bool) -> PResult<'a, PragmaKind> {
        let (i, node) = self.name(i)?;
        let (i, ()) = token(i, ":")?;
        let (i, targets) = self.idents1(i)?;
        Ok((
            i,
            PragmaKind::Disjoint {
                exhaustive,
                node,
                targets,
            },
        ))
    }

    fn simple_apply<'a>(&self, i: &'a str, exhaustive: bool) -> PResult<'a, PragmaKind> {
        let (i, from) = self.name(i)?;
        let (i, to) = self.name(i)?;
        let (i, tags) = delimited_list(i, "[", "]", |i| self.pattern_tag(i))?;
        let (i, assignments) = separated0_until(i, ",", ";", |i| {
            let (i, lhs) = self.expr(i)?;
            let (i, ()) = token(i, "=")?;
            let (i, rhs) = self.expr(i)?;
            Ok((i, (lhs, rhs)))
        })?;
        Ok((
            i,
            PragmaKind::SimpleApply(SimpleApply {
                exhaustive,
                from,
                to,
                tags,
                assignments,
            }),
        ))
    }

    /// `name` or `name: Type` (binding a tag; the colon must follow at once).
    fn pattern_tag<'a>(&self, input: &'a str) -> PResult<'a, PatternTag> {
        let (i, (name, _)) = self.ident(input)?;
        if let Some(after) = i.strip_prefix(':') {
            let (after, ty) = self.ty(after)?;
            Ok((after, PatternTag::Bind(name, ty)))
        } else {
            Ok((i, PatternTag::Symbol(name)))
        }
    }

    /// One or more identifiers (space separated), up to a non-identifier.
    fn idents1<'a>(&self, i: &'a str) -> PResult<'a, Vec<Ident>> {
        let (mut i, first) = self.name(i)?;
        let mut names = vec![first];
        while let Ok((next, name)) = self.name(i) {
            names.push(name);
            i = next;
        }
        Ok((i, names))
    }

    fn idents0<'a>(&self, mut i: &'a str) -> PResult<'a, Vec<Ident>> {
        let mut names = Vec::new();
        while let Ok((next, name)) = self.name(i) {
            names.push(name);
            i = next;
        }
        Ok((i, names))
    }
}
