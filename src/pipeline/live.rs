//! The live progress line of a long count (`perft`, `verify`): nodes
//! counted, nodes per second and elapsed time, redrawn on standard error
//! while it is a terminal; nothing otherwise. Results printed meanwhile go
//! through [`Live::println`], which keeps them clear of the line.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rg_core::model::Progress;

/// How often the line is redrawn.
const TICK: Duration = Duration::from_millis(200);

pub struct Live {
    bar: Option<ProgressBar>,
    /// What is being counted now (`depth 7`), shown before the figures.
    stage: Arc<Mutex<String>>,
    stop: Arc<AtomicBool>,
    ticker: Option<JoinHandle<()>>,
}

impl Live {
    /// Starts the line for a computation sharing `progress` (only when
    /// standard error is a terminal).
    pub fn start(progress: &Arc<Progress>) -> Live {
        let stage = Arc::new(Mutex::new(String::new()));
        let stop = Arc::new(AtomicBool::new(false));
        if !std::io::stderr().is_terminal() {
            return Live {
                bar: None,
                stage,
                stop,
                ticker: None,
            };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
        let ticker = {
            let (bar, stage, stop) = (bar.clone(), Arc::clone(&stage), Arc::clone(&stop));
            let progress = Arc::clone(progress);
            let started = Instant::now();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let elapsed = started.elapsed();
                    let nodes = progress.nodes();
                    let stage = stage.lock().map(|s| s.clone()).unwrap_or_default();
                    bar.set_message(line(&stage, nodes, elapsed));
                    bar.tick();
                    std::thread::sleep(TICK);
                }
            })
        };
        Live {
            bar: Some(bar),
            stage,
            stop,
            ticker: Some(ticker),
        }
    }

    /// Names what is being counted now.
    pub fn stage(&self, stage: String) {
        if let Ok(mut current) = self.stage.lock() {
            *current = stage;
        }
    }

    /// Prints a result line on standard output, clear of the live line.
    pub fn println(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| println!("{text}")),
            None => println!("{text}"),
        }
    }

    /// Removes the line.
    pub fn finish(mut self) {
        self.stop_ticker();
    }

    fn stop_ticker(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(ticker) = self.ticker.take() {
            let _ = ticker.join();
        }
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.stop_ticker();
    }
}

/// `depth 7: 1.2M nodes, 3.4M nodes/s, 12.0 s`.
fn line(stage: &str, nodes: u64, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    #[allow(clippy::cast_precision_loss)] // a rate to print
    let rate = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    #[allow(clippy::cast_precision_loss)]
    let nodes = nodes as f64;
    let prefix = if stage.is_empty() {
        String::new()
    } else {
        format!("{stage}: ")
    };
    format!(
        "{prefix}{} nodes, {} nodes/s, {seconds:.1} s",
        si(nodes),
        si(rate)
    )
}

/// 1234567 → `1.2M`.
pub fn si(value: f64) -> String {
    let (scaled, unit) = if value >= 1e9 {
        (value / 1e9, "G")
    } else if value >= 1e6 {
        (value / 1e6, "M")
    } else if value >= 1e3 {
        (value / 1e3, "k")
    } else {
        return format!("{value:.0}");
    };
    format!("{scaled:.1}{unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_nodes_rate_and_time() {
        assert_eq!(
            line("depth 7", 1_234_567, Duration::from_secs(2)),
            "depth 7: 1.2M nodes, 617.3k nodes/s, 2.0 s"
        );
        assert_eq!(line("", 12, Duration::ZERO), "12 nodes, 0 nodes/s, 0.0 s");
    }
}
