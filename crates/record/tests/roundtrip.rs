//! Recordings written and read back: whole, cut short by a crash, damaged,
//! of another format.

use std::path::Path;

use quarry_movement::UserCmd;
use quarry_record::{ClientInfo, Footer, HashCheck, Header, JournalEntry, RecordError, RecordWriter, StartSlot, TickRecord, read};

fn header() -> Header {
    Header {
        sim_version: "test".into(),
        build_id: "b".into(),
        seed: 7,
        hz: 60,
        slots: 8,
        map_name: "q_dm1".into(),
        map_hash: 42,
        map_text: Some("{ \"classname\" \"worldspawn\" }".into()),
        config: vec![("items.toml".into(), "# items".into())],
        content: vec![("botfiles".into(), 1)],
        cvars: vec![("g_gametype".into(), "ffa".into())],
        headless: true,
        hash_every: 60,
        start_slots: vec![StartSlot { slot: 3, client: client("carried"), in_game: true, team: "red".into() }],
    }
}

fn client(name: &str) -> ClientInfo {
    ClientInfo { name: name.into(), latency_ms: Some(40), model: "bot".into(), team_pref: None, handicap: 100, joined_tick: 0 }
}

fn tick(n: u32) -> TickRecord {
    let mut cmd = UserCmd { tick: n, yaw: n as f32, forward: 127, ..UserCmd::default() };
    cmd.sanitise();
    TickRecord {
        tick: n,
        journal: if n == 1 { vec![JournalEntry::Join { slot: 0, client: client("a") }] } else { Vec::new() },
        cmds: vec![(0, cmd), (1, UserCmd { tick: n, ..UserCmd::default() })],
        hash: n.is_multiple_of(60).then(|| HashCheck { value: u64::from(n), steps: vec![("players".into(), 1)] }),
    }
}

fn write(path: &Path, ticks: u32, finish: bool) -> Option<u64> {
    let mut w = RecordWriter::create(path, &header()).expect("create");
    for n in 1..=ticks {
        w.push(tick(n));
    }
    if finish {
        Some(w.finish(Footer { ticks, final_hash: 9, summary: "done".into(), bot_report: String::new() }).expect("finish"))
    } else {
        drop(w);
        None
    }
}

fn all_ticks(rec: &quarry_record::Recording) -> Vec<TickRecord> {
    rec.ticks().collect::<Result<Vec<_>, _>>().expect("ticks")
}

#[test]
fn a_finished_recording_reads_back_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("m.qrec");
    let bytes = write(&path, 1000, true).expect("size");
    assert_eq!(std::fs::metadata(&path).expect("file").len(), bytes);
    assert!(!dir.path().join("m.qrec.part").exists(), "renamed into place");
    let rec = read(&path).expect("read");
    assert_eq!(rec.header, header());
    let ticks = all_ticks(&rec);
    assert_eq!(ticks.len(), 1000);
    assert_eq!(ticks[599], tick(600));
    assert_eq!((rec.tick_count(), rec.hash_count(), rec.last_tick()), (1000, 16, Some(1000)));
    assert_eq!(rec.cut, None);
    assert_eq!(rec.footer.map(|f| f.final_hash), Some(9));
    // Chunks of 300 ticks: 1-300, 301-600, 601-900, 901-1000.
    let spans: Vec<(u32, u32)> = rec.index.iter().map(|e| (e.first_tick, e.last_tick)).collect();
    assert_eq!(spans, [(1, 300), (301, 600), (601, 900), (901, 1000)]);
}

#[test]
fn a_recording_cut_by_a_crash_reads_up_to_its_last_whole_chunk() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("m.qrec");
    write(&path, 700, false);
    let part = dir.path().join("m.qrec.part");
    let rec = read(&part).expect("a cut file still reads");
    assert_eq!(all_ticks(&rec).len(), 700, "the writer flushed what it had when dropped");
    assert!(rec.footer.is_none() && rec.cut.is_some());
    // Cut in the middle of the last chunk: the chunks before it stay.
    let data = std::fs::read(&part).expect("part");
    std::fs::write(&part, &data[..data.len() - 10]).expect("truncate");
    let rec = read(&part).expect("reads");
    assert_eq!(all_ticks(&rec).len(), 600);
    assert!(rec.cut.as_deref().is_some_and(|c| c.contains("ends inside a frame")), "{:?}", rec.cut);
}

#[test]
fn damaged_or_foreign_files_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("m.qrec");
    write(&path, 400, true);
    let good = std::fs::read(&path).expect("file");
    // Another format version.
    let mut other = good.clone();
    other[8] = 9;
    std::fs::write(&path, &other).expect("write");
    assert!(matches!(read(&path), Err(RecordError::Version { found: 9, supported: quarry_record::FORMAT_VERSION, .. })));
    // Not a recording.
    std::fs::write(&path, b"hello world, this is text").expect("write");
    assert!(matches!(read(&path), Err(RecordError::NotARecording { .. })));
    // A flipped byte inside a chunk of a finished file.
    let mut bad = good.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0xff;
    std::fs::write(&path, &bad).expect("write");
    match read(&path) {
        Err(RecordError::Corrupt { offset, reason, .. }) => assert!(offset > 12 && !reason.is_empty()),
        other => panic!("a damaged chunk must be an error, got {other:?}"),
    }
    // A huge frame length is refused, not allocated.
    let mut huge = good;
    let at = 12 + 5 + u32::from_le_bytes([huge[13], huge[14], huge[15], huge[16]]) as usize;
    huge[at + 1..at + 5].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(&path, &huge).expect("write");
    assert!(read(&path).is_err());
}

/// A cut recording (no index, no footer) of `chunks`, written by hand as
/// the writer lays a file out, so its chunks may be any length.
fn crafted(path: &Path, chunks: impl IntoIterator<Item = quarry_record::Chunk>) {
    let mut bytes = quarry_record::MAGIC.to_vec();
    bytes.extend_from_slice(&quarry_record::FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&frame(1, &postcard::to_stdvec(&header()).expect("encode")));
    for c in chunks {
        bytes.extend_from_slice(&frame(2, &postcard::to_stdvec(&c).expect("encode")));
    }
    std::fs::write(path, bytes).expect("write");
}

/// A frame: kind, length, zstd of `raw`.
fn frame(kind: u8, raw: &[u8]) -> Vec<u8> {
    let body = zstd::bulk::compress(raw, 19).expect("compress");
    let mut out = vec![kind];
    out.extend_from_slice(&u32::try_from(body.len()).expect("small").to_le_bytes());
    out.extend_from_slice(&body);
    out
}

fn empty(n: u32, hashed: bool) -> TickRecord {
    TickRecord { tick: n, journal: Vec::new(), cmds: Vec::new(), hash: hashed.then(|| HashCheck { value: 1, steps: Vec::new() }) }
}

#[test]
fn a_tick_bomb_is_refused_before_its_ticks_are_held() {
    let dir = tempfile::tempdir().expect("tempdir");
    let chunks = |count: u32, len: u32, hashed: bool| (0..count).map(move |c| quarry_record::Chunk { ticks: (1..=len).map(|i| empty(c * len + i, hashed && (c * len + i).is_multiple_of(60))).collect() });
    // A million empty ticks with no state hash: a few kilobytes of zstd.
    let path = dir.path().join("bomb.qdemo");
    crafted(&path, chunks(1000, 1000, false));
    let size = std::fs::metadata(&path).expect("file").len();
    assert!(size < 200_000, "the crafted file is small: {size} bytes");
    let rec = read(&path).expect("a cut file reads up to what is wrong");
    assert_eq!(rec.tick_count(), 0, "not one chunk passes: {:?}", rec.cut);
    assert!(rec.cut.as_deref().is_some_and(|c| c.contains("61 ticks without a state hash up to tick 61")), "{:?}", rec.cut);

    // With a hash every 60 ticks, one chunk of 2,000 is over the chunk
    // limit, refused while it is read.
    crafted(&path, chunks(1, 2000, true));
    let rec = read(&path).expect("reads");
    assert_eq!(rec.tick_count(), 0);
    assert!(rec.cut.as_deref().is_some_and(|c| c.contains("2000 ticks in one chunk; at most 1024")), "{:?}", rec.cut);
    // In chunks of 1,000, the ticks play up to the most a recording holds.
    crafted(&path, chunks(3, 1000, true));
    assert_eq!(read(&path).expect("reads").tick_count(), 3000);

    // Ticks that do not increase from chunk to chunk.
    crafted(&path, chunks(1, 100, true).chain(chunks(1, 100, true)));
    let rec = read(&path).expect("reads");
    assert_eq!(rec.tick_count(), 100);
    assert!(rec.cut.as_deref().is_some_and(|c| c.contains("tick 1 after tick 100")), "{:?}", rec.cut);

    // Hashed ticks, but more than a finished file's footer says it had.
    let path3 = dir.path().join("past_end.qdemo");
    let mut w = RecordWriter::create(&path3, &header()).expect("create");
    for n in 1..=700 {
        w.push(tick(n));
    }
    w.finish(Footer { ticks: 500, final_hash: 0, summary: String::new(), bot_report: String::new() }).expect("finish");
    match read(&path3) {
        Err(RecordError::Corrupt { reason, .. }) => assert!(reason.contains("past the most ticks") && reason.contains("footer's 500 ticks"), "{reason}"),
        other => panic!("ticks past the footer's count must be refused, got {other:?}"),
    }
}
