//! Games of simultaneous moves (GDL) and their classic perft over joint
//! moves (gdl.md §4.1), written once for every model that offers them.

use crate::model::{Budget, LimitError, ModelError};

/// A model in which every role chooses an action in each round.
pub trait SimultaneousModel {
    /// A game state between rounds.
    type Round;
    type Action;

    fn initial_round(&self) -> Result<Self::Round, ModelError>;
    /// Each role's legal actions (in the model's role order), or `None` in
    /// a terminal state.
    fn joint_options(
        &self,
        round: &Self::Round,
    ) -> Result<Option<Vec<Vec<Self::Action>>>, ModelError>;
    /// The round after each role chose `actions[i]`.
    fn joint_successor(
        &self,
        round: &Self::Round,
        actions: &[Self::Action],
    ) -> Result<Self::Round, ModelError>;
}

/// Classic GDL perft: every combination of the roles' legal actions is one
/// move; a terminal state reached early counts 0, and a state in which some
/// role has no legal action (a dead end) too.
pub fn joint_perft<M: SimultaneousModel>(
    model: &M,
    depth: u32,
    budget: &mut Budget,
) -> Result<u64, LimitError>
where
    M::Action: Clone,
{
    let initial = model.initial_round()?;
    joint_perft_from(model, &initial, depth, budget)
}

fn joint_perft_from<M: SimultaneousModel>(
    model: &M,
    round: &M::Round,
    depth: u32,
    budget: &mut Budget,
) -> Result<u64, LimitError>
where
    M::Action: Clone,
{
    if depth == 0 {
        return Ok(1);
    }
    budget.tick()?;
    let Some(options) = model.joint_options(round)? else {
        return Ok(0);
    };
    if options.iter().any(Vec::is_empty) {
        return Ok(0);
    }
    if depth == 1 {
        return Ok(options.iter().map(|a| a.len() as u64).product());
    }
    let mut total = 0;
    // A mixed-radix counter over the roles' action lists.
    let mut digits = vec![0usize; options.len()];
    loop {
        let actions: Vec<M::Action> = digits
            .iter()
            .zip(&options)
            .map(|(&i, list)| list[i].clone())
            .collect();
        let next = model.joint_successor(round, &actions)?;
        total += joint_perft_from(model, &next, depth - 1, budget)?;
        let mut k = options.len();
        loop {
            if k == 0 {
                return Ok(total);
            }
            k -= 1;
            digits[k] += 1;
            if digits[k] < options[k].len() {
                break;
            }
            digits[k] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two roles; round n offers n+1 and 2 actions until round 3, which is
    /// terminal; round 1 after action (1, 1) is a dead end.
    struct Toy;

    impl SimultaneousModel for Toy {
        type Round = (u32, bool);
        type Action = u32;
        fn initial_round(&self) -> Result<(u32, bool), ModelError> {
            Ok((0, false))
        }
        fn joint_options(
            &self,
            &(n, dead): &(u32, bool),
        ) -> Result<Option<Vec<Vec<u32>>>, ModelError> {
            if n == 3 {
                return Ok(None);
            }
            let second = if dead { vec![] } else { vec![0, 1] };
            Ok(Some(vec![(0..=n).collect(), second]))
        }
        fn joint_successor(
            &self,
            &(n, _): &(u32, bool),
            a: &[u32],
        ) -> Result<(u32, bool), ModelError> {
            Ok((n + 1, a == [1, 1]))
        }
    }

    #[test]
    fn counts_products_of_options_and_stops_at_terminal_and_dead_ends() {
        let count = |d| joint_perft(&Toy, d, &mut Budget::unlimited()).unwrap();
        assert_eq!(count(0), 1);
        assert_eq!(count(1), 2);
        // Round 1: 2 successors, each with 2 x 2 options.
        assert_eq!(count(2), 8);
        // Round 2: of the 8, the two reached by (1, 1) are dead ends; 6 x 3 x 2.
        assert_eq!(count(3), 36);
        // Round 3 is terminal.
        assert_eq!(count(4), 0);
    }
}
