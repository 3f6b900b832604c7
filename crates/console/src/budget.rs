//! The work one top-level command may cause through `exec`.
//!
//! The nesting limit ([`MAX_EXEC_DEPTH`](crate::MAX_EXEC_DEPTH)) and the
//! recursion check bound how deep `exec` goes, not how wide: a file that
//! execs another ten times, which execs a third ten times, and so on down
//! sixteen levels, is 10^16 statements without any recursion. So every
//! top-level command (a console line, a `+command`, a startup file) gets one
//! budget, shared by everything it executes, of files opened, bytes read and
//! statements run. The numbers are far above any real setup (a server's
//! configs are a few files and a few hundred statements) and low enough that
//! spending a whole budget takes well under a second.
//!
//! When a budget runs out, the statement or `exec` that overran it fails
//! with [`ExecError::BudgetExceeded`] naming the limit, it is reported once
//! with its file and line, and everything left of that top-level command is
//! skipped.

use crate::error::ExecError;

/// Files one top-level command may execute, nested ones included.
pub const MAX_EXEC_FILES: usize = 256;
/// Statements one top-level command may run, in every file it executes.
pub const MAX_EXEC_STATEMENTS: usize = 20_000;
/// Bytes of config text one top-level command may read (16 files of the
/// largest size `exec` accepts).
pub const MAX_EXEC_TOTAL_BYTES: u64 = 16 * crate::console::MAX_EXEC_BYTES;

/// The budget's counters, reset when a top-level command starts.
#[derive(Debug, Default)]
pub(crate) struct ExecBudget {
    nesting: usize,
    files: usize,
    statements: usize,
    bytes: u64,
    spent: bool,
}

/// Why a step was refused.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// This step ran the budget out: report it.
    Exceeded(ExecError),
    /// The budget ran out earlier and that was reported: skip silently.
    Spent,
}

impl ExecBudget {
    /// A command (top-level or nested) starts; a top-level one gets a fresh budget.
    pub(crate) fn enter(&mut self) {
        if self.nesting == 0 {
            *self = Self::default();
        }
        self.nesting += 1;
    }

    /// The command started by the matching [`ExecBudget::enter`] is over.
    pub(crate) fn leave(&mut self) {
        self.nesting = self.nesting.saturating_sub(1);
    }

    /// One more statement.
    pub(crate) fn take_statement(&mut self) -> Result<(), Refusal> {
        self.check()?;
        self.statements += 1;
        if self.statements > MAX_EXEC_STATEMENTS {
            return Err(self.exceed("statements", MAX_EXEC_STATEMENTS as u64));
        }
        Ok(())
    }

    /// One more file of `bytes` bytes.
    pub(crate) fn take_file(&mut self, bytes: u64) -> Result<(), Refusal> {
        self.check()?;
        self.files += 1;
        if self.files > MAX_EXEC_FILES {
            return Err(self.exceed("files", MAX_EXEC_FILES as u64));
        }
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > MAX_EXEC_TOTAL_BYTES {
            return Err(self.exceed("bytes of config text", MAX_EXEC_TOTAL_BYTES));
        }
        Ok(())
    }

    fn check(&self) -> Result<(), Refusal> {
        if self.spent { Err(Refusal::Spent) } else { Ok(()) }
    }

    fn exceed(&mut self, what: &'static str, limit: u64) -> Refusal {
        self.spent = true;
        Refusal::Exceeded(ExecError::BudgetExceeded { what, limit })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_run_out_once_then_stay_spent() {
        let mut b = ExecBudget::default();
        b.enter();
        for _ in 0..MAX_EXEC_STATEMENTS {
            assert!(b.take_statement().is_ok());
        }
        assert!(matches!(
            b.take_statement(),
            Err(Refusal::Exceeded(ExecError::BudgetExceeded { what: "statements", .. }))
        ));
        assert!(matches!(b.take_statement(), Err(Refusal::Spent)));
        assert!(matches!(b.take_file(1), Err(Refusal::Spent)));
        b.leave();
        // The next top-level command starts afresh.
        b.enter();
        assert!(b.take_statement().is_ok());
    }

    #[test]
    fn nested_commands_share_the_budget() {
        let mut b = ExecBudget::default();
        b.enter();
        for _ in 0..MAX_EXEC_FILES {
            b.enter();
            assert!(b.take_file(10).is_ok());
            b.leave();
        }
        b.enter();
        assert!(matches!(b.take_file(10), Err(Refusal::Exceeded(ExecError::BudgetExceeded { what: "files", .. }))));
    }

    #[test]
    fn bytes_are_counted() {
        let mut b = ExecBudget::default();
        b.enter();
        assert!(b.take_file(MAX_EXEC_TOTAL_BYTES).is_ok());
        assert!(matches!(b.take_file(1), Err(Refusal::Exceeded(ExecError::BudgetExceeded { limit, .. })) if limit == MAX_EXEC_TOTAL_BYTES));
    }
}
