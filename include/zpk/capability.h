/* include/zpk/capability.h — capabilities: every zpk process is root and
 * holds all of Linux 6.1's (CAP_CHECKPOINT_RESTORE, 40, is the last). */
#ifndef ZPK_CAPABILITY_H
#define ZPK_CAPABILITY_H

#define CAP_LAST_CAP	40
#define CAP_FULL_SET	((1ULL << (CAP_LAST_CAP + 1)) - 1)

#endif
