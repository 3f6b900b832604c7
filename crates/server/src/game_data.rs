//! Reading the game's content tables from the config directory: the sim
//! parses text ([`WeaponTable::from_toml`], [`ItemTable::from_toml`]); the
//! files are read here, with the same limits as every other file the
//! server reads.

use std::path::Path;

use quarry_sim::GameData;
use quarry_sim::items::ItemTable;
use quarry_sim::sound::SoundTable;
use quarry_sim::weapons::WeaponTable;

/// The largest table file read (the shipped ones are a few kB); a larger
/// file, or one that is not a regular file, is refused unread.
pub const MAX_TABLE_BYTES: u64 = 1 << 20;

/// A content table under `config/` that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum GameDataError {
    /// The file is there but could not be read: not a regular file, larger
    /// than [`MAX_TABLE_BYTES`], not UTF-8, or an I/O error.
    #[error("{file}: can't read the {what}: {problem}")]
    Unreadable {
        /// The file.
        file: String,
        /// Which table.
        what: &'static str,
        /// What is wrong with it.
        problem: quarry_console::ReadProblem,
    },
    /// The table is wrong; the message names file, line, entry and field.
    #[error("{0}")]
    Invalid(String),
}

/// Loads every table from `config_dir`. A table file that is absent means
/// the built-in table (the same as the shipped file), with a warning; a
/// file that is present but wrong is an error naming file, entry and field,
/// so a typo never silently changes the game.
pub fn load(config_dir: &Path) -> Result<GameData, GameDataError> {
    let weapons = match read(config_dir, "weapons.toml", "weapon table")? {
        Some((text, file)) => WeaponTable::from_toml(&text, &file).map_err(|e| GameDataError::Invalid(e.to_string()))?,
        None => WeaponTable::default(),
    };
    let items = match read(config_dir, "items.toml", "item table")? {
        Some((text, file)) => ItemTable::from_toml(&text, &file).map_err(|e| GameDataError::Invalid(e.to_string()))?,
        None => ItemTable::default(),
    };
    let sounds = match read(config_dir, "sounds.toml", "sound table")? {
        Some((text, file)) => SoundTable::from_toml(&text, &file).map_err(|e| GameDataError::Invalid(e.to_string()))?,
        None => SoundTable::default(),
    };
    let unknown = sounds.unknown_weapons(&weapons);
    if !unknown.is_empty() {
        let file = config_dir.join("sounds.toml").display().to_string();
        return Err(GameDataError::Invalid(format!(
            "{file}: [weapon] names no weapon of the weapon table: {} (known: {})",
            unknown.join(", "),
            weapons.iter().map(|d| d.name.as_str()).collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(GameData { weapons, items, sounds })
}

/// The text of `config_dir/name` and the name to give in errors, or `None`
/// (with a warning) when the file does not exist.
fn read(config_dir: &Path, name: &str, what: &'static str) -> Result<Option<(String, String)>, GameDataError> {
    let path = config_dir.join(name);
    let file = path.display().to_string();
    if !path.exists() {
        tracing::warn!("{file} not found; using the built-in {what}");
        return Ok(None);
    }
    quarry_console::read_text_file(&path, MAX_TABLE_BYTES)
        .map(|text| Some((text, file.clone())))
        .map_err(|e| GameDataError::Unreadable { file, what, problem: e.problem })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_tables_are_the_built_in_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        let data = load(dir.path()).expect("built-in tables");
        assert_eq!(data.weapons, WeaponTable::default());
    }

    #[test]
    fn a_sound_figure_for_an_unknown_weapon_is_refused_by_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("sounds.toml"), "[weapon]\nrailgn = 900.0\n").expect("write");
        let e = load(dir.path()).expect_err("a typo");
        assert!(e.to_string().contains("sounds.toml") && e.to_string().contains("railgn") && e.to_string().contains("railgun"), "{e}");
    }

    #[test]
    fn shipped_tables_load() {
        let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config");
        load(&config).unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn special_files_are_refused_unread() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("weapons.toml")).expect("a directory named like the table");
        let e = load(dir.path()).expect_err("a directory");
        assert!(e.to_string().contains("can't read the weapon table") && e.to_string().contains("a directory; only regular files are read"), "{e}");
        #[cfg(unix)]
        {
            let dir = tempfile::tempdir().expect("tempdir");
            std::os::unix::fs::symlink("/dev/zero", dir.path().join("items.toml")).expect("symlink");
            let e = load(dir.path()).expect_err("a device");
            assert!(e.to_string().contains("a character device"), "{e}");
        }
    }

    #[test]
    fn a_wrong_table_names_file_and_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("weapons.toml"), "[weapons.x]\n").expect("write");
        let e = load(dir.path()).expect_err("unknown top-level key");
        assert!(e.to_string().contains("weapons.toml:1:"), "{e}");
    }
}
