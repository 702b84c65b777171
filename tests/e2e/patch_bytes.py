"""Copies a file, overwriting single bytes.

patch_bytes.py IN OUT [--reseal] OFFSET=VALUE...

With --reseal the Ferry module header's payload checksum (fnv1a64 of
everything after the 32-byte header, at bytes 24..31) is recomputed after
patching, so the loader gets past the checksum to the patched content.
"""
import struct
import sys

args = sys.argv[3:]
reseal = "--reseal" in args
data = bytearray(open(sys.argv[1], "rb").read())
for patch in (a for a in args if a != "--reseal"):
    offset, value = patch.split("=")
    data[int(offset, 0)] = int(value, 0)
if reseal:
    checksum = 0xCBF29CE484222325
    for byte in data[32:]:
        checksum = ((checksum ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    data[24:32] = struct.pack("<Q", checksum)
open(sys.argv[2], "wb").write(data)
