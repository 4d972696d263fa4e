//! The static checks of rbg-draft.md §3.3 that need the whole description:
//! marker positions (R22), nullable levels and patterns (R23), patterns
//! without offs or markers (R34), `@` coordinates and queried pieces (R15,
//! R17), the size of powers; and the warnings of §3.3.

use rg_core::diag::Diagnostic;

use crate::ast::{Expr, Formula, Game};
use crate::limits::MAX_LETTERS;
use crate::macros::with_trace;
use crate::parse::Parsed;

/// Errors and warnings of a parsed description.
pub fn check(parsed: &Parsed, source: &str) -> Vec<Diagnostic> {
    let game = &parsed.game;
    let mut out = Vec::new();
    for (p, levels) in game.levels.iter().enumerate() {
        for level in levels {
            markers(level, &mut out);
            if level.nullable() {
                out.push(
                    Diagnostic::error(
                        format!(
                            "a priority level of player `{}` accepts the empty word",
                            game.players[p]
                        ),
                        first_span(level),
                    )
                    .with_label("this level can match nothing at all (R23)")
                    .with_note("an empty semimove would repeat forever; require at least one step"),
                );
            }
            size(level, &mut out);
            deltas(game, level, &mut out);
        }
    }
    for goal in &game.goals {
        goal.formula.for_each_atom(&mut |atom| match atom {
            Formula::Move(pattern, span) => {
                if pattern.nullable() {
                    out.push(
                        Diagnostic::error("a `move(...)` pattern accepts the empty word", *span)
                            .with_label("it would always hold (R23)"),
                    );
                }
                if pattern.has_marker() {
                    out.push(
                        Diagnostic::error(
                            "a `move(...)` pattern contains a next-player marker",
                            *span,
                        )
                        .with_label("patterns have no markers (R34)"),
                    );
                }
                pattern.for_each_step(&mut |step| {
                    if step.off.is_some() {
                        out.push(
                            Diagnostic::error("a `move(...)` pattern contains an off", step.span)
                                .with_label("patterns only test squares (R34)"),
                        );
                    }
                });
                size(pattern, &mut out);
                deltas(game, pattern, &mut out);
            }
            Formula::At(_, x, y, span) if game.square(*x, *y).is_none() => {
                out.push(
                    Diagnostic::error(
                        format!(
                            "square ({x}, {y}) is off the {}×{} board",
                            game.width, game.height
                        ),
                        *span,
                    )
                    .with_label("`@ P x y` takes a column x and a row y (R17)"),
                );
            }
            _ => {}
        });
    }
    for (id, uses) in parsed.uses.iter().enumerate() {
        let name = &game.pieces[id];
        match (&uses.queried, uses.placed, uses.tested) {
            (Some((span, trace)), false, None) => out.push(with_trace(
                Diagnostic::error(format!("there is no piece `{name}`"), *span)
                    .with_label("not on the board and in no on or off set (R15)"),
                trace,
                source,
            )),
            (_, false, Some(span)) => out.push(
                Diagnostic::warning(format!("piece `{name}` is tested but never placed"), span)
                    .with_label("not on the board and in no off set: probably a typo"),
            ),
            _ => {}
        }
        if let Some(p) = game.players.iter().position(|p| p == name) {
            out.push(
                Diagnostic::warning(
                    format!("`{name}` names both a player and a piece"),
                    parsed.player_spans[p],
                )
                .with_label("legal, but confusing"),
            );
        }
    }
    out
}

fn first_span(e: &Expr) -> rg_core::diag::Span {
    match e {
        Expr::Step(step) => step.span,
        Expr::Marker(_, span) | Expr::Power(_, _, span) | Expr::Star(_, span) => *span,
        Expr::Concat(parts) | Expr::Alt(parts) => parts.first().map(first_span).unwrap_or_default(),
    }
}

/// R22: no factor after one with a marker; no power over a marker.
fn markers(e: &Expr, out: &mut Vec<Diagnostic>) {
    match e {
        Expr::Step(_) | Expr::Marker(..) => {}
        Expr::Concat(parts) => {
            for pair in parts.windows(2) {
                if pair[0].has_marker() {
                    out.push(
                        Diagnostic::error(
                            "a letter follows a next-player marker",
                            first_span(&pair[1]),
                        )
                        .with_label("a marker can only end a word (R22)"),
                    );
                    break;
                }
            }
            parts.iter().for_each(|p| markers(p, out));
        }
        Expr::Alt(parts) => parts.iter().for_each(|p| markers(p, out)),
        Expr::Power(inner, n, span) => {
            if *n != 1 && inner.has_marker() {
                out.push(
                    Diagnostic::error("a power repeats a next-player marker", *span)
                        .with_label("a marker can only end a word (R22)"),
                );
            }
            markers(inner, out);
        }
        Expr::Star(inner, span) => {
            if inner.has_marker() {
                out.push(
                    Diagnostic::error("a power repeats a next-player marker", *span)
                        .with_label("a marker can only end a word (R22)"),
                );
            }
            markers(inner, out);
        }
    }
}

/// The number of letters after expanding `^n` must stay reasonable.
fn size(e: &Expr, out: &mut Vec<Diagnostic>) {
    fn letters(e: &Expr) -> u64 {
        match e {
            Expr::Step(_) | Expr::Marker(..) => 1,
            Expr::Concat(parts) | Expr::Alt(parts) => {
                parts.iter().map(letters).fold(0, u64::saturating_add)
            }
            Expr::Power(inner, n, _) => letters(inner).saturating_mul(u64::from(*n)),
            Expr::Star(inner, _) => letters(inner),
        }
    }
    if letters(e) > MAX_LETTERS {
        out.push(
            Diagnostic::error(
                format!("powers expand this expression to more than {MAX_LETTERS} letters"),
                first_span(e),
            )
            .with_label("MAX_LETTERS in translators/rbg-draft/src/limits.rs"),
        );
    }
}

/// R36: a delta that can never stay on the board.
fn deltas(game: &Game, e: &Expr, out: &mut Vec<Diagnostic>) {
    e.for_each_step(&mut |step| {
        if step.dx.unsigned_abs() >= u64::from(game.width)
            || step.dy.unsigned_abs() >= u64::from(game.height)
        {
            out.push(
                Diagnostic::warning(
                    format!(
                        "the step ({}, {}) always leaves the {}×{} board",
                        step.dx, step.dy, game.width, game.height
                    ),
                    step.span,
                )
                .with_label("it never applies (R36)"),
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use crate::parse_and_check;

    fn errors(player: &str) -> Vec<String> {
        let source =
            format!("#game g\n#board 2 1 a b\n#order p\n#player p {player}\n#goal p 1 $turn > 1\n");
        match parse_and_check(&source) {
            Ok(_) => Vec::new(),
            Err(e) => e
                .into_iter()
                .filter(rg_core::diag::Diagnostic::is_error)
                .map(|d| d.message)
                .collect(),
        }
    }

    #[test]
    fn document_next_player_examples() {
        // rbg-draft.md §9.2: valid and invalid bodies.
        assert!(errors("(1,0,b)(0,0,b)([p]+[0])").is_empty());
        assert!(errors("(1,0,b)([p]+(0,0,b))").is_empty());
        assert!(errors("(1,0,b)(0,0,b)").is_empty());
        assert!(!errors("(1,0,b)[p](0,0,b)").is_empty());
        assert!(!errors("(1,0,b)([p]+(0,0,b))(0,0,b)").is_empty());
        assert!(!errors("((1,0,b)[p])^2").is_empty());
    }

    #[test]
    fn nullability() {
        assert!(!errors("((a))^*").is_empty());
        assert!(!errors("((a))^* + (b)[p]").is_empty());
        assert!(errors("((a))^*(b)[p]").is_empty());
        assert!(errors("((a)^*(b))^2[p]").is_empty());
    }
}
