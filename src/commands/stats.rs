//! `rgw stats FILE`: the size of a game, before and after optimization.

use std::path::Path;
use std::process::ExitCode;

use rg_core::opt::Size;

use crate::cli::OptimizeArgs;
use crate::pipeline::{optimizing, translation};
use crate::source::{CliError, Source};

pub fn run(path: &Path, args: &OptimizeArgs, json: bool) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    let game = translation::to_rg(&source)?.game;
    let before = Size::of(&game);
    let optimized = args.optimize || args.passes.is_some();
    let size = if optimized {
        Size::of(&optimizing::apply(game, args)?)
    } else {
        before
    };
    if json {
        let mut object = serde_json::json!({
            "file": source.name(),
            "language": source.language.name(),
            "optimized": optimized,
            "nodes": size.nodes,
            "edges": size.edges,
            "variables": size.variables,
            "constants": size.constants,
            "state_bits": size.state_bits,
        });
        if optimized {
            object["before"] = serde_json::json!({
                "nodes": before.nodes,
                "edges": before.edges,
                "variables": before.variables,
                "constants": before.constants,
                "state_bits": before.state_bits,
            });
        }
        println!("{object}");
    } else {
        let line = |label: &str, s: &Size| {
            format!(
                "{label}: {} nodes, {} edges, {} variables, {} constants, {} state bits",
                s.nodes, s.edges, s.variables, s.constants, s.state_bits
            )
        };
        println!("{}", line(&source.name(), &before));
        if optimized {
            println!("{}", line("optimized", &size));
        }
    }
    Ok(ExitCode::SUCCESS)
}
