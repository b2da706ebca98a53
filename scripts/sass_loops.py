#!/usr/bin/env python3
"""Instructions in each kernel's innermost loop of tensor-core MMAs, from SASS.

    cuobjdump -sass KERNELS.cubin | python3 scripts/sass_loops.py [REGEX]

For every function whose name matches REGEX (default: every one), the
shortest loop (a backward branch and its target) that holds an MMA
(`HMMA` or `HGMMA`): its instructions, and among them the MMAs, global
loads (`LDG`), asynchronous global-to-shared copies (`LDGSTS`), shared
loads (`LDS`) and spills (`LDL`/`STL`). Static counts: a loop's
instructions whether or not a branch inside skips some. An iteration is a
warp's batch of `STEPS_IN_FLIGHT` (2) steps in versions 3 to 6 and 17, one
step in the tiled GEMMs (of an MMA warpgroup's loop, for 12 and later).

Run 29 found the decode GEMV's time to follow its instructions a step
(docs/PERF.md): counting them here, before a device run, is the check a
change to a decode kernel's loop needs first.
"""

import re
import sys

INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
BRANCH_TARGET = re.compile(r"\bBRA\b.*?\b0x([0-9a-f]+)\s*$")
MMA = r"\bHG?MMA\b"
COUNTED = (("MMA", MMA), ("LDG", r"\bLDG\b"), ("LDGSTS", r"\bLDGSTS\b"),
           ("LDS", r"\bLDS\b"), ("spill", r"\b(LDL|STL)\b"))


def functions(lines):
    """Yields (name, [(address, instruction)]) for each function of a cuobjdump listing."""
    name, body = None, []
    for line in lines:
        found = re.search(r"Function : (\S+)", line)
        if found:
            if name:
                yield name, body
            name, body = found.group(1), []
            continue
        instruction = INSTRUCTION.search(line)
        if name and instruction:
            body.append((int(instruction.group(1), 16), instruction.group(2)))
    if name:
        yield name, body


def innermost_mma_loop(body):
    """The instructions of the shortest loop holding an MMA, or None."""
    best = None
    for end, (address, text) in enumerate(body):
        target = BRANCH_TARGET.search(text)
        if not target or int(target.group(1), 16) > address:
            continue
        start = next(i for i, (a, _) in enumerate(body) if a >= int(target.group(1), 16))
        loop = [t for _, t in body[start:end + 1]]
        if any(re.search(MMA, t) for t in loop) and (best is None or len(loop) < len(best)):
            best = loop
    return best


def main():
    pattern = re.compile(sys.argv[1] if len(sys.argv) > 1 else "")
    print(f"{'kernel':<48} {'loop':>5} " + " ".join(f"{label:>6}" for label, _ in COUNTED))
    for name, body in functions(sys.stdin):
        if not pattern.search(name):
            continue
        loop = innermost_mma_loop(body)
        if loop is None:
            continue
        counts = [sum(1 for t in loop if re.search(regex, t)) for _, regex in COUNTED]
        print(f"{name:<48} {len(loop):>5} " + " ".join(f"{c:>6}" for c in counts))


if __name__ == "__main__":
    main()
