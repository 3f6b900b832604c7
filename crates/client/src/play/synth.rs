//! The play client's sounds, made here: each is synthesised at start from
//! noise, tones and sweeps (no recordings from any game), so they ship as
//! this code under the project's licence.
//!
//! Every sound is mono at [`SAMPLE_RATE`], peaks below 1.0, and starts and
//! ends near silence (no click).

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;

/// Samples per second.
pub const SAMPLE_RATE: u32 = 44_100;

/// What can be heard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SoundId {
    /// A step.
    Footstep,
    /// A jump.
    Jump,
    /// A hard landing.
    Land,
    /// Weapon `n` (1-8) fired.
    Gunfire(u8),
    /// An explosion.
    Explosion,
    /// An item taken.
    Pickup,
    /// An item back.
    Respawn,
    /// Someone hurt.
    Pain,
    /// A jump pad.
    JumpPad,
    /// A teleport.
    Teleport,
    /// A door or platform.
    Mover,
    /// The own shot hit someone.
    Hit,
}

impl SoundId {
    /// Every sound, in order.
    pub fn all() -> Vec<SoundId> {
        let mut v = vec![SoundId::Footstep, SoundId::Jump, SoundId::Land];
        v.extend((1..=8).map(SoundId::Gunfire));
        v.extend([SoundId::Explosion, SoundId::Pickup, SoundId::Respawn, SoundId::Pain, SoundId::JumpPad, SoundId::Teleport, SoundId::Mover, SoundId::Hit]);
        v
    }
}

/// A sound's samples being made.
struct Voice {
    out: Vec<f32>,
    rng: Pcg32,
}

impl Voice {
    fn new(seconds: f32, seed: u64) -> Self {
        Voice { out: vec![0.0; (seconds * SAMPLE_RATE as f32) as usize], rng: Pcg32::seed_from_u64(seed) }
    }

    /// Adds white noise through a one-pole low-pass (`cutoff` 0..1),
    /// shaped by `env(t)`.
    fn noise(mut self, gain: f32, cutoff: f32, env: impl Fn(f32) -> f32) -> Self {
        let mut y = 0.0;
        for (i, s) in self.out.iter_mut().enumerate() {
            let x: f32 = self.rng.random_range(-1.0..1.0);
            y += cutoff * (x - y);
            *s += gain * y * env(i as f32 / SAMPLE_RATE as f32);
        }
        self
    }

    /// Adds a tone whose frequency goes from `f0` to `f1` Hz, `square`
    /// for a harsher wave, shaped by `env(t)`.
    fn tone(mut self, gain: f32, f0: f32, f1: f32, square: bool, env: impl Fn(f32) -> f32) -> Self {
        let n = self.out.len().max(1) as f32;
        let mut phase = 0.0f32;
        for (i, s) in self.out.iter_mut().enumerate() {
            let f = f0 + (f1 - f0) * i as f32 / n;
            phase = (phase + f / SAMPLE_RATE as f32).fract();
            let wave = (phase * std::f32::consts::TAU).sin();
            let wave = if square { wave.signum() * 0.6 } else { wave };
            *s += gain * wave * env(i as f32 / SAMPLE_RATE as f32);
        }
        self
    }

    /// The samples, faded in and out over 2 ms and held within ±0.95.
    fn done(mut self) -> Vec<f32> {
        let fade = (SAMPLE_RATE / 500) as usize;
        let n = self.out.len();
        for i in 0..fade.min(n) {
            let k = i as f32 / fade as f32;
            self.out[i] *= k;
            self.out[n - 1 - i] *= k;
        }
        for s in &mut self.out {
            *s = s.clamp(-0.95, 0.95);
        }
        self.out
    }
}

/// A decay from 1 with time constant `tau` seconds.
fn decay(tau: f32) -> impl Fn(f32) -> f32 {
    move |t| (-t / tau).exp()
}

/// Makes `id`'s samples.
pub fn make(id: SoundId) -> Vec<f32> {
    let seed = SoundId::all().iter().position(|s| *s == id).unwrap_or(0) as u64;
    let v = |seconds: f32| Voice::new(seconds, seed);
    match id {
        SoundId::Footstep => v(0.08).noise(0.5, 0.08, decay(0.015)).tone(0.2, 110.0, 70.0, false, decay(0.02)).done(),
        SoundId::Jump => v(0.15).noise(0.15, 0.2, decay(0.03)).tone(0.25, 220.0, 420.0, false, decay(0.05)).done(),
        SoundId::Land => v(0.2).noise(0.45, 0.05, decay(0.04)).tone(0.45, 90.0, 45.0, false, decay(0.06)).done(),
        SoundId::Gunfire(1) => v(0.12).tone(0.3, 120.0, 100.0, true, decay(0.05)).noise(0.1, 0.3, decay(0.03)).done(),
        SoundId::Gunfire(2) => v(0.09).noise(0.7, 0.5, decay(0.012)).tone(0.2, 180.0, 90.0, false, decay(0.02)).done(),
        SoundId::Gunfire(3) => v(0.3).noise(0.85, 0.25, decay(0.06)).tone(0.3, 90.0, 50.0, false, decay(0.05)).done(),
        SoundId::Gunfire(4) => v(0.2).noise(0.5, 0.1, decay(0.05)).tone(0.4, 140.0, 70.0, false, decay(0.05)).done(),
        SoundId::Gunfire(5) => v(0.45).noise(0.6, 0.08, |t| (t / 0.03).min(1.0) * (-t / 0.15).exp()).tone(0.2, 80.0, 60.0, false, decay(0.1)).done(),
        SoundId::Gunfire(6) => v(0.07).tone(0.3, 90.0, 95.0, true, |_| 1.0).noise(0.15, 0.6, |_| 1.0).done(),
        SoundId::Gunfire(7) => v(0.7).tone(0.45, 1800.0, 250.0, false, decay(0.25)).noise(0.25, 0.4, decay(0.05)).done(),
        SoundId::Gunfire(_) => v(0.12).tone(0.35, 900.0, 700.0, false, decay(0.04)).tone(0.15, 1350.0, 1050.0, false, decay(0.03)).done(),
        SoundId::Explosion => v(1.0).noise(0.9, 0.04, decay(0.25)).tone(0.5, 70.0, 35.0, false, decay(0.3)).done(),
        SoundId::Pickup => v(0.16).tone(0.3, 660.0, 660.0, false, |t| if t < 0.07 { 1.0 } else { 0.0 }).tone(0.3, 990.0, 990.0, false, |t| if t >= 0.07 { (-(t - 0.07) / 0.04).exp() } else { 0.0 }).done(),
        SoundId::Respawn => v(0.3).tone(0.2, 440.0, 880.0, false, |t| (t / 0.05).min(1.0) * (-t / 0.12).exp()).done(),
        SoundId::Pain => v(0.22).tone(0.35, 170.0, 110.0, true, decay(0.08)).noise(0.1, 0.2, decay(0.05)).done(),
        SoundId::JumpPad => v(0.35).tone(0.35, 180.0, 820.0, false, decay(0.15)).done(),
        SoundId::Teleport => v(0.45).tone(0.3, 1200.0, 180.0, false, decay(0.2)).noise(0.2, 0.3, decay(0.15)).done(),
        SoundId::Mover => v(0.35).tone(0.25, 55.0, 50.0, true, |t| (t / 0.05).min(1.0) * (-t / 0.2).exp()).done(),
        SoundId::Hit => v(0.05).tone(0.35, 1400.0, 1400.0, false, decay(0.02)).done(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sound_is_audible_bounded_and_short() {
        for id in SoundId::all() {
            let s = make(id);
            assert!(!s.is_empty() && s.len() <= SAMPLE_RATE as usize, "{id:?}: {} samples", s.len());
            let peak = s.iter().fold(0.0f32, |m, x| m.max(x.abs()));
            assert!(peak > 0.05 && peak <= 0.95, "{id:?}: peak {peak}");
            assert!(s[0].abs() < 1e-3 && s[s.len() - 1].abs() < 1e-2, "{id:?} clicks at an end");
            assert!(s.iter().all(|x| x.is_finite()));
        }
        assert_eq!(make(SoundId::Explosion), make(SoundId::Explosion), "the same every time");
    }
}
