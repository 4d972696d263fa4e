//! Terminal goals of two models compared play by play: the census (the
//! multiset of goal vectors over the plays perft counts; replay.md §6.4).
//! perft checks a game's shape; the census checks what the plays are worth
//! (payoff accumulation, discounting), which perft cannot see.

use std::collections::{BTreeMap, HashSet};

use rg_core::model::{ForwardModel, ModelError, Player};

/// Goal vector → number of plays ending with it.
pub type Census = BTreeMap<Vec<i64>, u64>;

/// The census of a whole game, or `None` when it has more than
/// `max_plays` plays.
pub fn census<M: ForwardModel>(model: &M, max_plays: u64) -> Result<Option<Census>, ModelError> {
    let mut out = Census::new();
    let mut plays = 0;
    let initial = model.initial()?;
    Ok(walk(model, &initial, &mut out, &mut plays, max_plays)?.then_some(out))
}

/// Adds the plays below `s`; false when the limit was passed.
fn walk<M: ForwardModel>(
    model: &M,
    s: &M::State,
    out: &mut Census,
    plays: &mut u64,
    max_plays: u64,
) -> Result<bool, ModelError> {
    if model.is_terminal(s) {
        *out.entry(model.goals(s)).or_insert(0) += 1;
        *plays += 1;
        return Ok(*plays <= max_plays);
    }
    let mut moves = Vec::new();
    model.legal_moves(s, &mut moves)?;
    // Random outcomes count once per distinct state, as in perft.
    let random = model.current_player(s) == Player::Random;
    let mut seen = HashSet::new();
    for mv in &moves {
        let mut child = s.clone();
        model.apply(&mut child, mv)?;
        if random && !seen.insert(child.clone()) {
            continue;
        }
        if !walk(model, &child, out, plays, max_plays)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// What differs between two censuses, in a few words.
pub fn difference(left: &Census, right: &Census) -> Option<String> {
    let shown = |c: &Census, v: &Vec<i64>| c.get(v).copied().unwrap_or(0);
    let first = left
        .keys()
        .chain(right.keys())
        .find(|v| shown(left, v) != shown(right, v))?;
    let goals: Vec<String> = first.iter().map(i64::to_string).collect();
    Some(format!(
        "goals ({}) end {} plays of the native model and {} of the RG translation",
        goals.join(","),
        shown(left, first),
        shown(right, first)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_the_first_differing_vector() {
        let a: Census = [(vec![1, 2], 3), (vec![4, 4], 1)].into_iter().collect();
        let mut b = a.clone();
        assert_eq!(difference(&a, &b), None);
        b.insert(vec![4, 4], 2);
        assert_eq!(
            difference(&a, &b).unwrap(),
            "goals (4,4) end 1 plays of the native model and 2 of the RG translation"
        );
    }
}
