//! Errors: [`NavError`] for building a navmesh, [`RouteError`] for a query.

use serde::Serialize;
use thiserror::Error;

/// Why a navmesh could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NavError {
    /// The map has nothing to start the flood from: no spawn points, items,
    /// jump pads, teleporter exits or players.
    #[error("map cannot host bots: no spawn points or items")]
    NoSeeds,
    /// There were seeds, but none of them stands over a floor the agent fits on.
    #[error("map cannot host bots: none of its {seeds} spawn points and items stands on a floor")]
    NoFloor {
        /// How many seeds were tried.
        seeds: usize,
    },
    /// The agent's numbers cannot describe a player (see [`Agent::validated`](crate::Agent::validated)).
    #[error("invalid agent: {0}")]
    InvalidAgent(&'static str),
}

/// Why a route query found no route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RouteError {
    /// No node within reach of the start is provably walkable from it.
    #[error("the start is not near the navmesh")]
    StartOffMesh,
    /// No node within reach of the goal provably walks to it.
    #[error("the goal is not near the navmesh")]
    GoalOffMesh,
    /// Start and goal lie in different areas: no search was needed.
    #[error("start and goal are in unconnected areas")]
    DifferentAreas,
    /// Connected, but no directed path (a one-way drop, pad or teleporter
    /// leads away and nothing leads back).
    #[error("no directed path from the start to the goal")]
    NoPath,
    /// Every route found crossed a link that a mover now blocks, until the
    /// repair budget ran out.
    #[error("every route is blocked by movers")]
    Blocked,
    /// The node path exists but its last corner cannot walk to the goal.
    #[error("the route stops short of the goal")]
    GoalNotReached,
}
