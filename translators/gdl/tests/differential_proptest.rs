//! Random small games: the non-ground reasoner and the grounded propnet
//! agree on perft at every depth of the first rounds. The games include a
//! token whose "one position" invariant holds or not, so the grounder's
//! invariant pruning (docs/gdl.md, grounding step 4) is checked against the reasoner too.

use propnet::{GroundingLimits, PropnetModel};
use proptest::prelude::*;
use rg_core::model::{perft, Budget, ForwardModel};

/// Body literals over one bound variable `?x` (bound by `(dom ?x)` first).
fn literal() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("(true (f ?x))".to_string()),
        Just("(not (true (f ?x)))".to_string()),
        Just("(true (g ?x b))".to_string()),
        Just("(not (true (g a ?x)))".to_string()),
        Just("(h1 ?x)".to_string()),
        Just("(not (h1 ?x))".to_string()),
        Just("(reach a ?x)".to_string()),
        Just("(not (reach ?x c))".to_string()),
        Just("(distinct ?x a)".to_string()),
        Just("(not (distinct ?x b))".to_string()),
        Just("(or (true (f a)) (h1 ?x))".to_string()),
        Just("(pair ?x ?y)".to_string()),
        Just("(true (pos ?x))".to_string()),
        Just("(not (true (pos ?x)))".to_string()),
    ]
}

/// Literals that may mention the joint move.
fn move_literal() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => literal(),
        2 => Just("(does p1 (m ?x))".to_string()),
        1 => Just("(not (does p1 (m ?x)))".to_string()),
        2 => Just("(does p2 (m ?x))".to_string()),
        1 => Just("(moved ?x)".to_string()),
        1 => Just("(not (moved ?x))".to_string()),
    ]
}

fn body(l: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    prop::collection::vec(l, 0..3).prop_map(|ls| format!("(dom ?x) {}", ls.join(" ")))
}

fn game() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(prop::bool::ANY, 3),
        body(literal()),
        body(literal()),
        prop::collection::vec(body(move_literal()), 1..4),
        prop::collection::vec(body(move_literal()), 1..3),
        body(literal()),
        prop::bool::ANY,
        prop::sample::select(vec!["proper", "leaky", "none"]),
    )
        .prop_map(|(init, legal, helper, next_f, next_g, terminal, two_roles, frame)| {
            let mut text = String::from("(role p1)\n");
            if two_roles {
                text += "(role p2)\n";
            }
            text += "(dom a) (dom b) (dom c)\n(<= (pair ?x ?y) (dom ?x) (dom ?y) (distinct ?x ?y))\n";
            for (c, on) in ["a", "b", "c"].iter().zip(init) {
                if on {
                    text += &format!("(init (f {c}))\n");
                }
            }
            text += "(init (g a b)) (init (step 0))\n";
            text += &format!("(<= (legal ?r (m ?x)) (role ?r) {legal})\n");
            text += "(<= (legal ?r noop) (role ?r))\n";
            // Helpers: a non-recursive view and a recursive reachability.
            text += &format!("(<= (h1 ?x) {})\n", helper.replace("(h1 ?x)", "(true (f c))").replace("(not (h1 ?x))", "(not (true (f b)))"));
            text += "(<= (reach ?x ?y) (true (g ?x ?y)))\n(<= (reach ?x ?z) (reach ?x ?y) (true (g ?y ?z)))\n";
            text += "(<= (moved ?x) (does ?r (m ?x)))\n";
            for b in next_f {
                text += &format!("(<= (next (f ?x)) {b})\n");
            }
            for b in next_g {
                text += &format!("(<= (next (g ?x ?y)) (dom ?y) {b} (true (f ?y)))\n");
            }
            text += "(<= (next (g ?x ?y)) (true (g ?x ?y)) (not (moved ?x)))\n";
            // A token p1 moves: one position with a proper frame rule (an
            // invariant the grounder can prove and prune with), possibly
            // two with a leaky one, or it vanishes after a move.
            text += "(init (pos a))\n(<= (next (pos ?x)) (does p1 (m ?x)))\n";
            text += "(<= p1moved (does p1 (m ?y)))\n";
            match frame {
                "proper" => text += "(<= (next (pos ?x)) (true (pos ?x)) (not p1moved))\n",
                "leaky" => text += "(<= (next (pos ?x)) (true (pos ?x)))\n",
                _ => {}
            }
            text += "(succ 0 1) (succ 1 2) (succ 2 3)\n";
            text += "(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))\n";
            text += &format!("(<= terminal {terminal})\n(<= terminal (true (step 3)))\n");
            text += "(<= (goal ?r 100) (role ?r) (true (f a)))\n(<= (goal ?r 0) (role ?r) (not (true (f a))))\n";
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn reasoner_and_propnet_agree(text in game()) {
        let game = match gdl::load(&text) {
            Ok(game) => game,
            Err(e) => return Err(TestCaseError::fail(format!("generated game invalid: {:?}\n{text}", e[0].message))),
        };
        let reasoner = gdl::Prover::new(&game.description).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let model = PropnetModel::new(&gdl::to_datalog(&game), &GroundingLimits::default())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let roles = reasoner.player_names().len() as u32;
        let r0 = reasoner.initial().unwrap();
        let p0 = model.initial().unwrap();
        for depth in 0..=3 * roles {
            let a = perft(&reasoner, &r0, depth, &mut Budget::unlimited()).unwrap();
            let b = perft(&model, &p0, depth, &mut Budget::unlimited()).unwrap();
            prop_assert_eq!(a, b, "depth {}\n{}", depth, text);
        }
        // Goals agree in the states along one line of play.
        let (mut rs, mut ps) = (r0, p0);
        for _ in 0..3 * roles {
            let mut rm = Vec::new();
            let mut pm = Vec::new();
            reasoner.legal_moves(&rs, &mut rm).unwrap();
            model.legal_moves(&ps, &mut pm).unwrap();
            let mut rn: Vec<String> = rm.iter().map(|m| reasoner.format_move(m)).collect();
            let mut pn: Vec<String> = pm.iter().map(|m| model.format_move(m)).collect();
            rn.sort();
            pn.sort();
            prop_assert_eq!(&rn, &pn, "{}", text);
            let Some(last) = rn.last() else { break };
            let r_move = rm.iter().find(|m| &reasoner.format_move(m) == last).unwrap().clone();
            let p_move = *pm.iter().find(|m| &model.format_move(m) == last).unwrap();
            reasoner.apply(&mut rs, &r_move).unwrap();
            model.apply(&mut ps, &p_move).unwrap();
            // The propnet keeps only facts that are read, so compare on those.
            let kept = model.state_facts(&ps);
            let reasoner_facts: Vec<String> =
                reasoner.state_facts(&rs).into_iter().filter(|f| model.is_base_fact(f)).collect();
            prop_assert_eq!(reasoner_facts, kept, "{}", text);
            prop_assert_eq!(reasoner.goals(&rs), model.goals(&ps), "{}", text);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The front end never panics: any text is a game or a list of diagnostics
    /// whose spans lie inside the text.
    #[test]
    fn front_end_never_panics(text in "[()?;a-c<=not rdiv \n\"#.0-9:&~,-]{0,80}") {
        match gdl::load(&text) {
            Ok(game) => {
                let _ = gdl::Prover::new(&game.description);
            }
            Err(diagnostics) => {
                prop_assert!(!diagnostics.is_empty());
                for d in &diagnostics {
                    if let Some(span) = d.span {
                        prop_assert!(span.start <= span.end && span.end <= text.len(), "{:?} in {:?}", d, text);
                    }
                    let _ = d.render("fuzz.kif", &text);
                }
            }
        }
    }

    /// Deep nesting is refused, not a stack overflow.
    #[test]
    fn deep_nesting_is_an_error(depth in 600usize..2000) {
        let text = format!("(role a) (p {}x{})", "(f ".repeat(depth), ")".repeat(depth));
        prop_assert!(gdl::load(&text).is_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The RG translation of a random game agrees with the reasoner on
    /// perft at every depth of three rounds, on the moves along one line of
    /// play, and on the goals where that line ends.
    #[test]
    fn reasoner_and_translation_agree(text in game()) {
        use rg_core::engine::{Engine, EngineOptions};
        let game = gdl::load(&text).map_err(|e| TestCaseError::fail(e[0].message.clone()))?;
        let reasoner = gdl::Prover::new(&game.description).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let t = gdl::translate(&text, &GroundingLimits::default())
            .map_err(|e| TestCaseError::fail(format!("{}\n{text}", e[0].message)))?;
        let engine = Engine::new(&t.game, EngineOptions::default())
            .map_err(|e| TestCaseError::fail(e[0].message.clone()))?;
        let roles = reasoner.player_names().len() as u32;
        prop_assert_eq!(engine.player_names(), reasoner.player_names());
        let verdict = rg_core::verify::verify(&reasoner, &engine, 3 * roles, &mut Budget::unlimited());
        prop_assert!(verdict.agrees(), "{}\n{}\n{}", verdict, text, rg_core::print::print_game(&t.game));
        let (mut rs, mut es) = (reasoner.initial().unwrap(), engine.initial().unwrap());
        for _ in 0..4 * roles {
            prop_assert_eq!(reasoner.is_terminal(&rs), engine.is_terminal(&es), "{}", text);
            if engine.is_terminal(&es) {
                prop_assert_eq!(reasoner.goals(&rs), engine.goals(&es), "{}", text);
                break;
            }
            let (mut rm, mut em) = (Vec::new(), Vec::new());
            reasoner.legal_moves(&rs, &mut rm).unwrap();
            engine.legal_moves(&es, &mut em).unwrap();
            let mut rn: Vec<String> = rm.iter().map(|m| reasoner.format_move(m)).collect();
            let mut en: Vec<String> = em.iter().map(|m| engine.format_move(m)).collect();
            rn.sort();
            en.sort();
            prop_assert_eq!(&rn, &en, "{}", text);
            let Some(last) = rn.last() else { break };
            let r_move = rm.iter().find(|m| &reasoner.format_move(m) == last).unwrap().clone();
            let e_move = em.iter().find(|m| &engine.format_move(m) == last).unwrap().clone();
            reasoner.apply(&mut rs, &r_move).unwrap();
            engine.apply(&mut es, &e_move).unwrap();
        }
    }
}
