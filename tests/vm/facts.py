#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/facts.py KERNEL NAME=DIR...: what each filesystem's client does,
# tried in DIR (in the guest of tests/vm; check.sh runs it): one Markdown
# table row per NAME, for doc/kernel.md's table.  Every answer is the
# kernel's own: "yes", or the errno name it gave.
import ctypes
import errno
import fcntl
import os
import struct
import subprocess
import sys

libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD = -100
RENAME_NOREPLACE = 1
FS_IOC_GETFLAGS = 0x80086601
FS_IOC_FSGETXATTR = 0x801C581F


def err(e):
    # ENOTSUP and EOPNOTSUPP are one number on Linux; the kernel says the latter.
    return "EOPNOTSUPP" if e == errno.EOPNOTSUPP else errno.errorcode.get(e, str(e))


def o_tmpfile(d):
    try:
        fd = os.open(d, os.O_TMPFILE | os.O_RDWR, 0o600)
    except OSError as e:
        return err(e.errno)
    os.close(fd)
    return "yes"


def noreplace(d):
    a, b = os.path.join(d, ".facts-a"), os.path.join(d, ".facts-b")
    for p in (a, b):
        with open(p, "w"):
            pass
    r = libc.renameat2(AT_FDCWD, a.encode(), AT_FDCWD, b.encode(), RENAME_NOREPLACE)
    e = ctypes.get_errno()
    for p in (a, b):
        try:
            os.unlink(p)
        except OSError:
            pass
    if r == 0:
        return "no: replaced"
    return "yes" if e == errno.EEXIST else err(e)


def flock_twice(d):
    p = os.path.join(d, ".facts-lock")
    fd = os.open(p, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            ans = "yes"
        except OSError as e:
            ans = "2nd: " + err(e.errno)
    except OSError as e:
        ans = err(e.errno)
    os.close(fd)
    os.unlink(p)
    return ans


def xattr(d):
    p = os.path.join(d, ".facts-x")
    with open(p, "w"):
        pass
    try:
        os.setxattr(p, "user.facts", b"1")
        ans = "yes" if os.getxattr(p, "user.facts") == b"1" else "lost"
    except OSError as e:
        ans = err(e.errno)
    os.unlink(p)
    return ans


def ioctl(d, req, size):
    p = os.path.join(d, ".facts-i")
    with open(p, "w"):
        pass
    fd = os.open(p, os.O_RDONLY)
    try:
        buf = fcntl.ioctl(fd, req, bytes(size))
        ans = "0x%x" % struct.unpack_from("<I", buf)[0]
    except OSError as e:
        ans = err(e.errno)
    os.close(fd)
    os.unlink(p)
    return ans


def btime(d):
    p = os.path.join(d, ".facts-b")
    with open(p, "w"):
        pass
    out = subprocess.run(["xstat", "-c", "%W", p], capture_output=True, text=True).stdout.strip()
    os.unlink(p)
    return "yes" if out not in ("", "0", "-") else "no"


kernel = sys.argv[1]
for arg in sys.argv[2:]:
    name, d = arg.split("=", 1)
    row = [name, kernel, o_tmpfile(d), noreplace(d), flock_twice(d), xattr(d),
           ioctl(d, FS_IOC_GETFLAGS, 8), ioctl(d, FS_IOC_FSGETXATTR, 28), btime(d)]
    print("FACT| " + " | ".join(row) + " |")
