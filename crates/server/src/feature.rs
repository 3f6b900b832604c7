//! How server features plug into the tick: the interfaces every feature
//! folder implements and the registry the server drives them through.
//!
//! A feature (web view, metrics, demos, health file, match cards, Agones,
//! match results, ...) owns its state, registers its cvars and commands on
//! the console itself, and never sees the server's state. The tick hands it
//! what it may know, built once per tick:
//!
//! - an [`Observer`] reads a [`TickReport`] after every tick (the tick's
//!   events, the match, the bots, the cvars, the timing) and changes
//!   nothing outside itself;
//! - a [`Controller`] reads the same report and asks for changes by
//!   queueing console statements in [`Requests`], as an operator would
//!   type them (Quake 3's game asks its engine the same way); the server
//!   runs them after the controller returns, in order, under the
//!   controller's origin.
//!
//! Adding a feature is: implement one of the two, and add one line to
//! [`crate::server::Server::new`] that registers it.

use std::any::Any;
use std::path::Path;
use std::time::{Duration, Instant};

use quarry_console::CvarSet;
use quarry_sim::Match;
use quarry_sim::events::GameEvent;

use crate::headless::HeadlessSummary;

/// What a feature may know of the match and the server between ticks.
#[derive(Clone, Copy)]
pub struct MatchView<'a> {
    /// The running match, once a map is loaded.
    pub game: Option<&'a Match>,
    /// The running map's name (empty before one is loaded).
    pub map_name: &'a str,
    /// The running map's file.
    pub map_path: Option<&'a Path>,
    /// Matches started since the server started: a new value is a new match.
    pub matches_started: u64,
    /// A headless match (`--fast`): no network, no sleeping.
    pub headless: bool,
    /// The server's socket is bound (players can join).
    pub listening: bool,
    /// The certificate fingerprint clients pin, when listening.
    pub fingerprint: Option<&'a str>,
    /// The bot clients.
    pub bots: &'a quarry_bots::BotManager,
    /// Every cvar.
    pub cvars: &'a CvarSet,
    /// The config folder.
    pub config_dir: &'a Path,
}

/// Figures the server gathers once a second for the features that export
/// them (the metrics).
#[derive(Debug, Default)]
pub struct ServerSample {
    /// Ticks that started late, in all.
    pub late_ticks: u64,
    /// Game log records lost, in all.
    pub game_log_lost: u64,
    /// What crossed the network since the last sample, when listening.
    pub traffic: Option<crate::network::traffic::TrafficSample>,
    /// What the observers refused, in all ([`Observer::refusals`]).
    pub refused: Vec<Refused>,
}

/// A running total of requests a feature refused, by class and reason
/// (exported as `quarry_net_dropped_total{class, reason}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused {
    /// What was refused (`web`).
    pub class: &'static str,
    /// Why (`wrong_password`).
    pub reason: &'static str,
    /// How many, since the server started.
    pub total: u64,
}

/// One tick, as the features see it after it ran.
pub struct TickReport<'a> {
    /// The match and the server as the tick left them.
    pub view: MatchView<'a>,
    /// Ticks the server ran, this one included.
    pub tick: u64,
    /// The server's tick rate.
    pub hz: u32,
    /// What happened in the match this tick.
    pub events: &'a [GameEvent],
    /// When the tick started.
    pub started: Instant,
    /// Once a second, the server's figures (see [`ServerSample`]).
    pub sample: Option<&'a ServerSample>,
}

/// A tick's timing, once the whole tick's work was measured.
pub struct Measured<'a> {
    /// When the tick started.
    pub started: Instant,
    /// How long the tick's work took (the features' included).
    pub tick_time: Duration,
    /// The tick timing figures over the last ticks, this one included.
    pub stats: &'a crate::tick_stats::TickStats,
    /// The running map's name, when a match runs.
    pub map_name: Option<&'a str>,
    /// Every cvar.
    pub cvars: &'a CvarSet,
}

/// What a [`Controller`] asks the server to do, in the order asked.
#[derive(Debug, Default)]
pub struct Requests {
    asked: Vec<Request>,
}

/// One thing a controller asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// A console statement: a command or cvar name and its arguments, run
    /// as given (no console text is parsed, so an argument cannot become a
    /// second statement).
    Run {
        /// The command or cvar.
        name: String,
        /// Its arguments.
        args: Vec<String>,
    },
    /// A line for the server's console (and its log).
    Print(String),
    /// Stop the server after this tick, for this reason.
    Quit(String),
}

impl Requests {
    /// Queues `name args...` to run on the console.
    pub fn run(&mut self, name: &str, args: &[&str]) {
        self.asked.push(Request::Run { name: name.to_owned(), args: args.iter().map(|a| (*a).to_owned()).collect() });
    }

    /// Queues a line for the server console.
    pub fn print(&mut self, line: String) {
        self.asked.push(Request::Print(line));
    }

    /// Asks the server to stop after this tick.
    pub fn quit(&mut self, reason: String) {
        self.asked.push(Request::Quit(reason));
    }

    /// Takes what was asked for, in order.
    pub fn take(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.asked)
    }
}

/// A feature that reads every tick and changes nothing outside itself.
pub trait Observer: Any {
    /// A cvar changed, or the startup files and command line are done
    /// (`startup_done`): restart what the cvars configure. Returns a line
    /// for the console.
    fn sync(&mut self, _cvars: &CvarSet, _startup_done: bool) -> Option<String> {
        None
    }
    /// Before a tick, before anyone joins in it.
    fn before_tick(&mut self, _view: &MatchView<'_>) {}
    /// After a tick.
    fn after_tick(&mut self, report: &TickReport<'_>);
    /// After the tick's time was taken (what runs here is not counted in
    /// it): figures of the tick's cost, work handed to other threads.
    fn tick_measured(&mut self, _measured: &Measured<'_>) {}
    /// The match ended (`summary`: its result, when it has one).
    fn match_over(&mut self, _view: &MatchView<'_>, _summary: Option<&HeadlessSummary>) {}
    /// The server is stopping for `reason` (`summary` as at a match end).
    fn shutdown(&mut self, _view: &MatchView<'_>, _summary: Option<&HeadlessSummary>, _reason: &str) {}
    /// Lines for `status`.
    fn status(&self, _lines: &mut Vec<String>) {}
    /// What this feature refused so far, for the metrics.
    fn refusals(&self, _out: &mut Vec<Refused>) {}
}

/// A feature that asks for changes to the match or the server.
pub trait Controller: Any {
    /// After a tick, after the observers.
    fn after_tick(&mut self, report: &TickReport<'_>, requests: &mut Requests);
    /// The match ended. Asking to quit keeps the next map from loading.
    fn match_over(&mut self, _view: &MatchView<'_>, _requests: &mut Requests) {}
    /// The server is stopping.
    fn shutdown(&mut self) {}
}

/// A controller and the origin its statements run under.
struct Registered {
    origin: &'static str,
    controller: Box<dyn Controller>,
}

/// Every registered feature, in registration order (the order they run).
#[derive(Default)]
pub struct Features {
    observers: Vec<Box<dyn Observer>>,
    controllers: Vec<Registered>,
}

impl std::fmt::Debug for Features {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Features").field("observers", &self.observers.len()).field("controllers", &self.controllers.len()).finish()
    }
}

impl Features {
    /// Registers an observer.
    pub fn observe(&mut self, observer: impl Observer) {
        self.observers.push(Box::new(observer));
    }

    /// Registers a controller whose statements run under `origin` (in
    /// errors and the game log's admin lines).
    pub fn control(&mut self, origin: &'static str, controller: impl Controller) {
        self.controllers.push(Registered { origin, controller: Box::new(controller) });
    }

    /// The registered feature of type `T`, if one is.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        let observers = self.observers.iter().map(|o| o.as_ref() as &dyn Any);
        let controllers = self.controllers.iter().map(|c| c.controller.as_ref() as &dyn Any);
        observers.chain(controllers).find_map(|f| f.downcast_ref::<T>())
    }

    /// The registered feature of type `T`, mutably.
    pub fn get_mut<T: 'static>(&mut self) -> Option<&mut T> {
        let observers = self.observers.iter_mut().map(|o| o.as_mut() as &mut dyn Any);
        let controllers = self.controllers.iter_mut().map(|c| c.controller.as_mut() as &mut dyn Any);
        observers.chain(controllers).find_map(|f| f.downcast_mut::<T>())
    }

    /// Removes the observer of type `T` and returns it.
    pub fn take_observer<T: 'static>(&mut self) -> Option<T> {
        let at = self.observers.iter().position(|o| (o.as_ref() as &dyn Any).is::<T>())?;
        let boxed: Box<dyn Any> = self.observers.remove(at);
        boxed.downcast::<T>().ok().map(|b| *b)
    }

    /// [`Observer::sync`] on every observer; their lines in order.
    pub fn sync(&mut self, cvars: &CvarSet, startup_done: bool) -> Vec<String> {
        self.observers.iter_mut().filter_map(|o| o.sync(cvars, startup_done)).collect()
    }

    /// [`Observer::before_tick`] on every observer.
    pub fn before_tick(&mut self, view: &MatchView<'_>) {
        self.observers.iter_mut().for_each(|o| o.before_tick(view));
    }

    /// [`Observer::after_tick`] on every observer.
    pub fn after_tick(&mut self, report: &TickReport<'_>) {
        for o in &mut self.observers {
            o.after_tick(report);
        }
    }

    /// How many controllers there are.
    pub fn controller_count(&self) -> usize {
        self.controllers.len()
    }

    /// The controller at `index` looks at the tick; returns the origin its
    /// requests run under (`None` past the last one).
    pub fn control_one(&mut self, index: usize, report: &TickReport<'_>, requests: &mut Requests) -> Option<&'static str> {
        let c = self.controllers.get_mut(index)?;
        c.controller.after_tick(report, requests);
        Some(c.origin)
    }

    /// [`Observer::tick_measured`] on every observer.
    pub fn tick_measured(&mut self, measured: &Measured<'_>) {
        self.observers.iter_mut().for_each(|o| o.tick_measured(measured));
    }

    /// The match ended: every observer, then every controller's requests.
    pub fn match_over(&mut self, view: &MatchView<'_>, summary: Option<&HeadlessSummary>) -> Vec<(&'static str, Requests)> {
        for o in &mut self.observers {
            o.match_over(view, summary);
        }
        self.controllers
            .iter_mut()
            .map(|c| {
                let mut requests = Requests::default();
                c.controller.match_over(view, &mut requests);
                (c.origin, requests)
            })
            .collect()
    }

    /// The server is stopping: every observer, then every controller.
    pub fn shutdown(&mut self, view: &MatchView<'_>, summary: Option<&HeadlessSummary>, reason: &str) {
        for o in &mut self.observers {
            o.shutdown(view, summary, reason);
        }
        for c in &mut self.controllers {
            c.controller.shutdown();
        }
    }

    /// Every observer's refusals so far.
    pub fn refusals(&self) -> Vec<Refused> {
        let mut out = Vec::new();
        for o in &self.observers {
            o.refusals(&mut out);
        }
        out
    }

    /// Every observer's `status` lines.
    pub fn status(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for o in &self.observers {
            o.status(&mut lines);
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default)]
    struct Counter {
        ticks: u32,
    }

    impl Observer for Counter {
        fn after_tick(&mut self, _report: &TickReport<'_>) {
            self.ticks += 1;
        }
    }

    #[derive(Debug)]
    struct Asker(&'static str);

    impl Controller for Asker {
        fn after_tick(&mut self, _report: &TickReport<'_>, requests: &mut Requests) {
            requests.print(format!("{} looked", self.0));
            requests.run("say", &[self.0, "two words"]);
        }

        fn match_over(&mut self, _view: &MatchView<'_>, requests: &mut Requests) {
            requests.quit(format!("{} is done", self.0));
        }
    }

    #[test]
    fn features_are_found_by_type_and_an_observer_can_be_taken_back() {
        let mut features = Features::default();
        features.observe(Counter::default());
        features.control("asker", Asker("a"));
        assert!(features.get::<Counter>().is_some() && features.get::<Asker>().is_some());
        features.get_mut::<Counter>().expect("registered").ticks = 5;
        let taken = features.take_observer::<Counter>().expect("registered");
        assert_eq!(taken.ticks, 5);
        assert!(features.get::<Counter>().is_none(), "taken out");
        assert!(features.take_observer::<Asker>().is_none(), "a controller is no observer");
    }

    #[test]
    fn requests_keep_their_order_and_arguments_stay_whole() {
        let mut requests = Requests::default();
        requests.print("first".to_owned());
        requests.run("kick", &["3", "a reason; quit"]);
        requests.quit("done".to_owned());
        assert_eq!(
            requests.take(),
            vec![
                Request::Print("first".to_owned()),
                Request::Run { name: "kick".to_owned(), args: vec!["3".to_owned(), "a reason; quit".to_owned()] },
                Request::Quit("done".to_owned()),
            ]
        );
        assert!(requests.take().is_empty(), "taken once");
    }
}
