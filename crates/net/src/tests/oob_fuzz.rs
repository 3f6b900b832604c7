//! Out-of-band datagrams as fuzz targets: random bytes after the prefix,
//! valid requests cut short, made too long or bit-flipped go into the
//! handler and every out-of-band decoder. Each must return without a
//! panic, every datagram must be counted exactly once (answered or dropped
//! with a reason), and no answer may pass one datagram's size.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use proptest::prelude::*;

use crate::oob::{MAX_ANSWER, OobHandler, OobInfo, OobLimits, OobPlayer, PREFIX, Published, a2s, q3};

fn published() -> Published {
    let players = (0..70).map(|i| OobPlayer { name: format!("player \\\"{i}\";\n"), score: i - 5, ping_ms: 40, bot: i % 3 == 0, seconds: 1.5 }).collect();
    let info = OobInfo { hostname: "h\\o\"st".repeat(40), map: "q_dm1".into(), gametype: "ffa".into(), max_clients: 64, players, ..OobInfo::default() };
    Published::new(&info, 27960)
}

/// Every request the handler answers, whole.
fn valid_requests() -> Vec<Vec<u8>> {
    let with = |body: &[u8]| {
        let mut d = PREFIX.to_vec();
        d.extend_from_slice(body);
        d
    };
    let mut info = vec![a2s::INFO];
    info.extend_from_slice(a2s::INFO_PAYLOAD);
    vec![with(b"getinfo abc"), with(b"getstatus xyz"), with(b"getstatus"), with(&info), with(&[a2s::PLAYER, 0xFF, 0xFF, 0xFF, 0xFF]), with(&[a2s::RULES, 1, 2, 3, 4])]
}

fn check(handler: &mut OobHandler, p: &Published, datagram: &[u8], from: SocketAddr, now: Instant) {
    let _ = q3::parse_request(datagram.get(4..).unwrap_or(&[]));
    let _ = a2s::parse_request(datagram.get(4..).unwrap_or(&[]));
    let _ = q3::parse_server_list(datagram);
    let _ = q3::parse_info_response(datagram);
    let before = handler.stats();
    let answer = handler.handle(now, from, datagram, p);
    let s = handler.stats();
    if let Some(a) = &answer {
        assert!(a.len() <= MAX_ANSWER, "{} bytes", a.len());
    }
    let drops = |s: &crate::oob::OobStats| s.limited_address + s.limited_global + s.malformed + s.oversized + s.unknown + s.refused;
    assert_eq!(s.received, before.received + 1);
    assert_eq!(s.answered - before.answered + drops(&s) - drops(&before), 1, "counted once: {datagram:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_after_the_prefix_are_counted_and_never_panic(tail in prop::collection::vec(any::<u8>(), 0..600), port in 0u16..4) {
        let t0 = Instant::now();
        let mut h = OobHandler::new(OobLimits::default(), &[3; 32], t0);
        let mut d = PREFIX.to_vec();
        d.extend_from_slice(&tail);
        check(&mut h, &published(), &d, SocketAddr::from(([192, 0, 2, 9], port)), t0);
    }

    #[test]
    fn valid_requests_cut_grown_or_flipped(which in 0usize..6, cut in 0usize..40, grow in 0usize..400, flips in prop::collection::vec(0usize..400, 0..6)) {
        let t0 = Instant::now();
        let mut h = OobHandler::new(OobLimits::default(), &[3; 32], t0);
        let p = published();
        let from = SocketAddr::from(([192, 0, 2, 9], 5000));
        let base = valid_requests().swap_remove(which);
        let cut_to = base.len().saturating_sub(cut);
        check(&mut h, &p, &base[..cut_to], from, t0);
        let mut grown = base.clone();
        grown.extend(std::iter::repeat_n(b'x', grow));
        check(&mut h, &p, &grown, from, t0 + Duration::from_millis(1));
        let mut flipped = base;
        let len = flipped.len();
        for f in &flips {
            if let Some(b) = flipped.get_mut((f / 8) % len) {
                *b ^= 1 << (f % 8);
            }
        }
        check(&mut h, &p, &flipped, from, t0 + Duration::from_millis(2));
    }
}
