# fish completion for tmpcreate
# SPDX-License-Identifier: GPL-2.0-or-later

# Operands: directories to --probe, or a template that may start with the
# directory to create the file in.
complete -c tmpcreate -f -a '(__fish_complete_directories (commandline -ct))'

complete -c tmpcreate -s d -l directory -d 'Create a directory, not a file'
complete -c tmpcreate -s u -l dry-run -d 'Merely print a name (unsafe)'
complete -c tmpcreate -l json -d 'With --probe: one JSON object per directory'
complete -c tmpcreate -l method -x -a 'auto\t"O_TMPFILE where supported (default)" tmpfile\t"Unnamed file, linked when ready" named\t"O_CREAT|O_EXCL file"' -d 'How files are made'
complete -c tmpcreate -l probe -d 'What each DIR supports, and which method auto picks'
complete -c tmpcreate -s q -l quiet -d 'Suppress diagnostics about creation failure'
complete -c tmpcreate -l suffix -x -d 'Append SUFF to TEMPLATE'
# --tmpdir takes DIR only as --tmpdir=DIR: the next word is the template.
complete -c tmpcreate -l tmpdir -f -d 'Interpret TEMPLATE relative to DIR ($TMPDIR, else /tmp)'
complete -c tmpcreate -s p -x -a '(__fish_complete_directories (commandline -ct))' -d 'Same as --tmpdir=DIR'
complete -c tmpcreate -s t -d 'TEMPLATE is one name in $TMPDIR (deprecated)'
complete -c tmpcreate -s v -l verbose -d 'Say which method made the file, and why'
complete -c tmpcreate -s V -l version -d 'Print version information and exit'
complete -c tmpcreate -s '?' -l help -d 'Show help and exit'
complete -c tmpcreate -l usage -d 'Show short usage and exit'
