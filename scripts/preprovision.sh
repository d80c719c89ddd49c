#!/bin/sh
# azd preprovision hook: makes the azd environment what .env says (azd-env-sync.sh), then checks that the
# region offers what the templates ask for (preflight.sh), before anything is created.
# Usage: scripts/preprovision.sh      (run by azd before each provision, or by hand; --help prints this)
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -eu
dir="$(cd "$(dirname "$0")" && pwd)"
sh "$dir/azd-env-sync.sh"
sh "$dir/preflight.sh"
