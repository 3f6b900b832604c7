//! The test suite's fake server, standalone, to try the `quarry-client`
//! CLI by hand without the real server. It prints its address and
//! fingerprint and runs until Ctrl-C or `--seconds`.
//!
//! ```text
//! cargo run -p quarry-client --example fake_server -- 20
//! cargo run -p quarry-client -- connect 127.0.0.1:PORT --fingerprint FP --random --duration 5 --stats
//! ```

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Duration;

fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let server = common::FakeServer::start(None);
    println!("fake server on {} for {seconds} s", server.addr);
    println!("fingerprint {}", server.fingerprint);
    std::thread::sleep(Duration::from_secs(seconds));
    let record = server.stop();
    println!("players: {:?}; chat: {:?}", record.hellos, record.chat);
}
