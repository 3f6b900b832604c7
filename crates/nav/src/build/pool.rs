//! Worker threads for the build: [`parallel_map`] for a one-off batch and
//! [`with_pool`] for many batches (one per flood level) on threads spawned
//! once, with the calling thread taking a share of every batch.
//!
//! Results always come back in item order, so what the build produces does
//! not depend on the thread count. A panic in a worker is re-raised on the
//! calling thread.

use std::any::Any;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
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

/// One share of a batch for a worker: the batch, the share's range, its slot.
type Job<T> = (Arc<Vec<T>>, Range<usize>, usize);
/// A worker's answer for one slot.
type Answer<R> = (usize, Result<Vec<R>, Box<dyn Any + Send>>);

/// Runs `body` with a `map` function that maps `f` over a batch on
/// `threads` threads (the caller's included; `threads - 1` spawned once
/// for the whole of `body`), each with state from `init`; batches smaller
/// than `min_per_thread` per thread use fewer threads.
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
        let mut jobs: Vec<mpsc::Sender<Job<T>>> = Vec::with_capacity(workers);
        for _ in 0..workers {
            let (tx, rx) = mpsc::channel::<Job<T>>();
            jobs.push(tx);
            let (answer_tx, init, f) = (answer_tx.clone(), &init, &f);
            scope.spawn(move || {
                let state = init();
                while let Ok((items, range, slot)) = rx.recv() {
                    let out = catch_unwind(AssertUnwindSafe(|| {
                        items
                            .get(range)
                            .unwrap_or(&[])
                            .iter()
                            .map(|t| f(&state, t))
                            .collect::<Vec<R>>()
                    }));
                    if answer_tx.send((slot, out)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(answer_tx);
        let state = init();
        let mut map = |items: Vec<T>| -> Vec<R> {
            let n = items.len();
            let parts = (workers + 1).min((n / min_per_thread.max(1)).max(1));
            if parts <= 1 {
                return items.iter().map(|t| f(&state, t)).collect();
            }
            let chunk = n.div_ceil(parts);
            let items = Arc::new(items);
            let mut outs: Vec<Option<Vec<R>>> = (0..parts).map(|_| None).collect();
            let mut sent = 0;
            for (slot, tx) in (1..parts).zip(&jobs) {
                let range = (slot * chunk).min(n)..((slot + 1) * chunk).min(n);
                if tx.send((Arc::clone(&items), range, slot)).is_ok() {
                    sent += 1;
                }
            }
            let own = items
                .get(..chunk.min(n))
                .unwrap_or(&[])
                .iter()
                .map(|t| f(&state, t))
                .collect();
            outs[0] = Some(own);
            for _ in 0..sent {
                match answers.recv() {
                    Ok((slot, Ok(out))) => {
                        if let Some(o) = outs.get_mut(slot) {
                            *o = Some(out);
                        }
                    }
                    Ok((_, Err(panic))) => resume_unwind(panic),
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
