//! Parsing every form of the command line: the playground's, the subcommands', and where a
//! server's words begin.

use clap::Parser;
use expect_test::expect;
use shared::relay::Transport;

use super::*;

fn parse(args: &[&str]) -> Cli {
    let argv = std::iter::once("mcp-playground").chain(args.iter().copied());
    Cli::try_parse_from(argv).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// What clap says, without the usage.
fn refused(args: &[&str]) -> String {
    let argv = std::iter::once("mcp-playground").chain(args.iter().copied());
    match Cli::try_parse_from(argv) {
        Ok(cli) => panic!("{args:?} was accepted: {cli:?}"),
        // The first line, and the next when the first announces it.
        Err(e) => {
            let text = e.to_string();
            let mut lines = text.lines();
            let first = lines.next().unwrap_or_default();
            match lines.next() {
                Some(next) if first.ends_with(':') => format!("{first} {}", next.trim()),
                _ => first.to_owned(),
            }
        }
    }
}

fn playground(args: &[&str]) -> RunArgs {
    let cli = parse(args);
    assert!(cli.command.is_none(), "{args:?} parsed as a subcommand");
    cli.run
}

#[test]
fn the_playground_and_its_options() {
    let run = playground(&[]);
    assert_eq!((run.listen.host.as_str(), run.listen.port, run.listen.no_open), ("127.0.0.1", 6280, false));
    assert_eq!(run.server, ServerArgs::default());
    let run = playground(&["--port", "0", "--no-open", "--host", "::1", "--max-message-bytes", "10"]);
    assert_eq!(
        (run.listen.host.as_str(), run.listen.port, run.listen.no_open, run.listen.max_message_bytes),
        ("::1", 0, true, 10)
    );
    assert!(parse(&["--log-level", "debug"]).log_level == Some(LogLevel::Debug));
    assert!(parse(&[]).log_level.is_none());
}

#[test]
fn a_server_as_the_inspectors_users_type_it() {
    // A command: everything from its first word on is the server's, `-` words included.
    let run = playground(&["npx", "-y", "@modelcontextprotocol/server-everything"]);
    assert_eq!(run.server.server, ["npx", "-y", "@modelcontextprotocol/server-everything"]);
    let run = playground(&["--port", "0", "node", "s.js", "--port", "3", "-e", "X=1", "--", "--help"]);
    assert_eq!((run.listen.port, run.server.env.len()), (0, 0));
    assert_eq!(run.server.server, ["node", "s.js", "--port", "3", "-e", "X=1", "--", "--help"]);
    // After `--`, as before.
    let run = playground(&["--no-open", "--", "node", "s.js", "--flag"]);
    assert_eq!(run.server.server, ["node", "s.js", "--flag"]);
    // A URL.
    let run = playground(&["http://127.0.0.1:3001/mcp"]);
    assert_eq!(run.server.server, ["http://127.0.0.1:3001/mcp"]);
    // Options of the server before it.
    let run = playground(&["-e", "A=1", "--env", "B=2", "--cwd", "/tmp", "python3", "server.py"]);
    assert_eq!((run.server.env, run.server.cwd.as_deref()), (vec!["A=1".to_owned(), "B=2".to_owned()], Some("/tmp")));
    let run = playground(&["--header", "Authorization: Bearer t", "--transport", "sse", "https://x/sse"]);
    assert_eq!(
        (run.server.headers, run.server.transport),
        (vec!["Authorization: Bearer t".to_owned()], Some(Transport::Sse))
    );
    let run = playground(&["--url", "http://x/mcp", "--transport", "http"]);
    assert_eq!((run.server.url.as_deref(), run.server.transport), (Some("http://x/mcp"), Some(Transport::Http)));
    let run = playground(&["--config", "c.json", "--server", "files", "-e", "K=V"]);
    assert_eq!(run.server.config, Some(PathBuf::from("c.json")));
    assert_eq!(run.server.server_name.as_deref(), Some("files"));
    let run = playground(&["--config", "c.json"]);
    assert_eq!(run.server.server_name, None, "--config alone is allowed");
    assert_eq!(playground(&["--transport", "stdio", "node"]).server.transport, Some(Transport::Stdio));
}

#[test]
fn a_subcommand_comes_first_and_a_server_word_is_never_one() {
    assert!(matches!(parse(&["demo-server"]).command, Some(Sub::DemoServer)));
    let Some(Sub::Tools(tools)) = parse(&["tools", "npx", "-y", "pkg", "--json"]).command else { panic!() };
    assert_eq!(tools.server.server, ["npx", "-y", "pkg", "--json"]);
    assert!(!tools.out.json, "--json after the server belongs to the server");
    assert_eq!(tools.out.timeout_s, 60.0);
    let Some(Sub::Tools(tools)) =
        parse(&["tools", "--json", "--timeout", "2.5", "--log-level", "trace", "http://x/mcp"]).command
    else {
        panic!()
    };
    assert_eq!(
        (tools.out.json, tools.out.timeout_s, tools.server.server.as_slice()),
        (true, 2.5, ["http://x/mcp".to_owned()].as_slice())
    );
    // A word that is a subcommand only counts in first place: after `--` it is a command.
    assert_eq!(playground(&["--", "tools"]).server.server, ["tools"]);
    assert_eq!(playground(&["npx", "tools"]).server.server, ["npx", "tools"]);
    assert_eq!(parse(&["tools", "--log-level", "trace", "x"]).log_level, Some(LogLevel::Trace));
}

#[test]
fn call_takes_the_tool_then_options_then_the_server() {
    // As the official conformance suite runs it: the URL last, after the options.
    let cli = parse(&["call", "add_numbers", "--arg", "a=1", "--arg", "b=2", "http://localhost:4321/mcp"]);
    let Some(Sub::Call(call)) = cli.command else { panic!("{cli:?}") };
    assert_eq!(call.tool, "add_numbers");
    assert_eq!(call.arg, ["a=1", "b=2"]);
    assert_eq!(call.server.server, ["http://localhost:4321/mcp"]);
    assert_eq!((call.args, call.out.json, call.out.timeout_s), (None, false, 60.0));
    let cli = parse(&[
        "call",
        "echo",
        "--args",
        r#"{"message": "hi"}"#,
        "--json",
        "--timeout",
        "5",
        "-e",
        "A=1",
        "--cwd",
        "/srv",
        "node",
        "s.js",
        "--arg",
        "x",
    ]);
    let Some(Sub::Call(call)) = cli.command else { panic!("{cli:?}") };
    assert_eq!((call.args.as_deref(), call.out.json, call.out.timeout_s), (Some(r#"{"message": "hi"}"#), true, 5.0));
    assert_eq!((call.server.env, call.server.cwd.as_deref()), (vec!["A=1".to_owned()], Some("/srv")));
    assert_eq!(call.server.server, ["node", "s.js", "--arg", "x"]);
    assert!(call.arg.is_empty());
    let cli = parse(&["call", "echo", "--config", "c.json", "--server", "remote", "--header", "A: b"]);
    let Some(Sub::Call(call)) = cli.command else { panic!("{cli:?}") };
    assert_eq!((call.server.server_name.as_deref(), call.server.headers.len()), (Some("remote"), 1));
}

#[test]
fn recording_and_playing_back() {
    let run = playground(&["--record", "recs", "--port", "0", "node", "s.js", "--record", "x"]);
    assert_eq!(run.record.as_deref(), Some(std::path::Path::new("recs")));
    assert_eq!(run.server.server, ["node", "s.js", "--record", "x"], "after the server's first word, its own");
    assert_eq!(playground(&[]).record, None);
    let Some(Sub::Call(call)) = parse(&["call", "echo", "--record", "s.jsonl", "--arg", "message=hi"]).command else {
        panic!()
    };
    assert_eq!(call.out.record.as_deref(), Some(std::path::Path::new("s.jsonl")));
    let Some(Sub::Tools(tools)) = parse(&["tools", "--record", "t.jsonl"]).command else { panic!() };
    assert_eq!(tools.out.record.as_deref(), Some(std::path::Path::new("t.jsonl")));
    let Some(Sub::Play(play)) =
        parse(&["play", "s.jsonl", "--port", "0", "--no-open", "--token", "T", "--host", "::1"]).command
    else {
        panic!()
    };
    assert_eq!(play.file, std::path::Path::new("s.jsonl"));
    let l = &play.listen;
    assert_eq!((l.port, l.no_open, l.token.as_deref(), l.host.as_str()), (0, true, Some("T"), "::1"));
}

#[test]
fn mistakes_clap_catches() {
    let cases: &[&[&str]] = &[
        &["--prot", "1"],
        &["--transport", "ws", "http://x"],
        &["--transport", "auto", "http://x"],
        &["--server", "files"],
        &["--url", "http://x", "npx"],
        &["--url", "http://x", "--config", "c.json"],
        &["--config", "c.json", "npx"],
        &["call"],
        &["tools", "--timeout", "0", "x"],
        &["call", "t", "--timeout", "soon", "x"],
        &["--log-level", "loud"],
        &["play"],
        &["play", "s.jsonl", "node", "s.js"],
        &["play", "s.jsonl", "--record", "dir"],
    ];
    let out: Vec<String> = cases.iter().map(|c| format!("{}: {}", c.join(" "), refused(c))).collect();
    expect![[r#"
        --prot 1: error: unexpected argument '--prot' found
        --transport ws http://x: error: invalid value 'ws' for '--transport <KIND>'
        --transport auto http://x: error: invalid value 'auto' for '--transport <KIND>'
        --server files: error: the following required arguments were not provided: --config <FILE>
        --url http://x npx: error: the argument '--url <URL>' cannot be used with '[SERVER]...'
        --url http://x --config c.json: error: the argument '--url <URL>' cannot be used with '--config <FILE>'
        --config c.json npx: error: the argument '--config <FILE>' cannot be used with '[SERVER]...'
        call: error: the following required arguments were not provided: <TOOL>
        tools --timeout 0 x: error: invalid value '0' for '--timeout <SECONDS>': "0" is not a positive number of seconds
        call t --timeout soon x: error: invalid value 'soon' for '--timeout <SECONDS>': "soon" is not a positive number of seconds
        --log-level loud: error: invalid value 'loud' for '--log-level <LEVEL>'
        play: error: the following required arguments were not provided: <FILE>
        play s.jsonl node s.js: error: unexpected argument 'node' found
        play s.jsonl --record dir: error: unexpected argument '--record' found"#]].assert_eq(&out.join("\n"));
}

#[test]
fn log_level_wins_over_rust_log() {
    let cases = [
        (None, None),
        (None, Some("debug,hyper=info")),
        (None, Some("  ")),
        (Some(LogLevel::Debug), Some("trace")),
        (Some(LogLevel::Error), None),
        (Some(LogLevel::Warn), None),
        (Some(LogLevel::Trace), None),
    ];
    let out: Vec<String> = cases.iter().map(|(level, env)| log_filter(*level, *env, "info,tower_http=warn")).collect();
    expect![[r#"
        info,tower_http=warn
        debug,hyper=info
        info,tower_http=warn
        warn,backend=debug,mcp_playground=debug
        error,backend=error,mcp_playground=error
        warn,backend=warn,mcp_playground=warn
        warn,backend=trace,mcp_playground=trace"#]]
    .assert_eq(&out.join("\n"));
}

#[test]
fn inherit_env_is_asked_for_by_the_playground_and_the_headless_commands() {
    use crate::upstream::process::Inherit;
    assert_eq!(parse(&["npx", "srv"]).run.server.inherit(), Inherit::Minimal);
    assert_eq!(parse(&["--inherit-env", "npx", "srv"]).run.server.inherit(), Inherit::All);
    assert!(parse(&["--inherit-env", "npx", "--inherit-env"]).run.server.server.ends_with(&["--inherit-env".into()]));
    let Some(Sub::Tools(t)) = parse(&["tools", "--inherit-env", "npx", "srv"]).command else { panic!("tools") };
    assert_eq!(t.server.inherit(), Inherit::All);
    let Some(Sub::Call(c)) = parse(&["call", "echo", "--inherit-env", "--", "srv"]).command else { panic!("call") };
    assert_eq!(c.server.inherit(), Inherit::All);
}

#[test]
fn a_host_beyond_loopback_needs_allow_remote() {
    for host in ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST"] {
        assert!(!check_host(host, false).unwrap(), "{host}");
        assert!(!check_host(host, true).unwrap(), "{host}: loopback is never remote");
    }
    for host in ["0.0.0.0", "::", "192.168.1.20", "example.com", "localhost.example.com"] {
        let e = check_host(host, false).unwrap_err().to_string();
        assert!(e.contains(&format!("--host {host} is not a loopback address")) && e.contains("--allow-remote"), "{e}");
        assert!(check_host(host, true).unwrap(), "{host}: allowed, and remote");
    }
    let run = playground(&["--host", "0.0.0.0", "--allow-remote"]);
    assert!(run.listen.allow_remote);
    assert!(!playground(&["--host", "0.0.0.0"]).listen.allow_remote);
    let Some(Sub::Mock(mock)) =
        parse(&["mock", "r.jsonl", "--port", "0", "--host", "0.0.0.0", "--allow-remote"]).command
    else {
        panic!("not mock")
    };
    assert!(mock.allow_remote && mock.host == "0.0.0.0");
    let Some(Sub::Play(play)) = parse(&["play", "r.jsonl", "--allow-remote"]).command else { panic!("not play") };
    assert!(play.listen.allow_remote);
}

#[test]
fn protocol_is_auto_or_a_revision_everywhere_a_server_is_named() {
    use shared::revision::{ProtocolChoice, Revision};
    assert_eq!(playground(&[]).server.protocol, None, "not given: auto, or what a recording asked for");
    let run = playground(&["--protocol", "2024-11-05", "node", "s.js", "--protocol", "x"]);
    assert_eq!(run.server.protocol, Some(ProtocolChoice::Pinned(Revision::V2024_11_05)));
    assert_eq!(run.server.server, ["node", "s.js", "--protocol", "x"], "the server's own words stay its own");
    let Some(Sub::Tools(t)) = parse(&["tools", "--protocol", "auto", "node", "s.js"]).command else { panic!() };
    assert_eq!(t.server.protocol, Some(ProtocolChoice::Auto));
    let Some(Sub::Call(c)) = parse(&["call", "echo", "--protocol", "2025-11-25", "node"]).command else { panic!() };
    assert_eq!(c.server.protocol, Some(ProtocolChoice::Pinned(Revision::V2025_11_25)));
    let Some(Sub::Replay(r)) = parse(&["replay", "f.jsonl", "--protocol", "2025-03-26", "node"]).command else {
        panic!()
    };
    assert_eq!(r.server.protocol, Some(ProtocolChoice::Pinned(Revision::V2025_03_26)));
    expect![[r#"error: invalid value '2025-01-01' for '--protocol <auto|DATE>': unknown protocol revision "2025-01-01": use auto or one of 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28"#]]
        .assert_eq(&refused(&["tools", "--protocol", "2025-01-01", "node"]));
}
