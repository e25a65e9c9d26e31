//! Timing `tools/call` round trips on a path: one at a time, and many in flight.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde_json::json;

use crate::paths::CallPath;

fn echo(id: u64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "echo", "arguments": {"message": "hello from the benchmark"}}})
    .to_string()
}

/// `count` calls, each sent when the previous one was answered; the round trip of each.
pub async fn sequential(path: &mut CallPath, count: usize) -> Result<Vec<Duration>> {
    let mut times = Vec::with_capacity(count);
    for _ in 0..count {
        let id = path.id();
        let started = Instant::now();
        path.tx.send(echo(id))?;
        let answer = path.answer(id).await?;
        times.push(started.elapsed());
        if answer.get("result").is_none() {
            bail!("{}: echo failed: {answer}", path.name);
        }
    }
    Ok(times)
}

/// `count` calls with `window` in flight at all times; how long they all took.
pub async fn pipelined(path: &mut CallPath, count: usize, window: usize) -> Result<Duration> {
    let started = Instant::now();
    let mut open: HashMap<u64, ()> = HashMap::new();
    let mut sent = 0;
    let mut done = 0;
    while done < count {
        while open.len() < window && sent < count {
            let id = path.id();
            path.tx.send(echo(id))?;
            open.insert(id, ());
            sent += 1;
        }
        let answer = path.next_answer().await?;
        if let Some(id) = answer.id
            && open.remove(&id).is_some()
        {
            if !answer.ok {
                bail!("{}: echo failed: {}", path.name, answer.text);
            }
            done += 1;
        }
    }
    Ok(started.elapsed())
}

/// The `q`-quantile of sorted durations, in milliseconds.
pub fn quantile(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}
