//! What the player hears: the snapshots' sound events, and what the
//! entities tell (a projectile launched or gone, a player stepping,
//! jumping, landing or holding fire), each placed by where it happened:
//! quieter with distance (silent past about 1,300 units, as Quake 3's
//! attenuation) and panned by which side of the view it is on.
//!
//! [`SoundDirector`] decides what plays; an [`AudioOut`] plays it. With
//! the `audio` cargo feature that is kira on the sound device; without it,
//! or with no device (one line says so), nothing is heard and the game
//! runs the same.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use glam::Vec3;
use quarry_net::event::{
    EventKind, SOUND_EXPLOSION, SOUND_GUNFIRE, SOUND_JUMP, SOUND_JUMP_PAD, SOUND_LAND, SOUND_MOVER, SOUND_PAIN, SOUND_PICKUP,
    SOUND_RESPAWN, SOUND_TELEPORT, SnapshotEvent,
};
use quarry_net::snapshot::EntityKind;

use super::effects::EF_FIRING;
use super::synth::SoundId;
use crate::view::EntityView;

/// Within this distance a sound is at full volume, units.
const FULL_VOLUME_WITHIN: f32 = 80.0;
/// Volume lost per unit beyond that (Quake 3's `SOUND_ATTENUATE`).
const ATTENUATION: f32 = 0.0008;
/// How far a player runs between two footsteps, units.
const STRIDE: f32 = 110.0;
/// Most sounds started in one frame (a burst of events must not stack a
/// hundred voices).
const MAX_PER_FRAME: usize = 16;

/// Where sounds go.
pub trait AudioOut {
    /// Plays `id` at `volume` (0..1) and `pan` (-1 left .. 1 right).
    fn play(&mut self, id: SoundId, volume: f32, pan: f32);
}

/// Nothing is heard (no device, or built without the `audio` feature);
/// what would have played is counted.
#[derive(Debug, Default)]
pub struct Silent {
    /// How many sounds would have played, by sound.
    pub played: BTreeMap<SoundId, u32>,
}

impl AudioOut for Silent {
    fn play(&mut self, id: SoundId, _volume: f32, _pan: f32) {
        *self.played.entry(id).or_insert(0) += 1;
    }
}

/// The volume (0..1) and pan (-1..1) of a sound at `at` for a listener at
/// `eye` looking along `yaw` (degrees); `None` when too far to hear.
pub fn spatialize(eye: Vec3, yaw: f32, at: Vec3) -> Option<(f32, f32)> {
    let d = at - eye;
    let volume = 1.0 - (d.length() - FULL_VOLUME_WITHIN).max(0.0) * ATTENUATION;
    if !volume.is_finite() || volume <= 0.0 {
        return None;
    }
    let (s, c) = yaw.to_radians().sin_cos();
    let right = Vec3::new(s, -c, 0.0);
    let flat = d.truncate().extend(0.0);
    // Never quite one ear only: a sound to the side is still heard in both.
    let pan = if flat.length_squared() < 1.0 { 0.0 } else { flat.normalize().dot(right) * 0.8 };
    Some((volume, pan))
}

/// A player as the last snapshot had it.
#[derive(Debug, Clone, Copy)]
struct Seen {
    origin: Vec3,
    velocity: Vec3,
    /// Distance run on the ground since the last step.
    stride: f32,
    /// When its held fire sounds next.
    next_shot: Option<Instant>,
}

/// The time between two shots of weapon `n` while fire is held.
fn refire(weapon: u8) -> Duration {
    Duration::from_millis(match weapon {
        1 => 400,
        2 => 100,
        3 => 1000,
        4 | 5 => 800,
        6 => 60,
        7 => 1500,
        _ => 100,
    })
}

/// Decides what is heard, frame by frame.
#[derive(Debug, Default)]
pub struct SoundDirector {
    players: BTreeMap<u32, Seen>,
    projectiles: BTreeMap<u32, (Vec3, u8)>,
    /// Players holding fire with a weapon heard shot by shot (machine and
    /// lightning gun), and the weapon.
    held_weapons: BTreeMap<u32, u8>,
    /// The own player as last seen.
    own: Option<Seen>,
    /// Sounds to start this frame: what, where (`None`: the player's own).
    queued: Vec<(SoundId, Option<Vec3>, f32)>,
    /// Sounds started so far (heard, or would have been with a device).
    started: u32,
}

impl SoundDirector {
    /// Takes in a snapshot's events.
    pub fn events(&mut self, events: &[SnapshotEvent]) {
        for e in events {
            let at = Some(Vec3::new(e.origin[0] as f32, e.origin[1] as f32, e.origin[2] as f32));
            let id = match (e.kind, e.what) {
                (EventKind::Sound, SOUND_GUNFIRE) => SoundId::Gunfire(u8::try_from(e.aux).unwrap_or(2)),
                (EventKind::Sound, SOUND_JUMP) => SoundId::Jump,
                (EventKind::Sound, SOUND_LAND) => SoundId::Land,
                (EventKind::Sound, SOUND_EXPLOSION) => SoundId::Explosion,
                (EventKind::Sound, SOUND_PICKUP) => SoundId::Pickup,
                (EventKind::Sound, SOUND_RESPAWN) => SoundId::Respawn,
                (EventKind::Sound, SOUND_PAIN) => SoundId::Pain,
                (EventKind::Sound, SOUND_JUMP_PAD) => SoundId::JumpPad,
                (EventKind::Sound, SOUND_TELEPORT) => SoundId::Teleport,
                (EventKind::Sound, SOUND_MOVER) => SoundId::Mover,
                (EventKind::Sound, _) => SoundId::Footstep,
                (EventKind::Shot, weapon) => SoundId::Gunfire(weapon),
                (EventKind::Hit, _) => {
                    self.queued.push((SoundId::Hit, None, 0.8));
                    continue;
                }
                (EventKind::Hurt, _) => {
                    self.queued.push((SoundId::Pain, None, 1.0));
                    continue;
                }
            };
            self.queued.push((id, at, 1.0));
        }
    }

    /// Takes in a new snapshot's entities (the own player left out by the
    /// server, or by `own`): launches and explosions, steps, jumps and
    /// landings, and when a held fire begins.
    pub fn entities<'a>(&mut self, entities: impl Iterator<Item = &'a EntityView>, own: Option<u32>, now: Instant) {
        let mut players = BTreeMap::new();
        let mut projectiles = BTreeMap::new();
        for e in entities {
            let origin = Vec3::from(e.origin);
            match e.kind {
                EntityKind::Projectile => {
                    if !self.projectiles.contains_key(&e.id) {
                        self.queued.push((SoundId::Gunfire(e.state.weapon), Some(origin), 1.0));
                    }
                    projectiles.insert(e.id, (origin, e.state.weapon));
                }
                EntityKind::Player if Some(e.state.aux) != own && e.state.flags & 1 == 0 => {
                    let velocity = Vec3::from(e.velocity);
                    let mut seen = Seen { origin, velocity, stride: 0.0, next_shot: None };
                    if let Some(before) = self.players.get(&e.id).copied() {
                        seen.stride = before.stride;
                        seen.next_shot = before.next_shot;
                        self.movement(&before, &mut seen);
                    }
                    let firing = e.state.flags & EF_FIRING != 0;
                    seen.next_shot = match (firing, seen.next_shot) {
                        // The first shot of a burst is heard from its event
                        // or its projectile; the rest from here.
                        (true, None) => Some(now + refire(e.state.weapon)),
                        (true, Some(t)) => Some(t),
                        (false, _) => None,
                    };
                    let heard = if firing && matches!(e.state.weapon, 2 | 6) { e.state.weapon } else { 0 };
                    players.insert(e.id, (seen, heard));
                }
                _ => {}
            }
        }
        for (id, (origin, weapon)) in &self.projectiles {
            if !projectiles.contains_key(id) {
                let loud = if *weapon == 8 { 0.4 } else { 1.0 };
                self.queued.push((SoundId::Explosion, Some(*origin), loud));
            }
        }
        self.projectiles = projectiles;
        self.players = players.iter().map(|(id, (s, _))| (*id, *s)).collect();
        self.held_weapons = players.into_iter().filter(|(_, (_, w))| *w != 0).map(|(id, (_, w))| (id, w)).collect();
    }

    fn movement(&mut self, before: &Seen, now: &mut Seen) {
        let (vz0, vz1) = (before.velocity.z, now.velocity.z);
        if vz0 <= 10.0 && vz1 > 200.0 {
            self.queued.push((SoundId::Jump, Some(now.origin), 1.0));
        } else if vz0 < -400.0 && vz1.abs() < 10.0 {
            self.queued.push((SoundId::Land, Some(now.origin), 1.0));
        }
        if vz1.abs() < 10.0 && now.velocity.truncate().length() > 150.0 {
            now.stride += now.origin.truncate().distance(before.origin.truncate()).min(64.0);
            if now.stride >= STRIDE {
                now.stride = 0.0;
                self.queued.push((SoundId::Footstep, Some(now.origin), 0.7));
            }
        }
    }

    /// The own player fired `weapon` (its ammo went down).
    pub fn own_shot(&mut self, weapon: u8) {
        self.queued.push((SoundId::Gunfire(weapon), None, 0.9));
    }

    /// The own player's steps, jumps and landings from its newest state:
    /// origin and velocity (`None`: dead or watching).
    pub fn own_state(&mut self, state: Option<(Vec3, Vec3)>) {
        let Some((origin, velocity)) = state else {
            self.own = None;
            return;
        };
        let mut seen = Seen { origin, velocity, stride: 0.0, next_shot: None };
        if let Some(before) = self.own {
            seen.stride = before.stride;
            if before.origin != origin || before.velocity != velocity {
                self.movement(&before, &mut seen);
            }
        }
        self.own = Some(seen);
    }

    /// How many sounds were started so far.
    pub fn started(&self) -> u32 {
        self.started
    }

    /// How many sounds wait to start.
    pub fn queued(&self) -> usize {
        self.queued.len()
    }

    /// Starts what is due at `now`, heard from `eye` looking along `yaw`.
    pub fn play(&mut self, out: &mut dyn AudioOut, eye: Vec3, yaw: f32, now: Instant, volume: f32) {
        for (id, weapon) in self.held_weapons.clone() {
            let Some(p) = self.players.get_mut(&id) else { continue };
            if p.next_shot.is_some_and(|t| now >= t) {
                p.next_shot = Some(now + refire(weapon));
                self.queued.push((SoundId::Gunfire(weapon), Some(p.origin), 1.0));
            }
        }
        for (id, at, loud) in self.queued.drain(..).take(MAX_PER_FRAME) {
            let (v, pan) = match at {
                None => (1.0, 0.0),
                Some(at) => match spatialize(eye, yaw, at) {
                    Some(vp) => vp,
                    None => continue,
                },
            };
            out.play(id, (v * loud * volume).clamp(0.0, 1.0), pan);
            self.started = self.started.saturating_add(1);
        }
        self.queued.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_net::snapshot::EntityState;

    #[test]
    fn near_is_loud_far_is_silent_and_the_side_is_the_side() {
        let (v, pan) = spatialize(Vec3::ZERO, 0.0, Vec3::new(50.0, 0.0, 0.0)).expect("heard");
        assert_eq!(v, 1.0);
        assert!(pan.abs() < 1e-6, "straight ahead is centred");
        let (v, _) = spatialize(Vec3::ZERO, 0.0, Vec3::new(800.0, 0.0, 0.0)).expect("heard");
        assert!(v > 0.3 && v < 0.5, "{v}");
        assert_eq!(spatialize(Vec3::ZERO, 0.0, Vec3::new(2_000.0, 0.0, 0.0)), None);
        // Looking along +X, -Y is to the right.
        let (_, right) = spatialize(Vec3::ZERO, 0.0, Vec3::new(0.0, -300.0, 0.0)).expect("heard");
        let (_, left) = spatialize(Vec3::ZERO, 90.0, Vec3::new(-300.0, 0.0, 0.0)).expect("heard");
        assert!(right > 0.7 && left < -0.7, "{right} {left}");
    }

    fn player(id: u32, origin: [f32; 3], velocity: [f32; 3], flags: u16, weapon: u8) -> EntityView {
        EntityView { id, kind: EntityKind::Player, origin, angles: [0.0; 3], velocity, state: EntityState { flags, weapon, aux: id, ..EntityState::empty(id) } }
    }

    fn projectile(id: u32, x: f32) -> EntityView {
        EntityView { id, kind: EntityKind::Projectile, origin: [x, 0.0, 0.0], angles: [0.0; 3], velocity: [900.0, 0.0, 0.0], state: EntityState { weapon: 5, ..EntityState::empty(id) } }
    }

    #[test]
    fn the_entities_tell_launches_explosions_steps_jumps_and_held_fire() {
        let mut d = SoundDirector::default();
        let mut out = Silent::default();
        let t0 = Instant::now();
        let running = |x: f32, flags: u16| player(1, [x, 0.0, 0.0], [320.0, 0.0, 0.0], flags, 2);
        d.entities([running(0.0, 0), projectile(9, 100.0)].iter(), None, t0);
        d.play(&mut out, Vec3::ZERO, 0.0, t0, 1.0);
        assert_eq!(out.played.get(&SoundId::Gunfire(5)), Some(&1), "a rocket appeared");
        // Running 12 snapshots of 11 units: a step every 110.
        for i in 1..=12 {
            d.entities([running(i as f32 * 11.0, 0)].iter(), None, t0);
        }
        d.play(&mut out, Vec3::ZERO, 0.0, t0, 1.0);
        assert_eq!(out.played.get(&SoundId::Explosion), Some(&1), "the rocket vanished");
        assert_eq!(out.played.get(&SoundId::Footstep), Some(&1));
        // A jump.
        d.entities([player(1, [200.0, 0.0, 10.0], [320.0, 0.0, 270.0], 0, 2)].iter(), None, t0);
        d.play(&mut out, Vec3::ZERO, 0.0, t0, 1.0);
        assert_eq!(out.played.get(&SoundId::Jump), Some(&1));
        // Holding fire with the machine gun: a shot every 100 ms after the first.
        d.entities([running(200.0, EF_FIRING)].iter(), None, t0);
        for ms in (0..=500).step_by(20) {
            d.play(&mut out, Vec3::ZERO, 0.0, t0 + Duration::from_millis(ms), 1.0);
        }
        assert_eq!(out.played.get(&SoundId::Gunfire(2)), Some(&5), "{:?}", out.played);
    }

    #[test]
    fn events_play_where_they_happened_and_bursts_are_capped() {
        let mut d = SoundDirector::default();
        let mut out = Silent::default();
        let far = SnapshotEvent { kind: EventKind::Sound, what: SOUND_PAIN, origin: [5_000, 0, 0], ..SnapshotEvent::default() };
        let near = SnapshotEvent { origin: [100, 0, 0], ..far };
        let hit = SnapshotEvent { kind: EventKind::Hit, aux: 10, ..SnapshotEvent::default() };
        d.events(&[far, near, hit]);
        d.play(&mut out, Vec3::ZERO, 0.0, Instant::now(), 1.0);
        assert_eq!(out.played.get(&SoundId::Pain), Some(&1), "the far one is not heard");
        assert_eq!(out.played.get(&SoundId::Hit), Some(&1));
        d.events(&vec![near; 100]);
        d.play(&mut out, Vec3::ZERO, 0.0, Instant::now(), 1.0);
        assert_eq!(out.played.get(&SoundId::Pain), Some(&(1 + MAX_PER_FRAME as u32)));
        assert_eq!(d.queued(), 0, "the rest of a burst is dropped, not carried over");
    }
}
