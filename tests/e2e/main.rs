//! End-to-end tests: the real `mcp-playground` binary, real MCP servers and real headless
//! Chromium, driving the page only through the hooks of UI-CONTRACT.md.

mod asks_cli;
mod asks_page;
mod auth_page;
mod calls;
mod cli;
mod config;
mod conformance;
mod conformance_auth;
mod connecting;
mod demo;
mod dialogs;
mod environment;
mod everything;
mod filters;
mod forms;
mod front_door;
mod hostile;
mod latency;
mod leaks;
mod load;
mod mock;
mod numbers;
mod oauth_cli;
mod oauth_page;
mod orphans;
mod protocol;
mod recording_page;
mod recording_relay;
mod remote;
mod replay_cli;
mod replay_page;
mod results;
mod schema_marks;
mod security;
mod stateless;
