#!/usr/bin/env bash
# Debian's Chromium for the browser tests: test tools cannot download a browser of
# their own here. A no-op when it is already installed.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
