#!/usr/bin/env python3
"""Where a phase's CPU went: a summary of one async-profiler profile in collapsed form.

Usage: profile.py FILE.collapsed [TOP=25] [FRAME-PREFIX...]

run.sh writes one such file per phase when BENCH_PROFILE names a directory. Prints the share of the
samples spent under each part of the stack (a sample counts once per part, wherever it appears in
its stack), the frames that burn the most themselves, and the project's frames by their inclusive
share; each FRAME-PREFIX adds the frames that start with it, by inclusive share.
"""
import collections
import sys

# The parts of the stack a request passes through, by the first frame prefix that names them.
PARTS = [
    ("exceptions filled in", "java/lang/Throwable.fillInStackTrace"),
    ("Hibernate ORM", "org/hibernate/"),
    ("PostgreSQL JDBC", "org/postgresql/"),
    ("Agroal pool", "io/agroal/"),
    ("Narayana transactions", "com/arjuna/"),
    ("Redis client", "io/vertx/redis/"),
    ("Jackson", "com/fasterxml/jackson/"),
    ("Quarkus REST", "org/jboss/resteasy/reactive/"),
    ("Quarkus security", "io/quarkus/security/"),
    ("HTTP security", "io/quarkus/vertx/http/runtime/security/"),
    ("Vert.x web", "io/vertx/ext/web/"),
    ("Netty", "io/netty/"),
    ("ArC (CDI)", "io/quarkus/arc/"),
    ("context propagation", "io/smallrye/context/"),
    ("Micrometer", "io/micrometer/"),
    ("OpenTelemetry", "io/opentelemetry/"),
    ("fault tolerance", "io/smallrye/faulttolerance/"),
    ("Mutiny", "io/smallrye/mutiny/"),
    ("logging", "org/jboss/logmanager/"),
    ("Qute", "io/quarkus/qute/"),
    ("the project", "io/orderflow/"),
    ("garbage collection", "GCTaskThread"),
    ("JIT compiler", "CompileBroker"),
]


def main(path, top, prefixes):
    stacks = collections.Counter()
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            stacks[stack] += int(count)
    total = sum(stacks.values()) or 1
    parts, own, inclusive = collections.Counter(), collections.Counter(), collections.Counter()
    for stack, count in stacks.items():
        frames = stack.split(";")
        own[frames[-1]] += count
        for frame in set(frames):
            inclusive[frame] += count
        for name, prefix in PARTS:
            if any(frame.startswith(prefix) or prefix in frame for frame in frames):
                parts[name] += count
    pct = lambda n: f"{100 * n / total:5.1f} %"
    print(f"{path}: {total} samples")
    print("\nunder each part of the stack (a sample can be under several):")
    for name, count in parts.most_common():
        print(f"  {pct(count)}  {name}")
    print(f"\nframes that burn the most themselves (top {top}):")
    for frame, count in own.most_common(top):
        print(f"  {pct(count)}  {frame}")
    for prefix in ["io/orderflow/"] + prefixes:
        print(f"\nframes starting with {prefix}, inclusive (top {top}):")
        shown = [(frame, count) for frame, count in inclusive.most_common() if frame.startswith(prefix)
                 and "_ClientProxy" not in frame and "_Subclass" not in frame and "$$" not in frame]
        for frame, count in shown[:top]:
            print(f"  {pct(count)}  {frame}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 25, sys.argv[3:])
