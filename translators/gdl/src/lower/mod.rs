//! The lowering of GDL to RG (gdl.md §7): ground the game, then emit the
//! propnet as an automaton — one subautomaton per needed ground atom,
//! checked by reachability, and the turn loop in which every role chooses
//! an action (hidden from the others), the keeper computes the next state,
//! tests `terminal` and finally sets the goals.
//!
//! ```ignore
//! let t = gdl::translate(&source, &propnet::GroundingLimits::default())?;
//! println!("{}", rg_core::print::print_game(&t.game));
//! ```

mod analysis;
mod emit;
mod runtime;
mod trie;

use std::time::{Duration, Instant};

use propnet::{GroundProgram, GroundingLimits};
use rg_core::ast::Game;
use rg_core::check::check_game;
use rg_core::diag::{has_errors, Diagnostic};

use crate::validate::Game as GdlGame;

/// A translated game.
#[derive(Clone, Debug)]
pub struct Translation {
    pub game: Game,
    /// Warnings of validation, lowering and the RG checker.
    pub warnings: Vec<Diagnostic>,
    pub stats: TranslationStats,
}

/// Sizes and times of one translation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TranslationStats {
    /// Parsing and validation.
    pub validation_time: Duration,
    pub grounding_time: Duration,
    /// Emission of the RG game.
    pub lowering_time: Duration,
    /// The RG checker on the result.
    pub check_time: Duration,
    /// Ground atoms and rules after simplification.
    pub atoms: usize,
    pub ground_rules: usize,
    /// Base facts (state variables) and actions of all roles.
    pub facts: usize,
    pub actions: usize,
    /// Nodes and edges of the RG automaton.
    pub nodes: usize,
    pub edges: usize,
}

/// Parses, validates, grounds and lowers a KIF text; the result passes
/// the RG checker. Errors are diagnostics: the front end's, a grounding
/// limit (naming the relation that grew too large), or a game that cannot
/// be translated (e.g. a role with no possible action).
pub fn translate(source: &str, limits: &GroundingLimits) -> Result<Translation, Vec<Diagnostic>> {
    let start = Instant::now();
    let game = crate::validate::load(source)?;
    let validation_time = start.elapsed();
    let start = Instant::now();
    let ground = propnet::ground(&crate::to_datalog(&game), limits)
        .map_err(|e| vec![Diagnostic::error(e.to_string(), None)])?;
    let grounding_time = start.elapsed();
    let mut translation = lower(&game, &ground)?;
    translation.stats.validation_time = validation_time;
    translation.stats.grounding_time = grounding_time;
    Ok(translation)
}

/// Lowers a validated game from its ground program (of
/// `propnet::ground(&gdl::to_datalog(game), …)`), and checks the result.
pub fn lower(game: &GdlGame, ground: &GroundProgram) -> Result<Translation, Vec<Diagnostic>> {
    let start = Instant::now();
    let emitted = emit::emit(ground)?;
    let lowering_time = start.elapsed();
    let start = Instant::now();
    let diagnostics = check_game(&emitted.game);
    let check_time = start.elapsed();
    if has_errors(&diagnostics) {
        let mut errors: Vec<Diagnostic> = diagnostics
            .into_iter()
            .filter(Diagnostic::is_error)
            .map(|mut d| {
                d.message = format!(
                    "internal error: the translation is not valid RG: {}",
                    d.message
                );
                d
            })
            .collect();
        errors.truncate(20);
        return Err(errors);
    }
    let mut warnings = game.warnings.clone();
    warnings.extend(emitted.warnings);
    warnings.extend(diagnostics);
    // Run-time relations change what the RG checks cost: say which and why.
    for (relation, reason) in &ground.stats.runtime_relations {
        warnings.push(Diagnostic::warning(
            format!(
                "relation {relation} is evaluated at run time (a reachability check binding \
                 its variables) instead of ground: {reason}"
            ),
            None,
        ));
    }
    let node_count = node_count(&emitted.game);
    let stats = TranslationStats {
        atoms: ground.atoms.len(),
        ground_rules: ground.rules.len(),
        facts: ground.base_facts.len(),
        actions: ground.actions.iter().map(Vec::len).sum(),
        nodes: node_count,
        edges: emitted.game.edges.len(),
        lowering_time,
        check_time,
        ..TranslationStats::default()
    };
    Ok(Translation {
        game: emitted.game,
        warnings,
        stats,
    })
}

/// Distinct nodes of the automaton.
fn node_count(game: &Game) -> usize {
    let mut nodes = std::collections::HashSet::new();
    for e in &game.edges {
        nodes.insert(e.from.as_str());
        nodes.insert(e.to.as_str());
    }
    nodes.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rg_core::engine::{Engine, EngineOptions};
    use rg_core::model::{perft, Budget, ForwardModel};
    use rg_core::print::print_game;
    use rg_core::verify::verify;

    const COINS: &str = "
        (role alice) (role bob)
        (init fresh)
        (coin h) (coin t)
        (<= (legal ?r (pick ?c)) (role ?r) (coin ?c) (true fresh))
        (<= same (does alice (pick ?c)) (does bob (pick ?c)))
        (<= (next (won alice)) same)
        (<= (next (won bob)) (not same))
        (<= terminal (not (true fresh)))
        (<= (goal ?r 100) (true (won ?r)))
        (<= (goal ?r 0) (role ?r) (not (true (won ?r))))";

    fn translated(source: &str) -> Translation {
        match translate(source, &GroundingLimits::default()) {
            Ok(t) => t,
            Err(e) => panic!("{e:?}"),
        }
    }

    fn engine(t: &Translation) -> Engine {
        Engine::new(&t.game, EngineOptions::default()).expect("engine")
    }

    fn rg_perft(t: &Translation, max: u32) -> Vec<u64> {
        let e = engine(t);
        let s = e.initial().unwrap();
        (0..=max)
            .map(|d| perft(&e, &s, d, &mut Budget::unlimited()).unwrap())
            .collect()
    }

    /// Agreement with the native reasoner at every depth up to `max`.
    fn agrees_with_reasoner(source: &str, max: u32) -> Vec<u64> {
        let t = translated(source);
        let game = crate::load(source).unwrap();
        let reasoner = crate::Prover::new(&game.description).unwrap();
        let verdict = verify(&reasoner, &engine(&t), max, &mut Budget::unlimited());
        assert!(verdict.agrees(), "{verdict}\n{}", print_game(&t.game));
        verdict.agreed().to_vec()
    }

    #[test]
    fn worked_example_of_the_spec() {
        // gdl.md §7.8: RG perft 1, 2, 4, 0, 0.
        let t = translated(COINS);
        assert_eq!(rg_perft(&t, 4), vec![1, 2, 4, 0, 0]);
        assert_eq!(agrees_with_reasoner(COINS, 4), vec![1, 2, 4, 0, 0]);
        let printed = print_game(&t.game);
        assert!(
            printed.contains("type Player = { alice, bob };"),
            "{printed}"
        );
        assert!(printed.contains("$ pick_h"), "{printed}");
    }

    #[test]
    fn goals_and_hidden_choices() {
        let t = translated(COINS);
        let e = engine(&t);
        let mut s = e.initial().unwrap();
        let mut moves = Vec::new();
        for pick in ["pick_h", "pick_h"] {
            e.legal_moves(&s, &mut moves).unwrap();
            let m = moves
                .iter()
                .find(|m| e.format_move(m) == pick)
                .unwrap()
                .clone();
            // Nobody but the mover sees the tag.
            let seen = m.visibility.as_ref().map(|v| v[0]);
            assert_eq!(seen.map(u64::count_ones), Some(1));
            e.apply(&mut s, &m).unwrap();
        }
        assert!(e.is_terminal(&s));
        assert_eq!(e.goals(&s), vec![100, 0]);
    }

    #[test]
    fn a_role_named_player_gets_the_turn() {
        let source = "
            (role player) (role other)
            (init (count 0)) (succ 0 1) (succ 1 2)
            (<= (legal player (go ?x)) (true (count ?c)) (succ ?c ?x))
            (<= (legal player wait) (true (count 0)))
            (<= (legal other noop))
            (<= (next (count ?y)) (does player (go ?y)))
            (<= (next (count ?c)) (does player wait) (true (count ?c)))
            (<= terminal (true (count 2)))
            (<= (goal ?r 50) (role ?r))";
        let t = translated(source);
        assert!(print_game(&t.game).contains("player_"));
        agrees_with_reasoner(source, 8);
    }

    #[test]
    fn a_role_without_actions_is_an_error() {
        let source =
            "(role a) (role b) (<= (legal a noop)) (<= terminal (true done)) (goal a 0) (goal b 0)";
        let errors = translate(source, &GroundingLimits::default()).unwrap_err();
        assert_eq!(errors[0].message, "role b never has a legal move");
    }

    #[test]
    fn grounding_limits_name_the_relation() {
        let source = "
            (role r) (n 0) (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9)
            (<= (legal r (set ?a ?b ?c)) (n ?a) (n ?b) (n ?c))
            (<= (next (at ?a ?b ?c)) (does r (set ?a ?b ?c)))
            (<= terminal (true (at 1 1 1)))
            (goal r 0)";
        let limits = GroundingLimits {
            max_atoms: 200,
            ..GroundingLimits::default()
        };
        let errors = translate(source, &limits).unwrap_err();
        assert!(errors[0].message.contains("legal"), "{}", errors[0].message);
        // Each limit names itself and where it is raised.
        assert!(
            errors[0].message.contains("exceeded 200 atoms")
                && errors[0].message.contains("GroundingLimits::max_atoms"),
            "{}",
            errors[0].message
        );
        let limits = GroundingLimits {
            max_rules: 200,
            ..GroundingLimits::default()
        };
        let errors = translate(source, &limits).unwrap_err();
        assert!(
            errors[0].message.contains("exceeded 200 rule instances")
                && errors[0].message.contains("GroundingLimits::max_rules"),
            "{}",
            errors[0].message
        );
        let limits = GroundingLimits {
            max_time: Some(std::time::Duration::ZERO),
            ..GroundingLimits::default()
        };
        let errors = translate(source, &limits).unwrap_err();
        assert!(
            errors[0].message.contains("exceeded the time limit")
                && errors[0].message.contains("GroundingLimits::max_time"),
            "{}",
            errors[0].message
        );
    }

    #[test]
    fn terminal_initial_state_goes_to_the_goals() {
        let source = "
            (role r) (init done)
            (<= (legal r noop))
            (<= terminal (true done))
            (<= (goal r 100) (true done))";
        let t = translated(source);
        assert_eq!(rg_perft(&t, 2), vec![1, 0, 0]);
        let e = engine(&t);
        let s = e.initial().unwrap();
        assert!(e.is_terminal(&s));
        assert_eq!(e.goals(&s), vec![100]);
    }

    #[test]
    fn linear_recursion_is_a_graph_search() {
        // Connectivity over a changing edge relation: cyclic ground rules.
        let source = "
            (role r) (node a) (node b) (node c)
            (init (edge a b)) (init (edge b a))
            (<= (path ?x ?y) (true (edge ?x ?y)))
            (<= (path ?x ?z) (path ?x ?y) (true (edge ?y ?z)))
            (<= (legal r (link ?x ?y)) (node ?x) (node ?y) (distinct ?x ?y) (not (path ?x ?y)))
            (<= (legal r noop))
            (<= (next (edge ?x ?y)) (true (edge ?x ?y)))
            (<= (next (edge ?x ?y)) (does r (link ?x ?y)))
            (<= terminal (path c a))
            (<= (goal r 100) (path a c))
            (<= (goal r 0) (not (path a c)))";
        agrees_with_reasoner(source, 4);
        let t = translated(source);
        assert!(print_game(&t.game).contains("_derived"));
    }

    #[test]
    fn non_linear_recursion_is_unrolled() {
        let source = "
            (role r) (node a) (node b) (node c) (node d)
            (init (edge a b)) (init (edge b c))
            (<= (path ?x ?y) (true (edge ?x ?y)))
            (<= (path ?x ?z) (node ?y) (path ?x ?y) (path ?y ?z))
            (<= (legal r (link ?x ?y)) (node ?x) (node ?y) (distinct ?x ?y) (not (path ?x ?y)))
            (<= (next (edge ?x ?y)) (true (edge ?x ?y)))
            (<= (next (edge ?x ?y)) (does r (link ?x ?y)))
            (<= terminal (path d a))
            (<= (goal r 100) (path a d))";
        agrees_with_reasoner(source, 3);
        let t = translated(source);
        assert!(print_game(&t.game).contains("_level"));
    }

    #[test]
    fn decomposed_rules_agree() {
        // Grounding splits the goal into two independent parts and the
        // frame rule's move test into a part over the cell alone
        // (propnet's rule decomposition); the translation still agrees.
        let source = "
            (role a) (role b)
            (cell 1) (cell 2) (cell 3)
            (init (pos a 1)) (init (pos b 3)) (init (step 0))
            (succ 0 1) (succ 1 2) (succ 2 3)
            (<= (legal ?r (go ?c)) (role ?r) (cell ?c) (true (pos ?r ?x)) (distinct ?c ?x))
            (<= (legal ?r stay) (role ?r))
            (<= (next (pos ?r ?c)) (does ?r (go ?c)))
            (<= (next (pos ?r ?x)) (does ?r stay) (true (pos ?r ?x)))
            (<= (next (mark ?c ?v)) (true (mark ?c ?v)) (does ?r (go ?d)) (distinct ?c ?d))
            (<= (next (mark ?c ?r)) (does ?r (go ?c)))
            (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
            (<= terminal (true (step 3)))
            (<= (goal a 100) (true (pos a ?x)) (not (true (mark ?x b)))
                             (true (pos b ?y)) (true (mark ?y a)))
            (<= (goal a 0) (not (goal a 100)))
            (<= (goal b 50) (role b))";
        let game = crate::load(source).unwrap();
        let ground = propnet::ground(&crate::to_datalog(&game), &GroundingLimits::default())
            .expect("grounds");
        let parts = ground
            .atoms
            .iter()
            .filter(|a| ground.symbols.name(a.relation).contains("_part"))
            .count();
        assert!(parts >= 2, "{parts} auxiliary atoms");
        let counts = agrees_with_reasoner(source, 6);
        assert_eq!(counts.len(), 7);
    }

    #[test]
    fn several_goal_values_take_the_largest() {
        let source = "
            (role r) (init s)
            (<= (legal r noop))
            (<= (next t) (true s))
            (<= terminal (true t))
            (<= (goal r 10) (true t))
            (<= (goal r 70) (true t))";
        let t = translated(source);
        let e = engine(&t);
        let mut s = e.initial().unwrap();
        let mut moves = Vec::new();
        e.legal_moves(&s, &mut moves).unwrap();
        e.apply(&mut s, &moves[0]).unwrap();
        assert!(e.is_terminal(&s));
        assert_eq!(e.goals(&s), vec![70]);
    }

    #[test]
    fn a_role_without_goals_is_warned_about() {
        let source = "(role r) (init s) (<= (legal r noop)) (<= terminal (true s))";
        let t = translated(source);
        assert!(t
            .warnings
            .iter()
            .any(|w| w.message.contains("role r has no goal value")));
    }
}
