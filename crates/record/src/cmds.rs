//! A chunk's commands, coded compactly: a recording is mostly commands
//! (eight players send 480 a second), and a command the sim ran is
//! sanitised, so its angles are whole 1/65536 turns. Within a chunk each
//! slot's command is coded against that slot's previous one:
//!
//! - the angles by second-order prediction (a turning player keeps turning
//!   at about the same rate), so a smooth turn costs a byte or less;
//! - moves, buttons and the weapon only when they changed, named by a
//!   flags byte; a move as its change (a steering player's moves drift as
//!   its view turns);
//! - the command's own tick only when it is not the record's.
//!
//! Each kind of field goes into a column of its own (flags, yaw, pitch,
//! moves...), which zstd then compresses far better than interleaved
//! records. The coding starts afresh in every chunk, so a chunk decodes
//! alone (seeking needs no earlier chunk).

use std::collections::BTreeMap;

use quarry_movement::{Buttons, UserCmd, units_to_angle};
use serde::{Deserialize, Serialize};

/// The command's tick is not the record's (then a signed difference follows).
const F_TICK: u8 = 1;
/// Buttons changed.
const F_BUTTONS: u8 = 1 << 1;
/// Weapon changed.
const F_WEAPON: u8 = 1 << 2;
/// Forward, right, up changed (one bit each, from this one up).
const F_MOVE: u8 = 1 << 3;

/// The columns of a chunk's commands.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct CmdColumns {
    /// Per tick, the slots that have a command (a bit per slot, varint).
    slots: Vec<u8>,
    /// Per command, its flags.
    flags: Vec<u8>,
    /// Per command with `F_TICK`, its tick minus the record's (zigzag varint).
    ticks: Vec<u8>,
    /// Per command, the yaw's prediction error in angle units (zigzag varint).
    yaw: Vec<u8>,
    /// Per command, the pitch's prediction error (zigzag varint).
    pitch: Vec<u8>,
    /// Per command whose forward, right or up move changed: the change
    /// (zigzag varint), a column per axis.
    moves: [Vec<u8>; 3],
    /// Per command with `F_BUTTONS`: the buttons (varint).
    buttons: Vec<u8>,
    /// Per command with `F_WEAPON`: the weapon.
    weapons: Vec<u8>,
}

/// One slot's coding state: its previous command and angular rates.
#[derive(Debug, Clone, Copy, Default)]
struct SlotState {
    last: UserCmd,
    yaw: u16,
    yaw_rate: i16,
    pitch: i16,
    pitch_rate: i16,
}

impl SlotState {
    fn predicted_yaw(&self) -> u16 {
        self.yaw.wrapping_add_signed(self.yaw_rate)
    }

    fn predicted_pitch(&self) -> i32 {
        i32::from(self.pitch) + i32::from(self.pitch_rate)
    }

    fn advance(&mut self, cmd: UserCmd, yaw: u16, pitch: i16) {
        self.yaw_rate = yaw.wrapping_sub(self.yaw) as i16;
        self.pitch_rate = pitch.wrapping_sub(self.pitch);
        self.yaw = yaw;
        self.pitch = pitch;
        self.last = cmd;
    }
}

/// The most slots a recording holds (the sim's limit).
const SLOTS: u8 = 128;

/// The set of slots as a bitmask.
fn slot_bits(cmds: &[(u8, UserCmd)]) -> Result<u128, String> {
    let mut bits = 0u128;
    let mut prev: Option<u8> = None;
    for (slot, _) in cmds {
        if *slot >= SLOTS {
            return Err(format!("slot {slot} is beyond the {SLOTS} a recording holds"));
        }
        if prev.is_some_and(|p| p >= *slot) {
            return Err(format!("slot {slot} out of order or twice in one tick"));
        }
        prev = Some(*slot);
        bits |= 1 << slot;
    }
    Ok(bits)
}

impl CmdColumns {

    /// Codes the commands of consecutive ticks: `ticks` gives each record's
    /// tick and its commands (slots ascending, below 128).
    pub(crate) fn encode<'a>(ticks: impl IntoIterator<Item = (u32, &'a [(u8, UserCmd)])>) -> Result<Self, String> {
        let mut out = Self::default();
        let mut state: BTreeMap<u8, SlotState> = BTreeMap::new();
        for (tick, cmds) in ticks {
            put_varint(&mut out.slots, slot_bits(cmds)?);
            for (slot, cmd) in cmds {
                let s = state.entry(*slot).or_default();
                let mut flags = 0;
                if cmd.tick != tick {
                    flags |= F_TICK;
                    put_signed(&mut out.ticks, i64::from(cmd.tick) - i64::from(tick));
                }
                for (axis, (new, old)) in axes(cmd).into_iter().zip(axes(&s.last)).enumerate() {
                    if new != old {
                        flags |= F_MOVE << axis;
                        put_signed(&mut out.moves[axis], i64::from(new) - i64::from(old));
                    }
                }
                if cmd.buttons != s.last.buttons {
                    flags |= F_BUTTONS;
                    put_varint(&mut out.buttons, u64::from(cmd.buttons.0));
                }
                if cmd.weapon != s.last.weapon {
                    flags |= F_WEAPON;
                    out.weapons.push(cmd.weapon);
                }
                out.flags.push(flags);
                let (yaw, pitch) = (cmd.yaw_units(), cmd.pitch_units());
                put_signed(&mut out.yaw, i64::from(yaw.wrapping_sub(s.predicted_yaw()) as i16));
                put_signed(&mut out.pitch, i64::from(pitch) - i64::from(s.predicted_pitch()));
                s.advance(*cmd, yaw, pitch);
            }
        }
        Ok(out)
    }

    /// The commands back, for records whose ticks are `ticks` (the same
    /// ones, in the same order, as encoded).
    pub(crate) fn decode(&self, ticks: impl IntoIterator<Item = u32>) -> Result<Vec<Vec<(u8, UserCmd)>>, String> {
        let mut r = Readers::default();
        let mut state: BTreeMap<u8, SlotState> = BTreeMap::new();
        let mut out = Vec::new();
        for tick in ticks {
            let bits = get_varint(&self.slots, &mut r.slots, "slots")?;
            let mut cmds = Vec::with_capacity(bits.count_ones() as usize);
            for slot in (0..SLOTS).filter(|s| bits & (1 << s) != 0) {
                let s = state.entry(slot).or_default();
                let flags = *self.flags.get(r.flags).ok_or("the flags column ends early")?;
                r.flags += 1;
                let mut cmd = s.last;
                cmd.tick = tick;
                if flags & F_TICK != 0 {
                    let d = get_signed(&self.ticks, &mut r.ticks, "ticks")?;
                    cmd.tick = u32::try_from(i64::from(tick) + d).map_err(|_| format!("a command tick {tick}{d:+} out of range"))?;
                }
                let mut moves = axes(&cmd);
                for (axis, value) in moves.iter_mut().enumerate() {
                    if flags & (F_MOVE << axis) != 0 {
                        let d = get_signed(&self.moves[axis], &mut r.moves[axis], "moves")?;
                        *value = i8::try_from(i64::from(*value) + d).map_err(|_| format!("a move change {d} out of range"))?;
                    }
                }
                [cmd.forward, cmd.right, cmd.up] = moves;
                if flags & F_BUTTONS != 0 {
                    let b = get_varint(&self.buttons, &mut r.buttons, "buttons")?;
                    cmd.buttons = Buttons(u16::try_from(b).map_err(|_| format!("buttons {b} out of range"))?);
                }
                if flags & F_WEAPON != 0 {
                    cmd.weapon = *self.weapons.get(r.weapons).ok_or("the weapons column ends early")?;
                    r.weapons += 1;
                }
                let dy = get_signed(&self.yaw, &mut r.yaw, "yaw")?;
                let yaw = s.predicted_yaw().wrapping_add_signed(i16::try_from(dy).map_err(|_| format!("a yaw step {dy} out of range"))?);
                let dp = get_signed(&self.pitch, &mut r.pitch, "pitch")?;
                let pitch = i16::try_from(i64::from(s.predicted_pitch()) + dp).map_err(|_| format!("a pitch step {dp} out of range"))?;
                cmd.yaw = units_to_angle(i32::from(yaw));
                cmd.pitch = units_to_angle(i32::from(pitch));
                s.advance(cmd, yaw, pitch);
                cmds.push((slot, cmd));
            }
            out.push(cmds);
        }
        Ok(out)
    }
}

/// Read positions in each column.
#[derive(Debug, Default)]
struct Readers {
    slots: usize,
    flags: usize,
    ticks: usize,
    yaw: usize,
    pitch: usize,
    moves: [usize; 3],
    buttons: usize,
    weapons: usize,
}

/// Forward, right and up.
fn axes(cmd: &UserCmd) -> [i8; 3] {
    [cmd.forward, cmd.right, cmd.up]
}

fn put_varint(out: &mut Vec<u8>, v: impl Into<u128>) {
    let mut v: u128 = v.into();
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_signed(out: &mut Vec<u8>, v: i64) {
    put_varint(out, ((v << 1) ^ (v >> 63)) as u64);
}

fn get_varint(data: &[u8], at: &mut usize, column: &str) -> Result<u128, String> {
    let mut v = 0u128;
    for shift in (0..128).step_by(7) {
        let b = *data.get(*at).ok_or_else(|| format!("the {column} column ends early"))?;
        *at += 1;
        v |= u128::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(format!("an overlong number in the {column} column"))
}

fn get_signed(data: &[u8], at: &mut usize, column: &str) -> Result<i64, String> {
    let v = u64::try_from(get_varint(data, at, column)?).map_err(|_| format!("a number out of range in the {column} column"))?;
    Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(tick: u32, yaw: f32, pitch: f32, forward: i8, buttons: u16) -> UserCmd {
        let mut c = UserCmd { tick, yaw, pitch, forward, buttons: Buttons(buttons), weapon: (tick % 7) as u8, ..UserCmd::default() };
        c.sanitise();
        c
    }

    #[test]
    fn commands_round_trip_exactly() {
        let ticks: Vec<(u32, Vec<(u8, UserCmd)>)> = (1..400u32)
            .map(|t| {
                let f = t as f32;
                let mut cmds = vec![(0, cmd(t, f * 2.3, (f * 0.1).sin() * 80.0, 127, 0)), (5, cmd(t + 2, 359.0 - f, -89.0, -127, (t % 3) as u16))];
                if t % 4 == 0 {
                    cmds.push((63, cmd(t, f * 37.0, 89.0, (t % 250) as i8, 0x1f)));
                }
                (t, cmds)
            })
            .collect();
        let cols = CmdColumns::encode(ticks.iter().map(|(t, c)| (*t, c.as_slice()))).expect("encode");
        let back = cols.decode(ticks.iter().map(|(t, _)| *t)).expect("decode");
        for ((_, want), got) in ticks.iter().zip(&back) {
            assert_eq!(want.len(), got.len());
            for ((ws, wc), (gs, gc)) in want.iter().zip(got) {
                assert_eq!(ws, gs);
                assert_eq!((wc.tick, wc.yaw.to_bits(), wc.pitch.to_bits(), wc.forward, wc.buttons, wc.weapon), (gc.tick, gc.yaw.to_bits(), gc.pitch.to_bits(), gc.forward, gc.buttons, gc.weapon));
            }
        }
    }

    #[test]
    fn a_smooth_turn_costs_a_byte_a_command() {
        let ticks: Vec<(u32, Vec<(u8, UserCmd)>)> = (1..301u32).map(|t| (t, vec![(0, cmd(t, t as f32 * 1.5, 10.0, 127, 0))])).collect();
        let cols = CmdColumns::encode(ticks.iter().map(|(t, c)| (*t, c.as_slice()))).expect("encode");
        assert!(cols.yaw.len() <= 310 && cols.pitch.len() <= 310, "yaw {} pitch {}", cols.yaw.len(), cols.pitch.len());
    }

    #[test]
    fn bad_columns_are_errors_not_panics() {
        let ticks = [(1u32, vec![(0u8, cmd(1, 10.0, 0.0, 127, 1))])];
        let good = CmdColumns::encode(ticks.iter().map(|(t, c)| (*t, c.as_slice()))).expect("encode");
        assert!(good.decode([1, 2]).is_err(), "more ticks than coded");
        let mut bad = good.clone();
        bad.yaw.clear();
        assert!(bad.decode([1]).expect_err("no yaw").contains("yaw"));
        let mut bad = good.clone();
        bad.slots = vec![0xff; 20];
        assert!(bad.decode([1]).is_err());
        let mut bad = good;
        bad.yaw = vec![0xfe, 0xff, 0x7f];
        assert!(bad.decode([1]).expect_err("a yaw step too large").contains("out of range"));
        assert!(CmdColumns::encode([(1u32, &[(128u8, UserCmd::default())][..])]).is_err());
        assert!(CmdColumns::encode([(1u32, &[(3u8, UserCmd::default()), (3, UserCmd::default())][..])]).is_err());
    }
}
