#!/bin/sh
# Starts the production server: `npm start`, and the same way the benchmark and the browser suite.
# `exec`: the server replaces this shell, so signals and the process id are the server's own.
#
# Memory (docs/benchmarks.md, "Memory"):
# - MALLOC_ARENA_MAX=2: glibc otherwise gives threads (libuv's pool running argon2, libvips) malloc
#   arenas of their own, and RSS grows by tens of MB under load without ever going back.
# - --max-semi-space-size=4 (MB): on a large machine V8 grows the young generation's semi-spaces
#   to 16+ MB; small ones keep the heap close to its live size at the same throughput.
cd "$(dirname "$0")/.." || exit 1
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec "${NODE:-node}" --max-semi-space-size=4 --import tsx server/main.ts --build-if-needed "$@"
