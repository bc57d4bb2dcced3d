#!/usr/bin/env bash
# The whole suite: typecheck, then every test against SQLite, then every test against PostgreSQL.
# PostgreSQL is the local server (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test);
# each test uses its own fresh schema and drops it afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"
npx tsc --noEmit -p .
echo "== tests on SQLite"
npx vitest run
echo "== tests on PostgreSQL"
TEST_STORE=postgres npx vitest run
