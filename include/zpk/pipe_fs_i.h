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

/* bufs[tail % 16 ...] hold the data, oldest first, nrbufs of them.
 * readers and writers count the open ends, r_counter and w_counter the
 * opens of each ever (a FIFO's open waits for the other side's); both
 * sides sleep on wait. */
struct pipe_inode_info {
	struct pipe_buffer bufs[PIPE_DEF_BUFFERS];
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
	return pipe->nrbufs == PIPE_DEF_BUFFERS;
}

/* The pipe behind f, or NULL if f is not a pipe. */
struct pipe_inode_info *get_pipe_info(struct file *f);
/* Waits until the pipe has a free buffer (Linux's wait_for_space):
 * 0, -EPIPE (no reader, SIGPIPE sent), -EAGAIN (nonblock), -EINTR. */
int pipe_wait_for_space(struct pipe_inode_info *pipe, bool nonblock);
/* Appends buf (a full pipe BUGs); the pipe owns its reference now. */
void pipe_push_buf(struct pipe_inode_info *pipe,
		   const struct pipe_buffer *buf);
/* Adds delta to _refcount of every page the pipes hold a reference to:
 * mm_verify counts them out, as it counts out mappings. */
void pipe_tally_pages(int delta);

#endif
