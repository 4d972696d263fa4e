//! Small valid RG games for property tests and the structured fuzz target
//! (`fuzz/fuzz_targets/rg_opt.rs`): a [`Spec`] of players, turns,
//! variables and move branches, each branch a list of [`Step`]s chosen to
//! exercise every optimization pass, written out as RG text by [`render`].
//! Every spec renders to a game that passes the checker.

/// One action of a move branch.
#[derive(Clone, Debug)]
pub enum Step {
    /// `vK == c`
    Test(usize, u8),
    /// `vK != c`
    TestNot(usize, u8),
    /// `vK = c`
    Set(usize, u8),
    /// `vK = rot[vJ]`
    Rotate(usize, usize),
    /// `vK = vJ` (a self-assignment when `K = J`)
    Copy(usize, usize),
    /// `vK == vJ`
    Same(usize, usize),
    /// `vK == c` or `vK != c` (two parallel edges: always passes)
    Either(usize, u8),
    /// `vK == c` or `vK == d` (two parallel edges)
    OneOf(usize, u8, u8),
    /// `rot[rot[vK]] == c`
    Twice(usize, u8),
    /// a self-loop `vK != c` at the step's node, then a skip
    SelfLoop(usize, u8),
    /// `? sub -> subEnd` (or `!`) over a pure sub-automaton: `vK == c`
    /// then `vJ != d`
    PureCheck(bool, usize, u8, usize, u8),
    /// `vK = V(*)` then `$$ vK` (the tag keeps moves unambiguous)
    Choose(usize),
    /// `? sub -> subEnd` (or `!`): the sub-automaton starts with a skip and
    /// an (ignored) tag, rotates `vK`, tests it against `c`, then resets it
    /// and ends with a skip (leading and trailing unconditional edges;
    /// writes that must not leak out of the check)
    Check(bool, usize, u8),
    /// `m[vK] = c` on the map variable `m`
    SetMap(usize, u8),
    /// `m[vK] == c`
    TestMap(usize, u8),
    /// `grid[vJ][vK] = c` on the nested map variable `grid`
    SetGrid(usize, usize, u8),
    /// `table[vJ][vK] == c` on the nested constant map `table`
    TestTable(usize, usize, u8),
    /// a plain tag `$ tC`
    Tag(u8),
    /// two tagged alternatives testing the same conditions in opposite
    /// orders: `vK == c, vJ == d, $ fa` or `vJ == d, vK != c, $ fb`
    Fork(usize, u8, usize, u8),
    /// `m[vK] = rot[m[vK]]` (a counter-like self-update with a computed
    /// key)
    Bump(usize),
    /// `m[c] = d` (an entry with a symbol key)
    SetMapAt(u8, u8),
    /// `m[c] == d`
    TestMapAt(u8, u8),
    /// `? sub -> subEnd` (or `!`) over a loop: rotate `vK`, then either
    /// loop back (on `vK != c` when `same`, else on `vK == c`) or succeed
    /// on `vK != c`
    LoopCheck(bool, usize, u8, bool),
    /// `? sub -> subEnd` (or `!`): `m[vK] = c`, `vK = rot[vK]`, then
    /// `m[vK] == c` (the written entry is never read back: `rot` has no
    /// fixed point)
    Peek(bool, usize, u8),
}

#[derive(Clone, Debug)]
pub struct Spec {
    pub players: usize,
    pub turns: u8,
    pub variables: usize,
    pub branches: Vec<Vec<Step>>,
    pub random_turns: bool,
    /// Every move starts with the tag `go` (a redundant tag).
    pub go_tag: bool,
}

/// Writes the game: players take turns (with a `random` turn between them
/// when `random_turns`); a move is a branch tag and the artificial tag
/// `mark`, then the branch's steps; a `pass` branch is always legal; the
/// keeper counts turns and ends the game.
pub fn render(spec: &Spec) -> String {
    let players: Vec<String> = (0..spec.players).map(|k| format!("p{k}")).collect();
    let turns: Vec<String> = (0..=spec.turns).map(|k| format!("t{k}")).collect();
    let mut out = String::new();
    out.push_str("@artificialTag mark;\n");
    out.push_str(&format!("type Player = {{ {} }};\n", players.join(", ")));
    out.push_str("type Score = { 0, 1, 2 };\ntype V = { 0, 1, 2 };\n");
    out.push_str(&format!("type T = {{ {} }};\n", turns.join(", ")));
    let next: Vec<String> = (0..spec.players)
        .map(|k| format!("p{k}: p{}", (k + 1) % spec.players))
        .collect();
    out.push_str(&format!(
        "const nextPlayer: Player -> Player = {{ :p0, {} }};\n",
        next.join(", ")
    ));
    let incr: Vec<String> = (0..spec.turns)
        .map(|k| format!("t{k}: t{}", k + 1))
        .collect();
    out.push_str(&format!(
        "const incr: T -> T = {{ :t{}, {} }};\n",
        spec.turns,
        incr.join(", ")
    ));
    out.push_str("const rot: V -> V = { :0, 0: 1, 1: 2 };\n");
    out.push_str("const table: V -> V -> V = { :{ :0, 1: 2 }, 2: { :1, 0: 2 } };\n");
    for k in 0..spec.variables {
        out.push_str(&format!("var v{k}: V = 0;\n"));
    }
    out.push_str(
        "var m: V -> V = { :0, 2: 1 };\nvar grid: V -> V -> V = { :{ :0 }, 1: { :2 } };\n",
    );
    out.push_str("var who: Player = p0;\nvar t: T = t0;\n");
    out.push_str("begin, turn: ;\nlimbo, turn: ;\n");
    if spec.go_tag {
        out.push_str("turn, start: player = PlayerOrSystem(who);\nstart, move: $ go;\n");
    } else {
        out.push_str("turn, move: player = PlayerOrSystem(who);\n");
    }
    let mut checks = 0;
    for (b, steps) in spec.branches.iter().enumerate() {
        out.push_str(&format!("move, b{b}_m: $ m{b};\nb{b}_m, b{b}_0: $ mark;\n"));
        let mut node = format!("b{b}_0");
        for (s, step) in steps.iter().enumerate() {
            let next = format!("b{b}_{}", s + 1);
            let line = match step {
                Step::Test(k, c) => format!("{node}, {next}: v{k} == {c};\n"),
                Step::TestNot(k, c) => format!("{node}, {next}: v{k} != {c};\n"),
                Step::Set(k, c) => format!("{node}, {next}: v{k} = {c};\n"),
                Step::Rotate(k, j) => format!("{node}, {next}: v{k} = rot[v{j}];\n"),
                Step::Copy(k, j) => format!("{node}, {next}: v{k} = v{j};\n"),
                Step::Same(k, j) => format!("{node}, {next}: v{k} == v{j};\n"),
                Step::Choose(k) => {
                    format!("{node}, {node}c: v{k} = V(*);\n{node}c, {next}: $$ v{k};\n")
                }
                Step::Peek(negated, k, c) => {
                    let sign = if *negated { '!' } else { '?' };
                    checks += 1;
                    let x = format!("chk{checks}");
                    format!(
                        "{node}, {next}: {sign} {x} -> {x}e;\n{x}, {x}w: m[v{k}] = {c};\n{x}w, {x}r: v{k} = rot[v{k}];\n{x}r, {x}e: m[v{k}] == {c};\n"
                    )
                }
                Step::Check(negated, k, c) => {
                    let sign = if *negated { '!' } else { '?' };
                    checks += 1;
                    let x = format!("chk{checks}");
                    format!(
                        "{node}, {next}: {sign} {x} -> {x}e;\n{x}, {x}a: ;\n{x}a, {x}t: $ inner;\n{x}t, {x}m: v{k} = rot[v{k}];\n{x}m, {x}b: v{k} == {c};\n{x}b, {x}n: v{k} = 0;\n{x}n, {x}e: ;\n"
                    )
                }
                Step::SetMap(k, c) => format!("{node}, {next}: m[v{k}] = {c};\n"),
                Step::TestMap(k, c) => format!("{node}, {next}: m[v{k}] == {c};\n"),
                Step::SetGrid(j, k, c) => format!("{node}, {next}: grid[v{j}][v{k}] = {c};\n"),
                Step::TestTable(j, k, c) => {
                    format!("{node}, {next}: table[v{j}][v{k}] == {c};\n")
                }
                Step::Tag(c) => format!("{node}, {next}: $ t{c};\n"),
                Step::Either(k, c) => {
                    format!("{node}, {next}: v{k} == {c};\n{node}, {next}: v{k} != {c};\n")
                }
                Step::OneOf(k, c, d) => {
                    format!("{node}, {next}: v{k} == {c};\n{node}, {next}: v{k} == {d};\n")
                }
                Step::Twice(k, c) => format!("{node}, {next}: rot[rot[v{k}]] == {c};\n"),
                Step::SelfLoop(k, c) => {
                    format!("{node}, {node}: v{k} != {c};\n{node}, {next}: ;\n")
                }
                Step::PureCheck(negated, k, c, j, d) => {
                    let sign = if *negated { '!' } else { '?' };
                    checks += 1;
                    let x = format!("chk{checks}");
                    format!(
                        "{node}, {next}: {sign} {x} -> {x}e;\n{x}, {x}m: v{k} == {c};\n{x}m, {x}e: v{j} != {d};\n"
                    )
                }
                Step::Bump(k) => format!("{node}, {next}: m[v{k}] = rot[m[v{k}]];\n"),
                Step::SetMapAt(k, d) => format!("{node}, {next}: m[{k}] = {d};\n"),
                Step::TestMapAt(k, d) => format!("{node}, {next}: m[{k}] == {d};\n"),
                Step::LoopCheck(negated, k, c, same) => {
                    let sign = if *negated { '!' } else { '?' };
                    let back = if *same { "!=" } else { "==" };
                    checks += 1;
                    let x = format!("chk{checks}");
                    format!(
                        "{node}, {next}: {sign} {x} -> {x}e;\n{x}, {x}h: ;\n{x}h, {x}y: v{k} = rot[v{k}];\n{x}y, {x}h: v{k} {back} {c};\n{x}y, {x}e: v{k} != {c};\n"
                    )
                }
                Step::Fork(k, c, j, d) => format!(
                    "{node}, {node}f1: v{k} == {c};\n{node}f1, {node}f2: v{j} == {d};\n{node}f2, {next}: $ fa;\n\
                     {node}, {node}f3: v{j} == {d};\n{node}f3, {node}f4: v{k} != {c};\n{node}f4, {next}: $ fb;\n"
                ),
            };
            out.push_str(&line);
            node = next;
        }
        out.push_str(&format!("{node}, moved: player = keeper;\n"));
    }
    out.push_str(
        "move, passed: $ pass;\npassed, passed1: $ mark;\npassed1, moved: player = keeper;\n",
    );
    if spec.random_turns {
        out.push_str("moved, toss: player = random;\ntoss, tossed: $ heads;\ntoss, tossed1: $ tails;\ntossed1, tossed: v0 = rot[v0];\ntoss, tossed: $ edge;\ntossed, counted0: player = keeper;\n");
    } else {
        out.push_str("moved, counted0: ;\n");
    }
    out.push_str(&format!(
        "counted0, counted: t = incr[t];\ncounted, over: t == t{last};\ncounted, again: t != t{last};\nagain, turn: who = nextPlayer[who];\nover, scored: goals[who] = Score(grid[v0][m[v0]]);\nscored, end: player = keeper;\n",
        last = spec.turns
    ));
    out
}

/// A spec chosen by `seed` (a small xorshift generator, so tests need no
/// dependency): 1–3 players, turns and variables, 1–3 branches of up to 4
/// steps of every kind.
pub fn random_spec(seed: u64) -> Spec {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let players = 1 + next(3) as usize;
    let turns = 1 + next(3) as u8;
    let variables = 1 + next(3) as usize;
    let random_turns = next(2) == 1;
    let go_tag = next(2) == 1;
    let mut branches = Vec::new();
    for _ in 0..1 + next(3) {
        let mut steps = Vec::new();
        for _ in 0..next(5) {
            let mut v = || next(variables as u64) as usize;
            let (a, b, c, d) = (v(), v(), v(), v());
            let _ = d;
            let k = next(3) as u8;
            let l = next(3) as u8;
            let flag = next(2) == 1;
            let flag2 = next(2) == 1;
            steps.push(match next(24) {
                0 => Step::Test(a, k),
                1 => Step::TestNot(a, k),
                2 => Step::Set(a, k),
                3 => Step::Rotate(a, b),
                4 => Step::Copy(a, b),
                5 => Step::Same(a, b),
                6 => Step::Either(a, k),
                7 => Step::OneOf(a, k, l),
                8 => Step::Twice(a, k),
                9 => Step::SelfLoop(a, k),
                10 => Step::PureCheck(flag, a, k, b, l),
                11 => Step::Choose(a),
                12 => Step::Check(flag, a, k),
                13 => Step::SetMap(a, k),
                14 => Step::TestMap(a, k),
                15 => Step::SetGrid(a, b, k),
                16 => Step::TestTable(a, b, k),
                17 => Step::Tag(k),
                18 => Step::Fork(a, k, c, l),
                19 => Step::Bump(a),
                20 => Step::SetMapAt(k, l),
                21 => Step::TestMapAt(k, l),
                22 => Step::LoopCheck(flag, a, k, flag2),
                _ => Step::Peek(flag, a, k),
            });
        }
        branches.push(steps);
    }
    Spec {
        players,
        turns,
        variables,
        branches,
        random_turns,
        go_tag,
    }
}
