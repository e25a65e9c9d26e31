//! Bounded reads.
