//! The graph: nodes (standing spots on a grid), directed links with a
//! travel type and cost, stored as compressed rows (CSR) with a reverse
//! index, plus a dense cell index for nearest-node queries.
//!
//! Built once by [`generate`](crate::generate) through [`GraphBuilder`], then
//! read-only: queries share one graph across threads.

use rustc_hash::FxHashMap as HashMap;
use std::fmt;

use glam::Vec3;
use quarry_map::EntityId;
use serde::Serialize;

/// Index of a node in a [`NavMesh`](crate::NavMesh).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The index as `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a link is travelled; also "how to reach this corner" on a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// Walk (flat, up a step or a ramp, down a step).
    Walk,
    /// Walk off a ledge higher than a step (one-way unless the way back works too).
    Drop,
    /// Jump: onto a ledge higher than a step, over a railing or across a gap.
    Jump,
    /// Stand in a jump pad's volume and fly to where it lands you.
    JumpPad,
    /// Stand in a teleporter's volume and appear at its destination.
    Teleport,
    /// Step onto a lowered lift (`func_plat`), ride it up and step off at
    /// the top.
    Lift,
    /// Swim up from the floor of deep water and climb out onto a ledge at
    /// the surface (Quake's water jump).
    Swim,
    /// Crouch and walk through a passage too low to stand in.
    Crouch,
}

impl LinkKind {
    /// Every kind, in order.
    pub const ALL: [LinkKind; 8] = [
        LinkKind::Walk,
        LinkKind::Drop,
        LinkKind::Jump,
        LinkKind::JumpPad,
        LinkKind::Teleport,
        LinkKind::Lift,
        LinkKind::Swim,
        LinkKind::Crouch,
    ];

    /// Lower-case name as printed and serialised.
    pub fn name(self) -> &'static str {
        match self {
            LinkKind::Walk => "walk",
            LinkKind::Drop => "drop",
            LinkKind::Jump => "jump",
            LinkKind::JumpPad => "jumppad",
            LinkKind::Teleport => "teleport",
            LinkKind::Lift => "lift",
            LinkKind::Swim => "swim",
            LinkKind::Crouch => "crouch",
        }
    }

    /// Whether the link was proved by the prober's step, fall or jump
    /// through open space, which a mover can close: only these are
    /// flagged near movers and re-checked against the live world (a pad,
    /// a teleporter, a lift's ride, a swim out and a crouched walk never go
    /// stale).
    pub fn is_probed(self) -> bool {
        matches!(self, LinkKind::Walk | LinkKind::Drop | LinkKind::Jump)
    }

    /// Whether the move must be entered deliberately: string pulling keeps
    /// both ends of such a link, and a bot following a route treats it as a
    /// committed action (reach the entry, perform it, land at the exit).
    pub fn is_special(self) -> bool {
        self != LinkKind::Walk
    }
}

impl fmt::Display for LinkKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A standing spot: the player origin (not the floor: the floor is
/// `origin.z + agent.min_z`) when standing in grid cell `cell`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Node {
    /// Player origin standing here, world space.
    pub origin: Vec3,
    /// Grid cell `(x, y)`: the node lies in `[cell * size, (cell + 1) * size)`.
    pub cell: [i32; 2],
    /// Weakly connected component: nodes in different areas never reach each other.
    pub area: u32,
}

/// A directed link between two nodes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Link {
    /// Destination node.
    pub to: NodeId,
    /// Cost: 3-D length plus a penalty for drops and jumps (more onto a
    /// precarious landing); flat for pads and teleporters.
    pub cost: f32,
    /// How it is travelled.
    pub kind: LinkKind,
    /// The jump pad, teleporter or lift entity for off-mesh links.
    pub entity: Option<EntityId>,
    /// Whether a mover (not a touch-open door) sweeps near it, so routes
    /// re-check it against the live world.
    pub near_mover: bool,
}

/// Nodes and links in compressed rows with a reverse index.
#[derive(Debug, Clone, Default)]
pub(crate) struct Graph {
    pub(crate) nodes: Vec<Node>,
    /// `links[first[n]..first[n + 1]]` leave node `n`.
    pub(crate) first: Vec<u32>,
    pub(crate) links: Vec<Link>,
    /// `rev[rev_first[n]..rev_first[n + 1]]` are the link indices entering `n`.
    pub(crate) rev_first: Vec<u32>,
    pub(crate) rev: Vec<u32>,
    /// Source and cost of each entering link (parallel to `rev`), for
    /// backward searches.
    pub(crate) rev_hot: Vec<(u32, f32)>,
    /// Source node of each link (parallel to `links`).
    pub(crate) source: Vec<u32>,
    /// Destination and cost of each link (parallel to `links`): what a
    /// search reads, packed densely so relaxing a node touches little memory.
    pub(crate) hot: Vec<(u32, f32)>,
    /// The links each mover (not a touch-open door) sweeps near, by mover
    /// (its entity, then the links in order): a closed door bars all of its
    /// links at once, so a repair rejects them together.
    pub(crate) mover_links: Vec<(EntityId, Vec<u32>)>,
}

impl Graph {
    /// The links leaving `n`, with their global indices starting at the returned offset.
    pub(crate) fn links_from(&self, n: u32) -> (usize, &[Link]) {
        let (a, b) = self.row(&self.first, n);
        (a, self.links.get(a..b).unwrap_or(&[]))
    }

    /// Destinations and costs of the links leaving `n`, with the global
    /// index of the first.
    #[inline]
    pub(crate) fn hot_from(&self, n: u32) -> (usize, &[(u32, f32)]) {
        let (a, b) = self.row(&self.first, n);
        (a, self.hot.get(a..b).unwrap_or(&[]))
    }

    /// Sources and costs of the links entering `n`.
    #[inline]
    pub(crate) fn hot_into(&self, n: u32) -> &[(u32, f32)] {
        let (a, b) = self.row(&self.rev_first, n);
        self.rev_hot.get(a..b).unwrap_or(&[])
    }

    /// Indices of the links entering `n`.
    pub(crate) fn links_into(&self, n: u32) -> &[u32] {
        let (a, b) = self.row(&self.rev_first, n);
        self.rev.get(a..b).unwrap_or(&[])
    }

    fn row(&self, first: &[u32], n: u32) -> (usize, usize) {
        let a = first.get(n as usize).copied().unwrap_or(0) as usize;
        let b = first.get(n as usize + 1).copied().unwrap_or(0) as usize;
        (a, b.max(a))
    }

    /// Approximate heap bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Node>()
            + (self.first.capacity()
                + self.rev_first.capacity()
                + self.rev.capacity()
                + self.source.capacity())
                * 4
            + self.links.capacity() * size_of::<Link>()
            + (self.hot.capacity() + self.rev_hot.capacity()) * 8
    }
}

/// Collects nodes and links during a build; never duplicates a `(from, to)`
/// pair (a cheaper link replaces a dearer one).
#[derive(Debug, Default)]
pub(crate) struct GraphBuilder {
    pub(crate) nodes: Vec<Node>,
    pub(crate) out: Vec<Vec<Link>>,
    /// Column index: cell -> node ids in that column.
    pub(crate) columns: HashMap<[i32; 2], Vec<u32>>,
}

impl GraphBuilder {
    /// Adds a node and returns its id.
    pub(crate) fn add_node(&mut self, origin: Vec3, cell: [i32; 2]) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            origin,
            cell,
            area: 0,
        });
        // Room for the 8 neighbours' links: growing costs more than the slack.
        self.out.push(Vec::with_capacity(8));
        self.columns.entry(cell).or_default().push(id);
        id
    }

    /// The node in `cell` whose height is within `merge` of `z`, closest first.
    pub(crate) fn find(&self, cell: [i32; 2], z: f32, merge: f32) -> Option<u32> {
        let ids = self.columns.get(&cell)?;
        ids.iter()
            .copied()
            .filter_map(|i| {
                self.nodes
                    .get(i as usize)
                    .map(|n| (i, (n.origin.z - z).abs()))
            })
            .filter(|&(_, dz)| dz <= merge)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }

    /// Calls `f` with the node ids of every column in the inclusive cell
    /// rectangle `lo..=hi`, in cell order. Costs the smaller of the
    /// rectangle's area and the column count, so a rectangle sized by a
    /// huge volume never walks millions of empty cells.
    pub(crate) fn for_each_column_in_rect(
        &self,
        lo: [i32; 2],
        hi: [i32; 2],
        mut f: impl FnMut(&[u32]),
    ) {
        if lo[0] > hi[0] || lo[1] > hi[1] {
            return;
        }
        let area = (i64::from(hi[0]) - i64::from(lo[0]) + 1)
            .saturating_mul(i64::from(hi[1]) - i64::from(lo[1]) + 1);
        if area <= self.columns.len() as i64 {
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    if let Some(ids) = self.columns.get(&[x, y]) {
                        f(ids);
                    }
                }
            }
            return;
        }
        let inside =
            |c: &[i32; 2]| (lo[0]..=hi[0]).contains(&c[0]) && (lo[1]..=hi[1]).contains(&c[1]);
        let mut cells: Vec<[i32; 2]> = self.columns.keys().copied().filter(inside).collect();
        cells.sort_unstable();
        for c in cells {
            if let Some(ids) = self.columns.get(&c) {
                f(ids);
            }
        }
    }

    /// Adds or improves the link `from -> to`.
    pub(crate) fn link(&mut self, from: u32, link: Link) {
        if from == link.to.0 {
            return;
        }
        let Some(out) = self.out.get_mut(from as usize) else {
            return;
        };
        match out.iter_mut().find(|l| l.to == link.to) {
            Some(old) if link.cost < old.cost => *old = link,
            Some(_) => {}
            None => out.push(link),
        }
    }

    /// Freezes into compressed rows.
    pub(crate) fn finish(self) -> Graph {
        let n = self.nodes.len();
        let mut first = Vec::with_capacity(n + 1);
        let mut links = Vec::with_capacity(self.out.iter().map(Vec::len).sum());
        let mut source = Vec::with_capacity(links.capacity());
        for (i, out) in self.out.into_iter().enumerate() {
            first.push(links.len() as u32);
            source.extend(std::iter::repeat_n(i as u32, out.len()));
            links.extend(out);
        }
        first.push(links.len() as u32);
        let mut counts = vec![0u32; n + 1];
        for l in &links {
            if let Some(c) = counts.get_mut(l.to.index() + 1) {
                *c += 1;
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let rev_first = counts.clone();
        let mut rev = vec![0u32; links.len()];
        let mut fill = counts;
        for (li, l) in links.iter().enumerate() {
            if let Some(slot) = fill.get_mut(l.to.index()) {
                if let Some(r) = rev.get_mut(*slot as usize) {
                    *r = li as u32;
                }
                *slot += 1;
            }
        }
        let hot = links.iter().map(|l| (l.to.0, l.cost)).collect();
        let rev_hot = rev
            .iter()
            .map(|&li| {
                (
                    source.get(li as usize).copied().unwrap_or(0),
                    links.get(li as usize).map_or(0.0, |l| l.cost),
                )
            })
            .collect();
        Graph {
            nodes: self.nodes,
            first,
            links,
            rev_first,
            rev,
            rev_hot,
            source,
            hot,
            mover_links: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(to: u32, cost: f32) -> Link {
        Link {
            to: NodeId(to),
            cost,
            kind: LinkKind::Walk,
            entity: None,
            near_mover: false,
        }
    }

    #[test]
    fn builder_dedupes_and_keeps_the_cheaper_link() {
        let mut b = GraphBuilder::default();
        for i in 0..3 {
            b.add_node(Vec3::new(i as f32 * 24.0, 0.0, 0.0), [i, 0]);
        }
        b.link(0, link(1, 30.0));
        b.link(0, link(1, 24.0));
        b.link(0, link(1, 50.0));
        b.link(0, link(0, 1.0));
        b.link(2, link(1, 24.0));
        assert_eq!(b.find([1, 0], 10.0, 18.0), Some(1));
        assert_eq!(b.find([1, 0], 40.0, 18.0), None);
        let g = b.finish();
        let (_, out) = g.links_from(0);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].cost, 24.0);
        let into: Vec<u32> = g
            .links_into(1)
            .iter()
            .map(|&l| g.source[l as usize])
            .collect();
        assert_eq!(into, vec![0, 2]);
        assert!(g.links_into(0).is_empty());
    }
}
