# fish completion for xstat
# SPDX-License-Identifier: GPL-2.0-or-later

complete -c xstat -s c -l format -x -d 'Use FORMAT instead of the default' -a '(__xstat_directives)'
complete -c xstat -l printf -x -d 'Like --format, with backslash escapes, no newline' -a '(__xstat_directives)'
complete -c xstat -s t -l terse -d 'Print the information in terse form'
complete -c xstat -s f -l file-system -d 'Display file system status'
complete -c xstat -s L -l dereference -d 'Follow links'
complete -c xstat -l cached -x -d 'How to use cached attributes' -a 'always\t"Use cached attributes" never\t"Synchronize first" default\t"Leave it to the file system"'
complete -c xstat -l files0-from -r -F -d 'Read NUL-terminated file names from F'
complete -c xstat -s V -l version -d 'Print version information and exit'
complete -c xstat -s '?' -l help -d 'Show help and exit'
complete -c xstat -l usage -d 'Show short usage and exit'

# The format directives (the same list as --help shows).
function __xstat_directives
    if contains -- -f (commandline -opc); or contains -- --file-system (commandline -opc)
        printf '%s\n' %a %b %c %d %f %i %l %n %s %S %t %T
    else
        printf '%s\n' %a %A %b %B %C %d %D %Hd %Ld %f %F %g %G %h %i %m %n %N %o %s %r %R %Hr %Lr %t %T %u %U %w %W %x %X %y %Y %z %Z
    end
end
