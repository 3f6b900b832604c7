//! `sv_matchResultDir`: a finished match's result as one JSON file, the
//! same match the headless summary reports.

mod support;

use std::path::Path;
use std::process::Command;

use support::text;

#[test]
fn a_finished_match_leaves_its_result_as_json_and_a_cut_one_does_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    let results = dir.path().join("results");
    let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let out = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
        .args(["--config"])
        .arg(dir.path())
        .arg("--maps")
        .arg(&maps)
        .args(["--fast", "--json", "--seed", "3", "+set", "bot_minPlayers", "3", "+set", "timelimit", "0.2", "+set", "sv_matchResultDir"])
        .arg(&results)
        .args(["+map", "q_dm1"])
        .env("RUST_LOG", "warn")
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).expect("the summary");
    let files: Vec<_> = std::fs::read_dir(&results).expect("the folder was made").filter_map(Result::ok).map(|e| e.path()).collect();
    assert_eq!(files.len(), 1, "one match, one file: {files:?}");
    let name = files[0].file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
    assert!(name.contains("-q_dm1-ffa-") && name.len() == "20261206-171500-q_dm1-ffa-1a2b3c4d.json".len(), "{name}");
    let result: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).expect("read")).expect("JSON");
    assert_eq!(Some(name.as_str()), result["match_id"].as_str().map(|id| format!("{id}.json")).as_deref(), "named for its match id");
    assert_eq!(result["map"], "q_dm1");
    assert_eq!(result["gametype"], "ffa");
    assert_eq!(result["seed"], summary["seed"], "the match the summary reports");
    assert_eq!(result["final_hash"], summary["final_hash"]);
    assert!((result["duration_s"].as_f64().unwrap_or(0.0) - 12.0).abs() < 1.0, "0.2 min: {}", result["duration_s"]);
    let players = result["players"].as_array().expect("players");
    assert_eq!(players.len(), 3);
    let frags: Vec<i64> = players.iter().map(|p| p["score"]["frags"].as_i64().unwrap_or(i64::MIN)).collect();
    assert!(frags.windows(2).all(|w| w[0] >= w[1]), "best first: {frags:?}");
    let top_alone = frags.len() < 2 || frags[0] > frags[1];
    match result["winner"].as_str() {
        Some(winner) => assert!(top_alone && players[0]["name"] == winner, "{result}"),
        None => assert!(!top_alone, "a draw at the top: {result}"),
    }
    assert!(players.iter().all(|p| p["bot"] == true && p["team"] == "free"));

    // A match cut short by the server stopping has no result.
    let cut = dir.path().join("cut");
    let out = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
        .args(["--config"])
        .arg(dir.path())
        .arg("--maps")
        .arg(&maps)
        .args(["--port", "0", "+set", "sv_matchResultDir"])
        .arg(&cut)
        .args(["+map", "q_dm1", "+quit"])
        .env("RUST_LOG", "warn")
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!cut.exists(), "no file for a match that never ended");
}
