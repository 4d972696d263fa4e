//! Facts about a whole game that make passes hold back: whether it has
//! reachability checks, and whether the random player can move.

use crate::ast::{Expr, Game, Label, Value};
use crate::builtins::RANDOM;

/// Whether some edge is a reachability check.
pub fn has_checks(game: &Game) -> bool {
    game.edges
        .iter()
        .any(|e| matches!(e.label, Label::Reach { .. }))
}

/// Whether the random player can be on move: some expression mentions the
/// symbol `random`. Passes that change which node a move ends at, or which
/// variables exist, avoid doing so in such games, because perft merges
/// random outcomes by state (rg.md §6).
pub fn has_random(game: &Game) -> bool {
    fn mentions(e: &Expr) -> bool {
        match e {
            Expr::Ref(name, _) => name == RANDOM,
            Expr::Cast(_, inner, _) => mentions(inner),
            Expr::Access(m, k, _) => mentions(m) || mentions(k),
        }
    }
    game.edges.iter().any(|e| match &e.label {
        Label::Assign { rhs, .. } => mentions(rhs),
        Label::Compare { lhs, rhs, .. } => mentions(lhs) || mentions(rhs),
        _ => false,
    }) || game.constants.iter().any(|c| value_mentions(&c.value))
        || game.variables.iter().any(|v| value_mentions(&v.value))
}

/// Whether a constant's value mentions `random` (as `has_random` always
/// did, by substring), without printing the value.
fn value_mentions(value: &Value) -> bool {
    let random = |s: &str| s.contains(RANDOM);
    match value {
        Value::Symbol(s, _) => random(s),
        Value::Map(entries, _) => entries
            .iter()
            .any(|e| e.key.as_deref().is_some_and(random) || value_mentions(&e.value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_moves_are_seen_in_initial_values_too() {
        let game = |value: &str| {
            crate::parse::parse_game(&format!(
                "type Player = {{ x }};\ntype Score = {{ 0 }};\nvar m: Bool -> PlayerOrSystem = {value};\nvar v: Bool = 0;\nbegin, end: player = m[v];\n"
            ))
            .unwrap()
        };
        assert!(has_random(&game("{ :random, 1: x }")));
        assert!(!has_random(&game("{ :keeper, 1: x }")));
    }
}
