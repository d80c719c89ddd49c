# shellcheck shell=bash
# The run file scripts/run-local.sh runs, rendered from a committed one into .dapr/ (git-ignored), and for the
# bindings model the copy of components-bindings/ it loads. Sourced by scripts/run-local.sh after ROOT is set.

# pubsub-single: the sidecar would run up to the component's concurrency (500) deliveries into each app at
# once, past the app's 64 writes or publishes, and those at the back pass their deadline; appMaxConcurrency
# holds it to what the app works on at once, and logLevel error keeps daprd 1.18's warning per RETRY out
# (docs/local-run.md, "pubsub-single: appMaxConcurrency"). Bulk and bindings deliveries get no such cap.
SINGLE_MODE_APP_MAX_CONCURRENCY=64
cap_single_mode_deliveries() { # model
  if [ "$1" = pubsub-single ]; then
    awk -v cap="$SINGLE_MODE_APP_MAX_CONCURRENCY" '{ print }
      /^[[:space:]]*appProtocol:[[:space:]]*http$/ { match($0, /^[[:space:]]*/); indent = substr($0, 1, RLENGTH)
        printf "%sappMaxConcurrency: %s\n%slogLevel: error\n", indent, cap, indent }'
  else
    cat
  fi
}

# Consumer K of N of a queue: its first input component under the name FIRST-K, delivering to the first
# one's route (the app serves one route per queue), without the first's comments.
render_consumer() { # first-component-file name k n
  awk -v name="$2" -v k="$3" -v n="$4" -v source="$(basename "$1")" '
    NR == 1 {
      printf "# Consumer %s of %s on this queue, rendered by scripts/run-local.sh (BINDING_CONSUMERS_PER_QUEUE)\n", k, n
      printf "# from components-bindings/%s: read that file for each setting.\n", source
    }
    /^[[:space:]]*#/ { next }
    $0 == "  name: " name { print "  name: " name "-" k; renamed++; next }
    /^scopes:/ { printf "    - name: route\n      value: /%s\n", name; routed++ }
    { print }
    END { if (renamed != 1 || routed != 1) exit 1 }' "$1"
}

# The resiliency spec with each input component's target entry repeated for its consumers 2..N.
render_resiliency() { # file n input-component-names...
  local file="$1" n="$2"; shift 2
  awk -v n="$n" -v names=" $* " '
    function flush(   k, i) {
      for (k = 2; k <= n; k++) {
        printf "%s%s-%s:\n", indent, current, k
        for (i = 1; i <= lines; i++) print block[i]
      }
      current = ""
    }
    current != "" && /^[[:space:]]*[^[:space:]#]/ && match($0, /^[[:space:]]*/) && RLENGTH <= length(indent) { flush() }
    current != "" { block[++lines] = $0 }
    match($0, /^[[:space:]]*[a-z0-9-]+:$/) {
      key = $0; sub(/^[[:space:]]*/, "", key); sub(/:$/, "", key)
      if (index(names, " " key " ") > 0) {
        current = key; lines = 0; indent = $0; sub(/[^[:space:]].*$/, "", indent); found++
      }
    }
    { print }
    END { if (current != "") flush(); if (found != split(names, all, " ")) exit 1 }' "$file"
}

# .dapr/components-bindings: components-bindings/ with N consumers per queue. Each file is written whole
# and moved into place, so a render running beside another (tests render at the same time) never leaves
# one half-written; files of a larger count are removed.
render_bindings_components() { # n
  local source="$ROOT/components-bindings" target="$ROOT/.dapr/components-bindings"
  local staging file name k inputs=()
  mkdir -p "$target"
  staging="$(mktemp -d "$ROOT/.dapr/.components-bindings.XXXXXX")"
  for file in "$source"/*; do
    [ -f "$file" ] || continue
    cp "$file" "$staging/"
    case "$file" in *-input.yaml) ;; *) continue ;; esac
    name="$(basename "$file" .yaml)"
    inputs+=("$name")
    for ((k = 2; k <= $1; k++)); do
      render_consumer "$file" "$name" "$k" "$1" > "$staging/$name-$k.yaml" \
        || { echo "could not render consumer $k of $file" >&2; rm -rf "$staging"; exit 1; }
    done
  done
  if [ ${#inputs[@]} -eq 0 ]; then echo "no *-input.yaml component in $source" >&2; rm -rf "$staging"; exit 1; fi
  render_resiliency "$source/resiliency.yaml" "$1" "${inputs[@]}" > "$staging/resiliency.yaml" \
    || { echo "could not render $source/resiliency.yaml: it must name each of ${inputs[*]} once" >&2; rm -rf "$staging"; exit 1; }
  for file in "$target"/*; do
    if [ -f "$file" ] && [ ! -e "$staging/$(basename "$file")" ]; then rm -f "$file"; fi
  done
  for file in "$staging"/*; do mv -f "$file" "$target/"; done
  rmdir "$staging"
}

# Writes .dapr/run-local.<model>.yaml from the committed run file and prints its path: Messaging__Model
# set, relative paths rewritten for the folder one level below the root, and for bindings the rendered
# components beside it.
render_run_file() { # model template consumers
  local model="$1" out="$ROOT/.dapr/run-local.$1.yaml"
  mkdir -p "$ROOT/.dapr"
  local edits=(
    -e 's#^([[:space:]]*(appDirPath|configFilePath):[[:space:]]*)\./#\1../#'
    -e 's#^([[:space:]]*-[[:space:]]*)\./#\1../#'
    -e "s#^([[:space:]]*Messaging__Model:[[:space:]]*).*#\\1$model#"
  )
  if [ "$model" = bindings ]; then
    render_bindings_components "$3"
    # The components and configuration are the rendered copy beside the run file.
    edits+=(-e 's#^([[:space:]]*(configFilePath:|-)[[:space:]]*)\.\./components-bindings#\1./components-bindings#')
  fi
  sed -E "${edits[@]}" "$2" | cap_single_mode_deliveries "$model" > "$out"
  if ! grep -qE "^[[:space:]]*Messaging__Model:[[:space:]]*$model\$" "$out"; then
    echo "could not set Messaging__Model in $out" >&2; exit 1
  fi
  echo "$out"
}
