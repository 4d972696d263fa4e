//! Compiled RG reasoners (issue #19): generates a self-contained Rust crate
//! with a game's forward model specialized, from the engine's [`Program`].
//!
//! The generated crate has no dependencies and no build script. Its fixed
//! part (`template/runtime.rs`: search state, move completion, keeper
//! completion, perft, playouts) mirrors `rg_core::engine::search`; the
//! generated part (`game.rs`) holds the game's tables and one function per
//! automaton node for move searches (`m<id>`) and one for reachability
//! searches (`r<id>`), each edge compiled to straight-line code. User names
//! (symbols, nodes) appear only as escaped string literals in tables;
//! identifiers are made from numeric ids, so a game file cannot inject code.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use rg_core::engine::program::{
    Action, Code, KeyStep, Layout, Op, Operand, Path as VPath, Program, Scalar, Space, Step, Target,
};

mod cache;
pub use cache::{cached_binary, BuildOutcome};

const RUNTIME: &str = include_str!("template/runtime.rs");
const MAIN: &str = include_str!("template/main.rs");
const LIB: &str = include_str!("template/lib.rs");

/// A generated crate: file paths (relative to the crate root) and contents.
pub struct GeneratedCrate {
    /// The package and binary name (`rgc_<hash>`).
    pub name: String,
    pub files: Vec<(String, String)>,
}

/// A stable 64-bit content hash (FNV-1a followed by a mix), in hex.
pub fn content_hash(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part.as_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        // Separator so that ("ab", "c") and ("a", "bc") differ.
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut x = h;
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    format!("{:016x}", x ^ (x >> 31))
}

/// Most automaton edges (after optimization) a game may have to be
/// compiled: the generated code grows with the edges, and rustc needs
/// roughly a second per hundred of them (chess: 1,537 edges, 15 s; arimaa:
/// 10,273, minutes). The environment variable `RGW_COMPILED_MAX_EDGES`
/// sets another limit.
pub const DEFAULT_MAX_EDGES: usize = 20_000;

/// Refuses a game too large to compile (see [`DEFAULT_MAX_EDGES`]).
pub fn check_size(program: &Program) -> Result<(), String> {
    let limit = std::env::var("RGW_COMPILED_MAX_EDGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_MAX_EDGES);
    let edges = program.edges.len();
    if edges > limit {
        return Err(format!(
            "the game is too large to compile: {edges} automaton edges after optimization, \
             more than the limit of {limit} (building takes roughly a second per hundred \
             edges); set RGW_COMPILED_MAX_EDGES to raise it, or use --via rg"
        ));
    }
    Ok(())
}

/// Generates the crate for a compiled program.
pub fn generate(program: &Program) -> GeneratedCrate {
    let game = Generator::new(program).game();
    let hash = content_hash(&[&game, RUNTIME, MAIN, LIB]);
    let name = format!("rgc_{hash}");
    let cargo = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\nname = \"{name}\"\npath = \"src/lib.rs\"\n\n\
         [[bin]]\nname = \"{name}\"\npath = \"src/main.rs\"\n\n\
         [profile.release]\nopt-level = 2\ncodegen-units = 16\npanic = \"abort\"\ndebug = false\n\n\
         # A crate of its own, outside any enclosing workspace.\n[workspace]\n"
    );
    // The library is named after the game too: cached crates share a
    // target directory, where equal library names would overwrite each other.
    let main = MAIN.replace(
        "// @extern-crate",
        &format!("extern crate {name} as rgc_game;"),
    );
    GeneratedCrate {
        name,
        files: vec![
            ("Cargo.toml".into(), cargo),
            ("src/lib.rs".into(), LIB.into()),
            ("src/runtime.rs".into(), RUNTIME.into()),
            ("src/main.rs".into(), main),
            ("src/game.rs".into(), game),
        ],
    }
}

/// Writes a generated crate under `dir` (created if missing).
pub fn write_crate(krate: &GeneratedCrate, dir: &Path) -> std::io::Result<()> {
    for (path, text) in &krate.files {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        // Unchanged files keep their mtime, so cargo has nothing to redo.
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, text)?;
        }
    }
    Ok(())
}

/// Runs `cargo build --release` on a crate directory with the given target
/// directory; returns the binary's path.
pub fn cargo_build(dir: &Path, target_dir: &Path, name: &str) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .arg("build")
        .arg("--release")
        .arg("--quiet")
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target_dir)
        // The enclosing build's settings must not leak into the game's.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo build of the compiled reasoner failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let binary = target_dir
        .join("release")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if binary.exists() {
        Ok(binary)
    } else {
        Err(format!("cargo built no binary at {}", binary.display()))
    }
}

fn rust_str(s: &str) -> String {
    // Debug formatting of `str` is a valid Rust string literal with every
    // quote, backslash and control character escaped.
    format!("{s:?}")
}

fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let mut out = String::new();
    for (k, item) in items.into_iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(out, "{item}");
    }
    out
}

/// Where an action is compiled: a move search or a reachability search.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Move,
    Reach,
}

struct Generator<'a> {
    p: &'a Program,
    labels: usize,
    layouts: Vec<(String, String)>,
    layout_index: HashMap<String, usize>,
    /// While compiling a fused test: the slot whose reads are replaced by
    /// the loop variable `sym` (the value the any-assignment would write).
    subst: Option<u32>,
    /// Slots of scalar variables (no map region covers them, so no
    /// computed map read can reach them).
    scalar_slots: Vec<bool>,
    /// Nodes from which a reachability search never needs the state hash
    /// (no visited set and no nested check graph-reachable): writes there
    /// may skip the undo log, restored by hand.
    hash_free: Vec<bool>,
    /// The same for move searches (which stop at `player` assignments).
    hash_free_move: Vec<bool>,
}

impl<'a> Generator<'a> {
    fn new(p: &'a Program) -> Self {
        let mut scalar_slots = vec![false; p.initial.len()];
        for (_, base, layout) in &p.variables {
            if matches!(**layout, Layout::Scalar) {
                if let Some(slot) = scalar_slots.get_mut(*base as usize) {
                    *slot = true;
                }
            }
        }
        Generator {
            p,
            labels: 0,
            layouts: Vec::new(),
            layout_index: HashMap::new(),
            subst: None,
            scalar_slots,
            hash_free: hash_free(p, Context::Reach),
            hash_free_move: hash_free(p, Context::Move),
        }
    }

    fn label(&mut self) -> String {
        self.labels += 1;
        format!("'l{}", self.labels)
    }

    /// The static name of a layout (declared once per distinct layout).
    fn layout(&mut self, layout: &Layout) -> String {
        let key = format!("{layout:?}");
        if let Some(&k) = self.layout_index.get(&key) {
            return format!("L{k}");
        }
        let def = match layout {
            Layout::Scalar => "Layout::Scalar".to_string(),
            Layout::Map { table, inner, size } => {
                let inner = self.layout(inner);
                format!("Layout::Map {{ table: {table}, inner: &{inner}, size: {size} }}")
            }
        };
        let k = self.layouts.len();
        self.layouts.push((format!("L{k}"), def));
        self.layout_index.insert(key, k);
        format!("L{k}")
    }

    fn game(mut self) -> String {
        let p = self.p;
        let mut out = String::new();
        out.push_str(
            "// Generated by rgw compile from the RG engine's compiled program. Do not edit.\n\
             use crate::runtime::{Fault, KeyTable, Layout, Search, INVALID, R, fault};\n\n",
        );
        let _ = writeln!(
            out,
            "pub static SYMBOLS: &[&str] = &[{}];",
            list(p.symbols.iter().map(|s| rust_str(s)))
        );
        let _ = writeln!(
            out,
            "pub static NODES: &[&str] = &[{}];",
            list(p.nodes.iter().map(|s| rust_str(s)))
        );
        let _ = writeln!(out, "pub const BEGIN: u32 = {};", p.begin);
        let _ = writeln!(out, "pub const END: u32 = {};", p.end);
        let _ = writeln!(out, "pub const PLAYER_SLOT: u32 = {};", p.player_slot);
        let _ = writeln!(out, "pub const KEEPER: u32 = {};", p.keeper);
        let _ = writeln!(out, "pub const RANDOM: u32 = {};", p.random);
        let _ = writeln!(out, "pub const ONE: u32 = {};", p.one);
        let _ = writeln!(
            out,
            "pub const VISIBILITY_CHANGES: bool = {};",
            p.visibility_changes
        );
        let _ = writeln!(out, "pub static PLAYERS: &[u32] = &[{}];", list(&p.players));
        let slots_of = |base: u32, table: u32| {
            let table = &p.key_tables[table as usize];
            list(p.players.iter().map(|&player| {
                table
                    .slot(player)
                    .map_or("INVALID".to_string(), |s| (base + s).to_string())
            }))
        };
        let _ = writeln!(
            out,
            "pub static GOAL_SLOTS: &[u32] = &[{}];",
            slots_of(p.goals_base, p.goals_table)
        );
        let _ = writeln!(
            out,
            "pub static VISIBLE_SLOTS: &[u32] = &[{}];",
            slots_of(p.visible_base, p.visible_table)
        );
        let _ = writeln!(
            out,
            "pub static SCORES: &[(u32, i64)] = &[{}];",
            list(p.score_values.iter().map(|(id, v)| format!("({id}, {v})")))
        );
        let _ = writeln!(out, "pub static INITIAL: &[u32] = &[{}];", list(&p.initial));
        let _ = writeln!(out, "pub static POOL: &[u32] = &[{}];", list(&p.pool));
        out.push_str("pub static KEY_TABLES: &[KeyTable] = &[\n");
        for t in &p.key_tables {
            let index = list(t.index.iter().map(|&i| {
                if i == u32::MAX {
                    "INVALID".to_string()
                } else {
                    i.to_string()
                }
            }));
            let _ = writeln!(
                out,
                "    KeyTable {{ min: {}, index: &[{index}], symbols: &[{}] }},",
                t.min,
                list(&t.symbols)
            );
        }
        out.push_str("];\n");
        // The visit guards of ray loops (rg-core's `VisitGuard`): the
        // variable's slot and the bitset of values where the check is skipped.
        out.push_str("pub static VISIT_GUARDS: &[(usize, &[u64])] = &[\n");
        for g in &p.visit_guards {
            let _ = writeln!(out, "    ({}, &[{}]),", g.slot, list(&g.safe));
        }
        out.push_str("];\n\n");

        let n = p.nodes.len();
        let reach_nodes = self.reach_nodes();
        let mut body = String::new();
        // Move search: entry by node id.
        body.push_str(
            "pub fn moves_from(s: &mut Search, node: u32) -> R<()> {\n    match node {\n",
        );
        for node in 0..n {
            if p.node_info[node].can_finish_move {
                let _ = writeln!(
                    body,
                    "        {node} => {{ {} }}",
                    self.enter_move(node as u32)
                );
            }
        }
        body.push_str("        _ => {}\n    }\n    Ok(())\n}\n\n");
        body.push_str(
            "pub fn reach_from(s: &mut Search, node: u32, to: u32, d: usize) -> R<bool> {\n    match node {\n",
        );
        for (node, &needed) in reach_nodes.iter().enumerate() {
            if needed {
                let _ = writeln!(
                    body,
                    "        {node} => Ok({}),",
                    self.enter_reach(node as u32)
                );
            }
        }
        body.push_str("        _ => Ok(false),\n    }\n}\n\n");
        for node in 0..n as u32 {
            if p.node_info[node as usize].can_finish_move {
                let f = self.node_fn(node, Context::Move);
                body.push_str(&f);
            }
            if reach_nodes[node as usize] {
                let f = self.node_fn(node, Context::Reach);
                body.push_str(&f);
            }
        }
        for (name, def) in &self.layouts {
            let _ = writeln!(out, "static {name}: Layout = {def};");
        }
        out.push('\n');
        out.push_str(&body);
        out
    }

    /// Nodes a reachability search can visit: graph-reachable from the
    /// source of some check.
    fn reach_nodes(&self) -> Vec<bool> {
        let p = self.p;
        let mut seen = vec![false; p.nodes.len()];
        let mut stack: Vec<u32> = p
            .edges
            .iter()
            .filter_map(|e| match e.action {
                Action::Reach { from, .. } => Some(from),
                _ => None,
            })
            .collect();
        while let Some(node) = stack.pop() {
            if std::mem::replace(&mut seen[node as usize], true) {
                continue;
            }
            for e in &p.edges[p.edges_of(node)] {
                stack.push(e.target);
            }
        }
        seen
    }

    /// Code entering `node` in a move search (statement).
    fn enter_move(&self, node: u32) -> String {
        let info = self.p.node_info[node as usize];
        if !info.can_finish_move {
            return String::new();
        }
        if info.visit_in_move {
            let skip = guard_test(info.move_guard);
            format!("if {skip}s.visit_move({node}) {{ m{node}(s)?; }}")
        } else {
            format!("m{node}(s)?;")
        }
    }

    /// Expression: whether entering `node` in a reachability search finds
    /// the target `to`.
    fn enter_reach(&self, node: u32) -> String {
        let info = self.p.node_info[node as usize];
        if info.visit_in_reach {
            let skip = guard_test(info.reach_guard);
            format!("({node} == to || (({skip}s.visit_reach(d, {node})) && r{node}(s, to, d)?))")
        } else {
            format!("({node} == to || r{node}(s, to, d)?)")
        }
    }

    fn node_fn(&mut self, node: u32, ctx: Context) -> String {
        let p = self.p;
        let info = p.node_info[node as usize];
        let mut f = String::new();
        match ctx {
            Context::Move => {
                let _ = writeln!(f, "fn m{node}(s: &mut Search) -> R<()> {{");
            }
            Context::Reach => {
                let _ = writeln!(
                    f,
                    "fn r{node}(s: &mut Search, to: u32, d: usize) -> R<bool> {{"
                );
            }
        }
        // Move searches never leave the end node.
        let edges = if ctx == Context::Move && node == p.end {
            0..0
        } else {
            p.edges_of(node)
        };
        for e in edges {
            let edge = &p.edges[e];
            let t = edge.target;
            let enter = match ctx {
                Context::Move => self.enter_move(t),
                Context::Reach => format!("if {} {{ return Ok(true); }}", self.enter_reach(t)),
            };
            let after = match ctx {
                Context::Move => "if s.stop { return Ok(()); }",
                Context::Reach => "",
            };
            let done = match ctx {
                Context::Move => "return Ok(());",
                Context::Reach => "return Ok(false);",
            };
            f.push_str("    {\n");
            match &edge.action {
                Action::AssignAny { target, symbols } if self.fusible(t, ctx) => {
                    // The test at `t` runs inline for every symbol: no call,
                    // no second undo mark (the hot loop of "find the square
                    // where ..." checks).
                    let offset = self.offset(target, node);
                    let test_edge = &p.edges[p.edges_of(t).start];
                    let then = match ctx {
                        Context::Move => self.enter_move(test_edge.target),
                        Context::Reach => format!(
                            "if {} {{ return Ok(true); }}",
                            self.enter_reach(test_edge.target)
                        ),
                    };
                    let found = match ctx {
                        Context::Move => String::new(),
                        Context::Reach => format!("if {t} == to {{ return Ok(true); }}"),
                    };
                    if let Some(slot) = self.substitutable(target) {
                        // The target is a scalar variable: the test reads
                        // `sym` in its place, and only a passing symbol is
                        // written (and undone).
                        self.subst = Some(slot);
                        let test = self.action(&test_edge.action, t, ctx);
                        self.subst = None;
                        let write = if !self.hash_free_at(ctx, t) {
                            String::new()
                        } else if ctx == Context::Reach {
                            // As for plain assignments below: in place.
                            format!(
                                "let old = s.v[{slot}]; s.v[{slot}] = sym; let found = {}; s.v[{slot}] = old; if found {{ return Ok(true); }}",
                                self.enter_reach(test_edge.target)
                            )
                        } else {
                            format!(
                                "let old = s.v[{slot}]; s.v[{slot}] = sym; {then} s.v[{slot}] = old;"
                            )
                        };
                        let write = if !write.is_empty() {
                            write
                        } else {
                            format!("let mk = s.mark(); s.set({slot}, sym); {then} s.undo(mk);")
                        };
                        let _ = writeln!(
                            f,
                            "        for &sym in &[{}u32] {{\n            s.tick({node})?;\n            {found}\n            s.tick({t})?;\n            let ok: bool = {test};\n            if ok {{ {write} }}\n            {after}\n        }}",
                            list(symbols.iter())
                        );
                        f.push_str("    }\n");
                        continue;
                    }
                    let test = self.action(&test_edge.action, t, ctx);
                    let _ = writeln!(
                        f,
                        "        for &sym in &[{}u32] {{\n            s.tick({node})?;\n            let mk = s.mark();\n            let o = {offset};\n            s.set(o, sym);\n            {found}\n            s.tick({t})?;\n            let ok: bool = {test};\n            if ok {{ {then} }}\n            s.undo(mk);\n            {after}\n        }}",
                        list(symbols.iter())
                    );
                }
                Action::AssignAny { target, symbols }
                    if ctx == Context::Move && self.hash_free_at(ctx, t) =>
                {
                    // In place, as for plain assignments below.
                    let offset = self.offset(target, node);
                    let _ = writeln!(
                        f,
                        "        for &sym in &[{}u32] {{\n            s.tick({node})?;\n            let o = {offset} as usize;\n            let old = s.v[o];\n            s.v[o] = sym;\n            {enter}\n            s.v[o] = old;\n            {after}\n        }}",
                        list(symbols.iter())
                    );
                }
                Action::AssignAny { target, symbols } => {
                    let offset = self.offset(target, node);
                    let _ = writeln!(
                        f,
                        "        for &sym in &[{}u32] {{\n            s.tick({node})?;\n            let mk = s.mark();\n            let o = {offset};\n            s.set(o, sym);\n            {enter}\n            s.undo(mk);\n            {after}\n        }}",
                        list(symbols.iter())
                    );
                }
                Action::AssignPlayer(value) if ctx == Context::Move => {
                    let v = self.scalar(value, node);
                    let _ = writeln!(
                        f,
                        "        s.tick({node})?;\n        let pl = {v};\n        s.complete_move({t}, pl)?;\n        {after}"
                    );
                }
                Action::Assign {
                    target,
                    value: Operand::Scalar(value),
                } if ctx == Context::Move && self.hash_free_at(ctx, t) => {
                    // As below, for a move search.
                    let offset = self.offset(target, node);
                    let v = self.scalar(value, node);
                    let _ = writeln!(
                        f,
                        "        s.tick({node})?;\n        let o = {offset} as usize;\n        let v = {v};\n        let old = s.v[o];\n        s.v[o] = v;\n        {enter}\n        s.v[o] = old;\n        {after}"
                    );
                    if info.disjoint {
                        let _ = writeln!(f, "        {done}");
                    }
                }
                Action::Assign {
                    target,
                    value: Operand::Scalar(value),
                } if ctx == Context::Reach && self.hash_free_at(ctx, t) => {
                    // Nothing below reads the hash: write in place and
                    // restore the old value, without the undo log (an
                    // error leaves it written, but ends the search, and
                    // the next search reloads the state).
                    let offset = self.offset(target, node);
                    let v = self.scalar(value, node);
                    let reached = self.enter_reach(t);
                    let _ = writeln!(
                        f,
                        "        s.tick({node})?;\n        let o = {offset} as usize;\n        let v = {v};\n        let old = s.v[o];\n        s.v[o] = v;\n        let found = {reached};\n        s.v[o] = old;\n        if found {{ return Ok(true); }}"
                    );
                    if info.disjoint {
                        let _ = writeln!(f, "        {done}");
                    }
                }
                action if pure(action) => {
                    // No write to undo: the target's search restores what
                    // it changes, and `s.reach` restores the state.
                    let ok = self.action(action, node, ctx);
                    let _ = writeln!(
                        f,
                        "        s.tick({node})?;\n        let ok: bool = {ok};\n        if ok {{ {enter} }}\n        {after}"
                    );
                    if info.disjoint {
                        let _ = writeln!(f, "        if ok {{ {done} }}");
                    }
                }
                action => {
                    let ok = self.action(action, node, ctx);
                    let _ = writeln!(
                        f,
                        "        s.tick({node})?;\n        let mk = s.mark();\n        let ok: bool = {ok};\n        if ok {{ {enter} }}\n        s.undo(mk);\n        {after}"
                    );
                    if info.disjoint {
                        // At most one edge of a disjoint node passes.
                        let _ = writeln!(f, "        if ok {{ {done} }}");
                    }
                }
            }
            f.push_str("    }\n");
        }
        match ctx {
            Context::Move => f.push_str("    Ok(())\n}\n\n"),
            Context::Reach => f.push_str("    Ok(false)\n}\n\n"),
        }
        f
    }

    /// Expression (block) performing an action; its value is whether the
    /// edge passes.
    fn action(&mut self, action: &Action, node: u32, ctx: Context) -> String {
        let depth = match ctx {
            Context::Move => "1",
            Context::Reach => "d + 1",
        };
        match action {
            Action::Skip => "true".into(),
            Action::Tag(t) => match ctx {
                Context::Move => format!("{{ s.push_tag({t}, {node})?; true }}"),
                Context::Reach => "true".into(),
            },
            Action::VarTag(v) => match ctx {
                Context::Move => {
                    let v = self.scalar(v, node);
                    format!("{{ let t = {v}; s.push_tag(t, {node})?; true }}")
                }
                Context::Reach => "true".into(),
            },
            Action::CompareScalars { negated, lhs, rhs } => {
                let (l, r) = (self.scalar(lhs, node), self.scalar(rhs, node));
                let op = if *negated { "!=" } else { "==" };
                format!("{{ let l = {l}; let r = {r}; l {op} r }}")
            }
            Action::Compare { negated, lhs, rhs } => match (lhs, rhs) {
                (Operand::Scalar(a), Operand::Scalar(b)) => {
                    let (l, r) = (self.scalar(a, node), self.scalar(b, node));
                    let op = if *negated { "!=" } else { "==" };
                    format!("{{ let l = {l}; let r = {r}; l {op} r }}")
                }
                (Operand::Region(a), Operand::Region(b)) => {
                    let ra = self.region(&a.path, &a.layout, node);
                    let rb = self.region(&b.path, &b.layout, node);
                    format!(
                        "{{ let a = {ra}; let b = {rb}; s.equal_regions(a, b, {node})? != {negated} }}"
                    )
                }
                _ => format!("return Err(fault(\"a map compared with a symbol\", {node}))"),
            },
            Action::Assign { target, value } => {
                let offset = self.offset(target, node);
                match value {
                    Operand::Scalar(v) => {
                        let v = self.scalar(v, node);
                        format!("{{ let o = {offset}; let v = {v}; s.set(o, v); true }}")
                    }
                    Operand::Region(r) => {
                        let layout = self.layout(&target.layout);
                        let src = self.region(&r.path, &r.layout, node);
                        format!(
                            "{{ let o = {offset}; let src = {src}; s.assign_region(o, &{layout}, src, {node})?; true }}"
                        )
                    }
                }
            }
            Action::AssignAny { .. } => {
                unreachable!("any-assignments are compiled by node_fn")
            }
            Action::AssignPlayer(v) => {
                // Reachability searches treat it as a plain assignment.
                let v = self.scalar(v, node);
                format!("{{ let v = {v}; s.set(crate::game::PLAYER_SLOT, v); true }}")
            }
            Action::Reach { negated, from, to } => {
                format!("(s.reach({from}, {to}, {depth})? != {negated})")
            }
        }
    }

    /// Whether the node after an any-assignment is a lone scalar test that
    /// can run inline in the assignment's loop: one edge, a comparison of
    /// symbols, no visited set (entering it has no other effect).
    fn fusible(&self, t: u32, ctx: Context) -> bool {
        let p = self.p;
        let info = p.node_info[t as usize];
        let range = p.edges_of(t);
        let entered = match ctx {
            Context::Move => info.can_finish_move && !info.visit_in_move,
            Context::Reach => !info.visit_in_reach,
        };
        t != p.end
            && entered
            && range.len() == 1
            && matches!(p.edges[range.start].action, Action::CompareScalars { .. })
    }

    /// Whether searches of kind `ctx` from `node` never need the state
    /// hash (see `hash_free`).
    fn hash_free_at(&self, ctx: Context, node: u32) -> bool {
        match ctx {
            Context::Move => self.hash_free_move[node as usize],
            Context::Reach => self.hash_free[node as usize],
        }
    }

    /// The slot of an any-assignment's target when it is a scalar
    /// variable: reads of it are then exactly the reads of that slot
    /// (`Scalar::Slot`, `Op::Slot`, an indexed read's key slot).
    fn substitutable(&self, target: &Target) -> Option<u32> {
        (target.steps.is_empty() && self.scalar_slots.get(target.base as usize) == Some(&true))
            .then_some(target.base)
    }

    /// Expression reading a state slot (or the fused test's `sym`).
    fn slot(&self, slot: u32) -> String {
        if self.subst == Some(slot) {
            "sym".into()
        } else {
            format!("s.v[{slot}]")
        }
    }

    /// `(is_pool, offset, &layout)` of a map operand.
    fn region(&mut self, path: &VPath, layout: &Layout, node: u32) -> String {
        let offset = self.offset_steps(path.base, &path.steps, node);
        let layout = self.layout(layout);
        format!("({}, {offset}, &{layout})", path.space == Space::Pool)
    }

    fn offset(&mut self, target: &Target, node: u32) -> String {
        self.offset_steps(target.base, &target.steps, node)
    }

    /// Expression: the slot reached by access steps (keys outside the key
    /// type are faults, never lenient: the engine's `offset_of`).
    fn offset_steps(&mut self, base: u32, steps: &[Step], node: u32) -> String {
        if steps.is_empty() {
            return format!("{base}u32");
        }
        let mut code = format!("{{ let mut o: u32 = {base};");
        for step in steps {
            let key = self.scalar(&step.key, node);
            let slot = slot_expr("k", step.contiguous, step.min, step.count, step.table);
            let _ = write!(
                code,
                " let k = {key}; let i = {slot}; if i == INVALID {{ return Err(Fault::Key {{ symbol: k, table: {}, node: {node} }}); }} o += i * {};",
                step.table, step.stride
            );
        }
        code.push_str(" o }");
        code
    }

    /// Expression of type `u32` evaluating a scalar (faults return early).
    fn scalar(&mut self, s: &Scalar, node: u32) -> String {
        match s {
            Scalar::Symbol(id) => format!("{id}u32"),
            Scalar::Slot(slot) => self.slot(*slot),
            Scalar::Indexed(ix) => {
                let step = KeyStep {
                    table: ix.table,
                    contiguous: ix.contiguous,
                    min: ix.min,
                    count: ix.count,
                    stride: ix.stride,
                    fallback: ix.fallback,
                };
                self.load(ix.space, ix.base, &[self.slot(ix.key_slot)], &[step], node)
            }
            Scalar::Code(code) => self.code(code, node),
            Scalar::Access(path) => {
                let keys: Vec<String> = path
                    .steps
                    .iter()
                    .map(|step| self.scalar(&step.key, node))
                    .collect();
                let steps: Vec<KeyStep> = path
                    .steps
                    .iter()
                    .map(|step| KeyStep {
                        table: step.table,
                        contiguous: step.contiguous,
                        min: step.min,
                        count: step.count,
                        stride: step.stride,
                        fallback: step.fallback,
                    })
                    .collect();
                self.load(path.space, path.base, &keys, &steps, node)
            }
        }
    }

    /// Postfix access code turned back into nested expressions.
    fn code(&mut self, code: &Code, node: u32) -> String {
        let mut stack: Vec<String> = Vec::new();
        for op in &code.ops {
            match *op {
                Op::Symbol(id) => stack.push(format!("{id}u32")),
                Op::Slot(slot) => stack.push(self.slot(slot)),
                Op::Load {
                    space,
                    base,
                    first,
                    count,
                } => {
                    let keys = stack.split_off(stack.len() - count as usize);
                    let steps = &code.steps[first as usize..(first + count) as usize];
                    let e = self.load(space, base, &keys, steps, node);
                    stack.push(e);
                }
            }
        }
        stack.pop().unwrap_or_else(|| "INVALID".into())
    }

    /// A (lenient-aware) map read `space[base + Σ slot(key_i) * stride_i]`.
    fn load(
        &mut self,
        space: Space,
        base: u32,
        keys: &[String],
        steps: &[KeyStep],
        node: u32,
    ) -> String {
        let label = self.label();
        let mut code = format!("{label}: {{");
        for (k, key) in keys.iter().enumerate() {
            let _ = write!(code, " let k{k}: u32 = {key};");
        }
        let _ = write!(code, " let mut o: u32 = {base};");
        for (k, step) in steps.iter().enumerate() {
            let slot = slot_expr(
                &format!("k{k}"),
                step.contiguous,
                step.min,
                step.count,
                step.table,
            );
            let fallback = if step.fallback == u32::MAX {
                "INVALID".to_string()
            } else {
                step.fallback.to_string()
            };
            let _ = write!(
                code,
                " let i = {slot}; if i == INVALID {{ break {label} s.bad_key(k{k}, {}, {fallback}, {node})?; }} o += i * {};",
                step.table, step.stride
            );
        }
        match space {
            Space::State => code.push_str(" s.v[o as usize] }"),
            Space::Pool => code.push_str(" POOL[o as usize] }"),
        }
        code
    }
}

/// Nodes from which no node keeping a visited set (of the search kind
/// `ctx`) and no edge with a check is graph-reachable, following the
/// edges that search follows (a move search completes the move at a
/// `player` assignment instead of entering its target).
fn hash_free(p: &Program, ctx: Context) -> Vec<bool> {
    let n = p.nodes.len();
    // Reverse edges, then mark everything that reaches a hashing node.
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut needs = vec![false; n];
    let mut stack = Vec::new();
    for node in 0..n as u32 {
        for e in &p.edges[p.edges_of(node)] {
            if !(ctx == Context::Move && matches!(e.action, Action::AssignPlayer(_))) {
                preds[e.target as usize].push(node);
            }
            if matches!(e.action, Action::Reach { .. }) && !needs[node as usize] {
                needs[node as usize] = true;
                stack.push(node);
            }
        }
        let info = p.node_info[node as usize];
        let visits = match ctx {
            Context::Move => info.visit_in_move,
            Context::Reach => info.visit_in_reach,
        };
        if visits && !needs[node as usize] {
            needs[node as usize] = true;
            stack.push(node);
        }
    }
    while let Some(node) = stack.pop() {
        for &pred in &preds[node as usize] {
            if !needs[pred as usize] {
                needs[pred as usize] = true;
                stack.push(pred);
            }
        }
    }
    needs.into_iter().map(|x| !x).collect()
}

/// The start of a visited check's condition: a guarded check is skipped
/// when the guard's variable holds a safe value.
fn guard_test(guard: Option<u32>) -> String {
    match guard {
        Some(g) => format!("s.guard_skips({g}) || "),
        None => String::new(),
    }
}

/// Whether an action changes neither the state nor the tags (so its edge
/// needs no undo mark).
fn pure(action: &Action) -> bool {
    matches!(
        action,
        Action::Skip
            | Action::CompareScalars { .. }
            | Action::Compare { .. }
            | Action::Reach { .. }
    )
}

/// Expression: the slot of key variable `k` in a key table, or `INVALID`.
fn slot_expr(k: &str, contiguous: bool, min: u32, count: u32, table: u32) -> String {
    if contiguous {
        format!("{{ let i = {k}.wrapping_sub({min}); if i < {count} {{ i }} else {{ INVALID }} }}")
    } else {
        format!("KEY_TABLES[{table}].slot({k})")
    }
}
