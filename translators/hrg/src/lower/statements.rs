//! Statements, conditions and runtime expressions (hrg.md §3.3, §4,
//! §5.6–5.8) as automaton fragments.

use rg_core::ast as rg;
use rg_core::build::label;
use rg_core::diag::{Diagnostic, Span};

use super::{parameter_variable, rg_type, Instance, Lowering};
use crate::ast::{BinaryOp, Expr, ExprKind, GraphDecl, Name, Stmt, StmtKind, TypeExpr};
use crate::eval::Bindings;
use crate::limits::{LIMITS_FILE, MAX_EXPANDED_STATEMENTS};
use crate::value::Value;

type Translated<T> = Result<T, Diagnostic>;

fn fatal<T>(message: impl Into<String>, span: Span) -> Translated<T> {
    Err(Diagnostic::error(message, span))
}

/// Statements that jump away; they must end their block.
fn is_jump(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::Call { callee, .. } if matches!(callee.text.as_str(), "end" | "return" | "break" | "continue"))
}

impl<'p> Lowering<'p> {
    /// Translates a block from `from` to `to`, ending with a skip edge to
    /// `to` unless its last statement jumps. Errors are recorded and the
    /// rest of the block is still translated.
    pub(crate) fn block(&mut self, instance: &Instance<'p>, block: &[Stmt], from: &str, to: &str) {
        let mut current = Some(from.to_string());
        for (k, statement) in block.iter().enumerate() {
            let Some(cur) = current.clone() else { break };
            if !self.count_expansion(statement) {
                return;
            }
            if is_jump(statement) && k + 1 < block.len() {
                self.errors.push(Diagnostic::error(
                    "This statement jumps away, so it must be the last statement of its block.",
                    statement.span,
                ));
            }
            self.builder.set_origin(Some(statement.span));
            match self.statement(instance, statement, &cur) {
                Ok(next) => current = next,
                Err(e) => {
                    self.errors.push(e);
                    current = Some(cur);
                }
            }
        }
        if let Some(cur) = current {
            if let Some(last) = block.last() {
                self.builder.set_origin(Some(last.span));
            }
            self.builder.skip(&cur, to);
        }
    }

    /// Counts one translated statement; false (with one error for the whole
    /// translation) once copies of `repeat`/`branch x in` bodies and inlined
    /// graphs exceed [`MAX_EXPANDED_STATEMENTS`].
    fn count_expansion(&mut self, statement: &Stmt) -> bool {
        if self.expansion_refused {
            return false;
        }
        self.expanded += 1;
        if self.expanded > MAX_EXPANDED_STATEMENTS {
            self.expansion_refused = true;
            self.errors.push(Diagnostic::error(
                format!(
                    "The translation expands to more than {MAX_EXPANDED_STATEMENTS} statements \
                     (copies of repeat and branch bodies and of inlined graphs); this one is past \
                     the limit (raise MAX_EXPANDED_STATEMENTS in {LIMITS_FILE} to allow more)."
                ),
                statement.span,
            ));
            return false;
        }
        true
    }

    /// Translates one statement starting at `cur`; the node where the next
    /// statement starts, or `None` after a jump.
    fn statement(
        &mut self,
        inst: &Instance<'p>,
        s: &Stmt,
        cur: &str,
    ) -> Translated<Option<String>> {
        let sp = inst.sp.clone();
        match &s.kind {
            StmtKind::Assign {
                target,
                accessors,
                value,
            } => {
                let lhs = self.target(inst, target, accessors)?;
                let rhs = self.runtime(inst, value)?;
                let next = self.fresh(&sp);
                self.builder.edge(cur, &next, label::assign(lhs, rhs));
                Ok(Some(next))
            }
            StmtKind::AssignAny {
                target,
                accessors,
                ty,
            } => {
                let lhs = self.target(inst, target, accessors)?;
                if target.text == "player" {
                    return fatal("\"player = T(*)\" is not allowed: the player must be chosen deterministically.", s.span);
                }
                let next = self.fresh(&sp);
                self.builder
                    .edge(cur, &next, label::assign_any(lhs, rg_type(ty)));
                Ok(Some(next))
            }
            StmtKind::Call { callee, args } => self.call_statement(inst, callee, args, cur, s.span),
            StmtKind::Branch(arms) => {
                let join = self.fresh(&sp);
                for arm in arms {
                    self.block(inst, arm, cur, &join);
                }
                Ok(Some(join))
            }
            StmtKind::BranchIn { variable, ty, body } => {
                let values = self.enumerate(ty)?;
                let join = self.fresh(&sp);
                for v in values {
                    let copy = inst.substituted(&variable.text, &v);
                    self.block(&copy, body, cur, &join);
                }
                Ok(Some(join))
            }
            StmtKind::If {
                condition,
                then_block,
                else_block,
            } => {
                let then_node = self.fresh(&sp);
                let else_node = self.fresh(&sp);
                match else_block {
                    None => {
                        self.condition(inst, condition, cur, Some(&then_node), Some(&else_node))?;
                        self.block(inst, then_block, &then_node, &else_node);
                        Ok(Some(else_node))
                    }
                    Some(else_block) => {
                        let join = self.fresh(&sp);
                        self.condition(inst, condition, cur, Some(&then_node), Some(&else_node))?;
                        self.block(inst, then_block, &then_node, &join);
                        self.block(inst, else_block, &else_node, &join);
                        Ok(Some(join))
                    }
                }
            }
            StmtKind::Loop(body) => {
                let head = self.fresh(&sp);
                self.builder.skip(cur, &head);
                let exit = self.fresh(&sp);
                let inner = inst.in_loop(&exit, &head);
                self.block(&inner, body, &head, &head);
                Ok(Some(exit))
            }
            StmtKind::While { condition, body } => {
                let then_node = self.fresh(&sp);
                let else_node = self.fresh(&sp);
                self.condition(inst, condition, cur, Some(&then_node), Some(&else_node))?;
                let inner = inst.in_loop(&else_node, cur);
                self.block(&inner, body, &then_node, cur);
                Ok(Some(else_node))
            }
            StmtKind::Repeat { count, body } => {
                if let Some(refusal) = crate::limits::repeat_count_refusal(*count) {
                    return fatal(refusal, s.span);
                }
                let copies = vec![None; *count as usize];
                self.repeat(inst, copies, None, body, cur)
            }
            StmtKind::RepeatIn { variable, ty, body } => {
                let values = self.enumerate(ty)?.into_iter().map(Some).collect();
                self.repeat(inst, values, Some(&variable.text), body, cur)
            }
            StmtKind::VarTag(variable) => {
                if inst.substitution(&variable.text).is_some() {
                    return fatal(
                        format!("Cannot substitute \"{}\" in tag variable.", variable.text),
                        variable.span,
                    );
                }
                let next = self.fresh(&sp);
                self.builder
                    .edge(cur, &next, label::var_tag(&variable.text));
                Ok(Some(next))
            }
            StmtKind::Tag {
                artificial,
                symbols,
            } => {
                let parts: Vec<String> = symbols
                    .iter()
                    .map(|s| inst.substitution(&s.text).unwrap_or(&s.text).to_string())
                    .collect();
                let tag = parts.join("__");
                if *artificial {
                    self.artificial_tags.insert(tag.clone());
                }
                let next = self.fresh(&sp);
                self.builder.edge(cur, &next, label::tag(&tag));
                Ok(Some(next))
            }
        }
    }

    /// `repeat n` and `repeat x in T` (§4.8): sequential copies.
    fn repeat(
        &mut self,
        inst: &Instance<'p>,
        copies: Vec<Option<String>>,
        variable: Option<&str>,
        body: &[Stmt],
        cur: &str,
    ) -> Translated<Option<String>> {
        let exit = self.fresh(&inst.sp);
        let mut cur = cur.to_string();
        for value in copies {
            let next = self.fresh(&inst.sp);
            let mut copy = inst.in_loop(&exit, &next);
            if let (Some(variable), Some(value)) = (variable, &value) {
                copy = copy.substituted(variable, value);
            }
            self.block(&copy, body, &cur, &next);
            cur = next;
        }
        self.builder.skip(&cur, &exit);
        Ok(Some(exit))
    }

    /// The symbols of a set literal or domain, for `branch`/`repeat ... in`.
    fn enumerate(&self, ty: &TypeExpr) -> Translated<Vec<String>> {
        match ty {
            TypeExpr::Set(names, _) => Ok(names.iter().map(|n| n.text.clone()).collect()),
            TypeExpr::Named(name, None) => match self.eval.domains.get(&name.text) {
                Some(values) => Ok(values.iter().map(Value::serialize).collect()),
                None => fatal(format!("Unknown type \"{}\".", name.text), name.span),
            },
            TypeExpr::Named(_, Some(_)) => fatal(
                "An arrow type cannot be enumerated by branch or repeat.",
                ty.span(),
            ),
        }
    }

    fn call_statement(
        &mut self,
        inst: &Instance<'p>,
        callee: &Name,
        args: &[Expr],
        cur: &str,
        span: Span,
    ) -> Translated<Option<String>> {
        let expect = |n: usize| -> Translated<()> {
            if args.len() == n {
                Ok(())
            } else {
                fatal(
                    format!(
                        "Function \"{}\" expected {n} arguments but got {}.",
                        callee.text,
                        args.len()
                    ),
                    span,
                )
            }
        };
        match callee.text.as_str() {
            "check" => {
                expect(1)?;
                let next = self.fresh(&inst.sp);
                self.condition(inst, &args[0], cur, Some(&next), None)?;
                Ok(Some(next))
            }
            "end" => {
                expect(0)?;
                self.builder
                    .edge(cur, &inst.end_target, label::switch("keeper"));
                Ok(None)
            }
            "return" => {
                expect(0)?;
                self.builder.skip(cur, &inst.exit);
                Ok(None)
            }
            "break" | "continue" => {
                expect(0)?;
                let Some((break_target, continue_target)) = &inst.loop_targets else {
                    return fatal(
                        format!("\"{}()\" is only allowed inside a loop, while or repeat of the same graph.", callee.text),
                        span,
                    );
                };
                let target = if callee.text == "break" {
                    break_target
                } else {
                    continue_target
                };
                self.builder.skip(cur, target);
                Ok(None)
            }
            _ => {
                if inst.substitution(&callee.text).is_some() {
                    return fatal(
                        format!("Cannot substitute \"{}\" in function name.", callee.text),
                        callee.span,
                    );
                }
                let g = self.graph(callee, args.len(), span)?;
                let next = if g.reusable {
                    self.call_reusable(inst, g, args, cur)?
                } else {
                    self.call_inlined(inst, g, args, cur)?
                };
                Ok(Some(next))
            }
        }
    }

    fn graph(&self, name: &Name, arity: usize, span: Span) -> Translated<&'p GraphDecl> {
        let Some(&g) = self.graphs.get(name.text.as_str()) else {
            return fatal(
                format!("Unknown automaton function \"{}\".", name.text),
                name.span,
            );
        };
        if g.params.len() != arity {
            return fatal(
                format!(
                    "Function \"{}\" expected {} arguments but got {arity}.",
                    name.text,
                    g.params.len()
                ),
                span,
            );
        }
        Ok(g)
    }

    /// §5.6: a call of a non-reusable graph gets its own copy.
    fn call_inlined(
        &mut self,
        inst: &Instance<'p>,
        g: &'p GraphDecl,
        args: &[Expr],
        cur: &str,
    ) -> Translated<String> {
        let prefix = if self.uses_short_names(g) {
            String::new()
        } else {
            format!("{}_", self.fresh(&inst.sp))
        };
        let mut cur = cur.to_string();
        for (i, arg) in args.iter().enumerate() {
            let value = self.runtime(inst, arg)?;
            let next = self.fresh(&prefix);
            self.builder.edge(
                &cur,
                &next,
                label::assign(rg::Expr::name(parameter_variable(g, i)), value),
            );
            cur = next;
        }
        let begin = format!("{prefix}{}_begin", g.name.text);
        self.builder.skip(&cur, &begin);
        let after = self.fresh(&inst.sp);
        self.instantiate(g, &prefix, &inst.end_target.clone(), Some(&after));
        Ok(after)
    }

    /// §5.7: every call of a reusable graph enters its single copy and
    /// comes back through a dispatch on the return-address variable.
    fn call_reusable(
        &mut self,
        inst: &Instance<'p>,
        g: &'p GraphDecl,
        args: &[Expr],
        cur: &str,
    ) -> Translated<String> {
        let name = &g.name.text;
        let call = self.fresh(&format!("{name}_call"));
        let return_variable = format!("{name}_return");
        let return_type = format!("{name}_return_type");
        match self.return_types.get_mut(&return_type) {
            Some((symbols, _)) => symbols.push(call.clone()),
            None => {
                self.return_types
                    .insert(return_type.clone(), (vec![call.clone()], g.name.span));
                self.variables.insert(return_variable.clone());
                self.late_variables.push((
                    return_variable.clone(),
                    rg::Type::name(&return_type),
                    rg::Value::symbol(&call),
                    g.name.span,
                ));
            }
        }
        self.builder.skip(cur, &call);
        let mut cur = self.fresh(&inst.sp);
        self.builder.edge(
            &call,
            &cur,
            label::assign(rg::Expr::name(&return_variable), rg::Expr::name(&call)),
        );
        for (i, arg) in args.iter().enumerate() {
            let value = self.runtime(inst, arg)?;
            let next = self.fresh(&inst.sp);
            self.builder.edge(
                &cur,
                &next,
                label::assign(rg::Expr::name(parameter_variable(g, i)), value),
            );
            cur = next;
        }
        self.builder.skip(&cur, &format!("{name}_begin"));
        if self.instantiated.insert(&g.name.text) {
            self.instantiate(g, "", &inst.end_target.clone(), Some(&return_variable));
        } else {
            self.builder.skip(&format!("{name}_end"), &return_variable);
        }
        let back = self.fresh(&inst.sp);
        self.builder.edge(
            &return_variable,
            &back,
            label::eq(rg::Expr::name(&return_variable), rg::Expr::name(&call)),
        );
        Ok(back)
    }

    /// A condition (§4.13) from `n`, with optional then/else targets.
    pub(crate) fn condition(
        &mut self,
        inst: &Instance<'p>,
        c: &Expr,
        n: &str,
        then: Option<&str>,
        otherwise: Option<&str>,
    ) -> Translated<()> {
        match &c.kind {
            ExprKind::Paren(inner) => self.condition(inst, inner, n, then, otherwise),
            ExprKind::Binary(op @ (BinaryOp::Eq | BinaryOp::Ne), l, r) => {
                let (l, r) = (self.runtime(inst, l)?, self.runtime(inst, r)?);
                let (holds, fails) = if *op == BinaryOp::Eq {
                    (label::eq(l.clone(), r.clone()), label::ne(l, r))
                } else {
                    (label::ne(l.clone(), r.clone()), label::eq(l, r))
                };
                if let Some(t) = then {
                    self.builder.edge(n, t, holds);
                }
                if let Some(f) = otherwise {
                    self.builder.edge(n, f, fails);
                }
                Ok(())
            }
            ExprKind::Binary(BinaryOp::And, l, r) => {
                let middle = self.fresh(&inst.sp);
                self.condition(inst, l, n, Some(&middle), otherwise)?;
                self.condition(inst, r, &middle, then, otherwise)
            }
            ExprKind::Binary(BinaryOp::Or, l, r) => match otherwise {
                None => {
                    self.condition(inst, l, n, then, None)?;
                    self.condition(inst, r, n, then, None)
                }
                Some(f) => {
                    let middle = self.fresh(&inst.sp);
                    self.condition(inst, l, n, then, Some(&middle))?;
                    self.condition(inst, r, &middle, then, Some(f))
                }
            },
            ExprKind::Call(callee, args) => {
                let ExprKind::Name(name) = &callee.kind else {
                    return self.invalid_condition(c);
                };
                let expect = |k: usize| -> Translated<()> {
                    if args.len() == k {
                        Ok(())
                    } else {
                        fatal(
                            format!(
                                "Function \"{}\" expected {k} arguments but got {}.",
                                name.text,
                                args.len()
                            ),
                            c.span,
                        )
                    }
                };
                match name.text.as_str() {
                    "not" => {
                        expect(1)?;
                        self.condition(inst, &args[0], n, otherwise, then)
                    }
                    "true" => {
                        expect(0)?;
                        if let Some(t) = then {
                            self.builder.skip(n, t);
                        }
                        Ok(())
                    }
                    "false" => {
                        expect(0)?;
                        if let Some(f) = otherwise {
                            self.builder.skip(n, f);
                        }
                        Ok(())
                    }
                    "reachable" => {
                        expect(1)?;
                        self.reachable(inst, &args[0], n, then, otherwise)
                    }
                    _ => self.invalid_condition(c),
                }
            }
            _ => self.invalid_condition(c),
        }
    }

    fn invalid_condition(&self, c: &Expr) -> Translated<()> {
        fatal(
            format!(
                "Expression \"{}\" is not a valid condition.",
                crate::display::expr(c)
            ),
            c.span,
        )
        .map_err(|d| {
            d.with_note(
                "conditions are ==, !=, &&, ||, not(...), true(), false() and reachable(g(...))",
            )
        })
    }

    /// `reachable(g(args))` (§5.8): a sub-automaton running `g`, checked
    /// with `? start -> stop` (and its negation for the else target).
    fn reachable(
        &mut self,
        inst: &Instance<'p>,
        call: &Expr,
        n: &str,
        then: Option<&str>,
        otherwise: Option<&str>,
    ) -> Translated<()> {
        let (callee, args) = match &call.kind {
            ExprKind::Call(callee, args) => match &callee.kind {
                ExprKind::Name(name) => (name, args),
                _ => {
                    return fatal(
                        "reachable(...) needs a graph call such as reachable(g(x)).",
                        call.span,
                    )
                }
            },
            _ => {
                return fatal(
                    "reachable(...) needs a graph call such as reachable(g(x)).",
                    call.span,
                )
            }
        };
        let g = self.graph(callee, args.len(), call.span)?;
        let name = &g.name.text;
        let prefix = self.fresh(&inst.sp);
        let key = self.fresh(&format!("{name}_call"));
        let short = self.uses_short_names(g);
        let start = if short { key } else { self.fresh(&prefix) };
        let mut cur = start.clone();
        for (i, arg) in args.iter().enumerate() {
            let value = self.runtime(inst, arg)?;
            let next = self.fresh(&prefix);
            self.builder.edge(
                &cur,
                &next,
                label::assign(rg::Expr::name(parameter_variable(g, i)), value),
            );
            cur = next;
        }
        let (begin, stop) = if short {
            (format!("{name}_begin"), format!("{name}_end"))
        } else {
            (
                format!("{prefix}_{name}_begin"),
                format!("{prefix}_{name}_end"),
            )
        };
        self.builder.skip(&cur, &begin);
        if g.reusable {
            if self.instantiated.insert(&g.name.text) {
                self.instantiate(g, "", &stop, None);
            }
        } else {
            self.instantiate(g, &format!("{prefix}_"), &stop, None);
        }
        self.builder.set_origin(Some(call.span));
        let check = |negated: bool| rg::Label::Reach {
            negated,
            from: start.clone(),
            to: stop.clone(),
        };
        if let Some(t) = then {
            self.builder.edge(n, t, check(false));
        }
        if let Some(f) = otherwise {
            self.builder.edge(n, f, check(true));
        }
        Ok(())
    }

    /// An assignment target: always the global variable of that name.
    fn target(
        &mut self,
        inst: &Instance<'p>,
        target: &Name,
        accessors: &[Expr],
    ) -> Translated<rg::Expr> {
        if inst.substitution(&target.text).is_some() {
            return fatal(
                format!(
                    "Cannot substitute \"{}\" in assigned variable.",
                    target.text
                ),
                target.span,
            );
        }
        if !self.variables.contains(&target.text)
            && !matches!(target.text.as_str(), "player" | "goals" | "visible")
        {
            let what = if self.eval.functions.contains_key(target.text.as_str()) {
                format!(
                    "\"{}\" is a constant function and cannot be assigned.",
                    target.text
                )
            } else {
                format!(
                    "\"{}\" is not a declared variable and cannot be assigned.",
                    target.text
                )
            };
            return fatal(what, target.span);
        }
        let mut e = rg::Expr::name(&target.text);
        for a in accessors {
            e = rg::Expr::access(e, self.runtime(inst, a)?);
        }
        Ok(e)
    }

    /// A runtime expression (§3.3).
    fn runtime(&mut self, inst: &Instance<'p>, e: &Expr) -> Translated<rg::Expr> {
        match &e.kind {
            ExprKind::Name(name) => {
                if let Some(symbol) = inst.substitution(&name.text) {
                    return Ok(rg::Expr::name(symbol));
                }
                if let Some(i) = inst.graph.params.iter().position(|p| p.name.text == name.text) {
                    return Ok(rg::Expr::name(parameter_variable(inst.graph, i)));
                }
                // An unbound upper-case name is an error unless it names a
                // variable, a function or a domain symbol (`STOP`), which it
                // then denotes like any other name (hrg.md §3.3).
                if name.is_upper()
                    && !self.variables.contains(&name.text)
                    && !self.eval.functions.contains_key(name.text.as_str())
                    && !self.eval.symbols.contains(&name.text)
                {
                    return fatal(format!("Unknown variable \"{}\".", name.text), name.span);
                }
                Ok(rg::Expr::name(&name.text))
            }
            ExprKind::Paren(inner) => self.runtime(inst, inner),
            ExprKind::Access(m, k) => Ok(rg::Expr::access(self.runtime(inst, m)?, self.runtime(inst, k)?)),
            ExprKind::Call(callee, args) => {
                let mut out = self.runtime(inst, callee)?;
                for a in args {
                    out = rg::Expr::access(out, self.runtime(inst, a)?);
                }
                Ok(out)
            }
            ExprKind::Constructor(..) => {
                // Constructor arguments are static; branch/repeat variables
                // are already replaced by their symbols.
                let bindings: Bindings = inst
                    .substitutions
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::symbol(v)))
                    .collect();
                let value = self.eval.eval(e, &bindings)?;
                Ok(rg::Expr::name(value.serialize()))
            }
            _ => fatal(
                format!(
                    "\"{}\" cannot be computed while the game runs; use a constant function instead.",
                    crate::display::expr(e)
                ),
                e.span,
            ),
        }
    }
}

impl<'p> Instance<'p> {
    fn substitution(&self, name: &str) -> Option<&str> {
        self.substitutions
            .iter()
            .rev()
            .find(|(variable, _)| variable == name)
            .map(|(_, symbol)| symbol.as_str())
    }

    fn substituted(&self, variable: &str, symbol: &str) -> Instance<'p> {
        let mut copy = self.clone();
        copy.substitutions
            .push((variable.to_string(), symbol.to_string()));
        copy
    }

    fn in_loop(&self, break_target: &str, continue_target: &str) -> Instance<'p> {
        let mut copy = self.clone();
        copy.loop_targets = Some((break_target.to_string(), continue_target.to_string()));
        copy
    }
}
