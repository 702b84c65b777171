// ferry-compile's command-line and file errors: each names the problem and
// exits non-zero without leaving an output file.

// RUN: not ferry-compile %t.does-not-exist.mlir -o %t.fvm 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: ferry-compile: error: cannot open '{{.*}}does-not-exist.mlir': No such file or directory

// RUN: not ferry-compile %s 2>&1 | FileCheck %s --check-prefix=NO-OUTPUT
// NO-OUTPUT: ferry-compile: error: no output file: give the module's path with -o MODULE.fvm

// RUN: not ferry-compile %s -o - 2>&1 | FileCheck %s --check-prefix=STDOUT
// STDOUT: ferry-compile: error: a bytecode module cannot be written to stdout

// RUN: not ferry-compile %s -o %t.no-such-dir/out.fvm 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: ferry-compile: error: cannot write '{{.*}}no-such-dir/out.fvm': No such file or directory

// An output that is not a regular file (a device, a pipe) is written in
// place, not replaced by a file renamed over it: -o /dev/null stays the
// device, and a full device reports its error.
// RUN: %python %S/read_fifo_output.py %t.fifo FERRYVM ferry-compile %s -o %t.fifo
// RUN: %python %S/read_fifo_output.py %t.fifo module ferry-compile %s --compile-to=input -o %t.fifo
// RUN: not ferry-compile %s -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: ferry-compile: error: cannot write '/dev/full': No space left on device

// RUN: not ferry-compile %s --compile-to=nowhere 2>&1 | FileCheck %s --check-prefix=PHASE
// PHASE: Cannot find option named 'nowhere'

// Textual phases print to stdout by default, or to the -o file.
// RUN: ferry-compile %s --compile-to=input | FileCheck %s --check-prefix=INPUT
// RUN: ferry-compile %s --compile-to=input -o %t.mlir
// RUN: FileCheck %s --check-prefix=INPUT < %t.mlir
// INPUT: func.func @identity(%arg0: index) -> index

func.func @identity(%x: index) -> index {
  return %x : index
}
