use proptest::prelude::*;

use super::*;
use crate::tests::arb;

fn encode(base: Option<&Snapshot>, new: &Snapshot) -> Vec<u8> {
    let mut w = Writer::new();
    encode_snapshot(base, new, &mut w).expect("valid snapshot");
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
    fn entity_delta_reproduces_state(base in arb::entity(7), new in arb::entity(7)) {
        let mut w = Writer::new();
        encode_entity(&base, &new, &mut w);
        let bytes = w.into_inner();
        let mut r = Reader::new(&bytes);
        prop_assert_eq!(decode_entity(&base, &mut r)?, new);
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
    };
    let next = Snapshot { server_tick: 101, acked_cmd_tick: 99, ..base.clone() };
    let bytes = encode(Some(&base), &next);
    assert!(bytes.len() <= 6, "{} bytes", bytes.len());
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
    assert_eq!(encode_snapshot(None, &s, &mut Writer::new()), Err(EncodeError::UnsortedEntities));
    let s = Snapshot { server_tick: 5, ..Default::default() };
    assert!(matches!(encode_snapshot(Some(&s), &s, &mut Writer::new()), Err(EncodeError::BaseNotOlder { .. })));
}
