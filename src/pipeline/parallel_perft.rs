//! Perft on several threads: each thread builds its own instance of the
//! model (models hold interior caches and need not be `Send`), the main
//! thread splits every depth into subtrees (`rg_core::parallel`), and all
//! threads take subtrees from a shared queue.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rg_core::model::{perft, Budget, ForwardModel, LimitError, ModelError, Progress};
use rg_core::parallel::{plan_perft, run_task, PerftTask};

use super::models::{with_model, ModelTask};
use crate::cli::ModelArgs;
use crate::source::{CliError, Source};

/// Subtrees per thread: more than one, so that uneven subtrees balance out.
const TASKS_PER_THREAD: usize = 8;

/// One depth's subtrees, shared by all threads.
struct Job {
    tasks: Vec<PerftTask>,
    next: AtomicUsize,
    /// Set by the first thread that fails, so that the others stop early.
    failed: AtomicBool,
    deadline: Option<Instant>,
    /// The main budget's progress: node counts and Ctrl-C reach every thread.
    progress: Option<Arc<Progress>>,
}

impl Job {
    /// Takes subtrees until none are left; the sum of their perft.
    fn work<M: ForwardModel>(&self, model: &M, root: &M::State) -> Result<u64, LimitError> {
        let mut budget = Budget::with_deadline(self.deadline);
        if let Some(progress) = &self.progress {
            budget = budget.with_progress(Arc::clone(progress));
        }
        let mut total = 0;
        loop {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            if index >= self.tasks.len() || self.failed.load(Ordering::Relaxed) {
                return Ok(total);
            }
            match run_task(model, root, &self.tasks[index], &mut budget) {
                Ok(count) => total += count,
                Err(error) => {
                    self.failed.store(true, Ordering::Relaxed);
                    return Err(error);
                }
            }
        }
    }
}

/// A helper thread's side: its own model, serving jobs until the main
/// thread hangs up.
struct Worker {
    jobs: Receiver<Arc<Job>>,
    results: Sender<Result<u64, LimitError>>,
}

impl ModelTask for Worker {
    type Output = ();

    fn run<M: ForwardModel>(self, model: &M, _: &str) -> Result<(), CliError> {
        let root = model.initial().map_err(|e| CliError::Failed(e.message))?;
        for job in self.jobs {
            if self.results.send(job.work(model, &root)).is_err() {
                break;
            }
        }
        Ok(())
    }
}

/// Perft at every depth `0..=max_depth` on `threads` threads; `model` is
/// the main thread's instance, the helpers build theirs from `source`.
/// `on_depth` hears of each depth (count and time) as it finishes.
pub fn perft_series_parallel<M: ForwardModel>(
    model: &M,
    source: &Source,
    args: &ModelArgs,
    max_depth: u32,
    threads: usize,
    budget: &mut Budget,
    on_depth: &mut dyn FnMut(u64, Duration),
) -> (Vec<(u64, Duration)>, Option<LimitError>) {
    let root = match model.initial() {
        Ok(state) => state,
        Err(error) => return (Vec::new(), Some(error.into())),
    };
    std::thread::scope(|scope| {
        let (results_tx, results) = channel();
        let mut helpers = Vec::new();
        for _ in 1..threads {
            let (jobs_tx, jobs) = channel();
            let worker = Worker {
                jobs,
                results: results_tx.clone(),
            };
            let failure = results_tx.clone();
            let spawned = crate::worker_thread().spawn_scoped(scope, move || {
                if let Err(error) = with_model(source, args, worker) {
                    let message = format!("a perft thread failed: {error}");
                    let _ = failure.send(Err(ModelError::new(message).into()));
                }
            });
            // A thread the system refuses (no memory for its stack) is one
            // helper fewer; the others share its subtrees.
            if spawned.is_ok() {
                helpers.push(jobs_tx);
            }
        }
        drop(results_tx);
        let mut series = Vec::new();
        for depth in 0..=max_depth {
            let start = Instant::now();
            let count = if depth < 2 {
                perft(model, &root, depth, budget)
            } else {
                one_depth(model, &root, depth, threads, budget, &helpers, &results)
            };
            match count {
                Ok(count) => {
                    let time = start.elapsed();
                    on_depth(count, time);
                    series.push((count, time));
                }
                Err(error) => return (series, Some(error)),
            }
        }
        (series, None)
    })
}

/// perft at `depth`, split between this thread and the helpers.
fn one_depth<M: ForwardModel>(
    model: &M,
    root: &M::State,
    depth: u32,
    threads: usize,
    budget: &mut Budget,
    helpers: &[Sender<Arc<Job>>],
    results: &Receiver<Result<u64, LimitError>>,
) -> Result<u64, LimitError> {
    let plan = plan_perft(model, root, depth, threads * TASKS_PER_THREAD, budget)?;
    let job = Arc::new(Job {
        tasks: plan.tasks,
        next: AtomicUsize::new(0),
        failed: AtomicBool::new(false),
        deadline: budget.deadline(),
        progress: budget.progress().cloned(),
    });
    let mut working = 0;
    for helper in helpers {
        if helper.send(Arc::clone(&job)).is_ok() {
            working += 1;
        }
    }
    let mut total = plan.counted;
    let mut outcome = job.work(model, root).map(|count| total += count);
    for _ in 0..working {
        let Ok(result) = results.recv() else {
            break;
        };
        match result {
            Ok(count) => total += count,
            Err(error) => {
                job.failed.store(true, Ordering::Relaxed);
                if outcome.is_ok() {
                    outcome = Err(error);
                }
            }
        }
    }
    outcome.map(|()| total)
}
