"""pile-100 (Scenes/pile-100.json) built with pymunk the way CrateDrop's PileGenerator builds it
(SplitMix64 sizes and angles, grid cells), for the pymunk loops of scripts/bench-sweep and
scripts/bench-dataset."""
import math

import pymunk

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def unit(self):
        return (self.next() >> 11) * 2.0 ** -53


def pile(seed, count=100, world=400.0, min_size=10.0, max_size=20.0, density=0.01, gap=1.0):
    space = pymunk.Space()
    space.gravity = (0, -1000)
    space.iterations = 10
    corners = [(0, 0), (world, 0), (world, world), (0, world)]
    for i in range(4):
        wall = pymunk.Segment(space.static_body, corners[i], corners[(i + 1) % 4], 2)
        wall.friction, wall.elasticity = 0.7, 0.1
        space.add(wall)
    cell = math.ceil(max_size * math.sqrt(2)) + gap
    columns = max(1, int((world - gap) // cell))
    random = SplitMix64(seed)
    for i in range(count):
        width = min_size + (max_size - min_size) * random.unit()
        height = min_size + (max_size - min_size) * random.unit()
        angle = random.unit() * 2 * math.pi
        mass = density * width * height
        body = pymunk.Body(mass, pymunk.moment_for_box(mass, (width, height)))
        body.position = (gap + (i % columns + 0.5) * cell, gap + (i // columns + 0.5) * cell)
        body.angle = angle
        box = pymunk.Poly.create_box(body, (width, height))
        box.friction, box.elasticity = 0.7, 0.1
        space.add(body, box)
    return space
