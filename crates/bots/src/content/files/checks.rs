//! The checks run once every file is loaded: parents and styles that
//! exist, inherit chains without cycles and within depth, weapon names the
//! weapon table knows.

use std::collections::HashMap;

use quarry_sim::weapons::WeaponTable;

use super::model::{Content, Layer, MAX_INHERIT_DEPTH, Warning, weapon_number};

impl Content {
    /// Checks references once everything is loaded: a style's unknown,
    /// cyclic or too deep parent is dropped, a character's unknown style is
    /// dropped, and every weapon name must be in `table`.
    ///
    /// Styles are checked in load order and a dropped parent is seen by the
    /// styles checked after it. Each check walks at most
    /// [`MAX_INHERIT_DEPTH`] + 1 parents through a name index, so the whole
    /// pass is linear in the number of styles.
    pub fn finish(&mut self, table: &WeaponTable, warnings: &mut Vec<Warning>, origin: &dyn Fn(&str) -> (String, u32)) {
        let mut index: HashMap<String, usize> = HashMap::with_capacity(self.styles.len());
        for (i, s) in self.styles.iter().enumerate() {
            index.entry(s.name.to_lowercase()).or_insert(i);
        }
        for i in 0..self.styles.len() {
            let Some(parent) = self.styles[i].inherit.as_deref() else { continue };
            let name = &self.styles[i].name;
            let why = match index.get(&parent.to_lowercase()) {
                None => Some(format!("style '{name}' inherits unknown style '{parent}'; parent dropped")),
                Some(&first) => {
                    // Walk up: a cycle through this style, or a chain too deep.
                    let mut cur = Some(first);
                    let mut depth = 0;
                    let mut bad = None;
                    while let Some(p) = cur {
                        depth += 1;
                        if self.styles[p].name.eq_ignore_ascii_case(name) {
                            bad = Some(format!("style '{name}' inherits itself (cycle); parent dropped"));
                            break;
                        }
                        if depth > MAX_INHERIT_DEPTH {
                            bad = Some(format!("style '{name}' has an inherit chain deeper than {MAX_INHERIT_DEPTH}; parent dropped"));
                            break;
                        }
                        cur = self.styles[p].inherit.as_deref().and_then(|n| index.get(&n.to_lowercase()).copied());
                    }
                    bad
                }
            };
            if let Some(message) = why {
                let (file, line) = origin(&format!("style:{}", self.styles[i].name));
                warnings.push(Warning { file, line, message });
                self.styles[i].inherit = None;
            }
        }
        for i in 0..self.characters.len() {
            let Some(style) = self.characters[i].style.clone() else { continue };
            if !index.contains_key(&style.to_lowercase()) {
                let (file, line) = origin(&format!("character:{}", self.characters[i].name));
                warnings.push(Warning {
                    file,
                    line,
                    message: format!("character '{}' uses unknown style '{style}'; plays the plain curve plus its own statements", self.characters[i].name),
                });
                self.characters[i].style = None;
            }
        }
        let check = |kind: &str, name: &str, layer: &mut Layer, warnings: &mut Vec<Warning>| {
            layer.weapons.retain(|(w, _)| {
                let ok = weapon_number(table, w).is_some();
                if !ok {
                    let (file, line) = origin(&format!("{kind}:{name}"));
                    warnings.push(Warning { file, line, message: format!("{kind} '{name}': unknown weapon '{w}'; skipped") });
                }
                ok
            });
        };
        for s in &mut self.styles {
            check("style", &s.name.clone(), &mut s.layer, warnings);
        }
        for c in &mut self.characters {
            check("character", &c.name.clone(), &mut c.layer, warnings);
        }
    }
}
