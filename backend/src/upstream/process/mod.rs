//! The one place the relay starts processes, with piped stdio and an explicit environment,
//! and the one place they are ended: no process a server starts outlives its session, nor
//! the relay, however either ends.
//!
//! On Linux each server runs under a **keeper**, a process forked from the relay that forks
//! the server and stays its parent (`keeper.rs`, and `reap.rs` for its end):
//! - it is a child subreaper, so whatever the server starts and orphans, even a daemon
//!   that double-forks and calls `setsid` to leave the process group, becomes the keeper's
//!   child; when the server exits, or the relay asks, the keeper SIGKILLs its children and
//!   reaps them until none is left. It signals only its own unreaped children, so it can
//!   never hit a process that reused a dead one's id;
//! - it exits as the server did (same code, or killed by the same signal), so the relay
//!   reports the server's end unchanged;
//! - the relay talks to it over a socket pair, never by pid: a byte asks for a graceful
//!   stop (SIGTERM to the server's process group), closing the socket means "kill now".
//!   The kernel closes the relay's end when the relay dies, SIGKILL included and whichever
//!   thread spawned the server, so the keeper cleans up then too. (A parent-death signal
//!   would fire when the *thread* that forked exits, and a `pidfd` only makes the relay's
//!   signals safe; the socket does both, with no pid to reuse and no rule on threads.)
//!   From outside, SIGTERM, SIGINT or SIGHUP to the keeper asks the server to stop, and
//!   SIGUSR1 kills everything at once;
//! - `ProcessGuard::pid` is the server's pid, not the keeper's: the process people know.
//!
//! A keeper costs one process per server. As a fork it shares the relay's memory
//! copy-on-write and writes almost none, but keeps the pages the relay rewrites later: at
//! most the relay's heap at the time of the spawn.
//!
//! Elsewhere (macOS) the server is the relay's child in its own process group, killed with
//! `killpg` while its leader is unreaped: a daemon that leaves the group escapes there.

#[cfg(target_os = "linux")]
mod keeper;
#[cfg(target_os = "linux")]
mod reap;

use std::collections::BTreeMap;
use std::process::Stdio;
#[cfg(not(target_os = "linux"))]
use std::sync::Arc;
#[cfg(not(target_os = "linux"))]
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(not(target_os = "linux"))]
use nix::sys::signal::{Signal, killpg};
#[cfg(not(target_os = "linux"))]
use nix::unistd::Pid;
use tokio::process::{Child, Command};

/// Environment variables of the relay that a server must never see.
const WITHHELD_ENV: &[&str] = &["MCP_PLAYGROUND_TOKEN"];

/// The relay's variables every server gets (those that are set), as the official MCP SDKs
/// pass them: enough to find programs and a home, nothing of the user's secrets.
pub const MINIMAL_ENV: &[&str] = &["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/// How much of the relay's environment a server sees, besides the variables set for it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Inherit {
    /// Only [`MINIMAL_ENV`]: a server gets no API key it was not given.
    #[default]
    Minimal,
    /// Everything but [`WITHHELD_ENV`] (`--inherit-env`).
    All,
}

impl Inherit {
    /// The environment of a server: what it inherits from the relay, then `set` on top.
    pub fn environment(self, set: &BTreeMap<String, String>) -> BTreeMap<String, String> {
        let inherited = std::env::vars_os().filter(|(k, _)| match self {
            Inherit::Minimal => MINIMAL_ENV.iter().any(|m| k == m),
            Inherit::All => !WITHHELD_ENV.iter().any(|w| k == w),
        });
        // A name or value that is not UTF-8 cannot be shown or recorded; such a variable
        // is left out rather than mangled.
        let inherited = inherited.filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)));
        inherited.chain(set.iter().map(|(k, v)| (k.clone(), v.clone()))).collect()
    }
}

/// Ends a server and everything it started when dropped (or stops it gracefully, by
/// request). Dropping it is the only way the relay ends a server.
#[derive(Debug)]
pub struct ProcessGuard {
    /// The server's own pid, not its keeper's: the process people know (`ps`, a debugger).
    pid: u32,
    /// The relay's end of the keeper's control socket.
    #[cfg(target_os = "linux")]
    control: std::os::unix::net::UnixStream,
    /// Set once the direct child is reaped, after which its group id may be reused.
    #[cfg(not(target_os = "linux"))]
    reaped: Arc<AtomicBool>,
}

impl ProcessGuard {
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Asks the server to stop: SIGTERM to its process group. Harmless once it is gone.
    pub fn terminate(&self) {
        #[cfg(target_os = "linux")]
        {
            use std::io::Write;
            // A keeper that is gone closed its end: the write fails and nothing is sent.
            let _ = (&self.control).write(&[keeper::TERMINATE]);
        }
        #[cfg(not(target_os = "linux"))]
        self.killpg(Signal::SIGTERM);
    }

    /// What to call once the direct child is reaped: after that its id may be reused, so
    /// the guard must not signal it (on Linux the keeper is never signalled by id: nothing).
    pub fn on_reaped(&self) -> impl FnOnce() + Send + 'static {
        #[cfg(target_os = "linux")]
        {
            || {}
        }
        #[cfg(not(target_os = "linux"))]
        {
            let reaped = self.reaped.clone();
            move || reaped.store(true, Ordering::SeqCst)
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn killpg(&self, signal: Signal) {
        if self.reaped.load(Ordering::SeqCst) {
            return;
        }
        if let Err(e) = killpg(Pid::from_raw(self.pid as i32), signal)
            && e != nix::errno::Errno::ESRCH
        {
            tracing::warn!(pgid = self.pid, %e, "could not signal server process group");
        }
    }
}

impl Drop for ProcessGuard {
    fn drop(&mut self) {
        // Shut down, not only closed: a copy of the descriptor held for a moment by another
        // spawn's fork must not delay the keeper's EOF.
        #[cfg(target_os = "linux")]
        let _ = self.control.shutdown(std::net::Shutdown::Both);
        #[cfg(not(target_os = "linux"))]
        self.killpg(Signal::SIGKILL);
    }
}

/// Starts `command` with `args`, piped stdin/stdout/stderr, the relay's [`MINIMAL_ENV`] plus
/// `env` (which [`Inherit::environment`] makes whole for `--inherit-env`), in `cwd`
/// (default: the relay's), in a new process group, under a keeper on Linux.
///
/// A missing command fails here, with the system's reason (the server's exec error reaches
/// the relay through std's error pipe, which the keeper does not hold).
///
/// Any thread may call it, `spawn_blocking` ones included: the keeper watches the relay's
/// socket, not the thread that forked it (a parent-death signal would kill the server when
/// a retiring blocking thread exits).
pub fn spawn(
    command: &str,
    args: &[String],
    env: &BTreeMap<String, String>,
    cwd: Option<&str>,
) -> std::io::Result<(Child, ProcessGuard)> {
    let mut cmd = Command::new(command);
    if let Some(dir) = cwd {
        // Said plainly: spawn's own error would blame the command, not the directory.
        if !std::path::Path::new(dir).is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("the working directory {dir:?} does not exist or is not a directory"),
            ));
        }
        cmd.current_dir(dir);
    }
    cmd.args(args)
        .env_clear()
        .envs(Inherit::Minimal.environment(env))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Out of the terminal's process group: Ctrl-C is the relay's to handle.
        .process_group(0);
    #[cfg(target_os = "linux")]
    {
        spawn_kept(cmd)
    }
    #[cfg(not(target_os = "linux"))]
    {
        cmd.kill_on_drop(true);
        #[allow(clippy::disallowed_methods, reason = "this is the one function that spawns servers")]
        let child = cmd.spawn()?;
        let pid = child.id().ok_or_else(|| std::io::Error::other("the process ended before it could be watched"))?;
        Ok((child, ProcessGuard { pid, reaped: Arc::new(AtomicBool::new(false)) }))
    }
}

/// Spawns `cmd` under a keeper; the guard holds the relay's end of its control socket.
#[cfg(target_os = "linux")]
#[allow(unsafe_code, reason = "pre_exec runs the keeper between fork and exec")]
fn spawn_kept(mut cmd: Command) -> std::io::Result<(Child, ProcessGuard)> {
    use std::io::Read;
    use std::os::fd::AsRawFd;
    use std::os::unix::net::UnixStream;

    let (control, keeper_end) = UnixStream::pair()?;
    // Both ends are close-on-exec: no server inherits them. The keeper's end must not be
    // 0, 1 or 2 (a relay started with stdin closed), which std replaces with the pipes.
    let keeper_end = if keeper_end.as_raw_fd() < 3 { keeper_end.try_clone()? } else { keeper_end };
    let fd = keeper_end.as_raw_fd();
    // SAFETY: become_keeper makes only async-signal-safe calls and returns only in the
    // process that is about to exec.
    unsafe { cmd.pre_exec(move || keeper::become_keeper(fd)) };
    // Not killed on drop: SIGKILL to the keeper would orphan the server. The guard ends it.
    cmd.kill_on_drop(false);
    #[allow(clippy::disallowed_methods, reason = "this is the one function that spawns servers")]
    let child = cmd.spawn()?;
    drop(keeper_end);
    let keeper = child.id().ok_or_else(|| std::io::Error::other("the process ended before it could be watched"))?;
    // The keeper sent the server's pid before `spawn` returned; the keeper's own is
    // shown should it be missing.
    control.set_nonblocking(true)?;
    let mut pid = [0u8; 4];
    let pid = match (&control).read(&mut pid) {
        Ok(4) => u32::from_ne_bytes(pid),
        _ => keeper,
    };
    Ok((child, ProcessGuard { pid, control }))
}

#[cfg(test)]
pub(crate) mod tests;
