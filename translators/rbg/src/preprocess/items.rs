//! Splitting a high-level file into items (rbg.md §4.1) and collecting the
//! macro definitions (§4.2).

use std::collections::HashMap;
use std::rc::Rc;

use rg_core::diag::{Diagnostic, Span};

use crate::lexer::{Keyword, Punct, Token, TokenKind};

/// One `#...` item; `order` is its position in the file (definition order).
pub struct Item<'a> {
    pub order: usize,
    pub kind: ItemKind,
    /// `#` and the item name: where item-level errors point.
    pub header: Span,
    pub body: &'a [Token],
}

pub enum ItemKind {
    Section(Keyword),
    Macro { name: Rc<str>, params: Vec<Rc<str>> },
}

/// A macro definition visible to items with a larger order.
pub struct MacroDef<'a> {
    pub order: usize,
    pub params: Vec<Rc<str>>,
    pub body: &'a [Token],
}

/// All definitions per name (several arities when overloaded).
pub type Macros<'a> = HashMap<Rc<str>, Vec<MacroDef<'a>>>;

/// Splits `tokens` into items. Errors are collected; a broken item is skipped.
pub fn split_items<'a>(tokens: &'a [Token], errors: &mut Vec<Diagnostic>) -> Vec<Item<'a>> {
    let mut items = Vec::new();
    match tokens.first() {
        None => {
            errors.push(Diagnostic::error("the file is empty", None).with_note(
                "a game needs #players, #pieces, #variables, #board and #rules sections",
            ));
            return items;
        }
        Some(first) if !first.kind.is_punct(Punct::Hash) => {
            errors.push(
                Diagnostic::error(
                    format!("unexpected `{}` at the start of the file", first.kind),
                    first.span,
                )
                .with_label("the file must start with `#`"),
            );
        }
        Some(_) => {}
    }
    let hashes: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| t.kind.is_punct(Punct::Hash))
        .map(|(i, _)| i)
        .collect();
    for (n, &at) in hashes.iter().enumerate() {
        let end = hashes.get(n + 1).copied().unwrap_or(tokens.len());
        let item_tokens = &tokens[at + 1..end];
        let hash = tokens[at].span;
        let order = n;
        let Some(name_token) = item_tokens.first() else {
            errors.push(
                Diagnostic::error("expected a section or macro name after `#`", hash)
                    .with_label("nothing follows this `#`"),
            );
            continue;
        };
        let header = hash.join(name_token.span);
        let mut rest = &item_tokens[1..];
        let kind = match &name_token.kind {
            TokenKind::Keyword(k) if k.is_section() => ItemKind::Section(*k),
            TokenKind::Ident(name) => {
                let mut params = Vec::new();
                if rest.first().is_some_and(|t| t.kind.is_punct(Punct::LParen)) {
                    match parse_params(rest, header) {
                        Ok((p, used)) => {
                            params = p;
                            rest = &rest[used..];
                        }
                        Err(e) => {
                            errors.push(e);
                            continue;
                        }
                    }
                }
                ItemKind::Macro {
                    name: name.clone(),
                    params,
                }
            }
            other => {
                errors.push(
                    Diagnostic::error(
                        format!("`#{other}` is neither a section nor a macro"),
                        header,
                    )
                    .with_label("unknown item")
                    .with_note(
                        "sections are #players, #pieces, #variables, #board and #rules; \
                             keywords cannot name macros",
                    ),
                );
                continue;
            }
        };
        match rest.first() {
            Some(t) if t.kind.is_punct(Punct::Equals) => rest = &rest[1..],
            Some(t) => {
                errors.push(
                    Diagnostic::error(format!("expected `=`, found `{}`", t.kind), t.span)
                        .with_label("an item is `#name = ...`"),
                );
                continue;
            }
            None => {
                errors.push(Diagnostic::error(
                    "expected `=` after the item name",
                    header,
                ));
                continue;
            }
        }
        items.push(Item {
            order,
            kind,
            header,
            body: rest,
        });
    }
    items
}

/// `( p1 ; p2 ; ... )`; returns the names and the number of tokens used.
fn parse_params(tokens: &[Token], header: Span) -> Result<(Vec<Rc<str>>, usize), Diagnostic> {
    let mut params: Vec<Rc<str>> = Vec::new();
    let mut i = 1;
    loop {
        match tokens.get(i) {
            Some(Token {
                kind: TokenKind::Ident(name),
                span,
            }) => {
                if params.contains(name) {
                    return Err(Diagnostic::error(
                        format!("parameter `{name}` appears twice"),
                        *span,
                    ));
                }
                params.push(name.clone());
                i += 1;
            }
            Some(t) if t.kind.is_punct(Punct::RParen) && params.is_empty() => {
                return Err(Diagnostic::error(
                    "a macro with parentheses needs at least one parameter",
                    header.join(t.span),
                )
                .with_note("write `#name = ...` for a macro without parameters"));
            }
            Some(t) => {
                return Err(Diagnostic::error(
                    format!("expected a parameter name, found `{}`", t.kind),
                    t.span,
                ))
            }
            None => return Err(Diagnostic::error("unterminated parameter list", header)),
        }
        match tokens.get(i) {
            Some(t) if t.kind.is_punct(Punct::Semicolon) => i += 1,
            Some(t) if t.kind.is_punct(Punct::RParen) => return Ok((params, i + 1)),
            Some(t) => {
                return Err(Diagnostic::error(
                    format!(
                        "expected `;` or `)` in the parameter list, found `{}`",
                        t.kind
                    ),
                    t.span,
                ))
            }
            None => return Err(Diagnostic::error("unterminated parameter list", header)),
        }
    }
}

/// Collects macro definitions, rejecting duplicates and arity clashes.
pub fn collect_macros<'a>(items: &[Item<'a>], errors: &mut Vec<Diagnostic>) -> Macros<'a> {
    let mut macros: Macros<'a> = HashMap::new();
    for item in items {
        let ItemKind::Macro { name, params } = &item.kind else {
            continue;
        };
        let definitions = macros.entry(name.clone()).or_default();
        if definitions.iter().any(|d| d.params.len() == params.len()) {
            errors.push(
                Diagnostic::error(
                    format!(
                        "macro `{name}` with {} parameter(s) is defined twice",
                        params.len()
                    ),
                    item.header,
                )
                .with_label("second definition")
                .with_note("overloads must differ in their number of parameters"),
            );
            continue;
        }
        if definitions
            .iter()
            .any(|d| d.params.is_empty() != params.is_empty())
        {
            errors.push(
                Diagnostic::error(
                    format!("macro `{name}` is defined both with and without parameters"),
                    item.header,
                )
                .with_note("a name is either a plain macro or a family of parametrized overloads"),
            );
            continue;
        }
        definitions.push(MacroDef {
            order: item.order,
            params: params.clone(),
            body: item.body,
        });
    }
    macros
}
