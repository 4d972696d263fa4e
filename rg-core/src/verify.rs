//! Differential checking of two models of the same game.
//!
//! [`verify`] compares perft of two [`ForwardModel`]s depth by depth. At the
//! first depth where the counts differ it walks both game trees in lockstep
//! — matching moves by their [`ForwardModel::format_move`] text, which the
//! translators keep identical to the native models' — to find the shortest
//! move prefix where the two models disagree, and says how (different move
//! sets, or a count difference below some move).

use std::collections::BTreeSet;
use std::fmt;

use crate::model::{perft, Budget, ForwardModel, LimitError, ModelError, Player};

/// Which of the two models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

/// The outcome of a differential check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The models agree on perft at every depth `0..perft.len()`.
    Agree {
        perft: Vec<u64>,
        /// Set when the budget ran out before the requested depth.
        stopped: Option<String>,
    },
    /// The models disagree.
    Differ {
        /// The first depth with different counts, and the two counts.
        depth: u32,
        left: u64,
        right: u64,
        /// Counts agreed at the shallower depths.
        agreed: Vec<u64>,
        /// The moves leading to the state where the disagreement shows.
        prefix: Vec<String>,
        /// What differs there.
        detail: String,
    },
    /// A model failed (a runtime error in one of them).
    Failed {
        side: Side,
        depth: u32,
        agreed: Vec<u64>,
        error: String,
    },
}

impl Verdict {
    pub fn agrees(&self) -> bool {
        matches!(self, Verdict::Agree { .. })
    }

    /// The depths both models agreed on.
    pub fn agreed(&self) -> &[u64] {
        match self {
            Verdict::Agree { perft, .. } => perft,
            Verdict::Differ { agreed, .. } | Verdict::Failed { agreed, .. } => agreed,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Agree { perft, stopped } => {
                write!(
                    f,
                    "agree up to depth {}: perft {:?}",
                    perft.len().saturating_sub(1),
                    perft
                )?;
                if let Some(reason) = stopped {
                    write!(f, " (stopped early: {reason})")?;
                }
                Ok(())
            }
            Verdict::Differ {
                depth,
                left,
                right,
                prefix,
                detail,
                ..
            } => {
                write!(f, "differ at depth {depth}: {left} vs {right}; ")?;
                if prefix.is_empty() {
                    write!(f, "at the initial state: {detail}")
                } else {
                    write!(f, "after /{}/: {detail}", prefix.join("/"))
                }
            }
            Verdict::Failed {
                side, depth, error, ..
            } => {
                let which = match side {
                    Side::Left => "first",
                    Side::Right => "second",
                };
                write!(f, "the {which} model failed at depth {depth}: {error}")
            }
        }
    }
}

/// Compares `left` and `right` at depths `0..=max_depth` within `budget`.
pub fn verify<A: ForwardModel, B: ForwardModel>(
    left: &A,
    right: &B,
    max_depth: u32,
    budget: &mut Budget,
) -> Verdict {
    let mut agreed = Vec::new();
    let (a0, b0) = match (left.initial(), right.initial()) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) => return failed(Side::Left, 0, agreed, e),
        (_, Err(e)) => return failed(Side::Right, 0, agreed, e),
    };
    for depth in 0..=max_depth {
        let l = match perft(left, &a0, depth, budget) {
            Ok(n) => n,
            Err(LimitError::Model(e)) => return failed(Side::Left, depth, agreed, e),
            Err(limit) => return stopped(agreed, &limit),
        };
        let r = match perft(right, &b0, depth, budget) {
            Ok(n) => n,
            Err(LimitError::Model(e)) => return failed(Side::Right, depth, agreed, e),
            Err(limit) => return stopped(agreed, &limit),
        };
        if l != r {
            let (prefix, detail) = localize(left, right, a0.clone(), b0.clone(), depth);
            return Verdict::Differ {
                depth,
                left: l,
                right: r,
                agreed,
                prefix,
                detail,
            };
        }
        agreed.push(l);
    }
    Verdict::Agree {
        perft: agreed,
        stopped: None,
    }
}

fn failed(side: Side, depth: u32, agreed: Vec<u64>, error: ModelError) -> Verdict {
    Verdict::Failed {
        side,
        depth,
        agreed,
        error: error.message,
    }
}

fn stopped(agreed: Vec<u64>, limit: &LimitError) -> Verdict {
    Verdict::Agree {
        perft: agreed,
        stopped: Some(limit.to_string()),
    }
}

/// Walks down from two states whose perft at `depth` differs and returns
/// the move prefix and a description of the first local difference.
fn localize<A: ForwardModel, B: ForwardModel>(
    left: &A,
    right: &B,
    mut a: A::State,
    mut b: B::State,
    mut depth: u32,
) -> (Vec<String>, String) {
    let mut prefix = Vec::new();
    let describe = |e: ModelError| format!("a model failed while localizing: {}", e.message);
    loop {
        let (ma, mb) = match (moves_by_text(left, &a), moves_by_text(right, &b)) {
            (Ok(ma), Ok(mb)) => (ma, mb),
            (Err(e), _) | (_, Err(e)) => return (prefix, describe(e)),
        };
        let texts_a: BTreeSet<&String> = ma.iter().map(|(t, _)| t).collect();
        let texts_b: BTreeSet<&String> = mb.iter().map(|(t, _)| t).collect();
        if texts_a != texts_b {
            return (prefix, describe_move_difference(&texts_a, &texts_b));
        }
        if left.current_player(&a) != right.current_player(&b) {
            return (
                prefix,
                format!(
                    "different players to move: {:?} vs {:?}",
                    left.current_player(&a),
                    right.current_player(&b)
                ),
            );
        }
        let consumes = !matches!(left.current_player(&a), Player::Keeper);
        if depth == 0 || (consumes && depth == 1) {
            return (
                prefix,
                "the same moves, yet different counts (random outcomes merged differently?)"
                    .to_string(),
            );
        }
        let below = if consumes { depth - 1 } else { depth };
        let mut next = None;
        for ((text, mva), (_, mvb)) in ma.iter().zip(&mb) {
            let mut ca = a.clone();
            let mut cb = b.clone();
            if let Err(e) = left.apply(&mut ca, mva) {
                return (prefix, describe(e));
            }
            if let Err(e) = right.apply(&mut cb, mvb) {
                return (prefix, describe(e));
            }
            let pa = perft(left, &ca, below, &mut Budget::unlimited());
            let pb = perft(right, &cb, below, &mut Budget::unlimited());
            match (pa, pb) {
                (Ok(x), Ok(y)) if x == y => continue,
                (Ok(_), Ok(_)) => {
                    next = Some((text.clone(), ca, cb));
                    break;
                }
                (Err(e), _) | (_, Err(e)) => return (prefix, format!("after move {text}: {e}")),
            }
        }
        match next {
            Some((text, ca, cb)) => {
                prefix.push(text);
                a = ca;
                b = cb;
                depth = below;
            }
            None => return (
                prefix,
                "every move agrees, yet the totals differ (random outcomes merged differently?)"
                    .to_string(),
            ),
        }
    }
}

/// The moves of a state with their texts, sorted by text.
fn moves_by_text<M: ForwardModel>(
    model: &M,
    state: &M::State,
) -> Result<Vec<(String, M::Move)>, ModelError> {
    let mut moves = Vec::new();
    model.legal_moves(state, &mut moves)?;
    let mut texts: Vec<(String, M::Move)> = moves
        .into_iter()
        .map(|m| (model.format_move(&m), m))
        .collect();
    texts.sort_by(|x, y| x.0.cmp(&y.0));
    Ok(texts)
}

fn describe_move_difference(a: &BTreeSet<&String>, b: &BTreeSet<&String>) -> String {
    let show = |set: Vec<&&String>| {
        let mut items: Vec<String> = set.iter().take(5).map(|s| format!("\"{s}\"")).collect();
        if set.len() > 5 {
            items.push(format!("... ({} in all)", set.len()));
        }
        items.join(", ")
    };
    let only_a: Vec<&&String> = a.difference(b).collect();
    let only_b: Vec<&&String> = b.difference(a).collect();
    let mut parts = Vec::new();
    if !only_a.is_empty() {
        parts.push(format!("moves only in the first model: {}", show(only_a)));
    }
    if !only_b.is_empty() {
        parts.push(format!("moves only in the second model: {}", show(only_b)));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, EngineOptions};

    const TIC_TAC_TOE: &str = include_str!("engine/testdata/tictactoe.rg");

    fn engine(source: &str) -> Engine {
        Engine::from_source(source, EngineOptions::default()).unwrap()
    }

    #[test]
    fn a_game_agrees_with_itself() {
        let a = engine(TIC_TAC_TOE);
        let b = engine(TIC_TAC_TOE);
        let verdict = verify(&a, &b, 4, &mut Budget::unlimited());
        assert_eq!(
            verdict,
            Verdict::Agree {
                perft: vec![1, 9, 72, 504, 3024],
                stopped: None
            }
        );
    }

    #[test]
    fn a_missing_move_is_located_with_its_prefix() {
        // The second game forbids the centre cell once the first player took
        // a corner: they agree at depth 1 and differ below "0 0".
        let broken = TIC_TAC_TOE.replace(
            "pick4, pick5: board[c][r] == empty;",
            "pick4, pick4e: board[c][r] == empty;\npick4e, pick5: board[0][0] != x;\n\
             pick4e, pick4c: board[0][0] == x;\npick4c, pick5: c != 1;\npick4c, pick5: r != 1;",
        );
        let a = engine(TIC_TAC_TOE);
        let b = engine(&broken);
        let verdict = verify(&a, &b, 3, &mut Budget::unlimited());
        match verdict {
            Verdict::Differ {
                depth,
                agreed,
                prefix,
                detail,
                ..
            } => {
                assert_eq!(depth, 2);
                assert_eq!(agreed, vec![1, 9]);
                assert_eq!(prefix, vec!["0 0".to_string()]);
                assert!(
                    detail.contains("moves only in the first model: \"1 1\""),
                    "{detail}"
                );
            }
            other => panic!("expected a difference, got {other}"),
        }
    }

    #[test]
    fn the_budget_stops_early_and_says_so() {
        let a = engine(TIC_TAC_TOE);
        let b = engine(TIC_TAC_TOE);
        let verdict = verify(&a, &b, 9, &mut Budget::unlimited().max_nodes(200));
        match verdict {
            Verdict::Agree { perft, stopped } => {
                assert!(perft.len() < 10);
                assert!(stopped.unwrap().contains("node limit"));
            }
            other => panic!("{other}"),
        }
    }
}
