//! Early-draft RBG text to a checked RG game, end to end; where both the
//! native interpreter and the RG engine count the first two plies within a
//! small budget, the counts must agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rg_core::engine::Engine;
use rg_core::model::{perft, Budget, ForwardModel};
use rgw_fuzz::{render, small_engine_options, text, translation_is_sound, MAX_TRANSLATE_BYTES};

/// Perft at depths 0..=2 within a small budget, or `None`.
fn counts<M: ForwardModel>(model: &M) -> Option<Vec<u64>> {
    let initial = model.initial().ok()?;
    (0..=2)
        .map(|depth| perft(model, &initial, depth, &mut Budget::unlimited().max_nodes(2_000)).ok())
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some(source) = text(data, MAX_TRANSLATE_BYTES) else {
        return;
    };
    let checked = match rbg_draft::parse_and_check(source) {
        Ok(checked) => checked,
        Err(diagnostics) => return render(&diagnostics, source),
    };
    let translation = match rbg_draft::translate(source) {
        Ok(translation) => translation,
        Err(diagnostics) => return render(&diagnostics, source),
    };
    translation_is_sound(&translation.game);
    let native = rbg_draft::Interpreter::new(&checked.game);
    let Ok(engine) = Engine::new(&translation.game, small_engine_options()) else {
        return;
    };
    if let (Some(native), Some(rg)) = (counts(&native), counts(&engine)) {
        assert_eq!(native, rg, "native and RG perft differ\n{source}");
    }
});
