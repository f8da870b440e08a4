/* arch/x86_64/tests/ktest_uaccess.c — ktests of copy_{from,to}_user and
 * friends: good copies through a test user page, -EFAULT paths, SMAP,
 * access_ok. */
#include <asm/io.h>
#include <asm/traps.h>
#include <zpk/errno.h>
#include <zpk/ktest.h>
#include <zpk/mm.h>
#include <zpk/mmu.h>
#include <zpk/string.h>
#include <zpk/uaccess.h>

#define TEST_UVA	0x0000000010000000UL	/* a user address, unmapped */
KTEST(uaccess, copy_to_and_from_user_page)
{
	char *alias = ktest_map_user_page(TEST_UVA);
	char buf[16] = { 0 };

	KEXPECT_EQ(copy_to_user((void *)(TEST_UVA + 100), "hello", 6), 0);
	KEXPECT_EQ(strcmp(alias + 100, "hello"), 0);
	KEXPECT_EQ(copy_from_user(buf, (void *)(TEST_UVA + 100), 6), 0);
	KEXPECT_EQ(strcmp(buf, "hello"), 0);
	KEXPECT_EQ(strncpy_from_user(buf, (void *)(TEST_UVA + 100), 16), 5);
	KEXPECT_EQ(clear_user((void *)(TEST_UVA + 100), 6), 0);
	KEXPECT_EQ(alias[100], 0);
	ktest_unmap_user_page(TEST_UVA);
}

KTEST(uaccess, copy_across_end_of_mapping_is_short)
{
	char buf[32];
	unsigned long last = TEST_UVA + PAGE_SIZE - 8;

	ktest_map_user_page(TEST_UVA);
	memset(buf, 0x55, sizeof(buf));
	/* 8 bytes are mapped, 24 are not: 24 uncopied, and zero-filled. */
	KEXPECT_EQ(copy_from_user(buf, (void *)last, 32), 24);
	KEXPECT_EQ(buf[7], 0);
	KEXPECT_EQ(buf[31], 0);
	KEXPECT_EQ(copy_to_user((void *)last, buf, 32), 24);
	ktest_unmap_user_page(TEST_UVA);
}

KTEST(uaccess, unmapped_user_pointer_is_efault)
{
	char buf[8];

	KEXPECT_EQ(copy_from_user(buf, (void *)TEST_UVA, 8), 8);
	KEXPECT_EQ(copy_to_user((void *)1, buf, 8), 8);
	KEXPECT_EQ(strncpy_from_user(buf, (void *)TEST_UVA, 8), -EFAULT);
	KEXPECT_EQ(get_user(buf[0], (char *)TEST_UVA), -EFAULT);
	KEXPECT_EQ(put_user('x', (char *)TEST_UVA), -EFAULT);
}

KTEST(uaccess, kernel_pointers_rejected)
{
	static char secret[8] = "kernel!";
	char buf[8];

	KEXPECT_FALSE(access_ok(secret, 8));
	KEXPECT_FALSE(access_ok((void *)(TASK_SIZE - 4), 8));
	KEXPECT_TRUE(access_ok((void *)(TASK_SIZE - 8), 8));
	KEXPECT_EQ(copy_from_user(buf, secret, 8), 8);
	KEXPECT_EQ(copy_to_user(secret, "xxxxxxx", 8), 8);
	KEXPECT_EQ(strcmp(secret, "kernel!"), 0);
}

static int smap_faults;

static bool count_pf(struct pt_regs *regs)
{
	if (regs->vector == X86_TRAP_PF && read_cr2() == TEST_UVA)
		smap_faults++;
	return false;	/* the exception table does the rest */
}

KTEST(uaccess, smap_blocks_plain_kernel_access)
{
	u64 v;

	KEXPECT_TRUE(have_smap);	/* QEMU's -cpu max has it */
	if (!have_smap)
		return;
	ktest_map_user_page(TEST_UVA);
	smap_faults = 0;
	trap_test_hook = count_pf;
	KEXPECT_EQ(ktest_probe_read_u64((void *)TEST_UVA, &v), -EFAULT);
	trap_test_hook = NULL;
	KEXPECT_EQ(smap_faults, 1);
	KEXPECT_TRUE(read_cr4() & X86_CR4_SMAP);
	ktest_unmap_user_page(TEST_UVA);
}
