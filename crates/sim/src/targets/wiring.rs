//! The map's `target`/`targetname`/`killtarget` wiring, read once at match
//! start into what each entity does when it is used and what it fires.

use std::collections::{BTreeMap, HashMap};

use quarry_map::entities::TriggerKind;
use quarry_map::{EntityId, EntityKind, LoadedMap};

/// What an entity does when something uses it (Quake's `use` function).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `trigger_relay`, `trigger_always`: fires its targets.
    Relay,
    /// `trigger_counter`: fires its targets on its `count`th use, then is spent.
    Counter {
        /// Uses needed.
        count: u32,
    },
    /// `trigger_once`, `trigger_multiple`: fires its targets, at most once
    /// per `wait_ticks` (never again when `once`).
    Trigger {
        /// Fires a single time.
        once: bool,
        /// Ticks before it may fire again.
        wait_ticks: u32,
        /// Touching it fires it (not Quake 1 `NOTOUCH`).
        touchable: bool,
    },
    /// A mover: doors open, buttons press, secret doors slide.
    Mover,
    /// A pickup: removed by a `killtarget`; a use does nothing.
    Item,
    /// Anything else: a use does nothing (a light, a teleporter).
    Inert,
}

/// One entity's wiring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// What a use does.
    pub role: Role,
    /// Entities its `target` names, in entity order.
    pub targets: Vec<EntityId>,
    /// Entities its `killtarget` names, in entity order.
    pub kills: Vec<EntityId>,
    /// Ticks between being fired and firing (`delay`).
    pub delay_ticks: u32,
}

/// Every entity that fires something or is fired, by entity id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wiring {
    /// The nodes, by entity id.
    pub nodes: BTreeMap<EntityId, Node>,
}

impl Wiring {
    /// Reads the wiring of `map` for a match ticking at `hz`.
    pub fn from_map(map: &LoadedMap, hz: u32) -> Wiring {
        let mut named: HashMap<String, Vec<EntityId>> = HashMap::new();
        for e in map.entities() {
            if let Some(name) = &e.targetname {
                named.entry(name.to_ascii_lowercase()).or_default().push(e.id);
            }
        }
        let ticks = |s: f32| (s.max(0.0) * hz as f32).round() as u32;
        let mut nodes = BTreeMap::new();
        for e in map.entities() {
            let role = match &e.kind {
                EntityKind::Trigger(t) => match t.kind {
                    TriggerKind::Relay => Role::Relay,
                    TriggerKind::Counter => Role::Counter { count: t.count.max(1) },
                    TriggerKind::Once | TriggerKind::Multiple => Role::Trigger {
                        once: t.kind == TriggerKind::Once || t.wait < 0.0,
                        wait_ticks: ticks(t.wait).max(1),
                        touchable: !t.no_touch && e.bounds.is_some(),
                    },
                    TriggerKind::ChangeLevel => Role::Inert,
                },
                EntityKind::Mover(_) => Role::Mover,
                EntityKind::Item(_) => Role::Item,
                _ => Role::Inert,
            };
            let kills = e
                .killtarget
                .as_ref()
                .and_then(|k| named.get(&k.to_ascii_lowercase()))
                .cloned()
                .unwrap_or_default();
            let wired = !e.targets.is_empty() || !kills.is_empty() || e.targetname.is_some();
            if !wired && !matches!(role, Role::Trigger { .. }) {
                continue;
            }
            nodes.insert(e.id, Node { role, targets: e.targets.clone(), kills, delay_ticks: ticks(e.delay) });
        }
        Wiring { nodes }
    }

    /// The node of `entity`, if it is wired.
    pub fn get(&self, entity: EntityId) -> Option<&Node> {
        self.nodes.get(&entity)
    }
}
