//! The sound device, through kira (the `audio` cargo feature): every
//! sound of [`super::synth`] made once at start, then played with the
//! volume and pan [`super::sound::SoundDirector`] gives it.

use std::collections::BTreeMap;
use std::sync::Arc;

use kira::sound::static_sound::{StaticSoundData, StaticSoundSettings};
use kira::{AudioManager, AudioManagerSettings, Decibels, DefaultBackend, Frame, Panning};

use super::sound::AudioOut;
use super::synth::{self, SAMPLE_RATE, SoundId};

/// The sound device, open, with the sounds made.
pub struct Speakers {
    manager: AudioManager<DefaultBackend>,
    bank: BTreeMap<SoundId, StaticSoundData>,
}

impl std::fmt::Debug for Speakers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Speakers").field("sounds", &self.bank.len()).finish_non_exhaustive()
    }
}

impl Speakers {
    /// Opens the default sound device; the error says why there is none.
    pub fn open() -> Result<Self, String> {
        let manager = AudioManager::<DefaultBackend>::new(AudioManagerSettings::default()).map_err(|e| e.to_string())?;
        let bank = SoundId::all()
            .into_iter()
            .map(|id| {
                let frames: Arc<[Frame]> = synth::make(id).into_iter().map(|s| Frame { left: s, right: s }).collect();
                (id, StaticSoundData { sample_rate: SAMPLE_RATE, frames, settings: StaticSoundSettings::default(), slice: None })
            })
            .collect();
        Ok(Speakers { manager, bank })
    }
}

impl AudioOut for Speakers {
    fn play(&mut self, id: SoundId, volume: f32, pan: f32) {
        let Some(data) = self.bank.get(&id) else { return };
        let db = if volume <= 0.001 { Decibels::SILENCE.0 } else { 20.0 * volume.log10() };
        let sound = data.volume(Decibels(db)).panning(Panning(pan.clamp(-1.0, 1.0)));
        if let Err(e) = self.manager.play(sound) {
            tracing::debug!("a sound did not play: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_machine_without_a_sound_device_gets_a_message_not_a_panic() {
        match Speakers::open() {
            Ok(mut speakers) => {
                assert_eq!(speakers.bank.len(), SoundId::all().len());
                speakers.play(SoundId::Hit, 0.0, 0.0);
            }
            Err(why) => assert!(!why.is_empty()),
        }
    }
}
