//! A relay killed with SIGKILL leaves no process behind: not its servers, not what they
//! started, not a daemon that double-forked and called `setsid` to leave their group.

use std::time::Duration;

use anyhow::Result;
use serde_json::json;
use tests::procs::with_arg;
use tests::{Playground, eventually};

#[tokio::test]
async fn a_relay_killed_with_sigkill_leaves_no_server_behind() -> Result<()> {
    // Only the connect message names the marker: the relay's own command line does not.
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.subsec_nanos();
    let marker = format!("mcp-orphan-{}-{nanos}", std::process::id());
    let pg = Playground::start(&[])?;
    let (mut tx, _rx) = tests::relay::open(&pg).await?;
    // A child in the server's group, and a daemon out of it (double fork, setsid), both
    // marked; the server itself waits on its stdin, which a killed relay closes.
    let script = format!(
        "sh -c 'while :; do sleep 1; done' child-{marker} & \
         (setsid sh -c 'while :; do sleep 1; done' daemon-{marker} </dev/null >/dev/null 2>&1 &); exec cat"
    );
    tx.command(&json!({"type": "connect", "target": {"transport": "stdio", "command": "sh", "args": ["-c", script]}}))
        .await?;
    // Each carries its name as an argument of its own; the server's script only mentions it.
    let names = ["child", "daemon"].map(|who| format!("{who}-{marker}"));
    for name in &names {
        eventually(Duration::from_secs(10), &format!("the server's {name}"), || async {
            Ok((!with_arg(name).is_empty()).then_some(()))
        })
        .await?;
    }

    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pg.pid() as i32), nix::sys::signal::Signal::SIGKILL)?;
    let killed = std::time::Instant::now();
    eventually(Duration::from_secs(10), "every marked process to end", || async {
        Ok(names.iter().all(|name| with_arg(name).is_empty()).then_some(()))
    })
    .await?;
    tests::say(&format!("a killed relay's servers gone within {:?} (polled every 100 ms)", killed.elapsed()));
    drop(pg);
    Ok(())
}
