#!/bin/sh
# Makes the azd environment's model settings what the repository's .env (made from .env.template)
# says, so that `azd provision` uses them. Runs as azd's preprovision hook; run it by hand too (before
# `azd up`) when in doubt. Without a .env it changes nothing.
# - Both ways: a setting .env sets is set; a setting it no longer sets is unset in the azd
#   environment, so main.parameters.json's default applies again instead of the old value.
# - Values as a person means them: a Windows line end (\r), spaces, an inline "# comment" and
#   quotes around the value are not part of it (Bicep's @allowed would refuse "pubsub\r").
# - AZURE_LOCATION cannot change for an environment already provisioned: a different location is
#   refused (exit 1) before anything changes.
# - A renamed setting still set in .env or the azd environment stops the provision (exit 1) with one
#   line naming the new one, before anything changes: DAPR_COMPONENTS_MODEL, now MESSAGING_MODEL;
#   DAPR_PUBSUB_MODEL, now MESSAGING_MODEL; DELIVERY_DEADLINE_SECONDS, now REQUEST_DEADLINE_SECONDS.
# Usage: scripts/azd-env-sync.sh [ENV_FILE]
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
env_file="${1:-$ROOT/.env}"
keys=" MESSAGING_MODEL SERVICE_BUS_SKU SERVICE_BUS_MESSAGING_UNITS MAX_MESSAGES_COUNT MAX_ACTIVE_MESSAGES MAX_CONCURRENT_HANDLERS SINGLE_MAX_ACTIVE_MESSAGES SINGLE_MAX_CONCURRENT_HANDLERS BINDING_CONSUMERS_PER_QUEUE REQUEST_DEADLINE_SECONDS TIERED_COMPILATION REQUEST_SAMPLING_PERCENTAGE "
tab="$(printf '\t')"

renamed="$(awk -F'\t' '$1 == "variable" { printf "%s:%s ", $2, $3 }' "$ROOT/src/OrderDistribution.ServiceDefaults/renamed-settings.tsv")"

# KEY<tab>VALUE for each setting of a dotenv file (.env, or azd env get-values' KEY="VALUE" lines).
settings() {
  awk '
    { gsub(/\r/, "") }
    /^[ \t]*(#|$)/ { next }
    {
      line = $0
      sub(/^[ \t]*(export[ \t]+)?/, "", line)
      eq = index(line, "=")
      if (eq == 0) next
      key = substr(line, 1, eq - 1); gsub(/[ \t]/, "", key)
      value = substr(line, eq + 1); sub(/^[ \t]+/, "", value)
      quote = substr(value, 1, 1)
      if ((quote == "\"" || quote == "\047") && (end = index(substr(value, 2), quote)) > 0) {
        value = substr(value, 2, end - 1)
      } else {
        sub(/[ \t]+#.*$/, "", value); sub(/[ \t]+$/, "", value)
      }
      print key "\t" value
    }' "$1"
}

# The value of KEY in a settings file; status 1 when the file does not set it.
value_of() { # KEY FILE
  awk -F "$tab" -v key="$1" '$1 == key { value = $2; found = 1 } END { if (found) print value; exit !found }' "$2"
}

wanted="$(mktemp)"; current="$(mktemp)"; azd_values="$(mktemp)"
trap 'rm -f "$wanted" "$current" "$azd_values"' EXIT
if [ -f "$env_file" ]; then settings "$env_file" > "$wanted"; fi
azd env get-values > "$azd_values"
settings "$azd_values" > "$current"

# A renamed setting would be ignored (main.parameters.json reads only the new name): stop, naming it.
for pair in $renamed; do
  old="${pair%%:*}"; new="${pair#*:}"
  values=""; [ "$new" = MESSAGING_MODEL ] && values=" (bindings, pubsub-single or pubsub-bulk)"
  if value_of "$old" "$wanted" >/dev/null; then
    echo "error: $(basename "$env_file") sets $old, which is no longer read: set $new$values instead and remove $old" >&2
    exit 1
  fi
  if value_of "$old" "$current" >/dev/null; then
    echo "error: the azd environment sets $old, which is no longer read: set $new$values (azd env set $new ...) and azd env unset $old" >&2
    exit 1
  fi
done

if [ ! -f "$env_file" ]; then
  echo "no $env_file: the azd environment's values stay as they are"
  exit 0
fi

env_name="$(value_of AZURE_ENV_NAME "$wanted" || true)"
azd_env_name="${AZURE_ENV_NAME:-$(value_of AZURE_ENV_NAME "$current" || true)}"
if [ -n "$env_name" ] && [ -n "$azd_env_name" ] && [ "$env_name" != "$azd_env_name" ]; then
  echo "warning: .env names environment '$env_name' but azd runs '$azd_env_name' (azd env select $env_name)" >&2
fi

# ARM refuses another location for a deployed environment (rg-<env> keeps its region, azd's
# subscription deployment its location), but only after this hook had written it into the azd
# environment, whose resource names (uniqueString(subscription, environment, location)) would then
# no longer be the deployed ones: refuse first, change nothing.
if location="$(value_of AZURE_LOCATION "$wanted")" && [ -n "$location" ]; then
  deployed_location="$(value_of AZURE_LOCATION "$current" || true)"
  if [ -n "$(value_of AZURE_RESOURCE_GROUP "$current" || true)" ] && [ -n "$deployed_location" ] && [ "$location" != "$deployed_location" ]; then
    echo "error: .env sets AZURE_LOCATION=$location, but azd environment '${azd_env_name:-current}' is deployed in $deployed_location." >&2
    echo "  ARM keeps rg-<environment> and azd's deployment in their region, and every resource name is derived from the location." >&2
    echo "  Set AZURE_LOCATION=$deployed_location in .env, or use another region in a new environment (azd env new NAME), or azd down first." >&2
    exit 1
  fi
  if [ "$location" != "$deployed_location" ]; then
    azd env set AZURE_LOCATION "$location" >/dev/null || { echo "error: azd env set AZURE_LOCATION failed" >&2; exit 1; }
    echo "azd env: AZURE_LOCATION=$location"
  fi
fi

for key in $keys; do
  if value="$(value_of "$key" "$wanted")"; then
    azd env set "$key" "$value" >/dev/null || { echo "error: azd env set $key failed" >&2; exit 1; }
    echo "azd env: $key=$value"
  elif value_of "$key" "$current" >/dev/null; then
    # A provision must not go on with the old value: stop when this azd cannot unset (it predates `azd env unset`).
    azd env unset "$key" >/dev/null || {
      echo "error: could not unset $key, which $(basename "$env_file") no longer sets: update azd (azd env unset), or set it in $(basename "$env_file")" >&2
      exit 1
    }
    echo "azd env: $key unset (not in $(basename "$env_file"): its default applies)"
  fi
done
