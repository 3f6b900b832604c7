//! Issue 13, "no input kills or starves the server", console part.
//!
//! Symptoms: an `exec` fan-out (a.cfg execs b.cfg ten times, b execs c ten
//! times, ... eight levels: 10^8 leaf executions, no recursion) hung the
//! server at startup; a config that is a FIFO or a symlink to `/dev/zero`
//! must be refused without blocking or reading without end. Plus a
//! proptest over arbitrary config text: the tokenizer and `exec` never
//! panic and stay within the budget.

use std::path::Path;

use proptest::prelude::*;
use quarry_console::{
    ConsoleError, Console, CvarDef, ExecError, MAX_EXEC_FILES, MAX_EXEC_STATEMENTS, MAX_OUTPUT_LINES, ReadProblem,
};

fn console(dir: &Path) -> Console<()> {
    let mut c = Console::new();
    c.register_cvar(CvarDef::int("hits", 0, 0, i64::MAX, "counts leaf executions")).expect("hits");
    c.register_cvar(CvarDef::string("sv_hostname", "Quarry", "server name")).expect("sv_hostname");
    c.set_allow_pending(false);
    c.set_config_dir(dir);
    c
}

/// `f0.cfg` execs `f1.cfg` `fanout` times, and so on down to `f{levels}.cfg`,
/// which sets a cvar.
fn write_fanout(dir: &Path, levels: usize, fanout: usize) {
    for level in 0..levels {
        let body = format!("exec f{}\n", level + 1).repeat(fanout);
        std::fs::write(dir.join(format!("f{level}.cfg")), body).expect("write");
    }
    std::fs::write(dir.join(format!("f{levels}.cfg")), "sv_hostname leaf\n").expect("write leaf");
}

fn budget_errors(diagnostics: &[String]) -> Vec<&String> {
    diagnostics.iter().filter(|l| l.contains("in one top-level command")).collect()
}

#[test]
fn exec_fanout_stops_at_the_file_budget_with_one_message() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_fanout(dir.path(), 8, 10);
    let mut c = console(dir.path());
    c.exec_file(&mut (), "f0").expect("the outer file runs");
    let out = c.drain_output();
    let errors = budget_errors(&out);
    assert_eq!(errors.len(), 1, "reported once: {:?}", &out[..out.len().min(5)]);
    assert!(errors[0].contains(&format!("more than {MAX_EXEC_FILES} files")), "{}", errors[0]);
    // It names the file and line of the `exec` that overran the budget.
    assert!(errors[0].contains("f7.cfg:"), "{}", errors[0]);
}

#[test]
fn the_next_top_level_command_gets_a_fresh_budget() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_fanout(dir.path(), 8, 10);
    std::fs::write(dir.path().join("ok.cfg"), "sv_hostname fine\n").expect("write");
    let mut c = console(dir.path());
    c.exec_file(&mut (), "f0").expect("runs");
    c.drain_output();
    let d = c.execute(&mut (), "exec ok", "console");
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(c.cvars().find("sv_hostname").map(|v| v.value().to_string()).as_deref(), Some("fine"));
}

#[test]
fn statements_stop_at_the_statement_budget_naming_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Two files of cheap statements, executed 4 times each from one line.
    let leaf = "hits 1\n".repeat(MAX_EXEC_STATEMENTS / 4);
    std::fs::write(dir.path().join("leaf.cfg"), leaf).expect("write");
    let mut c = console(dir.path());
    let d = c.execute(&mut (), "exec leaf; exec leaf; exec leaf; exec leaf; exec leaf; echo after", "console");
    let out = c.drain_output();
    let errors = budget_errors(&out);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains(&format!("more than {MAX_EXEC_STATEMENTS} statements")), "{}", errors[0]);
    assert!(errors[0].contains("leaf.cfg:"), "{}", errors[0]);
    // The rest of the top-level command is skipped, `echo after` included.
    assert!(!out.iter().any(|l| l == "after"), "{:?}", &out[out.len().saturating_sub(3)..]);
    assert!(d.is_empty(), "the budget error is reported inside the exec, not on the console line");
}

#[test]
fn a_console_line_counts_its_own_statements() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = console(dir.path());
    let line = "hits 1;".repeat(MAX_EXEC_STATEMENTS + 10);
    let d = c.execute(&mut (), &line, "console");
    assert_eq!(d.len(), 1, "one error for the whole line");
    assert!(matches!(d[0].error, ConsoleError::Exec(ExecError::BudgetExceeded { what: "statements", .. })));
}

#[test]
fn output_is_capped_between_drains() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = console(dir.path());
    for i in 0..MAX_OUTPUT_LINES + 5 {
        c.print(format!("line {i}"));
    }
    let out = c.drain_output();
    assert_eq!(out.len(), MAX_OUTPUT_LINES + 1);
    assert!(out[MAX_OUTPUT_LINES].contains("5 more lines of output dropped"), "{}", out[MAX_OUTPUT_LINES]);
    c.print("again");
    assert_eq!(c.drain_output(), vec!["again".to_owned()]);
}

fn exec_problem(c: &mut Console<()>, name: &str) -> ReadProblem {
    match c.exec_file(&mut (), name) {
        Err(ExecError::Unreadable { problem, .. }) => problem,
        other => panic!("{name}: expected an unreadable file, got {other:?}"),
    }
}

#[test]
fn special_and_huge_files_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = console(dir.path());
    std::fs::create_dir(dir.path().join("folder.cfg")).expect("mkdir");
    assert!(matches!(exec_problem(&mut c, "folder.cfg"), ReadProblem::NotRegular { found: "a directory" }));
    let big = "// padding\n".repeat((quarry_console::MAX_EXEC_BYTES / 11 + 1) as usize);
    std::fs::write(dir.path().join("big.cfg"), big).expect("write");
    assert!(matches!(exec_problem(&mut c, "big.cfg"), ReadProblem::TooLarge { .. }));
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.cfg")).expect("symlink");
        assert!(matches!(exec_problem(&mut c, "zero.cfg"), ReadProblem::NotRegular { found: "a character device" }));
        let fifo = dir.path().join("pipe.cfg");
        if std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
            assert!(matches!(exec_problem(&mut c, "pipe.cfg"), ReadProblem::NotRegular { found: "a FIFO" }));
        } else {
            eprintln!("mkfifo unavailable; FIFO case skipped");
        }
    }
}

/// Config-looking text: words the console knows, quotes, separators,
/// comments, newlines and some raw characters.
fn cfg_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("exec a".to_owned()),
        Just("exec b.cfg".to_owned()),
        Just("exec nope".to_owned()),
        Just("hits 1".to_owned()),
        Just("set hits -5".to_owned()),
        Just("seta sv_hostname \"x; y\"".to_owned()),
        Just("toggle hits 1 2 3".to_owned()),
        Just("reset hits".to_owned()),
        Just("cvarlist".to_owned()),
        Just("help exec".to_owned()),
        Just("\"".to_owned()),
        Just(";".to_owned()),
        Just("//".to_owned()),
        Just("\n".to_owned()),
        "[ -~\\t]{0,12}",
        any::<String>().prop_map(|s| s.chars().take(8).collect()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Arbitrary text in two files that exec each other (and themselves)
    /// never panics, and every run stays inside the budget.
    #[test]
    fn exec_of_arbitrary_config_text_never_panics(a in cfg_text(), b in cfg_text(), line in cfg_text()) {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.cfg"), &a).expect("write a");
        std::fs::write(dir.path().join("b.cfg"), &b).expect("write b");
        let mut c = console(dir.path());
        let _ = c.exec_file(&mut (), "a");
        c.execute(&mut (), &line, "console");
        let out = c.drain_output();
        prop_assert!(out.len() <= MAX_OUTPUT_LINES + 1);
        for s in quarry_console::tokenize(&line).into_iter().flatten() {
            prop_assert!(!s.tokens.is_empty());
        }
    }
}

/// The fan-out above with every level at the widest a 1 MiB file allows
/// still ends at once: the budget, not the file sizes, bounds the work.
#[test]
fn regression_wide_fanout_ends() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_fanout(dir.path(), 16, 1000);
    let mut c = console(dir.path());
    c.exec_file(&mut (), "f0").expect("runs");
    let out = c.drain_output();
    assert_eq!(budget_errors(&out).len(), 1);
}
