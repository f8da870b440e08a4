; boot/multiboot2.asm — the multiboot2 header and the 32-bit entry from GRUB.
; Checks the loader and the CPU, builds the early page tables, enters long mode.

bits 32
extern start64

MB2_MAGIC	equ 0xe85250d6		; in the header
MB2_BOOT_MAGIC	equ 0x36d76289		; in eax from the loader
KERNEL_VMA	equ 0xffffffff80000000
PML4_DIRECT	equ 273			; (0xffff888000000000 >> 39) & 511
PML4_KERNEL	equ 511
PDPT_KERNEL	equ 510			; (0xffffffff80000000 >> 30) & 511

section .multiboot2
align 8
mb2_header:
	dd MB2_MAGIC
	dd 0				; architecture: i386 (32-bit protected mode)
	dd mb2_header_end - mb2_header
	dd 0x100000000 - (MB2_MAGIC + (mb2_header_end - mb2_header))
	align 8				; end tag
	dw 0, 0
	dd 8
mb2_header_end:

; Early page tables: one page directory of 2 MiB pages maps the low 1 GiB,
; reached three ways: identity (to survive turning paging on), the direct
; map at PAGE_OFFSET, and the kernel image at KERNEL_VMA.  They live in the
; file (not .bss) so nothing depends on the loader zeroing memory for us.
section .boot.data
align 4096
global boot_pml4
boot_pml4:	times 512 dq 0
boot_pdpt_low:	times 512 dq 0
boot_pdpt_high:	times 512 dq 0
boot_pd:	times 512 dq 0
early_stack:	times 256 dq 0
early_stack_top:

boot_gdt:
	dq 0
	dq 0x00af9a000000ffff		; 0x08: 64-bit code
	dq 0x00cf92000000ffff		; 0x10: data
boot_gdt_ptr:
	dw boot_gdt_ptr - boot_gdt - 1
	dq boot_gdt

msg_no_mb2:	db "zpk: not started by a multiboot2 loader; halted.", 0
msg_no_lm:	db "zpk: this CPU has no long mode (x86-64); halted.", 0

section .boot.text
global _start
_start:
	cli
	mov esp, early_stack_top
	cmp eax, MB2_BOOT_MAGIC
	jne .no_mb2
	mov edi, eax			; edi = magic, esi = info (cpuid eats ebx)
	mov esi, ebx
	call check_long_mode
	test eax, eax
	jz .no_lm
	call build_page_tables
	jmp enter_long_mode
.no_mb2:
	mov esi, msg_no_mb2
	jmp vga_die
.no_lm:
	mov esi, msg_no_lm
	jmp vga_die

; eax = 1 when CPUID exists and reports long mode.
check_long_mode:
	pushfd				; CPUID exists if EFLAGS.ID can flip
	pop eax
	mov ecx, eax
	xor eax, 1 << 21
	push eax
	popfd
	pushfd
	pop eax
	push ecx
	popfd
	cmp eax, ecx
	je .no
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29		; LM
	jz .no
	mov eax, 1
	ret
.no:
	xor eax, eax
	ret

build_page_tables:
	xor ecx, ecx
.fill_pd:				; 512 x 2 MiB = 1 GiB, present|write|PS
	mov eax, ecx
	shl eax, 21
	or eax, 0x83
	mov [boot_pd + ecx * 8], eax
	inc ecx
	cmp ecx, 512
	jne .fill_pd
	mov eax, boot_pd
	or eax, 3
	mov [boot_pdpt_low], eax
	mov [boot_pdpt_high + PDPT_KERNEL * 8], eax
	mov eax, boot_pdpt_low
	or eax, 3
	mov [boot_pml4], eax
	mov [boot_pml4 + PML4_DIRECT * 8], eax
	mov eax, boot_pdpt_high
	or eax, 3
	mov [boot_pml4 + PML4_KERNEL * 8], eax
	ret

enter_long_mode:
	mov eax, boot_pml4
	mov cr3, eax
	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	mov ecx, 0xc0000080		; EFER
	rdmsr
	or eax, 1 << 8			; LME
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | 1		; PG | PE
	mov cr0, eax
	lgdt [boot_gdt_ptr]
	jmp 0x08:long_mode_low

; esi = message; white on red in the top line of the VGA text screen.
vga_die:
	mov edi, 0xb8000
.next:
	lodsb
	test al, al
	jz .halt
	mov ah, 0x4f
	stosw
	jmp .next
.halt:
	hlt
	jmp .halt

bits 64
long_mode_low:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax
	mov rax, start64		; now jump up to the higher half
	jmp rax
