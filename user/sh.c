/* user/sh.c — zpk's shell: words with quotes and $?/$NAME, pipelines, < > >>
 * redirection, ; and # comments, cd/exit/help/fg/ulimit -c; "sh FILE",
 * "sh -c CMD".
 * On its controlling terminal each pipeline is a process group in the
 * foreground: ^C and ^Z reach it, not the shell; fg continues a stopped one. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXLINE 4096

enum { T_WORD, T_PIPE, T_IN, T_OUT, T_APPEND, T_END };

struct tok {
	int type;
	char *word;
};

extern char **environ;

/* One line at a time: a line has at most MAXLINE tokens. */
static struct tok toks[MAXLINE + 1];
static char words[2 * MAXLINE];
static char *argv_buf[MAXLINE + 1];
static int last_status;

/* Job control: on when the shell owns its terminal's foreground. A
 * pipeline is a job, its process group led by its first process. */
static int jobctl;
struct job {
	pid_t pgid, last;		/* the group, its last stage */
	int nchild;			/* processes not yet reaped */
};
static struct job stopped_job;		/* ^Z'd, for fg; pgid 0: none */
static void fg(void);

static int syntax(const char *msg)
{
	fprintf(stderr, "sh: %s\n", msg);
	last_status = 2;
	return -1;
}

/* Append to the word being built; false when the buffer is full. */
static int put(char **w, const char *s, size_t n)
{
	if (*w + n >= words + sizeof(words))
		return 0;
	memcpy(*w, s, n);
	*w += n;
	return 1;
}

/* Expand $?, $$ or $NAME at p into *w; returns the text after it. */
static const char *expand(const char *p, char **w, int *ok)
{
	char num[24], name[128];
	const char *val;
	size_t n = 0;

	p++;
	if (*p == '?' || *p == '$') {
		snprintf(num, sizeof(num), "%d",
			 *p == '?' ? last_status : (int)getpid());
		*ok &= put(w, num, strlen(num));
		return p + 1;
	}
	if (!isalpha((unsigned char)*p) && *p != '_') {
		*ok &= put(w, "$", 1);
		return p;
	}
	while ((isalnum((unsigned char)*p) || *p == '_') &&
	       n < sizeof(name) - 1)
		name[n++] = *p++;
	name[n] = '\0';
	val = getenv(name);
	if (val)
		*ok &= put(w, val, strlen(val));
	return p;
}

/* One character of a word into *w: a backslash pair, a $NAME, or itself;
 * inside double quotes only \" \\ \$ escape. Returns what follows. */
static const char *word_char(const char *p, char **w, int *ok, int dquoted)
{
	if (*p == '\\' && p[1] && (!dquoted || strchr("\"\\$", p[1]))) {
		*ok &= put(w, p + 1, 1);
		return p + 2;
	}
	if (*p == '$')
		return expand(p, w, ok);
	*ok &= put(w, p, 1);
	return p + 1;
}

/* Split one pipeline (up to ';' or the end of the line) into toks[];
 * returns the count (last is T_END) or -1, and where the next one starts. */
static int tokenize(const char *p, const char **next)
{
	char *w = words, *start;
	int n = 0, ok = 1, quoted;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		*next = *p == ';' ? p + 1 : NULL;
		if (*p == '\0' || *p == '\n' || *p == '#' || *p == ';') {
			toks[n++].type = T_END;
			return n;
		}
		if (*p == '|' || *p == '<' || *p == '>') {
			toks[n].type = *p == '|' ? T_PIPE : *p == '<' ? T_IN :
				       p[1] == '>' ? T_APPEND : T_OUT;
			p += toks[n++].type == T_APPEND ? 2 : 1;
			continue;
		}
		start = w;
		quoted = 0;
		while (*p && !strchr(" \t\r\n|<>;", *p)) {
			if (*p == '\'') {
				quoted = 1;
				for (p++; *p && *p != '\''; p++)
					ok &= put(&w, p, 1);
				if (!*p++)
					return syntax("unterminated quote");
			} else if (*p == '"') {
				quoted = 1;
				for (p++; *p && *p != '"';)
					p = word_char(p, &w, &ok, 1);
				if (!*p++)
					return syntax("unterminated quote");
			} else {
				p = word_char(p, &w, &ok, 0);
			}
		}
		/* An unquoted expansion to nothing is no word at all. */
		if (w == start && !quoted)
			continue;
		ok &= put(&w, "", 1);
		if (!ok)
			return syntax("line too long");
		toks[n].type = T_WORD;
		toks[n++].word = start;
	}
}

/* Every stage needs a command word; every redirection needs a file. */
static int check(int n)
{
	int i, words_in_stage = 0;

	for (i = 0; i < n; i++) {
		switch (toks[i].type) {
		case T_WORD:
			words_in_stage++;
			break;
		case T_IN:
		case T_OUT:
		case T_APPEND:
			if (toks[i + 1].type != T_WORD)
				return syntax("syntax error: redirection "
					      "without a file");
			i++;
			break;
		case T_PIPE:
		case T_END:
			if (words_in_stage == 0 && (toks[i].type == T_PIPE ||
						    i > 0))
				return syntax("syntax error near '|'");
			words_in_stage = 0;
			break;
		}
	}
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* help: the builtins, then every program in /bin. */
static void help(void)
{
	static char names[256][256];
	static char *sorted[256];
	struct dirent *de;
	int n = 0, i, col = 0;
	DIR *d;

	printf("builtins: cd [DIR], exit [N], fg, help, ulimit -c [N]\n");
	printf("syntax: 'quoted' \"$? $NAME\" a | b, < in, > out, >> out, "
	       "# comment\nprograms in /bin:\n");
	d = opendir("/bin");
	if (!d) {
		perror("sh: /bin");
		return;
	}
	while ((de = readdir(d)) && n < 256) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(names[n], sizeof(names[n]), "%s", de->d_name);
		sorted[n] = names[n];
		n++;
	}
	closedir(d);
	qsort(sorted, n, sizeof(*sorted), cmp);
	for (i = 0; i < n; i++) {
		if (col + strlen(sorted[i]) + 1 > 72) {
			printf("\n");
			col = 0;
		}
		col += printf(" %s", sorted[i]);
	}
	printf("\n");
}

/* In a child: run a command by name, searching $PATH (default /bin). */
static void exec_cmd(char **argv)
{
	char path[MAXLINE];
	const char *dirs, *end;
	int err = ENOENT;
	size_t len;

	if (strcmp(argv[0], "help") == 0) {
		help();
		fflush(stdout);
		_exit(0);
	}
	if (strchr(argv[0], '/')) {
		execve(argv[0], argv, environ);
		err = errno;
	} else {
		dirs = getenv("PATH");
		if (!dirs || !*dirs)
			dirs = "/bin";
		for (; *dirs; dirs = *end ? end + 1 : end) {
			end = strchr(dirs, ':');
			if (!end)
				end = dirs + strlen(dirs);
			len = end - dirs;
			snprintf(path, sizeof(path), "%.*s/%s", (int)len,
				 len ? dirs : ".", argv[0]);
			execve(path, argv, environ);
			/* Keep looking past a miss; remember a real error. */
			if (errno != ENOENT && errno != ENOTDIR)
				err = errno;
		}
	}
	if (err == ENOENT || err == ENOTDIR) {
		fprintf(stderr, "sh: %s: not found\n", argv[0]);
		_exit(127);
	}
	fprintf(stderr, "sh: %s: %s\n", argv[0], strerror(err));
	_exit(126);
}

/* In a child: apply the stage's redirections, in order. */
static void redirect(struct tok *t)
{
	int fd, target, flags;

	for (; t->type != T_PIPE && t->type != T_END; t++) {
		if (t->type == T_WORD)
			continue;
		if (t->type == T_IN) {
			flags = O_RDONLY;
			target = 0;
		} else {
			flags = O_WRONLY | O_CREAT |
				(t->type == T_APPEND ? O_APPEND : O_TRUNC);
			target = 1;
		}
		t++;
		fd = open(t->word, flags, 0666);
		if (fd < 0) {
			fprintf(stderr, "sh: %s: %s\n", t->word,
				strerror(errno));
			_exit(1);
		}
		if (fd != target) {
			dup2(fd, target);
			close(fd);
		}
	}
}

/* ulimit -c [N | unlimited]: RLIMIT_CORE in 1024-byte blocks, as bash's;
 * a new value sets both limits, as there. Its exit status. */
static int ulimit(char **argv, int argc)
{
	struct rlimit rl;
	char *end;

	if (argc < 2 || strcmp(argv[1], "-c") || argc > 3) {
		fprintf(stderr, "sh: ulimit: usage: ulimit -c [N|unlimited]\n");
		return 2;
	}
	if (argc == 2) {
		getrlimit(RLIMIT_CORE, &rl);
		if (rl.rlim_cur == RLIM_INFINITY)
			printf("unlimited\n");
		else
			printf("%llu\n", (unsigned long long)rl.rlim_cur / 1024);
		return 0;
	}
	rl.rlim_cur = strcmp(argv[2], "unlimited") ?
		      strtoull(argv[2], &end, 10) * 1024 : RLIM_INFINITY;
	if (strcmp(argv[2], "unlimited") && (*end || end == argv[2])) {
		fprintf(stderr, "sh: ulimit: %s: invalid number\n", argv[2]);
		return 1;
	}
	rl.rlim_max = rl.rlim_cur;
	if (setrlimit(RLIMIT_CORE, &rl)) {
		fprintf(stderr, "sh: ulimit: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/* Builtins that change the shell itself; true if argv was one. */
static int builtin(char **argv, int argc)
{
	const char *dir;
	char *end;
	long n;

	if (strcmp(argv[0], "cd") == 0) {
		dir = argc > 1 ? argv[1] : getenv("HOME");
		if (!dir || !*dir)
			dir = "/";
		last_status = 0;
		if (chdir(dir) < 0) {
			fprintf(stderr, "sh: cd: %s: %s\n", dir,
				strerror(errno));
			last_status = 1;
		}
		return 1;
	}
	if (strcmp(argv[0], "fg") == 0) {
		fg();
		return 1;
	}
	if (strcmp(argv[0], "ulimit") == 0) {
		last_status = ulimit(argv, argc);
		return 1;
	}
	if (strcmp(argv[0], "exit") == 0) {
		if (argc < 2)
			exit(last_status);
		n = strtol(argv[1], &end, 10);
		if (*end || end == argv[1]) {
			fprintf(stderr, "sh: exit: %s: numeric argument "
				"required\n", argv[1]);
			exit(2);
		}
		exit(n & 255);
	}
	return 0;
}

static void report(int status)
{
	int sig;

	if (WIFEXITED(status)) {
		last_status = WEXITSTATUS(status);
		return;
	}
	sig = WTERMSIG(status);
	last_status = 128 + sig;
	if (sig == SIGINT)
		fprintf(stderr, "\n");
	else if (sig != SIGPIPE)
		fprintf(stderr, "%s%s\n", strsignal(sig),
			WCOREDUMP(status) ? " (core dumped)" : "");
}

/* The shell's signals, ignored on a terminal it owns (as sh's); a child
 * takes the defaults back. */
static void job_signals(void (*h)(int))
{
	signal(SIGINT, h);
	signal(SIGQUIT, h);
	if (jobctl) {
		signal(SIGTSTP, h);
		signal(SIGTTIN, h);
		signal(SIGTTOU, h);
	}
}

/* In a child, or the shell for it: into the job's group (the child's
 * own for the first stage), which gets the terminal. Both do it, so that
 * neither has to wait for the other. */
static void enter_job(pid_t pid, pid_t *pgid)
{
	if (!jobctl)
		return;
	if (!*pgid)
		*pgid = pid;
	setpgid(pid, *pgid);
	tcsetpgrp(0, *pgid);
}

/* Waits for the job's processes; a stop (^Z) keeps it for fg. The
 * terminal comes back to the shell. */
static void wait_job(struct job *j)
{
	int status;
	pid_t w;

	while (j->nchild > 0) {
		w = jobctl ? waitpid(-j->pgid, &status, WUNTRACED)
			   : wait(&status);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break;
		if (WIFSTOPPED(status)) {
			fprintf(stderr, "\n[stopped] %d (fg continues it)\n",
				j->pgid);
			stopped_job = *j;
			last_status = 128 + WSTOPSIG(status);
			break;
		}
		j->nchild--;
		if (w == j->last)
			report(status);
	}
	if (jobctl)
		tcsetpgrp(0, getpgrp());
}

/* fg: the stopped job gets the terminal and SIGCONT, and is waited for. */
static void fg(void)
{
	struct job j = stopped_job;

	if (!j.pgid) {
		fprintf(stderr, "sh: fg: no stopped job\n");
		last_status = 1;
		return;
	}
	stopped_job.pgid = 0;
	tcsetpgrp(0, j.pgid);
	kill(-j.pgid, SIGCONT);
	wait_job(&j);
}

static void run_pipeline(int n)
{
	int i, argc, nstages = 1, in = -1, pfd[2];
	struct job job = { 0, -1, 0 };
	struct tok *stage;
	pid_t pid;

	for (i = 0; i < n; i++)
		nstages += toks[i].type == T_PIPE;

	/* One stage at a time, each reading the previous one's pipe. */
	for (i = 0; i < n; i++) {
		stage = &toks[i];
		for (argc = 0; toks[i].type != T_PIPE &&
			       toks[i].type != T_END; i++) {
			if (toks[i].type == T_WORD)
				argv_buf[argc++] = toks[i].word;
			else
				i++;
		}
		argv_buf[argc] = NULL;
		if (nstages == 1 && builtin(argv_buf, argc))
			return;
		pfd[0] = pfd[1] = -1;
		if (toks[i].type == T_PIPE && pipe2(pfd, O_CLOEXEC) < 0) {
			perror("sh: pipe");
			break;
		}
		pid = fork();
		if (pid < 0) {
			perror("sh: fork");
			close(pfd[0]);
			close(pfd[1]);
			break;
		}
		if (pid == 0) {
			enter_job(getpid(), &job.pgid);
			job_signals(SIG_DFL);
			if (in >= 0)
				dup2(in, 0);
			if (pfd[1] >= 0)
				dup2(pfd[1], 1);
			redirect(stage);
			/* cd or exit inside a pipeline: no effect, as in sh. */
			if (builtin(argv_buf, argc))
				_exit(last_status);
			exec_cmd(argv_buf);
		}
		enter_job(pid, &job.pgid);
		if (in >= 0)
			close(in);
		if (pfd[1] >= 0)
			close(pfd[1]);
		in = pfd[0];
		job.last = pid;
		job.nchild++;
	}
	if (in >= 0)
		close(in);
	last_status = 1;
	wait_job(&job);
}

/* Each pipeline is expanded only when the one before it is done, so that
 * "false; echo $?" sees the status of false. */
static void run_line(const char *line)
{
	int n;

	while (line) {
		n = tokenize(line, &line);
		if (n < 0)
			return;
		if (check(n) == 0 && toks[0].type != T_END)
			run_pipeline(n);
	}
}

/* Read one line, a byte at a time so that no input meant for a child is
 * swallowed.  Returns its length, 0 at end of input. */
static int read_line(int fd, char *buf, int size)
{
	int n = 0, too_long = 0;
	ssize_t r;
	char c;

	for (;;) {
		r = read(fd, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (c == '\n') {
			if (!too_long)
				break;
			fprintf(stderr, "sh: line too long\n");
			n = too_long = 0;
			continue;
		}
		if (n < size - 1)
			buf[n++] = c;
		else
			too_long = 1;
	}
	if (r <= 0 && n == 0)
		return 0;
	buf[n] = '\0';
	return n + 1;
}

int main(int argc, char **argv)
{
	static char line[MAXLINE];
	int fd = 0, interactive;

	if (argc > 2 && strcmp(argv[1], "-c") == 0) {
		run_line(argv[2]);
		return last_status;
	}
	if (argc > 1) {
		fd = open(argv[1], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "sh: %s: %s\n", argv[1],
				strerror(errno));
			return 127;
		}
	}
	/* Ctrl-C at the prompt must not end the shell; children reset it.
	 * Job control if the terminal's foreground group is ours. */
	interactive = fd == 0 && isatty(0);
	jobctl = interactive && tcgetpgrp(0) == getpgrp();
	if (interactive)
		job_signals(SIG_IGN);
	for (;;) {
		if (interactive)
			write(2, "zpk$ ", 5);
		if (read_line(fd, line, sizeof(line)) == 0)
			break;
		run_line(line);
	}
	if (interactive)
		write(2, "\n", 1);
	return last_status;
}
