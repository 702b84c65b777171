"""Checks a ferry-run --stats JSON file against expected counts.

usage: check_stats.py STATS.json [--no-devices] [--device=NAME] key=value ...

Also checks the pinned shape: a "devices" map whose entries and the top level
carry every key, with the top level equal to the sum over devices. The map
is empty only for a module that declares no devices, and only --no-devices
says to expect that. `reclaimed_at_last_reference` (a free the program
missed) must be 0 on every device unless a key=value names it.
"""
import json
import sys

KEYS = ["allocations", "deallocations", "bytes_allocated", "peak_bytes",
        "live_bytes_at_exit", "copies", "bytes_copied", "fills", "dispatches",
        "transfers", "bytes_transferred", "constant_bytes",
        "reclaimed_at_last_reference"]


def fail(message):
    print(f"check_stats: {message}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    with open(argv[0]) as f:
        stats = json.load(f)
    devices = stats.get("devices")
    no_devices = "--no-devices" in argv[1:]
    argv = [arg for arg in argv if arg != "--no-devices"]
    if not isinstance(devices, dict):
        fail("missing 'devices' map")
    if no_devices and devices:
        fail(f"expected no devices, have {sorted(devices)}")
    if not no_devices and not devices:
        fail("empty 'devices' map")
    for name, counts in devices.items():
        for key in KEYS:
            if not isinstance(counts.get(key), int):
                fail(f"device '{name}' lacks integer '{key}'")
    for key in KEYS:
        if not isinstance(stats.get(key), int):
            fail(f"top level lacks integer '{key}'")
        total = sum(counts[key] for counts in devices.values())
        # Peak bytes are per device; their sum bounds the overall peak.
        if key != "peak_bytes" and stats.get(key) != total:
            fail(f"top-level '{key}' is {stats.get(key)}, devices sum to {total}")
    if not any(arg.startswith("reclaimed_at_last_reference=") for arg in argv):
        for name, counts in devices.items():
            if counts["reclaimed_at_last_reference"] != 0:
                fail(f"device '{name}': {counts['reclaimed_at_last_reference']}"
                     " buffers were freed by no dealloca (reclaimed at their"
                     " last reference)")
    scope, scope_name = stats, "top level"
    for arg in argv[1:]:
        if arg.startswith("--device="):
            name = arg.split("=", 1)[1]
            if name not in devices:
                fail(f"no device '{name}' (have {sorted(devices)})")
            scope, scope_name = devices[name], f"device '{name}'"
            continue
        key, value = arg.split("=", 1)
        if scope.get(key) != int(value):
            fail(f"{scope_name}: expected {key}={value}, got {scope.get(key)}")


if __name__ == "__main__":
    main(sys.argv[1:])
