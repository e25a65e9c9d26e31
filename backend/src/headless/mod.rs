//! The headless commands, `tools`, `call` and `replay`: the page's own client core
//! (`shared::session::Session`) driven without a browser or a WebSocket, by the relay's
//! upstream transports in-process.

mod answers;
mod catalog;
mod commands;
mod drive;
mod replay;
mod tasks;

pub use answers::Answers;
pub use catalog::{prompt, prompts, read, resources};
pub use commands::{call, tools};
pub use drive::{Driver, Stop};
pub use replay::replay;
pub use tasks::{task, tasks};
