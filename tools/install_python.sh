#!/usr/bin/env bash
# Builds the Python module `xla_index` (python/, optimized) and installs it
# for Debian's /usr/bin/python3, so that `/usr/bin/python3 -c 'import
# xla_index'` works from any directory. Installs what it needs from Debian
# packages only (tools/setup.sh, then pybind11-dev, python3-dev and
# python3-pytest for the tests); no other network. Run as root or with sudo.
#
#   tools/install_python.sh [--dest=DIR]
#
# DIR defaults to the first site-packages folder of /usr/bin/python3
# (/usr/local/lib/python3.11/dist-packages on Debian 12).
set -euo pipefail
cd "$(dirname "$0")/.."
python=/usr/bin/python3
dest=""
for arg in "$@"; do
  case "$arg" in
    --dest=*) dest="${arg#--dest=}" ;;
    *) echo "usage: tools/install_python.sh [--dest=DIR]" >&2; exit 2 ;;
  esac
done

sudo=""
((EUID == 0)) || sudo="sudo"

tools/setup.sh
missing=()
for p in python3 python3-dev pybind11-dev python3-pytest; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == *" ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]} > 0)); then
  echo "install_python.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

bazel build -c opt //python:xla_index.so
[[ -n "$dest" ]] ||
  dest=$("$python" -c 'import site; print(site.getsitepackages()[0])')
# The file name CPython looks for first (xla_index.cpython-311-...so).
suffix=$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
$sudo mkdir -p "$dest"
$sudo install -m 0644 bazel-bin/python/xla_index.so "$dest/xla_index$suffix"
(cd / && "$python" -c 'import xla_index') || {
  echo "install_python.sh: $python cannot import xla_index from $dest" >&2
  exit 1
}
echo "install_python.sh: installed $dest/xla_index$suffix"
