//! Perception: what a bot may know about other players, and when.
//!
//! A bot notices an enemy only inside its sight range and field of view,
//! and only with a clear line from its eye to one of several points on the
//! enemy's body (chest first, then head, pelvis and both sides of chest and
//! pelvis), so a shoulder past a corner is seen and nothing is seen through
//! a wall. Being shot tells a bot where to look (the field of view is
//! waived for a recent attacker), but the attacker still needs line of
//! sight to become known. Every acquisition earns a reaction delay before
//! the trigger is allowed: longer off-centre (peripheral penalty), shorter
//! when re-acquiring someone just lost (re-acquire fraction).
//!
//! The functions here are pure over positions and a [`Trace`]; the scan
//! over a [`BotView`] spends at most a fixed number of line-of-sight
//! checks per decision, nearest candidates first.
//!
//! Hearing ([`hearing`]) turns sounds into position estimates with an error
//! that grows with distance; noticing ([`notice`]) rolls whether an enemy in
//! view is noticed at all, and a reaction ring makes the bot act on what it
//! noticed a reaction time ago.
//!
//! What it must not do: read anything the player could not see (no
//! positions of unseen players leave this module except through damage
//! and sound events, which a player gets too, and then only as estimates).

use glam::Vec3;
use quarry_map::{Contents, Trace};
use quarry_sim::SlotId;
use quarry_sim::components::Powerups;

use crate::content::Traits;
use crate::memory::Memory;
use crate::view::{BotView, PlayerSnap};

mod events;
pub mod hearing;
pub mod notice;
mod senses;

pub use events::{HeardSound, Percept, SeenAttacker, carries, percepts, percepts_hearing};
pub use senses::Senses;

/// Heights of the sample points as fractions of the body height, from the
/// feet: chest, head, pelvis (the chest first: the likeliest to be seen).
const SAMPLE_HEIGHTS: [f32; 3] = [0.62, 0.84, 0.38];
/// Sideways offset of the side samples, as a fraction of the body's smaller width.
const SIDE_FRACTION: f32 = 0.32;
/// How long after a hit the attacker counts as "in view" regardless of the FOV, ms.
const ATTACKER_FOV_WAIVER_MS: f32 = 1500.0;
/// An invisible enemy is noticed only within this distance while firing…
const INVISIBLE_FIRING_RANGE: f32 = 700.0;
/// …or after it hit the bot within this many ms.
const INVISIBLE_HIT_MS: f32 = 1200.0;

/// Where a body is: box and facing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyBox {
    /// Box origin.
    pub origin: Vec3,
    /// Box mins relative to origin.
    pub mins: Vec3,
    /// Box maxs relative to origin.
    pub maxs: Vec3,
    /// Facing yaw in degrees (the sides are along its right vector).
    pub yaw: f32,
}

impl BodyBox {
    /// The box of a player snapshot.
    pub fn of(p: &PlayerSnap) -> Self {
        Self {
            origin: p.origin,
            mins: p.mins,
            maxs: p.maxs,
            yaw: p.yaw,
        }
    }
}

/// The seven points tested for line of sight, in test order: chest, head,
/// pelvis, chest left/right, pelvis left/right. All inside the box.
pub fn sample_points(b: &BodyBox) -> [Vec3; 7] {
    let height = (b.maxs.z - b.mins.z).max(1.0);
    let base = b.origin.z + b.mins.z;
    let center = b.origin + (b.mins + b.maxs) * 0.5;
    let half = (b.maxs - b.mins) * 0.5;
    let (sy, cy) = b.yaw.to_radians().sin_cos();
    let right = Vec3::new(sy, -cy, 0.0);
    let width = (b.maxs.x - b.mins.x).min(b.maxs.y - b.mins.y);
    let side = right * (SIDE_FRACTION * width);
    // Keep the side points half a unit inside the box.
    let inside = |p: Vec3| {
        let lo = center - half + Vec3::splat(0.5);
        let hi = center + half - Vec3::splat(0.5);
        Vec3::new(p.x.clamp(lo.x, hi.x.max(lo.x)), p.y.clamp(lo.y, hi.y.max(lo.y)), p.z)
    };
    let at = |frac: f32| Vec3::new(center.x, center.y, base + height * frac);
    let (chest, head, pelvis) = (at(SAMPLE_HEIGHTS[0]), at(SAMPLE_HEIGHTS[1]), at(SAMPLE_HEIGHTS[2]));
    [
        chest,
        head,
        pelvis,
        inside(chest - side),
        inside(chest + side),
        inside(pelvis - side),
        inside(pelvis + side),
    ]
}

/// The first sample point of `target` the eye has a clear line to (map
/// only: players do not hide each other), or `None` when fully hidden.
pub fn visible_point<T: Trace + ?Sized>(trace: &T, eye: Vec3, target: &BodyBox) -> Option<Vec3> {
    sample_points(target).into_iter().find(|&p| clear_line(trace, eye, p))
}

/// Whether a point-sized line from `a` to `b` crosses nothing shot-solid.
pub fn clear_line<T: Trace + ?Sized>(trace: &T, a: Vec3, b: Vec3) -> bool {
    trace.line_is_clear(a, b, Contents::MASK_SHOT)
}

/// The unit view direction for `pitch`/`yaw` in degrees (Quake: pitch down positive).
pub fn forward(pitch: f32, yaw: f32) -> Vec3 {
    let (sp, cp) = pitch.to_radians().sin_cos();
    let (sy, cy) = yaw.to_radians().sin_cos();
    Vec3::new(cp * cy, cp * sy, -sp)
}

/// Angle between the view direction and the direction from `eye` to `point`, degrees.
pub fn off_axis_deg(view_forward: Vec3, eye: Vec3, point: Vec3) -> f32 {
    let d = (point - eye).normalize_or_zero();
    if d == Vec3::ZERO {
        return 0.0;
    }
    view_forward.dot(d).clamp(-1.0, 1.0).acos().to_degrees()
}

/// Whether `point` is inside a view cone `fov_deg` wide (full angle).
pub fn in_fov(view_forward: Vec3, eye: Vec3, point: Vec3, fov_deg: f32) -> bool {
    if fov_deg >= 360.0 {
        return true;
    }
    off_axis_deg(view_forward, eye, point) <= (fov_deg * 0.5).clamp(1.0, 180.0)
}

/// The reaction delay for one acquisition, ms: base (full when fresh, the
/// re-acquire fraction otherwise) plus the rolled jitter (`jitter` in
/// -1..=1) plus the peripheral penalty for `off_axis` degrees, all scaled
/// by initiative. Never negative.
pub fn reaction_delay_ms(t: &Traits, off_axis: f32, fresh: bool, jitter: f32) -> f32 {
    let periph = t.peripheral_penalty_msec * (off_axis / t.peripheral_angle.max(1.0)).clamp(0.0, 1.0);
    let base = if fresh {
        t.reaction_msec
    } else {
        t.reaction_msec * t.reacquire_fraction
    };
    ((base + jitter.clamp(-1.0, 1.0) * t.reaction_variance_msec + periph) * t.reaction_scale()).max(0.0)
}

/// An enemy seen in this scan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sighting {
    /// Who.
    pub slot: SlotId,
    /// The sample point that was seen, relative to the enemy's origin.
    pub seen_offset: Vec3,
    /// Distance from the eye, units.
    pub distance: f32,
    /// Angle off the view centre, degrees.
    pub off_axis: f32,
}

/// Scans for enemies `me` can see, spending at most `budget` line-of-sight
/// checks (the current target first, then nearest first). `ignored` are
/// players bots must not target (a no-target flag). Returns the checks spent.
#[expect(clippy::too_many_arguments, reason = "one scan with everything it reads")]
pub fn scan(
    view: &BotView<'_>,
    me: &PlayerSnap,
    traits: &Traits,
    memory: &Memory,
    current: Option<SlotId>,
    ignored: &[SlotId],
    budget: usize,
    out: &mut Vec<Sighting>,
) -> usize {
    out.clear();
    let fwd = forward(me.pitch, me.yaw);
    let range2 = traits.sight_range * traits.sight_range;
    let mut candidates: Vec<(f32, &PlayerSnap)> = Vec::new();
    for p in view.iter_players() {
        if !p.alive || !view.is_enemy(me, p) || ignored.contains(&p.slot) {
            continue;
        }
        let d2 = p.center().distance_squared(me.eye);
        if d2 > range2 {
            continue;
        }
        let hit_me_ms = memory.ms_since_hit_by(p.slot, &view.clock);
        if Powerups::active(p.powerups.invis, view.clock.tick) {
            let close_and_firing = p.attacking && d2 < INVISIBLE_FIRING_RANGE * INVISIBLE_FIRING_RANGE;
            if !close_and_firing && hit_me_ms.is_none_or(|ms| ms > INVISIBLE_HIT_MS) {
                continue;
            }
        }
        let waived = hit_me_ms.is_some_and(|ms| ms <= ATTACKER_FOV_WAIVER_MS);
        if !waived && !in_fov(fwd, me.eye, p.center(), traits.fov) {
            continue;
        }
        // The current target sorts first so it is always checked.
        let key = if Some(p.slot) == current { -1.0 } else { d2 };
        candidates.push((key, p));
    }
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.slot.cmp(&b.1.slot)));
    let world = view.map.world();
    let spent = candidates.len().min(budget);
    for (_, p) in candidates.into_iter().take(budget) {
        let body = BodyBox::of(p);
        if let Some(point) = visible_point(world, me.eye, &body) {
            out.push(Sighting {
                slot: p.slot,
                seen_offset: point - p.origin,
                distance: point.distance(me.eye),
                off_axis: off_axis_deg(fwd, me.eye, point),
            });
        }
    }
    spent
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_map::{LoadOptions, load_str};

    fn block(lo: Vec3, hi: Vec3) -> String {
        quarry_map::source::box_brush(lo, hi, "quarry/wall")
    }

    /// A floor with one wall: x 96..128, y -40..40 (narrower than a body is
    /// long when seen along y), 200 tall.
    fn wall_map() -> quarry_map::LoadedMap {
        let text = format!(
            "{{\n\"classname\" \"worldspawn\"\n{}{}}}\n{{\n\"classname\" \"info_player_deathmatch\"\n\"origin\" \"0 -300 25\"\n}}\n",
            block(Vec3::new(-512.0, -512.0, -16.0), Vec3::new(512.0, 512.0, 0.0)),
            block(Vec3::new(96.0, -12.0, 0.0), Vec3::new(128.0, 12.0, 200.0)),
        );
        load_str(&text, "wall.map", &LoadOptions::default()).expect("test map loads")
    }

    fn body(x: f32, y: f32, yaw: f32) -> BodyBox {
        BodyBox {
            origin: Vec3::new(x, y, 24.0),
            mins: Vec3::new(-15.0, -15.0, -24.0),
            maxs: Vec3::new(15.0, 15.0, 32.0),
            yaw,
        }
    }

    #[test]
    fn nothing_is_seen_through_a_wall() {
        let map = wall_map();
        let eye = Vec3::new(0.0, 0.0, 50.0);
        // Straight behind a wall wider than the body: hidden.
        let behind = BodyBox {
            origin: Vec3::new(300.0, 0.0, 24.0),
            mins: Vec3::new(-8.0, -8.0, -24.0),
            maxs: Vec3::new(8.0, 8.0, 32.0),
            yaw: 90.0,
        };
        assert_eq!(visible_point(&map, eye, &behind), None);
        // In the open: the chest is seen first.
        let open = body(300.0, 200.0, 0.0);
        let p = visible_point(&map, eye, &open).expect("seen in the open");
        assert!((p.z - (open.origin.z - 24.0 + 56.0 * 0.62)).abs() < 1e-3);
    }

    #[test]
    fn a_shoulder_past_the_wall_is_seen() {
        let map = wall_map();
        let eye = Vec3::new(0.0, 0.0, 50.0);
        // Centre hidden behind the wall's edge; the side facing +y shows.
        // Facing +x (yaw 0): its right vector is -y, its left +y.
        let peek = body(300.0, 30.0, 0.0);
        let centre_clear = clear_line(&map, eye, sample_points(&peek)[0]);
        assert!(!centre_clear, "the chest is behind the wall");
        let p = visible_point(&map, eye, &peek).expect("a side sample is seen");
        assert!(p.y > peek.origin.y, "it is the side sticking out: {p:?}");
    }

    #[test]
    fn field_of_view_and_off_axis() {
        let eye = Vec3::ZERO;
        let fwd = forward(0.0, 0.0);
        assert!(in_fov(fwd, eye, Vec3::new(100.0, 90.0, 0.0), 90.0));
        assert!(!in_fov(fwd, eye, Vec3::new(100.0, 110.0, 0.0), 90.0));
        assert!(in_fov(fwd, eye, Vec3::new(-100.0, 0.0, 0.0), 360.0));
        assert!((off_axis_deg(fwd, eye, Vec3::new(0.0, 5.0, 0.0)) - 90.0).abs() < 1e-3);
        let down = forward(90.0, 0.0);
        assert!(down.z < -0.99, "positive pitch looks down");
    }

    #[test]
    fn reaction_has_peripheral_penalty_and_reacquire_discount() {
        let t = Traits::at_skill(3.0);
        let centred = reaction_delay_ms(&t, 0.0, true, 0.0);
        assert!((centred - 320.0 * 0.92).abs() < 1e-2);
        let side = reaction_delay_ms(&t, 90.0, true, 0.0);
        assert!(
            (side - (320.0 + 240.0) * 0.92).abs() < 1e-2,
            "full penalty beyond the peripheral angle"
        );
        let again = reaction_delay_ms(&t, 0.0, false, 0.0);
        assert!((again - 320.0 * 0.7 * 0.92).abs() < 1e-2);
        assert_eq!(
            reaction_delay_ms(
                &Traits {
                    reaction_msec: 0.0,
                    ..t
                },
                0.0,
                true,
                -1.0
            ),
            0.0
        );
        let s1 = Traits::at_skill(1.0);
        let s5 = Traits::at_skill(5.0);
        assert!(reaction_delay_ms(&s5, 30.0, true, 0.0) < reaction_delay_ms(&s1, 30.0, true, 0.0));
    }
}
