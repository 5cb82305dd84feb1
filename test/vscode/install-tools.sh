#!/usr/bin/env bash
# Installs what the in-editor tests need (Chromium, ripgrep, Graphviz, code-server) outside git-tracked paths; idempotent.
set -euo pipefail
cd "$(dirname "$0")/../.."

# code-server 4.100.3 (VS Code 1.100.3) is the last release whose install accepts Node 20.
CODE_SERVER_VERSION=4.100.3
TOOLS=.vscode-test/tools

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
# Graphviz: the witness export's DOT is checked with `dot -Tsvg`.
command -v dot >/dev/null 2>&1 || need+=(graphviz)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then echo "install-tools: need root to apt-get install ${need[*]}" >&2; exit 1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ -f "$TOOLS/node_modules/code-server/out/node/entry.js" ]; then
  echo "install-tools: code-server $CODE_SERVER_VERSION already in $TOOLS"
  exit 0
fi
mkdir -p "$TOOLS"
echo '{ "name": "isocheck-vscode-tools", "private": true }' > "$TOOLS/package.json"

# @vscode/ripgrep's postinstall downloads rg from a host we cannot reach; it takes a pre-seeded cache instead.
cache_tmp="$(pwd)/.vscode-test/tmp"
cache="$cache_tmp/vscode-ripgrep-cache-1.15.11"
mkdir -p "$cache" "$cache_tmp/rg"
cp "$(command -v rg)" "$cache_tmp/rg/rg"
tar -czf "$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$cache_tmp/rg" rg

echo "install-tools: installing code-server $CODE_SERVER_VERSION into $TOOLS (about 1.5 min on a cold cache)"
# node-pty runs `npx node-gyp`: let it, without a prompt.
(cd "$TOOLS" && TMPDIR="$cache_tmp" npm_config_unsafe_perm=true npm_config_yes=true \
  npm install --no-audit --no-fund --no-save "code-server@$CODE_SERVER_VERSION" >install.log 2>&1) || {
  tail -40 "$TOOLS/install.log" >&2; exit 1; }
test -f "$TOOLS/node_modules/code-server/out/node/entry.js"
echo "install-tools: done"
