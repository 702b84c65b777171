#!/usr/bin/env bash
# Installs the Debian packages Ferry needs to build and test, skipping the ones
# already present. Safe to run any number of times.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  lld-22 liblld-22-dev  # LLD as a library: links native executables
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-22 libclang-rt-22-dev  # the module loader's libFuzzer target
  libjemalloc-dev  # ferry-compile's allocator (compiler/tools/CMakeLists.txt)
  python3 python3-numpy
  libopenblas-dev  # benchmark only: the sgemm baseline of ferry-kernel-bench
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
