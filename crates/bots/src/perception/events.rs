//! What a tick's game events tell one bot: hits it took (and whether the
//! attacker is in sight), deaths, and sounds within earshot: an enemy's
//! (a teammate's, or its own, are not listened to) or a door's or lift's.
//! How far a sound carries is the match's [`SoundTable`](quarry_sim::sound::SoundTable);
//! a sound whose straight line to the bot's ear is blocked carries the
//! table's wall share of that (one trace, only when the distance needs it).
//!
//! In: the [`BotView`]'s events, the bot's own snapshot and the players it
//! must ignore; out: one [`Percept`] per event that concerns it, in event
//! order, computed lazily so each is acted on before the next is read.

use glam::Vec3;
use quarry_sim::SlotId;
use quarry_sim::events::{GameEvent, SoundKind};

use super::{BodyBox, visible_point};
use crate::view::{BotView, PlayerSnap};

/// A sound within earshot, as it reached the bot. Where it came from is
/// the truth: the brain turns it into an estimate ([`super::hearing`])
/// before anything remembers it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeardSound {
    /// Who made it (`None`: a door or a lift).
    pub source: Option<SlotId>,
    /// What it was.
    pub kind: SoundKind,
    /// Where it was made.
    pub origin: Vec3,
    /// How far from the bot, units.
    pub distance: f32,
    /// How far it carried (the table's figure, less through a wall), units.
    pub range: f32,
}

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
    /// A sound within earshot.
    Heard(HeardSound),
}

/// The percepts of this tick's events for the bot in `slot`, in order.
pub fn percepts<'v>(
    view: &'v BotView<'_>,
    me: &'v PlayerSnap,
    slot: SlotId,
    ignored: &'v [SlotId],
) -> impl Iterator<Item = Percept> + 'v {
    percepts_hearing(view, me, slot, ignored, true)
}

/// [`percepts`], with sounds only when `hearing` (working out what is heard
/// costs a trace per sound: a listener that does not care skips it).
pub fn percepts_hearing<'v>(
    view: &'v BotView<'_>,
    me: &'v PlayerSnap,
    slot: SlotId,
    ignored: &'v [SlotId],
    hearing: bool,
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
        GameEvent::Sound { kind, origin, source } if hearing => heard(view, me, slot, ignored, kind, origin, source).map(Percept::Heard),
        _ => None,
    })
}

/// Whether the bot in `slot` hears this sound, and how.
fn heard(
    view: &BotView<'_>,
    me: &PlayerSnap,
    slot: SlotId,
    ignored: &[SlotId],
    kind: SoundKind,
    origin: Vec3,
    source: Option<SlotId>,
) -> Option<HeardSound> {
    match source {
        // Its own, a teammate's, or an ignored player's: not listened to.
        Some(s) if s == slot || ignored.contains(&s) || !view.player(s).is_some_and(|p| view.is_enemy(me, p)) => return None,
        // Of the sounds nobody made, only doors and lifts say someone is near.
        None if kind != SoundKind::Mover => return None,
        _ => {}
    }
    let (distance, range) = carries(view, kind, origin, me.eye)?;
    Some(HeardSound { source, kind, origin, distance, range })
}

/// Whether a sound of `kind` made at `origin` reaches an ear at `ear`: its
/// distance and how far it carried (the table's figure, less through a
/// wall; one trace, only when the distance needs it), or `None`.
pub fn carries(view: &BotView<'_>, kind: SoundKind, origin: Vec3, ear: Vec3) -> Option<(f32, f32)> {
    let table = view.sounds;
    let open = table.range(kind, view.weapons);
    let distance = origin.distance(ear);
    if distance > open {
        return None;
    }
    // A door's or lift's sound comes from inside its own brush: no trace.
    let range = if distance <= open * table.wall_factor || kind == SoundKind::Mover {
        open
    } else {
        // Far enough that a wall would silence it: one trace decides.
        let through = view.map.world().line_reaches(origin + Vec3::Z * 8.0, ear, quarry_map::Contents::MASK_SHOT);
        if through { open } else { open * table.wall_factor }
    };
    (distance <= range).then_some((distance, range))
}
