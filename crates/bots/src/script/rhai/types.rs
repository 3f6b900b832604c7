//! The API's value types in Rhai: `Vec3` (with arithmetic), `Player`,
//! `Item`, `Flag`, `Teleporter`, `Waypoint` and `Order` (read-only
//! properties), and
//! events as object maps.

use glam::Vec3;
use rhai::{Dynamic, Engine, FLOAT, INT, Map};

use crate::script::host::{ScriptEvent, ScriptFlag, ScriptItem, ScriptOrder, ScriptPlayer, ScriptTeleporter, Waypoint};

fn f(v: f32) -> FLOAT {
    FLOAT::from(v)
}

/// A script's number as a world coordinate: non-finite becomes 0.
pub(super) fn coord(v: FLOAT) -> f32 {
    if v.is_finite() { v as f32 } else { 0.0 }
}

/// Registers the value types.
pub(super) fn register(engine: &mut Engine) {
    register_vec3(engine);
    macro_rules! getters {
        ($ty:ty, $name:literal, { $($field:literal => |$x:ident| $e:expr),* $(,)? }) => {{
            engine.register_type_with_name::<$ty>($name);
            $( engine.register_get($field, |$x: &mut $ty| $e); )*
        }};
    }
    getters!(ScriptPlayer, "Player", {
        "slot" => |p| p.slot as INT,
        "team" => |p| p.team.to_owned(),
        "alive" => |p| p.alive,
        "visible" => |p| p.visible,
        "age" => |p| p.age,
        "origin" => |p| p.origin,
        "velocity" => |p| p.velocity,
        "eye" => |p| p.eye,
        "pitch" => |p| p.pitch,
        "yaw" => |p| p.yaw,
        "health" => |p| p.health,
        "armor" => |p| p.armor,
        "weapon" => |p| p.weapon,
        "attacking" => |p| p.attacking,
        "on_ground" => |p| p.on_ground,
        "water_level" => |p| p.water_level,
        "weapons" => |p| p.weapons.iter().map(|w| Dynamic::from_int(*w)).collect::<rhai::Array>(),
        "ammo" => |p| p.ammo.iter().map(|w| Dynamic::from_int(*w)).collect::<rhai::Array>(),
        "carrier" => |p| p.carrier,
    });
    getters!(ScriptItem, "Item", {
        "id" => |i| i.id,
        "class" => |i| i.class.to_owned(),
        "kind" => |i| i.kind.to_owned(),
        "origin" => |i| i.origin,
        "available" => |i| i.available,
        "respawn_in" => |i| i.respawn_in,
        "dropped" => |i| i.dropped,
    });
    getters!(ScriptFlag, "Flag", {
        "team" => |x| x.team.to_owned(),
        "origin" => |x| x.origin,
        "at_base" => |x| x.at_base,
        "carrier" => |x| x.carrier,
    });
    getters!(ScriptTeleporter, "Teleporter", {
        "id" => |t| t.id,
        "entrance" => |t| t.entrance,
        "destination" => |t| t.destination,
    });
    getters!(Waypoint, "Waypoint", {
        "pos" => |w| w.pos,
        "kind" => |w| w.kind.to_owned(),
    });
    getters!(ScriptOrder, "Order", {
        "kind" => |o| o.kind.clone(),
        "from" => |o| o.from,
        "at" => |o| o.at,
        "left" => |o| o.left,
    });
    engine.register_fn("to_string", |p: &mut ScriptPlayer| format!("Player({} {})", p.slot, p.team));
    engine.register_fn("to_string", |i: &mut ScriptItem| format!("Item({} {})", i.id, i.class));
    engine.register_fn("to_string", |w: &mut Waypoint| format!("Waypoint({} {:.0} {:.0} {:.0})", w.kind, w.pos.x, w.pos.y, w.pos.z));
}

fn register_vec3(engine: &mut Engine) {
    engine.register_type_with_name::<Vec3>("Vec3");
    engine.register_fn("vec3", |x: FLOAT, y: FLOAT, z: FLOAT| Vec3::new(coord(x), coord(y), coord(z)));
    engine.register_fn("vec3", |x: INT, y: INT, z: INT| Vec3::new(x as f32, y as f32, z as f32));
    engine.register_get_set("x", |v: &mut Vec3| f(v.x), |v: &mut Vec3, x: FLOAT| v.x = coord(x));
    engine.register_get_set("y", |v: &mut Vec3| f(v.y), |v: &mut Vec3, y: FLOAT| v.y = coord(y));
    engine.register_get_set("z", |v: &mut Vec3| f(v.z), |v: &mut Vec3, z: FLOAT| v.z = coord(z));
    engine.register_fn("+", |a: Vec3, b: Vec3| a + b);
    engine.register_fn("-", |a: Vec3, b: Vec3| a - b);
    engine.register_fn("-", |a: Vec3| -a);
    engine.register_fn("*", |a: Vec3, k: FLOAT| a * coord(k));
    engine.register_fn("*", |k: FLOAT, a: Vec3| a * coord(k));
    engine.register_fn("*", |a: Vec3, k: INT| a * k as f32);
    engine.register_fn("/", |a: Vec3, k: FLOAT| if k == 0.0 { Vec3::ZERO } else { a / coord(k) });
    engine.register_fn("==", |a: Vec3, b: Vec3| a == b);
    engine.register_fn("!=", |a: Vec3, b: Vec3| a != b);
    engine.register_fn("length", |a: Vec3| f(a.length()));
    engine.register_fn("length2d", |a: Vec3| f(a.truncate().length()));
    engine.register_fn("normalize", |a: Vec3| a.normalize_or_zero());
    engine.register_fn("flat", |a: Vec3| Vec3::new(a.x, a.y, 0.0));
    engine.register_fn("distance", |a: Vec3, b: Vec3| f(a.distance(b)));
    engine.register_fn("dot", |a: Vec3, b: Vec3| f(a.dot(b)));
    engine.register_fn("cross", |a: Vec3, b: Vec3| a.cross(b));
    engine.register_fn("to_string", |a: &mut Vec3| format!("({:.1} {:.1} {:.1})", a.x, a.y, a.z));
    engine.register_fn("to_debug", |a: &mut Vec3| format!("({:.1} {:.1} {:.1})", a.x, a.y, a.z));
}

/// An event as the object map `on_event(ev)` receives: `ev.kind` says
/// which, the other properties depend on it.
pub(super) fn event_map(ev: &ScriptEvent) -> Map {
    let mut m = Map::new();
    let mut put = |k: &str, v: Dynamic| {
        m.insert(k.into(), v);
    };
    match ev {
        ScriptEvent::Chat { from, name, text, team } => {
            put("kind", ev.kind().into());
            put("from", (*from).into());
            put("name", name.clone().into());
            put("text", text.clone().into());
            put("team", (*team).into());
        }
        ScriptEvent::Damage { attacker, amount, dir } => {
            put("kind", ev.kind().into());
            put("attacker", (*attacker).into());
            put("amount", (*amount).into());
            put("dir", Dynamic::from(*dir));
        }
        ScriptEvent::Kill { killer, victim } => {
            put("kind", ev.kind().into());
            put("killer", (*killer).into());
            put("victim", (*victim).into());
        }
        ScriptEvent::Sound { kind, at, source } => {
            put("kind", ev.kind().into());
            put("sound", kind.clone().into());
            put("at", Dynamic::from(*at));
            put("source", (*source).into());
        }
    }
    m
}
