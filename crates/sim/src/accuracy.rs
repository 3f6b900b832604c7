//! Accuracy by weapon and range: each player's shots, hits, splash hits
//! and damage per weapon and per [`RangeBand`], kept in the
//! [`AccuracyBook`] so an operator can set bots' aim beside people's.
//!
//! The rules:
//!
//! - **A shot's band** is decided when it fires, from the shooter's eye:
//!   among the enemies (living players, not the shooter, not on the
//!   shooter's team in a team game: [`crate::weapons::is_enemy`]) whose
//!   box centre lies within [`TARGET_CONE_DEG`] of the aim direction, the
//!   one nearest the line of fire (the smallest distance from its centre
//!   to the aim ray) sets the band by its distance from the eye
//!   ([`RangeBand::of`]); with none, the shot is
//!   [`RangeBand::Untargeted`]. The boxes are the ones the shot is traced
//!   against (rewound for a remote player's hitscan). There is no
//!   line-of-sight trace: the band costs one pass over the players per
//!   shot and no map query, so an enemy behind a wall inside the cone
//!   still sets it.
//! - **Hitscan** counts each trace: `shots` += traces (a shotgun's
//!   pellets), `hits` += traces that hit an enemy (a rail through two
//!   enemies is one hit).
//! - **Projectiles** count one shot and carry their band
//!   ([`crate::weapons::Projectile::band`]) to the explosion: a direct hit
//!   on an enemy counts one `hits`; otherwise, splash reaching at least one
//!   enemy counts one `splash_hits`. A projectile never counts both, so
//!   splash-only play is told apart from direct hits.
//! - **Damage** is the health and armor enemies lost, credited to the band
//!   of the shot that dealt it ([`crate::combat::DamageRequest::band`]),
//!   after armor, quad and handicap, and nothing where friendly fire or
//!   the phase keeps damage off.
//! - **Melee** (the gauntlet) is left out, as Quake 3 leaves it out of
//!   accuracy.
//!
//! Hits are counted when a trace or explosion reaches an enemy, as
//! `ScoreCard::hits` is; these figures sit beside that card's `shots` and
//! `hits` (one per trigger pull) and do not replace them.
//!
//! A slot's rows start over when its player leaves and when a new one
//! takes the slot, and everyone's when the match goes live, as the
//! `ScoreCard` does; a new match has a new book.
//!
//! What it must not do: change play or be read by it. The book is left out
//! of the state hash, so what it counts never moves a golden hash, and it
//! never asks what kind of client holds a slot (the server labels humans
//! and bots when it reports the figures).

use bevy_ecs::prelude::*;
use glam::Vec3;

use crate::components::MAX_WEAPONS;
use crate::scene::Obstacle;
use crate::slots::{MAX_SLOTS, SlotId};

/// Half-angle of the cone around the aim in which an enemy counts as the
/// shot's target, degrees: wide enough for a lead on a moving target or a
/// rough aim, narrow enough that someone off to the side does not band a
/// shot fired at nothing.
pub const TARGET_CONE_DEG: f32 = 30.0;
/// Nearer than this is [`RangeBand::Close`], units: where a shotgun's
/// pellets (±700 units at 8192, so ±26 at 300) still fall on a player's
/// 30-unit-wide box.
pub const CLOSE_BELOW: f32 = 300.0;
/// Farther than this is [`RangeBand::Far`], units: past the lightning
/// gun's reach (768), where the machinegun's spread (±20 units at 800)
/// outgrows a player's box.
pub const FAR_ABOVE: f32 = 800.0;

/// How far a shot's target was, in the bands the figures are kept by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RangeBand {
    /// Nearer than [`CLOSE_BELOW`].
    Close,
    /// From [`CLOSE_BELOW`] to [`FAR_ABOVE`], both included.
    Mid,
    /// Farther than [`FAR_ABOVE`].
    Far,
    /// No enemy within [`TARGET_CONE_DEG`] of the aim.
    Untargeted,
}

impl RangeBand {
    /// Every band, in the order figures are kept and reported.
    pub const ALL: [Self; 4] = [Self::Close, Self::Mid, Self::Far, Self::Untargeted];

    /// The band of a target `distance` units from the eye (`Untargeted`
    /// for a distance that is not a number).
    pub fn of(distance: f32) -> Self {
        if distance < CLOSE_BELOW {
            Self::Close
        } else if distance <= FAR_ABOVE {
            Self::Mid
        } else if distance > FAR_ABOVE {
            Self::Far
        } else {
            Self::Untargeted
        }
    }

    /// The stable lower-case name logs and metrics use (`close`, `mid`,
    /// `far`, `untargeted`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Close => "close",
            Self::Mid => "mid",
            Self::Far => "far",
            Self::Untargeted => "untargeted",
        }
    }

    /// Position in [`RangeBand::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The band of a shot fired from `eye` along `forward` (unit length) by
/// `shooter`, among `boxes` (living players' boxes), where `enemy` says
/// who is an enemy of the shooter. Ties go to the lower slot.
pub fn band_of_shot(eye: Vec3, forward: Vec3, shooter: SlotId, boxes: &[Obstacle], enemy: impl Fn(SlotId) -> bool) -> RangeBand {
    let cos_cone = TARGET_CONE_DEG.to_radians().cos();
    let mut best: Option<(f32, f32)> = None;
    for o in boxes.iter().filter(|o| o.slot != shooter && enemy(o.slot)) {
        let to = o.origin + (o.mins + o.maxs) * 0.5 - eye;
        let distance = to.length();
        let along = to.dot(forward);
        if distance <= 0.0 || along < distance * cos_cone {
            continue;
        }
        let off_line = (to - forward * along).length();
        if best.is_none_or(|(b, _)| off_line < b) {
            best = Some((off_line, distance));
        }
    }
    best.map_or(RangeBand::Untargeted, |(_, distance)| RangeBand::of(distance))
}

/// One weapon's figures in one band.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct BandFigures {
    /// Traces fired (each pellet) or projectiles launched.
    pub shots: u32,
    /// Traces that hit an enemy, or projectiles that struck one directly.
    pub hits: u32,
    /// Projectiles whose splash reached an enemy without a direct hit.
    pub splash_hits: u32,
    /// Health and armor enemies lost to these shots.
    pub damage: u32,
}

impl BandFigures {
    /// Nothing counted.
    pub const ZERO: Self = Self { shots: 0, hits: 0, splash_hits: 0, damage: 0 };

    /// Whether nothing was counted.
    pub fn is_zero(&self) -> bool {
        *self == Self::ZERO
    }

    /// Each figure of `self` less the same figure of `before` (0 where it
    /// is not larger): what was counted since `before` was read.
    pub fn since(&self, before: &Self) -> Self {
        Self {
            shots: self.shots.saturating_sub(before.shots),
            hits: self.hits.saturating_sub(before.hits),
            splash_hits: self.splash_hits.saturating_sub(before.splash_hits),
            damage: self.damage.saturating_sub(before.damage),
        }
    }
}

/// One weapon's figures, per band (indexed by [`RangeBand::index`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WeaponAccuracy {
    /// Figures per band, in [`RangeBand::ALL`] order.
    pub bands: [BandFigures; 4],
}

impl WeaponAccuracy {
    /// Nothing counted.
    pub const ZERO: Self = Self { bands: [BandFigures::ZERO; 4] };

    /// The figures of `band`.
    pub fn band(&self, band: RangeBand) -> &BandFigures {
        &self.bands[band.index()]
    }

    /// Whether nothing was counted in any band.
    pub fn is_zero(&self) -> bool {
        self.bands.iter().all(BandFigures::is_zero)
    }
}

/// One slot's figures for every weapon, with what a reader of deltas needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotAccuracy {
    /// Per weapon number (`0..MAX_WEAPONS`).
    pub weapons: [WeaponAccuracy; MAX_WEAPONS],
    /// How many times the row started over (a changed value: the figures
    /// count from zero again, for someone else or a new match phase).
    pub started: u32,
    /// Changes since the book was made (wrapping): an unchanged value
    /// means unchanged figures, so a reader can skip the row.
    pub revision: u32,
}

impl SlotAccuracy {
    /// Nothing counted.
    pub const ZERO: Self = Self { weapons: [WeaponAccuracy::ZERO; MAX_WEAPONS], started: 0, revision: 0 };

    /// The figures of weapon number `weapon` (zeros for a number past the table).
    pub fn weapon(&self, weapon: u8) -> &WeaponAccuracy {
        self.weapons.get(usize::from(weapon)).unwrap_or(&WeaponAccuracy::ZERO)
    }

    /// Weapons with anything counted, by number, in number order.
    pub fn used(&self) -> impl Iterator<Item = (u8, &WeaponAccuracy)> {
        self.weapons.iter().enumerate().filter(|(_, w)| !w.is_zero()).map(|(n, w)| (n as u8, w))
    }
}

/// Every slot's accuracy this match; not hashed, never read by play.
#[derive(Resource, Debug, Clone, Default)]
pub struct AccuracyBook {
    /// Per slot index; grows to the highest slot counted.
    rows: Vec<SlotAccuracy>,
    /// Changes to any row (wrapping).
    revision: u64,
}

static EMPTY_ROW: SlotAccuracy = SlotAccuracy::ZERO;

impl AccuracyBook {
    /// A slot's figures (zeros for a slot with none).
    pub fn slot(&self, slot: SlotId) -> &SlotAccuracy {
        self.rows.get(usize::from(slot.0)).unwrap_or(&EMPTY_ROW)
    }

    /// Every row made so far with its slot, in slot order (rows of empty
    /// slots read as zeros).
    pub fn rows(&self) -> impl Iterator<Item = (SlotId, &SlotAccuracy)> {
        self.rows.iter().enumerate().map(|(i, r)| (SlotId(i as u8), r))
    }

    /// Changes to any row since the book was made (wrapping): unchanged,
    /// every row is unchanged, so a reader of deltas can skip the book.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// A slot's row, made on first use.
    fn row_mut(&mut self, slot: SlotId) -> Option<&mut SlotAccuracy> {
        let index = usize::from(slot.0);
        if index >= MAX_SLOTS {
            return None;
        }
        if self.rows.len() <= index {
            self.rows.resize(index + 1, SlotAccuracy::ZERO);
        }
        self.rows.get_mut(index)
    }

    /// Starts a slot's figures over (its player left, or someone new took it).
    pub fn start_over(&mut self, slot: SlotId) {
        if let Some(row) = self.row_mut(slot) {
            row.weapons = [WeaponAccuracy::ZERO; MAX_WEAPONS];
            row.started = row.started.wrapping_add(1);
            row.revision = row.revision.wrapping_add(1);
            self.revision = self.revision.wrapping_add(1);
        }
    }

    /// Starts every slot's figures over (the match went live).
    pub fn start_over_all(&mut self) {
        for i in 0..self.rows.len() {
            self.start_over(SlotId(i as u8));
        }
    }

    /// Changes the figures of `weapon` in `band` for `slot` (nothing for a
    /// slot or weapon number out of range).
    fn edit(&mut self, slot: SlotId, weapon: u8, band: RangeBand, f: impl FnOnce(&mut BandFigures)) {
        let Some(row) = self.row_mut(slot) else { return };
        let Some(w) = row.weapons.get_mut(usize::from(weapon)) else { return };
        f(&mut w.bands[band.index()]);
        row.revision = row.revision.wrapping_add(1);
        self.revision = self.revision.wrapping_add(1);
    }

    /// Counts one hitscan trigger pull: one shot per trace in `rays`, each
    /// listing the players it hit, and one hit per trace that hit an enemy.
    pub fn count_hitscan<'a>(
        &mut self,
        shooter: SlotId,
        weapon: u8,
        band: RangeBand,
        rays: impl IntoIterator<Item = &'a [SlotId]>,
        enemy: impl Fn(SlotId) -> bool,
    ) {
        let (mut shots, mut hits) = (0u32, 0u32);
        for ray in rays {
            shots = shots.saturating_add(1);
            hits = hits.saturating_add(u32::from(ray.iter().any(|&t| enemy(t))));
        }
        self.edit(shooter, weapon, band, |f| {
            f.shots = f.shots.saturating_add(shots);
            f.hits = f.hits.saturating_add(hits);
        });
    }

    /// Counts one projectile launched in `band`.
    pub fn count_launch(&mut self, shooter: SlotId, weapon: u8, band: RangeBand) {
        self.edit(shooter, weapon, band, |f| f.shots = f.shots.saturating_add(1));
    }

    /// Counts one explosion of a projectile fired in `band`: a hit if it
    /// struck an enemy (`direct`), else a splash hit if its splash reached
    /// one (`splashed`).
    pub fn count_blast(
        &mut self,
        owner: SlotId,
        weapon: u8,
        band: RangeBand,
        direct: Option<SlotId>,
        splashed: impl IntoIterator<Item = SlotId>,
        enemy: impl Fn(SlotId) -> bool,
    ) {
        if direct.is_some_and(&enemy) {
            self.edit(owner, weapon, band, |f| f.hits = f.hits.saturating_add(1));
        } else if splashed.into_iter().any(&enemy) {
            self.edit(owner, weapon, band, |f| f.splash_hits = f.splash_hits.saturating_add(1));
        }
    }

    /// Counts `amount` health and armor an enemy lost to a shot of `band`.
    pub fn count_damage(&mut self, attacker: SlotId, weapon: u8, band: RangeBand, amount: u32) {
        if amount > 0 {
            self.edit(attacker, weapon, band, |f| f.damage = f.damage.saturating_add(amount));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ob(slot: u8, x: f32, y: f32) -> Obstacle {
        Obstacle { slot: SlotId(slot), origin: Vec3::new(x, y, 0.0), mins: Vec3::new(-15.0, -15.0, -24.0), maxs: Vec3::new(15.0, 15.0, 32.0) }
    }

    /// The eye level with the box centres (origin z + 4).
    const EYE: Vec3 = Vec3::new(0.0, 0.0, 4.0);

    #[test]
    fn bands_split_at_300_and_800() {
        let bands: Vec<&str> = [0.0, 299.9, 300.0, 800.0, 800.1, 1e6, f32::NAN].map(|d| RangeBand::of(d).name()).to_vec();
        assert_eq!(bands, ["close", "close", "mid", "mid", "far", "far", "untargeted"]);
        assert_eq!(RangeBand::ALL.map(RangeBand::index), [0, 1, 2, 3]);
    }

    #[test]
    fn the_enemy_nearest_the_line_of_fire_within_the_cone_sets_the_band() {
        let all = |_: SlotId| true;
        // Slot 1 at 200 units 25° off the aim; slot 2 at 1000 units 3° off:
        // slot 2 is nearer the line of fire (52 units to slot 1's 85).
        let (a, b) = (25f32.to_radians(), 3f32.to_radians());
        let boxes = [ob(0, 0.0, 0.0), ob(1, 200.0 * a.cos(), 200.0 * a.sin()), ob(2, 1000.0 * b.cos(), 1000.0 * b.sin())];
        assert_eq!(band_of_shot(EYE, Vec3::X, SlotId(0), &boxes, all), RangeBand::Far);
        // Without slot 2, slot 1 (inside 30°) sets it.
        assert_eq!(band_of_shot(EYE, Vec3::X, SlotId(0), &boxes[..2], all), RangeBand::Close);
        // 35° off is outside the cone; behind is too.
        let c = 35f32.to_radians();
        let outside = [ob(1, 500.0 * c.cos(), 500.0 * c.sin()), ob(2, -400.0, 0.0)];
        assert_eq!(band_of_shot(EYE, Vec3::X, SlotId(0), &outside, all), RangeBand::Untargeted);
        // The shooter is never its own target.
        assert_eq!(band_of_shot(EYE, Vec3::X, SlotId(0), &[ob(0, 500.0, 0.0)], all), RangeBand::Untargeted);
    }

    #[test]
    fn teammates_are_ignored() {
        // Slot 1, a teammate, is on the line of fire at 100; slot 2, an enemy, 10° off at 500.
        let d = 10f32.to_radians();
        let boxes = [ob(1, 100.0, 0.0), ob(2, 500.0 * d.cos(), 500.0 * d.sin())];
        let enemy = |s: SlotId| s != SlotId(1);
        assert_eq!(band_of_shot(EYE, Vec3::X, SlotId(0), &boxes, enemy), RangeBand::Mid);
        assert_eq!(band_of_shot(EYE, Vec3::X, SlotId(0), &boxes[..1], enemy), RangeBand::Untargeted);
    }

    #[test]
    fn pellets_count_one_shot_each_and_a_hit_each_that_struck_an_enemy() {
        let mut book = AccuracyBook::default();
        let (me, mate, foe) = (SlotId(0), SlotId(1), SlotId(2));
        let enemy = |s: SlotId| s == foe;
        // 11 pellets: 4 on the enemy, 2 on a teammate, one through both, 4 on nothing.
        let mut rays: Vec<Vec<SlotId>> = vec![vec![foe]; 4];
        rays.extend([vec![mate], vec![mate], vec![mate, foe]]);
        rays.extend(std::iter::repeat_n(Vec::new(), 4));
        book.count_hitscan(me, 3, RangeBand::Close, rays.iter().map(Vec::as_slice), enemy);
        // A rail through the teammate and the enemy: one shot, one hit.
        book.count_hitscan(me, 7, RangeBand::Far, [[mate, foe].as_slice()], enemy);
        let row = book.slot(me);
        assert_eq!(*row.weapon(3).band(RangeBand::Close), BandFigures { shots: 11, hits: 5, ..BandFigures::ZERO });
        assert_eq!(*row.weapon(7).band(RangeBand::Far), BandFigures { shots: 1, hits: 1, ..BandFigures::ZERO });
        assert_eq!(row.used().map(|(n, _)| n).collect::<Vec<_>>(), [3, 7]);
    }

    #[test]
    fn a_direct_hit_and_splash_only_are_counted_apart() {
        let mut book = AccuracyBook::default();
        let (me, mate, foe) = (SlotId(0), SlotId(1), SlotId(2));
        let enemy = |s: SlotId| s == foe;
        let band = RangeBand::Mid;
        for _ in 0..3 {
            book.count_launch(me, 5, band);
        }
        // Direct on the enemy (splash on the shooter too): one hit, no splash hit.
        book.count_blast(me, 5, band, Some(foe), [me], enemy);
        // Splash only, reaching the enemy: one splash hit.
        book.count_blast(me, 5, band, None, [mate, foe], enemy);
        // Direct on a teammate, splash on nobody else; then the shooter alone: nothing.
        book.count_blast(me, 5, band, Some(mate), [], enemy);
        book.count_blast(me, 5, band, None, [me], enemy);
        assert_eq!(*book.slot(me).weapon(5).band(band), BandFigures { shots: 3, hits: 1, splash_hits: 1, damage: 0 });
    }

    #[test]
    fn damage_is_kept_per_band_and_a_slot_starts_over() {
        let mut book = AccuracyBook::default();
        let me = SlotId(4);
        book.count_damage(me, 2, RangeBand::Close, 14);
        book.count_damage(me, 2, RangeBand::Far, 7);
        book.count_damage(me, 2, RangeBand::Far, 0);
        book.count_damage(me, 99, RangeBand::Far, 5);
        book.count_damage(SlotId(200), 2, RangeBand::Far, 5);
        let row = *book.slot(me);
        let damage = RangeBand::ALL.map(|b| row.weapon(2).band(b).damage);
        assert_eq!(damage, [14, 0, 7, 0]);
        assert_eq!(row.revision, 2, "only real changes count");
        assert_eq!(book.revision(), 2);
        book.start_over(me);
        assert!(book.slot(me).used().next().is_none());
        assert_eq!(book.slot(me).started, 1);
        assert_ne!(book.slot(me).revision, row.revision);
        assert_eq!(*book.slot(SlotId(9)), SlotAccuracy::ZERO, "a slot never counted reads as zeros");
    }
}
