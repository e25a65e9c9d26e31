//! The MCP Playground relay as a library: the command line, the HTTP/WebSocket server that
//! serves the page and bridges it to MCP servers, and the built-in demo server.

pub mod app;
pub mod auth;
pub mod cli;
pub mod demo;
pub mod error;
pub mod export;
pub mod framing;
#[cfg(test)]
mod framing_props;
pub mod guard;
pub mod headless;
pub mod launch;
pub mod mock;
pub mod private;
pub mod record;
pub mod secrets;
pub mod session;
pub mod upstream;
