//! Quarry's reading of files that came from outside: a config, a map, a
//! botfile, a table, the ban list. Every crate that reads such a file reads
//! it here, with a limit of its own kind, so no file stalls or starves the
//! server; the crate knows nothing else of Quarry (the console, the map
//! loader and the movement core all sit above it).

mod read_file;

pub use read_file::{ReadFileError, ReadProblem, read_file_bytes, read_text_file};
