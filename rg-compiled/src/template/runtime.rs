//! The fixed part of a compiled RG reasoner: the search state (values with
//! an undo log and a lazily folded 128-bit hash, tags, visited sets), move
//! completion, keeper completion, perft and playouts. The game-specific part
//! (`game.rs`) supplies one function per automaton node. Mirrors
//! `rg_core::engine` (search/mod.rs) so that both count the same moves.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use crate::game;

/// The "no value" of key lookups (symbol ids never reach it).
pub const INVALID: u32 = u32::MAX;
/// Search steps per move generation before the search is declared
/// non-terminating (the engine's `DEFAULT_STEP_LIMIT`).
pub const DEFAULT_STEP_LIMIT: u64 = 20_000_000;
const MAX_CHECK_NESTING: usize = 1000;
const MAX_MOVE_TAGS: usize = 100_000;
const MAX_KEEPER_CHAIN: usize = 1_000_000;

/// A runtime error of the search (improper game or a limit).
#[derive(Debug)]
pub enum Fault {
    Key { symbol: u32, table: u32, node: u32 },
    Message(String),
}

pub type R<T> = Result<T, Fault>;

impl Fault {
    pub fn message(&self) -> String {
        match self {
            Fault::Key {
                symbol,
                table,
                node,
            } => {
                let keys: Vec<&str> = game::KEY_TABLES[*table as usize]
                    .symbols
                    .iter()
                    .take(8)
                    .map(|&s| game::SYMBOLS[s as usize])
                    .collect();
                format!(
                    "invalid access in node {}: key {} is not in the map's key type {{ {} }}",
                    game::NODES[*node as usize],
                    game::SYMBOLS.get(*symbol as usize).copied().unwrap_or("?"),
                    keys.join(", ")
                )
            }
            Fault::Message(m) => m.clone(),
        }
    }
}

#[cold]
pub fn fault(message: &str, node: u32) -> Fault {
    Fault::Message(format!("in node {}: {message}", game::NODES[node as usize]))
}

/// Key table of a set type used as a map key.
pub struct KeyTable {
    pub min: u32,
    pub index: &'static [u32],
    pub symbols: &'static [u32],
}

impl KeyTable {
    #[inline(always)]
    pub fn slot(&self, symbol: u32) -> u32 {
        match self.index.get(symbol.wrapping_sub(self.min) as usize) {
            Some(&slot) => slot,
            None => INVALID,
        }
    }
}

/// Memory layout of a map value.
#[derive(PartialEq, Eq)]
pub enum Layout {
    Scalar,
    Map {
        table: u32,
        inner: &'static Layout,
        size: u32,
    },
}

impl Layout {
    pub fn size(&self) -> u32 {
        match self {
            Layout::Scalar => 1,
            Layout::Map { size, .. } => *size,
        }
    }
}

/// Copies a value between layouts through keys (the engine's `copy_value`).
fn copy_value(
    source: &[u32],
    source_offset: u32,
    source_layout: &Layout,
    out: &mut [u32],
    out_offset: u32,
    out_layout: &Layout,
) -> Result<(), &'static str> {
    if source_layout == out_layout {
        let n = out_layout.size() as usize;
        let (s, o) = (source_offset as usize, out_offset as usize);
        out[o..o + n].copy_from_slice(&source[s..s + n]);
        return Ok(());
    }
    match (source_layout, out_layout) {
        (
            Layout::Map {
                table: st,
                inner: si,
                ..
            },
            Layout::Map {
                table: ot,
                inner: oi,
                ..
            },
        ) => {
            for (slot, &key) in game::KEY_TABLES[*ot as usize].symbols.iter().enumerate() {
                let source_slot = game::KEY_TABLES[*st as usize].slot(key);
                if source_slot == INVALID {
                    return Err("the source map has no entry for a key of the target");
                }
                copy_value(
                    source,
                    source_offset + source_slot * si.size(),
                    si,
                    out,
                    out_offset + slot as u32 * oi.size(),
                    oi,
                )?;
            }
            Ok(())
        }
        _ => Err("a map and a symbol are not assignable"),
    }
}

#[inline]
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[inline]
fn contribution(slot: u32, value: u32) -> u128 {
    let x = (u64::from(slot) << 32) | u64::from(value);
    (u128::from(splitmix(x)) << 64) | u128::from(splitmix(x ^ 0xD1B5_4A32_D192_ED03))
}

#[inline]
pub fn node_contribution(node: u32) -> u128 {
    contribution(u32::MAX, node)
}

#[inline]
fn tag_contribution(position: usize, tag: u32) -> u128 {
    contribution(u32::MAX - 1 - position as u32, tag)
}

fn hash_values(values: &[u32]) -> u128 {
    values
        .iter()
        .enumerate()
        .fold(0, |h, (slot, &v)| h ^ contribution(slot as u32, v))
}

/// A hasher for keys that already are uniformly distributed hashes.
#[derive(Default)]
pub struct PrehashedHasher(u64);

impl Hasher for PrehashedHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
    fn write_u128(&mut self, n: u128) {
        self.0 ^= n as u64;
    }
}

type Prehashed = BuildHasherDefault<PrehashedHasher>;

/// A set of 128-bit hashes (visited sets, counted moves): open
/// addressing on the hash's low bits, which are uniformly distributed, and
/// a generation number per slot, so clearing costs nothing.
pub struct HashSet128 {
    keys: Vec<u128>,
    generations: Vec<u32>,
    generation: u32,
    len: usize,
}

impl Default for HashSet128 {
    fn default() -> Self {
        HashSet128 {
            keys: Vec::new(),
            generations: Vec::new(),
            generation: 1,
            len: 0,
        }
    }
}

impl HashSet128 {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn clear(&mut self) {
        self.len = 0;
        if self.generation == u32::MAX {
            self.generations.fill(0);
            self.generation = 1;
        } else {
            self.generation += 1;
        }
    }

    /// Adds `key`; false if it already was there.
    #[inline]
    pub fn insert(&mut self, key: u128) -> bool {
        if (self.len + 1) * 4 > self.keys.len() * 3 {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = key as usize & mask;
        loop {
            if self.generations[i] != self.generation {
                self.generations[i] = self.generation;
                self.keys[i] = key;
                self.len += 1;
                return true;
            }
            if self.keys[i] == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let capacity = (self.keys.len() * 2).max(64);
        let live: Vec<u128> = self
            .keys
            .iter()
            .zip(&self.generations)
            .filter(|(_, &g)| g == self.generation)
            .map(|(&k, _)| k)
            .collect();
        self.keys = vec![0; capacity];
        self.generations = vec![0; capacity];
        self.generation = 1;
        self.len = 0;
        for key in live {
            self.insert(key);
        }
    }
}

/// A game state: node and semistate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub node: u32,
    pub values: Box<[u32]>,
}

/// A move: its tags, who saw each tag (when visibility changes), and the
/// state it leads to.
#[derive(Clone, Debug)]
pub struct Move {
    pub tags: Box<[u32]>,
    pub visibility: Option<Box<[u64]>>,
    pub next: State,
}

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Real(usize),
    Random,
    Keeper,
}

/// Options mirroring `rg_core::engine::EngineOptions`.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub expose_keeper: bool,
    pub step_limit: u64,
    pub lenient: bool,
    pub first_keeper_walk: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            expose_keeper: false,
            step_limit: DEFAULT_STEP_LIMIT,
            lenient: false,
            first_keeper_walk: false,
        }
    }
}

/// The search machinery; the generated node functions work on it.
pub struct Search {
    pub v: Vec<u32>,
    hash: u128,
    /// Whether `hash` holds the hash of the values as of `hashed_upto`
    /// log entries; it is computed only when a visited set or the
    /// reachability cache first needs it after a load.
    hash_valid: bool,
    hashed_upto: usize,
    /// Log length at which `hash` became valid; the entries folded into
    /// it since (`log[hash_base..hashed_upto]`) keep their hash change in
    /// `deltas`, so undoing them costs no rehashing.
    hash_base: usize,
    deltas: Vec<u128>,
    log: Vec<(u32, u32, u32)>,
    pub tags: Vec<u32>,
    prefix: Vec<u128>,
    vis: Vec<u64>,
    pub visited: HashSet128,
    reach_visited: Vec<HashSet128>,
    reach_cache: HashMap<(u32, u32, u128), bool, Prehashed>,
    steps: u64,
    pub options: Options,
    /// Stop the search (first keeper walk found).
    pub stop: bool,
    stop_at_first: bool,
    counting: bool,
    seen: HashSet128,
    index: HashMap<u128, usize, Prehashed>,
    found: Vec<Move>,
}

impl Search {
    pub fn new(options: Options) -> Search {
        Search {
            v: Vec::new(),
            hash: 0,
            hash_valid: false,
            hashed_upto: 0,
            hash_base: 0,
            deltas: Vec::new(),
            log: Vec::new(),
            tags: Vec::new(),
            prefix: Vec::new(),
            vis: Vec::new(),
            visited: HashSet128::default(),
            reach_visited: Vec::new(),
            reach_cache: HashMap::default(),
            steps: 0,
            options,
            stop: false,
            stop_at_first: false,
            counting: false,
            seen: HashSet128::default(),
            index: HashMap::default(),
            found: Vec::new(),
        }
    }

    fn load(&mut self, state: &State) {
        self.v.clear();
        self.v.extend_from_slice(&state.values);
        self.hash_valid = false;
        self.hashed_upto = 0;
        self.hash_base = 0;
        self.deltas.clear();
        self.log.clear();
        self.tags.clear();
        self.prefix.clear();
        self.vis.clear();
        self.visited.clear();
        if !self.reach_cache.is_empty() {
            self.reach_cache.clear();
        }
        self.steps = 0;
        self.stop = false;
        self.stop_at_first = false;
    }

    #[inline(always)]
    pub fn mark(&self) -> (usize, usize) {
        (self.log.len(), self.tags.len())
    }

    #[inline(always)]
    pub fn set(&mut self, slot: u32, value: u32) {
        let old = self.v[slot as usize];
        if old != value {
            self.log.push((slot, old, value));
            self.v[slot as usize] = value;
        }
    }

    #[inline(always)]
    pub fn undo(&mut self, mark: (usize, usize)) {
        while self.log.len() > mark.0 {
            let (slot, old, new) = self.log.pop().unwrap_or_default();
            let k = self.log.len();
            if k < self.hashed_upto {
                if k >= self.hash_base {
                    self.hash ^= self.deltas.pop().unwrap_or_default();
                } else {
                    self.hash ^= contribution(slot, old) ^ contribution(slot, new);
                }
            }
            self.v[slot as usize] = old;
        }
        self.hashed_upto = self.hashed_upto.min(mark.0);
        self.hash_base = self.hash_base.min(mark.0);
        self.tags.truncate(mark.1);
        self.prefix.truncate(mark.1);
    }

    #[inline]
    fn state_hash(&mut self) -> u128 {
        if !self.hash_valid {
            // The hash of the current values (what folding the log into
            // the loaded state's hash would give).
            self.hash = hash_values(&self.v);
            self.hashed_upto = self.log.len();
            self.hash_base = self.log.len();
            self.deltas.clear();
            self.hash_valid = true;
            return self.hash;
        }
        for &(slot, old, new) in &self.log[self.hashed_upto..] {
            let delta = contribution(slot, old) ^ contribution(slot, new);
            self.hash ^= delta;
            self.deltas.push(delta);
        }
        self.hashed_upto = self.log.len();
        self.hash
    }

    #[inline]
    fn prefix_hash(&self) -> u128 {
        self.prefix.last().copied().unwrap_or(0)
    }

    /// Marks (node, semistate, tag prefix) visited in the move search;
    /// false if it already was.
    #[inline]
    pub fn visit_move(&mut self, node: u32) -> bool {
        let key = self.state_hash() ^ self.prefix_hash() ^ node_contribution(node);
        self.visited.insert(key)
    }

    /// Whether the visited check under visit guard `g` can be skipped (the
    /// guard's variable holds a value on no cycle of its loop's maps).
    #[inline]
    pub fn guard_skips(&self, g: usize) -> bool {
        let (slot, safe) = game::VISIT_GUARDS[g];
        let x = self.v[slot];
        safe.get((x >> 6) as usize)
            .is_some_and(|word| (word >> (x & 63)) & 1 != 0)
    }

    /// Marks (node, semistate) visited in the reachability search at `depth`.
    #[inline]
    pub fn visit_reach(&mut self, depth: usize, node: u32) -> bool {
        let key = self.state_hash() ^ node_contribution(node);
        self.reach_visited[depth].insert(key)
    }

    /// Counts one search step; fails past the step limit.
    #[inline(always)]
    pub fn tick(&mut self, node: u32) -> R<()> {
        self.steps += 1;
        if self.steps > self.options.step_limit {
            return Err(self.step_limit_fault(node));
        }
        Ok(())
    }

    #[cold]
    fn step_limit_fault(&self, node: u32) -> Fault {
        Fault::Message(format!(
            "move search does not terminate: more than {} steps (in node {}; the step limit)",
            self.options.step_limit,
            game::NODES[node as usize]
        ))
    }

    /// A key outside a map's key type: the lenient default or a fault.
    #[cold]
    pub fn bad_key(&self, key: u32, table: u32, fallback: u32, node: u32) -> R<u32> {
        if self.options.lenient && fallback != INVALID {
            Ok(fallback)
        } else {
            Err(Fault::Key {
                symbol: key,
                table,
                node,
            })
        }
    }

    #[inline(always)]
    pub fn push_tag(&mut self, tag: u32, node: u32) -> R<()> {
        let position = self.tags.len();
        if position >= MAX_MOVE_TAGS {
            return Err(fault("move search does not terminate: a move has too many tags", node));
        }
        self.tags.push(tag);
        let h = self.prefix_hash() ^ tag_contribution(position, tag);
        self.prefix.push(h);
        if game::VISIBILITY_CHANGES {
            self.record_visibility(position);
        }
        Ok(())
    }

    #[inline(never)]
    fn record_visibility(&mut self, position: usize) {
        let mut mask = 0u64;
        for (k, &slot) in game::VISIBLE_SLOTS.iter().enumerate().take(64) {
            if slot != INVALID && self.v[slot as usize] == game::ONE {
                mask |= 1 << k;
            }
        }
        self.vis.truncate(position);
        self.vis.push(mask);
    }

    /// A region (map value) of the state or the pool.
    pub fn region(&self, pool: bool, offset: u32, size: u32) -> Vec<u32> {
        let range = offset as usize..(offset + size) as usize;
        if pool {
            game::POOL[range].to_vec()
        } else {
            self.v[range].to_vec()
        }
    }

    /// Extensional equality of two maps.
    pub fn equal_regions(
        &self,
        a: (bool, u32, &'static Layout),
        b: (bool, u32, &'static Layout),
        node: u32,
    ) -> R<bool> {
        let left = self.region(a.0, a.1, a.2.size());
        if a.2 == b.2 {
            return Ok(left == self.region(b.0, b.1, b.2.size()));
        }
        let mut converted = vec![0u32; a.2.size() as usize];
        let source: &[u32] = if b.0 { game::POOL } else { &self.v };
        copy_value(source, b.1, b.2, &mut converted, 0, a.2).map_err(|m| fault(m, node))?;
        Ok(left == converted)
    }

    /// `target = region` for maps.
    pub fn assign_region(
        &mut self,
        offset: u32,
        layout: &'static Layout,
        source: (bool, u32, &'static Layout),
        node: u32,
    ) -> R<()> {
        let mut buffer = vec![0u32; layout.size() as usize];
        let values: &[u32] = if source.0 { game::POOL } else { &self.v };
        copy_value(values, source.1, source.2, &mut buffer, 0, layout)
            .map_err(|m| fault(m, node))?;
        for (k, v) in buffer.into_iter().enumerate() {
            self.set(offset + k as u32, v);
        }
        Ok(())
    }

    /// A move search reached a `player` assignment.
    pub fn complete_move(&mut self, target: u32, player: u32) -> R<()> {
        let prefix = self.prefix_hash();
        if self.counting {
            self.seen.insert(prefix);
        } else {
            let slot = game::PLAYER_SLOT as usize;
            let mut values: Box<[u32]> = self.v.clone().into_boxed_slice();
            values[slot] = player;
            let next = State {
                node: target,
                values,
            };
            if let Some(&existing) = self.index.get(&prefix) {
                let previous = &self.found[existing].next;
                if *previous != next {
                    let tags: Vec<&str> = self
                        .tags
                        .iter()
                        .map(|&t| game::SYMBOLS[t as usize])
                        .collect();
                    return Err(Fault::Message(format!(
                        "ambiguous move: the tag sequence \"{}\" leads to different states",
                        tags.join(" ")
                    )));
                }
                return Ok(());
            }
            self.index.insert(prefix, self.found.len());
            self.found.push(Move {
                tags: self.tags.clone().into_boxed_slice(),
                visibility: game::VISIBILITY_CHANGES
                    .then(|| self.vis[..self.tags.len()].to_vec().into_boxed_slice()),
                next,
            });
        }
        if self.stop_at_first {
            self.stop = true;
        }
        Ok(())
    }

    /// `? from -> to` on the current semistate (restored afterwards).
    pub fn reach(&mut self, from: u32, to: u32, depth: usize) -> R<bool> {
        if from == to {
            return Ok(true);
        }
        if depth > MAX_CHECK_NESTING {
            return Err(fault(
                "reachability checks nested more than 1000 deep; stopping instead of overflowing the stack",
                from,
            ));
        }
        let key = (from, to, self.state_hash());
        if let Some(&known) = self.reach_cache.get(&key) {
            return Ok(known);
        }
        if self.reach_visited.len() <= depth {
            self.reach_visited.resize_with(depth + 1, HashSet128::default);
        }
        self.reach_visited[depth].clear();
        let mark = self.mark();
        let result = game::reach_from(self, from, to, depth);
        self.undo(mark);
        let found = result?;
        if self.reach_cache.len() < 1 << 20 {
            self.reach_cache.insert(key, found);
        }
        Ok(found)
    }
}

/// The compiled game as a forward model.
pub struct Model {
    search: Search,
    options: Options,
}

impl Model {
    pub fn new(options: Options) -> Model {
        Model {
            search: Search::new(options),
            options,
        }
    }

    pub fn player_names(&self) -> Vec<&'static str> {
        game::PLAYERS
            .iter()
            .map(|&s| game::SYMBOLS[s as usize])
            .collect()
    }

    pub fn initial(&mut self) -> R<State> {
        let mut state = State {
            node: game::BEGIN,
            values: game::INITIAL.to_vec().into_boxed_slice(),
        };
        if !self.options.expose_keeper {
            self.complete_keeper(&mut state)?;
        }
        Ok(state)
    }

    pub fn is_terminal(&self, state: &State) -> bool {
        state.node == game::END
    }

    pub fn current_player(&self, state: &State) -> Player {
        let mover = state.values[game::PLAYER_SLOT as usize];
        if mover == game::RANDOM {
            Player::Random
        } else if let Some(index) = game::PLAYERS.iter().position(|&s| s == mover) {
            Player::Real(index)
        } else {
            Player::Keeper
        }
    }

    fn run(&mut self, state: &State, counting: bool) -> R<()> {
        let s = &mut self.search;
        s.load(state);
        s.counting = counting;
        s.seen.clear();
        if !s.index.is_empty() {
            s.index.clear();
        }
        s.found.clear();
        s.stop_at_first = s.options.first_keeper_walk
            && state.values[game::PLAYER_SLOT as usize] == game::KEEPER;
        game::moves_from(s, state.node)
    }

    /// The legal moves (keeper moves are not completed here).
    pub fn legal_moves(&mut self, state: &State) -> R<Vec<Move>> {
        if state.node == game::END {
            return Ok(Vec::new());
        }
        self.run(state, false)?;
        Ok(std::mem::take(&mut self.search.found))
    }

    /// The number of distinct moves (tag sequences).
    pub fn count_moves(&mut self, state: &State) -> R<u64> {
        if state.node == game::END {
            return Ok(0);
        }
        self.run(state, true)?;
        Ok(self.search.seen.len() as u64)
    }

    pub fn complete_keeper(&mut self, state: &mut State) -> R<()> {
        for _ in 0..MAX_KEEPER_CHAIN {
            if state.node == game::END
                || state.values[game::PLAYER_SLOT as usize] != game::KEEPER
            {
                return Ok(());
            }
            let mut moves = self.legal_moves(state)?;
            match moves.len() {
                1 => *state = moves.pop().map(|m| m.next).unwrap_or_else(|| state.clone()),
                0 => {
                    return Err(Fault::Message(format!(
                        "game unexpectedly ended: the keeper has no legal move in node {}",
                        game::NODES[state.node as usize]
                    )))
                }
                k => {
                    return Err(Fault::Message(format!(
                        "keeper had {k} moves in node {}; it must have exactly one",
                        game::NODES[state.node as usize]
                    )))
                }
            }
        }
        Err(Fault::Message(format!(
            "the keeper made more than {MAX_KEEPER_CHAIN} moves in a row"
        )))
    }

    pub fn apply(&mut self, state: &mut State, mv: &Move) -> R<()> {
        *state = mv.next.clone();
        if !self.options.expose_keeper {
            self.complete_keeper(state)?;
        }
        Ok(())
    }

    /// Each player's score (numeric value of its `goals` entry, else 0).
    pub fn goals(&self, state: &State) -> Vec<i64> {
        game::GOAL_SLOTS
            .iter()
            .map(|&slot| {
                if slot == INVALID {
                    return 0;
                }
                let score = state.values[slot as usize];
                game::SCORES
                    .iter()
                    .find(|(id, _)| *id == score)
                    .map_or(0, |(_, v)| *v)
            })
            .collect()
    }

    pub fn format_move(&self, mv: &Move) -> String {
        let tags: Vec<&str> = mv.tags.iter().map(|&t| game::SYMBOLS[t as usize]).collect();
        tags.join(" ")
    }

    /// Perft as `rg_core::model::perft` counts it (rg.md §6).
    pub fn perft(&mut self, state: &State, depth: u32) -> R<u64> {
        if depth == 0 {
            return Ok(1);
        }
        let player = self.current_player(state);
        if depth == 1 && matches!(player, Player::Real(_)) {
            return self.count_moves(state);
        }
        let moves = self.legal_moves(state)?;
        let mut total = 0;
        let mut seen = HashSet::new();
        for mv in moves {
            // `apply` without copying the state twice.
            let mut child = mv.next;
            if !self.options.expose_keeper {
                self.complete_keeper(&mut child)?;
            }
            total += match player {
                Player::Keeper => self.perft(&child, depth)?,
                Player::Random => {
                    if seen.insert(child.clone()) {
                        self.perft(&child, depth - 1)?
                    } else {
                        0
                    }
                }
                Player::Real(_) => self.perft(&child, depth - 1)?,
            };
        }
        Ok(total)
    }

    /// One uniformly random playout; returns the number of moves made, the
    /// sum of the numbers of legal moves met, and the final goals.
    pub fn playout(&mut self, rng: &mut Rng, max_moves: u64) -> R<(u64, u64, Vec<i64>)> {
        let mut state = self.initial()?;
        let mut made = 0;
        let mut branching = 0;
        while !self.is_terminal(&state) {
            if made >= max_moves {
                return Err(Fault::Message("the playout did not end".into()));
            }
            let moves = self.legal_moves(&state)?;
            if moves.is_empty() {
                break;
            }
            branching += moves.len() as u64;
            let pick = rng.below(moves.len() as u64) as usize;
            self.apply(&mut state, &moves[pick])?;
            made += 1;
        }
        Ok((made, branching, self.goals(&state)))
    }
}

/// A small deterministic generator (xorshift64*), so the crate needs no
/// dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(splitmix(seed) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}
