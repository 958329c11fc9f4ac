"""The sweep of scripts/bench-sweep written as a pymunk loop: pile-100 (scripts/pymunk_pile.py)
for each seed, stepped at 1/120 s with 10 iterations, the final positions kept; prints samples
per CPU-second (the process's CPU time, so that other work on a shared machine does not count).
    python pymunk-sweep.py SAMPLES SECONDS
"""
import sys
import time

from pymunk_pile import pile


def main():
    samples, seconds = int(sys.argv[1]), float(sys.argv[2])
    steps = round(seconds * 120)
    start = time.process_time()
    for seed in range(samples):
        space = pile(seed)
        for _ in range(steps):
            space.step(1 / 120)
        _ = [body.position for body in space.bodies]
    elapsed = time.process_time() - start
    print(f"{samples / elapsed:.3f}")


main()
