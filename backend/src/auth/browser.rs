//! Opening the approval page for a headless command: the command in `$BROWSER` when it is
//! set (as git and Python's `webbrowser` read it: commands separated by `:`, `%s` standing
//! for the URL, else the URL appended), else the system's opener. A test stands in for a
//! person by pointing `$BROWSER` at a script that follows the URL.

#![allow(clippy::print_stderr, reason = "a headless command's message to the person")]

use std::process::{Command, Stdio};

/// Tries each way to open `url` until one starts; says so when none does.
pub fn open(url: &str) {
    let browser = std::env::var("BROWSER").ok().filter(|b| !b.trim().is_empty());
    let commands: Vec<Vec<String>> = match &browser {
        Some(list) => list
            .split(':')
            .filter_map(|c| shared::cmdline::split_command_line(c.trim()).ok())
            .filter(|words| !words.is_empty())
            .map(|words| {
                let mut words: Vec<String> = words.into_iter().map(|w| w.replace("%s", url)).collect();
                if !list.contains("%s") {
                    words.push(url.to_owned());
                }
                words
            })
            .collect(),
        None if cfg!(target_os = "macos") => vec![vec!["open".into(), url.into()]],
        None => vec![vec!["xdg-open".into(), url.into()]],
    };
    for words in commands {
        let Some((program, args)) = words.split_first() else { continue };
        #[allow(
            clippy::disallowed_methods,
            reason = "the one exception to the spawn rule (clippy.toml): a browser is not a server, it is never killed"
        )]
        let spawned = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn();
        if let Ok(mut child) = spawned {
            // Reaped when it ends; never waited on.
            std::thread::spawn(move || child.wait());
            return;
        }
    }
    #[allow(clippy::print_stderr, reason = "a command line's output")]
    {
        eprintln!("no browser could be opened: open the URL above yourself");
    }
}
