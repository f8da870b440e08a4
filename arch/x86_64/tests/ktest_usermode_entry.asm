; arch/x86_64/tests/ktest_usermode_entry.asm — for the usermode ktests: enter
; ring 3 at a given rip/rsp and come back. enter_user_mode returns when a trap
; hook sends the CPU to user_mode_returned.

bits 64
section .text

USER_DS equ 0x23
USER_CS equ 0x2b

; long enter_user_mode(u64 rip, u64 rsp, u64 *saved_ksp)
global enter_user_mode
enter_user_mode:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdx], rsp
	push USER_DS
	push rsi
	push 0x2			; rflags: IF off (no interrupts yet)
	push USER_CS
	push rdi
	xor eax, eax			; no kernel values leak to user mode
	xor ebx, ebx
	xor ecx, ecx
	xor edx, edx
	xor esi, esi
	xor edi, edi
	xor ebp, ebp
	xor r8d, r8d
	xor r9d, r9d
	xor r10d, r10d
	xor r11d, r11d
	xor r12d, r12d
	xor r13d, r13d
	xor r14d, r14d
	xor r15d, r15d
	swapgs				; user GS base in, percpu saved
	iretq

; Reached by iretq from a trap hook, on the saved kernel stack, rax = result.
global user_mode_returned
user_mode_returned:
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	ret
