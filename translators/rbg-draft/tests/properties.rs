//! Random small draft games: the native interpreter and the RG translation
//! agree on perft up to depth 3. Games are generated as source text, so
//! the parser and checker run too; a generated game the checker rejects
//! (e.g. a level that accepts the empty word) or the interpreter reports
//! as improper (endless semimoves) is skipped, not counted.

use proptest::prelude::*;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};

/// A small deterministic generator (xorshift), driven by proptest's seed.
struct Gen(u64);

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const PIECES: [&str; 3] = ["e", "a", "b"];
const PLAYERS: [&str; 2] = ["p", "q"];

fn pieces(g: &mut Gen) -> String {
    match g.below(4) {
        0 => "{}".to_string(),
        1 => format!("{{{},{}}}", g.pick(&PIECES), g.pick(&PIECES)),
        _ => g.pick(&PIECES).to_string(),
    }
}

fn step(g: &mut Gen, writes: bool) -> String {
    let on = if g.chance(60) { Some(pieces(g)) } else { None };
    let off = if writes && g.chance(50) {
        Some(pieces(g))
    } else {
        None
    };
    let cond = match (on, off) {
        (Some(on), Some(off)) => format!("{on}/{off}"),
        (Some(on), None) => on,
        (None, Some(off)) => format!("/{off}"),
        (None, None) => String::new(),
    };
    if g.chance(50) || cond.is_empty() {
        let dx = g.below(3) as i64 - 1;
        let dy = g.below(3) as i64 - 1;
        let sign = |v: i64| {
            if v < 0 {
                format!("-{}", -v)
            } else {
                v.to_string()
            }
        };
        if cond.is_empty() {
            format!("({},{})", sign(dx), sign(dy))
        } else {
            format!("({},{},{cond})", sign(dx), sign(dy))
        }
    } else {
        format!("({cond})")
    }
}

/// A marker-free expression of bounded depth.
fn expr(g: &mut Gen, depth: u32, writes: bool) -> String {
    if depth == 0 {
        return step(g, writes);
    }
    match g.below(6) {
        0 => format!(
            "({} + {})",
            expr(g, depth - 1, writes),
            expr(g, depth - 1, writes)
        ),
        1 => format!(
            "{}{}",
            expr(g, depth - 1, writes),
            expr(g, depth - 1, writes)
        ),
        2 => format!("({})^*", expr(g, depth - 1, writes)),
        3 => format!("({})^2", expr(g, depth - 1, writes)),
        _ => step(g, writes),
    }
}

fn marker(g: &mut Gen) -> String {
    match g.below(4) {
        0 => "[1]".to_string(),
        1 => "[0]".to_string(),
        _ => format!("[{}]", g.pick(&PLAYERS)),
    }
}

/// A priority level: words, most ending with a marker.
fn level(g: &mut Gen) -> String {
    let words = 1 + g.below(2);
    (0..words)
        .map(|_| {
            let body = expr(g, 2, true);
            if g.chance(80) {
                format!("{body}{}", marker(g))
            } else {
                body
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

fn formula(g: &mut Gen, depth: u32) -> String {
    let atom = |g: &mut Gen| match g.below(5) {
        0 => format!("@ {} {} 0", g.pick(&PIECES), g.below(2)),
        1 => format!(
            "${} {} {}",
            g.pick(&PIECES),
            g.pick(&["<", ">=", "==", "!="]),
            g.below(4)
        ),
        2 => format!("move({})", expr(g, 1, false)),
        3 => format!("$turn {} ${}", g.pick(&["<", ">"]), g.pick(&PIECES)),
        _ => format!("$turn >= {}", 2 + g.below(4)),
    };
    if depth == 0 {
        return atom(g);
    }
    match g.below(4) {
        0 => format!("({} or {})", formula(g, depth - 1), formula(g, depth - 1)),
        1 => format!("({} and {})", formula(g, depth - 1), formula(g, depth - 1)),
        2 => format!("not {}", formula(g, depth - 1)),
        _ => atom(g),
    }
}

fn game(seed: u64) -> String {
    let mut g = Gen(seed | 1);
    let (w, h) = (1 + g.below(3), 1 + g.below(2));
    let board: Vec<&str> = (0..w * h).map(|_| g.pick(&PIECES)).collect();
    let mut text = format!(
        "#game \"random\"\n#board {w} {h} {}\n#order p q\n",
        board.join(" ")
    );
    for player in PLAYERS {
        let levels = 1 + g.below(2);
        let body: Vec<String> = (0..levels).map(|_| level(&mut g)).collect();
        text.push_str(&format!("#player {player} {}\n", body.join(" +> ")));
    }
    for player in PLAYERS {
        let score = g.below(3);
        text.push_str(&format!("#goal {player} {score} {}\n", formula(&mut g, 2)));
    }
    text
}

fn series<M: ForwardModel>(model: &M, depth: u32) -> Result<Vec<u64>, String> {
    let state = model.initial().map_err(|e| e.to_string())?;
    (0..=depth)
        .map(|d| perft(model, &state, d, &mut Budget::unlimited()).map_err(|e| format!("{e:?}")))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn native_and_rg_perft_agree(seed in any::<u64>()) {
        let text = game(seed);
        let Ok(checked) = rbg_draft::parse_and_check(&text) else {
            return Ok(());
        };
        let Ok(native) = series(&rbg_draft::Interpreter::new(&checked.game), 3) else {
            return Ok(());
        };
        let translation = rbg_draft::translate(&text)
            .map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        let engine = Engine::new(&translation.game, EngineOptions::default())
            .map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        let rg = series(&engine, 3).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(native, rg, "{}", text);
    }
}

/// The generator must produce mostly valid, proper games, or the property
/// above would pass vacuously.
#[test]
fn generator_yields_checked_games() {
    let mut valid = 0;
    let mut played = 0;
    for seed in 1..200u64 {
        let text = game(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        if let Ok(checked) = rbg_draft::parse_and_check(&text) {
            valid += 1;
            if series(&rbg_draft::Interpreter::new(&checked.game), 2).is_ok_and(|s| s[1] > 0) {
                played += 1;
            }
        }
    }
    assert!(
        valid >= 100,
        "only {valid} of 199 generated games pass the checker"
    );
    assert!(played >= 50, "only {played} generated games have moves");
}

/// Token soup: the front end never panics, whatever the input; what it
/// accepts also translates and runs without panicking.
const TOKENS: [&str; 40] = [
    "#def", "#game", "#board", "#player", "#order", "#goal", "#", "p", "q", "e", "a", "M", "x",
    "(", ")", "{", "}", "[", "]", "~", "^", "*", ",", "/", "+", "-", "+>", "$", "@", "turn", "and",
    "or", "not", "move", "=", "<", "1", "2", "0", "\"s\"",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn token_soup_never_panics(picks in proptest::collection::vec(0usize..TOKENS.len(), 0..60)) {
        let text: Vec<&str> = picks.iter().map(|&k| TOKENS[k]).collect();
        let text = format!(
            "#game g\n#board 2 1 e a\n#order p q\n#goal q 1 $turn > 2\n#player q (e/a)[p]\n{}",
            text.join(" ")
        );
        if let Ok(checked) = rbg_draft::parse_and_check(&text) {
            let _ = rbg_draft::translate(&text);
            let model = rbg_draft::Interpreter::new(&checked.game);
            if let Ok(state) = model.initial() {
                let mut moves = Vec::new();
                let _ = model.legal_moves(&state, &mut moves);
            }
        }
    }
}
