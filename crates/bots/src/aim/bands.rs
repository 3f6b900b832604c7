//! [`AimBands`]: the accuracy each skill's aim is calibrated to, per weapon
//! (`config/aim_bands.toml`), and whether a measured figure is inside it.
//!
//! Bands are hits per shot in percent, counted as the sim's accuracy book
//! counts them. Skill 1 and skill 3 have a band; skill 5 has a ceiling
//! only; skills 2 and 4 must lie between their neighbours (2 between skill
//! 1's lowest and skill 3's highest, 4 between skill 3's lowest and skill
//! 5's ceiling). The file is an operator's to change; it carries only
//! numbers, and a bad one is refused with its weapon and field.

use std::collections::BTreeMap;

use serde::Deserialize;

/// Why a bands file was refused.
#[derive(Debug, thiserror::Error)]
pub enum BandsError {
    /// Not TOML of the expected shape.
    #[error("aim bands: {0}")]
    Parse(#[from] toml::de::Error),
    /// A number out of range or a band upside down.
    #[error("aim bands: {weapon}.{field}: {why}")]
    Invalid {
        /// The weapon's table.
        weapon: String,
        /// The field.
        field: &'static str,
        /// What is allowed.
        why: String,
    },
}

/// One weapon's bands, percent.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponBands {
    /// Skill 1: lowest and highest.
    pub skill1: [f64; 2],
    /// Skill 3: lowest and highest.
    pub skill3: [f64; 2],
    /// Skill 5's ceiling.
    pub skill5_max: f64,
}

/// Where a measured figure lies against its band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Inside the band (or under the ceiling).
    Inside,
    /// Below it.
    Below,
    /// Above it.
    Above,
}

impl Verdict {
    /// A short word for tables.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Inside => "in band",
            Verdict::Below => "BELOW",
            Verdict::Above => "ABOVE",
        }
    }
}

impl WeaponBands {
    /// The band of a whole skill level (1 to 5), percent; skill 5's
    /// lowest is skill 3's highest (a skill-5 bot does not aim worse
    /// than an average one).
    pub fn band(&self, skill: u8) -> Option<(f64, f64)> {
        match skill {
            1 => Some((self.skill1[0], self.skill1[1])),
            2 => Some((self.skill1[0], self.skill3[1])),
            3 => Some((self.skill3[0], self.skill3[1])),
            4 => Some((self.skill3[0], self.skill5_max)),
            5 => Some((self.skill3[1], self.skill5_max)),
            _ => None,
        }
    }

    /// Where `percent` lies for `skill` (`None` for a skill outside 1 to 5).
    pub fn verdict(&self, skill: u8, percent: f64) -> Option<Verdict> {
        let (lo, hi) = self.band(skill)?;
        Some(if percent < lo {
            Verdict::Below
        } else if percent > hi {
            Verdict::Above
        } else {
            Verdict::Inside
        })
    }
}

/// Every weapon's bands, by weapon name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AimBands {
    /// Per weapon name (`lightning_gun`).
    pub weapons: BTreeMap<String, WeaponBands>,
}

impl AimBands {
    /// Parses and checks a bands file's text.
    pub fn parse(text: &str) -> Result<Self, BandsError> {
        let weapons: BTreeMap<String, WeaponBands> = toml::from_str(text)?;
        for (weapon, b) in &weapons {
            let invalid = |field, why: &str| BandsError::Invalid { weapon: weapon.clone(), field, why: why.to_owned() };
            let percent = |v: f64| v.is_finite() && (0.0..=100.0).contains(&v);
            for (field, band) in [("skill1", b.skill1), ("skill3", b.skill3)] {
                if !band.iter().all(|v| percent(*v)) || band[0] > band[1] {
                    return Err(invalid(field, "a [lowest, highest] pair of percentages, 0 to 100, lowest first"));
                }
            }
            if !percent(b.skill5_max) {
                return Err(invalid("skill5_max", "a percentage, 0 to 100"));
            }
            if b.skill3[0] < b.skill1[0] || b.skill5_max < b.skill3[1] {
                return Err(invalid("skill3", "skill 3's band above skill 1's and under skill 5's ceiling"));
            }
        }
        Ok(Self { weapons })
    }

    /// The bands of `weapon`.
    pub fn weapon(&self, weapon: &str) -> Option<&WeaponBands> {
        self.weapons.get(weapon)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_bands_parse_and_judge() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/aim_bands.toml")).expect("shipped");
        let bands = AimBands::parse(&text).expect("valid");
        let lg = bands.weapon("lightning_gun").expect("lightning gun");
        assert_eq!(lg.verdict(1, 10.0), Some(Verdict::Inside));
        assert_eq!(lg.verdict(3, 35.0), Some(Verdict::Above));
        assert_eq!(lg.verdict(5, 46.0), Some(Verdict::Above));
        assert_eq!(lg.verdict(4, 25.0), Some(Verdict::Inside));
        assert_eq!(lg.verdict(6, 25.0), None);
        for w in ["railgun", "plasma_gun", "rocket_launcher", "shotgun", "machinegun"] {
            assert!(bands.weapon(w).is_some(), "{w}");
        }
    }

    #[test]
    fn a_bad_band_is_refused_with_its_weapon_and_field() {
        let err = AimBands::parse("[railgun]\nskill1 = [30, 12]\nskill3 = [30, 40]\nskill5_max = 60\n").expect_err("upside down");
        assert!(err.to_string().contains("railgun.skill1"), "{err}");
        let err = AimBands::parse("[railgun]\nskill1 = [12, 22]\nskill3 = [30, 40]\nskill5_max = 160\n").expect_err("over 100");
        assert!(err.to_string().contains("skill5_max"), "{err}");
        assert!(AimBands::parse("[railgun]\nskill1 = [12, 22]\nskill3 = [30, 40]\nskill5_max = 60\nsecret = 1\n").is_err(), "unknown fields are refused");
    }
}
