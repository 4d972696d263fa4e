//! Options, directives and instance selection (replay.md §5.2, §5.3): the
//! evaluated globals plus the options give an [`Instance`], the only thing
//! the native model and the lowering share.

use rg_core::diag::{Diagnostic, Span};

use crate::eval::Globals;
use crate::lexer::Directive;
use crate::ratio::Ratio;
use crate::value::{StrategyVal, Value};

/// Default limit on the moves of one noise draw (§5.2).
pub const DEFAULT_MAX_RANDOM_MOVES: u64 = 10_000;

/// What to translate: every key of §5.2. `None`/empty means "not given".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub game: Option<String>,
    pub rounds: Option<u64>,
    /// `(seat, global name)`.
    pub fix: Vec<(u64, String)>,
    pub seed: Option<u64>,
    pub scale: Option<u64>,
    pub noise_denominator: Option<u64>,
    pub max_random_moves: Option<u64>,
    pub stop_at_simulation: bool,
}

impl Options {
    /// `self` overrides `base` key by key (command line over directives);
    /// `fix` options replace the directive's list when any is given.
    pub fn over(&self, base: &Options) -> Options {
        Options {
            game: self.game.clone().or_else(|| base.game.clone()),
            rounds: self.rounds.or(base.rounds),
            fix: if self.fix.is_empty() {
                base.fix.clone()
            } else {
                self.fix.clone()
            },
            seed: self.seed.or(base.seed),
            scale: self.scale.or(base.scale),
            noise_denominator: self.noise_denominator.or(base.noise_denominator),
            max_random_moves: self.max_random_moves.or(base.max_random_moves),
            stop_at_simulation: self.stop_at_simulation || base.stop_at_simulation,
        }
    }

    /// Sets one `key=value` (or the flag `stop-at-simulation`); the error
    /// is a message for the caller to place.
    pub fn set(&mut self, key: &str, value: Option<&str>) -> Result<(), String> {
        let number = |v: Option<&str>| -> Result<u64, String> {
            let v = v.ok_or_else(|| format!("{key} needs a value: {key}=…"))?;
            v.parse::<u64>()
                .map_err(|_| format!("{key}={v}: expected a non-negative integer"))
        };
        match key {
            "game" => {
                self.game = Some(
                    value
                        .filter(|v| !v.is_empty())
                        .ok_or("game needs a name: game=NAME")?
                        .to_string(),
                );
            }
            "rounds" => self.rounds = Some(number(value)?),
            "seed" => self.seed = Some(number(value)?),
            "scale" => self.scale = Some(number(value)?),
            "noise-denominator" => self.noise_denominator = Some(number(value)?),
            "max-random-moves" => self.max_random_moves = Some(number(value)?),
            "fix" => {
                let v = value.ok_or("fix needs SEAT:NAME")?;
                let (seat, name) = v
                    .split_once(':')
                    .ok_or_else(|| format!("fix={v}: expected SEAT:NAME"))?;
                let seat = seat
                    .parse::<u64>()
                    .map_err(|_| format!("fix={v}: the seat must be a number from 0"))?;
                if name.is_empty() {
                    return Err(format!("fix={v}: expected SEAT:NAME"));
                }
                self.fix.push((seat, name.to_string()));
            }
            "stop-at-simulation" => match value {
                None | Some("true") => self.stop_at_simulation = true,
                Some("false") => self.stop_at_simulation = false,
                Some(v) => return Err(format!("stop-at-simulation={v}: expected true or false")),
            },
            _ => {
                return Err(format!(
                    "unknown directive key \"{key}\" (known: game, rounds, fix, seed, scale, \
                     noise-denominator, max-random-moves, stop-at-simulation)"
                ))
            }
        }
        Ok(())
    }

    /// The options of the `/*@rgw … */` comments of a file.
    pub fn from_directives(directives: &[Directive]) -> Result<Options, Vec<Diagnostic>> {
        let mut options = Options::default();
        let mut errors = Vec::new();
        for d in directives {
            for word in d.text.split_whitespace() {
                let (key, value) = match word.split_once('=') {
                    Some((k, v)) => (k, Some(v)),
                    None => (word, None),
                };
                if let Err(message) = options.set(key, value) {
                    errors.push(Diagnostic::error(message, d.span));
                }
            }
        }
        if errors.is_empty() {
            Ok(options)
        } else {
            Err(errors)
        }
    }
}

/// The selected repeated game (§5.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub moves: usize,
    pub players: usize,
    /// `payoffs[profile][seat]`, profiles numbered with seat 0 most
    /// significant.
    pub payoffs: Vec<Vec<i64>>,
    pub rounds: usize,
    pub seats: Vec<Seat>,
    /// `--scale`: the scale of every discounted seat.
    pub scale: Option<u64>,
    pub max_random_moves: u64,
    /// Where the game is declared (for diagnostics of the models).
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Free,
    Fixed(Machine),
}

/// A fixed seat's Moore machine with its player parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    pub name: String,
    /// `outputs[state]`.
    pub outputs: Vec<usize>,
    /// `next[state][profile]` over every profile of the game.
    pub next: Vec<Vec<usize>>,
    pub delta: Ratio,
    pub eps_out: Ratio,
    pub eps_in: Ratio,
    pub span: Span,
}

impl Instance {
    pub fn profiles(&self) -> usize {
        self.payoffs.len()
    }
}

/// Looks up `NAME` or `NAME[i]` among the globals.
fn global(globals: &Globals, text: &str, span: Span) -> Result<(Value, Span), Diagnostic> {
    let (name, index) = match text.split_once('[') {
        Some((name, rest)) => {
            let i = rest
                .strip_suffix(']')
                .and_then(|i| i.parse::<usize>().ok())
                .ok_or_else(|| {
                    Diagnostic::error(format!("\"{text}\" is not NAME or NAME[index]"), span)
                })?;
            (name, Some(i))
        }
        None => (text, None),
    };
    let Some((_, value, at)) = globals.get(name) else {
        return Err(Diagnostic::error(format!("no global named {name}"), span));
    };
    match index {
        None => Ok((value.clone(), *at)),
        Some(i) => {
            let Value::Array(a) = value else {
                return Err(Diagnostic::error(
                    format!("{name} is {}, not an array", value.ty()),
                    span,
                ));
            };
            let a = a.borrow();
            match a.items.get(i) {
                Some(v) => Ok((v.clone(), *at)),
                None => Err(Diagnostic::error(
                    format!(
                        "index {i} out of bounds for {name}, an array of length {}",
                        a.items.len()
                    ),
                    span,
                )),
            }
        }
    }
}

/// Builds the instance from the evaluated globals; `span` locates
/// problems of the options themselves (the file start or the directive).
pub fn select(
    globals: &Globals,
    options: &Options,
    span: Span,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Instance, Vec<Diagnostic>> {
    let (game, game_span, label) = match &options.game {
        Some(name) => {
            let (v, s) = global(globals, name, span).map_err(|d| vec![d])?;
            (v, s, name.clone())
        }
        None => {
            let games: Vec<&(String, Value, Span)> = globals
                .values
                .iter()
                .filter(|(_, v, _)| matches!(v, Value::Game(_)))
                .collect();
            match games.as_slice() {
                [(name, v, s)] => (v.clone(), *s, name.clone()),
                [] => {
                    return Err(vec![Diagnostic::error(
                        "no Game global to translate: declare one (Game g = Game[…];) or choose an array element with --game NAME[i]",
                        span,
                    )])
                }
                several => {
                    let names: Vec<&str> = several.iter().map(|(n, _, _)| n.as_str()).collect();
                    return Err(vec![Diagnostic::error(
                        format!(
                            "several Game globals ({}): choose one with --game",
                            names.join(", ")
                        ),
                        span,
                    )]);
                }
            }
        }
    };
    let game = match game {
        Value::Game(Some(g)) => g,
        Value::Game(None) => {
            return Err(vec![Diagnostic::error(
                format!("the Game {label} is null (declared without a value)"),
                game_span,
            )])
        }
        other => {
            return Err(vec![Diagnostic::error(
                format!("{label} is {}, not a Game", other.ty()),
                span,
            )])
        }
    };
    let game = game.borrow().clone();
    let rounds = match options.rounds {
        None => {
            return Err(vec![Diagnostic::error(
                "the number of rounds is not set (--rounds or /*@rgw rounds=… */)",
                span,
            )])
        }
        Some(0) => {
            return Err(vec![Diagnostic::error(
                "the number of rounds must be at least 1",
                span,
            )])
        }
        Some(r) => r,
    };
    let (m, n) = (game.moves, game.players);
    let profiles = game.payoffs.len();
    if (rounds as u128) * (profiles as u128) > 1_000_000 {
        return Err(vec![Diagnostic::error(
            format!("{rounds} rounds of {profiles} profiles exceed the limit R·mⁿ ≤ 1000000"),
            span,
        )]);
    }
    // Not in the reference: with one move, mⁿ = 1 bounds nothing, yet the
    // translation has a reveal edge per seat and round.
    if (rounds as u128) * (n as u128) > 1_000_000 {
        return Err(vec![Diagnostic::error(
            format!("{rounds} rounds of {n} players exceed the limit R·n ≤ 1000000"),
            span,
        )]);
    }
    let mut seats = vec![Seat::Free; n];
    let mut errors = Vec::new();
    for (seat, name) in &options.fix {
        match fixed_seat(globals, name, *seat, m, n, options, span, warnings) {
            Ok(machine) => {
                let s = *seat as usize;
                if matches!(seats[s], Seat::Fixed(_)) {
                    errors.push(Diagnostic::error(
                        format!("seat {seat} is fixed twice"),
                        span,
                    ));
                } else {
                    seats[s] = Seat::Fixed(machine);
                }
            }
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Instance {
        moves: m,
        players: n,
        payoffs: game.payoffs,
        rounds: rounds as usize,
        seats,
        scale: options.scale,
        max_random_moves: options.max_random_moves.unwrap_or(DEFAULT_MAX_RANDOM_MOVES),
        span: game_span,
    })
}

#[allow(clippy::too_many_arguments)]
fn fixed_seat(
    globals: &Globals,
    name: &str,
    seat: u64,
    m: usize,
    n: usize,
    options: &Options,
    span: Span,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Machine, Diagnostic> {
    if seat >= n as u64 {
        return Err(Diagnostic::error(
            format!(
                "seat {seat} does not exist: the game has {n} players (seats 0 … {})",
                n - 1
            ),
            span,
        ));
    }
    let (value, at) = global(globals, name, span)?;
    let (strategy, delta, eps_out, eps_in): (StrategyVal, f64, f64, f64) = match value {
        Value::Player(Some(p)) => {
            let p = p.borrow();
            let s = p.strategy.borrow().clone();
            (s, p.delta, p.output, p.input)
        }
        Value::Strategy(Some(s)) => (s.borrow().clone(), 1.0, 0.0, 0.0),
        Value::Player(None) | Value::Strategy(None) => {
            return Err(Diagnostic::error(
                format!("{name} is null (declared without a value)"),
                at,
            ))
        }
        other => {
            return Err(Diagnostic::error(
                format!(
                    "{name} is {}; --fix needs a Player or a Strategy",
                    other.ty()
                ),
                span,
            ))
        }
    };
    if strategy.moves != m {
        return Err(Diagnostic::error(
            format!("{name} has {} moves, the game has {m}", strategy.moves),
            at,
        ));
    }
    if let Some(a) = strategy.arity {
        if a != n {
            return Err(Diagnostic::error(
                format!("{name}'s transitions have {a} entries, the game has {n} players"),
                at,
            ));
        }
    }
    let mut probability = |what: &str, x: f64| -> Result<Ratio, Diagnostic> {
        if !(0.0..=1.0).contains(&x) {
            return Err(Diagnostic::error(
                format!("{what} of {name} is {x}; rgw needs 0 ≤ {what} ≤ 1"),
                at,
            ));
        }
        let exact = Ratio::from_f64(x).map_err(|_| {
            Diagnostic::error(
                format!("{what} of {name} ({x}) has no exact fraction within 128 bits"),
                at,
            )
        })?;
        if what == "delta" || exact == Ratio::ZERO {
            return Ok(exact);
        }
        if m == 1 {
            warnings.push(Diagnostic::warning(
                format!("{what} of {name} has no effect: with 1 move there is no wrong move"),
                at,
            ));
        }
        let Some(den) = options.noise_denominator.filter(|d| *d > 0) else {
            return Ok(exact);
        };
        // The nearest multiple of 1/den.
        let den = den as i128;
        let rounded = exact
            .checked_mul(Ratio::int(den))
            .map(|x| Ratio::new(x.round(), den))
            .and_then(|x| x)
            .map_err(|_| {
                Diagnostic::error(format!("{what} of {name}: noise denominator too large"), at)
            })?;
        if rounded != exact {
            warnings.push(Diagnostic::warning(
                format!(
                    "{what} of {name} ({x}) is rounded to {} (--noise-denominator)",
                    rounded.decimal()
                ),
                at,
            ));
        }
        Ok(rounded)
    };
    let delta = probability("delta", delta)?;
    let eps_out = probability("output noise", eps_out)?;
    let eps_in = probability("input noise", eps_in)?;
    let profiles = crate::value::pow(m, n).unwrap_or(0);
    let next = (0..strategy.size())
        .map(|q| (0..profiles).map(|p| strategy.successor(q, p)).collect())
        .collect();
    Ok(Machine {
        name: name.to_string(),
        outputs: strategy.outputs,
        next,
        delta,
        eps_out,
        eps_in,
        span: at,
    })
}
