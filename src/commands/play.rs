//! `rgw play FILE --playouts N`: random playouts (rg.md §7).

use std::path::Path;
use std::process::ExitCode;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rg_core::model::{run_playouts, ForwardModel, Player};

use crate::cli::ModelArgs;
use crate::pipeline::compiled;
use crate::pipeline::models::{
    check_model_options, runtime_error, via, with_model, ModelTask, Via,
};
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
    let report = if via(&source, args)? == Via::Compiled {
        compiled_playouts(&source, args, playouts, seed)?
    } else {
        with_model(
            &source,
            args,
            Playouts {
                source: &source,
                playouts,
                seed,
            },
        )?
    };
    if json {
        println!("{}", report.json(&source.name()));
    } else {
        println!("{}", report.text());
    }
    Ok(ExitCode::SUCCESS)
}

/// Playouts of the compiled reasoner (its own random generator: the same
/// seed picks other moves than the other models do).
fn compiled_playouts(
    source: &Source,
    args: &ModelArgs,
    playouts: u64,
    seed: u64,
) -> Result<Report, CliError> {
    check_model_options(source, args)?;
    let reasoner = compiled::reasoner(source, args)?;
    eprintln!(
        "compiled reasoner: {} in {:.3} s",
        if reasoner.cached { "reused" } else { "built" },
        reasoner.compile_time.as_secs_f64()
    );
    let mut report = None;
    let command = [
        "playouts".to_string(),
        playouts.to_string(),
        seed.to_string(),
    ];
    compiled::run(&reasoner, &command, None, &mut |line| {
        let number = |key: &str| line.get(key).and_then(serde_json::Value::as_u64);
        let players: Vec<String> = line
            .get("players")
            .and_then(serde_json::Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|p| p.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let goal_sums: Vec<i64> = line
            .get("goal_sums")
            .and_then(serde_json::Value::as_array)
            .map(|a| a.iter().filter_map(serde_json::Value::as_i64).collect())
            .unwrap_or_default();
        report = Some(Report {
            players,
            stats: rg_core::model::PlayoutStats {
                playouts: number("playouts").unwrap_or(0),
                seconds: line
                    .get("seconds")
                    .and_then(serde_json::Value::as_f64)
                    .unwrap_or(0.0),
                total_turns: number("moves").unwrap_or(0),
                total_branching: number("branching").unwrap_or(0),
                goal_sums,
            },
            model: "compiled reasoner".to_string(),
        });
    })?;
    report.ok_or_else(|| CliError::Failed("error: the compiled reasoner reported nothing".into()))
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
