//! The Rhai engine behind [`ScriptEngine`]: a raw engine (no file access,
//! no `import`, no `eval`, no clock; `print` and `debug` do nothing, `log`
//! is the API's way to the server log) with only the bot API
//! registered ([`api`]), and limits on operations per call, time per call
//! (looked at every [`TIME_CHECK_EVERY`] operations, from the progress
//! callback that counts them), call depth, expression depth, string,
//! array and map sizes. Errors the engine raises without a place get the
//! nearest one known (`place.rs`).

mod api;
mod place;
mod types;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, Map, ParseError, Position, Scope};

use super::engine::{Entry, Instance, Program, ScriptEngine, SharedHost, Source};
use super::clock::{self, CallTimer};
use super::{ScriptError, TIME_CHECK_EVERY};

/// Call depth a script may reach.
pub const MAX_CALL_LEVELS: usize = 32;
/// Expression nesting a script may have (statements, functions).
pub const MAX_EXPR_DEPTH: (usize, usize) = (64, 32);
/// The longest string a script may build, bytes.
pub const MAX_STRING: usize = 4096;
/// The longest array a script may build.
pub const MAX_ARRAY: usize = 1024;
/// The most properties an object map may have.
pub const MAX_MAP: usize = 256;
/// The most functions one file (a brain or a library file) may define, and
/// the most variables in scope at once.
pub const MAX_FUNCTIONS: usize = 256;

/// The Rhai engine, shared by every scripted bot.
#[derive(Debug)]
pub struct RhaiEngine {
    engine: Arc<Engine>,
    max_ops: Arc<AtomicU64>,
    /// A call's time limit, ns of CPU time.
    max_time: Arc<AtomicU64>,
    /// The library files of the last compile, shared by the brains
    /// compiled with them (errors quote their lines).
    libs: Mutex<Vec<Arc<Source>>>,
}

impl RhaiEngine {
    /// An engine with the bot API and the limits; `max_ops` operations per
    /// call, and [`super::DEFAULT_MAX_CALL_MS`] of time.
    pub fn new(max_ops: u64) -> Self {
        let max_ops = Arc::new(AtomicU64::new(max_ops.max(1)));
        let max_time = Arc::new(AtomicU64::new(nanos(Duration::from_secs_f64(f64::from(super::DEFAULT_MAX_CALL_MS) / 1000.0))));
        let mut engine = Engine::new_raw();
        // The language's basics (arithmetic, strings, arrays, maps, maths),
        // nothing that reaches outside: no modules (the feature is off), no
        // time (off), `print` and `debug` to the log.
        engine.register_global_module(rhai::packages::Package::as_shared_module(&rhai::packages::StandardPackage::new()));
        engine.set_max_call_levels(MAX_CALL_LEVELS);
        engine.set_max_expr_depths(MAX_EXPR_DEPTH.0, MAX_EXPR_DEPTH.1);
        engine.set_max_string_size(MAX_STRING);
        engine.set_max_array_size(MAX_ARRAY);
        engine.set_max_map_size(MAX_MAP);
        engine.set_max_functions(MAX_FUNCTIONS);
        engine.set_max_variables(MAX_FUNCTIONS);
        // `eval` would compile text at run time, out of reach of the load's checks.
        engine.disable_symbol("eval");
        let budget = Arc::clone(&max_ops);
        engine.on_progress(move |ops| {
            if ops > budget.load(Ordering::Relaxed) {
                Some(Dynamic::from(BUDGET_TOKEN))
            } else if ops.is_multiple_of(TIME_CHECK_EVERY) && clock::over_time() {
                Some(Dynamic::from(TIME_TOKEN))
            } else {
                None
            }
        });
        types::register(&mut engine);
        api::register(&mut engine);
        Self { engine: Arc::new(engine), max_ops, max_time, libs: Mutex::new(Vec::new()) }
    }

    /// `libs` as shared files: those unchanged since the last compile are
    /// the same as then.
    fn shared_libs(&self, libs: &[Source]) -> Vec<Arc<Source>> {
        let Ok(mut last) = self.libs.lock() else {
            return libs.iter().cloned().map(Arc::new).collect();
        };
        let shared: Vec<Arc<Source>> = libs
            .iter()
            .map(|l| last.iter().find(|x| ***x == *l).map_or_else(|| Arc::new(l.clone()), Arc::clone))
            .collect();
        last.clone_from(&shared);
        shared
    }
}

/// `d` in nanoseconds (saturating).
fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// The token an over-budget call is terminated with.
const BUDGET_TOKEN: &str = "operation budget";
/// The token a call over its time limit is terminated with.
const TIME_TOKEN: &str = "time limit";

impl ScriptEngine for RhaiEngine {
    fn compile(&self, brain: &Source, libs: &[Source]) -> Result<Arc<dyn Program>, ScriptError> {
        let mut ast = compile_one(&self.engine, brain)?;
        let own: Vec<String> = ast.iter_functions().map(|f| f.name.to_owned()).collect();
        let mut fn_files = BTreeMap::new();
        for lib in libs {
            let lib_ast = compile_one(&self.engine, lib)?;
            for f in lib_ast.iter_functions().filter(|f| !own.iter().any(|o| o == f.name)) {
                fn_files.insert(f.name.to_owned(), lib.name.clone());
            }
            // The brain's own functions win over a library's of the same name.
            ast = lib_ast.merge(&ast);
        }
        ast.set_source(brain.name.as_str());
        let defines = |name: &str, params: usize| ast.iter_functions().any(|f| f.name == name && f.params.len() == params);
        let entries = [defines("on_join", 0), defines("on_tick", 1), defines("on_event", 1), defines("on_reload", 0)];
        if !entries[1] {
            return Err(ScriptError::MissingEntry { file: brain.name.clone(), entry: "on_tick(dt)" });
        }
        let limit = Duration::from_nanos(self.max_time.load(Ordering::Relaxed));
        let event_kinds = if defines("event_kinds", 0) { Some(event_kinds(&self.engine, &ast, brain, limit)?) } else { None };
        let mut files = vec![Arc::new(brain.clone())];
        files.extend(self.shared_libs(libs));
        Ok(Arc::new(RhaiProgram {
            engine: Arc::clone(&self.engine),
            ast,
            file: brain.name.clone(),
            fn_files,
            files,
            max_ops: Arc::clone(&self.max_ops),
            max_time: Arc::clone(&self.max_time),
            entries,
            event_kinds,
        }))
    }

    fn set_max_ops(&self, ops: u64) {
        self.max_ops.store(ops.max(1), Ordering::Relaxed);
    }

    fn set_max_time(&self, limit: Duration) {
        self.max_time.store(nanos(limit), Ordering::Relaxed);
    }
}

/// A brain's `event_kinds()`: the event kinds it takes, asked once at load
/// (with no bot: the function may use no bot API), within a call's limits.
/// Its errors are placed where the error was, or at the function.
fn event_kinds(engine: &Engine, ast: &AST, brain: &Source, limit: Duration) -> Result<Vec<String>, ScriptError> {
    let defined = place::near(&[Arc::new(brain.clone())], None, "event_kinds").map_or((0, 0), |p| (p.line, p.column));
    let bad = |(line, column): (usize, usize), message: String| ScriptError::Runtime { file: brain.name.clone(), line, column, message };
    let (result, _) = clock::timed(CallTimer::start(limit), || {
        engine.call_fn_with_options(CallFnOptions::new().eval_ast(false), &mut Scope::new(), ast, "event_kinds", ())
    });
    let kinds: rhai::Array = result.map_err(|e| {
        let at = if e.position().is_none() { defined } else { line_column(e.position()) };
        bad(at, format!("event_kinds(): {e}"))
    })?;
    let bad = |message: String| bad(defined, message);
    kinds
        .into_iter()
        .map(|k| {
            let k = k.into_string().map_err(|t| bad(format!("event_kinds(): a {t} in the list; give names: \"chat\", \"damage\", \"kill\", \"sound\"")))?;
            if ["chat", "damage", "kill", "sound"].contains(&k.as_str()) {
                Ok(k)
            } else {
                Err(bad(format!("event_kinds(): unknown kind '{k}' (kinds: chat, damage, kill, sound)")))
            }
        })
        .collect()
}

fn compile_one(engine: &Engine, source: &Source) -> Result<AST, ScriptError> {
    let mut ast = engine.compile(&source.text).map_err(|e| parse_error(&source.name, &e))?;
    ast.set_source(source.name.as_str());
    Ok(ast)
}

fn parse_error(file: &str, e: &ParseError) -> ScriptError {
    let (line, column) = line_column(e.position());
    ScriptError::Compile { file: file.to_owned(), line, column, message: e.err_type().to_string() }
}

fn line_column(p: Position) -> (usize, usize) {
    (p.line().unwrap_or(0), p.position().unwrap_or(0))
}

/// A compiled brain.
#[derive(Debug)]
struct RhaiProgram {
    engine: Arc<Engine>,
    ast: AST,
    file: String,
    /// The library file of each library function (errors name it).
    fn_files: BTreeMap<String, String>,
    /// The brain's file and the library's (errors without a place look
    /// for one in them).
    files: Vec<Arc<Source>>,
    max_ops: Arc<AtomicU64>,
    max_time: Arc<AtomicU64>,
    /// Which of on_join, on_tick, on_event, on_reload it defines.
    entries: [bool; 4],
    /// The event kinds it takes (`None`: every kind).
    event_kinds: Option<Vec<String>>,
}

impl Program for RhaiProgram {
    fn file(&self) -> &str {
        &self.file
    }

    fn has(&self, entry: Entry<'_>) -> bool {
        self.entries[match entry {
            Entry::Join => 0,
            Entry::Tick(_) => 1,
            Entry::Event(_) => 2,
            Entry::Reload => 3,
        }]
    }

    fn instantiate(self: Arc<Self>) -> Box<dyn Instance> {
        Box::new(RhaiInstance { program: self, memory: Dynamic::from_map(Map::new()) })
    }

    fn into_any(self: Arc<Self>) -> Arc<dyn std::any::Any + Send + Sync> {
        self
    }
}

/// One bot's brain: the program and its memory (`this` in every call).
#[derive(Debug)]
struct RhaiInstance {
    program: Arc<RhaiProgram>,
    memory: Dynamic,
}

impl Instance for RhaiInstance {
    fn call(&mut self, entry: Entry<'_>, host: &SharedHost) -> Result<(), ScriptError> {
        if !self.program.has(entry) {
            return Ok(());
        }
        let p = &self.program;
        let options = CallFnOptions::new()
            .eval_ast(false)
            .bind_this_ptr(&mut self.memory)
            .with_tag(api::HostHandle(Arc::clone(host)));
        let mut scope = Scope::new();
        let name = entry.name();
        if let Ok(mut h) = host.lock() {
            h.api_site = None;
        }
        let limit = Duration::from_nanos(p.max_time.load(Ordering::Relaxed));
        let (result, _) = clock::timed(CallTimer::start(limit), || match entry {
            Entry::Join | Entry::Reload => p.engine.call_fn_with_options::<Dynamic>(options, &mut scope, &p.ast, name, ()),
            Entry::Tick(dt) => p.engine.call_fn_with_options::<Dynamic>(options, &mut scope, &p.ast, name, (dt,)),
            Entry::Event(ev) => p.engine.call_fn_with_options::<Dynamic>(options, &mut scope, &p.ast, name, (types::event_map(ev),)),
        });
        // A script may assign anything to `this`; the memory stays a map.
        if !self.memory.is_map() {
            self.memory = Dynamic::from_map(Map::new());
        }
        result.map(|_| ()).map_err(|e| {
            let site = host.lock().ok().and_then(|h| h.api_site);
            runtime_error(p, name, &e, limit, site)
        })
    }

    fn switch(&mut self, program: Arc<dyn Program>) -> Result<(), ScriptError> {
        let file = program.file().to_owned();
        match program.into_any().downcast::<RhaiProgram>() {
            Ok(p) => {
                self.program = p;
                Ok(())
            }
            Err(_) => Err(ScriptError::Engine { file, message: "the brain was compiled by another engine".to_owned() }),
        }
    }

    fn forget(&mut self) {
        self.memory = Dynamic::from_map(Map::new());
    }

    fn wants_event(&self, kind: &str) -> bool {
        self.program.entries[2] && self.program.event_kinds.as_ref().is_none_or(|k| k.iter().any(|x| x == kind))
    }
}

/// A runtime error as file, line, column and message: where it happened,
/// in the library file that defines the innermost function, if one does.
/// An error the engine passes out without a place (a limit) gets the
/// nearest place known ([`place::near`]) from `site`, the call's last bot
/// API call; a stopped call names the entry point and the limit (`limit`:
/// the call's time limit).
fn runtime_error(p: &RhaiProgram, entry: &str, e: &EvalAltResult, limit: Duration, site: Option<(usize, usize)>) -> ScriptError {
    let max_ops = p.max_ops.load(Ordering::Relaxed);
    let mut inner = e;
    let mut function = entry.to_owned();
    while let EvalAltResult::ErrorInFunctionCall(name, _, err, _) = inner {
        function.clone_from(name);
        inner = err;
    }
    let at_file = p.fn_files.get(&function).cloned().unwrap_or_else(|| p.file.clone());
    let (line, column) = line_column(inner.position());
    match inner {
        EvalAltResult::ErrorTerminated(token, _) if token.to_string() == TIME_TOKEN => ScriptError::Time { file: at_file, function, limit },
        EvalAltResult::ErrorTerminated(..) | EvalAltResult::ErrorTooManyOperations(..) => ScriptError::Budget { file: at_file, function, ops: max_ops },
        _ => {
            let mut message = match inner {
                EvalAltResult::ErrorStackOverflow(_) => format!("Stack overflow: calls nested deeper than {MAX_CALL_LEVELS}"),
                EvalAltResult::ErrorDataTooLarge(what, _) => format!("{what} too large ({})", size_limit(what)),
                EvalAltResult::ErrorTooManyVariables(_) => format!("Too many variables: more than {MAX_FUNCTIONS} in scope at once"),
                _ => inner.to_string(),
            };
            // Rhai appends the position; ours leads the line.
            if let Some(cut) = message.rfind(" (line ") {
                message.truncate(cut);
            }
            if inner.position().is_none()
                && let Some(place) = place::near(&p.files, site, entry)
            {
                return ScriptError::Runtime { file: place.file, line: place.line, column: place.column, message: format!("{message} ({})", place.what) };
            }
            ScriptError::Runtime { file: at_file, line, column, message }
        }
    }
}

/// The limit an `ErrorDataTooLarge` of `what` crossed.
fn size_limit(what: &str) -> String {
    if what.contains("string") {
        format!("at most {MAX_STRING} bytes")
    } else if what.contains("map") {
        format!("at most {MAX_MAP} properties, those of maps inside counted")
    } else {
        format!("at most {MAX_ARRAY} items, those of arrays inside counted")
    }
}
