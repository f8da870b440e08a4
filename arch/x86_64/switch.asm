; arch/x86_64/switch.asm — the context switch: save callee-saved registers on
; the old kernel stack, load the new stack; and where new tasks first run.

bits 64
section .text
extern trap_return

; void __switch_to_asm(unsigned long *prev_ksp, unsigned long next_ksp)
global __switch_to_asm
__switch_to_asm:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi], rsp
	mov rsp, rsi
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	ret

; A forked child's first switch lands here with rsp at its pt_regs (a copy
; of the parent's with rax = 0): the end of the switch (the run queue's
; lock, interrupts on), schedule_tail (CLONE_CHILD_SETTID), then leave the
; way the parent's syscall will.
extern finish_task_switch
extern schedule_tail
global ret_from_fork
ret_from_fork:
	call finish_task_switch
	call schedule_tail
	jmp trap_return

; A kernel thread: r12 = fn, r13 = arg. When fn returns (it has exec'd a
; user program into our pt_regs), go to user mode like a forked child.
global ret_from_kernel_thread
ret_from_kernel_thread:
	call finish_task_switch
	mov rdi, r13
	call r12
	jmp trap_return
