#!/usr/bin/env bash
# Everything the test suite needs from Debian besides Node: Chromium for the
# browser tests, and Redis and PostgreSQL for the scale-out tests, started on
# loopback (scripts/start-shared-services.sh). Each step is a no-op when done.
set -euo pipefail
cd "$(dirname "$0")"
./install-chromium.sh
./start-shared-services.sh
