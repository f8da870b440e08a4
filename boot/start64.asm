; boot/start64.asm — first 64-bit code in the higher half.
; Switches to the kernel stack and calls kernel_main(magic, info_phys).

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
