/* kernel/binfmt_script.c — `#!` scripts as Linux's binfmt_script: the
 * first line names an interpreter and at most one argument; execve runs
 * the interpreter with the script's path as an argument. */
#include <zpk/binfmts.h>
#include <zpk/errno.h>
#include <zpk/slab.h>
#include <zpk/string.h>

static bool spacetab(char c)
{
	return c == ' ' || c == '\t';
}

/* c in the first n bytes of s, before a NUL (Linux's strnchr), or NULL. */
static char *strnchr(char *s, size_t n, char c)
{
	for (; n-- && *s; s++)
		if (*s == c)
			return s;
	return NULL;
}

/* The first of [first, last] that is not a space or tab, or NULL. */
static const char *next_non_spacetab(const char *first, const char *last)
{
	for (; first <= last; first++)
		if (!spacetab(*first))
			return first;
	return NULL;
}

/* The first of [first, last] that is a space, a tab or a NUL, or NULL. */
static const char *next_terminator(const char *first, const char *last)
{
	for (; first <= last; first++)
		if (spacetab(*first) || !*first)
			return first;
	return NULL;
}

/*
 * The line is "#!" [spaces] name [spaces arg] [spaces] "\n", within the
 * BINPRM_BUF_SIZE bytes of b->buf. Without a newline there, the name
 * must still end in them (a space, tab or NUL after it): an interpreter
 * is never run by a truncated name, while a truncated argument is fine
 * (the interpreter can read the script's line itself). Linux's rule.
 * The argument is passed whole, spaces and all. argv becomes: name, arg,
 * the script's path (b->interp), argv[1..].
 */
int load_script(struct linux_binprm *b)
{
	char *buf = b->buf;
	const char *buf_end = buf + BINPRM_BUF_SIZE - 1;
	char *i_end, *i_name, *i_sep, *i_arg = NULL, *name;
	struct file *file;
	int err;

	if (buf[0] != '#' || buf[1] != '!')
		return -ENOEXEC;
	i_end = strnchr(buf, BINPRM_BUF_SIZE, '\n');
	if (!i_end) {
		i_end = (char *)next_non_spacetab(buf + 2, buf_end);
		if (!i_end || !next_terminator(i_end, buf_end))
			return -ENOEXEC;	/* the name is cut off */
		i_end = (char *)buf_end;
	}
	while (spacetab(i_end[-1]))
		i_end--;
	i_name = (char *)next_non_spacetab(buf + 2, i_end);
	if (!i_name || i_name == i_end)
		return -ENOEXEC;		/* no interpreter named */
	i_sep = (char *)next_terminator(i_name, i_end);
	if (i_sep && *i_sep)
		i_arg = (char *)next_non_spacetab(i_sep, i_end);
	*i_end = '\0';
	if (i_arg)
		*i_sep = '\0';

	/* In reverse: the script's path, the argument, the name. */
	remove_arg_zero(b);
	err = prepend_arg(b, b->interp);
	if (!err && i_arg)
		err = prepend_arg(b, i_arg);
	if (!err)
		err = prepend_arg(b, i_name);
	if (err)
		return err;
	/* The next script in the chain gets this name as its path. */
	name = kmalloc(strlen(i_name) + 1, GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	strcpy(name, i_name);
	kfree(b->interp_buf);
	b->interp = b->interp_buf = name;

	err = open_exec(name, &file);
	if (err)
		return err;
	close_exec(b->file);
	b->file = file;
	return 0;
}
