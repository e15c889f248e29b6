# SPDX-License-Identifier: GPL-2.0-or-later
# Hand-written mdoc(7) pages; tests/docs/consistency.bats lints them.
dist_man_MANS += %D%/tmpcreate.1
dist_man_MANS += %D%/fattrs.7
dist_man_MANS += %D%/setfattrs.1
dist_man_MANS += %D%/xstat.1
