//! Loading chat banks: `botfiles/chats/*.chat`, sorted by file name, after
//! the styles and characters, each owner block joined to its character by
//! name (case-insensitive). Chat is optional: without a `chats/`
//! directory, or without a bank, a character is simply silent.

use std::path::Path;

use super::bank::ChatBank;
use super::parse::parse_chat_file;
use crate::content::{Content, Warning};

/// Parses chat text (`file` names it in warnings) and joins each owner
/// block to a loaded character of `content`: an unknown owner, or a second
/// bank for the same character, warns and is skipped.
pub fn add_chat_text(content: &mut Content, file: &str, source: &str, warnings: &mut Vec<Warning>) {
    for (mut bank, line) in parse_chat_file(file, source, warnings) {
        let Some(c) = content.character(&bank.owner) else {
            warnings.push(Warning {
                file: file.to_owned(),
                line,
                message: format!("characterChat '{}': no such character; block skipped", bank.owner),
            });
            continue;
        };
        bank.owner = c.name.clone();
        if content.chat_bank(&bank.owner).is_some() {
            warnings.push(Warning {
                file: file.to_owned(),
                line,
                message: format!("a second characterChat for '{}'; the first wins", bank.owner),
            });
            continue;
        }
        content.chats.push(bank);
    }
}

/// Loads every `dir/chats/*.chat` into `content` (call after characters).
pub fn load_chats(dir: &Path, content: &mut Content, warnings: &mut Vec<Warning>) {
    let path = dir.join("chats");
    let Ok(rd) = std::fs::read_dir(&path) else { return };
    let mut files: Vec<_> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "chat"))
        .collect();
    files.sort();
    for f in files {
        let name = f.display().to_string();
        match std::fs::read_to_string(&f) {
            Ok(text) => add_chat_text(content, &name, &text, warnings),
            Err(e) => warnings.push(Warning { file: name, line: 0, message: format!("can't read file: {e}") }),
        }
    }
}

impl Content {
    /// The chat bank of character `name` (case-insensitive).
    pub fn chat_bank(&self, name: &str) -> Option<&ChatBank> {
        self.chats.iter().find(|b| b.owner.eq_ignore_ascii_case(name))
    }
}
