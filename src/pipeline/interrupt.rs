//! Ctrl-C (SIGINT) for the long-running commands (`perft`, `verify`,
//! `convert`): the first Ctrl-C interrupts the computation through the
//! [`Progress`] its budgets share, so that it stops at its next node and
//! the command reports what it finished (exit 130); a second one ends
//! the process at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use rg_core::model::Progress;

/// The exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells
/// report it).
pub const EXIT_INTERRUPTED: u8 = 130;

static PROGRESS: OnceLock<Arc<Progress>> = OnceLock::new();

/// The progress that Ctrl-C interrupts, installing the handler on first
/// use (commands that do not call this keep the default: Ctrl-C ends them).
pub fn progress() -> Arc<Progress> {
    Arc::clone(PROGRESS.get_or_init(|| {
        let progress = Arc::new(Progress::default());
        let handled = Arc::clone(&progress);
        let pressed = AtomicBool::new(false);
        // Without a handler (the system refused it), Ctrl-C keeps its
        // default effect and simply ends the process.
        let _ = ctrlc::set_handler(move || {
            if pressed.swap(true, Ordering::Relaxed) {
                std::process::exit(i32::from(EXIT_INTERRUPTED));
            }
            handled.interrupt();
        });
        progress
    }))
}

/// Whether Ctrl-C was pressed (false when no handler was installed).
pub fn interrupted() -> bool {
    PROGRESS.get().is_some_and(|p| p.is_interrupted())
}
