//! The client library against a fake server over real QUIC on 127.0.0.1.

mod common;

use std::time::{Duration, Instant};

use common::{FakeServer, MOVER, NEXT_MAP};
use quarry_client::{
    ChatScope, Client, ClientOptions, ConnectError, Driver, Fingerprint, Notice, Progress,
    RandomInput, RejectReason, ScriptInput, run_drivers,
};

#[test]
fn a_scripted_client_sees_the_world_move_chats_and_reports_stats() {
    let server = FakeServer::start(None);
    let client = Client::join(ClientOptions::pinned(
        server.addr,
        "tester",
        server.fingerprint,
    ))
    .expect("join");
    assert_eq!(client.map(), Some("q_dm1"));
    let script = ScriptInput::parse(
        "0 forward=127 yaw=90\n0.3 say hello there\n0.4 say_team team only\n0.5 cmd score\n",
    )
    .expect("script");
    let mut d = Driver::new(client, Box::new(script), 60.0);

    let mut mover_x = Vec::new();
    let mut notices = Vec::new();
    let end = Instant::now() + Duration::from_millis(1600);
    while Instant::now() < end {
        assert_eq!(d.tick(Instant::now()).expect("tick"), Progress::Playing);
        if let Some(e) = d.client().view().entity(MOVER) {
            mover_x.push(e.origin[0]);
        }
        notices.extend(d.client_mut().take_notices());
        std::thread::sleep(Duration::from_millis(4));
    }
    let c = d.client();

    // The moving entity moved, steadily forward; our own player moved by our commands.
    assert!(mover_x.len() > 30, "{} samples", mover_x.len());
    assert!(
        mover_x.windows(2).all(|w| w[0] <= w[1]),
        "mover went backwards"
    );
    let travelled =
        mover_x.last().copied().unwrap_or_default() - mover_x.first().copied().unwrap_or_default();
    assert!(travelled > 200.0, "mover travelled {travelled}");
    let me = c.view().player().expect("player");
    assert!(me.origin[0] > 100.0, "we did not move: {:?}", me.origin);
    assert_eq!(me.health, 100);
    let near = c.view().nearest(3);
    assert_eq!(near.first().map(|(_, e)| e.id), Some(MOVER));

    // Chat both ways, prints, the scoreboard and the map change.
    let chat: Vec<String> = c.chat_log().map(|l| l.text.clone()).collect();
    assert!(chat.contains(&"welcome tester".to_string()), "{chat:?}");
    assert!(chat.contains(&"hello there".to_string()), "{chat:?}");
    assert!(
        c.chat_log()
            .any(|l| l.scope == ChatScope::Team && l.text == "team only" && l.from == Some(0))
    );
    assert!(
        notices
            .iter()
            .any(|n| matches!(n, Notice::Print(p) if p == "tester entered the game")),
        "{notices:?}"
    );
    assert!(notices.iter().any(
        |n| matches!(n, Notice::Scoreboard(b) if b.rows.len() == 1 && b.rows[0].name == "tester")
    ));
    assert!(
        notices
            .iter()
            .any(|n| matches!(n, Notice::MapChange { map } if map == NEXT_MAP))
    );
    assert_eq!(c.map(), Some(NEXT_MAP));
    assert_eq!(c.config_strings().get(&1).map(String::as_str), Some("next"));

    // Statistics.
    let stats = c.stats();
    assert!(
        stats.bytes_in_per_s > 0 && stats.bytes_out_per_s > 0,
        "{stats:?}"
    );
    assert!(stats.snapshots_per_s >= 20, "{stats:?}");
    assert!(
        stats.ping.is_some_and(|p| p < Duration::from_millis(100)),
        "{stats:?}"
    );
    assert!(
        stats.snapshots_total > 30 && stats.cmds_sent > 60,
        "{stats:?}"
    );
    assert!(stats.loss_in < 0.05, "{stats:?}");
    assert!(c.session_stats().to_string().contains("B/s"));

    drop(d);
    // Let the server's loop see the goodbye before it stops.
    std::thread::sleep(Duration::from_millis(100));
    let record = server.stop();
    // Commands: strictly increasing ticks aimed at the server's clock.
    let cmds = record.cmds.values().next().expect("commands arrived");
    assert!(cmds.len() > 60, "{} commands", cmds.len());
    assert!(
        cmds.windows(2).all(|w| w[0].1 < w[1].1),
        "command ticks not increasing"
    );
    for &(server_tick, cmd_tick) in cmds {
        assert!(
            cmd_tick.abs_diff(server_tick) <= 8,
            "command for tick {cmd_tick} arrived at server tick {server_tick}"
        );
    }
    assert_eq!(
        record.chat,
        vec![
            (ChatScope::All, "hello there".into()),
            (ChatScope::Team, "team only".into())
        ]
    );
    assert_eq!(record.commands, vec!["score".to_string()]);
    assert_eq!(record.map_loaded, vec![NEXT_MAP.to_string()]);
    assert_eq!(
        record.disconnects,
        vec![quarry_client::DisconnectReason::Quit]
    );
}

#[test]
fn refusals_and_a_wrong_pin_fail_with_the_reason() {
    let server = FakeServer::start(Some(RejectReason::Full));
    let err = Client::join(ClientOptions::pinned(
        server.addr,
        "late",
        server.fingerprint,
    ))
    .expect_err("refused");
    assert!(
        matches!(err, ConnectError::Rejected(RejectReason::Full)),
        "{err:?}"
    );
    assert_eq!(err.to_string(), "server is full");

    let err = Client::join(
        ClientOptions::pinned(server.addr, "mitm", Fingerprint([9; 32]))
            .connect_timeout(Duration::from_secs(3)),
    )
    .expect_err("pin");
    assert!(matches!(err, ConnectError::CertificateMismatch), "{err:?}");
    drop(server);
}

#[test]
fn several_random_clients_from_one_thread_see_each_other() {
    let server = FakeServer::start(None);
    let mut drivers: Vec<Driver> = (0..4)
        .map(|i| {
            let c = Client::connect(ClientOptions::insecure(server.addr, format!("r{i}")))
                .expect("connect");
            Driver::new(c, Box::new(RandomInput::new(i)), 30.0)
        })
        .collect();
    // Until everyone sees the mover and the three others, and has played a while.
    let all_see = run_drivers(
        &mut drivers,
        Instant::now() + Duration::from_secs(5),
        |ds| {
            ds.iter()
                .all(|d| d.client().view().entity_count() == 4 && d.client().stats().cmds_sent > 15)
        },
    )
    .expect("tick");
    assert!(all_see, "{drivers:?}");
    for d in &drivers {
        let v = d.client().view();
        // The mover and the three others.
        assert_eq!(v.entity_count(), 4, "{:?}", d.client());
        assert!(d.client().stats().cmds_sent > 15);
    }
    // The server going down is a clean end for every client.
    let record = server.stop();
    assert_eq!(record.hellos.len(), 4);
    let end = Instant::now() + Duration::from_secs(2);
    let mut over = 0;
    while over < drivers.len() && Instant::now() < end {
        over = drivers
            .iter_mut()
            .filter_map(|d| d.tick(Instant::now()).ok())
            .filter(|p| *p == Progress::Over(quarry_client::DisconnectReason::ServerShuttingDown))
            .count();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(over, drivers.len());
}
