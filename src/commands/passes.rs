//! `rgw passes`: the optimizer's passes, marking the default pipeline.

use std::process::ExitCode;

use rg_core::opt::{all_passes, default_pipeline};

use crate::source::CliError;

/// `rgw passes`: every pass with its description.
pub fn run() -> Result<ExitCode, CliError> {
    let default: Vec<&str> = default_pipeline().iter().map(|p| p.name()).collect();
    for pass in all_passes() {
        let marker = if default.contains(&pass.name()) {
            "*"
        } else {
            " "
        };
        println!("{marker} {:<24} {}", pass.name(), pass.description());
    }
    println!("\n* = in the default pipeline (--optimize), in this order.");
    Ok(ExitCode::SUCCESS)
}
