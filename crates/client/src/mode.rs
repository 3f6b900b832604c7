//! The objective state the server sends ([`ModeUpdate`]) and the changes
//! between two updates in words, for notices and the CLI: rounds starting
//! and ending, flags taken, dropped and home, players frozen and thawed.

use quarry_net::reliable::{ModeUpdate, WireFlagStatus};

fn team_name(team: u8) -> &'static str {
    match team {
        0 => "neutral",
        1 => "red",
        2 => "blue",
        _ => "spectator",
    }
}

fn flag_name(team: u8) -> String {
    if team == 0 { "the flag".to_owned() } else { format!("the {} flag", team_name(team)) }
}

/// What changed from `old` (none: the first update) to `new`, one short
/// line each, in a fixed order (round, flags, frozen players).
pub fn mode_changes(old: Option<&ModeUpdate>, new: &ModeUpdate) -> Vec<String> {
    let mut out = Vec::new();
    let old_round = old.and_then(|o| o.round);
    if let Some(r) = new.round
        && old_round.map(|o| (o.number, o.live)) != Some((r.number, r.live))
    {
        if r.live {
            out.push(format!("round {} started", r.number));
        } else if r.number > 0 {
            out.push(format!("round {} over: red {} blue {}", r.number, r.wins.0, r.wins.1));
        }
    }
    for f in &new.flags {
        let before = old.and_then(|o| o.flag(f.team)).map(|o| o.status);
        if before == Some(f.status) {
            continue;
        }
        let what = match f.status {
            WireFlagStatus::Home => "is home".to_owned(),
            WireFlagStatus::Carried { by } => format!("taken by slot {by}"),
            WireFlagStatus::Dropped { .. } => format!("dropped at {} {} {}", f.origin[0], f.origin[1], f.origin[2]),
        };
        if before.is_some() || !matches!(f.status, WireFlagStatus::Home) {
            out.push(format!("{} {what}", flag_name(f.team)));
        }
    }
    let was_frozen = |slot: u8| old.is_some_and(|o| o.frozen.iter().any(|f| f.slot == slot));
    for f in new.frozen.iter().filter(|f| !was_frozen(f.slot)) {
        out.push(format!("slot {} ({}) frozen", f.slot, team_name(f.team)));
    }
    if let Some(o) = old {
        for f in o.frozen.iter().filter(|f| !new.frozen.iter().any(|n| n.slot == f.slot)) {
            out.push(format!("slot {} ({}) free", f.slot, team_name(f.team)));
        }
    }
    out
}

/// One status line for a team game's objective state, e.g.
/// `1fctf red 1 blue 0; the flag carried by slot 3` or
/// `ft red 2 blue 1; round 4 live, standing 2-1, 1 frozen`; `None` outside
/// team games.
pub fn mode_line(m: &ModeUpdate) -> Option<String> {
    let (red, blue) = m.team_scores?;
    let mut parts = vec![format!("{} red {red} blue {blue}", m.gametype)];
    for f in &m.flags {
        let at = match f.status {
            WireFlagStatus::Home => "home".to_owned(),
            WireFlagStatus::Carried { by } => format!("carried by slot {by}"),
            WireFlagStatus::Dropped { .. } => "dropped".to_owned(),
        };
        parts.push(format!("{} {at}", flag_name(f.team)));
    }
    if let Some(r) = m.round {
        let state = if r.live { "live" } else { "over" };
        parts.push(format!("round {} {state}, standing {}-{}, {} frozen", r.number, r.standing.0, r.standing.1, m.frozen.len()));
    }
    Some(parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_net::reliable::{WireFlag, WireFrozen, WireRound};

    #[test]
    fn changes_read_as_lines() {
        let a = ModeUpdate {
            flags: vec![WireFlag { team: 0, status: WireFlagStatus::Home, origin: [0, 0, 0] }],
            round: Some(WireRound { number: 1, live: true, ends_at: None, standing: (2, 2), wins: (0, 0) }),
            ..ModeUpdate::default()
        };
        assert_eq!(mode_changes(None, &a), ["round 1 started"]);
        let b = ModeUpdate {
            flags: vec![WireFlag { team: 0, status: WireFlagStatus::Carried { by: 3 }, origin: [0; 3] }],
            frozen: vec![WireFrozen { slot: 2, team: 1, origin: [0; 3], thaw: 0 }],
            round: Some(WireRound { number: 1, live: false, ends_at: None, standing: (0, 2), wins: (0, 1) }),
            ..a.clone()
        };
        assert_eq!(mode_changes(Some(&a), &b), ["round 1 over: red 0 blue 1", "the flag taken by slot 3", "slot 2 (red) frozen"]);
        assert_eq!(mode_changes(Some(&b), &a).last().map(String::as_str), Some("slot 2 (red) free"));
        let line = mode_line(&ModeUpdate { gametype: "ft".into(), team_scores: Some((0, 1)), ..b });
        assert_eq!(line.as_deref(), Some("ft red 0 blue 1; the flag carried by slot 3; round 1 over, standing 0-2, 1 frozen"));
    }
}
