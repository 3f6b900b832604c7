//! The parts a generated map is built around, each from what real Quake
//! maps use, and the answer each gives its goals.

use serde::Serialize;

use crate::answer::{Expect, Goal, Mechanism};
use crate::dialect::Dialect;
use crate::layout::{Chain, Doorway, RoomBox};
use crate::rng::Rng;
use crate::shape::{Cuboid, Entity, Surface};

mod locks;
mod terrain;

/// What a map is built around.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum PartKind {
    /// Rooms joined by open doorways (the baseline).
    Open,
    /// A chain of 1 to 4 doors, each opened by a button in the room before
    /// it, so each button stands behind the door before.
    ButtonChain(u8),
    /// Gates nested 2 to 4 deep: the goal's door opens from a button in a
    /// side room behind a door whose button stands in another side room
    /// behind another door, and so on; only the last button is in the open.
    NestedGates(u8),
    /// A door opened by walking into a `trigger_multiple` in an alcove.
    TriggerDoor,
    /// A button firing a `trigger_relay` with a delay, which opens the door.
    RelayDoor,
    /// Two buttons feeding a `trigger_counter` that opens the door.
    CounterDoor,
    /// A door opened by a button high on a wall, pressed by shooting it.
    ShotButton,
    /// A door with `health`, opened by shooting it.
    ShootDoor,
    /// A gold key door, the key lying in the first room (Quake 1 dialects;
    /// in Quake 3, which has no keys, a button door).
    KeyDoor,
    /// A crawlway only a crouching player fits through.
    Crawlway,
    /// A ledge too high to jump, with a `func_plat` up to it.
    Lift,
    /// An island room reached only by a teleporter (with one back).
    Teleporter,
    /// An island room nothing leads into.
    Sealed,
    /// A ledge too high to jump with no way up.
    HighLedge,
    /// A ledge reached by a flight of stairs.
    Stairs,
    /// A ledge a little higher than a step: jumped onto.
    JumpLedge,
    /// A room flooded to above head height, the prize on its floor.
    Flooded,
    /// A ledge too high to jump, with a jump pad up to it.
    JumpPad,
    /// Stairs up to a ledge, and off it a drop into the next room too
    /// high to climb back (a teleporter leads home).
    Drop,
    /// A raised walkway broken by a gap a running jump clears.
    Gap,
    /// A bridge a step high over a band of lava.
    LavaBridge,
    /// A pool left by swimming up and climbing out onto a raised room.
    WaterJump,
    /// A secret door shot open (Quake 1; a shootable door in Quake 3).
    SecretDoor,
    /// A key door whose key lies behind a button door (Quake 1 dialects).
    KeyBehindGate,
    /// A ledge reached by a ramp just under the walkable limit.
    Ramp,
    /// A ledge whose ramp is just over the walkable limit: unreachable.
    SteepRamp,
    /// A prize in a niche the player's box barely fits.
    Niche,
    /// A prize in a niche narrower than the player's box: unreachable.
    TightNiche,
}

impl PartKind {
    /// Every kind a dialect has, one of each (the button chain at depths
    /// 1 to 4; no key doors in Quake 3, which has no keys).
    pub fn all_for(dialect: Dialect) -> Vec<PartKind> {
        Self::all().into_iter().filter(|k| !(dialect.is_quake3() && matches!(k, Self::KeyDoor | Self::KeyBehindGate))).collect()
    }

    /// Every kind, one of each (the button chain at depths 1 to 4).
    pub fn all() -> Vec<PartKind> {
        let mut kinds = vec![Self::Open];
        kinds.extend((1..=4).map(Self::ButtonChain));
        kinds.extend((2..=4).map(Self::NestedGates));
        kinds.extend([
            Self::TriggerDoor,
            Self::RelayDoor,
            Self::CounterDoor,
            Self::ShotButton,
            Self::ShootDoor,
            Self::KeyDoor,
            Self::Crawlway,
            Self::Lift,
            Self::Teleporter,
            Self::Sealed,
            Self::HighLedge,
            Self::Stairs,
            Self::JumpLedge,
            Self::Flooded,
            Self::JumpPad,
            Self::Drop,
            Self::Gap,
            Self::LavaBridge,
            Self::WaterJump,
            Self::SecretDoor,
            Self::KeyBehindGate,
            Self::Ramp,
            Self::SteepRamp,
            Self::Niche,
            Self::TightNiche,
        ]);
        kinds
    }

    /// A short name for file names.
    pub fn name(self) -> String {
        match self {
            Self::Open => "open".into(),
            Self::ButtonChain(n) => format!("buttons{n}"),
            Self::NestedGates(n) => format!("nested{n}"),
            Self::TriggerDoor => "trigger".into(),
            Self::RelayDoor => "relay".into(),
            Self::CounterDoor => "counter".into(),
            Self::ShotButton => "shotbutton".into(),
            Self::ShootDoor => "shootdoor".into(),
            Self::KeyDoor => "keydoor".into(),
            Self::Crawlway => "crawl".into(),
            Self::Lift => "lift".into(),
            Self::Teleporter => "teleporter".into(),
            Self::Sealed => "sealed".into(),
            Self::HighLedge => "highledge".into(),
            Self::Stairs => "stairs".into(),
            Self::JumpLedge => "jumpledge".into(),
            Self::Flooded => "flooded".into(),
            Self::JumpPad => "jumppad".into(),
            Self::Drop => "drop".into(),
            Self::Gap => "gap".into(),
            Self::LavaBridge => "lava".into(),
            Self::WaterJump => "waterjump".into(),
            Self::SecretDoor => "secretdoor".into(),
            Self::KeyBehindGate => "keybehindgate".into(),
            Self::Ramp => "ramp".into(),
            Self::SteepRamp => "steepramp".into(),
            Self::Niche => "niche".into(),
            Self::TightNiche => "tightniche".into(),
        }
    }
}

/// A map under construction: the frame, the dialect, the RNG, the goals.
pub(crate) struct Build<'a> {
    pub(crate) chain: Chain,
    pub(crate) dialect: Dialect,
    pub(crate) rng: &'a mut Rng,
    pub(crate) goals: Vec<Goal>,
    gates: u32,
}

impl<'a> Build<'a> {
    pub(crate) fn new(rng: &'a mut Rng, dialect: Dialect, rooms: usize) -> Self {
        let chain = Chain::new(rng, rooms);
        Self { chain, dialect, rng, goals: Vec::new(), gates: 0 }
    }

    /// Two spawn points in room 0, facing along the chain, and a health
    /// item beside them (a goal reached by walking).
    pub(crate) fn spawns(&mut self) {
        // In the quarter of the width nearest y = 0: the hall, when a part
        // splits the room along its length.
        let r = self.chain.room(0);
        let y = r.min[1] + (r.max[1] - r.min[1]) / 4;
        let x = r.min[0] + 64;
        for dy in [-48, 48] {
            self.chain.push(Entity::point("info_player_deathmatch", [x, y + dy, 24]).with("angle", 0));
        }
        let health = if self.dialect.is_quake3() { "item_health_large" } else { "item_health" };
        self.item(health, [x + 96, y, 16], Expect::Reachable, Vec::new());
    }

    /// A goal item of `class` at `origin`.
    pub(crate) fn item(&mut self, class: &str, origin: [i32; 3], expect: Expect, via: Vec<Mechanism>) {
        self.chain.push(Entity::point(class, origin));
        self.goals.push(Goal { class: class.to_owned(), origin, expect, via });
    }

    /// A prize for the far side of a puzzle, in the dialect's names.
    pub(crate) fn prize(&mut self) -> &'static str {
        let q1 = ["item_armor2", "item_armor1", "weapon_rocketlauncher", "weapon_lightning", "weapon_supernailgun"];
        let q3 = ["item_armor_body", "item_armor_combat", "weapon_rocketlauncher", "weapon_railgun", "weapon_plasmagun"];
        let names: &[&'static str] = if self.dialect.is_quake3() { &q3 } else { &q1 };
        self.rng.pick(names).unwrap_or("item_health")
    }

    /// The prize in the middle of room `i`'s floor.
    pub(crate) fn prize_in(&mut self, r: RoomBox, expect: Expect, via: Vec<Mechanism>) {
        let class = self.prize();
        let c = r.floor_centre();
        self.item(class, [c[0], c[1], r.min[2] + 16], expect, via);
    }

    /// A door filling the doorway after room `i` (moving up), with `keys`.
    pub(crate) fn door(&mut self, i: usize, keys: &[(&str, String)]) {
        let Some(d) = self.chain.doorway(i) else { return };
        let (x0, x1) = self.chain.wall_x(i);
        let mut door = Entity::brush("func_door", vec![Cuboid::new([x0, d.y.0, d.z.0], [x1, d.y.1, d.z.1], Surface::Door)]).with("angle", -1);
        // Some stay open, others shut again after a few seconds.
        let wait = if self.rng.coin() { -1 } else { self.rng.range(3, 6) };
        if !keys.iter().any(|(k, _)| *k == "wait") {
            door = door.with("wait", wait);
        }
        for (k, v) in keys {
            door = door.with(k, v);
        }
        self.chain.push(door);
    }

    /// A new gate name.
    pub(crate) fn gate_name(&mut self) -> String {
        self.gates += 1;
        format!("gate{}", self.gates)
    }

    /// A button on one of room `i`'s side walls at `z`, targeting `target`;
    /// with `health`, pressed by shooting it.
    pub(crate) fn button(&mut self, i: usize, z: i32, target: &str, health: Option<i32>) {
        let r = self.chain.room(i);
        let x = self.rng.step(r.min[0] + 64, r.max[0] - 96, 16);
        let (y0, y1, angle) = if self.rng.coin() { (r.min[1], r.min[1] + 8, 270) } else { (r.max[1] - 8, r.max[1], 90) };
        let mut b = Entity::brush("func_button", vec![Cuboid::new([x, y0, z], [x + 32, y1, z + 32], Surface::Button)]).with("angle", angle).with("target", target);
        if let Some(h) = health {
            b = b.with("health", h);
        }
        self.chain.push(b);
    }

    /// The finished map's text.
    pub(crate) fn text(self, comment: &[String]) -> (String, Vec<Goal>) {
        let dialect = self.dialect;
        let goals = self.goals;
        let (world, entities) = self.chain.finish();
        (dialect.write(comment, &world, &entities), goals)
    }
}

/// Builds the map for `kind`.
pub(crate) fn build(kind: PartKind, b: &mut Build<'_>) {
    b.spawns();
    let last = b.chain.rooms() - 1;
    match kind {
        PartKind::Open => {
            let r = b.chain.room(last);
            b.prize_in(r, Expect::Reachable, Vec::new());
        }
        PartKind::ButtonChain(depth) => {
            for i in 0..usize::from(depth) {
                let name = b.gate_name();
                b.door(i, &[("targetname", name.clone())]);
                b.button(i, 24, &name, None);
            }
            let r = b.chain.room(last);
            b.prize_in(r, Expect::Reachable, vec![Mechanism::Button; usize::from(depth)]);
        }
        PartKind::NestedGates(depth) => nested(b, usize::from(depth.max(2))),
        PartKind::TriggerDoor => {
            let name = b.gate_name();
            b.door(0, &[("targetname", name.clone())]);
            let r = b.chain.room(0);
            let x = b.rng.step(r.min[0] + 128, r.max[0] - 128, 16);
            let y = if b.rng.coin() { r.min[1] } else { r.max[1] - 64 };
            b.chain.push(Entity::brush("trigger_multiple", vec![Cuboid::new([x, y, 0], [x + 64, y + 64, 72], Surface::Trigger)]).with("target", name));
            let r = b.chain.room(last);
            b.prize_in(r, Expect::Reachable, vec![Mechanism::Trigger]);
        }
        PartKind::RelayDoor => {
            let name = b.gate_name();
            b.door(0, &[("targetname", name.clone())]);
            let c = b.chain.room(0).floor_centre();
            b.chain.push(Entity::point("trigger_relay", [c[0], c[1], 96]).with("targetname", "relay1").with("target", name).with("delay", 1));
            b.button(0, 24, "relay1", None);
            let r = b.chain.room(last);
            b.prize_in(r, Expect::Reachable, vec![Mechanism::Button, Mechanism::Relay]);
        }
        PartKind::CounterDoor => {
            // A counter fires once: its door stays open, as Quake maps make it.
            let name = b.gate_name();
            b.door(0, &[("targetname", name.clone()), ("wait", "-1".to_owned())]);
            let c = b.chain.room(0).floor_centre();
            b.chain.push(Entity::point("trigger_counter", [c[0], c[1], 96]).with("targetname", "count1").with("target", name).with("count", 2));
            b.button(0, 24, "count1", None);
            b.button(0, 24, "count1", None);
            let r = b.chain.room(last);
            b.prize_in(r, Expect::Reachable, vec![Mechanism::Button, Mechanism::Button, Mechanism::Counter]);
        }
        PartKind::ShotButton => {
            let name = b.gate_name();
            b.door(0, &[("targetname", name.clone())]);
            let z = b.chain.height - 72;
            b.button(0, z, &name, Some(1));
            let r = b.chain.room(last);
            b.prize_in(r, Expect::Reachable, vec![Mechanism::ShootButton]);
        }
        PartKind::ShootDoor => {
            b.door(0, &[("health", "30".to_owned())]);
            let r = b.chain.room(last);
            b.prize_in(r, Expect::Reachable, vec![Mechanism::ShootDoor]);
        }
        PartKind::KeyDoor if !b.dialect.is_quake3() => {
            let (key, flags) = locks::pick_key(b);
            b.door(0, &[("spawnflags", flags.to_owned())]);
            let r = b.chain.room(0);
            b.item(key, [r.max[0] - 64, r.max[1] - 64, 16], Expect::Reachable, Vec::new());
            let r = b.chain.room(last);
            b.prize_in(r, Expect::Reachable, vec![Mechanism::Key]);
        }
        PartKind::JumpPad => terrain::jump_pad(b),
        PartKind::Drop => terrain::drop(b),
        PartKind::Gap => terrain::gap(b),
        PartKind::LavaBridge => terrain::lava_bridge(b),
        PartKind::WaterJump => terrain::water_jump(b),
        PartKind::SecretDoor => locks::secret_door(b),
        PartKind::Ramp | PartKind::SteepRamp => terrain::ramp(b, kind == PartKind::SteepRamp),
        PartKind::Niche | PartKind::TightNiche => terrain::niche(b, kind == PartKind::TightNiche),
        PartKind::KeyBehindGate if !b.dialect.is_quake3() => locks::key_behind_gate(b),
        PartKind::KeyDoor | PartKind::KeyBehindGate => {
            // Quake 3 has no keys: a button door stands in.
            let name = b.gate_name();
            b.door(0, &[("targetname", name.clone())]);
            b.button(0, 24, &name, None);
            let r = b.chain.room(last);
            b.prize_in(r, Expect::Reachable, vec![Mechanism::Button]);
        }
        PartKind::Crawlway => {
            let d = b.chain.doorway(0).unwrap_or(Doorway { y: (64, 144), z: (0, 48) });
            b.chain.set_partition(0, 96, Some(Doorway { y: d.y, z: (0, 48) }));
            let r = b.chain.room(last);
            b.prize_in(r, Expect::Reachable, vec![Mechanism::Crouch]);
        }
        PartKind::Lift | PartKind::HighLedge => {
            let r = b.chain.room(last);
            // Too high to jump onto, with headroom for a standing player above.
            let h = b.rng.step(128, 192.min(b.chain.height - 96), 32);
            let depth = b.rng.step(128, 192, 32);
            let ledge_x = r.max[0] - depth;
            b.chain.solids.push(Cuboid::new([ledge_x, r.min[1], 0], [r.max[0], r.max[1], h], Surface::Metal));
            let yc = b.rng.step(r.min[1] + 96, r.max[1] - 96, 16);
            let lift = kind == PartKind::Lift;
            if lift {
                b.chain.push(Entity::brush("func_plat", vec![Cuboid::new([ledge_x - 128, yc - 64, h - 16], [ledge_x, yc + 64, h], Surface::Metal)]).with("height", h - 16));
            }
            let class = b.prize();
            let (expect, via) = if lift { (Expect::Reachable, vec![Mechanism::Lift]) } else { (Expect::Unreachable, Vec::new()) };
            b.item(class, [ledge_x + depth / 2, yc, h + 16], expect, via);
        }
        PartKind::Stairs => {
            let r = b.chain.room(last);
            let depth = b.rng.step(128, 192, 32);
            // The flight fits in the room with 96 units clear before it.
            let fits = ((r.max[0] - r.min[0] - depth - 96) / 32 + 1) * 16;
            let h = b.rng.step(64, 128.min(b.chain.height - 96).min(fits).max(64), 16);
            let ledge_x = r.max[0] - depth;
            b.chain.solids.push(Cuboid::new([ledge_x, r.min[1], 0], [r.max[0], r.max[1], h], Surface::Metal));
            // Steps of 16 up, 32 deep, 96 wide, ending at the ledge.
            let y = b.rng.step(r.min[1] + 32, r.max[1] - 128, 16);
            let steps = h / 16 - 1;
            for k in 0..steps {
                let x0 = ledge_x - (steps - k) * 32;
                b.chain.solids.push(Cuboid::new([x0, y, 0], [x0 + 32, y + 96, (k + 1) * 16], Surface::Floor));
            }
            let class = b.prize();
            b.item(class, [ledge_x + depth / 2, y + 48, h + 16], Expect::Reachable, vec![Mechanism::Climb]);
        }
        PartKind::JumpLedge => {
            // Quake 3's jump lifts the feet about 45 units; a step is 18.
            let r = b.chain.room(last);
            let h = b.rng.step(32, 40, 8);
            let depth = b.rng.step(128, 192, 32);
            let ledge_x = r.max[0] - depth;
            b.chain.solids.push(Cuboid::new([ledge_x, r.min[1], 0], [r.max[0], r.max[1], h], Surface::Metal));
            let class = b.prize();
            let yc = (r.min[1] + r.max[1]) / 2;
            b.item(class, [ledge_x + depth / 2, yc, h + 16], Expect::Reachable, vec![Mechanism::Jump]);
        }
        PartKind::Flooded => {
            let r = b.chain.room(last);
            let depth = b.rng.step(96, 160.min(b.chain.height - 32), 16);
            b.chain.solids.push(Cuboid::new([r.min[0], r.min[1], 0], [r.max[0], r.max[1], depth], Surface::Water));
            b.prize_in(r, Expect::Reachable, vec![Mechanism::Swim]);
        }
        PartKind::Teleporter | PartKind::Sealed => {
            let island = b.chain.island(b.rng.step(256, 384, 32), b.rng.step(256, 384, 32));
            let c = island.floor_centre();
            if kind == PartKind::Teleporter {
                // In the far half of the room, clear of the spawn points,
                // the item beside them and the way back in.
                let r = b.chain.room(last);
                let x = b.rng.step((r.min[0] + r.max[0]) / 2 + 32, r.max[0] - 96, 16);
                let y = b.rng.step(r.min[1] + 64, r.max[1] - 128, 16);
                b.chain.push(Entity::brush("trigger_teleport", vec![Cuboid::new([x, y, 0], [x + 64, y + 64, 64], Surface::Trigger)]).with("target", "dest1"));
                let dest = if b.dialect.is_quake3() { "misc_teleporter_dest" } else { "info_teleport_destination" };
                b.chain.push(Entity::point(dest, [island.min[0] + 64, c[1], 24]).with("targetname", "dest1").with("angle", 0));
                // And back: an island with no way out would trap whoever
                // went for its prize (real maps give it a way back).
                let (bx, by) = (island.max[0] - 96, island.min[1] + 32);
                b.chain.push(Entity::brush("trigger_teleport", vec![Cuboid::new([bx, by, 0], [bx + 64, by + 64, 64], Surface::Trigger)]).with("target", "dest2"));
                let home = b.chain.room(0);
                b.chain.push(Entity::point(dest, [home.min[0] + 160, home.min[1] + 64, 24]).with("targetname", "dest2").with("angle", 90));
            }
            let class = b.prize();
            let (expect, via) = if kind == PartKind::Teleporter { (Expect::Reachable, vec![Mechanism::Teleporter]) } else { (Expect::Unreachable, Vec::new()) };
            b.item(class, [c[0] + 64, c[1], 16], expect, via);
        }
    }
}

/// How many rooms a kind's chain has.
pub(crate) fn rooms_for(kind: PartKind) -> usize {
    match kind {
        PartKind::ButtonChain(n) => usize::from(n) + 1,
        PartKind::NestedGates(n) => usize::from(n.max(2)),
        PartKind::Teleporter | PartKind::Sealed => 1,
        PartKind::Drop | PartKind::KeyBehindGate | PartKind::WaterJump => 3,
        _ => 2,
    }
}

/// Gates nested `depth` deep. Rooms 0 to `depth - 2` are split along their
/// length into a hall (joined from room to room by open doorways) and a
/// side room behind a door; the last room holds the goal behind gate G.
/// G's button is in side room 0, side room 0's door's button in side room
/// 1, and so on; the last side room's door's button is in the hall. Every
/// door stays open once opened (a puzzle door that shut again would trap
/// a player in a side room with no button inside).
fn nested(b: &mut Build<'_>, depth: usize) {
    let sides = depth - 1;
    let w = b.chain.width;
    let split_y = w / 2;
    let rng = &mut *b.rng;
    b.chain.doorways_within(rng, 0, split_y);
    let goal_gate = b.gate_name();
    let last = b.chain.rooms() - 1;
    b.door(last - 1, &[("targetname", goal_gate.clone()), ("wait", "-1".to_owned())]);
    // The target each side room's button fires: G for side room 0, side
    // room k-1's door for side room k.
    let mut fires = goal_gate;
    for k in 0..sides {
        let r = b.chain.room(k);
        let x = b.rng.step(r.min[0] + 48, r.max[0] - 144, 16);
        let (side, door_box) = b.chain.split(k, split_y, (x, x + 96));
        // This side room's button, on its far wall.
        let bx = b.rng.step(side.min[0] + 32, side.max[0] - 64, 16);
        let button = Cuboid::new([bx, side.max[1] - 8, 24], [bx + 32, side.max[1], 56], Surface::Button);
        b.chain.push(Entity::brush("func_button", vec![button]).with("angle", 90).with("target", &fires));
        let door = b.gate_name();
        b.chain.push(Entity::brush("func_door", vec![door_box]).with("angle", -1).with("wait", -1).with("targetname", &door));
        fires = door;
    }
    // The last side room's door opens from a button in the hall.
    let hall = b.chain.room(0);
    let bx = b.rng.step(hall.min[0] + 96, hall.max[0] - 64, 16);
    let button = Cuboid::new([bx, hall.min[1], 24], [bx + 32, hall.min[1] + 8, 56], Surface::Button);
    b.chain.push(Entity::brush("func_button", vec![button]).with("angle", 270).with("target", &fires));
    let r = b.chain.room(last);
    b.prize_in(r, Expect::Reachable, vec![Mechanism::Button; depth]);
}
