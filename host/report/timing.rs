//! How a case is timed on the GPU. Every figure is the median and range over
//! [`SAMPLES`] samples, each spanning `L` back-to-back launches between two
//! CUDA events (per call = elapsed / `L`):
//!
//! - **graph**: the `L` launches are captured once into a CUDA graph on the
//!   handle's stream and the graph is replayed, one replay a sample, the
//!   events chained between replays so the GPU never waits for the host:
//!   the kernels' own time, without host launch overhead.
//! - **stream**: the same `L` launches issued one by one from the host each
//!   sample (a few untimed launches first keep the GPU busy while the timed
//!   ones are issued). Stream minus graph is the host's launch overhead, and
//!   the host clock around the issuing loop alone (no synchronization in it)
//!   gives the **enqueue** cost per call.
//! - **cold**: the launches rotate over buffer sets that together exceed
//!   twice the L2, so each finds its data evicted; `L` is a multiple of the
//!   set count, so a replay touches them all. **hot**: one set again and
//!   again, only where the data fits in L2.
//!
//! `L` is at most [`MAX_LAUNCHES`], fewer for long kernels so that a figure
//! takes about [`FIGURE_BUDGET_S`] of GPU time.
//!
//! **Rest.** Before a case's figures the GPU idles for as long as the
//! previous case kept it busy, up to [`REST_MAX_S`]: a long, power-hungry
//! case pulls the H100 under its power cap (1485-1770 MHz against 1980, run
//! 37), and the clocks stay down into the next case, so without the rest a
//! short case measured after a long one ran up to 1.25x slower than alone
//! (docs/PERF.md, run 37). The PyTorch peers' script rests likewise before
//! each of its figures (it has no stream figures), with the same bounds.

use crate::model::{Stats, Timing};
use quant_kernels::Kernels;
use quant_kernels::cust::event::{Event, EventFlags};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// Samples per figure.
pub const SAMPLES: usize = 15;
/// Launches a sample spans, at most (and at least [`MIN_LAUNCHES`]).
pub const MAX_LAUNCHES: usize = 20;
const MIN_LAUNCHES: usize = 3;
/// GPU seconds a figure should take, which bounds the launches of long kernels.
const FIGURE_BUDGET_S: f64 = 0.25;
/// Untimed launches issued before each stream sample.
const LEAD: usize = 8;
/// The longest rest before a case's figures (module doc): on the H100 the
/// SM clock was back at 1980 MHz within 0.3 s of the power cap's load.
const REST_MAX_S: f64 = 0.25;
/// Busy times below this leave no rest (a short case does not heat the GPU).
const REST_MIN_S: f64 = 0.02;

/// What a case gives the timer: `launch(set)` enqueues the case on buffer
/// set `set` on the handle's stream.
pub type Launch<'a> = dyn FnMut(usize) -> Result<(), quant_kernels::Error> + 'a;

/// Times cases on one handle's stream.
pub struct Timer<'k> {
    kernels: &'k Kernels,
    l2_bytes: usize,
    /// `SAMPLES + 1` timing events, reused by every figure.
    events: Vec<Event>,
    /// GPU seconds of the last case's figures: the next one rests this long.
    busy_s: Cell<f64>,
}

impl<'k> Timer<'k> {
    pub fn new(kernels: &'k Kernels, l2_bytes: usize) -> crate::Result<Self> {
        kernels.make_current()?;
        let events = (0..=SAMPLES).map(|_| Event::new(EventFlags::DEFAULT)).collect::<Result<_, _>>()?;
        Ok(Self { kernels, l2_bytes, events, busy_s: Cell::new(0.0) })
    }

    /// Whether `bytes` fit in the L2 at all (where a hot figure means something).
    pub fn fits_l2(&self, bytes: u64) -> bool {
        bytes <= self.l2_bytes as u64
    }

    /// Buffer sets of `bytes` each that together exceed twice the L2.
    pub fn cold_sets(&self, bytes: u64) -> usize {
        (2 * self.l2_bytes as u64).div_ceil(bytes.max(1)).max(1) as usize
    }

    /// Seconds of one launch on set 0, between two events on a stream left
    /// idle (so it includes the launch latency): the check's launch, and the
    /// estimate that sizes the samples.
    pub fn once(&self, launch: &mut Launch) -> crate::Result<f64> {
        let stream = self.kernels.stream();
        let (start, stop) = (&self.events[0], &self.events[1]);
        stream.synchronize()?;
        start.record(stream)?;
        launch(0)?;
        stop.record(stream)?;
        stop.synchronize()?;
        Ok(f64::from(stop.elapsed_time_f32(start)?) * 1e-3)
    }

    /// Every figure of a case (module doc), given the seconds of one launch
    /// (from [`once`](Self::once)). A graph that cannot be captured leaves
    /// the graph figures out, with the reason; any other failure is an error.
    pub fn measure(&self, sets: usize, hot: bool, once_s: f64, launch: &mut Launch) -> crate::Result<Timing> {
        let rest = self.busy_s.replace(0.0).min(REST_MAX_S);
        if rest >= REST_MIN_S {
            std::thread::sleep(Duration::from_secs_f64(rest));
        }
        let launches = launches_per_sample(once_s);
        let cold = launches.div_ceil(sets) * sets;
        let mut timing = Timing { launches: cold, ..Timing::default() };
        match self.graph(cold, sets, launch) {
            Ok(stats) => timing.graph_cold = Some(stats),
            Err(e) => timing.graph_error = Some(e.to_string()),
        }
        if hot && timing.graph_cold.is_some() {
            match self.graph(launches, 1, launch) {
                Ok(stats) => timing.graph_hot = Some(stats),
                Err(e) => timing.graph_error = Some(e.to_string()),
            }
        }
        let (stream_cold, enqueue) = self.stream(cold, sets, launch)?;
        timing.stream_cold = Some(stream_cold);
        timing.enqueue = Some(enqueue);
        if hot {
            timing.stream_hot = Some(self.stream(launches, 1, launch)?.0);
        }
        self.busy_s.set(busy_s(&timing, launches));
        Ok(timing)
    }

    /// Per call: `count` launches rotating over `sets`, captured into a
    /// graph and replayed once a sample.
    fn graph(&self, count: usize, sets: usize, launch: &mut Launch) -> crate::Result<Stats> {
        let stream = self.kernels.stream();
        let graph = self.kernels.capture(stream, || (0..count).try_for_each(|i| launch(i % sets)))?;
        // Every call captured, each the same nodes (one launch, or a split-K
        // call's allocation, two launches and free).
        let nodes = graph.nodes()?;
        if nodes == 0 || nodes % count != 0 {
            return Err(format!("the graph has {nodes} nodes for {count} calls").into());
        }
        let replays = || -> crate::Result<()> {
            // SAFETY (each replay): the buffers `launch` enqueues on are
            // borrowed by it for longer than this call, and nothing on the
            // host touches them until the stream is synchronized below.
            // The first replay uploads the graph and keeps the GPU busy
            // while the timed ones are enqueued.
            unsafe { graph.launch(stream)? };
            self.events[0].record(stream)?;
            for event in &self.events[1..] {
                unsafe { graph.launch(stream)? };
                event.record(stream)?;
            }
            Ok(())
        };
        let replayed = replays();
        // Also after an error: no replay may outlive the buffers.
        stream.synchronize()?;
        replayed?;
        let samples = self.events.windows(2).map(|pair| pair[1].elapsed_time_f32(&pair[0]));
        let samples = samples.map(|ms| ms.map(|ms| f64::from(ms) * 1e-3 / count as f64)).collect::<Result<_, _>>()?;
        Ok(Stats::of(samples))
    }

    /// Per call: `count` launches rotating over `sets`, issued from the host
    /// each sample; and the host's median seconds to issue one.
    fn stream(&self, count: usize, sets: usize, launch: &mut Launch) -> crate::Result<(Stats, f64)> {
        let stream = self.kernels.stream();
        let (start, stop) = (&self.events[0], &self.events[1]);
        let mut next = 0;
        let mut launch_next = |launch: &mut Launch| {
            next += 1;
            launch((next - 1) % sets)
        };
        let (mut device, mut host) = (Vec::with_capacity(SAMPLES), Vec::with_capacity(SAMPLES));
        for _ in 0..SAMPLES {
            for _ in 0..count.min(LEAD) {
                launch_next(launch)?;
            }
            start.record(stream)?;
            let clock = Instant::now();
            for _ in 0..count {
                launch_next(launch)?;
            }
            let issued = clock.elapsed().as_secs_f64();
            stop.record(stream)?;
            stop.synchronize()?;
            device.push(f64::from(stop.elapsed_time_f32(start)?) * 1e-3 / count as f64);
            host.push(issued / count as f64);
        }
        Ok((Stats::of(device), Stats::of(host).median))
    }
}

/// GPU seconds of a case's figures: each figure's calls at its median, with
/// the graph's upload replay and the stream's lead launches.
fn busy_s(timing: &Timing, hot_launches: usize) -> f64 {
    let cold = timing.launches;
    let figures = [
        (timing.graph_cold, (SAMPLES + 1) * cold),
        (timing.graph_hot, (SAMPLES + 1) * hot_launches),
        (timing.stream_cold, SAMPLES * (cold + cold.min(LEAD))),
        (timing.stream_hot, SAMPLES * (hot_launches + hot_launches.min(LEAD))),
    ];
    figures.iter().filter_map(|(stats, calls)| stats.map(|stats| stats.median * *calls as f64)).sum()
}

/// Launches a sample spans: [`MAX_LAUNCHES`], or fewer for a kernel so long
/// that the graph and stream samples of a figure would exceed the budget.
fn launches_per_sample(once_s: f64) -> usize {
    let fit = FIGURE_BUDGET_S / (SAMPLES as f64 * once_s.max(1e-9));
    (fit as usize).clamp(MIN_LAUNCHES, MAX_LAUNCHES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_kernels_get_fewer_launches() {
        assert_eq!(launches_per_sample(5e-6), MAX_LAUNCHES);
        assert_eq!(launches_per_sample(0.712e-3), MAX_LAUNCHES); // the 1 GiB copy
        assert_eq!(launches_per_sample(2e-3), 8);
        assert_eq!(launches_per_sample(15e-3), MIN_LAUNCHES);
    }

    #[test]
    fn busy_time_counts_every_figure_launch() {
        let stats = |median| Some(Stats { median, min: median, max: median });
        let cold_only = Timing { launches: 20, graph_cold: stats(1e-3), stream_cold: stats(2e-3), ..Timing::default() };
        // Graph: 16 replays of 20 calls at 1 ms; stream: 15 samples of 20 + 8 lead calls at 2 ms.
        assert!((busy_s(&cold_only, 20) - (0.32 + 0.84)).abs() < 1e-12);
        let with_hot = Timing { graph_hot: stats(0.5e-3), stream_hot: stats(0.5e-3), ..cold_only };
        assert!((busy_s(&with_hot, 10) - (1.16 + 16.0 * 10.0 * 0.5e-3 + 15.0 * 18.0 * 0.5e-3)).abs() < 1e-12);
    }
}
