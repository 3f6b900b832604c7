//! Fuzz targets as property tests: random bytes and bit-flipped valid
//! messages go into every decoder. The only requirement is "returns, never
//! panics"; decoders that succeed on flipped input must still produce a
//! value that re-encodes (no hidden invalid state).

use proptest::prelude::*;

use super::arb;
use crate::codec::{FrameBuffer, Reader, Writer};
use crate::datagram::read_header;
use crate::delta::{decode_snapshot, encode_snapshot, peek_snapshot_ticks};
use crate::fragment::Reassembler;
use crate::reliable::{ClientFrame, DisconnectReason, ServerFrame, disconnect_from_close};
use crate::snapshot::Snapshot;
use crate::usercmd::CmdPacket;

/// Feeds one buffer to every decoder.
fn decode_everything(bytes: &[u8], base: &Snapshot) {
    let _ = CmdPacket::decode(&mut Reader::new(bytes));
    let _ = read_header(&mut Reader::new(bytes));
    let _ = peek_snapshot_ticks(bytes);
    let _ = decode_snapshot(bytes, |_| None);
    let _ = decode_snapshot(bytes, |_| Some(base));
    let _ = Reassembler::new().push(&mut Reader::new(bytes));
    let _ = Reassembler::new().push_whole(bytes);
    let _ = ClientFrame::decode(bytes);
    let _ = ServerFrame::decode(bytes);
    let _ = DisconnectReason::decode(&mut Reader::new(bytes));
    let _ = disconnect_from_close(7, bytes);
    let mut fb = FrameBuffer::new();
    fb.push(bytes);
    while let Ok(Some(_)) = fb.next_frame() {}
}

/// Flips the bits given by `flips` (positions modulo the length).
fn flip(mut bytes: Vec<u8>, flips: &[usize]) -> Vec<u8> {
    let len = bytes.len();
    if len > 0 {
        for f in flips {
            if let Some(b) = bytes.get_mut((f / 8) % len) {
                *b ^= 1 << (f % 8);
            }
        }
    }
    bytes
}

/// A base whose ticks line up with small random headers.
fn base_for_fuzz() -> Snapshot {
    Snapshot {
        server_tick: 1,
        entities: (0..20).map(crate::snapshot::EntityState::empty).collect(),
        ..Snapshot::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        decode_everything(&bytes, &base_for_fuzz());
    }

    #[test]
    fn flipped_snapshots_never_panic((base, new) in arb::base_and_next(), flips in prop::collection::vec(any::<usize>(), 1..6), cut in any::<prop::sample::Index>()) {
        let mut w = Writer::new();
        encode_snapshot(Some(&base), &new, 60, &mut w).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let bytes = flip(w.into_inner(), &flips);
        let cut = cut.index(bytes.len() + 1);
        for b in [&bytes[..], &bytes[..cut]] {
            if let Ok(s) = decode_snapshot(b, |_| Some(&base)) {
                // Whatever decodes must be a valid snapshot again.
                prop_assert!(crate::snapshot::is_sorted_by_id(&s.entities));
                encode_snapshot(None, &s, 60, &mut Writer::new()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            decode_everything(b, &base);
        }
    }

    #[test]
    fn flipped_frames_never_panic(h in arb::hello(), w in arb::welcome(), m in arb::server_message(), c in arb::client_message(), flips in prop::collection::vec(any::<usize>(), 1..6)) {
        for bytes in [
            ClientFrame::Hello(h).encode(),
            ClientFrame::Message(c).encode(),
            ServerFrame::Welcome(w).encode(),
            ServerFrame::Message(m).encode(),
        ] {
            decode_everything(&flip(bytes, &flips), &base_for_fuzz());
        }
    }

    #[test]
    fn mode_updates_from_garbage_or_flips_never_panic(u in arb::mode_update(), tail in prop::collection::vec(any::<u8>(), 0..256), flips in prop::collection::vec(any::<usize>(), 1..6)) {
        // The mode tag followed by garbage, and a valid update with flipped bits.
        let mut garbage = vec![23u8];
        garbage.extend(&tail);
        decode_everything(&garbage, &base_for_fuzz());
        let mut w = Writer::new();
        u.encode(&mut w);
        let bytes = flip(w.into_inner(), &flips);
        if let Ok(d) = crate::reliable::ModeUpdate::decode(&mut Reader::new(&bytes)) {
            // Whatever decodes stays within the wire limits and re-encodes to the same value.
            prop_assert!(d.flags.len() <= crate::reliable::MAX_MODE_FLAGS && d.frozen.iter().all(|f| f.thaw <= crate::reliable::THAW_STEPS));
            let mut again = Writer::new();
            d.encode(&mut again);
            let again = again.into_inner();
            prop_assert_eq!(crate::reliable::ModeUpdate::decode(&mut Reader::new(&again)).ok(), Some(d));
        }
    }

    #[test]
    fn flipped_commands_never_panic(cmds in prop::collection::vec(crate::usercmd::tests::arb_cmd(), 0..6), flips in prop::collection::vec(any::<usize>(), 1..4)) {
        let mut cmds = cmds;
        cmds.sort_by_key(|c| c.tick);
        cmds.dedup_by_key(|c| c.tick);
        let mut w = Writer::new();
        CmdPacket { snapshot_ack: Some(5), cmds }.encode(&mut w);
        let bytes = flip(w.into_inner(), &flips);
        decode_everything(&bytes, &base_for_fuzz());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Whole connections fed garbage on both channels keep running or close
    /// with a reason; they never panic.
    #[test]
    fn connections_survive_garbage(datagrams in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..64), 0..20), stream in prop::collection::vec(any::<u8>(), 0..128)) {
        let mut p = super::util::Pair::connect(99);
        let now = p.time;
        for d in &datagrams {
            p.server.handle_datagram(now, d);
            p.client.handle_datagram(now, d);
            // Garbage behind a valid header, too.
            let mut framed = vec![1, 0, 0];
            framed.extend_from_slice(d);
            p.server.handle_datagram(now, &framed);
            framed[0] = 2;
            p.client.handle_datagram(now, &framed);
        }
        p.server.handle_stream_data(now, &stream);
        p.client.handle_stream_data(now, &stream);
        p.advance(std::time::Duration::from_millis(30));
        let _ = p.server.stats();
        let _ = p.client.stats();
    }
}
