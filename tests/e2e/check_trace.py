"""Checks a ferry-run --trace file (Chrome trace event JSON).

usage: check_trace.py TRACE.json --devices=NAME[,NAME...] [kind=N ...]
                      [kind>=N ...] [call:NAME=N ...]

Always checks the shape Perfetto and chrome://tracing need: a JSON object
with a "traceEvents" list; metadata naming every process and thread; a "vm"
process; one process per listed device, named "NAME (DRIVER)", with a
"queue" thread; every queue event ("cat": "queue", "ph": "X") on a device
process with numeric ts/dur and an integer "bytes" arg; a "live_bytes"
counter on every device process that starts and ends at 0 (and rises above 0
on some device); async import-completion spans that pair up by id.

Then `kind=N` / `kind>=N` compare the number of queue events named kind
(alloca, dealloca, barrier, fill, copy, dispatch, host_call) over all
devices, and `call:NAME=N` the number of import calls of NAME (each with one
completion span).
"""
import collections
import json
import re
import sys

QUEUE_KINDS = {"alloca", "dealloca", "barrier", "fill", "copy", "dispatch",
               "host_call"}


def fail(message):
    print(f"check_trace: {message}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    with open(argv[0]) as f:
        trace = json.load(f)
    if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
        fail("not an object with a 'traceEvents' list")
    events = trace["traceEvents"]
    devices = None
    checks = []
    for arg in argv[1:]:
        if arg.startswith("--devices="):
            devices = arg.split("=", 1)[1].split(",")
        else:
            match = re.fullmatch(r"([\w:.]+)(>=|=)(\d+)", arg)
            if not match:
                fail(f"bad check '{arg}'")
            checks.append(match.groups())
    if not devices:
        fail("--devices=NAME[,NAME...] is required")

    processes, threads = {}, {}
    for e in events:
        for key in ("ph", "name", "pid"):
            if key not in e:
                fail(f"event without '{key}': {e}")
        if e["ph"] == "M":
            if e["name"] == "process_name":
                processes[e["pid"]] = e["args"]["name"]
            elif e["name"] == "thread_name":
                threads[(e["pid"], e["tid"])] = e["args"]["name"]
    if "vm" not in processes.values():
        fail(f"no 'vm' process (processes: {sorted(processes.values())})")
    device_pids = {}
    for name in devices:
        pids = [pid for pid, p in processes.items()
                if re.fullmatch(re.escape(name) + r" \([\w-]+\)", p)]
        if len(pids) != 1:
            fail(f"expected one process for device '{name}', processes: "
                 f"{sorted(processes.values())}")
        device_pids[name] = pids[0]
        if threads.get((pids[0], 1)) != "queue":
            fail(f"device '{name}' has no 'queue' thread")
    if len(device_pids) + 1 != len(processes):
        fail(f"unexpected processes: {sorted(processes.values())}")

    kinds = collections.Counter()
    calls = collections.Counter()
    samples = collections.defaultdict(list)
    async_spans = collections.defaultdict(list)
    last_ts = float("-inf")
    for e in events:
        if e["ph"] == "M":
            continue
        ts = e.get("ts")
        if not isinstance(ts, (int, float)):
            fail(f"event without numeric ts: {e}")
        if ts < last_ts:
            fail(f"events out of timestamp order at {e}")
        last_ts = ts
        if e.get("cat") == "queue":
            if e["ph"] != "X" or not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
                fail(f"queue event is not a complete event: {e}")
            if e["name"] not in QUEUE_KINDS:
                fail(f"unknown queue event '{e['name']}'")
            if e["pid"] not in device_pids.values() or e.get("tid") != 1:
                fail(f"queue event off the device queue tracks: {e}")
            if not isinstance(e.get("args", {}).get("bytes"), int):
                fail(f"queue event without integer bytes: {e}")
            if e["name"] == "dispatch" and "kernel" not in e["args"] and not (
                    "executable" in e["args"] and "entry" in e["args"]):
                fail(f"dispatch naming neither a kernel nor an executable's entry: {e}")
            kinds[e["name"]] += 1
        elif e["ph"] == "C":
            if e["name"] != "live_bytes" or e["pid"] not in device_pids.values():
                fail(f"unexpected counter: {e}")
            samples[e["pid"]].append(e["args"]["bytes"])
        elif e.get("cat") == "import_call":
            if e["ph"] != "X" or processes.get(e["pid"]) != "vm":
                fail(f"import call off the vm track: {e}")
            calls[e["name"]] += 1
        elif e["ph"] in ("b", "e"):
            async_spans[(e["name"], e["id"])].append(e["ph"])

    for name, pid in device_pids.items():
        values = samples[pid]
        if not values or values[0] != 0 or values[-1] != 0:
            fail(f"device '{name}': live_bytes samples {values[:5]}...{values[-5:]} "
                 "do not start and end at 0")
    if not any(max(samples[pid]) > 0 for pid in device_pids.values()):
        fail("no device's live_bytes ever rose above 0")
    completions = collections.Counter()
    for (name, _), phases in async_spans.items():
        if phases != ["b", "e"]:
            fail(f"async span of '{name}' is {phases}, expected b then e")
        completions[name] += 1

    for key, op, value in checks:
        value = int(value)
        if key.startswith("call:"):
            name = key[len("call:"):]
            got = calls[name]
            if completions[name] != got:
                fail(f"'{name}': {got} calls but {completions[name]} completion spans")
        else:
            if key not in QUEUE_KINDS:
                fail(f"unknown kind '{key}'")
            got = kinds[key]
        if (op == "=" and got != value) or (op == ">=" and got < value):
            fail(f"expected {key}{op}{value}, got {got} "
                 f"(queue events: {dict(kinds)}, calls: {dict(calls)})")


if __name__ == "__main__":
    main(sys.argv[1:])
