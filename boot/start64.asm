; boot/start64.asm — first 64-bit code in the higher half: the boot CPU's
; (kernel_main(magic, info_phys)) and the other CPUs' (start_secondary).

bits 64
KSTACK_SIZE equ 16384

section .bss
align 16
global boot_stack_bottom
boot_stack_bottom:
	resb KSTACK_SIZE
global boot_stack_top
boot_stack_top:

section .text
global start64
extern kernel_main
start64:
	mov rsp, boot_stack_top
	push 0				; a zero "return address" above the
	push 0				; first frame ends gdb's backtrace
	xor ebp, ebp			; and rbp = 0 ends ours
	mov edi, edi			; zero-extend magic and info address
	mov esi, esi
	call kernel_main
.halt:
	cli
	hlt
	jmp .halt

; An AP, from the trampoline (arch/x86_64/trampoline.asm), still on the
; boot page tables and without a stack: smpboot.c left both here.
global secondary_startup_64
extern initial_cr3
extern initial_stack
extern start_secondary
secondary_startup_64:
	mov rax, [initial_cr3]		; init_pgd: the kernel's own tables
	mov cr3, rax
	mov rsp, [initial_stack]	; its idle task's stack
	push 0				; as above: backtraces end here
	push 0
	xor ebp, ebp
	call start_secondary		; never returns
	jmp start64.halt
