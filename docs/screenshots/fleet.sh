#!/usr/bin/env bash
# Builds the small fleet the captures in this folder show: a bare origin, a primary, a workspace,
# and worktrees in every disposition (one with a Japanese branch name, one at a long path).
# usage: fleet.sh <empty dir> <orchard command...>   e.g. fleet.sh /tmp/f node dist/bin/orchard.js
set -euo pipefail
dir=$1; shift
orchard() { "$@"; }
o() { "${ORCHARD[@]}" --home "$dir/home" --repo "$dir/app" "$@" >/dev/null; }
ORCHARD=("$@")
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=demo GIT_AUTHOR_EMAIL=demo@example.com GIT_COMMITTER_NAME=demo GIT_COMMITTER_EMAIL=demo@example.com
mkdir -p "$dir" && cd "$dir"
git init -q --bare -b main remote/app.git
git init -q -b main app
( cd app && echo "# app" > README.md && git add -A && git commit -qm initial && git remote add origin ../remote/app.git && git push -q -u origin main && git remote set-head origin main )
o add billing --owner agent-1 --task o/r#7
o add search --owner agent-2 --task SRCH-12
o add "機能/検索-改善" --owner agent-3 --task o/r#9
o add done-1 --owner agent-4; o release app@done-1 --owner agent-4
wip=$("${ORCHARD[@]}" --home "$dir/home" --repo "$dir/app" add wip-1 --owner agent-5 --json | sed -E 's/.*"path":"([^"]*)".*/\1/')
echo work > "$wip/untracked-work.txt"; o release app@wip-1 --owner agent-5
long="$dir/foreign/a/rather/deeply/nested/directory/for/one/agent/worktree-agent-7f3c"
mkdir -p "$(dirname "$long")"
git -C app worktree add -q -b worktree-agent-7f3c "$long" main
sh -c 'exit 0' & dead=$!; wait $dead
git -C app worktree lock --reason "claude agent d (pid $dead)" "$long"
git -C app worktree add -q -b scratch "$dir/foreign/scratch" main
