//! Perft split into independent subtasks, so that several model instances
//! (one per thread) can share one count.
//!
//! A [`PerftTask`] names a subtree by the moves leading to it, in their
//! textual form ([`ForwardModel::format_move`]), not by a state: another
//! instance of the same model (built from the same source, possibly on
//! another thread) replays them from its own initial state. Models need not
//! be `Send`, and need not list moves in the same order.

use std::collections::HashSet;

use crate::model::{perft, Budget, ForwardModel, LimitError, ModelError, Player};

/// perft of the state reached by `path` from the initial state, `depth`
/// more levels down.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftTask {
    pub path: Vec<String>,
    pub depth: u32,
}

/// perft(initial, depth) as `counted + Σ perft(task)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftPlan {
    pub counted: u64,
    pub tasks: Vec<PerftTask>,
}

/// Expands the top of the perft tree of `root` breadth-first until there
/// are at least `min_tasks` subtasks (or nothing deeper than depth 1 is
/// left to expand). Follows [`perft`] exactly: keeper moves keep the depth,
/// random moves that lead to the same state count once.
pub fn plan_perft<M: ForwardModel>(
    model: &M,
    root: &M::State,
    depth: u32,
    min_tasks: usize,
    budget: &mut Budget,
) -> Result<PerftPlan, LimitError> {
    let mut plan = PerftPlan::default();
    // Frontier entries carry their state, to avoid replaying while planning.
    let mut frontier = vec![(Vec::new(), root.clone(), depth)];
    while frontier.len() < min_tasks && frontier.iter().any(|(_, _, d)| *d > 1) {
        let mut next = Vec::new();
        for (path, state, depth) in frontier {
            if depth <= 1 {
                next.push((path, state, depth));
                continue;
            }
            budget.tick()?;
            let player = model.current_player(&state);
            let child_depth = if player == Player::Keeper {
                depth
            } else {
                depth - 1
            };
            let mut moves = Vec::new();
            model.legal_moves(&state, &mut moves)?;
            let mut seen = HashSet::new();
            for mv in &moves {
                let mut child = state.clone();
                model.apply(&mut child, mv)?;
                if player == Player::Random && !seen.insert(child.clone()) {
                    continue;
                }
                if child_depth == 0 {
                    plan.counted += 1;
                    continue;
                }
                let mut child_path = path.clone();
                child_path.push(model.format_move(mv));
                next.push((child_path, child, child_depth));
            }
        }
        frontier = next;
    }
    plan.tasks = frontier
        .into_iter()
        .map(|(path, _, depth)| PerftTask { path, depth })
        .collect();
    Ok(plan)
}

/// The state reached from `root` by the moves of `path`.
pub fn replay<M: ForwardModel>(
    model: &M,
    root: &M::State,
    path: &[String],
) -> Result<M::State, ModelError> {
    let mut state = root.clone();
    let mut moves = Vec::new();
    for (k, wanted) in path.iter().enumerate() {
        model.legal_moves(&state, &mut moves)?;
        let mv = moves
            .iter()
            .find(|mv| model.format_move(mv) == *wanted)
            .ok_or_else(|| {
                ModelError::new(format!(
                    "cannot replay move {} (\"{wanted}\"): it is not legal here; \
                     the model instances disagree",
                    k + 1
                ))
            })?;
        model.apply(&mut state, mv)?;
    }
    Ok(state)
}

/// perft of one task on this model instance.
pub fn run_task<M: ForwardModel>(
    model: &M,
    root: &M::State,
    task: &PerftTask,
    budget: &mut Budget,
) -> Result<u64, LimitError> {
    let state = replay(model, root, &task.path)?;
    perft(model, &state, task.depth, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, EngineOptions};
    use crate::model::tests::Toy;

    const TIC_TAC_TOE: &str = include_str!("../../corpus/rg/ticTacToe.rg");

    /// `counted + Σ tasks` (tasks run on `worker`, as on another thread)
    /// equals perft for every depth and split width.
    fn check_plans<M: ForwardModel>(model: &M, worker: &M, max_depth: u32) {
        let root = model.initial().unwrap();
        let worker_root = worker.initial().unwrap();
        for depth in 0..=max_depth {
            let expected = perft(model, &root, depth, &mut Budget::unlimited()).unwrap();
            for width in [1, 2, 3, 8, 100] {
                let plan =
                    plan_perft(model, &root, depth, width, &mut Budget::unlimited()).unwrap();
                let total: u64 = plan.counted
                    + plan
                        .tasks
                        .iter()
                        .map(|t| {
                            run_task(worker, &worker_root, t, &mut Budget::unlimited()).unwrap()
                        })
                        .sum::<u64>();
                assert_eq!(total, expected, "depth {depth}, width {width}");
                if depth >= 2 && width > 1 {
                    assert!(plan.tasks.len() > 1, "depth {depth} was not split");
                }
            }
        }
    }

    #[test]
    fn plans_of_a_model_with_keeper_and_random_moves_sum_to_perft() {
        check_plans(&Toy, &Toy, 6);
    }

    #[test]
    fn plans_of_the_rg_engine_sum_to_perft_in_both_keeper_modes() {
        for expose_keeper in [false, true] {
            let options = EngineOptions {
                expose_keeper,
                ..EngineOptions::default()
            };
            let model = Engine::from_source(TIC_TAC_TOE, options).unwrap();
            let worker = Engine::from_source(TIC_TAC_TOE, options).unwrap();
            check_plans(&model, &worker, 4);
        }
    }

    #[test]
    fn replaying_an_illegal_move_is_an_error() {
        let root = Toy.initial().unwrap();
        let error = replay(&Toy, &root, &["40".into(), "7".into()]).unwrap_err();
        assert!(error.message.contains("move 2 (\"7\")"), "{error:?}");
    }
}
