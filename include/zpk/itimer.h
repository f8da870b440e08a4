/* zpk/itimer.h — the interval timers (kernel/itimer.c): the tick's
 * count-down, and sending their signals from process context. */
#ifndef ZPK_ITIMER_H
#define ZPK_ITIMER_H

#include <zpk/types.h>

struct task_struct;
struct signal_struct;

/* Every CPU's tick, for p, the task it interrupted (user: in user mode):
 * CPU 0 fires the real timers due; p's process's virtual (user ticks)
 * and prof timers lose a tick, and p is to send what fired. Interrupts
 * off. */
void itimer_tick(struct task_struct *p, bool user);
/* current's way back to user mode, under the big kernel lock: the
 * SIGVTALRM and SIGPROF its ticks fired, to its process. */
void itimer_send_signals(void);
/* SIGALRM was taken from the process's pending set: a periodic real
 * timer goes on, at its next interval after now (Linux restarts it in
 * dequeue_signal). */
void itimer_rearm_real(struct signal_struct *sig);
/* The process's last thread exits: its timers stop and no SIGALRM is
 * sent any more. Under the big kernel lock. */
void exit_itimers(struct signal_struct *sig);

#endif
