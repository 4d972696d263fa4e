//! The grammar of rbg-draft.md §3.2 over expanded sections: builds the
//! [`Game`] and records where every piece is used (for the checks of §3.3).
#![warn(clippy::cast_possible_truncation)]

use std::collections::HashMap;
use std::rc::Rc;

use rg_core::diag::{Diagnostic, Span};

use crate::ast::{Expr, Formula, Game, Goal, PieceId, Relation, Step, Target, Value};
use crate::lexer::Tok;
use crate::limits::{MAX_NESTING, MAX_SQUARES};
use crate::macros::{with_trace, Section, Sections, XTok};

/// How a piece name is used (R15 and the "only in ons" warning).
#[derive(Clone, Debug, Default)]
pub struct PieceUse {
    /// On the board or in an off: the piece can exist.
    pub placed: bool,
    /// In an on set.
    pub tested: Option<Span>,
    /// In `@` or after `$` (where an unknown name is an error).
    pub queried: Option<(Span, crate::macros::Trace)>,
}

/// The parsed description before the checks of [`crate::check`].
#[derive(Clone, Debug)]
pub struct Parsed {
    pub game: Game,
    pub uses: Vec<PieceUse>,
    /// The span of each player's name in `#order`.
    pub player_spans: Vec<Span>,
    /// Non-fatal findings (R1's lone `>`, R9, empty macro bodies).
    pub warnings: Vec<Diagnostic>,
}

pub fn parse(source: &str, sections: Sections) -> Result<Parsed, Vec<Diagnostic>> {
    let mut pieces = Pieces::default();
    let mut errors = Vec::new();
    let mut warnings = sections.warnings;
    let name = match sections.game.as_ref().map(|s| game_name(s, source)) {
        Some(Ok(name)) => name,
        Some(Err(e)) => {
            errors.push(e);
            String::new()
        }
        None => String::new(),
    };
    let board = sections
        .board
        .as_ref()
        .map(|s| parse_board(s, source, &mut pieces));
    let (width, height, board) = match board {
        Some(Ok(b)) => b,
        Some(Err(e)) => {
            errors.push(e);
            (1, 1, vec![0])
        }
        None => (1, 1, vec![0]),
    };
    let (players, player_spans) = match sections.order.as_ref().map(|s| parse_order(s, source)) {
        Some(Ok(p)) => p,
        Some(Err(e)) => return Err(prepend(errors, e)),
        None => return Err(errors),
    };
    let index: HashMap<Rc<str>, usize> = players
        .iter()
        .enumerate()
        .map(|(k, p)| (Rc::from(p.as_str()), k))
        .collect();
    let mut levels = vec![Vec::new(); players.len()];
    let mut goals: Vec<Option<Goal>> = vec![None; players.len()];
    let mut seen_player = vec![false; players.len()];
    let mut seen_goal = vec![false; players.len()];
    for (kind, list) in [("player", &sections.players), ("goal", &sections.goals)] {
        for named in list {
            let Some(&p) = index.get(&named.name) else {
                errors.push(
                    Diagnostic::error(
                        format!("`{}` is not a player of `#order`", named.name),
                        named.name_span,
                    )
                    .with_label(format!("this `#{kind}` names no player")),
                );
                continue;
            };
            let mut parser = Parser::new(source, &named.section, &index, &mut pieces);
            if kind == "player" {
                seen_player[p] = true;
                match parser.player_body() {
                    Ok(body) => levels[p] = body,
                    Err(e) => errors.push(e),
                }
            } else {
                seen_goal[p] = true;
                match parser.goal_body() {
                    Ok(goal) => goals[p] = Some(goal),
                    Err(e) => errors.push(e),
                }
            }
            warnings.append(&mut parser.warnings);
        }
    }
    for (p, player) in players.iter().enumerate() {
        for (kind, seen) in [("player", seen_player[p]), ("goal", seen_goal[p])] {
            if !seen {
                errors.push(
                    Diagnostic::error(
                        format!("player `{player}` has no `#{kind}` item"),
                        player_spans[p],
                    )
                    .with_label("named in `#order` here"),
                );
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let goals = goals
        .into_iter()
        .map(|g| {
            g.unwrap_or(Goal {
                score: 0,
                formula: Formula::Or(Vec::new()),
            })
        })
        .collect();
    Ok(Parsed {
        game: Game {
            name,
            width,
            height,
            board,
            pieces: pieces.names,
            players,
            levels,
            goals,
        },
        uses: pieces.uses,
        player_spans,
        warnings,
    })
}

fn prepend(mut errors: Vec<Diagnostic>, e: Diagnostic) -> Vec<Diagnostic> {
    errors.push(e);
    errors
}

#[derive(Default)]
struct Pieces {
    names: Vec<String>,
    index: HashMap<Rc<str>, PieceId>,
    uses: Vec<PieceUse>,
}

impl Pieces {
    fn intern(&mut self, name: &Rc<str>) -> PieceId {
        if let Some(&id) = self.index.get(name) {
            return id;
        }
        let id = self.names.len();
        self.names.push(name.to_string());
        self.index.insert(name.clone(), id);
        self.uses.push(PieceUse::default());
        id
    }
}

fn game_name(section: &Section, source: &str) -> Result<String, Diagnostic> {
    let body = &section.body;
    if let [XTok {
        tok: Tok::Str(name),
        ..
    }] = body.as_slice()
    {
        return Ok(name.to_string());
    }
    let mut words = Vec::new();
    for t in body {
        match &t.tok {
            Tok::Ident(w) => words.push(w.to_string()),
            Tok::Number(n) => words.push(n.to_string()),
            _ => {
                return Err(t.error(
                    "a game name is one string or a run of words and numbers",
                    source,
                ))
            }
        }
    }
    if words.is_empty() {
        return Err(Diagnostic::error("`#game` has no name", section.header));
    }
    Ok(words.join(" "))
}

fn parse_board(
    section: &Section,
    source: &str,
    pieces: &mut Pieces,
) -> Result<(u32, u32, Vec<PieceId>), Diagnostic> {
    let body = &section.body;
    let dimension = |k: usize, what: &str| -> Result<u32, Diagnostic> {
        match body.get(k) {
            Some(XTok {
                tok: Tok::Number(n),
                ..
            }) if *n >= 1 => Ok(*n),
            Some(t) => Err(t.error(format!("the board {what} must be a number >= 1"), source)),
            None => Err(Diagnostic::error(
                format!("`#board` needs a {what}"),
                section.end,
            )),
        }
    };
    let width = dimension(0, "width")?;
    let height = dimension(1, "height")?;
    let squares = u64::from(width) * u64::from(height);
    if squares > MAX_SQUARES {
        return Err(body[1].error(
            format!("the board has more than {MAX_SQUARES} squares (MAX_SQUARES in limits.rs)"),
            source,
        ));
    }
    let names = &body[2..];
    let mut listed = Vec::new();
    for t in names {
        match &t.tok {
            Tok::Ident(name) => {
                let id = pieces.intern(name);
                pieces.uses[id].placed = true;
                listed.push(id);
            }
            _ => return Err(t.error("expected a piece name", source)),
        }
    }
    if listed.len() as u64 != squares {
        let message = format!(
            "the board is {width}×{height} = {squares} squares but lists {} piece names",
            listed.len()
        );
        // Point at the first name too many, or at the header when names
        // are missing.
        return Err(
            match names.get(usize::try_from(squares).unwrap_or(usize::MAX)) {
                Some(extra) => extra
                    .error(message, source)
                    .with_label("the first name too many"),
                None => Diagnostic::error(message, section.header)
                    .with_label(format!("needs exactly {squares} names")),
            },
        );
    }
    // Listed from the top row down (§4.1).
    let w = width as usize;
    let h = height as usize;
    let mut board = vec![0; w * h];
    for (k, piece) in listed.into_iter().enumerate() {
        let (x, y) = (k % w, h - 1 - k / w);
        board[y * w + x] = piece;
    }
    Ok((width, height, board))
}

fn parse_order(section: &Section, source: &str) -> Result<(Vec<String>, Vec<Span>), Diagnostic> {
    let mut players: Vec<String> = Vec::new();
    let mut spans = Vec::new();
    for t in &section.body {
        match &t.tok {
            Tok::Ident(name) => {
                if players.iter().any(|p| **p == **name) {
                    return Err(
                        t.error(format!("player `{name}` appears twice in `#order`"), source)
                    );
                }
                players.push(name.to_string());
                spans.push(t.span);
            }
            _ => return Err(t.error("expected a player name", source)),
        }
    }
    if players.is_empty() {
        return Err(Diagnostic::error(
            "`#order` names no player",
            section.header,
        ));
    }
    Ok((players, spans))
}

/// The only element of `items`, or `combine(items)` for several.
fn single_or<T>(mut items: Vec<T>, combine: impl FnOnce(Vec<T>) -> T) -> T {
    match items.pop() {
        Some(only) if items.is_empty() => only,
        Some(last) => {
            items.push(last);
            combine(items)
        }
        None => combine(items),
    }
}

struct Parser<'a> {
    source: &'a str,
    tokens: &'a [XTok],
    end: Span,
    pos: usize,
    depth: usize,
    players: &'a HashMap<Rc<str>, usize>,
    pieces: &'a mut Pieces,
    warnings: Vec<Diagnostic>,
}

type R<T> = Result<T, Diagnostic>;

impl<'a> Parser<'a> {
    fn new(
        source: &'a str,
        section: &'a Section,
        players: &'a HashMap<Rc<str>, usize>,
        pieces: &'a mut Pieces,
    ) -> Self {
        Parser {
            source,
            tokens: &section.body,
            end: section.end,
            pos: 0,
            depth: 0,
            players,
            pieces,
            warnings: Vec::new(),
        }
    }

    fn peek(&self) -> Option<&'a XTok> {
        self.tokens.get(self.pos)
    }

    fn peek_is(&self, op: &str) -> bool {
        self.peek().is_some_and(|t| t.tok.is_op(op))
    }

    fn next(&mut self) -> Option<&'a XTok> {
        let t = self.tokens.get(self.pos);
        self.pos += 1;
        t
    }

    /// An error at the current token (or at the end of the section).
    fn unexpected(&self, expected: &str) -> Diagnostic {
        match self.peek() {
            Some(t) => t.error(
                format!("expected {expected}, found `{}`", t.tok),
                self.source,
            ),
            None => Diagnostic::error(
                format!("expected {expected}, found the end of the item"),
                self.end,
            ),
        }
    }

    fn expect(&mut self, op: &str) -> R<&'a XTok> {
        if self.peek_is(op) {
            self.next()
                .ok_or_else(|| self.unexpected(&format!("`{op}`")))
        } else {
            Err(self.unexpected(&format!("`{op}`")))
        }
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let t = self.peek().map_or(self.end, |t| t.span);
            let trace = self.peek().and_then(|t| t.trace.clone());
            return Err(with_trace(
                Diagnostic::error(
                    format!("expression nested deeper than {MAX_NESTING} levels"),
                    t,
                ),
                &trace,
                self.source,
            ));
        }
        Ok(())
    }

    fn finish(&self) -> R<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.unexpected("the end of the item")),
        }
    }

    // ---- #player ---------------------------------------------------------

    fn player_body(&mut self) -> R<Vec<Expr>> {
        let mut levels = vec![self.movexpr()?];
        loop {
            match self.peek() {
                Some(t) if t.tok.is_op("+>") => {}
                Some(t) if t.tok.is_op(">") => self
                    .warnings
                    .push(t.warning("`>` read as the priority separator `+>` (R1)", self.source)),
                _ => break,
            }
            self.pos += 1;
            levels.push(self.movexpr()?);
        }
        self.finish()?;
        Ok(levels)
    }

    fn movexpr(&mut self) -> R<Expr> {
        let mut alternatives = vec![self.concat()?];
        while self.peek_is("+") {
            self.pos += 1;
            alternatives.push(self.concat()?);
        }
        Ok(single_or(alternatives, Expr::Alt))
    }

    fn concat(&mut self) -> R<Expr> {
        let mut parts = vec![self.factor()?];
        while self.peek_is("(") || self.peek_is("[") {
            parts.push(self.factor()?);
        }
        if let Some(t) = self.peek().filter(|t| t.tok.is_op("^")) {
            return Err(t.error(
                "a power applies only to a parenthesized expression: `[p]` takes none",
                self.source,
            ));
        }
        Ok(single_or(parts, Expr::Concat))
    }

    fn factor(&mut self) -> R<Expr> {
        match self.peek() {
            Some(t) if t.tok.is_op("[") => {
                self.pos += 1;
                let target = match self.peek().map(|t| &t.tok) {
                    Some(Tok::Ident(name)) => {
                        let t = self.next().ok_or_else(|| self.unexpected("a token"))?;
                        match self.players.get(name) {
                            Some(&p) => Target::Player(p),
                            None => {
                                return Err(t.error(
                                    format!("`{name}` is not a player of `#order`"),
                                    self.source,
                                ))
                            }
                        }
                    }
                    _ => Target::Offset(
                        self.int()
                            .map_err(|_| self.unexpected("a player name or an integer offset"))?,
                    ),
                };
                let close = self.expect("]")?;
                Ok(Expr::Marker(target, t.span.join(close.span)))
            }
            Some(t) if t.tok.is_op("(") => {
                self.enter()?;
                self.pos += 1;
                let inner = match self.peek().map(|t| &t.tok) {
                    Some(Tok::Op("(" | "[")) => self.movexpr()?,
                    Some(Tok::Op("+" | "-") | Tok::Number(_)) => self.delta_step(t.span)?,
                    Some(Tok::Ident(_) | Tok::Op("{" | "/")) => {
                        let (on, off) = self.cond()?;
                        Expr::Step(Step {
                            dx: 0,
                            dy: 0,
                            on,
                            off,
                            span: t.span,
                        })
                    }
                    _ => return Err(self.unexpected("a step or a movement expression")),
                };
                let close = self.expect(")")?;
                self.depth -= 1;
                let mut span = t.span.join(close.span);
                if let Expr::Step(step) = &inner {
                    let mut step = step.clone();
                    step.span = span;
                    return self.power(Expr::Step(step), &mut span);
                }
                self.power(inner, &mut span)
            }
            _ => Err(self.unexpected("`(` or `[`")),
        }
    }

    fn power(&mut self, base: Expr, span: &mut Span) -> R<Expr> {
        if !self.peek_is("^") {
            return Ok(base);
        }
        let hat = self.next().ok_or_else(|| self.unexpected("a token"))?;
        *span = span.join(hat.span);
        if self.peek_is("*") {
            self.pos += 1;
            return Ok(Expr::Star(Box::new(base), hat.span));
        }
        let n = self
            .int()
            .map_err(|_| self.unexpected("`*` or a number >= 1 after `^` (R35)"))?;
        match u32::try_from(n) {
            Ok(n) if n >= 1 => Ok(Expr::Power(Box::new(base), n, hat.span)),
            _ => Err(hat.error("a power must be `*` or a number >= 1", self.source)),
        }
    }

    /// `int , int [ , cond | / pieces ]` (the `(` is consumed).
    fn delta_step(&mut self, open: Span) -> R<Expr> {
        let dx = self.int()?;
        self.expect(",")?;
        let dy = self.int()?;
        let (on, off) = if self.peek_is(",") {
            self.pos += 1;
            self.cond()?
        } else if self.peek_is("/") {
            self.pos += 1;
            (None, Some(self.pieces(false)?))
        } else {
            (None, None)
        };
        Ok(Expr::Step(Step {
            dx,
            dy,
            on,
            off,
            span: open,
        }))
    }

    /// `pieces [ / pieces ] | / pieces`.
    #[allow(clippy::type_complexity)]
    fn cond(&mut self) -> R<(Option<Vec<PieceId>>, Option<Vec<PieceId>>)> {
        let on = if self.peek_is("/") {
            None
        } else {
            Some(self.pieces(true)?)
        };
        let off = if self.peek_is("/") {
            self.pos += 1;
            Some(self.pieces(false)?)
        } else {
            None
        };
        Ok((on, off))
    }

    /// `IDENT | { [IDENT {, IDENT}] }`.
    fn pieces(&mut self, on: bool) -> R<Vec<PieceId>> {
        let mut out = Vec::new();
        if self.peek_is("{") {
            self.pos += 1;
            if self.peek_is("}") {
                self.pos += 1;
                return Ok(out);
            }
            loop {
                out.push(self.piece(on)?);
                if self.peek_is(",") {
                    self.pos += 1;
                } else {
                    self.expect("}")?;
                    return Ok(out);
                }
            }
        }
        out.push(self.piece(on)?);
        Ok(out)
    }

    fn piece(&mut self, on: bool) -> R<PieceId> {
        match self.peek().map(|t| &t.tok) {
            Some(Tok::Ident(name)) => {
                let t = self.next().ok_or_else(|| self.unexpected("a token"))?;
                let id = self.pieces.intern(name);
                let uses = &mut self.pieces.uses[id];
                if on {
                    uses.tested.get_or_insert(t.span);
                } else {
                    uses.placed = true;
                }
                Ok(id)
            }
            _ => Err(self.unexpected("a piece name")),
        }
    }

    /// `[+|-] NUMBER`.
    fn int(&mut self) -> R<i64> {
        let sign = match self.peek().map(|t| &t.tok) {
            Some(Tok::Op("-")) => {
                self.pos += 1;
                -1
            }
            Some(Tok::Op("+")) => {
                self.pos += 1;
                1
            }
            _ => 1,
        };
        match self.peek().map(|t| &t.tok) {
            Some(Tok::Number(n)) => {
                self.pos += 1;
                Ok(sign * i64::from(*n))
            }
            _ => Err(self.unexpected("a number")),
        }
    }

    // ---- #goal -----------------------------------------------------------

    fn goal_body(&mut self) -> R<Goal> {
        let score = match self.peek().map(|t| &t.tok) {
            Some(Tok::Number(n)) => {
                self.pos += 1;
                *n
            }
            _ => return Err(self.unexpected("the goal's score (a number, R32)")),
        };
        let formula = self.formula()?;
        self.finish()?;
        Ok(Goal { score, formula })
    }

    fn formula(&mut self) -> R<Formula> {
        self.enter()?;
        let mut parts = vec![self.conj()?];
        while self.peek().is_some_and(|t| t.tok.is_keyword("or")) {
            self.pos += 1;
            parts.push(self.conj()?);
        }
        self.depth -= 1;
        Ok(single_or(parts, Formula::Or))
    }

    fn conj(&mut self) -> R<Formula> {
        let mut parts = vec![self.neg()?];
        while self.peek().is_some_and(|t| t.tok.is_keyword("and")) {
            self.pos += 1;
            parts.push(self.neg()?);
        }
        Ok(single_or(parts, Formula::And))
    }

    fn neg(&mut self) -> R<Formula> {
        let mut nots = 0;
        while self.peek().is_some_and(|t| t.tok.is_keyword("not")) {
            self.pos += 1;
            nots += 1;
        }
        // `not not F` is F; keep the parity only (no deep recursion).
        let atom = self.atom()?;
        Ok(if nots % 2 == 1 {
            Formula::Not(Box::new(atom))
        } else {
            atom
        })
    }

    fn atom(&mut self) -> R<Formula> {
        let Some(t) = self.peek() else {
            return Err(self.unexpected("a condition"));
        };
        match &t.tok {
            Tok::Op("(") => {
                self.pos += 1;
                let inner = self.formula()?;
                self.expect(")")?;
                Ok(inner)
            }
            Tok::Keyword("move") => {
                self.pos += 1;
                self.expect("(")?;
                self.enter()?;
                let pattern = self.movexpr()?;
                self.depth -= 1;
                let close = self.expect(")")?;
                Ok(Formula::Move(pattern, t.span.join(close.span)))
            }
            Tok::Op("@") => {
                self.pos += 1;
                let piece = match self.peek().map(|t| &t.tok) {
                    Some(Tok::Ident(name)) => {
                        let p = self.next().ok_or_else(|| self.unexpected("a token"))?;
                        let id = self.pieces.intern(name);
                        self.pieces.uses[id]
                            .queried
                            .get_or_insert((p.span, p.trace.clone()));
                        id
                    }
                    _ => return Err(self.unexpected("a piece name after `@`")),
                };
                let x = self.int()?;
                let y = self.int()?;
                let end = self.tokens[self.pos - 1].span;
                Ok(Formula::At(piece, x, y, t.span.join(end)))
            }
            _ => {
                let a = self.value()?;
                let relation = match self.peek().map(|t| &t.tok) {
                    Some(Tok::Op("<")) => Relation::Lt,
                    Some(Tok::Op("<=")) => Relation::Le,
                    Some(Tok::Op(">")) => Relation::Gt,
                    Some(Tok::Op(">=")) => Relation::Ge,
                    Some(Tok::Op("==")) => Relation::Eq,
                    Some(Tok::Op("!=")) => Relation::Ne,
                    _ => return Err(self.unexpected("a comparison (<, <=, >, >=, ==, !=)")),
                };
                self.pos += 1;
                let b = self.value()?;
                let end = self.tokens[self.pos - 1].span;
                Ok(Formula::Compare(a, relation, b, t.span.join(end)))
            }
        }
    }

    fn value(&mut self) -> R<Value> {
        if self.peek_is("$") {
            self.pos += 1;
            return match self.peek().map(|t| &t.tok) {
                Some(Tok::Keyword("turn")) => {
                    self.pos += 1;
                    Ok(Value::Turn)
                }
                Some(Tok::Ident(name)) => {
                    let p = self.next().ok_or_else(|| self.unexpected("a token"))?;
                    let id = self.pieces.intern(name);
                    self.pieces.uses[id]
                        .queried
                        .get_or_insert((p.span, p.trace.clone()));
                    Ok(Value::Count(id))
                }
                _ => Err(self.unexpected("`turn` or a piece name after `$`")),
            };
        }
        self.int()
            .map(Value::Int)
            .map_err(|_| self.unexpected("a value (`$turn`, `$piece` or an integer)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::macros::preprocess;

    fn parse_text(source: &str) -> Parsed {
        parse(source, preprocess(source).unwrap()).unwrap()
    }

    fn game(player: &str) -> Game {
        parse_text(&format!(
            "#game a b 7\n#board 2 2 a b c d\n#order p q\n#player p {player}\n\
             #player q (a)[p]\n#goal p 1 $turn > 1\n#goal q 1 $turn > 1\n"
        ))
        .game
    }

    #[test]
    fn board_is_listed_from_the_top_row() {
        let g = game("(a)[q]");
        let name = |square: usize| g.pieces[g.board[square]].as_str();
        // Bottom row first in the index: c d, then a b on top.
        assert_eq!([name(0), name(1), name(2), name(3)], ["c", "d", "a", "b"]);
        assert_eq!(g.name, "a b 7");
    }

    #[test]
    fn step_forms_and_signed_integers() {
        let g = game("(1,- 1,a/b)(+2,0,/c)(0,1/{a,d})(3,4)(a)(/b)({}/{})[-1]");
        let Expr::Concat(parts) = &g.levels[0][0] else {
            panic!("{:?}", g.levels[0][0]);
        };
        let steps: Vec<(i64, i64, bool, bool)> = parts
            .iter()
            .filter_map(|p| match p {
                Expr::Step(s) => Some((s.dx, s.dy, s.on.is_some(), s.off.is_some())),
                _ => None,
            })
            .collect();
        assert_eq!(
            steps,
            [
                (1, -1, true, true),
                (2, 0, false, true),
                (0, 1, false, true),
                (3, 4, false, false),
                (0, 0, true, false),
                (0, 0, false, true),
                (0, 0, true, true),
            ]
        );
        assert!(matches!(
            parts.last(),
            Some(Expr::Marker(Target::Offset(-1), _))
        ));
    }

    #[test]
    fn levels_and_precedence() {
        let g = game("(a)(b)[q] + (c)[q] +> (d)[q]");
        assert_eq!(g.levels[0].len(), 2);
        assert!(matches!(&g.levels[0][0], Expr::Alt(parts) if parts.len() == 2));
        let g = parse_text(
            "#game g\n#board 1 1 a\n#order p\n#player p (a)[p]\n\
             #goal p 1 not $turn > 1 and @ a 0 0 or move((a))\n",
        )
        .game;
        assert!(matches!(&g.goals[0].formula, Formula::Or(parts)
            if matches!(&parts[0], Formula::And(conj) if matches!(conj[0], Formula::Not(_)))));
    }
}
