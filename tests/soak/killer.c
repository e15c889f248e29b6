/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * killer: kill -9 trials of `tmpcreate -o FILE` in one directory.
 *
 *   killer [-n TRIALS] [-s SEED] [-S MAXSIZE] [-k DIR] [-m METHOD] -t TMPCREATE DIR
 *
 * Each trial: FILE (DIR/f) holds a known content X (or is absent, one trial
 * in ten); `tmpcreate -o FILE` is started with a new content Y of a random
 * size (log-uniform, 64 bytes to MAXSIZE, default 1 MiB) on a pipe, and
 * killed with SIGKILL:
 *   - in the write (even trials): after a random number of Y's bytes has
 *     gone into the pipe, plus a random 0-500 us;
 *   - in the publish (odd trials): a random delay after the pipe is closed
 *     (end of input, once tmpcreate has read everything before it: from
 *     then on tmpcreate syncs, links or renames, syncs the directory and
 *     exits).  The delay is uniform in
 *     [0, W], and W adapts (x1.08 after an old outcome, /1.08 after a new
 *     one or a run that ended before the kill) so that about half of these kills land before the rename and
 *     half after: the kills gather around the publish itself.
 * Delays are timed with CLOCK_MONOTONIC and a busy wait for the last
 * 200 us (timer slack 1 ns), so they vary by the microsecond.
 * Then FILE must be X or Y, whole (compared byte for byte): else "torn"
 * (a missing FILE that was there is torn too).  Then the next run, a
 * `tmpcreate -o FILE` of a content Z that is not killed, must exit 0,
 * leave FILE = Z, and leave no ".tmpcreate." name in DIR: else "left"
 * (counted once per trial that leaves more such names than there were;
 * such a trial names them, with FILE's and FILE~'s inodes, and runs one
 * more unkilled writer of Z to say whether a later writer reclaims them).
 * Z is the next trial's X.
 *
 * -w MS, for a network filesystem: the request a writer was killed in can
 * still be carried out by the server after the process is gone (Samba
 * holds a rename until a lease break is answered: seen 25 ms and more
 * after the kill), so FILE changes after the kill.  Before it is looked
 * at, FILE and FILE~ must then stay as they are (inode, size, asked of the
 * server, with the kernel's dentries dropped first) for MS ms, at most
 * 20 times that; then the dentries are dropped once more, so that what is
 * read is what the server has.  A hidden name still there after the next
 * run is looked at again for up to 2.5 s: one the server removes by
 * itself meanwhile (the client's delayed close of the killed writer's
 * handle, which Samba waits for to carry out a removal) is counted as
 * "lingered", not "left".
 *
 * -m METHOD runs every tmpcreate with --method=METHOD (named: the hidden
 * name and its reclaim on filesystems where auto would use O_TMPFILE).
 * -b runs every tmpcreate with --backup: FILE~ (DIR/f~) must then be whole
 * too, the older backup or the old FILE, and the next run must leave the
 * FILE it replaced as FILE~.  A kill between the replace and the backup's
 * rename leaves the new FILE and the older backup, the old FILE only under
 * a hidden name that the next run reclaims (tmpcreate(1), --backup): those
 * trials are counted (backup_skipped), not failed.
 *
 * Prints one line per 100 trials on stderr and, at the end, one line of
 * "key=value" figures on stdout.  Exits 0 when nothing was torn or left
 * and every unkilled run succeeded, 1 otherwise, 2 on a usage or setup
 * error.  A torn FILE is kept as KEEPDIR/torn-TRIAL (-k) for a look.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HIDDEN_PREFIX ".tmpcreate."

static const char *tmpcreate, *dir, *keepdir, *method;
static char method_arg[64];
static char file[4096], backup[4100];
static bool with_backup;
static long settle_ms;
static uint64_t rng;

static uint64_t next(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static uint64_t below(uint64_t n)
{
	return n != 0 ? next() % n : 0;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Wait until @deadline (now_us() time): sleep, then spin the last 200 us. */
static void wait_until(double deadline)
{
	double left = deadline - now_us();

	if (left > 250) {
		double ns = (left - 200) * 1e3;
		struct timespec ts = { (time_t)(ns / 1e9), (long)((uint64_t)ns % 1000000000) };

		nanosleep(&ts, NULL);
	}
	while (now_us() < deadline)
		;
}

struct content {
	unsigned char *buf;
	size_t len;
	bool absent;
};

/* A content of @len bytes that names @trial and @kind, the rest pseudo-random. */
static void content_make(struct content *c, size_t len, long trial, char kind)
{
	uint64_t s = rng ^ ((uint64_t)trial << 8) ^ (uint64_t)kind;
	int n;

	free(c->buf);
	c->buf = malloc(len + 64);
	if (c->buf == NULL) {
		perror("killer: malloc");
		exit(2);
	}
	n = snprintf((char *)c->buf, 64, "soak %c %ld %zu\n", kind, trial, len);
	for (size_t i = (size_t)n; i < len; i += 8) {
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		uint64_t v = s * 2685821657736338717ULL;

		memcpy(c->buf + i, &v, 8);
	}
	c->len = len < (size_t)n ? (size_t)n : len;
	c->absent = false;
}

/* A size from 64 bytes to @max, log-uniform. */
static size_t random_size(size_t max)
{
	int bits = 6;

	while (((size_t)1 << (bits + 1)) <= max)
		bits++;
	bits = 6 + (int)below((uint64_t)(bits - 6 + 1));
	return ((size_t)1 << bits) + below((uint64_t)1 << bits) / 2;
}

struct child {
	pid_t pid;
	int in;		/* write end of its stdin */
	int err;	/* memfd holding its stderr */
};

static void child_start(struct child *ch)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0) {
		perror("killer: pipe");
		exit(2);
	}
	ch->err = memfd_create("stderr", MFD_CLOEXEC);
	ch->pid = fork();
	if (ch->pid < 0) {
		perror("killer: fork");
		exit(2);
	}
	if (ch->pid == 0) {
		dup2(p[0], 0);
		if (ch->err >= 0)
			dup2(ch->err, 2);
		const char *argv[8];
		int n = 0;

		argv[n++] = "tmpcreate";
		if (method != NULL)
			argv[n++] = method_arg;
		if (with_backup)
			argv[n++] = "-b";
		argv[n++] = "-o";
		argv[n++] = file;
		argv[n] = NULL;
		execv(tmpcreate, (char *const *)argv);
		_exit(127);
	}
	close(p[0]);
	ch->in = p[1];
}

/* Write @len bytes of @buf to @fd; false once the reader is gone. */
static bool feed(int fd, const unsigned char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf += n;
		len -= (size_t)n;
	}
	return true;
}

/*
 * Wait until the child has read everything written to its pipe: then the
 * end of input starts its publish at once (not its start-up, for a small
 * content), and the delay after it measures the publish alone.
 */
static void drain(const struct child *ch)
{
	double give_up = now_us() + 5e6;
	int n;

	while (ioctl(ch->in, FIONREAD, &n) == 0 && n > 0 && now_us() < give_up) {
		struct timespec ts = { 0, 20000 };
		siginfo_t si = { 0 };

		if (waitid(P_PID, (id_t)ch->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid != 0)
			break;
		nanosleep(&ts, NULL);
	}
}

static void child_stderr(const struct child *ch, FILE *to)
{
	char buf[4096];
	ssize_t n;

	if (ch->err < 0)
		return;
	lseek(ch->err, 0, SEEK_SET);
	while ((n = read(ch->err, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, to);
}

enum outcome { OLD, NEW, TORN };

static void content_copy(struct content *to, const struct content *from)
{
	free(to->buf);
	to->buf = malloc(from->len + 1);
	if (to->buf == NULL) {
		perror("killer: malloc");
		exit(2);
	}
	if (from->buf != NULL)
		memcpy(to->buf, from->buf, from->len);
	to->len = from->len;
	to->absent = from->absent;
}

/* @path against @old and @new; a torn one is kept under keepdir. */
static enum outcome check_path(const char *path, const struct content *old, const struct content *new,
			       long trial)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned char *got = NULL;
	size_t len = 0, alloc = 0;
	enum outcome o = TORN;

	if (fd < 0) {
		if (errno == ENOENT && old->absent)
			return OLD;
		fprintf(stderr, "killer: trial %ld: cannot open '%s': %s\n", trial, path, strerror(errno));
		return TORN;
	}
	for (;;) {
		ssize_t n;

		if (len == alloc) {
			alloc = alloc ? alloc * 2 : 1 << 16;
			got = realloc(got, alloc);
			if (got == NULL) {
				perror("killer: realloc");
				exit(2);
			}
		}
		n = read(fd, got + len, alloc - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!old->absent && len == old->len && memcmp(got, old->buf, len) == 0)
		o = OLD;
	else if (!new->absent && len == new->len && memcmp(got, new->buf, len) == 0)
		o = NEW;
	if (o == TORN) {
		fprintf(stderr, "killer: trial %ld: %s TORN: %zu bytes, old %zu%s, new %zu, head '%.24s'\n",
			trial, path, len, old->len, old->absent ? " (absent)" : "", new->len,
			len > 0 ? (char *)got : "");
		if (keepdir != NULL) {
			char keep[4200];
			int k;

			snprintf(keep, sizeof(keep), "%s/torn-%ld%s", keepdir, trial, path == backup ? "~" : "");
			k = open(keep, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (k >= 0) {
				(void)!write(k, got, len);
				close(k);
			}
		}
	}
	free(got);
	return o;
}

static enum outcome check_file(const struct content *old, const struct content *new, long trial)
{
	return check_path(file, old, new, trial);
}

/* Names in DIR other than "f": how many start with HIDDEN_PREFIX (*@hidden), and the others. */
static void list_dir(int *hidden, int *other, long trial, bool say)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	*hidden = *other = 0;
	if (d == NULL) {
		fprintf(stderr, "killer: cannot list '%s': %s\n", dir, strerror(errno));
		exit(2);
	}
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, "f") ||
		    !strcmp(e->d_name, "f~"))
			continue;
		if (!strncmp(e->d_name, HIDDEN_PREFIX, strlen(HIDDEN_PREFIX)))
			(*hidden)++;
		else
			(*other)++;
		if (say) {
			struct stat st;

			if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
				fprintf(stderr, "killer: trial %ld: left '%s' (%lld bytes, %lu links, inode %llu)\n",
					trial, e->d_name, (long long)st.st_size, (unsigned long)st.st_nlink,
					(unsigned long long)st.st_ino);
			else
				fprintf(stderr, "killer: trial %ld: left '%s'\n", trial, e->d_name);
		}
	}
	closedir(d);
}

/* What FILE and FILE~ are on the server: inode and size, or -1. */
static void names_now(long long sig[4])
{
	const char *paths[2] = { file, backup };
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		(void)!write(fd, "2\n", 2);	/* dentries and inodes: looked up again */
		close(fd);
	}
	for (int i = 0; i < 2; i++) {
		struct statx stx;

		if (statx(AT_FDCWD, paths[i], AT_SYMLINK_NOFOLLOW | AT_STATX_FORCE_SYNC,
			  STATX_INO | STATX_SIZE, &stx) == 0) {
			sig[2 * i] = (long long)stx.stx_ino;
			sig[2 * i + 1] = (long long)stx.stx_size;
		} else {
			sig[2 * i] = sig[2 * i + 1] = -1;
		}
	}
}

/* -w: until FILE and FILE~ have stayed as they are for settle_ms. */
static void settle(void)
{
	long long was[4], now[4];
	double stable_since = now_us(), end = stable_since + 20e3 * (double)settle_ms;

	names_now(was);
	while (now_us() < end) {
		usleep(settle_ms * 1000 / 8 + 1);
		names_now(now);
		if (memcmp(was, now, sizeof(now)) != 0) {
			memcpy(was, now, sizeof(was));
			stable_since = now_us();
		} else if (now_us() - stable_since >= 1e3 * (double)settle_ms) {
			return;
		}
	}
}

static long long inode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_ino : -1;
}

/* One `tmpcreate -o FILE` of @c, not killed: whether it exited 0. */
static bool run_unkilled(const struct content *c)
{
	struct child ch;
	int status;

	child_start(&ch);
	feed(ch.in, c->buf, c->len);
	close(ch.in);
	while (waitpid(ch.pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "killer: one more run failed, status 0x%x: ", status);
		child_stderr(&ch, stderr);
	}
	if (ch.err >= 0)
		close(ch.err);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: killer [-n TRIALS] [-s SEED] [-S MAXSIZE] [-k KEEPDIR] [-m METHOD] [-b] [-w MS] "
		"-t TMPCREATE DIR\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long trials = 1000, torn = 0, left = 0, failed = 0, other_left = 0, lingered = 0;
	long old_n = 0, new_n = 0, w_kills = 0, p_kills = 0, p_old = 0, p_new = 0, finished = 0;
	long hidden_after_kill = 0;
	size_t maxsize = 1 << 20;
	uint64_t seed = 0;
	double window = 0, start, pub_sum = 0, kill_max = 0;
	struct content x = { 0 }, y = { 0 }, b = { 0 }, cur = { 0 };
	long b_torn = 0, b_skipped = 0;
	int prev_hidden = 0, prev_other = 0;
	int opt;

	while ((opt = getopt(argc, argv, "n:s:S:k:m:bt:w:")) != -1) {
		switch (opt) {
		case 'n': trials = strtol(optarg, NULL, 10); break;
		case 's': seed = strtoull(optarg, NULL, 10); break;
		case 'S': maxsize = strtoull(optarg, NULL, 10); break;
		case 'k': keepdir = optarg; break;
		case 'm': method = optarg; break;
		case 'b': with_backup = true; break;
		case 'w': settle_ms = strtol(optarg, NULL, 10); break;
		case 't': tmpcreate = optarg; break;
		default: usage();
		}
	}
	if (optind != argc - 1 || tmpcreate == NULL || trials < 1 || maxsize < 64)
		usage();
	dir = argv[optind];
	if (method != NULL)
		snprintf(method_arg, sizeof(method_arg), "--method=%s", method);
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(backup, sizeof(backup), "%s~", file);
	if (seed == 0) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_sec;
	}
	rng = seed | 1;
	signal(SIGPIPE, SIG_IGN);
	(void)prctl(PR_SET_TIMERSLACK, 1UL);
	(void)unlink(file);
	(void)unlink(backup);
	x.absent = true;
	b.absent = true;
	start = now_us();

	for (long t = 1; t <= trials; t++) {
		struct child ch;
		bool in_publish = t % 2 == 1, killed;
		double delay = 0, t_close = 0;
		size_t sent = 0;
		int status, hidden, other, after_kill;
		enum outcome o;

		if (t > 1 && below(10) == 0) {
			/* One trial in ten writes a FILE that does not exist yet. */
			if (unlink(file) < 0) {
				fprintf(stderr, "killer: cannot remove '%s': %s\n", file, strerror(errno));
				exit(2);
			}
			x.absent = true;
		}
		content_make(&y, random_size(maxsize), t, 'Y');

		/* The trial: killed in the write or in the publish. */
		child_start(&ch);
		if (!in_publish) {
			sent = below(y.len + 1);
			feed(ch.in, y.buf, sent);
			wait_until(now_us() + (double)below(501));
			kill(ch.pid, SIGKILL);
			close(ch.in);
			w_kills++;
		} else {
			if (window == 0)
				window = 2000;	/* until the first clean run measures it */
			feed(ch.in, y.buf, y.len);
			drain(&ch);
			close(ch.in);
			t_close = now_us();
			delay = (double)below((uint64_t)window + 1);
			wait_until(t_close + delay);
			kill(ch.pid, SIGKILL);
			p_kills++;
		}
		while (waitpid(ch.pid, &status, 0) < 0 && errno == EINTR)
			;
		killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
		if (killed && settle_ms > 0)
			settle();
		if (!killed) {
			finished++;
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
				fprintf(stderr, "killer: trial %ld: tmpcreate (not killed) failed, status 0x%x: ",
					t, status);
				child_stderr(&ch, stderr);
				failed++;
			}
		}
		if (ch.err >= 0)
			close(ch.err);
		o = check_file(&x, &y, t);
		if (o == TORN) {
			fprintf(stderr, "killer: trial %ld: killed in the %s (%zu of %zu bytes sent, delay %.0f us)\n",
				t, in_publish ? "publish" : "write", in_publish ? y.len : sent, y.len, delay);
			torn++;
		} else if (o == OLD) {
			old_n++;
		} else {
			new_n++;
		}
		if (in_publish && killed) {
			if (o == OLD) {
				p_old++;
				window *= 1.08;
			} else if (o == NEW) {
				p_new++;
				window /= 1.08;
			}
			if (delay > kill_max)
				kill_max = delay;
		} else if (in_publish && !killed) {
			window /= 1.08;
		}
		if (with_backup && o != TORN) {
			/* FILE~: the older backup, or the old FILE (made before the replace, or after it). */
			enum outcome bo = check_path(backup, &b, &x, t);

			if (bo == TORN) {
				fprintf(stderr, "killer: trial %ld: FILE~ torn after a kill in the %s\n",
					t, in_publish ? "publish" : "write");
				b_torn++;
			} else if (o == NEW && bo == OLD && !x.absent &&
				   !(b.len == x.len && !b.absent && memcmp(b.buf, x.buf, x.len) == 0)) {
				b_skipped++;
			}
			if (bo == NEW)
				content_copy(&b, &x);
		}
		content_copy(&cur, o == NEW ? &y : &x);
		list_dir(&hidden, &other, t, false);
		hidden_after_kill += hidden > 0;
		after_kill = hidden;

		/* The next run: not killed; it must reclaim what the killed one left. */
		content_make(&x, random_size(maxsize / 4 > 64 ? maxsize / 4 : 64), t, 'Z');
		child_start(&ch);
		feed(ch.in, x.buf, x.len);
		drain(&ch);
		close(ch.in);
		t_close = now_us();
		while (waitpid(ch.pid, &status, 0) < 0 && errno == EINTR)
			;
		pub_sum += now_us() - t_close;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "killer: trial %ld: the next run failed, status 0x%x: ", t, status);
			child_stderr(&ch, stderr);
			failed++;
		}
		if (ch.err >= 0)
			close(ch.err);
		if (t == 1)
			window = pub_sum;
		if (window < 2)
			window = 2;
		y.absent = false;
		if (check_file(&y, &x, t) != NEW) {
			fprintf(stderr, "killer: trial %ld: FILE is not what the next run wrote\n", t);
			torn++;
		}
		if (with_backup && o != TORN) {
			/* The FILE the next run replaced is FILE~ now (none: FILE~ as it was). */
			if (!cur.absent)
				content_copy(&b, &cur);
			if (check_path(backup, &b, &b, t) != OLD) {
				fprintf(stderr, "killer: trial %ld: FILE~ is not the FILE the next run replaced\n", t);
				b_torn++;
			}
		}
		list_dir(&hidden, &other, t, false);
		if (other > 0) {
			/* FUSE removes .fuse_hidden* names after the last close, in the background. */
			usleep(200000);
			list_dir(&hidden, &other, t, false);
		}
		if (hidden > prev_hidden && settle_ms > 0) {
			/*
			 * The cifs client closes a killed writer's handle up to
			 * closetimeo (1 s) after its death, and Samba removes a
			 * name whose removal was asked while it was open only
			 * at that close: wait for it, and count it apart.
			 */
			int waited = 0;

			while (hidden > prev_hidden && waited < 2500) {
				usleep(100000);
				waited += 100;
				list_dir(&hidden, &other, t, false);
			}
			if (hidden <= prev_hidden) {
				fprintf(stderr, "killer: trial %ld: a hidden name went %d ms after the next run\n",
					t, waited);
				lingered++;
			}
		}
		if (hidden > prev_hidden || other > prev_other) {
			/* New names left: one left for good stays, and is counted once. */
			fprintf(stderr, "killer: trial %ld: %s in the %s (%zu of %zu bytes sent, delay %.0f us), "
				"FILE %s, %d hidden names after the kill, %d before it\n", t,
				killed ? "killed" : "not killed", in_publish ? "publish" : "write",
				in_publish ? y.len : sent, y.len, delay, o == NEW ? "new" : o == OLD ? "old" : "torn",
				after_kill, prev_hidden);
			list_dir(&hidden, &other, t, true);
			fprintf(stderr, "killer: trial %ld: FILE is inode %lld, FILE~ %lld\n", t,
				inode_of(file), inode_of(backup));
			left += hidden > prev_hidden;
			other_left += other > prev_other;
			/* Whether a later writer reclaims it: one more run, of the same content. */
			if (!run_unkilled(&x))
				failed++;
			else if (with_backup)
				content_copy(&b, &x);	/* FILE~ is the FILE it replaced */
			list_dir(&hidden, &other, t, false);
			fprintf(stderr, "killer: trial %ld: %d hidden names after one more run\n", t, hidden);
		}
		prev_hidden = hidden;
		prev_other = other;
		if (t % 100 == 0)
			fprintf(stderr, "killer: %ld trials, %ld torn, %ld left, old %ld, new %ld "
				"(publish kills: old %ld, new %ld, window %.0f us), %.0f s\n",
				t, torn, left, old_n, new_n, p_old, p_new, window, (now_us() - start) / 1e6);
	}
	printf("trials=%ld torn=%ld left=%ld failed=%ld other=%ld old=%ld new=%ld write_kills=%ld "
	       "publish_kills=%ld publish_old=%ld publish_new=%ld finished=%ld hidden_after_kill=%ld "
	       "publish_us=%.0f max_delay_us=%.0f seconds=%.1f seed=%llu",
	       trials, torn, left, failed, other_left, old_n, new_n, w_kills, p_kills, p_old, p_new,
	       finished, hidden_after_kill, pub_sum / (double)trials, kill_max,
	       (now_us() - start) / 1e6, (unsigned long long)seed);
	if (settle_ms > 0)
		printf(" lingered=%ld", lingered);
	if (with_backup)
		printf(" backup_torn=%ld backup_skipped=%ld", b_torn, b_skipped);
	printf("\n");
	torn += b_torn;
	free(b.buf);
	free(cur.buf);
	free(x.buf);
	free(y.buf);
	return torn || left || failed || other_left ? 1 : 0;
}
