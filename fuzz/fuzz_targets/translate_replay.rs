//! replay text to a checked RG game, end to end (two rounds unless a
//! directive says otherwise); the native model of the same instance agrees
//! with the translation on shallow perft.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};
use rgw_fuzz::{render, text, translation_is_sound, MAX_TRANSLATE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Some(source) = text(data, MAX_TRANSLATE_BYTES) else {
        return;
    };
    let mut options = replay::Options::default();
    options.rounds = Some(2);
    match replay::translate(source, &options) {
        Ok((loaded, translation)) => {
            translation_is_sound(&translation.game);
            let Ok(native) = replay::Native::new(&loaded.instance) else {
                return;
            };
            let Ok(engine) = Engine::new(&translation.game, EngineOptions::default()) else {
                return;
            };
            let (Ok(a), Ok(b)) = (native.initial(), engine.initial()) else {
                return;
            };
            for depth in 0..=2 {
                let mut budget = Budget::unlimited().max_nodes(100_000);
                let left = perft(&native, &a, depth, &mut budget);
                let mut budget = Budget::unlimited().max_nodes(100_000);
                let right = perft(&engine, &b, depth, &mut budget);
                if let (Ok(left), Ok(right)) = (left, right) {
                    assert_eq!(left, right, "perft({depth}) differs");
                }
            }
        }
        Err(diagnostics) => render(&diagnostics, source),
    }
});
