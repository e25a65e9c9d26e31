//! The one place the relay starts processes. Every server runs in its own process group,
//! with piped stdio and an explicit environment, and the whole group is killed when its
//! [`ProcessGuard`] goes away: no process outlives its session.

use std::collections::BTreeMap;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::process::{Child, Command};

/// Environment variables of the relay that a server must never see.
const WITHHELD_ENV: &[&str] = &["MCP_PLAYGROUND_TOKEN"];

/// Kills a server's process group on drop (or earlier, by request).
#[derive(Debug)]
pub struct ProcessGuard {
    pgid: Pid,
    /// Set once the direct child has been reaped, after which its id may be reused.
    reaped: Arc<AtomicBool>,
}

impl ProcessGuard {
    pub fn pid(&self) -> u32 {
        self.pgid.as_raw().unsigned_abs()
    }

    /// Sends `signal` to every process in the group. Harmless when the group is empty.
    pub fn signal(&self, signal: Signal) {
        // The group keeps its id while any member lives, even after the leader is reaped,
        // so grandchildren are still reached; once empty, killpg fails with ESRCH.
        if let Err(e) = killpg(self.pgid, signal)
            && e != nix::errno::Errno::ESRCH
        {
            tracing::warn!(pgid = self.pgid.as_raw(), %e, "could not signal server process group");
        }
    }

    pub fn reaped_flag(&self) -> Arc<AtomicBool> {
        self.reaped.clone()
    }

    pub fn is_reaped(&self) -> bool {
        self.reaped.load(Ordering::SeqCst)
    }
}

impl Drop for ProcessGuard {
    fn drop(&mut self) {
        self.signal(Signal::SIGKILL);
    }
}

/// Starts `command` with `args`, piped stdin/stdout/stderr, the relay's environment less
/// [`WITHHELD_ENV`] plus `env`, in `cwd` (default: the relay's), in a new process group.
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
        .envs(std::env::vars_os().filter(|(k, _)| !WITHHELD_ENV.iter().any(|w| k == w)))
        .envs(env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    #[allow(clippy::disallowed_methods, reason = "this is the one function that spawns servers")]
    let child = cmd.spawn()?;
    let pid = child.id().ok_or_else(|| std::io::Error::other("the process ended before it could be watched"))?;
    let guard = ProcessGuard { pgid: Pid::from_raw(pid as i32), reaped: Arc::new(AtomicBool::new(false)) };
    Ok((child, guard))
}
