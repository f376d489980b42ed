#!/bin/sh
# Runs output_encoding_test.py (beside this script) with Debian's python3.
exec /usr/bin/python3 "$(dirname "$0")/output_encoding_test.py" "$@"
