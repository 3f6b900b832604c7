//! `quarry-server`: parses the command line and runs the server library.

use clap::Parser;

/// jemalloc rather than the system allocator. A map change frees the old
/// map's collision world and navmesh (tens of MB, partly allocated on the
/// navmesh builder's thread); glibc kept most of that resident and
/// fragmented (a 10-minute soak's RSS grew 10 % on the second pass through
/// the same maps), while jemalloc returns it within seconds, so RSS follows
/// what is live (+0.6 % on the second pass; mimalloc was tried and held
/// 56-80 MiB where glibc held 22-40).
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    quarry_server::run(quarry_server::cli::Cli::parse())
}
