"""Copies a file, overwriting single bytes: patch_bytes.py IN OUT OFFSET=VALUE..."""
import sys

data = bytearray(open(sys.argv[1], "rb").read())
for patch in sys.argv[3:]:
    offset, value = patch.split("=")
    data[int(offset, 0)] = int(value, 0)
open(sys.argv[2], "wb").write(data)
