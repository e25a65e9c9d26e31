//! Resolving a named server: every way of naming one, the options on top, `mcpServers`
//! files (picking, offering, `cwd`, `${VAR}`), and the errors.

use clap::Parser;
use expect_test::expect;

use super::*;
use crate::cli::Cli;

fn env(name: &str) -> Option<String> {
    match name {
        "HOME" => Some("/home/u".into()),
        "TOKEN" => Some("t0k".into()),
        _ => None,
    }
}

fn server_args(words: &[&str]) -> ServerArgs {
    let argv = std::iter::once("mcp-playground").chain(words.iter().copied());
    Cli::try_parse_from(argv).unwrap_or_else(|e| panic!("{words:?}: {e}")).run.server
}

/// How a table of cases is resolved and shown.
#[derive(Clone, Copy)]
enum As {
    /// The headless commands: [`ServerArgs::target`].
    Target,
    /// The playground: [`ServerArgs::offer`], with the servers offered.
    Offer,
}

/// The preset (or the error), and the offered servers when asked.
fn resolve(words: &[&str], how: As) -> String {
    let args = server_args(words);
    match args.resolve(&env, matches!(how, As::Offer)) {
        Ok(Offer { preset, protocol, servers, .. }) => {
            let mut out = match preset {
                Some(t) => serde_json::to_string(&t).unwrap(),
                None => "none".into(),
            };
            if let Some(p) = protocol {
                out.push_str(&format!(" protocol {}", p.as_str()));
            }
            for s in servers.iter().filter(|_| matches!(how, As::Offer)) {
                out.push_str(&format!("\n    offered {}", serde_json::to_string(s).unwrap()));
            }
            out
        }
        Err(e) => format!("error: {e:#}"),
    }
}

/// Each case and what it resolves to; the folders named are shown as `<dir>`.
fn table(cases: &[&[&str]], how: As, dirs: &[&Path]) -> String {
    let lines: Vec<String> = cases.iter().map(|c| format!("{}\n  => {}", c.join(" "), resolve(c, how))).collect();
    dirs.iter().fold(lines.join("\n"), |text, dir| text.replace(&*dir.to_string_lossy(), "<dir>"))
}

#[test]
fn every_way_of_naming_a_server() {
    let cases: &[&[&str]] = &[
        &[],
        &["npx", "-y", "@modelcontextprotocol/server-everything"],
        &["http://127.0.0.1:3001/mcp"],
        &["--transport", "sse", "http://127.0.0.1:3001/sse"],
        &["--url", "https://x/mcp", "--transport", "http", "--header", "Authorization: Bearer t", "--header", "X-A:1"],
        &["-e", "A=1", "-e", "A=2", "-e", "B=x=y", "--cwd", "/srv", "node", "s.js"],
        &["--transport", "stdio", "--", "node", "--inspect"],
    ];
    expect![[r#"

          => none
        npx -y @modelcontextprotocol/server-everything
          => {"transport":"stdio","command":"npx","args":["-y","@modelcontextprotocol/server-everything"],"env":{}}
        http://127.0.0.1:3001/mcp
          => {"transport":"auto","url":"http://127.0.0.1:3001/mcp","headers":{}}
        --transport sse http://127.0.0.1:3001/sse
          => {"transport":"sse","url":"http://127.0.0.1:3001/sse","headers":{}}
        --url https://x/mcp --transport http --header Authorization: Bearer t --header X-A:1
          => {"transport":"http","url":"https://x/mcp","headers":{"Authorization":"Bearer t","X-A":"1"}}
        -e A=1 -e A=2 -e B=x=y --cwd /srv node s.js
          => {"transport":"stdio","command":"node","args":["s.js"],"env":{"A":"2","B":"x=y"},"cwd":"/srv"}
        --transport stdio -- node --inspect
          => {"transport":"stdio","command":"node","args":["--inspect"],"env":{}}"#]]
    .assert_eq(&table(cases, As::Target, &[]));
}

#[test]
fn mistakes_are_named_precisely() {
    let cases: &[&[&str]] = &[
        &["http://x/mcp", "--arg", "a=1"],
        &["ws://x/mcp"],
        &["--url", "ftp://x"],
        &["--url", "not a url"],
        &["--transport", "stdio", "http://x/mcp"],
        &["--transport", "http", "node", "s.js"],
        &["-e", "A=1", "http://x/mcp"],
        &["--cwd", "/tmp", "--url", "http://x/mcp"],
        &["--header", "A: b", "node"],
        &["-e", "1A=2", "node"],
        &["-e", "novalue", "node"],
        &["-e", "#A=1", "node"],
        &["--header", "no colon", "http://x/mcp"],
        &["-e", "A=1"],
        &["--transport", "sse"],
        &["--", "tools", "http://x/mcp"],
    ];
    expect![[r##"
        http://x/mcp --arg a=1
          => error: a URL names a server on its own, but --arg a=1 follows http://x/mcp: options go before the server (everything after its first word belongs to it)
        ws://x/mcp
          => error: ws://x/mcp: only http and https URLs are supported, not ws:
        --url ftp://x
          => error: ftp://x: only http and https URLs are supported, not ftp:
        --url not a url
          => error: "not a url" is not a valid URL: relative URL without a base
        --transport stdio http://x/mcp
          => error: --transport stdio needs a command, and http://x/mcp is a URL
        --transport http node s.js
          => error: --transport http needs a URL (--url or a positional http(s) URL), and "node" is a command
        -e A=1 http://x/mcp
          => error: -e sets the environment of a local command, and http://x/mcp is a remote server (send headers with --header)
        --cwd /tmp --url http://x/mcp
          => error: --cwd is for a local command, and http://x/mcp is a remote server
        --header A: b node
          => error: --header is for a remote server, and "node" is a local command (set its environment with -e)
        -e 1A=2 node
          => error: -e "1A=2": "1A" is not a valid variable name
        -e novalue node
          => error: -e "novalue": expected KEY=VALUE
        -e #A=1 node
          => error: -e "#A=1": expected KEY=VALUE
        --header no colon http://x/mcp
          => error: --header "no colon": expected "Name: value"
        -e A=1
          => error: -e needs a server: a URL, a command, --url or --config
        --transport sse
          => error: --transport needs a server: a URL, a command, --url or --config
        -- tools http://x/mcp
          => error: "tools" is a subcommand: put it first (mcp-playground tools …); to run a program called tools, give its path (./tools)"##]].assert_eq(&table(cases, As::Target, &[]));
}

/// A folder with one `mcpServers` file, removed when dropped.
struct ConfigDir(PathBuf);

impl ConfigDir {
    fn new(tag: &str, text: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("mcp-playground-cli-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("mcp.json"), text).unwrap();
        Self(dir)
    }

    fn file(&self) -> String {
        self.0.join("mcp.json").to_string_lossy().into_owned()
    }
}

impl Drop for ConfigDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const SEVERAL: &str = r#"{"mcpServers": {
    "files": {"command": "npx", "args": ["-y", "server-filesystem", "${HOME}"], "cwd": "sub", "env": {"TOKEN": "${TOKEN}"}},
    "home": {"command": "x", "cwd": "~/work"},
    "abs": {"command": "x", "cwd": "/abs"},
    "remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}, "note": "x"},
    "broken": {"command": 1},
    "unset": {"url": "http://x/mcp", "headers": {"A": "${NOPE}"}}
}}"#;

#[test]
fn picking_a_server_of_a_file() {
    let dir = ConfigDir::new("pick", SEVERAL);
    let f = dir.file();
    let cases: &[&[&str]] = &[
        &["--config", &f, "--server", "files"],
        &["--config", &f, "--server", "files", "-e", "TOKEN=mine", "-e", "EXTRA=1", "--cwd", "/elsewhere"],
        &["--config", &f, "--server", "home"],
        &["--config", &f, "--server", "abs"],
        &["--config", &f, "--server", "remote", "--header", "X-B: 2", "--transport", "sse"],
        &["--config", &f, "--server", "broken"],
        &["--config", &f, "--server", "unset"],
        &["--config", &f, "--server", "nope"],
        &["--config", &f, "--server", "remote", "-e", "A=1"],
        &["--config", &f, "--server", "files", "--header", "A: 1"],
        &["--config", &f, "--server", "files", "--transport", "http"],
        &["--config", &f],
    ];
    expect![[r#"
        --config <dir>/mcp.json --server files
          => {"transport":"stdio","command":"npx","args":["-y","server-filesystem","/home/u"],"env":{"TOKEN":"t0k"},"cwd":"<dir>/sub"}
        --config <dir>/mcp.json --server files -e TOKEN=mine -e EXTRA=1 --cwd /elsewhere
          => {"transport":"stdio","command":"npx","args":["-y","server-filesystem","/home/u"],"env":{"EXTRA":"1","TOKEN":"mine"},"cwd":"/elsewhere"}
        --config <dir>/mcp.json --server home
          => {"transport":"stdio","command":"x","args":[],"env":{},"cwd":"/home/u/work"}
        --config <dir>/mcp.json --server abs
          => {"transport":"stdio","command":"x","args":[],"env":{},"cwd":"/abs"}
        --config <dir>/mcp.json --server remote --header X-B: 2 --transport sse
          => {"transport":"sse","url":"https://example.com/mcp","headers":{"Authorization":"Bearer t0k","X-B":"2"}}
        --config <dir>/mcp.json --server broken
          => error: <dir>/mcp.json: server "broken": "command" must be a string
        --config <dir>/mcp.json --server unset
          => error: <dir>/mcp.json: server "unset": "headers"."A": variable NOPE is not set
        --config <dir>/mcp.json --server nope
          => error: <dir>/mcp.json: no server named "nope" in the configuration (it has: files, home, abs, remote, broken, unset)
        --config <dir>/mcp.json --server remote -e A=1
          => error: -e sets the environment of a local command, and server "remote" of <dir>/mcp.json is a remote server (send headers with --header)
        --config <dir>/mcp.json --server files --header A: 1
          => error: --header is for a remote server, and server "files" of <dir>/mcp.json is a local command (set its environment with -e)
        --config <dir>/mcp.json --server files --transport http
          => error: --transport http needs a URL (--url or a positional http(s) URL), and server "files" of <dir>/mcp.json is a command
        --config <dir>/mcp.json
          => error: <dir>/mcp.json has 6 servers: pick one with --server NAME (files, home, abs, remote, broken, unset)"#]].assert_eq(&table(cases, As::Target, &[&dir.0]));
}

#[test]
fn the_playground_offers_every_server_of_a_file() {
    let dir = ConfigDir::new("offer", SEVERAL);
    let f = dir.file();
    let cases: &[&[&str]] =
        &[&["--config", &f], &["--config", &f, "--server", "remote"], &["--config", &f, "-e", "A=1"]];
    expect![[r#"
        --config <dir>/mcp.json
          => none
            offered {"name":"files","target":{"transport":"stdio","command":"npx","args":["-y","server-filesystem","/home/u"],"env":{"TOKEN":"t0k"},"cwd":"<dir>/sub"}}
            offered {"name":"home","target":{"transport":"stdio","command":"x","args":[],"env":{},"cwd":"/home/u/work"}}
            offered {"name":"abs","target":{"transport":"stdio","command":"x","args":[],"env":{},"cwd":"/abs"}}
            offered {"name":"remote","target":{"transport":"http","url":"https://example.com/mcp","headers":{"Authorization":"Bearer t0k"}}}
            offered {"name":"broken","error":"\"command\" must be a string"}
            offered {"name":"unset","error":"\"headers\".\"A\": variable NOPE is not set"}
        --config <dir>/mcp.json --server remote
          => {"transport":"http","url":"https://example.com/mcp","headers":{"Authorization":"Bearer t0k"}}
            offered {"name":"files","target":{"transport":"stdio","command":"npx","args":["-y","server-filesystem","/home/u"],"env":{"TOKEN":"t0k"},"cwd":"<dir>/sub"}}
            offered {"name":"home","target":{"transport":"stdio","command":"x","args":[],"env":{},"cwd":"/home/u/work"}}
            offered {"name":"abs","target":{"transport":"stdio","command":"x","args":[],"env":{},"cwd":"/abs"}}
            offered {"name":"remote","target":{"transport":"http","url":"https://example.com/mcp","headers":{"Authorization":"Bearer t0k"}}}
            offered {"name":"broken","error":"\"command\" must be a string"}
            offered {"name":"unset","error":"\"headers\".\"A\": variable NOPE is not set"}
        --config <dir>/mcp.json -e A=1
          => error: -e applies to one server: name it with --server NAME"#]].assert_eq(&table(cases, As::Offer, &[&dir.0]));
}

#[test]
fn files_with_one_server_or_none() {
    let one = ConfigDir::new("one", r#"{"mcpServers": {"only": {"url": "http://127.0.0.1:3001/mcp"}}}"#);
    let none = ConfigDir::new("none", r#"{"mcpServers": {}}"#);
    let bad = ConfigDir::new("bad", r#"{"mcpServers": {"a": {"command": "x"}},}"#);
    let missing = none.0.join("missing.json").to_string_lossy().into_owned();
    let (one_file, none_file, bad_file) = (one.file(), none.file(), bad.file());
    let cases: &[&[&str]] = &[
        &["--config", &one_file],
        &["--config", &one_file, "--transport", "sse", "--header", "A: b"],
        &["--config", &none_file],
        &["--config", &bad_file],
        &["--config", &missing],
    ];
    let out = table(cases, As::Offer, &[&one.0, &none.0, &bad.0]);
    expect![[r#"
        --config <dir>/mcp.json
          => {"transport":"auto","url":"http://127.0.0.1:3001/mcp","headers":{}}
            offered {"name":"only","target":{"transport":"auto","url":"http://127.0.0.1:3001/mcp","headers":{}}}
        --config <dir>/mcp.json --transport sse --header A: b
          => {"transport":"sse","url":"http://127.0.0.1:3001/mcp","headers":{"A":"b"}}
            offered {"name":"only","target":{"transport":"auto","url":"http://127.0.0.1:3001/mcp","headers":{}}}
        --config <dir>/mcp.json
          => error: <dir>/mcp.json: the configuration has no servers
        --config <dir>/mcp.json
          => error: <dir>/mcp.json: not JSON: trailing comma at line 1 column 40
        --config <dir>/missing.json
          => error: cannot read <dir>/missing.json: No such file or directory (os error 2)"#]]
    .assert_eq(&out);
}

#[test]
fn cwd_of_a_file_is_anchored_to_its_folder() {
    let folder = Path::new("/cfg");
    let cases = ["sub", "./sub", "../up", "/abs", "~", "~/work", "~bob/x"];
    let out: Vec<String> = cases.iter().map(|c| format!("{c} => {}", anchor(c, folder, Some("/home/u")))).collect();
    expect![[r#"
        sub => /cfg/sub
        ./sub => /cfg/sub
        ../up => /cfg/../up
        /abs => /abs
        ~ => /home/u
        ~/work => /home/u/work
        ~bob/x => /cfg/~bob/x"#]]
    .assert_eq(&out.join("\n"));
    assert_eq!(anchor("~/x", folder, None), "/cfg/~/x");
}

#[test]
fn the_protocol_of_an_entry_and_of_protocol() {
    let file = ConfigDir::new(
        "protocol",
        r#"{"mcpServers": {"old": {"url": "http://127.0.0.1:1/sse", "protocolVersion": "2024-11-05"}, "new": {"command": "x"}}}"#,
    );
    let f = file.file();
    let cases: &[&[&str]] = &[
        &["--config", &f, "--server", "old"],
        &["--config", &f, "--server", "old", "--protocol", "auto"],
        &["--config", &f, "--server", "new"],
        &["--config", &f],
        &["--protocol", "2025-06-18", "node", "s.js"],
        &["node", "s.js"],
    ];
    let out = table(cases, As::Offer, &[&file.0]);
    expect![[r#"
        --config <dir>/mcp.json --server old
          => {"transport":"auto","url":"http://127.0.0.1:1/sse","headers":{}} protocol 2024-11-05
            offered {"name":"old","target":{"transport":"auto","url":"http://127.0.0.1:1/sse","headers":{}},"protocol":"2024-11-05"}
            offered {"name":"new","target":{"transport":"stdio","command":"x","args":[],"env":{}}}
        --config <dir>/mcp.json --server old --protocol auto
          => {"transport":"auto","url":"http://127.0.0.1:1/sse","headers":{}} protocol auto
            offered {"name":"old","target":{"transport":"auto","url":"http://127.0.0.1:1/sse","headers":{}},"protocol":"2024-11-05"}
            offered {"name":"new","target":{"transport":"stdio","command":"x","args":[],"env":{}}}
        --config <dir>/mcp.json --server new
          => {"transport":"stdio","command":"x","args":[],"env":{}}
            offered {"name":"old","target":{"transport":"auto","url":"http://127.0.0.1:1/sse","headers":{}},"protocol":"2024-11-05"}
            offered {"name":"new","target":{"transport":"stdio","command":"x","args":[],"env":{}}}
        --config <dir>/mcp.json
          => none
            offered {"name":"old","target":{"transport":"auto","url":"http://127.0.0.1:1/sse","headers":{}},"protocol":"2024-11-05"}
            offered {"name":"new","target":{"transport":"stdio","command":"x","args":[],"env":{}}}
        --protocol 2025-06-18 node s.js
          => {"transport":"stdio","command":"node","args":["s.js"],"env":{}} protocol 2025-06-18
        node s.js
          => {"transport":"stdio","command":"node","args":["s.js"],"env":{}}"#]].assert_eq(&out);
}
