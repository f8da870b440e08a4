/* zpk/init.h — from boot to PID 1: kernel_main (kernel/main.c, called
 * by boot/start64.asm), init='s command line and start (kernel/init.c). */
#ifndef ZPK_INIT_H
#define ZPK_INIT_H

#include <zpk/compiler.h>
#include <zpk/types.h>

/* The first C code: multiboot2's magic and its boot information's
 * physical address. */
void kernel_main(u32 magic, u32 info);
/* Splits the command line at " -- ": the part before is the kernel's,
 * the words after are init's (cmdline is cut there). */
void split_init_args(char *cmdline);
/* Starts PID 1 and the kworker (PID 2), and becomes CPU 0's idle loop. */
void __noreturn start_init(void);

#endif
