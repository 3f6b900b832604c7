//! Issue 13 regressions: an `inherit` chain of 100k styles hung the loader
//! (20k took 6 s: a linear style lookup inside the chain walk), a FIFO
//! botfile blocked it forever, and a symlink to `/dev/zero` ran it out of
//! memory. Counts and warnings are asserted, never wall time.

use std::path::Path;

use quarry_sim::weapons::WeaponTable;

use super::*;
use crate::content::files::{Content, Layer, MAX_INHERIT_DEPTH, Style, Warning};
use crate::content::load_botfiles;

/// `style "s0"` .. `style "s{n-1}"`, each inheriting the one before, three
/// lines each, so style `k` opens on line `3k + 1`.
fn chain_text(n: usize) -> String {
    let mut out = String::from("style \"s0\" {\n description \"root\"\n}\n");
    for i in 1..n {
        out.push_str(&format!("style \"s{i}\" {{\n inherit \"s{}\"\n}}\n", i - 1));
    }
    out
}

/// A botfiles directory under the system temp dir, removed on drop (the
/// crate has no tempfile dependency).
struct TempBotfiles(std::path::PathBuf);

impl TempBotfiles {
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempBotfiles {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn botfiles(files: &[(&str, &str)]) -> TempBotfiles {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = TempBotfiles(std::env::temp_dir().join(format!("quarry-limits-{}-{n}", std::process::id())));
    let _ = std::fs::remove_dir_all(dir.path());
    for sub in ["styles", "characters", "chats"] {
        std::fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
    }
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

fn texts(w: &[Warning]) -> Vec<String> {
    w.iter().map(ToString::to_string).collect()
}

#[test]
fn inherit_check_of_a_100k_chain_is_linear() {
    let n = 100_000;
    let styles = (0..n)
        .map(|i| Style {
            name: format!("S{i}"),
            description: String::new(),
            inherit: (i > 0).then(|| format!("s{}", i - 1)),
            layer: Layer::default(),
        })
        .collect();
    let mut c = Content { styles, ..Content::default() };
    let mut w = Vec::new();
    c.finish(&WeaponTable::default(), &mut w, &|_| ("chain.style".into(), 0));
    // Checked in order, each drop shortening the chains after it: every
    // ninth style has a chain one deeper than allowed and loses its parent.
    assert_eq!(w.len(), (n - 1) / (MAX_INHERIT_DEPTH + 1));
    assert!(w.iter().all(|w| w.message.contains("deeper than")), "{:?}", &w[..3]);
    // What is left is a forest of chains no deeper than allowed.
    let index: std::collections::HashMap<String, usize> =
        c.styles.iter().enumerate().map(|(i, s)| (s.name.to_lowercase(), i)).collect();
    for start in 0..n {
        let mut depth = 0;
        let mut cur = c.styles[start].inherit.as_deref();
        while let Some(p) = cur {
            depth += 1;
            assert!(depth <= MAX_INHERIT_DEPTH, "style {start} is too deep");
            cur = index.get(&p.to_lowercase()).and_then(|&i| c.styles[i].inherit.as_deref());
        }
    }
}

#[test]
fn cycles_are_still_found_through_the_index() {
    let mut c = Content::default();
    c.add_text("c.style", "style \"a\" { \n inherit \"B\"\n}\nstyle \"b\" {\n inherit \"a\"\n}\n", &mut Vec::new());
    let mut w = Vec::new();
    c.finish(&WeaponTable::default(), &mut w, &|_| ("c.style".into(), 0));
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].message.contains("'a' inherits itself (cycle)"), "{}", w[0]);
}

#[test]
fn a_20k_style_chain_file_loads_its_first_styles_and_says_where_it_stopped() {
    let dir = botfiles(&[("styles/chain.style", &chain_text(20_000))]);
    let (c, w) = load_botfiles(dir.path());
    assert_eq!(c.styles.len(), MAX_STYLES_PER_FILE);
    let t = texts(&w);
    let cap: Vec<_> = t.iter().filter(|w| w.contains("more than")).collect();
    assert_eq!(cap.len(), 2, "one warning per cap: {cap:?}");
    let line = 3 * MAX_STYLES_PER_FILE + 1;
    assert!(cap[0].contains(&format!("chain.style:{line}: more than {MAX_STYLES_PER_FILE} styles in this file")), "{}", cap[0]);
    // One statement per style: the statement cap ends the file later on.
    let line = 3 * MAX_STATEMENTS_PER_FILE + 2;
    assert!(cap[1].contains(&format!("chain.style:{line}: more than {MAX_STATEMENTS_PER_FILE} statements")), "{}", cap[1]);
}

#[test]
fn a_100k_style_chain_file_is_too_large_to_read() {
    let dir = botfiles(&[("styles/chain.style", &chain_text(100_000))]);
    let (c, w) = load_botfiles(dir.path());
    assert!(c.styles.is_empty());
    let t = texts(&w);
    assert!(t.iter().any(|w| w.contains(&format!("chain.style:0: can't read file: it is larger than {MAX_BOTFILE_BYTES} bytes"))), "{t:?}");
}

#[test]
fn styles_are_capped_across_files() {
    let files: Vec<(String, String)> = (0..MAX_STYLES / MAX_STYLES_PER_FILE + 1)
        .map(|f| {
            let text: String = (0..MAX_STYLES_PER_FILE).map(|i| format!("style \"f{f}s{i}\" {{\n}}\n")).collect();
            (format!("styles/{f}.style"), text)
        })
        .collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let dir = botfiles(&refs);
    let (c, w) = load_botfiles(dir.path());
    assert_eq!(c.styles.len(), MAX_STYLES);
    let last = MAX_STYLES / MAX_STYLES_PER_FILE;
    assert!(
        texts(&w).iter().any(|w| w.contains(&format!("{last}.style:1: more than {MAX_STYLES} styles in all botfiles"))),
        "{:?}",
        texts(&w)
    );
}

#[test]
fn statements_are_capped_per_file() {
    let body = " set aggression 0.5\n".repeat(MAX_STATEMENTS_PER_FILE + 5);
    let text = format!("style \"ok\" {{\n}}\nstyle \"long\" {{\n{body}}}\n");
    let dir = botfiles(&[("styles/long.style", &text)]);
    let (c, w) = load_botfiles(dir.path());
    // The definition the cap cut off is dropped; the ones before it load.
    assert_eq!(c.styles.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["ok"]);
    let line = 3 + MAX_STATEMENTS_PER_FILE + 1;
    assert!(
        texts(&w).iter().any(|w| w.contains(&format!("long.style:{line}: more than {MAX_STATEMENTS_PER_FILE} statements"))),
        "{:?}",
        texts(&w)
    );
}

#[test]
fn chat_banks_are_capped_per_file() {
    let chars: String = (0..MAX_CHAT_BANKS_PER_FILE + 3).map(|i| format!("character \"C{i}\" {{\n}}\n")).collect();
    let banks: String =
        (0..MAX_CHAT_BANKS_PER_FILE + 3).map(|i| format!("characterChat \"C{i}\" {{\n chat kill {{ \"gg\" }}\n}}\n")).collect();
    let dir = botfiles(&[("characters/a.bot", &chars[..]), ("characters/b.bot", ""), ("chats/all.chat", &banks)]);
    let (c, w) = load_botfiles(dir.path());
    assert_eq!(c.characters.len(), MAX_CHARACTERS_PER_FILE);
    assert_eq!(c.chats.len(), MAX_CHARACTERS_PER_FILE, "banks of characters that were not kept are unknown owners");
    let t = texts(&w);
    let line = 3 * MAX_CHAT_BANKS_PER_FILE + 1;
    assert!(t.iter().any(|w| w.contains(&format!("all.chat:{line}: more than {MAX_CHAT_BANKS_PER_FILE} chat banks in this file"))), "{t:?}");
}

#[test]
fn files_are_capped_per_directory_first_by_name() {
    let dir = botfiles(&[]);
    for i in 0..MAX_FILES_PER_DIR + 4 {
        std::fs::write(dir.path().join(format!("characters/{i:04}.bot")), format!("character \"c{i}\" {{\n}}\n")).expect("write");
    }
    let (c, w) = load_botfiles(dir.path());
    assert_eq!(c.characters.len(), MAX_FILES_PER_DIR);
    assert_eq!(c.characters.last().map(|c| c.name.clone()), Some(format!("c{}", MAX_FILES_PER_DIR - 1)));
    let t = texts(&w);
    assert!(t.iter().any(|w| w.contains(&format!("{} .bot files, more than {MAX_FILES_PER_DIR}", MAX_FILES_PER_DIR + 4))), "{t:?}");
}

fn mkfifo(path: &Path) -> bool {
    let ok = std::process::Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success());
    if !ok {
        eprintln!("mkfifo unavailable; FIFO case skipped");
    }
    ok
}

#[test]
fn special_and_huge_botfiles_are_refused_with_a_warning() {
    let big = "// padding\n".repeat((MAX_BOTFILE_BYTES / 11 + 1) as usize);
    let dir = botfiles(&[("styles/big.style", &big), ("characters/ok.bot", "character \"Ok\" {\n}\n")]);
    std::fs::create_dir(dir.path().join("styles/folder.style")).expect("mkdir");
    let mut expected = vec![("big.style", "larger than"), ("folder.style", "a directory")];
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("characters/zero.bot")).expect("symlink");
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("chats/zero.chat")).expect("symlink");
        expected.push(("zero.bot", "a character device"));
        expected.push(("zero.chat", "a character device"));
        if mkfifo(&dir.path().join("styles/pipe.style")) {
            expected.push(("pipe.style", "a FIFO"));
        }
    }
    let (c, w) = load_botfiles(dir.path());
    assert_eq!(c.characters.len(), 1, "the good file still loads");
    let t = texts(&w);
    for (file, what) in expected {
        assert!(t.iter().any(|w| w.contains(&format!("{file}:0: can't read file: it is {what}"))), "{file}: {t:?}");
    }
}
