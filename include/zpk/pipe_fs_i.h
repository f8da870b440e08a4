/* zpk/pipe_fs_i.h — a pipe's insides (Linux's linux/pipe_fs_i.h): a ring
 * of page buffers, shared by fs/pipe.c and vmsplice (fs/splice.c). */
#ifndef ZPK_PIPE_FS_I_H
#define ZPK_PIPE_FS_I_H

#include <zpk/fs.h>
#include <zpk/list.h>
#include <zpk/wait.h>

#define PIPE_DEF_BUFFERS	16	/* Linux's default: 64 KiB of pages */

/*
 * Part of one page: [offset, offset + len) is data not yet read. A
 * write's buffer is a page of the pipe's own (can_merge: later small
 * writes append to it); a vmsplice buffer is a user page held by
 * reference, read as it is when read (the zero page without one).
 */
struct pipe_buffer {
	struct page *page;
	unsigned int offset, len;
	bool can_merge;
};

/* bufs[tail % ring_size ...] hold the data, oldest first, nrbufs of
 * them; ring_size is a power of two (16 until F_SETPIPE_SZ: Linux's
 * ring_size and max_usage, which are equal without watch queues).
 * readers and writers count the open ends, r_counter and w_counter the
 * opens of each ever (a FIFO's open waits for the other side's); both
 * sides sleep on wait. */
struct pipe_inode_info {
	struct pipe_buffer *bufs;
	unsigned int ring_size;
	unsigned int tail, nrbufs;
	struct page *tmp_page;		/* kept for the next write (Linux's):
					 * a pipe in use holds one page */
	int readers, writers;
	unsigned int r_counter, w_counter;
	struct wait_queue_head wait;
	struct list_head list;		/* all_pipes: mm_verify counts refs */
};

static inline bool pipe_full(const struct pipe_inode_info *pipe)
{
	return pipe->nrbufs >= pipe->ring_size;
}

/* /proc/sys/fs/pipe-max-size: what an unprivileged F_SETPIPE_SZ may ask
 * for at most (Linux's pipe_max_size, 1 MiB). */
extern unsigned int pipe_max_size;
/* Linux's round_pipe_size: a page at least, else the power of two at or
 * above size; 0 (invalid) past 2^31. */
unsigned int round_pipe_size(unsigned int size);
/* fcntl's F_SETPIPE_SZ and F_GETPIPE_SZ of f: the pipe's size in bytes,
 * or -EBADF (not a pipe), -EINVAL, -EPERM, -EBUSY, -ENOMEM. */
long pipe_fcntl(struct file *f, unsigned int cmd, unsigned int arg);
#define F_SETPIPE_SZ	1031
#define F_GETPIPE_SZ	1032

/* The pipe behind f, or NULL if f is not a pipe. */
struct pipe_inode_info *get_pipe_info(struct file *f);
/* Waits until the pipe has a free buffer (Linux's wait_for_space):
 * 0, -EPIPE (no reader, SIGPIPE sent), -EAGAIN (nonblock), -EINTR. */
int pipe_wait_for_space(struct pipe_inode_info *pipe, bool nonblock);
/* Appends buf (a full pipe BUGs); the pipe owns its reference now. */
void pipe_push_buf(struct pipe_inode_info *pipe,
		   const struct pipe_buffer *buf);
/* Registers the pipes' page references with mm_verify (vfs_init). */
void pipe_init(void);

#endif
