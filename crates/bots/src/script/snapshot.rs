//! Filling a call's [`HostState`] from what the bot may know: its own
//! player, its senses' tracks of enemies (in sight, or where it last knew
//! them), teammates and the owner (whose positions a player knows), items
//! and flags, the order it follows, the clock.

use quarry_sim::SlotId;
use quarry_sim::items::Gift;
use quarry_sim::mode::FlagStatus;

use super::host::{HostState, ScriptFlag, ScriptItem, ScriptOrder, ScriptPlayer};
use crate::perception::Senses;
use crate::team::Order;
use crate::view::{BotView, PlayerSnap};

/// What the bot knows of `p` in full (itself, a teammate, its owner).
pub(super) fn known(view: &BotView<'_>, p: &PlayerSnap, with_inventory: bool) -> ScriptPlayer {
    let inv = &p.inventory;
    let carrier = view.mode.flags.iter().any(|f| matches!(f.status, FlagStatus::Carried { by } if by == p.slot));
    ScriptPlayer {
        slot: i64::from(p.slot.0),
        team: p.team.name(),
        alive: p.alive,
        visible: true,
        age: 0.0,
        origin: p.origin,
        velocity: p.velocity,
        eye: p.eye,
        pitch: f64::from(p.pitch),
        yaw: f64::from(p.yaw),
        health: i64::from(p.health),
        armor: i64::from(p.armor),
        weapon: i64::from(inv.current),
        attacking: p.attacking,
        on_ground: p.on_ground,
        water_level: i64::from(p.water_level),
        weapons: if with_inventory { (0..32u8).filter(|w| inv.has(*w)).map(i64::from).collect() } else { std::sync::Arc::from([]) },
        ammo: if with_inventory { inv.ammo.iter().map(|a| i64::from(*a)).collect() } else { std::sync::Arc::from([]) },
        carrier,
    }
}

/// The enemies the bot's senses hold: in sight (as they are), else where
/// it last knew them (health and armor unknown).
fn enemies(view: &BotView<'_>, senses: &Senses) -> Vec<ScriptPlayer> {
    let clock = view.clock;
    let mut out: Vec<ScriptPlayer> = senses
        .memory
        .tracks()
        .iter()
        .filter_map(|tr| {
            let p = view.player(tr.slot).filter(|p| p.active())?;
            if senses.sees(tr.slot) {
                return Some(known(view, p, false));
            }
            Some(ScriptPlayer {
                slot: i64::from(tr.slot.0),
                team: p.team.name(),
                alive: true,
                visible: false,
                age: f64::from(clock.ms_since(tr.news_tick) / 1000.0),
                origin: tr.position,
                velocity: tr.velocity,
                eye: tr.position + (p.eye - p.origin),
                health: -1,
                armor: -1,
                weapon: -1,
                ..ScriptPlayer::default()
            })
        })
        .collect();
    out.sort_by_key(|p| p.slot);
    out
}

fn item_kind(gift: &Gift) -> &'static str {
    match gift {
        Gift::Health { .. } => "health",
        Gift::Armor { .. } => "armor",
        Gift::Weapon { .. } => "weapon",
        Gift::Ammo { .. } => "ammo",
        Gift::Powerup { .. } => "powerup",
        Gift::Key(_) => "key",
        #[allow(unreachable_patterns, reason = "the sim may add gifts")]
        _ => "other",
    }
}

/// Fills the read-only part of `host` for the bot `me`.
pub(super) fn fill(host: &mut HostState, view: &BotView<'_>, me: &PlayerSnap, senses: &Senses, owner: Option<SlotId>, order: Option<Order>) {
    let clock = view.clock;
    host.me = known(view, me, true);
    host.enemies = enemies(view, senses);
    host.teammates = if view.team_game {
        view.iter_players().filter(|p| p.slot != me.slot && p.team == me.team).map(|p| known(view, p, false)).collect()
    } else {
        Vec::new()
    };
    host.owner = owner.filter(|o| *o != me.slot).and_then(|o| view.player(o)).map(|p| known(view, p, false));
    host.items = senses
        .memory
        .items
        .believed()
        .iter()
        .map(|i| ScriptItem {
            id: i64::from(i.id.0),
            class: i.classname,
            kind: item_kind(&i.gift),
            origin: i.origin,
            available: i.available,
            respawn_in: if i.available || i.respawn_at <= clock.tick { 0.0 } else { f64::from((i.respawn_at - clock.tick) as f32 / clock.hz.max(1) as f32) },
            dropped: i.dropped,
        })
        .collect();
    host.flags = view
        .mode
        .flags
        .iter()
        .map(|f| ScriptFlag {
            team: f.team.name(),
            origin: f.origin,
            at_base: matches!(f.status, FlagStatus::Home),
            carrier: match f.status {
                FlagStatus::Carried { by } => i64::from(by.0),
                _ => -1,
            },
        })
        .collect();
    host.order = order.filter(|o| o.live(&clock)).map(|o| ScriptOrder {
        kind: o.kind.name().to_owned(),
        from: i64::from(o.from.0),
        at: o.at,
        left: f64::from(o.until.saturating_sub(clock.tick) as f32 / clock.hz.max(1) as f32),
    });
    host.time = f64::from(clock.tick as f32 / clock.hz.max(1) as f32);
    host.gametype = view.mode.gametype.name().to_owned();
    host.team_game = view.team_game;
}
