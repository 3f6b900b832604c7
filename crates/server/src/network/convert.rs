//! Conversions between the simulation's types and the wire's. The net crate
//! knows nothing of the simulation and the simulation nothing of the wire;
//! this is the one place they meet. User commands need none: client, wire
//! and simulation share the movement core's `UserCmd`.

use quarry_net::snapshot::{
    EntityKind, EntityState, PF_CROUCHED, PF_DEAD, PF_JUMP_HELD, PF_ON_GROUND, PF_SPECTATOR, PlayerState, quantize_angle,
    quantize_origin, quantize_velocity,
};
use quarry_net::reliable::{
    ModeUpdate, PlayerObjective, ScoreRow, Scoreboard, THAW_STEPS, WireFlag, WireFlagStatus, WireFrozen, WireRound,
};
use quarry_sim::view::{EntityView, OwnView, ViewKind};
use quarry_sim::Team;

/// The wire number of a team.
pub fn team_number(team: Team) -> u8 {
    match team {
        Team::Free => 0,
        Team::Red => 1,
        Team::Blue => 2,
        Team::Spectator => 3,
    }
}

/// A player's own state for its snapshot (spectators get an empty one flagged as such).
pub fn player_state(own: Option<&OwnView>, team: Team, frags: i32) -> PlayerState {
    let Some(o) = own else {
        return PlayerState { flags: PF_SPECTATOR, team: team_number(team), score: frags, ..PlayerState::default() };
    };
    let mut flags = 0;
    if o.on_ground {
        flags |= PF_ON_GROUND;
    }
    if o.crouched {
        flags |= PF_CROUCHED;
    }
    if o.jump_held {
        flags |= PF_JUMP_HELD;
    }
    if !o.alive {
        flags |= PF_DEAD;
    }
    if team == Team::Spectator {
        flags |= PF_SPECTATOR;
    }
    PlayerState {
        origin: o.origin.to_array(),
        velocity: o.velocity.to_array(),
        pitch: o.angles.0,
        yaw: o.angles.1,
        delta_angles: [o.delta_angles.0, o.delta_angles.1],
        health: o.health,
        armor: o.armor,
        weapon: o.inventory.current,
        ammo: o.inventory.ammo,
        weapons: o.inventory.weapons,
        powerups: o.powerups,
        flags,
        score: frags,
        team: team_number(team),
        move_timers: o.move_timers,
    }
}

/// Entity flags on the wire: dead, crouched, item unavailable, dropped, firing.
pub const EF_DEAD: u16 = 1;
/// Crouching player.
pub const EF_CROUCHED: u16 = 1 << 1;
/// An item waiting to respawn (not drawn).
pub const EF_HIDDEN: u16 = 1 << 2;
/// A weapon someone dropped.
pub const EF_DROPPED: u16 = 1 << 3;
/// A player holding fire with a loaded weapon.
pub const EF_FIRING: u16 = 1 << 4;

/// One entity for a snapshot. `model` for items is an index into
/// `item_classes` (the config string table the welcome carries).
pub fn entity_state(v: &EntityView, item_model: impl Fn(&str) -> u16) -> EntityState {
    let (kind, flags, aux, model) = match v.kind {
        ViewKind::Player { slot, alive, crouched, firing } => {
            let mut f = 0;
            if firing {
                f |= EF_FIRING;
            }
            if !alive {
                f |= EF_DEAD;
            }
            if crouched {
                f |= EF_CROUCHED;
            }
            (EntityKind::Player, f, u32::from(slot.0), 0)
        }
        ViewKind::Projectile { owner } => (EntityKind::Projectile, 0, u32::from(owner.0), 0),
        ViewKind::Item { classname, available, dropped } => {
            let mut f = 0;
            if !available {
                f |= EF_HIDDEN;
            }
            if dropped {
                f |= EF_DROPPED;
            }
            (EntityKind::Item, f, 0, item_model(classname))
        }
        ViewKind::Mover { entity } => (EntityKind::Mover, 0, entity, 0),
    };
    EntityState {
        id: v.id,
        kind,
        origin: quantize_origin(v.origin.to_array()),
        angles: [quantize_angle(v.pitch), quantize_angle(v.yaw), 0],
        velocity: quantize_velocity(v.velocity.to_array()),
        model,
        team: team_number(v.team),
        weapon: v.weapon,
        flags: flags | (u16::from(v.powerups) << 8),
        aux,
    }
}

fn whole(v: glam::Vec3) -> [i32; 3] {
    // `as` saturates; positions are far inside i32 anyway.
    [v.x.round() as i32, v.y.round() as i32, v.z.round() as i32]
}

/// The objective state clients receive: the match's [`ModeState`](quarry_sim::mode::ModeState),
/// team scores and each player's objective counts.
pub fn mode_update(game: &quarry_sim::Match) -> ModeUpdate {
    use quarry_sim::mode::FlagStatus;
    let state = game.mode_state();
    let rules = game.rules();
    let flags = state
        .flags
        .iter()
        .map(|f| {
            let status = match f.status {
                FlagStatus::Home => WireFlagStatus::Home,
                FlagStatus::Carried { by } => WireFlagStatus::Carried { by: by.0 },
                FlagStatus::Dropped { returns_at } => WireFlagStatus::Dropped { returns_at },
            };
            let origin = if matches!(status, WireFlagStatus::Carried { .. }) { [0; 3] } else { whole(f.origin) };
            WireFlag { team: team_number(f.team), status, origin }
        })
        .collect();
    let steps = f32::from(THAW_STEPS);
    let frozen = state
        .frozen
        .iter()
        .map(|f| WireFrozen {
            slot: f.slot.0,
            team: team_number(f.team),
            origin: whole(f.origin),
            thaw: (f.thaw.clamp(0.0, 1.0) * steps).floor() as u8,
        })
        .collect();
    let narrow = |n: u32| u8::try_from(n).unwrap_or(u8::MAX);
    let round = state.round.map(|r| WireRound {
        number: r.number,
        live: r.live,
        ends_at: r.ends_at,
        standing: (narrow(r.standing.0), narrow(r.standing.1)),
        wins: r.wins,
    });
    let players = game
        .slots()
        .iter()
        .filter(|(_, s)| s.team != Team::Spectator)
        .map(|(id, s)| PlayerObjective {
            slot: id.0,
            captures: s.score.captures,
            returns: s.score.returns,
            assists: s.score.assists,
            defends: s.score.defends,
            thaws: s.score.thaws,
        })
        .filter(|p| p.captures + p.returns + p.assists + p.defends + p.thaws > 0)
        .collect();
    ModeUpdate {
        gametype: rules.gametype.name().to_owned(),
        phase: rules.phase.name().to_owned(),
        team_scores: rules.gametype.is_team_game().then_some(rules.team_scores),
        flags,
        bases: state.bases.iter().map(|(t, o)| (team_number(*t), whole(*o))).collect(),
        frozen,
        round,
        players,
    }
}

/// The scoreboard clients receive (`ping_ms` from `ping_of`, 0 for bots).
pub fn scoreboard(game: &quarry_sim::Match, ping_of: impl Fn(quarry_sim::SlotId) -> u16) -> Scoreboard {
    let board = game.scoreboard();
    Scoreboard {
        gametype: board.gametype.name().to_owned(),
        phase: board.phase.name().to_owned(),
        team_scores: board.team_scores,
        rows: board
            .rows
            .iter()
            .map(|r| ScoreRow {
                slot: r.slot.0,
                name: r.name.clone(),
                team: team_number(r.team),
                bot: r.bot,
                score: r.score.frags,
                deaths: i32::try_from(r.score.deaths).unwrap_or(i32::MAX),
                ping_ms: if r.bot { 0 } else { ping_of(r.slot) },
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spectator_state_is_flagged() {
        let p = player_state(None, Team::Spectator, 0);
        assert_eq!(p.flags & PF_SPECTATOR, PF_SPECTATOR);
    }

    #[test]
    fn the_own_state_carries_what_pmove_needs_to_predict() {
        let own = OwnView {
            id: 1,
            origin: glam::Vec3::new(1.0, 2.0, 3.0),
            velocity: glam::Vec3::new(320.0, 0.0, -10.0),
            angles: (5.0, 90.0),
            delta_angles: (0.0, 45.0),
            health: 100,
            armor: 0,
            inventory: quarry_sim::components::Inventory::default(),
            powerups: 0,
            alive: true,
            on_ground: false,
            crouched: true,
            jump_held: true,
            move_timers: [0.25, 0.0, 0.1, 1.5],
        };
        let p = player_state(Some(&own), Team::Red, 3);
        assert_eq!(p.flags & (PF_JUMP_HELD | PF_CROUCHED), PF_JUMP_HELD | PF_CROUCHED);
        assert_eq!(p.flags & PF_ON_GROUND, 0);
        assert_eq!(p.move_timers, [0.25, 0.0, 0.1, 1.5]);
        assert_eq!((p.origin, p.velocity, p.delta_angles), ([1.0, 2.0, 3.0], [320.0, 0.0, -10.0], [0.0, 45.0]));
    }
}
