//! Memory: what a bot remembers between decisions.
//!
//! - Enemy tracks: where each enemy was last seen (or heard) and how it was
//!   moving, kept after it leaves sight for a time that scales with the
//!   bot's pursuit trait, then forgotten.
//! - The last attacker (who hit the bot, when, from which direction) and the
//!   last killer.
//! - A blacklist of goals the bot gave up on, so it does not pick the same
//!   unreachable item again at once. It has several entries: with one, bots
//!   ping-pong between two unusable goals.
//!
//! Memory only records; deciding what a memory means is `decide`'s job.

use glam::Vec3;
use quarry_sim::SlotId;
use quarry_sim::components::NetId;

use crate::view::BotClock;

/// How many goals the blacklist holds.
pub const BLACKLIST_SLOTS: usize = 8;

/// How the bot came to know where an enemy is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Knowledge {
    /// It saw the enemy there.
    Seen,
    /// It heard a sound from about there (an estimate).
    Heard,
    /// A teammate said the enemy was about there.
    Reported,
}

/// What the bot knows of one enemy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EnemyTrack {
    /// Who.
    pub slot: SlotId,
    /// Position when last seen or heard.
    pub position: Vec3,
    /// Velocity when last seen (zero if only heard).
    pub velocity: Vec3,
    /// The body point last seen, relative to its origin.
    pub seen_offset: Vec3,
    /// Tick it was last seen (0: never seen, only heard).
    pub seen_tick: u32,
    /// Tick of the last news (seen or heard).
    pub news_tick: u32,
    /// Seen in the latest scan.
    pub visible: bool,
    /// How the last news came.
    pub knowledge: Knowledge,
    /// How far the true position may be from `position`, units (0 when seen).
    pub uncertainty: f32,
}

/// Who hit the bot last.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HitNote {
    /// The attacker.
    pub slot: SlotId,
    /// When.
    pub tick: u32,
    /// The direction the damage travelled (toward the bot), unit or zero.
    pub dir: Vec3,
}

/// A goal the bot may give up on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoalKey {
    /// An item.
    Item(NetId),
    /// Chasing a player.
    Enemy(SlotId),
    /// An objective, by the provider's key.
    Objective(u32),
    /// A roam point, by its rounded position.
    Point(i32, i32, i32),
}

impl GoalKey {
    /// The key of a roam point (rounded to 64-unit cells).
    pub fn point(p: Vec3) -> Self {
        let c = |v: f32| (v / 64.0).round() as i32;
        Self::Point(c(p.x), c(p.y), c(p.z))
    }
}

/// Goals given up on, each until a tick.
#[derive(Debug, Clone, Default)]
pub struct Blacklist {
    entries: [Option<(GoalKey, u32)>; BLACKLIST_SLOTS],
    next: usize,
}

impl Blacklist {
    /// Blacklists `key` until `until`: refreshes its entry, else takes an
    /// expired or empty entry, else overwrites round-robin.
    pub fn add(&mut self, key: GoalKey, until: u32, now: u32) {
        if let Some(e) = self.entries.iter_mut().flatten().find(|(k, _)| *k == key) {
            e.1 = until;
            return;
        }
        if let Some(free) = self.entries.iter_mut().find(|e| e.is_none_or(|(_, t)| t <= now)) {
            *free = Some((key, until));
            return;
        }
        if let Some(e) = self.entries.get_mut(self.next % BLACKLIST_SLOTS) {
            *e = Some((key, until));
        }
        self.next = (self.next + 1) % BLACKLIST_SLOTS;
    }

    /// Whether `key` is blacklisted at `now`.
    pub fn contains(&self, key: GoalKey, now: u32) -> bool {
        self.entries.iter().flatten().any(|&(k, t)| k == key && t > now)
    }

    /// How many entries are live at `now`.
    pub fn live(&self, now: u32) -> usize {
        self.entries.iter().flatten().filter(|(_, t)| *t > now).count()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = Self::default();
    }
}

/// Everything a bot remembers.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    tracks: Vec<EnemyTrack>,
    /// The last hit taken from another player.
    pub last_hit: Option<HitNote>,
    /// Who killed the bot last.
    pub last_killer: Option<SlotId>,
    /// Abandoned goals.
    pub blacklist: Blacklist,
    /// What it believes of the map's items (kept across lives).
    pub items: crate::item_memory::ItemMemory,
}

impl Memory {
    /// Forgets the per-life part (tracks and hits); keeps the killer for revenge.
    pub fn reset_life(&mut self) {
        self.tracks.clear();
        self.last_hit = None;
        self.blacklist.clear();
    }

    /// Marks every track unseen before a new scan.
    pub fn begin_scan(&mut self) {
        for t in &mut self.tracks {
            t.visible = false;
        }
    }

    /// Records a sighting.
    pub fn see(&mut self, slot: SlotId, tick: u32, position: Vec3, velocity: Vec3, seen_offset: Vec3) {
        let t = self.track_mut(slot, position);
        t.position = position;
        t.velocity = velocity;
        t.seen_offset = seen_offset;
        t.seen_tick = tick;
        t.news_tick = tick;
        t.visible = true;
        t.knowledge = Knowledge::Seen;
        t.uncertainty = 0.0;
    }

    /// Records a sound or a hit from `slot` at about `position` (within
    /// `uncertainty` units; no sight: velocity unknown). A sighting in the
    /// latest scan is better news and stays.
    pub fn hear(&mut self, slot: SlotId, tick: u32, position: Vec3, uncertainty: f32) {
        self.news(slot, tick, position, uncertainty, Knowledge::Heard);
    }

    /// Records a teammate's report that `slot` was at about `position` at
    /// `tick` (within `uncertainty` units). Older than what the bot knows
    /// already, it changes nothing.
    pub fn report(&mut self, slot: SlotId, tick: u32, position: Vec3, uncertainty: f32) {
        if self.track(slot).is_some_and(|t| t.news_tick >= tick) {
            return;
        }
        self.news(slot, tick, position, uncertainty, Knowledge::Reported);
    }

    fn news(&mut self, slot: SlotId, tick: u32, position: Vec3, uncertainty: f32, knowledge: Knowledge) {
        let t = self.track_mut(slot, position);
        if !t.visible {
            t.position = position;
            t.velocity = Vec3::ZERO;
            t.knowledge = knowledge;
            t.uncertainty = uncertainty.max(0.0);
        }
        t.news_tick = t.news_tick.max(tick);
    }

    fn track_mut(&mut self, slot: SlotId, position: Vec3) -> &mut EnemyTrack {
        let i = match self.tracks.iter().position(|t| t.slot == slot) {
            Some(i) => i,
            None => {
                self.tracks.push(EnemyTrack {
                    slot,
                    position,
                    velocity: Vec3::ZERO,
                    seen_offset: Vec3::ZERO,
                    seen_tick: 0,
                    news_tick: 0,
                    visible: false,
                    knowledge: Knowledge::Heard,
                    uncertainty: 0.0,
                });
                self.tracks.len() - 1
            }
        };
        &mut self.tracks[i]
    }

    /// Drops tracks with no news for `keep_ms`, and tracks of players for
    /// which `gone` says they left or died.
    pub fn forget(&mut self, clock: &BotClock, keep_ms: f32, gone: impl Fn(SlotId) -> bool) {
        self.tracks
            .retain(|t| !gone(t.slot) && clock.ms_since(t.news_tick) <= keep_ms);
    }

    /// The track of `slot`.
    pub fn track(&self, slot: SlotId) -> Option<&EnemyTrack> {
        self.tracks.iter().find(|t| t.slot == slot)
    }

    /// Every track.
    pub fn tracks(&self) -> &[EnemyTrack] {
        &self.tracks
    }

    /// Records a hit taken.
    pub fn note_hit(&mut self, slot: SlotId, tick: u32, dir: Vec3) {
        self.last_hit = Some(HitNote { slot, tick, dir });
    }

    /// The nearest track to `from` (ties to the lower slot) with news
    /// within `within_ms`, at a distance in `range`, that `keep` accepts.
    pub fn nearest_news(
        &self,
        from: Vec3,
        clock: &BotClock,
        within_ms: f32,
        range: std::ops::RangeInclusive<f32>,
        keep: impl Fn(&EnemyTrack) -> bool,
    ) -> Option<&EnemyTrack> {
        self.tracks
            .iter()
            .filter(|t| keep(t) && clock.ms_since(t.news_tick) <= within_ms)
            .map(|t| (t.position.distance(from), t))
            .filter(|(d, _)| range.contains(d))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.slot.cmp(&b.1.slot)))
            .map(|(_, t)| t)
    }

    /// Milliseconds since `slot` last hit the bot, if it did.
    pub fn ms_since_hit_by(&self, slot: SlotId, clock: &BotClock) -> Option<f32> {
        self.last_hit.filter(|h| h.slot == slot).map(|h| clock.ms_since(h.tick))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blacklist_refreshes_reuses_and_rotates() {
        let mut b = Blacklist::default();
        let item = |i| GoalKey::Item(NetId(i));
        b.add(item(1), 100, 0);
        b.add(item(1), 200, 0);
        assert_eq!(b.live(0), 1, "refreshed, not duplicated");
        assert!(b.contains(item(1), 150));
        assert!(!b.contains(item(1), 200));
        for i in 2..=9 {
            b.add(item(i), 1000, 300);
        }
        // Entry 1 had expired at 300, so 8 fit; the 9th overwrote round-robin.
        assert_eq!(b.live(300), BLACKLIST_SLOTS);
        assert!(b.contains(item(9), 300));
        assert!(b.contains(item(2), 300) || b.contains(item(3), 300));
    }

    #[test]
    fn tracks_fade_and_hearing_keeps_sight_data() {
        let clock = |tick| BotClock { tick, hz: 60 };
        let mut m = Memory::default();
        let s = SlotId(2);
        m.see(s, 60, Vec3::X, Vec3::Y * 100.0, Vec3::Z);
        m.begin_scan();
        m.hear(s, 90, Vec3::new(50.0, 0.0, 0.0), 0.0);
        let t = m.track(s).copied().expect("track");
        assert_eq!((t.seen_tick, t.news_tick), (60, 90));
        assert_eq!((t.position.x, t.knowledge), (50.0, Knowledge::Heard));
        m.report(s, 80, Vec3::new(900.0, 0.0, 0.0), 100.0);
        assert_eq!(m.track(s).map(|t| t.position.x), Some(50.0), "an older report changes nothing");
        m.report(s, 95, Vec3::new(900.0, 0.0, 0.0), 100.0);
        assert_eq!(m.track(s).map(|t| (t.knowledge, t.uncertainty)), Some((Knowledge::Reported, 100.0)));
        m.forget(&clock(120), 1000.0, |_| false);
        assert!(m.track(s).is_some());
        m.forget(&clock(200), 1000.0, |_| false);
        assert!(m.track(s).is_none(), "no news for more than a second");
        m.see(s, 300, Vec3::X, Vec3::ZERO, Vec3::ZERO);
        m.forget(&clock(301), 1000.0, |slot| slot == s);
        assert!(m.tracks().is_empty(), "gone players are dropped");
    }
}
