//! A malformed-packet campaign against the server's connection state
//! machine (`ServerConn`), in process: every case is a fresh connection fed
//! a valid hello, then mutated control-stream frames and datagrams (bit
//! flips, truncation, splices, length-prefix tampering, random bytes) built
//! from valid messages of every kind. Each case runs under `catch_unwind`
//! and a time budget.
//!
//!     cargo run --release -p quarry-net --example fuzz_packets -- --cases 100000 [--seed 13] [--budget-ms 200]
//!
//! Then the same number of out-of-band cases: mutated `getinfo`,
//! `getstatus` and A2S requests (and random bytes behind the `FF FF FF FF`
//! prefix) through one `OobHandler`, which must answer or count a drop for
//! each, never with an answer over one datagram.
//!
//! Prints two lines: `packets inprocess CASES OK REJECTED PANIC TIMEOUT ABORT SLOW`
//! (the row format of `scripts/fuzz.sh`): ok = the connection is still up
//! after the case, rejected = it closed the connection with a reason; and
//! `oob inprocess ...`: ok = answered, rejected = dropped and counted.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use quarry_net::codec::{Writer, encode_frame};
use quarry_net::conn::{ConnConfig, ServerConn, ServerConnEvent};
use quarry_net::datagram::{DatagramKind, write_header};
use quarry_net::handshake::{Hello, PROTOCOL_VERSION, Welcome};
use quarry_net::oob::{MAX_ANSWER, OobHandler, OobInfo, OobLimits, OobPlayer, PREFIX, Published};
use quarry_net::reliable::{ChatScope, ClientFrame, ClientMessage};
use quarry_net::usercmd::{Buttons, CmdPacket, UserCmd};

/// SplitMix64: seeded, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

fn frame(f: &ClientFrame) -> Vec<u8> {
    let mut out = Vec::new();
    encode_frame(&f.encode(), &mut out);
    out
}

fn datagram(tick: u32) -> Vec<u8> {
    let mut w = Writer::with_capacity(64);
    write_header(&mut w, DatagramKind::Commands, 1);
    CmdPacket { snapshot_ack: Some(3), cmds: vec![UserCmd { tick, forward: 100, buttons: Buttons::ATTACK, ..UserCmd::default() }] }.encode(&mut w);
    w.as_slice().to_vec()
}

/// Valid inputs of every kind, to mutate.
fn corpus() -> Vec<(bool, Vec<u8>)> {
    let msgs = [
        ClientMessage::Chat { scope: ChatScope::All, text: "hello there".into() },
        ClientMessage::Chat { scope: ChatScope::Team, text: "defend".into() },
        ClientMessage::Command("team red".into()),
        ClientMessage::Command("kill".into()),
        ClientMessage::UserInfo(vec![("name".into(), "Renamed".into()), ("rate".into(), "25000".into())]),
        ClientMessage::MapLoaded("q_dm1".into()),
        ClientMessage::Quit,
    ];
    let mut out: Vec<(bool, Vec<u8>)> = msgs.iter().map(|m| (true, frame(&ClientFrame::Message(m.clone())))).collect();
    out.push((true, frame(&ClientFrame::Hello(Hello { version: PROTOCOL_VERSION, name: "again".into(), ..Hello::default() }))));
    for t in [1, 500, 70_000] {
        out.push((false, datagram(t)));
    }
    out
}

fn mutate(rng: &mut Rng, mut b: Vec<u8>) -> Vec<u8> {
    for _ in 0..=rng.below(4) {
        match rng.below(7) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            1 if !b.is_empty() => b.truncate(rng.below(b.len())),
            2 => {
                let at = rng.below(b.len() + 1);
                let n = rng.below(16) + 1;
                let junk: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                b.splice(at..at, junk);
            }
            3 if !b.is_empty() => {
                // Tamper with the length prefix or a varint: all high bits.
                let i = rng.below(b.len().min(4));
                b[i] |= 0x80;
            }
            4 => {
                let n = rng.below(2048);
                b = (0..n).map(|_| rng.next() as u8).collect();
            }
            5 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = [0, 0xff, 0x7f, 0x80][rng.below(4)];
            }
            _ => {
                let copy = b.clone();
                b.extend_from_slice(&copy);
            }
        }
    }
    b
}

#[derive(Default)]
struct Counts {
    ok: u64,
    rejected: u64,
    panic: u64,
    timeout: u64,
    slow: u64,
}

fn main() {
    let mut cases = 100_000u64;
    let mut seed = 13u64;
    let mut budget = Duration::from_millis(200);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        match (args[i].as_str(), value) {
            ("--cases", Some(v)) => cases = v,
            ("--seed", Some(v)) => seed = v,
            ("--budget-ms", Some(v)) => budget = Duration::from_millis(v),
            _ => {
                eprintln!("usage: fuzz_packets [--cases N] [--seed S] [--budget-ms MS]");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    std::panic::set_hook(Box::new(|_| {}));
    let corpus = corpus();
    let hello = frame(&ClientFrame::Hello(Hello { version: PROTOCOL_VERSION, name: "fuzz".into(), ..Hello::default() }));
    let welcome = Welcome { slot: 0, map: "q_dm1".into(), tick_rate: 60, snapshot_rate: 30, ..Welcome::default() };
    let mut rng = Rng(seed);
    let mut counts = Counts::default();
    let t0 = Instant::now();
    let mut now = Instant::now();
    let config = ConnConfig::default();
    for case in 0..cases {
        let inputs: Vec<(bool, Vec<u8>)> = (0..=rng.below(8))
            .map(|_| {
                let (stream, base) = corpus[rng.below(corpus.len())].clone();
                (stream, mutate(&mut rng, base))
            })
            .collect();
        let started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let mut c = ServerConn::new(&config, now);
            c.handle_stream_data(now, &hello);
            while let Some(e) = c.poll_event() {
                if matches!(e, ServerConnEvent::Hello(_)) {
                    let _ = c.accept(&welcome);
                }
            }
            for (stream, bytes) in &inputs {
                now += Duration::from_millis(5);
                if *stream {
                    c.handle_stream_data(now, bytes);
                } else {
                    c.handle_datagram(now, bytes);
                }
                c.handle_timeout(now);
                while c.poll_event().is_some() {}
                while c.poll_transmit().is_some() {}
            }
            c.is_closed()
        }));
        let took = started.elapsed();
        match outcome {
            Err(_) => {
                counts.panic += 1;
                eprintln!("case {case}: panic");
            }
            Ok(_) if took > budget * 10 => counts.timeout += 1,
            Ok(closed) => {
                if took > budget {
                    counts.slow += 1;
                }
                if closed { counts.rejected += 1 } else { counts.ok += 1 }
            }
        }
    }
    eprintln!("{cases} cases in {:.1} s", t0.elapsed().as_secs_f64());
    println!("packets inprocess {cases} {} {} {} {} 0 {}", counts.ok, counts.rejected, counts.panic, counts.timeout, counts.slow);
    let oob = fuzz_oob(&mut rng, cases, budget);
    println!("oob inprocess {cases} {} {} {} {} 0 {}", oob.ok, oob.rejected, oob.panic, oob.timeout, oob.slow);
}

/// Valid out-of-band requests of every kind, to mutate.
fn oob_corpus() -> Vec<Vec<u8>> {
    let with = |body: &[u8]| [&PREFIX[..], body].concat();
    vec![
        with(b"getinfo abc"),
        with(b"getstatus"),
        with(b"getstatus xyz"),
        with(b"\x54Source Engine Query\0"),
        with(&[0x55, 0xFF, 0xFF, 0xFF, 0xFF]),
        with(&[0x56, 1, 2, 3, 4]),
    ]
}

/// The out-of-band campaign: one handler (its rate limits and counters
/// carry over, as on a live server), one mutated request a case from one
/// of a few thousand sources.
fn fuzz_oob(rng: &mut Rng, cases: u64, budget: Duration) -> Counts {
    let players = (0..40).map(|i| OobPlayer { name: format!("p\\{i}\""), score: i, ping_ms: 30, bot: i % 2 == 0, seconds: 1.0 }).collect();
    let info = OobInfo { hostname: "fuzz".into(), map: "q_dm1".into(), gametype: "ffa".into(), max_clients: 64, players, ..OobInfo::default() };
    let published = Published::new(&info, 27960);
    let corpus = oob_corpus();
    let mut handler = OobHandler::new(OobLimits::default(), &[9; 32], Instant::now());
    let mut counts = Counts::default();
    let mut now = Instant::now();
    for case in 0..cases {
        let base = corpus[rng.below(corpus.len())].clone();
        let mut bytes = mutate(rng, base);
        if rng.below(4) != 0 && !bytes.starts_with(&PREFIX) {
            bytes.splice(0..0, PREFIX);
        }
        let from = std::net::SocketAddr::from(([10, 0, (rng.below(16)) as u8, rng.below(250) as u8], 1024 + rng.below(60000) as u16));
        now += Duration::from_micros(200);
        let started = Instant::now();
        let before = handler.stats();
        let outcome = catch_unwind(AssertUnwindSafe(|| handler.handle(now, from, &bytes, &published).map(|a| a.len())));
        let took = started.elapsed();
        let s = handler.stats();
        match outcome {
            Err(_) => {
                counts.panic += 1;
                eprintln!("oob case {case}: panic");
            }
            Ok(_) if took > budget * 10 => counts.timeout += 1,
            Ok(answer) => {
                if took > budget {
                    counts.slow += 1;
                }
                if answer.is_some_and(|n| n > MAX_ANSWER) || s.received != before.received + 1 {
                    counts.panic += 1;
                    eprintln!("oob case {case}: an answer over one datagram, or a datagram not counted");
                } else if answer.is_some() {
                    counts.ok += 1;
                } else {
                    counts.rejected += 1;
                }
            }
        }
    }
    counts
}
