//! Human-readable lines for what a client sees, as the CLI prints them.
//!
//! Pure formatting: each function takes state and returns text, so the
//! binary stays thin and the format has tests.

use quarry_net::handshake::Welcome;
use quarry_net::reliable::{DisconnectReason, Scoreboard};
use quarry_net::snapshot::{EntityKind, PF_DEAD, PF_SPECTATOR, PlayerState};

use crate::client::Client;
use crate::notice::Notice;
use crate::view::EntityView;

fn vec3(v: [f32; 3]) -> String {
    format!("({:.0} {:.0} {:.0})", v[0], v[1], v[2])
}

/// One line about the own player: `tick 120 pos (0 0 24) hp 100 armor 0 weapon 2 ammo 50 score 0`.
pub fn player_line(tick: Option<u32>, p: Option<&PlayerState>) -> String {
    let (Some(tick), Some(p)) = (tick, p) else {
        return "no snapshot yet".into();
    };
    let ammo = p.ammo.get(usize::from(p.weapon)).copied().unwrap_or(0);
    let mut s = format!(
        "tick {tick} pos {} hp {} armor {} weapon {} ammo {ammo} score {}",
        vec3(p.origin),
        p.health,
        p.armor,
        p.weapon,
        p.score
    );
    if p.flags & PF_DEAD != 0 {
        s.push_str(" DEAD");
    }
    if p.flags & PF_SPECTATOR != 0 {
        s.push_str(" spectating");
    }
    s
}

/// What a person calls an entity: a player by name, an item by its class,
/// a mover by its map entity, a projectile by its owner.
#[derive(Debug, Clone, Copy, Default)]
pub struct Names<'a> {
    /// The scoreboard, for player names by slot.
    pub scoreboard: Option<&'a Scoreboard>,
    /// The item class names, in model order (config string `CS_ITEM_MODELS`).
    pub item_classes: Option<&'a str>,
}

impl Names<'_> {
    fn player(&self, slot: u32) -> String {
        self.scoreboard
            .and_then(|b| b.rows.iter().find(|r| u32::from(r.slot) == slot))
            .map_or_else(|| format!("slot {slot}"), |r| r.name.clone())
    }

    /// The label of `e`: `Rook`, `item_health_large`, `mover 12`, `rocket of Rook`.
    pub fn label(&self, e: &EntityView) -> String {
        match e.kind {
            EntityKind::Player => format!("player {}", self.player(e.state.aux)),
            EntityKind::Projectile => format!("projectile of {}", self.player(e.state.aux)),
            EntityKind::Item => self
                .item_classes
                .and_then(|c| c.split_whitespace().nth(usize::from(e.state.model)))
                .map_or_else(|| format!("item {}", e.state.model), str::to_owned),
            // Mover ids are the map entity with the top bit set.
            EntityKind::Mover => format!("mover {}", e.id & !(1 << 31)),
            EntityKind::Flag => "flag".to_owned(),
        }
    }
}

/// One line about an entity at `distance` units: `player Rook 120u at (10 0 24) team 1 weapon 5`.
pub fn entity_line(distance: f32, e: &EntityView, names: &Names<'_>) -> String {
    let mut s = format!("{} {:.0}u at {}", names.label(e), distance, vec3(e.origin));
    if e.kind == EntityKind::Player {
        s.push_str(&format!(" team {} weapon {}", e.state.team, e.state.weapon));
    }
    s
}

/// The once-a-second block: the own player, then the `nearest` nearest entities.
pub fn view_lines(client: &Client, nearest: usize) -> Vec<String> {
    let v = client.view();
    let mut out = vec![player_line(v.server_tick(), v.player())];
    let near = v.nearest(nearest);
    if v.player().is_some() {
        out.push(format!(
            "  {} entities visible{}",
            v.entity_count(),
            if near.is_empty() { "" } else { ", nearest:" }
        ));
    }
    let names = Names {
        scoreboard: client.scoreboard(),
        item_classes: client.config_strings().get(&quarry_net::handshake::CS_ITEM_MODELS).map(String::as_str),
    };
    out.extend(near.iter().map(|(d, e)| format!("    {}", entity_line(*d, e, &names))));
    out.extend(client.mode().and_then(crate::mode::mode_line).map(|l| format!("  {l}")));
    out
}

/// The lines for a notice (a scoreboard takes several).
pub fn notice_lines(n: &Notice) -> Vec<String> {
    match n {
        Notice::Welcomed(w) => vec![welcome_line(w)],
        Notice::Chat(line) => vec![format!("[chat] {line}")],
        Notice::Print(text) => text.lines().map(|l| format!("[server] {l}")).collect(),
        Notice::Scoreboard(b) => scoreboard_lines(b),
        Notice::Mode { changes, .. } => changes.iter().map(|c| format!("[mode] {c}")).collect(),
        Notice::MapChange { map } => vec![format!("[map] changed to {map}")],
        Notice::ConfigString { index, value } => vec![format!("[config] {index} = {value}")],
        Notice::Console(text) => text.lines().map(|l| format!("[console] {l}")).collect(),
        Notice::Disconnected(r) => vec![disconnect_line(r)],
    }
}

/// `joined q3dm17 on "My Server" (ffa) as slot 3: 60 Hz ticks, 30 Hz snapshots, 2 humans + 4 bots / 16`.
pub fn welcome_line(w: &Welcome) -> String {
    let i = &w.server_info;
    format!(
        "joined {} on \"{}\" ({}) as slot {}: {} Hz ticks, {} Hz snapshots, {} humans + {} bots / {}",
        w.map,
        i.hostname,
        i.gametype,
        w.slot,
        w.tick_rate,
        w.snapshot_rate,
        i.humans,
        i.bots,
        i.max_clients
    )
}

/// Why the connection ended, for a person.
pub fn disconnect_line(r: &DisconnectReason) -> String {
    match r {
        DisconnectReason::Quit => "disconnected".into(),
        DisconnectReason::Rejected(why) => format!("refused by the server: {why}"),
        other => format!("disconnected: {other}"),
    }
}

/// A scoreboard as a small table.
pub fn scoreboard_lines(b: &Scoreboard) -> Vec<String> {
    let mut out = vec![format!("[scores] {} ({})", b.gametype, b.phase)];
    if let Some((red, blue)) = b.team_scores {
        out.push(format!("  red {red}  blue {blue}"));
    }
    out.push(format!(
        "  {:>4} {:<20} {:>4} {:>6} {:>6} {:>5}",
        "slot", "name", "team", "score", "deaths", "ping"
    ));
    for r in &b.rows {
        let ping = if r.bot {
            "bot".to_string()
        } else {
            r.ping_ms.to_string()
        };
        out.push(format!(
            "  {:>4} {:<20} {:>4} {:>6} {:>6} {:>5}",
            r.slot, r.name, r.team, r.score, r.deaths, ping
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_net::handshake::RejectReason;
    use quarry_net::reliable::ScoreRow;
    use quarry_net::snapshot::EntityState;

    #[test]
    fn lines_read_well() {
        let p = PlayerState {
            origin: [10.4, -3.0, 24.0],
            health: 87,
            weapon: 2,
            ammo: [5; 16],
            flags: PF_DEAD,
            ..PlayerState::default()
        };
        assert_eq!(
            player_line(Some(7), Some(&p)),
            "tick 7 pos (10 -3 24) hp 87 armor 0 weapon 2 ammo 5 score 0 DEAD"
        );
        assert_eq!(player_line(None, None), "no snapshot yet");
        let e = EntityView {
            id: 3,
            kind: EntityKind::Player,
            origin: [1.0, 2.0, 3.0],
            angles: [0.0; 3],
            velocity: [0.0; 3],
            state: EntityState {
                team: 1,
                weapon: 5,
                ..EntityState::empty(3)
            },
        };
        assert_eq!(entity_line(12.3, &e, &Names::default()), "player slot 0 12u at (1 2 3) team 1 weapon 5");
        let board = Scoreboard {
            rows: vec![quarry_net::reliable::ScoreRow { slot: 0, name: "Rook".into(), ..Default::default() }],
            ..Default::default()
        };
        let names = Names { scoreboard: Some(&board), item_classes: Some("item_armor_body item_health_large") };
        assert_eq!(entity_line(12.3, &e, &names), "player Rook 12u at (1 2 3) team 1 weapon 5");
        let item = EntityView { kind: EntityKind::Item, state: EntityState { model: 1, ..EntityState::empty(4) }, ..e };
        assert_eq!(names.label(&item), "item_health_large");
        let mover = EntityView { id: (1 << 31) | 5, kind: EntityKind::Mover, ..e };
        assert_eq!(names.label(&mover), "mover 5");
        assert_eq!(
            disconnect_line(&DisconnectReason::Rejected(RejectReason::Full)),
            "refused by the server: server is full"
        );
        assert_eq!(
            notice_lines(&Notice::Print("a\nb".into())),
            vec!["[server] a", "[server] b"]
        );
        let b = Scoreboard {
            gametype: "ffa".into(),
            phase: "playing".into(),
            team_scores: None,
            rows: vec![ScoreRow {
                slot: 0,
                name: "anarki".into(),
                bot: true,
                score: 3,
                ..ScoreRow::default()
            }],
        };
        let lines = scoreboard_lines(&b);
        assert_eq!(lines.len(), 3);
        assert!(
            lines[2].contains("anarki") && lines[2].ends_with("bot"),
            "{lines:?}"
        );
    }
}
