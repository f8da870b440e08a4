/* zpk/reboot.h — leaving QEMU: the one place the exit-status mapping lives.
 * QEMU's isa-debug-exit (port 0xf4) exits with status (value << 1) | 1. */
#ifndef ZPK_REBOOT_H
#define ZPK_REBOOT_H

#include <zpk/compiler.h>

/*
 * kernel_poweroff(value)  ->  QEMU exit status (value << 1) | 1
 *   ZPK_EXIT_SUCCESS  0   ->  1    everything passed / init exited 0
 *   ZPK_EXIT_FAILURE  1   ->  3    a test failed / init exited 1
 *   N (init's status) N   ->  2N+1 for N < ZPK_EXIT_PANIC
 *   ZPK_EXIT_PANIC  127   ->  255  kernel panic or fatal exception
 * tests/lib.sh decodes it (qemu_status_to_zpk); QEMU's own 0 means it was
 * quit some other way (Ctrl-A X, or the device is missing).
 */
#define ZPK_EXIT_SUCCESS	0
#define ZPK_EXIT_FAILURE	1
#define ZPK_EXIT_PANIC		127

#define QEMU_DEBUG_EXIT_PORT	0xf4

void __noreturn kernel_poweroff(int value);

#endif
