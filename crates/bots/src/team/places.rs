//! [`Places`]: names for points of a map, as players say them in team chat.
//!
//! A map's own `target_location` entities (their `message`: "Red Base")
//! name it first: the nearest one with a clear line to the point, else the
//! nearest (Quake 3's team overlay does the same). A map without them is
//! named by its landmarks: the flag bases ("the red base"), weapons ("the
//! railgun"), armor, mega health and powerups ("the quad"), the nearest
//! within [`LANDMARK_RANGE`]; farther than that from any, a point has no
//! name and lines that need `$place` are not used.

use glam::Vec3;
use quarry_map::{Contents, LoadedMap, Trace};
use quarry_sim::Team;
use quarry_sim::items::{Gift, PowerupKind};

use crate::view::BotView;

/// A landmark names points this far from it, units.
pub const LANDMARK_RANGE: f32 = 1200.0;
/// At most this many of the nearest locations are tried for a clear line.
const SIGHT_TRIES: usize = 4;
/// The longest place name kept, characters.
const MAX_NAME: usize = 40;

/// The named points of one map.
#[derive(Debug, Clone, Default)]
pub struct Places {
    /// The map's own location names, with where they are.
    locations: Vec<(String, Vec3)>,
    /// Landmarks (items, bases), with where they are.
    landmarks: Vec<(String, Vec3)>,
}

impl Places {
    /// The places of the match in `view`: its map's locations, else its
    /// landmarks.
    pub fn of(view: &BotView<'_>) -> Self {
        let locations = map_locations(view.map);
        let mut landmarks: Vec<(String, Vec3)> = view
            .mode
            .bases
            .iter()
            .filter_map(|(team, at)| {
                let colour = match team {
                    Team::Red => "red",
                    Team::Blue => "blue",
                    _ => return None,
                };
                Some((format!("the {colour} base"), *at))
            })
            .collect();
        for item in view.items.iter().filter(|i| !i.dropped) {
            if let Some(name) = landmark_name(item.gift, view.weapons) {
                landmarks.push((name, item.origin));
            }
        }
        Self { locations, landmarks }
    }

    /// Whether the map names its own places.
    pub fn has_locations(&self) -> bool {
        !self.locations.is_empty()
    }

    /// The name of the place around `point`, if it has one.
    pub fn name<T: Trace + ?Sized>(&self, trace: &T, point: Vec3) -> Option<String> {
        if !self.locations.is_empty() {
            let mut near: Vec<&(String, Vec3)> = self.locations.iter().collect();
            near.sort_by(|a, b| a.1.distance_squared(point).total_cmp(&b.1.distance_squared(point)).then(a.0.cmp(&b.0)));
            let eye = point + Vec3::Z * 24.0;
            let seen = near.iter().take(SIGHT_TRIES).find(|(_, at)| {
                trace.line_is_clear(eye, *at, Contents::MASK_SHOT)
            });
            return seen.or(near.first()).map(|(n, _)| n.clone());
        }
        self.landmarks
            .iter()
            .map(|(n, at)| (n, at.distance(point)))
            .filter(|(_, d)| *d <= LANDMARK_RANGE)
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(b.0)))
            .map(|(n, _)| n.clone())
    }
}

/// The map's `target_location` names (colour codes and quotes dropped,
/// empty ones skipped), with where they are.
fn map_locations(map: &LoadedMap) -> Vec<(String, Vec3)> {
    map.entities()
        .iter()
        .filter(|e| e.classname.eq_ignore_ascii_case("target_location"))
        .filter_map(|e| {
            let text = crate::chat::text::strip_colours(e.get("message")?);
            let name: String = text.chars().filter(|c| !c.is_control() && *c != '"' && *c != '$').take(MAX_NAME).collect();
            let name = name.trim().to_owned();
            (!name.is_empty()).then_some((name, e.origin?))
        })
        .collect()
}

/// What players call an item worth naming a place after, if it is one.
pub fn landmark_name(gift: Gift, weapons: &quarry_sim::weapons::WeaponTable) -> Option<String> {
    let name = match gift {
        Gift::Weapon { weapon, .. } => weapons.get(weapon)?.name.replace('_', " "),
        Gift::Armor { amount, .. } if amount >= 100 => "red armor".to_owned(),
        Gift::Armor { amount, .. } if amount >= 50 => "yellow armor".to_owned(),
        Gift::Health { amount, .. } if amount >= 100 => "mega health".to_owned(),
        Gift::Powerup { kind, .. } => match kind {
            PowerupKind::Quad => "quad damage".to_owned(),
            PowerupKind::Haste => "haste".to_owned(),
            PowerupKind::Regen => "regeneration".to_owned(),
            PowerupKind::Invis => "invisibility".to_owned(),
        },
        _ => return None,
    };
    Some(format!("the {name}"))
}
