//! Process-tree checks from /proc: which processes a relay started, and whether they are gone.

use std::collections::HashMap;

/// Parent of every live process.
fn parents() -> HashMap<u32, u32> {
    let mut out = HashMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else { return out };
    for entry in dir.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        // The command name may hold spaces and parentheses: fields start after the last ')'.
        let fields: Vec<&str> =
            stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
        if fields.first() == Some(&"Z") {
            continue;
        }
        if let Some(ppid) = fields.get(1).and_then(|p| p.parse().ok()) {
            out.insert(pid, ppid);
        }
    }
    out
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
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}
