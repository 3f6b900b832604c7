//! What the snapshots' events show for a moment: a rail's trail, a
//! lightning beam, tracers, muzzle flashes, explosions and teleport
//! flashes in the world; a hit marker at the crosshair when the player hit
//! someone, and a red mark on a ring around it pointing where a hurt came
//! from.
//!
//! Some come from the entities instead, as the server sends no event for
//! what a client can see for itself: a projectile that appears was fired
//! (a flash where it starts), one that vanishes exploded (a ball where it
//! was last), and a player flagged firing shows a flash at its muzzle
//! every frame, and with the lightning gun a beam along its aim.
//!
//! Effects live a fixed time from when their snapshot arrived and are
//! forgotten after; there are at most [`MAX_EFFECTS`] at once.

use std::time::{Duration, Instant};

use glam::Vec3;
use macroquad::prelude::{Color, draw_cube, draw_line, draw_line_3d, draw_triangle, vec2, vec3};
use super::scene::{ball, mq};
use quarry_net::event::{EventKind, SOUND_EXPLOSION, SOUND_GUNFIRE, SOUND_JUMP_PAD, SOUND_TELEPORT, SnapshotEvent};

/// Effects kept at once; the oldest go first.
pub const MAX_EFFECTS: usize = 128;
/// How long a hit marker shows.
const HIT_MARKER: Duration = Duration::from_millis(250);
/// Most rings drawn along a rail's trail.
const MAX_RINGS: f32 = 32.0;
/// How long a hurt's direction shows.
const HURT_MARK: Duration = Duration::from_millis(1_000);

/// The railgun's number (its trail lasts).
const RAIL: u8 = 7;
/// The lightning gun's number (a beam).
const LIGHTNING: u8 = 6;

/// One effect in the world.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    /// A line from a to b, `rings` drawn along it (a rail's trail).
    Beam { from: Vec3, to: Vec3, colour: [f32; 3], rings: bool },
    /// A ball growing from `r0` to `r1`.
    Ball { at: Vec3, r0: f32, r1: f32, colour: [f32; 3] },
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Effect {
    shape: Shape,
    born: Instant,
    life: Duration,
}

/// Entity flag: a player holding fire (the server's `EF_FIRING`).
pub const EF_FIRING: u16 = 1 << 4;
/// How far a lightning beam reaches (Quake 3's 768 units).
const LIGHTNING_RANGE: f32 = 768.0;

/// The effects showing now.
#[derive(Debug, Default)]
pub struct Effects {
    world: Vec<Effect>,
    /// The projectiles of the newest snapshot: id, where, weapon.
    projectiles: std::collections::BTreeMap<u32, (Vec3, u8)>,
    hit: Option<(Instant, u16)>,
    /// Where each recent hurt came from, and when.
    hurts: Vec<(Instant, Vec3)>,
}

fn point(p: [i32; 3]) -> Vec3 {
    Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32)
}

impl Effects {
    /// Takes in a snapshot's events, arrived at `now`.
    pub fn take(&mut self, events: &[SnapshotEvent], now: Instant) {
        for e in events {
            let (shape, life) = match (e.kind, e.what) {
                (EventKind::Shot, RAIL) => (Shape::Beam { from: point(e.origin), to: point(e.end), colour: [0.3, 0.9, 1.0], rings: true }, 1_200),
                (EventKind::Shot, LIGHTNING) => (Shape::Beam { from: point(e.origin), to: point(e.end), colour: [0.7, 0.8, 1.0], rings: false }, 120),
                (EventKind::Shot, _) => (Shape::Beam { from: point(e.origin), to: point(e.end), colour: [1.0, 0.9, 0.5], rings: false }, 60),
                (EventKind::Sound, SOUND_EXPLOSION) => (Shape::Ball { at: point(e.origin), r0: 8.0, r1: 64.0, colour: [1.0, 0.55, 0.15] }, 350),
                (EventKind::Sound, SOUND_GUNFIRE) => (Shape::Ball { at: point(e.origin), r0: 6.0, r1: 10.0, colour: [1.0, 0.85, 0.4] }, 60),
                (EventKind::Sound, SOUND_TELEPORT | SOUND_JUMP_PAD) => (Shape::Ball { at: point(e.origin) + Vec3::Z * 24.0, r0: 24.0, r1: 4.0, colour: [0.7, 0.8, 1.0] }, 400),
                (EventKind::Hit, _) => {
                    self.hit = Some((now, e.aux));
                    continue;
                }
                (EventKind::Hurt, _) => {
                    self.hurts.retain(|(t, _)| now.saturating_duration_since(*t) < HURT_MARK);
                    if self.hurts.len() < 8 {
                        self.hurts.push((now, point(e.origin)));
                    }
                    continue;
                }
                (EventKind::Sound, _) => continue,
            };
            if self.world.len() == MAX_EFFECTS {
                self.world.remove(0);
            }
            self.world.push(Effect { shape, born: now, life: Duration::from_millis(life) });
        }
        self.world.retain(|f| now.saturating_duration_since(f.born) < f.life);
    }

    /// Takes in a new snapshot's projectiles (`id`, origin, weapon): a new
    /// one flashes where it starts, a vanished one explodes where it was.
    pub fn projectiles(&mut self, now: Vec<(u32, Vec3, u8)>, at: Instant) {
        let fresh: std::collections::BTreeMap<u32, (Vec3, u8)> = now.into_iter().map(|(id, o, w)| (id, (o, w))).collect();
        let mut born = Vec::new();
        for (id, (o, _)) in &fresh {
            if !self.projectiles.contains_key(id) {
                born.push(Shape::Ball { at: *o, r0: 10.0, r1: 14.0, colour: [1.0, 0.85, 0.4] });
            }
        }
        for (id, (o, w)) in &self.projectiles {
            if !fresh.contains_key(id) {
                // A plasma ball fizzles; rockets and grenades blow up.
                let (r1, colour) = if *w == 8 { (20.0, [0.5, 0.7, 1.0]) } else { (48.0, [1.0, 0.55, 0.15]) };
                born.push(Shape::Ball { at: *o, r0: 8.0, r1, colour });
            }
        }
        for shape in born {
            let life = if matches!(shape, Shape::Ball { r1, .. } if r1 > 16.0) { 300 } else { 60 };
            if self.world.len() == MAX_EFFECTS {
                self.world.remove(0);
            }
            self.world.push(Effect { shape, born: at, life: Duration::from_millis(life) });
        }
        self.projectiles = fresh;
    }

    /// Draws what players flagged firing show this frame: a flash at the
    /// muzzle (`eye`, looking along `forward`), and with the lightning gun
    /// a beam to where `trace` stops it.
    pub fn draw_firing(&self, firing: &[(Vec3, Vec3, u8)], trace: impl Fn(Vec3, Vec3) -> Vec3) {
        for &(eye, forward, weapon) in firing {
            let muzzle = eye + forward * 20.0;
            // A star of three short lines: a flash every frame for every
            // firing player must cost no fill (a blended solid near the
            // camera costs a software renderer a fifth of the screen).
            let c = Color::new(1.0, 0.85, 0.4, 1.0);
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                draw_line_3d(mq(muzzle - axis * 5.0), mq(muzzle + axis * 5.0), c);
            }
            if weapon == LIGHTNING {
                let end = trace(muzzle, muzzle + forward * LIGHTNING_RANGE);
                draw_line_3d(mq(muzzle), mq(end), Color::new(0.75, 0.85, 1.0, 1.0));
                ball(end, 6.0, Color::new(0.75, 0.85, 1.0, 0.7));
            }
        }
    }

    /// How many effects show in the world now.
    pub fn world_count(&self) -> usize {
        self.world.len()
    }

    /// Draws the world's effects (with the 3D camera set).
    pub fn draw_world(&self, now: Instant) {
        for f in &self.world {
            let age = now.saturating_duration_since(f.born).as_secs_f32() / f.life.as_secs_f32().max(1e-3);
            if age >= 1.0 {
                continue;
            }
            let fade = 1.0 - age;
            match f.shape {
                Shape::Beam { from, to, colour: [r, g, b], rings } => {
                    let c = Color::new(r, g, b, fade);
                    draw_line_3d(mq(from), mq(to), c);
                    if rings {
                        // Rings along the trail, at most MAX_RINGS: each is
                        // blended, which a software renderer pays per pixel.
                        let along = to - from;
                        let n = (along.length() / 48.0).min(MAX_RINGS) as usize;
                        for i in 1..n {
                            let p = from + along * (i as f32 / n as f32);
                            let s = 2.0 + 4.0 * age;
                            draw_cube(mq(p), vec3(s, s, s), None, Color::new(r, g, b, fade * 0.6));
                        }
                    }
                }
                Shape::Ball { at, r0, r1, colour: [r, g, b] } => {
                    let radius = r0 + (r1 - r0) * age;
                    ball(at, radius, Color::new(r, g, b, fade * 0.8));
                }
            }
        }
    }

    /// Draws the hit marker and the hurts' directions around the screen's
    /// centre (`eye` and `yaw` are the view's).
    pub fn draw_screen(&self, now: Instant, eye: Vec3, yaw: f32, w: f32, h: f32) {
        let (cx, cy) = (w / 2.0, h / 2.0);
        if let Some((at, damage)) = self.hit {
            let age = now.saturating_duration_since(at);
            if age < HIT_MARKER {
                let fade = 1.0 - age.as_secs_f32() / HIT_MARKER.as_secs_f32();
                // Heavier hits read redder.
                let heat = (f32::from(damage) / 100.0).min(1.0);
                let c = Color::new(1.0, 1.0 - heat * 0.8, 1.0 - heat * 0.8, fade);
                for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
                    draw_line(cx + dx * 6.0, cy + dy * 6.0, cx + dx * 14.0, cy + dy * 14.0, 2.5, c);
                }
            }
        }
        let radius = h.min(w) * 0.18;
        for (at, from) in &self.hurts {
            let age = now.saturating_duration_since(*at);
            if age >= HURT_MARK {
                continue;
            }
            let fade = 1.0 - age.as_secs_f32() / HURT_MARK.as_secs_f32();
            let Some(angle) = screen_angle(eye, yaw, *from) else { continue };
            let (s, c) = angle.sin_cos();
            // A wedge on the ring, pointing out toward the source.
            let dir = vec2(-s, -c);
            let side = vec2(dir.y, -dir.x);
            let tip = vec2(cx, cy) + dir * (radius + 18.0);
            let base = vec2(cx, cy) + dir * radius;
            draw_triangle(tip, base + side * 22.0, base - side * 22.0, Color::new(0.9, 0.05, 0.05, 0.8 * fade));
        }
    }
}

/// Where on a ring around the crosshair `from` lies, as an angle from
/// straight up, counter-clockwise (radians); `None` when it is right at
/// the eye.
fn screen_angle(eye: Vec3, yaw: f32, from: Vec3) -> Option<f32> {
    let d = from - eye;
    if d.truncate().length_squared() < 1.0 {
        return None;
    }
    let toward = d.y.atan2(d.x).to_degrees();
    Some(quarry_movement::wrap_half_turn(toward - yaw).to_radians())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hurt_from_the_left_marks_the_left() {
        // Looking along +X, a source at +Y is to the left: a quarter turn counter-clockwise.
        let a = screen_angle(Vec3::ZERO, 0.0, Vec3::new(0.0, 100.0, 0.0)).expect("an angle");
        assert!((a - std::f32::consts::FRAC_PI_2).abs() < 1e-4, "{a}");
        // Straight ahead is up; behind is down.
        assert!(screen_angle(Vec3::ZERO, 90.0, Vec3::new(0.0, 100.0, 0.0)).expect("an angle").abs() < 1e-4);
        assert!((screen_angle(Vec3::ZERO, 0.0, Vec3::new(-100.0, 0.0, 0.0)).expect("an angle").abs() - std::f32::consts::PI).abs() < 1e-4);
        assert_eq!(screen_angle(Vec3::ZERO, 0.0, Vec3::Z * 50.0), None);
    }

    #[test]
    fn effects_fade_and_are_bounded() {
        let now = Instant::now();
        let mut f = Effects::default();
        let rail = SnapshotEvent { kind: EventKind::Shot, what: RAIL, origin: [0, 0, 0], end: [500, 0, 0], source: 1, aux: 0 };
        let many = vec![rail; MAX_EFFECTS + 10];
        f.take(&many, now);
        assert_eq!(f.world_count(), MAX_EFFECTS);
        f.take(&[], now + Duration::from_secs(2));
        assert_eq!(f.world_count(), 0, "a trail is gone after its time");
        let hit = SnapshotEvent { kind: EventKind::Hit, aux: 50, ..SnapshotEvent::default() };
        f.take(&[hit], now);
        assert!(f.hit.is_some());
    }
}
