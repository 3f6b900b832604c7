//! A map-mutation fuzz campaign, in process (issue 13): mutants of a corpus
//! of `.map` files are loaded, and every `--nav-every`th one that loads
//! also gets a navmesh; each case runs under `catch_unwind` with a
//! watchdog thread timing it. Prints counts by outcome, one `key=value`
//! line per outcome for `scripts/fuzz.sh`.
//!
//! ```text
//! cargo run --release -p quarry-nav --example fuzz_maps -- \
//!     [--cases N] [--first C] [--seed S] [--threads T] [--nav-every K] \
//!     [--budget-ms MS] [--save DIR] [--write N DIR] CORPUS_DIR_OR_FILE...
//! ```
//!
//! Outcomes: `ok` (loaded, navmesh built or not asked for), `rejected`
//! (the loader returned an error, or the navmesh build did: both are the
//! designed answer to a bad file), `panic`, `slow` (finished, but over the
//! per-case budget). A case still running at ten times the budget is a
//! `hang`: the watchdog saves it, prints the counts so far and exits with
//! status 3, so the script can count it and resume after it (`--first`:
//! the first case number to run, for resuming; cases are numbered from 0
//! to N - 1 whatever `--first` is, so a resumed run replays the same mutants).
//!
//! `--write N DIR` writes the first N mutants to DIR instead (for runs
//! through the real binary) and loads nothing. `--save DIR` keeps every
//! panicking, slow or hanging mutant as `DIR/<seed>.map`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use quarry_map::LoadOptions;
use quarry_map::fuzz::Mutator;
use quarry_nav::{Agent, BuildOptions, NavMesh, match_start_world};

/// Mutations per case, at most.
const MAX_MUTATIONS: usize = 4;
/// Node cap for the navmesh builds: the default's 65,536 nodes take
/// seconds to flood on the largest maps, and a campaign wants thousands
/// of builds; the cap exercises the same code paths.
const FUZZ_MAX_NODES: usize = 8192;

struct Args {
    cases: u64,
    first: u64,
    seed: u64,
    threads: usize,
    nav_every: u64,
    budget: Duration,
    save: Option<PathBuf>,
    write: Option<(u64, PathBuf)>,
    corpus: Vec<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        cases: 1000,
        first: 0,
        seed: 13,
        threads: 1,
        nav_every: 50,
        budget: Duration::from_millis(2000),
        save: None,
        write: None,
        corpus: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    let num = |v: Option<String>, what: &str| -> Result<u64, String> {
        v.and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{what} needs a number"))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--cases" => a.cases = num(it.next(), "--cases")?,
            "--first" => a.first = num(it.next(), "--first")?,
            "--seed" => a.seed = num(it.next(), "--seed")?,
            "--threads" => a.threads = num(it.next(), "--threads")?.max(1) as usize,
            "--nav-every" => a.nav_every = num(it.next(), "--nav-every")?,
            "--budget-ms" => a.budget = Duration::from_millis(num(it.next(), "--budget-ms")?),
            "--save" => a.save = it.next().map(PathBuf::from),
            "--write" => {
                let n = num(it.next(), "--write")?;
                let dir = it.next().ok_or("--write needs N and a directory")?;
                a.write = Some((n, PathBuf::from(dir)));
            }
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => a.corpus.push(PathBuf::from(arg)),
        }
    }
    Ok(a)
}

/// `.map` files named or found below the corpus paths, sorted.
fn corpus_files(paths: &[PathBuf]) -> Vec<(String, Vec<u8>)> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        if p.is_dir() {
            for e in std::fs::read_dir(p).into_iter().flatten().flatten() {
                walk(&e.path(), out);
            }
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("map")) {
            out.push(p.to_owned());
        }
    }
    let mut files = Vec::new();
    for p in paths {
        walk(p, &mut files);
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            Some((p.file_name()?.to_string_lossy().into_owned(), bytes))
        })
        .collect()
}

/// What happened to one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Ok,
    Rejected,
    Panic,
    Slow,
}

/// The mutant of case `case`: its seed, corpus file name and text.
fn mutant(corpus: &[(String, Vec<u8>)], seed: u64, case: u64) -> (u64, String, Vec<u8>) {
    let case_seed = seed.wrapping_mul(1_000_003).wrapping_add(case);
    let (name, base) = &corpus[(case_seed % corpus.len() as u64) as usize];
    let (text, _) = Mutator::new(case_seed).mutate(base, MAX_MUTATIONS);
    (case_seed, name.clone(), text)
}

/// Loads one mutant and, if asked, builds its navmesh.
fn run_case(name: &str, text: &[u8], nav: bool) -> Outcome {
    let text = String::from_utf8_lossy(text);
    let Ok(map) = quarry_map::load_str(&text, name, &LoadOptions::default()) else {
        return Outcome::Rejected;
    };
    if !nav {
        return Outcome::Ok;
    }
    let world = match_start_world(&map);
    let options = BuildOptions {
        max_nodes: FUZZ_MAX_NODES,
        threads: 1,
        ..BuildOptions::default()
    };
    match NavMesh::build_for_map(&map, &world, &[], &Agent::default(), &options) {
        Ok(_) => Outcome::Ok,
        // No seeds, no floor: the designed answer for a map bots cannot use.
        Err(_) => Outcome::Rejected,
    }
}

/// Counts shared between workers, the watchdog and the report.
#[derive(Default)]
struct Counts {
    ok: AtomicUsize,
    rejected: AtomicUsize,
    panic: AtomicUsize,
    slow: AtomicUsize,
    nav_built: AtomicUsize,
}

impl Counts {
    fn add(&self, o: Outcome) {
        let c = match o {
            Outcome::Ok => &self.ok,
            Outcome::Rejected => &self.rejected,
            Outcome::Panic => &self.panic,
            Outcome::Slow => &self.slow,
        };
        c.fetch_add(1, Ordering::Relaxed);
    }

    fn print(&self, hang: usize, elapsed: Duration) {
        let get = |a: &AtomicUsize| a.load(Ordering::Relaxed);
        let mut out = std::io::stdout().lock();
        let run = get(&self.ok) + get(&self.rejected) + get(&self.panic) + get(&self.slow) + hang;
        let _ = writeln!(out, "cases={run}");
        let _ = writeln!(out, "ok={}", get(&self.ok));
        let _ = writeln!(out, "rejected={}", get(&self.rejected));
        let _ = writeln!(out, "panic={}", get(&self.panic));
        let _ = writeln!(out, "slow={}", get(&self.slow));
        let _ = writeln!(out, "hang={hang}");
        let _ = writeln!(out, "nav_built={}", get(&self.nav_built));
        let _ = writeln!(out, "seconds={:.1}", elapsed.as_secs_f64());
    }
}

fn save(dir: &Option<PathBuf>, seed: u64, text: &[u8]) {
    if let Some(dir) = dir {
        let _ = std::fs::create_dir_all(dir);
        let _ = std::fs::write(dir.join(format!("{seed}.map")), text);
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("fuzz_maps: {e}");
            return ExitCode::FAILURE;
        }
    };
    let corpus = corpus_files(&args.corpus);
    if corpus.is_empty() {
        eprintln!("fuzz_maps: no .map files in the corpus");
        return ExitCode::FAILURE;
    }
    if let Some((n, dir)) = &args.write {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("fuzz_maps: {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        for case in 0..*n {
            let (seed, _, text) = mutant(&corpus, args.seed, case);
            if let Err(e) = std::fs::write(dir.join(format!("{seed}.map")), text) {
                eprintln!("fuzz_maps: {e}");
                return ExitCode::FAILURE;
            }
        }
        return ExitCode::SUCCESS;
    }
    // Panics are counted, not printed case by case: keep the first message.
    let first_panic: Arc<Mutex<Option<String>>> = Arc::default();
    {
        let first = Arc::clone(&first_panic);
        std::panic::set_hook(Box::new(move |info| {
            if let Ok(mut f) = first.lock() {
                f.get_or_insert_with(|| info.to_string());
            }
        }));
    }
    let counts = Arc::new(Counts::default());
    let next = Arc::new(AtomicU64::new(args.first));
    let start = Instant::now();
    // Per worker: the running case's seed and start (ms since `start`), 0 when idle.
    let running: Arc<Vec<(AtomicU64, AtomicU64)>> = Arc::new(
        (0..args.threads)
            .map(|_| (AtomicU64::new(0), AtomicU64::new(0)))
            .collect(),
    );
    let corpus = Arc::new(corpus);
    let watchdog = {
        let (running, counts, corpus) = (
            Arc::clone(&running),
            Arc::clone(&counts),
            Arc::clone(&corpus),
        );
        let (hard, save_dir, seed) = (args.budget * 10, args.save.clone(), args.seed);
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(100));
                let now = start.elapsed().as_millis() as u64;
                for (case_plus_one, began) in running.iter() {
                    let case = case_plus_one.load(Ordering::Relaxed);
                    let began = began.load(Ordering::Relaxed);
                    if case > 0 && now.saturating_sub(began) > hard.as_millis() as u64 {
                        let (case_seed, name, text) = mutant(&corpus, seed, case - 1);
                        save(&save_dir, case_seed, &text);
                        eprintln!(
                            "fuzz_maps: case {} (seed {case_seed}, from {name}) still running after {:?}: hang",
                            case - 1,
                            hard
                        );
                        counts.print(1, start.elapsed());
                        let _ = writeln!(std::io::stdout(), "hang_case={}", case - 1);
                        let _ = std::io::stdout().flush();
                        std::process::exit(3);
                    }
                }
            }
        })
    };
    let workers: Vec<_> = (0..args.threads)
        .map(|w| {
            let (counts, next, running, corpus) = (
                Arc::clone(&counts),
                Arc::clone(&next),
                Arc::clone(&running),
                Arc::clone(&corpus),
            );
            let (cases, seed, nav_every, budget, save_dir) = (
                args.cases,
                args.seed,
                args.nav_every,
                args.budget,
                args.save.clone(),
            );
            std::thread::spawn(move || {
                loop {
                    let case = next.fetch_add(1, Ordering::Relaxed);
                    if case >= cases {
                        break;
                    }
                    let (case_seed, name, text) = mutant(&corpus, seed, case);
                    let nav = nav_every > 0 && case % nav_every == 0;
                    let slot = &running[w];
                    slot.1
                        .store(start.elapsed().as_millis() as u64, Ordering::Relaxed);
                    slot.0.store(case + 1, Ordering::Relaxed);
                    let t = Instant::now();
                    let result =
                        std::panic::catch_unwind(|| run_case(&name, &text, nav));
                    slot.0.store(0, Ordering::Relaxed);
                    let outcome = match result {
                        Err(_) => Outcome::Panic,
                        Ok(_) if t.elapsed() > budget => Outcome::Slow,
                        Ok(o) => o,
                    };
                    if nav && matches!(result, Ok(Outcome::Ok)) {
                        counts.nav_built.fetch_add(1, Ordering::Relaxed);
                    }
                    if matches!(outcome, Outcome::Panic | Outcome::Slow) {
                        save(&save_dir, case_seed, &text);
                        eprintln!(
                            "fuzz_maps: case {case} (seed {case_seed}, from {name}): {outcome:?} after {:?}",
                            t.elapsed()
                        );
                    }
                    counts.add(outcome);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    drop(watchdog);
    counts.print(0, start.elapsed());
    if let Ok(f) = first_panic.lock()
        && let Some(msg) = f.as_ref()
    {
        eprintln!("fuzz_maps: first panic: {msg}");
    }
    ExitCode::SUCCESS
}
