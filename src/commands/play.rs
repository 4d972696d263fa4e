//! `rgw play FILE --playouts N`: random playouts (rg.md §7).

use std::path::Path;
use std::process::ExitCode;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rg_core::model::{run_playouts, ForwardModel, Player};

use crate::cli::ModelArgs;
use crate::pipeline::models::{runtime_error, with_model, ModelTask};
use crate::source::{CliError, Source};

/// Moves allowed in one playout before it is declared endless.
const MAX_PLAYOUT_MOVES: u64 = 10_000_000;

pub fn run(
    path: &Path,
    playouts: u64,
    seed: u64,
    json: bool,
    log: bool,
    args: &ModelArgs,
) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    if log {
        let lines = with_model(
            &source,
            args,
            LogOne {
                source: &source,
                seed,
            },
        )?;
        for line in lines {
            println!("{line}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let report = with_model(
        &source,
        args,
        Playouts {
            source: &source,
            playouts,
            seed,
        },
    )?;
    if json {
        println!("{}", report.json(&source.name()));
    } else {
        println!("{}", report.text());
    }
    Ok(ExitCode::SUCCESS)
}

struct Playouts<'a> {
    source: &'a Source,
    playouts: u64,
    seed: u64,
}

struct Report {
    players: Vec<String>,
    stats: rg_core::model::PlayoutStats,
    model: String,
}

impl Report {
    fn text(&self) -> String {
        let s = &self.stats;
        let mut out = format!(
            "{} playouts in {:.3} s with the {} ({:.1} playouts/s)\naverage length: {:.2} turns, average branching: {:.2}\naverage goals:",
            s.playouts,
            s.seconds,
            self.model,
            s.playouts_per_second(),
            s.average_length(),
            s.average_branching()
        );
        for (player, goal) in self.players.iter().zip(s.average_goals()) {
            out.push_str(&format!(" {player} {goal:.2}"));
        }
        out
    }

    fn json(&self, file: &str) -> serde_json::Value {
        let s = &self.stats;
        let goals: serde_json::Map<String, serde_json::Value> = self
            .players
            .iter()
            .zip(s.average_goals())
            .map(|(p, g)| (p.clone(), serde_json::json!(g)))
            .collect();
        serde_json::json!({
            "file": file,
            "model": self.model,
            "playouts": s.playouts,
            "seconds": s.seconds,
            "playouts_per_second": s.playouts_per_second(),
            "average_length": s.average_length(),
            "average_branching": s.average_branching(),
            "average_goals": goals,
        })
    }
}

impl ModelTask for Playouts<'_> {
    type Output = Report;

    fn run<M: ForwardModel>(self, model: &M, description: &str) -> Result<Report, CliError> {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let stats = run_playouts(model, self.playouts, &mut rng, MAX_PLAYOUT_MOVES)
            .map_err(|e| runtime_error(self.source, e))?;
        Ok(Report {
            players: model.player_names(),
            stats,
            model: description.to_string(),
        })
    }
}

/// One playout, move by move.
struct LogOne<'a> {
    source: &'a Source,
    seed: u64,
}

impl ModelTask for LogOne<'_> {
    type Output = Vec<String>;

    fn run<M: ForwardModel>(self, model: &M, _: &str) -> Result<Vec<String>, CliError> {
        let fail = |e| runtime_error(self.source, e);
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let names = model.player_names();
        let mut state = model.initial().map_err(fail)?;
        let mut lines = Vec::new();
        let mut moves = Vec::new();
        for turn in 1..=MAX_PLAYOUT_MOVES {
            model.legal_moves(&state, &mut moves).map_err(fail)?;
            if moves.is_empty() {
                let goals = model.goals(&state);
                let outcome: Vec<String> = names
                    .iter()
                    .zip(goals)
                    .map(|(n, g)| format!("{n} {g}"))
                    .collect();
                lines.push(format!("game over: {}", outcome.join(", ")));
                return Ok(lines);
            }
            let chosen = moves[rng.gen_range(0..moves.len())].clone();
            let who = match model.current_player(&state) {
                Player::Real(k) => names[k].clone(),
                Player::Keeper => "keeper".to_string(),
                Player::Random => "random".to_string(),
            };
            lines.push(format!(
                "{turn}. {who}: {} ({} legal)",
                model.format_move(&chosen),
                moves.len()
            ));
            model.apply(&mut state, &chosen).map_err(fail)?;
        }
        Err(fail(rg_core::model::ModelError::new(
            "the playout did not end",
        )))
    }
}
