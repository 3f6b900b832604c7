//! Quarry's movement core, shared by the server's simulation and by
//! clients (Quake 3's `bg_pmove.c`, compiled into both games): the user
//! command ([`UserCmd`], [`Buttons`], the angle unit a command's angles are
//! rounded to) and player movement ([`pmove`]) with its parameters as a
//! plain struct ([`pmove::MoveParams`]), and what jump pads and teleporters
//! do to a moving player ([`triggers`]), and other players' boxes as
//! obstacles ([`obstacles`]).
//!
//! Rules: no ECS, no console, no sockets, no clock, no RNG. The world is
//! reached only through [`quarry_map::Trace`]; the parameters arrive as a
//! value (the sim fills them from its cvars, a client from what the server
//! sent). So the same state, command, world and parameters give the same
//! move, bit for bit, wherever it runs. How a command travels is its
//! carriers' business: the net crate frames it in datagrams, the record
//! crate in recordings, both over this one type.

pub mod obstacles;
pub mod pmove;
pub mod triggers;
pub mod usercmd;

pub use usercmd::{
    ANGLE_UNIT, Buttons, MAX_PITCH, MAX_PITCH_UNITS, Sanitised, UserCmd, angle_to_units, units_to_angle,
    wrap_half_turn,
};
