//! proptest strategies for every wire type, shared by the unit tests, the
//! fuzz-style decoder tests and the harness tests.

use proptest::prelude::*;

use crate::event::{EventKind, SOUND_COUNT, SnapshotEvent};
use crate::snapshot::{AMMO_SLOTS, EntityKind, EntityState, PlayerState, Snapshot};

/// A finite float in a game-like range (NaN never round-trips through `==`).
pub(crate) fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![Just(0.0f32), -70000.0f32..70000.0]
}

/// Any player state.
pub(crate) fn player() -> impl Strategy<Value = PlayerState> {
    (
        (prop::array::uniform3(coord()), prop::array::uniform3(coord()), coord(), coord()),
        (any::<i32>(), any::<i32>(), any::<u8>(), prop::array::uniform16(any::<i32>())),
        (any::<u32>(), any::<u8>(), any::<u16>(), any::<i32>(), any::<u8>()),
        (prop::array::uniform2(coord()), prop::array::uniform4(prop_oneof![Just(0.0f32), 0.0f32..2.0])),
    )
        .prop_map(|((origin, velocity, pitch, yaw), (health, armor, weapon, ammo), (weapons, powerups, flags, score, team), (delta_angles, move_timers))| {
            let ammo: [i32; AMMO_SLOTS] = ammo;
            PlayerState { origin, velocity, pitch, yaw, delta_angles, health, armor, weapon, ammo, weapons, powerups, flags, score, team, move_timers }
        })
}

/// Any entity kind.
pub(crate) fn kind() -> impl Strategy<Value = EntityKind> {
    (0u8..5).prop_map(|t| EntityKind::from_tag(t).unwrap_or_default())
}

/// Any entity with the given id.
pub(crate) fn entity(id: u32) -> impl Strategy<Value = EntityState> {
    (
        kind(),
        prop::array::uniform3(any::<i32>()),
        prop::array::uniform3(any::<u16>()),
        prop::array::uniform3(any::<i16>()),
        (any::<u16>(), any::<u8>(), any::<u8>(), any::<u16>(), any::<u32>()),
    )
        .prop_map(move |(kind, origin, angles, velocity, (model, team, weapon, flags, aux))| EntityState {
            id,
            kind,
            origin,
            angles,
            velocity,
            model,
            team,
            weapon,
            flags,
            aux,
        })
}

/// A sorted entity list with ids drawn from `0..id_space` (small spaces make
/// base and new snapshots overlap, exercising changed/new/removed).
pub(crate) fn entities(id_space: u32, max: usize) -> impl Strategy<Value = Vec<EntityState>> {
    prop::collection::btree_set(0..id_space, 0..=max)
        .prop_flat_map(|ids| ids.into_iter().map(entity).collect::<Vec<_>>())
}

/// A position an event may have (whole units within the world).
fn event_point() -> impl Strategy<Value = [i32; 3]> {
    prop::array::uniform3(-65536i32..=65536)
}

/// Any event the wire can carry (a shot's end is its own; others' is the origin).
pub(crate) fn event() -> impl Strategy<Value = SnapshotEvent> {
    ((0u8..4), any::<u8>(), event_point(), event_point(), any::<u8>(), any::<u16>()).prop_map(|(tag, what, origin, end, source, aux)| {
        let kind = EventKind::from_tag(tag).unwrap_or_default();
        let what = if kind == EventKind::Sound { what % SOUND_COUNT } else { what };
        let end = if kind == EventKind::Shot { end } else { origin };
        SnapshotEvent { kind, what, origin, end, source, aux }
    })
}

/// Any snapshot at a tick in `ticks`.
pub(crate) fn snapshot(ticks: std::ops::Range<u32>) -> impl Strategy<Value = Snapshot> {
    (ticks, any::<u32>(), player(), entities(64, 24), prop::collection::vec(event(), 0..=4)).prop_map(
        |(server_tick, acked_cmd_tick, player, entities, events)| Snapshot { server_tick, acked_cmd_tick, player, entities, events },
    )
}

/// A base and a newer snapshot derived from it: some entities moved a
/// little, some removed, some added, the player perturbed (what real play
/// looks like), or an unrelated newer snapshot.
pub(crate) fn base_and_next() -> impl Strategy<Value = (Snapshot, Snapshot)> {
    let related = (snapshot(0..1_000_000), 1u32..40, prop::collection::vec((any::<u8>(), -200i32..200), 0..24), player(), any::<bool>(), entities(96, 6))
        .prop_map(|(base, gap, edits, other_player, swap_player, extra)| {
            let mut next = base.clone();
            next.server_tick = base.server_tick + gap;
            next.acked_cmd_tick = next.server_tick.saturating_sub(3);
            if swap_player {
                next.player = other_player;
            } else {
                next.player.origin[0] += 1.5;
            }
            for (pick, d) in edits {
                let n = next.entities.len();
                if n == 0 {
                    break;
                }
                let i = usize::from(pick) % n;
                match pick % 5 {
                    0 => {
                        next.entities.remove(i);
                    }
                    _ => {
                        if let Some(e) = next.entities.get_mut(i) {
                            e.origin[0] = e.origin[0].wrapping_add(d);
                            e.angles[1] = e.angles[1].wrapping_add(d as u16);
                            e.velocity[2] = e.velocity[2].wrapping_add(d as i16);
                        }
                    }
                }
            }
            for e in extra {
                if let Err(at) = next.entities.binary_search_by_key(&e.id, |x| x.id) {
                    next.entities.insert(at, e);
                }
            }
            (base, next)
        });
    let unrelated = (snapshot(0..1_000_000), snapshot(0..1_000_000)).prop_map(|(a, mut b)| {
        b.server_tick = a.server_tick + 1 + b.server_tick % 100;
        (a, b)
    });
    prop_oneof![3 => related, 1 => unrelated]
}

use crate::handshake::{Hello, RejectReason, ServerInfo, Welcome};
use crate::reliable::{
    ChatScope, ClientMessage, DisconnectReason, MAX_MODE_BASES, MAX_MODE_FLAGS, ModeUpdate, PlayerObjective, ScoreRow, Scoreboard,
    ServerMessage, THAW_STEPS, WireFlag, WireFlagStatus, WireFrozen, WireRound,
};

/// A short string with some non-ASCII characters.
pub(crate) fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 _é☃]{0,24}"
}

fn pairs() -> impl Strategy<Value = Vec<(String, String)>> {
    prop::collection::vec((text(), text()), 0..5)
}

/// Any Hello.
pub(crate) fn hello() -> impl Strategy<Value = Hello> {
    (any::<u32>(), text(), prop::option::of(text()), any::<u32>(), pairs())
        .prop_map(|(version, name, password, capabilities, userinfo)| Hello { version, name, password, capabilities, userinfo })
}

/// Any Welcome.
pub(crate) fn welcome() -> impl Strategy<Value = Welcome> {
    (any::<u8>(), text(), any::<u16>(), any::<u16>(), (text(), text(), any::<u16>(), any::<u16>(), any::<u16>(), pairs()), prop::collection::vec((any::<u16>(), text()), 0..6))
        .prop_map(|(slot, map, tick_rate, snapshot_rate, (hostname, gametype, humans, bots, max_clients, extra), config_strings)| Welcome {
            slot,
            map,
            tick_rate,
            snapshot_rate,
            server_info: ServerInfo { hostname, gametype, humans, bots, max_clients, extra },
            config_strings,
        })
}

/// Any reject reason.
pub(crate) fn reject() -> impl Strategy<Value = RejectReason> {
    prop_oneof![
        Just(RejectReason::Full),
        (any::<u32>(), any::<u32>()).prop_map(|(server, client)| RejectReason::WrongVersion { server, client }),
        Just(RejectReason::WrongPassword),
        Just(RejectReason::Banned),
        Just(RejectReason::BadName),
        Just(RejectReason::ServerShuttingDown),
        text().prop_map(RejectReason::Other),
    ]
}

/// Any disconnect reason.
pub(crate) fn disconnect() -> impl Strategy<Value = DisconnectReason> {
    prop_oneof![
        Just(DisconnectReason::Quit),
        Just(DisconnectReason::Timeout),
        text().prop_map(DisconnectReason::Kicked),
        reject().prop_map(DisconnectReason::Rejected),
        Just(DisconnectReason::ServerShuttingDown),
        text().prop_map(DisconnectReason::Misbehaving),
        text().prop_map(DisconnectReason::ConnectionLost),
    ]
}

fn scope() -> impl Strategy<Value = ChatScope> {
    prop_oneof![Just(ChatScope::All), Just(ChatScope::Team), any::<u8>().prop_map(ChatScope::Private)]
}

fn scoreboard() -> impl Strategy<Value = Scoreboard> {
    let row = (any::<u8>(), text(), any::<u8>(), any::<bool>(), any::<i32>(), any::<i32>(), any::<u16>())
        .prop_map(|(slot, name, team, bot, score, deaths, ping_ms)| ScoreRow { slot, name, team, bot, score, deaths, ping_ms });
    (text(), text(), prop::option::of((any::<i32>(), any::<i32>())), prop::collection::vec(row, 0..8))
        .prop_map(|(gametype, phase, team_scores, rows)| Scoreboard { gametype, phase, team_scores, rows })
}

fn origin() -> impl Strategy<Value = [i32; 3]> {
    prop::array::uniform3(-70_000i32..70_000)
}

/// Any objective state (every field within its wire limits).
pub(crate) fn mode_update() -> impl Strategy<Value = ModeUpdate> {
    let status = prop_oneof![
        Just(WireFlagStatus::Home),
        any::<u8>().prop_map(|by| WireFlagStatus::Carried { by }),
        any::<u32>().prop_map(|returns_at| WireFlagStatus::Dropped { returns_at }),
    ];
    let flag = (0u8..=3, status, origin()).prop_map(|(team, status, origin)| WireFlag {
        team,
        status,
        origin: if matches!(status, WireFlagStatus::Carried { .. }) { [0; 3] } else { origin },
    });
    let frozen = (any::<u8>(), 0u8..=3, origin(), 0..=THAW_STEPS).prop_map(|(slot, team, origin, thaw)| WireFrozen { slot, team, origin, thaw });
    let round = (any::<u32>(), any::<bool>(), prop::option::of(any::<u32>()), any::<(u8, u8)>(), any::<(u32, u32)>())
        .prop_map(|(number, live, ends_at, standing, wins)| WireRound { number, live, ends_at, standing, wins });
    let player = (any::<u8>(), any::<[u32; 5]>()).prop_map(|(slot, [captures, returns, assists, defends, thaws])| PlayerObjective {
        slot,
        captures,
        returns,
        assists,
        defends,
        thaws,
    });
    (
        (text(), text(), prop::option::of((any::<i32>(), any::<i32>()))),
        prop::collection::vec(flag, 0..=MAX_MODE_FLAGS),
        prop::collection::vec((0u8..=3, origin()), 0..=MAX_MODE_BASES),
        prop::collection::vec(frozen, 0..8),
        prop::option::of(round),
        prop::collection::vec(player, 0..8),
    )
        .prop_map(|((gametype, phase, team_scores), flags, bases, frozen, round, players)| ModeUpdate {
            gametype,
            phase,
            team_scores,
            flags,
            bases,
            frozen,
            round,
            players,
        })
}

/// Any server message.
pub(crate) fn server_message() -> impl Strategy<Value = ServerMessage> {
    prop_oneof![
        (prop::option::of(any::<u8>()), text(), scope(), text()).prop_map(|(from, name, scope, text)| ServerMessage::Chat { from, name, scope, text }),
        text().prop_map(ServerMessage::Print),
        scoreboard().prop_map(ServerMessage::Scoreboard),
        (text(), prop::collection::vec((any::<u16>(), text()), 0..4)).prop_map(|(map, config_strings)| ServerMessage::MapChange { map, config_strings }),
        (any::<u16>(), text()).prop_map(|(index, value)| ServerMessage::ConfigString { index, value }),
        text().prop_map(ServerMessage::ConsoleOutput),
        disconnect().prop_map(ServerMessage::Disconnect),
        mode_update().prop_map(ServerMessage::Mode),
        map_chunk().prop_map(ServerMessage::MapChunk),
        (map_hash(), map_refusal()).prop_map(|(hash, reason)| ServerMessage::MapRefused { hash, reason }),
    ]
}

/// Any client message.
pub(crate) fn client_message() -> impl Strategy<Value = ClientMessage> {
    prop_oneof![
        (scope(), text()).prop_map(|(scope, text)| ClientMessage::Chat { scope, text }),
        text().prop_map(ClientMessage::Command),
        pairs().prop_map(ClientMessage::UserInfo),
        text().prop_map(ClientMessage::MapLoaded),
        Just(ClientMessage::Quit),
        (map_hash(), any::<u64>()).prop_map(|(hash, offset)| ClientMessage::MapRequest { hash, offset }),
    ]
}

/// Any map hash.
pub(crate) fn map_hash() -> impl Strategy<Value = crate::map_transfer::MapHash> {
    any::<[u8; 32]>().prop_map(crate::map_transfer::MapHash)
}

/// A chunk within the decoder's limits.
pub(crate) fn map_chunk() -> impl Strategy<Value = crate::map_transfer::MapChunk> {
    (map_hash(), 0..=crate::map_transfer::MAX_MAP_BYTES, prop::collection::vec(any::<u8>(), 0..64), 0u64..1000, 0u64..1000).prop_map(
        |(hash, size, data, offset, extra)| crate::map_transfer::MapChunk { hash, size, total: offset + data.len() as u64 + extra, offset, data },
    )
}

/// Any refusal.
pub(crate) fn map_refusal() -> impl Strategy<Value = crate::map_transfer::MapRefusal> {
    use crate::map_transfer::MapRefusal;
    prop_oneof![
        (text(), map_hash()).prop_map(|(file, hash)| MapRefusal::DownloadsOff { file, hash }),
        (text(), map_hash()).prop_map(|(map, hash)| MapRefusal::NotCurrent { map, hash }),
        (any::<u64>(), any::<u64>()).prop_map(|(size, max)| MapRefusal::TooBig { size, max }),
        any::<u32>().prop_map(|retry_after_s| MapRefusal::TooManyRequests { retry_after_s }),
        text().prop_map(MapRefusal::BadRequest),
        text().prop_map(MapRefusal::Unavailable),
    ]
}
