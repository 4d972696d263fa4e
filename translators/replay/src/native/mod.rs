//! The native model of a repeated game (replay.md §6): plays an
//! [`Instance`] round by round as §3.8 describes, as a [`ForwardModel`].
//!
//! It shares nothing with the lowering but the instance: the ply schedule,
//! move texts, noise weights, scales and goal increments are computed here
//! from the definitions, in the most direct way (tests/independence.rs
//! keeps it so).

mod goals;

use rg_core::diag::Diagnostic;
use rg_core::model::{ForwardModel, ModelError, Player};

use crate::instance::{Instance, Seat};
use crate::ratio::gcd;

pub use goals::Payoffs;

/// One non-keeper turn of a round (§6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ply {
    /// A free seat chooses its move.
    Choose(usize),
    /// `random` draws the report of a fixed seat with output noise.
    Report(usize),
    /// `random` draws what seat `.0` observes of seat `.1`.
    Observe(usize, usize),
}

/// A move: a free seat's choice, or a draw (reported value, copy index).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NativeMove {
    Choose(usize),
    Draw(usize, usize),
}

/// Everything §6.2 lists; draw results stay until the same draw happens
/// again, as the RG variables do.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NativeState {
    round: usize,
    step: usize,
    /// True moves.
    actual: Vec<usize>,
    /// Reports (meaningful for seats with output noise).
    reported: Vec<usize>,
    /// `observed[j][k]`: what seat j saw of seat k (input noise).
    observed: Vec<Vec<usize>>,
    /// Machine states of fixed seats (0 for free seats).
    machine: Vec<usize>,
    goals: Vec<i64>,
}

/// Copies per outcome of a draw with error probability ε (§6.3): the true
/// value `ok` times, each wrong value `err` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Copies {
    ok: usize,
    err: usize,
}

pub struct Native {
    game: Instance,
    schedule: Vec<Ply>,
    payoffs: Payoffs,
    /// Per seat: copies of its report draw and of its observation draws.
    report_copies: Vec<Option<Copies>>,
    observe_copies: Vec<Option<Copies>>,
}

fn copies(eps: crate::ratio::Ratio, moves: usize) -> Option<Copies> {
    if eps.num() == 0 || moves < 2 {
        return None;
    }
    let (alpha, beta) = (eps.num(), eps.den());
    let w_ok = (beta - alpha) * (moves as i128 - 1);
    let w_err = alpha;
    let g = gcd(w_ok, w_err).max(1);
    Some(Copies {
        ok: usize::try_from(w_ok / g).unwrap_or(usize::MAX),
        err: usize::try_from(w_err / g).unwrap_or(usize::MAX),
    })
}

impl Native {
    pub fn new(game: &Instance) -> Result<Native, Diagnostic> {
        let n = game.players;
        let mut report_copies = vec![None; n];
        let mut observe_copies = vec![None; n];
        for (k, seat) in game.seats.iter().enumerate() {
            if let Seat::Fixed(machine) = seat {
                report_copies[k] = copies(machine.eps_out, game.moves);
                observe_copies[k] = copies(machine.eps_in, game.moves);
                // A draw lists every copy as a move: refuse what the
                // lowering would refuse too, rather than list billions.
                for (what, c) in [("output", report_copies[k]), ("input", observe_copies[k])] {
                    let Some(c) = c else { continue };
                    let moves = (c.ok as u128)
                        .saturating_add((c.err as u128).saturating_mul(game.moves as u128 - 1));
                    if moves > u128::from(game.max_random_moves) {
                        return Err(Diagnostic::error(
                            format!(
                                "{what} noise of {} needs {moves} random moves (limit {}); use --noise-denominator",
                                machine.name, game.max_random_moves
                            ),
                            machine.span,
                        ));
                    }
                }
            }
        }
        let mut schedule = Vec::new();
        for (k, seat) in game.seats.iter().enumerate() {
            if *seat == Seat::Free {
                schedule.push(Ply::Choose(k));
            }
        }
        for (k, c) in report_copies.iter().enumerate() {
            if c.is_some() {
                schedule.push(Ply::Report(k));
            }
        }
        for (j, c) in observe_copies.iter().enumerate() {
            if c.is_some() {
                for k in (0..n).filter(|&k| k != j) {
                    schedule.push(Ply::Observe(j, k));
                }
            }
        }
        Ok(Native {
            payoffs: Payoffs::new(game)?,
            game: game.clone(),
            schedule,
            report_copies,
            observe_copies,
        })
    }

    /// The schedule's length: plies per round.
    pub fn plies_per_round(&self) -> usize {
        self.schedule.len()
    }

    /// The payoff bookkeeping (scales and offsets) this model uses.
    pub fn payoffs(&self) -> &Payoffs {
        &self.payoffs
    }

    fn has_free_seat(&self) -> bool {
        self.schedule.iter().any(|p| matches!(p, Ply::Choose(_)))
    }

    fn profile_of(&self, moves: &[usize]) -> usize {
        moves.iter().fold(0, |acc, &a| acc * self.game.moves + a)
    }

    fn add_payoffs(&self, s: &mut NativeState) {
        let profile = self.profile_of(&s.actual);
        for (k, g) in s.goals.iter_mut().enumerate() {
            *g += self.payoffs.increment(s.round, profile, k);
        }
    }

    /// Keeper work at a round start: fixed outputs, and the payoffs when
    /// nobody chooses.
    fn start_round(&self, s: &mut NativeState) {
        for (k, seat) in self.game.seats.iter().enumerate() {
            if let Seat::Fixed(m) = seat {
                s.actual[k] = m.outputs[s.machine[k]];
            }
        }
        if !self.has_free_seat() {
            self.add_payoffs(s);
        }
    }

    /// After the last ply: transitions, next round (through rounds
    /// without plies).
    fn end_round(&self, s: &mut NativeState) {
        loop {
            let n = self.game.players;
            let mut next = s.machine.clone();
            for (j, seat) in self.game.seats.iter().enumerate() {
                let Seat::Fixed(m) = seat else { continue };
                // What j saw: its own true move, others as observed,
                // reported or played.
                let seen: Vec<usize> = (0..n)
                    .map(|k| {
                        if k == j {
                            s.actual[j]
                        } else if self.observe_copies[j].is_some() {
                            s.observed[j][k]
                        } else if self.report_copies[k].is_some() {
                            s.reported[k]
                        } else {
                            s.actual[k]
                        }
                    })
                    .collect();
                next[j] = m.next[s.machine[j]][self.profile_of(&seen)];
            }
            s.machine = next;
            s.round += 1;
            s.step = 0;
            if s.round == self.game.rounds {
                return;
            }
            self.start_round(s);
            if !self.schedule.is_empty() {
                return;
            }
        }
    }

    /// The value a draw distorts: the true move for a report; for an
    /// observation, what seat k made public.
    fn true_value(&self, s: &NativeState, ply: Ply) -> usize {
        match ply {
            Ply::Report(k) => s.actual[k],
            Ply::Observe(_, k) if self.report_copies[k].is_some() => s.reported[k],
            Ply::Observe(_, k) => s.actual[k],
            Ply::Choose(k) => s.actual[k],
        }
    }

    fn draw_copies(&self, ply: Ply) -> Copies {
        let c = match ply {
            Ply::Report(k) => self.report_copies[k],
            Ply::Observe(j, _) => self.observe_copies[j],
            Ply::Choose(_) => None,
        };
        c.unwrap_or(Copies { ok: 1, err: 0 })
    }
}

impl ForwardModel for Native {
    type State = NativeState;
    type Move = NativeMove;

    fn player_names(&self) -> Vec<String> {
        (0..self.game.players).map(|k| format!("p{k}")).collect()
    }

    fn initial(&self) -> Result<NativeState, ModelError> {
        let n = self.game.players;
        let mut s = NativeState {
            round: 0,
            step: 0,
            actual: vec![0; n],
            reported: vec![0; n],
            // Rows only for seats with input noise (at most 20 seats can
            // have it: m ≥ 2 and mⁿ ≤ 10⁶).
            observed: (0..n)
                .map(|j| match self.observe_copies[j] {
                    Some(_) => vec![0; n],
                    None => Vec::new(),
                })
                .collect(),
            machine: vec![0; n],
            goals: vec![0; n],
        };
        self.start_round(&mut s);
        if self.schedule.is_empty() {
            self.end_round(&mut s);
        }
        Ok(s)
    }

    fn is_terminal(&self, s: &NativeState) -> bool {
        s.round >= self.game.rounds
    }

    fn current_player(&self, s: &NativeState) -> Player {
        if self.is_terminal(s) {
            return Player::Keeper;
        }
        match self.schedule[s.step] {
            Ply::Choose(k) => Player::Real(k),
            _ => Player::Random,
        }
    }

    fn legal_moves(&self, s: &NativeState, out: &mut Vec<NativeMove>) -> Result<(), ModelError> {
        out.clear();
        if self.is_terminal(s) {
            return Ok(());
        }
        let ply = self.schedule[s.step];
        if let Ply::Choose(_) = ply {
            out.extend((0..self.game.moves).map(NativeMove::Choose));
            return Ok(());
        }
        let truth = self.true_value(s, ply);
        let c = self.draw_copies(ply);
        for w in 0..self.game.moves {
            let count = if w == truth { c.ok } else { c.err };
            out.extend((0..count).map(|i| NativeMove::Draw(w, i)));
        }
        Ok(())
    }

    fn apply(&self, s: &mut NativeState, mv: &NativeMove) -> Result<(), ModelError> {
        if self.is_terminal(s) {
            return Err(ModelError::new("no move in a terminal state"));
        }
        let ply = self.schedule[s.step];
        match (ply, mv) {
            (Ply::Choose(k), &NativeMove::Choose(v)) if v < self.game.moves => {
                s.actual[k] = v;
                let last_choice = !self.schedule[s.step + 1..]
                    .iter()
                    .any(|p| matches!(p, Ply::Choose(_)));
                if last_choice {
                    self.add_payoffs(s);
                }
            }
            (Ply::Report(k), &NativeMove::Draw(w, _)) if w < self.game.moves => s.reported[k] = w,
            (Ply::Observe(j, k), &NativeMove::Draw(w, _)) if w < self.game.moves => {
                s.observed[j][k] = w;
            }
            _ => return Err(ModelError::new(format!("illegal move {mv:?}"))),
        }
        s.step += 1;
        if s.step == self.schedule.len() {
            self.end_round(s);
        }
        Ok(())
    }

    fn goals(&self, s: &NativeState) -> Vec<i64> {
        s.goals.clone()
    }

    fn format_move(&self, mv: &NativeMove) -> String {
        match mv {
            NativeMove::Choose(v) => v.to_string(),
            NativeMove::Draw(w, i) => format!("{w} {i}"),
        }
    }
}
