//! Saving off the UI thread: a writer thread per owner (the evening, the club night) that
//! writes its files in the background, coalescing what comes faster than a disk should be
//! asked. The owner says what its files are ([`Job`]); the writing, the tickets, the retries
//! and the standing line are this one code for both.
//!
//! Why a thread: a crash-safe write is a temporary file, an fsync, a rename and an fsync of the
//! folder — tens of milliseconds on a slow disk, which a window cannot spend inside a frame and
//! a phone should not wait on behind a frame. So [`Saver`] only takes the value and hands back a
//! [`Ticket`]; the thread writes.
//!
//! What is coalesced, and what is not:
//! - A change the table is told is done (an end of turn, a game saved, new settings, a table's
//!   confirmed game) is written at once ([`Urgency::Now`]); whoever must not answer before it
//!   is on disk (a phone's tap) [`wait`](Saver::wait)s for its ticket.
//! - A half-typed game ([`Urgency::Soon`]) is written at most every [`SOON`], so typing a game
//!   costs a few syncs and a kill keeps what was typed up to half a second before.
//! - A newer value of the same file replaces one still waiting: only the latest is written
//!   ([`Job::same_file`]); an append (an event's log) replaces nothing.
//! - Within what is due, jobs are written in their [`Job::order`]: a sheet before the evening
//!   that names it, an event's log before the event.
//!
//! When a write fails (a full disk, a folder gone), nothing is dropped: the value stays waiting
//! and is tried again with growing pauses (up to [`RETRY_MAX`]), and one standing
//! [`SaveStatus`] says so until it succeeds, instead of one notice per attempt.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{Notice, StoreError};

/// The longest a half-typed game waits before it is written.
pub const SOON: Duration = Duration::from_millis(500);

/// The first pause before a failed write is tried again; it doubles up to [`RETRY_MAX`].
pub const RETRY_FIRST: Duration = Duration::from_millis(500);

/// The longest pause between attempts of a failing write.
pub const RETRY_MAX: Duration = Duration::from_secs(30);

/// How soon a value must reach the disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgency {
    /// At once: the table was told it is done.
    Now,
    /// Within [`SOON`]: typing in progress.
    Soon,
}

/// A request's place in the order of writes: [`Saver::wait`] tells when it is on disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ticket(u64);

/// How a wait for a ticket ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waited {
    /// On disk.
    Saved,
    /// Writing fails for now (the standing status says why); it is tried again later.
    Failing,
    /// Not written within the time given.
    TimedOut,
}

/// Writing has been failing since a moment: the standing line the window shows (worded when
/// drawn, in the language of the moment).
#[derive(Clone, Debug)]
pub struct SaveStatus {
    /// The last failure (it names the file and the reason).
    pub why: Arc<StoreError>,
    /// Failed attempts so far.
    pub attempts: u32,
}

/// One file an owner has written: what it is, and how.
pub trait Job: Send + 'static {
    /// Where the files go (the data folder's store, the club's).
    type Place: Send + Sync + 'static;
    /// How many kinds of job there are ([`Job::kind`] is below it), for [`Saver::writes`].
    const KINDS: usize;
    /// Whether this job's file is `other`'s: a newer value replaces an older one waiting.
    fn same_file(&self, other: &Self) -> bool;
    /// The order in which jobs due together are written (lowest first).
    fn order(&self) -> u8;
    /// The kind, counted in [`Saver::writes`].
    fn kind(&self) -> usize;
    /// Writes the file.
    fn write(&self, place: &Self::Place) -> Result<Vec<Notice>, StoreError>;
    /// Whether the place takes writes at all (a read-only folder says so on its own line).
    fn writable(place: &Self::Place) -> bool;
}

#[derive(Debug)]
struct Waiting<J> {
    job: J,
    /// The oldest ticket this write settles (older requests it replaced).
    first: Ticket,
    /// When it is due.
    due: Instant,
}

#[derive(Debug)]
struct Queue<J> {
    waiting: VecDeque<Waiting<J>>,
    issued: u64,
    /// Every ticket up to this is on disk.
    settled: u64,
    failing: Option<SaveStatus>,
    retry_at: Option<Instant>,
    reports: Vec<Notice>,
    /// Writes done, per kind (for tests and the benchmark).
    writes: Vec<u64>,
    /// Write everything now, whatever its due time (closing).
    flush: bool,
    stop: bool,
}

impl<J: Job> Queue<J> {
    fn new() -> Queue<J> {
        Queue {
            waiting: VecDeque::new(),
            issued: 0,
            settled: 0,
            failing: None,
            retry_at: None,
            reports: Vec::new(),
            writes: vec![0; J::KINDS],
            flush: false,
            stop: false,
        }
    }
}

struct Inner<J: Job> {
    place: J::Place,
    queue: Mutex<Queue<J>>,
    /// The writer sleeps on it; a new job or a flush wakes it.
    wake: Condvar,
    /// Waiters for tickets sleep on it.
    settled: Condvar,
    /// Called when the standing status changes or a report arrives (the window repaints).
    notify: Box<dyn Fn() + Send + Sync>,
}

/// An owner's writer; see the [module docs](self). Dropping it writes what waits, then stops
/// the thread.
pub struct Saver<J: Job> {
    inner: Arc<Inner<J>>,
    thread: Option<JoinHandle<()>>,
}

impl<J: Job> std::fmt::Debug for Saver<J> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Saver")
            .field("threaded", &self.thread.is_some())
            .finish_non_exhaustive()
    }
}

fn lock<J>(queue: &Mutex<Queue<J>>) -> MutexGuard<'_, Queue<J>> {
    queue.lock().unwrap_or_else(|e| e.into_inner())
}

impl<J: Job> Saver<J> {
    /// A writer to `place` on its own thread named `name` (written in place of the caller only
    /// if the system refuses a thread). `notify` is called when the standing status changes.
    pub fn start(
        place: J::Place,
        name: &str,
        notify: impl Fn() + Send + Sync + 'static,
    ) -> Saver<J> {
        let inner = Arc::new(Inner {
            place,
            queue: Mutex::new(Queue::new()),
            wake: Condvar::new(),
            settled: Condvar::new(),
            notify: Box::new(notify),
        });
        let worker = Arc::clone(&inner);
        let thread = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || worker.run())
            .ok();
        Saver { inner, thread }
    }

    /// Has `job` written at once or within [`SOON`]; its ticket tells when it is on disk.
    pub fn push(&self, job: J, urgency: Urgency) -> Ticket {
        let now = Instant::now();
        let due = match urgency {
            Urgency::Now => now,
            Urgency::Soon => now + SOON,
        };
        let ticket = {
            let mut q = lock(&self.inner.queue);
            if !J::writable(&self.inner.place) {
                // A read-only folder says so on its own standing line; nothing is queued.
                q.issued += 1;
                q.settled = q.issued;
                return Ticket(q.issued);
            }
            q.issued += 1;
            let ticket = Ticket(q.issued);
            match q.waiting.iter_mut().find(|w| w.job.same_file(&job)) {
                Some(waiting) => {
                    waiting.job = job;
                    waiting.due = waiting.due.min(due);
                }
                None => q.waiting.push_back(Waiting {
                    job,
                    first: ticket,
                    due,
                }),
            }
            ticket
        };
        match &self.thread {
            Some(_) => self.inner.wake.notify_one(),
            None => {
                self.inner.write_due(true);
            }
        }
        ticket
    }

    /// Waits until `ticket` is on disk, writing fails, or `timeout` passes.
    pub fn wait(&self, ticket: Ticket, timeout: Duration) -> Waited {
        let deadline = Instant::now() + timeout;
        let mut q = lock(&self.inner.queue);
        loop {
            if q.settled >= ticket.0 {
                return Waited::Saved;
            }
            if q.failing.is_some() {
                return Waited::Failing;
            }
            let now = Instant::now();
            if now >= deadline {
                return Waited::TimedOut;
            }
            q = self
                .inner
                .settled
                .wait_timeout(q, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Writes everything waiting now (closing the window), waiting at most `timeout`.
    pub fn flush(&self, timeout: Duration) -> Waited {
        let last = {
            let mut q = lock(&self.inner.queue);
            q.flush = true;
            Ticket(q.issued)
        };
        match &self.thread {
            Some(_) => self.inner.wake.notify_one(),
            None => {
                self.inner.write_due(true);
            }
        }
        let waited = self.wait(last, timeout);
        lock(&self.inner.queue).flush = false;
        waited
    }

    /// The standing status while writes fail.
    pub fn status(&self) -> Option<SaveStatus> {
        lock(&self.inner.queue).failing.clone()
    }

    /// Store notices from writes since the last call (a bad file set aside before replacing).
    pub fn take_reports(&self) -> Vec<Notice> {
        std::mem::take(&mut lock(&self.inner.queue).reports)
    }

    /// Whether something waits to be written.
    pub fn pending(&self) -> bool {
        !lock(&self.inner.queue).waiting.is_empty()
    }

    /// Writes done so far, per [`Job::kind`].
    pub fn writes(&self) -> Vec<u64> {
        lock(&self.inner.queue).writes.clone()
    }

    /// Where the files go.
    pub fn place(&self) -> &J::Place {
        &self.inner.place
    }
}

impl<J: Job> Drop for Saver<J> {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            {
                let mut q = lock(&self.inner.queue);
                q.flush = true;
                q.stop = true;
            }
            self.inner.wake.notify_one();
            let _ = thread.join();
        }
    }
}

/// The pause after `attempts` failures.
fn backoff(attempts: u32) -> Duration {
    RETRY_FIRST
        .saturating_mul(1 << attempts.saturating_sub(1).min(16))
        .min(RETRY_MAX)
}

impl<J: Job> Inner<J> {
    /// The writer thread: write what is due, sleep until the next due time, a retry or a new
    /// job; on stop, write what waits and end (a failing write is tried once more).
    fn run(&self) {
        loop {
            let stop = self.write_due(false);
            let q = lock(&self.queue);
            if stop || (q.stop && q.waiting.is_empty()) {
                return;
            }
            let now = Instant::now();
            // Flushing ignores the half-second wait of typing, never the pause of a retry.
            let next = q
                .waiting
                .iter()
                .map(|w| if q.flush { now } else { w.due })
                .min()
                .map(|due| q.retry_at.map_or(due, |retry| due.max(retry)));
            if next.is_some_and(|at| at <= now) {
                continue;
            }
            let _q = match next {
                Some(at) => {
                    self.wake
                        .wait_timeout(q, at - now)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
                None => self.wake.wait(q).unwrap_or_else(|e| e.into_inner()),
            };
        }
    }

    /// Writes every job that is due (all of them when flushing or `all`). Returns true when
    /// the thread should end now (stopping and nothing more can be written).
    fn write_due(&self, all: bool) -> bool {
        let jobs = {
            let mut q = lock(&self.queue);
            let now = Instant::now();
            // A failing write waits for its retry; only the last attempt before stopping
            // does not.
            if q.retry_at.is_some_and(|at| at > now) && !q.stop {
                return false;
            }
            let everything = all || q.flush || q.stop;
            let mut due: Vec<Waiting<J>> = Vec::new();
            let mut rest = VecDeque::new();
            for w in q.waiting.drain(..) {
                if everything || w.due <= now {
                    due.push(w);
                } else {
                    rest.push_back(w);
                }
            }
            q.waiting = rest;
            due.sort_by_key(|w| w.job.order());
            due
        };
        if jobs.is_empty() {
            return false;
        }
        let mut failed: Option<(Waiting<J>, StoreError)> = None;
        let mut unwritten = Vec::new();
        let mut reports = Vec::new();
        let mut written = vec![0u64; J::KINDS];
        for w in jobs {
            if failed.is_some() {
                // Keep the order: nothing after a failed file is written before it.
                unwritten.push(w);
                continue;
            }
            match w.job.write(&self.place) {
                Ok(notices) => {
                    reports.extend(notices);
                    if let Some(n) = written.get_mut(w.job.kind()) {
                        *n += 1;
                    }
                }
                Err(e) => failed = Some((w, e)),
            }
        }
        let status_changed;
        let stop_now;
        {
            let mut q = lock(&self.queue);
            for (total, n) in q.writes.iter_mut().zip(written) {
                *total += n;
            }
            q.reports.extend(reports.iter().cloned());
            let had_failure = q.failing.is_some();
            match failed {
                Some((w, e)) => {
                    let attempts = q.failing.as_ref().map_or(0, |f| f.attempts) + 1;
                    let why = Arc::new(e);
                    q.retry_at = Some(Instant::now() + backoff(attempts));
                    q.failing = Some(SaveStatus { why, attempts });
                    // Back in front, before anything newer of the same file.
                    for w in unwritten.into_iter().rev() {
                        requeue(&mut q, w);
                    }
                    requeue(&mut q, w);
                    stop_now = q.stop;
                }
                None => {
                    q.failing = None;
                    q.retry_at = None;
                    stop_now = false;
                }
            }
            status_changed = had_failure != q.failing.is_some() || !reports.is_empty();
            q.settled = q
                .waiting
                .iter()
                .map(|w| w.first.0 - 1)
                .min()
                .unwrap_or(q.issued);
        }
        self.settled.notify_all();
        if status_changed || stop_now {
            (self.notify)();
        }
        stop_now
    }
}

/// Puts a job that could not be written back, unless a newer value of its file came meanwhile
/// (then the newer one settles its tickets too).
fn requeue<J: Job>(q: &mut Queue<J>, w: Waiting<J>) {
    match q.waiting.iter_mut().find(|n| n.job.same_file(&w.job)) {
        Some(newer) => newer.first = newer.first.min(w.first),
        None => q.waiting.push_front(w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_writes_back_off_up_to_the_limit() {
        assert_eq!(backoff(1), RETRY_FIRST);
        assert_eq!(backoff(2), RETRY_FIRST * 2);
        assert_eq!(backoff(40), RETRY_MAX);
    }
}
