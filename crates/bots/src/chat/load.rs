//! Loading chat banks: `botfiles/chats/*.chat`, sorted by file name, after
//! the styles and characters, each owner block joined to its character by
//! name (case-insensitive). Chat is optional: without a `chats/`
//! directory, or without a bank, a character is simply silent. Files are
//! read within the caps of [`limits`](crate::content::limits): at most
//! [`MAX_CHAT_BANKS_PER_FILE`] owner blocks are read from one file and
//! [`MAX_CHAT_BANKS`] banks kept in all.

use std::path::Path;

use super::bank::ChatBank;
use super::parse::parse_chat_file;
use crate::content::limits::{MAX_CHAT_BANKS, MAX_CHAT_BANKS_PER_FILE};
use crate::content::{Content, Warning};

/// Parses chat text (`file` names it in warnings) and joins each owner
/// block to a loaded character of `content`: an unknown owner, or a second
/// bank for the same character, warns and is skipped.
pub fn add_chat_text(content: &mut Content, file: &str, source: &str, warnings: &mut Vec<Warning>) {
    for (seen, (mut bank, line)) in parse_chat_file(file, source, warnings).into_iter().enumerate() {
        let full = if seen >= MAX_CHAT_BANKS_PER_FILE {
            Some(format!("more than {MAX_CHAT_BANKS_PER_FILE} chat banks in this file"))
        } else if content.chats.len() >= MAX_CHAT_BANKS {
            Some(format!("more than {MAX_CHAT_BANKS} chat banks in all botfiles"))
        } else {
            None
        };
        if let Some(why) = full {
            warnings.push(Warning { file: file.to_owned(), line, message: format!("{why}; this one and the rest are skipped") });
            return;
        }
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
    let Ok(files) = crate::content::read_botfile_dir(&dir.join("chats"), "chat", warnings) else { return };
    for (name, text) in files {
        add_chat_text(content, &name, &text, warnings);
    }
}

impl Content {
    /// The chat bank of character `name` (case-insensitive).
    pub fn chat_bank(&self, name: &str) -> Option<&ChatBank> {
        self.chats.iter().find(|b| b.owner.eq_ignore_ascii_case(name))
    }
}
