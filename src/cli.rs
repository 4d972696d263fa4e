//! Command-line arguments (clap).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "rgw",
    version,
    about = "Translate RBG, GDL, HRG and replay games to Regular Games (RG) and verify the translations",
    long_about = "rgw reads game descriptions in Regular Games (.rg), Regular Boardgames (.rbg), \
                  GDL/KIF (.kif, .gdl), High-level Regular Games (.hrg), the early \
                  Regular Boardgames draft (.rbgd) and replay (.replay), chosen by file extension. Exit codes: 0 success, 1 invalid input or failed check, 2 usage error."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub replay: ReplayArgs,
}

/// Options of .replay files (docs/replay.md): which game, how many rounds,
/// which seats are fixed. They override the file's `/*@rgw … */`
/// directives and apply to every command that reads a .replay file.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ReplayArgs {
    /// replay: the Game to translate, a global `NAME` or `NAME[i]`
    /// (default: the only global Game).
    #[arg(
        long,
        global = true,
        value_name = "NAME",
        help_heading = "replay options"
    )]
    pub game: Option<String>,
    /// replay: the number of rounds (required here or in the file).
    #[arg(long, global = true, value_name = "R", help_heading = "replay options")]
    pub rounds: Option<u64>,
    /// replay: fix seat SEAT (from 0) to the global Player or Strategy NAME;
    /// repeatable; replaces the file's fix directives.
    #[arg(
        long,
        global = true,
        value_name = "SEAT:NAME",
        help_heading = "replay options"
    )]
    pub fix: Vec<String>,
    /// replay: seed of `rand` (default 0; `play` has its own --seed).
    #[arg(long, global = true, value_name = "N", help_heading = "replay options")]
    pub rand_seed: Option<u64>,
    /// replay: payoff scale of discounted seats (default: chosen exactly, at most 100).
    #[arg(long, global = true, value_name = "S", help_heading = "replay options")]
    pub scale: Option<u64>,
    /// replay: round every noise probability to a multiple of 1/N.
    #[arg(long, global = true, value_name = "N", help_heading = "replay options")]
    pub noise_denominator: Option<u64>,
    /// replay: the most moves one noise draw may have (default 10000).
    #[arg(long, global = true, value_name = "N", help_heading = "replay options")]
    pub max_random_moves: Option<u64>,
    /// replay: end evaluation at the first simulation statement (%, ~, #)
    /// instead of failing.
    #[arg(long, global = true, help_heading = "replay options")]
    pub stop_at_simulation: bool,
    /// replay: `check` prints what the program's print/println wrote.
    #[arg(long, global = true, help_heading = "replay options")]
    pub echo: bool,
}

impl ReplayArgs {
    /// The options, or a usage error for a malformed `--fix`; and the
    /// first option given (replay options apply to .replay files only).
    pub fn options(&self) -> Result<(replay::Options, Option<&'static str>), String> {
        let mut o = replay::Options {
            game: self.game.clone(),
            rounds: self.rounds,
            seed: self.rand_seed,
            scale: self.scale,
            noise_denominator: self.noise_denominator,
            max_random_moves: self.max_random_moves,
            stop_at_simulation: self.stop_at_simulation,
            ..replay::Options::default()
        };
        for fix in &self.fix {
            o.set("fix", Some(fix)).map_err(|e| format!("--{e}"))?;
        }
        let given = [
            ("--game", self.game.is_some()),
            ("--rounds", self.rounds.is_some()),
            ("--fix", !self.fix.is_empty()),
            ("--rand-seed", self.rand_seed.is_some()),
            ("--scale", self.scale.is_some()),
            ("--noise-denominator", self.noise_denominator.is_some()),
            ("--max-random-moves", self.max_random_moves.is_some()),
            ("--stop-at-simulation", self.stop_at_simulation),
            ("--echo", self.echo),
        ]
        .into_iter()
        .find(|(_, g)| *g)
        .map(|(name, _)| name);
        Ok((o, given))
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check a game statically; print its diagnostics, or a one-line summary.
    Check {
        /// The game file.
        file: PathBuf,
    },
    /// Print the legal moves of the initial state (after keeper moves), one per line.
    Moves {
        /// The game file.
        file: PathBuf,
        #[command(flatten)]
        model: ModelArgs,
        /// GDL: the joint moves of the first step (one action per role on
        /// each line) instead of the sequential per-role moves.
        #[arg(long)]
        joint: bool,
    },
    /// Count the game tree's leaves at every depth up to DEPTH (rg.md §6).
    Perft {
        /// The game file.
        file: PathBuf,
        /// The deepest depth.
        depth: u32,
        #[command(flatten)]
        model: ModelArgs,
        /// Print one JSON object {"file", "perft": [...], "seconds": [...],
        /// "complete"} (and "stopped": the reason, when a limit cut it short).
        #[arg(long)]
        json: bool,
        /// Stop after this many seconds, reporting the depths completed.
        #[arg(long, value_name = "SECS", value_parser = positive_seconds)]
        time_limit: Option<Duration>,
        /// GDL: classic joint-move perft (one step of all roles per depth)
        /// instead of the sequential per-role moves of the RG translation.
        #[arg(long)]
        joint: bool,
        /// Threads that count subtrees, each with its own instance of the
        /// model (default: the machine's cores; 1 counts on one thread).
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Print the count at DEPTH below each first move (in the order
        /// the model generates them) and the total, instead of every depth.
        #[arg(long)]
        divide: bool,
        /// Check the counts against a perft table (corpus format: game,
        /// depth, count); exit 1 when one differs or the game has no row.
        #[arg(long, value_name = "TABLE", conflicts_with = "divide")]
        expected: Option<PathBuf>,
    },
    /// Run random playouts and report their speed and outcomes.
    Play {
        /// The game file.
        file: PathBuf,
        /// Number of playouts.
        #[arg(long, default_value_t = 1000)]
        playouts: u64,
        /// Seed of the random generator (a fixed seed gives repeatable runs).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Print one playout move by move, with what each player sees.
        #[arg(long)]
        log: bool,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Translate a game to RG (checked) and print it or write it to a file.
    Translate {
        /// The game file (.hrg, .rbg, .kif, .gdl; .rg is printed canonically).
        file: PathBuf,
        /// Write the RG here instead of printing it.
        #[arg(short, long, value_name = "OUT.rg")]
        output: Option<PathBuf>,
        #[command(flatten)]
        optimize: OptimizeArgs,
        #[command(flatten)]
        grounding: GroundingArgs,
        /// Stop GDL grounding after this many seconds (default 60).
        #[arg(long, value_name = "SECS", value_parser = positive_seconds)]
        time_limit: Option<Duration>,
        /// Write the RG after every optimization pass that changed something
        /// (numbered files) and a summary of each pass's effect into DIR;
        /// implies --optimize.
        #[arg(long, value_name = "DIR")]
        trace: Option<PathBuf>,
    },
    /// Write a Rust crate with the game's forward model compiled (its RG
    /// after the default optimizer): a library and a perft/playouts binary.
    Compile {
        /// The game file (any supported language).
        file: PathBuf,
        /// The crate's directory (created if missing).
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
        /// Optimize with exactly these passes instead of the default
        /// pipeline, comma separated (`--passes ""`: none).
        #[arg(long, value_name = "A,B,C")]
        passes: Option<String>,
        /// Also build the crate (cargo build --release, into DIR/target).
        #[arg(long)]
        build: bool,
    },
    /// Print the size of a game (translated, and optimized with --optimize).
    Stats {
        /// The game file.
        file: PathBuf,
        #[command(flatten)]
        optimize: OptimizeArgs,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Export the rules automaton as a Graphviz DOT graph.
    Dot {
        /// The game file.
        file: PathBuf,
        /// Write the graph here instead of printing it.
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Render SVG with Graphviz's `dot` (must be installed).
        #[arg(long)]
        svg: bool,
        #[command(flatten)]
        optimize: OptimizeArgs,
    },
    /// Translate every game below DIR to RG, optionally verify each, and report.
    Convert {
        /// The library: every .rbg, .kif, .gdl and .hrg file below it.
        dir: PathBuf,
        /// Where the .rg files (same relative paths) and the reports go.
        #[arg(short, long, value_name = "OUTDIR")]
        output: PathBuf,
        /// Verify each translation by differential perft up to this depth
        /// (the deepest depth reached within the time limit is reported).
        #[arg(long, value_name = "D")]
        verify_depth: Option<u32>,
        /// Time allowed per game for translation (GDL grounding included),
        /// and again for verification, in seconds; a worker still busy
        /// a few seconds after it is stopped.
        #[arg(long, value_name = "SECS", value_parser = positive_seconds, default_value = "60")]
        time_limit: Duration,
        /// Memory cap of each game's worker process, in MB (its address
        /// space; default: half of the machine's memory).
        #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
        memory_limit: Option<u64>,
        /// Games converted in parallel (default: the number of CPUs).
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
        /// Compare every translation with a previous run's output directory;
        /// exit 1 when anything changed.
        #[arg(long, value_name = "PREVIOUS_OUTDIR")]
        against: Option<PathBuf>,
        /// With --against: accept this run's output as the new snapshot.
        #[arg(long)]
        bless: bool,
        /// Check each verified game's perft against a table (corpus
        /// format); a game whose counts differ is a mismatch.
        #[arg(long, value_name = "TABLE")]
        expected: Option<PathBuf>,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// List the RG optimization passes.
    Passes,
    /// Measure games: translation and optimization time, RG size before and
    /// after optimization, perft and playout speed of the native model, the
    /// RG translation and the optimized RG. Prints Markdown (or JSON).
    Bench(BenchArgs),
    /// Compare a game's models by perft depth by depth: native vs RG
    /// translation (RBG, draft RBG, HRG, GDL; GDL also vs propnet), or RG vs optimized RG.
    Verify {
        /// The game file.
        file: PathBuf,
        /// The deepest depth compared.
        #[arg(long, value_name = "D")]
        depth: u32,
        /// Stop after this many seconds per comparison, saying how deep it got.
        #[arg(long, value_name = "SECS", value_parser = positive_seconds)]
        time_limit: Option<Duration>,
        /// Compare FILE with another game file (any language) instead of
        /// FILE's own models: each runs on its default model.
        #[arg(long, value_name = "OTHER")]
        against: Option<PathBuf>,
        /// Also check the agreed counts against a perft table (corpus
        /// format: game, depth, count).
        #[arg(long, value_name = "TABLE")]
        expected: Option<PathBuf>,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Internal: convert one game in a worker process of `rgw convert`.
    #[command(name = "__convert-one", hide = true)]
    ConvertOne {
        file: PathBuf,
        #[arg(long)]
        library: PathBuf,
        #[arg(short, long)]
        output: PathBuf,
        #[arg(long)]
        output_name: PathBuf,
        #[arg(long)]
        verify_depth: Option<u32>,
        #[arg(long, value_parser = positive_seconds)]
        time_limit: Duration,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Print the low-level RBG that a (high-level) RBG file expands to.
    Preprocess {
        /// The .rbg file.
        file: PathBuf,
    },
    /// Print an RG file in canonical form, its comments kept (to stdout
    /// unless --write).
    Fmt {
        /// The RG file.
        file: PathBuf,
        /// Only report whether the file is canonical (exit 1 if it would change).
        #[arg(long, conflicts_with = "write")]
        check: bool,
        /// Rewrite the file in place instead of printing it.
        #[arg(long)]
        write: bool,
    },
}

/// Options selecting and configuring the model that runs a game.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ModelArgs {
    /// Which model runs the game: the language's native model (default), or
    /// `rg` for its RG translation (or `propnet` for GDL).
    #[arg(long, value_name = "MODEL")]
    pub via: Option<String>,
    /// Show keeper states (RG engine only): perft then follows rg.md §6
    /// literally instead of applying keeper moves automatically.
    #[arg(long)]
    pub expose_keeper: bool,
    /// RG engine: read keys outside a map's key type as the map's default
    /// instead of failing (for improper descriptions; writes stay strict).
    #[arg(long)]
    pub lenient: bool,
    /// RG engine: apply the first keeper walk found instead of searching
    /// every keeper walk to check that the keeper's move is unique (RBG's
    /// rule; always on for .rbg files run through their translation).
    #[arg(long)]
    pub first_keeper_walk: bool,
    #[command(flatten)]
    pub optimize: OptimizeArgs,
    #[command(flatten)]
    pub grounding: GroundingArgs,
}

/// Limits of GDL grounding (the RG translation and the propnet model).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct GroundingArgs {
    /// GDL: the most ground atoms grounding may produce (default
    /// 3,000,000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub grounding_atoms: Option<u64>,
    /// GDL: the most ground rule instances grounding may produce (default
    /// 3,000,000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub grounding_rules: Option<u64>,
}

impl GroundingArgs {
    pub fn given(&self) -> Option<&'static str> {
        if self.grounding_atoms.is_some() {
            Some("--grounding-atoms")
        } else if self.grounding_rules.is_some() {
            Some("--grounding-rules")
        } else {
            None
        }
    }
}

/// Options running the RG optimizer on a game before using it.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct OptimizeArgs {
    /// Optimize the RG game (the default pipeline of rg.md §9) first.
    #[arg(long)]
    pub optimize: bool,
    /// Optimize with exactly these passes, comma separated (`--passes help`
    /// lists them); implies --optimize.
    #[arg(long, value_name = "A,B,C")]
    pub passes: Option<String>,
}

/// What `rgw bench` measures and how.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Game files, or directories (every game file below them).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Time per measurement: the perft depth is the deepest the RG
    /// engine completes within it; playouts run about this long.
    #[arg(long, value_name = "SECS", default_value_t = 2.0)]
    pub seconds: f64,
    /// Deepest perft depth tried.
    #[arg(long, value_name = "D", default_value_t = 12)]
    pub max_depth: u32,
    /// Do not measure the native model (RBG interpreter, GDL reasoner).
    #[arg(long)]
    pub no_native: bool,
    /// RG engine: read keys outside a map's key type as the map's default.
    #[arg(long)]
    pub lenient: bool,
    /// Also measure this model: `compiled` (the compiled RG reasoner of
    /// `--via compiled`, built into its cache; build time reported apart).
    #[arg(long, value_name = "MODEL")]
    pub via: Option<String>,
    /// Print JSON ({"games": [...]}) instead of Markdown.
    #[arg(long)]
    pub json: bool,
    /// Write the report here instead of printing it.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Parses `--time-limit SECS`: a positive, finite number of seconds (the
/// one rule every command's time limit follows).
fn positive_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>().map(Duration::try_from_secs_f64) {
        Ok(Ok(limit)) if !limit.is_zero() => Ok(limit),
        _ => Err(format!("must be a positive number of seconds, not {text}")),
    }
}
