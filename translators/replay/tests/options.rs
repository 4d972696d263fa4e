//! The options of replay.md §5.2 do what they say: command-line values
//! override directives, `seed` drives `rand`, `scale` replaces the
//! automatic scale, `noise-denominator` rounds noise, `max-random-moves`
//! bounds draws.

mod common;

use common::{census, engine, native};
use replay::ratio::Ratio;
use replay::Options;

fn options(words: &str) -> Options {
    let mut o = Options::default();
    for w in words.split_whitespace() {
        let (k, v) = match w.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (w, None),
        };
        o.set(k, v).unwrap();
    }
    o
}

const RANDOM_GAME: &str = "/*@rgw rounds=1 seed=7 */
int r() { return toint(rand * 100.0); }
Game g = Game[2 | { (x,y) -> (r(), r()) }];
";

fn payoffs(source: &str, words: &str) -> Vec<Vec<i64>> {
    replay::load(source, &options(words))
        .unwrap()
        .instance
        .payoffs
}

#[test]
fn seed_drives_rand_and_the_command_line_wins() {
    let from_directive = payoffs(RANDOM_GAME, "");
    assert_eq!(from_directive, payoffs(RANDOM_GAME, "seed=7"));
    assert_ne!(from_directive, payoffs(RANDOM_GAME, "seed=8"));
    // Eight draws of SplitMix64 in [0, 1), scaled to 0 … 99.
    assert!(from_directive
        .iter()
        .flatten()
        .all(|&v| (0..100).contains(&v)));
    let distinct: std::collections::HashSet<_> = from_directive.iter().flatten().collect();
    assert!(distinct.len() > 4, "{from_directive:?}");
}

#[test]
fn splitmix64_matches_its_reference_values() {
    // SplitMix64 seeded with 0: first output 0xE220A8397B1DCDAF.
    let text = "/*@rgw rounds=1 */\nint first = toint(rand * 9007199254740992.0);\nGame g = Game[1 | { (x) -> (first) }];\n";
    let got = payoffs(text, "")[0][0];
    assert_eq!(got, (0xE220_A839_7B1D_CDAFu64 >> 11) as i64);
}

const GRIM: &str = "strat {C, D};
Game pd = Game[2 | { (C,C) -> (-1,-1) | (C,D) -> (-5,0) | (D,C) -> (0,-5) | (D,D) -> (-3,-3) }];
Strategy grim = Strategy[2 | 2 | { cooperate: C, (_,D) -> defect; defect: D; }];
Player patient = Player[grim | 0.9];
Player noisy = Player[grim | 1.0 | 0.0123];
";

#[test]
fn scale_replaces_the_automatic_scale() {
    let o = options("rounds=4 fix=0:patient scale=1000");
    let (loaded, t) = replay::translate(GRIM, &o).unwrap();
    // 1000 · 0.9^r is exact: nothing is rounded, so no warning.
    assert!(t.warnings.is_empty(), "{:?}", t.warnings);
    let n = native(&loaded.instance);
    assert_eq!(n.payoffs().scale(0), 1000);
    // Worst terms: −5000, −4500, −4050, −3645.
    assert_eq!(n.payoffs().offset(0), -17195);
    assert_eq!(census(&n), census(&engine(&loaded.instance)));
    // Without --scale the automatic scale is capped at 100, with a warning.
    let (_, t) = replay::translate(GRIM, &options("rounds=4 fix=0:patient")).unwrap();
    assert_eq!(t.warnings.len(), 1);
}

#[test]
fn noise_denominator_and_draw_limit() {
    // m = 2: 0.0123 needs 9877 + 123 = 10000 moves, within the default.
    let o = options("rounds=1 fix=0:noisy");
    let loaded = replay::load(GRIM, &o).unwrap();
    let machine = match &loaded.instance.seats[0] {
        replay::instance::Seat::Fixed(m) => m.clone(),
        replay::instance::Seat::Free => panic!("seat 0 is fixed"),
    };
    assert_eq!(machine.eps_out, Ratio::new(123, 10000).unwrap());
    assert!(replay::translate(GRIM, &o).is_ok());
    // A lower limit refuses the draw ...
    let limited = options("rounds=1 fix=0:noisy max-random-moves=9999");
    let err = replay::translate(GRIM, &limited).err().unwrap();
    assert!(
        err[0].message.contains("10000 random moves (limit 9999)"),
        "{}",
        err[0].message
    );
    // ... and rounding to hundredths makes it 100 moves.
    let rounded = options("rounds=1 fix=0:noisy max-random-moves=9999 noise-denominator=100");
    let (loaded, _) = replay::translate(GRIM, &rounded).unwrap();
    let n = native(&loaded.instance);
    assert_eq!(census(&n), census(&engine(&loaded.instance)));
}

#[test]
fn command_line_overrides_directives() {
    let file = format!("/*@rgw game=pd rounds=3 fix=0:grim */\n{GRIM}Game other = pd;\n");
    let base = replay::load(&file, &Options::default()).unwrap().instance;
    assert_eq!(base.rounds, 3);
    assert!(matches!(base.seats[0], replay::instance::Seat::Fixed(_)));
    let over = replay::load(&file, &options("rounds=2 fix=1:grim"))
        .unwrap()
        .instance;
    assert_eq!(over.rounds, 2);
    assert!(matches!(over.seats[0], replay::instance::Seat::Free));
    assert!(matches!(over.seats[1], replay::instance::Seat::Fixed(_)));
}

#[test]
fn the_native_model_refuses_huge_draws_too() {
    let text = format!("{GRIM}Player odd = Player[grim | 1.0 | 0.1 + 0.2];\n");
    let loaded = replay::load(&text, &options("rounds=1 fix=0:odd")).unwrap();
    let err = replay::Native::new(&loaded.instance).err().unwrap();
    assert!(
        err.message.contains("random moves (limit 10000)"),
        "{}",
        err.message
    );
    assert!(replay::lower::lower(&loaded.instance).is_err());
}
