/* user/bin/ls.c — ls [-a] [-l] [PATH...]: list files, sorted by name.
 * -l shows mode, links, owner, size (no dates); directories via getdents64. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int lflag, aflag;

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void mode_str(mode_t m, char *s)
{
	const char *rwx = "rwxrwxrwx";
	int i;

	s[0] = S_ISDIR(m) ? 'd' : S_ISCHR(m) ? 'c' : S_ISBLK(m) ? 'b' :
	       S_ISFIFO(m) ? 'p' : S_ISLNK(m) ? 'l' : S_ISSOCK(m) ? 's' : '-';
	for (i = 0; i < 9; i++)
		s[i + 1] = (m & (0400 >> i)) ? rwx[i] : '-';
	s[10] = '\0';
}

/* Print one entry; path is what to stat, name what to show. */
static int show(const char *path, const char *name)
{
	struct stat st;
	char mode[11];

	if (!lflag) {
		printf("%s\n", name);
		return 0;
	}
	if (stat(path, &st) < 0) {
		fprintf(stderr, "ls: %s: %s\n", path, strerror(errno));
		return 1;
	}
	mode_str(st.st_mode, mode);
	printf("%s %3lu %4u %4u %8lld %s\n", mode, (unsigned long)st.st_nlink,
	       st.st_uid, st.st_gid, (long long)st.st_size, name);
	return 0;
}

static int list_dir(const char *dir)
{
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	int ret = 0;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "ls: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && !aflag)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names) {
				fprintf(stderr, "ls: out of memory\n");
				exit(1);
			}
		}
		names[n] = strdup(de->d_name);
		if (!names[n++]) {
			fprintf(stderr, "ls: out of memory\n");
			exit(1);
		}
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		ret |= show(path, names[i]);
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	int i, j, first = 1, ret = 0, nargs;
	struct stat st;
	char *dot[] = { ".", NULL };
	char **args;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (j = 1; argv[i][j]; j++) {
			if (argv[i][j] == 'l')
				lflag = 1;
			else if (argv[i][j] == 'a')
				aflag = 1;
			else {
				fprintf(stderr,
					"usage: ls [-a] [-l] [PATH...]\n");
				return 2;
			}
		}
	}
	args = i < argc ? argv + i : dot;
	nargs = i < argc ? argc - i : 1;
	qsort(args, nargs, sizeof(*args), cmp);

	/* Like ls: plain files first, then each directory under a heading. */
	for (i = 0; i < nargs; i++) {
		if (stat(args[i], &st) < 0) {
			fprintf(stderr, "ls: %s: %s\n", args[i],
				strerror(errno));
			ret = 1;
			args[i] = NULL;
		} else if (!S_ISDIR(st.st_mode)) {
			ret |= show(args[i], args[i]);
			first = 0;
			args[i] = NULL;
		}
	}
	for (i = 0; i < nargs; i++) {
		if (!args[i])
			continue;
		if (nargs > 1)
			printf("%s%s:\n", first ? "" : "\n", args[i]);
		first = 0;
		ret |= list_dir(args[i]);
	}
	return ret;
}
