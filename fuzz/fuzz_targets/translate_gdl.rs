//! KIF text (either syntax) to a checked RG game, end to end, with
//! grounding limits small enough for one fuzz input.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use propnet::GroundingLimits;
use rgw_fuzz::{render, text, translation_is_sound, MAX_TRANSLATE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Some(source) = text(data, MAX_TRANSLATE_BYTES) else {
        return;
    };
    let limits = GroundingLimits {
        max_atoms: 20_000,
        max_rules: 20_000,
        max_time: Some(Duration::from_secs(2)),
    };
    match gdl::translate(source, &limits) {
        Ok(translation) => translation_is_sound(&translation.game),
        Err(diagnostics) => render(&diagnostics, source),
    }
});
