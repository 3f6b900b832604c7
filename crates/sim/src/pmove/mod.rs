//! Player movement (in progress).
