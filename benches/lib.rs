//! Criterion benchmarks for the Rastros workspace live beside this file; run them with
//! `cargo bench -p rastros-benches`.
