//! Rastros solver (work in progress).
#![deny(missing_docs)]

pub mod parallel;
