//! A bot's commands are what a well-behaved client sends: the server never
//! has to repair one (`status` counts repairs as a client's bad input, and
//! a bot's would drown out a bad client's). The case that once failed: a
//! spawn levels the view while the last command looked up or down, and a
//! bot that then looks far the other way asks for a command pitch past the
//! view's limit, which is an angle the delta brings back into view.

mod support;

use quarry_bots::{BotManager, BotSettings};

#[test]
fn a_minute_of_play_has_no_bot_command_repaired() {
    for (map, seed) in [("q_dm1", 3), ("q_dm1", 8), ("q_duel1", 5)] {
        let mut game = support::match_on(map, seed, 8);
        let mut bots = BotManager::new(BotSettings { min_players: 6, ..BotSettings::default() });
        support::run(&mut game, &mut bots, 60 * 90);
        let deaths: u32 = game.slots().iter().map(|(_, s)| s.score.deaths).sum();
        assert!(deaths >= 5, "{map} seed {seed}: enough respawns to matter ({deaths} deaths)");
        for (id, s) in game.slots().iter() {
            let c = s.input.counters;
            assert!(c.accepted > 1000, "{map} seed {seed}: slot {} played", id.0);
            assert_eq!(c.clamped, 0, "{map} seed {seed}: bot {} had {} of {} commands repaired", s.userinfo.name, c.clamped, c.accepted);
        }
    }
}
