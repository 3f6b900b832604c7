//! `target` -> `targetname` links, and the destinations of jump pads and
//! teleporters that follow from them.
//!
//! Names compare ASCII case-insensitively, as Quake 3's `G_Find` does.

use std::collections::HashMap;

use glam::Vec3;

use super::{Entity, EntityId, EntityKind, Push};
use crate::warning::{MapWarning, SourceLocation, WarningKind};

/// Resolves every entity's `target` to the entities named by it, warning for
/// names nobody carries, then fills jump pad and teleporter destinations
/// from the first target that has an origin.
pub(crate) fn resolve_targets(entities: &mut [Entity], file: &str, warnings: &mut Vec<MapWarning>) {
    let mut named: HashMap<String, Vec<EntityId>> = HashMap::new();
    for e in entities.iter() {
        if let Some(name) = &e.targetname {
            named.entry(name.to_ascii_lowercase()).or_default().push(e.id);
        }
    }
    // Origin and yaw of every entity, read before the mutable pass.
    let spots: Vec<(Option<Vec3>, f32)> = entities.iter().map(|e| (e.origin, yaw_of(e))).collect();
    for e in entities.iter_mut() {
        let Some(target) = &e.target else { continue };
        let Some(ids) = named.get(&target.to_ascii_lowercase()) else {
            warnings.push(MapWarning {
                location: SourceLocation { file: file.to_owned(), line: e.line, entity: Some(e.id.index()), primitive: None },
                kind: WarningKind::UnresolvedTarget { target: target.clone() },
            });
            continue;
        };
        e.targets = ids.clone();
        let first_spot =
            ids.iter().find_map(|id| spots.get(id.index()).and_then(|&(o, yaw)| o.map(|o| (*id, o, yaw))));
        let Some((id, origin, yaw)) = first_spot else { continue };
        match &mut e.kind {
            EntityKind::JumpPad(pad) => {
                if let Push::Toward { target, target_origin } = &mut pad.push {
                    *target = Some(id);
                    *target_origin = Some(origin);
                }
            }
            EntityKind::Teleporter(t) => {
                t.target = Some(id);
                t.destination = Some((origin, yaw));
            }
            _ => {}
        }
    }
}

/// Yaw from `angle` or `angles`, 0 if neither reads (already warned about).
fn yaw_of(e: &Entity) -> f32 {
    if let Some(a) = e.get("angle").and_then(|s| s.trim().parse::<f32>().ok()) {
        return a;
    }
    e.get("angles").and_then(|s| s.split_whitespace().nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::super::Teleporter;
    use super::*;

    fn ent(id: u32, kind: EntityKind, keys: &[(&str, &str)]) -> Entity {
        let keys: Vec<(String, String)> = keys.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let get = |k: &str| keys.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
        Entity {
            id: EntityId(id),
            classname: String::new(),
            kind,
            origin: get("origin").map(|o| {
                let v: Vec<f32> = o.split(' ').filter_map(|s| s.parse().ok()).collect();
                Vec3::new(v[0], v[1], v[2])
            }),
            spawnflags: 0,
            targetname: get("targetname"),
            target: get("target"),
            targets: Vec::new(),
            killtarget: get("killtarget"),
            delay: 0.0,
            bounds: None,
            keys,
            line: id + 1,
        }
    }

    #[test]
    fn teleporters_and_pads_get_destinations() {
        let mut ents = vec![
            ent(0, EntityKind::Teleporter(Teleporter { target: None, destination: None }), &[("target", "T1")]),
            ent(1, EntityKind::Destination, &[("targetname", "t1"), ("origin", "10 20 30"), ("angle", "90")]),
            ent(2, EntityKind::Destination, &[("targetname", "apex"), ("origin", "0 0 500")]),
            ent(3, EntityKind::JumpPad(super::super::JumpPad { push: Push::Toward { target: None, target_origin: None } }), &[("target", "apex")]),
            ent(4, EntityKind::Trigger(super::super::Trigger {
                    kind: super::super::TriggerKind::Once,
                    wait: -1.0,
                    count: 0,
                    no_touch: false,
                }), &[("target", "nobody")]),
        ];
        let mut warnings = Vec::new();
        resolve_targets(&mut ents, "m.map", &mut warnings);
        assert_eq!(ents[0].targets, vec![EntityId(1)]);
        assert_eq!(
            ents[0].kind,
            EntityKind::Teleporter(Teleporter { target: Some(EntityId(1)), destination: Some((Vec3::new(10.0, 20.0, 30.0), 90.0)) })
        );
        let EntityKind::JumpPad(pad) = &ents[3].kind else { panic!() };
        assert_eq!(pad.push, Push::Toward { target: Some(EntityId(2)), target_origin: Some(Vec3::new(0.0, 0.0, 500.0)) });
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].location.entity, Some(4));
        assert_eq!(warnings[0].location.line, 5);
    }
}
