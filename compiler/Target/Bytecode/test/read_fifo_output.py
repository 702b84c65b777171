"""Runs COMMAND, whose output file is the FIFO PATH (created here), reading
the FIFO meanwhile. Checks that the command succeeds, leaves the FIFO in
place (a tool that renamed a temporary file over its output would replace
it, as it would /dev/null) and wrote bytes starting with PREFIX.

usage: read_fifo_output.py PATH PREFIX COMMAND...
"""
import os
import stat
import subprocess
import sys
import threading

path, prefix, command = sys.argv[1], sys.argv[2].encode(), sys.argv[3:]
if os.path.lexists(path):
    os.unlink(path)
os.mkfifo(path)
data = []


def read():
    with open(path, "rb") as fifo:
        data.append(fifo.read())


# A daemon: if the command never opens the FIFO, the read must not hang us.
reader = threading.Thread(target=read, daemon=True)
reader.start()
result = subprocess.run(command, timeout=120)
reader.join(timeout=30)
if result.returncode != 0:
    sys.exit(f"command failed with exit code {result.returncode}")
if not stat.S_ISFIFO(os.lstat(path).st_mode):
    sys.exit(f"'{path}' is no longer a FIFO: the output replaced it")
if not data or not data[0].startswith(prefix):
    sys.exit(f"read {data[0][:16] if data else 'nothing'!r} through the FIFO")
