/* tests/host/harness.c — simulated RAM, printk into harness_log, and a
 * panic() that longjmps back into expect_bug(); see harness.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/mm.h>
#include <zpk/printk.h>
#include <zpk/swap.h>

#include "harness.h"

char *host_ram_base;
struct page *harness_mem_map;
unsigned long harness_nr_pfns;

int harness_ram_init(size_t bytes)
{
	harness_nr_pfns = bytes / PAGE_SIZE;
	host_ram_base = aligned_alloc(PAGE_SIZE, bytes);
	harness_mem_map = calloc(harness_nr_pfns, sizeof(struct page));
	if (!host_ram_base || !harness_mem_map)
		return -1;
	harness_ram_reset();
	return 0;
}

void harness_ram_reset(void)
{
	mem_map_init(harness_mem_map, harness_nr_pfns);
}

void harness_ram_free(void)
{
	free(harness_mem_map);
	free(host_ram_base);
	harness_mem_map = NULL;
	host_ram_base = NULL;
}

/* ---- printk --------------------------------------------------------- */

char harness_log[16384];
static size_t log_len;

void harness_log_clear(void)
{
	log_len = 0;
	harness_log[0] = '\0';
}

/* /dev/urandom's bytes (fs/devices.c): the host's libc's. */
/* asm/percpu.h: no task runs here (a system call's current). */
struct task_struct *get_current(void)
{
	return NULL;
}

void get_random_bytes(void *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((unsigned char *)buf)[i] = (unsigned char)rand();
}

/* ramfs's file times: the host tests run at the epoch. */
u64 ktime_get_real_ns(void)
{
	return 0;
}

int vprintk(const char *fmt, va_list ap)
{
	size_t room = sizeof(harness_log) - log_len;
	int n;

	if (fmt[0] == KERN_SOH[0] && fmt[1])
		fmt += 2;	/* the level, as kernel/printk.c strips it */
	n = vsnprintf(harness_log + log_len, room, fmt, ap);
	if (n > 0)
		log_len = min(log_len + (size_t)n, sizeof(harness_log) - 1);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

/* ---- panic ---------------------------------------------------------- */

jmp_buf bug_jmp;
bool bug_expected;
char bug_msg[512];

/* A BUG the test expects jumps back into expect_bug(); others fail. */
void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(bug_msg, sizeof(bug_msg), fmt, ap);
	va_end(ap);
	if (!bug_expected) {
		fail_msg("unexpected panic: %s", bug_msg);
		abort();
	}
	bug_expected = false;
	longjmp(bug_jmp, 1);
}

void assert_bug_says(const char *what)
{
	if (!strstr(bug_msg, what))
		fail_msg("BUG \"%s\" does not say \"%s\"", bug_msg, what);
}

/* mm tests link mm/mmap.c without the file layer: their VMAs have no
 * files, so these must never run. test_fs links the real ones. */
struct file;
__attribute__((weak)) struct file *get_file(struct file *f)
{
	fail_msg("get_file called in a test without files");
	return f;
}

__attribute__((weak)) void fput(struct file *f)
{
	(void)f;
	fail_msg("fput called in a test without files");
}

/* mmap's overcommit check compares with RAM and swap: the simulation
 * has plenty of RAM and, without mm/swap_map.c, no swap. */
__attribute__((weak)) unsigned long totalram_pages(void)
{
	return 1UL << 30;
}

__attribute__((weak)) unsigned long total_swap_pages, nr_swap_pages;

/* test_memory maps no files: file faults never reach the page cache. */
struct page;
struct inode;
__attribute__((weak)) struct page *inode_get_page(struct inode *inode,
						  unsigned long pgoff)
{
	(void)inode;
	(void)pgoff;
	fail_msg("inode_get_page called in a test without files");
	return NULL;
}

/* Shared anonymous mappings need the file layer: not in the mm tests. */
__attribute__((weak)) struct file *shmem_file_setup(const char *name,
						    unsigned long len)
{
	(void)name, (void)len;
	fail_msg("shmem_file_setup called in a test without files");
	return NULL;
}

/* /dev/zero's read into user memory needs the mm: not in the fs tests. */
__attribute__((weak)) long zero_read_user(struct file *f, char *buf,
					  unsigned long n, long long *pos)
{
	(void)f, (void)buf, (void)n, (void)pos;
	fail_msg("zero_read_user called in a host test");
	return -1;
}

/* /dev/zero's mmap needs the mm: not in the fs tests. */
struct vm_area_struct;
__attribute__((weak)) int mmap_zero(struct file *f, struct vm_area_struct *vma)
{
	(void)f, (void)vma;
	fail_msg("mmap_zero called in a host test");
	return -1;
}

/* No pipes in the host tests: nothing for mm_verify to count. */
__attribute__((weak)) void pipe_init(void)
{
}

/* No userfaultfd in the host tests: no VMA is ever registered, so the
 * fault path asks shmem_userfault only of file VMAs (none here). */
struct vm_area_struct;
__attribute__((weak)) unsigned int handle_userfault(struct vm_area_struct *vma,
						   unsigned long address,
						   unsigned int flags,
						   unsigned long reason)
{
	(void)vma, (void)address, (void)flags, (void)reason;
	fail_msg("handle_userfault called in a host test");
	return 0;
}

__attribute__((weak)) unsigned int shmem_userfault(struct vm_area_struct *vma,
						  unsigned long address)
{
	(void)vma, (void)address;
	return 0;
}

/* No swap area in the host tests: no PTE is ever a swap PTE, no page is
 * in the swap cache, so these must never run (test_swap_map links the
 * real slot calls). */
__attribute__((weak)) void free_swap_and_cache(swp_entry_t entry)
{
	(void)entry;
	fail_msg("free_swap_and_cache called in a test without swap");
}

__attribute__((weak)) int swap_duplicate(swp_entry_t entry)
{
	(void)entry;
	fail_msg("swap_duplicate called in a test without swap");
	return -1;
}

__attribute__((weak)) struct page *swapin_page(swp_entry_t entry,
					       bool *major)
{
	(void)entry, (void)major;
	fail_msg("swapin_page called in a test without swap");
	return NULL;
}

__attribute__((weak)) int swap_cache_map(struct page *page,
					 swp_entry_t entry)
{
	(void)page, (void)entry;
	fail_msg("swap_cache_map called in a test without swap");
	return -1;
}

__attribute__((weak)) bool try_to_free_swap(struct page *page)
{
	(void)page;
	fail_msg("try_to_free_swap called in a test without swap");
	return false;
}

__attribute__((weak)) void swapcache_remove_rmap(struct page *page)
{
	(void)page;
	fail_msg("swapcache_remove_rmap called in a test without swap");
}

/* No reclaim in the host tests: the allocator's wake-up below low (the
 * watermarks stay 0 there, so this is never called). */
__attribute__((weak)) void wakeup_kswapd(void)
{
}

__attribute__((weak)) unsigned long min_wmark, low_wmark, high_wmark;
