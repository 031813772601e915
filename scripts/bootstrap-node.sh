#!/usr/bin/env bash
# Source this file: it makes sure a Node.js >= 22 is first on PATH.
# Where the machine's node is older (or missing), it installs the `node@24` package from the
# npm registry into ./.tools (ignored by git) once, and puts that first on PATH.
_posts_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_posts_tools="$_posts_root/.tools/node_modules/.bin"
_posts_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ -x "$_posts_tools/node" ]; then
  export PATH="$_posts_tools:$PATH"
elif [ "$(_posts_major node)" -lt 22 ]; then
  echo "bootstrap: node $(node -v 2>/dev/null || echo missing) is too old; installing node@24 into .tools/" >&2
  npm install --no-save --no-audit --no-fund --prefix "$_posts_root/.tools" node@24 >&2 || return 1 2>/dev/null || exit 1
  export PATH="$_posts_tools:$PATH"
fi
hash -r
unset _posts_root _posts_tools
unset -f _posts_major
