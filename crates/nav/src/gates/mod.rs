//! Gates: doors that do not open when touched, and what opens each one.
//!
//! A door with a `targetname` opens when a trigger volume or a button
//! whose chain of targets (through relays, and through a counter to a door
//! that stays open once opened) reaches it fires; a door with
//! `health` and a shootable secret door open when shot; a Quake 1 key door
//! opens to a player carrying its key. The mesh is built with every gate
//! bots open ([`Gate::bots_open`]) open and its links re-checked against
//! the live world (a closed gate makes them stale; a key door never bars a
//! player carrying its key, whose touch opens it), and a bot whose way is
//! barred by a closed gate can look up here how to open it: walk into a
//! trigger, shoot, or fetch the key.

use std::collections::BTreeMap;

use glam::Vec3;
use quarry_map::entities::items::KeyKind;
use quarry_map::entities::movers::{Mover, MoverKind};
use quarry_map::entities::{TriggerKind, Trigger};
use quarry_map::{EntityId, EntityKind, LoadedMap};
use serde::Serialize;

use crate::generate::input::is_touch_door;

mod chain;
mod opening;
pub use chain::{ChainPlanner, Fired, MIN_CLIMB, OpenBy, Step, chain, describe_steps};
pub use opening::{KeyKnowledge, OpeningPlan, is_closed, is_closed_entity, plan};

/// How deep a chain of relays is followed from a trigger to a door.
const MAX_CHAIN: usize = 16;

/// One way to open a gate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Opening {
    /// Walk into this trigger volume or button.
    Touch {
        /// The trigger or button.
        entity: EntityId,
        /// Its bounds.
        bounds: (Vec3, Vec3),
    },
    /// Shoot this entity (the door itself, or a button with health).
    Shoot {
        /// What to shoot.
        entity: EntityId,
        /// Its bounds.
        bounds: (Vec3, Vec3),
    },
    /// Touch the door carrying this key.
    Key(KeyKind),
}

/// A door that does not open when touched.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gate {
    /// The door.
    pub entity: EntityId,
    /// Its bounds closed (where the map placed it).
    pub closed: (Vec3, Vec3),
    /// What opens it; empty when nothing does (a door no trigger reaches).
    pub openings: Vec<Opening>,
}

impl Gate {
    /// Whether bots open it: a trigger or a button to walk into, a shot,
    /// or a key to fetch and carry to it (a door nothing opens stays a wall
    /// to the mesh).
    pub fn bots_open(&self) -> bool {
        !self.openings.is_empty()
    }
}

/// Whether a mover is a gate: a door or secret door that touching does not open.
pub fn is_gate(m: &Mover) -> bool {
    matches!(m.kind, MoverKind::Door | MoverKind::SecretDoor) && !is_touch_door(m) && !m.start_open
}

/// The gates of `map` with what opens each, in entity order.
pub fn gates(map: &LoadedMap) -> Vec<Gate> {
    let entities = map.entities();
    let mut out = Vec::new();
    for e in entities {
        let (EntityKind::Mover(m), Some(closed)) = (&e.kind, e.bounds) else { continue };
        if !is_gate(m) {
            continue;
        }
        let mut openings = Vec::new();
        if m.health > 0.0 {
            openings.push(Opening::Shoot { entity: e.id, bounds: closed });
        }
        if let Some(k) = m.key {
            openings.push(Opening::Key(k));
        }
        if m.triggered {
            for t in entities {
                let bounds = match (&t.kind, t.bounds) {
                    (EntityKind::Trigger(Trigger { kind: TriggerKind::Once | TriggerKind::Multiple, no_touch: false, .. }), Some(b)) => b,
                    (EntityKind::Mover(b), Some(bounds)) if b.kind == MoverKind::Button => bounds,
                    _ => continue,
                };
                // Through a counter only to a door that stays open: the
                // counter fires once, then is spent, so a door that shuts
                // again is a wall from then on.
                if !reaches(map, t.id, e.id, m.wait < 0.0) {
                    continue;
                }
                let shot = matches!(&t.kind, EntityKind::Mover(b) if b.health > 0.0);
                openings.push(if shot {
                    Opening::Shoot { entity: t.id, bounds }
                } else {
                    Opening::Touch { entity: t.id, bounds }
                });
            }
        }
        out.push(Gate { entity: e.id, closed, openings });
    }
    out
}

/// One line per gate of `map` for `nav-info`: the door, its line and
/// what opens it (or that nothing does, so goals behind it stay barred).
pub fn describe_gates(map: &LoadedMap) -> Vec<String> {
    let name = |id: EntityId| {
        map.entity(id).map_or_else(|| format!("entity {}", id.0), |e| format!("{} {} (line {})", e.classname, e.id.0, e.line))
    };
    gates(map)
        .iter()
        .map(|g| {
            let ways: Vec<String> = g
                .openings
                .iter()
                .map(|o| match *o {
                    Opening::Touch { entity, .. } => format!("touching {}", name(entity)),
                    Opening::Shoot { entity, .. } if entity == g.entity => "shooting it".to_owned(),
                    Opening::Shoot { entity, .. } => format!("shooting {}", name(entity)),
                    Opening::Key(KeyKind::Silver) => "the silver key".to_owned(),
                    Opening::Key(KeyKind::Gold) => "the gold key".to_owned(),
                })
                .collect();
            let how = if ways.is_empty() { "nothing a player can do".to_owned() } else { ways.join(" or ") };
            let built = if g.bots_open() { "built open, bots open it" } else { "built closed" };
            format!("{}: opened by {how} ({built})", name(g.entity))
        })
        .collect()
}

/// Whether firing `from` uses `door`, through relays, and through
/// counters when `counters` (each use of what feeds a counter counts, so
/// pressing its buttons, or one of them again and again, opens the door;
/// once).
fn reaches(map: &LoadedMap, from: EntityId, door: EntityId, counters: bool) -> bool {
    path_to(map, from, door, counters).is_some()
}

/// The relays (and counters, when `counters`) firing `from` passes through
/// on its way to `door`, in order, by the shortest chain; `None` when it
/// does not reach the door within [`MAX_CHAIN`] links.
pub(crate) fn path_to(map: &LoadedMap, from: EntityId, door: EntityId, counters: bool) -> Option<Vec<EntityId>> {
    let entities = map.entities();
    // Each entity reached, with the one that fired it.
    let mut came_from: BTreeMap<EntityId, EntityId> = BTreeMap::new();
    let mut frontier = vec![from];
    for _ in 0..MAX_CHAIN {
        let mut next = Vec::new();
        for id in frontier {
            let Some(e) = entities.get(id.index()) else { continue };
            for &t in &e.targets {
                if t == door {
                    let mut path = Vec::new();
                    let mut at = id;
                    while at != from {
                        path.push(at);
                        at = *came_from.get(&at)?;
                    }
                    path.reverse();
                    return Some(path);
                }
                let relay = match entities.get(t.index()).map(|x| &x.kind) {
                    Some(EntityKind::Trigger(Trigger { kind: TriggerKind::Relay, .. })) => true,
                    Some(EntityKind::Trigger(Trigger { kind: TriggerKind::Counter, .. })) => counters,
                    _ => false,
                };
                if relay && t != from && !came_from.contains_key(&t) {
                    came_from.insert(t, id);
                    next.push(t);
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        frontier = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_map::source::box_brush;

    fn load(entities: &str) -> LoadedMap {
        let room = box_brush(Vec3::new(-512.0, -512.0, -16.0), Vec3::new(512.0, 512.0, 0.0), "quarry/wall");
        let text = format!("{{\n\"classname\" \"worldspawn\"\n{room}}}\n{entities}");
        quarry_map::load_str(&text, "gates.map", &quarry_map::LoadOptions::default()).expect("map")
    }

    fn brush_ent(class: &str, keys: &str, lo: Vec3, hi: Vec3, tex: &str) -> String {
        format!("{{\n\"classname\" \"{class}\"\n{keys}{}}}\n", box_brush(lo, hi, tex))
    }

    #[test]
    fn triggers_buttons_through_relays_and_shots_open_gates() {
        let door = brush_ent("func_door", "\"targetname\" \"gate\"\n", Vec3::new(100.0, -64.0, 0.0), Vec3::new(116.0, 64.0, 128.0), "quarry/wall");
        let shot = brush_ent("func_door", "\"health\" \"10\"\n", Vec3::new(200.0, -64.0, 0.0), Vec3::new(216.0, 64.0, 128.0), "quarry/wall");
        let touch = brush_ent("func_door", "", Vec3::new(300.0, -64.0, 0.0), Vec3::new(316.0, 64.0, 128.0), "quarry/wall");
        let trigger = brush_ent("trigger_once", "\"target\" \"relay\"\n", Vec3::new(-100.0, -32.0, 0.0), Vec3::new(-50.0, 32.0, 64.0), "common/trigger");
        let relay = "{\n\"classname\" \"trigger_relay\"\n\"origin\" \"0 0 0\"\n\"targetname\" \"relay\"\n\"target\" \"gate\"\n}\n";
        let button = brush_ent("func_button", "\"target\" \"gate\"\n", Vec3::new(0.0, 200.0, 16.0), Vec3::new(8.0, 232.0, 48.0), "quarry/wall");
        let map = load(&[door, shot, touch, trigger, relay.to_owned(), button].concat());
        let g = gates(&map);
        assert_eq!(g.len(), 2, "the touch door is no gate: {g:?}");
        let kinds: Vec<&str> = g[0]
            .openings
            .iter()
            .map(|o| match o {
                Opening::Touch { .. } => "touch",
                Opening::Shoot { .. } => "shoot",
                Opening::Key(_) => "key",
            })
            .collect();
        assert_eq!(kinds, vec!["touch", "touch"], "the trigger (via the relay) and the button");
        assert!(matches!(g[1].openings[..], [Opening::Shoot { .. }]));
    }

    #[test]
    fn the_chain_from_a_trigger_to_its_door_names_what_fires_between() {
        let door = brush_ent("func_door", "\"targetname\" \"gate\"\n\"wait\" \"-1\"\n", Vec3::new(100.0, -64.0, 0.0), Vec3::new(116.0, 64.0, 128.0), "quarry/wall");
        let button = brush_ent("func_button", "\"target\" \"relay\"\n", Vec3::new(0.0, 200.0, 16.0), Vec3::new(8.0, 232.0, 48.0), "quarry/wall");
        let direct = brush_ent("func_button", "\"target\" \"gate\"\n", Vec3::new(0.0, -232.0, 16.0), Vec3::new(8.0, -200.0, 48.0), "quarry/wall");
        let relay = "{\n\"classname\" \"trigger_relay\"\n\"origin\" \"0 0 64\"\n\"targetname\" \"relay\"\n\"target\" \"count\"\n}\n";
        let counter = "{\n\"classname\" \"trigger_counter\"\n\"origin\" \"0 0 96\"\n\"targetname\" \"count\"\n\"count\" \"3\"\n\"target\" \"gate\"\n}\n";
        let map = load(&[door, button, direct, relay.to_owned(), counter.to_owned()].concat());
        let id = |class: &str, n: usize| map.entities().iter().filter(|e| e.classname == class).nth(n).map(|e| e.id).expect(class);
        let (gate, button, direct) = (id("func_door", 0), id("func_button", 0), id("func_button", 1));
        let path = path_to(&map, button, gate, true).expect("reaches");
        assert_eq!(path, vec![id("trigger_relay", 0), id("trigger_counter", 0)]);
        assert_eq!(path_to(&map, direct, gate, true), Some(Vec::new()), "a button aimed at the door");
        assert_eq!(path_to(&map, button, gate, false), None, "not through a counter when counters are out");
    }
}
