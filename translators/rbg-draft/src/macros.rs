//! Items and `#def` macros (rbg-draft.md §2): the file is split into items
//! at every `#`, macros are expanded call-by-name with arity overloading,
//! definition-order visibility and scoped `~` pasting. Every produced token
//! keeps its span in the original text and the chain of macro calls that
//! produced it, so later diagnostics point into the source and name the
//! call stack.
#![warn(clippy::cast_possible_truncation)]

use std::collections::HashMap;
use std::rc::Rc;

use rg_core::diag::{line_column, Diagnostic, Span};

use crate::lexer::{lex, Tok, Token};
use crate::limits::{MAX_MACRO_DEPTH, MAX_MACRO_TOKENS};

/// One step of a macro call stack.
#[derive(Debug)]
pub struct Frame {
    /// "in expansion of macro `M`" or "in argument of macro `M`".
    pub what: String,
    /// The call site.
    pub span: Span,
    pub parent: Trace,
}

pub type Trace = Option<Rc<Frame>>;

/// A token after macro expansion.
#[derive(Clone, Debug)]
pub struct XTok {
    pub tok: Tok,
    /// Where the token (or, for a pasted token, its left part) is written.
    pub span: Span,
    pub trace: Trace,
}

impl XTok {
    /// An error at this token, with the macro call stack as notes.
    pub fn error(&self, message: impl Into<String>, source: &str) -> Diagnostic {
        with_trace(Diagnostic::error(message, self.span), &self.trace, source)
    }

    pub fn warning(&self, message: impl Into<String>, source: &str) -> Diagnostic {
        with_trace(Diagnostic::warning(message, self.span), &self.trace, source)
    }
}

/// Adds the call stack of `trace` to `diagnostic`, innermost call first.
pub fn with_trace(mut diagnostic: Diagnostic, trace: &Trace, source: &str) -> Diagnostic {
    let mut frame = trace.as_ref();
    while let Some(f) = frame {
        let (line, column) = line_column(source, f.span.start);
        diagnostic = diagnostic.with_note(format!("{} at {line}:{column}", f.what));
        frame = f.parent.as_ref();
    }
    diagnostic
}

/// A section item after expansion.
#[derive(Clone, Debug)]
pub struct Section {
    /// The `#` and header keyword.
    pub header: Span,
    pub body: Vec<XTok>,
    /// The span just past the last token of the item (for "expected …,
    /// found the end of the section").
    pub end: Span,
}

/// A `#player NAME …` or `#goal NAME …` item.
#[derive(Clone, Debug)]
pub struct NamedSection {
    pub name: Rc<str>,
    pub name_span: Span,
    pub section: Section,
}

/// The expanded sections of a description.
#[derive(Clone, Debug, Default)]
pub struct Sections {
    pub game: Option<Section>,
    pub board: Option<Section>,
    pub order: Option<Section>,
    pub players: Vec<NamedSection>,
    pub goals: Vec<NamedSection>,
    pub warnings: Vec<Diagnostic>,
}

/// A section item waiting for expansion: its item index, kind, player name
/// (for `#player`/`#goal`), header span and body.
type PendingItem<'t> = (usize, &'static str, Option<&'t Token>, Span, &'t [Token]);

struct Macro {
    name: Rc<str>,
    params: Vec<Rc<str>>,
    body: Vec<Token>,
    /// The item index of the definition (visibility, §2.2).
    order: usize,
}

struct Arg {
    tokens: Vec<Token>,
    env: Rc<Env>,
    order: usize,
    in_macro: bool,
    trace: Trace,
}

type Env = HashMap<Rc<str>, Rc<Arg>>;

/// Splits `source` into items, expands macros and returns the section
/// bodies. Errors are collected per item.
pub fn preprocess(source: &str) -> Result<Sections, Vec<Diagnostic>> {
    let tokens = lex(source)?;
    let Some(first) = tokens.first() else {
        return Err(vec![Diagnostic::error(
            "empty description: expected `#game`, `#board`, `#player`, `#order` and `#goal` items",
            None,
        )]);
    };
    if !first.tok.is_op("#") {
        return Err(vec![Diagnostic::error(
            "a description must start with `#`",
            first.span,
        )
        .with_label("expected an item such as `#game` here")]);
    }
    // Item boundaries.
    let mut starts: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| t.tok.is_op("#"))
        .map(|(k, _)| k)
        .collect();
    starts.push(tokens.len());
    let mut errors = Vec::new();
    let mut macros: Vec<Macro> = Vec::new();
    let mut pending: Vec<PendingItem> = Vec::new();
    let mut warnings = Vec::new();
    for (order, window) in starts.windows(2).enumerate() {
        let hash = &tokens[window[0]];
        let item = &tokens[window[0] + 1..window[1]];
        let Some(head) = item.first() else {
            errors.push(
                Diagnostic::error("`#` must be followed by an item keyword", hash.span)
                    .with_label("expected def, game, board, player, order or goal"),
            );
            continue;
        };
        let header = hash.span.join(head.span);
        let Tok::Keyword(kind @ ("def" | "game" | "board" | "player" | "order" | "goal")) =
            head.tok
        else {
            errors.push(
                Diagnostic::error(format!("unknown item `#{}`", head.tok), header)
                    .with_label("expected def, game, board, player, order or goal"),
            );
            continue;
        };
        match kind {
            "def" => match parse_def(&item[1..], header, order) {
                Ok(m) => {
                    if let Err(e) = add_macro(&macros, &m, header) {
                        errors.push(e);
                    } else {
                        if m.body.is_empty() {
                            warnings.push(Diagnostic::warning(
                                format!("macro `{}` has an empty body", m.name),
                                header,
                            ));
                        }
                        macros.push(m);
                    }
                }
                Err(e) => errors.push(e),
            },
            "player" | "goal" => match item.get(1) {
                Some(
                    name @ Token {
                        tok: Tok::Ident(_), ..
                    },
                ) => pending.push((order, kind, Some(name), header, &item[2..])),
                other => errors.push(
                    Diagnostic::error(
                        format!("`#{kind}` must be followed by a player name"),
                        other.map_or(header, |t| t.span),
                    )
                    .with_label("expected an identifier"),
                ),
            },
            _ => pending.push((order, kind, None, header, &item[1..])),
        }
    }
    let mut expander = Expander {
        source,
        macros: &macros,
        produced: 0,
        warnings,
    };
    let mut sections = Sections::default();
    for (order, kind, name, header, body) in pending {
        let end = body
            .last()
            .map_or(header, |t| Span::new(t.span.end, t.span.end));
        let expanded = match expander.expand(body, &Rc::new(Env::new()), order, false, &None, 0) {
            Ok(tokens) => tokens,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let section = Section {
            header,
            body: expanded,
            end,
        };
        let slot = match kind {
            "game" => &mut sections.game,
            "board" => &mut sections.board,
            "order" => &mut sections.order,
            _ => {
                let Some(name) = name else { continue };
                let Tok::Ident(player) = &name.tok else {
                    continue;
                };
                let list = if kind == "player" {
                    &mut sections.players
                } else {
                    &mut sections.goals
                };
                if list.iter().any(|s| s.name == *player) {
                    errors.push(
                        Diagnostic::error(
                            format!("second `#{kind}` item for player `{player}`"),
                            header.join(name.span),
                        )
                        .with_label("each player has exactly one"),
                    );
                    continue;
                }
                list.push(NamedSection {
                    name: player.clone(),
                    name_span: name.span,
                    section,
                });
                continue;
            }
        };
        if slot.is_some() {
            errors.push(
                Diagnostic::error(format!("second `#{kind}` item"), header)
                    .with_label("a description has exactly one"),
            );
        } else {
            *slot = Some(section);
        }
    }
    for (kind, present) in [
        ("game", sections.game.is_some()),
        ("board", sections.board.is_some()),
        ("order", sections.order.is_some()),
    ] {
        if !present {
            errors.push(Diagnostic::error(format!("missing `#{kind}` item"), None));
        }
    }
    sections.warnings = expander.warnings;
    if errors.is_empty() {
        Ok(sections)
    } else {
        Err(errors)
    }
}

/// `NAME = body` or `NAME ( p1, …, pn ) = body`.
fn parse_def(tokens: &[Token], header: Span, order: usize) -> Result<Macro, Diagnostic> {
    let Some(Token {
        tok: Tok::Ident(name),
        ..
    }) = tokens.first()
    else {
        return Err(Diagnostic::error(
            "`#def` must be followed by a macro name",
            tokens.first().map_or(header, |t| t.span),
        )
        .with_label("expected an identifier (keywords cannot name macros)"));
    };
    let mut params: Vec<Rc<str>> = Vec::new();
    let mut k = 1;
    if tokens.get(k).is_some_and(|t| t.tok.is_op("(")) {
        k += 1;
        loop {
            match tokens.get(k) {
                Some(Token {
                    tok: Tok::Ident(p),
                    span,
                }) => {
                    if params.contains(p) {
                        return Err(Diagnostic::error(
                            format!("parameter `{p}` appears twice"),
                            *span,
                        ));
                    }
                    params.push(p.clone());
                }
                other => {
                    return Err(Diagnostic::error(
                        "expected a parameter name",
                        other.map_or(header, |t| t.span),
                    ))
                }
            }
            k += 1;
            match tokens.get(k) {
                Some(t) if t.tok.is_op(",") => k += 1,
                Some(t) if t.tok.is_op(")") => {
                    k += 1;
                    break;
                }
                other => {
                    return Err(Diagnostic::error(
                        "expected `,` or `)` in the parameter list",
                        other.map_or(header, |t| t.span),
                    ))
                }
            }
        }
    }
    match tokens.get(k) {
        Some(t) if t.tok.is_op("=") => {}
        other => {
            return Err(Diagnostic::error(
                format!("expected `=` after the head of macro `{name}`"),
                other.map_or(header, |t| t.span),
            ))
        }
    }
    Ok(Macro {
        name: name.clone(),
        params,
        body: tokens[k + 1..].to_vec(),
        order,
    })
}

/// Overloading rules (§2.2, R10).
fn add_macro(macros: &[Macro], new: &Macro, header: Span) -> Result<(), Diagnostic> {
    for old in macros.iter().filter(|m| m.name == new.name) {
        if old.params.len() == new.params.len() {
            return Err(Diagnostic::error(
                format!(
                    "macro `{}` with {} parameter(s) is defined twice",
                    new.name,
                    new.params.len()
                ),
                header,
            ));
        }
        if old.params.is_empty() || new.params.is_empty() {
            return Err(Diagnostic::error(
                format!(
                    "macro `{}` cannot have both a definition without parameters and one with",
                    new.name
                ),
                header,
            ));
        }
    }
    Ok(())
}

struct Expander<'a> {
    source: &'a str,
    macros: &'a [Macro],
    produced: usize,
    warnings: Vec<Diagnostic>,
}

impl Expander<'_> {
    /// §2.3: splits `tokens` into units around `~`, expands each unit and
    /// pastes across every `~`.
    fn expand(
        &mut self,
        tokens: &[Token],
        env: &Rc<Env>,
        order: usize,
        in_macro: bool,
        trace: &Trace,
        depth: usize,
    ) -> Result<Vec<XTok>, Diagnostic> {
        if depth > MAX_MACRO_DEPTH {
            let span = tokens.first().map(|t| t.span);
            return Err(with_trace(
                Diagnostic::error(
                    format!("macro calls nested deeper than {MAX_MACRO_DEPTH}"),
                    span,
                ),
                trace,
                self.source,
            ));
        }
        let mut out: Vec<XTok> = Vec::new();
        let mut group_nonempty = false;
        let mut pending_paste: Option<Span> = None;
        let mut have_left = false;
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            if t.tok.is_op("~") {
                let problem = if !in_macro {
                    Some("`~` may only be used in macro bodies")
                } else if !have_left || pending_paste.is_some() {
                    Some("`~` has no operand on its left")
                } else {
                    None
                };
                if let Some(message) = problem {
                    return Err(with_trace(
                        Diagnostic::error(message, t.span),
                        trace,
                        self.source,
                    ));
                }
                pending_paste = Some(t.span);
                i += 1;
                continue;
            }
            let (unit, next) = self.unit(tokens, i, env, order, in_macro, trace, depth)?;
            i = next;
            match pending_paste.take() {
                Some(tilde) if group_nonempty && !unit.is_empty() => {
                    let left = out.pop().unwrap_or_else(|| unit[0].clone());
                    out.push(self.paste(&left, &unit[0], tilde, trace)?);
                    out.extend(unit.into_iter().skip(1));
                }
                Some(_) => {
                    group_nonempty |= !unit.is_empty();
                    out.extend(unit);
                }
                None => {
                    group_nonempty = !unit.is_empty();
                    out.extend(unit);
                }
            }
            have_left = true;
        }
        if let Some(tilde) = pending_paste {
            return Err(with_trace(
                Diagnostic::error("`~` has no operand on its right", tilde),
                trace,
                self.source,
            ));
        }
        Ok(out)
    }

    /// Expands the unit starting at `tokens[i]`; returns it and the index
    /// after it.
    #[allow(clippy::too_many_arguments)]
    fn unit(
        &mut self,
        tokens: &[Token],
        i: usize,
        env: &Rc<Env>,
        order: usize,
        in_macro: bool,
        trace: &Trace,
        depth: usize,
    ) -> Result<(Vec<XTok>, usize), Diagnostic> {
        let t = &tokens[i];
        let plain = |this: &mut Self| -> Result<(Vec<XTok>, usize), Diagnostic> {
            this.count(1, t.span, trace)?;
            Ok((
                vec![XTok {
                    tok: t.tok.clone(),
                    span: t.span,
                    trace: trace.clone(),
                }],
                i + 1,
            ))
        };
        let Tok::Ident(name) = &t.tok else {
            return plain(self);
        };
        if let Some(arg) = env.get(name) {
            let arg = arg.clone();
            let unit = self.expand(
                &arg.tokens,
                &arg.env,
                arg.order,
                arg.in_macro,
                &arg.trace,
                depth + 1,
            )?;
            return Ok((unit, i + 1));
        }
        let visible: Vec<&Macro> = self
            .macros
            .iter()
            .filter(|m| m.name == *name && m.order < order)
            .collect();
        if visible.is_empty() {
            return plain(self);
        }
        if let Some(m) = visible.iter().find(|m| m.params.is_empty()) {
            let frame = frame(format!("in expansion of macro `{name}`"), t.span, trace);
            let unit = self.expand(
                &m.body,
                &Rc::new(Env::new()),
                m.order,
                true,
                &frame,
                depth + 1,
            )?;
            return Ok((unit, i + 1));
        }
        if !tokens.get(i + 1).is_some_and(|n| n.tok.is_op("(")) {
            self.warnings.push(with_trace(
                Diagnostic::warning(
                    format!("macro `{name}` takes arguments but has no `(`: kept as a plain name"),
                    t.span,
                ),
                trace,
                self.source,
            ));
            return plain(self);
        }
        let (args, next) = collect_args(tokens, i + 1).map_err(|open| {
            with_trace(
                Diagnostic::error(
                    format!("the argument list of macro `{name}` is not closed"),
                    open,
                )
                .with_label("this `(` has no matching `)`"),
                trace,
                self.source,
            )
        })?;
        let Some(m) = visible.iter().find(|m| m.params.len() == args.len()) else {
            let mut arities: Vec<String> =
                visible.iter().map(|m| m.params.len().to_string()).collect();
            arities.sort();
            return Err(with_trace(
                Diagnostic::error(
                    format!(
                        "macro `{name}` is called with {} argument(s) but is defined with {}",
                        args.len(),
                        arities.join(" or ")
                    ),
                    t.span.join(tokens[next - 1].span),
                ),
                trace,
                self.source,
            ));
        };
        let arg_frame = frame(format!("in argument of macro `{name}`"), t.span, trace);
        let mut callee = Env::new();
        for (param, tokens) in m.params.iter().zip(args) {
            callee.insert(
                param.clone(),
                Rc::new(Arg {
                    tokens,
                    env: env.clone(),
                    order,
                    in_macro,
                    trace: arg_frame.clone(),
                }),
            );
        }
        let body_frame = frame(format!("in expansion of macro `{name}`"), t.span, trace);
        let unit = self.expand(
            &m.body,
            &Rc::new(callee),
            m.order,
            true,
            &body_frame,
            depth + 1,
        )?;
        Ok((unit, next))
    }

    fn count(&mut self, n: usize, span: Span, trace: &Trace) -> Result<(), Diagnostic> {
        self.produced += n;
        if self.produced > MAX_MACRO_TOKENS {
            return Err(with_trace(
                Diagnostic::error(
                    format!("macro expansion produces more than {MAX_MACRO_TOKENS} tokens"),
                    span,
                ),
                trace,
                self.source,
            ));
        }
        Ok(())
    }

    /// §2.4: the joined text must re-lex as exactly one token.
    fn paste(
        &self,
        left: &XTok,
        right: &XTok,
        tilde: Span,
        trace: &Trace,
    ) -> Result<XTok, Diagnostic> {
        let text = format!("{}{}", left.tok, right.tok);
        match lex(&text) {
            Ok(tokens) if tokens.len() == 1 && !matches!(tokens[0].tok, Tok::Str(_)) => Ok(XTok {
                tok: tokens[0].tok.clone(),
                span: left.span,
                trace: left.trace.clone(),
            }),
            _ => Err(with_trace(
                Diagnostic::error(
                    format!(
                        "pasting `{}` and `{}` gives `{text}`, which is not one token",
                        left.tok, right.tok
                    ),
                    tilde,
                ),
                trace,
                self.source,
            )),
        }
    }
}

fn frame(what: String, span: Span, parent: &Trace) -> Trace {
    Some(Rc::new(Frame {
        what,
        span,
        parent: parent.clone(),
    }))
}

/// The arguments of a call whose `(` is `tokens[open]`: split at commas of
/// parenthesis depth 0 (R7). Returns them and the index after `)`, or the
/// span of the unclosed `(`.
fn collect_args(tokens: &[Token], open: usize) -> Result<(Vec<Vec<Token>>, usize), Span> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate().skip(open + 1) {
        if t.tok.is_op("(") {
            depth += 1;
        } else if t.tok.is_op(")") {
            if depth == 0 {
                return Ok((args, k + 1));
            }
            depth -= 1;
        } else if t.tok.is_op(",") && depth == 0 {
            args.push(Vec::new());
            continue;
        }
        if let Some(last) = args.last_mut() {
            last.push(t.clone());
        }
    }
    Err(tokens[open].span)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's macro table (§2.5): expansion of `call` in a `#game`.
    fn expand(call: &str) -> Result<String, String> {
        let source = format!(
            "#def M1(x) = x~5\n#def M2(x,y,z) = M1(x) M1(y)~z\n#def M3(x) = x (a,b,c)\n\
             #def M4(x,y) = x~y (5)\n#def M5(x,y,z) = a b~M1(x x)~y~z~c d\n\
             #def T = {call}\n#game T\n#board 1 1 e\n#order p\n"
        );
        match preprocess(&source) {
            Ok(s) => Ok(s
                .game
                .unwrap()
                .body
                .iter()
                .map(|t| t.tok.to_string())
                .collect::<Vec<_>>()
                .join(" ")),
            Err(e) => Err(e[0].message.clone()),
        }
    }

    #[test]
    fn document_macro_table() {
        assert_eq!(expand("M1(4)").unwrap(), "45");
        assert_eq!(expand("M1(a)").unwrap(), "a5");
        assert!(expand("M1(~)").is_err());
        assert_eq!(expand("M1(* a)").unwrap(), "* a5");
        assert_eq!(expand("M2(a,b,6)").unwrap(), "a5 b56");
        assert_eq!(expand("M2(a,b,)").unwrap(), "a5 b5");
        assert_eq!(expand("M2(,,)").unwrap(), "5 5");
        assert_eq!(expand("M3(M2)").unwrap(), "M2 ( a , b , c )");
        assert_eq!(expand("M4(M,1)").unwrap(), "M1 ( 5 )");
        assert_eq!(expand("M5(e,f,g)").unwrap(), "a be e5fgc d");
        assert!(expand("M2(a,b)").unwrap_err().contains("defined with 3"));
    }

    #[test]
    fn pastes_operators_and_rejects_bad_pastes() {
        assert_eq!(expand("+~>").unwrap(), "+>");
        assert_eq!(expand("<~=").unwrap(), "<=");
        assert!(expand("5~a").is_err());
        assert!(expand("-~1").is_err());
        assert!(expand("~~5").is_err());
        assert!(expand("a~").is_err());
    }

    #[test]
    fn visibility_is_definition_order() {
        let s = preprocess("#game A\n#def A = x\n#board 1 1 e\n#order p\n").unwrap();
        assert_eq!(s.game.unwrap().body[0].tok.to_string(), "A");
    }

    #[test]
    fn zero_arity_macro_leaves_its_parenthesis() {
        let s = preprocess("#def E = e e\n#game E (x)\n#board 1 1 e\n#order p\n").unwrap();
        let text: Vec<String> = s
            .game
            .unwrap()
            .body
            .iter()
            .map(|t| t.tok.to_string())
            .collect();
        assert_eq!(text, ["e", "e", "(", "x", ")"]);
    }
}
