use proptest::prelude::*;

use super::*;
use crate::codec::{DecodeError, Reader, Writer};
use crate::snapshot::{EntityKind, EntityState, PlayerState, SharedSnapshot, Snapshot};
use crate::tests::arb;

fn encode(base: Option<&Snapshot>, new: &Snapshot) -> Vec<u8> {
    let mut w = Writer::new();
    encode_snapshot(base, new, 60, &mut w).expect("valid snapshot");
    w.into_inner()
}

proptest! {
    #[test]
    fn player_delta_reproduces_state(base in arb::player(), new in arb::player()) {
        let mut w = Writer::new();
        encode_player(&base, &new, &mut w);
        let bytes = w.into_inner();
        let mut r = Reader::new(&bytes);
        prop_assert_eq!(decode_player(&base, &mut r)?, new);
        r.finish()?;
    }

    #[test]
    fn entity_delta_reproduces_state(base in arb::entity(7), new in arb::entity(7), gap in 0u32..300, tick_rate in any::<u16>()) {
        let motion = Motion { gap, tick_rate };
        let mut w = Writer::new();
        encode_entity(&base, &new, motion, &mut w);
        let bytes = w.into_inner();
        let mut r = Reader::new(&bytes);
        prop_assert_eq!(decode_entity(&base, motion, &mut r)?, new);
        r.finish()?;
    }

    #[test]
    fn snapshot_delta_reproduces_state((base, new) in arb::base_and_next()) {
        let bytes = encode(Some(&base), &new);
        let ticks = peek_snapshot_ticks(&bytes)?;
        prop_assert_eq!(ticks.base_tick, Some(base.server_tick));
        prop_assert_eq!(decode_snapshot(&bytes, |_| Some(&base))?, new);
    }

    #[test]
    fn prediction_round_trips_at_any_tick_rate((base, mut new) in arb::base_and_next(), tick_rate in any::<u16>(), drift in -3i32..3) {
        // Entities that moved exactly (or nearly) as their velocity says.
        let gap = new.server_tick - base.server_tick;
        for e in &mut new.entities {
            if let Some(b) = base.entities.iter().find(|b| b.id == e.id) {
                let mut p = predict_entity(b, Motion { gap, tick_rate });
                p.origin[0] = p.origin[0].wrapping_add(drift);
                *e = p;
            }
        }
        let mut w = Writer::new();
        encode_snapshot(Some(&base), &new, tick_rate, &mut w).expect("valid");
        let bytes = w.into_inner();
        prop_assert_eq!(decode_snapshot(&bytes, |_| Some(&base))?, new);
    }

    #[test]
    fn shared_snapshot_encodes_as_the_client_snapshot((base, new) in arb::base_and_next(), own_id in 0u32..64, own in arb::entity(7)) {
        // The tick's shared list holds the client's own entity; its snapshot leaves it out.
        let share = |s: &Snapshot| {
            let mut all: Vec<EntityState> = s.entities.iter().filter(|e| e.id != own_id).copied().collect();
            let at = all.partition_point(|e| e.id < own_id);
            all.insert(at, EntityState { id: own_id, ..own });
            SharedSnapshot { server_tick: s.server_tick, acked_cmd_tick: s.acked_cmd_tick, player: s.player, entities: all.into(), own: Some(own_id), events: s.events.clone() }
        };
        let (shared_base, shared_new) = (share(&base), share(&new));
        let client_base = shared_base.to_snapshot();
        let client_new = shared_new.to_snapshot();
        prop_assert!(client_new.entities.iter().all(|e| e.id != own_id));
        let mut w = Writer::new();
        encode_shared_snapshot(Some(&shared_base), &shared_new, 60, &mut w).expect("valid");
        prop_assert_eq!(w.into_inner(), encode(Some(&client_base), &client_new));
        let mut w = Writer::new();
        encode_shared_snapshot(None, &shared_new, 60, &mut w).expect("valid");
        prop_assert_eq!(w.into_inner(), encode(None, &client_new));
    }

    #[test]
    fn full_snapshot_needs_no_base(s in arb::snapshot(0..u32::MAX)) {
        let bytes = encode(None, &s);
        prop_assert_eq!(peek_snapshot_ticks(&bytes)?.base_tick, None);
        prop_assert_eq!(decode_snapshot(&bytes, |_| None)?, s);
    }
}

#[test]
fn identical_snapshot_costs_a_few_bytes() {
    let base = Snapshot {
        server_tick: 100,
        acked_cmd_tick: 98,
        player: PlayerState { health: 100, ..Default::default() },
        entities: (1..=15).map(|id| EntityState { id, origin: [id as i32 * 80, 5, 7], ..EntityState::empty(id) }).collect(),
        events: Vec::new(),
    };
    let next = Snapshot { server_tick: 101, acked_cmd_tick: 99, ..base.clone() };
    let bytes = encode(Some(&base), &next);
    assert!(bytes.len() <= 7, "{} bytes (the last: no events)", bytes.len());
}

#[test]
fn entities_on_their_predicted_path_cost_nothing() {
    let rocket = |x: i32| EntityState { kind: EntityKind::Projectile, origin: [x, 0, 64], velocity: [900, 0, 0], ..EntityState::empty(7) };
    let base = Snapshot { server_tick: 100, entities: vec![rocket(0)], ..Default::default() };
    // 6 ticks at 60 Hz: 900 u/s * 0.1 s = 90 units = 720 eighths.
    let next = Snapshot { server_tick: 106, entities: vec![rocket(720)], ..Default::default() };
    let empty = Snapshot { server_tick: 106, entities: vec![rocket(0)], ..Default::default() };
    let moved = encode(Some(&base), &next).len();
    let bytes = {
        let mut w = Writer::new();
        encode_snapshot(Some(&base), &empty, 60, &mut w).expect("valid");
        w.len()
    };
    assert!(moved < bytes, "{moved} vs {bytes}");
    assert_eq!(moved, 8, "header only: tick, gap, rate, cmd lag (2), player mask, entry count, event count");
    assert_eq!(predict_entity(&rocket(0), Motion { gap: 6, tick_rate: 0 }), rocket(0));
}

#[test]
fn missing_base_is_reported() {
    let base = Snapshot { server_tick: 10, ..Default::default() };
    let new = Snapshot { server_tick: 12, ..Default::default() };
    let bytes = encode(Some(&base), &new);
    assert_eq!(decode_snapshot(&bytes, |_| None), Err(DecodeError::MissingBase(10)));
    // A base with the wrong tick is not used.
    assert_eq!(decode_snapshot(&bytes, |_| Some(&new)), Err(DecodeError::MissingBase(10)));
}

#[test]
fn encoder_rejects_caller_bugs() {
    let s = Snapshot { server_tick: 5, entities: vec![EntityState::empty(3), EntityState::empty(2)], ..Default::default() };
    assert_eq!(encode_snapshot(None, &s, 60, &mut Writer::new()), Err(EncodeError::UnsortedEntities));
    let s = Snapshot { server_tick: 5, ..Default::default() };
    assert!(matches!(encode_snapshot(Some(&s), &s, 60, &mut Writer::new()), Err(EncodeError::BaseNotOlder { .. })));
}
