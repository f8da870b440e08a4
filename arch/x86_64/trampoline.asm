; arch/x86_64/trampoline.asm — where an AP (another CPU) starts: 16-bit real
; mode at TRAMPOLINE_BASE, then protected mode, long mode, and a jump to
; secondary_startup_64. smpboot.c copies these bytes below 1 MiB first.

TRAMPOLINE_BASE	equ 0x8000		; asm/smp.h; the SIPI's vector is 0x08
; The physical address of a label once the code sits at TRAMPOLINE_BASE.
%define PA(label) (TRAMPOLINE_BASE + (label) - trampoline_start)

extern boot_pml4
extern secondary_startup_64

; Only copied, never run where it is linked.
section .rodata
align 16
global trampoline_start
trampoline_start:

bits 16
; The SIPI leaves CS = 0x0800, IP = 0 and nothing else set up.
	cli
	cld
	xor ax, ax
	mov ds, ax			; addresses below are physical
	o32 lgdt [PA(tr_gdt_ptr)]
	mov eax, cr0
	or eax, 1			; PE
	mov cr0, eax
	jmp dword 0x08:PA(tr_protected)

bits 32
tr_protected:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	; The boot CPU's first page tables (boot/multiboot2.asm): they map
	; this page where it is and the kernel where it is linked.
	mov eax, boot_pml4
	mov cr3, eax
	mov ecx, 0xc0000080		; EFER
	rdmsr
	or eax, (1 << 8) | (1 << 11)	; LME; NXE, used by init_pgd's PTEs
	wrmsr
	mov eax, cr0
	or eax, 1 << 31			; PG: long mode, compatibility
	mov cr0, eax
	jmp 0x18:PA(tr_long)

bits 64
tr_long:
	mov rax, secondary_startup_64	; the higher half
	jmp rax

align 8
tr_gdt:
	dq 0
	dq 0x00cf9a000000ffff		; 0x08: 32-bit code
	dq 0x00cf92000000ffff		; 0x10: data
	dq 0x00af9a000000ffff		; 0x18: 64-bit code
tr_gdt_ptr:
	dw tr_gdt_ptr - tr_gdt - 1
	dd PA(tr_gdt)

global trampoline_end
trampoline_end:
