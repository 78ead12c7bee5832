// Ours (c2c-lite corpus, not third-party): per-thread counters in one Rust struct, the kind of
// false sharing the Rust demos of it show (two AtomicU64 side by side, each thread its own), and
// a Vec of per-thread plain counters on the heap. `padded`: #[repr(align(64))] on each counter,
// the usual fix (crossbeam's CachePadded does the same). Built -O -g; run: SECONDS [padded].
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

pub struct Counters {
    pub hits: AtomicU64,
    pub misses: AtomicU64,
}

#[repr(align(64))]
pub struct Padded(AtomicU64);

pub struct PaddedCounters {
    pub hits: Padded,
    pub misses: Padded,
}

static STATS: Counters = Counters { hits: AtomicU64::new(0), misses: AtomicU64::new(0) };
static PADDED: PaddedCounters =
    PaddedCounters { hits: Padded(AtomicU64::new(0)), misses: Padded(AtomicU64::new(0)) };

#[inline(never)]
fn count(c: &AtomicU64, until: Instant) {
    while Instant::now() < until {
        for _ in 0..10_000 {
            c.fetch_add(1, Relaxed);
            black_box(c);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secs: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let padded = args.get(2).map(|s| s == "padded").unwrap_or(false);
    let until = Instant::now() + Duration::from_secs_f64(secs);
    std::thread::scope(|s| {
        if padded {
            s.spawn(|| count(&PADDED.hits.0, until));
            s.spawn(|| count(&PADDED.misses.0, until));
        } else {
            s.spawn(|| count(&STATS.hits, until));
            s.spawn(|| count(&STATS.misses, until));
        }
    });
    println!("{} {}", STATS.hits.load(Relaxed) + PADDED.hits.0.load(Relaxed),
             STATS.misses.load(Relaxed) + PADDED.misses.0.load(Relaxed));
}
