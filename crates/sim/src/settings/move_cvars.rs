//! The movement cvars (`g_gravity`, `g_speed` and the `pm_*` set): one per
//! row of the movement crate's parameter table ([`PARAMS`]), registered in
//! table order and read into a [`MoveParams`] every tick, so a
//! `set g_speed 400` takes effect on the next move.

use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId, CvarSet};
use quarry_movement::pmove::{MoveParams, PARAMS};

/// Handles of the movement cvars, in [`PARAMS`] order:
/// [`MoveCvars::read`] turns them into a [`MoveParams`] without any name
/// lookup.
#[derive(Debug, Clone)]
pub struct MoveCvars {
    ids: Vec<CvarId>,
}

impl MoveCvars {
    /// Registers the movement cvars on `console`; every one shapes play.
    ///
    /// Values already given for them (`+set g_speed 400` on the command
    /// line, a `set` in server.cfg) are applied by the console as they
    /// register. Fails if one of the names is already registered.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        let ids = PARAMS
            .iter()
            .map(|p| console.register_cvar(CvarDef::float(p.name, p.default, p.min, p.max, p.help).flags(CvarFlags::PLAY)))
            .collect::<Result<_, _>>()?;
        Ok(Self { ids })
    }

    /// The current values, for this tick's moves. Cheap: one indexed read
    /// per cvar. Values the ranges allow but that contradict each other (a
    /// crouch box taller than the standing box) are made consistent by
    /// [`MoveParams::consistent`].
    pub fn read(&self, cvars: &CvarSet) -> MoveParams {
        let mut params = MoveParams::default();
        for (p, &id) in PARAMS.iter().zip(&self.ids) {
            *(p.field)(&mut params) = cvars.float(id) as f32;
        }
        params.consistent()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cvars_register_read_live_and_refuse_out_of_range() {
        let mut console: Console<()> = Console::new();
        console.execute(&mut (), "set g_speed 400", "command line");
        let cvars = MoveCvars::register(&mut console).expect("fresh console");
        assert_eq!(cvars.read(console.cvars()).speed, 400.0, "pending value applied at registration");
        console.execute(&mut (), "set pm_stepsize 24; set g_gravity 0", "test");
        let p = cvars.read(console.cvars());
        assert_eq!((p.step_size, p.gravity), (24.0, 0.0));
        assert_eq!(p.max_jump_height(), f32::INFINITY);
        assert!(console.set_cvar("pm_minWalkNormal", "2", false, "test").is_err());
        assert!(MoveCvars::register(&mut console).is_err(), "names are taken");
    }

    #[test]
    fn defaults_read_back_as_the_struct_defaults() {
        let mut console: Console<()> = Console::new();
        let cvars = MoveCvars::register(&mut console).expect("fresh console");
        assert_eq!(cvars.read(console.cvars()), MoveParams::default());
    }
}
