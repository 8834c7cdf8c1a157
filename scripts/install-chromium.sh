#!/usr/bin/env bash
# Debian's Chromium and its headless shell for the browser tests: test tools cannot
# download a browser of their own here. A no-op when both are installed.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium chromium-headless-shell
