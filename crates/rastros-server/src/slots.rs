//! Solver slots: a fixed number of engines, each with its own table of `hash_mb / slots` MiB,
//! lent to one request at a time.
//!
//! A request waits at most [`Slots::wait`] for a slot and is then refused as busy, so the
//! queue never grows without bound. Each slot keeps the solver of the last board it used, so
//! its table stays warm for the next request on that board; a request takes a free slot of
//! its own board when there is one, else the free slot used longest ago, which drops its
//! solver and makes one for the new board (same table size: memory stays bounded). The work
//! runs on tokio's blocking threads, never on the async ones. The slot goes back to the pool
//! from the blocking thread itself, so a request that is dropped half-way (a client that
//! hangs up, a timeout) loses no slot, and a panic in the work costs only that slot's table.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rastros_core::{Board, Word};
use rastros_solver::player::EngineError;
use rastros_solver::player::Tables;
use rastros_solver::SolverConfig;
use tokio::sync::Semaphore;

use crate::engine::{dimensions, Engine};
use crate::error::ApiError;
use crate::OpeningBook;

/// The pool of engines.
#[derive(Debug)]
pub struct Slots {
    free: Mutex<Vec<Engine>>,
    permits: Arc<Semaphore>,
    config: SolverConfig,
    book: Option<OpeningBook>,
    tables: Arc<Tables>,
    wait: Duration,
}

impl Slots {
    /// `count` engines (at least one), each solving with `config` and answering from `book`
    /// and `tables`.
    pub fn new(
        count: usize,
        config: SolverConfig,
        book: Option<OpeningBook>,
        tables: Arc<Tables>,
        wait: Duration,
    ) -> Slots {
        let count = count.max(1);
        let free = (0..count)
            .map(|_| Engine::new(config, book.clone()).with_tables(Arc::clone(&tables)))
            .collect();
        Slots {
            free: Mutex::new(free),
            permits: Arc::new(Semaphore::new(count)),
            config,
            book,
            tables,
            wait,
        }
    }

    /// Makes every slot's player for `board` now, each with its table: an error (a table
    /// that cannot be allocated) names the slot. Called before the server listens, so that
    /// too large a table is refused at start, not answered 500 on every request.
    pub fn prepare<W: Word>(&self, board: &'static Board<W>) -> Result<(), (usize, EngineError)> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        for (i, engine) in free.iter_mut().enumerate() {
            engine.prepare(board).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    /// Runs `work` with an engine for `board` on a blocking thread: [`ApiError::Busy`] when no
    /// slot frees up within the wait.
    pub async fn run<T, F, W>(
        self: &Arc<Self>,
        board: &'static Board<W>,
        work: F,
    ) -> Result<T, ApiError>
    where
        W: Word,
        T: Send + 'static,
        F: FnOnce(&mut Engine) -> T + Send + 'static,
    {
        let permit = tokio::time::timeout(self.wait, Arc::clone(&self.permits).acquire_owned())
            .await
            .map_err(|_| ApiError::Busy)?
            .map_err(|_| ApiError::Busy)?;
        let mut engine = self.take(dimensions(board));
        let slots = Arc::clone(self);
        let job = tokio::task::spawn_blocking(move || {
            let out = catch_unwind(AssertUnwindSafe(|| work(&mut engine)));
            let engine = match out {
                Ok(_) => engine,
                Err(_) => Engine::new(slots.config, slots.book.clone())
                    .with_tables(Arc::clone(&slots.tables)),
            };
            slots.give_back(engine);
            drop(permit);
            out
        });
        match job.await {
            Ok(Ok(out)) => Ok(out),
            _ => Err(ApiError::Internal("the engine failed".into())),
        }
    }

    /// A free engine: one already for `board`, else the one used longest ago.
    fn take(&self, board: (u8, u8)) -> Engine {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        let i = free
            .iter()
            .rposition(|e| e.board() == Some(board))
            .unwrap_or(0);
        free.remove(i)
    }

    fn give_back(&self, engine: Engine) {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        free.push(engine);
    }
}
