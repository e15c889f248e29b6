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
AT_EMPTY_PATH = 0x1000
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


def tmpfile_publish(d):
    # tmpcreate -o's publish with a file made so: link it to a hidden name
    # (AT_EMPTY_PATH), rename that over an existing FILE, close; then FILE
    # as the kernel sees it once its caches are dropped.
    f, t = os.path.join(d, ".facts-f"), os.path.join(d, ".facts-t")
    with open(f, "w") as o:
        o.write("old")
    try:
        fd = os.open(d, os.O_TMPFILE | os.O_RDWR, 0o600)
    except OSError as e:
        os.unlink(f)
        return err(e.errno)
    os.write(fd, b"new")
    r = libc.linkat(fd, b"", AT_FDCWD, t.encode(), AT_EMPTY_PATH)
    e = ctypes.get_errno()
    ans = None
    if r != 0:
        ans = "link: " + err(e)
    else:
        try:
            os.rename(t, f)
        except OSError as x:
            ans = "rename: " + err(x.errno)
    os.close(fd)
    with open("/proc/sys/vm/drop_caches", "w") as o:
        o.write("3")
    if ans is None:
        try:
            with open(f) as i:
                got = i.read()
            ans = "yes" if got == "new" else "no: FILE is the old one"
        except OSError as x:
            ans = "no: FILE " + err(x.errno)
    for p in (f, t):
        try:
            os.unlink(p)
        except OSError:
            pass
    return ans


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


# facts.py --fact NAME DIR: one answer (netfs.bats asks for tmpfile_publish).
if sys.argv[1] == "--fact":
    print(globals()[sys.argv[2]](sys.argv[3]))
    sys.exit(0)

kernel = sys.argv[1]
for arg in sys.argv[2:]:
    name, d = arg.split("=", 1)
    row = [name, kernel, o_tmpfile(d), tmpfile_publish(d), noreplace(d), flock_twice(d), xattr(d),
           ioctl(d, FS_IOC_GETFLAGS, 8), ioctl(d, FS_IOC_FSGETXATTR, 28), btime(d)]
    print("FACT| " + " | ".join(row) + " |")
