/* zpk/initrd.h — the root file system at boot, with the initrd GRUB
 * loaded unpacked into it (kernel/initrd.c). */
#ifndef ZPK_INITRD_H
#define ZPK_INITRD_H

/* Mounts the RAM root and unpacks the initrd module into it; the
 * module's pages stay reserved. */
void initrd_init(void);

#endif
