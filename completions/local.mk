# SPDX-License-Identifier: GPL-2.0-or-later
# One completion file per tool per shell; configure chooses the directories.
dist_bashcompletion_DATA = %D%/bash/tmpcreate %D%/bash/setfattrs %D%/bash/xstat
dist_zshcompletion_DATA = %D%/zsh/_tmpcreate %D%/zsh/_setfattrs %D%/zsh/_xstat
dist_fishcompletion_DATA = %D%/fish/tmpcreate.fish %D%/fish/setfattrs.fish %D%/fish/xstat.fish
