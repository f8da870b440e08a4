/* zpk/tty.h — the console tty as the rest of the kernel sees it: the
 * controlling terminal of a session and its foreground process group. */
#ifndef ZPK_TTY_H
#define ZPK_TTY_H

#include <zpk/types.h>

struct tty_struct;

/* A session leader lets go of its controlling tty (Linux's
 * disassociate_ctty): at its exit (on_exit) the foreground process group
 * gets SIGHUP, at TIOCNOTTY SIGHUP and SIGCONT; then nobody in the
 * session has the tty and the tty has no session. */
void disassociate_ctty(bool on_exit);
/* For /proc/PID/stat: the tty's device number (Linux's tty_nr encoding)
 * and foreground process group, or 0 and -1 without a tty. */
int tty_devnr(const struct tty_struct *tty);
int tty_fg_pgrp(const struct tty_struct *tty);

#endif
