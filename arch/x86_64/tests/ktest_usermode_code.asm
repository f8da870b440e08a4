; arch/x86_64/tests/ktest_usermode_code.asm — tiny user programs for the
; usermode ktests, copied to a user page. Position-independent; each ends in
; int3.

bits 64
section .rodata

%macro BLOB 1
global %1
global %1_end
%1:
%endmacro

BLOB user_int3_42
	mov eax, 42
	int3
user_int3_42_end:

BLOB user_enosys
	mov eax, 400			; no such system call
	syscall
	int3
user_enosys_end:

BLOB user_keeps_regs
	mov rbx, 0x1111
	mov rbp, 0x2222
	mov r12, 0x3333
	mov r13, 0x4444
	mov r14, 0x5555
	mov r15, 0x6666
	mov rdi, 0x7777
	mov rsi, 0x8888
	mov rdx, 0x9999
	mov r8, 0xaaaa
	mov eax, 401
	syscall
	int3
user_keeps_regs_end:

BLOB user_null_read
	mov rax, [0]
	int3
user_null_read_end:

BLOB user_write_code
	lea rax, [rel user_write_code]
	mov byte [rax], 0x90
	int3
user_write_code_end:

BLOB user_read_kernel
	mov rax, 0xffff888000100000	; the direct map: present, supervisor
	mov rax, [rax]
	int3
user_read_kernel_end:

BLOB user_hlt
	hlt
	int3
user_hlt_end:

; mm/tests/ktest_tlb.c's: one byte of each of [rsp - 16] pages from [rsp - 8]
; read (into al), or written with the byte [rsp - 24].
BLOB user_tlb_read
	mov rdi, [rsp - 8]
	mov rsi, [rsp - 16]
.next:	mov al, [rdi]
	add rdi, 4096
	dec rsi
	jnz .next
	int3
user_tlb_read_end:

BLOB user_tlb_write
	mov rdi, [rsp - 8]
	mov rsi, [rsp - 16]
	mov rdx, [rsp - 24]
.next:	mov [rdi], dl
	add rdi, 4096
	dec rsi
	jnz .next
	int3
user_tlb_write_end:
