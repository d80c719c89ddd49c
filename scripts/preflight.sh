#!/bin/sh
# Checks, before anything is created, that the chosen region offers every resource type at the API version
# the templates use (read from infra/main.bicep compiled, not from a list kept by hand) and the Service Bus
# tier asked for (SERVICE_BUS_SKU). A region that has not rolled one out would fail the deployment after
# minutes with ARM's message; this says it at once, one line per type: type, version, region. Exit 1 then.
# It fails only on what it knows: a child type (daprComponents/resiliencyPolicies, blobServices/containers)
# that the provider does not list at all, or a provider or tier it could not read, is one warning line and
# the provision goes on (whether a provider lists its child types is not documented).
# Runs in the preprovision hook (scripts/preprovision.sh); run it by hand after `azd env set AZURE_LOCATION`.
# Needs a Bicep compiler (BICEP, bicep on PATH, the one azd downloads, or az bicep) and a signed-in az; without
# them it prints one line saying what it did not check, and exits 0 (azd itself needs neither).
# Usage: scripts/preflight.sh
case "${1:-}" in -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

skipped() { # WHY
  echo "preflight: checked nothing: $1"
  exit 0
}

if [ -z "${AZURE_SUBSCRIPTION_ID:-}" ] && command -v azd >/dev/null 2>&1; then
  values="$(azd env get-values 2>/dev/null)" && eval "$values"
fi
[ -n "${AZURE_LOCATION:-}" ] || skipped "AZURE_LOCATION is not set yet (azd asks for it after this hook; set it in .env to check)"
[ -n "${AZURE_SUBSCRIPTION_ID:-}" ] || skipped "AZURE_SUBSCRIPTION_ID is not set yet"
command -v az >/dev/null 2>&1 || skipped "az is not installed"
az account show --subscription "$AZURE_SUBSCRIPTION_ID" --query id -o tsv >/dev/null 2>&1 ||
  skipped "az is not signed in to subscription $AZURE_SUBSCRIPTION_ID (azd auth login does not sign in az)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
template="$work/main.json"
bicep="${BICEP:-$(command -v bicep 2>/dev/null || true)}"
[ -n "$bicep" ] || for azd_bicep in "$HOME/.azd/bin/bicep" "$HOME/.azd/bin/bicep.exe"; do
  [ -x "$azd_bicep" ] && bicep="$azd_bicep" && break
done
if [ -n "$bicep" ]; then
  "$bicep" build "$ROOT/infra/main.bicep" --outfile "$template" >"$work/error" 2>&1
else
  az bicep build --file "$ROOT/infra/main.bicep" --outfile "$template" >"$work/error" 2>&1
fi || skipped "infra/main.bicep did not compile: $(grep -m1 . "$work/error" || echo 'no compiler found')"

# Each resource's "type" line is followed by its "apiVersion" line in a compiled template.
awk '/"type": "[A-Za-z]+\.[A-Za-z]+\//{ t = $0; getline; if ($0 ~ /"apiVersion": "/) print t $0 }' "$template" |
  sed -E 's/.*"type": "([^"]+)".*"apiVersion": "([^"]+)".*/\1 \2/' | sort -u > "$work/used"

# Region names as az lists them ("Sweden Central") and as azd keeps them ("swedencentral") compare alike.
region() { tr -d ' ' | tr '[:upper:]' '[:lower:]'; }
location="$(printf '%s' "$AZURE_LOCATION" | region)"
failed=0
warn() { # WHAT
  echo "preflight: warning: $1"
}
: > "$work/unlisted"
: > "$work/checked"
namespaces="$(cut -d/ -f1 "$work/used" | sort -u)"
for namespace in $namespaces; do
  if ! az provider show --subscription "$AZURE_SUBSCRIPTION_ID" --namespace "$namespace" \
    --query "resourceTypes[].[resourceType, join(';', locations), join(';', apiVersions)]" -o tsv \
    >"$work/$namespace" 2>"$work/error"; then
    warn "could not read provider $namespace, its types are not checked: $(grep -m1 . "$work/error" || echo 'no error text')"
    continue
  fi
  grep "^$namespace/" "$work/used" | while read -r type version; do
    row="$(awk -F '\t' -v t="${type#*/}" 'tolower($1) == tolower(t)' "$work/$namespace")"
    locations="$(printf '%s\n' "$row" | cut -f2 | tr ';' '\n' | region)"
    versions="$(printf '%s\n' "$row" | cut -f3 | tr ';' '\n')"
    [ -z "$row" ] || echo "$type" >> "$work/checked"
    if [ -z "$row" ] && [ "${type#*/*/}" != "$type" ]; then
      echo "$type" >> "$work/unlisted"
    elif [ -z "$row" ]; then
      echo "preflight: $type is not a resource type this subscription knows (API version $version, region $location)"
    elif ! printf '%s\n' "$versions" | grep -qx "$version"; then
      echo "preflight: $type does not offer API version $version (region $location; newest offered: $(printf '%s\n' "$versions" | sort -r | head -n1))"
    elif [ -n "$locations" ] && ! printf '%s\n' "$locations" | grep -qx "$location"; then
      echo "preflight: $type@$version is not offered in region $location"
    fi
  done > "$work/problems-$namespace"
  [ -s "$work/problems-$namespace" ] && { cat "$work/problems-$namespace"; failed=1; }
done

sku="${SERVICE_BUS_SKU:-Standard}"
tier=", and Service Bus $sku"
if ! az rest --method get --url "https://management.azure.com/subscriptions/$AZURE_SUBSCRIPTION_ID/providers/Microsoft.ServiceBus/sku/$sku/regions?api-version=2021-11-01" \
  --query "value[].name" -o tsv >"$work/sku" 2>"$work/error"; then
  warn "could not read the regions of Service Bus $sku, not checked: $(grep -m1 . "$work/error" || echo 'no error text')"
  tier=""
elif ! region < "$work/sku" | grep -qx "$location"; then
  echo "preflight: Service Bus $sku (Microsoft.ServiceBus/namespaces, SERVICE_BUS_SKU) is not offered in region $location"
  failed=1
fi

if [ -s "$work/unlisted" ]; then
  warn "cannot tell whether region $location offers $(paste -sd ',' "$work/unlisted" | sed 's/,/, /g'): their providers do not list these child types, not checked"
fi
[ "$failed" -eq 0 ] || exit 1
echo "preflight: region $location offers the $(wc -l < "$work/checked" | tr -d ' ') resource types at the API versions infra/ uses$tier"
