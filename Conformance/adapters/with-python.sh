#!/bin/sh
# with-python.sh MODULE SCRIPT: runs SCRIPT with a Python that can import MODULE: $APNS_ADAPTER_PYTHON, else the
# test venv (Tests/integration/.venv) when it has the library, else Conformance/adapters/.venv, created on first
# use from Conformance/adapters/requirements.txt (git-ignored) and again whenever that file changes.
# An adapter whose library conflicts with the others sets ADAPTER_REQUIREMENTS=requirements-NAME.txt: its own venv,
# Conformance/adapters/.venv-NAME, from that file (the test venv is not used).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
module=$1; script=$2; shift 2
python=${APNS_ADAPTER_PYTHON:-}
requirements=${ADAPTER_REQUIREMENTS:-requirements.txt}
venv="$here/.venv"
if [ "$requirements" != requirements.txt ]; then
  name=${requirements#requirements-}
  venv="$here/.venv-${name%.txt}"
elif [ -z "$python" ] && [ -x "$root/Tests/integration/.venv/bin/python" ] \
   && "$root/Tests/integration/.venv/bin/python" -c "import $module" 2>/dev/null; then
  python="$root/Tests/integration/.venv/bin/python"
fi
if [ -z "$python" ]; then
  if ! cmp -s "$here/$requirements" "$venv/.installed"; then
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/$requirements" >&2
    cp "$here/$requirements" "$venv/.installed"
  fi
  python="$venv/bin/python"
fi
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" exec "$python" "$script" "$@"
