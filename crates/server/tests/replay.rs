//! Recording and replay end to end: a headless bot match recorded with
//! `--record` replays with every stored state hash matching, and a
//! recording with one command altered is caught at the tick it changed.

mod support;

use quarry_record::{Footer, RecordWriter, read};

fn record(path: &std::path::Path) {
    let (mut cmd, _dir) = support::headless_command();
    let out = cmd
        .args(["--seed", "8", "--record"])
        .arg(path)
        .args(["+set", "g_gametype", "tdm", "+set", "bot_minPlayers", "4", "+set", "timelimit", "0.34", "+set", "fraglimit", "0", "+map", "q_dm1"])
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn replay(path: &std::path::Path) -> std::process::Output {
    let (mut cmd, _dir) = support::headless_command();
    cmd.arg("--replay").arg(path).output().expect("run")
}

#[test]
fn a_recorded_match_replays_with_every_hash_matching_and_an_altered_command_is_caught() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("m.qrec");
    record(&path);
    let out = replay(&path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("state hashes matched (the whole recording)"), "{stdout}");
    // One command changed at tick 300: the replay stops at the first stored
    // hash after it.
    let rec = read(&path).expect("read");
    let altered = dir.path().join("altered.qrec");
    let mut w = RecordWriter::create(&altered, &rec.header).expect("create");
    for mut t in rec.ticks.clone() {
        if t.tick == 300
            && let Some((_, cmd)) = t.cmds.first_mut()
        {
            cmd.forward = if cmd.forward == 127 { -127 } else { 127 };
            cmd.yaw += 90.0;
        }
        w.push(t);
    }
    let footer = rec.footer.clone().unwrap_or(Footer { ticks: 0, final_hash: 0, summary: String::new(), bot_report: String::new() });
    w.finish(footer).expect("finish");
    let out = replay(&altered);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "an altered recording must not replay cleanly");
    assert!(stderr.contains("diverged at tick 300") || stderr.contains("diverged at tick 360"), "{stderr}");
}
