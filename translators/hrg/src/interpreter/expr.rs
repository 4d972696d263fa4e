//! Runtime expressions and conditions (hrg.md §3.3, §4.13) over a
//! semistate: variables are read from their slots, constant functions are
//! applied by pattern matching on demand (memoized), constructors are
//! evaluated statically with the current copy's `branch`/`repeat`
//! variables, and keys outside a map's key type are faults (strict) or
//! read as the map's innermost default (lenient), as in the RG engine.

use std::collections::HashMap;
use std::rc::Rc;

use rg_core::ast as rg;
use rg_core::diag::Span;
use rg_core::model::ModelError;

use crate::value::{compress, Value};

use super::control::Control;
use super::ir::{Global, RExpr, Target};
use super::search::Search;
use super::values::{KeyTable, Symbols, Ty, Values};

/// The mutable side of the interpreter: symbols created while playing,
/// interned control positions and caches.
pub(super) struct Runtime {
    pub symbols: Symbols,
    pub control: Control,
    ctor_cache: HashMap<(u32, u32), Global>,
    memo: HashMap<(u32, Vec<u32>), u32>,
    fallbacks: HashMap<u32, Option<u32>>,
}

impl Runtime {
    pub fn new(symbols: Symbols, control: Control) -> Runtime {
        Runtime {
            symbols,
            control,
            ctor_cache: HashMap::new(),
            memo: HashMap::new(),
            fallbacks: HashMap::new(),
        }
    }
}

/// A value during evaluation.
#[derive(Clone, Debug)]
pub(super) enum RVal {
    Sym(u32),
    /// A map stored in the state, with its variable's lenient fallback.
    Slots {
        base: u32,
        ty: Rc<Ty>,
        fallback: Option<Global>,
    },
    /// A constant function with the arguments given so far.
    Func {
        f: u32,
        args: Vec<u32>,
    },
    /// A lenient read outside a key type: the fallback symbol, which
    /// absorbs the rest of the access chain (as in the engine).
    Lenient(u32),
}

fn keys_text(symbols: &Symbols, table: &KeyTable) -> String {
    let mut shown: Vec<&str> = table
        .symbols
        .iter()
        .take(8)
        .map(|&s| symbols.name(s))
        .collect();
    if table.symbols.len() > 8 {
        shown.push("...");
    }
    shown.join(", ")
}

impl Search<'_> {
    fn invalid_key(&self, key: u32, table: &KeyTable) -> ModelError {
        let symbols = &self.rt.symbols;
        ModelError::new(format!(
            "invalid access: key {} is not in the map's key type {{ {} }} \
             (the description is improper; --lenient reads such keys as the map's default)",
            symbols.name(key),
            keys_text(symbols, table)
        ))
    }

    pub(super) fn eval(
        &mut self,
        e: &RExpr,
        env: u32,
        values: &Values,
    ) -> Result<RVal, ModelError> {
        match e {
            RExpr::Global(g) => Ok(self.global_value(*g, values)),
            RExpr::Param(slot, ty) => Ok(match **ty {
                Ty::Set(_) => RVal::Sym(values.get(*slot)),
                Ty::Map { .. } => RVal::Slots {
                    base: *slot,
                    ty: ty.clone(),
                    fallback: None,
                },
            }),
            RExpr::Sub(name) => {
                let symbol = self.substitution(env, name)?;
                let g = self.game.global(symbol);
                Ok(self.global_value(g, values))
            }
            RExpr::Access(m, k) => {
                let map = self.eval(m, env, values)?;
                let key = self.eval_symbol(k, env, values)?;
                self.access(map, key, values, self.lenient)
            }
            RExpr::Ctor { id, expr } => {
                let g = match self.rt.ctor_cache.get(&(*id, env)) {
                    Some(&g) => g,
                    None => {
                        let bindings = self.rt.control.env(env).subs.iter().map(|(name, s)| {
                            (name.clone(), Value::symbol(self.rt.symbols.name(*s)))
                        });
                        let value = self
                            .game
                            .statics
                            .eval_bound(expr, bindings.collect())
                            .map_err(|d| ModelError::new(d.message))?;
                        let symbol = self.rt.symbols.intern(&value.serialize());
                        let g = self.game.global(symbol);
                        self.rt.ctor_cache.insert((*id, env), g);
                        g
                    }
                };
                Ok(self.global_value(g, values))
            }
        }
    }

    /// The value of the copy's variable `name` (hrg.md §4.8).
    pub(super) fn substitution(&self, env: u32, name: &str) -> Result<u32, ModelError> {
        self.rt
            .control
            .env(env)
            .subs
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
            .ok_or_else(|| ModelError::new(format!("\"{name}\" has no value here")))
    }

    pub(super) fn eval_symbol(
        &mut self,
        e: &RExpr,
        env: u32,
        values: &Values,
    ) -> Result<u32, ModelError> {
        match self.eval(e, env, values)? {
            RVal::Sym(s) | RVal::Lenient(s) => Ok(s),
            _ => Err(ModelError::new("a map where a symbol is expected")),
        }
    }

    fn global_value(&self, g: Global, values: &Values) -> RVal {
        match g {
            Global::Sym(s) => RVal::Sym(s),
            Global::Func(f) => RVal::Func {
                f,
                args: Vec::new(),
            },
            Global::Var(v) => {
                let var = &self.game.vars[v as usize];
                match *var.ty {
                    Ty::Set(_) => RVal::Sym(values.get(var.base)),
                    Ty::Map { .. } => RVal::Slots {
                        base: var.base,
                        ty: var.ty.clone(),
                        fallback: var.fallback,
                    },
                }
            }
        }
    }

    /// `map[key]`; `lenient` reads keys outside the key type as the
    /// fallback (never used for copies and writes).
    pub(super) fn access(
        &mut self,
        map: RVal,
        key: u32,
        values: &Values,
        lenient: bool,
    ) -> Result<RVal, ModelError> {
        match map {
            RVal::Lenient(s) => Ok(RVal::Lenient(s)),
            RVal::Sym(s) => Err(ModelError::new(format!(
                "the symbol {} is accessed as a map",
                self.rt.symbols.name(s)
            ))),
            RVal::Slots { base, ty, fallback } => {
                let Ty::Map {
                    keys,
                    value,
                    value_size,
                } = &*ty
                else {
                    return Err(ModelError::new("a symbol is accessed as a map"));
                };
                match keys.slot(key) {
                    Some(i) => {
                        let at = base + i * value_size;
                        Ok(match **value {
                            Ty::Set(_) => RVal::Sym(values.get(at)),
                            Ty::Map { .. } => RVal::Slots {
                                base: at,
                                ty: value.clone(),
                                fallback,
                            },
                        })
                    }
                    None => match fallback {
                        Some(g) if lenient => Ok(RVal::Lenient(self.fallback_symbol(g)?)),
                        _ => Err(self.invalid_key(key, keys)),
                    },
                }
            }
            RVal::Func { f, mut args } => {
                let func = &self.game.funcs[f as usize];
                let table = &func.keys[args.len()];
                if table.slot(key).is_none() {
                    if lenient {
                        return Ok(RVal::Lenient(self.fallback_symbol(Global::Func(f))?));
                    }
                    return Err(self.invalid_key(key, table));
                }
                args.push(key);
                if args.len() < func.patterns {
                    return Ok(RVal::Func { f, args });
                }
                let result = self.apply(f, &args)?;
                if func.arrows == func.patterns {
                    return Ok(RVal::Sym(result));
                }
                // Partial application: the result names another constant
                // function of the remaining type (§2.5).
                match self.game.global(result) {
                    Global::Func(g) => Ok(RVal::Func {
                        f: g,
                        args: Vec::new(),
                    }),
                    _ => Err(ModelError::new(format!(
                        "{}(...) gives {}, which is not a constant function",
                        func.name,
                        self.rt.symbols.name(result)
                    ))),
                }
            }
        }
    }

    /// Applies function `f` to `args` (one per pattern), memoized.
    fn apply(&mut self, f: u32, args: &[u32]) -> Result<u32, ModelError> {
        if let Some(&r) = self.rt.memo.get(&(f, args.to_vec())) {
            return Ok(r);
        }
        let values: Vec<Value> = args
            .iter()
            .map(|a| {
                self.game
                    .sym_value
                    .get(a)
                    .cloned()
                    .unwrap_or_else(|| Value::symbol(self.rt.symbols.name(*a)))
            })
            .collect();
        let name = &self.game.funcs[f as usize].name;
        let result = self
            .game
            .statics
            .apply(f as usize, &values, Span::default())
            .map_err(|d| ModelError::new(d.message))?;
        if result.is_map() {
            return Err(ModelError::new(format!(
                "Function \"{name}\" returns a map; results must be symbols or constructors."
            )));
        }
        let symbol = self.rt.symbols.intern(&result.serialize());
        self.rt.memo.insert((f, args.to_vec()), symbol);
        Ok(symbol)
    }

    /// The symbol a lenient read yields for a map rooted at `g`.
    fn fallback_symbol(&mut self, g: Global) -> Result<u32, ModelError> {
        match g {
            Global::Sym(s) => Ok(s),
            Global::Var(v) => match self.game.vars[v as usize].fallback {
                Some(inner) => self.fallback_symbol(inner),
                None => Err(ModelError::new("no default to read leniently")),
            },
            Global::Func(f) => {
                if let Some(known) = self.rt.fallbacks.get(&f) {
                    return known.ok_or_else(|| ModelError::new("no default to read leniently"));
                }
                let literal = self.function_literal(f, &mut Vec::new())?;
                let mut current = &literal;
                let mut result = None;
                loop {
                    match current {
                        rg::Value::Map(entries, _) => {
                            match entries.iter().find(|e| e.key.is_none()) {
                                Some(d) => current = &d.value,
                                None => break,
                            }
                        }
                        rg::Value::Symbol(name, _) => {
                            let s = self.rt.symbols.intern(name);
                            result = Some(match self.game.global(s) {
                                Global::Func(other) if other != f => {
                                    self.fallback_symbol(Global::Func(other))?
                                }
                                _ => s,
                            });
                            break;
                        }
                    }
                }
                self.rt.fallbacks.insert(f, result);
                result.ok_or_else(|| ModelError::new("no default to read leniently"))
            }
        }
    }

    /// A function's value as the compressed RG map of §2.5, needed only to
    /// know the default a lenient read outside its key type yields.
    fn function_literal(&mut self, f: u32, prefix: &mut Vec<u32>) -> Result<rg::Value, ModelError> {
        let func = &self.game.funcs[f as usize];
        if prefix.len() == func.patterns {
            let r = self.apply(f, prefix)?;
            return Ok(rg::Value::symbol(self.rt.symbols.name(r)));
        }
        let keys = func.keys[prefix.len()].clone();
        let mut entries = Vec::new();
        for &k in &keys.symbols {
            prefix.push(k);
            let v = self.function_literal(f, prefix)?;
            prefix.pop();
            entries.push((self.rt.symbols.name(k).to_string(), v));
        }
        Ok(compress(entries))
    }

    /// Extensional equality (rg.md §5.1).
    pub(super) fn equal(
        &mut self,
        a: &RVal,
        b: &RVal,
        values: &Values,
    ) -> Result<bool, ModelError> {
        match (a, b) {
            (RVal::Sym(x) | RVal::Lenient(x), RVal::Sym(y) | RVal::Lenient(y)) => Ok(x == y),
            (RVal::Sym(_) | RVal::Lenient(_), _) | (_, RVal::Sym(_) | RVal::Lenient(_)) => {
                Err(ModelError::new("a map compared with a symbol"))
            }
            _ => {
                let keys = self.keys_of(a);
                for &k in &keys.symbols {
                    let x = self.access(a.clone(), k, values, self.lenient)?;
                    let y = self.access(b.clone(), k, values, self.lenient)?;
                    if !self.equal(&x, &y, values)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    fn keys_of(&self, map: &RVal) -> Rc<KeyTable> {
        match map {
            RVal::Slots { ty, .. } => match &**ty {
                Ty::Map { keys, .. } => keys.clone(),
                Ty::Set(_) => Rc::new(KeyTable::new(Vec::new())),
            },
            RVal::Func { f, args } => self.game.funcs[*f as usize].keys[args.len()].clone(),
            _ => Rc::new(KeyTable::new(Vec::new())),
        }
    }

    /// The slots of `v` laid out as type `ty` (whole-map assignments).
    fn materialize(
        &mut self,
        v: &RVal,
        ty: &Ty,
        values: &Values,
        out: &mut Vec<u32>,
    ) -> Result<(), ModelError> {
        match ty {
            Ty::Set(_) => match v {
                RVal::Sym(s) | RVal::Lenient(s) => {
                    out.push(*s);
                    Ok(())
                }
                _ => Err(ModelError::new("a map and a symbol are not assignable")),
            },
            Ty::Map { keys, value, .. } => {
                if matches!(v, RVal::Sym(_) | RVal::Lenient(_)) {
                    return Err(ModelError::new("a map and a symbol are not assignable"));
                }
                for &k in &keys.symbols {
                    let sub = self.access(v.clone(), k, values, false).map_err(|_| {
                        ModelError::new("the source map has no entry for a key of the target")
                    })?;
                    self.materialize(&sub, value, values, out)?;
                }
                Ok(())
            }
        }
    }

    /// The slot and type an assignment target designates (keys evaluated
    /// in `values`, the state before the assignment).
    pub(super) fn location(
        &mut self,
        target: &Target,
        env: u32,
        values: &Values,
    ) -> Result<(u32, Rc<Ty>), ModelError> {
        let var = &self.game.vars[target.var as usize];
        let (mut slot, mut ty) = (var.base, var.ty.clone());
        for a in &target.accessors {
            let key = self.eval_symbol(a, env, values)?;
            let Ty::Map {
                keys,
                value,
                value_size,
            } = &*ty
            else {
                return Err(ModelError::new(format!(
                    "{} is accessed as a map",
                    var.name
                )));
            };
            let Some(i) = keys.slot(key) else {
                return Err(self.invalid_key(key, keys));
            };
            slot += i * value_size;
            ty = value.clone();
        }
        Ok((slot, ty))
    }

    /// Writes `v` (evaluated in `before`) at `slot` of type `ty` in `into`.
    pub(super) fn write(
        &mut self,
        into: &mut Values,
        slot: u32,
        ty: &Ty,
        v: &RVal,
        before: &Values,
    ) -> Result<(), ModelError> {
        let mut out = Vec::new();
        self.materialize(v, ty, before, &mut out)?;
        for (k, s) in out.into_iter().enumerate() {
            into.set(slot + k as u32, s);
        }
        Ok(())
    }
}
