//! Nothing: this package only holds the benchmarks (see Cargo.toml).
