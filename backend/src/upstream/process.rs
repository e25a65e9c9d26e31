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

/// Starts `command` with `args`, piped stdin/stdout/stderr, the relay's [`MINIMAL_ENV`] plus
/// `env` (which [`Inherit::environment`] makes whole for `--inherit-env`), in `cwd`
/// (default: the relay's), in a new process group.
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
        .process_group(0)
        .kill_on_drop(true);
    #[allow(clippy::disallowed_methods, reason = "this is the one function that spawns servers")]
    let child = cmd.spawn()?;
    let pid = child.id().ok_or_else(|| std::io::Error::other("the process ended before it could be watched"))?;
    let guard = ProcessGuard { pgid: Pid::from_raw(pid as i32), reaped: Arc::new(AtomicBool::new(false)) };
    Ok((child, guard))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// The names of the variables `sh -c env` sees when started as a server, with `set`.
    async fn names_seen(inherit: Inherit, set: &BTreeMap<String, String>) -> Vec<String> {
        // What `Server::start` passes for a stdio target.
        let env = match inherit {
            Inherit::Minimal => set.clone(),
            Inherit::All => inherit.environment(set),
        };
        let (mut child, _guard) = spawn("sh", &["-c".into(), "env".into()], &env, None).unwrap();
        let mut out = String::new();
        child.stdout.take().unwrap().read_to_string(&mut out).await.unwrap();
        child.wait().await.unwrap();
        out.lines().filter_map(|l| l.split_once('=')).map(|(k, _)| k.to_owned()).collect()
    }

    #[tokio::test]
    async fn a_server_sees_the_minimal_environment_unless_it_inherits_all() {
        let set = BTreeMap::from([("MINE".to_owned(), "1".to_owned())]);
        // The shell's own additions, whatever the environment.
        let shell_own = ["PWD", "SHLVL", "_", "OLDPWD"];
        let minimal = names_seen(Inherit::Minimal, &set).await;
        for name in &minimal {
            assert!(
                name == "MINE" || MINIMAL_ENV.contains(&name.as_str()) || shell_own.contains(&name.as_str()),
                "{name} is not part of the minimal environment: {minimal:?}"
            );
        }
        assert!(minimal.iter().any(|n| n == "MINE") && minimal.iter().any(|n| n == "PATH"), "{minimal:?}");
        // Cargo runs tests with variables of its own: one of them stands for a secret.
        let relay_only = std::env::vars().map(|(k, _)| k).find(|k| k.starts_with("CARGO_")).expect("run by cargo");
        assert!(!minimal.contains(&relay_only));

        let all = names_seen(Inherit::All, &set).await;
        assert!(all.contains(&relay_only) && all.iter().any(|n| n == "MINE"), "{all:?}");
        for (name, _) in std::env::vars().filter(|(k, _)| !WITHHELD_ENV.contains(&k.as_str())) {
            assert!(all.contains(&name) || shell_own.contains(&name.as_str()), "{name} is missing: {all:?}");
        }
    }

    #[test]
    fn the_token_is_never_inherited_and_set_variables_win() {
        let set = BTreeMap::from([("MCP_PLAYGROUND_TOKEN".to_owned(), "given on purpose".to_owned())]);
        for inherit in [Inherit::Minimal, Inherit::All] {
            let env = inherit.environment(&BTreeMap::new());
            assert!(!env.contains_key("MCP_PLAYGROUND_TOKEN"));
            assert_eq!(inherit.environment(&set)["MCP_PLAYGROUND_TOKEN"], "given on purpose");
        }
    }
}
