//! The relay adds no waiting of its own: small messages go out the moment they are ready.
//! Nagle's algorithm on the relay's sockets once held every answer for the client's
//! delayed acknowledgement (about 40 ms a call); this catches that or any like stall.

use std::time::{Duration, Instant};

use anyhow::{Result, ensure};
use serde_json::json;
use tests::{Playground, relay, say};

/// Sequential round trips measured (after a few to warm up).
const ROUND_TRIPS: usize = 50;

/// A ping through the relay to a local server takes well under a millisecond; a stall of
/// the kind Nagle causes takes 40. The median of 50 sits far from both, whatever the noise.
const STALL: Duration = Duration::from_millis(20);

#[tokio::test]
async fn small_messages_are_not_held_back() -> Result<()> {
    let pg = Playground::start(&[])?;
    let mut s = relay::Session::start(&pg, json!({"transport": "demo"})).await?;
    for _ in 0..5 {
        s.request("ping", json!({})).await?;
    }
    let mut times = Vec::with_capacity(ROUND_TRIPS);
    for _ in 0..ROUND_TRIPS {
        let started = Instant::now();
        let answer = s.request("ping", json!({})).await?;
        times.push(started.elapsed());
        ensure!(answer.get("result").is_some(), "ping failed: {answer}");
    }
    times.sort();
    let median = times[ROUND_TRIPS / 2];
    say(&format!(
        "{ROUND_TRIPS} sequential pings through the relay: median {:.2} ms, slowest {:.2} ms",
        median.as_secs_f64() * 1e3,
        times[ROUND_TRIPS - 1].as_secs_f64() * 1e3
    ));
    ensure!(median < STALL, "the median round trip is {median:?}: small messages are held back (TCP_NODELAY missing?)");
    Ok(())
}
