// c2c-lite corpus driver (ours, not from the book): two threads take Mara Bos's chapter 4
// SpinLock (third_party/rust-atomics-and-locks/s3_guard.rs) around a counter for SECONDS
// seconds: the lock word and the value are written by both threads, a contended lock (true
// sharing). `fixed`: each thread its own lock, 128-byte aligned.
#![allow(dead_code)]
#[path = "../../third_party/rust-atomics-and-locks/s3_guard.rs"]
mod s3_guard;

use s3_guard::SpinLock;
use std::time::{Duration, Instant};

static LOCK: SpinLock<u64> = SpinLock::new(0);

#[repr(align(128))]
struct Own(SpinLock<u64>);
static OWN: [Own; 2] = [Own(SpinLock::new(0)), Own(SpinLock::new(0))];

fn hammer(l: &SpinLock<u64>, until: Instant) {
    while Instant::now() < until {
        for _ in 0..10_000 {
            *l.lock() += 1;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secs: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let fixed = args.get(2).map(|s| s == "fixed").unwrap_or(false);
    let until = Instant::now() + Duration::from_secs_f64(secs);
    std::thread::scope(|s| {
        for i in 0..2 {
            let l = if fixed { &OWN[i].0 } else { &LOCK };
            s.spawn(move || hammer(l, until));
        }
    });
    println!("{} {} {}", *LOCK.lock(), *OWN[0].0.lock(), *OWN[1].0.lock());
}
