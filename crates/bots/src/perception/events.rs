//! What a tick's game events tell one bot: hits it took (and whether the
//! attacker is in sight), deaths, and enemy sounds within earshot.
//!
//! In: the [`BotView`]'s events, the bot's own snapshot and the players it
//! must ignore; out: one [`Percept`] per event that concerns it, in event
//! order, computed lazily so each is acted on before the next is read.

use glam::Vec3;
use quarry_sim::SlotId;
use quarry_sim::events::{GameEvent, SoundKind};

use super::{BodyBox, visible_point};
use crate::view::{BotView, PlayerSnap};

/// Gunfire is heard this far, units.
pub const HEAR_GUNFIRE: f32 = 1200.0;
/// Jumps, landings, pads and teleports are heard this far, units.
pub const HEAR_MOVEMENT: f32 = 500.0;

/// An attacker in sight when its hit landed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeenAttacker {
    /// Where it stands.
    pub origin: Vec3,
    /// How it moves.
    pub velocity: Vec3,
    /// The body point seen from the bot's eye.
    pub point: Vec3,
}

/// One event as it concerns the bot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Percept {
    /// Another player hit the bot, from direction `dir`; `seen` when the
    /// attacker is an enemy not ignored, alive and in line of sight.
    Hit {
        /// Who.
        attacker: SlotId,
        /// The damage direction (from the attacker toward the bot).
        dir: Vec3,
        /// The attacker, if seen.
        seen: Option<SeenAttacker>,
    },
    /// Another player killed the bot.
    KilledBy(SlotId),
    /// Someone else died (or the bot died by its own hand or the world).
    Died(SlotId),
    /// An enemy made a sound within earshot.
    Heard {
        /// Who.
        source: SlotId,
        /// Where.
        origin: Vec3,
    },
}

/// The percepts of this tick's events for the bot in `slot`, in order.
pub fn percepts<'v>(
    view: &'v BotView<'_>,
    me: &'v PlayerSnap,
    slot: SlotId,
    ignored: &'v [SlotId],
) -> impl Iterator<Item = Percept> + 'v {
    view.events.iter().filter_map(move |ev| match *ev {
        GameEvent::Damage {
            target,
            attacker: Some(a),
            dir,
            ..
        } if target == slot && a != slot => {
            let seen = view
                .player(a)
                .filter(|p| p.alive && view.is_enemy(me, p) && !ignored.contains(&a))
                .and_then(|p| {
                    let point = visible_point(view.map.world(), me.eye, &BodyBox::of(p))?;
                    Some(SeenAttacker {
                        origin: p.origin,
                        velocity: p.velocity,
                        point,
                    })
                });
            Some(Percept::Hit { attacker: a, dir, seen })
        }
        GameEvent::Kill {
            killer: Some(k),
            victim,
            ..
        } if victim == slot && k != slot => Some(Percept::KilledBy(k)),
        GameEvent::Kill { victim, .. } => Some(Percept::Died(victim)),
        GameEvent::Sound {
            kind,
            origin,
            source: Some(s),
        } if s != slot && !ignored.contains(&s) => {
            let range = match kind {
                SoundKind::Gunfire(_) | SoundKind::Explosion => HEAR_GUNFIRE,
                SoundKind::Jump | SoundKind::Land | SoundKind::JumpPad | SoundKind::Teleport => HEAR_MOVEMENT,
                _ => return None,
            };
            let enemy = view.player(s).is_some_and(|p| view.is_enemy(me, p));
            (enemy && origin.distance(me.origin) <= range).then_some(Percept::Heard { source: s, origin })
        }
        _ => None,
    })
}
