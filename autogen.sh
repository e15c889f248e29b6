#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerate the build system from a git checkout.
set -e
cd "$(dirname "$0")"
autoreconf -fi
