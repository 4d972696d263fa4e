//! Normal form of rules: `or` (and `and`) expanded into disjunctive normal
//! form, so each body is a flat conjunction of positive and negative atoms
//! and (in)equalities (gdl.md §3.4, §5.6).

use rg_core::diag::{Diagnostic, Span};

use crate::ast::{Atom, Literal, Rule, Term};

/// A flat body literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NormalLiteral {
    Positive(Atom),
    Negative(Atom),
    Distinct(Term, Term, Span),
    /// `(not (distinct s t))`.
    Equal(Term, Term, Span),
}

impl NormalLiteral {
    pub fn span(&self) -> Span {
        match self {
            NormalLiteral::Positive(a) | NormalLiteral::Negative(a) => a.span,
            NormalLiteral::Distinct(_, _, span) | NormalLiteral::Equal(_, _, span) => *span,
        }
    }

    pub fn atom(&self) -> Option<&Atom> {
        match self {
            NormalLiteral::Positive(a) | NormalLiteral::Negative(a) => Some(a),
            _ => None,
        }
    }

    pub fn variables<'a>(&'a self, out: &mut Vec<&'a Term>) {
        match self {
            NormalLiteral::Positive(a) | NormalLiteral::Negative(a) => a.variables(out),
            NormalLiteral::Distinct(s, t, _) | NormalLiteral::Equal(s, t, _) => {
                s.variables(out);
                t.variables(out);
            }
        }
    }
}

/// One disjunct of a source rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalRule {
    pub head: Atom,
    pub body: Vec<NormalLiteral>,
    /// Index of the source sentence in the description.
    pub source: usize,
    /// Span of the source sentence.
    pub span: Span,
}

/// Expansion of one source rule stops beyond this many disjuncts: the corpus
/// needs at most 12, so more means a pathological file.
pub const MAX_DISJUNCTS_PER_RULE: usize = 4096;

/// Expands every rule; an error names a rule whose expansion is too large.
pub fn normalize_rules(rules: &[Rule]) -> Result<Vec<NormalRule>, Diagnostic> {
    let mut out = Vec::new();
    for (index, rule) in rules.iter().enumerate() {
        let disjuncts = expand_conjunction(&rule.body).map_err(|TooManyDisjuncts| {
            Diagnostic::error(
                format!("rule expands into more than {MAX_DISJUNCTS_PER_RULE} alternatives"),
                rule.span,
            )
            .with_label("too many `or` combinations")
            .with_note("split the rule into several rules or use a helper relation")
        })?;
        out.extend(disjuncts.into_iter().map(|body| NormalRule {
            head: rule.head.clone(),
            body,
            source: index,
            span: rule.span,
        }));
    }
    Ok(out)
}

type Disjuncts = Vec<Vec<NormalLiteral>>;

/// Why a body could not be expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyDisjuncts;

/// DNF of a conjunction of literals.
pub fn expand_conjunction(literals: &[Literal]) -> Result<Disjuncts, TooManyDisjuncts> {
    let mut result: Disjuncts = vec![Vec::new()];
    for literal in literals {
        let alternatives = expand_literal(literal)?;
        if result.len() * alternatives.len() > MAX_DISJUNCTS_PER_RULE {
            return Err(TooManyDisjuncts);
        }
        let mut combined = Vec::with_capacity(result.len() * alternatives.len());
        for prefix in &result {
            for alternative in &alternatives {
                let mut body = prefix.clone();
                body.extend(alternative.iter().cloned());
                combined.push(body);
            }
        }
        result = combined;
    }
    Ok(result)
}

fn expand_literal(literal: &Literal) -> Result<Disjuncts, TooManyDisjuncts> {
    Ok(match literal {
        Literal::Atom(atom) => vec![vec![NormalLiteral::Positive(atom.clone())]],
        Literal::Distinct(s, t, span) => {
            vec![vec![NormalLiteral::Distinct(s.clone(), t.clone(), *span)]]
        }
        Literal::Not(inner, _) => match inner.as_ref() {
            Literal::Atom(atom) => vec![vec![NormalLiteral::Negative(atom.clone())]],
            Literal::Distinct(s, t, span) => {
                vec![vec![NormalLiteral::Equal(s.clone(), t.clone(), *span)]]
            }
            // The parser only builds `not` over atoms and distinct.
            _ => return Err(TooManyDisjuncts),
        },
        Literal::Or(items, _) => {
            let mut all = Vec::new();
            for item in items {
                all.extend(expand_literal(item)?);
                if all.len() > MAX_DISJUNCTS_PER_RULE {
                    return Err(TooManyDisjuncts);
                }
            }
            all
        }
        Literal::And(items, _) => expand_conjunction(items)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn or_expands_into_one_rule_per_alternative() {
        let d = parse(
            "(<= (p ?x) (q ?x) (or (r ?x) (and (s ?x) (not (t ?x)))) (or a (not (distinct ?x 1))))",
        )
        .unwrap()
        .description;
        let rules = normalize_rules(&d.rules).unwrap();
        assert_eq!(rules.len(), 4);
        assert_eq!(rules[0].body.len(), 3);
        assert_eq!(rules[2].body.len(), 4);
        assert!(matches!(rules[3].body[3], NormalLiteral::Equal(..)));
        assert!(matches!(rules[2].body[2], NormalLiteral::Negative(..)));
    }

    #[test]
    fn nested_or_is_flattened() {
        let d = parse("(<= p (or a (or b c)))").unwrap().description;
        assert_eq!(normalize_rules(&d.rules).unwrap().len(), 3);
    }
}
