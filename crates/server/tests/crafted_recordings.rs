//! Recordings are files from anywhere: a crafted one makes a replay run no
//! console text, write nothing but its own output and simulate no more
//! than the match it claims to be; and no recording holds a secret.

mod support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use quarry_record::{Footer, JournalEntry, Recording, RecordWriter, read};

/// Records a short headless TDM on q_dm1 with secrets set into `path`.
fn record(path: &Path, extra: &[&str]) {
    let (mut cmd, _dir) = support::headless_command();
    let out = cmd
        .args(["--seed", "5", "--record"])
        .arg(path)
        .args(["+set", "g_gametype", "tdm", "+set", "bot_minPlayers", "2", "+set", "timelimit", "0.05", "+set", "fraglimit", "0"])
        .args(extra)
        .args(["+map", "q_dm1"])
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", support::text(&out.stderr));
}

/// Replays `path` from the working directory `cwd`.
fn replay(path: &Path, cwd: &Path) -> std::process::Output {
    let (mut cmd, _dir) = support::headless_command();
    cmd.arg("replay").arg(path).current_dir(cwd);
    support::wait_with_deadline(cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().expect("spawn"), Duration::from_secs(120))
}

/// Every frame of a recording, decompressed, one after another.
fn decompressed(path: &Path) -> Vec<u8> {
    let data = std::fs::read(path).expect("recording");
    let mut out = Vec::new();
    let mut at = 12;
    while at + 5 <= data.len() && &data[at..at + 8.min(data.len() - at)] != quarry_record::TRAILER_MAGIC.as_slice() {
        let len = u32::from_le_bytes([data[at + 1], data[at + 2], data[at + 3], data[at + 4]]) as usize;
        let body = &data[at + 5..at + 5 + len];
        out.extend(zstd::bulk::decompress(body, quarry_record::MAX_PAYLOAD_BYTES).expect("a frame decompresses"));
        at += 5 + len;
    }
    out
}

/// Files under `dir`, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            }
            out.push(e.path());
        }
    }
    out.sort();
    out
}

/// Writes `rec` again into `path` with `header` changes and a journal
/// entry added at tick 30, finished with its footer.
fn rewrite(rec: &Recording, path: &Path, change: impl FnOnce(&mut quarry_record::Header), extra: Vec<JournalEntry>) {
    let mut header = rec.header.clone();
    change(&mut header);
    let mut w = RecordWriter::create(path, &header).expect("create");
    let mut extra = Some(extra);
    for t in rec.ticks() {
        let mut t = t.expect("tick");
        if t.tick == 30 {
            t.journal.extend(extra.take().unwrap_or_default());
        }
        w.push(t);
    }
    w.finish(rec.footer.clone().expect("finished")).expect("finish");
}

#[test]
fn no_recording_holds_a_secret_and_a_crafted_one_runs_no_command_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let original = dir.path().join("m.qdemo");
    record(&original, &["+set", "sv_password", "join-secret-4417", "+set", "sv_webPassword", "web-secret-9923"]);
    let bytes = decompressed(&original);
    for secret in ["join-secret-4417", "web-secret-9923"] {
        assert!(!bytes.windows(secret.len()).any(|w| w == secret.as_bytes()), "{secret} is in the recording");
    }
    let rec = read(&original).expect("read");
    assert!(rec.header.cvars.iter().all(|(n, _)| !n.eq_ignore_ascii_case("sv_gameLog")), "a path is not recorded: {:?}", rec.header.cvars);
    assert!(rec.header.cvars.iter().any(|(n, v)| n == "g_gametype" && v == "tdm"), "what shapes play is: {:?}", rec.header.cvars);

    // The crafted file asks, every way it can, for commands to run and
    // files to be written under `out`.
    let out = tempfile::tempdir().expect("tempdir");
    let o = out.path().display().to_string();
    let breakout = format!("1\"; navmesh export {o}/journal.svg; set sv_gameLog {o}/journal.log; map_restart; \"");
    let crafted = dir.path().join("crafted.qdemo");
    let config = format!("navmesh export {o}/config.svg\nset sv_gameLog {o}/config.log\n");
    rewrite(
        &rec,
        &crafted,
        |h| {
            h.config.push(("server.cfg".into(), config.clone()));
            h.config.push(("archive.cfg".into(), config.clone()));
            for (name, value) in [
                ("sv_gameLog", format!("{o}/header.log")),
                ("sv_record", "1".to_owned()),
                ("sv_recordDir", format!("{o}/demos")),
                ("sv_recordKeep", "1".to_owned()),
                ("sv_adminAuditLog", format!("{o}/audit.log")),
                ("sv_healthFile", format!("{o}/health")),
                ("sv_metricsAddr", "127.0.0.1:0".to_owned()),
            ] {
                h.cvars.push((name.into(), value));
            }
        },
        vec![
            JournalEntry::Cvar { name: "g_knockback".into(), value: breakout.clone() },
            JournalEntry::Cvar { name: "sv_gameLog".into(), value: format!("{o}/journal2.log") },
        ],
    );
    let cwd = tempfile::tempdir().expect("tempdir");
    let result = replay(&crafted, cwd.path());
    let stdout = support::text(&result.stdout);
    let stderr = support::text(&result.stderr);
    assert!(result.status.success(), "what shapes play is as recorded, so the replay matches: {stdout}\n{stderr}");
    assert!(stdout.contains("state hashes matched (the whole recording)"), "{stdout}");
    for name in ["config file 'server.cfg'", "config file 'archive.cfg'", "cvar 'sv_gameLog'", "cvar 'sv_record'", "cvar 'sv_recordDir'", "cvar 'sv_adminAuditLog'", "cvar 'sv_healthFile'", "cvar 'sv_metricsAddr'", "cvar 'g_knockback' ("] {
        assert!(stderr.contains(name), "{name} is listed as refused: {stderr}");
    }
    assert_eq!(files_under(out.path()), Vec::<PathBuf>::new(), "the replay wrote where the recording said");
    assert_eq!(files_under(cwd.path()), Vec::<PathBuf>::new(), "the replay wrote into its working directory");
}

/// A recording laid out by hand: the preamble, `header`, `chunks` and, if
/// given, an index, the footer and the trailer.
fn handmade(path: &Path, header: &quarry_record::Header, chunks: &[quarry_record::Chunk], footer: Option<&Footer>) {
    let frame = |kind: u8, raw: Vec<u8>| {
        let body = zstd::bulk::compress(&raw, 19).expect("compress");
        let mut out = vec![kind];
        out.extend_from_slice(&u32::try_from(body.len()).expect("small").to_le_bytes());
        out.extend_from_slice(&body);
        out
    };
    let mut bytes = quarry_record::MAGIC.to_vec();
    bytes.extend_from_slice(&quarry_record::FORMAT_VERSION.to_le_bytes());
    bytes.extend(frame(1, postcard::to_stdvec(header).expect("encode")));
    let mut index = Vec::new();
    for c in chunks {
        index.push(quarry_record::IndexEntry { first_tick: c.ticks[0].tick, last_tick: c.ticks[c.ticks.len() - 1].tick, offset: bytes.len() as u64 });
        bytes.extend(frame(2, postcard::to_stdvec(c).expect("encode")));
    }
    if let Some(footer) = footer {
        let index_at = bytes.len() as u64;
        bytes.extend(frame(3, postcard::to_stdvec(&index).expect("encode")));
        bytes.extend(frame(4, postcard::to_stdvec(footer).expect("encode")));
        bytes.extend_from_slice(quarry_record::TRAILER_MAGIC);
        bytes.extend_from_slice(&index_at.to_le_bytes());
    }
    std::fs::write(path, bytes).expect("write");
}

#[test]
fn a_tick_bomb_is_refused_without_simulating_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let original = dir.path().join("m.qdemo");
    record(&original, &[]);
    let header = read(&original).expect("read").header;
    let empty = |n: u32| quarry_record::TickRecord { tick: n, journal: Vec::new(), cmds: Vec::new(), hash: None };
    // 1,000 chunks of 1,000 empty ticks (4.6 hours at 60 Hz) in a few
    // kilobytes, with no state hash to check them against.
    let chunks: Vec<quarry_record::Chunk> = (0..1000u32).map(|c| quarry_record::Chunk { ticks: (1..=1000).map(|i| empty(c * 1000 + i)).collect() }).collect();
    let bomb = dir.path().join("bomb.qdemo");
    handmade(&bomb, &header, &chunks, None);
    assert!(std::fs::metadata(&bomb).expect("file").len() < 100_000);
    let out = replay(&bomb, dir.path());
    let (stdout, stderr) = (support::text(&out.stdout), support::text(&out.stderr));
    assert!(stderr.contains("61 ticks without a state hash"), "{stderr}");
    assert!(stdout.contains("replay: 0 ticks"), "nothing past the first missing hash is played: {stdout}\n{stderr}");
    // Finished, with a footer that claims 60 million ticks.
    let footer = Footer { ticks: 60_000_000, final_hash: 0, summary: String::new(), bot_report: String::new() };
    handmade(&bomb, &header, &chunks[..1], Some(&footer));
    let out = replay(&bomb, dir.path());
    let stderr = support::text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("the footer claims 60000000 ticks; a recording holds at most 24 hours"), "{stderr}");
}
