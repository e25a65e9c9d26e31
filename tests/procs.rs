//! Process-tree checks from /proc: which processes a relay started, and whether they are gone.

use std::collections::HashMap;

/// Every process id in /proc.
fn all_pids() -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.flatten().filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok())).collect()
}

/// The fields of `/proc/PID/stat` after the command name: state, ppid, pgrp, …
fn stat(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    let (_, rest) = stat.rsplit_once(')')?;
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

/// Parent of every live process.
fn parents() -> HashMap<u32, u32> {
    let mut out = HashMap::new();
    for pid in all_pids() {
        let Some(fields) = stat(pid) else { continue };
        if fields.first().map(String::as_str) == Some("Z") {
            continue;
        }
        if let Some(ppid) = fields.get(1).and_then(|p| p.parse().ok()) {
            out.insert(pid, ppid);
        }
    }
    out
}

/// Every process in the process group `pgid`.
pub fn group(pgid: u32) -> Vec<u32> {
    all_pids().into_iter().filter(|p| stat(*p).and_then(|f| f.get(2)?.parse::<u32>().ok()) == Some(pgid)).collect()
}

/// Every live descendant of `pid`.
pub fn descendants(pid: u32) -> Vec<u32> {
    let parents = parents();
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let p = found[i];
        found.extend(parents.iter().filter(|(_, pp)| **pp == p).map(|(c, _)| *c));
        i += 1;
    }
    found.remove(0);
    found
}

/// Whether `pid` is a live (not zombie) process.
pub fn alive(pid: u32) -> bool {
    stat(pid).is_some_and(|f| f.first().map(String::as_str) != Some("Z"))
}

/// Every live process with `word` as one of its command-line arguments: tests put a unique
/// word on a server's command line to find it, and whatever it started, however it was
/// reparented.
pub fn with_arg(word: &str) -> Vec<u32> {
    all_pids()
        .into_iter()
        .filter(|p| {
            std::fs::read(format!("/proc/{p}/cmdline"))
                .is_ok_and(|c| c.split(|b| *b == 0).any(|a| a == word.as_bytes()))
        })
        .filter(|p| alive(*p))
        .collect()
}
