//! The differential comparisons of a file's models (used by `rgw verify`
//! and `rgw convert`).
//!
//! RBG and HRG: the native interpreter against the RG translation. GDL: the
//! native reasoner against the propnet model and against the RG
//! translation. RG (no other semantics): the RG game against its optimized
//! form, which checks that the optimizer preserved the game tree.

use rg_core::model::{Budget, ForwardModel};
use rg_core::verify::{verify, Verdict};

use super::models::{
    engine_for, gdl_reasoner, hrg_interpreter, propnet_model, rbg_draft_interpreter,
    rbg_interpreter, replay_native, with_model, ModelTask,
};
use super::{optimizing, translation};
use crate::cli::ModelArgs;
use crate::source::{CliError, Language, Source};

/// Every comparison that applies to the file, with its verdict.
pub fn comparisons(
    source: &Source,
    depth: u32,
    args: &ModelArgs,
    budget: &dyn Fn() -> Budget,
) -> Result<Vec<(String, Verdict)>, CliError> {
    let compare = |a: &dyn Checkable, name: &str| -> Result<(String, Verdict), CliError> {
        let game = translation::to_rg(source)?.game;
        let game = optimizing::apply(game, &args.optimize)?;
        let engine = engine_for(source, &game, args)?;
        Ok((
            format!("{name} vs RG translation"),
            a.against(&engine, depth, &mut budget()),
        ))
    };
    Ok(match source.language {
        Language::Rbg => vec![compare(&rbg_interpreter(source)?, "native interpreter")?],
        Language::RbgDraft => vec![compare(
            &rbg_draft_interpreter(source)?,
            "native interpreter",
        )?],
        Language::Hrg => vec![compare(
            &hrg_interpreter(source, args)?,
            "native interpreter",
        )?],
        Language::Replay => vec![compare(&replay_native(source)?, "native model")?],
        Language::Gdl => {
            let reasoner = gdl_reasoner(source)?;
            let propnet = propnet_model(source)?;
            vec![
                (
                    "native reasoner vs propnet".to_string(),
                    verify(&reasoner, &propnet, depth, &mut budget()),
                ),
                compare(&reasoner, "native reasoner")?,
            ]
        }
        Language::Rg => {
            let game = translation::to_rg(source)?.game;
            let optimized = if args.optimize.optimize || args.optimize.passes.is_some() {
                optimizing::apply(game.clone(), &args.optimize)?
            } else {
                optimizing::apply(
                    game.clone(),
                    &crate::cli::OptimizeArgs {
                        optimize: true,
                        passes: None,
                    },
                )?
            };
            let plain = engine_for(source, &game, args)?;
            let optimized = engine_for(source, &optimized, args)?;
            vec![(
                "RG vs optimized RG".to_string(),
                verify(&plain, &optimized, depth, &mut budget()),
            )]
        }
    })
}

/// A native model compared with an RG engine (object-safe wrapper over the
/// generic verifier).
trait Checkable {
    fn against(&self, engine: &rg_core::engine::Engine, depth: u32, budget: &mut Budget)
        -> Verdict;
}

impl<M: ForwardModel> Checkable for M {
    fn against(
        &self,
        engine: &rg_core::engine::Engine,
        depth: u32,
        budget: &mut Budget,
    ) -> Verdict {
        verify(self, engine, depth, budget)
    }
}

/// The file's native model against the RG engine running `game` (its
/// translation): `None` when the language has no native model.
pub fn against_native(
    source: &Source,
    game: &rg_core::ast::Game,
    depth: u32,
    budget: &mut Budget,
    args: &ModelArgs,
) -> Result<Option<Verdict>, CliError> {
    let native: Box<dyn Checkable> = match source.language {
        Language::Rbg => Box::new(rbg_interpreter(source)?),
        Language::Gdl => Box::new(gdl_reasoner(source)?),
        Language::Hrg => Box::new(hrg_interpreter(source, args)?),
        Language::RbgDraft => Box::new(rbg_draft_interpreter(source)?),
        Language::Replay => Box::new(replay_native(source)?),
        Language::Rg => return Ok(None),
    };
    let engine = engine_for(source, game, args)?;
    Ok(Some(native.against(&engine, depth, budget)))
}

/// `verify A --against B`: A's default model against B's, each file in
/// its own language. The verdict names the first move prefix where they
/// differ (moves are matched by their text, so localizing a difference
/// needs the two files to name moves alike).
pub fn against_file(
    left: &Source,
    right: &Source,
    depth: u32,
    args: &ModelArgs,
    budget: Budget,
) -> Result<(String, Verdict), CliError> {
    with_model(
        left,
        args,
        LeftModel {
            right,
            depth,
            args,
            budget,
        },
    )
}

/// Holds the right file while the left model is built.
struct LeftModel<'a> {
    right: &'a Source,
    depth: u32,
    args: &'a ModelArgs,
    budget: Budget,
}

impl ModelTask for LeftModel<'_> {
    type Output = (String, Verdict);
    fn run<M: ForwardModel>(self, left: &M, description: &str) -> Result<Self::Output, CliError> {
        with_model(
            self.right,
            self.args,
            RightModel {
                left,
                left_description: description,
                depth: self.depth,
                budget: self.budget,
            },
        )
    }
}

/// Runs the comparison once both models are built.
struct RightModel<'a, L> {
    left: &'a L,
    left_description: &'a str,
    depth: u32,
    budget: Budget,
}

impl<L: ForwardModel> ModelTask for RightModel<'_, L> {
    type Output = (String, Verdict);
    fn run<M: ForwardModel>(
        mut self,
        right: &M,
        description: &str,
    ) -> Result<Self::Output, CliError> {
        let what = format!("{} vs {description}", self.left_description);
        Ok((what, verify(self.left, right, self.depth, &mut self.budget)))
    }
}
