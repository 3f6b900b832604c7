//! The bot API in Rhai: what a script reads (`me()`, `enemies()`,
//! `nearest_enemy([except])`, `teammates()`, `owner()`, `items()`, `flags()`, `teleporters()`, `order()`, `time()`,
//! `gametype()`, `team_game()`), the navmesh queries with their per-call
//! quotas (`route`, `nearest_item`, `random_reachable`, `visible`), what it
//! does (`move_dir`, `stop`, `look_at`, `set_view`, `attack`, `jump`,
//! `crouch`, `walk`, `use_item`, `drop_flag`, `select_weapon`, `release_all`, `say`,
//! `say_team`), and `rand()`, `rand_int(lo, hi)`, `log(text)`,
//! `forget()`. Every function reads and writes only the calling bot's
//! [`HostState`], found through the call's tag.

use std::sync::MutexGuard;

use glam::Vec3;
use rhai::{Array, Dynamic, Engine, EvalAltResult, FLOAT, INT, NativeCallContext};

use super::types::coord;
use crate::script::engine::SharedHost;
use crate::script::host::{HostState, ScriptChat};

/// The calling bot's host state, carried as the call's tag.
#[derive(Clone)]
pub(super) struct HostHandle(pub(super) SharedHost);

type Res<T> = Result<T, Box<EvalAltResult>>;

fn fail<T>(message: impl Into<String>) -> Res<T> {
    Err(Box::new(EvalAltResult::ErrorRuntime(Dynamic::from(message.into()), rhai::Position::NONE)))
}

/// Runs `f` on the calling bot's host state, noting where the script
/// called (the place given to an error the engine raises without one).
fn with<T>(ctx: &NativeCallContext, f: impl FnOnce(&mut HostState) -> Res<T>) -> Res<T> {
    // Borrowed, not cloned: a clone of the tag would allocate on every call.
    let Some(handle) = ctx.tag().and_then(|t| t.read_lock::<HostHandle>()) else {
        return fail("the bot API is available only inside a bot's call");
    };
    let guard: Result<MutexGuard<'_, HostState>, _> = handle.0.lock();
    match guard {
        Ok(mut host) => {
            let at = ctx.call_position();
            if let Some(line) = at.line() {
                host.api_site = Some((line, at.position().unwrap_or(0)));
            }
            f(&mut host)
        }
        Err(_) => fail("the bot's state is unavailable after an earlier failure"),
    }
}

fn opt<T: Clone + Send + Sync + 'static>(v: Option<T>) -> Dynamic {
    v.map_or(Dynamic::UNIT, Dynamic::from)
}

fn array<T: Clone + Send + Sync + 'static>(v: &[T]) -> Array {
    v.iter().cloned().map(Dynamic::from).collect()
}

fn unit_dir(v: Vec3) -> Vec3 {
    if !v.is_finite() {
        return Vec3::ZERO;
    }
    let v = Vec3::new(v.x, v.y, 0.0);
    if v.length_squared() > 1.0 { v.normalize() } else { v }
}

/// Registers the API.
pub(super) fn register(engine: &mut Engine) {
    register_reads(engine);
    register_nav(engine);
    register_actions(engine);
    register_misc(engine);
}

fn register_reads(engine: &mut Engine) {
    engine.register_fn("me", |ctx: NativeCallContext| with(&ctx, |h| Ok(h.me.clone())));
    engine.register_fn("enemies", |ctx: NativeCallContext| with(&ctx, |h| Ok(array(&h.enemies))));
    engine.register_fn("nearest_enemy", |ctx: NativeCallContext| with(&ctx, |h| Ok(opt(h.nearest_enemy(-1).cloned()))));
    engine.register_fn("nearest_enemy", |ctx: NativeCallContext, except: INT| with(&ctx, |h| Ok(opt(h.nearest_enemy(except).cloned()))));
    engine.register_fn("teammates", |ctx: NativeCallContext| with(&ctx, |h| Ok(array(&h.teammates))));
    engine.register_fn("owner", |ctx: NativeCallContext| with(&ctx, |h| Ok(opt(h.owner.clone()))));
    engine.register_fn("items", |ctx: NativeCallContext| with(&ctx, |h| Ok(array(&h.items))));
    engine.register_fn("flags", |ctx: NativeCallContext| with(&ctx, |h| Ok(array(&h.flags))));
    engine.register_fn("teleporters", |ctx: NativeCallContext| with(&ctx, |h| Ok(array(&h.teleporters))));
    engine.register_fn("order", |ctx: NativeCallContext| with(&ctx, |h| Ok(opt(h.order.clone()))));
    engine.register_fn("time", |ctx: NativeCallContext| with(&ctx, |h| Ok(h.time)));
    engine.register_fn("gametype", |ctx: NativeCallContext| with(&ctx, |h| Ok(h.gametype.clone())));
    engine.register_fn("team_game", |ctx: NativeCallContext| with(&ctx, |h| Ok(h.team_game)));
}

fn register_nav(engine: &mut Engine) {
    engine.register_fn("route", |ctx: NativeCallContext, from: Vec3, to: Vec3| {
        with(&ctx, |h| match h.route(from, to) {
            Ok(r) => Ok(r.map_or(Dynamic::UNIT, |w| Dynamic::from_array(array(&w)))),
            Err(e) => fail(e),
        })
    });
    engine.register_fn("nearest_item", |ctx: NativeCallContext, kind: &str| {
        with(&ctx, |h| match h.nearest_item(kind) {
            Ok(i) => Ok(opt(i)),
            Err(e) => fail(e),
        })
    });
    engine.register_fn("random_reachable", |ctx: NativeCallContext| {
        with(&ctx, |h| match h.random_reachable() {
            Ok(p) => Ok(opt(p)),
            Err(e) => fail(e),
        })
    });
    engine.register_fn("visible", |ctx: NativeCallContext, from: Vec3, to: Vec3| {
        with(&ctx, |h| h.visible(from, to).or_else(fail))
    });
}

fn register_actions(engine: &mut Engine) {
    engine.register_fn("move_dir", |ctx: NativeCallContext, dir: Vec3| {
        with(&ctx, |h| {
            h.cmd.move_dir = unit_dir(dir);
            Ok(())
        })
    });
    engine.register_fn("stop", |ctx: NativeCallContext| {
        with(&ctx, |h| {
            h.cmd.move_dir = Vec3::ZERO;
            Ok(())
        })
    });
    engine.register_fn("look_at", |ctx: NativeCallContext, at: Vec3| {
        with(&ctx, |h| {
            let d = at - h.me.eye;
            if d.is_finite() && d.length_squared() > 1e-6 {
                let yaw = d.y.atan2(d.x).to_degrees();
                let pitch = -(d.z.atan2(d.truncate().length())).to_degrees();
                h.cmd.view = Some((pitch, yaw));
            }
            Ok(())
        })
    });
    engine.register_fn("set_view", |ctx: NativeCallContext, pitch: FLOAT, yaw: FLOAT| {
        with(&ctx, |h| {
            h.cmd.view = Some((coord(pitch).clamp(-89.0, 89.0), coord(yaw)));
            Ok(())
        })
    });
    macro_rules! button {
        ($name:literal, $field:ident) => {
            engine.register_fn($name, |ctx: NativeCallContext, on: bool| {
                with(&ctx, |h| {
                    h.cmd.$field = on;
                    Ok(())
                })
            });
        };
    }
    button!("attack", attack);
    button!("jump", jump);
    button!("crouch", crouch);
    button!("walk", walk);
    button!("use_item", use_item);
    button!("drop_flag", drop_flag);
    engine.register_fn("release_all", |ctx: NativeCallContext| {
        with(&ctx, |h| {
            let view = h.cmd.view;
            h.cmd = crate::script::host::ScriptCommand { view, ..Default::default() };
            Ok(())
        })
    });
    engine.register_fn("select_weapon", |ctx: NativeCallContext, weapon: INT| {
        with(&ctx, |h| {
            h.cmd.weapon = u8::try_from(weapon).unwrap_or(0);
            Ok(())
        })
    });
    engine.register_fn("say", |ctx: NativeCallContext, text: &str| {
        with(&ctx, |h| {
            h.chat = Some(ScriptChat { team: false, text: text.to_owned() });
            Ok(())
        })
    });
    engine.register_fn("say_team", |ctx: NativeCallContext, text: &str| {
        with(&ctx, |h| {
            h.chat = Some(ScriptChat { team: true, text: text.to_owned() });
            Ok(())
        })
    });
}

fn register_misc(engine: &mut Engine) {
    engine.register_fn("rand", |ctx: NativeCallContext| with(&ctx, |h| Ok(FLOAT::from(h.rng.unit()))));
    engine.register_fn("rand_int", |ctx: NativeCallContext, lo: INT, hi: INT| {
        with(&ctx, |h| {
            if hi < lo {
                return fail(format!("rand_int({lo}, {hi}): the high end is under the low end"));
            }
            let span = (hi - lo).saturating_add(1) as f64;
            Ok(lo.saturating_add(((FLOAT::from(h.rng.unit()) * span).floor() as INT).min(hi - lo)))
        })
    });
    engine.register_fn("log", |ctx: NativeCallContext, text: &str| {
        with(&ctx, |h| {
            h.log_line(text);
            Ok(())
        })
    });
    engine.register_fn("forget", |ctx: NativeCallContext| {
        with(&ctx, |h| {
            h.forget = true;
            Ok(())
        })
    });
}
