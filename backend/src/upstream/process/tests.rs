//! Spawning servers: their environment, their end, and what is reported of it.

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

#[cfg(target_os = "linux")]
/// A marker no other process on the machine carries.
pub(crate) fn unique_marker(what: &str) -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    format!("mcp-{what}-{}-{nanos}", std::process::id())
}

#[cfg(target_os = "linux")]
/// Live processes whose command line (arguments joined by NUL) holds `marker` (a zombie's
/// is empty).
pub(crate) fn carrying(marker: &str) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
        .collect()
}

#[cfg(target_os = "linux")]
/// Waits (10 s at most) until `check` holds.
pub(crate) async fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    for _ in 0..100 {
        if check() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("timed out waiting for {what}");
}

#[cfg(target_os = "linux")]
/// A server that starts a daemon the old way out: a double fork and `setsid`, so it leaves
/// the server's process group and session, and is orphaned at once. It answers a line on
/// stdout once the daemon is on its way, then echoes stdin. [`daemon`] finds the daemon.
pub(crate) fn detaching_server(marker: &str) -> Vec<String> {
    let script = format!(
        r#"(setsid sh -c 'while :; do sleep 1; done' {marker} </dev/null >/dev/null 2>&1 &); echo started; exec cat"#
    );
    vec!["-c".into(), script]
}

#[cfg(target_os = "linux")]
/// The command line of the daemon of [`detaching_server`] (the server's own holds the
/// marker too, after a space).
pub(crate) fn daemon(marker: &str) -> String {
    format!("done\0{marker}")
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_daemon_that_left_the_group_dies_with_the_guard() {
    let marker = unique_marker("daemon");
    let (mut child, guard) = spawn("sh", &detaching_server(&marker), &BTreeMap::new(), None).unwrap();
    eventually("the daemon to start", || !carrying(&daemon(&marker)).is_empty()).await;
    drop(guard);
    eventually("the daemon to be killed", || carrying(&marker).is_empty()).await;
    // The server's own end is reported as before: killed.
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(child.wait().await.unwrap().signal(), Some(9));
}

#[tokio::test]
async fn the_exit_code_and_the_killing_signal_are_reported_as_before() {
    use std::os::unix::process::ExitStatusExt;
    let end = async |script: &str| {
        let (mut child, _guard) = spawn("sh", &["-c".into(), script.into()], &BTreeMap::new(), None).unwrap();
        let status = child.wait().await.unwrap();
        (status.code(), status.signal())
    };
    assert_eq!(end("exit 7").await, (Some(7), None));
    assert_eq!(end("kill -9 $$").await, (None, Some(9)));
    assert_eq!(end("kill -SEGV $$").await, (None, Some(11)));

    // A graceful stop reaches the server, which ends by it.
    let (mut child, guard) = spawn("sleep", &["300".into()], &BTreeMap::new(), None).unwrap();
    guard.terminate();
    assert_eq!(child.wait().await.unwrap().signal(), Some(15));
}

#[test]
fn a_missing_command_fails_to_start_with_the_system_s_reason() {
    // On a thread, so a keeper that held std's exec-error pipe would fail the test (the
    // error would never come) rather than hang it.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let _entered = runtime.enter();
        let e = spawn("mcp-playground-no-such-command", &[], &BTreeMap::new(), None).unwrap_err();
        let _ = tx.send(e);
    });
    let e = rx.recv_timeout(std::time::Duration::from_secs(30)).expect("spawn returned");
    assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "{e}");
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_pid_shown_is_the_server_s() {
    let (child, guard) = spawn("sleep", &["300".into()], &BTreeMap::new(), None).unwrap();
    assert_ne!(Some(guard.pid()), child.id(), "the keeper's pid was shown");
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", guard.pid())).unwrap();
    assert_eq!(cmdline, b"sleep\x00300\x00");
}

/// Starts `sleep` in a process group of its own with the id `pid`, if the system lets the
/// test choose the next id (root may write `ns_last_pid`); other processes may take it
/// first, so it tries a few times.
#[cfg(target_os = "linux")]
fn take_pid(pid: u32) -> Option<std::process::Child> {
    use std::os::unix::process::CommandExt;
    for _ in 0..200 {
        std::fs::write("/proc/sys/kernel/ns_last_pid", (pid - 1).to_string()).ok()?;
        let mut cmd = std::process::Command::new("sleep");
        cmd.arg("300").process_group(0);
        #[allow(clippy::disallowed_methods, reason = "a bystander that must survive, not a server")]
        let mut child = cmd.spawn().unwrap();
        if child.id() == pid {
            return Some(child);
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    None
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_guard_whose_keeper_was_reaped_signals_nobody() {
    let (mut child, guard) = spawn("true", &[], &BTreeMap::new(), None).unwrap();
    let keeper = child.id().unwrap();
    child.wait().await.unwrap();
    // The keeper's id is free: a newcomer takes it, and with it the id of the group the
    // server was once killed by.
    let bystander = take_pid(keeper);
    guard.terminate();
    drop(guard);
    let Some(mut bystander) = bystander else {
        // Not root: the id could not be handed on; at least nothing failed.
        return;
    };
    // Signals are sent before terminate and drop return; a moment lets any arrive.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let survived = bystander.try_wait().unwrap().is_none();
    let _ = bystander.kill();
    let _ = bystander.wait();
    assert!(survived, "a process that reused the keeper's id was signalled");
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn hundreds_of_detached_children_are_all_killed() {
    // More children than one read of the kernel's list holds, each in a session of its own.
    let marker = unique_marker("many");
    let script = format!(
        r#"for i in $(seq 200); do setsid sh -c 'sleep 300; :' {marker} </dev/null >/dev/null 2>&1 & done; exec cat"#
    );
    let (_child, guard) = spawn("sh", &["-c".into(), script], &BTreeMap::new(), None).unwrap();
    let started = format!("300; :\0{marker}");
    eventually("the children to start", || carrying(&started).len() == 200).await;
    drop(guard);
    eventually("every child to be killed", || carrying(&marker).is_empty()).await;
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn signals_to_the_keeper_stop_the_server_or_kill_everything() {
    use nix::sys::signal::{Signal, kill};
    use std::os::unix::process::ExitStatusExt;
    let to_keeper = |child: &Child, signal| kill(nix::unistd::Pid::from_raw(child.id().unwrap() as i32), signal);

    // SIGTERM (a person's `kill`, a service manager) is passed on to the server.
    let (mut child, _guard) = spawn("sleep", &["300".into()], &BTreeMap::new(), None).unwrap();
    to_keeper(&child, Signal::SIGTERM).unwrap();
    assert_eq!(child.wait().await.unwrap().signal(), Some(15));

    // SIGUSR1 kills the server and all it started.
    let marker = unique_marker("usr1");
    let (mut child, _guard) = spawn("sh", &detaching_server(&marker), &BTreeMap::new(), None).unwrap();
    eventually("the daemon to start", || !carrying(&daemon(&marker)).is_empty()).await;
    // Kept open: `wait` closes stdin, which would end the server (`cat`) on its own.
    let _stdin = child.stdin.take();
    to_keeper(&child, Signal::SIGUSR1).unwrap();
    let status = child.wait().await.unwrap();
    assert_eq!(status.signal(), Some(9), "{status:?}");
    eventually("the daemon to be killed", || carrying(&marker).is_empty()).await;
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_server_does_not_outlive_a_keeper_killed_outright() {
    let (mut child, guard) = spawn("sleep", &["300".into()], &BTreeMap::new(), None).unwrap();
    let server = guard.pid();
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id().unwrap() as i32), nix::sys::signal::Signal::SIGKILL)
        .unwrap();
    child.wait().await.unwrap();
    eventually("the server to be killed", || !crate::upstream::stdio::tests::alive(server)).await;
}
