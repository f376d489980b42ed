#!/usr/bin/env bash
# Installs what xla_index needs from Debian 12's packages, and only what is
# missing: when everything is there it does nothing (no apt-get update, no
# network). Safe to run any number of times; run as root or with sudo.
#
#   tools/setup.sh [--ci]
set -euo pipefail

packages=(
  # Toolchain and builds.
  g++ binutils cmake make ccache pkg-config python3
  bazel-bootstrap bazel-rules-java
  # LLVM/MLIR 22, pinned below: another major version would remove these.
  libmlir-22-dev llvm-22-dev mlir-22-tools
  # Libraries.
  libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev
)
# CI alone also needs clang (the second compiler of examples/run.sh) and
# chromium (tools/check_report_html.sh renders the report page); .ci/run
# installs them when missing. `tools/setup.sh --ci` installs them here too.
if [[ "${1:-}" == "--ci" ]]; then
  packages+=(clang chromium)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  # "install ok installed", or "hold ok installed" once pinned below.
  [[ "$status" == *" ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo=""
if ((EUID != 0)); then
  command -v sudo >/dev/null || {
    echo "setup.sh: missing packages (${missing[*]}) and not root" >&2
    exit 1
  }
  sudo="sudo"
fi
echo "setup.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
# Keep the LLVM/MLIR major version: a later install of another version's
# -dev packages must not silently replace it.
$sudo apt-mark hold libmlir-22-dev llvm-22-dev mlir-22-tools >/dev/null
