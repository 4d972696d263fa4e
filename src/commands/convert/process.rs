//! The parent side of `rgw convert`'s containment: every game is converted
//! by a worker process (`rgw __convert-one`, see `worker.rs`) with a
//! memory cap and a time limit per phase, so that a crash, an abort, a
//! stack overflow or an out-of-memory kill is that game's failure — with
//! what happened — and the run goes on.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::{ConvertOptions, GameReport, Phase};
use crate::pipeline::interrupt;

/// How long a worker may overrun its phase's time limit before it is
/// stopped (the cooperative limits inside should have stopped it first).
fn grace(time_limit: Duration) -> Duration {
    time_limit.clamp(Duration::from_secs(1), Duration::from_secs(5))
}

/// How often a waiting parent looks at its worker.
const POLL: Duration = Duration::from_millis(50);

/// The last bytes of a worker's stderr kept for the report.
const STDERR_KEPT: usize = 16 * 1024;

/// What a worker said on stdout.
enum Message {
    Phase(Phase),
    Report(Box<GameReport>),
}

/// Converts one game in a worker process. `on_phase` hears what it is
/// doing; `None` when Ctrl-C stopped it (the game is not done).
pub fn convert_in_worker(
    path: &Path,
    options: &ConvertOptions,
    output_name: &Path,
    report: GameReport,
    on_phase: &dyn Fn(Phase),
) -> Option<GameReport> {
    let mut child = match spawn(path, options, output_name) {
        Ok(child) => child,
        Err(error) => {
            return Some(report.failed(format!("cannot start a worker process: {error}")))
        }
    };
    let (sender, messages) = mpsc::channel();
    let stdout = child.stdout.take().map(|stdout| {
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(message) = parse(&line) {
                    if sender.send(message).is_err() {
                        break;
                    }
                }
            }
        })
    });
    let stderr = child
        .stderr
        .take()
        .map(|stderr| std::thread::spawn(move || tail(stderr)));
    let mut phase = Phase::Translating;
    let mut phase_started = Instant::now();
    let mut finished: Option<GameReport> = None;
    let mut stopped: Option<String> = None;
    let status = loop {
        match messages.recv_timeout(POLL) {
            Ok(Message::Phase(next)) => {
                phase = next;
                phase_started = Instant::now();
                on_phase(next);
            }
            Ok(Message::Report(report)) => finished = Some(*report),
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {}
        }
        if let Ok(Some(status)) = child.try_wait() {
            break Some(status);
        }
        if interrupt::interrupted() {
            stop(&mut child);
            break None;
        }
        if stopped.is_none()
            && phase_started.elapsed() > options.time_limit + grace(options.time_limit)
        {
            stopped = Some(format!(
                "{} did not finish within the time limit of {:.1} s; the worker process was stopped",
                phase.doing(),
                options.time_limit.as_secs_f64()
            ));
            stop(&mut child);
        }
    };
    // The readers end with the worker's output.
    if let Some(reader) = stdout {
        let _ = reader.join();
    }
    while let Ok(message) = messages.try_recv() {
        if let Message::Report(report) = message {
            finished = Some(*report);
        }
    }
    let stderr = stderr.and_then(|r| r.join().ok()).unwrap_or_default();
    let status = status?;
    if died_of_interrupt(status) {
        // Ctrl-C reaches the whole process group: the parent's handler
        // sets the flag at the same moment. A SIGINT meant for this worker
        // alone is its failure.
        std::thread::sleep(Duration::from_millis(200));
        if interrupt::interrupted() {
            return None;
        }
    }
    if let Some(report) = finished {
        return Some(report);
    }
    if let Some(reason) = stopped {
        return Some(report.failed(reason));
    }
    Some(report.failed(what_happened(status, phase, &stderr, options)))
}

fn spawn(path: &Path, options: &ConvertOptions, output_name: &Path) -> std::io::Result<Child> {
    let mut command = Command::new(std::env::current_exe()?);
    command
        .arg("__convert-one")
        .arg(path)
        .arg("--library")
        .arg(&options.dir)
        .arg("--output")
        .arg(&options.out)
        .arg("--output-name")
        .arg(output_name)
        .arg("--time-limit")
        .arg(options.time_limit.as_secs_f64().to_string());
    if let Some(depth) = options.verify_depth {
        command.arg("--verify-depth").arg(depth.to_string());
    }
    let model = &options.model;
    for (flag, given) in [
        ("--optimize", model.optimize.optimize),
        ("--lenient", model.lenient),
        ("--expose-keeper", model.expose_keeper),
        ("--first-keeper-walk", model.first_keeper_walk),
    ] {
        if given {
            command.arg(flag);
        }
    }
    if let Some(passes) = &model.optimize.passes {
        command.arg("--passes").arg(passes);
    }
    for (option, value) in [
        ("--grounding-atoms", model.grounding.grounding_atoms),
        ("--grounding-rules", model.grounding.grounding_rules),
    ] {
        if let Some(value) = value {
            command.arg(option).arg(value.to_string());
        }
    }
    command
        // The report wants the abort or panic message, not a backtrace.
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    if let Some(megabytes) = options.memory_limit_mb {
        limit_memory(&mut command, megabytes);
    }
    command.spawn()
}

/// Caps the worker's address space (RLIMIT_AS) before it runs: an
/// allocation past the cap fails, and Rust aborts with `memory allocation
/// of N bytes failed`, instead of the machine running out of memory.
#[cfg(unix)]
fn limit_memory(command: &mut Command, megabytes: u64) {
    use std::os::unix::process::CommandExt;
    let bytes = megabytes.saturating_mul(1 << 20);
    let bytes = libc::rlim_t::try_from(bytes).unwrap_or(libc::RLIM_INFINITY);
    // SAFETY: the closure runs in the child between fork and exec, where
    // only async-signal-safe calls are allowed; setrlimit is one, and it
    // allocates nothing.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &raw const limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

fn stop(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

fn parse(line: &str) -> Option<Message> {
    let value: serde_json::Value = serde_json::from_str(line).ok()?;
    if let Some(phase) = value.get("phase").and_then(serde_json::Value::as_str) {
        return Phase::from_name(phase).map(Message::Phase);
    }
    let report = serde_json::from_value(value.get("report")?.clone()).ok()?;
    Some(Message::Report(Box::new(report)))
}

/// The end of a stream (a worker's stderr can be long: a panic message,
/// a backtrace).
fn tail(mut stream: impl Read) -> String {
    let mut kept: Vec<u8> = Vec::new();
    let mut buffer = [0u8; 4096];
    while let Ok(n) = stream.read(&mut buffer) {
        if n == 0 {
            break;
        }
        kept.extend_from_slice(&buffer[..n]);
        if kept.len() > 2 * STDERR_KEPT {
            kept.drain(..kept.len() - STDERR_KEPT);
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

#[cfg(unix)]
fn signal_of(status: ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(&status)
}

#[cfg(not(unix))]
fn signal_of(_: ExitStatus) -> Option<i32> {
    None
}

/// A worker ended by Ctrl-C (the terminal sends SIGINT to the whole
/// process group) did not finish its game.
fn died_of_interrupt(status: ExitStatus) -> bool {
    #[cfg(unix)]
    if signal_of(status) == Some(libc::SIGINT) {
        return true;
    }
    let _ = status;
    false
}

/// Why a worker ended without a report: the signal or exit code, where it
/// was, and the last words on its stderr.
fn what_happened(
    status: ExitStatus,
    phase: Phase,
    stderr: &str,
    options: &ConvertOptions,
) -> String {
    let said = last_words(stderr);
    let how = match signal_of(status) {
        Some(signal) => format!("the worker process crashed with {}", signal_name(signal)),
        None => match status.code() {
            Some(code) => format!("the worker process exited with code {code}"),
            None => "the worker process ended abnormally".to_string(),
        },
    };
    let mut message = format!("{how} while {}", phase.name());
    if !said.is_empty() {
        message.push_str(": ");
        message.push_str(&said);
    }
    let out_of_memory = said.contains("memory allocation of");
    let killed = signal_of(status).is_some_and(is_kill);
    match options.memory_limit_mb {
        Some(mb) if out_of_memory => message.push_str(&format!(
            " (out of memory: the limit is {mb} MB, --memory-limit raises it)"
        )),
        _ if killed => message
            .push_str(" (SIGKILL from outside rgw: usually the system's out-of-memory killer)"),
        _ => {}
    }
    message
}

#[cfg(unix)]
fn is_kill(signal: i32) -> bool {
    signal == libc::SIGKILL
}

#[cfg(not(unix))]
fn is_kill(_: i32) -> bool {
    false
}

/// The worker's last meaningful stderr lines (the abort or panic message),
/// on one line.
fn last_words(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .take_while(|l| !l.starts_with("stack backtrace:"))
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("note:") && !l.starts_with("stack backtrace"))
        .collect();
    let start = lines.len().saturating_sub(2);
    let words = lines[start..].join(" ");
    let mut clipped: String = words.chars().take(400).collect();
    if clipped.len() < words.len() {
        clipped.push('…');
    }
    clipped
}

/// `SIGABRT`, `SIGSEGV`, ... (the number for others).
pub fn signal_name(signal: i32) -> String {
    #[cfg(unix)]
    {
        let name = match signal {
            libc::SIGABRT => "SIGABRT",
            libc::SIGSEGV => "SIGSEGV",
            libc::SIGBUS => "SIGBUS",
            libc::SIGILL => "SIGILL",
            libc::SIGFPE => "SIGFPE",
            libc::SIGKILL => "SIGKILL",
            libc::SIGTERM => "SIGTERM",
            libc::SIGINT => "SIGINT",
            libc::SIGPIPE => "SIGPIPE",
            libc::SIGXCPU => "SIGXCPU",
            _ => return format!("signal {signal}"),
        };
        name.to_string()
    }
    #[cfg(not(unix))]
    {
        format!("signal {signal}")
    }
}

/// The machine's memory in MB (Linux: `/proc/meminfo`), if known.
pub fn machine_memory_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_words_keep_the_abort_message_without_notes() {
        let stderr =
            "thread 'main' panicked at src/x.rs:3:5:\nboom\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            last_words(stderr),
            "thread 'main' panicked at src/x.rs:3:5: boom"
        );
        assert_eq!(
            last_words("memory allocation of 64 bytes failed\n"),
            "memory allocation of 64 bytes failed"
        );
    }

    #[cfg(unix)]
    #[test]
    fn signals_have_their_names() {
        assert_eq!(signal_name(libc::SIGABRT), "SIGABRT");
        assert_eq!(signal_name(libc::SIGSEGV), "SIGSEGV");
    }
}
