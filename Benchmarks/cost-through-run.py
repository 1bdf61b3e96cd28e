#!/usr/bin/env python3
"""What a first import costs a photo as it goes, from one run: whether the cost a photo stays flat as
the library grows (issue 25), measured inside one run, so that the noise between runs on a shared
machine (a tenth or more here) does not hide or fake a trend.

    cost-through-run.py watch LIBRARY SAMPLES [EVERY] [--memory-only]  # in the background, before the run starts
    cost-through-run.py tenths SAMPLES N                # after it, N the photos imported
    cost-through-run.py between SAMPLES FROM TO ...     # the stretches FROM-TO (photo counts) only
    cost-through-run.py peak SAMPLES                    # the most anonymous memory sampled, and when

`watch` waits for the darkroom process importing into LIBRARY (`--library LIBRARY` on its command line,
not GNU time's), then every EVERY seconds (default 5) writes a line to SAMPLES: the time, the
process's CPU time (user + system, /proc/PID/stat), the HEICs published under LIBRARY/Photos so far and
its anonymous memory (RssAnon), until the process ends. With `--memory-only` the HEICs are not counted
(written as 0): for a run that publishes none, such as the gallery with nothing new, where walking a
library of 100,000 files at every sample would weigh on the run measured.

`tenths` prints, for each tenth of the N photos, the CPU a photo (interpolated between samples) and the
anonymous memory when the tenth was done, then a last line: the last tenth's cost a photo over the
second tenth's (the first holds the run's start-up), and how much anonymous memory grew a photo
between their ends. `between` prints the same for chosen stretches, for a run with something else
beside it part of the time (leave those stretches out). `peak` prints the highest anonymous memory
sampled and how many seconds after the first sample it came."""
import os
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")


def importing_process(library):
    """The pid of the darkroom run importing into `library`, or None."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        words = [a.decode(errors="replace") for a in argv]
        if os.path.basename(words[0]) == "time" or "run" not in words:
            continue
        if any(words[i] == "--library" and os.path.abspath(words[i + 1]) == library for i in range(len(words) - 1)):
            return int(entry)
    return None


def published_heics(library):
    count = 0
    for _, _, files in os.walk(os.path.join(library, "Photos")):
        count += sum(1 for name in files if name.endswith(".heic"))
    return count


def sample(pid):
    """(CPU seconds, anonymous KB) of `pid`, or None once it has ended."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/status") as f:
            anon = next((int(line.split()[1]) for line in f if line.startswith("RssAnon:")), 0)
    except (OSError, StopIteration):
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS, anon


def watch(library, samples_path, every, count_heics=True):
    library = os.path.abspath(library)
    deadline = time.time() + 60
    pid = None
    while pid is None and time.time() < deadline:
        pid = importing_process(library)
        if pid is None:
            time.sleep(0.2)
    if pid is None:
        sys.exit(f"no darkroom run into {library} started")
    with open(samples_path, "w") as out:
        while True:
            now = sample(pid)
            if now is None:
                break
            out.write(f"{time.time():.3f} {now[0]:.2f} {published_heics(library) if count_heics else 0} {now[1]}\n")
            out.flush()
            time.sleep(every)


def read_samples(samples_path):
    """The samples `watch` wrote: (time, CPU seconds, HEICs published, anonymous KB) each."""
    return [tuple(float(v) for v in line.split()) for line in open(samples_path) if line.strip()]


def at(rows, count):
    """CPU seconds and anonymous KB when `count` photos were published (linear between samples), or None."""
    for before, after in zip(rows, rows[1:]):
        if before[2] <= count <= after[2] and after[2] > before[2]:
            share = (count - before[2]) / (after[2] - before[2])
            return before[1] + share * (after[1] - before[1]), before[3] + share * (after[3] - before[3])
    return None


def between(samples_path, stretches):
    """The CPU a photo and the anonymous memory grown a photo of each stretch (FROM, TO) of photo counts."""
    rows = read_samples(samples_path)
    for low, high in stretches:
        start, end = at(rows, low), at(rows, high)
        if start is None or end is None or high <= low:
            sys.exit(f"{samples_path}: no samples around photos {low}-{high} (sampled {rows[0][2]:.0f}-{rows[-1][2]:.0f})")
        print(f"{low:>8}-{high:<8} {1000 * (end[0] - start[0]) / (high - low):>8.2f} ms CPU a photo "
              f"{(end[1] - start[1]) * 1024 / (high - low):>8.0f} bytes of anonymous memory grown a photo")


def peak(samples_path):
    rows = read_samples(samples_path)
    if not rows:
        sys.exit(f"{samples_path}: no samples")
    top = max(rows, key=lambda row: row[3])
    print(f"peak anonymous memory {top[3] / 1024:.0f} MB, {top[0] - rows[0][0]:.1f} s after the first of {len(rows)} samples")


def tenths(samples_path, n):
    rows = read_samples(samples_path)
    if len(rows) < 3 or rows[-1][2] < n * 0.9:
        sys.exit(f"{samples_path}: too few samples ({len(rows)}) or photos ({rows[-1][2] if rows else 0:.0f} of {n})")
    last_count = rows[-1][2]
    edges = [round(last_count * k / 10) for k in range(11)]
    costs, memory = [], []
    print(f"{'photos':>17} {'ms CPU a photo':>15} {'anonymous MB at its end':>24}")
    for low, high in zip(edges, edges[1:]):
        start, end = at(rows, max(low, rows[0][2])), at(rows, high)
        if start is None or end is None:
            continue
        costs.append(1000 * (end[0] - start[0]) / (high - max(low, rows[0][2])))
        memory.append((high, end[1]))
        print(f"{low:>8}-{high:<8} {costs[-1]:>15.2f} {end[1] / 1024:>24.0f}")
    if len(costs) >= 3:
        grown = (memory[-1][1] - memory[1][1]) * 1024 / (memory[-1][0] - memory[1][0])
        print(f"last tenth vs second: {costs[-1] / costs[1]:.3f}x the CPU a photo; anonymous memory grew {grown:.0f} bytes a photo between their ends")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "watch":
        options = [a for a in sys.argv[4:] if a.startswith("--")]
        every = [a for a in sys.argv[4:] if not a.startswith("--")]
        if set(options) - {"--memory-only"} or len(every) > 1:
            sys.exit(__doc__)
        watch(sys.argv[2], sys.argv[3], float(every[0]) if every else 5, count_heics="--memory-only" not in options)
    elif len(sys.argv) == 3 and sys.argv[1] == "peak":
        peak(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "tenths":
        tenths(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) >= 5 and sys.argv[1] == "between" and len(sys.argv) % 2 == 1:
        between(sys.argv[2], [(int(sys.argv[i]), int(sys.argv[i + 1])) for i in range(3, len(sys.argv), 2)])
    else:
        sys.exit(__doc__)
