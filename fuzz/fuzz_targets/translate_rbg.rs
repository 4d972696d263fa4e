//! RBG text (either syntax) to a checked RG game, end to end.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rgw_fuzz::{render, text, translation_is_sound, MAX_TRANSLATE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Some(source) = text(data, MAX_TRANSLATE_BYTES) else {
        return;
    };
    match rbg::translate(source) {
        Ok(translation) => translation_is_sound(&translation.game),
        Err(diagnostics) => render(&diagnostics, source),
    }
});
