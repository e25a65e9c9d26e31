//! Forms from JSON Schema: the model a tool's `inputSchema` becomes, the values it starts
//! from, JSON Pointer editing of the arguments, and validation before sending.

mod args;
mod build;
pub mod cli;
mod dump;
mod initial;
mod model;
pub mod number;
mod rules;
mod validate;

pub use args::{ArgsModel, RawArgsError};
pub use build::{build, build_at};
pub use dump::dump;
pub use initial::{guess_variant, initial};
pub use model::*;
pub use rules::{KeySchema, initial_not_null, next_of_three, unused_key};
pub use validate::{Checker, UnusableSchema, Violation};

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;
