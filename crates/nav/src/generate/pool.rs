//! Worker threads for the build: [`parallel_map`] for a one-off batch and
//! [`with_pool`] for many batches (one per flood level) on threads spawned
//! once, with the calling thread taking a share of every batch (chunks
//! claimed as each thread gets through the last).
//!
//! Results always come back in item order, so what the build produces does
//! not depend on the thread count. A panic in a worker is re-raised on the
//! calling thread.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Maps `f` over `items` on up to `threads` scoped threads, each with its
/// own state from `init`, giving each thread at least `min_per_thread`
/// items; results come back in item order.
pub(crate) fn parallel_map<T: Sync, S, R: Send>(
    items: &[T],
    threads: usize,
    min_per_thread: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&S, &T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.clamp(1, (items.len() / min_per_thread.max(1)).max(1));
    if threads == 1 {
        let state = init();
        return items.iter().map(|t| f(&state, t)).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                let (init, f) = (&init, &f);
                scope.spawn(move || {
                    let state = init();
                    part.iter().map(|t| f(&state, t)).collect::<Vec<R>>()
                })
            })
            .collect();
        let mut out = Vec::with_capacity(items.len());
        for h in handles {
            match h.join() {
                Ok(part) => out.extend(part),
                Err(panic) => resume_unwind(panic),
            }
        }
        out
    })
}

/// Chunks each thread's share of a batch is cut into, so a thread that
/// finishes early takes more (flood levels are uneven: a node at an edge
/// probes far more than one in the open).
const CHUNKS_PER_THREAD: usize = 4;

/// One batch being worked through: its items, cut into chunks that the
/// threads claim in turn.
struct Batch<T> {
    items: Vec<T>,
    chunk: usize,
    chunks: usize,
    next: AtomicUsize,
}

impl<T> Batch<T> {
    /// Claims the next chunk: its index and items, or `None` when all are taken.
    fn claim(&self) -> Option<(usize, &[T])> {
        let k = self.next.fetch_add(1, Ordering::Relaxed);
        if k >= self.chunks {
            return None;
        }
        let n = self.items.len();
        Some((k, self.items.get((k * self.chunk).min(n)..((k + 1) * self.chunk).min(n)).unwrap_or(&[])))
    }
}

/// A worker's answer: a chunk's results, or `None` when it found no more
/// chunks to claim (or a panic to re-raise).
type Answer<R> = Result<Option<(usize, Vec<R>)>, Box<dyn Any + Send>>;

/// Runs `body` with a `map` function that maps `f` over a batch on
/// `threads` threads (the caller's included; `threads - 1` spawned once
/// for the whole of `body`), each with state from `init`; batches smaller
/// than `min_per_thread` per thread use fewer threads. Threads claim
/// chunks of the batch as they go; results come back in item order.
pub(crate) fn with_pool<T, S, R, O>(
    threads: usize,
    min_per_thread: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&S, &T) -> R + Sync,
    body: impl FnOnce(&mut dyn FnMut(Vec<T>) -> Vec<R>) -> O,
) -> O
where
    T: Send + Sync,
    R: Send,
{
    let workers = threads.max(1) - 1;
    std::thread::scope(|scope| {
        let (answer_tx, answers) = mpsc::channel::<Answer<R>>();
        let mut jobs: Vec<mpsc::Sender<Arc<Batch<T>>>> = Vec::with_capacity(workers);
        for _ in 0..workers {
            let (tx, rx) = mpsc::channel::<Arc<Batch<T>>>();
            jobs.push(tx);
            let (answer_tx, init, f) = (answer_tx.clone(), &init, &f);
            scope.spawn(move || {
                let state = init();
                while let Ok(batch) = rx.recv() {
                    let work = catch_unwind(AssertUnwindSafe(|| {
                        while let Some((k, part)) = batch.claim() {
                            let out = part.iter().map(|t| f(&state, t)).collect();
                            if answer_tx.send(Ok(Some((k, out)))).is_err() {
                                return;
                            }
                        }
                    }));
                    let last = match work {
                        Ok(()) => Ok(None),
                        Err(panic) => Err(panic),
                    };
                    if answer_tx.send(last).is_err() {
                        break;
                    }
                }
            });
        }
        drop(answer_tx);
        let state = init();
        let mut map = |items: Vec<T>| -> Vec<R> {
            let n = items.len();
            let helpers = workers.min((n / min_per_thread.max(1)).max(1) - 1);
            if helpers == 0 {
                return items.iter().map(|t| f(&state, t)).collect();
            }
            let chunks = ((helpers + 1) * CHUNKS_PER_THREAD).min(n / min_per_thread.max(1)).max(1);
            let batch = Arc::new(Batch { chunk: n.div_ceil(chunks), chunks, items, next: AtomicUsize::new(0) });
            let sent = jobs.iter().take(helpers).filter(|tx| tx.send(Arc::clone(&batch)).is_ok()).count();
            let mut outs: Vec<Option<Vec<R>>> = (0..chunks).map(|_| None).collect();
            while let Some((k, part)) = batch.claim() {
                if let Some(o) = outs.get_mut(k) {
                    *o = Some(part.iter().map(|t| f(&state, t)).collect());
                }
            }
            let mut finished = 0;
            while finished < sent {
                match answers.recv() {
                    Ok(Ok(Some((k, out)))) => {
                        if let Some(o) = outs.get_mut(k) {
                            *o = Some(out);
                        }
                    }
                    Ok(Ok(None)) => finished += 1,
                    Ok(Err(panic)) => resume_unwind(panic),
                    Err(_) => break,
                }
            }
            outs.into_iter().flatten().flatten().collect()
        };
        let out = body(&mut map);
        drop(jobs);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_keep_item_order_on_any_thread_count() {
        for threads in [1, 2, 4] {
            let out = with_pool(
                threads,
                3,
                || 10u32,
                |k, &x: &u32| x * k,
                |map| {
                    let a = map((0..100).collect());
                    let b = map(vec![7]);
                    (a, b)
                },
            );
            assert_eq!(out.0, (0..100).map(|x| x * 10).collect::<Vec<_>>());
            assert_eq!(out.1, vec![70]);
            assert_eq!(
                parallel_map(&[1u32, 2, 3], threads, 1, || (), |_, x| x + 1),
                vec![2, 3, 4]
            );
        }
    }
}
