//! HRG text to a checked RG game, end to end; the native interpreter is
//! built from the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rgw_fuzz::{render, text, translation_is_sound, MAX_TRANSLATE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Some(source) = text(data, MAX_TRANSLATE_BYTES) else {
        return;
    };
    match hrg::translate(source) {
        Ok(translation) => translation_is_sound(&translation.game),
        Err(diagnostics) => render(&diagnostics, source),
    }
    if let Err(diagnostics) = hrg::Interpreter::new(source) {
        render(&diagnostics, source);
    }
});
