#!/usr/bin/env bash
# Mutation testing in CI (docs/architecture.md, "Mutation testing"): the mutation-tested modules
# (stryker.config.json, `mutate`) changed since the merge base with main, and always the quick ones
# (FIXED below), so the step fits CI's time. MUTATION_ALL=1 runs every module (the nightly-sized
# run). Fails under the config's `thresholds.break`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Minutes, not seconds, per module on a busy 2-core machine: the invalidation table's cases go
# through the HTTP API, so it runs only when it (or its test) changed.
FIXED=(server/oauth/scopes.ts server/mastodon/scopeGuard.ts server/safety/visibility.ts server/posts/access.ts)

mapfile -t ALL < <(node -e 'for (const f of require("./stryker.config.json").mutate) console.log(f)')

if [ "${MUTATION_ALL:-}" = 1 ]; then
  files=("${ALL[@]}")
else
  base=""
  for ref in "${MUTATION_BASE:-}" origin/main main; do
    [ -n "$ref" ] && base=$(git merge-base HEAD "$ref" 2>/dev/null) && break
  done
  files=("${FIXED[@]}")
  # A changed mutation test file (or its list) can let mutants through anywhere: every module then.
  mapfile -t TESTS < <(grep -o "'tests/[^']*'" vitest.mutation.config.ts | tr -d "'")
  tests_changed=""
  if [ -n "$base" ] && ! git diff --quiet "$base" -- vitest.mutation.config.ts "${TESTS[@]}"; then tests_changed=1; fi
  for f in "${ALL[@]}"; do
    [[ " ${files[*]} " == *" $f "* ]] && continue
    if [ -z "$base" ] || ! git diff --quiet "$base" -- "$f" || [ -n "$tests_changed" ]; then files+=("$f"); fi
  done
fi

echo "Mutation testing: ${files[*]}"
[[ " ${files[*]} " == *" server/cache/invalidation.ts "* ]] || export MUTATION_SKIP_TABLE=1
IFS=,
npx stryker run --mutate "${files[*]}"
