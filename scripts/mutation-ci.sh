#!/usr/bin/env bash
# Mutation testing in CI (docs/architecture.md, "Mutation testing"): the mutation-tested modules
# (stryker.config.json, `mutate`) whose code or tests changed since the merge base with main, and
# always the quick ones (FIXED below), so the step fits CI's time. MUTATION_ALL=1 runs every module
# (the nightly-sized run). Fails under the config's `thresholds.break`.
set -euo pipefail
cd "$(dirname "$0")/.."

# About 4 minutes together on a busy 2-core machine; the federation pair (~8) and the invalidation
# table (4–9, its cases go through the HTTP API) run when they or their tests changed.
FIXED=(server/oauth/scopes.ts server/mastodon/scopeGuard.ts server/safety/visibility.ts server/domain/audience.ts server/posts/access.ts)

mapfile -t ALL < <(node -e 'for (const f of require("./stryker.config.json").mutate) console.log(f)')

if [ "${MUTATION_ALL:-}" = 1 ]; then
  files=("${ALL[@]}")
else
  base=""
  for ref in "${MUTATION_BASE:-}" origin/main main; do
    [ -n "$ref" ] && base=$(git merge-base HEAD "$ref" 2>/dev/null) && break
  done
  files=("${FIXED[@]}")
  # A module runs when it or a test file run against it changed; every module when the setup did.
  declare -A TESTS_OF=(
    [server/invalidation/table.ts]="tests/server/invalidationTable.test.ts"
    [server/federation/signedInbox.ts]="tests/server/federationSignedInbox.test.ts"
    [server/federation/inboxSignature.ts]="tests/server/inboxSignature.test.ts"
  )
  setup_changed=""
  if [ -z "$base" ] || ! git diff --quiet "$base" -- stryker.config.json vitest.mutation.config.ts; then setup_changed=1; fi
  for f in "${ALL[@]}"; do
    [[ " ${files[*]} " == *" $f "* ]] && continue
    # shellcheck disable=SC2086 # the test files are a space-separated list
    if [ -n "$setup_changed" ] || ! git diff --quiet "$base" -- "$f" ${TESTS_OF[$f]:-}; then files+=("$f"); fi
  done
fi

echo "Mutation testing: ${files[*]}"
[[ " ${files[*]} " == *" server/invalidation/table.ts "* ]] || export MUTATION_SKIP_TABLE=1
IFS=,
npx stryker run --mutate "${files[*]}"
