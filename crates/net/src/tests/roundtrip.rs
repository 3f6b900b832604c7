//! Every control-stream message round-trips through its frame encoding.

use proptest::prelude::*;

use super::arb;
use crate::codec::{FrameBuffer, encode_frame};
use crate::reliable::{ClientFrame, ServerFrame, disconnect_from_close, disconnect_to_close};

fn client_frame() -> impl Strategy<Value = ClientFrame> {
    prop_oneof![arb::hello().prop_map(ClientFrame::Hello), arb::client_message().prop_map(ClientFrame::Message)]
}

fn server_frame() -> impl Strategy<Value = ServerFrame> {
    prop_oneof![
        arb::welcome().prop_map(ServerFrame::Welcome),
        arb::reject().prop_map(ServerFrame::Reject),
        arb::server_message().prop_map(ServerFrame::Message),
    ]
}

proptest! {
    #[test]
    fn client_frames_round_trip(f in client_frame()) {
        prop_assert_eq!(ClientFrame::decode(&f.encode())?, f);
    }

    #[test]
    fn server_frames_round_trip(f in server_frame()) {
        prop_assert_eq!(ServerFrame::decode(&f.encode())?, f);
    }

    #[test]
    fn frames_survive_the_stream(frames in prop::collection::vec(server_frame(), 1..6)) {
        let mut stream = Vec::new();
        for f in &frames {
            encode_frame(&f.encode(), &mut stream);
        }
        let mut fb = FrameBuffer::new();
        let mut got = Vec::new();
        for chunk in stream.chunks(7) {
            fb.push(chunk);
            while let Some(p) = fb.next_frame()? {
                got.push(ServerFrame::decode(&p)?);
            }
        }
        prop_assert_eq!(got, frames);
    }

    #[test]
    fn close_reasons_round_trip(d in arb::disconnect()) {
        let (code, bytes) = disconnect_to_close(&d);
        prop_assert_eq!(code, d.close_code());
        prop_assert_eq!(disconnect_from_close(u64::from(code), &bytes), d);
    }
}

#[test]
fn over_long_strings_are_cut_not_rejected() {
    use crate::reliable::{ClientMessage, MAX_CHAT_LEN};
    let long = "x".repeat(MAX_CHAT_LEN * 2);
    let f = ClientFrame::Message(ClientMessage::Chat { scope: crate::reliable::ChatScope::All, text: long });
    match ClientFrame::decode(&f.encode()) {
        Ok(ClientFrame::Message(ClientMessage::Chat { text, .. })) => assert_eq!(text.len(), MAX_CHAT_LEN),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn map_messages_cut_short_or_bent_do_not_decode() {
    use crate::codec::DecodeError;
    use crate::map_transfer::{MapChunk, MapHash, MapRefusal};
    use crate::reliable::{ClientMessage, ServerMessage};
    let hash = MapHash::of(b"q_dm1");
    let request = ClientFrame::Message(ClientMessage::MapRequest { hash, offset: 70_000 }).encode();
    let chunk = ServerFrame::Message(ServerMessage::MapChunk(MapChunk { hash, size: 100, total: 40, offset: 30, data: vec![7; 10] })).encode();
    let refused = ServerFrame::Message(ServerMessage::MapRefused { hash, reason: MapRefusal::TooManyRequests { retry_after_s: 20 } }).encode();
    for cut in 1..request.len() {
        assert!(ClientFrame::decode(&request[..cut]).is_err(), "request cut at {cut}");
    }
    for frame in [&chunk, &refused] {
        for cut in 1..frame.len() {
            assert!(ServerFrame::decode(&frame[..cut]).is_err(), "cut at {cut}");
        }
    }
    // A byte more is trailing; a refusal tag nobody knows is refused.
    let mut long = request.clone();
    long.push(0);
    assert_eq!(ClientFrame::decode(&long), Err(DecodeError::TrailingBytes(1)));
    let mut bent = refused.clone();
    let tag = 1 + 32;
    bent[tag] = 99;
    assert_eq!(ServerFrame::decode(&bent), Err(DecodeError::UnknownTag { what: "map refusal", tag: 99 }));
    // A chunk that claims more data than its map holds.
    let over = ServerFrame::Message(ServerMessage::MapChunk(MapChunk { hash, size: 100, total: 35, offset: 30, data: vec![7; 10] })).encode();
    assert_eq!(ServerFrame::decode(&over), Err(DecodeError::Invalid("map chunk past the end of the map")));
}

#[test]
fn refusals_read_as_sentences_that_name_what_to_do() {
    use crate::map_transfer::{MapHash, MapRefusal};
    let hash = MapHash::of(b"q_dm1");
    let off = MapRefusal::DownloadsOff { file: "q_dm1.map".into(), hash }.to_string();
    assert!(off.contains("sv_allowDownload 0") && off.contains("q_dm1.map") && off.contains(&hash.to_string()), "{off}");
    let big = MapRefusal::TooBig { size: 20_000, max: 1024 }.to_string();
    assert!(big.contains("20000") && big.contains("1024"), "{big}");
    assert!(MapRefusal::TooManyRequests { retry_after_s: 12 }.to_string().contains("try again in 12 s"));
}
