; arch/x86_64/entry.asm — the 256 IDT entry stubs and the common trap path.
; Each stub pushes (error code, vector) so every trap saves one pt_regs.

bits 64
%include "calling.inc"
section .text

extern do_trap
extern prepare_exit_to_usermode
PT_REGS_CS equ 18 * 8		; offset of cs in struct pt_regs

; CPU exceptions that push an error code themselves.
%define HAS_ERROR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || \
			  (v) == 21 || (v) == 29 || (v) == 30)

%assign v 0
%rep 256
align 16
trap_stub_%[v]:
%if HAS_ERROR(v) == 0
	push 0
%endif
	push v
	jmp trap_common
%assign v v + 1
%endrep

; Stack: vector, error, rip, cs, rflags, rsp, ss.  cs sits at +24.
trap_common:
	test qword [rsp + 24], 3
	jz .from_kernel
	swapgs
.from_kernel:
	PUSH_REGS
	cld
	mov rdi, rsp
	call do_trap
; Every return to user mode passes prepare_exit_to_usermode: the one place
; where a task is preempted and where signals are delivered. Interrupts
; are off from its last look until iretq.
global trap_return
trap_return:
	test qword [rsp + PT_REGS_CS], 3
	jz .restore
	cli
	mov rdi, rsp
	call prepare_exit_to_usermode
.restore:
	POP_REGS
	test qword [rsp + 24], 3
	jz .to_kernel
	swapgs
.to_kernel:
	add rsp, 16			; vector, error code
	iretq

section .rodata
align 8
global trap_stub_table
trap_stub_table:
%assign v 0
%rep 256
	dq trap_stub_%[v]
%assign v v + 1
%endrep
