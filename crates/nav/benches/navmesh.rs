//! Navmesh benchmarks (filled in below).
fn main() {}
