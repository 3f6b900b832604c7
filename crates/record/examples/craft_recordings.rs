//! Writes hostile recordings made from a real one, for `scripts/fuzz.sh
//! recordings`: byte mutants (flips, cuts, splices, a frame's length
//! changed) and crafted files that are well formed but ask for what a
//! replay must refuse (console text in a cvar value, config files and cvars
//! that name paths and addresses, tick bombs, ticks out of order, lists far
//! over their limits, impossible rates).
//!
//!     craft_recordings BASE.qdemo OUT_DIR --cases N [--seed S] [--sandbox DIR]
//!
//! `--sandbox DIR` is where the crafted cvars and config files point their
//! paths: the campaign checks that nothing appears there.

use std::path::{Path, PathBuf};

use quarry_record::{Chunk, Footer, Header, IndexEntry, JournalEntry, Recording, TickRecord, read};

/// A small seeded generator (xorshift), so a campaign is repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A frame: kind, length, zstd of postcard.
fn frame<T: serde::Serialize>(kind: u8, payload: &T) -> Vec<u8> {
    let raw = postcard::to_stdvec(payload).unwrap_or_default();
    let body = zstd::bulk::compress(&raw, 3).unwrap_or_default();
    let mut out = vec![kind];
    out.extend_from_slice(&u32::try_from(body.len()).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// A whole file: preamble, header, chunks, and an index, footer and
/// trailer when `footer` is given.
fn layout(header: &Header, chunks: &[Chunk], footer: Option<&Footer>) -> Vec<u8> {
    let mut bytes = quarry_record::MAGIC.to_vec();
    bytes.extend_from_slice(&quarry_record::FORMAT_VERSION.to_le_bytes());
    bytes.extend(frame(1, header));
    let mut index = Vec::new();
    for c in chunks {
        let (Some(first), Some(last)) = (c.ticks.first(), c.ticks.last()) else { continue };
        index.push(IndexEntry { first_tick: first.tick, last_tick: last.tick, offset: bytes.len() as u64 });
        bytes.extend(frame(2, c));
    }
    if let Some(footer) = footer {
        let at = bytes.len() as u64;
        bytes.extend(frame(3, &index));
        bytes.extend(frame(4, footer));
        bytes.extend_from_slice(quarry_record::TRAILER_MAGIC);
        bytes.extend_from_slice(&at.to_le_bytes());
    }
    bytes
}

/// The base recording's ticks in chunks of 300.
fn chunks_of(rec: &Recording) -> Vec<Chunk> {
    let ticks: Vec<TickRecord> = rec.ticks().filter_map(Result::ok).collect();
    ticks.chunks(300).map(|c| Chunk { ticks: c.to_vec() }).collect()
}

/// One crafted file of kind `k`.
fn crafted(k: usize, rng: &mut Rng, rec: &Recording, sandbox: &Path) -> Vec<u8> {
    let mut header = rec.header.clone();
    let mut chunks = chunks_of(rec);
    let mut footer = rec.footer.clone();
    let s = sandbox.display();
    let empty = |n: u32, hashed: bool| TickRecord { tick: n, journal: Vec::new(), cmds: Vec::new(), hash: hashed.then(|| quarry_record::HashCheck { value: n.into(), steps: Vec::new() }) };
    match k {
        // Console text in a journal cvar value.
        0 => {
            let names = ["g_knockback", "g_gametype", "sv_fps", "sv_gameLog", "sv_recordDir", "timelimit"];
            let value = format!("1\"; navmesh export {s}/j{}.svg; set sv_gameLog {s}/j.log; map_restart; quit; \"", rng.below(1000));
            if let Some(t) = chunks.first_mut().and_then(|c| c.ticks.get_mut(rng.below(300))) {
                t.journal.push(JournalEntry::Cvar { name: names[rng.below(names.len())].into(), value });
            }
        }
        // Config files to run or to write elsewhere.
        1 => {
            let names = ["server.cfg", "archive.cfg", "../escape.cfg", "/abs.cfg", ".hidden", "bans.txt", "admins", "items.toml"];
            let name = names[rng.below(names.len())];
            header.config.push((name.into(), format!("navmesh export {s}/c.svg\nset sv_gameLog {s}/c.log\nquit\n")));
        }
        // Cvars that name paths, addresses and secrets.
        2 => {
            for (n, v) in [("sv_gameLog", format!("{s}/h.log")), ("sv_record", "1".into()), ("sv_recordDir", format!("{s}/demos")), ("sv_healthFile", format!("{s}/health")), ("sv_adminAuditLog", format!("{s}/audit")), ("sv_metricsAddr", "127.0.0.1:0".into()), ("sv_webAddr", "127.0.0.1:0".into()), ("sv_passwordFile", format!("{s}/pw")), ("sv_mapRotation", format!("{s}/x"))] {
                if rng.below(2) == 0 {
                    header.cvars.push((n.into(), v));
                }
            }
        }
        // A tick bomb: many empty ticks, hashed or not, finished or cut.
        3 => {
            let hashed = rng.below(2) == 0;
            let len = [300u32, 1024, 1025, 5000][rng.below(4)];
            let count = 1 + rng.below(400) as u32;
            chunks = (0..count).map(|c| Chunk { ticks: (1..=len).map(|i| empty(c * len + i, hashed && (c * len + i).is_multiple_of(60))).collect() }).collect();
            footer = match rng.below(3) {
                0 => None,
                1 => Some(Footer { ticks: u32::MAX, final_hash: 0, summary: String::new(), bot_report: String::new() }),
                _ => Some(Footer { ticks: count * len, final_hash: 0, summary: String::new(), bot_report: String::new() }),
            };
        }
        // Ticks out of order, repeated, or with gaps.
        4 => {
            let at = rng.below(chunks.len());
            if let Some(c) = chunks.get(at).cloned() {
                chunks.insert(rng.below(chunks.len() + 1), c);
            }
        }
        // Lists far over their limits.
        5 => {
            match rng.below(3) {
                0 => header.cvars.extend((0..5000).map(|i| (format!("x{i}"), "1".to_owned()))),
                1 => {
                    let client = quarry_record::ClientInfo { name: "x".into(), latency_ms: None, model: String::new(), team_pref: None, handicap: 100, joined_tick: 0 };
                    header.start_slots.extend((0..300).map(|i| quarry_record::StartSlot { slot: (i % 256) as u8, client: client.clone(), in_game: true, team: "red".into() }));
                }
                _ => {
                    if let Some(t) = chunks.first_mut().and_then(|c| c.ticks.first_mut()) {
                        t.journal.extend((0..2000).map(|i| JournalEntry::Leave { slot: (i % 256) as u8 }));
                    }
                }
            }
        }
        // Impossible rates and hash periods.
        _ => {
            header.hz = [0, 1, 1001, u32::MAX][rng.below(4)];
            header.hash_every = [0, 1, 3601, u32::MAX][rng.below(4)];
        }
    }
    layout(&header, &chunks, footer.as_ref())
}

/// One byte mutant of `base`.
fn mutant(rng: &mut Rng, base: &[u8]) -> Vec<u8> {
    let mut out = base.to_vec();
    match rng.below(4) {
        0 => {
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(out.len());
                out[at] ^= 1 << rng.below(8);
            }
        }
        1 => out.truncate(rng.below(out.len())),
        2 => {
            let from = rng.below(out.len());
            let len = rng.below(4096).min(out.len() - from);
            let piece = out[from..from + len].to_vec();
            let to = rng.below(out.len());
            out.splice(to..to, piece);
        }
        _ => {
            // A frame's length (the header's or the first chunk's) changed.
            let at = if rng.below(2) == 0 { 13 } else { 12 + 5 + u32::from_le_bytes([out[13], out[14], out[15], out[16]]) as usize + 1 };
            if at + 4 <= out.len() {
                out[at..at + 4].copy_from_slice(&(rng.next() as u32).to_le_bytes());
            }
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let (Some(base), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("usage: craft_recordings BASE.qdemo OUT_DIR --cases N [--seed S] [--sandbox DIR]");
        std::process::exit(2);
    };
    let cases: usize = value("--cases").and_then(|v| v.parse().ok()).unwrap_or(100);
    let mut rng = Rng(value("--seed").and_then(|v| v.parse().ok()).unwrap_or(13) | 1);
    let sandbox = PathBuf::from(value("--sandbox").unwrap_or_else(|| "/nonexistent-sandbox".into()));
    let rec = match read(Path::new(base)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{base}: {e}");
            std::process::exit(1);
        }
    };
    let base_bytes = std::fs::read(base).unwrap_or_default();
    let out = Path::new(out);
    for i in 0..cases {
        // Half crafted, half byte mutants.
        let (kind, bytes) = if i % 2 == 0 { ("crafted", crafted(i / 2 % 7, &mut rng, &rec, &sandbox)) } else { ("mutant", mutant(&mut rng, &base_bytes)) };
        if let Err(e) = std::fs::write(out.join(format!("{i:05}-{kind}.qdemo")), bytes) {
            eprintln!("writing case {i}: {e}");
            std::process::exit(1);
        }
    }
}
