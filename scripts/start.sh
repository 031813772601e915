#!/bin/sh
# Starts the production server: `npm start`, and the same way the benchmark and the browser suite.
# `exec`: the server replaces this shell, so signals and the process id are the server's own.
#
# Memory (docs/benchmarks/log/2026-11-23.md, "Image memory bounds", and each line's own):
# - MALLOC_ARENA_MAX=2: glibc otherwise gives threads (libuv's pool running argon2, libvips) malloc
#   arenas of their own, and RSS grows by tens of MB under load without ever going back.
# - MALLOC_MMAP_THRESHOLD_=131072: glibc otherwise raises its threshold to the largest buffer freed,
#   then serves libvips' big row buffers from arenas that keep them; fixed, they go back to the
#   system when freed, and one upload after another does not pile up (#image-memory-bounds-2026-11-23).
# - --max-semi-space-size (MB): on a large machine V8 grows the young generation's semi-spaces
#   to 16+ MB; with SQLite small ones (4) keep the heap close to its live size at the same
#   throughput. With PostgreSQL a request holds its objects through a round trip, long enough
#   to survive 4 MB young generations and pile up in the old one until a full collection: 8 MB
#   there (16 held more memory for the same CPU per request;
#   docs/benchmarks/log/2026-11-24.md#the-young-generation-on-postgresql-2026-11-24).
# - --heap-growing-percent=25: after a full collection V8 lets the old generation grow to 1.25x
#   what survived before collecting again, instead of 2-4x on a machine with gigabytes; the pages
#   it grew into stay resident, so RSS follows the highest heap. Writes among the reads (likes,
#   comments, new posts re-making cached rows) promote garbage steadily: 25 rather than 50 holds
#   the mix's peak near its 400 MB goal for the same CPU per request (docs/benchmarks/log/2026-11-28.md, "The old
#   generation under a stream of writes").
# - --import ./server/ownSourceMapsOnly.ts: tsx reads every package's source map too, and each stayed
#   in memory with its sources; stack traces need only the app's own (docs/benchmarks/log/2026-11-28.md, "Source
#   maps of our own code only").
cd "$(dirname "$0")/.." || exit 1
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
# The same test as isPostgresUrl (server/db/database.ts).
case "${DATABASE_URL:-}" in
  postgres://* | postgresql://*) semi_space=8 ;;
  *) semi_space=4 ;;
esac
exec "${NODE:-node}" --max-semi-space-size="$semi_space" --heap-growing-percent=25 --import tsx --import ./server/ownSourceMapsOnly.ts server/main.ts --build-if-needed "$@"
