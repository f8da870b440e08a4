; arch/x86_64/syscall_64.asm — the SYSCALL entry: switch to the kernel stack
; and build the same pt_regs a trap builds, so one return path serves both.

bits 64
%include "calling.inc"
section .text
extern do_syscall_64
extern trap_return

USER_DS equ 0x23
USER_CS equ 0x2b
PERCPU_KERNEL_RSP equ 0		; offsets in struct pcpu (asm/percpu.h)
PERCPU_USER_RSP   equ 8

; On entry: rcx = user rip, r11 = user rflags, rax = number, args in
; rdi rsi rdx r10 r8 r9; rsp is still the user's; IF is off (FMASK).
global entry_syscall_64
entry_syscall_64:
	swapgs
	mov [gs:PERCPU_USER_RSP], rsp
	mov rsp, [gs:PERCPU_KERNEL_RSP]
	push USER_DS			; the frame iretq will pop
	push qword [gs:PERCPU_USER_RSP]
	push r11
	push USER_CS
	push rcx
	push 0				; error code
	push rax			; "vector" slot holds the number
	PUSH_REGS
	xor ebp, ebp			; backtraces stop at the user boundary
	cld
	mov rdi, rsp
	call do_syscall_64
	jmp trap_return			; iretq: restores rcx and r11 too
