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
