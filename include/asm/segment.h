/* asm/segment.h — GDT selectors.  The order is fixed by SYSCALL/SYSRET:
 * user data must sit 8 bytes below user code (STAR's user base + 8/+16). */
#ifndef ASM_SEGMENT_H
#define ASM_SEGMENT_H

#define GDT_KERNEL_CS	1
#define GDT_KERNEL_DS	2
#define GDT_USER32_CS	3	/* unused, keeps SYSRET's layout */
#define GDT_USER_DS	4
#define GDT_USER_CS	5
#define GDT_TSS		6	/* 16 bytes: entries 6 and 7 */
#define GDT_ENTRIES	8

#define __KERNEL_CS	(GDT_KERNEL_CS * 8)
#define __KERNEL_DS	(GDT_KERNEL_DS * 8)
#define __USER_DS	(GDT_USER_DS * 8 + 3)
#define __USER_CS	(GDT_USER_CS * 8 + 3)
#define __TSS_SEL	(GDT_TSS * 8)
#define __USER32_CS_BASE (GDT_USER32_CS * 8 + 3)	/* STAR[63:48] */

#endif
