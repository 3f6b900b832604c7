//! How much botfile content is read, and why.
//!
//! Botfiles are the operator's, but a typo, a generated file gone wrong or
//! a hostile file must cost warnings, never a stalled or starved server. So
//! every file is read with [`read_text_file`](quarry_console::read_text_file)
//! (regular files only, at most [`MAX_BOTFILE_BYTES`]), each of `styles/`,
//! `characters/` and `chats/` is read up to [`MAX_FILES_PER_DIR`] files and
//! [`MAX_BYTES_PER_DIR`] bytes (first by name), and the definitions kept are
//! capped per file and in all. The numbers are far above the shipped set
//! (16 files per directory of a few kB, 4 styles, 16 characters); whatever
//! is over a cap is skipped with one warning naming the file and line where
//! the cap was reached.

/// The largest botfile read (the shipped ones are under 10 kB).
pub const MAX_BOTFILE_BYTES: u64 = 1 << 20;
/// Files read from each of `styles/`, `characters/` and `chats/` (first by name).
pub const MAX_FILES_PER_DIR: usize = 256;
/// Bytes read from each of `styles/`, `characters/` and `chats/`.
pub const MAX_BYTES_PER_DIR: u64 = 8 << 20;
/// Styles kept from one file.
pub const MAX_STYLES_PER_FILE: usize = 256;
/// Styles kept in all.
pub const MAX_STYLES: usize = 1024;
/// Characters kept from one file.
pub const MAX_CHARACTERS_PER_FILE: usize = 256;
/// Characters kept in all.
pub const MAX_CHARACTERS: usize = 1024;
/// Chat banks (`characterChat` blocks) read from one file.
pub const MAX_CHAT_BANKS_PER_FILE: usize = 256;
/// Chat banks kept in all (one per character at most anyway).
pub const MAX_CHAT_BANKS: usize = MAX_CHARACTERS;
/// Statements (`set`, `weapon`, `skill` ...) read from one style or
/// character file; the rest of the file is skipped.
pub const MAX_STATEMENTS_PER_FILE: usize = 10_000;

#[cfg(test)]
mod tests;
