//! The prefix KIF parser, then GDL validation.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rgw_fuzz::{diagnostics_point_into, text, MAX_PARSE_BYTES};

fuzz_target!(|data: &[u8]| {
    let Some(source) = text(data, MAX_PARSE_BYTES) else {
        return;
    };
    let result = gdl::parse::parse_prefix(source).and_then(gdl::validate);
    if let Err(diagnostics) = result {
        diagnostics_point_into(&diagnostics, source);
    }
});
