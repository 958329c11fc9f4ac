"""The dataset of scripts/bench-dataset written with pymunk and Pillow: for each seed, pile-100's
first COUNT boxes (scripts/pymunk_pile.py) stepped at 1/120 s for SECONDS, and every
120/FPS steps a SIZE x SIZE frame (boxes filled over the walls, PNG) and its instance mask (each
body's id, 16-bit PNG) drawn with Pillow, and a CSV row per body per frame (id, position, angle,
velocities, bounding box in pixels); prints samples per CPU-second (the process's CPU time).
    python pymunk-dataset.py SAMPLES SECONDS FPS SIZE COUNT OUTDIR
"""
import math
import os
import sys
import time

from PIL import Image, ImageDraw

from pymunk_pile import pile

WORLD = 400.0


def main():
    samples, seconds, fps, size, count, out = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
    steps, every = round(seconds * 120), 120 // fps
    scale = size / WORLD

    def pixel(point):
        return (point[0] * scale, (WORLD - point[1]) * scale)

    start = time.process_time()
    for seed in range(samples):
        folder = os.path.join(out, f"{seed:06d}")
        os.makedirs(folder)
        space = pile(seed, count=count)
        bodies = [body for body in space.bodies]
        walls = [shape for shape in space.static_body.shapes]
        rows = ["frame,step,id,x,y,angle,vx,vy,angular_velocity,box_x0,box_y0,box_x1,box_y1"]
        for step in range(1, steps + 1):
            space.step(1 / 120)
            if step % every:
                continue
            frame_number = step // every
            frame = Image.new("RGB", (size, size), (0xF4, 0xEF, 0xE6))
            mask = Image.new("I;16", (size, size), 0)
            draw, draw_mask = ImageDraw.Draw(frame), ImageDraw.Draw(mask)
            for index, wall in enumerate(walls):
                a, b = pixel(wall.a), pixel(wall.b)
                draw.line([a, b], fill=(0x3C, 0x3C, 0x46), width=max(1, round(2 * wall.radius * scale)))
                draw_mask.line([a, b], fill=61440 + index, width=max(1, round(2 * wall.radius * scale)))
            for identity, body in enumerate(bodies, start=1):
                shape = next(iter(body.shapes))
                corners = [pixel(body.local_to_world(v)) for v in shape.get_vertices()]
                draw.polygon(corners, fill=(0xB5, 0x83, 0x4A), outline=(0x6B, 0x4A, 0x26))
                draw_mask.polygon(corners, fill=identity)
                xs, ys = [c[0] for c in corners], [c[1] for c in corners]
                rows.append(f"{frame_number},{step},{identity},{body.position.x!r},{body.position.y!r},{body.angle!r},"
                            f"{body.velocity.x!r},{body.velocity.y!r},{body.angular_velocity!r},{min(xs)!r},{min(ys)!r},{max(xs)!r},{max(ys)!r}")
            frame.save(os.path.join(folder, f"frame-{frame_number:05d}.png"), compress_level=1)
            mask.save(os.path.join(folder, f"mask-{frame_number:05d}.png"), compress_level=1)
        with open(os.path.join(folder, "trace.csv"), "w") as file:
            file.write("\n".join(rows) + "\n")
    elapsed = time.process_time() - start
    print(f"{samples / elapsed:.3f}")


main()
