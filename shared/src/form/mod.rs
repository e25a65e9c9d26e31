//! Forms from JSON Schema: the model a tool's `inputSchema` becomes, the values it starts
//! from, JSON Pointer editing of the arguments, and validation before sending.

mod build;
mod dump;
mod initial;
mod model;
pub mod number;
pub mod pointer;
mod validate;

pub use build::{build, build_at, resolve};
pub use dump::dump;
pub use initial::{guess_variant, initial};
pub use model::*;
pub use validate::{Checker, Violation};

#[cfg(test)]
mod tests;
