//! A replay's summary against the recorded one: the figures of play must
//! be equal; the rest is the replay's own (how fast it ran) or the
//! recording's (the map's file, the bot report: no brains run in a replay).

use quarry_record::{JournalEntry, Recording};
use serde_json::Value;

use crate::headless::HeadlessSummary;

/// What a recording costs: a fixed header, and bytes per minute of play,
/// overall and while the most players were in (bots join one at a time,
/// so a short match's overall rate undercounts a full server).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SizeFigures {
    /// The whole file, bytes.
    pub file_bytes: u64,
    /// The header (map and config text), bytes.
    pub header_bytes: u64,
    /// Minutes of play recorded.
    pub minutes: f64,
    /// Chunk bytes per minute over the whole recording.
    pub bytes_per_minute: f64,
    /// The most players in the match at once.
    pub players: usize,
    /// Minutes recorded in chunks that had that many players throughout.
    pub full_minutes: f64,
    /// Chunk bytes per minute over those chunks (0 when there are none).
    pub full_bytes_per_minute: f64,
}

/// The size figures of `rec` (its chunks decoded one at a time; a chunk
/// that fails to decode counts as holding no ticks).
pub fn size_figures(rec: &Recording) -> SizeFigures {
    let hz = f64::from(rec.header.hz.max(1));
    // Per chunk: its ticks, the fewest and the most players in them.
    let mut players = 0usize;
    let mut spans = Vec::with_capacity(rec.chunks().len());
    for (i, span) in rec.chunks().iter().enumerate() {
        let (mut fewest, mut most) = (usize::MAX, 0usize);
        let mut ticks = 0u64;
        for t in rec.chunk(i).map(|c| c.ticks).unwrap_or_default() {
            for e in &t.journal {
                match e {
                    JournalEntry::Join { .. } => players += 1,
                    JournalEntry::Leave { .. } => players = players.saturating_sub(1),
                    _ => {}
                }
            }
            fewest = fewest.min(players);
            most = most.max(players);
            ticks += 1;
        }
        spans.push((ticks, fewest, most, span.size));
    }
    let most = spans.iter().map(|(_, _, m, _)| *m).max().unwrap_or(0);
    let (mut full_ticks, mut full_bytes) = (0u64, 0u64);
    for (ticks, fewest, _, bytes) in &spans {
        if *ticks > 0 && *fewest == most {
            full_ticks += ticks;
            full_bytes += bytes;
        }
    }
    let minutes = rec.tick_count() as f64 / hz / 60.0;
    let full_minutes = full_ticks as f64 / hz / 60.0;
    let rate = |bytes: u64, min: f64| if min > 0.0 { bytes as f64 / min } else { 0.0 };
    SizeFigures {
        file_bytes: rec.bytes.file,
        header_bytes: rec.bytes.header,
        minutes,
        bytes_per_minute: rate(rec.bytes.chunks, minutes),
        players: most,
        full_minutes,
        full_bytes_per_minute: rate(full_bytes, full_minutes),
    }
}

/// Puts the names in a scoreboard recorded by an older build in lower
/// case, as this one writes them (the game type, the phase, each row's
/// team were spelled `Tdm`, `Over`, `Red`): the same play compares equal.
fn lower_case_names(board: &mut Value) {
    let Value::Object(map) = board else { return };
    if let Some(Value::String(g)) = map.get_mut("gametype") {
        // The variant's name, where it is not the cvar name.
        *g = match g.as_str() {
            "OneFlag" => "1fctf".to_owned(),
            "FreezeTag" => "ft".to_owned(),
            "ClanArena" => "ca".to_owned(),
            other => other.to_ascii_lowercase(),
        };
    }
    match map.get_mut("phase") {
        Some(Value::String(s)) => *s = s.to_ascii_lowercase(),
        // A phase with data, such as {"Live": {"since": 9}}.
        Some(Value::Object(o)) => {
            let entries: Vec<(String, Value)> = std::mem::take(o).into_iter().map(|(k, v)| (k.to_ascii_lowercase(), v)).collect();
            o.extend(entries);
        }
        _ => {}
    }
    if let Some(Value::Array(rows)) = map.get_mut("rows") {
        for row in rows {
            if let Some(Value::String(team)) = row.get_mut("team") {
                *team = team.to_ascii_lowercase();
            }
        }
    }
}

/// Score-card figures whose counting changed after recordings were made:
/// pickups were not counted, and damage counted the raw hit rather than
/// what the victim lost. The play behind them (the final hash) is the
/// same, so a recording from before is compared without them.
const RECOUNTED: [&str; 3] = ["pickups", "damage_given", "damage_taken"];

/// Whether `board` (a recorded scoreboard) comes from before score cards
/// counted pickups: its rows' score cards lack `pickups`.
fn older_score_card(board: &Value) -> bool {
    board.get("rows").and_then(Value::as_array).is_some_and(|rows| rows.iter().any(|r| r.get("score").is_some_and(|s| s.get("pickups").is_none())))
}

/// Removes the [`RECOUNTED`] figures from every row of `board`.
fn drop_recounted(board: &mut Value) {
    if let Some(Value::Array(rows)) = board.get_mut("rows") {
        for row in rows {
            if let Some(Value::Object(score)) = row.get_mut("score") {
                for field in RECOUNTED {
                    score.remove(field);
                }
            }
        }
    }
}

/// The summary fields that describe play: equal in a faithful replay.
pub const PLAY_FIELDS: [&str; 7] = ["gametype", "seed", "ticks", "hz", "final_hash", "scoreboard", "mode"];

/// Fields taken from the recording: where the map was loaded from, and
/// the bot report (a replay's bots have no brains to report on).
const RECORDED_FIELDS: [&str; 2] = ["map", "bots"];

/// A play field that differs between the recording and its replay.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the replay's summary differs from the recording's in '{field}': recorded {recorded}, replayed {replayed}")]
pub struct SummaryMismatch {
    /// The field.
    pub field: String,
    /// The recording's value (JSON).
    pub recorded: String,
    /// The replay's value (JSON).
    pub replayed: String,
}

/// Compares `replayed` with the recorded summary (`recorded`, JSON as the
/// footer stores it) and returns the summary to print: the replay's, with
/// the recorded map and bot report. An empty or unreadable recorded
/// summary (a recording cut short) compares nothing.
pub fn merge(recorded: &str, replayed: &HeadlessSummary) -> Result<Value, SummaryMismatch> {
    let mut mine = serde_json::to_value(replayed).unwrap_or(Value::Null);
    let Ok(Value::Object(mut theirs)) = serde_json::from_str::<Value>(recorded) else { return Ok(mine) };
    if let Some(board) = theirs.get_mut("scoreboard") {
        lower_case_names(board);
        if older_score_card(board)
            && let Some(mine) = mine.get_mut("scoreboard")
        {
            drop_recounted(board);
            drop_recounted(mine);
        }
    }
    for field in PLAY_FIELDS {
        let (r, m) = (theirs.get(field).unwrap_or(&Value::Null), mine.get(field).unwrap_or(&Value::Null));
        if r != m {
            return Err(SummaryMismatch { field: field.to_owned(), recorded: short(r), replayed: short(m) });
        }
    }
    if let Value::Object(out) = &mut mine {
        for field in RECORDED_FIELDS {
            if let Some(v) = theirs.get(field) {
                out.insert(field.to_owned(), v.clone());
            }
        }
    }
    Ok(mine)
}

/// A value for a message, at most 200 characters.
fn short(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(hash: &str) -> HeadlessSummary {
        HeadlessSummary {
            map: "/tmp/scratch/maps/q_dm1.map".into(),
            gametype: "ffa".into(),
            seed: 3,
            ticks: 600,
            hz: 60,
            simulated_seconds: 10.0,
            wall_seconds: 0.5,
            ticks_per_second: 1200.0,
            realtime_factor: 20.0,
            tick_time: crate::tick_stats::TickSummary::default(),
            final_hash: hash.into(),
            scoreboard: quarry_sim::Scoreboard { gametype: quarry_sim::rules::GameType::Ffa, phase: quarry_sim::rules::Phase::Warmup, team_scores: None, end_reason: None, rows: Vec::new() },
            mode: None,
            bots: None,
        }
    }

    #[test]
    fn equal_play_merges_the_recorded_map_and_bot_report() {
        let mut recorded = serde_json::to_value(summary("00ff")).expect("json");
        recorded["map"] = "maps/q_dm1.map".into();
        recorded["bots"] = serde_json::json!({"bots": 4});
        recorded["wall_seconds"] = 9.0.into();
        let out = merge(&recorded.to_string(), &summary("00ff")).expect("equal play");
        assert_eq!(out["map"], "maps/q_dm1.map");
        assert_eq!(out["bots"]["bots"], 4);
        assert_eq!(out["wall_seconds"], 0.5, "how fast it ran is the replay's own");
    }

    #[test]
    fn a_different_play_field_is_named() {
        let recorded = serde_json::to_string(&summary("00ff")).expect("json");
        let e = merge(&recorded, &summary("0100")).expect_err("hash differs");
        assert_eq!(e.field, "final_hash");
        assert!(e.to_string().contains("\"00ff\""), "{e}");
    }

    #[test]
    fn a_recording_from_before_pickups_were_counted_is_compared_without_the_recounted_figures() {
        let mut replayed = summary("00ff");
        let score = quarry_sim::slots::ScoreCard { pickups: 7, damage_given: 120, frags: 2, ..Default::default() };
        let row = quarry_sim::ScoreRow { slot: quarry_sim::SlotId(0), name: "Wren".into(), team: quarry_sim::slots::Team::Free, bot: true, score };
        replayed.scoreboard.rows.push(row);
        let mut recorded = serde_json::to_value(&replayed).expect("json");
        let score = &mut recorded["scoreboard"]["rows"][0]["score"];
        score.as_object_mut().expect("a score card").remove("pickups");
        score["damage_given"] = 300.into(); // counted raw then
        assert!(merge(&recorded.to_string(), &replayed).is_ok(), "the same play, counted the old way");
        recorded["scoreboard"]["rows"][0]["score"]["frags"] = 3.into();
        assert_eq!(merge(&recorded.to_string(), &replayed).expect_err("frags differ").field, "scoreboard");
        // A recording that counts pickups is compared on every figure.
        let mut current = serde_json::to_value(&replayed).expect("json");
        current["scoreboard"]["rows"][0]["score"]["damage_given"] = 300.into();
        assert_eq!(merge(&current.to_string(), &replayed).expect_err("damage differs").field, "scoreboard");
    }

    #[test]
    fn no_recorded_summary_compares_nothing() {
        assert!(merge("", &summary("1")).is_ok());
        assert!(merge("{not json", &summary("1")).is_ok());
    }
}
