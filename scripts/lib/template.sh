# shellcheck shell=bash
# Files rendered by substitution: a template under scripts/templates with ${NAME} where a setting goes.

# Prints TEMPLATE with each ${NAME} of the NAMEs given replaced by that variable's value.
render_template() { # TEMPLATE NAME...
  local text name
  text="$(cat "$1")"; shift
  for name in "$@"; do text="${text//"\${$name}"/"${!name}"}"; done
  printf '%s\n' "$text"
}
