//! Everything both halves of MCP Playground agree on: JSON-RPC framing, the MCP types the
//! page reads, the browser⇄relay wire messages and the sans-IO client logic.
//!
//! This crate compiles for `wasm32-unknown-unknown` and natively; it knows nothing of tokio,
//! axum, the DOM or any I/O. The raw text of every MCP message travels beside its typed view.

pub mod apps;
pub mod asks;
pub mod auth_view;
pub mod calls;
pub mod catalog;
pub mod client;
pub mod cmdline;
pub mod config;
pub mod connect_form;
pub mod copy_call;
pub mod deep_link;
pub mod form;
pub mod http_headers;
pub mod jsonrpc;
pub mod listbox;
pub mod mcp;
pub mod negotiation;
pub mod pairing;
pub mod pointer;
pub mod recording;
pub mod relay;
pub mod render;
pub mod replay;
pub mod revision;
pub mod saved;
pub mod schema;
pub mod session;
pub mod spec_check;
pub mod tasks;
pub mod timeline;

/// The MCP protocol revision `initialize` offers on `auto`
/// ([`revision::Revision::NEWEST_WITH_INITIALIZE`]; a test keeps the two equal).
pub const DEFAULT_PROTOCOL_VERSION: &str = "2025-11-25";
