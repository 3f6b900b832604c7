//! The tick's events a client is shown in its next snapshot: sounds and
//! hitscan paths near it, the hits it dealt and the hurts it took.
//!
//! Each client keeps its own small queue between its snapshots (a client
//! gets one every few ticks); the queue is bounded and keeps the newest.
//! What is near is judged from the client's own player: a spectator
//! without one hears everything. What a client can tell from the
//! snapshots is not sent again: footsteps, jumps and landings (a player's
//! movement), a projectile's launch and its explosion (it appears and
//! vanishes), a hitscan weapon's fire (the player's `EF_FIRING`). A
//! shooter's path is sent only for a shot [`SHOT_EVERY_TICKS`] or more
//! after its last: a rail's trail, the first bullet of a burst; the rest
//! of a burst (a lightning gun fires every tick) is drawn from
//! `EF_FIRING`. A player's pain sounds at most every
//! [`SHOT_EVERY_TICKS`], as Quake 3 debounces pain.

use std::collections::{BTreeMap, VecDeque};

use glam::Vec3;
use quarry_net::event::{
    EventKind, MAX_SNAPSHOT_EVENTS, SOUND_JUMP_PAD, SOUND_MOVER, SOUND_PAIN, SOUND_PICKUP, SOUND_RESPAWN, SOUND_TELEPORT, SnapshotEvent,
    whole_units,
};
use quarry_sim::events::GameEvent;
use quarry_sim::events::SoundKind;
use quarry_sim::{Match, SlotId};

/// How far from a client's player a sound or a shot still reaches it, units.
pub const HEARING_RANGE: f32 = 2_500.0;
/// Ticks without a shot after which a shooter's next path is sent, and
/// fewest ticks between two pain sounds of one player (300 ms at 60 Hz).
pub const SHOT_EVERY_TICKS: u32 = 18;

/// One of the tick's events on the wire, with who may see it.
#[derive(Debug, Clone, PartialEq)]
pub struct TickEvent {
    /// The event.
    pub event: SnapshotEvent,
    /// Where it happened, to judge who is near.
    pub at: Vec3,
    /// Only this slot sees it (a hit, a hurt); `None`: whoever is near.
    pub only: Option<SlotId>,
    /// A shot's shooter (only the first path of a burst is sent).
    pub shooter: Option<SlotId>,
    /// A pain's player (sent at most every [`SHOT_EVERY_TICKS`]).
    pub debounce: Option<SlotId>,
}

/// The tick's events as clients may be shown them, in order.
pub fn tick_events(game: &Match, events: &[GameEvent]) -> Vec<TickEvent> {
    let origin_of = |slot: SlotId| game.own_view(slot).map(|v| v.origin);
    let mut out = Vec::new();
    for ev in events {
        match ev {
            GameEvent::Sound { kind, origin, source } => {
                let (what, aux) = match kind {
                    // Told by the snapshots themselves (see the module doc).
                    SoundKind::Footstep | SoundKind::Jump | SoundKind::Land | SoundKind::Gunfire(_) | SoundKind::Explosion => continue,
                    SoundKind::ItemPickup => (SOUND_PICKUP, 0),
                    SoundKind::ItemRespawn => (SOUND_RESPAWN, 0),
                    SoundKind::Pain => (SOUND_PAIN, 0),
                    SoundKind::JumpPad => (SOUND_JUMP_PAD, 0),
                    SoundKind::Teleport => (SOUND_TELEPORT, 0),
                    SoundKind::Mover => (SOUND_MOVER, 0),
                };
                let at = whole_units(origin.to_array());
                let event = SnapshotEvent { kind: EventKind::Sound, what, origin: at, end: at, source: source_byte(*source), aux };
                let debounce = if what == SOUND_PAIN { *source } else { None };
                out.push(TickEvent { event, at: *origin, only: None, shooter: None, debounce });
            }
            GameEvent::Shot { slot, weapon, start, end } => {
                let event = SnapshotEvent {
                    kind: EventKind::Shot,
                    what: *weapon,
                    origin: whole_units(start.to_array()),
                    end: whole_units(end.to_array()),
                    source: source_byte(Some(*slot)),
                    aux: 0,
                };
                out.push(TickEvent { event, at: *start, only: None, shooter: Some(*slot), debounce: None });
            }
            GameEvent::Damage { target, attacker, amount, armor, dir, .. } => {
                let Some(hurt_at) = origin_of(*target) else { continue };
                let dealt = u16::try_from((amount + armor).max(0)).unwrap_or(u16::MAX);
                // Where it came from: the attacker, else back along its direction.
                let from = attacker.filter(|a| a != target).and_then(origin_of).unwrap_or(hurt_at - *dir * 128.0);
                let from_units = whole_units(from.to_array());
                let hurt = SnapshotEvent { kind: EventKind::Hurt, what: 0, origin: from_units, end: from_units, source: source_byte(*attacker), aux: dealt };
                out.push(TickEvent { event: hurt, at: hurt_at, only: Some(*target), shooter: None, debounce: None });
                if let Some(a) = attacker.filter(|a| a != target) {
                    let at = whole_units(hurt_at.to_array());
                    let hit = SnapshotEvent { kind: EventKind::Hit, what: 0, origin: at, end: at, source: source_byte(Some(*target)), aux: dealt };
                    out.push(TickEvent { event: hit, at: hurt_at, only: Some(a), shooter: None, debounce: None });
                }
            }
            _ => {}
        }
    }
    out
}

/// A slot as an event's source byte: the slot plus one, 0 for none.
fn source_byte(slot: Option<SlotId>) -> u8 {
    slot.map_or(0, |s| s.0.saturating_add(1))
}

/// The events waiting for one client's next snapshot.
#[derive(Debug, Clone, Default)]
pub struct PendingEvents {
    queue: VecDeque<SnapshotEvent>,
    /// The tick each shooter last fired.
    last_shot: BTreeMap<SlotId, u32>,
    /// The tick each player's last pain sound went to this client.
    last_pain: BTreeMap<SlotId, u32>,
}

impl PendingEvents {
    /// Queues what of `events` the client in `slot` (its player at `eye`,
    /// if it has one) is shown, at server tick `tick`.
    pub fn offer(&mut self, events: &[TickEvent], slot: Option<SlotId>, eye: Option<Vec3>, tick: u32) {
        for e in events {
            // A burst's later shots: drawn from EF_FIRING.
            if let Some(shooter) = e.shooter
                && self.last_shot.insert(shooter, tick).is_some_and(|t| tick.wrapping_sub(t) < SHOT_EVERY_TICKS)
            {
                continue;
            }
            let shown = match e.only {
                Some(only) => slot == Some(only),
                None => e.shooter.is_some_and(|s| Some(s) == slot) || eye.is_none_or(|eye| eye.distance(e.at) <= HEARING_RANGE),
            };
            if !shown {
                continue;
            }
            if let Some(player) = e.debounce {
                if self.last_pain.get(&player).is_some_and(|&t| tick.wrapping_sub(t) < SHOT_EVERY_TICKS) {
                    continue;
                }
                self.last_pain.insert(player, tick);
            }
            if self.queue.len() == MAX_SNAPSHOT_EVENTS {
                self.queue.pop_front();
            }
            self.queue.push_back(e.event);
        }
    }

    /// Takes the queued events for a snapshot.
    pub fn take(&mut self) -> Vec<SnapshotEvent> {
        self.queue.drain(..).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sound(at: Vec3) -> TickEvent {
        TickEvent { event: SnapshotEvent { kind: EventKind::Sound, what: SOUND_PAIN, ..SnapshotEvent::default() }, at, only: None, shooter: None, debounce: None }
    }

    #[test]
    fn near_sounds_reach_a_client_and_far_ones_do_not() {
        let mut p = PendingEvents::default();
        let eye = Some(Vec3::ZERO);
        p.offer(&[sound(Vec3::new(100.0, 0.0, 0.0)), sound(Vec3::new(HEARING_RANGE + 1.0, 0.0, 0.0))], Some(SlotId(1)), eye, 1);
        assert_eq!(p.take().len(), 1);
        // A spectator without a player hears both.
        p.offer(&[sound(Vec3::new(100.0, 0.0, 0.0)), sound(Vec3::new(HEARING_RANGE + 1.0, 0.0, 0.0))], None, None, 2);
        assert_eq!(p.take().len(), 2);
    }

    #[test]
    fn hits_and_hurts_go_only_to_their_player() {
        let mut p = PendingEvents::default();
        let hurt = TickEvent { only: Some(SlotId(2)), ..sound(Vec3::ZERO) };
        p.offer(std::slice::from_ref(&hurt), Some(SlotId(1)), Some(Vec3::ZERO), 1);
        assert!(p.take().is_empty());
        p.offer(&[hurt], Some(SlotId(2)), Some(Vec3::ZERO), 1);
        assert_eq!(p.take().len(), 1);
    }

    #[test]
    fn only_a_bursts_first_path_goes_and_pain_is_debounced() {
        let mut p = PendingEvents::default();
        let shot = TickEvent { shooter: Some(SlotId(4)), ..sound(Vec3::ZERO) };
        // A burst of a shot every 6 ticks, a pause, then a slow weapon.
        let ticks: Vec<u32> = (0..10).map(|i| i * 6).chain([200, 200 + SHOT_EVERY_TICKS, 200 + 2 * SHOT_EVERY_TICKS]).collect();
        for &tick in &ticks {
            p.offer(std::slice::from_ref(&shot), Some(SlotId(1)), Some(Vec3::ZERO), tick);
        }
        assert_eq!(p.take().len(), 4, "the burst's first, then each slow shot");
        let pain = TickEvent { debounce: Some(SlotId(2)), ..sound(Vec3::ZERO) };
        for tick in 0..(SHOT_EVERY_TICKS * 3) {
            p.offer(std::slice::from_ref(&pain), Some(SlotId(1)), Some(Vec3::ZERO), tick);
        }
        assert_eq!(p.take().len(), 3, "a pain sound every {SHOT_EVERY_TICKS} ticks at most");
        let many: Vec<TickEvent> = (0..100).map(|_| sound(Vec3::ZERO)).collect();
        p.offer(&many, Some(SlotId(1)), Some(Vec3::ZERO), 1_000);
        assert_eq!(p.take().len(), MAX_SNAPSHOT_EVENTS);
    }
}
