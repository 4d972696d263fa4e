//! The evaluator follows replay.md §3: each case prints what the reference
//! says it computes (the captured output of print/println).

use replay::Options;

fn output(program: &str) -> String {
    let text =
        format!("/*@rgw rounds=1 game=g */\nGame g = Game[1 | {{ (x) -> (0) }}];\n{program}");
    match replay::load(&text, &Options::default()) {
        Ok(l) => l.output,
        Err(d) => panic!("{}", rg_core::diag::render_all(&d, "case.replay", &text)),
    }
}

#[test]
fn arithmetic_follows_c_conventions() {
    assert_eq!(
        output("println(7 / 2); println(-7 / 2); println(7.0 / 2); println(1 + 2 * 3 - 4);"),
        "3\n-3\n3.5\n3\n"
    );
    assert_eq!(
        output("println(1 < 1.5); println(2 == 2.0); println(\"a\" != \"b\");"),
        "true\ntrue\ntrue\n"
    );
}

#[test]
fn logic_short_circuits() {
    // The right operand would divide by zero.
    assert_eq!(
        output("println(false && 1 / 0 == 1); println(true || 1 / 0 == 1);"),
        "false\ntrue\n"
    );
}

#[test]
fn ranges_are_half_open_and_loops_copy_their_array() {
    assert_eq!(output("for i in [2:5] { print(i); } println(\"\"); for i in [3:3] { print(i); } println(\"end\");"), "234\nend\n");
    // Changing the array inside the loop does not change the iteration.
    assert_eq!(
        output("int[] a = [0:3];\nfor x in a { a[2] = 9; print(x); }\nprintln(a[2]);"),
        "0129\n"
    );
}

#[test]
fn objects_are_shared_and_players_copy_their_strategy() {
    let program = "strat {C, D};
Strategy s = Strategy[2 | 2 | { a: C; }];
Strategy t = s;
Player p = Player[s];
t.change(1, { b: D, (_,_) -> a; });
println(s.term);
println(p.strategy.term);
int[] u = int[1];
int[] v = u;
v[0] = 5;
println(u[0]);
";
    // s and t are one object: state 1 is no longer absorbing; p kept
    // its own copy from before, where both states stay where they are.
    assert_eq!(output(program), "1\n2\n5\n");
}

#[test]
fn strategies_count_terminal_and_inaccessible_states() {
    let program = "strat {C, D};
Strategy grim = Strategy[10 | 2 | { cooperate: C, (_,D) -> defect; defect: D; }];
println(grim.size);
println(grim.term);
println(grim.inacc());
";
    // States 1 … 9 are absorbing (unlisted ones included); 2 … 9 cannot be reached.
    assert_eq!(output(program), "10\n9\n8\n");
}

#[test]
fn games_are_tables_read_and_changed_through_profiles() {
    let program = "strat {H, T};
Game p = Game[2 | { (x,y) -> (-1,1) | (H,H) -> (1,-1) | (T,T) -> (1,-1) }];
int[] prof = int[2];
println(p.payoff(0, prof));
prof[1] = T;
println(p.payoff(0, prof));
int[] pays = int[2];
pays[0] = 7;
p.change(prof, pays);
println(p.payoff(0, prof));
println(p.players);
println(p.moves);
";
    assert_eq!(output(program), "1\n-1\n7\n2\n2\n");
}

#[test]
fn functions_recurse_and_read_globals_at_call_time() {
    let program = "int base = 1;
int scaled(int k) { if (k == 0) return base; return 2 * scaled(k - 1); }
println(scaled(3));
base = 10;
println(scaled(3));
";
    assert_eq!(output(program), "8\n80\n");
}

#[test]
fn players_read_zero_for_play_state() {
    let program = "strat {C, D};
Strategy s = Strategy[1 | 2 | { a: C; }];
Player p = Player[s | 0.5 | 0.1];
p.reset();
println(p.state);
println(p.rounds);
println(p.payoff);
println(p.delta);
println(p.output);
println(p.input);
";
    assert_eq!(output(program), "0\n0\n0\n0.5\n0.1\n0\n");
}

#[test]
fn conversions_floor() {
    assert_eq!(
        output("println(toint(2.7)); println(toint(-2.5)); println(tofloat(3) / 2);"),
        "2\n-3\n1.5\n"
    );
}
