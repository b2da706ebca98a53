#!/usr/bin/env python3
"""Markdown tables comparing quant-kernels' timings with PyTorch's peers.

    python3 scripts/compare.py RUST_JSON TORCH_JSON [--markdown OUT.md]

RUST_JSON is the report the Rust side writes (source "quant-kernels"),
TORCH_JSON the one scripts/torch_peers.py writes (source "torch"). Prints,
and with --markdown also writes:

- one table per elementwise op: for each size, our fastest kernel (several
  versions or block sizes may be timed; the fastest cold median is kept and
  named), torch eager and torch.compile, the ratio compile / ours, and each
  side's bandwidth as a share of our run's copy bandwidth. f32 rows for
  every size either side has; f16 and bf16 rows where both sides have them;
- the linear table: for each (N, K, M), our fastest int4 kernel (groups of
  128 where timed), torch's int4 kernel, F.linear in f16, bf16 and f32, the
  ratios torch-int4 / ours and F.linear-f16 / ours, and our share of the
  roofline (minimum bytes over the cold time, over our copy bandwidth).

Every time is the cold median per call in microseconds; a ratio above 1
means ours is faster. A figure missing from either file prints as "-".
"""

import argparse
import json

DTYPE_ORDER = ("f32", "f16", "bf16")
ELEMENTWISE_OPS = ("add_mul_exp", "quantize_int8")
TORCH_INT4 = "_weight_int4pack_mm g128"
PREFERRED_GROUP = 128  # torch's int4 peer uses groups of 128


def dtype_rank(dtype):
    return DTYPE_ORDER.index(dtype) if dtype in DTYPE_ORDER else len(DTYPE_ORDER)


def load(path):
    with open(path) as f:
        data = json.load(f)
    data["rows"] = [r for r in data.get("rows") or [] if cold(r) is not None]
    return data


def cold(row):
    """The cold median in microseconds, or None where it is missing."""
    return (row.get("cold_us") or {}).get("median")


def fastest(rows):
    return min(rows, key=cold) if rows else None


def share_of_copy(row, copy_gbs):
    """Bandwidth of `row` (minimum bytes over cold time) as a fraction of `copy_gbs`."""
    if not row or not row.get("bytes") or not copy_gbs:
        return None
    return row["bytes"] / cold(row) / 1e3 / copy_gbs


def us(row):
    return f"{cold(row):.2f}" if row else "-"


def ratio(numerator, denominator):
    return f"{cold(numerator) / cold(denominator):.2f}x" if numerator and denominator else "-"


def percent(fraction):
    return f"{100 * fraction:.0f}%" if fraction is not None else "-"


def count(n):
    for unit, name in ((1_000_000, "M"), (1_000, "K")):
        if n % unit == 0:
            return f"{n // unit}{name}"
    return f"{n:,}"


def kernel_name(row):
    """Our row's kernel, with what distinguishes its variants."""
    if not row:
        return "-"
    details = [f"{row['mode']}" if row.get("mode") else None, f"G={row['group']}" if row.get("group") else None]
    details.append(f"block {row['block']}" if row.get("block") else None)
    details = [d for d in details if d]
    name = row.get("kernel") or row.get("version") or "?"
    return f"{name} ({', '.join(details)})" if details else name


def table(header, lines, text_columns):
    """A Markdown table, numbers right-aligned, `text_columns` (names) left."""
    rule = "|" + "|".join("---" if name in text_columns else "---:" for name in header) + "|"
    out = ["| " + " | ".join(header) + " |", rule]
    out += ["| " + " | ".join(line) + " |" for line in lines]
    return out


def header_lines(ours, torch):
    def side(data, label):
        copy = data.get("copy_bandwidth_gbs")
        copy_text = f"{copy:.0f} GB/s" if copy else "-"
        return f"- {label}: {data.get('device', '-')}, {data.get('date', '-')}, copy bandwidth {copy_text}"

    lines = [
        "# quant-kernels against PyTorch",
        "",
        side(ours, f"ours ({ours.get('source', 'quant-kernels')})"),
        side(torch, f"torch {torch.get('torch_version', '')}".rstrip()),
    ]
    if torch.get("compile"):
        lines.append(f"- torch.compile: {torch['compile']}")
    if "tf32" in torch:
        lines.append(f"- F.linear f32: TF32 {'on' if torch['tf32'] else 'off'}")
    if ours.get("device") and torch.get("device") and ours["device"] != torch["device"]:
        lines.append("- **the two files come from different devices: the ratios compare devices too**")
    lines += [
        "",
        (
            "Cold median per call (µs). Ratios above 1: ours faster. % copy: bandwidth (minimum bytes / time) "
            "over our run's copy bandwidth (both sides; the same device and sitting)."
        ),
    ]
    return lines


def elementwise_lines(ours, torch, op):
    mine = {}
    for r in ours["rows"]:
        if r.get("op") == op and r.get("elements"):
            mine.setdefault((r.get("dtype"), r["elements"]), []).append(r)
    peers = {}
    for r in torch["rows"]:
        if r.get("op") == op and r.get("elements"):
            peers.setdefault((r.get("impl"), r.get("dtype"), r["elements"]), []).append(r)
    peer_keys = {(dtype, n) for _, dtype, n in peers}
    # f32 wherever either side has it; other dtypes only where both do.
    keys = {key for key in mine.keys() | peer_keys if key[0] == "f32"} | (mine.keys() & peer_keys)
    lines = []
    for dtype, n in sorted(keys, key=lambda key: (dtype_rank(key[0]), key[1])):
        best = fastest(mine.get((dtype, n)))
        eager = fastest(peers.get(("eager", dtype, n)))
        compiled = fastest(peers.get(("torch.compile", dtype, n)))
        lines.append(
            [
                dtype,
                count(n),
                us(best),
                kernel_name(best),
                us(eager),
                us(compiled),
                ratio(compiled, best),
                percent(share_of_copy(best, ours.get("copy_bandwidth_gbs"))),
                percent(share_of_copy(compiled, ours.get("copy_bandwidth_gbs"))),
            ]
        )
    header = ["dtype", "elements", "ours", "our kernel", "torch eager", "torch.compile", "compile / ours"]
    header += ["ours % copy", "compile % copy"]
    return [f"## {op}", ""] + (table(header, lines, {"dtype", "our kernel"}) if lines else ["(no rows on either side)"])


def linear_lines(ours, torch):
    mine = [r for r in ours["rows"] if r.get("op") == "linear"]
    peers = [r for r in torch["rows"] if r.get("op") == "linear"]
    our_dtypes = [d for d in ("bf16", "f16") if any(r.get("dtype") == d for r in mine)] or ["f32"]

    def ours_for(n, k, m, dtype):
        rows = [r for r in mine if (r.get("n"), r.get("k"), r.get("m"), r.get("dtype")) == (n, k, m, dtype)]
        preferred = [r for r in rows if r.get("group") == PREFERRED_GROUP]
        return fastest(preferred or rows)

    def peer(n, k, m, impl, dtype):
        return fastest(
            [
                r
                for r in peers
                if (r.get("n"), r.get("k"), r.get("m"), r.get("impl"), r.get("dtype")) == (n, k, m, impl, dtype)
            ]
        )

    # Shapes in the order the files list them, each with its M ascending.
    shapes = list(dict.fromkeys((r.get("n"), r.get("k")) for r in mine + peers))
    batches = {
        shape: sorted({r.get("m") for r in mine + peers if (r.get("n"), r.get("k")) == shape}) for shape in shapes
    }
    lines = []
    for n, k in shapes:
        for m in batches[(n, k)]:
            best = {dtype: ours_for(n, k, m, dtype) for dtype in our_dtypes}
            main = best[our_dtypes[0]]
            torch_int4 = peer(n, k, m, TORCH_INT4, "bf16")
            dense = {dtype: peer(n, k, m, "F.linear", dtype) for dtype in ("f16", "bf16", "f32")}
            names = " / ".join(kernel_name(row) for row in best.values() if row) or "-"
            lines.append(
                [str(n), str(k), str(m)]
                + [us(best[dtype]) for dtype in our_dtypes]
                + [names, us(torch_int4)]
                + [us(dense[dtype]) for dtype in ("f16", "bf16", "f32")]
                + [
                    ratio(torch_int4, main),
                    ratio(dense["f16"], main),
                    percent(share_of_copy(main, ours.get("copy_bandwidth_gbs"))),
                ]
            )
    header = ["N", "K", "M"] + [f"ours int4 {dtype}" for dtype in our_dtypes] + ["our kernel", "torch int4 bf16"]
    header += ["F.linear f16", "F.linear bf16", "F.linear f32", "torch int4 / ours", "F.linear f16 / ours"]
    header += ["ours % roofline"]
    note = (
        f"Ours: int4 with {our_dtypes[0]} activations where timed (ratios use it). Torch int4: {TORCH_INT4} "
        "(tinygemm, asymmetric, bf16). % roofline: our minimum bytes / cold time, over our copy bandwidth."
    )
    return ["## linear", "", note, ""] + (
        table(header, lines, {"our kernel"}) if lines else ["(no rows on either side)"]
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rust_json", help="the Rust report's JSON")
    parser.add_argument("torch_json", help="scripts/torch_peers.py's JSON")
    parser.add_argument("--markdown", metavar="OUT", help="also write the tables here")
    args = parser.parse_args()

    ours, torch = load(args.rust_json), load(args.torch_json)
    lines = header_lines(ours, torch)
    for op in ELEMENTWISE_OPS:
        lines += [""] + elementwise_lines(ours, torch, op)
    lines += [""] + linear_lines(ours, torch)
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
